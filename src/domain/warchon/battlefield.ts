/**
 * The Battlefield: spreads in numerical order plus paths, distances, Capacity, and the
 * small questions every rule asks about units (which face shows, which traits...).
 */
import type { Army, Spread, StatLine, Unit, UnitType, WarchonState } from './types.ts';

export function spreadOf(state: WarchonState, n: number): Spread {
  const s = state.spreads.find((sp) => sp.number === n);
  if (!s) throw new Error(`no spread ${n}`);
  return s;
}

export function spreadName(state: WarchonState, n: number): string {
  return state.spreads.find((sp) => sp.number === n)?.name ?? `Sp. ${n}`;
}

/** "A unit can only move through spreads in sequential order ... (and vice versa)", plus paths both ways. */
function neighboursOf(spreads: readonly Spread[], n: number): number[] {
  const out = new Set<number>();
  for (const s of spreads) {
    if (Math.abs(s.number - n) === 1 && spreads.some((x) => x.number === n)) out.add(s.number);
    if (s.number === n) for (const p of s.paths) out.add(p);
    if (s.paths.includes(n)) out.add(s.number);
  }
  out.delete(n);
  return [...out].sort((a, b) => a - b);
}

/** Each spread's neighbours, worked out once per battlefield: the spreads never change once set up (evolve shares them). */
const adjacency = new WeakMap<readonly Spread[], Map<number, readonly number[]>>();

export function neighbours(state: WarchonState, n: number): readonly number[] {
  let table = adjacency.get(state.spreads);
  if (!table) {
    table = new Map(state.spreads.map((sp) => [sp.number, Object.freeze(neighboursOf(state.spreads, sp.number))]));
    adjacency.set(state.spreads, table);
  }
  return table.get(n) ?? neighboursOf(state.spreads, n);
}

/**
 * Fewest steps between two spreads along the spreads and paths; a walk does not go on from a
 * spread where `canPass` says it must stop (the start excepted).
 */
export function distance(state: WarchonState, from: number, to: number, canPass: (spread: number) => boolean = () => true): number {
  if (from === to) return 0;
  const seen = new Map<number, number>([[from, 0]]);
  const queue = [from];
  while (queue.length) {
    const at = queue.shift()!;
    if (at !== from && !canPass(at)) continue;
    for (const n of neighbours(state, at)) {
      if (seen.has(n)) continue;
      seen.set(n, seen.get(at)! + 1);
      if (n === to) return seen.get(n)!;
      queue.push(n);
    }
  }
  return Infinity;
}

/**
 * Spreads a walking unit goes through to reach `to`: the fewest, entering only spreads with
 * no enemy unit and Capacity left on the way (it would stop, or could not enter), the
 * destination excepted. Infinity: no walk gets there.
 */
export function walkDistance(state: WarchonState, unit: Unit, from: number, to: number): number {
  const seen = new Map<number, number>([[from, 0]]);
  const queue = [from];
  while (queue.length) {
    const at = queue.shift()!;
    if (at === to) return seen.get(at)!;
    if (at !== from && (hasEnemy(state, at, unit.army) || !fitsCapacity(state, unit, at))) continue;
    for (const n of neighbours(state, at)) if (!seen.has(n)) (seen.set(n, seen.get(at)! + 1), queue.push(n));
  }
  return Infinity;
}

/**
 * Fewest Movement a unit needs to get from one spread to another. Aerial units fly straight
 * there; the others stop on entering a spread with an enemy, so they cannot pass through one.
 */
export function movementNeeded(state: WarchonState, unit: Unit, from: number, to: number): number {
  if (isAerial(state, unit)) return distance(state, from, to);
  return distance(state, from, to, (at) => !hasEnemy(state, at, unit.army));
}

export function typeOf(state: WarchonState, unit: Unit): UnitType {
  const t = state.types[unit.type];
  if (!t) throw new Error(`unknown unit type ${unit.type}`);
  return t;
}

/** The face now showing: a multi-Hit unit uses the line for the Hits it has taken. */
export function lineOf(state: WarchonState, unit: Unit): StatLine {
  const lines = typeOf(state, unit).lines;
  return lines[Math.min(unit.hitsTaken, lines.length - 1)]!;
}

export function hitsLeft(state: WarchonState, unit: Unit): number {
  return typeOf(state, unit).lines.length - unit.hitsTaken;
}

/**
 * The traits of the face now showing: a face may print its own ("use the traits and stats
 * above the playmark's present stats"); special abilities stay with the unit whatever the face.
 */
export function traitsOf(state: WarchonState, unit: Unit): string[] {
  return lineOf(state, unit).traits ?? typeOf(state, unit).traits;
}

export function hasTrait(state: WarchonState, unit: Unit, trait: string): boolean {
  return traitsOf(state, unit).includes(trait);
}

export function isAerial(state: WarchonState, unit: Unit): boolean {
  return hasTrait(state, unit, 'Aerial');
}

export function unitName(state: WarchonState, unit: Unit): string {
  return typeOf(state, unit).name;
}

export function alive(state: WarchonState): Unit[] {
  return Object.values(state.units).filter((u) => !u.destroyed && u.spread !== null);
}

/** The living units in a spread (of `army`, if given): one pass, no list of every living unit first (the walks ask at every spread). */
export function unitsIn(state: WarchonState, spread: number, army?: Army): Unit[] {
  const out: Unit[] = [];
  for (const u of Object.values(state.units)) if (!u.destroyed && u.spread === spread && (army === undefined || u.army === army)) out.push(u);
  return out;
}

export function hasEnemy(state: WarchonState, spread: number, army: Army): boolean {
  return unitsIn(state, spread).some((u) => u.army !== army);
}

/** Spreads where both armies have units: where battles happen. */
export function contested(state: WarchonState): number[] {
  return state.spreads
    .map((s) => s.number)
    .filter((n) => {
      const here = unitsIn(state, n);
      return here.some((u) => u.army === 'azuthkan') && here.some((u) => u.army === 'celestine');
    });
}

/**
 * Capacity counts Size per army, aerial and non-aerial apart. A Surprise Reserve and a
 * bribed unit count 0 this turn (their events say so); the Water Elemental is no playmark.
 */
export function sizeIn(state: WarchonState, spread: number, army: Army, aerial: boolean): number {
  return unitsIn(state, spread, army)
    .filter((u) => !u.temporary && !u.reserve && u.fightsFor === null && isAerial(state, u) === aerial)
    .reduce((sum, u) => sum + lineOf(state, u).size, 0);
}

export function fitsCapacity(state: WarchonState, unit: Unit, spread: number): boolean {
  const aerial = isAerial(state, unit);
  return sizeIn(state, spread, unit.army, aerial) + lineOf(state, unit).size <= spreadOf(state, spread).capacity;
}

/** Engaged units cannot leave: an Eg result locks the spread until the next turn is over. */
export function isEngaged(state: WarchonState, spread: number): boolean {
  return state.engaged.some((e) => e.spread === spread && e.turn >= state.turn - 1);
}

/** A unit's owner and marker, for messages: "Baphite Swarm (azuthkan-2)". */
export function label(state: WarchonState, unit: Unit): string {
  return `${unitName(state, unit)} (${unit.id})`;
}
