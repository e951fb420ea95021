/**
 * The game service: what GraphQL and REST both call. It loads a game's state from the
 * event store (snapshot + newer events), runs the kernel's match rules, appends the
 * outcome with the version it read, and answers in the caller's view.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import {
  decideMatch,
  evolveMatch,
  initialMatch,
  matchLegalCommands,
  matchStatus,
  matchView,
  redactFor,
  SeededRandom,
  type Command,
  type GameModule,
  type GameRegistry,
  type Json,
  type MatchState,
  type Recorded,
  type Status,
  type Viewer,
} from '../domain/kernel/index.ts';
import type { EventStore, GameRecord, GameSummary, NewEvent, StoredEvent } from '../persistence/event-store.ts';
import { ApiError } from './errors.ts';

/** A snapshot is written each time a game's version crosses a multiple of this. */
export const SNAPSHOT_EVERY = 100;
const MAX_RETRIES = 8;
const CACHE_SIZE = 500;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Caller {
  /** The seat this caller holds in `gameId`, from its token; null for a spectator. */
  seat: string | null;
  gameId: string | null;
}

export const SPECTATOR: Caller = { seat: null, gameId: null };

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
    createdAt: string;
  };
  events: (EventOut & { rolls: unknown[] | null })[];
  /** The accepted commands (only once finished: some are secret while the game runs). */
  commands: { seat: string; command: unknown; firstVersion: number; lastVersion: number }[] | null;
}

export type VerifyReport =
  | { valid: true; events: number; commands: number; rolls: number }
  | { valid: false; reason: string; version?: number; expected?: unknown; found?: unknown };

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function seatOf(game: GameRecord, caller: Caller): string | null {
  return caller.gameId === game.id ? caller.seat : null;
}

function recordedOf(e: StoredEvent): Recorded {
  return { event: e.data as Recorded['event'], seat: e.seat, rolls: (e.rolls ?? undefined) as Recorded['rolls'] };
}

/** What the games table keeps of a status, for listing and "your turn". */
function summaryOf(status: Status): GameSummary {
  return { status: status.stage, awaiting: [...new Set(status.awaiting.map((p) => p.seat))], result: status.result };
}

export class GameService {
  private readonly cache = new Map<string, { version: number; state: MatchState }>();

  constructor(
    readonly store: EventStore,
    readonly registry: GameRegistry,
    /**
     * Fingerprint of the rules code (see domainFingerprint). Snapshots are a cache of the
     * events: one folded by other rules is ignored, and the events are folded again.
     */
    private readonly rules = '',
  ) {}

  module(type: string): GameModule {
    const module = this.registry.module(type);
    if (!module) throw new ApiError('INTERNAL', `game type ${type} is no longer hosted`);
    return module;
  }

  async game(id: string): Promise<GameRecord> {
    if (!UUID.test(id)) throw new ApiError('NOT_FOUND', `No game with id "${id}"`);
    const game = await this.store.game(id);
    if (!game) throw new ApiError('NOT_FOUND', `No game with id "${id}"`);
    return game;
  }

  /** Games, newest first, a page at a time; with a seat token only that token's game. */
  async listGames(caller: Caller, args: { type?: string; status?: string; first?: number; after?: string | null }) {
    const first = args.first ?? 20;
    if (!Number.isInteger(first) || first < 1 || first > 100) throw new ApiError('BAD_REQUEST', '"first" must be from 1 to 100');
    const rows = await this.store.listGames(
      { type: args.type, status: args.status, ...(caller.gameId ? { ids: [caller.gameId] } : {}) },
      first + 1,
      args.after ? decodeCursor(args.after) : undefined,
    );
    const nodes = rows.slice(0, first);
    return { nodes, hasNextPage: rows.length > first, endCursor: nodes.length ? encodeCursor(nodes[nodes.length - 1]!) : null };
  }

