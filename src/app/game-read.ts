/**
 * A game as one actor sees it: the record, and everything else computed on demand and
 * memoised (a GraphQL query asking only for `status` folds nothing). What the actor may
 * see is the kernel's visibleTo, for the view, the events and the seed alike.
 */
import { botSeed, legalOrders, matchLegalCommands, matchStatus, visibleTo, type Command, type Order, type GameModule, type Json, type MatchState, type Recorded, type Status } from '../domain/kernel/index.ts';
import { seatIn, seatsHeld, type Actor } from './actors.ts';
import type { ClockInput } from './clock.ts';
import { AppError } from './errors.ts';
import { MAX_VERSION } from './input.ts';
import type { AbsenceStore, Away, ClockStore, GameRecord, GameStore, StoredEvent } from './ports.ts';
import type { States } from './states.ts';

/** What a read needs of the core. */
export interface ReadContext {
  module(type: string): GameModule;
  states: States;
  store: GameStore;
  clocks: ClockStore;
  /** For Seat.absentUntil, where the absences were not read with the record. */
  absences: AbsenceStore;
}

export interface EventOut {
  version: number;
  type: string;
  seat: string | null;
  data: Record<string, unknown>;
  at: string;
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
/** A seat with its deadline and, while its player is absent, when the absence ends (ISO time). */
export type SeatWithDeadline = WithDeadline<SeatOut> & { absentUntil: string | null };

/**
 * Status and legal commands worked out once per folded state (a state is never changed:
 * each command folds a new one), shared by every read of it; what is cached is never
 * changed by its readers either.
 */
const derived = new WeakMap<MatchState, { status?: Status; legal: Map<string, Command[]> }>();
function derivedOf(state: MatchState) {
  let d = derived.get(state);
  if (!d) derived.set(state, (d = { legal: new Map() }));
  return d;
}

/** A game that has not been set up (its seats are still open, or it was cancelled so): no state yet. */
const UNSTARTED: Status = { stage: 'SETUP', phase: 'waiting for players', round: null, awaiting: [], result: null };

/**
 * A game as one actor sees it. Everything but the record is computed on demand and
 * memoised, so a GraphQL query asking only for `status` folds nothing.
 */
export class GameRead {
  readonly #record: GameRecord;
  readonly #app: ReadContext;
  #state: Promise<MatchState> | null;
  /** The seat the actor holds here, if any. */
  readonly yourSeat: string | null;

  /** Seat.absentUntil's absences, when read with the record (none: asked of the AbsenceStore if a seat's is wanted). */
  readonly #away: Away | undefined;

  constructor(app: ReadContext, record: GameRecord, actor: Actor, state?: MatchState, away?: Away) {
    this.#app = app;
    this.#away = away;
    this.#record = record;
    this.#state = state ? Promise.resolve(state) : null;
    this.yourSeat = seatIn(actor, record);
    this.#bot = actor.kind === 'bot' ? actor.seat : null;
    this.#held = seatsHeld(actor, record);
  }

