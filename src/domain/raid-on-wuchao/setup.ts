/** §11 Setup: Cao's four units at A1; Yuan places its nine units outside zones A–C. */
import { settle, type SetupInput } from '../kernel/index.ts';
import { tape } from './tape.ts';
import { STACKING_LIMIT, zoneOf } from './data.ts';
import type { WuchaoCommand } from './commands.ts';
import type { WuchaoEvent } from './events.ts';
import { scenarioProblems, type WuchaoOptions } from './options.ts';
import { findToken, initialState, isSpace, unitsIn, unitsOnMap, type WuchaoState } from './state.ts';

export function setupEvents(input: SetupInput<WuchaoOptions>): WuchaoEvent[] {
  const s = initialState(input);
  // Replaced data that cannot be played is refused at creation (the service answers BAD_REQUEST).
  const problems = scenarioProblems(s.map, s.tokens);
  if (problems.length) throw new Error(problems.join('; '));
  const cao = s.tokens.filter((t) => t.side === 'cao').map((t) => t.id);
  const t = tape(s);
  t.emit({ type: 'CaoForcesPlaced', space: s.map.camp, units: cao });
  settle(t, setupSteps);
  return t.events;
}

export function unplacedYuan(s: WuchaoState): string[] {
  return s.tokens.filter((t) => t.side === 'yuan' && s.units[t.id]!.space === null && !s.units[t.id]!.destroyed).map((t) => t.id);
}

/** Spaces where Yuan may set up: anywhere except zones A–C (ruling: zones D to H). */
export function yuanSetupSpaces(s: WuchaoState): readonly string[] {
  let spaces = setupSpaces.get(s.map);
  if (!spaces) setupSpaces.set(s.map, (spaces = Object.freeze(s.map.spaces.filter((sp) => !s.map.yuanSetupExcludedZones.includes(zoneOf(sp)) && sp !== s.map.camp))));
  return spaces;
}
/** Per map, worked out once (shared and frozen): every setup command and prompt asks for them. */
const setupSpaces = new WeakMap<WuchaoState['map'], readonly string[]>();

export function placementRefusal(s: WuchaoState, unit: string, space: string): string | null {
  const t = findToken(s, unit);
  if (!t) return `There is no unit "${unit}"`;
  if (t.side !== 'yuan') return `${t.name} is a Cao unit; Cao's units start at ${s.map.camp}`;
  if (s.units[unit]!.space !== null) return `${t.name} is already placed at ${s.units[unit]!.space}`;
  if (!isSpace(s, space)) return `There is no space "${space}" on the map`;
  if (!yuanSetupSpaces(s).includes(space)) return `Yuan may not set up in zone ${zoneOf(space)} (zones ${s.map.yuanSetupExcludedZones.join(', ')} are closed to Yuan's setup)`;
  if (unitsIn(s, space, 'yuan').length >= STACKING_LIMIT) return `${space} already holds ${STACKING_LIMIT} units, the stacking limit`;
  return null;
}

/** The setup spaces with room for another Yuan unit (stacking): Yuan's units counted once, not once a space. */
function openSpaces(s: WuchaoState) {
  const held = new Map<string, number>();
  for (const id of unitsOnMap(s, 'yuan')) {
    const space = s.units[id]!.space!;
    held.set(space, (held.get(space) ?? 0) + 1);
  }
  return yuanSetupSpaces(s).filter((sp) => (held.get(sp) ?? 0) < STACKING_LIMIT);
}

export function legalPlacements(s: WuchaoState): WuchaoCommand[] {
  const out: WuchaoCommand[] = [];
  const spaces = openSpaces(s);
  for (const unit of unplacedYuan(s)) for (const space of spaces) out.push({ type: 'placeUnit', unit, space });
  return out;
}

/**
 * Setup is over once every Yuan unit is on the map. A placement that is the only legal one
 * (a last unit with one space left for it, on a map given in the options) is made without
 * asking (RULINGS, General: "A choice with exactly one legal option is taken automatically").
 */
export function setupSteps(s: WuchaoState): WuchaoEvent[] {
  if (s.phase !== 'setup') return [];
  const units = unplacedYuan(s);
  if (units.length === 0) return [{ type: 'SetupCompleted', round: 1 }];
  // The placements are every unplaced unit in every open space: one only when both are one
  // (counted, not listed: this runs after every setup command).
  if (units.length !== 1) return [];
  const spaces = openSpaces(s);
  return spaces.length === 1 ? [{ type: 'UnitPlaced', unit: units[0]!, space: spaces[0]! }] : [];
}

