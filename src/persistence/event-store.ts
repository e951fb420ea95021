/**
 * The event store: one stream per game. Appends name the version they expect; the
 * database tells racing writers apart (a conditional update of the game's version and
 * the (game_id, version) key on events), never an in-process lock.
 */
import type pg from 'pg';
import { Prisma, type PrismaClient } from '../generated/prisma/client.ts';
import { jobJson, jobsSql } from './jobs.ts';
import { awayOf, awaySql, GAME_COLUMNS, prepared, REVISION, statementName } from './statements.ts';
import type {
  AppendInput, AppendOutcome, Away, CommandRecord, GameRecord, GameStore, LagTolerantReads, NewGame, OutboxEntry, SeatEntry, StoredEvent, StoredOutboxEntry,
} from '../app/ports.ts';

export type {
  AppendInput, AppendOutcome, CommandRecord, GameRecord, GameSummary, LobbyFields, NewEvent, NewGame, OutboxEntry, SeatEntry, StoredEvent, StoredOutboxEntry,
} from '../app/ports.ts';

/** The channel every process LISTENs on; payloads carry ids, never rows (8000-byte limit). */
export const EVENTS_CHANNEL = 'game_events';

function uniqueConstraint(error: unknown): string | null {
  // Straight from pg (the hot statements): the unique violation names its index.
  if (error instanceof Error && (error as { code?: unknown }).code === '23505' && !(error instanceof Prisma.PrismaClientKnownRequestError)) {
    return (error as { constraint?: string }).constraint ?? 'unknown';
  }
  // P2002 from the query builder, P2010 from raw SQL; through the pg adapter meta.target is
  // empty and the constraint is in the driver error, naming an index ({ index }) or columns.
  if (!(error instanceof Prisma.PrismaClientKnownRequestError) || (error.code !== 'P2002' && error.code !== 'P2010')) return null;
  const meta = error.meta as { driverAdapterError?: { cause?: { originalCode?: string; constraint?: { index?: string; fields?: string[] } | string } }; target?: unknown } | undefined;
  const cause = meta?.driverAdapterError?.cause;
  if (error.code === 'P2010' && cause?.originalCode !== '23505') return null;
  const c = cause?.constraint;
  if (typeof c === 'string') return c;
  return c?.index ?? c?.fields?.join(',') ?? String(meta?.target ?? 'unknown');
}

function toGame(row: {
  id: string; type: string; options: unknown; players: unknown; seedCommitment: string; seed: string; status: string;
  version: number; awaiting: string[]; result: unknown; rules: string; createdAt: Date; updatedAt: Date;
  seats?: unknown; playerIds?: string[]; bots?: string[]; visibility?: string; inviteCodeHash?: string | null; createdBy?: string | null;
  clockPerMove?: number | null; clockOnTimeout?: string | null; revision?: string;
}): GameRecord {
  return {
    id: row.id, type: row.type, options: row.options, players: row.players as GameRecord['players'], seedCommitment: row.seedCommitment, seed: row.seed,
    status: row.status, version: row.version, awaiting: row.awaiting, result: (row.result ?? null) as GameRecord['result'], rules: row.rules,
    createdAt: row.createdAt, updatedAt: row.updatedAt,
    seats: (row.seats ?? []) as SeatEntry[], playerIds: row.playerIds ?? [], bots: row.bots ?? [], visibility: row.visibility ?? 'PRIVATE',
    inviteCodeHash: row.inviteCodeHash ?? null, createdBy: row.createdBy ?? null, clockPerMove: row.clockPerMove ?? null,
    clockOnTimeout: row.clockOnTimeout === 'BOT' ? 'BOT' : null,
    ...(row.revision ? { revision: row.revision } : {}),
  };
}

/** The games row as the one-statement append returns it (snake case, straight from SQL). */
export interface GameRow {
  id: string; type: string; options: unknown; players: unknown; seed_commitment: string; seed: string; status: string;
  version: number; awaiting: string[]; result: unknown; rules: string; created_at: Date; updated_at: Date;
  seats?: unknown; player_ids?: string[]; bots?: string[]; visibility?: string; invite_code_hash?: string | null; created_by?: string | null;
  clock_per_move?: number | null; clock_on_timeout?: string | null;
  /** xmin/version, where the statement selects it (GAME_COLUMNS). */
  revision?: string;
}

