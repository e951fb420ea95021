import { describe, expect, it } from 'vitest';
import { COMBAT_RESOLUTION_TABLE, CRT_COLUMNS } from '../../../src/domain/chinese-warlords/data.ts';
import { combatResult, forceRatioColumn } from '../../../src/domain/chinese-warlords/combat.ts';
import { chineseWarlords } from '../../../src/domain/chinese-warlords/index.ts';
import { status } from '../../support/play.ts';
import { act, legalOf, position, refusal, rows, state, unitsIn, type Game } from './helpers.ts';

const field = rows(
  'S . . . . . . . S',
  ' . . . . . . . . .',
  '. . . V j . . . .',
  ' . . . . . . . . .',
  '. . . . . . . . .',
);

function fighting(units: string[], turn = 2): Game {
  return position({ map: field, phase: 'combat', seat: 'red', turn, units: ['red-1 warlord 6,2', 'blue-1 warlord 8,0', ...units] });
}

const redStack = ['red-2 bodyguards 6,2', 'red-3 machineGun 6,2', 'red-4 thugs 6,2']; // with the Warlord: 9+5+7+3 = 24
const blueStack = ['blue-2 thugs 5,2', 'blue-3 thugs 5,2', 'blue-4 peasants 5,2']; // 3+3+1 = 7 in the open: 3:1

function attack(g: Game, roll: number, stack = '6,2', target = '5,2') {
  act(g, 'red', { type: 'attack', stack, target });
  return act(g, 'red', { type: 'resolveAttack' }, [roll]);
}

describe('COMBAT RESOLUTION TABLE', () => {
  it('is the printed table, 1D10 with 0 as the last row', () => {
    expect(CRT_COLUMNS).toEqual(['5+:1', '4:1', '3:1', '2:1', '1:1', '1:2', '1:3+']);
    const printed = `
      1 A K2 K2 K K K R
      2 K2 K2 K K K R R
      3 K2 K K K R R R
      4 K K K R R R -
      5 K K R R R - -
      6 K R R R - - -
      7 R R R - - - -
      8 R R - - - - -
      9 R - - - - - -
      0 - - - - - - -`;
    const table = printed.trim().split('\n').map((line) => line.trim().split(/\s+/).slice(1));
    expect(COMBAT_RESOLUTION_TABLE).toEqual(table);
    expect(combatResult('5+:1', 10)).toBe('-');
    expect(combatResult('1:3+', 1)).toBe('R');
  });

  it('force ratio is rounded in the defender\'s favour to the printed columns', () => {
    expect(forceRatioColumn(10, 2)).toBe('5+:1');
    expect(forceRatioColumn(40, 2)).toBe('5+:1');
    expect(forceRatioColumn(9, 2)).toBe('4:1');
    expect(forceRatioColumn(8, 2)).toBe('4:1');
    expect(forceRatioColumn(7, 2)).toBe('3:1');
    expect(forceRatioColumn(5, 2)).toBe('2:1');
    expect(forceRatioColumn(3, 2)).toBe('1:1');
    expect(forceRatioColumn(2, 2)).toBe('1:1');
    expect(forceRatioColumn(2, 3)).toBe('1:2');
    expect(forceRatioColumn(1, 2)).toBe('1:2');
    expect(forceRatioColumn(2, 5)).toBe('1:3+');
    expect(forceRatioColumn(1, 20)).toBe('1:3+');
  });
});

