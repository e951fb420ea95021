/**
 * Messages between players (docs/api.md, "Messages between players"): a seat of a game
 * writes to everyone in it or to some of its seats. A message is no event: it never changes
 * the game's version. Private means private: every read asks the store for what one reader
 * may read (the public messages, and those sent by or to the reader's seats), the
 * subscription reads the same way for each subscriber, the export carries the same, and a
 * message's webhooks and mail go to its recipients only.
 */
import { randomUUID } from 'node:crypto';
import { seatsHeld, type Actor } from './actors.ts';
import { AppError } from './errors.ts';
import type { MessagePlanner } from './jobs.ts';
import type { Notifications } from './notifications.ts';
import type { GameRecord, MessageRecord, MessageStore, WakeUps } from './ports.ts';
import type { Reads } from './reads.ts';

export interface MessageOptions {
  /** Characters (code points) a message may have (default 2,000). */
  maxLength: number;
  /** Messages a sender (a player, or a seat token's seat) may send a minute (default 20). */
  perMinute: number;
}

export const MESSAGE_DEFAULTS: MessageOptions = { maxLength: 2000, perMinute: 20 };

/** A message as the API shows it. */
export interface MessageOut {
  id: string;
  from: string;
  /** null: everyone in the game. */
  to: string[] | null;
  text: string;
  at: string;
}

export const messageOut = (m: MessageRecord): MessageOut => ({ id: m.id, from: m.from, to: m.to ? [...m.to] : null, text: m.text, at: m.at.toISOString() });

/** May a reader holding `seats` read `m`? (The store filters so; this is the same rule, for the fan-out.) */
export const mayRead = (m: Pick<MessageRecord, 'from' | 'to'>, seats: readonly string[]): boolean =>
  m.to === null || seats.includes(m.from) || m.to.some((s) => seats.includes(s));

/** The seats whose private messages `actor` may read in the game (spectators: none). */
export function readerSeats(actor: Actor, game: GameRecord): string[] {
  return actor.kind === 'player' || actor.kind === 'seat' ? seatsHeld(actor, game) : [];
}

const PAGE_MAX = 100;

/** Every message of the game `actor` may read, oldest first (the export's). */
export async function readableMessages(store: MessageStore, actor: Actor, game: GameRecord): Promise<MessageOut[]> {
  const seats = readerSeats(actor, game);
  const out: MessageOut[] = [];
  for (let after = 0; ; ) {
    const page = await store.readable(game.id, seats, after, 1000);
    out.push(...page.map(messageOut));
    if (page.length < 1000) return out;
    after = page[page.length - 1]!.seq;
  }
}

export class Messages {
  constructor(
    private readonly store: MessageStore,
    private readonly reads: Reads,
    private readonly wakeUps: WakeUps,
    private readonly plan: MessagePlanner,
    private readonly notifications: Notifications,
    private readonly options: MessageOptions = MESSAGE_DEFAULTS,
  ) {}

  /** Sends a message from the actor's seat: to everyone (`to` absent) or to the seats `to` names. */
  async send(actor: Actor, gameId: string, input: { text?: unknown; to?: unknown; seat?: unknown }): Promise<MessageOut> {
    if (actor.kind === 'spectator') throw new AppError('UNAUTHENTICATED', 'Sending a message needs the token of a seat of the game (a seat token or a player token)');
    const game = await this.reads.record(gameId);
    const held = actor.kind === 'player' || actor.kind === 'seat' ? seatsHeld(actor, game) : [];
    if (held.length === 0) throw new AppError('FORBIDDEN', 'Only a seat of the game may write to its players: you hold none here');
    if (game.status === 'ABANDONED') throw new AppError('GAME_OVER', 'The game was cancelled before it started');
    let from = held[0]!;
    if (input.seat !== undefined && input.seat !== null) {
      if (typeof input.seat !== 'string' || !held.includes(input.seat)) throw new AppError('FORBIDDEN', `You do not hold seat "${String(input.seat)}" here; you hold ${held.join(', ')}`);
      from = input.seat;
    }
    const text = input.text;
    if (typeof text !== 'string' || text.trim() === '') throw new AppError('BAD_REQUEST', 'text: a message needs some text');
    // PostgreSQL's text holds no NUL; a message is text, so it may not either.
    if (text.includes('\u0000')) throw new AppError('BAD_REQUEST', 'text: a message may not contain the NUL character');
    const length = [...text].length;
    if (length > this.options.maxLength) throw new AppError('BAD_REQUEST', `text: a message has at most ${this.options.maxLength} characters (this one has ${length})`, { maxLength: this.options.maxLength });
    const to = this.recipients(game, from, input.to);
    const sender = actor.kind === 'player' ? `player:${actor.playerId}` : `seat:${game.id}:${from}`;
    const message = { id: randomUUID(), gameId: game.id, from, to, text };
    const { stored, resetsAt } = await this.store.send(message, sender, { count: this.options.perMinute, seconds: 60 }, this.plan({ game, message }));
    if (!stored) {
      const retryAfter = Math.max(1, Math.ceil((resetsAt.getTime() - Date.now()) / 1000));
      throw new AppError('RATE_LIMITED', `Too many messages: at most ${this.options.perMinute} a minute; retry in ${retryAfter} s`, { retryAfter });
    }
    // Only a wake-up (the version is unchanged): the subscriptions read the store again.
    this.wakeUps.publish(game.id, game.version);
    return messageOut(stored);
  }

