import { describe, expect, it } from 'vitest';
import { chineseWarlords } from '../../../src/domain/chinese-warlords/index.ts';
import { act, hexOf, legalOf, position, refusal, rows, state, unitsIn, type Game } from './helpers.ts';

// Row 0 open, row 1 jungle, row 2 road between the strongholds, row 3 rice paddies, row 4 water with a village.
const valley = rows(
  '. . . . . . . . .',
  ' j j j j j j j j j',
  'S = = = = = = = S',
  ' p p p p p p p p p',
  '. ~ ~ ~ ~ ~ V . .',
);

function moving(units: string[]): Game {
  return position({ map: valley, phase: 'movement', seat: 'red', units: ['red-1 warlord 0,2', 'blue-1 warlord 8,2', ...units] });
}

function destinations(g: Game, unit: string): string[] {
  return legalOf(g, 'red')
    .filter((c) => c.type === 'move' && c.unit === unit)
    .map((c) => c.to as string)
    .sort();
}

describe('MOVEMENT: terrain costs', () => {
  it('units in one hex each list the moves of their own mobility and movement left', () => {
    const g = moving(['red-2 peasants 1,0', 'red-3 peasants 2,0', 'red-4 vehicles 0,0']);
    act(g, 'red', { type: 'move', unit: 'red-2', to: '2,0' }); // 1 of its 2 points used
    act(g, 'red', { type: 'move', unit: 'red-4', to: '2,0' }); // 4 of its 6: 2 left, as the fresh peasants have
    expect(destinations(g, 'red-2')).toEqual(['1,0', '3,0']);
    expect(destinations(g, 'red-3')).toEqual(['0,0', '1,0', '1,1', '2,1', '3,0', '4,0']);
    expect(destinations(g, 'red-4')).toEqual(['1,0', '3,0']);
  });

  it('vehicles pay 1 on roads and 2 in the open, up to their Movement rating of 6', () => {
    const g = moving(['red-2 vehicles 1,2', 'red-3 vehicles 1,0']);
    expect(destinations(g, 'red-2')).toEqual(['0,2', '2,2', '3,2', '4,2', '5,2', '6,2', '7,2']);
    expect(destinations(g, 'red-3')).toEqual(['0,0', '2,0', '3,0', '4,0']);
    const events = act(g, 'red', { type: 'move', unit: 'red-2', to: '7,2' });
    expect(events[0]).toMatchObject({ type: 'UnitMoved', path: ['1,2', '2,2', '3,2', '4,2', '5,2', '6,2', '7,2'], cost: 6 });
  });

  it('vehicles cannot enter rice paddies, jungle or water', () => {
    const g = moving(['red-2 vehicles 3,2', 'red-3 armoredVehicle 3,2']);
    for (const unit of ['red-2', 'red-3']) for (const to of destinations(g, unit)) expect(to.endsWith(',2')).toBe(true);
    expect(refusal(g, 'red', { type: 'move', unit: 'red-2', to: '3,3' })).toMatch(/cannot reach 3,3/);
  });

  it('foot units pay 1 in the open and on roads, 2 in jungle and rice paddies, and never enter water', () => {
    const g = moving(['red-2 peasants 1,0', 'red-3 thugs 3,3']);
    expect(destinations(g, 'red-2')).toEqual(['0,0', '0,1', '1,1', '2,0', '3,0']);
    expect(destinations(g, 'red-3')).toEqual(['2,2', '2,3', '3,2', '4,2', '4,3', '5,2']);
  });

  it('boats move only on water and may end in a village next to water', () => {
    const g = moving(['red-2 boats 6,4', 'red-3 boats 3,4', 'red-4 boats 2,4']);
    expect(destinations(g, 'red-2')).toEqual(['2,4', '3,4', '4,4', '5,4']);
    expect(destinations(g, 'red-3')).toContain('6,4');
    expect(destinations(g, 'red-4')).not.toContain('6,4'); // 3 water + village 2 = 5 > 4
    const lake = rows('S ~ ~ V ~ ~ S');
    const h = position({ map: lake, phase: 'movement', seat: 'red', units: ['red-1 warlord 0,0', 'blue-1 warlord 6,0', 'red-2 boats 1,0'] });
    expect(destinations(h, 'red-2')).toEqual(['2,0', '3,0']); // a boat stops in the village
  });

  it('boats: every step enters water, except a last step into a village next to water', () => {
    // Two villages side by side, each by its own water: 1,0 / 2,0 and 3,0 / 4,0.
    const pond = rows('S ~ V V ~ S');
    const g = position({ map: pond, phase: 'movement', seat: 'red', units: ['red-1 warlord 0,0', 'blue-1 warlord 5,0', 'red-2 boats 2,0'] });
    // No hop from a village straight into the next village, nor on to the water behind it.
    expect(destinations(g, 'red-2')).toEqual(['1,0']);
    expect(refusal(g, 'red', { type: 'move', unit: 'red-2', to: '3,0' })).toMatch(/cannot reach 3,0/);
    // Villages on one stretch of water: the boat goes round by water (3 points), not village to village (2).
    const shore = rows('S V V . . S', ' ~ ~ ~ . . .');
    const h = position({ map: shore, phase: 'movement', seat: 'red', units: ['red-1 warlord 0,0', 'blue-1 warlord 5,0', 'red-2 boats 1,0'] });
    expect(act(h, 'red', { type: 'move', unit: 'red-2', to: '2,0' })[0]).toMatchObject({ type: 'UnitMoved', path: ['1,0', '1,1', '2,0'], cost: 3 });
  });

  it('boats: after the last step into a village the boat moves no further that turn', () => {
    // A village between two separate waters is not a waypoint.
    const straits = rows('S ~ V ~ ~ S');
    const g = position({ map: straits, phase: 'movement', seat: 'red', units: ['red-1 warlord 0,0', 'blue-1 warlord 5,0', 'red-2 boats 1,0'] });
    expect(destinations(g, 'red-2')).toEqual(['2,0']);
    act(g, 'red', { type: 'move', unit: 'red-2', to: '2,0' });
    expect(destinations(g, 'red-2')).toEqual([]);
    expect(refusal(g, 'red', { type: 'move', unit: 'red-2', to: '3,0' })).toMatch(/no movement points left/);
    expect((chineseWarlords.view(state(g), 'red') as { units: { id: string; movementLeft: number }[] }).units.find((u) => u.id === 'red-2')!.movementLeft).toBe(0);
  });

  it('spends movement points over several moves', () => {
    const g = moving(['red-2 thugs 2,0']);
    act(g, 'red', { type: 'move', unit: 'red-2', to: '3,0' });
    expect(destinations(g, 'red-2')).toEqual(['2,0', '4,0']);
    act(g, 'red', { type: 'move', unit: 'red-2', to: '4,0' });
    expect(destinations(g, 'red-2')).toEqual([]);
    expect(refusal(g, 'red', { type: 'move', unit: 'red-2', to: '5,0' })).toMatch(/no movement points left/);
  });

  it('no stacking limit: any number of units per space', () => {
    const many = Array.from({ length: 15 }, (_, i) => `red-${i + 2} thugs 1,2`);
    const g = moving(many);
    for (let i = 0; i < 15; i++) act(g, 'red', { type: 'move', unit: `red-${i + 2}`, to: '3,2' });
    expect(unitsIn(g, '3,2')).toHaveLength(15);
  });

  it('units never enter or pass through a hex held by another player', () => {
    const g = moving(['red-2 peasants 1,0', 'blue-2 thugs 2,0']);
    expect(destinations(g, 'red-2')).not.toContain('2,0');
    expect(destinations(g, 'red-2')).not.toContain('3,0');
    expect(refusal(g, 'red', { type: 'move', unit: 'red-2', to: '2,0' })).toMatch(/cannot reach/);
  });

  it('ending a move in a village takes control of it', () => {
    const g = position({ phase: 'movement', seat: 'red', units: ['red-1 warlord 1,4', 'blue-1 warlord 11,4', 'red-2 thugs 3,3'] });
    const events = act(g, 'red', { type: 'move', unit: 'red-2', to: '3,2' });
    expect(events).toContainEqual({ type: 'ControlTaken', seat: 'red', hex: '3,2', from: null });
    expect(state(g).control['3,2']).toBe('red');
  });

  it('a player moves only in its own movement, and ends it', () => {
    const g = moving(['red-2 thugs 2,0']);
    expect(legalOf(g, 'blue')).toEqual([]);
    expect(refusal(g, 'blue', { type: 'endMovement' })).toMatch(/Not your turn: the game waits for (red|blue)/);
    act(g, 'red', { type: 'endMovement' });
    expect(state(g).seat).toBe('blue');
  });
});

