/**
 * The daily digest and the calendar feed (docs/api.md, "Absence, digests, calendars").
 *
 * Digest. A player with `emailDigest` (and mail on, a verified address) gets no your-turn
 * mail (Notifications skips it); instead, once a day at DIGEST_TIME (UTC), one mail listing
 * every game that waits for them, each with the position in words, its numbered orders and
 * its own reply address (the play-by-mail parts, MailPlay.turnPart). The `digest_day` job
 * plans one `digest` job per such player (digestPlanner, src/app/planners.ts) and the next
 * day's `digest_day`; each `digest` job writes its mail job in the statement that records
 * the player's day (DigestStore.record), so a day's digest goes out once, however many
 * processes plan or run it. The mail job names the player: it is sent only if they still
 * want the digest when it runs, to their verified address then.
 *
 * Calendar. `me.calendarUrl` is `<PUBLIC_URL>/api/calendar/<token>.ics`, the token an HMAC
 * of the player's id and token generation (stored only as its sha256): the same URL each
 * time it is asked for, refused (404) once any of the player's tokens is revoked (the
 * generation moves on with it), after which `calendarUrl` gives a new one. The feed has one
 * event per current deadline of the player's seats, its UID the game, the seat and the
 * version at which the seat became awaited: one decision keeps its UID while others move, so
 * calendar apps update the event rather than add another.
 */
import { createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import ical from 'ical-generator';
import { seatsHeld, type Actor } from './actors.ts';
import type { MailPlay } from './mail-play.ts';
import { escapeHtml } from './mails.ts';
import type { Notifications } from './notifications.ts';
import { digestDayKey, digestPlanner } from './planners.ts';
import { playerOf, wantsMail } from './players.ts';
import type { ClockStore, DigestStore, GameRecord, JobQueue, PlayerStore } from './ports.ts';
import type { Page, Reads } from './reads.ts';
import { priorityOf, TASKS } from './tasks.ts';

export interface DigestOptions {
  /** "HH:MM", UTC: when each day's digest goes out (DIGEST_TIME, default 07:00). */
  time: string;
  publicUrl: string;
  /** Calendar tokens are derived from it (null: no calendar feed). */
  secretKey: Buffer | null;
  /** Mail is on (otherwise no digest is planned). */
  mail: boolean;
}

/** One game of a digest: what the mail says of it. */
export interface DigestEntry {
  gameId: string;
  name: string;
  seat: string;
  url: string;
  prompts: string[];
  deadline: string | null;
  /** The position and numbered orders (play by mail on), else null. */
  orders: string | null;
  replyTo: string | null;
  /** The Message-ID a number in an answer refers to (MailPlay's `turn.<game>.<seat>.<version>`). */
  messageId: string | null;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const TOKEN = /^[0-9a-f]{40}$/;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The next time of day `time` (HH:MM UTC) at or after `now`, and its day. */
export function nextDigest(now: Date, time: string): { day: string; runAt: Date } {
  const [h, m] = time.split(':').map(Number) as [number, number];
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), h, m));
  if (at.getTime() < now.getTime()) at.setUTCDate(at.getUTCDate() + 1);
  return { day: at.toISOString().slice(0, 10), runAt: at };
}

