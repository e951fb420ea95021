/**
 * Retreat (ATTACK PHASE) and the DOUBLE WHAMMY RULE. A unit forced to retreat moves one
 * square, chosen by its owner, back (the three squares towards its own corner) or lateral
 * (the two squares along the diagonal across its corner), never into a unit or a mountain,
 * never laterally next to an enemy. Off the board or nowhere to go: destroyed. A second
 * forced retreat in the same phase destroys it.
 */
import { coordinates, neighbours, onBoard, squareName } from './board.ts';
import { CORNERS } from './data.ts';
import type { TkEvent } from './events.ts';
import { defenseOf, unitAt, unitById, unitName, type TkState, type Unit } from './state.ts';
import { occupy } from './movement.ts';
import type { TkCommand } from './commands.ts';

export type Direction = 'back' | 'lateral';

/** The five candidate steps of a unit of `seat`, on or off the board. */
export function retreatSteps(state: TkState, unit: Unit): { x: number; y: number; direction: Direction }[] {
  const [sx, sy] = CORNERS[state.corners[unit.seat]!].toward;
  const [x, y] = coordinates(unit.square);
  const back: [number, number][] = [
    [sx, sy],
    [sx, 0],
    [0, sy],
  ];
  const lateral: [number, number][] = [
    [sx, -sy],
    [-sx, sy],
  ];
  return [
    ...back.map(([dx, dy]) => ({ x: x + dx, y: y + dy, direction: 'back' as const })),
    ...lateral.map(([dx, dy]) => ({ x: x + dx, y: y + dy, direction: 'lateral' as const })),
  ];
}

/** Where the unit may retreat, and whether every step it has would leave the board. */
export function retreatOptions(state: TkState, unit: Unit): { options: { square: string; direction: Direction }[]; allOffBoard: boolean } {
  const steps = retreatSteps(state, unit);
  const options: { square: string; direction: Direction }[] = [];
  for (const step of steps) {
    if (!onBoard(step.x, step.y)) continue;
    const square = squareName(step.x, step.y);
    if (state.terrain[square] === 'mountain' || unitAt(state, square)) continue;
    if (step.direction === 'lateral' && neighbours(square).some((n) => { const u = unitAt(state, n); return u !== undefined && u.seat !== unit.seat; })) continue;
    options.push({ square, direction: step.direction });
  }
  return { options, allOffBoard: steps.every((s) => !onBoard(s.x, s.y)) };
}

/**
 * "As soon as a unit takes damage in a turn equal to its Defense Trait, it must retreat."
 * The check is a state, not an event (ruling): it holds after an attack, and also the moment
 * a unit's defense drops to its damage (its General retreated or was destroyed). Several
 * units caught at once retreat one after another, in the order of the unit list, each from
 * the squares open when its turn comes (a pending choice is made before the next is forced).
 * One step of turns.ts flow: the first such unit retreats, or is destroyed.
 */
export function forcedRetreat(s: TkState): TkEvent[] {
  if (s.stage !== 'ACTIVE' || s.phase !== 'attack' || s.pendingRetreat) return [];
  const unit = s.units.find((u) => (s.damage[u.id] ?? 0) > 0 && s.damage[u.id]! >= defenseOf(s, u));
  if (!unit) return [];
  if (s.retreated.includes(unit.id)) return [destroyed(unit, 'DOUBLE_WHAMMY')];
  const { options, allOffBoard } = retreatOptions(s, unit);
  if (options.length === 0) return [destroyed(unit, allOffBoard ? 'OFF_BOARD' : 'NO_RETREAT')];
  return [{ type: 'RetreatForced', seat: unit.seat, unit: unit.id, from: unit.square, options: options.map((o) => o.square) }];
}

/** A forced retreat with exactly one square open is taken automatically (ruling); otherwise its owner chooses. */
export function onlyRetreat(s: TkState): TkEvent[] {
  const pending = s.pendingRetreat;
  if (!pending || pending.options.length !== 1) return [];
  return retreatTo(s, unitById(s, pending.unit)!, pending.options[0]!);
}

function retreatTo(s: TkState, unit: Unit, to: string): TkEvent[] {
  const step = retreatSteps(s, unit).find((st) => onBoard(st.x, st.y) && squareName(st.x, st.y) === to)!;
  return [{ type: 'UnitRetreated', seat: unit.seat, unit: unit.id, from: unit.square, to, direction: step.direction }, ...occupy(s, unit.seat, to)];
}

function destroyed(unit: Unit, reason: 'DOUBLE_WHAMMY' | 'OFF_BOARD' | 'NO_RETREAT'): TkEvent {
  // A player left without Generals is out: turns.ts flow, next step.
  return { type: 'UnitDestroyed', seat: unit.seat, unit: unit.id, kind: unit.kind, square: unit.square, reason };
}

/** The owner's choice of retreat square. */
export function retreat(s: TkState, seat: string, unitId: string, to: string): TkEvent[] | string {
  const pending = s.pendingRetreat;
  if (!pending || pending.seat !== seat) return 'None of your units has to retreat';
  const unit = unitById(s, pending.unit)!;
  if (unitId !== pending.unit) return `${unitName(unit)} is the unit that must retreat, not ${unitId}`;
  // The squares offered when the retreat was forced (a player resigning since then frees squares, never takes them).
  const step = retreatSteps(s, unit).find((st) => onBoard(st.x, st.y) && squareName(st.x, st.y) === to);
  if (!pending.options.includes(to) || !step) return `${unitName(unit)} cannot retreat to ${to}; it may go to ${pending.options.join(' or ')}`;
  return retreatTo(s, unit, to);
}

export function retreatCommands(state: TkState, seat: string): TkCommand[] {
  const pending = state.pendingRetreat;
  if (!pending || pending.seat !== seat) return [];
  return pending.options.map((to) => ({ type: 'retreat' as const, unit: pending.unit, to }));
}