describe('COMBAT: who attacks', () => {
  it('units of one stack attack together', () => {
    const g = fighting([...redStack, ...blueStack]);
    const [declared] = act(g, 'red', { type: 'attack', stack: '6,2', target: '5,2' });
    expect(declared).toMatchObject({ type: 'AttackDeclared', units: ['red-1', 'red-2', 'red-3', 'red-4'] });
  });

  it('defense values are added to the defending stack\'s force', () => {
    const g = fighting(['red-2 bodyguards 6,2', 'blue-2 thugs 5,2']);
    const [resolved] = attack(g, 10);
    expect(resolved).toMatchObject({ attackForce: 14, defenderForce: 3, terrainDefense: 0, column: '4:1', roll: 10, result: '-' });
    const village = position({ map: field, phase: 'combat', seat: 'red', turn: 2, units: ['red-1 warlord 2,2', 'red-2 bodyguards 2,2', 'blue-1 warlord 8,0', 'blue-2 thugs 3,2'] });
    const [inVillage] = attack(village, 10, '2,2', '3,2');
    expect(inVillage).toMatchObject({ attackForce: 14, defenderForce: 3, terrainDefense: 5, column: '1:1' });
    const jungle = position({ map: field, phase: 'combat', seat: 'red', turn: 2, units: ['red-1 warlord 5,2', 'blue-1 warlord 8,0', 'blue-2 thugs 4,2'] });
    expect(attack(jungle, 10, '5,2', '4,2')[0]).toMatchObject({ attackForce: 9, terrainDefense: 2, column: '1:1' });
    const stronghold = position({ map: field, phase: 'combat', seat: 'red', turn: 2, units: ['red-1 warlord 7,0', 'blue-1 warlord 8,0'] });
    expect(attack(stronghold, 10, '7,0', '8,0')[0]).toMatchObject({ attackForce: 9, defenderForce: 9, terrainDefense: 15, column: '1:3+' });
  });

  it('attacks on a single stack may be combined', () => {
    const g = fighting(['red-5 lieutenant 5,1', 'red-6 thugs 5,1', ...blueStack]);
    act(g, 'red', { type: 'attack', stack: '6,2', target: '5,2' });
    expect(legalOf(g, 'red')).toEqual([{ type: 'attack', stack: '5,1', target: '5,2' }, { type: 'resolveAttack' }]);
    act(g, 'red', { type: 'attack', stack: '5,1', target: '5,2' });
    const [resolved] = act(g, 'red', { type: 'resolveAttack' }, [10]);
    expect(resolved).toMatchObject({ stacks: ['6,2', '5,1'], attackers: ['red-1', 'red-5', 'red-6'], attackForce: 15, defenderForce: 7, column: '2:1' });
  });

  it('one attack at a time: another target waits until this one is resolved', () => {
    const g = fighting(['red-5 lieutenant 5,1', ...blueStack, 'blue-5 thugs 6,1']);
    act(g, 'red', { type: 'attack', stack: '6,2', target: '5,2' });
    expect(refusal(g, 'red', { type: 'attack', stack: '5,1', target: '6,1' })).toBe('Resolve the attack on 5,2 first');
    expect(refusal(g, 'red', { type: 'endCombat' })).toBe('Resolve the attack on 5,2 first');
    expect(refusal(g, 'red', { type: 'attack', stack: '6,2', target: '5,2' })).toMatch(/already takes part/);
  });

  it('units in range only: artillery reaches 3 hexes, the armored vehicle 2, the others 1', () => {
    const g = position({
      map: field,
      phase: 'combat',
      seat: 'red',
      turn: 2,
      units: ['red-1 warlord 0,2', 'red-2 artillery 0,2', 'red-3 lieutenant 1,2', 'red-4 armoredVehicle 1,2', 'red-5 thugs 1,2', 'blue-1 warlord 8,0', 'blue-2 thugs 3,2'],
    });
    expect(act(g, 'red', { type: 'attack', stack: '0,2', target: '3,2' })[0]).toMatchObject({ units: ['red-2'] });
    expect(act(g, 'red', { type: 'attack', stack: '1,2', target: '3,2' })[0]).toMatchObject({ units: ['red-4'] });
    const [resolved] = act(g, 'red', { type: 'resolveAttack' }, [10]);
    expect(resolved).toMatchObject({ attackForce: 14 });
  });

  it('attacks by units in the same stack must be combined: a stack attacks at most once a turn', () => {
    // The armored vehicle reaches 3,2 (2 hexes); the rest of its stack reaches only 1,1 next door.
    const g = position({
      map: field,
      phase: 'combat',
      seat: 'red',
      turn: 2,
      units: ['red-1 warlord 1,2', 'red-2 armoredVehicle 1,2', 'red-3 thugs 1,2', 'blue-1 warlord 8,0', 'blue-2 thugs 3,2', 'blue-3 thugs 1,1'],
    });
    expect(act(g, 'red', { type: 'attack', stack: '1,2', target: '3,2' })[0]).toMatchObject({ units: ['red-2'] });
    act(g, 'red', { type: 'resolveAttack' }, [10]);
    // The Warlord and the Thugs were out of range: they do not attack this turn.
    expect(refusal(g, 'red', { type: 'attack', stack: '1,2', target: '1,1' })).toBe('The stack in 1,2 has already attacked this turn');
    expect(legalOf(g, 'red')).toEqual([{ type: 'endCombat' }]);
    const view = chineseWarlords.view(state(g), 'red') as { units: { id: string; attacked: boolean }[] };
    expect(view.units.filter((u) => u.attacked).map((u) => u.id)).toEqual(['red-1', 'red-2', 'red-3']);
  });

  it('a unit may attack once per turn', () => {
    const g = fighting([...redStack, ...blueStack]);
    attack(g, 10);
    expect(refusal(g, 'red', { type: 'attack', stack: '6,2', target: '5,2' })).toMatch(/already attacked this turn/);
    expect(legalOf(g, 'red')).toEqual([{ type: 'endCombat' }]);
  });

  it('a stack cannot attack unless it contains a warlord or lieutenant', () => {
    const g = position({ map: field, phase: 'combat', seat: 'red', turn: 2, units: ['red-1 warlord 0,0', 'red-2 thugs 6,2', 'red-3 bodyguards 6,2', 'blue-1 warlord 8,0', ...blueStack] });
    expect(refusal(g, 'red', { type: 'attack', stack: '6,2', target: '5,2' })).toMatch(/no Warlord or Lieutenant and was not attacked last turn/);
    expect(legalOf(g, 'red')).toEqual([{ type: 'endCombat' }]);
  });

  it('... not even in turn 1, when no stack has been attacked before', () => {
    const g = position({ map: field, phase: 'combat', seat: 'red', turn: 1, units: ['red-1 warlord 0,0', 'red-2 thugs 6,2', 'red-3 bodyguards 6,2', 'blue-1 warlord 8,0', ...blueStack] });
    expect(refusal(g, 'red', { type: 'attack', stack: '6,2', target: '5,2' })).toMatch(/no Warlord or Lieutenant and was not attacked last turn/);
    expect(legalOf(g, 'red')).toEqual([{ type: 'endCombat' }]);
  });

  it('... or it was attacked last turn', () => {
    const g = position({ map: field, phase: 'combat', seat: 'red', turn: 5, units: ['red-1 warlord 0,0', 'red-2 thugs 6,2', 'blue-1 warlord 8,0', ...blueStack] });
    state(g).units.find((u) => u.id === 'red-2')!.targetedTurn = 4;
    expect(legalOf(g, 'red')).toContainEqual({ type: 'attack', stack: '6,2', target: '5,2' });
    state(g).units.find((u) => u.id === 'red-2')!.targetedTurn = 3;
    expect(legalOf(g, 'red')).not.toContainEqual({ type: 'attack', stack: '6,2', target: '5,2' });
  });

  it('... last turn: a leaderless stack attacked in turn T may attack in turn T+1, not back in turn T', () => {
    // Blue moves first this turn and attacks red's stack of Thugs and Bodyguards, which has no leader.
    const g = position({ map: field, phase: 'combat', seat: 'blue', turn: 3, order: ['blue', 'red'], units: ['red-1 warlord 0,0', 'red-2 thugs 6,2', 'red-3 bodyguards 6,2', 'blue-1 warlord 5,2', 'blue-2 thugs 5,2'] });
    act(g, 'blue', { type: 'attack', stack: '5,2', target: '6,2' });
    act(g, 'blue', { type: 'resolveAttack' }, [10]); // '-'
    act(g, 'blue', { type: 'endCombat' });
    // Turn 3, red's combat: it was attacked this turn, not last turn.
    expect(status(g).awaiting).toMatchObject([{ seat: 'red', kind: 'ATTACK' }]);
    expect(refusal(g, 'red', { type: 'attack', stack: '6,2', target: '5,2' })).toMatch(/no Warlord or Lieutenant and was not attacked last turn/);
    expect(legalOf(g, 'red')).toEqual([{ type: 'endCombat' }]);
    expect(chineseWarlords.view(state(g), 'red')).toMatchObject({ units: expect.arrayContaining([expect.objectContaining({ id: 'red-2', attackedRecently: false })]) });
    act(g, 'red', { type: 'endCombat' }, [6, 1]); // turn 4: initiative red 6, blue 1
    expect(state(g).turn).toBe(4);
    for (const [seat, type] of [['red', 'endRecruitment'], ['blue', 'endRecruitment'], ['red', 'endMovement'], ['blue', 'endMovement']] as const) act(g, seat, { type });
    // Turn 4: attacked last turn, so it may attack.
    expect(chineseWarlords.view(state(g), 'red')).toMatchObject({ units: expect.arrayContaining([expect.objectContaining({ id: 'red-2', attackedRecently: true })]) });
    expect(legalOf(g, 'red')).toContainEqual({ type: 'attack', stack: '6,2', target: '5,2' });
    act(g, 'red', { type: 'attack', stack: '6,2', target: '5,2' });
  });

  it('... last turn: attacked in turn T-1 and again in turn T, it may still attack in turn T', () => {
    const g = position({ map: field, phase: 'combat', seat: 'blue', turn: 4, order: ['blue', 'red'], units: ['red-1 warlord 0,0', 'red-2 thugs 6,2', 'red-3 bodyguards 6,2', 'blue-1 warlord 5,2', 'blue-2 thugs 5,2'] });
    state(g).units.find((u) => u.id === 'red-2')!.targetedTurn = 3;
    act(g, 'blue', { type: 'attack', stack: '5,2', target: '6,2' });
    act(g, 'blue', { type: 'resolveAttack' }, [10]); // '-'
    act(g, 'blue', { type: 'endCombat' });
    expect(legalOf(g, 'red')).toContainEqual({ type: 'attack', stack: '6,2', target: '5,2' });
  });

  it('carried units may attack', () => {
    const g = position({ map: field, phase: 'combat', seat: 'red', turn: 2, units: ['red-1 warlord 0,0', 'red-2 vehicles 6,2', 'red-3 lieutenant 6,2 in red-2', 'blue-1 warlord 8,0', ...blueStack] });
    expect(act(g, 'red', { type: 'attack', stack: '6,2', target: '5,2' })[0]).toMatchObject({ units: ['red-2', 'red-3'] });
  });
});

