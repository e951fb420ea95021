/**
 * MOVEMENT: "You may move your units a number of spaces up to their Movement rating. No
 * stacking limit." Terrain costs come from the TERRAIN table (Foot / Vehicles columns).
 */
import { TERRAIN, UNIT_TYPES, type Mobility, type Terrain } from './data.ts';
import { neighbours, terrainAt, type MapData } from './map.ts';
import { liveStrongholds, passengersOf, unitName, type Unit, type WarlordsState } from './state.ts';

/** Cost for a unit of this mobility to enter terrain, or null when it may not enter. */
export function entryCost(terrain: Terrain, mobility: Mobility): number | null {
  const t = TERRAIN[terrain];
  if (mobility === 'foot') return t.boatsOnly ? null : t.foot;
  if (mobility === 'vehicle') return t.boatsOnly ? null : t.vehicles;
  // Boats move only on water and may end in a village next to water (ruling; see reachable).
  if (terrain === 'water') return t.vehicles;
  if (terrain === 'village') return t.vehicles;
  return null;
}

/** May a unit of this mobility stand (end its move, be placed, retreat) in the hex? */
export function canStand(map: MapData, hex: string, mobility: Mobility): boolean {
  const terrain = terrainAt(map, hex);
  if (!terrain || entryCost(terrain, mobility) === null) return false;
  if (mobility === 'boat' && terrain === 'village') return neighbours(map, hex).some((n) => terrainAt(map, n) === 'water');
  return true;
}

/**
 * May a unit of this mobility step from `from` into the neighbouring `to`? Boats (ruling):
 * every step enters water, except a step from water into a village next to water.
 */
export function canStep(map: MapData, from: string, to: string, mobility: Mobility): boolean {
  if (!canStand(map, to, mobility)) return false;
  return mobility !== 'boat' || terrainAt(map, to) === 'water' || terrainAt(map, from) === 'water';
}

export function movementLeft(u: Unit): number {
  return u.rode ? 0 : UNIT_TYPES[u.type].move - u.mpUsed;
}

export interface Reach {
  cost: number;
  path: string[];
}

/**
 * Every hex the unit can reach this turn by its cheapest path. A unit may not enter a hex
 * held by another player's units (ruling: stacks never mix). Boats (ruling): every step
 * enters water, except a last step from water into a village next to water.
 */
export function reachable(s: WarlordsState, u: Unit): Map<string, Reach> {
  const { cost, prev } = search(s, u);
  const out = new Map<string, Reach>();
  for (const [hex, c] of cost) {
    if (hex === u.hex) continue;
    const path = [hex];
    for (let p = prev.get(hex); p !== undefined; p = prev.get(p)) path.unshift(p);
    out.set(hex, { cost: c, path });
  }
  return out;
}

/**
 * A hex's ways out for one mobility: each neighbour a unit may step into and what the step
 * costs (TERRAIN, canStep), and whether a unit that has come in stops there (a boat in a
 * village). Worked out once per map and mobility: the search asks them at every step.
 */
interface Ways {
  stops: boolean;
  steps: { to: string; cost: number }[];
}

const waysOf = new WeakMap<object, Map<Mobility, Map<string, Ways>>>();

function ways(map: MapData, mobility: Mobility): Map<string, Ways> {
  let byMobility = waysOf.get(map.hexes);
  if (!byMobility) waysOf.set(map.hexes, (byMobility = new Map()));
  let table = byMobility.get(mobility);
  if (!table) {
    table = new Map();
    for (const { id, terrain } of map.hexes) {
      const steps: Ways['steps'] = [];
      for (const to of neighbours(map, id)) {
        const cost = entryCost(terrainAt(map, to)!, mobility);
        // A boat reaches a village next to water only from water: never village to village.
        if (cost !== null && (mobility !== 'boat' || canStep(map, id, to, mobility))) steps.push({ to, cost });
      }
      table.set(id, { stops: mobility === 'boat' && terrain !== 'water', steps });
    }
    byMobility.set(mobility, table);
  }
  return table;
}

