/**
 * Plays a game module in memory through the kernel's match rules, the way the service
 * does but without a database: for rule tests and property tests.
 */
import {
  evolveMatch,
  matchLegalCommands,
  matchStatus,
  MATCH_COMMANDS,
  start,
  step,
  type Actor,
  type Command,
  type GameEvent,
  type GameModule,
  type MatchState,
  type Recorded,
  type Refusal,
  type Status,
} from '../../src/domain/kernel/index.ts';

/**
 * States and events are frozen in tests: the service caches folded states and shares
 * them between requests, so evolve must return new objects and never change its input.
 * A module that mutates fails here with "Cannot assign to read only property".
 */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

export interface Played<S> {
  module: GameModule<S>;
  seed: string;
  options: unknown;
  state: MatchState<S>;
  log: Recorded[];
}

export function newGame<S>(module: GameModule<S>, options: unknown, players: string[], seed = 'test-seed'): Played<S> {
  const started = start(module, { options, players }, seed);
  const log = started.recorded.map((r) => deepFreeze(r));
  return { module, seed, options, state: deepFreeze(started.state), log };
}

/** Submit a command as `seat`; throws with the refusal's reason if the rules refuse it. */
export function submit<S>(game: Played<S>, seat: string, command: Command): GameEvent[] {
  const result = attempt(game, seat, command);
  if (!result.ok) throw new Error(`${seat} ${JSON.stringify(command)} refused (${result.code}): ${result.reason}`);
  return result.events;
}

/**
 * Submit a command through the kernel's turn (the same `step` the service runs); returns
 * the refusal, or the events recorded (the command's and every consequence), applied.
 * `onEvent` sees the state after each event, refolded from the recorded log.
 */
export function attempt<S>(
  game: Played<S>,
  seat: string | Actor,
  command: Command,
  onEvent?: (state: MatchState<S>, event: GameEvent) => void,
): Refusal | { ok: true; events: GameEvent[] } {
  const actor: Actor = typeof seat === 'string' ? { kind: 'seat', seat } : seat;
  const outcome = step(game.module, game.state, command, actor, { seed: game.seed });
  if (!outcome.ok) return outcome;
  if (onEvent) {
    let s = game.state;
    for (const rec of outcome.recorded) {
      s = deepFreeze(evolveMatch(game.module, s, rec));
      onEvent(s, rec.event);
    }
  }
  for (const rec of outcome.recorded) game.log.push(deepFreeze(rec));
  game.state = deepFreeze(outcome.state);
  return { ok: true, events: outcome.recorded.map((r) => r.event) };
}

export function status<S>(game: Played<S>): Status {
  return matchStatus(game.module, game.state);
}

/** The game's own legal commands for a seat (without resign and draw offers). */
export function legal<S>(game: Played<S>, seat: string): Command[] {
  return matchLegalCommands(game.module, game.state, seat).filter((c) => !(MATCH_COMMANDS as readonly string[]).includes(c.type));
}

/**
 * A small deterministic generator (xorshift32) for a random walk's own choices, seeded by
 * fast-check: `choose(n)` is a whole number from 0 to n - 1.
 */
export function chooser(seed: number): (n: number) => number {
  let x = seed >>> 0 || 1;
  return (n: number) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % n;
  };
}
