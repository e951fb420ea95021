import { describe, expect, it } from 'vitest';
import { rollInitiative, upkeepDue } from '../../../src/domain/chinese-warlords/turn.ts';
import { status } from '../../support/play.ts';
import { act, dice, legalOf, position, refusal, state } from './helpers.ts';

/** A position at the end of a turn: blue ends combat, and the next turn begins. */
function endOfTurn(units: string[], extra: Parameters<typeof position>[0] extends infer P ? Partial<P> : never = {}) {
  return position({ phase: 'combat', seat: 'blue', order: ['red', 'blue'], units, ...extra });
}

const armies = ['red-1 warlord 1,4', 'blue-1 warlord 11,4'];

describe('INITIATIVE', () => {
  it('high roll on 1D6 goes first', () => {
    expect(rollInitiative(['red', 'blue'], dice(2, 5))).toEqual({ rolls: [{ red: 2, blue: 5 }], order: ['blue', 'red'] });
  });

  it('ties reroll among the tied players', () => {
    expect(rollInitiative(['red', 'blue'], dice(4, 4, 1, 6)).order).toEqual(['blue', 'red']);
    const three = rollInitiative(['red', 'blue', 'green'], dice(5, 5, 2, 3, 3, 6, 1));
    expect(three.order).toEqual(['red', 'blue', 'green']);
    expect(three.rolls).toEqual([{ red: 5, blue: 5, green: 2 }, { red: 3, blue: 3 }, { red: 6, blue: 1 }]);
  });

  it('the order holds for recruitment, movement and combat of the turn', () => {
    const g = endOfTurn(armies);
    act(g, 'blue', { type: 'endCombat' }, [1, 6]);
    expect(state(g)).toMatchObject({ turn: 2, order: ['blue', 'red'], phase: 'recruitment', seat: 'blue' });
    act(g, 'blue', { type: 'endRecruitment' });
    expect(state(g)).toMatchObject({ phase: 'recruitment', seat: 'red' });
    act(g, 'red', { type: 'endRecruitment' });
    expect(state(g)).toMatchObject({ phase: 'movement', seat: 'blue' });
    expect(refusal(g, 'red', { type: 'endMovement' })).toMatch(/Not your turn: the game waits for (red|blue)/);
    act(g, 'blue', { type: 'endMovement' });
    act(g, 'red', { type: 'endMovement' });
    expect(state(g)).toMatchObject({ phase: 'combat', seat: 'blue' });
    act(g, 'blue', { type: 'endCombat' });
    act(g, 'red', { type: 'endCombat' }, [3, 2]);
    expect(state(g)).toMatchObject({ turn: 3, order: ['red', 'blue'], seat: 'red' });
  });
});

describe('INCOME', () => {
  it('villages 1, stronghold 4, plus 1 for the revenue abilities (Drug Trade, Prostitution Ring, Railway)', () => {
    const g = endOfTurn(armies, { control: { '3,2': 'red', '5,3': 'red', '9,6': 'blue' }, abilities: { red: 3, blue: 5 }, treasury: { red: 2, blue: 0 } });
    const events = act(g, 'blue', { type: 'endCombat' }, [6, 1]);
    const income = events.find((e) => e.type === 'IncomeCollected') as any;
    expect(income.incomes).toEqual([
      { seat: 'red', villages: 2, strongholds: 4, bonus: 1, total: 7, treasury: 9 },
      { seat: 'blue', villages: 1, strongholds: 4, bonus: 0, total: 5, treasury: 5 },
    ]);
  });
});