  async createGame(input: { type: string; options?: unknown; seats: { seat: string; name: string }[] }) {
    const type = this.registry.type(input.type);
    if (!type) throw new ApiError('BAD_REQUEST', `Unknown game type "${input.type}"; see gameTypes`);
    const seats = input.seats ?? [];
    const ids = seats.map((s) => s.seat);
    if (seats.length < type.minPlayers || seats.length > type.maxPlayers) {
      throw new ApiError('BAD_REQUEST', `${type.name} needs ${type.minPlayers === type.maxPlayers ? type.minPlayers : `${type.minPlayers} to ${type.maxPlayers}`} seats, got ${seats.length}`);
    }
    for (const s of seats) {
      if (!type.seats.includes(s.seat)) throw new ApiError('BAD_REQUEST', `Unknown seat "${s.seat}"; ${type.name} has ${type.seats.join(', ')}`);
      if (typeof s.name !== 'string' || s.name.trim() === '' || s.name.length > 100) throw new ApiError('BAD_REQUEST', `Seat ${s.seat} needs a name of 1 to 100 characters`);
    }
    if (new Set(ids).size !== ids.length) throw new ApiError('BAD_REQUEST', 'Each seat may be taken once');
    const options = this.registry.validateOptions(input.type, input.options ?? {});
    if (!options.ok) throw new ApiError('BAD_REQUEST', options.reason);

    const module = this.module(input.type);
    const setupInput = { options: options.value, players: ids };
    const seed = randomBytes(32).toString('hex');
    const random = new SeededRandom(seed, 0);
    let events;
    try {
      events = module.setup(setupInput, random);
    } catch (error) {
      throw new ApiError('BAD_REQUEST', `These options cannot set up a game: ${(error as Error).message}`);
    }
    const recorded: Recorded[] = events.map((event, i) => ({ event, seat: null, rolls: i === 0 && random.rolls.length ? random.rolls : undefined }));
    let state = initialMatch(module, setupInput);
    for (const r of recorded) state = evolveMatch(module, state, r);
    const status = matchStatus(module, state);
    const tokens = seats.map((s) => ({ seat: s.seat, name: s.name, token: randomBytes(24).toString('base64url') }));
    const game = await this.store.createGame({
      game: {
        id: randomUUID(), type: input.type, options: options.value, players: seats.map((s) => ({ seat: s.seat, name: s.name })),
        seedCommitment: createHash('sha256').update(seed).digest('hex'), seed,
        ...summaryOf(status),
      },
      tokens: tokens.map((t) => ({ tokenHash: hashToken(t.token), seat: t.seat, name: t.name })),
      events: recorded.map(toNewEvent),
    });
    this.remember(game.id, game.version, state);
    return { game, seatTokens: tokens.map(({ seat, token }) => ({ seat, token })) };
  }

  private remember(gameId: string, version: number, state: MatchState) {
    this.cache.delete(gameId);
    this.cache.set(gameId, { version, state });
    if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
  }

  /** The folded state at `version` (default: the latest stored). */
  async state(game: GameRecord, version?: number): Promise<{ state: MatchState; version: number }> {
    const module = this.module(game.type);
    const target = version === undefined ? undefined : Math.max(0, Math.min(version, game.version));
    let base: { version: number; state: MatchState } | null = null;
    const cached = this.cache.get(game.id);
    // The common case: this process folded the latest version already, nothing to read.
    if (cached && target === undefined && cached.version === game.version) return cached;
    if (cached && (target === undefined || cached.version <= target)) base = cached;
    if (!base || (target !== undefined && target - base.version > SNAPSHOT_EVERY)) {
      const snap = await this.store.snapshot(game.id, target, this.rules);
      if (snap && (!base || snap.version > base.version)) base = { version: snap.version, state: snap.state as MatchState };
    }
    if (!base) base = { version: 0, state: initialMatch(module, { options: game.options, players: game.players.map((p) => p.seat) }) };
    if (target !== undefined && base.version === target) return base;
    const events = await this.store.events(game.id, base.version, target);
    let state = base.state;
    for (const e of events) state = evolveMatch(module, state, recordedOf(e));
    const reached = events.length ? events[events.length - 1]!.version : base.version;
    if (target === undefined) this.remember(game.id, reached, state);
    return { state, version: reached };
  }

