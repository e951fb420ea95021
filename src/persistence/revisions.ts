/**
 * GameRevisions on PostgreSQL: the revision of each game row asked for, the asks of one turn
 * of the event loop in one statement. A read of a game the process holds asks only this
 * (src/app/reads.ts): no column of the row comes back, and concurrent reads of different
 * games share the round trip. One statement is in flight at a time: the asks made while it
 * is out go together in the next, sent when it comes back (fewer, fuller statements under
 * load; an ask waits at most one statement more).
 *
 * Always the row as it is now: every ask is answered by a statement sent after it was made
 * (an ask joins only a batch not sent yet), so a write any process acknowledged before the
 * ask is seen.
 */
import type pg from 'pg';
import type { Away, GameRevisions } from '../app/ports.ts';
import { awayOf, awaySql, opaque, prepared, REVISION, statementName } from './statements.ts';

/**
 * With each row's revision, the absences of its seat holders (Seat.absentUntil, awaySql): a read
 * of a held game needs nothing else.
 *
 * The ids are `opaque`: given straight as `ANY($1)`, a custom plan counted the ids asked (a
 * few) where the generic plan guesses ten, each with awaySql's subplan, so PostgreSQL planned
 * the statement again on every ask: 0.375 ms of its CPU, against 0.08 ms to run it.
 */
const REVISIONS_SQL = prepared(`SELECT id::text AS id, ${REVISION} AS revision, ${awaySql('player_ids', 'status')} AS away FROM games WHERE id = ANY(${opaque(1, 'uuid[]')})`);

type Revision = { revision: string; away: Away };

/** Largest batch: the rest wait for the next statement. */
const BATCH = 500;

interface Waiter {
  resolve(revision: Revision | null): void;
  reject(error: unknown): void;
}

type Batch = Map<string, { promise: Promise<Revision | null>; waiters: Waiter[] }>;

export class BatchedRevisions implements GameRevisions {
  private batch: Batch | null = null;
  /** Statements out (one, but for a full batch sent at once): the next batch is sent when they are back. */
  private inFlight = 0;

  constructor(private readonly direct: { pool: pg.Pool; preparedStatements: boolean }) {}

  revision(id: string): Promise<Revision | null> {
    const key = id.toLowerCase();
    if (!this.batch) {
      this.batch = new Map();
      // After the I/O of this turn: the reads whose requests arrived together go in one statement.
      if (this.inFlight === 0) setImmediate(() => void this.flush());
    }
    const known = this.batch.get(key);
    if (known) return known.promise;
    const waiters: Waiter[] = [];
    const promise = new Promise<Revision | null>((resolve, reject) => waiters.push({ resolve, reject }));
    this.batch.set(key, { promise, waiters });
    if (this.batch.size >= BATCH) void this.flush();
    return promise;
  }

  private async flush() {
    const batch = this.batch;
    this.batch = null;
    if (!batch || batch.size === 0) return;
    this.inFlight++;
    try {
      await this.ask(batch);
    } finally {
      this.inFlight--;
      if (this.batch && this.inFlight === 0) setImmediate(() => void this.flush());
    }
  }

  private async ask(batch: Batch) {
    const ids = [...batch.keys()];
    try {
      const name = this.direct.preparedStatements ? statementName({ sql: REVISIONS_SQL }) : undefined;
      const { rows } = await this.direct.pool.query<{ id: string; revision: string; away: unknown }>(name ? { name, text: REVISIONS_SQL, values: [ids] } : { text: REVISIONS_SQL, values: [ids] });
      const found = new Map(rows.map((r) => [r.id, { revision: r.revision, away: awayOf(r.away) }]));
      for (const [id, entry] of batch) for (const w of entry.waiters) w.resolve(found.get(id) ?? null);
    } catch (error) {
      for (const entry of batch.values()) for (const w of entry.waiters) w.reject(error);
    }
  }
}
