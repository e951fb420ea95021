/**
 * Correspondence clocks: `createGame(input: { clock: { perMove } })` gives every awaited
 * seat that many seconds for each decision. The application only validates the clock and
 * reads deadlines; they are derived in the database from when the seat became awaited
 * (the ClockStore port), and a passed deadline is acted on by the jobs the clock planner adds
 * (src/app/planners.ts, run by src/app/deadlines.ts) with the system actor.
 */
import { AppError } from './errors.ts';

export interface ClockInput {
  perMove: number;
}

/** A second is enough to test with; thirty days is longer than any correspondence service gives a move. */
export const MIN_PER_MOVE = 1;
export const MAX_PER_MOVE = 30 * 24 * 60 * 60;

/** The seconds a move of a `clock` input (null: no clock), or BAD_REQUEST saying why. */
export function perMoveOf(clock: unknown): number | null {
  if (clock === undefined || clock === null) return null;
  const perMove = typeof clock === 'object' ? (clock as { perMove?: unknown }).perMove : undefined;
  const keys = typeof clock === 'object' ? Object.keys(clock as object) : [];
  if (keys.some((k) => k !== 'perMove')) throw new AppError('BAD_REQUEST', `clock has only perMove (got ${keys.filter((k) => k !== 'perMove').join(', ')})`);
  if (typeof perMove !== 'number' || !Number.isInteger(perMove) || perMove < MIN_PER_MOVE || perMove > MAX_PER_MOVE) {
    throw new AppError('BAD_REQUEST', `clock.perMove is a whole number of seconds from ${MIN_PER_MOVE} to ${MAX_PER_MOVE} (30 days)`);
  }
  return perMove;
}
