/**
 * Finished means finished, whatever ended the game (issue 21.4, 21.5): after a resignation,
 * an agreed draw, a time-out (of one seat, or of every seat awaited at once) and every
 * ending the rules reach by themselves, each module's own status and view show the result,
 * the finished phase, nothing pending and nothing hidden, and the log closes with one
 * GameEnded. One check for all four games (test/support/finished.ts); the games' property
 * tests and victory tests run the same check on the endings they reach.
 */
import { describe, expect, it } from 'vitest';
import { games } from '../../src/domain/games.ts';
import { activePlayers, SYSTEM, timeOutCommand, type GameModule } from '../../src/domain/kernel/index.ts';
import { expectFinished } from '../support/finished.ts';
import { attempt, chooser, legal, newGame, status, type Played } from '../support/play.ts';

/** Short games: a turn limit, so that a random walk reaches an ending the rules decide. */
const SHORT: Record<string, unknown> = {
  'raid-on-wuchao': {},
  'three-kingdoms-combined-arms': { turnLimit: 2 },
  'chinese-warlords': { turnLimit: 2 },
  warchon: { turnLimit: 3 },
};

const name = (module: GameModule, seat: string) => module.seatName?.(seat) ?? seat;

/** A game of `players` after `steps` random commands of its own (fewer if it ends first). */
function walked(module: GameModule, players: number, steps: number, seed: number): Played<unknown> {
  const g = newGame(module, SHORT[module.id], module.seats.slice(0, players) as string[], `finished-${module.id}-${seed}`);
  const pick = chooser(seed);
  for (let i = 0; i < steps && status(g).stage !== 'FINISHED'; i++) {
    const awaiting = status(g).awaiting;
    const seat = awaiting[pick(awaiting.length)]!.seat;
    const cmds = legal(g, seat);
    const outcome = attempt(g, seat, cmds[pick(cmds.length)]!);
    if (!outcome.ok) throw new Error(outcome.reason);
  }
  return g;
}

/** Points in a game: the start, and a few random depths (a battle's number call, an attack, a retreat...). */
const DEPTHS = [0, 3, 11, 25, 60, 140];

describe.each(games.map((m) => [m.id, m] as const))('%s', (_id, module) => {
  const counts = Array.from({ length: module.maxPlayers - module.minPlayers + 1 }, (_, i) => module.minPlayers + i);

  describe.each(counts)('with %i players', (players) => {
    it.each(DEPTHS)('is over after resignations, at depth %i: the last one left wins, everyone who resigned is out', (depth) => {
      const g = walked(module, players, depth, depth + players);
      if (status(g).stage === 'FINISHED') return expectFinished(g);
      let last = '';
      while (status(g).stage !== 'FINISHED') {
        last = activePlayers(module, g.state)[0]!;
        expect(attempt(g, last, { type: 'resign' }).ok).toBe(true);
      }
      expectFinished(g, { winners: activePlayers(module, g.state).filter((p) => p !== last), reason: `${name(module, last)} resigned` });
    });

    it.each(DEPTHS)('is over after an agreed draw, at depth %i', (depth) => {
      const g = walked(module, players, depth, depth * 3 + players);
      if (status(g).stage === 'FINISHED') return expectFinished(g);
      const [first, ...others] = activePlayers(module, g.state);
      expect(attempt(g, first!, { type: 'offerDraw' }).ok).toBe(true);
      for (const p of others) expect(attempt(g, p, { type: 'acceptDraw' }).ok).toBe(true);
      expectFinished(g, { winners: [], reason: 'draw agreed' });
    });

    it.each(DEPTHS)('is over after time-outs of the seats it waits for, at depth %i', (depth) => {
      const g = walked(module, players, depth, depth * 5 + players);
      while (status(g).stage !== 'FINISHED') {
        const awaited = status(g).awaiting[0]!.seat;
        expect(attempt(g, SYSTEM, { type: 'timeOut', seat: awaited }).ok).toBe(true);
      }
      expectFinished(g);
      if (depth === 0 && players === 2) expect(status(g).result!.reason).toBe('time out');
    });

    it.each(DEPTHS)('is over, with no winner, when every seat it waits for times out at once, at depth %i', (depth) => {
      const g = walked(module, players, depth, depth * 7 + players);
      if (status(g).stage === 'FINISHED') return expectFinished(g);
      const awaited = [...new Set(status(g).awaiting.map((p) => p.seat))];
      expect(attempt(g, SYSTEM, timeOutCommand(g.state.players, awaited)).ok).toBe(true);
      if (awaited.length === players) expectFinished(g, { winners: [], reason: 'time out' });
      else if (status(g).stage === 'FINISHED') expectFinished(g);
    });
  });

  it('is over after every ending its rules reach in short random games', () => {
    const reasons = new Set<string>();
    for (let seed = 1; seed <= 12; seed++) {
      const players = counts[seed % counts.length]!;
      const g = walked(module, players, 5000, seed);
      expect(status(g).stage, `game ${seed} ends`).toBe('FINISHED');
      expectFinished(g);
      reasons.add(status(g).result!.reason);
    }
    expect(reasons.size).toBeGreaterThan(0);
  });
});
