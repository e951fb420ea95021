import { describe, expect, it } from 'vitest';
import { asSeat, decideMatch, evolveMatch, initialMatch, matchLegalCommands, matchStatus, SeededRandom, drawDie, start as startGame, step, SYSTEM, timeOutCommand, visibleTo, type MatchState } from '../../src/domain/kernel/index.ts';
import { guessingGame, type GuessState } from '../support/guessing-game.ts';

const input = { options: { target: 5 }, players: ['north', 'east'] };

function start(seed = 'seed'): MatchState<GuessState> {
  return startGame(guessingGame, input, seed).state;
}

function play(s: MatchState<GuessState>, seat: string, command: { type: string; [k: string]: unknown }, seed = 'seed') {
  const outcome = step(guessingGame, s, command, { kind: 'seat', seat }, { seed });
  if (!outcome.ok) throw new Error(outcome.reason);
  return outcome.state;
}

const redactFor = (s: MatchState<GuessState>, event: { type: string; [k: string]: unknown }, viewer: string | null) => visibleTo(guessingGame, s, viewer).event(event);

describe('seeded randomness', () => {
  it('is a pure function of seed and position', () => {
    expect(drawDie('abc', 7, 6)).toBe(drawDie('abc', 7, 6));
    const values = Array.from({ length: 600 }, (_, i) => drawDie('abc', i, 6));
    for (let face = 1; face <= 6; face++) expect(values.filter((v) => v === face).length).toBeGreaterThan(60);
    expect(values.every((v) => v >= 1 && v <= 6)).toBe(true);
  });

  it('counts draws so the next command continues the stream', () => {
    const s = start();
    expect(s.draws).toBe(1);
    const after = play(play(s, 'north', { type: 'guess', number: 1 }), 'east', { type: 'guess', number: 1 });
    expect(after.draws).toBe(2);
  });
});

describe('match rules shared by every game', () => {
  it('waits for several seats at once and refuses a seat it does not wait for', () => {
    let s = start();
    expect(matchStatus(guessingGame, s).awaiting.map((p) => p.seat)).toEqual(['north', 'east']);
    s = play(s, 'north', { type: 'guess', number: 3 });
    const again = decideMatch(guessingGame, s, { type: 'guess', number: 2 }, asSeat('north'), new SeededRandom('seed', s.draws));
    expect(again).toMatchObject({ ok: false, code: 'NOT_YOUR_TURN' });
    expect(matchLegalCommands(guessingGame, s, 'north')).toEqual([{ type: 'offerDraw' }, { type: 'resign' }]);
  });

  it('hides a secret guess from the other seat until the die is rolled', () => {
    let s = start();
    s = play(s, 'north', { type: 'guess', number: 4 });
    const event = { type: 'GuessCommitted', seat: 'north', round: 1, number: 4 };
    expect(redactFor(s, event, 'east')).toMatchObject({ number: null });
    expect(redactFor(s, event, null)).toMatchObject({ number: null });
    expect(redactFor(s, event, 'north')).toMatchObject({ number: 4 });
    s = play(s, 'east', { type: 'guess', number: 1 });
    expect(redactFor(s, event, 'east')).toMatchObject({ number: 4 });
  });

  it('ends a two-player game on resignation with the other player winning', () => {
    const s = play(start(), 'east', { type: 'resign' });
    expect(matchStatus(guessingGame, s)).toMatchObject({ stage: 'FINISHED', result: { winners: ['north'] } });
    const late = decideMatch(guessingGame, s, { type: 'guess', number: 1 }, asSeat('north'), new SeededRandom('seed', s.draws));
    expect(late).toMatchObject({ ok: false, code: 'GAME_OVER' });
  });

  it('eliminates a resigning player when three play, and the game goes on', () => {
    const three = { options: { target: 5 }, players: ['north', 'east', 'south'] };
    let s = initialMatch(guessingGame, three);
    s = evolveMatch(guessingGame, s, { event: { type: 'GameStarted', first: 'north', roll: 1 }, seat: null });
    s = play(s, 'south', { type: 'resign' });
    const status = matchStatus(guessingGame, s);
    expect(status.stage).toBe('ACTIVE');
    expect(status.awaiting.map((p) => p.seat)).toEqual(['north', 'east']);
    expect(matchLegalCommands(guessingGame, s, 'south')).toEqual([]);
  });

  it('draws when every other player accepts an offer, and a decline withdraws it', () => {
    let s = play(start(), 'north', { type: 'offerDraw' });
    expect(matchStatus(guessingGame, s).awaiting).toContainEqual(expect.objectContaining({ seat: 'east', kind: 'ANSWER_DRAW' }));
    const declined = play(s, 'east', { type: 'declineDraw' });
    expect(declined.drawOffer).toBeNull();
    s = play(s, 'east', { type: 'acceptDraw' });
    expect(matchStatus(guessingGame, s)).toMatchObject({ stage: 'FINISHED', result: { winners: [], reason: 'draw agreed' } });
  });

  it('refuses a seat that is not in the game', () => {
    expect(decideMatch(guessingGame, start(), { type: 'resign' }, asSeat('south'), new SeededRandom('s', 0))).toMatchObject({ ok: false, code: 'FORBIDDEN' });
  });
});

