/**
 * Commands: every way a command arrives (GraphQL, REST, a bot, a deadline) runs it here, as
 * an actor. It decides on the state it holds or folds (src/app/states.ts), lets the kernel's
 * turn decide, and appends the outcome with its outbox rows and the planners' jobs at the
 * version it read, in one statement of the store. A new game is created here too, by the
 * one create path (`open`) that the lobby uses. The secret seed never leaves the core.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { matchStatus, normalizeLine, parseOrder, start, stepEach, type Actor as KernelActor, type Command, type GameModule, type GameRegistry, type MatchState } from '../domain/kernel/index.ts';
import { metrics } from '../metrics.ts';
import { commandSeat, hashToken, SPECTATOR, type Actor } from './actors.ts';
import { onTimeoutOf, perMoveOf, type ClockInput } from './clock.ts';
import { AppError } from './errors.ts';
import type { EventOut } from './game-read.ts';
import { GameRead, type ReadContext } from './game-read.ts';
import { refuseNul, sameJson } from './input.ts';
import type { SeatTokens } from './seat-tokens.ts';
import type { PlannedCommit, Planners } from './jobs.ts';
import { outboxFor, summaryOf } from './outbox.ts';
import type { GameRecord, GameStore, OutboxEntry, SeatEntry, WakeUps } from './ports.ts';
import type { Reads } from './reads.ts';
import { isBatch, type StoredBatch } from './batch.ts';
import { toNewEvent, type States } from './states.ts';

const MAX_RETRIES = 8;

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

/** One order of submitCommands: a JSON command, or a line of the game's notation. */
export type OrderInput = { command: unknown } | { notation: string };

/** Most commands one submitCommands (or one mail) may carry. */
export const MAX_ORDERS = 100;

export interface Outcome {
  game: GameRead;
  events: EventOut[];
}

/** A game to create, its seats decided (by `create` or the lobby). */
export interface GameSpec {
  type: string;
  options: unknown;
  players: { seat: string; name: string }[];
  /** Seat tokens to hand out (their hashes are stored). */
  tokens: { seat: string; name: string; token: string }[];
  /** Who holds each seat (none: every seat is a creation token's). */
  entries?: SeatEntry[];
  visibility?: string;
  inviteCodeHash?: string | null;
  createdBy?: string | null;
  clock?: unknown;
}

/** Draw offers and answers are no decision of the game: they neither start nor stop a seat's clock. */
const DRAW_COMMANDS = new Set(['offerDraw', 'acceptDraw', 'declineDraw']);

/** The seat columns of a game row, from its entries. */
export function seatColumns(seats: SeatEntry[]) {
  return {
    seats,
    playerIds: [...new Set(seats.filter((s) => s.kind === 'player' && s.playerId).map((s) => s.playerId!))],
    bots: seats.filter((s) => s.kind === 'bot').map((s) => s.seat),
  };
}

/** The service's own commands: `timeOut { seat }`, or `timeOut { seats }` for deadlines that passed together; `bot: true` hands them to the bot. */
function systemCommand(command: unknown): { ok: true; value: Command } | { ok: false; reason: string } {
  const c = command as { type?: unknown; seat?: unknown; seats?: unknown; bot?: unknown } | null;
  const bot = c?.bot === true ? { bot: true } : {};
  if (c && c.type === 'timeOut' && typeof c.seat === 'string') return { ok: true, value: { type: 'timeOut', seat: c.seat, ...bot } };
  if (c && c.type === 'timeOut' && Array.isArray(c.seats) && c.seats.length > 0 && c.seats.every((x) => typeof x === 'string')) return { ok: true, value: { type: 'timeOut', seats: [...c.seats], ...bot } };
  return { ok: false, reason: 'the service submits only { type: "timeOut", seat, bot? } or { type: "timeOut", seats, bot? }' };
}

/** The bot seats: the record's and those the log handed to the bot (the record may lag). */
function botsOf(bots: string[], state: MatchState): string[] {
  const handed = state.handedToBot ?? [];
  return handed.every((s) => bots.includes(s)) ? bots : [...new Set([...bots, ...handed])];
}

