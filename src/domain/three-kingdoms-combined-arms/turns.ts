/**
 * TURN SEQUENCE: players take turns in seat order; each turn has a Move Phase then an
 * Attack Phase. Rounds count full cycles of the seat order; the optional turn limit ends
 * the game as a draw after that many rounds (ruling).
 */
import type { Batch } from './evolve.ts';
import { activePlayers, faction, type TkState } from './state.ts';
import { canMove, endMovement } from './movement.ts';
import { citiesVictory } from './victory.ts';
import { anyAttack } from './attack.ts';

/**
 * A turn begins with its Move Phase. A choice with exactly one legal option is taken
 * automatically (ruling): a player none of whose units can move has only "end movement",
 * so the Move Phase ends by itself (and the Attack Phase too if nothing can attack).
 */
export function startTurn(batch: Batch, seat: string, round: number): void {
  batch.emit({ type: 'TurnStarted', seat, round });
  if (canMove(batch.state, seat)) return;
  if (frozen(batch.state)) {
    // Ruling: no player can ever move or attack again, so nothing can change: a draw
    // (unless a player holds every city, and wins at the end of their next turn).
    if (!activePlayers(batch.state).some((p) => citiesVictory(batch.state, p))) {
      batch.emit({ type: 'GameEnded', winners: [], reason: 'no player can move or attack (draw)' });
      return;
    }
  }
  endMovement(batch, seat);
}

/** At the start of a turn: no player still in has a unit that can move or attack. */
function frozen(state: TkState): boolean {
  return activePlayers(state).every((p) => !canMove(state, p) && !anyAttack(state, p));
}

/** The next seat in seat order still in the game, and whether the round wraps. */
export function nextSeat(players: string[], out: string[], current: string): { seat: string; wraps: boolean } {
  const i = players.indexOf(current);
  for (let k = 1; k <= players.length; k++) {
    const j = (i + k) % players.length;
    const seat = players[j]!;
    if (!out.includes(seat)) return { seat, wraps: j <= i };
  }
  return { seat: current, wraps: true };
}

/** End of the active player's turn: cities victory, turn limit, then the next turn. */
export function endTurn(batch: Batch): void {
  const seat = batch.state.active!;
  const round = batch.state.round;
  batch.emit({ type: 'TurnEnded', seat, round });
  if (citiesVictory(batch.state, seat)) {
    const n = Object.keys(batch.state.cities).length;
    batch.emit({ type: 'GameEnded', winners: [seat], reason: `${faction(seat)} controls ${n === 1 ? 'the only city' : `all ${n} cities`}` });
    return;
  }
  const next = nextSeat(batch.state.players, batch.state.out, seat);
  if (next.wraps && batch.state.turnLimit !== null && round >= batch.state.turnLimit) {
    batch.emit({ type: 'GameEnded', winners: [], reason: turnLimitReason(batch.state.turnLimit) });
    return;
  }
  startTurn(batch, next.seat, next.wraps ? round + 1 : round);
}

/** The result of a game that reached its turn limit: "turn limit of 1 round reached (draw)". */
export function turnLimitReason(limit: number): string {
  return `turn limit of ${limit} round${limit === 1 ? '' : 's'} reached (draw)`;
}

/** An attack phase with nothing left to attack ends by itself (its only choice is to end). */
export function endTurnIfNoAttacks(batch: Batch): void {
  const s = batch.state;
  if (s.stage === 'ACTIVE' && s.phase === 'attack' && !s.pendingRetreat && !anyAttack(s, s.active!)) endTurn(batch);
}

export { activePlayers };