describe('players the rules put out', () => {
  const withOut = {
    ...guessingGame,
    status: (s: GuessState) => ({ ...guessingGame.status(s), out: s.out }),
  };
  it('are neither asked to answer a draw offer nor counted among those who must accept it', () => {
    const three = { options: { target: 5 }, players: ['north', 'east', 'south'] };
    let s = initialMatch(withOut, three);
    s = evolveMatch(withOut, s, { event: { type: 'GameStarted', first: 'north', roll: 1 }, seat: null });
    s = { ...s, game: { ...s.game, out: ['south'] } }; // e.g. lost both Generals
    expect(matchLegalCommands(withOut, s, 'south')).toEqual([]);
    expect(decideMatch(withOut, s, { type: 'offerDraw' }, asSeat('south'), new SeededRandom('s', 0))).toMatchObject({ ok: false, code: 'ILLEGAL_COMMAND' });
    s = evolveMatch(withOut, s, { event: { type: 'DrawOffered', seat: 'north' }, seat: 'north' });
    expect(matchStatus(withOut, s).awaiting.filter((p) => p.kind === 'ANSWER_DRAW').map((p) => p.seat)).toEqual(['east']);
    const accepted = step(withOut, s, { type: 'acceptDraw' }, { kind: 'seat', seat: 'east' }, { seed: 's' });
    if (!accepted.ok) throw new Error(accepted.reason);
    expect(accepted.recorded.map((r) => r.event.type)).toEqual(['DrawAccepted', 'GameEnded']);
    expect(matchStatus(withOut, accepted.state).result).toEqual({ winners: [], reason: 'draw agreed' });
  });

  it('do not count as remaining when another player resigns', () => {
    const three = { options: { target: 5 }, players: ['north', 'east', 'south'] };
    let s = initialMatch(withOut, three);
    s = { ...s, game: { ...s.game, out: ['south'] } };
    const resigned = step(withOut, s, { type: 'resign' }, { kind: 'seat', seat: 'east' }, { seed: 's' });
    if (!resigned.ok) throw new Error(resigned.reason);
    expect(resigned.recorded.map((r) => r.event)).toEqual([{ type: 'PlayerResigned', seat: 'east' }, { type: 'PlayerOut', seat: 'east' }, { type: 'GameEnded', winners: ['north'], reason: 'east resigned' }]);
    expect(matchStatus(withOut, resigned.state).result).toEqual({ winners: ['north'], reason: 'east resigned' });
  });
});

