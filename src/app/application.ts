/**
 * The application core: every way a command arrives (GraphQL, REST, later bots, deadlines
 * and players) runs it here, as an actor. It loads a game (snapshot + newer events, or the
 * state this process just wrote), lets the kernel's turn decide, and appends the outcome
 * with its outbox rows at the version it read. The secret seed never leaves this layer.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import {
  initialMatch,
  fold,
  matchLegalCommands,
  matchStatus,
  replay,
  start,
  step,
  visibleTo,
  type Actor as KernelActor,
  type Command,
  type GameModule,
  type GameRegistry,
  type Json,
  type MatchState,
  type Recorded,
  type Status,
  type StoredCommand,
  type Viewer,
} from '../domain/kernel/index.ts';
import type { EventStore, GameRecord, NewEvent, OutboxEntry, StoredEvent } from '../persistence/event-store.ts';
import type { Notifier } from '../persistence/notifier.ts';
import { commandSeat, hashToken, PLAYER_TOKEN_PREFIX, seatIn, seatsHeld, SPECTATOR, tokenFingerprint, type Actor } from './actors.ts';
import type { Lobby } from './lobby.ts';
import type { Players } from './players.ts';
import type { Notifications } from './notifications.ts';
import { AppError } from './errors.ts';
import { EventFeed, FEED_PAGE } from './feed.ts';
import { assertExportShape } from './export-schema.ts';
import { MAX_VERSION, refuseNul } from './input.ts';
import { outboxFor, summaryOf } from './outbox.ts';
import { planJobs, type JobPlanner, type JobQueue } from './jobs.ts';
import { perMoveOf, type ClockInput } from './clock.ts';
import type { ClockStore } from '../persistence/clock-store.ts';
import { metrics } from '../metrics.ts';

/** A snapshot is written each time a game's version crosses a multiple of this. */
export const SNAPSHOT_EVERY = 100;
const MAX_RETRIES = 8;
const CACHE_SIZE = 2_000;
const TOKEN_CACHE_SIZE = 20_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface EventOut {
  version: number;
  type: string;
  seat: string | null;
  data: Record<string, unknown>;
  at: string;
}

export interface ExportDocument {
  format: 'wargame-service/export@1';
  game: {
    id: string;
    type: string;
    options: unknown;
    players: { seat: string; name: string }[];
    status: string;
    version: number;
    result: unknown;
    seedCommitment: string;
    seed: string | null;
    /** Fingerprint of the rules code the game started under. */
    rules?: string;
    createdAt: string;
  };
  events: (EventOut & { rolls: unknown[] | null })[];
  /** The accepted commands (only once finished: some are secret while the game runs). seat null: the service. */
  commands: { seat: string | null; command: unknown; firstVersion: number; lastVersion: number }[] | null;
}

export type VerifyReport =
  | { valid: true; events: number; commands: number; rolls: number; rulesChanged?: { game: string; now: string } }
  | { valid: false; reason: string; version?: number; expected?: unknown; found?: unknown };

export interface CreateInput {
  type: string;
  options?: unknown;
  seats: { seat: string; name: string }[];
  /** Seconds for each decision (src/app/clock.ts); none: no deadlines. */
  clock?: ClockInput | null;
}

export interface ExecuteOptions {
  expectedVersion?: number | null;
  idempotencyKey?: string | null;
  /** For a player holding several seats of the game: the one the command is for. */
  seat?: string | null;
}

export interface SeatOut {
  id: string;
  name: string;
  isYou: boolean;
  mustAct: boolean;
  /** The player holding the seat (never their email). */
  player: { id: string; name: string } | null;
  /** Nobody holds it yet: someone may join. */
  open: boolean;
  /** The bot the service plays it with. */
  bot: string | null;
}

/** A prompt or a seat with its deadline (ISO time; null: no clock, or nothing awaited from it). */
export type WithDeadline<T> = T & { deadline: string | null };

/** Draw offers and answers are no decision of the game: they neither start nor stop a seat's clock. */
const DRAW_COMMANDS = new Set(['offerDraw', 'acceptDraw', 'declineDraw']);

/** A commit, as the workers hear of it (the bots today; a job queue later). */
export interface Commit {
  game: GameRecord;
  outbox: OutboxEntry[];
}

