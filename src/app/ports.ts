/**
 * The core's ports: what it needs from storage, the job queue and the wake-ups, and the
 * records they carry. The core owns these; src/persistence implements them on PostgreSQL
 * and src/app/memory in memory (for the core's tests and the bench's pure-core section).
 * Nothing here knows SQL.
 */

import type { DigestStore } from './ports-digest.ts';
import type { MailStore } from './ports-mail.ts';
import type { MessageStore } from './ports-messages.ts';
import type { PlayerStore, RevocationListener, WebhookStore } from './ports-people.ts';

export type * from './ports-digest.ts';
export type * from './ports-mail.ts';
export type * from './ports-messages.ts';
export type * from './ports-people.ts';

// ---- games, events, commands ------------------------------------------------------------

export interface StoredEvent {
  version: number;
  type: string;
  seat: string | null;
  data: Record<string, unknown>;
  rolls: unknown[] | null;
  commandId: string | null;
  at: Date;
  /** Increasing across all games. */
  position?: string;
}

export interface NewEvent {
  type: string;
  seat: string | null;
  data: object;
  rolls?: unknown[] | null;
}

export interface GameRecord {
  id: string;
  type: string;
  options: unknown;
  players: { seat: string; name: string }[];
  seedCommitment: string;
  seed: string;
  status: string;
  version: number;
  awaiting: string[];
  result: { winners: string[]; reason: string } | null;
  /** Fingerprint of the rules code the game started under. */
  rules: string;
  createdAt: Date;
  updatedAt: Date;
  /** Who holds the seats not held by a seat token from creation (none for such games). */
  seats: SeatEntry[];
  /** The players holding a seat. */
  playerIds: string[];
  /** The seats the service plays. */
  bots: string[];
  /** PUBLIC | PRIVATE */
  visibility: string;
  /** sha256 of the invite code, while the game has one. */
  inviteCodeHash: string | null;
  /** The player who created the game. */
  createdBy: string | null;
  /** Seconds each awaited seat has for each decision (null: no clock). */
  clockPerMove: number | null;
  /** What a seat out of time becomes: null, the seat is out (RESIGN); BOT, the random bot plays it. */
  clockOnTimeout?: 'BOT' | null;
  /**
   * The stored row's revision when this record is the whole row as read or written (unset
   * otherwise, e.g. a record the caller assembled): while GameRevisions answers the same, the
   * record is still the row.
   */
  revision?: string;
}

/**
 * Who holds a seat: a seat token (named at creation, or `joined` later), a player, a bot,
 * or nobody yet. Never an email.
 */
export interface SeatEntry {
  seat: string;
  kind: 'token' | 'player' | 'bot' | 'open';
  playerId?: string;
  bot?: string;
  /** Taken with joinGame rather than at creation. */
  joined?: boolean;
  /** For a seat token: the start of its hash (a later holder of the seat has another). */
  token?: string;
  /** A seat handed to the bot when its time ran out: the player who held it (if a player did). */
  handedFrom?: string;
}

/** The lobby's part of a game row, given at creation (defaults: no lobby). */
export type LobbyFields = 'seats' | 'playerIds' | 'bots' | 'visibility' | 'inviteCodeHash' | 'createdBy' | 'clockPerMove' | 'clockOnTimeout';

/** What changed for whom, committed with the events (see src/app/outbox.ts). */
export interface OutboxEntry {
  kind: 'EVENTS_APPENDED' | 'SEAT_AWAITED' | 'GAME_STARTED' | 'GAME_ENDED' | 'SEAT_HANDED_TO_BOT';
  seat: string | null;
  data?: Record<string, unknown>;
}

export interface StoredOutboxEntry extends OutboxEntry {
  id: string;
  gameId: string;
  version: number;
  createdAt: Date;
}

export interface GameSummary {
  status: string;
  awaiting: string[];
  result: { winners: string[]; reason: string } | null;
}

export interface CommandRecord {
  id: string;
  /** null: the service itself (a deadline that passed). */
  seat: string | null;
  command: Record<string, unknown>;
  idempotencyKey: string | null;
  firstVersion: number;
  lastVersion: number;
}

