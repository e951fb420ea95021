/**
 * The match: what every game shares around its rules. It checks whose decision the game
 * waits for, handles resignation, time-outs and draw offers (docs/api.md, "Match
 * commands"), counts the random draws, and keeps the result. Game modules only see their
 * own state.
 *
 * Folding (`evolveMatch`) never decides: every consequence of a match command (a player
 * out, the next player's turn, a lapsed draw offer, the end of the game) is an event the
 * turn stored (see turn.ts).
 */
import { commandType, type Command, type Decision, type GameEvent, type GameModule, type Json, type Prompt, type Random, type Result, type SetupInput, type Status, type Viewer } from './types.ts';
import type { Roll } from './random.ts';

export interface MatchState<S = unknown> {
  game: S;
  players: string[];
  /** Players who resigned or ran out of time. */
  out: string[];
  // (players the module's rules put out are in its status().out)
  drawOffer: { by: string; accepted: string[] } | null;
  /** The result, once a GameEnded event is folded (whoever decided it). */
  result: Result | null;
  /** How many random draws the game has used: where the next command's dice start. */
  draws: number;
  /** Seats handed to the service's random bot when their time ran out (`onTimeout: BOT`). */
  handedToBot?: string[];
}

/** An event as the match records it: the domain event, who caused it, the dice it used. */
export interface Recorded<E extends GameEvent = GameEvent> {
  event: E;
  seat: string | null;
  /** The draws of the command that produced this batch, on its first event only. */
  rolls?: Roll[];
}

/**
 * Who runs a command: a seat (whoever holds it: a seat token, a player, a bot) or the
 * service itself (a deadline that passed).
 */
export type Actor = { kind: 'seat'; seat: string } | { kind: 'system' };
export const SYSTEM: Actor = { kind: 'system' };
export const asSeat = (seat: string): Actor => ({ kind: 'seat', seat });

/** Commands every game accepts from a seat, whatever its rules. */
export type MatchCommand = { type: 'resign' } | { type: 'offerDraw' } | { type: 'acceptDraw' } | { type: 'declineDraw' };
export const MATCH_COMMANDS = ['resign', 'offerDraw', 'acceptDraw', 'declineDraw'] as const;
/**
/**
 * Commands only the service itself submits: a time-out of one seat, or of several whose
 * deadlines passed at once (timeOutCommand). `bot: true`: the game's clock hands the seats out
 * of time to the random bot (`onTimeout: BOT`) rather than putting them out.
 */
export type SystemCommand = { type: 'timeOut'; seat: string; bot?: boolean } | { type: 'timeOut'; seats: string[]; bot?: boolean };
export const SYSTEM_COMMANDS = ['timeOut'] as const;
export const MATCH_EVENTS = ['PlayerResigned', 'TimedOut', 'SeatHandedToBot', 'DrawOffered', 'DrawAccepted', 'DrawDeclined', 'DrawOfferLapsed', 'GameEnded'] as const;

export const matchCommandSchemas = MATCH_COMMANDS.map((type) => commandType(type));

/**
 * The end of a game, whatever ended it. Every module folds it too: its own view and status
 * then say the game is over (a finished phase, the result, nothing pending, nothing hidden).
 */
export interface GameEnded {
  type: 'GameEnded';
  winners: string[];
  reason: string;
}

/** A seat as the match's sentences name it. */
export function seatName(module: GameModule, seat: string): string {
  return module.seatName?.(seat) ?? seat;
}

export function isMatchEvent(e: GameEvent): boolean {
  return (MATCH_EVENTS as readonly string[]).includes(e.type);
}

export function initialMatch<S>(module: GameModule<S>, input: SetupInput): MatchState<S> {
  return { game: module.initialState(input), players: [...input.players], out: [], drawOffer: null, result: null, draws: 0 };
}

