/**
 * The daily digest and the calendar feed on PostgreSQL (src/app/ports-digest.ts). A day's
 * digest is one row of digest_mails, inserted by the statement that adds its mail job: two
 * processes sending the same player's digest of the same day add one job between them.
 */
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { DigestStore as DigestPort, JobSpec } from '../app/ports.ts';
import { jobJson } from './jobs.ts';

export class DigestStore implements DigestPort {
  constructor(private readonly prisma: PrismaClient) {}

  async readers(): Promise<string[]> {
    const rows = await this.prisma.$queryRawUnsafe<{ id: string }[]>(
      `SELECT id::text AS id FROM players WHERE email_digest AND notify_by_email AND email_verified AND email IS NOT NULL ORDER BY id`,
    );
    return rows.map((r) => r.id);
  }

  async record(playerId: string, day: string, games: number, job: JobSpec): Promise<boolean> {
    const spec = jobJson(job);
    const rows = await this.prisma.$queryRawUnsafe<{ job: string | null }[]>(
      `WITH sent AS (
         INSERT INTO digest_mails (player_id, day, games) VALUES ($1::uuid, $2::date, $3::int)
         ON CONFLICT (player_id, day) DO NOTHING RETURNING player_id
       ), job AS (
         SELECT (graphile_worker.add_job($4, ($5::jsonb)::json, max_attempts => $6::int, priority => $7::int)).id FROM sent
       )
       SELECT (SELECT id::text FROM job) AS job FROM sent`,
      playerId, day, games, spec.task, JSON.stringify(spec.payload), spec.maxAttempts ?? 10, spec.priority ?? 0,
    );
    return rows.length > 0;
  }

  async saveCalendarToken(tokenHash: string, playerId: string, generation: number): Promise<void> {
    await this.prisma.$executeRawUnsafe(
      `INSERT INTO calendar_tokens (token_hash, player_id, generation) VALUES ($1, $2::uuid, $3::int) ON CONFLICT (token_hash) DO NOTHING`,
      tokenHash, playerId, generation,
    );
  }

  async calendarPlayer(tokenHash: string): Promise<string | null> {
    const rows = await this.prisma.$queryRawUnsafe<{ id: string }[]>(
      `SELECT p.id::text AS id FROM calendar_tokens c JOIN players p ON p.id = c.player_id AND p.token_generation = c.generation WHERE c.token_hash = $1`,
      tokenHash,
    );
    return rows[0]?.id ?? null;
  }
}
