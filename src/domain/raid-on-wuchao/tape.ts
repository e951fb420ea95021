/** A command's events being worked out with the kernel's recorder: each is folded as soon as it is emitted. */
import { Recorder } from '../kernel/index.ts';
import type { WuchaoEvent } from './events.ts';
import { evolve } from './evolve.ts';
import type { WuchaoState } from './state.ts';

export type Tape = Recorder<WuchaoState, WuchaoEvent>;

export function tape(state: WuchaoState): Tape {
  return new Recorder(state, evolve);
}
