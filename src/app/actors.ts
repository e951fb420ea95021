/**
 * Who is asking. Every way a command arrives resolves to one of these before the
 * application runs it; the api layer only finds the bearer token in the request.
 */
import { hash } from 'node:crypto';
import type { SeatEntry } from './ports.ts';
import { AppError } from './errors.ts';

export type Actor =
  /** No token: sees what anyone may see, submits nothing. */
  | { kind: 'spectator' }
  /** A seat token: that seat, in that game only. */
  | { kind: 'seat'; gameId: string; seat: string; /** tokenFingerprint of the token */ token?: string }
  /** A player token: every seat that player holds, in any game. */
  | { kind: 'player'; playerId: string }
  /** The service playing a bot seat: that seat, in that game only. */
  | { kind: 'bot'; gameId: string; seat: string }
  /** The service itself (a deadline that passed): submits match commands only. */
  | { kind: 'system' };

export const SPECTATOR: Actor = { kind: 'spectator' };
export const SYSTEM_ACTOR: Actor = { kind: 'system' };

/** What a game says of its seats: who holds them, and which it waits for. */
export interface SeatedGame {
  id: string;
  seats?: SeatEntry[];
  awaiting?: string[];
  status?: string;
}

/** Every seat `actor` holds in the game, in seat order. */
export function seatsHeld(actor: Actor, game: SeatedGame): string[] {
  switch (actor.kind) {
    case 'seat': {
      if (actor.gameId !== game.id) return [];
      // A seat left in the lobby (and perhaps taken again) no longer answers to the old token,
      // even from a process that remembers what the token stood for.
      const entry = (game.seats ?? []).find((s) => s.seat === actor.seat);
      if (entry && (entry.kind !== 'token' || (entry.token && actor.token && entry.token !== actor.token))) return [];
      return [actor.seat];
    }
    case 'bot':
      return actor.gameId === game.id && (game.seats ?? []).some((s) => s.seat === actor.seat && s.kind === 'bot') ? [actor.seat] : [];
    case 'player':
      return (game.seats ?? []).filter((s) => s.kind === 'player' && s.playerId === actor.playerId).map((s) => s.seat);
    default:
      return [];
  }
}

/**
 * The seat `actor` holds in the game, if any (a string: the game's id, for a seat token).
 * A player holding several: the first one the game awaits, else the first.
 */
export function seatIn(actor: Actor, game: string | SeatedGame): string | null {
  const held = seatsHeld(actor, typeof game === 'string' ? { id: game } : game);
  const awaiting = typeof game === 'string' ? [] : (game.awaiting ?? []);
  return held.find((s) => awaiting.includes(s)) ?? held[0] ?? null;
}

/**
 * The seat a command runs for (null: the service itself), or why it cannot run: a player
 * holding several seats of the game names one (`requested`).
 */
export function commandSeat(actor: Actor, game: SeatedGame, requested?: string | null): string | null {
  if (game.status === 'OPEN') throw new AppError('NOT_YOUR_TURN', 'The game has not started: it waits for players to take its open seats');
  if (game.status === 'ABANDONED') throw new AppError('GAME_OVER', 'The game was cancelled before it started');
  if (actor.kind === 'system') return null;
  if (actor.kind === 'spectator') {
    throw new AppError('UNAUTHENTICATED', 'Submitting a command needs the seat token returned by createGame or joinGame, or a player token (Authorization: Bearer <token>)');
  }
  const held = seatsHeld(actor, game);
  if (requested !== undefined && requested !== null) {
    if (typeof requested !== 'string' || !held.includes(requested)) {
      throw new AppError('FORBIDDEN', held.length ? `You do not hold seat "${requested}" here; you hold ${held.join(', ')}` : `You do not hold seat "${requested}" in this game`);
    }
    return requested;
  }
  if (held.length === 1) return held[0]!;
  if (held.length > 1) throw new AppError('BAD_REQUEST', `You hold seats ${held.join(', ')} in this game: name the seat the command is for (seat)`);
  if (actor.kind === 'seat') throw new AppError('FORBIDDEN', 'Your token holds a seat in another game, not this one');
  throw new AppError('FORBIDDEN', 'You hold no seat in this game');
}

/** Player tokens carry this prefix; seat tokens never do (they are 32 base64url characters). */
export const PLAYER_TOKEN_PREFIX = 'wgp_';

/** What a game's seats keep of the seat token holding one: a prefix of its hash. */
export function tokenFingerprint(tokenHash: string): string {
  return tokenHash.slice(0, 16);
}

/** Tokens are stored only as hashes. */
export function hashToken(token: string): string {
  // crypto.hash: one call, no Hash object (every authenticated request hashes its token).
  return hash('sha256', token, 'hex');
}