/** The columns of a game row that never change after its creation, from a record of it. */
function rowOf(r: GameRecord): Pick<GameRow, 'id' | 'type' | 'options' | 'players' | 'seed_commitment' | 'seed' | 'rules' | 'created_at'> {
  return { id: r.id, type: r.type, options: r.options, players: r.players, seed_commitment: r.seedCommitment, seed: r.seed, rules: r.rules, created_at: r.createdAt };
}

export function fromRow(r: GameRow): GameRecord {
  return toGame({
    ...r, seedCommitment: r.seed_commitment, createdAt: r.created_at, updatedAt: r.updated_at,
    playerIds: r.player_ids, inviteCodeHash: r.invite_code_hash, createdBy: r.created_by, clockPerMove: r.clock_per_move, clockOnTimeout: r.clock_on_timeout,
  });
}

/**
 * The whole append as one statement (autocommit, one round trip): the version-guarded
 * update of the game, the command row, the events and the outbox rows. A racing writer
 * finds no row at its expected version (the row lock makes it wait for the winner first)
 * and so inserts nothing; a reused idempotency key fails the statement on its unique key.
 */
function appendSql(whole: boolean): string {
  return prepared(`
WITH g AS (
  UPDATE games SET version = $3::int, status = $4, awaiting = ARRAY(SELECT jsonb_array_elements_text($5::jsonb)),
    result = $6::jsonb, updated_at = now()
  WHERE id = $1::uuid AND version = $2::int
  RETURNING ${whole ? GAME_COLUMNS : SUMMARY_COLUMNS}
), c AS (
  INSERT INTO commands (game_id, seat, command, idempotency_key, first_version, last_version, at)
  SELECT g.id, $7, $8::jsonb, $9, $2::int + 1, $3::int, now() FROM g
  RETURNING id
), e AS (
  INSERT INTO game_events (game_id, version, type, seat, data, rolls, command_id, at)
  SELECT g.id, $2::int + x.ord::int, x.e->>'type', x.e->>'seat', x.e->'data', NULLIF(x.e->'rolls', 'null'::jsonb), c.id, now()
  FROM g, c, jsonb_array_elements($10::jsonb) WITH ORDINALITY AS x(e, ord)
  RETURNING version, position
), o AS (
  INSERT INTO outbox (game_id, version, kind, seat, data)
  SELECT g.id, $3::int, x->>'kind', x->>'seat', COALESCE(x->'data', '{}'::jsonb) FROM g, jsonb_array_elements($11::jsonb) AS x
  RETURNING 1
), j AS (
  ${jobsSql('$12', 'g')}
)
SELECT ${whole ? 'g.*' : `g.${CHANGING_COLUMNS.join(', g.')}, g.revision`}, (SELECT id FROM c)::text AS command_id, now() AS at,
  ${awaySql('g.player_ids', 'g.status')} AS away,
  (SELECT json_agg(position::text ORDER BY version) FROM e) AS positions,
  (SELECT count(*) FROM o)::int AS outboxed, (SELECT count(*) FROM j)::int AS queued, (SELECT count(*) FROM j WHERE conditional)::int AS notified
FROM g`);
}

/**
 * What the append returns of the game when the caller gives the record it decided on: every
 * column that may change after the game was created (the summary, and the lobby's columns: a
 * seat handed to the bot on a time-out changes seats and bots without a new version, see
 * src/app/handover.ts), with the row's revision. The rest (id, type, options, players, seed,
 * rules, created_at) never changes, so the record assembled from the caller's is the row, and
 * a later read of it asks only whether the revision is still that one.
 */
const CHANGING_COLUMNS = ['version', 'status', 'awaiting', 'result', 'updated_at', 'seats', 'player_ids', 'bots', 'visibility', 'invite_code_hash', 'created_by', 'clock_per_move', 'clock_on_timeout'];
const SUMMARY_COLUMNS = ['id', ...CHANGING_COLUMNS, `${REVISION} AS revision`].join(', ');
const APPEND_SQL = appendSql(false);
/** The append returning the whole row: no record given, or a game still at version 0. */
const APPEND_WHOLE_SQL = appendSql(true);

