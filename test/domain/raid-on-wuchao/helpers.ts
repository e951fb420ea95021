/**
 * Builds Raid on Wuchao positions from a short description, and picks dice: tests say
 * which rolls come next and the helper finds a seed whose next draws are exactly those.
 */
import { drawDie } from '../../../src/domain/kernel/index.ts';
import { raidOnWuchao, type WuchaoState } from '../../../src/domain/raid-on-wuchao/index.ts';
import type { Side } from '../../../src/domain/raid-on-wuchao/data.ts';
import type { Phase } from '../../../src/domain/raid-on-wuchao/state.ts';
import { deepFreeze, legal, newGame, status, submit, type Played } from '../../support/play.ts';

export const DEPLOYMENT: Record<string, string> = {
  'chunyu-qiong': 'H1',
  'granary-guard-1': 'H1',
  'granary-guard-2': 'H2',
  'sui-yuanjin': 'H2',
  'lu-weihuang': 'G1',
  'han-juzi': 'G2',
  'zhao-rui': 'F2',
  'zhang-he': 'E1',
  'gao-lan': 'E3',
};

export interface Position {
  /**
   * Where each unit stands; units not named are off the map (destroyed). "xu-chu": "D1".
   * Cao Cao stands at A1 unless placed elsewhere (his destruction would end the game).
   */
  at: Record<string, string>;
  reduced?: string[];
  round?: number;
  phase?: Phase;
  xuYou?: number;
  raided?: boolean;
  /** Control beyond what occupation gives (occupied spaces go to the occupier). */
  control?: Record<string, Side | null>;
  options?: unknown;
}

/** A game (through test/support/play.ts) standing at the described position. */
export function position(p: Position, seed = 'position'): Played<WuchaoState> {
  const game = newGame(raidOnWuchao, p.options ?? {}, ['cao', 'yuan'], seed);
  const base = game.state.game;
  p = { ...p, at: { 'cao-cao': base.map.camp, ...p.at } };
  const units: WuchaoState['units'] = {};
  for (const t of base.tokens) {
    const space = p.at[t.id] ?? null;
    units[t.id] = { id: t.id, side: t.side, space, reduced: (p.reduced ?? []).includes(t.id) || space === null, destroyed: space === null };
  }
  const control: WuchaoState['control'] = Object.fromEntries(base.map.spaces.map((s) => [s, null]));
  for (const g of base.map.granaries) control[g] = 'yuan';
  control[base.map.camp] = 'cao';
  for (const [id, space] of Object.entries(p.at)) control[space] = units[id]!.side;
  Object.assign(control, p.control ?? {});
  const state: WuchaoState = {
    ...base,
    round: p.round ?? 1,
    phase: p.phase ?? 'caoMovement',
    units,
    control,
    xuYou: p.xuYou ?? 0,
    granariesRaided: p.raided ?? false,
  };
  game.state = deepFreeze({ ...game.state, game: state });
  return game;
}

/** Make the game's next die rolls be `rolls` (d6), by choosing the seed. */
export function dice(game: Played<WuchaoState>, ...rolls: number[]): void {
  const from = game.state.draws;
  for (let i = 0; i < 1_000_000; i++) {
    const seed = `dice-${i}`;
    if (rolls.every((r, k) => drawDie(seed, from + k, 6) === r)) {
      game.seed = seed;
      return;
    }
  }
  throw new Error(`no seed found for ${rolls.join(',')}`);
}

export function g(game: Played<WuchaoState>): WuchaoState {
  return game.state.game;
}

export function space(game: Played<WuchaoState>, unit: string): string | null {
  return g(game).units[unit]!.space;
}

export function awaiting(game: Played<WuchaoState>) {
  return status(game).awaiting.map((p) => `${p.seat}:${p.kind}`);
}

/** Move a unit along a path, one space per command. */
export function walk(game: Played<WuchaoState>, seat: Side, unit: string, ...path: string[]) {
  const events = [];
  for (const to of path) events.push(...submit(game, seat, { type: 'move', unit, to }));
  return events;
}

/** The Yuan deployment above, placed one unit at a time. */
export function deployed(seed = 'deployed'): Played<WuchaoState> {
  const game = newGame(raidOnWuchao, {}, ['cao', 'yuan'], seed);
  for (const [unit, sp] of Object.entries(DEPLOYMENT)) submit(game, 'yuan', { type: 'placeUnit', unit, space: sp });
  return game;
}

export { legal, status, submit };
