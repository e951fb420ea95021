/**
 * The bots' choice, pure: uniform among the seat's own commands, from a seed of the bot's
 * own; never a resignation or a draw offer; a draw offer waiting for its answer is declined.
 */
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BOT_KINDS, botCommand, botMove, botSeed, replay, start, step, uniformIndex, type MatchState } from '../../src/domain/kernel/index.ts';
import { guessingGame } from '../support/guessing-game.ts';

const moves = [{ type: 'move', to: 'A' }, { type: 'move', to: 'B' }, { type: 'move', to: 'C' }, { type: 'pass' }];

describe('bots', () => {
  it('offers "random" for every game type', () => {
    expect(BOT_KINDS).toEqual(['random']);
  });

  it('"random" picks uniformly among the game\'s own commands, never resign or a draw offer', () => {
    const counts = new Map<string, number>();
    const n = 4000;
    for (let i = 0; i < n; i++) {
      const c = botCommand('random', [...moves, { type: 'offerDraw' }, { type: 'resign' }], `game:${i}:north`)!;
      counts.set(JSON.stringify(c), (counts.get(JSON.stringify(c)) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual(moves.map((m) => JSON.stringify(m)).sort());
    // Each of four is chosen about a quarter of the time (5 standard deviations: ±137).
    for (const count of counts.values()) expect(Math.abs(count - n / 4)).toBeLessThan(140);
  });

  it('depends only on its own seed: the same game, version and seat give the same command', () => {
    const a = botCommand('random', moves, 'g1:10:north');
    expect(botCommand('random', moves, 'g1:10:north')).toEqual(a);
    const spread = new Set(Array.from({ length: 50 }, (_, v) => JSON.stringify(botCommand('random', moves, `g1:${v}:north`))));
    expect(spread.size).toBeGreaterThan(1);
  });

  it('declines a draw offer, and has nothing to do when the seat has no command of its own', () => {
    expect(botCommand('random', [...moves, { type: 'acceptDraw' }, { type: 'declineDraw' }, { type: 'resign' }], 's')).toEqual({ type: 'declineDraw' });
    expect(botCommand('random', [{ type: 'offerDraw' }, { type: 'resign' }], 's')).toBeNull();
  });

  it('draws a whole number below n, uniformly', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 200; i++) {
      const x = uniformIndex(`seed-${i}`, 7);
      expect(Number.isInteger(x) && x >= 0 && x < 7).toBe(true);
      seen.add(x);
    }
    expect(seen.size).toBe(7);
    expect(() => uniformIndex('s', 0)).toThrow();
  });

  // Issue 21.1: "A bot's choices must be unpredictable to everyone but the service until
  // they are revealed: derive its generator from the game's secret seed ... so that verify
  // can still re-derive and check them once the game is over and the seed is published."
  it('derives its generator from the game\'s secret seed, the version and the seat: public facts alone do not give it', () => {
    const a = botSeed('secret-seed-1', 4, 'north');
    expect(botSeed('secret-seed-1', 4, 'north')).toBe(a);
    expect(new Set([a, botSeed('secret-seed-2', 4, 'north'), botSeed('secret-seed-1', 5, 'north'), botSeed('secret-seed-1', 4, 'east')]).size).toBe(4);
    // What anyone could compute from the public game id, version and seat is not it: hashed as the seed is
    // (a hex digest, which the plain strings never equal), with no key or a public one.
    const digests = (s: string) => [createHash('sha256').update(s).digest('hex'), ...['', 'g1'].map((key) => createHmac('sha256', key).update(s).digest('hex'))];
    for (const guess of ['g1:4:north', 'bot:4:north', '4:north'].flatMap(digests)) expect(a).not.toBe(guess);
    // Different secret seeds give different secret numbers for the same public position.
    const numbers = new Set(Array.from({ length: 40 }, (_, i) => JSON.stringify(botCommand('random', moves, botSeed(`seed-${i}`, 4, 'north')))));
    expect(numbers.size).toBeGreaterThan(1);
  });

  it('can be re-derived once the seed is published: replay accepts the bot\'s own choices and refuses any other', () => {
    const input = { options: { target: 12 }, players: ['north', 'east'] };
    const seed = 'published-seed';
    const begun = start(guessingGame, input, seed);
    let state: MatchState = begun.state;
    let version = begun.recorded.length;
    const commands: { seat: string; command: { type: string; [k: string]: unknown } }[] = [];
    for (let i = 0; i < 30 && state.result === null; i++) {
      for (const seat of ['north', 'east']) {
        const c = botMove(guessingGame, state, seat, 'random', seed, version);
        if (!c || state.result) continue;
        const s = step(guessingGame, state, c, { kind: 'seat', seat }, { seed });
        if (!s.ok) throw new Error(s.reason);
        commands.push({ seat, command: c });
        state = s.state;
        version += s.recorded.length;
      }
    }
    expect(commands.length).toBeGreaterThan(2);
    const outcomes = (cmds: typeof commands) => [...replay(guessingGame, input, seed, cmds, { north: 'random', east: 'random' })].filter((r) => r.kind === 'command').map((r) => (r.kind === 'command' ? r.outcome.ok : null));
    expect(outcomes(commands).every(Boolean)).toBe(true);
    // The same game with one bot guess changed is not the bots' game.
    const changed = commands.map((c, i) => (i === 1 ? { ...c, command: { type: 'guess', number: ((c.command.number as number) % 6) + 1 } } : c));
    expect(outcomes(changed)).toContain(false);
  });
});
