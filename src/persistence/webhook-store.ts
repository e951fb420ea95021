/**
 * Notifications' storage: webhooks (their secrets encrypted by the caller), deliveries with
 * their stable ids, and the "your turn" mail last sent per player and game. Fanning commits
 * out is one transaction: the deliveries they imply, a job for each new mail, and the
 * dispatcher's mark moved on, so running it again (at least once) adds nothing twice.
 *
 * The dispatcher (src/app/dispatch.ts: one at a time across every process, `lease`) reads the
 * outbox after its mark in the order of the writing transactions (`tail`), and only rows of
 * transactions older than every one still running (pg_snapshot_xmin): a transaction that
 * began earlier and commits later can add no row before the mark. It writes the rows'
 * deliveries and moves the mark in one statement (`enqueue`), and sends what is due
 * (`sendable`). The horizon is the cluster's: a transaction left open anywhere on it (a
 * forgotten prepared transaction, a long migration) holds the notifications back until it ends.
 */
import pg from 'pg';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { DeliveryJobs, DeliveryRecord, DispatchLease, NewDelivery, OutboxMark, TailEntry, WebhookRecord, WebhookStore as WebhookPort } from '../app/ports.ts';
import { jobJson, listened, wantsMail } from './jobs.ts';
import { opaque, prepared, statementName } from './statements.ts';

export type { DeliveryRecord, NewDelivery, WebhookRecord } from '../app/ports.ts';

interface WebhookRow {
  id: string; player_id: string; game_id: string | null; url: string; events: string[]; secret: string; failures: number;
  disabled_at: Date | null; disabled_reason: string | null; created_at: Date;
}
interface DeliveryRow {
  id: string; channel: string; webhook_id: string | null; player_id: string | null; game_id: string; event: string; seat: string | null;
  version: number; body: Record<string, unknown>; status: string; attempts: number; last_error: string | null; created_at: Date; updated_at: Date;
}

const webhook = (r: WebhookRow): WebhookRecord => ({
  id: r.id, playerId: r.player_id, gameId: r.game_id, url: r.url, events: r.events, secret: r.secret, failures: r.failures,
  disabledAt: r.disabled_at, disabledReason: r.disabled_reason, createdAt: r.created_at,
});
const delivery = (r: DeliveryRow): DeliveryRecord => ({
  id: r.id, channel: r.channel as DeliveryRecord['channel'], webhookId: r.webhook_id, playerId: r.player_id, gameId: r.game_id, event: r.event,
  seat: r.seat, version: r.version, body: r.body, status: r.status as DeliveryRecord['status'], attempts: r.attempts, lastError: r.last_error,
  createdAt: r.created_at, updatedAt: r.updated_at,
});

const COLUMNS = 'id::text, player_id::text, game_id::text, url, events, secret, failures, disabled_at, disabled_reason, created_at';
const DELIVERY_COLUMNS = 'id, channel, webhook_id::text, player_id::text, game_id::text, event, seat, version, body, status, attempts, last_error, created_at, updated_at';

/**
 * Statements of the notifications' own bookkeeping commit without waiting for the WAL flush
 * (set_config(..., true): this statement's transaction only; acknowledged commands keep
 * synchronous_commit on). A crash of the database can lose the last of them, and only has
 * work done again: the mark moves back with the deliveries it was written with, so the same
 * rows are fanned out again into the same deliveries (their ids); a success not recorded has
 * its delivery made again, with its same webhook-id (at least once, as always).
 */
const ASYNC = `SELECT set_config('synchronous_commit', 'off', true)`;

/** The dispatcher's advisory lock (one holder across every process on the database). */
const DISPATCH_LOCK = 27_0003;

