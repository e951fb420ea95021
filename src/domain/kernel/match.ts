/**
 * The match: what every game shares around its rules. It checks whose decision the game
 * waits for, handles resignation and draw offers (RULINGS.md, General), counts the
 * random draws, and keeps the result. Game modules only see their own state.
 */
import { commandType, type Command, type Decision, type GameEvent, type GameModule, type Json, type Prompt, type Random, type Result, type SetupInput, type Status, type Viewer } from './types.ts';
import type { Roll } from './random.ts';

export interface MatchState<S = unknown> {
  game: S;
  players: string[];
  /** Players who resigned in a game of three or more: out, their pieces gone. */
  out: string[];
  // (players the module's rules put out are in its status().out)
  drawOffer: { by: string; accepted: string[] } | null;
  /** Result reached by resignation or agreed draw (the module's own result otherwise). */
  result: Result | null;
  /** How many random draws the game has used: where the next command's dice start. */
  draws: number;
}

/** An event as the match records it: the domain event, who caused it, the dice it used. */
export interface Recorded<E extends GameEvent = GameEvent> {
  event: E;
  seat: string | null;
  /** The draws of the command that produced this batch, on its first event only. */
  rolls?: Roll[];
}

/** Commands every game accepts, whatever its rules (RULINGS.md, General). */
export type MatchCommand = { type: 'resign' } | { type: 'offerDraw' } | { type: 'acceptDraw' } | { type: 'declineDraw' };
export const MATCH_COMMANDS = ['resign', 'offerDraw', 'acceptDraw', 'declineDraw'] as const;
export const MATCH_EVENTS = ['PlayerResigned', 'DrawOffered', 'DrawAccepted', 'DrawDeclined'] as const;

export const matchCommandSchemas = MATCH_COMMANDS.map((type) => commandType(type));

function isMatchEvent(e: GameEvent): boolean {
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
    case 'PlayerResigned': {
      const remaining = activePlayers(module, state).filter((p) => p !== seat);
      if (remaining.length <= 1) {
        return { ...state, draws, drawOffer: null, result: { winners: remaining, reason: `${seat} resigned` } };
      }
      const game = module.eliminate ? module.eliminate(state.game, seat) : state.game;
      return { ...state, draws, game, out: [...state.out, seat], drawOffer: null };
    }
    case 'DrawOffered':
      return { ...state, draws, drawOffer: { by: seat, accepted: [seat] } };
    case 'DrawAccepted': {
      const offer = state.drawOffer!;
      const accepted = [...offer.accepted, seat];
      const everyone = activePlayers(module, state).every((p) => accepted.includes(p));
      return everyone
        ? { ...state, draws, drawOffer: null, result: { winners: [], reason: 'draw agreed' } }
        : { ...state, draws, drawOffer: { ...offer, accepted } };
    }
    case 'DrawDeclined':
      return { ...state, draws, drawOffer: null };
  }
  return state;
}

/** Players still in the game: neither resigned nor put out by the rules. */
export function activePlayers<S>(module: GameModule<S>, state: MatchState<S>): string[] {
  const out = new Set([...state.out, ...(module.status(state.game).out ?? [])]);
  return state.players.filter((p) => !out.has(p));
}

export function matchStatus<S>(module: GameModule<S>, state: MatchState<S>): Status {
  const inner = module.status(state.game);
  if (state.result) return { ...inner, stage: 'FINISHED', awaiting: [], result: state.result };
  if (inner.result) return { ...inner, stage: 'FINISHED', awaiting: [] };
  const active = activePlayers(module, state);
  const awaiting: Prompt[] = inner.awaiting.filter((p) => active.includes(p.seat));
  if (state.drawOffer) {
    for (const p of active) {
      if (!state.drawOffer.accepted.includes(p)) {
        awaiting.push({ seat: p, kind: 'ANSWER_DRAW', prompt: `${state.drawOffer.by} offers a draw: accept or decline` });
      }
    }
  }
  return { ...inner, awaiting };
}

/**
 * Decide a command. Refusals carry a code the API maps to an error. Match commands are
 * handled here; game commands only reach the module when the game waits for this seat.
 */
export function decideMatch<S>(
  module: GameModule<S>,
  state: MatchState<S>,
  command: Command,
  seat: string,
  random: Random,
): Decision {
  if (!state.players.includes(seat)) return { ok: false, code: 'FORBIDDEN', reason: `${seat} does not play in this game` };
  const status = matchStatus(module, state);
  if (status.stage === 'FINISHED') return { ok: false, code: 'GAME_OVER', reason: `The game is over: ${status.result?.reason}` };
  if (!activePlayers(module, state).includes(seat)) return { ok: false, code: 'ILLEGAL_COMMAND', reason: 'You are out of this game' };
  switch (command.type) {
    case 'resign':
      return { ok: true, events: [{ type: 'PlayerResigned', seat }] };
    case 'offerDraw':
      if (state.drawOffer) return { ok: false, code: 'ILLEGAL_COMMAND', reason: `A draw offer by ${state.drawOffer.by} is already open` };
      return { ok: true, events: [{ type: 'DrawOffered', seat }] };
    case 'acceptDraw':
    case 'declineDraw':
      if (!state.drawOffer) return { ok: false, code: 'ILLEGAL_COMMAND', reason: 'No draw has been offered' };
      if (state.drawOffer.accepted.includes(seat)) return { ok: false, code: 'ILLEGAL_COMMAND', reason: 'You have already agreed to this draw' };
      return { ok: true, events: [{ type: command.type === 'acceptDraw' ? 'DrawAccepted' : 'DrawDeclined', seat }] };
  }
  const mine = status.awaiting.filter((p) => p.seat === seat && p.kind !== 'ANSWER_DRAW');
  if (mine.length === 0) {
    const waiting = [...new Set(status.awaiting.filter((p) => p.kind !== 'ANSWER_DRAW').map((p) => p.seat))];
    return {
      ok: false,
      code: 'NOT_YOUR_TURN',
      reason: waiting.length ? `Not your turn: the game waits for ${waiting.join(', ')}` : 'Not your turn',
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

/** An event as `viewer` may see it now. Finished games hide nothing. */
export function redactFor<S>(module: GameModule<S>, state: MatchState<S>, event: GameEvent, viewer: Viewer): GameEvent {
  if (isMatchEvent(event) || !module.redact) return event;
  if (matchStatus(module, state).stage === 'FINISHED') return event;
  return module.redact(event, viewer, state.game);
}

export function matchView<S>(module: GameModule<S>, state: MatchState<S>, viewer: Viewer): Json {
  return module.view(state.game, viewer);
}
