/**
 * What notifications look like from outside: the webhook events, a webhook and a delivery
 * as the API shows them, a webhook body, and how a delivery is signed (Standard Webhooks).
 */
import { createHmac, hash } from 'node:crypto';
import type { DeliveryRecord, OutboxEntry, WebhookRecord } from './ports.ts';

export const WEBHOOK_EVENTS = ['YOUR_TURN', 'GAME_STARTED', 'GAME_OVER', 'EVENT_APPENDED', 'DEADLINE_SOON', 'SEAT_HANDED_TO_BOT', 'MESSAGE'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];


export interface NotificationOptions {
  /**
   * 32 bytes from the environment (WEBHOOK_SECRET_KEY): encrypts webhook secrets and signs
   * unsubscribe links. null: webhooks and mail are off.
   */
  secretKey: Buffer | null;
  /** The service's public base URL, for links (no trailing slash needed). */
  publicUrl: string;
  allowPrivate: boolean;
  /** Mail is sent (SMTP_URL is set). */
  mail: boolean;
  /** Attempts of one webhook delivery before it fails and its webhook is disabled (default 14: about a day). */
  webhookAttempts?: number;
  /**
   * A webhook whose attempts failed this many times in a row, the first of them at least
   * `ms` ago, is disabled (default 10 over 10 minutes) and its owner told; it is disabled
   * too when one delivery's last attempt fails.
   */
  webhookDisableAfter?: { failures: number; ms: number };
  /** Attempts of one mail. */
  mailAttempts?: number;
}

export interface WebhookOut {
  id: string;
  url: string;
  events: WebhookEvent[];
  gameId: string | null;
  enabled: boolean;
  /** Why it was disabled (it kept failing). */
  disabledReason: string | null;
  createdAt: string;
}

export interface DeliveryOut {
  id: string;
  event: WebhookEvent;
  status: DeliveryRecord['status'];
  attempts: number;
  lastError: string | null;
  at: string;
  gameId: string;
  version: number;
  seat: string | null;
}

/** The JSON body of a webhook delivery (the same on every attempt). */
export interface WebhookBody {
  type: WebhookEvent;
  gameId: string;
  version: number;
  seat: string | null;
  game: { id: string; type: string; status: string; version: number };
  at: string;
  /** GAME_OVER only: the winning seats (none: no winner) and why it ended. */
  result?: { winners: string[]; reason: string };
  /** MESSAGE only (to its recipients only): the message. */
  message?: { id: string; from: string; to: string[] | null; text: string; at: string };
}

export function webhookOut(w: WebhookRecord): WebhookOut {
  return { id: w.id, url: w.url, events: w.events as WebhookEvent[], gameId: w.gameId, enabled: w.disabledAt === null, disabledReason: w.disabledReason, createdAt: w.createdAt.toISOString() };
}

export const deliveryId = (...parts: (string | number)[]) => `msg_${hash('sha256', parts.join(':'), 'base64url').slice(0, 27)}`;

/** Standard Webhooks: base64 HMAC-SHA256 of `id.timestamp.body` with the secret's bytes. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** Which webhook event an outbox row is. */
export function webhookEventOf(row: OutboxEntry): WebhookEvent | null {
  switch (row.kind) {
    case 'EVENTS_APPENDED':
      return 'EVENT_APPENDED';
    case 'GAME_STARTED':
      return 'GAME_STARTED';
    case 'GAME_ENDED':
      return 'GAME_OVER';
    case 'SEAT_AWAITED':
      return 'YOUR_TURN';
    case 'SEAT_HANDED_TO_BOT':
      return 'SEAT_HANDED_TO_BOT';
    default:
      return null;
  }
}
