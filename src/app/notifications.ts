/**
 * Notifications: what a commit's outbox rows imply for whom, as deliveries with stable ids
 * (a webhook POST signed as Standard Webhooks do, or a mail), made by the job queue's
 * workers (src/workers/notifications.ts) at least once.
 *
 * A notification tells no more than anyone may see of the game: its id, type, status and
 * version, which seat it is about, the seats' names, the prompts the game shows everyone
 * (`awaiting`) and, once finished, the result. Never an event's data or a view, so nothing
 * hidden (a Warchon unit, a committed number) can be in a webhook body or a mail.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { GameRecord, OutboxEntry } from '../persistence/event-store.ts';
import type { PlayerRecord, PlayerStore } from '../persistence/player-store.ts';
import type { DeliveryRecord, NewDelivery, WebhookRecord, WebhookStore } from '../persistence/webhook-store.ts';
import type { Actor } from './actors.ts';
import type { Application } from './application.ts';
import { AppError } from './errors.ts';
import type { VerificationMail } from './players.ts';
import { checkTarget, parseTarget } from './targets.ts';

export const WEBHOOK_EVENTS = ['YOUR_TURN', 'GAME_STARTED', 'GAME_OVER', 'EVENT_APPENDED', 'DEADLINE_SOON'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The queue's task names (src/workers/notifications.ts defines them). */
export const TASKS = { notify: 'notify', deadline: 'notify-deadline', webhook: 'webhook', mail: 'mail' } as const;

const MAX_WEBHOOKS = 20;
/** Deliveries run before fan-outs (graphile-worker runs lower priorities first; default 0). */
const DELIVERY_PRIORITY = -1;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
}

/** A mail, rendered when its delivery is written. */
export interface MailBody {
  subject: string;
  text: string;
  html: string;
}

function webhookOut(w: WebhookRecord): WebhookOut {
  return { id: w.id, url: w.url, events: w.events as WebhookEvent[], gameId: w.gameId, enabled: w.disabledAt === null, disabledReason: w.disabledReason, createdAt: w.createdAt.toISOString() };
}

