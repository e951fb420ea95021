/**
 * Retreat (ATTACK PHASE) and the DOUBLE WHAMMY RULE. A unit forced to retreat moves one
 * square, chosen by its owner, back (the three squares towards its own corner) or lateral
 * (the two squares along the diagonal across its corner), never into a unit or a mountain,
 * never laterally next to an enemy. Off the board or nowhere to go: destroyed. A second
 * forced retreat in the same phase destroys it.
 */
import { coordinates, neighbours, onBoard, squareName } from './board.ts';
import { CORNERS } from './data.ts';
import type { Batch } from './evolve.ts';
import { defenseOf, unitAt, unitById, unitName, type TkState, type Unit } from './state.ts';
import { afterDestruction } from './victory.ts';
import { occupy } from './movement.ts';
import { endTurnIfNoAttacks } from './turns.ts';
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
 */
export function checkRetreats(batch: Batch): void {
  for (;;) {
    const s = batch.state;
    if (s.stage !== 'ACTIVE' || s.phase !== 'attack' || s.pendingRetreat) return;
    const unit = s.units.find((u) => (s.damage[u.id] ?? 0) > 0 && s.damage[u.id]! >= defenseOf(s, u));
    if (!unit) return;
    forceRetreat(batch, unit);
  }
}

export function forceRetreat(batch: Batch, unit: Unit): void {
  const state = batch.state;
  if (state.retreated.includes(unit.id)) {
    destroy(batch, unit, 'DOUBLE_WHAMMY');
    return;
  }
  const { options, allOffBoard } = retreatOptions(state, unit);
  if (options.length === 0) {
    destroy(batch, unit, allOffBoard ? 'OFF_BOARD' : 'NO_RETREAT');
    return;
  }
  batch.emit({ type: 'RetreatForced', seat: unit.seat, unit: unit.id, from: unit.square, options: options.map((o) => o.square) });
  // A choice with exactly one legal option is taken automatically (ruling).
  if (options.length === 1) retreatTo(batch, unit, options[0]!.square, options[0]!.direction);
}

function retreatTo(batch: Batch, unit: Unit, to: string, direction: Direction): void {
  batch.emit({ type: 'UnitRetreated', seat: unit.seat, unit: unit.id, from: unit.square, to, direction });
  occupy(batch, unit.seat, to);
}

function destroy(batch: Batch, unit: Unit, reason: 'DOUBLE_WHAMMY' | 'OFF_BOARD' | 'NO_RETREAT'): void {
  batch.emit({ type: 'UnitDestroyed', seat: unit.seat, unit: unit.id, kind: unit.kind, square: unit.square, reason });
  afterDestruction(batch, unit);
}

/** The owner's choice of retreat square. */
export function retreat(batch: Batch, seat: string, unitId: string, to: string): string | null {
  const pending = batch.state.pendingRetreat;
  if (!pending || pending.seat !== seat) return 'None of your units has to retreat';
  const unit = unitById(batch.state, pending.unit)!;
  if (unitId !== pending.unit) return `${unitName(unit)} is the unit that must retreat, not ${unitId}`;
  // The squares offered when the retreat was forced (a player resigning since then frees squares, never takes them).
  const step = retreatSteps(batch.state, unit).find((st) => onBoard(st.x, st.y) && squareName(st.x, st.y) === to);
  if (!pending.options.includes(to) || !step) return `${unitName(unit)} cannot retreat to ${to}; it may go to ${pending.options.join(' or ')}`;
  retreatTo(batch, unit, to, step.direction);
  checkRetreats(batch);
  endTurnIfNoAttacks(batch);
  return null;
}

export function retreatCommands(state: TkState, seat: string): TkCommand[] {
  const pending = state.pendingRetreat;
  if (!pending || pending.seat !== seat) return [];
  return pending.options.map((to) => ({ type: 'retreat' as const, unit: pending.unit, to }));
}
