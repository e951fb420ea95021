/**
 * VICTORY: destroy all enemy Generals or occupy all cities. With three or four players a
 * player who has lost both Generals is out and their units leave the board; a player wins
 * when every other player is out, or at the end of their own turn when they control all
 * the cities (ruling).
 */
import type { Unit } from './state.ts';
import type { TkEvent } from './events.ts';
import { activePlayers, faction, generalsLeft, type TkState } from './state.ts';
import { Batch } from './evolve.ts';
import { settleSetup } from './setup.ts';
import { endTurnIfNoAttacks, nextSeat, startTurn, turnLimitReason } from './turns.ts';
import { checkRetreats } from './retreat.ts';

export function citiesVictory(state: TkState, seat: string): boolean {
  const cities = Object.values(state.cities);
  return cities.length > 0 && cities.every((c) => c === seat);
}

/** After a unit was destroyed: a player without Generals is out; the last one left wins. */
export function afterDestruction(batch: Batch, unit: Unit): void {
  if (unit.kind !== 'general' || generalsLeft(batch.state, unit.seat) > 0) return;
  batch.emit({ type: 'PlayerOut', seat: unit.seat, reason: `${faction(unit.seat)} has lost both Generals` });
  declareLastStanding(batch, `every enemy General destroyed`);
}

/** A player still in the game with no General on the board is out (ruling). */
export function outWithoutGenerals(batch: Batch, seat: string, reason: string): void {
  if (!batch.state.out.includes(seat) && generalsLeft(batch.state, seat) === 0) batch.emit({ type: 'PlayerOut', seat, reason });
}

export function declareLastStanding(batch: Batch, reason: string): void {
  const left = activePlayers(batch.state);
  if (left.length <= 1) batch.emit({ type: 'GameEnded', winners: left, reason });
}

/**
 * A resigning player (three or more at the table) leaves the same way as one who lost both
 * Generals: their units leave the board, and play moves on if it was their decision.
 */
export function eliminate(state: TkState, seat: string, _random: unknown, reason: string): TkEvent[] {
  if (state.out.includes(seat) || state.stage === 'FINISHED') return [];
  const batch = new Batch(state);
  const wasActive = state.stage === 'ACTIVE' && state.active === seat;
  batch.emit({ type: 'PlayerOut', seat, reason: reason === 'time out' ? `${faction(seat)} ran out of time` : `${faction(seat)} resigned` });
  declareLastStanding(batch, 'every other player is out');
  if (batch.over) return batch.events;
  if (batch.state.stage === 'SETUP') {
    settleSetup(batch);
  } else if (wasActive && batch.state.pendingRetreat) {
    // A retreat their attack forced still happens: its owner chooses, then the turn passes
    // on (the resigned player has nothing left to attack).
  } else if (wasActive) {
    const next = nextSeat(state.players, batch.state.out, seat);
    if (next.wraps && state.turnLimit !== null && state.round >= state.turnLimit) {
      batch.emit({ type: 'GameEnded', winners: [], reason: turnLimitReason(state.turnLimit) });
    } else {
      startTurn(batch, next.seat, next.wraps ? state.round + 1 : state.round);
    }
  } else {
    // Their pending retreat is gone with them: a unit waiting behind it retreats now, and the
    // attacker may have nothing left to do.
    checkRetreats(batch);
    endTurnIfNoAttacks(batch);
  }
  return batch.events;
}
