/**
 * The whole turn, pure: every way a command arrives (a seat token, a player, a bot, a
 * deadline) ends here. `start` sets a game up, `step` decides one command and records
 * everything that follows from it, `replay` re-runs a stored game for verification, and
 * `visibleTo` is the one rule for what a viewer may see.
 */
import { botCommand, botSeed, type BotKind } from './bots.ts';
import { activePlayers, evolveMatch, decideMatch, gameStatus, initialMatch, isMatchEvent, matchLegalCommands, matchStatus, moduleView, seatName, type Actor, type GameEnded, type MatchState, type Recorded } from './match.ts';
import { SeededRandom, type Roll } from './random.ts';
import { SETTLE_LIMIT, SettleError } from './recorder.ts';
import type { Command, GameEvent, GameModule, Json, Random, Refusal, SetupInput, Status, Viewer } from './types.ts';

export interface Started<S = unknown> {
  recorded: Recorded[];
  state: MatchState<S>;
  status: Status;
}

export interface Stepped<S = unknown> extends Started<S> {
  ok: true;
}

export type StepOutcome<S = unknown> = Stepped<S> | Refusal;

/** Folds recorded events one at a time, remembering them, with the dice on the first. */
class MatchRecorder<S> {
  readonly recorded: Recorded[] = [];
  constructor(
    private readonly module: GameModule<S>,
    public state: MatchState<S>,
    private readonly seat: string | null,
  ) {}

  emit(...events: GameEvent[]) {
    for (const event of events) {
      const rec: Recorded = { event, seat: this.seat };
      this.recorded.push(rec);
      this.state = evolveMatch(this.module, this.state, rec);
    }
  }

  /** The dice drawn while recording belong on the first event (how the store keeps them). */
  close(rolls: Roll[], drawsBefore: number): MatchState<S> {
    if (rolls.length && this.recorded.length) this.recorded[0] = { ...this.recorded[0]!, rolls };
    this.state = { ...this.state, draws: drawsBefore + rolls.length };
    return this.state;
  }
}

/** The setup events of a new game. Throws when the options cannot set a game up. */
export function start<S>(module: GameModule<S>, input: SetupInput, seed: string): Started<S> {
  const random = new SeededRandom(seed, 0);
  const rec = new MatchRecorder(module, initialMatch(module, input), null);
  rec.emit(...module.setup(input, random));
  const state = rec.close(random.rolls, 0);
  return { recorded: rec.recorded, state, status: matchStatus(module, state) };
}

/**
 * What follows by itself from a match event, stored as events so that folding the log
 * never decides: a player who left is out (their pieces removed, play moved on), or the
 * game ends when one player is left; a draw offer lapses when its author is out, and
 * ends the game once everyone still in has accepted it.
 */
function consequences<S>(module: GameModule<S>, rec: MatchRecorder<S>, decided: GameEvent[], random: Random) {
  const finished = () => matchStatus(module, rec.state).stage === 'FINISHED';
  for (const e of decided) {
    // Only a player leaving acts here, so only then is the status worked out (the state moves only below).
    if (e.type !== 'PlayerResigned' && e.type !== 'TimedOut') continue;
    if (finished()) break;
    const seat = e.seat as string;
    const reason = e.type === 'TimedOut' ? 'time out' : `${seatName(module, seat)} resigned`;
    // The player is out in the module's own terms too (marked out, pieces removed), even
    // when that ends the game; the match's words then give the reason.
    if (module.eliminate) rec.emit(...module.eliminate(rec.state.game, seat, random, reason));
    const remaining = activePlayers(module, rec.state);
    if (remaining.length <= 1 && !rec.state.result) rec.emit({ type: 'GameEnded', winners: remaining, reason } satisfies GameEnded);
  }
  for (let guard = 0; rec.state.drawOffer && !finished(); guard++) {
    if (guard > SETTLE_LIMIT) throw new SettleError('draw offer did not settle');
    const offer = rec.state.drawOffer;
    const active = activePlayers(module, rec.state);
    if (!active.includes(offer.by)) rec.emit({ type: 'DrawOfferLapsed', seat: offer.by, reason: `${seatName(module, offer.by)} is out of the game` });
    else if (active.every((p) => offer.accepted.includes(p))) rec.emit({ type: 'GameEnded', winners: [], reason: 'draw agreed' } satisfies GameEnded);
    else break;
  }
  close(module, rec);
}

/**
 * Every ending closes the log the same way: one GameEnded { winners, reason } as the last
 * event. A module's rules may end the game with their own events (a Warlord killed, Cao Cao
 * destroyed); the kernel then records the result they reached, and nothing follows it.
 */
