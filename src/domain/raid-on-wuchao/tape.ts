/** Collects the events a command produces, folding each into the state as it goes. */
import type { WuchaoEvent } from './events.ts';
import { evolve } from './evolve.ts';
import type { WuchaoState } from './state.ts';

export interface Tape {
  state: WuchaoState;
  events: WuchaoEvent[];
}

export function tape(state: WuchaoState): Tape {
  return { state, events: [] };
}

export function record(t: Tape, ...events: WuchaoEvent[]): void {
  for (const e of events) {
    t.events.push(e);
    t.state = evolve(t.state, e);
  }
}
