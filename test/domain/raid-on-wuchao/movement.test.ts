import { describe, expect, it } from 'vitest';
import { attempt } from '../../support/play.ts';
import { raidOnWuchao } from '../../../src/domain/raid-on-wuchao/index.ts';
import { awaiting, dice, g, legal, position, space, status, submit, walk } from './helpers.ts';

const CAO_AT_A1 = { 'cao-cao': 'A1', 'xu-chu': 'A1', 'yue-jin': 'A1', 'tiger-leopard-cavalry': 'A1' };

describe('§6 Movement', () => {
  it('moves along connections only', () => {
    const game = position({ at: { ...CAO_AT_A1, 'zhang-he': 'H1' } });
    expect(attempt(game, 'cao', { type: 'move', unit: 'xu-chu', to: 'C1' })).toMatchObject({ ok: false, reason: 'C1 is not connected to A1' });
    expect(legal(game, 'cao').filter((c) => c.unit === 'xu-chu')).toEqual([
      { type: 'move', unit: 'xu-chu', to: 'B1' },
      { type: 'move', unit: 'xu-chu', to: 'B2' },
    ]);
  });

  it('lets a unit move up to its movement points: "a Cao unit with 3 Movement can move up to three spaces"', () => {
    const game = position({ at: { ...CAO_AT_A1, 'zhang-he': 'H1' } });
    walk(game, 'cao', 'xu-chu', 'B1', 'C1', 'D2');
    expect(attempt(game, 'cao', { type: 'move', unit: 'xu-chu', to: 'E1' })).toMatchObject({ ok: false, reason: expect.stringContaining('all 3 of its movement points') });
    expect(legal(game, 'cao').some((c) => c.unit === 'xu-chu')).toBe(false);
    // The cavalry has 4.
    walk(game, 'cao', 'tiger-leopard-cavalry', 'B2', 'C3', 'D1', 'E3');
    expect(space(game, 'tiger-leopard-cavalry')).toBe('E3');
    expect(g(game).paths['tiger-leopard-cavalry']).toEqual(['A1', 'B2', 'C3', 'D1', 'E3']);
  });

  it('"Two Yuan units have Movement of 2": Zhang He and Gao Lan move two spaces, the others one', () => {
    const game = position({ at: { 'xu-chu': 'A1', 'zhang-he': 'H1', 'gao-lan': 'H2', 'chunyu-qiong': 'G1', 'granary-guard-1': 'G2' }, phase: 'yuanMovement' });
    walk(game, 'yuan', 'zhang-he', 'G1', 'F1');
    walk(game, 'yuan', 'gao-lan', 'G2', 'F3');
    walk(game, 'yuan', 'chunyu-qiong', 'F2');
    for (const unit of ['zhang-he', 'gao-lan', 'chunyu-qiong']) {
      expect(attempt(game, 'yuan', { type: 'move', unit, to: 'E2' }), unit).toMatchObject({ ok: false, reason: expect.stringContaining('movement points') });
    }
    expect(legal(game, 'yuan')).toEqual([
      { type: 'move', unit: 'granary-guard-1', to: 'F2' },
      { type: 'move', unit: 'granary-guard-1', to: 'F3' },
      { type: 'move', unit: 'granary-guard-1', to: 'G1' },
      { type: 'move', unit: 'granary-guard-1', to: 'H2' },
      { type: 'endMovement' },
    ]);
  });

  it('does not save unused movement points for the next round', () => {
    const game = position({ at: { 'xu-chu': 'A1', 'zhang-he': 'H1' } });
    walk(game, 'cao', 'xu-chu', 'B1');
    submit(game, 'cao', { type: 'endMovement' });
    submit(game, 'yuan', { type: 'endMovement' });
    expect(status(game).round).toBe(2);
    walk(game, 'cao', 'xu-chu', 'C1', 'D2', 'E1');
    expect(attempt(game, 'cao', { type: 'move', unit: 'xu-chu', to: 'F1' }).ok).toBe(false);
  });

  it('passes through friendly units', () => {
    const game = position({ at: { 'xu-chu': 'A1', 'yue-jin': 'B1', 'zhang-he': 'H1' } });
    walk(game, 'cao', 'xu-chu', 'B1', 'C1');
    expect(space(game, 'xu-chu')).toBe('C1');
  });

  it('stops a unit that enters an enemy space: it never moves through', () => {
    const game = position({ at: { 'xu-chu': 'C1', 'zhang-he': 'D2', 'gao-lan': 'H1' } });
    const [moved] = walk(game, 'cao', 'xu-chu', 'D2');
    expect(moved).toMatchObject({ type: 'UnitMoved', entersEnemy: true });
    expect(attempt(game, 'cao', { type: 'move', unit: 'xu-chu', to: 'E1' })).toMatchObject({ ok: false, reason: expect.stringContaining('cannot move further') });
    expect(legal(game, 'cao').filter((c) => c.unit === 'xu-chu')).toEqual([]);
  });

  it('§8 "Entering an enemy-occupied space halts movement": the halted unit has no movement left, in the event and the view', () => {
    const game = position({ at: { 'tiger-leopard-cavalry': 'C1', 'zhang-he': 'D2', 'gao-lan': 'H1' } });
    // The cavalry (4 movement points) enters Zhang He's space with its first point.
    const [moved] = walk(game, 'cao', 'tiger-leopard-cavalry', 'D2');
    expect(moved).toMatchObject({ type: 'UnitMoved', entersEnemy: true, movementLeft: 0 });
    const unit = (raidOnWuchao.view(g(game), 'cao') as any).units.find((u: any) => u.id === 'tiger-leopard-cavalry');
    expect(unit).toMatchObject({ space: 'D2', movementLeft: 0 });
  });

  it('§6 "Units may move up to their Movement Points each round", "any remaining points cannot be saved": none are left once the side\'s movement has ended', () => {
    const game = position({ at: { 'xu-chu': 'C1', 'yue-jin': 'C2', 'zhang-he': 'D2', 'gao-lan': 'H1' }, xuYou: 1 });
    walk(game, 'cao', 'xu-chu', 'D2');
    walk(game, 'cao', 'yue-jin', 'C3');
    dice(game, 6);
    submit(game, 'cao', { type: 'endMovement' });
    // Cao's combat waits for the Xu You answer: Cao's movement is over, Yuan's still to come.
    expect(awaiting(game)).toEqual(['cao:REROLL']);
    const left = (id: string) => (raidOnWuchao.view(g(game), null) as any).units.find((u: any) => u.id === id).movementLeft;
    for (const id of ['xu-chu', 'yue-jin', 'cao-cao']) expect(left(id), id).toBe(0);
    expect(left('gao-lan')).toBe(2);
    // 3 + 6 against 4: Zhang He is destroyed and Xu Chu occupies D2 ("cannot move further that round").
    submit(game, 'cao', { type: 'acceptRoll' });
    expect(space(game, 'xu-chu')).toBe('D2');
    expect(status(game).phase).toBe('Yuan movement');
    expect(left('xu-chu')).toBe(0);
    expect(left('gao-lan')).toBe(2);
    // The next round, every unit has its full points again.
    submit(game, 'yuan', { type: 'endMovement' });
    expect(status(game)).toMatchObject({ round: 2, phase: 'Cao movement' });
    expect(left('xu-chu')).toBe(3);
  });

  it('refuses moving the other side\'s units', () => {
    const game = position({ at: { 'xu-chu': 'A1', 'zhang-he': 'H1' } });
    expect(attempt(game, 'cao', { type: 'move', unit: 'zhang-he', to: 'G1' })).toMatchObject({ ok: false, reason: expect.stringContaining('not yours') });
  });

  it('ends a movement phase by itself when no unit can move', () => {
    const game = position({ at: { 'xu-chu': 'A1', 'zhang-he': 'H1' } });
    walk(game, 'cao', 'xu-chu', 'B1', 'C1', 'D2');
    // Cao Cao may still move, so ending is the player's call...
    expect(legal(game, 'cao').at(-1)).toEqual({ type: 'endMovement' });
    // ...but a side with no unit able to move skips its movement: here Yuan's only unit is stuck on an isolated space.
    const isolated = position({
      at: { 'xu-chu': 'A1', 'cao-cao': 'B1', 'zhang-he': 'Z9' },
      options: { map: { spaces: ['A1', 'B1', 'Z9', 'H1', 'H2'], edges: [['A1', 'B1']], granaries: ['H1', 'H2'] } },
    });
    submit(isolated, 'cao', { type: 'endMovement' });
    expect(status(isolated)).toMatchObject({ round: 2, phase: 'Cao movement' });
    expect(isolated.log.map((r) => r.event.type)).toContain('MovementEnded');
  });
});

