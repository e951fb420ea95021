/**
 * The core's ports for people: players with their tokens, and their webhooks with the
 * deliveries made for them (see ports.ts for the rest).
 */
import type { JobSpec, StoredOutboxEntry } from './ports.ts';

// ---- players ------------------------------------------------------------------------------

export interface PlayerRecord {
  id: string;
  name: string;
  email: string | null;
  emailVerified: boolean;
  notifyByEmail: boolean;
  /** sha256("<id>:<code>"), never the code */
  emailCodeHash: string | null;
  emailCodeExpires: Date | null;
  emailCodeAttempts: number;
  /** The version the unsubscribe links carry: each use moves it on (a link works once). */
  unsubscribeVersion: number;
  /** One mail a day listing the games waiting for them, instead of each your-turn mail. */
  emailDigest: boolean;
  /** Moved on by each revoked token: a calendar URL of an older generation is refused. */
  tokenGeneration: number;
  createdAt: Date;
  updatedAt: Date;
}

/** What one guess of the email code did. */
export type CodeGuess = { outcome: 'verified' } | { outcome: 'wrong'; attempts: number } | { outcome: 'none' };

/** Told the hash of every player token revoked on any process; null: some may have been missed (recheck). */
export type RevocationListener = (tokenHash: string | null) => void;

