/**
 * The clocks' storage. A deadline is never stored by a process: it is derived, in the
 * database, from stored facts: the SEAT_AWAITED outbox row written when the game started
 * awaiting the seat (its created_at, set by PostgreSQL's now()) plus the game's
 * clock_per_move, plus the time of the holding player's absences in between
 * (absence_deadline). The jobs that act on them are added with the commit that wrote the
 * row (the clock planner, src/app/planners.ts) and moved by an absence (AbsenceStore).
 */
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { ClockStore as ClockPort, SeatDeadline } from '../app/ports.ts';

export type { SeatDeadline } from '../app/ports.ts';

/**
 * The latest SEAT_AWAITED row of each seat the game awaits (at or before a version); the
 * deadline counts none of the holding player's absences (absence_deadline, migration
 * 20261214090000_absence). With `warning`, also when the seat's "deadline soon" warning is
 * due (absence_warning, migration 20261227090001_deadline_warning_after_absence): only the
 * deadline jobs ask, not the reads.
 */
const deadlinesSql = (warning: boolean) => `
SELECT s.seat, o.version, g.version AS game_version, d.deadline, d.deadline <= now() AS passed${warning ? ', w.soon, w.soon <= now() AS soon_passed' : ''}
FROM games g
CROSS JOIN LATERAL unnest(g.awaiting) AS s(seat)
CROSS JOIN LATERAL (
  SELECT version, created_at FROM outbox
  WHERE game_id = g.id AND kind = 'SEAT_AWAITED' AND seat = s.seat AND version <= $2::int
  ORDER BY id DESC LIMIT 1
) o
CROSS JOIN LATERAL (SELECT seat_player(g.seats, s.seat) AS player) p
CROSS JOIN LATERAL (SELECT absence_deadline(p.player, o.created_at, g.clock_per_move) AS deadline) d
${warning ? 'CROSS JOIN LATERAL (SELECT absence_warning(p.player, o.created_at, g.clock_per_move) AS soon) w\n' : ''}WHERE g.id = $1::uuid AND g.clock_per_move IS NOT NULL AND ($3::text IS NULL OR s.seat = $3::text)`;
const DEADLINES_SQL = deadlinesSql(false);
const DEADLINE_SQL = deadlinesSql(true);

export class ClockStore implements ClockPort {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * The deadlines of the seats the game awaits, as of `version` (a seat awaited only to
   * answer a draw offer may appear with the row of an earlier decision: callers keep the
   * seats whose decision the game awaits).
   */
  async deadlines(gameId: string, version: number): Promise<SeatDeadline[]> {
    const rows = await this.prisma.$queryRawUnsafe<{ seat: string; version: number; deadline: Date }[]>(DEADLINES_SQL, gameId, version, null);
    return rows.map((r) => ({ seat: r.seat, version: r.version, deadline: r.deadline }));
  }

  /**
   * One seat's deadline now, whether it has passed by the database's clock, and the game's
   * version it was read at (all from one statement, so they agree); `soon`: when its warning
   * is due (a quarter of the time left, or the player's return from an absence begun after that).
   */
  async deadline(gameId: string, seat: string): Promise<(SeatDeadline & { passed: boolean; gameVersion: number; soon: Date; soonPassed: boolean }) | null> {
    const rows = await this.prisma.$queryRawUnsafe<{ seat: string; version: number; game_version: number; deadline: Date; passed: boolean; soon: Date; soon_passed: boolean }[]>(
      DEADLINE_SQL, gameId, 2_147_483_647, seat,
    );
    const r = rows[0];
    return r ? { seat: r.seat, version: r.version, deadline: r.deadline, passed: r.passed, gameVersion: r.game_version, soon: r.soon, soonPassed: r.soon_passed } : null;
  }
}
