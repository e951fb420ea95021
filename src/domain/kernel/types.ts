/**
 * The contract every game module fulfils. The kernel is game-agnostic: it knows seats,
 * commands, events, randomness and results, never maps or units.
 *
 * Everything here is pure: no I/O, no clock, no Math.random. The same inputs always give
 * the same outputs, which is what lets the service replay and verify any game.
 */

/** JSON values only: state, commands and events must survive JSON round trips unchanged. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A JSON Schema document (draft 2020-12 subset understood by Ajv). */
export type JsonSchema = { [key: string]: unknown };

/**
 * The JSON Schema of one command type, as the registry expects them in a module's
 * `commandSchema.oneOf`: `type` fixed, the given properties (all required unless
 * `required` says otherwise), nothing else.
 */
export function commandType(type: string, properties: Record<string, unknown> = {}, required: string[] = Object.keys(properties)): JsonSchema {
  return {
    type: 'object',
    title: type,
    properties: { type: { const: type }, ...properties },
    required: ['type', ...required],
    additionalProperties: false,
  };
}

/** A command as a client submits it: a JSON object with a `type`. */
export interface Command {
  type: string;
  [key: string]: unknown;
}

/** A domain event: a fact the game's rules produced. `type` names it in the rulebook's words. */
export interface GameEvent {
  type: string;
  [key: string]: unknown;
}

/**
 * Seeded randomness, injected by the caller. Each draw is recorded by the kernel, and the
 * module should also put the values it rolled into the event that used them.
 */
export interface Random {
  /** A fair die: an integer from 1 to `sides` inclusive. */
  die(sides: number): number;
}

/** One decision the game waits for. */
export interface Prompt {
  seat: string;
  /** e.g. MOVE, ATTACK, ALLOCATE_DAMAGE, REROLL, RETREAT, COMMIT_NUMBER, SETUP, RECRUIT */
  kind: string;
  /** A short sentence a player understands: "Allocate 4 damage among the defenders in D1". */
  prompt: string;
}

export interface Result {
  /** Empty for a draw. */
  winners: string[];
  /** Human-readable: "Cao Cao destroyed", "resignation", "turn limit reached (draw)". */
  reason: string;
}

export interface Status {
  /** SETUP while players still place their forces, ACTIVE during play, FINISHED once there is a result. */
  stage: 'SETUP' | 'ACTIVE' | 'FINISHED';
  /** The rulebook's name for the current phase, e.g. "Cao movement". */
  phase: string;
  /** Round or turn number as the rulebook counts it (null before the first). */
  round: number | null;
  /** Every decision the game now waits for. Several seats may be awaited at once. */
  awaiting: Prompt[];
  result: Result | null;
  /**
   * Players the rules have put out of a game of three or more (e.g. both Generals lost):
   * they are no longer asked anything, not even to answer a draw offer.
   */
  out?: string[];
}

/** A refusal: nothing is stored. `reason` is in words a player understands. */
export interface Refusal {
  ok: false;
  code: 'ILLEGAL_COMMAND' | 'NOT_YOUR_TURN' | 'BAD_REQUEST' | 'GAME_OVER' | 'FORBIDDEN';
  reason: string;
}

export interface Accepted<E extends GameEvent = GameEvent> {
  ok: true;
  events: E[];
}

export type Decision<E extends GameEvent = GameEvent> = Accepted<E> | Refusal;

export function accept<E extends GameEvent>(...events: E[]): Accepted<E> {
  return { ok: true, events };
}

export function refuse(reason: string, code: Refusal['code'] = 'ILLEGAL_COMMAND'): Refusal {
  return { ok: false, code, reason };
}

/** What the game was created with. `players` are the seats taking part, in seat order. */
export interface SetupInput<O = unknown> {
  options: O;
  players: string[];
}

/** How clients present a game type (served by `gameTypes`): the lobby's one-liner, each seat's name and colour. */
export interface Presentation {
  /** One or two sentences for the lobby. */
  description: string;
  /** Every seat of the module's `seats`: the name players read ("Wei") and a CSS hex colour ("#2b6cb0"). */
  seats: Record<string, { name: string; colour: string }>;
}

/** `null` is a spectator (no seat). */
export type Viewer = string | null;

