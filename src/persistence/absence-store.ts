/**
 * Absences on PostgreSQL (migration 20261214090000_absence). A request of a player runs in
 * one transaction holding that player's row lock, so two processes never store
 * overlapping absences or more than the allowance between them; the rules are the core's
 * (the `check` passed in), read at the database's clock. The same transaction moves the
 * waiting deadline jobs of the player's awaited seats (the clock planner's keys
 * `deadline:<game>:<seat>`, graphile_worker.reschedule_jobs, and `deadline-soon:<game>:<seat>`,
 * add_job with its key) to the times absence_deadline and absence_warning now derive: a
 * pending job exists as before, only its run_at follows the absence; a warning already given
 * is planned again for the player's return when an absence begun after it moved the
 * deadline. A job being run at that moment is left alone; it reads the deadline again and
 * moves itself if it is early (src/app/deadlines.ts).
 */
import { randomUUID } from 'node:crypto';
import { DEADLINE_SOON_ATTEMPTS } from '../app/planners.ts';
import { priorityOf, TASKS } from '../app/tasks.ts';
import { prepared } from './statements.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { AbsenceRecord, AbsenceStore as AbsencePort } from '../app/ports.ts';

type Tx = Pick<PrismaClient, '$queryRawUnsafe' | '$executeRawUnsafe'>;
type Row = { id: string; player_id: string; starts_at: Date; ends_at: Date };
const record = (r: Row): AbsenceRecord => ({ id: r.id, playerId: r.player_id, from: r.starts_at, until: r.ends_at });

/**
 * Moves the pending deadline jobs of the player's awaited seats to their derived times. The
 * warning's job is added again when it already ran and is due again now or later
 * (absence_warning: the player is back from an absence begun after the warning, with the
 * deadline it moved); a job being run is left to finish, and the new one takes the key.
 */
const MOVE_JOBS_SQL = `
WITH seats AS (
  SELECT g.id AS game_id, s.seat, g.clock_per_move, o.created_at, o.version
  FROM games g
  CROSS JOIN LATERAL unnest(g.awaiting) AS s(seat)
  CROSS JOIN LATERAL (
    SELECT created_at, version FROM outbox WHERE game_id = g.id AND kind = 'SEAT_AWAITED' AND seat = s.seat ORDER BY id DESC LIMIT 1
  ) o
  WHERE $1::uuid = ANY(g.player_ids) AND g.clock_per_move IS NOT NULL AND seat_player(g.seats, s.seat) = $1::uuid
), moved AS (
  SELECT count(r.id)::int AS n FROM seats
  CROSS JOIN LATERAL graphile_worker.reschedule_jobs(
    ARRAY(SELECT j.id FROM graphile_worker._private_jobs j WHERE j.key = 'deadline:' || seats.game_id || ':' || seats.seat AND j.locked_at IS NULL),
    run_at => absence_deadline($1::uuid, seats.created_at, seats.clock_per_move)
  ) r
), warnings AS (
  SELECT w.*, 'deadline-soon:' || w.game_id || ':' || w.seat AS key FROM (
    SELECT seats.*, absence_warning($1::uuid, seats.created_at, seats.clock_per_move) AS run_at FROM seats
  ) w
), warned AS (
  SELECT count((graphile_worker.add_job($2::text, json_build_object('gameId', w.game_id, 'seat', w.seat, 'version', w.version),
    run_at => w.run_at, max_attempts => $3::int, job_key => w.key, priority => $4::int)).id)::int AS n
  FROM warnings w
  WHERE w.run_at >= now()::timestamptz(3)
    OR EXISTS (SELECT 1 FROM graphile_worker._private_jobs j WHERE j.key = w.key AND j.locked_at IS NULL)
)
SELECT moved.n + warned.n AS moved FROM moved, warned`;

export class AbsenceStore implements AbsencePort {
  constructor(private readonly prisma: PrismaClient) {}