const ENQUEUE_SQL = prepared(`WITH s AS (${ASYNC}), d AS (
  INSERT INTO deliveries (id, channel, webhook_id, player_id, game_id, event, seat, version, body)
  SELECT x->>'id', x->>'channel', (x->>'webhookId')::uuid, (x->>'playerId')::uuid, (x->>'gameId')::uuid, x->>'event', x->>'seat', (x->>'version')::int, x->'body'
  FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(x, n) ORDER BY n
  ON CONFLICT (id) DO NOTHING
  RETURNING id, channel
), specs AS MATERIALIZED (
  SELECT ARRAY(
    SELECT ROW(j->>'task', (j->'payload')::json, j->>'queueName', (j->>'runAt')::timestamptz, (j->>'maxAttempts')::smallint, j->>'key', (j->>'priority')::smallint, NULL)::graphile_worker.job_spec
    FROM d, jsonb_array_elements($2::jsonb) AS j WHERE d.channel = 'MAIL' AND j->'payload'->>'id' = d.id) AS specs
), added AS (
  -- A job each new mail, in one add_jobs (one NOTIFY), and none without one (add_jobs NOTIFYs
  -- even for none, and every idle lane of every process then fetches).
  SELECT j.id FROM specs a, LATERAL graphile_worker.add_jobs(a.specs) j WHERE cardinality(a.specs) > 0
), m AS (
  UPDATE outbox_marks SET tx = $3::xid8, id = $4::bigint WHERE name = 'notify' AND $3::text IS NOT NULL AND (tx, id) < ($3::xid8, $4::bigint) RETURNING 1
)
SELECT id FROM d WHERE (SELECT count(*) FROM added) >= 0 AND (SELECT count(*) FROM m) >= 0 AND (SELECT count(*) FROM s) >= 0`);

/**
 * The outbox after the mark, in (tx, id) order, of transactions older than every one still
 * running, with whether anyone listens to each row's game now (outbox_tail is the index). Only
 * rows written while someone listened (`heard`): the rest are nobody's, and no look reads them.
 */
const TAIL_SQL = prepared(`WITH t AS MATERIALIZED (
  SELECT o.* FROM outbox_marks m, LATERAL (
    SELECT * FROM outbox o WHERE o.heard AND (o.tx, o.id) > (m.tx, m.id) AND o.tx < pg_snapshot_xmin(pg_current_snapshot()) ORDER BY o.tx, o.id LIMIT $1::int
  ) o WHERE m.name = 'notify'
), listening AS (
  -- Once a game, not once a row.
  SELECT g.id, COALESCE(${listened('g')} OR (${opaque(2, 'boolean')} AND ${wantsMail('g')}), false) AS listened
  FROM games g WHERE g.id IN (SELECT DISTINCT game_id FROM t)
)
SELECT t.game_id::text AS game_id, t.id::text AS id, t.version, t.kind, t.seat, t.data, t.created_at, t.tx::text AS tx, COALESCE(h.listened, false) AS listened
FROM t LEFT JOIN listening h ON h.id = t.game_id
ORDER BY t.tx, t.id`);

/**
 * The dispatcher's read: the successes so far recorded ($4: DELIVERED, one attempt more, their
 * webhooks' failures in a row back to 0), then the webhooks' pending deliveries due now, not of
 * the webhooks $3 (being sent to), at most $2 a webhook and $1 in all, oldest first, each with
 * its webhook (those just recorded are not due: this statement's snapshot still shows them
 * pending).
 */
const SENDABLE_SQL = prepared(`WITH s AS (${ASYNC}), r AS (
  UPDATE deliveries SET status = 'DELIVERED', attempts = attempts + 1, updated_at = now(), next_attempt_at = NULL
  WHERE id = ANY(${opaque(4, 'text[]')}) AND status = 'PENDING' RETURNING webhook_id
), f AS (
  UPDATE webhooks SET failures = 0, failing_since = NULL WHERE id IN (SELECT webhook_id FROM r) AND failures <> 0 RETURNING 1
)
SELECT ${COLUMNS.split(', ').map((c) => `w.${c} AS w_${c.replace('::text', '')}`).join(', ')}, ${DELIVERY_COLUMNS.split(', ').map((c) => `d.${c}`).join(', ')}
FROM (
  SELECT x.* FROM (
    SELECT d.*, row_number() OVER (PARTITION BY d.webhook_id ORDER BY d.seq) AS n FROM deliveries d
    WHERE d.status = 'PENDING' AND d.channel = 'WEBHOOK' AND (d.next_attempt_at IS NULL OR d.next_attempt_at <= now())
      AND NOT (d.webhook_id = ANY(${opaque(3, 'uuid[]')})) AND NOT (d.id = ANY(${opaque(4, 'text[]')}))
  ) x WHERE x.n <= $2::int ORDER BY x.seq LIMIT $1::int
) d LEFT JOIN webhooks w ON w.id = d.webhook_id
WHERE (SELECT count(*) FROM s) >= 0 AND (SELECT count(*) FROM f) >= 0
ORDER BY d.seq`);

