import { describe, expect, it } from 'vitest';
import { GameRegistry } from '../../../src/domain/kernel/registry.ts';
import { chineseWarlords } from '../../../src/domain/chinese-warlords/index.ts';
import { UNIT_TYPES } from '../../../src/domain/chinese-warlords/data.ts';
import { placements } from '../../../src/domain/chinese-warlords/recruitment.ts';
import { act, legalOf, position, refusal, rows, state, unitsIn } from './helpers.ts';

const armies = ['red-1 warlord 1,4', 'blue-1 warlord 11,4'];
const recruiting = (extra: Partial<Parameters<typeof position>[0]> = {}) => position({ phase: 'recruitment', seat: 'red', units: armies, treasury: { red: 20, blue: 20 }, ...extra });

describe('UNIT TYPES', () => {
  it('are the printed table: move, force, range, cost, carry', () => {
    const printed: Record<string, [number, number, number, number, number]> = {
      peasants: [2, 1, 1, 1, 0],
      thugs: [2, 3, 1, 2, 0],
      bodyguards: [2, 5, 1, 3, 0],
      lieutenant: [2, 3, 1, 3, 0],
      warlord: [2, 9, 1, 0, 0],
      vehicles: [6, 1, 1, 3, 1],
      machineGun: [2, 7, 1, 4, 0],
      artillery: [1, 4, 3, 6, 0],
      armoredVehicle: [4, 10, 2, 8, 1],
      boats: [4, 1, 1, 3, 2],
    };
    for (const [type, values] of Object.entries(printed)) {
      const u = UNIT_TYPES[type as keyof typeof UNIT_TYPES];
      expect([u.move, u.force, u.range, u.cost, u.carry], type).toEqual(values);
    }
  });
});

