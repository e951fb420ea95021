/**
 * Movement Round: the attacker moves his units one at a time, one spread per Movement
 * (Aerial units fly straight to their destination), stopping on entering a spread with an
 * enemy, within Capacity; Engaged units cannot leave; Erdon Pass lets one unit per army
 * out of battle each turn. A unit is "shifted" once it finishes moving.
 *
 * A move names its destination, walked or flown, and is one event (ruling: the opponent
 * sees where a hidden unit went, never how): a walk may go several spreads at once, or in
 * parts, as the player likes, so neither the number of commands nor their timing tells a
 * flight from a walk.
 */
import { distance, fitsCapacity, hasEnemy, isAerial, isEngaged, label, spreadName, spreadOf, walkDistance } from './battlefield.ts';
import type { Army, WarchonCommand, WarchonEvent, WarchonState } from './types.ts';

type MoveUnit = Extract<WarchonCommand, { type: 'moveUnit' }>;

export function checkMoveUnit(state: WarchonState, army: Army, cmd: MoveUnit): string | null {
  const unit = state.units[cmd.unit];
  if (!unit || unit.army !== army || unit.destroyed || unit.spread === null || unit.temporary) return `You have no unit ${cmd.unit} on the battlefield`;
  if (!state.spreads.some((s) => s.number === cmd.to)) return `There is no spread ${cmd.to}`;
  const name = label(state, unit);
  if (unit.shifted) return `${name} has already been shifted: it cannot move any more this turn`;
  if (unit.movesLeft <= 0) return `${name} has no Movement left this turn`;
  const from = unit.spread;
  if (cmd.to === from) return `${name} is already in ${spreadName(state, from)}`;
  if (isEngaged(state, from)) return `${name} is Engaged in ${spreadName(state, from)} and cannot leave this turn`;
  if (hasEnemy(state, from, army)) {
    const limit = spreadOf(state, from).special.leaveBattleLimit;
    if (limit !== null && state.leftBattle.filter((s) => s === from).length >= limit) {
      return `Only ${limit} unit per army may move out of battle at ${spreadName(state, from)} each turn`;
    }
  }
  const d = isAerial(state, unit) ? distance(state, from, cmd.to) : walkDistance(state, unit, from, cmd.to);
  if (d === Infinity) return `${name} cannot walk to ${spreadName(state, cmd.to)}: enemy units or full spreads are in the way`;
  if (d > unit.movesLeft) return `${name} has ${unit.movesLeft} Movement; ${spreadName(state, cmd.to)} is ${d} spreads away`;
  if (!fitsCapacity(state, unit, cmd.to)) return `${spreadName(state, cmd.to)} has no Capacity left for ${name}`;
  return null;
}

export function moveUnit(state: WarchonState, army: Army, cmd: MoveUnit): WarchonEvent[] {
  const unit = state.units[cmd.unit]!;
  const events: WarchonEvent[] = [];
  // Moving another unit means the one in motion has finished: shift it.
  if (state.moving && state.moving !== unit.id) events.push({ type: 'UnitShifted', unit: state.moving });
  const from = unit.spread!;
  const aerial = isAerial(state, unit);
  events.push({
    type: 'UnitMoved',
    army,
    unit: unit.id,
    from,
    to: cmd.to,
    // The Movement a walk spends (a flight spends it all); hidden from the opponent (view.ts).
    moves: aerial ? unit.movesLeft : walkDistance(state, unit, from, cmd.to),
    // Stop moving a unit the instant it comes into a spread containing at least one enemy unit
    // (a walk goes round them on its way, a flight ignores the spreads it passes over).
    stopped: hasEnemy(state, cmd.to, army),
    leftBattle: hasEnemy(state, from, army),
  });
  return events;
}

export function endMovement(_state: WarchonState, army: Army): WarchonEvent[] {
  return [{ type: 'MovementEnded', army }];
}
