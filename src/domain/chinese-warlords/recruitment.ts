/**
 * RECRUITMENT: "Units start in or adjacent to villages and strongholds. There are no limits
 * to purchases of Peasants, Thugs, Bodyguards, and Lieutenants. Every time you go to buy one
 * of the other types roll 1D6 (Availability Roll): On a roll of 1-3 there are none of that
 * type left available to you this turn."
 */
import type { Random } from '../kernel/index.ts';
import { AVAILABILITY_FAILS_AT_OR_BELOW, RECRUITABLE, TERRAIN, UNIT_TYPES, type UnitType } from './data.ts';
import type { WarlordsEvent } from './events.ts';
import { neighbours, terrainAt } from './map.ts';
import { canStand } from './movement.ts';
import { liveStrongholds, type WarlordsState } from './state.ts';

/** Availability bonus: Trade contacts +1 to all; Mechanics +2 for vehicles (Assorted Vehicles, Armored Vehicle, Boats). */
export function availabilityBonus(s: WarlordsState, seat: string, type: UnitType): number {
  const ability = s.players[seat]!.ability;
  if (ability === 'availability') return 1;
  if (ability === 'mechanics' && UNIT_TYPES[type].mobility !== 'foot') return 2;
  return 0;
}

/** Popularity: "Get 2 peasant units for the price of one". */
export function unitsPerPurchase(s: WarlordsState, seat: string, type: UnitType): number {
  return type === 'peasants' && s.players[seat]!.ability === 'popularity' ? 2 : 1;
}

/** The villages and strongholds a player controls: where new units start. */
export function recruitmentCentres(s: WarlordsState, seat: string): string[] {
  return Object.entries(s.control)
    .filter(([hex, who]) => who === seat && TERRAIN[terrainAt(s.map, hex)!].income > 0)
    .map(([hex]) => hex)
    .sort();
}

/** Hexes in or next to a controlled village or stronghold where a unit of this type may stand, free of enemy units. */
export function placements(s: WarlordsState, seat: string, type: UnitType): string[] {
  const mobility = UNIT_TYPES[type].mobility;
  const strongholds = liveStrongholds(s);
  const out = new Set<string>();
  for (const centre of recruitmentCentres(s, seat)) {
    for (const h of [centre, ...neighbours(s.map, centre)]) {
      if (out.has(h)) continue;
      if (s.units.some((u) => u.hex === h && u.owner !== seat)) continue;
      if (strongholds[h] && strongholds[h] !== seat) continue;
      if (!canStand(s.map, h, mobility)) continue;
      out.add(h);
    }
  }
  return [...out].sort();
}

export function recruitRefusal(s: WarlordsState, seat: string, type: UnitType, hex: string): string | null {
  const stats = UNIT_TYPES[type];
  if (!stats || stats.recruit === 'never') return 'You only get one Warlord';
  const player = s.players[seat]!;
  if (player.treasury < stats.cost) return `${stats.name} cost ${stats.cost}; your treasury holds ${player.treasury}`;
  if (player.exhausted.includes(type)) return `No ${stats.name} are left available to you this turn`;
  if (!placements(s, seat, type).includes(hex)) return `${stats.name} cannot start in ${hex}: new units start in or next to a village you control or your stronghold, on terrain they can enter, away from enemy units`;
  return null;
}

export function recruit(s: WarlordsState, seat: string, type: UnitType, hex: string, random: Random): WarlordsEvent[] {
  const stats = UNIT_TYPES[type];
  const events: WarlordsEvent[] = [];
  if (stats.recruit === 'availability') {
    const roll = random.die(6);
    const bonus = availabilityBonus(s, seat, type);
    const available = roll + bonus > AVAILABILITY_FAILS_AT_OR_BELOW;
    events.push({ type: 'AvailabilityRolled', seat, unitType: type, roll, bonus, total: roll + bonus, available });
    if (!available) return events;
  }
  const count = unitsPerPurchase(s, seat, type);
  const units = Array.from({ length: count }, (_, i) => `${seat}-${s.nextUnit + i}`);
  events.push({ type: 'UnitRecruited', seat, unitType: type, units, hex, cost: stats.cost, treasury: s.players[seat]!.treasury - stats.cost });
  return events;
}

export function recruitCommands(s: WarlordsState, seat: string) {
  const out: { type: 'recruit'; unitType: UnitType; hex: string }[] = [];
  const player = s.players[seat]!;
  for (const type of RECRUITABLE) {
    if (player.treasury < UNIT_TYPES[type].cost || player.exhausted.includes(type)) continue;
    for (const hex of placements(s, seat, type)) out.push({ type: 'recruit', unitType: type, hex });
  }
  return out;
}