function close<S>(module: GameModule<S>, rec: MatchRecorder<S>) {
  if (rec.state.result) return;
  const ended = gameStatus(module, rec.state.game).result;
  if (ended) rec.emit({ type: 'GameEnded', winners: [...ended.winners], reason: ended.reason } satisfies GameEnded);
}

/**
 * Decides one command by `actor` and records everything that follows from it. The dice are
 * the game's seed; a rule test may pass dice of its own (`random`), which are not recorded.
 */
export function step<S>(module: GameModule<S>, state: MatchState<S>, command: Command, actor: Actor, opts: { seed: string } | { random: Random }): StepOutcome<S> {
  const random = 'seed' in opts ? new SeededRandom(opts.seed, state.draws) : opts.random;
  const decision = decideMatch(module, state, command, actor, random);
  if (!decision.ok) return decision;
  const rec = new MatchRecorder(module, state, actor.kind === 'seat' ? actor.seat : null);
  rec.emit(...decision.events);
  consequences(module, rec, decision.events, random);
  const next = rec.close(random instanceof SeededRandom ? random.rolls : [], state.draws);
  return { ok: true, recorded: rec.recorded, state: next, status: matchStatus(module, next) };
}

/** Folds stored events (facts) onto a state. */
export function fold<S>(module: GameModule<S>, state: MatchState<S>, recorded: Iterable<Recorded>): MatchState<S> {
  let s = state;
  for (const r of recorded) s = evolveMatch(module, s, r);
  return s;
}

export interface StoredCommand {
  /** null: the service itself (a deadline). */
  seat: string | null;
  command: Command;
}

export type ReplayStep<S> =
  | { kind: 'setup'; recorded: Recorded[]; state: MatchState<S> }
  | { kind: 'command'; index: number; outcome: StepOutcome<S> };

/**
 * Re-runs a game from its seed and its commands: what verify compares with the stored log.
 * `bots` names the seats the service played: each of their commands must be the one the
 * bot's generator (botSeed, from the now published seed) chooses at that version.
 */
export function* replay<S>(module: GameModule<S>, input: SetupInput, seed: string, commands: Iterable<StoredCommand>, bots: Record<string, BotKind> = {}): Generator<ReplayStep<S>, MatchState<S>> {
  const setup = start(module, input, seed);
  let state = setup.state;
  let version = setup.recorded.length;
  yield { kind: 'setup', recorded: setup.recorded, state };
  let index = 0;
  for (const c of commands) {
    const actor: Actor = c.seat === null ? { kind: 'system' } : { kind: 'seat', seat: c.seat };
    const kind = c.seat === null ? undefined : bots[c.seat];
    const chosen = kind === undefined ? null : botMove(module, state, c.seat!, kind, seed, version);
    const outcome: StepOutcome<S> =
      kind !== undefined && canonical(chosen) !== canonical(c.command)
        ? { ok: false, code: 'ILLEGAL_COMMAND', reason: `the ${kind} bot of ${seatName(module, c.seat!)} would have chosen ${JSON.stringify(chosen)} at version ${version}` }
        : step(module, state, c.command, actor, { seed });
    yield { kind: 'command', index: index++, outcome };
    if (!outcome.ok) return state;
    state = outcome.state;
    version += outcome.recorded.length;
  }
  return state;
}

/** JSON with sorted keys: a stored command (its keys reordered by the database) compares equal to the one chosen. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v));
}

/** The command the service's bot submits for `seat` at `version` (null: nothing to do). */
export function botMove<S>(module: GameModule<S>, state: MatchState<S>, seat: string, kind: BotKind, gameSeed: string, version: number): Command | null {
  return botCommand(kind, matchLegalCommands(module, state, seat), botSeed(gameSeed, version, seat));
}

/** What a viewer may see of a game in a given state. */
export interface Visibility {
  finished: boolean;
  view(): Json;
  /** An event as this viewer may see it now (events may be revealed later, e.g. once a unit has fought). */
  event<E extends GameEvent>(event: E): E;
  /** The dice, the commands and the seed stay private while the game runs: they would let a client check guesses of the seed. */
  rolls: boolean;
  commands: boolean;
  seed: boolean;
}

export function visibleTo<S>(module: GameModule<S>, state: MatchState<S>, viewer: Viewer): Visibility {
  const finished = matchStatus(module, state).stage === 'FINISHED';
  return {
    finished,
    view: () => moduleView(module, state, viewer),
    // Finished games hide nothing.
    event: (event) => (finished || isMatchEvent(event) || !module.redact ? event : module.redact(event, viewer, state.game)),
    rolls: finished,
    commands: finished,
    seed: finished,
  };
}
