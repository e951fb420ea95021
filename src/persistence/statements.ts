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