/** The enabled webhooks of each game $1 (on it, or player-wide of one of its players: the pairs $2, $3), by game, in id order. */
const LISTENING_SQL = prepared(`SELECT x.listened_game::text AS listened_game, ${COLUMNS.split(', ').map((c) => `w.${c}`).join(', ')}
FROM unnest($1::uuid[]) AS x(listened_game)
JOIN webhooks w ON w.disabled_at IS NULL AND (w.game_id = x.listened_game
  OR (w.game_id IS NULL AND w.player_id IN (SELECT p.player FROM unnest($2::uuid[], $3::uuid[]) AS p(game, player) WHERE p.game = x.listened_game)))
ORDER BY x.listened_game, w.id`);

/**
 * A failed attempt of a webhook delivery, in one statement: the delivery's status (and when a
 * PENDING one is due again, $5 seconds on) and the webhook's count of failures in a row.
 * Committed without waiting for the WAL flush (this transaction's synchronous_commit off, see
 * ASYNC): a record lost to a crash of the database only has the delivery made again, with its
 * same webhook-id (at least once, as always).
 */
const FAILED_SQL = prepared(`WITH s AS (${ASYNC}), w AS (
  UPDATE webhooks SET failures = failures + 1, failing_since = COALESCE(failing_since, now())
  WHERE id = $1::uuid
  RETURNING failures, failing_since
), d AS (
  UPDATE deliveries SET status = $3, attempts = attempts + 1, last_error = COALESCE($4, last_error), updated_at = now(),
    next_attempt_at = CASE WHEN $5::float8 IS NULL THEN NULL ELSE now() + make_interval(secs => $5::float8) END
  WHERE id = $2
  RETURNING 1
)
SELECT (SELECT failures FROM w) AS failures,
  (SELECT (extract(epoch FROM now() - failing_since) * 1000)::float8 FROM w) AS failing_for_ms,
  (SELECT count(*) FROM d)::int AS deliveries, (SELECT count(*) FROM s)::int AS async`);

export class WebhookStore implements WebhookPort {
  /** `directUrl`: the database past any pooler (a session's advisory lock needs a session of its own). */
  constructor(private readonly prisma: PrismaClient, private readonly pool: pg.Pool, private readonly directUrl: string) {}

  private async query<T extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<T[]> {
    return (await this.pool.query<T>({ name: statementName({ sql: text }), text, values })).rows;
  }

  async create(w: Pick<WebhookRecord, 'id' | 'playerId' | 'gameId' | 'url' | 'events' | 'secret'>): Promise<WebhookRecord> {
    const rows = await this.prisma.$queryRawUnsafe<WebhookRow[]>(
      `INSERT INTO webhooks (id, player_id, game_id, url, events, secret) VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5::text[], $6) RETURNING ${COLUMNS}`,
      w.id, w.playerId, w.gameId, w.url, w.events, w.secret,
    );
    return webhook(rows[0]!);
  }

  async count(playerId: string): Promise<number> {
    const rows = await this.prisma.$queryRawUnsafe<{ n: number }[]>('SELECT count(*)::int AS n FROM webhooks WHERE player_id = $1::uuid', playerId);
    return rows[0]!.n;
  }

  async delete(playerId: string, id: string): Promise<boolean> {
    return (await this.prisma.$executeRawUnsafe('DELETE FROM webhooks WHERE id = $1::uuid AND player_id = $2::uuid', id, playerId)) > 0;
  }

  async ofPlayer(playerId: string): Promise<WebhookRecord[]> {
    return (await this.prisma.$queryRawUnsafe<WebhookRow[]>(`SELECT ${COLUMNS} FROM webhooks WHERE player_id = $1::uuid ORDER BY created_at, id`, playerId)).map(webhook);
  }

  async get(id: string): Promise<WebhookRecord | null> {
    const rows = await this.prisma.$queryRawUnsafe<WebhookRow[]>(`SELECT ${COLUMNS} FROM webhooks WHERE id = $1::uuid`, id);
    return rows[0] ? webhook(rows[0]) : null;
  }