/** A SEAT_HANDED_TO_BOT row for each seat the commit handed to the bot (webhooks and mail say so). */
function withHandovers(outbox: OutboxEntry[], recorded: { event: { type: string; seat?: unknown } }[]): OutboxEntry[] {
  const handed = recorded.filter((r) => r.event.type === 'SeatHandedToBot').map((r) => String(r.event.seat));
  return handed.length ? [...outbox, ...handed.map((seat) => ({ kind: 'SEAT_HANDED_TO_BOT' as const, seat }))] : outbox;
}

export class Commands {
  constructor(
    private readonly ctx: ReadContext,
    private readonly store: GameStore,
    private readonly states: States,
    private readonly reads: Reads,
    private readonly registry: GameRegistry,
    private readonly planners: Planners,
    private readonly wakeUps: WakeUps,
    /** The rules fingerprint new games record. */
    private readonly rules: string,
    /** The seat tokens this process met: those it issues go in once stored. */
    private readonly seatTokens: SeatTokens,
  ) {}

  private module(type: string): GameModule {
    return this.ctx.module(type);
  }

  /** The jobs a commit needs, from every planner. */
  plan(commit: PlannedCommit) {
    return this.planners.plan(commit);
  }

  /** After a commit: hold its state (and snapshot it when due), wake the subscribers. */
  async committed(game: GameRecord, before: number, state: MatchState | null): Promise<void> {
    if (state) await this.states.committed(game, before, state);
    this.wakeUps.publish(game.id, game.version);
  }

  /**
   * Runs one command for `actor`: a seat's command, or a match command of the service.
   * Appends the command's events and everything that follows from them, with their outbox
   * rows and jobs, at the version it was decided against; retries when another writer got
   * there first and no expectedVersion pins it.
   */
  async execute(actor: Actor, gameId: string, command: unknown, opts: ExecuteOptions = {}): Promise<Outcome> {
    return this.measured(gameId, () => this.run(actor, gameId, [{ command }], false, opts));
  }

  /**
   * Several orders of one seat (submitCommands, a mail), each a JSON command or a line of
   * notation read on the position the previous ones left: applied in order, all or none,
   * in one append. A refusal names the order (from 1) and why; nothing is stored then.
   * `single`: one order given as submitCommand(notation) (refused as that command would be).
   */
  async executeAll(actor: Actor, gameId: string, orders: OrderInput[], opts: ExecuteOptions & { single?: boolean } = {}): Promise<Outcome & { applied: Command[] }> {
    if (!Array.isArray(orders) || orders.length === 0) throw new AppError('BAD_REQUEST', 'Give at least one command or notation');
    if (orders.length > MAX_ORDERS) throw new AppError('BAD_REQUEST', `At most ${MAX_ORDERS} commands at once`);
    return this.measured(gameId, () => this.run(actor, gameId, orders, !opts.single, opts));
  }

  private async measured<T extends Outcome>(gameId: string, run: () => Promise<T>): Promise<T> {
    try {
      const outcome = await run();
      metrics.commands.inc({ game_type: outcome.game.type, outcome: 'accepted' });
      return outcome;
    } catch (error) {
      const type = this.states.typeOf(gameId) ?? 'unknown';
      metrics.commands.inc({ game_type: type, outcome: error instanceof AppError ? error.code : 'INTERNAL' });
      throw error;
    }
  }

