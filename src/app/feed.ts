/**
 * A subscription's stream of events: first every stored event after the client's
 * version, then live ones, each exactly once and in order. Notifications only say
 * "look again"; the feed always reads the store from the last version it delivered,
 * so nothing is skipped or repeated whichever process appended the events.
 */
import { metrics } from '../metrics.ts';
import type { WakeUps } from './ports.ts';
import type { EventOut } from './game-read.ts';

/** Events read from the store at a time; a full page means there may be more. */
export const FEED_PAGE = 200;
/**
 * Events held for a consumer that has not taken them: the feed reads the next page only
 * once the consumer is below this, so a subscriber that does not read holds at most about
 * a page in memory, however long the game.
 */
export const FEED_BUFFER = FEED_PAGE;

export class EventFeed implements AsyncIterableIterator<EventOut> {
  private readonly queue: EventOut[] = [];
  private readonly waiters: { resolve: (r: IteratorResult<EventOut>) => void; reject: (e: unknown) => void }[] = [];
  private readonly unlisten: () => void;
  private done = false;
  private reading = false;
  private again = false;
  private failure: unknown = null;
  /** Resolves when the consumer has taken events (or the feed ended): reading may go on. */
  private drained: (() => void) | null = null;

  constructor(
    gameId: string,
    private last: number,
    notifier: Pick<WakeUps, 'listen'>,
    /** At most FEED_PAGE events after `after`, in order. */
    private readonly read: (after: number) => Promise<EventOut[]>,
  ) {
    // Listen before the first read, so an event committed in between still wakes us.
    this.unlisten = notifier.listen(gameId, () => this.pull());
    metrics.subscriptions.inc();
    this.pull();
  }

  private pull() {
    if (this.done) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    void (async () => {
      try {
        let full = false;
        do {
          this.again = false;
          const events = await this.read(this.last);
          full = events.length >= FEED_PAGE;
          for (const e of events) {
            if (e.version <= this.last) continue;
            this.last = e.version;
            this.push(e);
          }
          // Backpressure: wait for the consumer before reading the next page.
          while (this.queue.length >= FEED_BUFFER && !this.done) await new Promise<void>((resolve) => (this.drained = resolve));
          // However long the game: keep reading while pages come back full.
        } while ((this.again || full) && !this.done);
      } catch (error) {
        this.fail(error);
      } finally {
        this.reading = false;
      }
    })();
  }

  private push(e: EventOut) {
    const waiter = this.waiters.shift();
    if (waiter) waiter.resolve({ value: e, done: false });
    else this.queue.push(e);
  }

  private fail(error: unknown) {
    this.failure = error;
    for (const w of this.waiters.splice(0)) w.reject(error);
    this.finish();
  }

  next(): Promise<IteratorResult<EventOut>> {
    const value = this.queue.shift();
    if (this.drained && this.queue.length < FEED_BUFFER / 2) this.wake();
    if (value) return Promise.resolve({ value, done: false });
    if (this.failure) return Promise.reject(this.failure);
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  private wake() {
    const drained = this.drained;
    this.drained = null;
    drained?.();
  }

  private finish() {
    if (this.done) return;
    this.done = true;
    this.wake();
    this.unlisten();
    metrics.subscriptions.dec();
  }

  /** Called when the client unsubscribes or disconnects: stop at once. */
  return(): Promise<IteratorResult<EventOut>> {
    this.finish();
    this.queue.length = 0;
    for (const w of this.waiters.splice(0)) w.resolve({ value: undefined, done: true });
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(error?: unknown): Promise<IteratorResult<EventOut>> {
    this.finish();
    return Promise.reject(error);
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}

/**
 * A subscription's stream of a game's record while it waits for players: what `read` gives
 * now, then again on each wake-up whose read differs (`key`), until a read says it is the
 * last (the game started or was cancelled). Wake-ups only say "look again", as for events:
 * a seat taken on another process reaches this one by the same LISTEN/NOTIFY.
 */
export class ChangeFeed<T> implements AsyncIterableIterator<T> {
  private readonly unlisten: () => void;
  private listening = true;
  private woken = true;
  private signal: (() => void) | null = null;
  private done = false;
  private key: string | null = null;

  constructor(
    gameId: string,
    notifier: Pick<WakeUps, 'listen'>,
    private readonly read: () => Promise<{ value: T; key: string; last: boolean }>,
  ) {
    this.unlisten = notifier.listen(gameId, () => {
      this.woken = true;
      this.signal?.();
    });
    metrics.subscriptions.inc();
  }

  async next(): Promise<IteratorResult<T>> {
    try {
      while (!this.done) {
        if (!this.woken) await new Promise<void>((resolve) => (this.signal = resolve));
        this.signal = null;
        if (this.done) break;
        this.woken = false;
        const r = await this.read();
        if (r.last) this.finish();
        if (r.key !== this.key) {
          this.key = r.key;
          return { value: r.value, done: false };
        }
      }
    } catch (error) {
      this.finish();
      throw error;
    }
    return { value: undefined, done: true };
  }

  private finish() {
    this.done = true;
    if (!this.listening) return;
    this.listening = false;
    this.unlisten();
    metrics.subscriptions.dec();
  }

  /** Called when the client unsubscribes or disconnects: stop at once. */
  return(): Promise<IteratorResult<T>> {
    this.finish();
    this.signal?.();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(error?: unknown): Promise<IteratorResult<T>> {
    this.finish();
    this.signal?.();
    return Promise.reject(error);
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}