  /** The enabled webhooks listening to each game: its own, and those of its players for all their games. One statement for all. */
  async listening(games: { id: string; playerIds: string[] }[]): Promise<Map<string, WebhookRecord[]>> {
    const out = new Map(games.map((g) => [g.id, [] as WebhookRecord[]]));
    if (games.length === 0) return out;
    const pairs = games.flatMap((g) => g.playerIds.map((p) => [g.id, p] as const));
    const rows = await this.query<WebhookRow & { listened_game: string }>(LISTENING_SQL, [games.map((g) => g.id), pairs.map(([g]) => g), pairs.map(([, p]) => p)]);
    for (const r of rows) out.get(r.listened_game)?.push(webhook(r));
    return out;
  }

  async deliveries(webhookId: string, first: number): Promise<DeliveryRecord[]> {
    const rows = await this.prisma.$queryRawUnsafe<DeliveryRow[]>(
      `SELECT ${DELIVERY_COLUMNS} FROM deliveries WHERE webhook_id = $1::uuid ORDER BY created_at DESC, id DESC LIMIT $2::int`,
      webhookId, first,
    );
    return rows.map(delivery);
  }

  async delivery(id: string): Promise<DeliveryRecord | null> {
    const rows = await this.prisma.$queryRawUnsafe<DeliveryRow[]>(`SELECT ${DELIVERY_COLUMNS} FROM deliveries WHERE id = $1`, id);
    return rows[0] ? delivery(rows[0]) : null;
  }

  /** The seat whose command reached `version` (null: setup or the service). */
  async commandSeat(gameId: string, version: number): Promise<string | null> {
    const rows = await this.prisma.$queryRawUnsafe<{ seat: string | null }[]>('SELECT seat FROM commands WHERE game_id = $1::uuid AND last_version = $2::int', gameId, version);
    return rows[0]?.seat ?? null;
  }

  /**
   * Claims the "your turn" mail for the player at `version`: true unless one was sent at a
   * later version, or at an earlier one and none of `seats` has acted since (claiming the
   * same version again is allowed: a retried fan-out). Atomic, so two workers fanning out
   * two commits of the game send at most one.
   */
  async claimYourTurn(playerId: string, gameId: string, version: number, seats: string[]): Promise<boolean> {
    const rows = await this.prisma.$queryRawUnsafe<{ version: number }[]>(
      `INSERT INTO your_turn_mails AS m (player_id, game_id, version) VALUES ($1::uuid, $2::uuid, $3::int)
       ON CONFLICT (player_id, game_id) DO UPDATE SET version = EXCLUDED.version
         WHERE m.version = EXCLUDED.version OR (m.version < EXCLUDED.version AND EXISTS (
           SELECT 1 FROM commands c WHERE c.game_id = m.game_id AND c.seat = ANY($4::text[]) AND c.last_version > m.version AND c.last_version <= EXCLUDED.version))
       RETURNING version`,
      playerId, gameId, version, seats,
    );
    return rows.length > 0;
  }

  /**
   * Writes the deliveries (an id already stored is skipped) with a job each new mail, and moves
   * the dispatcher's mark on: one statement. Returns the ids written now.
   */
  async enqueue(deliveries: NewDelivery[], jobs: DeliveryJobs, mark?: OutboxMark): Promise<string[]> {
    if (deliveries.length === 0 && !mark) return [];
    const rows = await this.query<{ id: string }>(ENQUEUE_SQL, [
      JSON.stringify(deliveries),
      JSON.stringify(deliveries.filter((d) => d.channel === 'MAIL').map((d) => jobJson(jobs.mail(d)))),
      mark?.tx ?? null,
      mark?.id ?? null,
    ]);
    return rows.map((r) => r.id);
  }

  async tail(limit: number, mail: boolean): Promise<TailEntry[]> {
    const rows = await this.query<{ game_id: string; id: string; version: number; kind: string; seat: string | null; data: Record<string, unknown>; created_at: Date; tx: string; listened: boolean }>(
      TAIL_SQL, [limit, mail],
    );
    return rows.map((r) => ({ gameId: r.game_id, id: r.id, version: r.version, kind: r.kind, seat: r.seat, data: r.data, createdAt: r.created_at, listened: r.listened, mark: { tx: r.tx, id: r.id } }) as TailEntry);
  }

