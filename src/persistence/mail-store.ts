/**
 * Play by mail on PostgreSQL (src/app/ports-mail.ts): an inbound message and the job that
 * handles it are stored by one statement, before the SMTP transaction or the HTTP request
 * is acknowledged; a Message-ID already stored adds nothing. Marking it handled queues its
 * answer in the same statement.
 */
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { InboundRecord, JobSpec, MailStore as MailPort, ReplyAddressRecord } from '../app/ports.ts';
import { jobJson } from './jobs.ts';

interface InboundRow { id: string; message_id: string | null; raw: Uint8Array; envelope: InboundRecord['envelope']; received_at: Date; handled_at: Date | null }

export class MailStore implements MailPort {
  constructor(private readonly prisma: PrismaClient) {}

  async receive(input: { id: string; messageId: string | null; raw: Buffer; envelope: InboundRecord['envelope'] }, job: JobSpec) {
    const spec = jobJson({ ...job, payload: { ...job.payload, id: input.id } });
    const rows = await this.prisma.$queryRawUnsafe<{ id: string; job: string | null }[]>(
      `WITH stored AS (
         INSERT INTO inbound_mails (id, message_id, raw, envelope) VALUES ($1::uuid, $2, $3, $4::jsonb)
         ON CONFLICT (message_id) DO NOTHING RETURNING id
       ), job AS (
         SELECT (graphile_worker.add_job($5, ($6::jsonb)::json, max_attempts => $7::int, priority => $8::int)).id FROM stored
       )
       SELECT stored.id::text AS id, (SELECT id::text FROM job) AS job FROM stored`,
      input.id, input.messageId, input.raw, JSON.stringify(input.envelope), spec.task, JSON.stringify(spec.payload), spec.maxAttempts ?? 5, spec.priority ?? 0,
    );
    if (rows.length) return { id: rows[0]!.id, duplicate: false };
    const known = await this.prisma.$queryRawUnsafe<{ id: string }[]>(`SELECT id::text AS id FROM inbound_mails WHERE message_id = $1`, input.messageId);
    return { id: known[0]?.id ?? input.id, duplicate: true };
  }

  async inbound(id: string): Promise<InboundRecord | null> {
    const rows = await this.prisma.$queryRawUnsafe<InboundRow[]>(`SELECT id::text AS id, message_id, raw, envelope, received_at, handled_at FROM inbound_mails WHERE id = $1::uuid`, id);
    const r = rows[0];
    return r ? { id: r.id, messageId: r.message_id, raw: Buffer.from(r.raw), envelope: r.envelope, receivedAt: r.received_at, handledAt: r.handled_at } : null;
  }

  /** One statement: the mark and the answer's jobs, or (already handled) neither. */
  async handled(id: string, playerId: string | null, outcome: string, jobs: JobSpec[]) {
    const rows = await this.prisma.$queryRawUnsafe<{ marked: number; jobs: number }[]>(
      `WITH marked AS (
         UPDATE inbound_mails SET handled_at = now(), player_id = COALESCE($2::uuid, player_id), outcome = $3
         WHERE id = $1::uuid AND handled_at IS NULL RETURNING id
       ), job AS (
         SELECT (graphile_worker.add_job(x->>'task', (x->'payload')::json, max_attempts => (x->>'maxAttempts')::int, priority => (x->>'priority')::int)).id
         FROM marked, jsonb_array_elements($4::jsonb) x
       )
       SELECT (SELECT count(*) FROM marked)::int AS marked, (SELECT count(*) FROM job)::int AS jobs`,
      id, playerId, outcome, JSON.stringify(jobs.map((j) => jobJson(j))),
    );
    return (rows[0]?.marked ?? 0) > 0;
  }

  /**
   * The rate limit's count is the database's, so it holds across worker processes and
   * concurrent jobs: a transaction takes the player's advisory lock, then counts and claims
   * in a statement of its own (read committed: its snapshot sees every claim committed
   * before the lock was granted). Only admitted mails count (`admitted_at`): a refused one
   * is the player's too once handled, and counting it would keep a steady sender out for good.
   */
  async admit(id: string, playerId: string, perHour: number) {
    return this.prisma.$transaction(async (tx) => {
      await tx.$queryRawUnsafe(`SELECT pg_advisory_xact_lock(hashtextextended('mail-rate:' || $1, 0))::text`, playerId);
      // statement_timestamp(): once the lock is held, not when the transaction began waiting for it.
      const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
        `UPDATE inbound_mails m SET player_id = $2::uuid, admitted_at = COALESCE(m.admitted_at, statement_timestamp())
         WHERE m.id = $1::uuid AND ((m.player_id = $2::uuid AND m.admitted_at IS NOT NULL) OR (
           SELECT count(*) FROM inbound_mails o
           WHERE o.player_id = $2::uuid AND o.id <> m.id AND o.admitted_at >= statement_timestamp() - interval '1 hour'
         ) < $3::int)
         RETURNING m.id::text AS id`,
        id, playerId, perHour,
      );
      return rows.length > 0;
    });
  }

  async saveReplyAddress(tokenHash: string, a: ReplyAddressRecord) {
    await this.prisma.$executeRawUnsafe(
      `INSERT INTO mail_reply_addresses (token_hash, player_id, game_id, seat) VALUES ($1, $2::uuid, $3::uuid, $4) ON CONFLICT (token_hash) DO NOTHING`,
      tokenHash, a.playerId, a.gameId, a.seat,
    );
  }

  async replyAddress(tokenHash: string): Promise<ReplyAddressRecord | null> {
    const rows = await this.prisma.$queryRawUnsafe<{ player_id: string; game_id: string; seat: string }[]>(`SELECT player_id::text, game_id::text, seat FROM mail_reply_addresses WHERE token_hash = $1`, tokenHash);
    const r = rows[0];
    return r ? { playerId: r.player_id, gameId: r.game_id, seat: r.seat } : null;
  }
}