/**
 * The end of each absence under way (by the store's clock) of a player holding a seat of
 * the game, absent players only; one absence set right after another counts as one. None
 * once the game is over. Read with the game so that a read costs no second round trip.
 */
export type Away = ReadonlyMap<string, Date>;

export type AppendOutcome =
  | { ok: true; firstVersion: number; lastVersion: number; commandId: string; game: GameRecord; events: StoredEvent[]; /** Read by the commit itself. */ away: Away }
  | { ok: false; conflict: 'VERSION'; currentVersion: number }
  | { ok: false; conflict: 'IDEMPOTENCY'; existing: CommandRecord };

export interface AppendInput {
  gameId: string;
  expectedVersion: number;
  /** null: the service itself. */
  seat: string | null;
  command: object;
  idempotencyKey: string | null;
  events: NewEvent[];
  summary: GameSummary;
  outbox: OutboxEntry[];
  /** Jobs to add (or cancel) with the commit: stored if and only if the append is. */
  jobs?: JobChange[];
  /** The game's record at expectedVersion, as the command was decided on (the store may then read back only the summary). */
  base?: GameRecord;
}

export interface NewGame {
  game: Omit<GameRecord, 'createdAt' | 'updatedAt' | 'version' | LobbyFields> & Partial<Pick<GameRecord, LobbyFields>>;
  tokens: { tokenHash: string; seat: string; name: string }[];
  events: NewEvent[];
  outbox?: OutboxEntry[];
  /** Jobs to add with the game, all or nothing. */
  jobs?: JobChange[];
}

/** A keyset position in a listing. */
export interface Cursor {
  createdAt: Date;
  id: string;
}

/** The event store: one stream per game, appended at the version it was decided on. */
export interface GameStore {
  /** Creates the game with its seat tokens (hashes), setup events, outbox rows and jobs, all or nothing. */
  createGame(input: NewGame): Promise<GameRecord>;
  /** The command's events, command record, summary, outbox rows and jobs, all or nothing. */
  append(input: AppendInput): Promise<AppendOutcome>;
  game(id: string): Promise<GameRecord | null>;
  /**
   * The game for a reader now: the record as `game` reads it, with the absences under way of
   * the players holding its seats (Seat.absentUntil), in one round trip.
   */
  gameNow(id: string): Promise<{ game: GameRecord; away: Away } | null>;
  /** Events after `after`, up to `until` (inclusive), at most `limit`. */
  events(gameId: string, after?: number, until?: number, limit?: number): Promise<StoredEvent[]>;
  /** Outbox rows, oldest first; `version`: only that commit's. */
  outbox(gameId: string, version?: number): Promise<StoredOutboxEntry[]>;
  findCommand(gameId: string, seat: string, idempotencyKey: string): Promise<CommandRecord | null>;
  commands(gameId: string): Promise<CommandRecord[]>;
  seatForToken(tokenHash: string): Promise<{ gameId: string; seat: string } | null>;
  /** `rules` names the rules code that folded the state. */
  saveSnapshot(gameId: string, version: number, state: unknown, rules?: string): Promise<void>;
  /** The latest snapshot at or before `version` folded by the given rules. */
  snapshot(gameId: string, version?: number, rules?: string): Promise<{ version: number; state: unknown } | null>;
  /** Games, newest first, keyset-paginated by (createdAt, id). */
  listGames(filter: { type?: string; status?: string; ids?: string[]; visibility?: string }, first: number, after?: Cursor): Promise<GameRecord[]>;
  /**
   * The reads that tolerate a replica's lag, which a store may serve from one (unset: this
   * store): the log up to a version already read (`until` given: the answer is exactly the
   * primary's) and listings (a lag of a moment). Nothing a command decides on goes here.
   */
  readonly lagTolerant?: LagTolerantReads;
}

export type LagTolerantReads = Pick<GameStore, 'events' | 'listGames'>;

// ---- the lobby ----------------------------------------------------------------------------