  private async run(actor: Actor, gameId: string, orders: OrderInput[], batch: boolean, opts: ExecuteOptions): Promise<Outcome & { applied: Command[] }> {
    // The hot path reads nothing when this process wrote the game last: it decides on the
    // state it holds and lets the append's version guard say whether that was still current.
    const held = this.states.held(gameId);
    // A bot's seat may have been handed to it (onTimeout: BOT) after this process cached the record.
    const stale = actor.kind === 'bot' && held?.record && !held.record.bots.includes(actor.seat);
    let game = (!stale && held?.record) || (await this.reads.record(gameId));
    let fresh = !held?.record || !!stale;
    const seat = commandSeat(actor, game, opts.seat);
    const kernelActor: KernelActor = seat === null ? { kind: 'system' } : { kind: 'seat', seat };

    const key = opts.idempotencyKey ?? null;
    if (key !== null && (typeof key !== 'string' || key.length === 0 || key.length > 200)) throw new AppError('BAD_REQUEST', 'An idempotency key has 1 to 200 characters');
    if (key !== null) refuseNul('An idempotency key', key);
    const expected = opts.expectedVersion ?? null;
    if (expected !== null && (!Number.isInteger(expected) || expected < 0)) throw new AppError('BAD_REQUEST', 'expectedVersion must be a whole number');
    const which = (i: number) => (batch ? `Command ${i + 1}: ` : '');
    // Each order checked before any rule runs: a command against the game type's schema, a
    // line of notation for its form (it is read into a command on its position later).
    const given = orders.map((order, i): { command: Command } | { notation: string } => {
      if (order && typeof order === 'object' && 'notation' in order && order.notation !== undefined) {
        if (typeof order.notation !== 'string' || order.notation.length > 500) throw new AppError('BAD_REQUEST', `${which(i)}a notation is a line of at most 500 characters`);
        refuseNul(`${which(i)}A notation`, order.notation);
        if (seat === null) throw new AppError('BAD_REQUEST', 'The service submits commands, not notation');
        return { notation: order.notation };
      }
      const command = (order as { command?: unknown })?.command;
      refuseNul(`${which(i)}A command`, command);
      const valid = actor.kind === 'system' ? systemCommand(command) : this.registry.validateCommand(game.type, command);
      if (!valid.ok) throw new AppError('BAD_REQUEST', `${which(i)}${valid.reason}`, batch ? { index: i } : {});
      return { command: valid.value };
    });
    if (actor.kind === 'system' && given.length !== 1) throw new AppError('BAD_REQUEST', 'The service submits one command at a time');
    const module = this.module(game.type);
    const plainCommand = !batch && 'command' in given[0]! ? given[0].command : null;
    const requested = given.map((g) => ('command' in g ? g : { notation: normalizeLine(g.notation) }));
    const validate = (command: Command): Command | string => {
      const v = this.registry.validateCommand(game.type, command);
      return v.ok ? v.value : v.reason;
    };

    // The same key already landed (perhaps our own earlier try, still in flight when we
    // started): that is the outcome, unless the key now names other commands. Looked up
    // only when something went wrong: a new key costs no extra read.
    const landed = async () => {
      if (key === null || seat === null) return null;
      const previous = await this.store.findCommand(game.id, seat, key);
      if (!previous) return null;
      const same = plainCommand ? sameJson(previous.command, plainCommand) : isBatch(previous.command) && sameJson(previous.command.orders, requested);
      if (!same) throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This idempotency key was used for another command in this game');
      const out = await this.outcomeOf(game.id, actor, previous.firstVersion, previous.lastVersion);
      return { ...out, applied: isBatch(previous.command) ? previous.command.commands : [previous.command as Command] };
    };

    for (let attempt = 0; attempt < MAX_RETRIES; attempt++) {
      if (!fresh && (attempt > 0 || (expected !== null && expected !== game.version))) {
        game = await this.reads.record(game.id);
        fresh = true;
      } else if (attempt > 0) {
        game = await this.reads.record(game.id);
      }
      const { state, version } = await this.states.of(game);
      // A seat handed to the bot (onTimeout: BOT) is the bot's from its SeatHandedToBot on,
      // whatever a record read before the handover still says.
      if (seat !== null && actor.kind !== 'bot' && state.handedToBot?.includes(seat)) {
        throw new AppError('FORBIDDEN', `Seat ${seat} ran out of time and is played by the service's bot for the rest of the game`);
      }
      if (expected !== null && expected !== version) {
        const first = await landed();
        if (first) return first;
        throw new AppError('VERSION_CONFLICT', `The game is at version ${version}, not ${expected}`, { currentVersion: version });
      }
      const outcome = stepEach(
        module,
        state,
        given,
        (g, current) => {
          if ('command' in g) return { ok: true, command: g.command };
          const read = parseOrder(module, current, seat!, g.notation);
          if (!read.ok) return read;
          const valid = validate(read.command);
          return typeof valid === 'string' ? { ok: false, code: 'BAD_REQUEST', reason: valid } : { ok: true, command: valid };
        },
        kernelActor,
        { seed: game.seed },
      );
      if (!outcome.ok) {
        const first = await landed();
        if (first) return first;
        // Decided on a state held in memory: make sure it was the latest before refusing.
        if (!fresh) {
          fresh = true;
          game = await this.reads.record(game.id);
          if (game.version !== version) continue;
        }
        const g = given[outcome.index]!;
        const named = batch ? `Command ${outcome.index + 1} (${'notation' in g ? `"${g.notation.trim()}"` : g.command.type}) was refused: ${outcome.reason}. Nothing was applied.` : outcome.reason;
        const extensions = { ...(outcome.code === 'ILLEGAL_COMMAND' ? { reason: outcome.reason } : {}), ...(batch ? { index: outcome.index } : {}) };
        throw new AppError(outcome.code, named, extensions);
      }
      const before = matchStatus(module, state);
      // A seat that acted and is still awaited faces a new decision (a new SEAT_AWAITED row, a
      // new deadline); a draw offer or answer is not one, or offering draws would stop the clock.
      const decider = outcome.commands.every((c) => DRAW_COMMANDS.has(c.type)) ? null : seat;
      const last = version + outcome.recorded.length;
      const outbox = withHandovers(outboxFor(before, outcome.status, decider, { first: version + 1, last }), outcome.recorded);
      const summary = summaryOf(outcome.status);
      const stored: object = plainCommand ?? ({ type: 'commands', commands: outcome.commands, counts: outcome.counts, orders: requested } satisfies StoredBatch);
      const timer = metrics.appendSeconds.startTimer();
      const appended = await this.store.append({
        gameId: game.id, expectedVersion: version, seat, command: stored, idempotencyKey: key,
        events: outcome.recorded.map(toNewEvent),
        summary,
        outbox,
        jobs: this.plan({ game: { ...game, version, bots: botsOf(game.bots, outcome.state) }, version: last, outbox, summary, seat }),
        base: game,
      });
      timer();
      if (appended.ok) {
        await this.committed(appended.game, version, outcome.state);
        const read = new GameRead(this.ctx, appended.game, actor, outcome.state, appended.away);
        return { game: read, events: await read.redact(appended.events), applied: outcome.commands };
      }
      // The key landed first (our own retry?), or another writer got there first.
      const first = await landed();
      if (first) return first;
      if (appended.conflict === 'VERSION' && expected !== null) {
        throw new AppError('VERSION_CONFLICT', `The game moved on to version ${appended.currentVersion} while your command was decided`, { currentVersion: appended.currentVersion });
      }
    }
    throw new AppError('VERSION_CONFLICT', 'The game is too busy right now; try again', { currentVersion: (await this.reads.record(game.id)).version });
  }

