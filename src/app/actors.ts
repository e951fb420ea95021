/**
 * Who is asking. Every way a command arrives resolves to one of these before the
 * application runs it; the api layer only finds the bearer token in the request.
 */
import { createHash } from 'node:crypto';

export type Actor =
  /** No token: sees what anyone may see, submits nothing. */
  | { kind: 'spectator' }
  /** A seat token: that seat, in that game only. */
  | { kind: 'seat'; gameId: string; seat: string }
  /** The service itself (a deadline that passed): submits match commands only. */
  | { kind: 'system' };

export const SPECTATOR: Actor = { kind: 'spectator' };
export const SYSTEM_ACTOR: Actor = { kind: 'system' };

/** The seat `actor` holds in `gameId`, if any. */
export function seatIn(actor: Actor, gameId: string): string | null {
  return actor.kind === 'seat' && actor.gameId === gameId ? actor.seat : null;
}

/** Tokens are stored only as hashes. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
