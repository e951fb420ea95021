/**
 * MOVE PHASE: move some, none or all of your units, each up to its Move, orthogonally or
 * diagonally, never through other units (friend or foe), never into or through a mountain,
 * stopping on entering a forest (TERRAIN).
 */
import { neighbours } from './board.ts';
import { UNIT_LIST } from './data.ts';
import type { TkEvent } from './events.ts';
import { unitAt, unitById, unitName, type TkState, type Unit } from './state.ts';
import type { TkCommand } from './commands.ts';

/** Fewest steps to every square the unit could reach (unbounded), and the way there. */
export function paths(state: TkState, unit: Unit, limit = Infinity): Map<string, { steps: number; previous: string | null }> {
  const seen = new Map<string, { steps: number; previous: string | null }>([[unit.square, { steps: 0, previous: null }]]);
  const queue = [unit.square];
  // Never through other units: every unit's square, looked up once per search.
  const occupied = new Set(state.units.map((u) => u.square));
  for (let head = 0; head < queue.length; head++) {
    const square = queue[head]!;
    const steps = seen.get(square)!.steps;
    if (steps >= limit) continue;
    // Units must stop when they enter a forest (leaving one they start in is free).
    if (square !== unit.square && state.terrain[square] === 'forest') continue;
    for (const next of neighbours(square)) {
      if (seen.has(next) || state.terrain[next] === 'mountain' || occupied.has(next)) continue;
      seen.set(next, { steps: steps + 1, previous: square });
      queue.push(next);
    }
  }
  seen.delete(unit.square);
  return seen;
}

/** Squares the unit may end its move on this phase. */
export function destinations(state: TkState, unit: Unit): string[] {
  return [...paths(state, unit, UNIT_LIST[unit.kind].move).keys()];
}

function pathTo(found: Map<string, { steps: number; previous: string | null }>, to: string): string[] {
  const path: string[] = [];
  for (let s: string | null = to; s !== null && found.has(s); s = found.get(s)!.previous) path.unshift(s);
  return path;
}

export function move(state: TkState, seat: string, unitId: string, to: string): TkEvent[] | string {
  const unit = unitById(state, unitId);
  if (!unit) return `There is no unit ${unitId} on the board`;
  if (unit.seat !== seat) return `${unitName(unit)} is not yours`;
  if (state.moved.includes(unit.id)) return `${unitName(unit)} has already moved this turn`;
  if (to === unit.square) return `${unitName(unit)} is already on ${to}`;
  if (state.terrain[to] === 'mountain') return `${to} is a mountain: units cannot move into mountains`;
  const there = unitAt(state, to);
  if (there) return `${to} is occupied by ${unitName(there)}`;
  const allowance = UNIT_LIST[unit.kind].move;
  // The search stops at the unit's Move (breadth first: the same fewest steps and way as an
  // unbounded one); only a refusal searches the whole board, to say why.
  const found = paths(state, unit, allowance);
  if (!found.has(to)) {
    const way = paths(state, unit).get(to);
    if (!way) return `${unitName(unit)} cannot reach ${to}: units, mountains or forests are in the way`;
    return `${unitName(unit)} has ${allowance} move${allowance === 1 ? '' : 's'}; ${to} needs ${way.steps}`;
  }
  const path = pathTo(found, to);
  // Once no unit is left that can move, the phase ends by itself (turns.ts flow).
  return [{ type: 'UnitMoved', seat, unit: unit.id, from: unit.square, to, path }, ...occupy(state, seat, to)];
}

/** Whether any of the player's units that has not moved this phase has a square to move to. */
export function canMove(state: TkState, seat: string): boolean {
  return state.units.some((u) => u.seat === seat && !state.moved.includes(u.id) && destinations(state, u).length > 0);
}

/** TERRAIN: the last player to have occupied a city controls it. */
export function occupy(s: TkState, seat: string, square: string): TkEvent[] {
  return s.terrain[square] === 'city' && s.cities[square] !== seat ? [{ type: 'CityOccupied', square, seat, previous: s.cities[square] ?? null }] : [];
}

export function moveCommands(state: TkState, seat: string): TkCommand[] {
  const out: TkCommand[] = [];
  for (const unit of state.units) {
    if (unit.seat !== seat || state.moved.includes(unit.id)) continue;
    for (const to of destinations(state, unit)) out.push({ type: 'move', unit: unit.id, to });
  }
  out.push({ type: 'endMovement' });
  return out;
}
