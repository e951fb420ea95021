/**
 * Damage Assignment: both players assign the Hits suffered to their own units, no unit
 * taking more Hits than it has; a multi-Hit unit turns to its next stat line.
 */
import { hitsLeft, typeOf } from './battlefield.ts';
import { battleArmy } from './combat.ts';
import type { Army, Pending, WarchonEvent, WarchonState } from './types.ts';

export function damageCandidates(state: WarchonState, army: Army): string[] {
  if (!state.battle) return [];
  return battleArmy(state, state.battle, army).map((u) => u.id);
}

/** Every assignment leads to the same losses when the Hits cover every Hit the army has left. */
export function damageIsForced(state: WarchonState, pending: Extract<Pending, { kind: 'ALLOCATE_DAMAGE' }>): boolean {
  const ids = damageCandidates(state, pending.seat);
  const total = ids.reduce((sum, id) => sum + hitsLeft(state, state.units[id]!), 0);
  return ids.length === 1 || pending.hits >= total;
}

export function assignHit(state: WarchonState, army: Army, unitId: string): WarchonEvent {
  const unit = state.units[unitId]!;
  const hitsTaken = unit.hitsTaken + 1;
  return { type: 'HitAssigned', army, unit: unitId, hitsTaken, destroyed: hitsTaken >= typeOf(state, unit).lines.length };
}

export function hitUnit(state: WarchonState, unitId: string, cause: string): WarchonEvent {
  const unit = state.units[unitId]!;
  const hitsTaken = unit.hitsTaken + 1;
  return { type: 'UnitHit', unit: unitId, cause, hitsTaken, destroyed: hitsTaken >= typeOf(state, unit).lines.length };
}
