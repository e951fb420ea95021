/**
 * The store's frequent statements run as named prepared statements: PostgreSQL parses and
 * plans each once per connection instead of on every call (the append is a CTE of seven
 * parts, costly to parse and plan again for each command). Only the statements registered here are
 * named, so the set each connection keeps is small and fixed; Prisma's own queries stay
 * unnamed. Named statements never select `*`: a column added by a migration while a process
 * runs would change a cached statement's result type, which PostgreSQL refuses.
 */
import { createHash } from 'node:crypto';

const names = new Map<string, string>();

/** Registers `sql` as a named statement and returns it unchanged. */
export function prepared(sql: string): string {
  if (!names.has(sql)) names.set(sql, `ws_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`);
  return sql;
}

/**
 * Parameter `n` as a scalar subquery, `(SELECT $n::type)::type`, which no plan looks into: a
 * named statement's first five runs on a connection get custom plans, built for their values,
 * and PostgreSQL keeps the generic plan after that only if it costs no more than they did on
 * average. Given straight, a custom plan counts an array's elements (the generic one guesses
 * ten) and folds a false flag's branch away, so a statement asked about a few ids looked
 * cheaper planned again, and was planned again on nearly every call (bench/README.md, rounds
 * twenty and twenty-one). Through the subquery both plans cost the same.
 */
export const opaque = (n: number, type: string): string => `(SELECT $${n}::${type})::${type}`;

/** For the pg adapter's statementNameGenerator: a name for registered SQL, none for the rest. */
export function statementName(query: { sql: string }): string | undefined {
  return names.get(query.sql);
}

/** Every column of games, in the order the store reads them. */
export const GAME_COLUMN_LIST = [
  'id', 'type', 'options', 'players', 'seed_commitment', 'seed', 'status', 'version', 'awaiting', 'result', 'rules', 'created_at', 'updated_at',
  'seats', 'player_ids', 'bots', 'visibility', 'invite_code_hash', 'created_by', 'clock_per_move', 'clock_on_timeout',
];

/**
 * The row's revision: the transaction that wrote this version of the row (any update of it
 * writes a new one) with the game's version. Equal revisions, the same row.
 */
export const REVISION = `xmin::text || '/' || version`;

/** Every column of games and the row's revision (GameRecord.revision). */
export const GAME_COLUMNS = [...GAME_COLUMN_LIST, `${REVISION} AS revision`].join(', ');

/**
 * Seat.absentUntil, read with the game (the row's `player_ids` and `status` as `ids` and
 * `status`): the end of each absence under way of a player holding a seat, as jsonb of
 * player id to epoch milliseconds (null: nobody is away, or the game is over). An absence
 * set right after another (it starts when the other ends) extends it. The same rule as
 * absentUntil in src/app/absence.ts.
 */
export function awaySql(ids: string, status: string): string {
  return `CASE WHEN ${status} IN ('FINISHED', 'ABANDONED') OR cardinality(${ids}) = 0 THEN NULL ELSE (
  WITH RECURSIVE chain AS (
    SELECT player_id, ends_at FROM absences WHERE player_id = ANY(${ids}) AND starts_at <= now() AND ends_at > now()
    UNION
    SELECT a.player_id, a.ends_at FROM absences a JOIN chain c ON a.player_id = c.player_id AND a.starts_at = c.ends_at
  )
  SELECT jsonb_object_agg(player_id, floor(extract(epoch FROM until) * 1000)::bigint) FROM (SELECT player_id, max(ends_at) AS until FROM chain GROUP BY player_id) x) END`;
}

/** The away column (awaySql) as the core's Away. */
export function awayOf(json: unknown): Map<string, Date> {
  const out = new Map<string, Date>();
  if (json && typeof json === 'object') for (const [id, ms] of Object.entries(json)) out.set(id, new Date(Number(ms)));
  return out;
}
