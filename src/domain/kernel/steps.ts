/**
 * Several commands of one seat in one step, all or none (docs/api.md, "submitCommands"): a
 * wargame turn is many small commands, and a mail is one turn. The kernel steps through
 * them in order, each on the state the previous one left, so the core can store the
 * combined events in one append, or nothing at all.
 */
import { asSeat, matchStatus, type Actor, type MatchState, type Recorded } from './match.ts';
import { parseOrder } from './notation.ts';
import { step } from './turn.ts';
import type { Command, GameModule, Refusal, Status } from './types.ts';

export interface SteppedAll<S = unknown> {
  ok: true;
  /** Every command's events in order; each command's dice stay on its own first event. */
  recorded: Recorded[];
  /** The commands applied, in order (for the store's command log and the answer's words). */
  commands: Command[];
  /** How many of `recorded` each command produced, in order. */
  counts: number[];
  state: MatchState<S>;
  status: Status;
}

/** The first command refused, by its place in the list (from 0); nothing is applied. */
export type RefusedAt = Refusal & { index: number };

export type StepsOutcome<S = unknown> = SteppedAll<S> | RefusedAt;

/**
 * Steps through `items`, each read into a command on the state the previous ones left
 * (`read` may refuse it, e.g. a line of notation that is no order), and decided as `step`
 * decides one command. All or none: the first refusal ends it, with its index and reason.
 */
export function stepEach<S, T>(
  module: GameModule<S>,
  state: MatchState<S>,
  items: readonly T[],
  read: (item: T, state: MatchState<S>, index: number) => { ok: true; command: Command } | Refusal,
  actor: Actor,
  opts: { seed: string },
): StepsOutcome<S> {
  if (items.length === 0) return { ok: false, code: 'BAD_REQUEST', reason: 'No command to apply', index: 0 };
  let current = state;
  const recorded: Recorded[] = [];
  const commands: Command[] = [];
  const counts: number[] = [];
  for (const [index, item] of items.entries()) {
    const r = read(item, current, index);
    if (!r.ok) return { ...r, index };
    const outcome = step(module, current, r.command, actor, opts);
    if (!outcome.ok) return { ...outcome, index };
    recorded.push(...outcome.recorded);
    commands.push(r.command);
    counts.push(outcome.recorded.length);
    current = outcome.state;
  }
  return { ok: true, recorded, commands, counts, state: current, status: matchStatus(module, current) };
}

/** Several commands of one seat (or the service), applied in order, all or none. */
export function stepAll<S>(module: GameModule<S>, state: MatchState<S>, commands: readonly Command[], actor: Actor, opts: { seed: string }): StepsOutcome<S> {
  return stepEach(module, state, commands, (command) => ({ ok: true, command }), actor, opts);
}

/** Lines of a game's notation from one seat, each read on the position the previous ones left, all or none. */
export function stepOrders<S>(module: GameModule<S>, state: MatchState<S>, seat: string, lines: readonly string[], opts: { seed: string }): StepsOutcome<S> {
  return stepEach(module, state, lines, (line, current) => parseOrder(module, current, seat, line), asSeat(seat), opts);
}