export interface PlayerTokenRecord {
  id: string;
  playerId: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export interface PlayerStore {
  /** The player and their first token, together or not at all. */
  createPlayer(player: { id: string; name: string; email: string | null; emailCodeHash: string | null; emailCodeExpires: Date | null }, token: { id: string; name: string; tokenHash: string }): Promise<PlayerRecord>;
  player(id: string): Promise<PlayerRecord | null>;
  players(ids: string[]): Promise<PlayerRecord[]>;
  updatePlayer(id: string, data: Partial<Omit<PlayerRecord, 'id' | 'createdAt' | 'updatedAt'>>): Promise<PlayerRecord>;
  /**
   * One guess of the email code (its hash), compared and counted at once: concurrent guesses
   * are ordered, each sees the count the one before it left, so at most `max` are ever
   * compared (a right one verifies and forgets the code, the `max`th wrong one forgets it
   * too). 'none': no code was pending (any more).
   */
  guessCode(id: string, hash: string, max: number): Promise<CodeGuess>;
  /** Counts a registration from `address` in the current minute, shared by every process; the count so far and when its minute ends. */
  countRegistration(address: string): Promise<{ count: number; resetsAt: Date }>;
  /** Forgets the counts of minutes long past. */
  forgetRegistrations(): Promise<void>;
  /** Turns the player's mail off if `version` is their unsubscribe links' current one, and moves it on; null when it is not (used, or older). */
  unsubscribe(id: string, version: number): Promise<{ name: string } | null>;
  /** The token's player (marking the token used). */
  playerForToken(tokenHash: string): Promise<{ playerId: string; tokenId: string } | null>;
  createToken(token: { id: string; playerId: string; name: string; tokenHash: string }): Promise<PlayerTokenRecord>;
  tokens(playerId: string): Promise<PlayerTokenRecord[]>;
  countTokens(playerId: string): Promise<number>;
  /** Deletes the token, moves the player's tokenGeneration on and, with the same commit, announces its hash to every process (WakeUps.onTokenRevoked); false when the player has none by that id. */
  revokeToken(playerId: string, id: string): Promise<boolean>;
}

// ---- webhooks and deliveries --------------------------------------------------------------

export interface WebhookRecord {
  id: string;
  playerId: string;
  gameId: string | null;
  url: string;
  events: string[];
  /** Encrypted. */
  secret: string;
  failures: number;
  disabledAt: Date | null;
  disabledReason: string | null;
  createdAt: Date;
}

export interface DeliveryRecord {
  id: string;
  channel: 'WEBHOOK' | 'MAIL';
  webhookId: string | null;
  playerId: string | null;
  gameId: string;
  event: string;
  seat: string | null;
  version: number;
  body: Record<string, unknown>;
  status: 'PENDING' | 'DELIVERED' | 'FAILED' | 'CANCELLED';
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewDelivery = Pick<DeliveryRecord, 'id' | 'channel' | 'webhookId' | 'playerId' | 'gameId' | 'event' | 'seat' | 'version' | 'body'>;

/** The jobs of new deliveries (WebhookStore.enqueue). */
export interface DeliveryJobs {
  /** One job a mail. */
  mail: (d: NewDelivery) => JobSpec;
}

/** Where the notifications' dispatcher is in the outbox: its last row fanned out, in the store's order. */
export interface OutboxMark {
  /** The writing transaction (PostgreSQL's xid8, as text; the memory store's row id). */
  tx: string;
  id: string;
}

/** An outbox row as the dispatcher reads it: whether anyone listens to its game, and its place. */
export interface TailEntry extends StoredOutboxEntry {
  listened: boolean;
  mark: OutboxMark;
}

/** The dispatcher's hold on the outbox (one at a time across every process). */
export interface DispatchLease {
  /** Resolves when the hold is lost (its connection gone): stop dispatching. */
  lost: Promise<void>;
  release(): Promise<void>;
}

export interface WebhookStore {
  create(w: Pick<WebhookRecord, 'id' | 'playerId' | 'gameId' | 'url' | 'events' | 'secret'>): Promise<WebhookRecord>;
  count(playerId: string): Promise<number>;
  delete(playerId: string, id: string): Promise<boolean>;
  ofPlayer(playerId: string): Promise<WebhookRecord[]>;
  get(id: string): Promise<WebhookRecord | null>;
  /** The enabled webhooks on each game or on one of its players (these), by game id; each game's in id order. */
  listening(games: { id: string; playerIds: string[] }[]): Promise<Map<string, WebhookRecord[]>>;
  deliveries(webhookId: string, first: number): Promise<DeliveryRecord[]>;
  delivery(id: string): Promise<DeliveryRecord | null>;
  /** The seat whose command made this version (null: setup or the service). */
  commandSeat(gameId: string, version: number): Promise<string | null>;
  /** At most one "your turn" mail a game until the player acts: true if this one may go. */
  claimYourTurn(playerId: string, gameId: string, version: number, seats: string[]): Promise<boolean>;
  /**
   * Writes the deliveries not written yet in one transaction: each new mail one with its job
   * (`jobs.mail`); with `mark`, the dispatcher's mark moved on to it (never back). Returns the
   * ids written.
   */
  enqueue(deliveries: NewDelivery[], jobs: DeliveryJobs, mark?: OutboxMark): Promise<string[]>;
  /**
   * The outbox rows after the dispatcher's mark, in the order of their writing transactions,
   * only those of transactions older than every one still running (no row can appear before
   * them later): at most `limit`. `listened`: a webhook is on the row's game or on one of its
   * players, or (`mail`) one of its players wants mail. Rows written while nobody listened may
   * be left out (PostgreSQL's store does: `heard`); the memory store reads them all.
   */
  tail(limit: number, mail: boolean): Promise<TailEntry[]>;
  /**
   * The dispatcher's read, in one round trip: first `delivered` recorded (DELIVERED, one
   * attempt more; their webhooks' failures in a row back to 0), then the webhooks' pending
   * deliveries due now, not of the webhooks `busy`, oldest first, at most `perWebhook` of a
   * webhook and `limit` in all (0: only the record), each with its webhook as it is now
   * (null: gone).
   */
  sendable(limit: number, perWebhook: number, busy: string[], delivered: string[]): Promise<{ delivery: DeliveryRecord; webhook: WebhookRecord | null }[]>;
  /** Cancels every pending delivery of the webhook (disabled or deleted); how many. */
  cancelPending(webhookId: string, reason: string): Promise<number>;
  /** The dispatcher's hold, if no other process has it (null: one has). */
  lease(): Promise<DispatchLease | null>;
  attempted(id: string, outcome: { status: DeliveryRecord['status']; error?: string | null; attempt?: boolean }): Promise<void>;
  /**
   * A failed attempt: the webhook's failures in a row after it, and how long ago the first of
   * them was (ms). `retryAfterSeconds`: a PENDING delivery's next attempt is due that long from
   * now. Successes are recorded together, by `sendable`.
   */
  webhookFailed(deliveryId: string, webhookId: string, outcome: { status: DeliveryRecord['status']; error?: string | null; retryAfterSeconds?: number }): Promise<{ failures: number; failingForMs: number }>;
  /** True if this call disabled it (false: it already was, or is gone). */
  disable(id: string, reason: string): Promise<boolean>;
}