describe('§9 Control of spaces during movement', () => {
  it('shifts to a side that passes through, not to one that enters an enemy space', () => {
    const game = position({ at: { 'xu-chu': 'A1', 'zhang-he': 'C2', 'gao-lan': 'H1' }, control: { B1: 'yuan' } });
    walk(game, 'cao', 'xu-chu', 'B1', 'C2');
    expect(g(game).control.B1).toBe('cao');
    expect(g(game).control.C2).toBe('yuan');
  });
});

describe('§6 Stacking limit', () => {
  // Five Yuan units in F1, two more nearby.
  const six = { 'sui-yuanjin': 'F1', 'lu-weihuang': 'F1', 'han-juzi': 'F1', 'zhao-rui': 'F1', 'gao-lan': 'F1', 'chunyu-qiong': 'F2', 'granary-guard-1': 'G1', 'xu-chu': 'A1' };

  // Four Yuan units in F1: room for one more.
  const four = { 'sui-yuanjin': 'F1', 'lu-weihuang': 'F1', 'han-juzi': 'F1', 'zhao-rui': 'F1', 'chunyu-qiong': 'F2', 'granary-guard-1': 'G1', 'xu-chu': 'A1' };

  it('is checked only at the end of the side\'s movement; the owner chooses who steps back along its path', () => {
    const game = position({ at: four, phase: 'yuanMovement' });
    walk(game, 'yuan', 'chunyu-qiong', 'F1');
    walk(game, 'yuan', 'granary-guard-1', 'F1');
    // Six in F1 during movement is fine.
    expect(awaiting(game)).toEqual(['yuan:MOVE']);
    submit(game, 'yuan', { type: 'endMovement' });
    expect(awaiting(game)).toEqual(['yuan:RETREAT']);
    expect(status(game).awaiting[0]!.prompt).toContain('F1 holds 6');
    // Only units that moved there may step back.
    expect(legal(game, 'yuan')).toEqual([
      { type: 'stepBack', unit: 'chunyu-qiong' },
      { type: 'stepBack', unit: 'granary-guard-1' },
    ]);
    expect(attempt(game, 'yuan', { type: 'stepBack', unit: 'zhao-rui' })).toMatchObject({ ok: false, reason: expect.stringContaining('cannot step back') });
    const events = submit(game, 'yuan', { type: 'stepBack', unit: 'granary-guard-1' });
    expect(events[0]).toMatchObject({ type: 'UnitSteppedBack', unit: 'granary-guard-1', from: 'F1', to: 'G1', automatic: false });
    expect(space(game, 'granary-guard-1')).toBe('G1');
    // Five left: the limit holds, Chunyu Qiong stays.
    expect(events.filter((e) => e.type === 'UnitSteppedBack')).toHaveLength(1);
    expect(space(game, 'chunyu-qiong')).toBe('F1');
    expect(status(game).phase).not.toBe('Yuan movement');
  });

  it('takes the step backs by itself when every unit that may step back must (no choice left)', () => {
    const game = position({ at: six, phase: 'yuanMovement' });
    walk(game, 'yuan', 'chunyu-qiong', 'F1');
    walk(game, 'yuan', 'granary-guard-1', 'F1');
    // Seven in F1, two of them moved there: both must step back.
    const events = submit(game, 'yuan', { type: 'endMovement' });
    expect(events.filter((e) => e.type === 'UnitSteppedBack')).toEqual([
      expect.objectContaining({ unit: 'chunyu-qiong', to: 'F2', automatic: true }),
      expect.objectContaining({ unit: 'granary-guard-1', to: 'G1', automatic: true }),
    ]);
    expect(status(game).phase).not.toBe('Yuan movement');
  });

  it('steps back one space along the path, not to the start', () => {
    const game = position({ at: { ...four, 'zhang-he': 'H1' }, phase: 'yuanMovement' });
    walk(game, 'yuan', 'zhang-he', 'G1', 'F1');
    walk(game, 'yuan', 'chunyu-qiong', 'F1');
    submit(game, 'yuan', { type: 'endMovement' });
    expect(legal(game, 'yuan').map((c) => c.unit)).toEqual(['chunyu-qiong', 'zhang-he']);
    submit(game, 'yuan', { type: 'stepBack', unit: 'zhang-he' });
    expect(space(game, 'zhang-he')).toBe('G1');
  });

  it('takes the step back by itself when only one unit can step back', () => {
    const game = position({ at: six, phase: 'yuanMovement' });
    walk(game, 'yuan', 'chunyu-qiong', 'F1');
    walk(game, 'yuan', 'han-juzi', 'E1');
    walk(game, 'yuan', 'gao-lan', 'E1');
    walk(game, 'yuan', 'granary-guard-1', 'F1');
    // F1 holds sui, lu, zhao, chunyu, guard: five. No step back needed.
    submit(game, 'yuan', { type: 'endMovement' });
    expect(game.log.some((r) => r.event.type === 'UnitSteppedBack')).toBe(false);
    const again = position({ at: six, phase: 'yuanMovement' });
    walk(again, 'yuan', 'chunyu-qiong', 'F1');
    const events = submit(again, 'yuan', { type: 'endMovement' });
    expect(events).toContainEqual(expect.objectContaining({ type: 'UnitSteppedBack', unit: 'chunyu-qiong', to: 'F2', automatic: true }));
    expect(g(again).units['chunyu-qiong']!.space).toBe('F2');
  });

  it('counts attackers in an enemy space too: a sixth attacker steps back before the combat', () => {
    const five = { 'sui-yuanjin': 'F1', 'lu-weihuang': 'F1', 'han-juzi': 'F1', 'zhao-rui': 'F1', 'chunyu-qiong': 'F1' };
    const game = position({ at: { ...five, 'gao-lan': 'E2', 'granary-guard-1': 'H1', 'xu-chu': 'E1' }, phase: 'yuanMovement' });
    for (const u of Object.keys(five)) walk(game, 'yuan', u, 'E1');
    walk(game, 'yuan', 'gao-lan', 'E1');
    submit(game, 'yuan', { type: 'endMovement' });
    expect(awaiting(game)).toEqual(['yuan:RETREAT']);
    expect(legal(game, 'yuan')).toHaveLength(6);
    submit(game, 'yuan', { type: 'stepBack', unit: 'gao-lan' });
    expect(space(game, 'gao-lan')).toBe('E2');
    const began = game.log.map((r) => r.event).find((e) => e.type === 'CombatBegan');
    expect(began).toMatchObject({ space: 'E1' });
    expect([...(began!.attackers as string[])].sort()).toEqual(Object.keys(five).sort());
  });
});