  private async outcomeOf(gameId: string, actor: Actor, first: number, last: number): Promise<Outcome> {
    const read = await this.reads.read(gameId, actor);
    return { game: read, events: await read.redact(await this.store.events(gameId, first - 1, last)) };
  }

  /** The seats of `type` given, checked against the game type (count, names of seats, each once). */
  checkSeats(typeId: string, ids: string[]) {
    const type = this.registry.type(typeId);
    if (!type) throw new AppError('BAD_REQUEST', `Unknown game type "${typeId}"; see gameTypes`);
    if (ids.length < type.minPlayers || ids.length > type.maxPlayers) {
      throw new AppError('BAD_REQUEST', `${type.name} needs ${type.minPlayers === type.maxPlayers ? type.minPlayers : `${type.minPlayers} to ${type.maxPlayers}`} seats, got ${ids.length}`);
    }
    for (const id of ids) if (!type.seats.includes(id)) throw new AppError('BAD_REQUEST', `Unknown seat "${id}"; ${type.name} has ${type.seats.join(', ')}`);
    return type;
  }

  /** createGame with every seat named: a seat token each. */
  async create(input: CreateInput): Promise<{ game: GameRead; seatTokens: { seat: string; token: string }[] }> {
    const seats = input.seats ?? [];
    const ids = seats.map((s) => s.seat);
    this.checkSeats(input.type, ids);
    for (const s of seats) {
      if (typeof s.name !== 'string' || s.name.trim() === '' || s.name.length > 100) throw new AppError('BAD_REQUEST', `Seat ${s.seat} needs a name of 1 to 100 characters`);
    }
    if (new Set(ids).size !== ids.length) throw new AppError('BAD_REQUEST', 'Each seat may be taken once');
    for (const s of seats) refuseNul(`Seat ${s.seat}'s name`, s.name);
    const tokens = seats.map((s) => ({ seat: s.seat, name: s.name, token: randomBytes(24).toString('base64url') }));
    const { game } = await this.open({ type: input.type, options: input.options, players: seats.map((s) => ({ seat: s.seat, name: s.name })), tokens, clock: input.clock }, SPECTATOR);
    return { game, seatTokens: tokens.map(({ seat, token }) => ({ seat, token })) };
  }

