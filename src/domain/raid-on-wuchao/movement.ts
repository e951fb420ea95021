/**
 * §6 Movement: units move along connections up to their Movement Points, through friendly
 * units, never through enemy ones; entering an enemy-occupied space stops the unit (§8).
 * The stacking limit (5) is checked at the end of the side's movement: the owner chooses
 * which excess units step back along the path they moved.
 */
import { enemyOf, SIDE_NAME, STACKING_LIMIT, type Side } from './data.ts';
import type { WuchaoCommand } from './commands.ts';
import type { WuchaoEvent } from './events.ts';
import { findToken, hasEnemy, hasStopped, movementLeft, neighbours, spacesHeld, unitsIn, unitsOnMap, type WuchaoState } from './state.ts';

/** Units with movement points left (none once halted in an enemy space, §8) and somewhere to go. */
export function movableUnits(s: WuchaoState, side: Side): string[] {
  return unitsOnMap(s, side).filter(canMove(s, side));
}

/** Whether any unit of `side` can still move: the first one found is enough (§3: else the phase ends). */
export function anyMovable(s: WuchaoState, side: Side): boolean {
  return unitsOnMap(s, side).some(canMove(s, side));
}

function canMove(s: WuchaoState, side: Side): (id: string) => boolean {
  // The enemy's spaces once, not a scan of every token for each unit: a unit in one has stopped.
  const enemy = spacesHeld(s, enemyOf(side));
  return (id) => {
    const space = s.units[id]!.space!;
    return movementLeft(s, id, enemy.has(space)) > 0 && neighbours(s, space).length > 0;
  };
}

export function legalMoves(s: WuchaoState, side: Side): WuchaoCommand[] {
  const out: WuchaoCommand[] = [];
  for (const unit of movableUnits(s, side)) {
    for (const to of neighbours(s, s.units[unit]!.space!)) out.push({ type: 'move', unit, to });
  }
  return out;
}

/** The UnitMoved event of a legal move, or the reason it is not legal. */
export function move(s: WuchaoState, side: Side, unit: string, to: string): WuchaoEvent | string {
  const t = findToken(s, unit);
  const u = s.units[unit];
  if (!t || !u) return `There is no unit "${unit}"`;
  if (t.side !== side) return `${t.name} is not yours: it is a ${SIDE_NAME[t.side]} unit`;
  if (u.destroyed || u.space === null) return `${t.name} has been destroyed`;
  if (hasStopped(s, unit)) return `${t.name} entered an enemy-occupied space and cannot move further this round`;
  const left = movementLeft(s, unit, false); // not stopped: asked just above
  if (left <= 0) return `${t.name} has used all ${t.move} of its movement points this round`;
  if (!neighbours(s, u.space).includes(to)) return `${to} is not connected to ${u.space}`;
  const entersEnemy = hasEnemy(s, to, side);
  // §8: entering an enemy-occupied space halts movement: no points left.
  return { type: 'UnitMoved', unit, side, from: u.space, to, movementLeft: entersEnemy ? 0 : left - 1, entersEnemy };
}

/** Spaces holding more than five of `side`'s units. */
export function overstacked(s: WuchaoState, side: Side): string[] {
  // Counted in one pass over the units: this runs after every command of a movement phase.
  const held = new Map<string, number>();
  for (const id of unitsOnMap(s, side)) {
    const space = s.units[id]!.space!;
    held.set(space, (held.get(space) ?? 0) + 1);
  }
  return s.map.spaces.filter((sp) => (held.get(sp) ?? 0) > STACKING_LIMIT);
}

/** Units that may step back: in an over-stacked space and moved there this phase. */
export function stepBackCandidates(s: WuchaoState, side: Side): string[] {
  const spaces = overstacked(s, side);
  return unitsOnMap(s, side).filter((id) => spaces.includes(s.units[id]!.space!) && (s.paths[id]?.length ?? 0) >= 2);
}

/**
 * A step back that is no choice: in an over-stacked space where every unit that may step
 * back must do so to bring it down to the limit (ruling: a choice with exactly
 * one legal option is taken automatically).
 */
export function forcedStepBack(s: WuchaoState, side: Side): string | null {
  const candidates = stepBackCandidates(s, side);
  for (const sp of overstacked(s, side)) {
    const here = candidates.filter((id) => s.units[id]!.space === sp);
    if (here.length > 0 && here.length <= unitsIn(s, sp, side).length - STACKING_LIMIT) return here[0]!;
  }
  return null;
}

export function stepBack(s: WuchaoState, side: Side, unit: string, automatic: boolean): WuchaoEvent | string {
  const t = findToken(s, unit);
  if (!t) return `There is no unit "${unit}"`;
  if (t.side !== side) return `${t.name} is not yours`;
  if (!stepBackCandidates(s, side).includes(unit)) {
    const over = overstacked(s, side).join(', ');
    return `${t.name} cannot step back: only units that moved into an over-stacked space (${over}) step back along their path`;
  }
  const path = s.paths[unit]!;
  return { type: 'UnitSteppedBack', unit, from: path[path.length - 1]!, to: path[path.length - 2]!, automatic };
}

export function stackingPrompt(s: WuchaoState, side: Side): string {
  const first = stepBackCandidates(s, side)[0];
  // (Only spaces with a real choice are left when the game asks: forced step backs are taken first.)
  const sp = first ? s.units[first]!.space! : overstacked(s, side)[0]!;
  return `Stacking limit: ${sp} holds ${unitsIn(s, sp, side).length} of your units (limit ${STACKING_LIMIT}); choose a unit to step back along its path`;
}

