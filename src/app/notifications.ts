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
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { GameRegistry } from '../domain/kernel/index.ts';
import type { Actor } from './actors.ts';
import type { MailPlay } from './mail-play.ts';
import { AppError } from './errors.ts';
import { playerOf, wantsMail, type VerificationMail } from './players.ts';
import { notifyGate, webhookGate } from './planners.ts';
import type { DeliveryRecord, GameRecord, GameStore, JobQueue, JobSpec, MessageRecord, NewDelivery, PlayerRecord, PlayerStore, StoredOutboxEntry, WebhookRecord, WebhookStore } from './ports.ts';
import type { Reads } from './reads.ts';
import { priorityOf, TASKS } from './tasks.ts';
import { deadlineMail, escapeHtml, gameName, gameOverMail, handedToBotMail, messageMail, yourTurnMail, type MailBody, type MailLinks } from './mails.ts';
import { checkTarget, parseTarget } from './targets.ts';
import { deliveryId, WEBHOOK_EVENTS, webhookEventOf, webhookOut, type DeliveryOut, type NotificationOptions, type WebhookBody, type WebhookEvent, type WebhookOut } from './webhook-shapes.ts';

export { TASKS } from './tasks.ts';
export { signWebhook, WEBHOOK_EVENTS, type DeliveryOut, type NotificationOptions, type WebhookBody, type WebhookEvent, type WebhookOut } from './webhook-shapes.ts';

const MAX_WEBHOOKS = 20;
/** A gated job (a game's fan-out, a webhook's sender) must not give up: its gate stays open until it ends. */
const GATED_ATTEMPTS = 1000;
/** A gate open this long with no job of its key is stuck (healGates). */
export const GATE_STUCK_AFTER_S = 600;
/**
 * Deliveries a sender reads at a time, and how much one run sends before it lets the other
 * webhooks' senders through (its next run a new job behind theirs; its gate stays open): a
 * busy webhook must not hold a runner while the lane's other webhooks wait.
 */
const SENDER_BATCH = 25;
const SENDER_RUN_DELIVERIES = 50;
const SENDER_RUN_MS = 1000;
/** Rounds of one fan-out run before it lets the other games' fan-outs through (the same way). */
const FANOUT_ROUNDS = 5;

/** One POST of a delivery, signed (the workers' side: src/workers/notifications.ts). */
export type WebhookSend = (webhook: WebhookRecord, secret: string, delivery: DeliveryRecord) => Promise<{ ok: boolean; error?: string }>;