describe('RECRUITMENT', () => {
  it('units start in or adjacent to the stronghold', () => {
    const g = recruiting();
    expect(placements(state(g), 'red', 'thugs')).toEqual(['0,3', '0,4', '0,5', '1,3', '1,4', '1,5', '2,4']);
    expect(refusal(g, 'red', { type: 'recruit', unitType: 'thugs', hex: '3,4' })).toMatch(/in or next to a village you control or your stronghold/);
  });

  it('units start in or adjacent to villages the player controls, never next to one it does not', () => {
    const g = recruiting();
    expect(placements(state(g), 'red', 'thugs')).not.toContain('3,2');
    const h = recruiting({ control: { '3,2': 'red' } });
    expect(placements(state(h), 'red', 'thugs')).toEqual(expect.arrayContaining(['3,2', '2,2', '4,2', '2,1', '3,1', '3,3', '2,3']));
  });

  it('a stronghold the player has taken (not its own) is a place to start too', () => {
    const map = rows('S . . . S', ' . . . . .', '. . S . .');
    const g = position({ map, phase: 'recruitment', seat: 'red', units: ['red-1 warlord 0,0', 'blue-1 warlord 4,0'], treasury: { red: 5, blue: 0 } });
    expect(placements(state(g), 'red', 'thugs')).not.toContain('2,2');
    state(g).control['2,2'] = 'red';
    expect(placements(state(g), 'red', 'thugs')).toEqual(expect.arrayContaining(['2,2', '1,2', '3,2', '1,1', '2,1']));
  });

  it('not where enemy units stand', () => {
    const g = recruiting({ units: [...armies, 'blue-2 thugs 2,4'] });
    expect(placements(state(g), 'red', 'thugs')).not.toContain('2,4');
  });

  it('vehicles only where they may go, boats only on water or in a village next to water', () => {
    const g = recruiting({ control: { '5,3': 'red', '3,2': 'red' } });
    expect(placements(state(g), 'red', 'boats')).toEqual(['5,3', '6,3']);
    expect(placements(state(g), 'red', 'vehicles')).not.toContain('4,3'); // paddies
    expect(placements(state(g), 'red', 'vehicles')).not.toContain('2,2'); // paddies
    expect(placements(state(g), 'red', 'vehicles')).not.toContain('6,3'); // water
    expect(placements(state(g), 'red', 'thugs')).not.toContain('6,3');
  });

  it('Peasants, Thugs, Bodyguards and Lieutenants: no limit and no dice; the cost is paid', () => {
    const g = recruiting();
    for (const [type, cost] of [['peasants', 1], ['thugs', 2], ['bodyguards', 3], ['lieutenant', 3], ['thugs', 2], ['thugs', 2]] as const) {
      const before = state(g).players.red!.treasury;
      act(g, 'red', { type: 'recruit', unitType: type, hex: '1,4' });
      expect(state(g).players.red!.treasury).toBe(before - cost);
    }
    expect(unitsIn(g, '1,4')).toHaveLength(7);
    expect(state(g).players.red!.treasury).toBe(20 - 13);
    act(g, 'red', { type: 'recruit', unitType: 'thugs', hex: '2,4' });
    act(g, 'red', { type: 'recruit', unitType: 'thugs', hex: '2,4' });
    act(g, 'red', { type: 'recruit', unitType: 'thugs', hex: '2,4' });
    expect(state(g).players.red!.treasury).toBe(1);
    expect(refusal(g, 'red', { type: 'recruit', unitType: 'thugs', hex: '2,4' })).toBe('Gun toting Thugs cost 2; your treasury holds 1');
    expect(legalOf(g, 'red').filter((c) => c.type === 'recruit').map((c) => c.unitType)).toEqual(['peasants', 'peasants', 'peasants', 'peasants', 'peasants', 'peasants', 'peasants']);
  });

  it('the Warlord cannot be bought: "You only get one"', () => {
    const g = recruiting();
    // The command is well formed (the schema lets it through); the rule refuses it.
    expect(new GameRegistry([chineseWarlords]).validateCommand(chineseWarlords.id, { type: 'recruit', unitType: 'warlord', hex: '1,4' }).ok).toBe(true);
    expect(refusal(g, 'red', { type: 'recruit', unitType: 'warlord', hex: '1,4' })).toBe('You only get one Warlord');
    expect(legalOf(g, 'red').some((c) => c.type === 'recruit' && c.unitType === 'warlord')).toBe(false);
  });

  it('other types roll 1D6 for availability every purchase: 1-3 means none of that type left this turn', () => {
    const g = recruiting();
    const got = act(g, 'red', { type: 'recruit', unitType: 'machineGun', hex: '1,4' }, [4]);
    expect(got[0]).toEqual({ type: 'AvailabilityRolled', seat: 'red', unitType: 'machineGun', roll: 4, bonus: 0, total: 4, available: true });
    expect(state(g).players.red!.treasury).toBe(16);
    const none = act(g, 'red', { type: 'recruit', unitType: 'machineGun', hex: '1,4' }, [3]);
    expect(none).toEqual([{ type: 'AvailabilityRolled', seat: 'red', unitType: 'machineGun', roll: 3, bonus: 0, total: 3, available: false }]);
    expect(state(g).players.red!.treasury).toBe(16);
    expect(refusal(g, 'red', { type: 'recruit', unitType: 'machineGun', hex: '1,4' })).toMatch(/No Machine Gun are left available to you this turn/);
    expect(legalOf(g, 'red').some((c) => c.unitType === 'machineGun')).toBe(false);
    // Other limited types still roll.
    act(g, 'red', { type: 'recruit', unitType: 'artillery', hex: '1,4' }, [6]);
    expect(unitsIn(g, '1,4').length).toBe(3);
    // Next turn the type is available again.
    act(g, 'red', { type: 'endRecruitment' });
    act(g, 'blue', { type: 'endRecruitment' });
    act(g, 'red', { type: 'endMovement' });
    act(g, 'blue', { type: 'endMovement' });
    act(g, 'red', { type: 'endCombat' });
    act(g, 'blue', { type: 'endCombat' }, [6, 1]);
    expect(legalOf(g, 'red').some((c) => c.unitType === 'machineGun')).toBe(true);
  });

  it('Trade contacts: +1 to availability rolls', () => {
    const g = recruiting({ abilities: { red: 5, blue: 9 } });
    const ev = act(g, 'red', { type: 'recruit', unitType: 'artillery', hex: '1,4' }, [3]);
    expect(ev[0]).toMatchObject({ roll: 3, bonus: 1, total: 4, available: true });
    const none = act(g, 'red', { type: 'recruit', unitType: 'vehicles', hex: '1,4' }, [2]);
    expect(none[0]).toMatchObject({ roll: 2, bonus: 1, total: 3, available: false });
  });

  it('Mechanics: +2 to availability rolls of vehicles only', () => {
    const g = recruiting({ abilities: { red: 8, blue: 9 }, control: { '5,3': 'red' } });
    expect(act(g, 'red', { type: 'recruit', unitType: 'vehicles', hex: '1,4' }, [2])[0]).toMatchObject({ bonus: 2, total: 4, available: true });
    expect(act(g, 'red', { type: 'recruit', unitType: 'armoredVehicle', hex: '1,4' }, [1])[0]).toMatchObject({ bonus: 2, total: 3, available: false });
    expect(act(g, 'red', { type: 'recruit', unitType: 'boats', hex: '6,3' }, [3])[0]).toMatchObject({ bonus: 2, total: 5, available: true });
    expect(act(g, 'red', { type: 'recruit', unitType: 'machineGun', hex: '1,4' }, [3])[0]).toMatchObject({ bonus: 0, total: 3, available: false });
  });

  it('Popularity: 2 peasant units for the price of one', () => {
    const g = recruiting({ abilities: { red: 6, blue: 9 } });
    const ev = act(g, 'red', { type: 'recruit', unitType: 'peasants', hex: '1,4' });
    expect(ev[0]).toMatchObject({ type: 'UnitRecruited', units: ['red-100', 'red-101'], cost: 1, treasury: 19 });
    expect(state(g).units.filter((u) => u.type === 'peasants')).toHaveLength(2);
    const other = recruiting();
    act(other, 'red', { type: 'recruit', unitType: 'peasants', hex: '1,4' });
    expect(state(other).units.filter((u) => u.type === 'peasants')).toHaveLength(1);
  });

  it('only the player whose recruitment it is recruits', () => {
    const g = recruiting();
    expect(legalOf(g, 'blue')).toEqual([]);
    expect(refusal(g, 'blue', { type: 'recruit', unitType: 'thugs', hex: '10,4' })).toMatch(/Not your turn: the game waits for red/);
  });
});