describe('UPKEEP', () => {
  it('is the total cost of the units divided by 10, rounded down; the Warlord costs nothing', () => {
    const g = position({ phase: 'combat', units: ['red-1 warlord 1,4', 'red-2 bodyguards 1,4', 'red-3 bodyguards 1,4', 'red-4 thugs 1,4', 'red-5 peasants 1,4', 'red-6 artillery 1,4'] });
    expect(upkeepDue(state(g), 'red')).toBe(Math.floor((3 + 3 + 2 + 1 + 6) / 10));
    const h = position({ phase: 'combat', units: ['red-1 warlord 1,4', 'red-2 armoredVehicle 1,4', 'red-3 vehicles 1,4'] });
    expect(upkeepDue(state(h), 'red')).toBe(1);
  });

  it('is paid from the treasury after income', () => {
    const units = ['red-1 warlord 1,4', ...Array.from({ length: 7 }, (_, i) => `red-${i + 2} bodyguards 1,4`), ...armies.slice(1)];
    const g = endOfTurn(units, { treasury: { red: 1, blue: 0 } });
    const events = act(g, 'blue', { type: 'endCombat' }, [6, 1]);
    expect(events.find((e) => e.type === 'UpkeepSettled')).toMatchObject({ upkeep: [{ seat: 'red', unitCost: 21, due: 2, paid: true, lossRoll: null, treasury: 1 + 4 - 2 }, { seat: 'blue', due: 0, paid: true }] });
    expect(state(g).players.red!.treasury).toBe(3);
  });

  it('unpaid: pays nothing and loses 1D6 units of the owner\'s choice, never the Warlord while others are left', () => {
    const units = ['red-1 warlord 1,4', 'red-2 artillery 1,4', 'red-3 artillery 1,4', 'red-4 artillery 1,4', 'red-5 armoredVehicle 1,4', 'red-6 armoredVehicle 1,4', 'red-7 armoredVehicle 2,4', 'red-8 peasants 2,4 in red-7', ...armies.slice(1)];
    const g = endOfTurn(units, { treasury: { red: 0, blue: 0 } });
    const events = act(g, 'blue', { type: 'endCombat' }, [6, 1]);
    // cost 6*3 + 8*3 + 1 = 43: due 4, and treasury 0 + income 4 pays it.
    expect(events.find((e) => e.type === 'UpkeepSettled')).toMatchObject({ upkeep: [{ seat: 'red', due: 4, paid: true, treasury: 0 }, {}] });

    const poor = endOfTurn([...units, 'red-9 machineGun 1,4'], { treasury: { red: 3, blue: 0 } });
    delete state(poor).control['1,4']; // no income: 3 in the treasury cannot pay 4
    const lost = act(poor, 'blue', { type: 'endCombat' }, [6, 1, 3]);
    expect(lost.find((e) => e.type === 'UpkeepSettled')).toMatchObject({ upkeep: [{ seat: 'red', unitCost: 47, due: 4, paid: false, lossRoll: 3, treasury: 3 }, {}] });
    expect(status(poor).awaiting).toEqual([{ seat: 'red', kind: 'LOSE_UNITS', prompt: expect.stringContaining('3') }]);
    const options = legalOf(poor, 'red').map((c) => c.unit);
    expect(options).not.toContain('red-1');
    expect(options).toHaveLength(8);
    expect(refusal(poor, 'red', { type: 'loseUnit', unit: 'red-1' })).toMatch(/other than the Warlord/);
    // Losing a carrier takes its passenger with it; both count.
    act(poor, 'red', { type: 'loseUnit', unit: 'red-7' });
    expect(state(poor).units.map((u) => u.id)).not.toContain('red-8');
    expect(state(poor).upkeepLosses.red).toBe(1);
    act(poor, 'red', { type: 'loseUnit', unit: 'red-9' });
    expect(state(poor)).toMatchObject({ phase: 'recruitment', upkeepLosses: { red: 0 } });
    expect(state(poor).players.red!.treasury).toBe(3);
  });

  it('loses every unit but the Warlord when the roll is at least their number, and the Warlord only when nothing else is left', () => {
    const units = ['red-1 warlord 1,4', 'red-2 armoredVehicle 1,4', 'red-3 armoredVehicle 1,4', ...armies.slice(1)];
    const g = endOfTurn(units, { treasury: { red: 0, blue: 0 } });
    const events = act(g, 'blue', { type: 'endCombat' }, [6, 1]);
    // cost 16: due 1 <= 4, paid: no loss.
    expect(events.some((e) => e.type === 'UnitLost')).toBe(false);
    const many = Array.from({ length: 6 }, (_, i) => `red-${i + 2} armoredVehicle 1,4`);
    const h = endOfTurn(['red-1 warlord 1,4', ...many, ...armies.slice(1)], { treasury: { red: 0, blue: 0 } });
    delete state(h).control['1,4']; // no income this turn: due 4 cannot be paid
    const lost = act(h, 'blue', { type: 'endCombat' }, [6, 1, 6]);
    expect(lost.filter((e) => e.type === 'UnitLost').map((e) => e.unit)).toEqual(['red-2', 'red-3', 'red-4', 'red-5', 'red-6', 'red-7']);
    expect(state(h).units.map((u) => u.id)).toContain('red-1');
    const k = endOfTurn(['red-1 warlord 1,4', ...many.slice(0, 5), ...armies.slice(1)], { treasury: { red: 0, blue: 0 } });
    delete state(k).control['1,4'];
    const all = act(k, 'blue', { type: 'endCombat' }, [6, 1, 6]);
    expect(all.filter((e) => e.type === 'UnitLost').map((e) => e.unit)).toEqual(['red-2', 'red-3', 'red-4', 'red-5', 'red-6', 'red-1']);
    expect(status(k).result).toEqual({ winners: ['blue'], reason: "red's Warlord was killed" });
  });
});
