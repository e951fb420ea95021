/**
 * Random games through legalCommands, for tests that check what any state or event looks
 * like: mostly the game's own commands, now and then a draw offer (accepted or declined),
 * a time-out or a resignation, so the match's events come up too.
 */
import { expect } from 'vitest';
import { activePlayers, matchLegalCommands, SYSTEM, type GameEvent, type GameModule } from '../../src/domain/kernel/index.ts';
import { attempt, chooser, legal, newGame, status, type Played } from './play.ts';

/**
 * Play one game, at most 400 commands and then resignations until it ends, calling `check`
 * after the setup and after each command with the events it recorded. Returns how many
 * commands were played.
 */
export function randomGame<S>(module: GameModule<S>, options: unknown, players: string[], seed: number, check: (game: Played<S>, fresh: GameEvent[]) => void): number {
  const game = newGame(module, options, players, `random-${seed}`);
  const pick = chooser(seed);
  const after = (from: number) => check(game, game.log.slice(from).map((r) => r.event));
  after(0);
  let commands = 0;
  // Every third game, someone resigns along the way.
  const resignAt = seed % 3 === 0 ? 5 + pick(60) : -1;
  for (let step = 0; step < 400 && status(game).stage !== 'FINISHED'; step++) {
    const from = game.log.length;
    const active = activePlayers(module, game.state);
    const offer = game.state.drawOffer;
    const r = pick(100);
    let outcome;
    if (step === resignAt) {
      outcome = attempt(game, active[pick(active.length)]!, { type: 'resign' });
    } else if (offer && active.length > 2 && r < 10) {
      outcome = attempt(game, offer.by, { type: 'resign' }); // the offer lapses
    } else if (offer) {
      const answering = active.find((p) => !offer.accepted.includes(p))!;
      outcome = attempt(game, answering, { type: r < 15 ? 'acceptDraw' : 'declineDraw' });
    } else if (r === 0) {
      outcome = attempt(game, active[pick(active.length)]!, { type: 'offerDraw' });
    } else if (r === 1 && active.length > 2) {
      const awaited = status(game).awaiting[0]!.seat;
      outcome = attempt(game, SYSTEM, { type: 'timeOut', seat: awaited });
    } else {
      const awaiting = status(game).awaiting.filter((p) => p.kind !== 'ANSWER_DRAW');
      const seat = awaiting[pick(awaiting.length)]!.seat;
      const options = legal(game, seat);
      outcome = attempt(game, seat, options[pick(options.length)]!);
    }
    expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    commands++;
    after(from);
  }
  // Unfinished after 400 commands: the players resign one by one.
  while (status(game).stage !== 'FINISHED') {
    const from = game.log.length;
    const seat = activePlayers(module, game.state)[0]!;
    expect(matchLegalCommands(module, game.state, seat)).toContainEqual({ type: 'resign' });
    expect(attempt(game, seat, { type: 'resign' }).ok).toBe(true);
    commands++;
    after(from);
  }
  return commands;
}


/**
 * Random game number `seed` of the module: its example options in turn (GameModule.exampleOptions),
 * and every number of players from min to max in turn.
 */
export function randomGameOf<S>(module: GameModule<S>, seed: number, check: (game: Played<S>, fresh: GameEvent[]) => void): number {
  const examples = module.exampleOptions ?? [{}];
  const count = module.minPlayers + (seed % (module.maxPlayers - module.minPlayers + 1));
  return randomGame(module, examples[seed % examples.length], module.seats.slice(0, count) as string[], seed, check);
}
