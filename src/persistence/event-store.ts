/**
 * The event store: one stream per game. Appends name the version they expect; the
 * database tells racing writers apart (a conditional update of the game's version and
 * the (game_id, version) key on events), never an in-process lock.
 */
import type pg from 'pg';
import { Prisma, type PrismaClient } from '../generated/prisma/client.ts';
import { heard, jobJson, jobsSql } from './jobs.ts';
import { awayOf, awaySql, GAME_COLUMNS, prepared, REVISION, statementName } from './statements.ts';
import type {
  AppendInput, AppendOutcome, Away, CommandRecord, GameRecord, GameStore, LagTolerantReads, NewGame, OutboxEntry, SeatEntry, StoredEvent, StoredOutboxEntry,
} from '../app/ports.ts';

export type {
  AppendInput, AppendOutcome, CommandRecord, GameRecord, GameSummary, LobbyFields, NewEvent, NewGame, OutboxEntry, SeatEntry, StoredEvent, StoredOutboxEntry,
} from '../app/ports.ts';

/** The channel every process LISTENs on; payloads carry ids, never rows (8000-byte limit). */
export const EVENTS_CHANNEL = 'game_events';

/** Appends waiting that send a second statement while one is in flight (EventStore `fill`). */
const FILL = 16;

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
), h AS MATERIALIZED (
  -- Once, not once a row.
  SELECT g.id, ${heard('g')} AS heard FROM g
), o AS (
  INSERT INTO outbox (game_id, version, kind, seat, data, heard)
  SELECT h.id, $3::int, x->>'kind', x->>'seat', COALESCE(x->'data', '{}'::jsonb), h.heard FROM h, jsonb_array_elements($11::jsonb) AS x
  RETURNING 1
), j AS (
  ${jobsSql('$12', 'g')}
)
SELECT ${whole ? 'g.*' : `g.${CHANGING_COLUMNS.join(', g.')}, g.revision`}, (SELECT id FROM c)::text AS command_id, now()::timestamptz(3) AS at,
  ${awaySql('g.player_ids', 'g.status')} AS away,
  (SELECT json_agg(position::text ORDER BY version) FROM e) AS positions,
  (SELECT count(*) FROM o)::int AS outboxed, (SELECT count(*) FROM j)::int AS queued
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

/**
 * Several games' appends as one statement (group commit): what APPEND_SQL does for each
 * element of the jsonb array $1 (appendMember), all committed together. The games' rows are
 * locked first, in id order, so two such statements sharing games (two processes' racing
 * writers) wait for each other instead of deadlocking. A member whose game is not at its
 * expected version returns no row, as with APPEND_SQL, and the others still commit.
 */
