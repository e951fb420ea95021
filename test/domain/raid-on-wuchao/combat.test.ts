import { describe, expect, it } from 'vitest';
import { attempt } from '../../support/play.ts';
import { raidOnWuchao } from '../../../src/domain/raid-on-wuchao/index.ts';
import { awaiting, dice, g, legal, position, space, status, submit, walk } from './helpers.ts';
import { expectFinished } from '../../support/finished.ts';

const events = (game: ReturnType<typeof position>, type: string) => game.log.map((r) => r.event).filter((e) => e.type === type);

describe('§8 Combat', () => {
  it('rulebook example: attack total 10 against three defenders of defense 6 - the defender allocates exactly 4', () => {
    const game = position({
      at: { 'xu-chu': 'D2', 'yue-jin': 'D2', 'tiger-leopard-cavalry': 'D2', 'chunyu-qiong': 'E1', 'granary-guard-1': 'E1', 'granary-guard-2': 'E1' },
    });
    for (const u of ['xu-chu', 'yue-jin', 'tiger-leopard-cavalry']) walk(game, 'cao', u, 'E1');
    dice(game, 2); // 3 + 3 + 2 + 2 = 10
    submit(game, 'cao', { type: 'endMovement' });
    expect(events(game, 'CombatBegan')[0]).toMatchObject({ space: 'E1', bestDefense: 6, terrainBonus: 0, defense: 6 });
    expect(events(game, 'CombatResolved')[0]).toMatchObject({ attackTotal: 10, defense: 6, damage: 4 });
    expect(awaiting(game)).toEqual(['yuan:ALLOCATE_DAMAGE']);
    expect(status(game).awaiting[0]!.prompt).toContain('exactly 4 damage');
    // Exactly the amount: no less, no more.
    expect(attempt(game, 'yuan', { type: 'allocateDamage', units: ['chunyu-qiong', 'granary-guard-1', 'granary-guard-2'] })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('exactly 4'),
    });
    expect(attempt(game, 'yuan', { type: 'allocateDamage', units: ['chunyu-qiong', 'chunyu-qiong', 'granary-guard-1', 'granary-guard-1', 'granary-guard-2'] }).ok).toBe(false);
    expect(attempt(game, 'yuan', { type: 'allocateDamage', units: ['chunyu-qiong', 'chunyu-qiong', 'chunyu-qiong', 'granary-guard-1'] })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('at most 2'),
    });
    expect(legal(game, 'yuan')).toHaveLength(6);
    // One command per allocation, as listed: the units in defender order, so the same choice in another order is refused with the listed form.
    expect(attempt(game, 'yuan', { type: 'allocateDamage', units: ['granary-guard-1', 'chunyu-qiong', 'chunyu-qiong', 'granary-guard-2'] })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('["chunyu-qiong","chunyu-qiong","granary-guard-1","granary-guard-2"]'),
    });
    expect(legal(game, 'yuan')).toContainEqual({ type: 'allocateDamage', units: ['chunyu-qiong', 'chunyu-qiong', 'granary-guard-1', 'granary-guard-2'] });
    // §5: the first point flips a unit, the second removes it.
    const done = submit(game, 'yuan', { type: 'allocateDamage', units: ['chunyu-qiong', 'chunyu-qiong', 'granary-guard-1', 'granary-guard-2'] });
    expect(done[0]).toMatchObject({ type: 'DamageAllocated', flipped: ['granary-guard-1', 'granary-guard-2'], destroyed: ['chunyu-qiong'] });
    expect(g(game).units['chunyu-qiong']).toMatchObject({ destroyed: true, space: null });
    expect(g(game).units['granary-guard-1']).toMatchObject({ reduced: true, space: 'E1' });
    // The attacker never takes damage; the failed assault withdraws to D2.
    for (const u of ['xu-chu', 'yue-jin', 'tiger-leopard-cavalry']) expect(g(game).units[u]).toMatchObject({ reduced: false, space: 'D2' });
  });

  it('adds Cao Cao\'s own 1D6 each time he attacks, then the combat 1D6', () => {
    const game = position({ at: { 'cao-cao': 'D2', 'xu-chu': 'D2', 'yue-jin': 'A1', 'zhang-he': 'E1', 'gao-lan': 'E1' } });
    walk(game, 'cao', 'cao-cao', 'E1');
    walk(game, 'cao', 'xu-chu', 'E1');
    dice(game, 5, 3);
    submit(game, 'cao', { type: 'endMovement' });
    expect(events(game, 'CombatBegan')[0]).toMatchObject({ dice: ['cao-cao', 'combat'] });
    expect(events(game, 'DieRolled')).toEqual([
      { type: 'DieRolled', space: 'E1', die: 'cao-cao', roll: 5 },
      { type: 'DieRolled', space: 'E1', die: 'combat', roll: 3 },
    ]);
    // 5 (Cao Cao) + 3 (Xu Chu) + 3 (die) = 11 against 4.
    expect(events(game, 'CombatResolved')[0]).toMatchObject({ attackTotal: 11, defense: 4, damage: 4 });
  });

  it('uses a reduced unit\'s reduced Attack Power', () => {
    const game = position({ at: { 'xu-chu': 'D2', 'zhang-he': 'E1' }, reduced: ['xu-chu'] });
    walk(game, 'cao', 'xu-chu', 'E1');
    dice(game, 4);
    submit(game, 'cao', { type: 'endMovement' });
    expect(events(game, 'CombatResolved')[0]).toMatchObject({ attackTotal: 6, damage: 2 });
  });

  it('adds +2 to the single best defense in D1 and in the granaries', () => {
    const d1 = position({ at: { 'xu-chu': 'C2', 'zhang-he': 'D1', 'sui-yuanjin': 'D1' } });
    walk(d1, 'cao', 'xu-chu', 'D1');
    dice(d1, 6);
    submit(d1, 'cao', { type: 'endMovement' });
    expect(events(d1, 'CombatBegan')[0]).toMatchObject({ bestDefense: 5, terrainBonus: 2, defense: 7 });
    expect(events(d1, 'CombatResolved')[0]).toMatchObject({ attackTotal: 9, damage: 2 });
    const h1 = position({ at: { 'xu-chu': 'G1', 'han-juzi': 'H1' }, round: 3 });
    walk(h1, 'cao', 'xu-chu', 'H1');
    dice(h1, 1);
    submit(h1, 'cao', { type: 'endMovement' });
    expect(events(h1, 'CombatBegan')[0]).toMatchObject({ bestDefense: 5, terrainBonus: 2, defense: 7 });
  });

  it('removes an already-flipped unit with one point', () => {
    const game = position({ at: { 'xu-chu': 'D2', 'yue-jin': 'D2', 'zhang-he': 'E1', 'gao-lan': 'E1' }, reduced: ['zhang-he'] });
    walk(game, 'cao', 'xu-chu', 'E1');
    walk(game, 'cao', 'yue-jin', 'E1');
    dice(game, 1); // 7 - 4 = 3 damage; capacity 1 + 2 = 3: the only allocation
    const out = submit(game, 'cao', { type: 'endMovement' });
    expect(out).toContainEqual(expect.objectContaining({ type: 'DamageAllocated', destroyed: ['zhang-he', 'gao-lan'], automatic: true }));
  });

  it('caps damage at what the defenders can absorb and takes a single-option allocation automatically', () => {
    const game = position({ at: { 'xu-chu': 'D2', 'yue-jin': 'D2', 'zhang-he': 'E1' } });
    walk(game, 'cao', 'xu-chu', 'E1');
    walk(game, 'cao', 'yue-jin', 'E1');
    dice(game, 6); // 12 - 4 = 8, capped at 2
    submit(game, 'cao', { type: 'endMovement' });
    expect(events(game, 'CombatResolved')[0]).toMatchObject({ attackTotal: 12, damage: 2 });
    expect(events(game, 'DamageAllocated')[0]).toMatchObject({ units: ['zhang-he', 'zhang-he'], automatic: true });
  });

  it('asks the defender when there is a real choice, even a single point', () => {
    const game = position({ at: { 'xu-chu': 'D2', 'zhang-he': 'E1', 'gao-lan': 'E1' } });
    walk(game, 'cao', 'xu-chu', 'E1');
    dice(game, 2); // 5 - 4 = 1
    submit(game, 'cao', { type: 'endMovement' });
    expect(legal(game, 'yuan')).toEqual([
      { type: 'allocateDamage', units: ['zhang-he'] },
      { type: 'allocateDamage', units: ['gao-lan'] },
    ]);
    expect(legal(game, 'cao')).toEqual([]);
  });

  it('a successful assault occupies the space and takes control of it', () => {
    const game = position({ at: { 'xu-chu': 'D2', 'yue-jin': 'D2', 'zhang-he': 'E1', 'granary-guard-1': 'H1' }, reduced: ['zhang-he'] });
    walk(game, 'cao', 'xu-chu', 'E1');
    walk(game, 'cao', 'yue-jin', 'E1');
    dice(game, 3);
    submit(game, 'cao', { type: 'endMovement' });
    expect(events(game, 'AssaultSucceeded')[0]).toMatchObject({ space: 'E1', side: 'cao' });
    expect(space(game, 'xu-chu')).toBe('E1');
    expect(g(game).control.E1).toBe('cao');
    // Combat is over; Yuan moves next, Cao's attackers have no more movement this round.
    expect(status(game).phase).toBe('Yuan movement');
  });

  it('a failed assault with no damage withdraws each attacker one space back along its own path; control stays', () => {
    const game = position({ at: { 'xu-chu': 'C1', 'yue-jin': 'E2', 'chunyu-qiong': 'E1' } });
    walk(game, 'cao', 'xu-chu', 'D2', 'E1');
    walk(game, 'cao', 'yue-jin', 'E1');
    dice(game, 1);
    submit(game, 'cao', { type: 'endMovement' });
    expect(events(game, 'CombatResolved')[0]).toMatchObject({ attackTotal: 7, defense: 6, damage: 1 });
    expect(events(game, 'DamageAllocated')[0]).toMatchObject({ automatic: true, flipped: ['chunyu-qiong'] });
    expect(events(game, 'AssaultFailed')[0]).toMatchObject({
      withdrawals: [
        { unit: 'xu-chu', from: 'E1', to: 'D2' },
        { unit: 'yue-jin', from: 'E1', to: 'E2' },
      ],
    });
    expect(g(game).control.E1).toBe('yuan');
    const none = position({ at: { 'xu-chu': 'D2', 'chunyu-qiong': 'E1' } });
    walk(none, 'cao', 'xu-chu', 'E1');
    dice(none, 1);
    submit(none, 'cao', { type: 'endMovement' });
    expect(events(none, 'CombatResolved')[0]).toMatchObject({ damage: 0 });
    expect(events(none, 'DamageAllocated')).toEqual([]);
    expect(space(none, 'xu-chu')).toBe('D2');
  });

  it('withdraws one more space back when the first would break the stacking limit', () => {
    const five = { 'sui-yuanjin': 'F1', 'lu-weihuang': 'F1', 'han-juzi': 'F1', 'zhao-rui': 'F1', 'gao-lan': 'F1' };
    const game = position({ at: { ...five, 'zhang-he': 'G1', 'xu-chu': 'E1' }, phase: 'yuanMovement' });
    walk(game, 'yuan', 'zhang-he', 'F1', 'E1');
    dice(game, 1); // 3 + 1 = 4 against Xu Chu's 4: no damage
    submit(game, 'yuan', { type: 'endMovement' });
    expect(events(game, 'AssaultFailed')[0]).toMatchObject({ withdrawals: [{ unit: 'zhang-he', from: 'E1', to: 'G1' }] });
  });

  it('ruling: a withdrawing unit whose path has no room left is destroyed', () => {
    const five = { 'sui-yuanjin': 'F1', 'lu-weihuang': 'F1', 'han-juzi': 'F1', 'zhao-rui': 'F1', 'zhang-he': 'F1' };
    const game = position({ at: { ...five, 'gao-lan': 'F2', 'xu-chu': 'E1' }, phase: 'yuanMovement' });
    walk(game, 'yuan', 'zhang-he', 'E1');
    walk(game, 'yuan', 'gao-lan', 'F1');
    dice(game, 1);
    submit(game, 'yuan', { type: 'endMovement' });
    expect(events(game, 'AssaultFailed')[0]).toMatchObject({ withdrawals: [{ unit: 'zhang-he', from: 'E1', to: null }] });
    expect(g(game).units['zhang-he']).toMatchObject({ destroyed: true, space: null });
  });

  it('ruling: when the stacking limit leaves room one space back for only some attackers, their owner chooses who withdraws further', () => {
    const four = { 'sui-yuanjin': 'F1', 'lu-weihuang': 'F1', 'han-juzi': 'F1', 'zhao-rui': 'F1' };
    const game = position({ at: { ...four, 'zhang-he': 'G1', 'gao-lan': 'F2', 'xu-chu': 'E1', 'granary-guard-1': 'H1' }, reduced: ['zhang-he', 'gao-lan'], phase: 'yuanMovement' });
    walk(game, 'yuan', 'zhang-he', 'F1', 'E1');
    walk(game, 'yuan', 'gao-lan', 'F1', 'E1');
    dice(game, 1); // 2 + 2 + 1 = 5 against Xu Chu's 4: he is flipped, the assault fails
    submit(game, 'yuan', { type: 'endMovement' });
    // F1 holds four: one attacker has room there, the other goes one more space back along its own path.
    expect(awaiting(game)).toEqual(['yuan:WITHDRAW']);
    expect(status(game).awaiting[0]!.prompt).toContain('Failed assault on E1');
    const zhangHeStays = [{ unit: 'zhang-he', from: 'E1', to: 'F1' }, { unit: 'gao-lan', from: 'E1', to: 'F2' }];
    const gaoLanStays = [{ unit: 'zhang-he', from: 'E1', to: 'G1' }, { unit: 'gao-lan', from: 'E1', to: 'F1' }];
    expect(legal(game, 'yuan')).toEqual([
      { type: 'withdraw', withdrawals: zhangHeStays },
      { type: 'withdraw', withdrawals: gaoLanStays },
    ]);
    expect(legal(game, 'cao')).toEqual([]);
    // Both into F1 would break the limit; skipping a space with room is not a withdrawal either.
    expect(attempt(game, 'yuan', { type: 'withdraw', withdrawals: [{ unit: 'zhang-he', from: 'E1', to: 'F1' }, { unit: 'gao-lan', from: 'E1', to: 'F1' }] })).toMatchObject({ ok: false, reason: expect.stringContaining('Zhang He to F1, Gao Lan to F2; or Zhang He to G1, Gao Lan to F1') });
    expect(attempt(game, 'yuan', { type: 'withdraw', withdrawals: [{ unit: 'zhang-he', from: 'E1', to: 'G1' }, { unit: 'gao-lan', from: 'E1', to: 'F2' }] }).ok).toBe(false);
    submit(game, 'yuan', { type: 'withdraw', withdrawals: gaoLanStays });
    expect(events(game, 'AssaultFailed')[0]).toMatchObject({ withdrawals: gaoLanStays });
    expect([space(game, 'zhang-he'), space(game, 'gao-lan')]).toEqual(['G1', 'F1']);
    expect(status(game).phase).toBe('Cao movement');
  });

  it('ruling: with room for only one of two attackers on their paths, the owner chooses which one is lost', () => {
    const game = position({
      at: { 'sui-yuanjin': 'F1', 'lu-weihuang': 'F1', 'han-juzi': 'F1', 'zhang-he': 'F1', 'gao-lan': 'F1', 'zhao-rui': 'F2', 'xu-chu': 'E1', 'granary-guard-1': 'H1' },
      reduced: ['zhang-he', 'gao-lan'],
      phase: 'yuanMovement',
    });
    walk(game, 'yuan', 'zhang-he', 'E1');
    walk(game, 'yuan', 'gao-lan', 'E1');
    walk(game, 'yuan', 'zhao-rui', 'F1');
    dice(game, 1);
    submit(game, 'yuan', { type: 'endMovement' });
    expect(legal(game, 'yuan')).toEqual([
      { type: 'withdraw', withdrawals: [{ unit: 'zhang-he', from: 'E1', to: 'F1' }, { unit: 'gao-lan', from: 'E1', to: null }] },
      { type: 'withdraw', withdrawals: [{ unit: 'zhang-he', from: 'E1', to: null }, { unit: 'gao-lan', from: 'E1', to: 'F1' }] },
    ]);
    submit(game, 'yuan', { type: 'withdraw', withdrawals: [{ unit: 'zhang-he', from: 'E1', to: null }, { unit: 'gao-lan', from: 'E1', to: 'F1' }] });
    expect(g(game).units['zhang-he']).toMatchObject({ destroyed: true, space: null });
    expect(space(game, 'gao-lan')).toBe('F1');
  });

  it('resolves the combats of a phase in the order their spaces were first entered', () => {
    const game = position({ at: { 'xu-chu': 'D1', 'yue-jin': 'D1', 'zhang-he': 'E2', 'gao-lan': 'E3' } });
    walk(game, 'cao', 'xu-chu', 'E3');
    walk(game, 'cao', 'yue-jin', 'E2');
    dice(game, 1, 1);
    submit(game, 'cao', { type: 'endMovement' });
    expect(events(game, 'CombatPhaseBegan')[0]).toMatchObject({ combats: ['E3', 'E2'] });
    expect(events(game, 'CombatBegan').map((e) => e.space)).toEqual(['E3', 'E2']);
  });

  it('ends the game at once when Cao Cao is destroyed: Yuan wins', () => {
    const game = position({ at: { 'cao-cao': 'A1', 'zhang-he': 'B1', 'gao-lan': 'B1', 'granary-guard-1': 'H1' }, reduced: ['cao-cao'], phase: 'yuanMovement' });
    walk(game, 'yuan', 'zhang-he', 'A1');
    walk(game, 'yuan', 'gao-lan', 'A1');
    dice(game, 6);
    submit(game, 'yuan', { type: 'endMovement' });
    expect(events(game, 'CaoCaoDestroyed')).toHaveLength(1);
    expect(events(game, 'VictoryChecked')).toEqual([]);
    expect(status(game)).toMatchObject({ stage: 'FINISHED', result: { winners: ['yuan'], reason: 'Cao Cao destroyed' } });
  });

  it('"If Cao Cao is destroyed, Yuan Shao wins instantly": the finished game lists no combat as pending', () => {
    const game = position({
      at: { 'cao-cao': 'A1', 'xu-chu': 'B2', 'zhang-he': 'B1', 'gao-lan': 'B1', 'lu-weihuang': 'C3', 'granary-guard-1': 'H1' },
      reduced: ['cao-cao'],
      phase: 'yuanMovement',
    });
    walk(game, 'yuan', 'zhang-he', 'A1');
    walk(game, 'yuan', 'gao-lan', 'A1');
    walk(game, 'yuan', 'lu-weihuang', 'B2'); // a second combat, still to be fought
    dice(game, 6);
    submit(game, 'yuan', { type: 'endMovement' });
    expect(events(game, 'CombatPhaseBegan')[0]).toMatchObject({ combats: ['A1', 'B2'] });
    expect(events(game, 'CaoCaoDestroyed')).toHaveLength(1);
    expect(status(game).stage).toBe('FINISHED');
    const v = raidOnWuchao.view(g(game), null) as any;
    expect(v.pendingCombats).toEqual([]);
    expect(v.combat).toBeNull();
    expect(v.result).toEqual({ winners: ['yuan'], reason: 'Cao Cao destroyed' });
  });

  // §8 "All defenders eliminated: attackers occupy the space", §9 "Control shifts
  // immediately"; §8 "If Cao Cao is destroyed, Yuan Shao wins instantly" (issue 21.6).
  it('a lone Cao Cao destroyed by an assault: the attackers occupy the space and control it, then Yuan wins', () => {
    const game = position({ at: { 'cao-cao': 'B1', 'zhang-he': 'C1', 'granary-guard-1': 'H1' }, reduced: ['cao-cao'], phase: 'yuanMovement' });
    expect(g(game).control.B1).toBe('cao');
    walk(game, 'yuan', 'zhang-he', 'B1');
    dice(game, 6);
    submit(game, 'yuan', { type: 'endMovement' });
    const types = game.log.map((r) => r.event.type);
    expect(types.slice(-3)).toEqual(['AssaultSucceeded', 'CaoCaoDestroyed', 'GameEnded']);
    expect(space(game, 'zhang-he')).toBe('B1');
    expect(g(game).control.B1).toBe('yuan');
    expect((raidOnWuchao.view(g(game), null) as any).spaces.find((s: any) => s.id === 'B1')).toMatchObject({ control: 'yuan', units: ['zhang-he'] });
    expect(status(game).result).toEqual({ winners: ['yuan'], reason: 'Cao Cao destroyed' });
    expectFinished(game, undefined, { folded: false });
  });

  it('lets Cao allocate the damage when Yuan attacks', () => {
    const game = position({ at: { 'xu-chu': 'D1', 'yue-jin': 'D1', 'zhang-he': 'E2', 'gao-lan': 'E2', 'granary-guard-1': 'H1' }, phase: 'yuanMovement' });
    walk(game, 'yuan', 'zhang-he', 'D1');
    walk(game, 'yuan', 'gao-lan', 'D1');
    dice(game, 1); // 7 against 4 + 2 (D1 defends Cao too): 1 damage
    submit(game, 'yuan', { type: 'endMovement' });
    expect(awaiting(game)).toEqual(['cao:ALLOCATE_DAMAGE']);
    submit(game, 'cao', { type: 'allocateDamage', units: ['yue-jin'] });
    expect(g(game).units['yue-jin']!.reduced).toBe(true);
    expect(space(game, 'zhang-he')).toBe('E2');
  });
});
