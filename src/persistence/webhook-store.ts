/**
 * Notifications' storage: webhooks (their secrets encrypted by the caller), deliveries with
 * their stable ids, and the "your turn" mail last sent per player and game. Fanning commits
 * out is one transaction: the deliveries they imply, a job for each new mail, each webhook
 * that got one woken, and the game's notify gate moved on, so running it again (at least
 * once) adds nothing twice.
 *
 * Gates (tables job_gates and job_gate_marks, migration 20261225090000_coalesced_notifications): a game's fan-out
 * ('notify:<game>') and a webhook's sender ('webhook:<webhook>') each run as one job at a time.
 * Whoever opens a gate (open_job_gate: an upsert, so it waits for a job closing it) adds its
 * job in the same statement; the job closes it in a transaction that locks the gate's row
 * first and only then looks for work left (a statement of its own, so a snapshot taken after
 * the lock): work committed before the lock is seen, work committed after it opens the gate
 * again with a new job.
 */
import type pg from 'pg';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { notifyGate, webhookGate } from '../app/planners.ts';
import type { DeliveryJobs, DeliveryRecord, JobSpec, NewDelivery, StoredOutboxEntry, WebhookRecord, WebhookStore as WebhookPort } from '../app/ports.ts';
import { TASKS } from '../app/tasks.ts';
import { jobJson } from './jobs.ts';
import { prepared, statementName } from './statements.ts';

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
 * synchronous_commit on). What they write is made durable by a later commit that waits: the
 * job's completion (graphile-worker's, synchronous) flushes the WAL up to it and so every
 * earlier record, and a crash before that leaves the job to run again: a fan-out writes the same
 * deliveries again (their ids), a sender makes a delivery again (its webhook-id).
 */
const ASYNC = `SELECT set_config('synchronous_commit', 'off', true)`;

const ENQUEUE_SQL = prepared(`WITH s AS (${ASYNC}), d AS (
  INSERT INTO deliveries (id, channel, webhook_id, player_id, game_id, event, seat, version, body)
  SELECT x->>'id', x->>'channel', (x->>'webhookId')::uuid, (x->>'playerId')::uuid, (x->>'gameId')::uuid, x->>'event', x->>'seat', (x->>'version')::int, x->'body'
  FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(x, n) ORDER BY n
  ON CONFLICT (id) DO NOTHING
  RETURNING id, channel, webhook_id::text AS webhook_id
), mails AS (
  SELECT x FROM d, jsonb_array_elements($2::jsonb) AS x WHERE d.channel = 'MAIL' AND x->'payload'->>'id' = d.id
), woken AS MATERIALIZED (
  -- Each webhook given a delivery now, in the order of their ids (two fan-outs lock their gates alike).
  -- Materialized: inlined, the planner may test open_job_gate below on every hook of $3, before
  -- the join with the deliveries written, and so open the gate of a webhook given none (a rerun
  -- fan-out whose ids were all stored) without adding its sender.
  SELECT x FROM (SELECT DISTINCT webhook_id FROM d WHERE channel = 'WEBHOOK') w, jsonb_array_elements($3::jsonb) AS x
  WHERE x->>'webhookId' = w.webhook_id ORDER BY w.webhook_id
), specs AS MATERIALIZED (
  -- A job each new mail, then a sender each webhook whose gate this opens (the gates locked in that order).
  SELECT ARRAY(
    SELECT ROW(j->>'task', (j->'payload')::json, j->>'queueName', (j->>'runAt')::timestamptz, (j->>'maxAttempts')::smallint, j->>'key', (j->>'priority')::smallint, NULL)::graphile_worker.job_spec
    FROM (SELECT x AS j FROM mails UNION ALL SELECT x->'job' FROM woken WHERE open_job_gate(x->>'gate', NULL)) t) AS specs
), added AS (
  -- Them all in one add_jobs (add_job calls it too, so keys replace alike): one NOTIFY, and none
  -- without a job (add_jobs NOTIFYs even for none, and every idle lane of every process then
  -- fetches). One add_job a delivery cost about 0.45 ms each.
  SELECT j.id FROM specs a, LATERAL graphile_worker.add_jobs(a.specs) j WHERE cardinality(a.specs) > 0
), g AS (
  UPDATE job_gate_marks SET through = GREATEST(through, $5::int), through_id = GREATEST(through_id, $6::bigint) WHERE $4::text IS NOT NULL AND key = $4::text RETURNING 1
)
SELECT id FROM d WHERE (SELECT count(*) FROM added) >= 0 AND (SELECT count(*) FROM g) >= 0 AND (SELECT count(*) FROM s) >= 0`);

const UNNOTIFIED_SQL = prepared(`SELECT m.through, o.game_id::text AS game_id, o.id::text AS id, o.version, o.kind, o.seat, o.data, o.created_at
  FROM job_gates g JOIN job_gate_marks m ON m.key = g.key
  LEFT JOIN outbox o ON o.game_id = $1::uuid AND o.id > COALESCE(m.through_id, 0) AND o.version > m.through AND o.version <= $3::int
  WHERE g.key = $2 AND g.open ORDER BY o.version, o.id`);

