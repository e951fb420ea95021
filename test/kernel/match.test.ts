import { describe, expect, it } from 'vitest';
import { decideMatch, evolveMatch, initialMatch, matchLegalCommands, matchStatus, redactFor, SeededRandom, drawDie, type MatchState, type Recorded } from '../../src/domain/kernel/index.ts';
import { guessingGame, type GuessState } from '../support/guessing-game.ts';

const input = { options: { target: 5 }, players: ['north', 'east'] };

function start(seed = 'seed'): MatchState<GuessState> {
  const random = new SeededRandom(seed, 0);
  const events = guessingGame.setup(input, random);
  let s = initialMatch(guessingGame, input);
  events.forEach((event, i) => (s = evolveMatch(guessingGame, s, { event, seat: null, rolls: i === 0 ? random.rolls : undefined })));
  return s;
}

function play(s: MatchState<GuessState>, seat: string, command: { type: string; [k: string]: unknown }, seed = 'seed') {
  const random = new SeededRandom(seed, s.draws);
  const d = decideMatch(guessingGame, s, command, seat, random);
  if (!d.ok) throw new Error(d.reason);
  d.events.forEach((event, i) => (s = evolveMatch(guessingGame, s, { event, seat, rolls: i === 0 ? random.rolls : undefined } as Recorded)));
  return s;
}

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
    const again = decideMatch(guessingGame, s, { type: 'guess', number: 2 }, 'north', new SeededRandom('seed', s.draws));
    expect(again).toMatchObject({ ok: false, code: 'NOT_YOUR_TURN' });
    expect(matchLegalCommands(guessingGame, s, 'north')).toEqual([{ type: 'offerDraw' }, { type: 'resign' }]);
  });

  it('hides a secret guess from the other seat until the die is rolled', () => {
    let s = start();
    s = play(s, 'north', { type: 'guess', number: 4 });
    const event = { type: 'GuessCommitted', seat: 'north', round: 1, number: 4 };
    expect(redactFor(guessingGame, s, event, 'east')).toMatchObject({ number: null });
    expect(redactFor(guessingGame, s, event, null)).toMatchObject({ number: null });
    expect(redactFor(guessingGame, s, event, 'north')).toMatchObject({ number: 4 });
    s = play(s, 'east', { type: 'guess', number: 1 });
    expect(redactFor(guessingGame, s, event, 'east')).toMatchObject({ number: 4 });
  });

  it('ends a two-player game on resignation with the other player winning', () => {
    const s = play(start(), 'east', { type: 'resign' });
    expect(matchStatus(guessingGame, s)).toMatchObject({ stage: 'FINISHED', result: { winners: ['north'] } });
    const late = decideMatch(guessingGame, s, { type: 'guess', number: 1 }, 'north', new SeededRandom('seed', s.draws));
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
    expect(decideMatch(guessingGame, start(), { type: 'resign' }, 'south', new SeededRandom('s', 0))).toMatchObject({ ok: false, code: 'FORBIDDEN' });
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
    expect(decideMatch(withOut, s, { type: 'offerDraw' }, 'south', new SeededRandom('s', 0))).toMatchObject({ ok: false, code: 'ILLEGAL_COMMAND' });
    s = evolveMatch(withOut, s, { event: { type: 'DrawOffered', seat: 'north' }, seat: 'north' });
    expect(matchStatus(withOut, s).awaiting.filter((p) => p.kind === 'ANSWER_DRAW').map((p) => p.seat)).toEqual(['east']);
    s = evolveMatch(withOut, s, { event: { type: 'DrawAccepted', seat: 'east' }, seat: 'east' });
    expect(matchStatus(withOut, s).result).toEqual({ winners: [], reason: 'draw agreed' });
  });

  it('do not count as remaining when another player resigns', () => {
    const three = { options: { target: 5 }, players: ['north', 'east', 'south'] };
    let s = initialMatch(withOut, three);
    s = { ...s, game: { ...s.game, out: ['south'] } };
    s = evolveMatch(withOut, s, { event: { type: 'PlayerResigned', seat: 'east' }, seat: 'east' });
    expect(matchStatus(withOut, s).result).toEqual({ winners: ['north'], reason: 'east resigned' });
  });
});
