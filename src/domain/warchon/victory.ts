/** Victory: "destroy your opponent till he has no units left in his army". */
import type { Army, WarchonState } from './types.ts';
import { ARMIES, ARMY_NAMES, opponent } from './types.ts';

export function armyDestroyed(state: WarchonState, army: Army): boolean {
  return !Object.values(state.units).some((u) => u.army === army && !u.destroyed && !u.temporary && u.spread !== null);
}

/** The game's end, once play has begun: an army with no units left loses (both at once: a draw). */
export function victory(state: WarchonState): { winners: Army[]; reason: string } | null {
  if (state.turn === 0) return null;
  const gone = ARMIES.filter((a) => armyDestroyed(state, a));
  if (gone.length === 2) return { winners: [], reason: 'both armies destroyed (draw)' };
  if (gone.length === 1) return { winners: [opponent(gone[0]!)], reason: `the ${ARMY_NAMES[gone[0]!]} army has no units left` };
  return null;
}