/**
 * The ends of a run (migration 20261226090000: a sender's successes recorded, the gate's row
 * locked, a look for work left, and once closed the job's key given up), committed as ASYNC says.
 */
const SETTLE_NOTIFY_SQL = prepared(`WITH s AS (${ASYNC}) SELECT settle_notify_gate($1, $2::uuid) AS closed FROM s`);
const SETTLE_WEBHOOK_SQL = prepared(`WITH s AS (${ASYNC}) SELECT settle_webhook_gate($1, $2::uuid, $3, $4::json, $5, $6::int, $7::int, $8::text[]) AS state FROM s`);

/**
 * Gates open for $1 seconds or more with no job of their key that may still run (every gated
 * job is keyed by its gate), marked as opened now: a second healer waiting on the row finds
 * it opened just now and leaves it.
 */
const STUCK_GATES_SQL = `UPDATE job_gates g SET opened_at = now() WHERE g.open AND g.opened_at <= now() - make_interval(secs => $1::float8)
  AND NOT EXISTS (SELECT 1 FROM graphile_worker._private_jobs j WHERE j.key = g.key AND (j.attempts < j.max_attempts OR j.locked_at IS NOT NULL)) RETURNING g.key`;

/**
 * The rows of gated jobs that closed their gate (their key given up, their attempts spent:
 * give_up_job_key) but were never completed: graphile-worker's completion, which deletes the
 * row, failed (a lost connection, say) and the row would stay for good, locked until its four
 * hours ran out and then never fetched. Their work was done; deleting the row is what the
 * completion would have done, and this synchronous commit makes the close durable as that
 * one would have. A job that failed has a last_error, and one of a gate still open keeps its
 * key: neither is touched. Unlocked ones, or locked for $1 seconds (a run ends well before).
 */
const CLOSED_UNCOMPLETED_SQL = `DELETE FROM graphile_worker._private_jobs j USING graphile_worker._private_tasks t
  WHERE t.id = j.task_id AND t.identifier = ANY($2::text[]) AND j.key IS NULL AND j.attempts >= j.max_attempts AND j.last_error IS NULL
  AND (j.locked_at IS NULL OR j.locked_at <= now() - make_interval(secs => $1::float8))`;

/**
 * A sender's next read, in one statement: the successes of its run so far recorded ($3), then
 * the webhook as it is and its next due deliveries ($2 at most; those just recorded are not
 * due: this statement's snapshot still shows them pending). No row: the webhook is gone.
 */
