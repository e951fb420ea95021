/**
 * TURN SEQUENCE, and every step nobody chooses, as one `flow`: after each command (and at
 * setup) the kernel's settle runs it until the game waits for a player, one step at a
 * time, under the kernel's loop guard. Players take turns in seat order; each turn has a
 * Move Phase then an Attack Phase. Rounds count full cycles of the seat order; the optional
 * turn limit ends the game as a draw after that many rounds (ruling).
 */
import type { TkEvent } from './events.ts';
import { activePlayers, faction, type TkState } from './state.ts';
import { anyAttack } from './attack.ts';
import { canMove } from './movement.ts';
import { forcedRetreat, onlyRetreat } from './retreat.ts';
import { setupStep } from './setup.ts';
import { citiesVictory, lastStanding, outOfGenerals } from './victory.ts';

/** The next step that follows by itself from `s`, or nothing when the game waits for a player (or is over). */
export function flow(s: TkState): TkEvent[] {
  if (s.stage === 'FINISHED') return [];
  if (s.stage === 'SETUP') return setupStep(s);
  // VICTORY: a player without Generals is out; the last one left wins.
  const out = outOfGenerals(s);
  if (out.length) return out;
  const last = lastStanding(s);
  if (last.length) return last;
  if (s.active === null) return [{ type: 'TurnStarted', seat: activePlayers(s)[0]!, round: 1 }];
  // A forced retreat: taken automatically with one square open, else its owner chooses.
  if (s.pendingRetreat) return onlyRetreat(s);
  if (s.phase === 'attack') {
    const forced = forcedRetreat(s);
    if (forced.length) return forced;
  }
  const seat = s.active;
  // The player whose turn it is has left: the turn passes on.
  if (s.out.includes(seat) && s.phase !== null) return [{ type: 'TurnEnded', seat, round: s.round }];
  if (s.phase === 'move') {
    // A choice with exactly one legal option is taken automatically (ruling): with no unit
    // that can move, "end movement" is all that is left.
    if (canMove(s, seat)) return [];
    // Ruling: at the start of a turn, no player can ever move or attack again, so nothing can
    // change: a draw (unless a player holds every city, and wins at the end of their next turn).
    if (s.moved.length === 0 && frozen(s) && !activePlayers(s).some((p) => citiesVictory(s, p))) {
      return [{ type: 'GameEnded', winners: [], reason: 'no player can move or attack (draw)' }];
    }
    return [{ type: 'MovementEnded', seat }];
  }
  if (s.phase === 'attack') return anyAttack(s, seat) ? [] : [{ type: 'TurnEnded', seat, round: s.round }];
  return turnOver(s, seat);
}

/** End of a turn: cities victory, turn limit, then the next player's turn. */
function turnOver(s: TkState, seat: string): TkEvent[] {
  if (!s.out.includes(seat) && citiesVictory(s, seat)) {
    const n = Object.keys(s.cities).length;
    return [{ type: 'GameEnded', winners: [seat], reason: `${faction(seat)} controls ${n === 1 ? 'the only city' : `all ${n} cities`}` }];
  }
  const next = nextSeat(s.players, s.out, seat);
  if (next.wraps && s.turnLimit !== null && s.round >= s.turnLimit) return [{ type: 'GameEnded', winners: [], reason: turnLimitReason(s.turnLimit) }];
  return [{ type: 'TurnStarted', seat: next.seat, round: next.wraps ? s.round + 1 : s.round }];
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

/** The result of a game that reached its turn limit: "turn limit of 1 round reached (draw)". */
export function turnLimitReason(limit: number): string {
  return `turn limit of ${limit} round${limit === 1 ? '' : 's'} reached (draw)`;
}