describe('MOVEMENT: carrying (vehicles 1, armored vehicle 1, boats 2)', () => {
  it('a vehicle carries 1 foot unit, which moves with it and then its move is over', () => {
    const g = moving(['red-2 vehicles 1,2', 'red-3 peasants 1,2', 'red-4 thugs 1,2']);
    act(g, 'red', { type: 'board', unit: 'red-3', carrier: 'red-2' });
    expect(refusal(g, 'red', { type: 'board', unit: 'red-4', carrier: 'red-2' })).toMatch(/carries 1 and is full/);
    expect(refusal(g, 'red', { type: 'move', unit: 'red-3', to: '2,2' })).toMatch(/aboard red-2: unload it first/);
    const events = act(g, 'red', { type: 'move', unit: 'red-2', to: '7,2' });
    expect(events[0]).toMatchObject({ passengers: ['red-3'] });
    expect(hexOf(g, 'red-3')).toBe('7,2');
    expect(hexOf(g, 'red-4')).toBe('1,2');
    act(g, 'red', { type: 'unload', unit: 'red-3' });
    expect(state(g).units.find((u) => u.id === 'red-3')!.carriedBy).toBeNull();
    expect(destinations(g, 'red-3')).toEqual([]);
  });

  it('passengers board in the carrier\'s hex at the end of its move; its move is then over', () => {
    const g = moving(['red-2 vehicles 1,2', 'red-3 peasants 2,2']);
    act(g, 'red', { type: 'move', unit: 'red-2', to: '2,2' }); // 1 of its 6 points
    expect(legalOf(g, 'red')).toContainEqual({ type: 'board', unit: 'red-3', carrier: 'red-2' });
    expect(act(g, 'red', { type: 'board', unit: 'red-3', carrier: 'red-2' })).toEqual([{ type: 'UnitBoarded', seat: 'red', unit: 'red-3', carrier: 'red-2', hex: '2,2' }]);
    expect(destinations(g, 'red-2')).toEqual([]);
    expect(refusal(g, 'red', { type: 'move', unit: 'red-2', to: '3,2' })).toMatch(/no movement points left/);
  });

  it('passengers leave in the carrier\'s hex at the end of its move; it does not drive on', () => {
    const g = moving(['red-2 vehicles 1,2', 'red-3 peasants 1,2']);
    act(g, 'red', { type: 'board', unit: 'red-3', carrier: 'red-2' });
    act(g, 'red', { type: 'move', unit: 'red-2', to: '3,2' }); // 2 of its 6 points
    act(g, 'red', { type: 'unload', unit: 'red-3' });
    expect(hexOf(g, 'red-3')).toBe('3,2');
    expect(destinations(g, 'red-2')).toEqual([]);
  });

  it('a passenger that gets off before the carrier moves may still walk', () => {
    const g = moving(['red-2 vehicles 1,2', 'red-3 peasants 1,2']);
    act(g, 'red', { type: 'board', unit: 'red-3', carrier: 'red-2' });
    act(g, 'red', { type: 'unload', unit: 'red-3' });
    expect(destinations(g, 'red-3').length).toBeGreaterThan(0);
  });

  it('the armored vehicle carries 1; vehicles carry only foot units', () => {
    const g = moving(['red-2 armoredVehicle 1,2', 'red-3 bodyguards 1,2', 'red-4 thugs 1,2', 'red-5 vehicles 1,2']);
    act(g, 'red', { type: 'board', unit: 'red-3', carrier: 'red-2' });
    expect(refusal(g, 'red', { type: 'board', unit: 'red-4', carrier: 'red-2' })).toMatch(/full/);
    expect(refusal(g, 'red', { type: 'board', unit: 'red-5', carrier: 'red-2' })).toMatch(/only foot units are carried/);
  });

  it('boats carry 2, over water; nobody gets off on water', () => {
    const g = moving(['red-2 boats 6,4', 'red-3 peasants 6,4', 'red-4 thugs 6,4', 'red-5 bodyguards 6,4']);
    act(g, 'red', { type: 'board', unit: 'red-3', carrier: 'red-2' });
    act(g, 'red', { type: 'board', unit: 'red-4', carrier: 'red-2' });
    expect(refusal(g, 'red', { type: 'board', unit: 'red-5', carrier: 'red-2' })).toMatch(/carries 2 and is full/);
    act(g, 'red', { type: 'move', unit: 'red-2', to: '3,4' });
    expect(unitsIn(g, '3,4')).toEqual(['red-2', 'red-3', 'red-4']);
    expect(refusal(g, 'red', { type: 'unload', unit: 'red-3' })).toMatch(/cannot get off in 3,4 \(water\)/);
    expect(legalOf(g, 'red').some((c) => c.type === 'unload')).toBe(false);
  });

  it('legal commands list each board, unload and move exactly, and each is accepted', () => {
    const g = moving(['red-2 boats 6,4', 'red-3 peasants 6,4', 'red-4 vehicles 1,2', 'red-5 thugs 1,2']);
    const listed = legalOf(g, 'red');
    expect(listed.filter((c) => c.type === 'board')).toEqual([
      { type: 'board', unit: 'red-3', carrier: 'red-2' },
      { type: 'board', unit: 'red-5', carrier: 'red-4' },
    ]);
    for (const c of listed) expect(chineseWarlords.decide(state(g), c as never, 'red', { die: () => 1 }).ok, JSON.stringify(c)).toBe(true);
  });
});
