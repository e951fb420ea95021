/**
 * Plays a game module in memory through the kernel's match rules, the way the service
 * does but without a database: for rule tests and property tests.
 */
import {
  decideMatch,
  evolveMatch,
  initialMatch,
  matchLegalCommands,
  matchStatus,
  MATCH_COMMANDS,
  SeededRandom,
  type Command,
  type GameEvent,
  type GameModule,
  type MatchState,
  type Recorded,
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
  state: MatchState<S>;
  log: Recorded[];
}

export function newGame<S>(module: GameModule<S>, options: unknown, players: string[], seed = 'test-seed'): Played<S> {
  const input = { options, players };
  const random = new SeededRandom(seed, 0);
  const events = module.setup(input, random);
  let state = initialMatch(module, input);
  const log: Recorded[] = [];
  events.forEach((event, i) => {
    const rec: Recorded = { event, seat: null, rolls: i === 0 ? random.rolls : undefined };
    log.push(rec);
    state = deepFreeze(evolveMatch(module, state, deepFreeze(rec)));
  });
  return { module, seed, state, log };
}

/** Submit a command as `seat`; throws with the refusal's reason if the rules refuse it. */
export function submit<S>(game: Played<S>, seat: string, command: Command): GameEvent[] {
  const result = attempt(game, seat, command);
  if (!result.ok) throw new Error(`${seat} ${JSON.stringify(command)} refused (${result.code}): ${result.reason}`);
  return result.events;
}

/** Submit a command; returns the decision and applies it when accepted. */
export function attempt<S>(game: Played<S>, seat: string, command: Command, onEvent?: (state: MatchState<S>, event: GameEvent) => void) {
  const random = new SeededRandom(game.seed, game.state.draws);
  const decision = decideMatch(game.module, game.state, command, seat, random);
  if (decision.ok) {
    decision.events.forEach((event, i) => {
      const rec: Recorded = { event, seat, rolls: i === 0 ? random.rolls : undefined };
      game.log.push(rec);
      game.state = deepFreeze(evolveMatch(game.module, game.state, deepFreeze(rec)));
      onEvent?.(game.state, event);
    });
  }
  return decision;
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
