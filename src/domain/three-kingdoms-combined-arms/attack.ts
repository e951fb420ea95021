/**
 * ATTACK PHASE: each of your units may attack one enemy unit within its Range (king
 * moves; range 2+ fires over other units, nothing blocks fire). An attack does 1 damage,
 * Shock Troops 2. As soon as a unit's damage this phase reaches its Defense, it retreats.
 */
import { distance } from './board.ts';
import { UNIT_LIST } from './data.ts';
import type { Batch } from './evolve.ts';
import { defenseOf, unitById, unitName, type TkState, type Unit } from './state.ts';
import { checkRetreats } from './retreat.ts';
import { endTurn, endTurnIfNoAttacks } from './turns.ts';
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

export function attack(batch: Batch, seat: string, unitId: string, targetId: string): string | null {
  const state = batch.state;
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
  batch.emit({ type: 'UnitAttacked', seat, unit: unit.id, target: target.id, damage, damageThisPhase, defense });
  checkRetreats(batch);
  endTurnIfNoAttacks(batch);
  return null;
}

export function finishAttacks(batch: Batch): void {
  endTurn(batch);
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