  /** null: public. Else the seats named, once each, in the game's seat order. */
  private recipients(game: GameRecord, from: string, to: unknown): string[] | null {
    if (to === undefined || to === null) return null;
    const seats = game.players.map((p) => p.seat);
    if (!Array.isArray(to) || to.length === 0) throw new AppError('BAD_REQUEST', `to: the seats to write to (one or more of ${seats.join(', ')}); leave it out to write to everyone`);
    for (const s of to) {
      if (typeof s !== 'string' || !seats.includes(s)) throw new AppError('BAD_REQUEST', `to: "${String(s)}" is no seat of this game (its seats: ${seats.join(', ')})`);
    }
    const named = seats.filter((s) => to.includes(s) && s !== from);
    if (named.length === 0) throw new AppError('BAD_REQUEST', 'to: name a seat other than your own');
    return named;
  }

  /** What the actor may read of the game's messages, oldest first, after the message `after` (its id). */
  async list(actor: Actor, gameId: string, args: { first?: number | null; after?: string | null } = {}): Promise<MessageOut[]> {
    const first = args.first ?? PAGE_MAX;
    if (!Number.isInteger(first) || first < 1 || first > PAGE_MAX) throw new AppError('BAD_REQUEST', `"first" must be from 1 to ${PAGE_MAX}`);
    const game = await this.reads.record(gameId);
    const seats = readerSeats(actor, game);
    const afterSeq = args.after ? await this.position(game.id, seats, args.after) : 0;
    return (await this.store.readable(game.id, seats, afterSeq, first)).map(messageOut);
  }

  /** A cursor is a message the reader may read, of this game; anything else says nothing of what it is. */
  private async position(gameId: string, seats: string[], after: string): Promise<number> {
    const m = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(after) ? await this.store.message(gameId, after) : null;
    if (!m || m.gameId !== gameId || !mayRead(m, seats)) throw new AppError('BAD_REQUEST', '"after" is not the id of a message you can read in this game');
    return m.seq;
  }

  /**
   * The subscription: every message the actor may read stored after it subscribed, each
   * once and in order. Who the actor is is fixed when it subscribes; the seats they hold are
   * not: each read takes them from the game's record now (as `list` does), so a seat lost
   * after subscribing stops its private messages and one gained starts them. The record is
   * the cached one when the row's revision is unchanged (one ask per wake-up, not per message).
   */
  async feed(actor: Actor, gameId: string): Promise<AsyncIterableIterator<MessageOut>> {
    const game = await this.reads.record(gameId);
    const feed = new MessageFeed(game.id, this.wakeUps, async (after) => this.store.readable(game.id, readerSeats(actor, await this.reads.record(game.id)), after, PAGE_MAX));
    // Start after the last message stored now (the position only: it shows nothing).
    await feed.start(() => this.store.lastSeq(game.id));
    return feed;
  }

  /** @internal The `notify-message` task: the message's deliveries to its recipients. */
  async fanOut(gameId: string, id: string): Promise<string[]> {
    const message = await this.store.message(gameId, id);
    if (!message) return [];
    const game = await this.reads.record(message.gameId);
    // Players holding a seat that may read it, but not the one who wrote it.
    const senders = new Set(game.seats.filter((s) => s.seat === message.from && s.kind === 'player').map((s) => s.playerId));
    const recipients = [...new Set(game.seats.filter((s) => s.kind === 'player' && s.playerId && s.seat !== message.from && mayRead(message, [s.seat]) && !senders.has(s.playerId)).map((s) => s.playerId!))];
    if (recipients.length === 0) return [];
    return this.notifications.fanOutMessage(game, message, recipients);
  }
}

/** Messages after a position, read again on every wake-up of the game. */
class MessageFeed implements AsyncIterableIterator<MessageOut> {
  private last = 0;
  private readonly queue: MessageOut[] = [];
  private readonly waiters: ((r: IteratorResult<MessageOut>) => void)[] = [];
  private unlisten: () => void = () => {};
  private done = false;
  private reading: Promise<void> | null = null;
  private again = false;
  private started = false;

  constructor(
    private readonly gameId: string,
    private readonly wakeUps: Pick<WakeUps, 'listen'>,
    private readonly read: (after: number) => Promise<MessageRecord[]>,
  ) {}

  async start(position: () => Promise<number>) {
    // Listen first, so a message stored while the position is read still wakes us.
    this.unlisten = this.wakeUps.listen(this.gameId, () => this.pull());
    this.last = await position();
    this.started = true;
    this.pull();
  }

  private pull() {
    if (this.done || !this.started) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = (async () => {
      try {
        do {
          this.again = false;
          const page = await this.read(this.last);
          for (const m of page) {
            if (m.seq <= this.last) continue;
            this.last = m.seq;
            const waiter = this.waiters.shift();
            if (waiter) waiter({ value: messageOut(m), done: false });
            else this.queue.push(messageOut(m));
          }
          if (page.length >= PAGE_MAX) this.again = true;
        } while (this.again && !this.done);
      } catch {
        this.again = false; // the next wake-up reads again
      } finally {
        this.reading = null;
      }
    })();
  }

  next(): Promise<IteratorResult<MessageOut>> {
    const value = this.queue.shift();
    if (value) return Promise.resolve({ value, done: false });
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  return(): Promise<IteratorResult<MessageOut>> {
    if (!this.done) {
      this.done = true;
      this.unlisten();
    }
    this.queue.length = 0;
    for (const w of this.waiters.splice(0)) w({ value: undefined, done: true });
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(error?: unknown): Promise<IteratorResult<MessageOut>> {
    void this.return();
    return Promise.reject(error);
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}