describe('the turn stores every consequence', () => {
  const three = { options: { target: 50 }, players: ['north', 'east', 'south'] };
  const seat = (s: string) => ({ kind: 'seat' as const, seat: s });

  it('a resignation among three appends the player out, and folding the stored log alone gives the same state', () => {
    const started = startGame(guessingGame, three, 'k');
    const outcome = step(guessingGame, started.state, { type: 'resign' }, seat('south'), { seed: 'k' });
    if (!outcome.ok) throw new Error(outcome.reason);
    expect(outcome.recorded.map((r) => r.event)).toEqual([{ type: 'PlayerResigned', seat: 'south' }, { type: 'PlayerOut', seat: 'south' }]);
    let folded = initialMatch(guessingGame, three);
    for (const r of [...started.recorded, ...outcome.recorded]) folded = evolveMatch(guessingGame, folded, r);
    expect(folded).toEqual(outcome.state);
    expect(matchStatus(guessingGame, folded)).toEqual(outcome.status);
  });

  it('an offer by a player who then resigns lapses, and a new offer can be made', () => {
    let s = startGame(guessingGame, three, 'k').state;
    s = play(s, 'south', { type: 'offerDraw' }, 'k');
    const resigned = step(guessingGame, s, { type: 'resign' }, seat('south'), { seed: 'k' });
    if (!resigned.ok) throw new Error(resigned.reason);
    expect(resigned.recorded.map((r) => r.event.type)).toEqual(['PlayerResigned', 'PlayerOut', 'DrawOfferLapsed']);
    expect(resigned.state.drawOffer).toBeNull();
    expect(step(guessingGame, resigned.state, { type: 'offerDraw' }, seat('north'), { seed: 'k' }).ok).toBe(true);
  });

  it('an offer everyone still in has accepted ends the game drawn when the one who had not answered leaves', () => {
    let s = startGame(guessingGame, three, 'k').state;
    s = play(s, 'north', { type: 'offerDraw' }, 'k');
    s = play(s, 'east', { type: 'acceptDraw' }, 'k');
    const resigned = step(guessingGame, s, { type: 'resign' }, seat('south'), { seed: 'k' });
    if (!resigned.ok) throw new Error(resigned.reason);
    expect(resigned.recorded.map((r) => r.event.type)).toEqual(['PlayerResigned', 'PlayerOut', 'GameEnded']);
    expect(resigned.status).toMatchObject({ stage: 'FINISHED', awaiting: [], result: { winners: [], reason: 'draw agreed' } });
    // The module's own status says so too: finished means finished.
    expect(guessingGame.status(resigned.state.game)).toMatchObject({ stage: 'FINISHED', result: { reason: 'draw agreed' } });
  });

  it('the system actor times a seat out, with no HTTP and no token', () => {
    const s = start();
    const refused = step(guessingGame, s, { type: 'timeOut', seat: 'east' }, seat('north'), { seed: 'seed' });
    expect(refused).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    const timed = step(guessingGame, s, { type: 'timeOut', seat: 'east' }, SYSTEM, { seed: 'seed' });
    if (!timed.ok) throw new Error(timed.reason);
    expect(timed.recorded).toEqual([
      { event: { type: 'TimedOut', seat: 'east' }, seat: null },
      // The module marks the player out even when that ends the game; the match gives the reason.
      { event: { type: 'PlayerOut', seat: 'east' }, seat: null },
      { event: { type: 'GameEnded', winners: ['north'], reason: 'time out' }, seat: null },
    ]);
    expect(step(guessingGame, timed.state, { type: 'timeOut', seat: 'north' }, SYSTEM, { seed: 'seed' })).toMatchObject({ ok: false, code: 'GAME_OVER' });
  });

  it('times out every seat whose deadline passed at once in one command: both out, no winner, whichever seat is named first', () => {
    const s = start();
    const both = matchStatus(guessingGame, s).awaiting.map((p) => p.seat);
    expect(both).toEqual(['north', 'east']);
    for (const order of [both, [...both].reverse()]) {
      const command = timeOutCommand(s.players, order);
      expect(command).toEqual({ type: 'timeOut', seats: s.players.filter((p) => both.includes(p)) });
      const timed = step(guessingGame, s, command, SYSTEM, { seed: 'seed' });
      if (!timed.ok) throw new Error(timed.reason);
      expect(timed.recorded.at(-1)!.event).toEqual({ type: 'GameEnded', winners: [], reason: 'time out' });
    }
    expect(timeOutCommand(s.players, ['east'])).toEqual({ type: 'timeOut', seat: 'east' });
  });

  it('onTimeout BOT: the system hands the seat to the bot (SeatHandedToBot), the seat stays in and awaited, once', () => {
    const s = start();
    const handed = step(guessingGame, s, { type: 'timeOut', seat: 'east', bot: true }, SYSTEM, { seed: 'seed' });
    if (!handed.ok) throw new Error(handed.reason);
    expect(handed.recorded).toEqual([{ event: { type: 'SeatHandedToBot', seat: 'east' }, seat: null }]);
    expect(handed.state.handedToBot).toEqual(['east']);
    expect(handed.state.out).toEqual([]);
    expect(handed.status.stage).not.toBe('FINISHED');
    expect(handed.status.awaiting.map((p) => p.seat)).toContain('east');
    // Folding the stored event gives the same state (the log replays), and it happens once.
    expect(evolveMatch(guessingGame, s, handed.recorded[0]!)).toEqual(handed.state);
    expect(step(guessingGame, handed.state, { type: 'timeOut', seat: 'east', bot: true }, SYSTEM, { seed: 'seed' })).toMatchObject({ ok: false, code: 'ILLEGAL_COMMAND' });
    // The seat plays on (as the bot does, by the seat's commands).
    expect(play(handed.state, 'east', { type: 'guess', number: 2 }).game.guesses.east).toBe(2);
  });

  it('a seat the game does not wait for cannot time out', () => {
    const s = play(start(), 'north', { type: 'guess', number: 2 });
    expect(step(guessingGame, s, { type: 'timeOut', seat: 'north' }, SYSTEM, { seed: 'seed' })).toMatchObject({ ok: false, code: 'ILLEGAL_COMMAND' });
  });

  it('dice drawn by a command are recorded on its first event and counted once', () => {
    let s = start();
    s = play(s, 'north', { type: 'guess', number: 2 });
    const outcome = step(guessingGame, s, { type: 'guess', number: 3 }, seat('east'), { seed: 'seed' });
    if (!outcome.ok) throw new Error(outcome.reason);
    expect(outcome.recorded[0]!.rolls).toHaveLength(1);
    expect(outcome.recorded.slice(1).every((r) => r.rolls === undefined)).toBe(true);
    expect(outcome.state.draws).toBe(s.draws + 1);
  });
});