/** The cheapest cost of every hex within the unit's movement points, and the hex it is entered from. */
function search(s: WarlordsState, u: Unit): { cost: Map<string, number>; prev: Map<string, string> } {
  const budget = movementLeft(u);
  const cost = new Map<string, number>([[u.hex, 0]]);
  const prev = new Map<string, string>();
  if (budget <= 0) return { cost, prev };
  const table = ways(s.map, UNIT_TYPES[u.type].mobility);
  const enemyHeld = new Set<string>();
  for (const x of s.units) if (x.owner !== u.owner) enemyHeld.add(x.hex);
  // Costs are small whole numbers: a bucket queue by cost.
  const buckets: string[][] = Array.from({ length: budget + 1 }, () => []);
  buckets[0]!.push(u.hex);
  for (let c = 0; c <= budget; c++) {
    for (const cur of buckets[c]!) {
      if (cost.get(cur) !== c) continue;
      const here = table.get(cur);
      // A boat that has come into a village stops there.
      if (!here || (here.stops && cur !== u.hex)) continue;
      for (const { to, cost: step } of here.steps) {
        if (enemyHeld.has(to)) continue;
        const total = c + step;
        if (total > budget || total >= (cost.get(to) ?? Infinity)) continue;
        cost.set(to, total);
        prev.set(to, cur);
        buckets[total]!.push(to);
      }
    }
  }
  return { cost, prev };
}

export function canMove(s: WarlordsState, u: Unit): boolean {
  return u.owner === s.seat && u.carriedBy === null && movementLeft(u) > 0;
}

/** Why `unit` cannot move to `to`, or null when it can. */
export function moveRefusal(s: WarlordsState, seat: string, u: Unit | undefined, to: string): string | null {
  if (!u || u.owner !== seat) return 'That is not one of your units';
  if (u.carriedBy) return `${unitName(u)} is aboard ${u.carriedBy}: unload it first`;
  if (movementLeft(u) <= 0) return `${unitName(u)} has no movement points left this turn`;
  if (!terrainAt(s.map, to)) return `${to} is not on the map`;
  if (to === u.hex) return `${unitName(u)} is already in ${to}`;
  const reach = reachable(s, u).get(to);
  if (!reach) return `${unitName(u)} has ${movementLeft(u)} movement points and cannot reach ${to} (terrain, water or enemy units in the way)`;
  return null;
}

/**
 * For legalCommands: each of `units` that can move, with the hexes it reaches (in reachable's
 * order; no paths, they are not listed). A search depends on the unit's hex, mobility and
 * movement left (and its owner, the same for all): the units of a stack alike share one.
 */
export function destinations(s: WarlordsState, units: Unit[]): [Unit, string[]][] {
  const searched = new Map<string, string[]>();
  const out: [Unit, string[]][] = [];
  for (const u of units) {
    if (!canMove(s, u)) continue;
    const key = `${u.hex} ${UNIT_TYPES[u.type].mobility} ${movementLeft(u)}`;
    let hexes = searched.get(key);
    if (!hexes) {
      hexes = [];
      for (const hex of search(s, u).cost.keys()) if (hex !== u.hex) hexes.push(hex);
      searched.set(key, hexes);
    }
    out.push([u, hexes]);
  }
  return out;
}

/**
 * Passengers board or leave a carrier in its hex at the start or end of its move (ruling).
 * Boarding or leaving after the carrier has moved ends its move (evolve), so no one gets on
 * or off half-way.
 */
export function boardRefusal(s: WarlordsState, seat: string, u: Unit | undefined, carrier: Unit | undefined): string | null {
  if (!u || u.owner !== seat || !carrier || carrier.owner !== seat) return 'Both units must be yours';
  if (UNIT_TYPES[u.type].mobility !== 'foot') return `${unitName(u)} is a vehicle: only foot units are carried`;
  if (UNIT_TYPES[carrier.type].carry === 0) return `${unitName(carrier)} cannot carry units`;
  if (u.carriedBy) return `${unitName(u)} is already aboard ${u.carriedBy}`;
  if (u.rode) return `${unitName(u)} has already ridden this turn`;
  if (u.hex !== carrier.hex) return `${unitName(u)} and ${unitName(carrier)} are not in the same hex`;
  const aboard = passengersOf(s, carrier.id).length;
  if (aboard >= UNIT_TYPES[carrier.type].carry) return `${unitName(carrier)} carries ${UNIT_TYPES[carrier.type].carry} and is full`;
  return null;
}

export function unloadRefusal(s: WarlordsState, seat: string, u: Unit | undefined): string | null {
  if (!u || u.owner !== seat) return 'That is not one of your units';
  if (!u.carriedBy) return `${unitName(u)} is not aboard a carrier`;
  if (!canStand(s.map, u.hex, UNIT_TYPES[u.type].mobility)) return `${unitName(u)} cannot get off in ${u.hex} (${terrainAt(s.map, u.hex)})`;
  return null;
}

/** A move that ends in a player's stronghold captures it (ruling: "capture his stronghold" is ending a move in it). */
export function strongholdOwnerAt(s: WarlordsState, hex: string, mover: string): string | null {
  const owner = liveStrongholds(s)[hex];
  return owner && owner !== mover ? owner : null;
}
