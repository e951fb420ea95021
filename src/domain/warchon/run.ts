/** A command's consequences being worked out: each event is folded as soon as it is emitted. */
import { evolve } from './evolve.ts';
import type { WarchonEvent, WarchonState } from './types.ts';

export class Run {
  readonly events: WarchonEvent[] = [];
  constructor(public state: WarchonState) {}
  emit(...events: WarchonEvent[]): void {
    for (const e of events) {
      this.events.push(e);
      this.state = evolve(this.state, e);
    }
  }
}
