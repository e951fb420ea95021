/**
 * VICTORY: destroy all enemy Generals or occupy all cities. With three or four players a
 * player who has lost both Generals is out and their units leave the board; a player wins
 * when every other player is out, or at the end of their own turn when they control all
 * the cities (ruling).
 */
import { settle } from '../kernel/index.ts';
import type { TkEvent } from './events.ts';
import { Batch } from './evolve.ts';
import { activePlayers, faction, generalsLeft, type TkState } from './state.ts';
import { flow } from './turns.ts';

export function citiesVictory(state: TkState, seat: string): boolean {
  const cities = Object.values(state.cities);
  return cities.length > 0 && cities.every((c) => c === seat);
}

/**
 * A player still in the game who has lost both Generals is out, as is one who found no
 * square for a General at setup (ruling): one step of turns.ts flow.
 */
export function outOfGenerals(state: TkState): TkEvent[] {
  const lost = (p: string) => generalsLeft(state, p) === 0 && (state.round === 0 || state.destroyed.some((d) => d.seat === p && d.kind === 'general'));
  const seat = activePlayers(state).find(lost);
  if (seat === undefined) return [];
  // Before the first turn: a player who found no square for a General at setup.
  const reason = state.round === 0 ? `${faction(seat)} has no General on the board` : `${faction(seat)} has lost both Generals`;
  return [{ type: 'PlayerOut', seat, reason, cause: 'generals' }];
}

/** The last one left wins: how they won, in words that fit every loser. */
export function lastStanding(state: TkState): TkEvent[] {
  const left = activePlayers(state);
  if (left.length > 1) return [];
  let reason: string;
  if (state.round === 0) reason = left.length === 0 ? 'no player has a General on the board (draw)' : 'no other player has a General on the board';
  // Issue 21.7: "every enemy General destroyed" only when no loser resigned or ran out of time.
  else reason = state.left.length === 0 ? 'every enemy General destroyed' : 'every other player is out';
  return [{ type: 'GameEnded', winners: left, reason }];
}

/**
 * A player who resigns or runs out of time leaves the same way as one who lost both
 * Generals: marked out, their units leave the board, and play moves on if it was their
 * decision (a retreat their attack forced still happens first: its owner chooses). When
 * that leaves one player, the match ends the game with its own reason.
 */
export function eliminate(state: TkState, seat: string, _random: unknown, reason: string): TkEvent[] {
  if (state.out.includes(seat) || state.stage === 'FINISHED') return [];
  const batch = new Batch(state);
  batch.emit({ type: 'PlayerOut', seat, reason: reason === 'time out' ? `${faction(seat)} ran out of time` : `${faction(seat)} resigned`, cause: 'left' });
  if (activePlayers(batch.state).length > 1) settle(batch, flow);
  return batch.events;
}