  async sendable(limit: number, perWebhook: number, busy: string[], delivered: string[]): Promise<{ delivery: DeliveryRecord; webhook: WebhookRecord | null }[]> {
    const rows = await this.query<Record<string, unknown>>(SENDABLE_SQL, [limit, perWebhook, busy, delivered]);
    return rows.map((r) => {
      const w = Object.fromEntries(Object.entries(r).filter(([k]) => k.startsWith('w_')).map(([k, v]) => [k.slice(2), v])) as unknown as WebhookRow;
      const d = Object.fromEntries(Object.entries(r).filter(([k]) => !k.startsWith('w_'))) as unknown as DeliveryRow;
      return { delivery: delivery(d), webhook: w.id ? webhook(w) : null };
    });
  }

  /**
   * A session-level advisory lock on a connection of its own: held while that connection
   * lives (a process that dies, or whose connection drops, lets it go at once). Its health is
   * asked every 5 s, each ask failing after 10, so a connection gone silent is noticed; two
   * holders at once (the old one not knowing yet) only send some deliveries twice, with the
   * same webhook-id.
   */
  async lease(): Promise<DispatchLease | null> {
    // A check that hangs (the network gone) fails after 10 s.
    const client = new pg.Client({ connectionString: this.directUrl, keepAlive: true, keepAliveInitialDelayMillis: 10_000, query_timeout: 10_000, connectionTimeoutMillis: 10_000 });
    let lost!: () => void;
    const gone = new Promise<void>((r) => (lost = r));
    client.on('error', () => lost());
    client.on('end', () => lost());
    try {
      await client.connect();
      // The server drops this session within about 25 s of its client going silent (a dead
      // host, a network gone), letting the lock go: not after the system's two hours.
      await client.query('SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 5; SET tcp_keepalives_count = 3');
      const { rows } = await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1) AS held', [DISPATCH_LOCK]);
      if (!rows[0]?.held) {
        await client.end().catch(() => {});
        return null;
      }
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    const check = setInterval(() => void client.query('SELECT 1').catch(() => lost()), 5_000);
    check.unref();
    void gone.then(() => clearInterval(check));
    return {
      lost: gone,
      release: async () => {
        clearInterval(check);
        await client.end().catch(() => {});
        lost();
      },
    };
  }

  async cancelPending(webhookId: string, reason: string): Promise<number> {
    const { rowCount } = await this.pool.query(
      `UPDATE deliveries SET status = 'CANCELLED', last_error = $2, updated_at = now() WHERE webhook_id = $1::uuid AND status = 'PENDING'`,
      [webhookId, reason],
    );
    return rowCount ?? 0;
  }

  async attempted(id: string, outcome: { status: DeliveryRecord['status']; error?: string | null; attempt?: boolean }): Promise<void> {
    await this.prisma.$executeRawUnsafe(
      `UPDATE deliveries SET status = $2, attempts = attempts + $3::int, last_error = COALESCE($4, last_error), updated_at = now() WHERE id = $1`,
      id, outcome.status, outcome.attempt === false ? 0 : 1, outcome.error ?? null,
    );
  }

  /**
   * A failed attempt of a webhook delivery, in one statement: the delivery's status and the
   * webhook's count of failures in a row. (Successes are recorded together: `sendable`.)
   */
  async webhookFailed(deliveryId: string, webhookId: string, outcome: { status: DeliveryRecord['status']; error?: string | null; retryAfterSeconds?: number }): Promise<{ failures: number; failingForMs: number }> {
    const rows = await this.query<{ failures: number | null; failing_for_ms: number | null }>(FAILED_SQL, [webhookId, deliveryId, outcome.status, outcome.error ?? null, outcome.retryAfterSeconds ?? null]);
    return { failures: rows[0]?.failures ?? 0, failingForMs: rows[0]?.failing_for_ms ?? 0 };
  }

  async disable(id: string, reason: string): Promise<boolean> {
    const n = await this.prisma.$executeRawUnsafe(`UPDATE webhooks SET disabled_at = now(), disabled_reason = $2 WHERE id = $1::uuid AND disabled_at IS NULL`, id, reason);
    return n > 0;
  }
}
