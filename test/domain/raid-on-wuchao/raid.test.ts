import { describe, expect, it } from 'vitest';
import { dice, g, position, submit, walk } from './helpers.ts';

const events = (game: ReturnType<typeof position>, type: string) => game.log.map((r) => r.event).filter((e) => e.type === type);

/** Xu Chu attacks H1 in `round`; Yuan keeps a unit elsewhere so its movement waits. */
function attackH1(round: number, roll: number) {
  const game = position({ at: { 'xu-chu': 'G1', 'han-juzi': 'H1', 'chunyu-qiong': 'H2', 'gao-lan': 'E1' }, round });
  walk(game, 'cao', 'xu-chu', 'H1');
  dice(game, roll);
  submit(game, 'cao', { type: 'endMovement' });
  return game;
}

describe('§7 / §10 The Raid on Wuchao', () => {
  it('a Cao attack on a granary in round 2 removes both granaries\' +2, whatever the result', () => {
    const game = attackH1(2, 1); // 3 + 1 = 4 against Han Juzi's 5: the attack fails
    expect(events(game, 'GranariesRaided')).toEqual([{ type: 'GranariesRaided', round: 2, space: 'H1' }]);
    expect(g(game).granariesRaided).toBe(true);
    // Ruling: the raid takes effect at once, so the attack that triggers it meets no +2.
    expect(events(game, 'CombatBegan')[0]).toMatchObject({ terrainBonus: 0, defense: 5 });
    expect(events(game, 'CombatResolved')[0]).toMatchObject({ damage: 0 });
    // For the rest of the game, in both granaries; the Strategic Pass keeps its +2.
    submit(game, 'yuan', { type: 'endMovement' });
    expect(g(game).round).toBe(3);
    const later = position({ at: { 'xu-chu': 'G2', 'chunyu-qiong': 'H2', 'yue-jin': 'C2', 'zhang-he': 'D1' }, round: 5, raided: true });
    walk(later, 'cao', 'xu-chu', 'H2');
    walk(later, 'cao', 'yue-jin', 'D1');
    dice(later, 1, 1);
    submit(later, 'cao', { type: 'endMovement' });
    expect(events(later, 'CombatBegan')).toEqual([
      expect.objectContaining({ space: 'H2', terrainBonus: 0, defense: 6 }),
      expect.objectContaining({ space: 'D1', terrainBonus: 2, defense: 6 }),
    ]);
  });

  it('a successful raid on H1 in round 2 also takes H2\'s +2 for the rest of the same game', () => {
    const game = position({ at: { 'xu-chu': 'G1', 'yue-jin': 'G1', 'tiger-leopard-cavalry': 'G2', 'han-juzi': 'H1', 'chunyu-qiong': 'H2', 'gao-lan': 'E1' }, round: 2 });
    walk(game, 'cao', 'xu-chu', 'H1');
    walk(game, 'cao', 'yue-jin', 'H1');
    dice(game, 6); // 3 + 3 + 6 = 12 against Han Juzi's 5 (no +2): he is destroyed
    submit(game, 'cao', { type: 'endMovement' });
    expect(events(game, 'GranariesRaided')).toEqual([{ type: 'GranariesRaided', round: 2, space: 'H1' }]);
    expect(events(game, 'AssaultSucceeded')[0]).toMatchObject({ space: 'H1' });
    submit(game, 'yuan', { type: 'endMovement' });
    expect(g(game).round).toBe(3);
    walk(game, 'cao', 'tiger-leopard-cavalry', 'H2');
    dice(game, 1);
    submit(game, 'cao', { type: 'endMovement' });
    // Round 3, H2: Chunyu Qiong's 6 and no terrain; the raid is not recorded twice.
    expect(events(game, 'CombatBegan')[1]).toMatchObject({ space: 'H2', bestDefense: 6, terrainBonus: 0, defense: 6 });
    expect(events(game, 'GranariesRaided')).toHaveLength(1);
  });

  it('does not happen in other rounds', () => {
    for (const round of [1, 3, 8]) {
      const game = attackH1(round, 1);
      expect(events(game, 'GranariesRaided')).toEqual([]);
      expect(events(game, 'CombatBegan')[0]).toMatchObject({ terrainBonus: 2, defense: 7 });
      expect(g(game).granariesRaided).toBe(false);
    }
  });

  it('is not triggered by a Yuan attack on a granary Cao holds in round 2', () => {
    const game = position({ at: { 'xu-chu': 'H1', 'zhang-he': 'G1', 'gao-lan': 'E1' }, phase: 'yuanMovement', round: 2 });
    walk(game, 'yuan', 'zhang-he', 'H1');
    dice(game, 1);
    submit(game, 'yuan', { type: 'endMovement' });
    expect(events(game, 'GranariesRaided')).toEqual([]);
    expect(events(game, 'CombatBegan')[0]).toMatchObject({ terrainBonus: 2, defense: 6 });
  });
});
