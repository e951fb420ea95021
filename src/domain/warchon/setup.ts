/**
 * Setup: Azuthkan places his playmarks secretly in spreads 5 to 7, then Celestine in 1 to 3.
 * The opponent sees a marker where each unit stands, never which unit it is, until it fights.
 */
import { fitsCapacity, spreadName } from './battlefield.ts';
import type { Army, Unit, WarchonCommand, WarchonEvent, WarchonState } from './types.ts';

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

export function checkPlaceUnit(state: WarchonState, army: Army, cmd: Extract<WarchonCommand, { type: 'placeUnit' }>): string | null {
  if (!state.unplaced[army].includes(cmd.unit)) return `You have no unplaced unit "${cmd.unit}"`;
  const allowed = state.setupSpreads[army];
  if (!allowed.includes(cmd.spread)) return `Your army sets up in spreads ${allowed.join(', ')}, not in spread ${cmd.spread}`;
  if (!fitsCapacity(state, newUnit('unplaced', army, cmd.unit, null), cmd.spread)) {
    return `${spreadName(state, cmd.spread)} has no Capacity left for that unit`;
  }
  return null;
}

export function placeUnit(state: WarchonState, army: Army, cmd: Extract<WarchonCommand, { type: 'placeUnit' }>): WarchonEvent[] {
  // Markers are numbered in the order of placement: they say nothing of the unit.
  const n = Object.values(state.units).filter((u) => u.army === army && !u.temporary).length + 1;
  return [{ type: 'UnitPlaced', army, marker: `${army}-${n}`, spread: cmd.spread, unit: cmd.unit, unitType: typeKeyOf(cmd.unit) }];
}