const APPEND_BATCH_SQL = prepared(`
WITH x AS (
  SELECT t.ord::int AS ord, (t.v->>'id')::uuid AS id, (t.v->>'expected')::int AS expected, t.v
  FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(v, ord)
), l AS (
  SELECT games.id FROM games JOIN x ON games.id = x.id ORDER BY games.id FOR UPDATE OF games
), g AS (
  UPDATE games SET version = x.expected + jsonb_array_length(x.v->'events'), status = x.v->>'status',
    awaiting = ARRAY(SELECT jsonb_array_elements_text(x.v->'awaiting')), result = NULLIF(x.v->'result', 'null'::jsonb), updated_at = now()
  FROM x WHERE games.id = x.id AND games.version = x.expected AND (SELECT count(*) FROM l) >= 0
  RETURNING x.ord, x.expected, x.v, games.id, ${CHANGING_COLUMNS.map((c) => `games.${c}`).join(', ')}, games.xmin::text || '/' || games.version AS revision
), c AS (
  INSERT INTO commands (game_id, seat, command, idempotency_key, first_version, last_version, at)
  SELECT g.id, g.v->>'seat', g.v->'command', g.v->>'key', g.expected + 1, g.version, now() FROM g
  RETURNING id, game_id
), e AS (
  INSERT INTO game_events (game_id, version, type, seat, data, rolls, command_id, at)
  SELECT g.id, g.expected + y.ord::int, y.e->>'type', y.e->>'seat', y.e->'data', NULLIF(y.e->'rolls', 'null'::jsonb), c.id, now()
  FROM g JOIN c ON c.game_id = g.id, jsonb_array_elements(g.v->'events') WITH ORDINALITY AS y(e, ord)
  RETURNING game_id, version, position
), h AS MATERIALIZED (
  SELECT g.id, ${heard('g')} AS heard FROM g
), o AS (
  INSERT INTO outbox (game_id, version, kind, seat, data, heard)
  SELECT g.id, g.version, y->>'kind', y->>'seat', COALESCE(y->'data', '{}'::jsonb), h.heard FROM g JOIN h ON h.id = g.id, jsonb_array_elements(g.v->'outbox') AS y
  RETURNING game_id
), j AS (
  ${jobsSql("(g.v->'jobs')", 'g')}
)
SELECT g.ord, g.${CHANGING_COLUMNS.join(', g.')}, g.revision, c.id::text AS command_id, now()::timestamptz(3) AS at,
  ${awaySql('g.player_ids', 'g.status')} AS away,
  (SELECT json_agg(e.position::text ORDER BY e.version) FROM e WHERE e.game_id = g.id) AS positions,
  (SELECT count(*) FROM o WHERE o.game_id = g.id)::int AS outboxed,
  (SELECT count(*) FROM j WHERE j.game_id = g.id)::int AS queued
FROM g JOIN c ON c.game_id = g.id`);

/** One element of APPEND_BATCH_SQL's array: an append's parameters (appendStatement's) as JSON. */
function appendMember(input: AppendInput): Record<string, unknown> {
  return {
    id: input.gameId, expected: input.expectedVersion, status: input.summary.status, awaiting: input.summary.awaiting, result: input.summary.result ?? null,
    seat: input.seat, command: input.command, key: input.idempotencyKey,
    events: input.events.map((e) => ({ type: e.type, seat: e.seat, data: e.data, rolls: e.rolls ?? null })),
    outbox: input.outbox,
    jobs: (input.jobs ?? []).map(jobJson),
  };
}

/** Most appends one batch statement carries; the rest wait for the next. */
const MAX_BATCH = 64;

/** An error PostgreSQL reported for the statement: it was rolled back, nothing of it is stored. */
function reportedByDatabase(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && 'severity' in error;
}

type AppendRow = GameRow & { command_id: string; at: Date; positions: string[]; away: unknown };