/** The result a GAME_ENDED row recorded (the game's, for rows written before it did). */
function resultOf(row: { data?: Record<string, unknown> | null }, game: GameRecord): { winners: string[]; reason: string } {
  const r = (row.data?.result ?? game.result) as { winners?: string[]; reason?: string } | null | undefined;
  return { winners: [...(r?.winners ?? [])], reason: r?.reason ?? 'the game ended' };
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type { MailBody } from './mails.ts';

export class Notifications {
  private readonly unsubscribeKey: Buffer | null;

  constructor(
    readonly store: WebhookStore,
    private readonly players: PlayerStore,
    private readonly games: GameStore,
    private readonly reads: Reads,
    private readonly registry: GameRegistry,
    private readonly jobs: JobQueue,
    private readonly mailPlay: MailPlay,
    readonly options: NotificationOptions,
  ) {
    this.unsubscribeKey = options.secretKey ? Buffer.from(hkdfSync('sha256', options.secretKey, Buffer.alloc(0), 'unsubscribe links', 32)) : null;
  }

  get webhookAttempts() {
    return this.options.webhookAttempts ?? 14;
  }

  // ---- webhooks: the player's API --------------------------------------------------

  private player(actor: Actor) {
    return playerOf(this.players, actor);
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
      const game = await this.games.game(input.gameId);
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
    return gameName(this.registry.type(game.type)?.name ?? game.type, game);
  }

  private links(game: GameRecord, player: PlayerRecord): MailLinks {
    return { game: this.gameUrl(game.id), unsubscribe: this.unsubscribeUrl(player) };
  }


  /**
   * The `notify` task: the deliveries of the game's commits not fanned out yet, written with
   * their jobs (again: nothing twice). One such job a game at a time (its notify gate, opened
   * by the commit that added it): it fans out every outbox row after the gate's `through`,
   * moves `through` on with the deliveries, and ends only when a last look, with the gate
   * locked, finds no row left (a commit after that opens the gate again with a new job).
   * `gated` false: a job of an older release, for its one commit (`version`, `status`).
   */
  async fanOut(gameId: string, version: number, status: string, gated = false): Promise<string[]> {
    if (!gated) {
      const game = await this.games.game(gameId);
      const rows = game ? await this.games.outbox(gameId, version) : [];
      if (!game || rows.length === 0) return [];
      return this.enqueue(await this.commitDeliveries(game, [{ version, status, rows }]));
    }
    const written: string[] = [];
    for (let round = 0; ; round++) {
      const game = await this.games.game(gameId);
      if (!game) return written;
      const pending = await this.store.unnotified(gameId, game.version);
      if (!pending) return written; // the gate is not open: no fan-out of ours is due
      if (pending.rows.length === 0) {
        if (await this.store.settleNotify(gameId)) return written;
        continue;
      }
      // A commit's status was the game's, unless the game ended at a later one of these.
      const ended = pending.rows.find((r) => r.kind === 'GAME_ENDED')?.version;
      const commits = new Map<number, StoredOutboxEntry[]>();
      for (const row of pending.rows) commits.set(row.version, [...(commits.get(row.version) ?? []), row]);
      const list = [...commits].map(([v, rows]) => ({ version: v, status: ended !== undefined && v < ended ? 'ACTIVE' : game.status, rows }));
      const through = Math.max(...commits.keys());
      written.push(...(await this.enqueue(await this.commitDeliveries(game, list), { gameId, through, lastRowId: pending.rows.at(-1)!.id })));
      if (round + 1 >= FANOUT_ROUNDS) {
        // A game this busy lets the other games' fan-outs through: its next run is a new job (the gate stays open).
        await this.jobs.add(TASKS.notify, { gameId, version: through, status: game.status, gated: true }, { key: notifyGate(gameId), maxAttempts: GATED_ATTEMPTS, priority: priorityOf(TASKS.notify) });
        return written;
      }
      // Its close looks for rows after the mark just moved on (with the gate locked): none, the run ends
      // without reading the game again; some, the next round takes them.
      if (await this.store.settleNotify(gameId)) return written;
    }
  }

  /** The deliveries of some commits of a game, in their order (the webhooks listening read once). */
  private async commitDeliveries(game: GameRecord, commits: { version: number; status: string; rows: StoredOutboxEntry[] }[]): Promise<NewDelivery[]> {
    const gameId = game.id;
    const seatsOf = (playerId: string) => game.seats.filter((s) => s.kind === 'player' && s.playerId === playerId).map((s) => s.seat);
    const out: NewDelivery[] = [];
    const hooks = this.options.secretKey ? await this.store.listening(gameId, game.playerIds) : [];
    const wantMail = this.options.mail && this.unsubscribeKey ? (await this.players.players(game.playerIds)).filter((p) => wantsMail(p)) : [];
    for (const { version, status, rows } of commits) {
      const at = rows[0]!.createdAt.toISOString();
      const summary = { id: game.id, type: game.type, status, version };
      for (const w of hooks) {
        const mine = seatsOf(w.playerId);
        for (const row of rows) {
          const event = webhookEventOf(row);
          if (!event || !w.events.includes(event)) continue;
          // "Your turn" is the webhook's player's turn only.
          if (event === 'YOUR_TURN' && (row.seat === null || !mine.includes(row.seat))) continue;
          const body: WebhookBody = { type: event, gameId, version, seat: event === 'YOUR_TURN' || event === 'SEAT_HANDED_TO_BOT' ? row.seat : null, game: summary, at, ...(event === 'GAME_OVER' ? { result: resultOf(row, game) } : {}) };
          out.push({ id: deliveryId(w.id, row.id, event), channel: 'WEBHOOK', webhookId: w.id, playerId: w.playerId, gameId, event, seat: body.seat, version, body: body as never });
        }
      }
      if (wantMail.length === 0) continue;
      const acted = await this.store.commandSeat(gameId, version);
      for (const player of wantMail) {
        const playerId = player.id;
        const mine = seatsOf(playerId);
        for (const row of rows) {
          if (row.kind === 'SEAT_HANDED_TO_BOT' && row.seat) {
            out.push(this.mailDelivery(deliveryId('mail', playerId, row.id), playerId, game, 'SEAT_HANDED_TO_BOT', row.seat, version, handedToBotMail(this.links(game, player), this.name(game), row.seat, mine.includes(row.seat) || game.seats.some((s) => s.seat === row.seat && s.handedFrom === playerId))));
          } else if (row.kind === 'GAME_ENDED') {
            out.push(this.mailDelivery(deliveryId('mail', playerId, row.id), playerId, game, 'GAME_OVER', null, version, gameOverMail(this.links(game, player), this.name(game), game, mine)));
          } else if (row.kind === 'SEAT_AWAITED' && row.seat && mine.includes(row.seat) && !(acted && mine.includes(acted)) && !player.emailDigest) {
            // With the daily digest on, the games waiting for them come once a day instead (Digests).
            // At most one a game until the player acts (and none for a move they are making).
            if (!(await this.store.claimYourTurn(playerId, gameId, version, mine))) continue;
            const prompts = ((row.data?.prompts ?? []) as { prompt: string }[]).map((p) => p.prompt);
            const body = await this.withOrders(yourTurnMail(this.links(game, player), this.name(game), row.seat, prompts), game, playerId, row.seat, version);
            out.push(this.mailDelivery(deliveryId('mail', playerId, row.id), playerId, game, 'YOUR_TURN', row.seat, version, body));
          }
        }
      }
    }
    return out;
  }

  /**
   * DEADLINE_SOON for a game's seat (the clocks call this when a quarter of the time is
   * left, and again when an absence moved the deadline after that): a webhook POST to its
   * listeners and a mail to its player, once per game, seat, version and deadline. Adds one
   * job; the deliveries are written by it.
   */
  async deadlineSoon(gameId: string, seat: string, info: { version: number; deadline: Date }): Promise<void> {
    await this.jobs.add(TASKS.deadlineNotice, { gameId, seat, version: info.version, deadline: info.deadline.toISOString() }, { key: `deadline-soon:${gameId}:${seat}:${info.version}:${info.deadline.getTime()}`, priority: priorityOf(TASKS.deadlineNotice) });
  }

  /**
   * @internal The `notify-deadline` task. The deliveries' ids name the deadline: a warning
   * for a deadline an absence moved is another delivery, one for the same deadline (a rerun,
   * the job added again) is none.
   */
  async fanOutDeadline(gameId: string, seat: string, version: number, deadline: Date): Promise<string[]> {
    const game = await this.games.game(gameId);
    if (!game) return [];
    const holder = game.seats.find((s) => s.seat === seat);
    const playerId = holder?.kind === 'player' ? (holder.playerId ?? null) : null;
    const at = new Date().toISOString();
    const out: NewDelivery[] = [];
    if (this.options.secretKey) {
      for (const w of await this.store.listening(gameId, game.playerIds)) {
        if (!w.events.includes('DEADLINE_SOON') || w.playerId !== playerId) continue;
        const body: WebhookBody = { type: 'DEADLINE_SOON', gameId, version, seat, game: { id: game.id, type: game.type, status: game.status, version }, at };
        out.push({ id: deliveryId(w.id, gameId, seat, version, deadline.getTime(), 'DEADLINE_SOON'), channel: 'WEBHOOK', webhookId: w.id, playerId, gameId, event: 'DEADLINE_SOON', seat, version, body: body as never });
      }
    }
    if (this.options.mail && this.unsubscribeKey && playerId) {
      const player = await this.players.player(playerId);
      if (wantsMail(player)) {
        const status = await (await this.reads.read(gameId, { kind: 'player', playerId })).progress();
        const prompts = status.awaiting.filter((p) => p.seat === seat).map((p) => p.prompt);
        const body = await this.withOrders(deadlineMail(this.links(game, player), this.name(game), seat, prompts, deadline), game, playerId, seat, version);
        out.push(this.mailDelivery(deliveryId('mail', playerId, gameId, seat, version, deadline.getTime(), 'DEADLINE_SOON'), playerId, game, 'DEADLINE_SOON', seat, version, body));
      }
    }
    return this.enqueue(out);
  }

  /**
   * MESSAGE (the `notify-message` task): a webhook POST and a mail to each of the message's
   * recipients, and to nobody else: `recipients` are the players holding a seat it is
   * addressed to (src/app/messages.ts decides), never its sender. Once per recipient.
   */
  async fanOutMessage(game: GameRecord, message: MessageRecord, recipients: string[]): Promise<string[]> {
    const out: NewDelivery[] = [];
    const at = message.at.toISOString();
    const shown = { id: message.id, from: message.from, to: message.to, text: message.text, at };
    if (this.options.secretKey) {
      for (const w of await this.store.listening(game.id, recipients)) {
        if (!w.events.includes('MESSAGE') || !recipients.includes(w.playerId)) continue;
        const body: WebhookBody = { type: 'MESSAGE', gameId: game.id, version: game.version, seat: message.from, game: { id: game.id, type: game.type, status: game.status, version: game.version }, at, message: shown };
        out.push({ id: deliveryId(w.id, message.id, 'MESSAGE'), channel: 'WEBHOOK', webhookId: w.id, playerId: w.playerId, gameId: game.id, event: 'MESSAGE', seat: message.from, version: game.version, body: body as never });
      }
    }
    if (this.options.mail && this.unsubscribeKey) {
      for (const player of await this.players.players(recipients)) {
        if (!wantsMail(player)) continue;
        out.push(this.mailDelivery(deliveryId('mail', player.id, message.id, 'MESSAGE'), player.id, game, 'MESSAGE', message.from, game.version, messageMail(this.links(game, player), this.name(game), message)));
      }
    }
    return this.enqueue(out);
  }

  /**
   * Play by mail on: the mail also shows the position in words and the numbered orders, and
   * answers go to its own Reply-To (the seat's reply address).
   */
  private async withOrders(body: MailBody, game: GameRecord, playerId: string, seat: string, version: number): Promise<MailBody> {
    const part = await this.mailPlay.turnPart(game, playerId, seat, version);
    if (!part) return body;
    return { ...body, text: `${part.text}\n${body.text}`, replyTo: part.replyTo, messageId: part.messageId };
  }

  private mailDelivery(id: string, playerId: string, game: GameRecord, event: WebhookEvent, seat: string | null, version: number, body: MailBody): NewDelivery {
    return { id, channel: 'MAIL', webhookId: null, playerId, gameId: game.id, event, seat, version, body: body as never };
  }

  private enqueue(out: NewDelivery[], notified?: { gameId: string; through: number; lastRowId?: string }): Promise<string[]> {
    return this.store.enqueue(out, {
      mail: (d) => ({ task: TASKS.mail, payload: { id: d.id }, maxAttempts: this.options.mailAttempts ?? 10, priority: priorityOf(TASKS.mail) }),
      // One sender a webhook (its gate): one delivery in flight per target, a slow one holds one runner at most.
      webhook: (webhookId) => this.senderJob(webhookId),
    }, notified);
  }

  /** The job that sends a webhook's deliveries (one at a time per webhook: added by whoever opens its gate). */
  private senderJob(webhookId: string): JobSpec {
    return { task: TASKS.webhook, payload: { webhookId }, key: webhookGate(webhookId), maxAttempts: GATED_ATTEMPTS, priority: priorityOf(TASKS.webhook) };
  }

  /** The verification code, sent through the queue (Players.codeSender). */
  /** Mail is configured (SMTP): verification codes and mail notifications go out (Query.serviceInfo.mailEnabled). */
  get mailEnabled(): boolean {
    return this.options.mail;
  }

  async sendCode(mail: VerificationMail): Promise<void> {
    if (!this.options.mail) return;
    const html = `<!doctype html><html><body>${mail.text.split('\n').filter(Boolean).map((l) => `<p>${escapeHtml(l)}</p>`).join('')}</body></html>`;
    await this.jobs.add(TASKS.mail, { message: { to: mail.to, subject: mail.subject, text: mail.text, html } }, { maxAttempts: this.options.mailAttempts ?? 10, priority: priorityOf(TASKS.mail) });
  }

  // ---- the workers' side --------------------------------------------------------------

  /**
   * @internal The `webhook` task. `{ webhookId }`: the webhook's sender (the one job its gate
   * lets run): its due deliveries one at a time in the order fanned out, each recorded as it
   * is made (a crash sends again only what was not recorded, with the same webhook-id), until
   * a last look with the gate locked finds none due. A failed attempt is due again after
   * e^attempts seconds (as the queue's own backoff), while the others go on; when only such
   * are left, the gate closes with a timer job for the first of them. `{ webhookId, wake }`:
   * that timer; `{ id }`: a delivery's job of an older release. Both only wake the sender.
   */
  async webhookTask(payload: Record<string, unknown>, send: WebhookSend): Promise<void> {
    if (typeof payload.id === 'string') {
      const delivery = await this.store.delivery(payload.id);
      if (delivery?.status === 'PENDING' && delivery.webhookId) await this.store.wake(delivery.webhookId, this.senderJob(delivery.webhookId));
      return;
    }
    const webhookId = String(payload.webhookId);
    if (payload.wake) return this.store.wake(webhookId, this.senderJob(webhookId));
    const started = Date.now();
    let sent = 0;
    // Successes not recorded yet: recorded with the next read, or by the statement that ends the
    // run (one statement a batch, not one a delivery). A crash before sends them again, with
    // the same webhook-id: at least once, as always.
    let delivered: string[] = [];
    // Before a failure (it counts in a row after them) and before yielding: record them alone.
    const record = async () => {
      if (delivered.length > 0) await this.store.sending(webhookId, 0, delivered.splice(0));
    };
    for (;;) {
      const { webhook, due: batch } = await this.store.sending(webhookId, SENDER_BATCH, delivered.splice(0));
      if (!webhook || webhook.disabledAt) {
        await this.store.cancelPending(webhookId, webhook ? `the webhook was disabled: ${webhook.disabledReason}` : 'the webhook was deleted');
      } else if (batch.length > 0) {
        const secret = this.open(webhook);
        let disabled = false;
        for (const delivery of batch) {
          const outcome = await send(webhook, secret, delivery);
          sent++;
          if (outcome.ok) {
            delivered.push(delivery.id);
            continue;
          }
          await record();
          if ((disabled = await this.webhookFailed(delivery, webhook, outcome))) break; // the rest are cancelled by the next read
        }
        if (sent >= SENDER_RUN_DELIVERIES || Date.now() - started >= SENDER_RUN_MS) {
          // A busy webhook lets the others through: its next run is a new job (the gate stays open).
          await record();
          await this.jobs.add(TASKS.webhook, { webhookId }, { key: webhookGate(webhookId), maxAttempts: GATED_ATTEMPTS, priority: priorityOf(TASKS.webhook) });
          return;
        }
        // A full batch may have more behind it (read next); a short one was all that was due at
        // the read, and the settle below says 'due' if more came since.
        if (disabled || batch.length === SENDER_BATCH) continue;
      }
      const state = await this.store.settleWebhook(webhookId, { task: TASKS.webhook, payload: { webhookId, wake: true }, key: `webhook-timer:${webhookId}`, maxAttempts: GATED_ATTEMPTS, priority: priorityOf(TASKS.webhook) }, delivered.splice(0));
      if (state !== 'due') return;
    }
  }

  /**
   * Gates stuck open (their job gone: removed by hand, or out of attempts) get their job again,
   * so a game's or a webhook's notifications are never held back for good. Each process running
   * workers asks every minute (src/server.ts); the job takes up where the gate's mark says (two
   * processes healing at once heal a gate once: WebhookStore.healGates). The gates healed.
   */
  healGates(olderThanSeconds = GATE_STUCK_AFTER_S): Promise<string[]> {
    return this.store.healGates(olderThanSeconds, (key): JobSpec | null => {
      const id = key.slice(key.indexOf(':') + 1);
      if (key === notifyGate(id)) return { task: TASKS.notify, payload: { gameId: id, version: 0, status: '', gated: true }, key, maxAttempts: GATED_ATTEMPTS, priority: priorityOf(TASKS.notify) };
      if (key === webhookGate(id)) return { task: TASKS.webhook, payload: { webhookId: id }, key, maxAttempts: GATED_ATTEMPTS, priority: priorityOf(TASKS.webhook) };
      return null;
    });
  }

  /**
   * @internal A failed attempt (the last allowed: FAILED, else due again later); true if the
   * webhook was disabled by it. Successes are recorded together (WebhookStore.sending).
   */
  private async webhookFailed(delivery: DeliveryRecord, webhook: WebhookRecord, outcome: { error?: string }): Promise<boolean> {
    const attempts = delivery.attempts + 1;
    const last = attempts >= this.webhookAttempts;
    const error = outcome.error ?? 'failed';
    const run = await this.store.webhookFailed(delivery.id, webhook.id, { status: last ? 'FAILED' : 'PENDING', error, ...(last ? {} : { retryAfterSeconds: Math.exp(Math.min(10, attempts)) }) });
    const limit = this.options.webhookDisableAfter ?? { failures: 10, ms: 600_000 };
    const reason = last
      ? `disabled after delivery ${delivery.id} failed ${attempts} times (last: ${error}); create it again to resume`
      : run.failures >= limit.failures && run.failingForMs >= limit.ms
        ? `disabled after ${run.failures} failed attempts in a row over ${Math.round(run.failingForMs / 60_000)} min (last: ${error}); create it again to resume`
        : null;
    if (!reason || !(await this.store.disable(webhook.id, reason))) return false;
    await this.tellDisabled(webhook, reason);
    return true;
  }

  /** The owner of a webhook just disabled is told by mail (a verified address; the API shows it too: enabled false, disabledReason). */
  private async tellDisabled(webhook: WebhookRecord, reason: string): Promise<void> {
    if (!this.options.mail) return;
    const player = await this.players.player(webhook.playerId);
    if (!player?.email || !player.emailVerified) return;
    const text = `Your webhook to ${webhook.url} was ${reason}.\n\nIts pending deliveries are cancelled. See your webhooks at ${this.options.publicUrl.replace(/\/$/, '')}/api/me/webhooks.\n`;
    await this.jobs.add(TASKS.mail, { message: { to: player.email, subject: 'Your webhook was disabled', text } }, { maxAttempts: this.options.mailAttempts ?? 10, priority: priorityOf(TASKS.mail) });
  }

  /** @internal The mail of a delivery, to its player's address now (null: not to be sent any more). */
  async mailOf(id: string): Promise<{ delivery: DeliveryRecord; to: string; mail: MailBody; unsubscribe: string } | null> {
    const delivery = await this.store.delivery(id);
    if (!delivery || delivery.status !== 'PENDING' || !delivery.playerId) return null;
    const player = await this.players.player(delivery.playerId);
    if (!wantsMail(player)) {
      await this.store.attempted(id, { status: 'CANCELLED', error: 'the player no longer wants mail (or has no verified address)', attempt: false });
      return null;
    }
    const unsubscribe = this.unsubscribeUrl(player);
    const written = delivery.body as unknown as MailBody;
    // Written at the fan-out: a link spent since (unsubscribed, then mail on again) answers 404, so the one now takes its place.
    return { delivery, to: player.email, mail: { ...written, ...withLink(written, written.unsubscribe, unsubscribe) }, unsubscribe };
  }

  /**
   * @internal A `mail` job naming its player (the digest) as it goes out now: to their
   * verified address then, and with their unsubscribe link then in place of `link`, the one it
   * was written with (used since, it would answer 404); null when they no longer want it (mail
   * off, `digest` and the digest off, no verified address). Asked at send time, as `mailOf` is.
   */
  async mailNow<M extends { to: string; text: string; html?: string; headers?: Record<string, string> }>(playerId: string, digest: boolean, message: M, link?: string): Promise<M | null> {
    const player = await this.players.player(playerId);
    if (!wantsMail(player, digest)) return null;
    return { ...message, to: player.email, ...withLink(message, link, this.unsubscribeKey ? this.unsubscribeUrl(player) : undefined) };
  }
}

/** A mail's text, HTML and headers with the unsubscribe link `was` (as written) replaced by `now` (as it is when sent), in plain and in HTML-escaped form. */
function withLink<M extends { text: string; html?: string; headers?: Record<string, string> }>(message: M, was: string | undefined, now: string | undefined): Pick<M, 'text' | 'html' | 'headers'> {
  const swap = (s: string) => (was && now && was !== now ? s.replaceAll(was, now).replaceAll(escapeHtml(was), escapeHtml(now)) : s);
  return {
    text: swap(message.text),
    ...(message.html === undefined ? {} : { html: swap(message.html) }),
    ...(message.headers === undefined ? {} : { headers: Object.fromEntries(Object.entries(message.headers).map(([k, v]) => [k, swap(v)])) }),
  } as Pick<M, 'text' | 'html' | 'headers'>;
}