/** Fold one recorded event. */
export function evolveMatch<S>(module: GameModule<S>, state: MatchState<S>, rec: Recorded): MatchState<S> {
  const draws = state.draws + (rec.rolls?.length ?? 0);
  const e = rec.event;
  if (!isMatchEvent(e)) return { ...state, game: module.evolve(state.game, e), draws };
  const seat = e.seat as string;
  switch (e.type) {
    case 'PlayerResigned':
    case 'TimedOut':
      return { ...state, draws, out: [...state.out, seat] };
    case 'SeatHandedToBot':
      return { ...state, draws, handedToBot: [...(state.handedToBot ?? []), seat] };
    case 'DrawOffered':
      return { ...state, draws, drawOffer: { by: seat, accepted: [seat] } };
    case 'DrawAccepted':
      return { ...state, draws, drawOffer: { ...state.drawOffer!, accepted: [...state.drawOffer!.accepted, seat] } };
    case 'DrawDeclined':
    case 'DrawOfferLapsed':
      return { ...state, draws, drawOffer: null };
    case 'GameEnded': {
      const ended = e as unknown as GameEnded;
      return { ...state, draws, drawOffer: null, game: module.evolve(state.game, e), result: { winners: [...ended.winners], reason: ended.reason } };
    }
  }
  return { ...state, draws };
}

function timedOutSeats(c: SystemCommand): string[] {
  return 'seats' in c ? (Array.isArray(c.seats) ? c.seats : []) : [c.seat];
}

/**
 * API.md, Clocks: a time-out ends the part of every seat whose deadline has passed. The
 * seat whose deadline job runs and every other awaited seat whose deadline has passed too
 * go out in one command, in seat order, so that which job runs first changes nothing
 * (both secret numbers of a Warchon battle let run out: no winner).
 */
export function timeOutCommand(players: readonly string[], passed: Iterable<string>): SystemCommand {
  const set = new Set(passed);
  const seats = players.filter((p) => set.has(p));
  if (seats.length === 0) throw new Error('a time-out needs a seat');
  return seats.length === 1 ? { type: 'timeOut', seat: seats[0]! } : { type: 'timeOut', seats };
}

/**
 * The game's own status (module.status), worked out once per state: states are never changed
 * once made (evolve returns a new one), so a command's decision, its consequences, the answer's
 * redaction and the next read of the same state ask it of this memo, not of the rules again.
 */
const statuses = new WeakMap<object, Status>();

export function gameStatus<S>(module: GameModule<S>, game: S): Status {
  if (typeof game !== 'object' || game === null) return module.status(game);
  let status = statuses.get(game);
  if (!status) statuses.set(game, (status = module.status(game)));
  return status;
}

/** Players still in the game: neither resigned, timed out nor put out by the rules. */
export function activePlayers<S>(module: GameModule<S>, state: MatchState<S>): string[] {
  return activeOf(state, gameStatus(module, state.game));
}

/** The players not out, by the match (resigned, timed out) or by the game's own status `inner` (module.status of state.game, worked out once by the caller). */
function activeOf(state: MatchState<unknown>, inner: Status): string[] {
  const out = new Set([...state.out, ...(inner.out ?? [])]);
  return state.players.filter((p) => !out.has(p));
}

export function matchStatus<S>(module: GameModule<S>, state: MatchState<S>): Status {
  return matchStatusOf(module, state, gameStatus(module, state.game));
}

function matchStatusOf<S>(module: GameModule<S>, state: MatchState<S>, inner: Status): Status {
  if (state.result) return { ...inner, stage: 'FINISHED', awaiting: [], result: state.result };
  if (inner.result) return { ...inner, stage: 'FINISHED', awaiting: [] };
  const active = activeOf(state, inner);
  const awaiting: Prompt[] = inner.awaiting.filter((p) => active.includes(p.seat));
  if (state.drawOffer) {
    for (const p of active) {
      if (!state.drawOffer.accepted.includes(p)) {
        awaiting.push({ seat: p, kind: 'ANSWER_DRAW', prompt: `${seatName(module, state.drawOffer.by)} offers a draw: accept or decline` });
      }
    }
  }
  return { ...inner, awaiting };
}

/** The seats the game waits for a game decision from (draw answers aside). */
function awaitedSeats(status: Status): string[] {
  return [...new Set(status.awaiting.filter((p) => p.kind !== 'ANSWER_DRAW').map((p) => p.seat))];
}

/**
 * Decide a command. Refusals carry a code the API maps to an error. Match commands are
 * handled here; game commands only reach the module when the game waits for this seat.
 * These are the events of the command itself; turn.ts adds their consequences.
 */