interface Pending {
  input: AppendInput;
  base: GameRecord;
  resolve(outcome: AppendOutcome): void;
  reject(error: unknown): void;
}

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
SELECT g.*, (SELECT count(*) FROM t) + (SELECT count(*) FROM e) + (SELECT count(*) FROM o) + (SELECT count(*) FROM j) AS written FROM g`);

const GAME_SQL = prepared(`SELECT ${GAME_COLUMNS} FROM games WHERE id = $1::uuid`);
const VERSION_SQL = prepared(`SELECT version FROM games WHERE id = $1::uuid`);
/** A snapshot of a game's state, written again if it is there (the same commit's state, as folded). */
const SNAPSHOT_SQL = prepared(`INSERT INTO snapshots (game_id, version, state, rules) VALUES ($1::uuid, $2::int, $3::jsonb, $4)
  ON CONFLICT (game_id, version) DO UPDATE SET state = EXCLUDED.state, rules = EXCLUDED.rules`);

/** The game row with its seat holders' absences (awaySql). */
const GAME_NOW_SQL = prepared(`SELECT ${GAME_COLUMNS}, ${awaySql('player_ids', 'status')} AS away FROM games WHERE id = $1::uuid`);

const EVENTS_SQL = prepared(`SELECT version, type, seat, data, rolls, command_id::text AS command_id, at, position::text AS position FROM game_events
  WHERE game_id = $1::uuid AND version > $2::int AND ($3::int IS NULL OR version <= $3::int) ORDER BY version LIMIT $4::int`);

function toCommand(row: { id: bigint; seat: string | null; command: unknown; idempotencyKey: string | null; firstVersion: number; lastVersion: number }): CommandRecord {
  return { ...row, id: row.id.toString(), command: row.command as Record<string, unknown> };
}

/** The caller's record, where it can stand for the rest of the row: only once the game has started. */
function baseOf(input: AppendInput): GameRecord | null {
  const b = input.base;
  return b && b.id === input.gameId && b.version === input.expectedVersion && input.expectedVersion >= 1 ? b : null;
}

/**
 * The append's one statement and its parameters (exported for the bench, which runs the
 * same statement through Prisma and through pg to measure what Prisma adds).
 */
export function appendStatement(input: AppendInput): { sql: string; values: unknown[]; base: GameRecord | null } {
  const { gameId, expectedVersion, events, summary } = input;
  const base = baseOf(input);
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
   * the game row, its events, the snapshot a commit writes every SNAPSHOT_EVERY versions) are
   * raw SQL and go to it through pg itself. Prisma's raw-query layer cost about 0.07 ms of CPU
   * each (bench section 6), a seventh of a command, and its upsert of a snapshot 1.8 ms
   * against pg's 0.26. Same connections, same named statements, same types back (pg parses
   * json, timestamptz and text[] as Prisma's raw queries do). Without it, all go through Prisma.
   */
  constructor(
    private readonly prisma: PrismaClient,
    private readonly direct?: {
      pool: pg.Pool;
      preparedStatements: boolean;
      /** Default true: appends made together share a statement. */
      groupCommit?: boolean;
      /** How long appends wait behind statements in flight before they go anyway, ms (default 20). */
      stallMs?: number;
      /** Appends waiting behind the statement in flight that go at once as a second (default 16, a statement's worth). */
      fill?: number;
    },
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
    const base = baseOf(input);
    if (!this.direct || !base || this.direct.groupCommit === false) {
      const { sql, values } = appendStatement(input);
      return this.appendOne(input, sql, values, base);
    }
    // A started game's append, decided on a record the caller holds: it may share a
    // statement with the other appends of this turn of the event loop, and with those made
    // while the last statement was in flight (APPEND_BATCH_SQL, schedule).
    return new Promise<AppendOutcome>((resolve, reject) => {
      this.pending.push({ input, base, resolve, reject });
      this.schedule();
    });
  }

  /** Appends waiting for the next statement. */
  private pending: Pending[] = [];
  /** The group commit's statements in flight: one; two once `fill` appends wait; more only when appends waited `stallMs`. */
  private inFlight = 0;
  /** A flush is set for the end of this turn. */
  private scheduled = false;
  /** Set while appends wait behind a statement in flight: they go anyway when it fires. */
  private stalled: NodeJS.Timeout | null = null;

  /**
   * The next statement at the end of this turn, unless one is in flight: then the appends made
   * meanwhile wait for it to come back and go together (a group commit that fills while the
   * last one commits), or go anyway after `stallMs` (a statement waiting on a game's row lock
   * holds up no other game's command for longer). Once `fill` wait (a statement's worth, at
   * high concurrency), they go at once as a second statement: a full one gains nothing by
   * waiting, and PostgreSQL works on both while the process answers and takes more (at 32
   * games, the two cores about 80% busy against 75%).
   */
  private schedule(): void {
    if (this.scheduled) return;
    const full = this.inFlight === 1 && this.pending.length >= (this.direct?.fill ?? FILL);
    if (this.inFlight > 0 && !full) {
      this.stalled ??= setTimeout(() => {
        this.stalled = null;
        if (this.pending.length > 0) void this.flush();
      }, this.direct?.stallMs ?? 20);
      return;
    }
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private readonly settled = (): void => {
    this.inFlight--;
    if (this.pending.length > 0) this.schedule();
  };

  /**
   * Sends the waiting appends: one game's at most once a statement (a second append of a game
   * waits for the next, as it would wait for the first's row lock), one statement for all
   * when there are several. If PostgreSQL refuses the statement (a reused idempotency key,
   * a deadlock) it stored nothing, and each append runs alone to get its own answer.
   */
  private async flush(): Promise<void> {
    const group: Pending[] = [];
    const later: Pending[] = [];
    const games = new Set<string>();
    for (const p of this.pending) {
      const key = p.input.gameId.toLowerCase();
      if (group.length < MAX_BATCH && !games.has(key)) {
        games.add(key);
        group.push(p);
      } else later.push(p);
    }
    this.pending = later;
    if (this.stalled) clearTimeout(this.stalled);
    this.stalled = null;
    if (group.length === 0) return;
    this.inFlight++;
    if (later.length > 0) this.schedule();
    if (group.length === 1) {
      const p = group[0]!;
      const { sql, values } = appendStatement(p.input);
      return this.appendOne(p.input, sql, values, p.base).then(p.resolve, p.reject).finally(this.settled);
    }
    return this.flushGroup(group).finally(this.settled);
  }

  private async flushGroup(group: Pending[]): Promise<void> {
    let rows: AppendRow[];
    try {
      rows = await this.raw<AppendRow & { ord: number }>(APPEND_BATCH_SQL, [JSON.stringify(group.map((p) => appendMember(p.input)))]);
    } catch (error) {
      if (!reportedByDatabase(error)) {
        // The connection failed: whether the statement committed is unknown, as for one append.
        for (const p of group) p.reject(error);
        return;
      }
      await Promise.all(group.map((p) => {
        const { sql, values } = appendStatement(p.input);
        return this.appendOne(p.input, sql, values, p.base).then(p.resolve, p.reject);
      }));
      return;
    }
    const byOrd = new Map(rows.map((r) => [(r as AppendRow & { ord: number }).ord, r]));
    group.forEach((p, i) => {
      const row = byOrd.get(i + 1);
      if (row) p.resolve(this.appended(p.input, row, p.base));
      else this.currentVersion(p.input.gameId, p.input.expectedVersion).then((currentVersion) => p.resolve({ ok: false, conflict: 'VERSION', currentVersion }), p.reject);
    });
  }

  /** One append, one statement. */
  private async appendOne(input: AppendInput, sql: string, values: unknown[], base: GameRecord | null): Promise<AppendOutcome> {
    const { gameId, expectedVersion } = input;
    try {
      const rows = await this.raw<AppendRow>(sql, values);
      const row = rows[0];
      if (!row) return { ok: false, conflict: 'VERSION', currentVersion: await this.currentVersion(gameId, expectedVersion) };
      return this.appended(input, row, base);
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

  /** The outcome of an append its statement returned `row` for. */
  private appended(input: AppendInput, row: AppendRow, base: GameRecord | null): AppendOutcome {
    const { expectedVersion, events } = input;
    const commandId = row.command_id;
    // The caller's record's columns that never change, the row's others: the row, with its revision.
    const game: GameRecord = fromRow(base ? { ...rowOf(base), ...row } : row);
    return {
      ok: true, firstVersion: expectedVersion + 1, lastVersion: expectedVersion + events.length, commandId, game, away: awayOf(row.away),
      events: events.map((e, i) => ({
        version: expectedVersion + 1 + i, type: e.type, seat: e.seat, data: e.data as Record<string, unknown>,
        rolls: e.rolls ?? null, commandId, at: row.at, position: row.positions[i],
      })),
    };
  }

  /** After a refused append (a process beside this one wrote the game last): raw SQL, as the rest of the command path. */
  private async currentVersion(gameId: string, fallback: number): Promise<number> {
    const rows = await this.raw<{ version: number }>(VERSION_SQL, [gameId]);
    return rows[0]?.version ?? fallback;
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
    // On the command path (the commit that crosses a multiple answers once it is written): raw SQL.
    await this.raw(SNAPSHOT_SQL, [gameId, version, JSON.stringify(state), rules]);
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