  async list(playerId: string): Promise<AbsenceRecord[]> {
    const rows = await this.prisma.$queryRawUnsafe<Row[]>(
      `SELECT id, player_id, starts_at, ends_at FROM absences
       WHERE player_id = $1::uuid AND ends_at >= date_trunc('year', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
       ORDER BY starts_at`,
      playerId,
    );
    return rows.map(record);
  }

  /** One player at a time (their row's lock), the rules at the database's clock, then the jobs. */
  private async locked<T>(playerId: string, work: (tx: Tx, now: Date) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(async (tx) => {
      const rows = await tx.$queryRawUnsafe<{ now: Date }[]>('SELECT now() AS now FROM players WHERE id = $1::uuid FOR UPDATE', playerId);
      if (!rows[0]) throw new Error(`no player ${playerId}`);
      const out = await work(tx, rows[0].now);
      await tx.$queryRawUnsafe(MOVE_JOBS_SQL, playerId, TASKS.deadlineSoon, DEADLINE_SOON_ATTEMPTS, priorityOf(TASKS.deadlineSoon));
      return out;
    });
  }

  async set(playerId: string, from: Date, until: Date, check: (now: Date, others: AbsenceRecord[]) => Date): Promise<AbsenceRecord> {
    return this.locked(playerId, async (tx, now) => {
      // Every absence that can still overlap or share a calendar year with this one.
      const others = (
        await tx.$queryRawUnsafe<Row[]>(
          `SELECT id, player_id, starts_at, ends_at FROM absences
         WHERE player_id = $1::uuid AND ends_at >= date_trunc('year', least($2::timestamptz, now()) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
         ORDER BY starts_at`,
          playerId,
          from,
        )
      ).map(record);
      const start = check(now, others);
      const rows = await tx.$queryRawUnsafe<Row[]>(
        'INSERT INTO absences (id, player_id, starts_at, ends_at) VALUES ($1::uuid, $2::uuid, $3::timestamptz, $4::timestamptz) RETURNING id, player_id, starts_at, ends_at',
        randomUUID(),
        playerId,
        start,
        until,
      );
      return record(rows[0]!);
    });
  }

  async cancel(playerId: string, id: string): Promise<'cancelled' | 'over' | 'unknown'> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return 'unknown';
    return this.locked(playerId, async (tx) => {
      const rows = await tx.$queryRawUnsafe<{ starts_at: Date; ends_at: Date; begun: boolean; over: boolean }[]>(
        'SELECT starts_at, ends_at, starts_at <= now() AS begun, ends_at <= now() AS over FROM absences WHERE id = $1::uuid AND player_id = $2::uuid',
        id,
        playerId,
      );
      const row = rows[0];
      if (!row) return 'unknown';
      if (row.over) return 'over';
      if (row.begun) await tx.$executeRawUnsafe("UPDATE absences SET ends_at = greatest(now(), starts_at + interval '1 millisecond') WHERE id = $1::uuid", id);
      else await tx.$executeRawUnsafe('DELETE FROM absences WHERE id = $1::uuid', id);
      return 'cancelled';
    });
  }

  async absentUntil(playerIds: string[]): Promise<Map<string, Date>> {
    if (playerIds.length === 0) return new Map();
    // The absence under way, and any that follows it without a gap (set one after the other).
    const rows = await this.prisma.$queryRawUnsafe<{ player_id: string; until: Date }[]>(ABSENT_UNTIL_SQL, [...new Set(playerIds)]);
    return new Map(rows.map((r) => [r.player_id, r.until]));
  }
}

/**
 * Read with every read of a game a player holds a seat in (Seat.absentUntil): a named
 * statement, parsed and planned once per connection (statements.ts), as the command path's are.
 */
const ABSENT_UNTIL_SQL = prepared(
  `WITH RECURSIVE chain AS (
         SELECT player_id, ends_at FROM absences WHERE player_id = ANY($1::uuid[]) AND starts_at <= now() AND ends_at > now()
         UNION
         SELECT a.player_id, a.ends_at FROM absences a JOIN chain c ON a.player_id = c.player_id AND a.starts_at = c.ends_at
       )
       SELECT player_id, max(ends_at) AS until FROM chain GROUP BY player_id`,
);