/** A new game with its seat tokens (hashes), setup events and outbox rows, in one statement. */
const CREATE_SQL = prepared(`
WITH g AS (
  INSERT INTO games (id, type, options, players, seed_commitment, seed, status, version, awaiting, result, rules,
    seats, player_ids, bots, visibility, invite_code_hash, created_by, clock_per_move, clock_on_timeout)
  VALUES ($1::uuid, $2, $3::jsonb, $4::jsonb, $5, $6, $7, $8::int, ARRAY(SELECT jsonb_array_elements_text($9::jsonb)), $10::jsonb, $11,
    $15::jsonb, $16::uuid[], $17::text[], $18, $19, $20::uuid, $22::int, $23)
  RETURNING ${GAME_COLUMNS}
), t AS (
  INSERT INTO seat_tokens (token_hash, game_id, seat, name)
  SELECT x->>'tokenHash', g.id, x->>'seat', x->>'name' FROM g, jsonb_array_elements($12::jsonb) AS x
  RETURNING 1
), e AS (
  INSERT INTO game_events (game_id, version, type, seat, data, rolls)
  SELECT g.id, x.ord::int, x.e->>'type', x.e->>'seat', x.e->'data', NULLIF(x.e->'rolls', 'null'::jsonb)
  FROM g, jsonb_array_elements($13::jsonb) WITH ORDINALITY AS x(e, ord)
  RETURNING 1
), o AS (
  INSERT INTO outbox (game_id, version, kind, seat, data)
  SELECT g.id, $8::int, x->>'kind', x->>'seat', COALESCE(x->'data', '{}'::jsonb) FROM g, jsonb_array_elements($14::jsonb) AS x
  RETURNING 1
), j AS (
  ${jobsSql('$21', 'g')}
)
SELECT g.*, (SELECT count(*) FROM t) + (SELECT count(*) FROM e) + (SELECT count(*) FROM o) + (SELECT count(*) FROM j) AS written,
  (SELECT count(*) FROM j WHERE conditional)::int AS notified FROM g`);

const GAME_SQL = prepared(`SELECT ${GAME_COLUMNS} FROM games WHERE id = $1::uuid`);

/** The game row with its seat holders' absences (awaySql). */
const GAME_NOW_SQL = prepared(`SELECT ${GAME_COLUMNS}, ${awaySql('player_ids', 'status')} AS away FROM games WHERE id = $1::uuid`);

const EVENTS_SQL = prepared(`SELECT version, type, seat, data, rolls, command_id::text AS command_id, at, position::text AS position FROM game_events
  WHERE game_id = $1::uuid AND version > $2::int AND ($3::int IS NULL OR version <= $3::int) ORDER BY version LIMIT $4::int`);

function toCommand(row: { id: bigint; seat: string | null; command: unknown; idempotencyKey: string | null; firstVersion: number; lastVersion: number }): CommandRecord {
  return { ...row, id: row.id.toString(), command: row.command as Record<string, unknown> };
}

const json = (v: unknown) => v as Prisma.InputJsonValue;

/**
 * The append's one statement and its parameters (exported for the bench, which runs the
 * same statement through Prisma and through pg to measure what Prisma adds).
 */
export function appendStatement(input: AppendInput): { sql: string; values: unknown[]; base: GameRecord | null } {
  const { gameId, expectedVersion, events, summary } = input;
  // The caller's record can stand for the rest of the row only once the game has started.
  const base = input.base && input.base.id === gameId && input.base.version === expectedVersion && expectedVersion >= 1 ? input.base : null;
  return {
    sql: base ? APPEND_SQL : APPEND_WHOLE_SQL,
    values: [
      gameId, expectedVersion, expectedVersion + events.length, summary.status, JSON.stringify(summary.awaiting), summary.result ? JSON.stringify(summary.result) : null,
      input.seat, JSON.stringify(input.command), input.idempotencyKey,
      JSON.stringify(events.map((e) => ({ type: e.type, seat: e.seat, data: e.data, rolls: e.rolls ?? null }))),
      JSON.stringify(input.outbox),
      JSON.stringify((input.jobs ?? []).map(jobJson)),
    ],
    base,
  };
}

