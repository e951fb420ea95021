/** A command's consequences being worked out: the kernel's recorder folds each event as soon as it is emitted. */
import { Recorder } from '../kernel/index.ts';
import { evolve } from './evolve.ts';
import type { WarchonEvent, WarchonState } from './types.ts';

export type Run = Recorder<WarchonState, WarchonEvent>;

export function newRun(state: WarchonState): Run {
  return new Recorder(state, evolve);
}