  /** The seats as the caller sees them, and whether the game waits for the caller. */
  seats(game: GameRecord, caller: Caller) {
    const you = seatOf(game, caller);
    return {
      yourSeat: you,
      isYourTurn: you !== null && game.awaiting.includes(you),
      seats: game.players.map((p) => ({ id: p.seat, name: p.name, isYou: p.seat === you, mustAct: game.awaiting.includes(p.seat) })),
    };
  }

  /** The seed is secret until the game is finished. */
  seed(game: GameRecord): string | null {
    return game.status === 'FINISHED' ? game.seed : null;
  }

  /** The caller's view now, or after an earlier version (replay). */
  async viewAt(game: GameRecord, caller: Caller, atVersion?: number | null): Promise<{ version: number; view: Json }> {
    if (atVersion !== undefined && atVersion !== null && (!Number.isInteger(atVersion) || atVersion < 0 || atVersion > game.version)) {
      throw new ApiError('BAD_REQUEST', `atVersion must be from 0 to ${game.version}`);
    }
    const { state, version } = await this.state(game, atVersion ?? undefined);
    return { version, view: this.view(game, state, caller) };
  }

  status(game: GameRecord, state: MatchState): Status {
    return matchStatus(this.module(game.type), state);
  }

  view(game: GameRecord, state: MatchState, caller: Caller): Json {
    return matchView(this.module(game.type), state, seatOf(game, caller));
  }

  legalCommands(game: GameRecord, state: MatchState, caller: Caller): Command[] {
    const seat = seatOf(game, caller);
    return seat ? matchLegalCommands(this.module(game.type), state, seat) : [];
  }

  /** Stored events as `viewer` may see them, given the game's current state. */
  redact(game: GameRecord, current: MatchState, events: StoredEvent[], viewer: Viewer): EventOut[] {
    const module = this.module(game.type);
    return events.map((e) => ({
      version: e.version,
      type: e.type,
      seat: e.seat,
      data: redactFor(module, current, e.data as Recorded['event'], viewer) as Record<string, unknown>,
      at: e.at.toISOString(),
    }));
  }

  async events(game: GameRecord, caller: Caller, after = 0, first?: number): Promise<EventOut[]> {
    if (first !== undefined && (!Number.isInteger(first) || first < 0)) throw new ApiError('BAD_REQUEST', '"first" must be a whole number of events');
    const stored = await this.store.events(game.id, Math.max(0, after), undefined, first === undefined ? undefined : Math.min(first, 1000));
    const { state } = await this.state(game);
    return this.redact(game, state, stored, seatOf(game, caller));
  }

