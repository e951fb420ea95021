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
  /** The sender of a webhook, added by whoever opens its gate. */
  webhook: (webhookId: string) => JobSpec;
}

export interface WebhookStore {
  create(w: Pick<WebhookRecord, 'id' | 'playerId' | 'gameId' | 'url' | 'events' | 'secret'>): Promise<WebhookRecord>;
  count(playerId: string): Promise<number>;
  delete(playerId: string, id: string): Promise<boolean>;
  ofPlayer(playerId: string): Promise<WebhookRecord[]>;
  get(id: string): Promise<WebhookRecord | null>;
  /** The enabled webhooks on the game or on one of these players. */
  listening(gameId: string, playerIds: string[]): Promise<WebhookRecord[]>;
  deliveries(webhookId: string, first: number): Promise<DeliveryRecord[]>;
  delivery(id: string): Promise<DeliveryRecord | null>;
  /** The seat whose command made this version (null: setup or the service). */
  commandSeat(gameId: string, version: number): Promise<string | null>;
  /** At most one "your turn" mail a game until the player acts: true if this one may go. */
  claimYourTurn(playerId: string, gameId: string, version: number, seats: string[]): Promise<boolean>;
  /**
   * Writes the deliveries not written yet in one transaction: each new mail one with its job
   * (`jobs.mail`); each webhook that got a new one woken (its sender's gate opened with the job
   * `jobs.webhook(webhookId)`, unless it is open: then its running or pending sender takes them);
   * and, with `notified`, the game's notify gate moved on to that version. Returns the ids written.
   */
  enqueue(deliveries: NewDelivery[], jobs: DeliveryJobs, notified?: { gameId: string; through: number; /** the last outbox row fanned out (where the next look may start) */ lastRowId?: string }): Promise<string[]>;
  /**
   * The game's outbox rows not fanned out yet: after its open notify gate's `through`, up to
   * version `upTo`, oldest first. Null: the gate is not open (a job that is not the gate's).
   */
  unnotified(gameId: string, upTo: number): Promise<{ through: number; rows: StoredOutboxEntry[] } | null>;
  /**
   * The end of a fan-out: closes the game's notify gate unless rows after its `through` came
   * meanwhile (locked first, looked at after: a commit either is seen here or opens it again).
   * True: closed, the job may end; false: go on.
   */
  settleNotify(gameId: string): Promise<boolean>;
  /** Opens the webhook's sender gate with `job`, unless open (a retry's timer, a job of an older release). */
  wake(webhookId: string, job: JobSpec): Promise<void>;
  /**
   * A sender's next read, in one round trip: first `delivered` recorded (its successes not
   * recorded yet: DELIVERED, one attempt more; the webhook's failures in a row back to 0),
   * then the webhook as it is now (null: gone) and its pending deliveries due now, in the
   * order fanned out, at most `limit` (0: only the record).
   */
  sending(webhookId: string, limit: number, delivered: string[]): Promise<{ webhook: WebhookRecord | null; due: DeliveryRecord[] }>;
  /** Cancels every pending delivery of the webhook (disabled or deleted); how many. */
  cancelPending(webhookId: string, reason: string): Promise<number>;
  /**
   * The end of a sender's run: `delivered` recorded as `sending` records them, then, its gate
   * locked: 'due' (a delivery is due now: go on); else the gate is closed: 'idle' (none
   * pending), or 'waiting' (some wait for their next attempt: the job `timer` is added to run
   * when the first of them is due).
   */
  settleWebhook(webhookId: string, timer: JobSpec, delivered?: string[]): Promise<'due' | 'waiting' | 'idle'>;
  /**
   * The gates open for at least `seconds` whose job is gone (none holds the gate's key, or it
   * used up its attempts: removed by hand, say), each given the job `job(key)` in one
   * transaction that first marks the gate as opened now (so that two processes healing at once
   * heal it once). Such a gate would hold back its game's or webhook's notifications for good.
   * Also removes what a gated job that closed its gate left when its completion was lost (a
   * queue's row that no runner would ever take again). Returns the gates healed.
   */
  healGates(seconds: number, job: (key: string) => JobSpec | null): Promise<string[]>;
  attempted(id: string, outcome: { status: DeliveryRecord['status']; error?: string | null; attempt?: boolean }): Promise<void>;
  /**
   * A failed attempt: the webhook's failures in a row after it, and how long ago the first of
   * them was (ms). `retryAfterSeconds`: a PENDING delivery's next attempt is due that long from
   * now. Successes are recorded together, by `sending` and `settleWebhook`.
   */
  webhookFailed(deliveryId: string, webhookId: string, outcome: { status: DeliveryRecord['status']; error?: string | null; retryAfterSeconds?: number }): Promise<{ failures: number; failingForMs: number }>;
  /** True if this call disabled it (false: it already was, or is gone). */
  disable(id: string, reason: string): Promise<boolean>;
}