  /**
   * The one create path: validates the options and the clock, sets the game up (unless a
   * seat is open: then at the last join), and stores it with its tokens, setup events,
   * outbox rows and jobs in one statement.
   */
  async open(spec: GameSpec, actor: Actor): Promise<{ game: GameRead; started: boolean }> {
    refuseNul('options', spec.options);
    const options = this.registry.validateOptions(spec.type, spec.options ?? {});
    if (!options.ok) throw new AppError('BAD_REQUEST', options.reason);
    const clockPerMove = perMoveOf(spec.clock);
    const clockOnTimeout = onTimeoutOf(spec.clock);
    const module = this.module(spec.type);
    const seed = randomBytes(32).toString('hex');
    let started: ReturnType<typeof start>;
    try {
      started = start(module, { options: options.value, players: spec.players.map((p) => p.seat) }, seed);
    } catch (error) {
      throw new AppError('BAD_REQUEST', `These options cannot set up a game: ${(error as Error).message}`);
    }
    const entries = spec.entries ?? [];
    const open = entries.some((e) => e.kind === 'open');
    const id = randomUUID();
    const lobby = spec.entries ? { ...seatColumns(entries), visibility: spec.visibility ?? 'PRIVATE', inviteCodeHash: spec.inviteCodeHash ?? null, createdBy: spec.createdBy ?? null } : {};
    const outbox = open ? [] : outboxFor(null, started.status, null, { first: 1, last: started.recorded.length });
    const summary = open ? { status: 'OPEN', awaiting: [], result: null } : summaryOf(started.status);
    const planned = { id, type: spec.type, version: 0, awaiting: [], clockPerMove, ...seatColumns(entries) };
    const record = await this.store.createGame({
      game: {
        id, type: spec.type, options: options.value, players: spec.players, seedCommitment: createHash('sha256').update(seed).digest('hex'), seed, rules: this.rules,
        ...summary, ...lobby, clockPerMove, clockOnTimeout,
      },
      tokens: spec.tokens.map((t) => ({ tokenHash: hashToken(t.token), seat: t.seat, name: t.name })),
      events: open ? [] : started.recorded.map(toNewEvent),
      outbox,
      jobs: open ? undefined : this.plan({ game: planned, version: started.recorded.length, outbox, summary, seat: null }),
    });
    for (const t of spec.tokens) this.seatTokens.put(hashToken(t.token), id, t.seat);
    if (!open) await this.committed(record, 0, started.state);
    return { game: new GameRead(this.ctx, record, actor, open ? undefined : started.state), started: !open };
  }
}