/**
 * Orders in words (docs/api.md, "Orders in words"): a short line per command, typeable on a
 * phone, and a sentence for it. Everything is read from the seat's own view, never the
 * state, so nothing hidden from that seat can appear in its text.
 */
export interface Notation<C extends Command = Command> {
  /** The line for a command the seat may submit now: words and single spaces ("move cao-cao A1 B2"); case does not matter. */
  format(command: C, view: Json, seat: string): string;
  /** The same order as a sentence: "Move Cao Cao from A1 to B2". */
  text(command: C, view: Json, seat: string): string;
  /**
   * Read a line (already lower case, split into words) as one of this game's commands,
   * legal now or not, or say why it is none. Exact: the only line that reads to a
   * command is that command's own format.
   */
  parse(words: string[], view: Json, seat: string): C | string;
  /** The position in a few lines of words, as this viewer may see it. */
  describe(view: Json, viewer: Viewer): string[];
}

export interface GameModule<S = any, C extends Command = any, E extends GameEvent = any, O = any> {
  /** e.g. "raid-on-wuchao" */
  id: string;
  /** e.g. "Raid on Wuchao" */
  name: string;
  /** Every seat this game can have, in the rulebook's order. */
  seats: readonly string[];
  /** A seat as a sentence names it ("Wei" for the seat "wei"); the seat id when absent. */
  seatName?(seat: string): string;
  minPlayers: number;
  maxPlayers: number;
  /** JSON Schema of the creation options (may be `{type:'object'}` with defaults applied in setup). */
  optionsSchema: JsonSchema;
  /** JSON Schema of this game's own commands (the kernel adds resign and draw commands). */
  commandSchema: JsonSchema;
  /** JSON Schema of this game's own events, one alternative per type (the kernel adds the match's events; see event-schema.ts). */
  eventSchema?: JsonSchema;
  /**
   * JSON Schema of what `view` returns (an object), from which the service generates the
   * GraphQL type of the view (`<Name>View`, named after the id). Without one the view is
   * served as GenericView { gameType, state }.
   */
  viewSchema?: JsonSchema;
  /** Description, seat names and colours (without one: no description, seat ids, grey). */
  presentation?: Presentation;
  /**
   * Creation options that give short games showing most of the rules, one game per entry:
   * the property tests play random games with them (default: `[{}]`).
   */
  exampleOptions?: O[];

  /** The empty state before the setup events (no randomness here). */
  initialState(input: SetupInput<O>): S;
  /** Events that set the game up: rolled terrain, starting forces... At least one event. */
  setup(input: SetupInput<O>, random: Random): E[];
  /** The rules: accept the command as events, or refuse it. Never throws for bad play. */
  decide(state: S, command: C, seat: string, random: Random): Decision<E>;
  /**
   * Fold one event into the state. Must not validate or decide: events are facts. Besides
   * its own events it folds the kernel's `GameEnded { winners, reason }` (a resignation,
   * an agreed draw, a time-out): the view and status then show the game over, nothing
   * pending, nothing hidden.
   */
  evolve(state: S, event: E): S;
  /** The state as `viewer` may see it (hidden information removed). */
  view(state: S, viewer: Viewer): Json;
  /**
   * The event as `viewer` may see it given the game's current state (events may be
   * revealed later, e.g. once a unit has fought). Return the event unchanged when nothing
   * in it is hidden. Only called while the game runs; finished games show everything.
   */
  redact?(event: E, viewer: Viewer, current: S): E;
  /** Every command `seat` may submit now, each ready to send unchanged. */
  legalCommands(state: S, seat: string): C[];
  status(state: S): Status;
  /**
   * A player who resigns or runs out of time is out: the events that follow (the player
   * out, their pieces removed, a pending choice of theirs dropped, the next player's turn).
   * Called for every such player, also the one whose leaving ends the game: then only mark
   * them out and remove their pieces, and leave the ending to the match (its GameEnded
   * follows with the match's reason). `reason` is the match's words ("north resigned",
   * "time out").
   */
  eliminate?(state: S, seat: string, random: Random, reason: string): E[];
  /** The mail notation of this game's commands; without one an order is its JSON. */
  notation?: Notation<C>;
}
