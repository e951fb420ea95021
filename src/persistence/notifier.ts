/**
 * Fans out "game X has new events" between server processes. Every process LISTENs on one
 * PostgreSQL channel. A process that appended publishes after the commit, outside the
 * append (NOTIFY inside the transaction serialises commits), coalesced: one NOTIFY every
 * few milliseconds carries every game it wrote since the last.
 *
 * Notifications are only wake-ups; the store is the truth. Listeners re-read the store from
 * their last version, so a lost or merged notification never loses an event, and a
 * periodic catch-up compares the versions of the games listened to with the database: a
 * process that died between its commit and its NOTIFY delays a subscriber by at most one
 * catch-up period, never loses it an event. The catch-up also compares each game's
 * `updated_at`: a seat taken or freed before the start changes no version (seatsChanged's
 * watchers), and is caught up the same way.
 */
import pg from 'pg';
import { EVENTS_CHANNEL } from './event-store.ts';
import type { RevocationListener, WakeUps } from '../app/ports.ts';
import { TOKENS_REVOKED_CHANNEL } from './player-store.ts';

type Wake = () => void;
/** A revoked token's hash; null after a lost connection (revocations may have been missed). */
type Revoked = RevocationListener;

/** NOTIFY payloads are limited to 8000 bytes: send ids, a batch at a time. */
const IDS_PER_NOTIFY = 150;

export interface NotifierOptions {
  /** How long publishes are gathered before one NOTIFY, ms (default 10). */
  coalesceMs?: number;
  /** How often the games listened to are compared with the database, ms (0: never). */
  catchUpMs?: number;
}

