/**
 * Correspondence clocks: `createGame(input: { clock: { perMove } })` gives every awaited
 * seat that many seconds for each decision. The application only validates the clock and
 * reads deadlines; they are derived in the database from when the seat became awaited
 * (the ClockStore port), and a passed deadline is acted on by the jobs the clock planner adds
 * (src/app/planners.ts, run by src/app/deadlines.ts) with the system actor.
 */
import { AppError } from './errors.ts';

/** What a seat out of time becomes: out of the game (RESIGN, the default) or the random bot's (BOT). */
export const TIMEOUT_POLICIES = ['RESIGN', 'BOT'] as const;
export type TimeoutPolicy = (typeof TIMEOUT_POLICIES)[number];

export interface ClockInput {
  perMove: number;
  onTimeout?: TimeoutPolicy | null;
}

/** A second is enough to test with; thirty days is longer than any correspondence service gives a move. */
export const MIN_PER_MOVE = 1;
export const MAX_PER_MOVE = 30 * 24 * 60 * 60;

/** The seconds a move of a `clock` input (null: no clock), or BAD_REQUEST saying why. */
export function perMoveOf(clock: unknown): number | null {
  if (clock === undefined || clock === null) return null;
  const perMove = typeof clock === 'object' ? (clock as { perMove?: unknown }).perMove : undefined;
  const keys = typeof clock === 'object' ? Object.keys(clock as object) : [];
  const unknown = keys.filter((k) => k !== 'perMove' && k !== 'onTimeout');
  if (unknown.length) throw new AppError('BAD_REQUEST', `clock has only perMove and onTimeout (got ${unknown.join(', ')})`);
  if (typeof perMove !== 'number' || !Number.isInteger(perMove) || perMove < MIN_PER_MOVE || perMove > MAX_PER_MOVE) {
    throw new AppError('BAD_REQUEST', `clock.perMove is a whole number of seconds from ${MIN_PER_MOVE} to ${MAX_PER_MOVE} (30 days)`);
  }
  return perMove;
}

/** The stored form of `clock.onTimeout`: 'BOT', or null for RESIGN (and no clock). */
export function onTimeoutOf(clock: unknown): 'BOT' | null {
  if (clock === undefined || clock === null || typeof clock !== 'object') return null;
  const policy = (clock as { onTimeout?: unknown }).onTimeout;
  if (policy === undefined || policy === null || policy === 'RESIGN') return null;
  if (policy === 'BOT') return 'BOT';
  throw new AppError('BAD_REQUEST', `clock.onTimeout is one of ${TIMEOUT_POLICIES.join(', ')} (got ${JSON.stringify(policy)})`);
}