const deliveryId = (...parts: (string | number)[]) => `msg_${createHash('sha256').update(parts.join(':')).digest('base64url').slice(0, 27)}`;
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Standard Webhooks: base64 HMAC-SHA256 of `id.timestamp.body` with the secret's bytes. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export class Notifications {
  private readonly unsubscribeKey: Buffer | null;

  constructor(
    private readonly app: Application,
    readonly store: WebhookStore,
    private readonly players: PlayerStore,
    readonly options: NotificationOptions,
  ) {
    this.unsubscribeKey = options.secretKey ? Buffer.from(hkdfSync('sha256', options.secretKey, Buffer.alloc(0), 'unsubscribe links', 32)) : null;
  }

  get webhookAttempts() {
    return this.options.webhookAttempts ?? 14;
  }

  // ---- webhooks: the player's API --------------------------------------------------

  private async player(actor: Actor) {
    if (!this.app.players) throw new AppError('INTERNAL', 'this process does not host players');
    return this.app.players.playerOf(actor);
  }

  async createWebhook(actor: Actor, input: { url?: unknown; events?: unknown; gameId?: unknown }): Promise<{ webhook: WebhookOut; secret: string }> {
    const player = await this.player(actor);
    if (!this.options.secretKey) throw new AppError('UNAVAILABLE', 'Webhooks are off on this service: it has no WEBHOOK_SECRET_KEY to keep their secrets with');
    const url = parseTarget(input?.url);
    const events = input.events;
    if (!Array.isArray(events) || events.length === 0 || !events.every((e) => (WEBHOOK_EVENTS as readonly unknown[]).includes(e))) {
      throw new AppError('BAD_REQUEST', `events lists one or more of ${WEBHOOK_EVENTS.join(', ')}`);
    }
    let gameId: string | null = null;
    if (input.gameId !== undefined && input.gameId !== null) {
      if (typeof input.gameId !== 'string' || !UUID.test(input.gameId)) throw new AppError('NOT_FOUND', `No game with id "${String(input.gameId)}"`);
      const game = await this.app.store.game(input.gameId);
      if (!game) throw new AppError('NOT_FOUND', `No game with id "${input.gameId}"`);
      if (!game.playerIds.includes(player.id)) throw new AppError('FORBIDDEN', 'A webhook for one game needs a seat of yours in it');
      gameId = game.id;
    }
    await checkTarget(url, this.options.allowPrivate);
    if ((await this.store.count(player.id)) >= MAX_WEBHOOKS) throw new AppError('BAD_REQUEST', `A player has at most ${MAX_WEBHOOKS} webhooks: delete one first`);
    const id = randomUUID();
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const created = await this.store.create({ id, playerId: player.id, gameId, url: url.toString(), events: [...new Set(events as string[])], secret: this.seal(id, secret) });
    return { webhook: webhookOut(created), secret };
  }

  async deleteWebhook(actor: Actor, id: unknown): Promise<boolean> {
    const player = await this.player(actor);
    if (typeof id !== 'string' || !UUID.test(id)) return false;
    return this.store.delete(player.id, id);
  }

  async webhooks(playerId: string): Promise<WebhookOut[]> {
    return (await this.store.ofPlayer(playerId)).map(webhookOut);
  }

  /** A webhook's deliveries, newest first. */
  async deliveries(webhookId: string, first = 20): Promise<DeliveryOut[]> {
    if (!Number.isInteger(first) || first < 1 || first > 100) throw new AppError('BAD_REQUEST', '"first" must be from 1 to 100');
    return (await this.store.deliveries(webhookId, first)).map((d) => ({
      id: d.id, event: d.event as WebhookEvent, status: d.status, attempts: d.attempts, lastError: d.lastError, at: d.createdAt.toISOString(),
      gameId: d.gameId, version: d.version, seat: d.seat,
    }));
  }

  // ---- secrets ------------------------------------------------------------------------

  /** AES-256-GCM with the key from the environment; the webhook's id is bound in. */
  private seal(id: string, secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.options.secretKey!, iv);
    cipher.setAAD(Buffer.from(id));
    const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return `v1.${iv.toString('base64url')}.${data.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
  }

  /** @internal The webhook's secret (for signing). */
  open(webhook: WebhookRecord): string {
    if (!this.options.secretKey) throw new Error('no WEBHOOK_SECRET_KEY: cannot sign');
    const [v, iv, data, tag] = webhook.secret.split('.');
    if (v !== 'v1' || !iv || !data || !tag) throw new Error('the stored secret has an unknown form');
    const decipher = createDecipheriv('aes-256-gcm', this.options.secretKey, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(webhook.id));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    try {
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new Error('the secret cannot be decrypted: WEBHOOK_SECRET_KEY is not the key it was stored with');
    }
  }

  // ---- mail links ---------------------------------------------------------------------

  gameUrl(gameId: string): string {
    return `${this.options.publicUrl.replace(/\/+$/, '')}/games/${gameId}`;
  }

  /** §8: signs the player's id and their links' version, so a used link (the version moved on) is worth nothing. */
  private unsubscribeToken(playerId: string, version: number): string {
    return createHmac('sha256', this.unsubscribeKey!).update(`${playerId}:${version}`).digest('base64url');
  }

  unsubscribeUrl(player: { id: string; unsubscribeVersion: number }): string {
    return `${this.options.publicUrl.replace(/\/+$/, '')}/unsubscribe?player=${player.id}&token=${this.unsubscribeToken(player.id, player.unsubscribeVersion)}`;
  }

  /**
   * The unsubscribe link (a GET, no login): turns the player's mail off, once. Null: the
   * link is not one we made, or was used already (each use moves the version on), or is
   * older than the last one used.
   */
  async unsubscribe(playerId: unknown, token: unknown): Promise<{ name: string } | null> {
    if (!this.unsubscribeKey || typeof playerId !== 'string' || !UUID.test(playerId) || typeof token !== 'string') return null;
    const player = await this.players.player(playerId);
    if (!player) return null;
    const expected = Buffer.from(this.unsubscribeToken(playerId, player.unsubscribeVersion));
    const given = Buffer.from(token);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    // Only if the version is still the one checked: two clicks at once turn mail off once.
    return this.players.unsubscribe(playerId, player.unsubscribeVersion);
  }

  // ---- fan-out: outbox rows to deliveries (the queue's `notify` task) ---------------------

  private name(game: GameRecord): string {
    const type = this.app.registry.type(game.type)?.name ?? game.type;
    return `${type}: ${game.players.map((p) => p.name || 'open seat').join(' vs ')}`;
  }

  /** The deliveries a commit implies, written with their jobs (again: nothing twice). */
  async fanOut(gameId: string, version: number, status: string): Promise<string[]> {
    const game = await this.app.store.game(gameId);
    if (!game) return [];
    const rows = await this.app.store.outbox(gameId, version);
    if (rows.length === 0) return [];
    const acted = await this.store.commandSeat(gameId, version);
    const at = rows[0]!.createdAt.toISOString();
    const summary = { id: game.id, type: game.type, status, version };
    const seatsOf = (playerId: string) => game.seats.filter((s) => s.kind === 'player' && s.playerId === playerId).map((s) => s.seat);
    const out: NewDelivery[] = [];

    if (this.options.secretKey) {
      for (const w of await this.store.listening(gameId, game.playerIds)) {
        const mine = seatsOf(w.playerId);
        for (const row of rows) {
          const event = webhookEventOf(row);
          if (!event || !w.events.includes(event)) continue;
          // "Your turn" is the webhook's player's turn only.
          if (event === 'YOUR_TURN' && (row.seat === null || !mine.includes(row.seat))) continue;
          const body: WebhookBody = { type: event, gameId, version, seat: event === 'YOUR_TURN' ? row.seat : null, game: summary, at };
          out.push({ id: deliveryId(w.id, row.id, event), channel: 'WEBHOOK', webhookId: w.id, playerId: w.playerId, gameId, event, seat: body.seat, version, body: body as never });
        }
      }
    }

    if (this.options.mail && this.unsubscribeKey) {
      for (const playerId of game.playerIds) {
        const player = await this.players.player(playerId);
        if (!player?.email || !player.emailVerified || !player.notifyByEmail) continue;
        const mine = seatsOf(playerId);
        for (const row of rows) {
          if (row.kind === 'GAME_ENDED') {
            out.push(this.mailDelivery(deliveryId('mail', playerId, row.id), playerId, game, 'GAME_OVER', null, version, this.gameOverMail(game, mine, player)));
          } else if (row.kind === 'SEAT_AWAITED' && row.seat && mine.includes(row.seat) && !(acted && mine.includes(acted))) {
            // At most one a game until the player acts (and none for a move they are making).
            if (!(await this.store.claimYourTurn(playerId, gameId, version, mine))) continue;
            const prompts = ((row.data?.prompts ?? []) as { prompt: string }[]).map((p) => p.prompt);
            out.push(this.mailDelivery(deliveryId('mail', playerId, row.id), playerId, game, 'YOUR_TURN', row.seat, version, this.yourTurnMail(game, row.seat, prompts, player)));
          }
        }
      }
    }
    return this.enqueue(out);
  }

  /**
   * DEADLINE_SOON for a game's seat (the clocks call this when a quarter of the time is
   * left): a webhook POST to its listeners and a mail to its player, once per game, seat and
   * version. Adds one job; the deliveries are written by it.
   */
  async deadlineSoon(gameId: string, seat: string, info: { version: number; deadline: Date }): Promise<void> {
    if (!this.app.queue) throw new AppError('INTERNAL', 'this process has no job queue');
    await this.app.queue.add(TASKS.deadline, { gameId, seat, version: info.version, deadline: info.deadline.toISOString() }, { key: `deadline-soon:${gameId}:${seat}:${info.version}` });
  }

  /** @internal The `notify-deadline` task. */
  async fanOutDeadline(gameId: string, seat: string, version: number, deadline: Date): Promise<string[]> {
    const game = await this.app.store.game(gameId);
    if (!game) return [];
    const holder = game.seats.find((s) => s.seat === seat);
    const playerId = holder?.kind === 'player' ? (holder.playerId ?? null) : null;
    const at = new Date().toISOString();
    const out: NewDelivery[] = [];
    if (this.options.secretKey) {
      for (const w of await this.store.listening(gameId, game.playerIds)) {
        if (!w.events.includes('DEADLINE_SOON') || w.playerId !== playerId) continue;
        const body: WebhookBody = { type: 'DEADLINE_SOON', gameId, version, seat, game: { id: game.id, type: game.type, status: game.status, version }, at };
        out.push({ id: deliveryId(w.id, gameId, seat, version, 'DEADLINE_SOON'), channel: 'WEBHOOK', webhookId: w.id, playerId, gameId, event: 'DEADLINE_SOON', seat, version, body: body as never });
      }
    }
    if (this.options.mail && this.unsubscribeKey && playerId) {
      const player = await this.players.player(playerId);
      if (player?.email && player.emailVerified && player.notifyByEmail) {
        const status = await (await this.app.read(gameId, { kind: 'player', playerId })).progress();
        const prompts = status.awaiting.filter((p) => p.seat === seat).map((p) => p.prompt);
        out.push(this.mailDelivery(deliveryId('mail', playerId, gameId, seat, version, 'DEADLINE_SOON'), playerId, game, 'DEADLINE_SOON', seat, version, this.deadlineMail(game, seat, prompts, deadline, player)));
      }
    }
    return this.enqueue(out);
  }

  private mailDelivery(id: string, playerId: string, game: GameRecord, event: WebhookEvent, seat: string | null, version: number, body: MailBody): NewDelivery {
    return { id, channel: 'MAIL', webhookId: null, playerId, gameId: game.id, event, seat, version, body: body as never };
  }

  private enqueue(out: NewDelivery[]): Promise<string[]> {
    // A delivery already fanned out goes before the fan-out of later commits (priority 0):
    // under load, each commit's POSTs then leave as soon as it is fanned out, rather than
    // after every pending commit has been.
    return this.store.enqueue(out, (d) =>
      d.channel === 'WEBHOOK'
        ? { task: TASKS.webhook, payload: { id: d.id }, maxAttempts: this.webhookAttempts, priority: DELIVERY_PRIORITY }
        : { task: TASKS.mail, payload: { id: d.id }, maxAttempts: this.options.mailAttempts ?? 10, priority: DELIVERY_PRIORITY },
    );
  }

  // ---- mails --------------------------------------------------------------------------

  private mail(game: GameRecord, player: PlayerRecord, subject: string, lines: string[]): MailBody {
    const link = this.gameUrl(game.id);
    const unsubscribe = this.unsubscribeUrl(player);
    const text = `${lines.join('\n')}\n\nOpen the game: ${link}\n\n--\nYou get this mail because you asked for mail about your games. Stop it: ${unsubscribe}\n`;
    const html = `<!doctype html><html><body>${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}<p><a href="${escapeHtml(link)}">Open the game</a></p><hr><p style="font-size:small">You get this mail because you asked for mail about your games. <a href="${escapeHtml(unsubscribe)}">Unsubscribe</a></p></body></html>`;
    return { subject, text, html };
  }

  private yourTurnMail(game: GameRecord, seat: string, prompts: string[], player: PlayerRecord): MailBody {
    const name = this.name(game);
    return this.mail(game, player, `Your turn: ${name}`, [
      `It is your turn (${seat}) in ${name}.`,
      prompts.length ? `The game waits for you to: ${prompts.join('; ')}` : 'The game waits for your decision.',
    ]);
  }

  private gameOverMail(game: GameRecord, seats: string[], player: PlayerRecord): MailBody {
    const name = this.name(game);
    const result = game.result;
    const winners = result?.winners ?? [];
    const outcome = winners.length === 0 ? 'It ended without a winner' : seats.some((s) => winners.includes(s)) ? 'You won' : `Won by ${winners.join(', ')}`;
    return this.mail(game, player, `Game over: ${name}`, [`${name} is over.`, `${outcome}${result?.reason ? ` (${result.reason})` : ''}.`, 'It waits for nothing more: the log, replay and export are open.']);
  }

  private deadlineMail(game: GameRecord, seat: string, prompts: string[], deadline: Date, player: PlayerRecord): MailBody {
    const name = this.name(game);
    return this.mail(game, player, `Deadline near: ${name}`, [
      `Your time to play ${seat} in ${name} runs out at ${deadline.toISOString().replace('T', ' ').slice(0, 16)} UTC.`,
      prompts.length ? `The game waits for you to: ${prompts.join('; ')}` : 'The game waits for your decision.',
      'If the time runs out, the game goes on without you (a timeout).',
    ]);
  }

  /** The verification code, sent through the queue (Players.codeSender). */
  async sendCode(mail: VerificationMail): Promise<void> {
    if (!this.options.mail || !this.app.queue) return;
    const html = `<!doctype html><html><body>${mail.text.split('\n').filter(Boolean).map((l) => `<p>${escapeHtml(l)}</p>`).join('')}</body></html>`;
    await this.app.queue.add(TASKS.mail, { message: { to: mail.to, subject: mail.subject, text: mail.text, html } }, { maxAttempts: this.options.mailAttempts ?? 10 });
  }

  // ---- the workers' side --------------------------------------------------------------

  /** @internal The delivery and its webhook, if it is still to be made. */
  async webhookDelivery(id: string): Promise<{ delivery: DeliveryRecord; webhook: WebhookRecord; secret: string } | null> {
    const delivery = await this.store.delivery(id);
    if (!delivery || delivery.status !== 'PENDING' || !delivery.webhookId) return null;
    const webhook = await this.store.get(delivery.webhookId);
    if (!webhook || webhook.disabledAt) {
      await this.store.attempted(id, { status: 'CANCELLED', error: webhook ? `the webhook was disabled: ${webhook.disabledReason}` : 'the webhook was deleted', attempt: false });
      return null;
    }
    return { delivery, webhook, secret: this.open(webhook) };
  }

  /** @internal One attempt's outcome; `last`: no attempt follows. */
  async webhookAttempted(delivery: DeliveryRecord, webhook: WebhookRecord, outcome: { ok: boolean; error?: string; last: boolean }): Promise<void> {
    if (outcome.ok) return this.store.webhookAttempted(delivery.id, webhook.id, true, { status: 'DELIVERED', error: null });
    await this.store.webhookAttempted(delivery.id, webhook.id, false, { status: outcome.last ? 'FAILED' : 'PENDING', error: outcome.error ?? 'failed' });
    if (outcome.last) {
      await this.store.disable(webhook.id, `disabled after delivery ${delivery.id} failed ${delivery.attempts + 1} times over about a day (last: ${outcome.error ?? 'failed'}); create it again to resume`);
    }
  }

  /** @internal The mail of a delivery, to its player's address now (null: not to be sent any more). */
  async mailOf(id: string): Promise<{ delivery: DeliveryRecord; to: string; mail: MailBody; unsubscribe: string } | null> {
    const delivery = await this.store.delivery(id);
    if (!delivery || delivery.status !== 'PENDING' || !delivery.playerId) return null;
    const player = await this.players.player(delivery.playerId);
    if (!player?.email || !player.emailVerified || !player.notifyByEmail) {
      await this.store.attempted(id, { status: 'CANCELLED', error: 'the player no longer wants mail (or has no verified address)', attempt: false });
      return null;
    }
    return { delivery, to: player.email, mail: delivery.body as unknown as MailBody, unsubscribe: this.unsubscribeUrl(player) };
  }
}

/** Which webhook event an outbox row is. */
function webhookEventOf(row: OutboxEntry): WebhookEvent | null {
  switch (row.kind) {
    case 'EVENTS_APPENDED':
      return 'EVENT_APPENDED';
    case 'GAME_STARTED':
      return 'GAME_STARTED';
    case 'GAME_ENDED':
      return 'GAME_OVER';
    case 'SEAT_AWAITED':
      return 'YOUR_TURN';
    default:
      return null;
  }
}