/** A game that has not been set up (its seats are still open, or it was cancelled so): no state yet. */
const UNSTARTED: Status = { stage: 'SETUP', phase: 'waiting for players', round: null, awaiting: [], result: null };

function recordedOf(e: StoredEvent): Recorded {
  return { event: e.data as Recorded['event'], seat: e.seat, rolls: (e.rolls ?? undefined) as Recorded['rolls'] };
}

function toNewEvent(r: Recorded): NewEvent {
  return { type: r.event.type, seat: r.seat, data: r.event, rolls: r.rolls ?? null };
}

const plain = (v: unknown) => JSON.parse(JSON.stringify(v ?? null));

/**
 * A game as one actor sees it. Everything but the record is computed on demand and
 * memoised, so a GraphQL query asking only for `status` folds nothing.
 */
export class GameRead {
  readonly #record: GameRecord;
  readonly #app: Application;
  #state: Promise<MatchState> | null;
  /** The seat the actor holds here, if any. */
  readonly yourSeat: string | null;

  constructor(app: Application, record: GameRecord, actor: Actor, state?: MatchState) {
    this.#app = app;
    this.#record = record;
    this.#state = state ? Promise.resolve(state) : null;
    this.yourSeat = seatIn(actor, record);
    this.#held = seatsHeld(actor, record);
  }

