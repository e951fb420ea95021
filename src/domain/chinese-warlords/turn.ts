/** TURN SEQUENCE 1-3: INITIATIVE, INCOME, UPKEEP. */
import type { Random } from '../kernel/index.ts';
import { TERRAIN, UNIT_TYPES } from './data.ts';
import type { WarlordsEvent } from './events.ts';
import { terrainAt } from './map.ts';
import { activeSeats, type WarlordsState } from './state.ts';

/**
 * INITIATIVE: "Roll high on 1D6 to see which player goes first". Each player rolls; players
 * who tie reroll among themselves (ruling: ties reroll) until the order is settled. Every
 * round of rolls is recorded.
 */
export function rollInitiative(seats: string[], random: Random): { rolls: Record<string, number>[]; order: string[] } {
  const rolls: Record<string, number>[] = [];
  const order = (group: string[]): string[] => {
    if (group.length <= 1) return group;
    const round: Record<string, number> = {};
    for (const p of group) round[p] = random.die(6);
    rolls.push(round);
    const values = [...new Set(Object.values(round))].sort((a, b) => b - a);
    return values.flatMap((v) => order(group.filter((p) => round[p] === v)));
  };
  return { rolls, order: order(seats) };
}

/** INCOME: "Collect revenue from villages and stronghold" (village 1, stronghold 4), plus the +1 Revenue abilities. */
export function income(s: WarlordsState, seat: string) {
  let villages = 0;
  let strongholds = 0;
  for (const [hex, who] of Object.entries(s.control)) {
    if (who !== seat) continue;
    const t = terrainAt(s.map, hex);
    if (t === 'village') villages += TERRAIN.village.income;
    if (t === 'stronghold') strongholds += TERRAIN.stronghold.income;
  }
  const bonus = s.players[seat]!.ability === 'revenue' ? 1 : 0;
  return { villages, strongholds, bonus, total: villages + strongholds + bonus };
}

/** UPKEEP: "Total the cost of all your units and divide by 10" (rounded down; the Warlord costs 0). */
export function unitCost(s: WarlordsState, seat: string): number {
  return s.units.filter((u) => u.owner === seat).reduce((sum, u) => sum + UNIT_TYPES[u.type].cost, 0);
}

export function upkeepDue(s: WarlordsState, seat: string): number {
  return Math.floor(unitCost(s, seat) / 10);
}

/** The events that open a turn: initiative, then income and upkeep for everyone. */
export function beginTurn(s: WarlordsState, random: Random): WarlordsEvent[] {
  const seats = activeSeats(s);
  const { rolls, order } = rollInitiative(seats, random);
  const incomes = seats.map((seat) => {
    const i = income(s, seat);
    return { seat, ...i, treasury: s.players[seat]!.treasury + i.total };
  });
  const upkeep = incomes.map(({ seat, treasury }) => {
    const due = upkeepDue(s, seat);
    // Ruling: a player who cannot pay pays nothing and loses 1D6 units of their choice.
    if (treasury >= due) return { seat, unitCost: unitCost(s, seat), due, paid: true, lossRoll: null, treasury: treasury - due };
    return { seat, unitCost: unitCost(s, seat), due, paid: false, lossRoll: random.die(6), treasury };
  });
  return [
    { type: 'TurnBegan', turn: s.turn + 1, initiativeRolls: rolls, order },
    { type: 'IncomeCollected', incomes },
    { type: 'UpkeepSettled', upkeep },
  ];
}
