/**
 * Notifications: what a commit's outbox rows imply for whom, as deliveries with stable ids
 * (a webhook POST signed as Standard Webhooks do, or a mail), made at least once: the
 * dispatcher (src/app/dispatch.ts) fans the outbox out and sends the webhooks' deliveries, the
 * job queue's workers send the mails (src/workers/notifications.ts).
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
import type { DeliveryRecord, GameRecord, GameStore, JobQueue, MessageRecord, NewDelivery, OutboxMark, PlayerRecord, PlayerStore, StoredOutboxEntry, WebhookRecord, WebhookStore } from './ports.ts';
import type { Reads } from './reads.ts';
import { priorityOf, TASKS } from './tasks.ts';
import { deadlineMail, escapeHtml, gameName, gameOverMail, handedToBotMail, messageMail, yourTurnMail, type MailBody, type MailLinks } from './mails.ts';
import { checkTarget, parseTarget } from './targets.ts';
import { deliveryId, WEBHOOK_EVENTS, webhookEventOf, webhookOut, type DeliveryOut, type NotificationOptions, type WebhookBody, type WebhookEvent, type WebhookOut } from './webhook-shapes.ts';

export { TASKS } from './tasks.ts';
export { signWebhook, WEBHOOK_EVENTS, type DeliveryOut, type NotificationOptions, type WebhookBody, type WebhookEvent, type WebhookOut } from './webhook-shapes.ts';

const MAX_WEBHOOKS = 20;
/** Outbox rows the dispatcher reads at a time. */
const TAIL_BATCH = 500;

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
  /** Failed fan-outs of a game's commits in the dispatcher's reads, by game and first row. */
  readonly #tailFailures = new Map<string, number>();

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

  // ---- fan-out: outbox rows to deliveries (the dispatcher's) ------------------------------

  private name(game: GameRecord): string {
    return gameName(this.registry.type(game.type)?.name ?? game.type, game);
  }

  private links(game: GameRecord, player: PlayerRecord): MailLinks {
    return { game: this.gameUrl(game.id), unsubscribe: this.unsubscribeUrl(player) };
  }


  /**
   * The dispatcher's fan-out (src/app/dispatch.ts): the outbox rows after its mark, of the games
   * someone listens to, into their deliveries, written with the mark moved on to the last row
   * read, in one statement (so a crash has the same rows fanned out again, into the same ids).
   * A commit is never split: a full read leaves its last commit for the next. `more`: the read
   * was full (more may follow at once).
   */
  async fanOutTail(limit = TAIL_BATCH): Promise<{ more: boolean; written: string[]; skipped: { gameId: string; rowId: string; error: string }[] }> {
    let rows = await this.store.tail(limit, this.options.mail && this.unsubscribeKey !== null);
    const skipped: { gameId: string; rowId: string; error: string }[] = [];
    if (rows.length === 0) return { more: false, written: [], skipped };
    const more = rows.length === limit;
    if (more) {
      const last = rows.at(-1)!;
      const whole = rows.filter((r) => !(r.gameId === last.gameId && r.version === last.version));
      if (whole.length > 0) rows = whole;
    }
    const games = new Map<string, StoredOutboxEntry[]>();
    for (const row of rows) if (row.listened) games.set(row.gameId, [...(games.get(row.gameId) ?? []), row]);
    const out: NewDelivery[] = [];
    // The games and their webhooks, each read once for the whole tail.
    const records = games.size ? await this.games.listGames({ ids: [...games.keys()] }, games.size) : [];
    const found = new Map(records.map((g) => [g.id, g]));
    const hooks = this.options.secretKey ? await this.store.listening(records) : new Map<string, WebhookRecord[]>();
    for (const [gameId, list] of games) {
      const game = found.get(gameId);
      if (!game) continue;
      // A commit's status was the game's now, unless the game ended at a later commit: one of
      // these, or (a finished game whose end is not among them) one after them.
      const ended = list.find((r) => r.kind === 'GAME_ENDED')?.version ?? (game.status === 'FINISHED' ? Infinity : undefined);
      const commits = new Map<number, StoredOutboxEntry[]>();
      for (const row of list) commits.set(row.version, [...(commits.get(row.version) ?? []), row]);
      try {
        out.push(...(await this.commitDeliveries(game, hooks.get(gameId) ?? [], [...commits].map(([v, r]) => ({ version: v, status: ended !== undefined && v < ended ? 'ACTIVE' : game.status, rows: r })))));
      } catch (error) {
        // A game whose commits cannot be fanned out (a fault of ours) must not hold back every
        // other game's: the read fails twice (tried again), and the third time they are skipped.
        const key = `${gameId}:${list[0]!.id}`;
        const n = (this.#tailFailures.get(key) ?? 0) + 1;
        if (n < 3) {
          this.#tailFailures.set(key, n);
          throw error;
        }
        this.#tailFailures.delete(key);
        skipped.push({ gameId, rowId: list[0]!.id, error: (error as Error).message });
      }
    }
    return { more, written: await this.enqueue(out, rows.at(-1)!.mark), skipped };
  }

  /** The deliveries of some commits of a game, in their order, to the webhooks listening to it (`hooks`) and the players who want mail. */
  private async commitDeliveries(game: GameRecord, hooks: WebhookRecord[], commits: { version: number; status: string; rows: StoredOutboxEntry[] }[]): Promise<NewDelivery[]> {
    const gameId = game.id;
    const seatsOf = (playerId: string) => game.seats.filter((s) => s.kind === 'player' && s.playerId === playerId).map((s) => s.seat);
    const out: NewDelivery[] = [];
    const wantMail = this.options.mail && this.unsubscribeKey ? (await this.players.players(game.playerIds)).filter((p) => wantsMail(p)) : [];
    for (const { version, status, rows } of commits) {
      const at = rows[0]!.createdAt.toISOString();
      const summary = { id: game.id, type: game.type, status, version };
      for (const w of hooks) {
        const mine = seatsOf(w.playerId);
        for (const row of rows) {
          const event = webhookEventOf(row);
          if (!event || !w.events.includes(event)) continue;
          // A webhook hears the commits made once it exists (the dispatcher may read a commit after a webhook created since).
          if (w.createdAt > row.createdAt) continue;
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
      for (const w of (await this.store.listening([game])).get(gameId) ?? []) {
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
      for (const w of (await this.store.listening([{ id: game.id, playerIds: recipients }])).get(game.id) ?? []) {
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

  private enqueue(out: NewDelivery[], mark?: OutboxMark): Promise<string[]> {
    return this.store.enqueue(out, { mail: (d) => ({ task: TASKS.mail, payload: { id: d.id }, maxAttempts: this.options.mailAttempts ?? 10, priority: priorityOf(TASKS.mail) }) }, mark);
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
   * @internal A failed attempt (the last allowed: FAILED, else due again later, after
   * e^attempts s); true if the webhook was disabled by it. Successes are recorded together
   * (WebhookStore.sendable).
   */
  async webhookFailed(delivery: DeliveryRecord, webhook: WebhookRecord, outcome: { error?: string }): Promise<boolean> {
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