describe('COMBAT: results against the defending stack', () => {
  it('A: all units in the stack are killed', () => {
    const g = fighting([...redStack, 'blue-2 peasants 5,2', 'blue-3 peasants 5,2']);
    const events = attack(g, 1);
    expect(events[0]).toMatchObject({ column: '5+:1', result: 'A' });
    expect(events.filter((e) => e.type === 'UnitLost').map((e) => e.unit)).toEqual(['blue-2', 'blue-3']);
    expect(unitsIn(g, '5,2')).toEqual([]);
  });

  it('K2: the defender chooses 2 units lost, then retreats 1 space or loses another unit', () => {
    const g = fighting([...redStack, ...blueStack]);
    const events = attack(g, 1);
    expect(events[0]).toMatchObject({ column: '3:1', result: 'K2' });
    // The defender decides, though it is red's combat phase.
    expect(status(g).awaiting).toEqual([{ seat: 'blue', kind: 'ALLOCATE_DAMAGE', prompt: 'K2: choose 2 unit(s) lost in 5,2' }]);
    expect(legalOf(g, 'red')).toEqual([]);
    expect(legalOf(g, 'blue')).toEqual(['blue-2', 'blue-3', 'blue-4'].map((unit) => ({ type: 'loseUnit', unit })));
    expect(refusal(g, 'blue', { type: 'retreat', to: '4,1' })).toMatch(/Choose the 2 unit\(s\) lost first/);
    act(g, 'blue', { type: 'loseUnit', unit: 'blue-4' });
    act(g, 'blue', { type: 'loseUnit', unit: 'blue-2' });
    expect(status(g).awaiting).toEqual([{ seat: 'blue', kind: 'RETREAT', prompt: 'K2: retreat the stack in 5,2 1 space or lose another unit' }]);
    expect(legalOf(g, 'blue')).toEqual([
      ...['4,1', '4,2', '4,3', '5,1', '5,3'].map((to) => ({ type: 'retreat', to })),
      { type: 'loseUnit', unit: 'blue-3' },
    ]);
    expect(refusal(g, 'blue', { type: 'retreat', to: '6,2' })).toMatch(/cannot retreat to 6,2/);
    act(g, 'blue', { type: 'retreat', to: '4,2' });
    expect(unitsIn(g, '4,2')).toEqual(['blue-3']);
    expect(state(g).defense).toBeNull();
    expect(status(g).awaiting).toEqual([{ seat: 'red', kind: 'ATTACK', prompt: expect.any(String) }]);
  });

  it('K: 1 unit killed, then retreat or lose another unit (the defender chooses to lose one)', () => {
    const g = fighting([...redStack, ...blueStack]);
    expect(attack(g, 2)[0]).toMatchObject({ result: 'K' });
    act(g, 'blue', { type: 'loseUnit', unit: 'blue-4' });
    act(g, 'blue', { type: 'loseUnit', unit: 'blue-3' });
    expect(unitsIn(g, '5,2')).toEqual(['blue-2']);
    expect(state(g).defense).toBeNull();
  });

  it('R: the stack must retreat 1 space', () => {
    const g = fighting([...redStack, ...blueStack]);
    expect(attack(g, 5)[0]).toMatchObject({ result: 'R' });
    expect(legalOf(g, 'blue')).toEqual(['4,1', '4,2', '4,3', '5,1', '5,3'].map((to) => ({ type: 'retreat', to })));
    expect(refusal(g, 'blue', { type: 'loseUnit', unit: 'blue-2' })).toMatch(/must retreat/);
    act(g, 'blue', { type: 'retreat', to: '5,3' });
    expect(unitsIn(g, '5,3')).toEqual(['blue-2', 'blue-3', 'blue-4']);
  });

  it('R: 1 unit killed if unable to retreat', () => {
    const g = position({ map: field, phase: 'combat', seat: 'red', turn: 2, units: ['red-1 warlord 1,4', 'red-2 thugs 0,3', 'blue-1 warlord 8,0', 'blue-2 thugs 0,4', 'blue-3 peasants 0,4'] });
    attack(g, 4, '1,4', '0,4'); // 9 : 4 -> 2:1, roll 4 -> R
    // No retreat square: the prompt says what is left to do.
    expect(status(g).awaiting).toEqual([{ seat: 'blue', kind: 'RETREAT', prompt: 'R: the stack in 0,4 cannot retreat: lose 1 unit' }]);
    expect(legalOf(g, 'blue')).toEqual([{ type: 'loseUnit', unit: 'blue-2' }, { type: 'loseUnit', unit: 'blue-3' }]);
    act(g, 'blue', { type: 'loseUnit', unit: 'blue-3' });
    expect(unitsIn(g, '0,4')).toEqual(['blue-2']);
  });

  it('K: a stack that cannot retreat is asked to lose another unit', () => {
    const g = position({ map: field, phase: 'combat', seat: 'red', turn: 2, units: ['red-1 warlord 1,4', 'red-2 bodyguards 1,4', 'red-3 thugs 0,3', 'blue-1 warlord 8,0', 'blue-2 thugs 0,4', 'blue-3 peasants 0,4', 'blue-4 peasants 0,4'] });
    attack(g, 2, '1,4', '0,4'); // 14 : 5 -> 2:1, roll 2 -> K
    act(g, 'blue', { type: 'loseUnit', unit: 'blue-4' });
    expect(status(g).awaiting).toEqual([{ seat: 'blue', kind: 'RETREAT', prompt: 'K: the stack in 0,4 cannot retreat: lose another unit' }]);
    expect(legalOf(g, 'blue')).toEqual([{ type: 'loseUnit', unit: 'blue-2' }, { type: 'loseUnit', unit: 'blue-3' }]);
  });

  it('-: nothing happens', () => {
    const g = fighting([...redStack, ...blueStack]);
    const events = attack(g, 8);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ result: '-' });
    expect(unitsIn(g, '5,2')).toHaveLength(3);
  });

  it('a stack may only retreat once per turn: after a retreat it loses a unit instead', () => {
    const g = fighting([...redStack, 'red-5 lieutenant 4,3', ...blueStack]);
    attack(g, 5);
    act(g, 'blue', { type: 'retreat', to: '4,2' });
    // The lieutenant attacks the same stack again in its new hex: R.
    act(g, 'red', { type: 'attack', stack: '4,3', target: '4,2' });
    const [resolved] = act(g, 'red', { type: 'resolveAttack' }, [1]); // 3 : 7+2 -> 1:3+, roll 1 -> R
    expect(resolved).toMatchObject({ column: '1:3+', result: 'R' });
    expect(legalOf(g, 'blue').every((c) => c.type === 'loseUnit')).toBe(true);
    expect(refusal(g, 'blue', { type: 'retreat', to: '3,2' })).toMatch(/cannot retreat/);
  });

  it('a retreat never goes into enemy units, water (for foot units) or another player\'s stronghold', () => {
    const lake = rows('S . ~ . . S', ' . . . . . .', '. . . . . .');
    const h = position({ map: lake, phase: 'combat', seat: 'red', turn: 2, units: ['red-1 warlord 3,1', 'red-2 bodyguards 3,1', 'red-3 thugs 1,0', 'blue-1 warlord 5,0', 'blue-2 thugs 2,1', 'blue-3 thugs 2,1'] });
    // 14 : 6 -> 2:1, roll 4 -> R. Neighbours of 2,1: 2,0 water, 3,0, 1,1, 3,1 red, 2,2, 3,2.
    attack(h, 4, '3,1', '2,1');
    expect(legalOf(h, 'blue')).toEqual(['1,1', '2,2', '3,0', '3,2'].map((to) => ({ type: 'retreat', to })));
    // Next to red's empty stronghold 0,0 and the water 2,0, with red in 1,1: the only way out is 0,1, taken at once.
    const k = position({ map: lake, phase: 'combat', seat: 'red', turn: 2, units: ['red-1 warlord 1,1', 'red-2 bodyguards 1,1', 'blue-1 warlord 5,0', 'blue-2 thugs 1,0', 'blue-3 thugs 1,0'] });
    const events = attack(k, 4, '1,1', '1,0');
    expect(events.map((e) => e.type)).toEqual(['CombatResolved', 'StackRetreated']);
    expect(unitsIn(k, '0,1')).toEqual(['blue-2', 'blue-3']);
  });

  it('a boat in a village retreats onto water, not into the next village', () => {
    const shore = rows('S ~ V V ~ S', ' . . . . . .');
    const g = position({ map: shore, phase: 'combat', seat: 'blue', turn: 2, units: ['red-1 warlord 0,0', 'red-2 boats 2,0', 'blue-1 warlord 2,1'] });
    act(g, 'blue', { type: 'attack', stack: '2,1', target: '2,0' });
    const events = act(g, 'blue', { type: 'resolveAttack' }, [3]); // 9 : 1+5 -> 1:1, roll 3 -> R
    // Its only way out is the water at 1,0 (3,0 is a village: a boat enters one only from water).
    expect(events.map((e) => e.type)).toEqual(['CombatResolved', 'StackRetreated']);
    expect(events[1]).toMatchObject({ from: '2,0', to: '1,0' });
  });

  it('a choice with exactly one option is taken automatically', () => {
    const g = fighting([...redStack, 'blue-2 thugs 5,2']);
    const events = attack(g, 4); // 24 : 3 -> 5+:1, roll 4 -> K
    expect(events.map((e) => e.type)).toEqual(['CombatResolved', 'UnitLost']);
    expect(state(g).defense).toBeNull();
    expect(status(g).awaiting).toMatchObject([{ seat: 'red', kind: 'ATTACK' }]);
  });

  it('K2 against a stack of 2 units: both are lost at once, there is nothing to choose', () => {
    const g = fighting([...redStack, 'blue-2 thugs 5,2', 'blue-3 peasants 5,2']);
    const events = attack(g, 2); // 24 : 4 -> 5+:1, roll 2 -> K2
    expect(events.map((e) => [e.type, e.result ?? e.unit])).toEqual([['CombatResolved', 'K2'], ['UnitLost', 'blue-2'], ['UnitLost', 'blue-3']]);
    expect(state(g).defense).toBeNull();
    expect(status(g).awaiting).toMatchObject([{ seat: 'red', kind: 'ATTACK' }]);
    // A carrier and its passenger: the passenger's loss comes first.
    const h = fighting([...redStack, 'blue-2 vehicles 5,2', 'blue-3 peasants 5,2 in blue-2']);
    expect(attack(h, 2).map((e) => [e.type, e.result ?? e.unit])).toEqual([['CombatResolved', 'K2'], ['UnitLost', 'blue-3'], ['UnitLost', 'blue-2']]);
  });

  it('the defender chooses the losses; carried units are destroyed with their carrier', () => {
    const g = fighting([...redStack, 'blue-2 vehicles 5,2', 'blue-3 thugs 5,2 in blue-2', 'blue-4 bodyguards 5,2']);
    attack(g, 2); // 24 : 9 -> 2:1, roll 2 -> K
    const events = act(g, 'blue', { type: 'loseUnit', unit: 'blue-2' });
    // The passenger's event comes first: no state holds a passenger without its carrier.
    expect(events.map((e) => [e.type, e.unit, e.cause])).toEqual([['UnitLost', 'blue-3', 'carrier'], ['UnitLost', 'blue-2', 'combat']]);
    expect(unitsIn(g, '5,2')).toEqual(['blue-4']);
    // Still to decide: retreat or lose another unit.
    expect(status(g).awaiting).toMatchObject([{ seat: 'blue', kind: 'RETREAT' }]);
  });

  it('K2: a carrier chosen as a loss takes its passengers, and they count among the 2 units killed', () => {
    const k = position({ map: field, phase: 'combat', seat: 'red', turn: 2, units: ['red-1 warlord 6,2', 'red-2 bodyguards 6,2', 'red-3 machineGun 6,2', 'red-4 thugs 6,2', 'red-5 lieutenant 6,2', 'blue-1 warlord 8,0', 'blue-2 vehicles 5,2', 'blue-3 thugs 5,2 in blue-2', 'blue-4 bodyguards 5,2'] });
    expect(attack(k, 1)[0]).toMatchObject({ attackForce: 27, defenderForce: 9, column: '3:1', result: 'K2' });
    const events = act(k, 'blue', { type: 'loseUnit', unit: 'blue-2' });
    expect(events.map((e) => e.unit)).toEqual(['blue-3', 'blue-2']);
    // Both losses are taken: what is left is retreat or lose another unit.
    expect(state(k).defense).toMatchObject({ losses: 0, then: 'retreatOrLose' });
    expect(status(k).awaiting).toMatchObject([{ seat: 'blue', kind: 'RETREAT' }]);
  });

  it('a carrier lost instead of retreating ends the defense, its passenger with it', () => {
    const g = fighting([...redStack, 'blue-2 vehicles 5,2', 'blue-3 thugs 5,2 in blue-2', 'blue-4 bodyguards 5,2', 'blue-5 thugs 5,2']);
    attack(g, 2); // 24 : 12 -> 2:1, roll 2 -> K
    act(g, 'blue', { type: 'loseUnit', unit: 'blue-5' });
    const events = act(g, 'blue', { type: 'loseUnit', unit: 'blue-2' });
    expect(events.map((e) => [e.unit, e.cause])).toEqual([['blue-3', 'carrier'], ['blue-2', 'combat']]);
    expect(state(g).defense).toBeNull();
    expect(unitsIn(g, '5,2')).toEqual(['blue-4']);
    expect(status(g).awaiting).toMatchObject([{ seat: 'red', kind: 'ATTACK' }]);
  });

  it('A: passengers are killed before their carriers (no state holds a passenger without its carrier)', () => {
    const g = fighting([...redStack, 'blue-2 vehicles 5,2', 'blue-3 peasants 5,2 in blue-2', 'blue-4 peasants 5,2']);
    const events = attack(g, 1); // 24 : 3 -> 5+:1, roll 1 -> A
    expect(events[0]).toMatchObject({ column: '5+:1', result: 'A' });
    expect(events.filter((e) => e.type === 'UnitLost').map((e) => e.unit)).toEqual(['blue-3', 'blue-2', 'blue-4']);
  });
});