/** The day after `day` (YYYY-MM-DD) at `time`. */
export function dayAfter(day: string, time: string): { day: string; runAt: Date } {
  const [h, m] = time.split(':').map(Number) as [number, number];
  const at = new Date(`${day}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + 1);
  at.setUTCHours(h, m);
  return { day: at.toISOString().slice(0, 10), runAt: at };
}

/** The digest's text and HTML: every game that waits for the player. */
export function digestMail(day: string, entries: DigestEntry[], unsubscribe: string): { subject: string; text: string; html: string } {
  const subject = `Your games, ${day}: ${entries.length} waiting for you`;
  const blocks = entries.map((e, i) => [
    `Game ${i + 1}: ${e.name}, you play ${e.seat}`,
    `   ${e.prompts.length ? `It waits for you to: ${e.prompts.join('; ')}` : 'It waits for your decision.'}`,
    ...(e.deadline ? [`   Deadline: ${e.deadline.replace('T', ' ').slice(0, 16)} UTC`] : []),
    `   Open it: ${e.url}`,
    ...(e.replyTo ? [`   Orders for this game go to its own address: ${e.replyTo}`] : []),
    ...(e.orders ? ['', ...e.orders.trimEnd().split('\n').map((l) => (l ? `   ${l}` : ''))] : []),
  ].join('\n'));
  const intro = [
    `${entries.length === 1 ? 'One game waits' : `${entries.length} games wait`} for you today.`,
    'This is your daily digest (emailDigest): it replaces the mail each time it becomes your turn.',
    ...(entries.some((e) => e.replyTo) ? ["To play a game, send your orders to that game's own address (not to this mail's sender): a number from its list works as it does in an answer to a your-turn mail."] : []),
  ];
  const text = [...intro, '', ...blocks.flatMap((b) => [b, '']), '--', `Turn mail off: ${unsubscribe}`, ''].join('\n');
  const html = `<!doctype html><html><body>${intro.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}${entries
    .map((e, i) => `<h3>Game ${i + 1}: ${escapeHtml(e.name)}, you play ${escapeHtml(e.seat)}</h3><p>${escapeHtml(e.prompts.join('; ') || 'It waits for your decision.')}</p>${e.deadline ? `<p>Deadline: ${escapeHtml(e.deadline)}</p>` : ''}<p><a href="${escapeHtml(e.url)}">Open the game</a>${e.replyTo ? ` · orders to <a href="mailto:${escapeHtml(e.replyTo)}">${escapeHtml(e.replyTo)}</a>` : ''}</p>${e.orders ? `<pre>${escapeHtml(e.orders)}</pre>` : ''}`)
    .join('')}<hr><p style="font-size:small"><a href="${escapeHtml(unsubscribe)}">Unsubscribe</a></p></body></html>`;
  return { subject, text, html };
}

export class Digests {
  private readonly calendarKey: Buffer | null;

  constructor(
    private readonly store: DigestStore,
    private readonly players: PlayerStore,
    private readonly reads: Reads,
    private readonly clocks: ClockStore,
    private readonly mailPlay: MailPlay,
    private readonly notifications: Notifications,
    private readonly jobs: JobQueue,
    readonly options: DigestOptions,
  ) {
    this.calendarKey = options.secretKey ? Buffer.from(hkdfSync('sha256', options.secretKey, Buffer.alloc(0), 'calendar feeds', 32)) : null;
  }

  // ---- the digest ------------------------------------------------------------------------

  /**
   * At start: the next `digest_day` job, unless one is there already (keyed; kept as it is, so
   * a day missed while no process ran runs at once, and one running now adds the next itself).
   * Mail off: none.
   */
  async schedule(now = new Date()): Promise<{ day: string; runAt: Date } | null> {
    if (!this.options.mail) return null;
    const next = nextDigest(now, this.options.time);
    await this.jobs.add(TASKS.digestDay, { day: next.day }, { key: digestDayKey, runAt: next.runAt, maxAttempts: 10, priority: priorityOf(TASKS.digestDay), keyMode: 'keep' });
    return next;
  }

  /** The `digest_day` task: one `digest` job per player who wants it, then the next day's. Returns the players planned. */
  async day(day: string, now = new Date()): Promise<string[]> {
    if (!DAY.test(day)) throw new Error(`digest_day: "${day}" is not a day`);
    const readers = this.options.mail ? await this.store.readers() : [];
    for (const job of digestPlanner(day, readers)) await this.jobs.add(job.task, job.payload, { key: job.key, maxAttempts: job.maxAttempts, priority: job.priority });
    if (this.options.mail) {
      // The day after, or the next one still to come (a late run never schedules the past).
      const after = dayAfter(day, this.options.time);
      const next = after.runAt.getTime() > now.getTime() ? after : nextDigest(new Date(now.getTime() + 1), this.options.time);
      await this.jobs.add(TASKS.digestDay, { day: next.day }, { key: digestDayKey, runAt: next.runAt, maxAttempts: 10, priority: priorityOf(TASKS.digestDay) });
    }
    return readers;
  }

  /** Every game that waits for the player now, as the digest lists it. */
  async entries(playerId: string): Promise<DigestEntry[]> {
    const actor: Actor = { kind: 'player', playerId };
    const out: DigestEntry[] = [];
    for await (const node of this.pages(actor)) {
      const game: GameRecord = await this.reads.record(node.id);
      const awaiting = await node.awaitingWithDeadlines();
      for (const seat of seatsHeld(actor, game).filter((s) => game.awaiting.includes(s))) {
        const mine = awaiting.filter((p) => p.seat === seat);
        const part = await this.mailPlay.turnPart(game, playerId, seat, game.version);
        out.push({
          gameId: game.id, name: this.mailPlay.subject(game), seat, url: this.notifications.gameUrl(game.id),
          prompts: mine.map((p) => p.prompt), deadline: mine.find((p) => p.deadline)?.deadline ?? null,
          orders: part?.text ?? null, replyTo: part?.replyTo ?? null, messageId: part?.messageId ?? null,
        });
      }
    }
    return out;
  }

  /**
   * The `digest` task: the player's digest of `day`, if they still want it and a game waits
   * for them. Its mail job is added with the day's record, once ('sent'); 'already sent' when
   * that day's was recorded before, by this process or another.
   */
  async digest(playerId: string, day: string): Promise<'sent' | 'already sent' | 'not wanted' | 'nothing waits'> {
    if (!DAY.test(day)) throw new Error(`digest: "${day}" is not a day`);
    const player = await this.players.player(playerId);
    if (!this.options.mail || !wantsMail(player, true)) return 'not wanted';
    const entries = await this.entries(playerId);
    if (entries.length === 0) return 'nothing waits';
    const unsubscribe = this.notifications.unsubscribeUrl(player);
    const body = digestMail(day, entries, unsubscribe);
    const domain = this.mailPlay.options.replyDomain ?? 'wargame-service';
    const message = {
      to: player.email, ...body,
      messageId: `<digest.${day}.${player.id}.${randomBytes(6).toString('hex')}@${domain}>`,
      // An answer's References carry these, so a number in it picks from its game's list.
      references: entries.flatMap((e) => (e.messageId ? [e.messageId] : [])),
      headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    };
    // The player and `digest`: the send checks them again (they may turn mail off before it
    // runs), and puts their link then for this one (used meanwhile, it would answer 404).
    const job = { task: TASKS.mail, payload: { message, playerId: player.id, digest: true, unsubscribe }, maxAttempts: 10, priority: priorityOf(TASKS.mail) };
    return (await this.store.record(player.id, day, entries.length, job)) ? 'sent' : 'already sent';
  }

  // ---- the calendar ----------------------------------------------------------------------

  private calendarToken(playerId: string, generation: number): string {
    return createHmac('sha256', this.calendarKey!).update(`${playerId}:${generation}`).digest('hex').slice(0, 40);
  }

  /** `me.calendarUrl`: the player's secret feed URL (null without a key to make it with). */
  async calendarUrl(actor: Actor): Promise<string | null> {
    const player = await playerOf(this.players, actor);
    if (!this.calendarKey) return null;
    const token = this.calendarToken(player.id, player.tokenGeneration);
    await this.store.saveCalendarToken(sha256(token), player.id, player.tokenGeneration);
    return `${this.options.publicUrl.replace(/\/+$/, '')}/api/calendar/${token}.ics`;
  }

  /** The feed of a calendar token (iCalendar text), or null: not a token of ours, or revoked. */
  async calendarFeed(token: string): Promise<string | null> {
    if (!this.calendarKey || !TOKEN.test(token)) return null;
    const playerId = await this.store.calendarPlayer(sha256(token));
    if (!playerId) return null;
    const player = await this.players.player(playerId);
    const actor: Actor = { kind: 'player', playerId };
    const host = new URL(this.options.publicUrl).hostname || 'wargame-service';
    const calendar = ical({ name: `Deadlines of ${player?.name ?? 'a player'}`, prodId: { company: 'wargame-service', product: 'deadlines', language: 'EN' }, ttl: 15 * 60 });
    // A seat has a deadline only while the game awaits it: the games awaiting them are all.
    for await (const node of this.pages(actor)) {
      if (!node.clock) continue;
      const deadlines = await node.deadlines();
      if (deadlines.size === 0) continue;
      const game = await this.reads.record(node.id);
      const decided = new Map((await this.clocks.deadlines(game.id, game.version)).map((d) => [d.seat, d.version]));
      const awaiting = await node.awaitingWithDeadlines();
      for (const seat of seatsHeld(actor, game)) {
        const deadline = deadlines.get(seat);
        if (!deadline) continue;
        const name = this.mailPlay.subject(game);
        const prompts = awaiting.filter((p) => p.seat === seat).map((p) => p.prompt);
        calendar.createEvent({
          // The game, the seat and the version at which this decision began: stable while it lasts.
          id: `${game.id}.${seat}.${decided.get(seat) ?? game.version}@${host}`,
          start: new Date(deadline.getTime() - 15 * 60_000),
          end: deadline,
          summary: `Deadline: ${name} (${seat})`,
          description: `${prompts.length ? `The game waits for you to: ${prompts.join('; ')}.` : 'The game waits for your decision.'} Your time runs out at ${deadline.toISOString()}.`,
          url: this.notifications.gameUrl(game.id),
        });
      }
    }
    return calendar.toString();
  }

  /** Every page of the player's games that await one of their seats (set up or playing). */
  private async *pages(actor: Actor) {
    let after: string | null = null;
    for (;;) {
      const page: Page = await this.reads.listGames(actor, { myTurn: true, first: 100, after });
      yield* page.nodes;
      if (!page.hasNextPage || !page.endCursor) return;
      after = page.endCursor;
    }
  }
}