  readonly #held: string[];
  /** Not set up yet: every seat's holder must be known first. */
  get #unstarted() { return this.#record.version === 0; }
  get visibility() { return this.#record.visibility; }

  get id() { return this.#record.id; }
  get type() { return this.#record.type; }
  /** SETUP | ACTIVE | FINISHED | ABANDONED */
  get status() { return this.#record.status; }
  get version() { return this.#record.version; }
  get createdAt() { return this.#record.createdAt; }
  get updatedAt() { return this.#record.updatedAt; }
  get result() { return this.#record.result; }
  get seedCommitment() { return this.#record.seedCommitment; }
  get rules() { return this.#record.rules; }
  get players() { return this.#record.players; }
  /** The game's clock, if it has one. */
  get clock(): ClockInput | null { return this.#record.clockPerMove ? { perMove: this.#record.clockPerMove } : null; }
  /** The seed is secret until the game is finished. */
  get seed(): string | null { return this.#record.status === 'FINISHED' ? this.#record.seed : null; }
  get isYourTurn(): boolean { return this.yourSeat !== null && this.#record.awaiting.includes(this.yourSeat); }
  get seats(): SeatOut[] {
    return this.#record.players.map((p) => {
      const held = this.#record.seats.find((s) => s.seat === p.seat);
      return {
        id: p.seat, name: p.name, isYou: this.#held.includes(p.seat), mustAct: this.#record.awaiting.includes(p.seat),
        player: held?.kind === 'player' && held.playerId ? { id: held.playerId, name: p.name } : null,
        open: held?.kind === 'open', bot: held?.kind === 'bot' ? (held.bot ?? null) : null,
      };
    });
  }

  private state(): Promise<MatchState> {
    return (this.#state ??= this.#app.stateOf(this.#record).then((s) => s.state));
  }

  #deadlines: Promise<Map<string, Date>> | null = null;
  /**
   * The deadline of each seat whose decision the game awaits (a clock runs on no draw
   * answer): when it became awaited plus the clock, both as the database keeps them.
   */
  deadlines(): Promise<Map<string, Date>> {
    return (this.#deadlines ??= (async () => {
      const store = this.#app.clocks;
      if (!this.#record.clockPerMove || !store || this.#unstarted || this.#record.status === 'FINISHED') return new Map();
      const deciding = new Set((await this.progress()).awaiting.filter((p) => p.kind !== 'ANSWER_DRAW').map((p) => p.seat));
      const rows = await store.deadlines(this.#record.id, this.#record.version);
      return new Map(rows.filter((r) => deciding.has(r.seat)).map((r) => [r.seat, r.deadline]));
    })());
  }

  /** The seats, each with its deadline. */
  async seatsWithDeadlines(): Promise<WithDeadline<SeatOut>[]> {
    const deadlines = this.#record.clockPerMove ? await this.deadlines() : new Map<string, Date>();
    return this.seats.map((s) => ({ ...s, deadline: deadlines.get(s.id)?.toISOString() ?? null }));
  }

  /** Every decision the game now waits for, each with its seat's deadline. */
  async awaitingWithDeadlines(): Promise<WithDeadline<Status['awaiting'][number]>[]> {
    const { awaiting } = await this.progress();
    const deadlines = this.#record.clockPerMove ? await this.deadlines() : new Map<string, Date>();
    return awaiting.map((p) => ({ ...p, deadline: p.kind === 'ANSWER_DRAW' ? null : (deadlines.get(p.seat)?.toISOString() ?? null) }));
  }

  private module(): GameModule {
    return this.#app.module(this.#record.type);
  }

  /** Phase, round and every decision the game now waits for. */
  async progress(): Promise<Status> {
    if (this.#unstarted) return this.#record.status === 'ABANDONED' ? { ...UNSTARTED, phase: 'cancelled' } : UNSTARTED;
    return matchStatus(this.module(), await this.state());
  }

  /** The actor's view now, or after an earlier version (replay). */
  async view(atVersion?: number | null): Promise<{ version: number; view: Json }> {
    const game = this.#record;
    if (atVersion !== undefined && atVersion !== null && (!Number.isInteger(atVersion) || atVersion < 0 || atVersion > game.version)) {
      throw new AppError('BAD_REQUEST', `atVersion must be from 0 to ${game.version}`);
    }
    if (this.#unstarted) return { version: 0, view: null };
    if (atVersion === undefined || atVersion === null || atVersion === game.version) {
      return { version: game.version, view: visibleTo(this.module(), await this.state(), this.yourSeat).view() };
    }
    const { state, version } = await this.#app.stateOf(game, atVersion);
    return { version, view: visibleTo(this.module(), state, this.yourSeat).view() };
  }

  /** Every command the actor's seat may submit now, ready to send unchanged. */
  async legalCommands(): Promise<Command[]> {
    return this.yourSeat && !this.#unstarted ? matchLegalCommands(this.module(), await this.state(), this.yourSeat) : [];
  }

  /** The log after `after` as the actor may see it, at most `first` (1000 at most) events. */
  async events(after = 0, first?: number): Promise<EventOut[]> {
    if (!Number.isInteger(after) || after < 0 || after > MAX_VERSION) throw new AppError('BAD_REQUEST', `"after" must be a whole number of events, at most ${MAX_VERSION}`);
    if (first !== undefined && (!Number.isInteger(first) || first < 0)) throw new AppError('BAD_REQUEST', '"first" must be a whole number of events');
    // Up to the version this read is of, so a game's fields and its events agree (a later
    // commit's events would belong with its later status, seats and view).
    const stored = await this.#app.store.events(this.#record.id, after, this.#record.version, first === undefined ? undefined : Math.min(first, 1000));
    return this.redact(stored);
  }

  /** Stored events as the actor may see them, given the game's current state. */
  async redact(stored: StoredEvent[]): Promise<EventOut[]> {
    if (this.#unstarted) return [];
    const visible = visibleTo(this.module(), await this.state(), this.yourSeat);
    return stored.map((e) => ({ version: e.version, type: e.type, seat: e.seat, data: visible.event(e.data as Recorded['event']) as Record<string, unknown>, at: e.at.toISOString() }));
  }
}

interface Cached {
  version: number;
  state: MatchState;
  /** The game's row as of `version` (what cannot change, the seed and type, included). */
  record?: GameRecord;
}

/** A bounded map that forgets the least recently used entry first. */
class Lru<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super();
  }
  touch(key: K): V | undefined {
    const value = super.get(key);
    if (value !== undefined) {
      this.delete(key);
      super.set(key, value);
    }
    return value;
  }
  put(key: K, value: V): void {
    this.delete(key);
    super.set(key, value);
    if (this.size > this.limit) this.delete(this.keys().next().value!);
  }
}

export class Application {
  /** The latest state this process folded or wrote, per game; checked against the version the database returns. */
  private readonly cache = new Lru<string, Cached>(CACHE_SIZE);
  /** What a seat token stands for never changes: one look-up per token and process. */
  private readonly tokens = new Lru<string, Actor>(TOKEN_CACHE_SIZE);
  /** Players and their tokens (src/app/players.ts) and the lobby (src/app/lobby.ts); set by openApplication. */
  players: Players | null = null;
  lobby: Lobby | null = null;
  /** Webhooks and mail (src/app/notifications.ts); set by openApplication. */
  notifications: Notifications | null = null;
  /** Where deadlines are read (src/persistence/clock-store.ts); set by openApplication. */
  clocks: ClockStore | null = null;
  /** Told of every commit (the bot worker listens); keep this the one place workers hear from. */
  readonly commits = new Set<(commit: Commit) => void>();
  /** Turn a commit's outbox rows into jobs written in the commit's own statement (src/app/jobs.ts). */
  readonly jobPlanners = new Set<JobPlanner>();
  /** The job queue (src/workers/queue.ts), for jobs added outside a commit; set by buildApp. */
  queue: JobQueue | null = null;

  constructor(
    readonly store: EventStore,
    readonly registry: GameRegistry,
    /**
     * Fingerprint of the rules code (see domainFingerprint). Games record the rules they
     * started under, and snapshots the rules that folded them.
     */
    readonly rules = '',
    private readonly notifier: Notifier | null = null,
  ) {}

  module(type: string): GameModule {
    const module = this.registry.module(type);
    if (!module) throw new AppError('INTERNAL', `game type ${type} is no longer hosted`);
    return module;
  }

  /** The actor a bearer token stands for (null: no token, a spectator). */
  async authenticate(token: string | null): Promise<Actor> {
    if (token === null) return SPECTATOR;
    if (this.players && token.startsWith(PLAYER_TOKEN_PREFIX) && token.length > 32) return this.players.authenticate(token);
    const hash = hashToken(token);
    const known = this.tokens.touch(hash);
    if (known) return known;
    const seat = await this.store.seatForToken(hash);
    if (!seat) throw new AppError('UNAUTHENTICATED', 'This token is not known');
    // The token's fingerprint: a seat left in the lobby and taken again is no longer this token's.
    const actor: Actor = { kind: 'seat', ...seat, token: tokenFingerprint(hash) };
    this.tokens.put(hash, actor);
    return actor;
  }

  private async record(id: string): Promise<GameRecord> {
    if (typeof id !== 'string' || !UUID.test(id)) throw new AppError('NOT_FOUND', `No game with id "${id}"`);
    const game = await this.store.game(id);
    if (!game) throw new AppError('NOT_FOUND', `No game with id "${id}"`);
    return game;
  }

  /** A game as `actor` sees it. */
  async read(gameId: string, actor: Actor): Promise<GameRead> {
    return new GameRead(this, await this.record(gameId), actor);
  }

  /**
   * Games, newest first, a page at a time: with a seat token only that token's game, with a
   * player token that player's games, without a token the PUBLIC ones (a PRIVATE game is
   * listed only to its players; whoever has its id still reads it).
   */
  async listGames(actor: Actor, args: { type?: string; status?: string; myTurn?: boolean | null; first?: number; after?: string | null }) {
    const first = args.first ?? 20;
    if (!Number.isInteger(first) || first < 1 || first > 100) throw new AppError('BAD_REQUEST', '"first" must be from 1 to 100');
    if (actor.kind === 'player' && this.players) return this.players.games(actor, args);
    const rows = await this.store.listGames(
      { type: args.type, status: args.status, ...(actor.kind === 'seat' || actor.kind === 'bot' ? { ids: [actor.gameId] } : { visibility: 'PUBLIC' }) },
      first + 1,
      args.after ? decodeCursor(args.after) : undefined,
    );
    const nodes = rows.slice(0, first).map((r) => new GameRead(this, r, actor));
    return { nodes, hasNextPage: rows.length > first, endCursor: nodes.length ? encodeCursor(nodes[nodes.length - 1]!) : null };
  }

  async create(input: CreateInput): Promise<{ game: GameRead; seatTokens: { seat: string; token: string }[] }> {
    const type = this.registry.type(input.type);
    if (!type) throw new AppError('BAD_REQUEST', `Unknown game type "${input.type}"; see gameTypes`);
    const seats = input.seats ?? [];
    const ids = seats.map((s) => s.seat);
    if (seats.length < type.minPlayers || seats.length > type.maxPlayers) {
      throw new AppError('BAD_REQUEST', `${type.name} needs ${type.minPlayers === type.maxPlayers ? type.minPlayers : `${type.minPlayers} to ${type.maxPlayers}`} seats, got ${seats.length}`);
    }
    for (const s of seats) {
      if (!type.seats.includes(s.seat)) throw new AppError('BAD_REQUEST', `Unknown seat "${s.seat}"; ${type.name} has ${type.seats.join(', ')}`);
      if (typeof s.name !== 'string' || s.name.trim() === '' || s.name.length > 100) throw new AppError('BAD_REQUEST', `Seat ${s.seat} needs a name of 1 to 100 characters`);
    }
    if (new Set(ids).size !== ids.length) throw new AppError('BAD_REQUEST', 'Each seat may be taken once');
    for (const s of seats) refuseNul(`Seat ${s.seat}'s name`, s.name);
    refuseNul('options', input.options);
    const options = this.registry.validateOptions(input.type, input.options ?? {});
    if (!options.ok) throw new AppError('BAD_REQUEST', options.reason);
    const clockPerMove = perMoveOf(input.clock);

    const module = this.module(input.type);
    const seed = randomBytes(32).toString('hex');
    let started;
    try {
      started = start(module, { options: options.value, players: ids }, seed);
    } catch (error) {
      throw new AppError('BAD_REQUEST', `These options cannot set up a game: ${(error as Error).message}`);
    }
    const tokens = seats.map((s) => ({ seat: s.seat, name: s.name, token: randomBytes(24).toString('base64url') }));
    const id = randomUUID();
    const created = outboxFor(null, started.status, null, { first: 1, last: started.recorded.length });
    const record = await this.store.createGame({
      game: {
        id, type: input.type, options: options.value, players: seats.map((s) => ({ seat: s.seat, name: s.name })),
        seedCommitment: createHash('sha256').update(seed).digest('hex'), seed, rules: this.rules,
        ...summaryOf(started.status), clockPerMove,
      },
      tokens: tokens.map((t) => ({ tokenHash: hashToken(t.token), seat: t.seat, name: t.name })),
      events: started.recorded.map(toNewEvent),
      outbox: created,
      jobs: this.planFor({ id, type: input.type, playerIds: [], seats: [], bots: [] }, 0, started.recorded.length, created, null),
    });
    this.committed(record, started.state, created);
    return { game: new GameRead(this, record, SPECTATOR, started.state), seatTokens: tokens.map(({ seat, token }) => ({ seat, token })) };
  }

  /** @internal The jobs a commit needs, from every planner (none when no planner is set). */
  planFor(game: Partial<GameRecord> & { id: string }, before: number, version: number, outbox: OutboxEntry[], seat: string | null) {
    if (this.jobPlanners.size === 0) return undefined;
    return planJobs(this.jobPlanners, { game: { ...game, version: before } as GameRecord, version, outbox, seat });
  }

  /** @internal After a commit: cache the state, wake subscribers, tell the workers. */
  committed(game: GameRecord, state: MatchState | null, outbox: OutboxEntry[]) {
    if (state) this.remember(game.id, game.version, state, game);
    this.notifier?.publish(game.id, game.version);
    for (const listener of this.commits) listener({ game, outbox });
  }

  private remember(gameId: string, version: number, state: MatchState, record?: GameRecord) {
    this.cache.put(gameId, { version, state, record: record?.version === version ? record : undefined });
  }

  /** @internal The folded state at `version` (default: the record's). */
  async stateOf(game: GameRecord, version?: number): Promise<{ state: MatchState; version: number }> {
    const module = this.module(game.type);
    const target = version === undefined ? game.version : Math.max(0, Math.min(version, game.version));
    const cached = this.cache.touch(game.id);
    // The common case: this process folded this version already, nothing to read.
    if (cached && cached.version === target) return cached;
    let base: { version: number; state: MatchState } | null = cached && cached.version < target ? cached : null;
    if (!base || target - base.version > SNAPSHOT_EVERY) {
      const snap = await this.store.snapshot(game.id, target, this.rules);
      if (snap && (!base || snap.version > base.version)) base = { version: snap.version, state: snap.state as MatchState };
    }
    base ??= { version: 0, state: initialMatch(module, { options: game.options, players: game.players.map((p) => p.seat) }) };
    if (base.version === target) return base;
    const events = await this.store.events(game.id, base.version, target);
    const state = fold(module, base.state, events.map(recordedOf));
    const reached = events.length ? events[events.length - 1]!.version : base.version;
    if (reached === game.version && (!cached || cached.version < reached)) this.remember(game.id, reached, state, game);
    return { state, version: reached };
  }

  /**
   * Runs one command for `actor`: a seat's command, or a match command of the service.
   * Appends the command's events and everything that follows from them, with their outbox
   * rows, at the version it was decided against; retries when another writer got there
   * first and no expectedVersion pins it.
   */
  async execute(actor: Actor, gameId: string, command: unknown, opts: ExecuteOptions = {}): Promise<{ game: GameRead; events: EventOut[] }> {
    try {
      const outcome = await this.run(actor, gameId, command, opts);
      metrics.commands.inc({ game_type: outcome.game.type, outcome: 'accepted' });
      return outcome;
    } catch (error) {
      const type = this.cache.get(gameId)?.record?.type ?? 'unknown';
      metrics.commands.inc({ game_type: type, outcome: error instanceof AppError ? error.code : 'INTERNAL' });
      throw error;
    }
  }

  private async run(actor: Actor, gameId: string, command: unknown, opts: ExecuteOptions): Promise<{ game: GameRead; events: EventOut[] }> {
    // The hot path reads nothing when this process wrote the game last: it decides on the
    // state it holds and lets the append's version guard say whether that was still current.
    const held = typeof gameId === 'string' ? this.cache.touch(gameId) : undefined;
    let game = held?.record ?? (await this.record(gameId));
    let fresh = !held?.record;
    const seat = commandSeat(actor, game, opts.seat);
    const kernelActor: KernelActor = seat === null ? { kind: 'system' } : { kind: 'seat', seat };

    const key = opts.idempotencyKey ?? null;
    if (key !== null && (typeof key !== 'string' || key.length === 0 || key.length > 200)) throw new AppError('BAD_REQUEST', 'An idempotency key has 1 to 200 characters');
    if (key !== null) refuseNul('An idempotency key', key);
    refuseNul('A command', command);
    const expected = opts.expectedVersion ?? null;
    if (expected !== null && (!Number.isInteger(expected) || expected < 0)) throw new AppError('BAD_REQUEST', 'expectedVersion must be a whole number');
    const valid = actor.kind === 'system' ? systemCommand(command) : this.registry.validateCommand(game.type, command);
    if (!valid.ok) throw new AppError('BAD_REQUEST', valid.reason);
    const module = this.module(game.type);

    // The same key already landed (perhaps our own earlier try, still in flight when we
    // started): that is the outcome, unless the key now names another command. Looked up
    // only when something went wrong: a new key costs no extra read.
    const landed = async () => {
      if (key === null || seat === null) return null;
      const previous = await this.store.findCommand(game.id, seat, key);
      if (!previous) return null;
      if (!isDeepStrictEqual(plain(previous.command), plain(valid.value))) {
        throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This idempotency key was used for another command in this game');
      }
      return this.outcomeOf(game.id, actor, previous.firstVersion, previous.lastVersion);
    };

    for (let attempt = 0; attempt < MAX_RETRIES; attempt++) {
      if (!fresh && (attempt > 0 || (expected !== null && expected !== game.version))) {
        game = await this.record(game.id);
        fresh = true;
      } else if (attempt > 0) {
        game = await this.record(game.id);
      }
      const { state, version } = await this.stateOf(game);
      if (expected !== null && expected !== version) {
        const first = await landed();
        if (first) return first;
        throw new AppError('VERSION_CONFLICT', `The game is at version ${version}, not ${expected}`, { currentVersion: version });
      }
      const outcome = step(module, state, valid.value, kernelActor, { seed: game.seed });
      if (!outcome.ok) {
        const first = await landed();
        if (first) return first;
        // Decided on a state held in memory: make sure it was the latest before refusing.
        if (!fresh) {
          fresh = true;
          game = await this.record(game.id);
          if (game.version !== version) continue;
        }
        throw new AppError(outcome.code, outcome.reason, outcome.code === 'ILLEGAL_COMMAND' ? { reason: outcome.reason } : {});
      }
      const before = matchStatus(module, state);
      // A seat that acted and is still awaited faces a new decision (a new SEAT_AWAITED row, a
      // new deadline); a draw offer or answer is not one, or offering draws would stop the clock.
      const decider = DRAW_COMMANDS.has(valid.value.type) ? null : seat;
      const outbox = outboxFor(before, outcome.status, decider, { first: version + 1, last: version + outcome.recorded.length });
      const timer = metrics.appendSeconds.startTimer();
      const appended = await this.store.append({
        gameId: game.id, expectedVersion: version, seat, command: valid.value, idempotencyKey: key,
        events: outcome.recorded.map(toNewEvent),
        summary: summaryOf(outcome.status),
        outbox,
        jobs: this.planFor(game, version, version + outcome.recorded.length, outbox, seat),
        base: game,
      });
      timer();
      if (appended.ok) {
        this.committed(appended.game, outcome.state, outbox);
        if (Math.floor(appended.lastVersion / SNAPSHOT_EVERY) > Math.floor(version / SNAPSHOT_EVERY)) {
          await this.store.saveSnapshot(game.id, appended.lastVersion, outcome.state, this.rules);
        }
        const read = new GameRead(this, appended.game, actor, outcome.state);
        return { game: read, events: await read.redact(appended.events) };
      }
      // The key landed first (our own retry?), or another writer got there first.
      const first = await landed();
      if (first) return first;
      if (appended.conflict === 'VERSION' && expected !== null) {
        throw new AppError('VERSION_CONFLICT', `The game moved on to version ${appended.currentVersion} while your command was decided`, { currentVersion: appended.currentVersion });
      }
    }
    throw new AppError('VERSION_CONFLICT', 'The game is too busy right now; try again', { currentVersion: (await this.record(game.id)).version });
  }

  private async outcomeOf(gameId: string, actor: Actor, first: number, last: number) {
    const read = await this.read(gameId, actor);
    return { game: read, events: await read.redact(await this.store.events(gameId, first - 1, last)) };
  }

  /**
   * A subscription's stream: every stored event after `after` as `actor` may see it, then
   * live ones, each exactly once and in order.
   */
  async feed(gameId: string, actor: Actor, after?: number | null): Promise<EventFeed> {
    if (!this.notifier) throw new AppError('INTERNAL', 'this process does not listen for new events');
    const game = await this.record(gameId);
    const from = after ?? game.version;
    if (!Number.isInteger(from) || from < 0) throw new AppError('BAD_REQUEST', 'afterVersion must be a whole number');
    return new EventFeed(game.id, from, this.notifier, async (last) => (await this.read(game.id, actor)).events(last, FEED_PAGE));
  }

  async export(gameId: string, actor: Actor): Promise<ExportDocument> {
    const game = await this.record(gameId);
    const stored = await this.store.events(game.id);
    const { state } = await this.stateOf(game);
    const visible = visibleTo(this.module(game.type), state, seatIn(actor, game));
    return {
      format: 'wargame-service/export@1',
      game: {
        id: game.id, type: game.type, options: game.options, players: game.players, status: game.status, version: game.version,
        result: game.result, seedCommitment: game.seedCommitment, seed: visible.seed ? game.seed : null, rules: game.rules,
        createdAt: game.createdAt.toISOString(),
      },
      events: stored.map((e) => ({
        version: e.version, type: e.type, seat: e.seat, data: visible.event(e.data as Recorded['event']) as Record<string, unknown>,
        at: e.at.toISOString(), rolls: visible.rolls ? e.rolls : null,
      })),
      commands: visible.commands
        ? (await this.store.commands(game.id)).map((c) => ({ seat: c.seat, command: c.command, firstVersion: c.firstVersion, lastVersion: c.lastVersion }))
        : null,
    };
  }

  /**
   * Re-derives every die roll from the published seed and re-runs the game's commands
   * through the kernel's turn, comparing each event with the log.
   */
  verify(doc: ExportDocument): VerifyReport {
    assertExportShape(doc); // another shape is the client's mistake, not a failed verification
    const report = this.check(doc);
    const rules = doc?.game?.rules;
    if (typeof rules !== 'string' || rules === '' || rules === this.rules) return report;
    if (report.valid) return { ...report, rulesChanged: { game: rules, now: this.rules } };
    return {
      ...report,
      reason: `the rules have changed since this game was played (it started under rules ${rules}; this service runs ${this.rules}), so this service cannot vouch for it: ${report.reason}`,
    };
  }

  private check(doc: ExportDocument): VerifyReport {
    const g = doc?.game;
    if (!g || typeof g !== 'object' || !Array.isArray(doc.events)) return { valid: false, reason: 'not an export document' };
    if (typeof g.seed !== 'string' || !g.seed) return { valid: false, reason: 'the seed is published only once the game is finished' };
    if (typeof g.seedCommitment !== 'string' || createHash('sha256').update(g.seed).digest('hex') !== g.seedCommitment) return { valid: false, reason: 'the seed does not match the seed commitment' };
    const module = this.registry.module(g.type);
    if (!module) return { valid: false, reason: `unknown game type "${g.type}"` };
    if (!Array.isArray(g.players) || !g.players.every((p) => p && typeof p.seat === 'string')) return { valid: false, reason: 'the export lists no players' };
    if (!Array.isArray(doc.commands)) return { valid: false, reason: 'the export lists no commands' };
    const events = doc.events;
    let version = 0;
    let rolls = 0;

    const compare = (produced: Recorded[]): VerifyReport | null => {
      for (const r of produced) {
        const stored = events[version];
        version++;
        if (!stored || stored.version !== version) return { valid: false, reason: 'an event is missing', version, expected: r.event, found: stored ?? null };
        const expected = { type: r.event.type, seat: r.seat, data: r.event, rolls: r.rolls ?? null };
        const found = { type: stored.type, seat: stored.seat, data: stored.data, rolls: stored.rolls ?? null };
        if (!isDeepStrictEqual(plain(expected), plain(found))) return { valid: false, reason: 'an event differs from what the rules and the seed produce', version, expected, found };
        rolls += r.rolls?.length ?? 0;
      }
      return null;
    };

    const commands = doc.commands;
    let state: MatchState | undefined;
    try {
      const run = replay(module, { options: g.options, players: g.players.map((p) => p.seat) }, g.seed, commands.map((c): StoredCommand => ({ seat: c.seat, command: c.command as Command })));
      for (let next = run.next(); ; next = run.next()) {
        if (next.done) {
          state = next.value;
          break;
        }
        const s = next.value;
        if (s.kind === 'setup') {
          const bad = compare(s.recorded);
          if (bad) return bad;
          continue;
        }
        const c = commands[s.index]!;
        if (c.firstVersion !== version + 1) return { valid: false, reason: 'the commands do not follow each other', version: version + 1 };
        if (!s.outcome.ok) return { valid: false, reason: `a stored command is refused by the rules: ${s.outcome.reason}`, version: c.firstVersion };
        const bad = compare(s.outcome.recorded);
        if (bad) return bad;
        if (version !== c.lastVersion) return { valid: false, reason: 'a command produced a different number of events', version };
      }
    } catch (error) {
      return { valid: false, reason: `replay failed: ${(error as Error).message}`, version };
    }
    if (version !== events.length) return { valid: false, reason: 'the log has events no command explains', version: version + 1 };
    const status = matchStatus(module, state!);
    if (!isDeepStrictEqual(plain(status.result), plain(g.result))) {
      return { valid: false, reason: 'the result differs from the one the log produces', expected: status.result, found: g.result };
    }
    return { valid: true, events: events.length, commands: commands.length, rolls };
  }
}

/** The service's own commands: `timeOut { seat }`. */
function systemCommand(command: unknown): { ok: true; value: Command } | { ok: false; reason: string } {
  const c = command as { type?: unknown; seat?: unknown } | null;
  if (c && c.type === 'timeOut' && typeof c.seat === 'string') return { ok: true, value: { type: 'timeOut', seat: c.seat } };
  return { ok: false, reason: 'the service submits only { type: "timeOut", seat }' };
}

/** An opaque cursor: the position of a game in the newest-first listing. */
export function encodeCursor(g: { createdAt: Date; id: string }): string {
  return Buffer.from(JSON.stringify([g.createdAt.toISOString(), g.id])).toString('base64url');
}

export function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as [string, string];
    const createdAt = new Date(at);
    if (Number.isNaN(createdAt.getTime()) || createdAt.getUTCFullYear() < 2000 || typeof id !== 'string' || !UUID.test(id)) throw new Error();
    return { createdAt, id };
  } catch {
    throw new AppError('BAD_REQUEST', '"after" is not a cursor this API returned');
  }
}

