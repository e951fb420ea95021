/**
 * The one recorder every game uses while deciding: each event is folded as soon as it is
 * emitted, so the next rule sees its effect. `settle` runs a module's automatic steps (the
 * steps nobody chooses) until there are none, and throws rather than stop silently when a
 * module never settles: a half-applied command must never be stored.
 */
import type { GameEvent } from './types.ts';

/** How many automatic steps one command may trigger before the kernel calls it a bug. */
export const SETTLE_LIMIT = 10_000;

export class Recorder<S, E extends GameEvent = GameEvent> {
  readonly events: E[] = [];
  constructor(
    public state: S,
    private readonly fold: (state: S, event: E) => S,
  ) {}

  emit(...events: E[]): void {
    for (const e of events) {
      this.events.push(e);
      this.state = this.fold(this.state, e);
    }
  }
}

export class SettleError extends Error {}

/** Emits `next(state)` until it returns nothing. */
export function settle<S, E extends GameEvent>(recorder: Recorder<S, E>, next: (state: S) => NoInfer<E>[], limit = SETTLE_LIMIT): void {
  for (let steps = 0; ; steps++) {
    const more = next(recorder.state);
    if (more.length === 0) return;
    if (steps >= limit) throw new SettleError(`the automatic steps did not settle after ${limit} steps (last: ${more[0]!.type})`);
    recorder.emit(...more);
  }
}

/**
 * The same loop for modules whose automatic steps emit as they go: `step` records what
 * happens by itself and returns true while there may be more.
 */
export function settleSteps<R>(recorder: R, step: (recorder: R) => boolean, limit = SETTLE_LIMIT): void {
  for (let steps = 0; step(recorder); steps++) {
    if (steps >= limit) throw new SettleError(`the automatic steps did not settle after ${limit} steps`);
  }
}
