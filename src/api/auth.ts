/**
 * Seat tokens: `Authorization: Bearer <token>` acts as the seat the token was issued
 * for, in that game only. No header: a spectator. Tokens are looked up by their hash.
 */
import type { EventStore } from '../persistence/event-store.ts';
import { ApiError } from './errors.ts';
import { hashToken, SPECTATOR, type Caller } from './service.ts';

export function bearerToken(header: unknown): string | null {
  if (header === undefined || header === null || header === '') return null;
  if (typeof header !== 'string') throw new ApiError('UNAUTHENTICATED', 'The Authorization header must be "Bearer <seat token>"');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new ApiError('UNAUTHENTICATED', 'The Authorization header must be "Bearer <seat token>"');
  return match[1]!;
}

export async function callerFor(store: EventStore, header: unknown): Promise<Caller> {
  const token = bearerToken(header);
  if (token === null) return SPECTATOR;
  const seat = await store.seatForToken(hashToken(token));
  if (!seat) throw new ApiError('UNAUTHENTICATED', 'This seat token is not known');
  return seat;
}
