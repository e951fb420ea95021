/**
 * ATTACK PHASE: each of your units may attack one enemy unit within its Range (king
 * moves; range 2+ fires over other units, nothing blocks fire). An attack does 1 damage,
 * Shock Troops 2. As soon as a unit's damage this phase reaches its Defense, it retreats.
 */
import { distance } from './board.ts';
import { UNIT_LIST } from './data.ts';
import type { TkEvent } from './events.ts';
import { defenseOf, unitById, unitName, type TkState, type Unit } from './state.ts';
import type { TkCommand } from './commands.ts';

export function inRange(attacker: Unit, target: Unit): boolean {
  const d = distance(attacker.square, target.square);
  return d >= 1 && d <= UNIT_LIST[attacker.kind].range;
}

export function targets(state: TkState, attacker: Unit): Unit[] {
  return state.units.filter((u) => u.seat !== attacker.seat && inRange(attacker, u));
}

export function anyAttack(state: TkState, seat: string): boolean {
  return state.units.some((u) => u.seat === seat && !state.attacked.includes(u.id) && targets(state, u).length > 0);
}

export function attack(state: TkState, seat: string, unitId: string, targetId: string): TkEvent[] | string {
  const unit = unitById(state, unitId);
  if (!unit) return `There is no unit ${unitId} on the board`;
  if (unit.seat !== seat) return `${unitName(unit)} is not yours`;
  if (state.attacked.includes(unit.id)) return `${unitName(unit)} has already attacked this turn`;
  const target = unitById(state, targetId);
  if (!target) return `There is no unit ${targetId} on the board`;
  if (target.seat === seat) return `${unitName(target)} is your own unit`;
  const range = UNIT_LIST[unit.kind].range;
  if (!inRange(unit, target)) {
    return `${unitName(target)} is ${distance(unit.square, target.square)} squares from ${unitName(unit)}, whose range is ${range}`;
  }
  const damage = UNIT_LIST[unit.kind].damage;
  const damageThisPhase = (state.damage[target.id] ?? 0) + damage;
  const defense = defenseOf(state, target);
  // A retreat it forces, and the end of a phase with nothing left to attack, follow by themselves (turns.ts flow).
  return [{ type: 'UnitAttacked', seat, unit: unit.id, target: target.id, damage, damageThisPhase, defense }];
}

export function attackCommands(state: TkState, seat: string): TkCommand[] {
  const out: TkCommand[] = [];
  for (const unit of state.units) {
    if (unit.seat !== seat || state.attacked.includes(unit.id)) continue;
    for (const target of targets(state, unit)) out.push({ type: 'attack', unit: unit.id, target: target.id });
  }
  out.push({ type: 'endTurn' });
  return out;
}