export class Notifier implements WakeUps {
  private client: pg.Client | null = null;
  private readonly listeners = new Map<string, Set<Wake>>();
  private readonly revoked = new Set<Revoked>();
  private readonly committed = new Set<Wake>();
  private readonly versions = new Set<(gameId: string, version: number) => void>();
  /** The last version seen of each game listened to (for the catch-up). */
  private readonly seen = new Map<string, number>();
  /** The `updated_at` (ms) of each game listened to at the last catch-up: seat changes at version 0. */
  private readonly seenAt = new Map<string, number>();
  private readonly pending = new Map<string, number>();
  private flushTimer: NodeJS.Timeout | null = null;
  private catchUpTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private readonly coalesceMs: number;
  private readonly catchUpMs: number;
  /** One query at a time on the listening connection (pg does not queue them for us). */
  private queries: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly url: string,
    private readonly log: (msg: string) => void,
    opts: NotifierOptions = {},
  ) {
    // 10 ms: under load (2,000+ commands a second) a NOTIFY every 2 ms was a statement in every
    // few commands, each also read back by every listening process; subscribers here are woken
    // at once (publish), those of other processes at most 10 ms later (bench/README.md, round six).
    this.coalesceMs = opts.coalesceMs ?? 10;
    this.catchUpMs = opts.catchUpMs ?? 1000;
  }

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (msg) => {
      if (msg.channel === TOKENS_REVOKED_CHANNEL) {
        for (const fn of this.revoked) fn(msg.payload ?? null);
        return;
      }
      try {
        const payload = JSON.parse(msg.payload ?? '{}') as { gameId?: string; games?: [string, number][] };
        if (payload.gameId) this.wake(payload.gameId);
        for (const [id, version] of payload.games ?? []) {
          for (const fn of this.versions) fn(id, version);
          this.wake(id, version);
        }
        for (const fn of this.committed) fn();
      } catch {
        /* not ours */
      }
    });
    client.on('error', (error) => {
      this.log(`notification connection lost: ${error.message}`);
      this.reconnect();
    });
    client.on('end', () => this.reconnect());
    await client.connect();
    await client.query(`LISTEN ${EVENTS_CHANNEL}`);
    await client.query(`LISTEN ${TOKENS_REVOKED_CHANNEL}`);
    this.client = client;
    if (this.catchUpMs > 0 && !this.catchUpTimer) {
      this.catchUpTimer = setInterval(() => void this.catchUp(), this.catchUpMs);
      this.catchUpTimer.unref();
    }
  }

  private reconnect() {
    if (this.closed || this.retry) return;
    this.client = null;
    this.retry = setTimeout(async () => {
      this.retry = null;
      try {
        await this.start();
        for (const id of this.listeners.keys()) this.wake(id); // catch up on anything missed
        for (const fn of this.revoked) fn(null); // and recheck the tokens it serves
      } catch (error) {
        this.log(`notification reconnect failed: ${(error as Error).message}`);
        this.reconnect();
      }
    }, 1000);
  }

  /** Tell every process (this one included) that `gameId` reached `version`. */
  publish(gameId: string, version: number) {
    this.wake(gameId, version); // listeners here need not wait for the round trip
    for (const fn of this.committed) fn();
    this.pending.set(gameId, Math.max(version, this.pending.get(gameId) ?? 0));
    if (!this.flushTimer) this.flushTimer = setTimeout(() => void this.flush(), this.coalesceMs);
  }

  private async flush() {
    this.flushTimer = null;
    const games = [...this.pending.entries()];
    this.pending.clear();
    const client = this.client;
    if (!client || games.length === 0) return; // the catch-up covers a lost connection
    await this.serial(async () => {
      for (let i = 0; i < games.length; i += IDS_PER_NOTIFY) {
        await client.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, JSON.stringify({ games: games.slice(i, i + IDS_PER_NOTIFY) })]);
      }
    }).catch((error: Error) => this.log(`notify failed: ${error.message}`));
  }

  /** Wakes the listeners of any game whose version (or, before the start, seats) moved on without a notification. */
  private async catchUp() {
    const client = this.client;
    const ids = [...this.listeners.keys()];
    if (!client || ids.length === 0) return;
    try {
      const { rows } = await this.serial(() => client.query<{ id: string; version: number; updated_at: Date }>('SELECT id, version, updated_at FROM games WHERE id = ANY($1::uuid[])', [ids]));
      for (const r of rows) {
        const at = r.updated_at.getTime();
        const before = this.seenAt.get(r.id);
        if (this.listeners.has(r.id)) this.seenAt.set(r.id, at);
        if (r.version > (this.seen.get(r.id) ?? -1) || (before !== undefined && at !== before)) this.wake(r.id, r.version);
      }
    } catch (error) {
      this.log(`catch-up failed: ${(error as Error).message}`);
    }
  }

  private serial<T>(run: () => Promise<T>): Promise<T> {
    const next = this.queries.then(run, run);
    this.queries = next.catch(() => {});
    return next;
  }

  wake(gameId: string, version?: number) {
    const set = this.listeners.get(gameId);
    if (!set) return;
    if (version !== undefined) this.seen.set(gameId, Math.max(version, this.seen.get(gameId) ?? -1));
    for (const fn of set) fn();
  }

  /** Calls `wake` whenever the game may have new events; returns the unsubscribe. */
  listen(gameId: string, wake: Wake): () => void {
    let set = this.listeners.get(gameId);
    if (!set) this.listeners.set(gameId, (set = new Set()));
    set.add(wake);
    return () => {
      set.delete(wake);
      if (set.size === 0) {
        this.listeners.delete(gameId);
        this.seen.delete(gameId);
        this.seenAt.delete(gameId);
      }
    };
  }

  onCommit(wake: Wake): () => void {
    this.committed.add(wake);
    return () => this.committed.delete(wake);
  }

  onVersion(heard: (gameId: string, version: number) => void): () => void {
    this.versions.add(heard);
    return () => this.versions.delete(heard);
  }

  /** Calls `fn` with the hash of each player token revoked on any process (PlayerStore.revokeToken); returns the unsubscribe. */
  onTokenRevoked(fn: Revoked): () => void {
    this.revoked.add(fn);
    return () => this.revoked.delete(fn);
  }

  /** The revocation barrier in flight (its query sent), and the one queued behind it. */
  private barrier: Promise<void> | null = null;
  private queuedBarrier: Promise<void> | null = null;

  /**
   * Every revocation committed before this call has been heard once it resolves: the revoking
   * statement's NOTIFY is delivered on this connection before the answer to any query sent
   * after that statement committed. A barrier already in flight was sent before this call, so
   * a caller then waits for the next one, which every caller arriving meanwhile shares.
   */
  heardRevocations(): Promise<void> {
    if (this.queuedBarrier) return this.queuedBarrier;
    if (!this.barrier) return (this.barrier = this.runBarrier());
    const queued: Promise<void> = this.barrier.catch(() => {}).then(() => {
      if (this.queuedBarrier === queued) this.queuedBarrier = null;
      return (this.barrier = this.runBarrier());
    });
    return (this.queuedBarrier = queued);
  }

  private runBarrier(): Promise<void> {
    const client = this.client;
    const run = (async () => {
      if (!client) throw new Error('no listening connection');
      await this.serial(() => client.query('SELECT 1'));
      // Lost meanwhile: its notifications may not all have been read.
      if (this.client !== client) throw new Error('the listening connection was lost');
    })();
    const done: Promise<void> = run.finally(() => {
      if (this.barrier === done) this.barrier = null;
    });
    done.catch(() => {}); // its callers see the rejection
    return done;
  }

  /** How many subscriptions this process is feeding. */
  get listening(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    if (this.catchUpTimer) clearInterval(this.catchUpTimer);
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      await this.flush();
    }
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}