  async submit(input: { gameId: string; caller: Caller; command: unknown; expectedVersion?: number | null; idempotencyKey?: string | null }) {
    let game = await this.game(input.gameId);
    const seat = seatOf(game, input.caller);
    if (!seat) {
      throw input.caller.gameId
        ? new ApiError('FORBIDDEN', 'Your token holds a seat in another game, not this one')
        : new ApiError('UNAUTHENTICATED', 'Submitting a command needs the seat token returned by createGame (Authorization: Bearer <token>)');
    }
    const key = input.idempotencyKey ?? null;
    if (key !== null && (key.length === 0 || key.length > 200)) throw new ApiError('BAD_REQUEST', 'An idempotency key has 1 to 200 characters');
    const expected = input.expectedVersion ?? null;
    if (expected !== null && (!Number.isInteger(expected) || expected < 0)) throw new ApiError('BAD_REQUEST', 'expectedVersion must be a whole number');
    const valid = this.registry.validateCommand(game.type, input.command);
    if (!valid.ok) throw new ApiError('BAD_REQUEST', valid.reason);
    const module = this.module(game.type);

    for (let attempt = 0; attempt < MAX_RETRIES; attempt++) {
      if (attempt > 0) game = await this.game(game.id);
      // Checked on every attempt: the writer that beat us may have been our own retry.
      if (key !== null) {
        const previous = await this.store.findCommand(game.id, seat, key);
        if (previous) return this.replayOutcome(game.id, input.caller, previous.firstVersion, previous.lastVersion);
      }
      const { state, version } = await this.state(game);
      if (expected !== null && expected !== version) {
        throw new ApiError('VERSION_CONFLICT', `The game is at version ${version}, not ${expected}`, { currentVersion: version });
      }
      const random = new SeededRandom(game.seed, state.draws);
      const decision = decideMatch(module, state, valid.value, seat, random);
      if (!decision.ok) {
        // The same key may have landed between our look-up and our read: that is the outcome.
        if (key !== null) {
          const landed = await this.store.findCommand(game.id, seat, key);
          if (landed) return this.replayOutcome(game.id, input.caller, landed.firstVersion, landed.lastVersion);
        }
        throw new ApiError(decision.code, decision.reason, decision.code === 'ILLEGAL_COMMAND' ? { reason: decision.reason } : {});
      }
      const recorded: Recorded[] = decision.events.map((event, i) => ({ event, seat, rolls: i === 0 && random.rolls.length ? random.rolls : undefined }));
      let next = state;
      for (const r of recorded) next = evolveMatch(module, next, r);
      const status = matchStatus(module, next);
      const outcome = await this.store.append({
        gameId: game.id, expectedVersion: version, seat, command: valid.value, idempotencyKey: key, events: recorded.map(toNewEvent),
        summary: summaryOf(status),
      });
      if (outcome.ok) {
        this.remember(game.id, outcome.lastVersion, next);
        if (Math.floor(outcome.lastVersion / SNAPSHOT_EVERY) > Math.floor(version / SNAPSHOT_EVERY)) {
          await this.store.saveSnapshot(game.id, outcome.lastVersion, next, this.rules);
        }
        return { game: outcome.game, events: this.redact(outcome.game, next, outcome.events, seat) };
      }
      if (outcome.conflict === 'IDEMPOTENCY') {
        return this.replayOutcome(game.id, input.caller, outcome.existing.firstVersion, outcome.existing.lastVersion);
      }
      // Another writer got there first.
      if (expected !== null) {
        throw new ApiError('VERSION_CONFLICT', `The game moved on to version ${outcome.currentVersion} while your command was decided`, { currentVersion: outcome.currentVersion });
      }
    }
    throw new ApiError('VERSION_CONFLICT', 'The game is too busy right now; try again', { currentVersion: (await this.game(game.id)).version });
  }

  private async replayOutcome(gameId: string, caller: Caller, first: number, last: number) {
    const game = await this.game(gameId);
    const stored = await this.store.events(gameId, first - 1, last);
    const { state } = await this.state(game);
    return { game, events: this.redact(game, state, stored, seatOf(game, caller)) };
  }

  async export(gameId: string, caller: Caller): Promise<ExportDocument> {
    const game = await this.game(gameId);
    const finished = game.status === 'FINISHED';
    const stored = await this.store.events(game.id);
    const { state } = await this.state(game);
    const viewer = seatOf(game, caller);
    const visible = this.redact(game, state, stored, viewer);
    return {
      format: 'wargame-service/export@1',
      game: {
        id: game.id, type: game.type, options: game.options, players: game.players, status: game.status, version: game.version,
        result: game.result, seedCommitment: game.seedCommitment, seed: finished ? game.seed : null, createdAt: game.createdAt.toISOString(),
      },
      // Dice of a running game stay private: they would let a client check guesses of the seed.
      events: visible.map((e, i) => ({ ...e, rolls: finished ? stored[i]!.rolls : null })),
      commands: finished
        ? (await this.store.commands(game.id)).map((c) => ({ seat: c.seat, command: c.command, firstVersion: c.firstVersion, lastVersion: c.lastVersion }))
        : null,
    };
  }