const SENDING_SQL = prepared(`WITH s AS (${ASYNC}), r AS (SELECT record_delivered($1::uuid, $3::text[]))
SELECT ${COLUMNS.split(', ').map((c) => `w.${c} AS w_${c.replace('::text', '')}`).join(', ')}, d.*
FROM webhooks w LEFT JOIN LATERAL (
  SELECT ${DELIVERY_COLUMNS} FROM deliveries
  WHERE webhook_id = w.id AND status = 'PENDING' AND (next_attempt_at IS NULL OR next_attempt_at <= now()) AND NOT (id = ANY($3::text[]))
  ORDER BY seq LIMIT $2::int
) d ON true
WHERE w.id = $1::uuid AND (SELECT count(*) FROM s) >= 0 AND (SELECT count(*) FROM r) >= 0`);

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
  constructor(private readonly prisma: PrismaClient, private readonly pool: pg.Pool) {}

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

  /** The enabled webhooks listening to a game: its own, and those of its players for all their games. */
  async listening(gameId: string, playerIds: string[]): Promise<WebhookRecord[]> {
    const rows = await this.prisma.$queryRawUnsafe<WebhookRow[]>(
      `SELECT ${COLUMNS} FROM webhooks WHERE disabled_at IS NULL AND (game_id = $1::uuid OR (game_id IS NULL AND player_id = ANY($2::uuid[]))) ORDER BY id`,
      gameId, playerIds,
    );
    return rows.map(webhook);
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
   * Writes the deliveries (an id already stored is skipped), a job for each new mail, wakes
   * each webhook given a new one (its gate opened with its sender's job, unless open), and
   * moves the game's notify gate on: one statement. Returns the ids written now.
   */
  async enqueue(deliveries: NewDelivery[], jobs: DeliveryJobs, notified?: { gameId: string; through: number; lastRowId?: string }): Promise<string[]> {
    if (deliveries.length === 0 && !notified) return [];
    const hooks = [...new Set(deliveries.filter((d) => d.channel === 'WEBHOOK' && d.webhookId).map((d) => d.webhookId!))];
    const rows = await this.query<{ id: string }>(ENQUEUE_SQL, [
      JSON.stringify(deliveries),
      JSON.stringify(deliveries.filter((d) => d.channel === 'MAIL').map((d) => jobJson(jobs.mail(d)))),
      JSON.stringify(hooks.map((id) => ({ webhookId: id, gate: webhookGate(id), job: jobJson(jobs.webhook(id)) }))),
      notified ? notifyGate(notified.gameId) : null,
      notified?.through ?? null,
      notified?.lastRowId ?? null,
    ]);
    return rows.map((r) => r.id);
  }

  async unnotified(gameId: string, upTo: number): Promise<{ through: number; rows: StoredOutboxEntry[] } | null> {
    const rows = await this.query<{ through: number | null; game_id: string | null; id: string | null; version: number; kind: string; seat: string | null; data: Record<string, unknown>; created_at: Date }>(
      UNNOTIFIED_SQL, [gameId, notifyGate(gameId), upTo],
    );
    if (!rows[0]) return null;
    return {
      through: rows[0].through ?? 0,
      rows: rows.filter((r) => r.id !== null).map((r) => ({ gameId: r.game_id!, id: r.id!, version: r.version, kind: r.kind, seat: r.seat, data: r.data, createdAt: r.created_at }) as StoredOutboxEntry),
    };
  }

  async healGates(seconds: number, job: (key: string) => JobSpec | null): Promise<string[]> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ key: string }>(STUCK_GATES_SQL, [seconds]);
      const healed: string[] = [];
      for (const { key } of rows) {
        const spec = job(key);
        if (!spec) continue;
        const j = jobJson(spec);
        await client.query(
          'SELECT graphile_worker.add_job($1, $2::json, max_attempts => $3::int, job_key => $4, priority => $5::int)',
          [j.task, JSON.stringify(j.payload), j.maxAttempts, j.key, j.priority],
        );
        healed.push(key);
      }
      await client.query(CLOSED_UNCOMPLETED_SQL, [seconds, [TASKS.notify, TASKS.webhook]]);
      await client.query('COMMIT');
      return healed;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async settleNotify(gameId: string): Promise<boolean> {
    const rows = await this.query<{ closed: boolean }>(SETTLE_NOTIFY_SQL, [notifyGate(gameId), gameId]);
    return rows[0]!.closed;
  }

  async wake(webhookId: string, job: JobSpec): Promise<void> {
    const j = jobJson(job);
    await this.pool.query(
      `SELECT (graphile_worker.add_job($2, $3::json, max_attempts => $4::int, job_key => $5, priority => $6::int)).id WHERE open_job_gate($1, NULL)`,
      [webhookGate(webhookId), j.task, JSON.stringify(j.payload), j.maxAttempts, j.key, j.priority],
    );
  }

  async sending(webhookId: string, limit: number, delivered: string[]): Promise<{ webhook: WebhookRecord | null; due: DeliveryRecord[] }> {
    const rows = await this.query<DeliveryRow & { [k: `w_${string}`]: never }>(SENDING_SQL, [webhookId, limit, delivered]);
    const first = rows[0] as unknown as Record<string, unknown> | undefined;
    if (!first) return { webhook: null, due: [] };
    const w = Object.fromEntries(Object.entries(first).filter(([k]) => k.startsWith('w_')).map(([k, v]) => [k.slice(2), v])) as unknown as WebhookRow;
    return { webhook: webhook(w), due: rows.filter((r) => r.id !== null).map(delivery) };
  }

  async cancelPending(webhookId: string, reason: string): Promise<number> {
    const { rowCount } = await this.pool.query(
      `UPDATE deliveries SET status = 'CANCELLED', last_error = $2, updated_at = now() WHERE webhook_id = $1::uuid AND status = 'PENDING'`,
      [webhookId, reason],
    );
    return rowCount ?? 0;
  }

  async settleWebhook(webhookId: string, timer: JobSpec, delivered: string[] = []): Promise<'due' | 'waiting' | 'idle'> {
    // The timer runs when the first waiting delivery is due (worked out by the statement).
    const j = jobJson(timer);
    const rows = await this.query<{ state: 'due' | 'waiting' | 'idle' }>(SETTLE_WEBHOOK_SQL, [webhookGate(webhookId), webhookId, j.task, JSON.stringify(j.payload), j.key, j.priority, j.maxAttempts, delivered]);
    return rows[0]!.state;
  }

  async attempted(id: string, outcome: { status: DeliveryRecord['status']; error?: string | null; attempt?: boolean }): Promise<void> {
    await this.prisma.$executeRawUnsafe(
      `UPDATE deliveries SET status = $2, attempts = attempts + $3::int, last_error = COALESCE($4, last_error), updated_at = now() WHERE id = $1`,
      id, outcome.status, outcome.attempt === false ? 0 : 1, outcome.error ?? null,
    );
  }

  /**
   * A failed attempt of a webhook delivery, in one statement: the delivery's status and the
   * webhook's count of failures in a row. (Successes are recorded together: `sending`, `settleWebhook`.)
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
