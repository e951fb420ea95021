/**
 * Setup: Azuthkan places his playmarks secretly in spreads 5 to 7, then Celestine in 1 to 3.
 * The opponent sees a marker where each unit stands, never which unit it is, until it fights.
 */
import { fitsCapacity, isAerial, lineOf, sizeIn, spreadName } from './battlefield.ts';
import { WATER_ELEMENTAL_KEY } from './data.ts';
import type { Army, Unit, UnitType, WarchonCommand, WarchonEvent, WarchonState } from './types.ts';
import { ARMIES, ARMY_NAMES } from './types.ts';

/** The roster copy a private key names ("baphite-swarm-2" is the second Baphite Swarm). */
export function typeKeyOf(key: string): string {
  return key.replace(/-\d+$/, '');
}

/** Every roster copy of an army, by private key. */
export function rosterKeys(state: WarchonState, army: Army): string[] {
  return Object.values(state.types)
    .filter((t) => t.army === army && t.count > 0)
    .flatMap((t) => Array.from({ length: t.count }, (_, i) => `${t.key}-${i + 1}`));
}

/** A playmark as it stands when placed: full Hits, not yet revealed, not shifted. */
export function newUnit(id: string, army: Army, key: string, spread: number | null): Unit {
  return {
    id,
    key,
    army,
    type: typeKeyOf(key),
    spread,
    hitsTaken: 0,
    destroyed: false,
    revealed: false,
    shifted: false,
    movesLeft: 0,
    reserve: false,
    temporary: false,
    fightsFor: null,
  };
}

/**
 * Whether units of these Sizes can all be placed in spreads with this much Capacity free
 * (one class, aerial or not). An exact search, cut off after a budget: past it the answer
 * is yes, so a huge roster is never refused for want of time.
 */
export function canPack(sizes: number[], free: number[]): boolean {
  const items = sizes.filter((x) => x > 0).sort((a, b) => b - a);
  const bins = [...free];
  if (items.reduce((a, b) => a + b, 0) > bins.reduce((a, b) => a + Math.max(0, b), 0)) return false;
  let budget = 20_000;
  const place = (i: number): boolean => {
    if (i === items.length) return true;
    if (--budget < 0) return true;
    const tried = new Set<number>();
    for (let b = 0; b < bins.length; b++) {
      if (bins[b]! < items[i]! || tried.has(bins[b]!)) continue;
      tried.add(bins[b]!);
      bins[b]! -= items[i]!;
      const ok = place(i + 1);
      bins[b]! += items[i]!;
      if (ok) return true;
    }
    return false;
  };
  return place(0);
}

/** Whether an army's unplaced units (less `placing`, put at `at`) still all fit its setup spreads. */
function restFits(state: WarchonState, army: Army, placing: Unit | null, at: number | null): boolean {
  const rest = [...state.unplaced[army]];
  if (placing) rest.splice(rest.indexOf(placing.key), 1);
  const units = rest.map((k) => newUnit('unplaced', army, k, null));
  return [false, true].every((aerial) => {
    const free = state.setupSpreads[army].map((sp) => {
      let used = sizeIn(state, sp, army, aerial);
      if (placing && at === sp && isAerial(state, placing) === aerial) used += lineOf(state, placing).size;
      return state.spreads.find((x) => x.number === sp)!.capacity - used;
    });
    return canPack(units.filter((u) => isAerial(state, u) === aerial).map((u) => lineOf(state, u).size), free);
  });
}

/**
 * Creation options that would leave a seat with no legal command during setup, each with why.
 * `roster` is the given one: two types with one key would be folded into one by the state.
 */
export function setupProblems(state: WarchonState, roster: UnitType[]): string[] {
  const problems: string[] = [];
  const numbers = state.spreads.map((sp) => sp.number);
  const keys = roster.map((t) => t.key);
  for (const key of new Set(keys.filter((k, i) => keys.indexOf(k) !== i))) problems.push(`two unit types have the key "${key}"`);
  if (keys.includes(WATER_ELEMENTAL_KEY)) problems.push(`"${WATER_ELEMENTAL_KEY}" is the Water Elemental's key, not a playmark's`);
  for (const n of new Set(numbers.filter((k, i) => numbers.indexOf(k) !== i))) problems.push(`two spreads have the number ${n}`);
  for (const sp of state.spreads) for (const p of sp.paths) if (!numbers.includes(p)) problems.push(`${sp.name} has a path to spread ${p}, which does not exist`);
  // "No unit will start off with both Nether and Purity": its full-strength face may print its own traits.
  for (const t of roster) {
    const first = t.lines[0]?.traits;
    if (first && first.includes('Nether') && first.includes('Purity')) problems.push(`${t.name} starts off with both Nether and Purity`);
  }
  for (const army of ARMIES) {
    const name = ARMY_NAMES[army];
    const missing = state.setupSpreads[army].filter((n) => !numbers.includes(n));
    if (missing.length) {
      problems.push(`the ${name} army sets up in spread ${missing.join(', ')}, which does not exist`);
      continue;
    }
    if (state.unplaced[army].length === 0) {
      problems.push(`the ${name} army has no units`);
      continue;
    }
    const capacity = Math.max(...state.setupSpreads[army].map((n) => state.spreads.find((sp) => sp.number === n)!.capacity));
    const tooBig = roster.filter((t) => t.army === army && t.count > 0 && t.lines[0]!.size > capacity);
    for (const t of tooBig) problems.push(`${t.name} (Size ${t.lines[0]!.size}) is bigger than the Capacity of every ${name} setup spread (at most ${capacity})`);
    if (tooBig.length === 0 && !restFits(state, army, null, null)) problems.push(`the ${name} army does not fit within the Capacity of its setup spreads ${state.setupSpreads[army].join(', ')}`);
  }
  return problems;
}

export function checkPlaceUnit(state: WarchonState, army: Army, cmd: Extract<WarchonCommand, { type: 'placeUnit' }>): string | null {
  if (!state.unplaced[army].includes(cmd.unit)) return `You have no unplaced unit "${cmd.unit}"`;
  const allowed = state.setupSpreads[army];
  if (!allowed.includes(cmd.spread)) return `Your army sets up in spreads ${allowed.join(', ')}, not in spread ${cmd.spread}`;
  const unit = newUnit('unplaced', army, cmd.unit, null);
  if (!fitsCapacity(state, unit, cmd.spread)) {
    return `${spreadName(state, cmd.spread)} has no Capacity left for that unit`;
  }
  // "Use every playmark": a placement after which the rest of the army cannot be placed is refused.
  if (!restFits(state, army, unit, cmd.spread)) return `With that unit in ${spreadName(state, cmd.spread)} the rest of your army would not fit your setup spreads`;
  return null;
}

export function placeUnit(state: WarchonState, army: Army, cmd: Extract<WarchonCommand, { type: 'placeUnit' }>): WarchonEvent[] {
  // Markers are numbered in the order of placement: they say nothing of the unit.
  const n = Object.values(state.units).filter((u) => u.army === army && !u.temporary).length + 1;
  return [{ type: 'UnitPlaced', army, marker: `${army}-${n}`, spread: cmd.spread, unit: cmd.unit, unitType: typeKeyOf(cmd.unit) }];
}
