/**
 * The core's ports for people: players with their tokens, and their webhooks with the
 * deliveries made for them (see ports.ts for the rest).
 */
import type { JobSpec } from './ports.ts';

// ---- players ------------------------------------------------------------------------------

export interface PlayerRecord {
  id: string;
  name: string;
  email: string | null;
  emailVerified: boolean;
  notifyByEmail: boolean;
  emailCode: string | null;
  emailCodeExpires: Date | null;
  emailCodeAttempts: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface PlayerTokenRecord {
  id: string;
  playerId: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export interface PlayerStore {
  /** The player and their first token, together or not at all. */
  createPlayer(player: { id: string; name: string; email: string | null; emailCode: string | null; emailCodeExpires: Date | null }, token: { id: string; name: string; tokenHash: string }): Promise<PlayerRecord>;
  player(id: string): Promise<PlayerRecord | null>;
  players(ids: string[]): Promise<PlayerRecord[]>;
  updatePlayer(id: string, data: Partial<Omit<PlayerRecord, 'id' | 'createdAt' | 'updatedAt'>>): Promise<PlayerRecord>;
  /** A wrong guess of the email code: counts it, and forgets the code after `max` wrong ones. */
  wrongCode(id: string, max: number): Promise<number>;
  /** The token's player (marking the token used). */
  playerForToken(tokenHash: string): Promise<{ playerId: string; tokenId: string } | null>;
  createToken(token: { id: string; playerId: string; name: string; tokenHash: string }): Promise<PlayerTokenRecord>;
  tokens(playerId: string): Promise<PlayerTokenRecord[]>;
  countTokens(playerId: string): Promise<number>;
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
  /** Writes the deliveries not written yet, each with its job; returns the ids written. */
  enqueue(deliveries: NewDelivery[], job: (d: NewDelivery) => JobSpec): Promise<string[]>;
  attempted(id: string, outcome: { status: DeliveryRecord['status']; error?: string | null; attempt?: boolean }): Promise<void>;
  webhookAttempted(deliveryId: string, webhookId: string, ok: boolean, outcome: { status: DeliveryRecord['status']; error?: string | null }): Promise<void>;
  disable(id: string, reason: string): Promise<void>;
}