describe('the shared settle loop', () => {
  it('throws instead of stopping silently when a module never settles', async () => {
    const { Recorder, settle, SettleError } = await import('../../src/domain/kernel/index.ts');
    const rec = new Recorder<number, { type: 'Tick' }>(0, (n) => n + 1);
    expect(() => settle(rec, () => [{ type: 'Tick' as const }], 50)).toThrow(SettleError);
    const done = new Recorder<number, { type: 'Tick' }>(0, (n) => n + 1);
    settle(done, (n) => (n < 3 ? [{ type: 'Tick' as const }] : []));
    expect(done.state).toBe(3);
    expect(done.events).toHaveLength(3);
  });
});

describe("the game's own status", () => {
  it('is worked out once per state, however often a command and its answer ask it', () => {
    const asked: unknown[] = [];
    const counted = { ...guessingGame, status: (g: GuessState) => (asked.push(g), guessingGame.status(g)) };
    const s = startGame(counted, input, 'seed').state;
    const outcome = step(counted, s, { type: 'guess', number: 3 }, { kind: 'seat', seat: 'north' }, { seed: 'seed' });
    if (!outcome.ok) throw new Error(outcome.reason);
    // The answer's status and redaction, and a later read of the same state, ask again.
    matchStatus(counted, outcome.state);
    visibleTo(counted, outcome.state, 'north');
    matchLegalCommands(counted, outcome.state, 'east');
    expect(asked.length).toBe(new Set(asked).size);
    expect(asked).toContain(s.game);
    expect(asked).toContain(outcome.state.game);
    expect(asked.length).toBeGreaterThan(0);
  });
});
