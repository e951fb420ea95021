/**
 * The bots' choice, pure: uniform among the seat's own commands, from a seed of the bot's
 * own; never a resignation or a draw offer; a draw offer waiting for its answer is declined.
 */
import { describe, expect, it } from 'vitest';
import { BOT_KINDS, botCommand, uniformIndex } from '../../src/domain/kernel/index.ts';

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
});
