/**
 * Notifications' storage: webhooks (their secrets encrypted by the caller), deliveries with
 * their stable ids, and the "your turn" mail last sent per player and game. Fanning a
 * commit out is one transaction: the deliveries it implies and one job for each new one,
 * so running it again (at least once) adds nothing twice.
 */
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { DeliveryRecord, JobSpec, NewDelivery, WebhookRecord, WebhookStore as WebhookPort } from '../app/ports.ts';
import { jobJson } from './jobs.ts';

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

export class WebhookStore implements WebhookPort {
  constructor(private readonly prisma: PrismaClient) {}

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
   * Writes the deliveries (an id already stored is skipped) and, for each new one, the job
   * that makes it, in one transaction. Returns the ids written now.
   */
  async enqueue(deliveries: NewDelivery[], job: (d: NewDelivery) => JobSpec): Promise<string[]> {
    if (deliveries.length === 0) return [];
    const rows = await this.prisma.$queryRawUnsafe<{ id: string }[]>(
      `WITH d AS (
         INSERT INTO deliveries (id, channel, webhook_id, player_id, game_id, event, seat, version, body)
         SELECT x->>'id', x->>'channel', (x->>'webhookId')::uuid, (x->>'playerId')::uuid, (x->>'gameId')::uuid, x->>'event', x->>'seat', (x->>'version')::int, x->'body'
         FROM jsonb_array_elements($1::jsonb) AS x
         ON CONFLICT (id) DO NOTHING
         RETURNING id
       ), jobs AS (
         SELECT x FROM d, jsonb_array_elements($2::jsonb) AS x WHERE x->'payload'->>'id' = d.id
       ), j AS (
         -- One call for the whole fan-out (add_job per delivery cost about 0.45 ms each).
         SELECT id FROM graphile_worker.add_jobs(ARRAY(
           SELECT ROW(x->>'task', (x->'payload')::json, x->>'queueName', (x->>'runAt')::timestamptz, (x->>'maxAttempts')::smallint, x->>'key', (x->>'priority')::smallint, NULL)::graphile_worker.job_spec
           FROM jobs))
       )
       SELECT id FROM d WHERE (SELECT count(*) FROM j) >= 0`,
      JSON.stringify(deliveries),
      JSON.stringify(deliveries.map((d) => jobJson(job(d)))),
    );
    return rows.map((r) => r.id);
  }

  async attempted(id: string, outcome: { status: DeliveryRecord['status']; error?: string | null; attempt?: boolean }): Promise<void> {
    await this.prisma.$executeRawUnsafe(
      `UPDATE deliveries SET status = $2, attempts = attempts + $3::int, last_error = COALESCE($4, last_error), updated_at = now() WHERE id = $1`,
      id, outcome.status, outcome.attempt === false ? 0 : 1, outcome.error ?? null,
    );
  }

  /**
   * One attempt of a webhook delivery, in one statement: the delivery's status and the
   * webhook's count of failures in a row (not written when a success leaves it at 0).
   */
  async webhookAttempted(deliveryId: string, webhookId: string, ok: boolean, outcome: { status: DeliveryRecord['status']; error?: string | null }): Promise<{ failures: number; failingForMs: number }> {
    const rows = await this.prisma.$queryRawUnsafe<{ failures: number | null; failing_for_ms: number | null }[]>(
      `WITH w AS (
         UPDATE webhooks SET failures = CASE WHEN $2::boolean THEN 0 ELSE failures + 1 END,
           failing_since = CASE WHEN $2::boolean THEN NULL ELSE COALESCE(failing_since, now()) END
         WHERE id = $1::uuid AND NOT ($2::boolean AND failures = 0)
         RETURNING failures, failing_since
       ), d AS (
         UPDATE deliveries SET status = $4, attempts = attempts + 1, last_error = COALESCE($5, last_error), updated_at = now() WHERE id = $3
         RETURNING 1
       )
       SELECT (SELECT failures FROM w) AS failures,
         (SELECT (extract(epoch FROM now() - failing_since) * 1000)::float8 FROM w) AS failing_for_ms,
         (SELECT count(*) FROM d)::int AS deliveries`,
      webhookId, ok, deliveryId, outcome.status, outcome.error ?? null,
    );
    return { failures: rows[0]?.failures ?? 0, failingForMs: rows[0]?.failing_for_ms ?? 0 };
  }

  async disable(id: string, reason: string): Promise<boolean> {
    const n = await this.prisma.$executeRawUnsafe(`UPDATE webhooks SET disabled_at = now(), disabled_reason = $2 WHERE id = $1::uuid AND disabled_at IS NULL`, id, reason);
    return n > 0;
  }
}