  readonly #held: string[];
  readonly #bot: string | null;
  /** The bot's own seed for its decision at this version (botSeed): only the bot playing the seat gets it. */
  get botSeed(): string | null { return this.#bot ? botSeed(this.#record.seed, this.#record.version, this.#bot) : null; }
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
  get clock(): ClockInput | null {
    return this.#record.clockPerMove ? { perMove: this.#record.clockPerMove, onTimeout: this.#record.clockOnTimeout === 'BOT' ? 'BOT' : 'RESIGN' } : null;
  }
  /** The seed is secret until the game is finished (the kernel's visibleTo says when). */
  async seed(): Promise<string | null> {
    if (this.#unstarted) return null;
    return visibleTo(this.module(), await this.state(), this.yourSeat).seed ? this.#record.seed : null;
  }
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
    return (this.#state ??= this.#app.states.of(this.#record).then((s) => s.state));
  }

  #deadlines: Promise<Map<string, Date>> | null = null;
  /**
   * The deadline of each seat whose decision the game awaits (a clock runs on no draw
   * answer): when it became awaited plus the clock, both as the database keeps them.
   */
  deadlines(): Promise<Map<string, Date>> {
    return (this.#deadlines ??= (async () => {
      const store = this.#app.clocks;
      if (!this.#record.clockPerMove || this.#unstarted || this.#record.status === 'FINISHED') return new Map();
      const deciding = new Set((await this.progress()).awaiting.filter((p) => p.kind !== 'ANSWER_DRAW').map((p) => p.seat));
      const rows = await store.deadlines(this.#record.id, this.#record.version);
      return new Map(rows.filter((r) => deciding.has(r.seat)).map((r) => [r.seat, r.deadline]));
    })());
  }

  /** The seats, each with its deadline. */
  async seatsWithDeadlines(): Promise<SeatWithDeadline[]> {
    const deadlines = this.#record.clockPerMove ? await this.deadlines() : new Map<string, Date>();
    const seats = this.seats;
    const held = seats.flatMap((s) => (s.player ? [s.player.id] : []));
    const over = this.#record.status === 'FINISHED' || this.#record.status === 'ABANDONED';
    const away = this.#away ?? (held.length && !over ? await this.#app.absences.absentUntil(held) : new Map<string, Date>());
    return seats.map((s) => ({ ...s, deadline: deadlines.get(s.id)?.toISOString() ?? null, absentUntil: (s.player && away.get(s.player.id)?.toISOString()) ?? null }));
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
    const state = await this.state();
    const d = derivedOf(state);
    return (d.status ??= matchStatus(this.module(), state));
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
    const { state, version } = await this.#app.states.of(game, atVersion);
    return { version, view: visibleTo(this.module(), state, this.yourSeat).view() };
  }

  /** Every command the actor's seat may submit now, ready to send unchanged. */
  async legalCommands(): Promise<Command[]> {
    if (!this.yourSeat || this.#unstarted) return [];
    const state = await this.state();
    const legal = derivedOf(state).legal;
    let commands = legal.get(this.yourSeat);
    if (!commands) legal.set(this.yourSeat, (commands = matchLegalCommands(this.module(), state, this.yourSeat)));
    return commands;
  }

  /** The same commands as orders in words: the line of the game's notation, a sentence, the command. */
  async legalOrders(): Promise<Order[]> {
    return this.yourSeat && !this.#unstarted ? legalOrders(this.module(), await this.state(), this.yourSeat) : [];
  }

  /** The log after `after` as the actor may see it, at most `first` (1000 at most) events. */
  async events(after = 0, first?: number): Promise<EventOut[]> {
    if (!Number.isInteger(after) || after < 0 || after > MAX_VERSION) throw new AppError('BAD_REQUEST', `"after" must be a whole number of events, at most ${MAX_VERSION}`);
    if (first !== undefined && (!Number.isInteger(first) || first < 0)) throw new AppError('BAD_REQUEST', '"first" must be a whole number of events');
    // Up to the version this read is of, so a game's fields and its events agree (a later
    // commit's events would belong with its later status, seats and view).
    const stored = await (this.#app.store.lagTolerant ?? this.#app.store).events(this.#record.id, after, this.#record.version, first === undefined ? undefined : Math.min(first, 1000));
    return this.redact(stored);
  }

  /** Stored events as the actor may see them, given the game's current state. */
  async redact(stored: StoredEvent[]): Promise<EventOut[]> {
    if (this.#unstarted) return [];
    const visible = visibleTo(this.module(), await this.state(), this.yourSeat);
    return stored.map((e) => ({ version: e.version, type: e.type, seat: e.seat, data: visible.event(e.data as Recorded['event']) as Record<string, unknown>, at: e.at.toISOString() }));
  }
}