export class EventStore implements GameStore {
  /** Set by src/persistence/ports.ts when a replica serves the lag-tolerant reads. */
  lagTolerant?: LagTolerantReads;

  /**
   * `direct`: the pool Prisma's adapter runs on. The command path's statements (the append,
   * the game row, its events) go to it through pg itself: they are raw SQL already, and
   * Prisma's raw-query layer cost about 0.07 ms of CPU each (bench section 6), a seventh
   * of a command. Same connections, same named statements, same types back (pg parses
   * json, timestamptz and text[] as Prisma's raw queries do). Without it, all go through Prisma.
   */
  constructor(
    private readonly prisma: PrismaClient,
    private readonly direct?: { pool: pg.Pool; preparedStatements: boolean },
  ) {}

  /** A raw statement of the command path: through pg when the store has the pool, else Prisma. */
  private async raw<T>(sql: string, values: unknown[]): Promise<T[]> {
    if (!this.direct) return this.prisma.$queryRawUnsafe<T[]>(sql, ...values);
    const name = this.direct.preparedStatements ? statementName({ sql }) : undefined;
    return (await this.direct.pool.query(name ? { name, text: sql, values } : { text: sql, values })).rows as T[];
  }

  /** Creates the game with its seat tokens (hashes) and setup events, all or nothing. */
  async createGame(input: NewGame): Promise<GameRecord> {
    const { game, tokens, events } = input;
    // One statement, like the append: no interactive transaction to wait for under load.
    const rows = await this.prisma.$queryRawUnsafe<GameRow[]>(
      CREATE_SQL,
      game.id, game.type, JSON.stringify(game.options ?? null), JSON.stringify(game.players), game.seedCommitment, game.seed, game.status,
      events.length, JSON.stringify(game.awaiting), game.result ? JSON.stringify(game.result) : null, game.rules,
      JSON.stringify(tokens),
      JSON.stringify(events.map((e) => ({ type: e.type, seat: e.seat, data: e.data, rolls: e.rolls ?? null }))),
      JSON.stringify(input.outbox ?? []),
      JSON.stringify(game.seats ?? []), game.playerIds ?? [], game.bots ?? [], game.visibility ?? 'PRIVATE', game.inviteCodeHash ?? null, game.createdBy ?? null,
      JSON.stringify((input.jobs ?? []).map(jobJson)),
      game.clockPerMove ?? null,
      game.clockOnTimeout ?? null,
    );
    return fromRow(rows[0]!);
  }

  /**
   * Appends a command's events at `expectedVersion + 1...` with the command record, the
   * game's new summary and the outbox rows, in one statement: nothing is stored unless
   * all of it is.
   */
  async append(input: AppendInput): Promise<AppendOutcome> {
    const { gameId, expectedVersion, events } = input;
    const lastVersion = expectedVersion + events.length;
    const { sql, values, base } = appendStatement(input);
    try {
      const rows = await this.raw<GameRow & { command_id: string; at: Date; positions: string[]; notified: number; away: unknown }>(sql, values);
      const row = rows[0];
      if (!row) return { ok: false, conflict: 'VERSION', currentVersion: await this.currentVersion(gameId, expectedVersion) };
      const commandId = row.command_id;
      // The caller's record's columns that never change, the row's others: the row, with its revision.
      const game: GameRecord = fromRow(base ? { ...rowOf(base), ...row } : row);
      return {
        ok: true, firstVersion: expectedVersion + 1, lastVersion, commandId, game, notified: row.notified, away: awayOf(row.away),
        events: events.map((e, i) => ({
          version: expectedVersion + 1 + i, type: e.type, seat: e.seat, data: e.data as Record<string, unknown>,
          rolls: e.rolls ?? null, commandId, at: row.at, position: row.positions[i],
        })),
      };
    } catch (error) {
      const constraint = uniqueConstraint(error);
      if (constraint === 'commands_idempotency' && input.idempotencyKey && input.seat !== null) {
        const existing = await this.findCommand(gameId, input.seat, input.idempotencyKey);
        if (existing) return { ok: false, conflict: 'IDEMPOTENCY', existing };
      }
      if (constraint) return { ok: false, conflict: 'VERSION', currentVersion: await this.currentVersion(gameId, expectedVersion) };
      throw error;
    }
  }