  /**
   * Re-derives every die roll from the published seed and re-folds the log: setup
   * events, then each command decided again against the state before it.
   */
  verify(doc: ExportDocument): VerifyReport {
    const g = doc?.game;
    if (!g || !Array.isArray(doc.events)) return { valid: false, reason: 'not an export document' };
    if (!g.seed) return { valid: false, reason: 'the seed is published only once the game is finished' };
    if (createHash('sha256').update(g.seed).digest('hex') !== g.seedCommitment) return { valid: false, reason: 'the seed does not match the seed commitment' };
    const module = this.registry.module(g.type);
    if (!module) return { valid: false, reason: `unknown game type "${g.type}"` };
    if (!Array.isArray(doc.commands)) return { valid: false, reason: 'the export lists no commands' };
    const input = { options: g.options, players: g.players.map((p) => p.seat) };
    const events = doc.events;
    let state = initialMatch(module, input);
    let version = 0;
    let rolls = 0;

    const compare = (produced: Recorded[]): VerifyReport | null => {
      for (const r of produced) {
        const stored = events[version];
        version++;
        if (!stored || stored.version !== version) return { valid: false, reason: 'an event is missing', version, expected: r.event, found: stored ?? null };
        const expected = { type: r.event.type, seat: r.seat, data: r.event, rolls: r.rolls ?? null };
        const found = { type: stored.type, seat: stored.seat, data: stored.data, rolls: stored.rolls ?? null };
        if (!isDeepStrictEqual(JSON.parse(JSON.stringify(expected)), JSON.parse(JSON.stringify(found)))) {
          return { valid: false, reason: 'an event differs from what the rules and the seed produce', version, expected, found };
        }
        rolls += r.rolls?.length ?? 0;
        state = evolveMatch(module, state, r);
      }
      return null;
    };

    try {
      const random = new SeededRandom(g.seed, 0);
      const setup = module.setup(input, random);
      const bad = compare(setup.map((event, i) => ({ event, seat: null, rolls: i === 0 && random.rolls.length ? random.rolls : undefined })));
      if (bad) return bad;
      for (const c of doc.commands) {
        if (c.firstVersion !== version + 1) return { valid: false, reason: 'the commands do not follow each other', version: version + 1 };
        const random = new SeededRandom(g.seed, state.draws);
        const decision = decideMatch(module, state, c.command as Command, c.seat, random);
        if (!decision.ok) return { valid: false, reason: `a stored command is refused by the rules: ${decision.reason}`, version: c.firstVersion };
        const bad = compare(decision.events.map((event, i) => ({ event, seat: c.seat, rolls: i === 0 && random.rolls.length ? random.rolls : undefined })));
        if (bad) return bad;
        if (version !== c.lastVersion) return { valid: false, reason: 'a command produced a different number of events', version };
      }
    } catch (error) {
      return { valid: false, reason: `replay failed: ${(error as Error).message}`, version };
    }
    if (version !== events.length) return { valid: false, reason: 'the log has events no command explains', version: version + 1 };
    const status = matchStatus(module, state);
    if (!isDeepStrictEqual(JSON.parse(JSON.stringify(status.result)), JSON.parse(JSON.stringify(g.result ?? null)))) {
      return { valid: false, reason: 'the result differs from the one the log produces', expected: status.result, found: g.result };
    }
    return { valid: true, events: events.length, commands: doc.commands.length, rolls };
  }
}

/** An opaque cursor: the position of a game in the newest-first listing. */
export function encodeCursor(g: GameRecord): string {
  return Buffer.from(JSON.stringify([g.createdAt.toISOString(), g.id])).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as [string, string];
    const createdAt = new Date(at);
    if (Number.isNaN(createdAt.getTime()) || typeof id !== 'string') throw new Error();
    return { createdAt, id };
  } catch {
    throw new ApiError('BAD_REQUEST', '"after" is not a cursor this API returned');
  }
}

function toNewEvent(r: Recorded): NewEvent {
  return { type: r.event.type, seat: r.seat, data: r.event, rolls: r.rolls ?? null };
}