export interface SeatChange {
  gameId: string;
  /** The seats as they were read: the change happens only if they are still so. */
  expected: SeatEntry[];
  seats: SeatEntry[];
  players: { seat: string; name: string }[];
  playerIds: string[];
  bots: string[];
  /** A seat token for an anonymous joiner. */
  addToken?: { tokenHash: string; seat: string; name: string };
  /** Seat tokens that no longer hold anything (a seat left). */
  removeTokensFor?: string[];
  /** The last seat is filled: the setup events, the summary after them, their outbox rows and jobs. */
  start?: { events: NewEvent[]; summary: GameSummary; outbox: OutboxEntry[]; jobs?: JobChange[] };
}

export interface GameFilter {
  type?: string;
  status?: string;
  myTurn?: boolean;
}

export interface LobbyStore {
  /** Applies the change unless the game's seats or status moved on meanwhile (then null); only at version 0. */
  changeSeats(change: SeatChange): Promise<GameRecord | null>;
  /** OPEN → ABANDONED; null when the game is no longer OPEN. */
  cancel(gameId: string): Promise<GameRecord | null>;
  /** Public games with an open seat, oldest first. */
  openGames(type: string | undefined, first: number, after?: Cursor): Promise<GameRecord[]>;
  /** The games a player holds a seat in, newest first. */
  playerGames(playerId: string, filter: GameFilter, first: number, after?: Cursor): Promise<GameRecord[]>;
  myTurnCount(playerId: string): Promise<number>;
  /** The open game an invite code (its hash) belongs to. */
  byInviteCode(codeHash: string): Promise<GameRecord | null>;
  /**
   * A started game's seats handed to the service's bot (`onTimeout: BOT`, after their
   * SeatHandedToBot event is stored): each becomes `{ kind: 'bot', bot, handedFrom }`, the
   * game's players stay. Null when every one of them is a bot seat already.
   */
  handToBot(gameId: string, seats: string[], bot: string): Promise<GameRecord | null>;
}

// ---- clocks -------------------------------------------------------------------------------

export interface SeatDeadline {
  seat: string;
  /** The game's version when the seat became awaited: where the time-out is submitted. */
  version: number;
  deadline: Date;
}

/** Deadlines, derived by the store from when a seat became awaited (its clock) plus the game's clock. */
export interface ClockStore {
  /** The deadlines of the seats the game awaits, as of `version`. */
  deadlines(gameId: string, version: number): Promise<SeatDeadline[]>;
  /** One seat's deadline now, whether it has passed by the store's clock, and the game's version then; `soon`: when its warning is due (`warningWith`: a quarter of its time left, or the return from an absence begun after that), and whether that has passed. */
  deadline(gameId: string, seat: string): Promise<(SeatDeadline & { passed: boolean; gameVersion: number; soon?: Date; soonPassed?: boolean }) | null>;
}

// ---- absences -----------------------------------------------------------------------------

/** A player's absence (src/app/absence.ts): their seats' clocks stand still from `from` until `until`. */
export interface AbsenceRecord { id: string; playerId: string; from: Date; until: Date }

/**
 * Absences. `set` and `cancel` run one at a time per player, at the store's clock, and in the
 * same transaction move the waiting deadline jobs (`deadline:`/`deadline-soon:` keys) of the
 * player's awaited seats to their new derived times.
 */
export interface AbsenceStore {
  /** The player's absences of this calendar year and later, oldest first. */
  list(playerId: string): Promise<AbsenceRecord[]>;
  /** `check(now, others)` throws the refusal or returns the start to store (e.g. `now` for a start just past). */
  set(playerId: string, from: Date, until: Date, check: (now: Date, others: AbsenceRecord[]) => Date): Promise<AbsenceRecord>;
  /** Gone if not begun, ended now if under way. */
  cancel(playerId: string, id: string): Promise<'cancelled' | 'over' | 'unknown'>;
  /** The end of each given player's absence under way now (absent players only). */
  absentUntil(playerIds: string[]): Promise<Map<string, Date>>;
}