export function decideMatch<S>(module: GameModule<S>, state: MatchState<S>, command: Command, who: Actor, random: Random): Decision {
  // The game's own status, once: the match's status and who is still in are both read from it.
  const inner = gameStatus(module, state.game);
  const status = matchStatusOf(module, state, inner);
  const active = activeOf(state, inner);
  if (who.kind === 'system') {
    if (command.type !== 'timeOut') return { ok: false, code: 'FORBIDDEN', reason: `The service does not submit ${command.type} commands` };
    if (status.stage === 'FINISHED') return { ok: false, code: 'GAME_OVER', reason: `The game is over: ${status.result?.reason}` };
    const seats = timedOutSeats(command as SystemCommand);
    const bot = (command as SystemCommand).bot === true;
    if (seats.length === 0 || new Set(seats).size !== seats.length) return { ok: false, code: 'BAD_REQUEST', reason: 'A time-out names each seat once' };
    for (const seat of seats) {
      if (!active.includes(seat)) return { ok: false, code: 'ILLEGAL_COMMAND', reason: `${seatName(module, seat)} is not in the game` };
      if (!status.awaiting.some((p) => p.seat === seat)) return { ok: false, code: 'ILLEGAL_COMMAND', reason: `The game does not wait for ${seatName(module, seat)}` };
      if (state.handedToBot?.includes(seat)) return { ok: false, code: 'ILLEGAL_COMMAND', reason: `${seatName(module, seat)} is played by the service's bot` };
    }
    return { ok: true, events: seats.map((seat) => (bot ? { type: 'SeatHandedToBot', seat } : { type: 'TimedOut', seat })) };
  }
  const seat = who.seat;
  if (!state.players.includes(seat)) return { ok: false, code: 'FORBIDDEN', reason: `${seatName(module, seat)} does not play in this game` };
  if (status.stage === 'FINISHED') return { ok: false, code: 'GAME_OVER', reason: `The game is over: ${status.result?.reason}` };
  if (!active.includes(seat)) return { ok: false, code: 'ILLEGAL_COMMAND', reason: 'You are out of this game' };
  switch (command.type) {
    case 'resign':
      return { ok: true, events: [{ type: 'PlayerResigned', seat }] };
    case 'offerDraw':
      if (state.drawOffer) return { ok: false, code: 'ILLEGAL_COMMAND', reason: `A draw offer by ${seatName(module, state.drawOffer.by)} is already open` };
      return { ok: true, events: [{ type: 'DrawOffered', seat }] };
    case 'acceptDraw':
    case 'declineDraw':
      if (!state.drawOffer) return { ok: false, code: 'ILLEGAL_COMMAND', reason: 'No draw has been offered' };
      if (state.drawOffer.accepted.includes(seat)) return { ok: false, code: 'ILLEGAL_COMMAND', reason: 'You have already agreed to this draw' };
      return { ok: true, events: [{ type: command.type === 'acceptDraw' ? 'DrawAccepted' : 'DrawDeclined', seat }] };
    case 'timeOut':
      return { ok: false, code: 'FORBIDDEN', reason: 'Only the service times a seat out' };
  }
  if (!status.awaiting.some((p) => p.seat === seat && p.kind !== 'ANSWER_DRAW')) {
    const waiting = awaitedSeats(status);
    return {
      ok: false,
      code: 'NOT_YOUR_TURN',
      reason: waiting.length ? `Not your turn: the game waits for ${waiting.map((p) => seatName(module, p)).join(', ')}` : 'Not your turn',
    };
  }
  return module.decide(state.game, command, seat, random);
}

export function matchLegalCommands<S>(module: GameModule<S>, state: MatchState<S>, seat: string): Command[] {
  if (!activePlayers(module, state).includes(seat)) return [];
  const status = matchStatus(module, state);
  if (status.stage === 'FINISHED') return [];
  const own = status.awaiting.some((p) => p.seat === seat && p.kind !== 'ANSWER_DRAW') ? module.legalCommands(state.game, seat) : [];
  const extra: Command[] = [];
  if (!state.drawOffer) extra.push({ type: 'offerDraw' });
  else if (!state.drawOffer.accepted.includes(seat)) extra.push({ type: 'acceptDraw' }, { type: 'declineDraw' });
  extra.push({ type: 'resign' });
  return [...own, ...extra];
}

/** @internal the module's view; callers use visibleTo (turn.ts), which owns every visibility rule. */
export function moduleView<S>(module: GameModule<S>, state: MatchState<S>, viewer: Viewer): Json {
  return module.view(state.game, viewer);
}