  private async currentVersion(gameId: string, fallback: number): Promise<number> {
    const current = await this.prisma.game.findUnique({ where: { id: gameId }, select: { version: true } });
    return current?.version ?? fallback;
  }

  /** Outbox rows, oldest first (for the workers that turn them into deliveries); `version`: only that commit's. */
  async outbox(gameId: string, version?: number): Promise<StoredOutboxEntry[]> {
    const rows = await this.prisma.outbox.findMany({ where: { gameId, ...(version === undefined ? {} : { version }) }, orderBy: { id: 'asc' } });
    return rows.map((r) => ({ id: r.id.toString(), gameId: r.gameId, version: r.version, kind: r.kind as OutboxEntry['kind'], seat: r.seat, data: r.data as Record<string, unknown>, createdAt: r.createdAt }));
  }

  /** Every read of the command and read paths starts here: raw SQL, no query planning in the client. */
  async game(id: string): Promise<GameRecord | null> {
    const rows = await this.raw<GameRow>(GAME_SQL, [id]);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  async gameNow(id: string): Promise<{ game: GameRecord; away: Away } | null> {
    const rows = await this.raw<GameRow & { away: unknown }>(GAME_NOW_SQL, [id]);
    const row = rows[0];
    return row ? { game: fromRow(row), away: awayOf(row.away) } : null;
  }

  /** Events after `after`, up to `until` (inclusive), at most `limit`. */
  async events(gameId: string, after = 0, until?: number, limit?: number): Promise<StoredEvent[]> {
    const rows = await this.raw<{ version: number; type: string; seat: string | null; data: Record<string, unknown>; rolls: unknown[] | null; command_id: string | null; at: Date; position: string }>(
      EVENTS_SQL,
      [gameId, after, until ?? null, limit ?? null],
    );
    return rows.map((r) => ({ version: r.version, type: r.type, seat: r.seat, data: r.data, rolls: r.rolls ?? null, commandId: r.command_id, at: r.at, position: r.position }));
  }

  async findCommand(gameId: string, seat: string, idempotencyKey: string): Promise<CommandRecord | null> {
    const row = await this.prisma.commandRecord.findUnique({ where: { gameId_seat_idempotencyKey: { gameId, seat, idempotencyKey } } });
    return row ? toCommand(row) : null;
  }

  async commands(gameId: string): Promise<CommandRecord[]> {
    const rows = await this.prisma.commandRecord.findMany({ where: { gameId }, orderBy: { firstVersion: 'asc' } });
    return rows.map(toCommand);
  }

  async seatForToken(tokenHash: string): Promise<{ gameId: string; seat: string } | null> {
    return this.prisma.seatToken.findUnique({ where: { tokenHash }, select: { gameId: true, seat: true } });
  }

  /** `rules` names the rules code that folded the state (see src/app/states.ts). */
  async saveSnapshot(gameId: string, version: number, state: unknown, rules = ''): Promise<void> {
    await this.prisma.snapshot.upsert({
      where: { gameId_version: { gameId, version } },
      create: { gameId, version, state: json(state), rules },
      update: { state: json(state), rules },
    });
  }

  /** The latest snapshot at or before `version` folded by the given rules. */
  async snapshot(gameId: string, version?: number, rules = ''): Promise<{ version: number; state: unknown } | null> {
    return this.prisma.snapshot.findFirst({
      where: { gameId, rules, ...(version !== undefined ? { version: { lte: version } } : {}) },
      orderBy: { version: 'desc' },
      select: { version: true, state: true },
    });
  }

  /** Games, newest first, keyset-paginated by (createdAt, id). */
  async listGames(filter: { type?: string; status?: string; ids?: string[]; visibility?: string }, first: number, after?: { createdAt: Date; id: string }): Promise<GameRecord[]> {
    const rows = await this.prisma.game.findMany({
      where: {
        ...(filter.type ? { type: filter.type } : {}),
        ...(filter.visibility ? { visibility: filter.visibility } : {}),
        ...(filter.status ? { status: filter.status } : {}),
        ...(filter.ids ? { id: { in: filter.ids } } : {}),
        ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: first,
    });
    return rows.map(toGame);
  }
}