// ---- jobs ---------------------------------------------------------------------------------

/** A job to add: `key` replaces the pending job with that key. */
export interface JobSpec {
  /** The task's name. */
  task: string;
  payload?: Record<string, unknown>;
  key?: string;
  /** An absolute time to run at. */
  runAt?: Date;
  /** Seconds after the commit, by the store's clock (the database's now(), not a process's). */
  runAfterSeconds?: number;
  maxAttempts?: number;
  /** Lower runs first (default 0); see src/app/tasks.ts for each task's. */
  priority?: number;
  /** Jobs of one queue name run one at a time. Few names, never one per game or webhook (costly fetches). */
  queueName?: string;
  /**
   * Only when someone listens to the game: an enabled webhook on it or one of its players
   * ('listened'), or that or a player of it who wants mail ('listened-or-mail'). The store
   * decides in the commit's own statement.
   */
  when?: 'listened' | 'listened-or-mail';
}

/** Cancels the pending job with this key, if any (a deadline that no longer applies). */
export interface JobRemoval {
  removeKey: string;
}

export type JobChange = JobSpec | JobRemoval;

/** Jobs added outside a commit (or with none). */
export interface JobQueue {
  /** `keyMode: 'keep'`: nothing is added when a job with `key` exists (pending or running); default: a pending one is replaced. */
  add(task: string, payload?: Record<string, unknown>, options?: { key?: string; runAt?: Date; maxAttempts?: number; priority?: number; keyMode?: 'replace' | 'keep' }): Promise<string>;
  remove(key: string): Promise<void>;
}

/**
 * The revision of a game's row as it is now (GameRecord.revision), with the absences under way
 * of its seat holders (Away), or null (no such game, or a store whose records carry none):
 * what a read of a game the process holds asks, instead of the row. Answered by the store
 * after the ask: a write acknowledged before it is seen.
 */
export interface GameRevisions {
  revision(gameId: string): Promise<{ revision: string; away: Away } | null>;
}

// ---- wake-ups -----------------------------------------------------------------------------

/** "Game X has new events", across processes: only a wake-up, the store is the truth. */
export interface WakeUps {
  publish(gameId: string, version: number): void;
  /** Calls `wake` when the game may have new events; returns the unsubscribe. */
  listen(gameId: string, wake: () => void): () => void;
  /** Calls `wake` whenever any game may have new events (a commit on any process); returns the unsubscribe. */
  onCommit(wake: () => void): () => void;
  /**
   * Calls `heard` with a game's version as told by a commit on another process (this one's own
   * may be told too), before that game's `listen` wakes; a hint only, late or lost at times;
   * returns the unsubscribe.
   */
  onVersion(heard: (gameId: string, version: number) => void): () => void;
  /** Calls `listener` with the hash of each player token revoked on any process (PlayerStore.revokeToken), null after a lost connection (recheck); returns the unsubscribe. */
  onTokenRevoked(listener: RevocationListener): () => void;
  /**
   * Resolves once every revocation committed before the call has been told to the
   * `onTokenRevoked` listeners (one round trip on the listening connection, shared by the
   * callers that arrive meanwhile); rejects when that cannot be known (no listening connection).
   */
  heardRevocations(): Promise<void>;
}

/** Everything the core is built on. */
export interface Ports {
  games: GameStore;
  /** Revisions of game rows, for reads of the games the process holds. */
  revisions: GameRevisions;
  lobby: LobbyStore;
  players: PlayerStore;
  webhooks: WebhookStore;
  clocks: ClockStore;
  /** Absences that stop a player's clocks. */
  absences: AbsenceStore;
  /** Play by mail: inbound messages and reply addresses. */
  mail: MailStore;
  /** The daily digests sent, the calendar feeds' tokens. */
  digests: DigestStore;
  /** Messages between players. */
  messages: MessageStore;
  jobs: JobQueue;
  wakeUps: WakeUps;
  /** 'ready', or why not (migrations, the database). */
  readiness?(): Promise<{ ready: true } | { ready: false; status: string; error?: string }>;
}
