/**
 * Test helpers for Warchon: build a game at the start of a turn from a short description
 * ("Ogres at Erdon Pass, Paladins at Erdon Pass"), then drive it through play.ts.
 */
import { noRandom } from '../../../src/domain/kernel/index.ts';
import { warchon } from '../../../src/domain/warchon/index.ts';
import { advance } from '../../../src/domain/warchon/flow.ts';
import { newRun } from '../../../src/domain/warchon/run.ts';
import type { Army, Unit, UnitType, WarchonOptions, WarchonState } from '../../../src/domain/warchon/types.ts';
import { opponent } from '../../../src/domain/warchon/types.ts';
import { newGame, submit, type Played } from '../../support/play.ts';

export const SEATS = ['azuthkan', 'celestine'];

export interface Placement {
  type: string;
  at: number;
  hits?: number;
  revealed?: boolean;
}

export interface Arrangement {
  options?: Partial<WarchonOptions>;
  /** Whose turn begins (the attacker). */
  active?: Army;
  turn?: number;
  azuthkan?: Placement[];
  celestine?: Placement[];
  engaged?: { spread: number; turn: number }[];
  seed?: string;
}

/** A game at the start of `active`'s Movement Round with units where the description puts them. */
export function arranged(a: Arrangement): Played<WarchonState> {
  const options = { numbers: 'players', ...(a.options ?? {}) } as Partial<WarchonOptions>;
  const game = newGame(warchon, options, SEATS, a.seed ?? 'arranged');
  const base = warchon.initialState({ options, players: SEATS });
  const units: Record<string, Unit> = {};
  for (const army of ['azuthkan', 'celestine'] as Army[]) {
    const counts: Record<string, number> = {};
    (a[army] ?? []).forEach((p, i) => {
      counts[p.type] = (counts[p.type] ?? 0) + 1;
      const id = `${army}-${i + 1}`;
      units[id] = {
        id,
        key: `${p.type}-${counts[p.type]}`,
        army,
        type: p.type,
        spread: p.at,
        hitsTaken: p.hits ?? 0,
        destroyed: false,
        revealed: p.revealed ?? false,
        shifted: false,
        movesLeft: 0,
        reserve: false,
        temporary: false,
        fightsFor: null,
      };
    });
  }
  const active = a.active ?? 'azuthkan';
  const state: WarchonState = {
    ...base,
    unplaced: { azuthkan: [], celestine: [] },
    units,
    phase: 'turnStart',
    turn: (a.turn ?? 1) - 1,
    active: opponent(active),
    engaged: a.engaged ?? [],
  };
  const run = newRun(state);
  advance(run, noRandom);
  game.state = { ...game.state, game: run.state };
  return game;
}

/** The marker of the n-th unit of a type (as arranged). */
export function idOf(game: Played<WarchonState>, type: string, n = 1): string {
  const u = Object.values(game.state.game.units).find((x) => x.key === `${type}-${n}`);
  if (!u) throw new Error(`no ${type}-${n}`);
  return u.id;
}

export function unit(game: Played<WarchonState>, id: string): Unit {
  return game.state.game.units[id]!;
}

/** A pair of secret numbers (attacker, defender) that reads `n` on the spread's RNG table. */
export function pairFor(game: Played<WarchonState>, spread: number, n: number, event?: boolean): [number, number] {
  const table = game.state.game.spreads.find((s) => s.number === spread)!.rng;
  for (let d = 1; d <= 5; d++) {
    for (let att = 1; att <= 5; att++) {
      const cell = table[d - 1]![att - 1]!;
      if (Number.parseInt(cell, 10) === n && (event === undefined || cell.endsWith('E') === event)) return [att, d];
    }
  }
  throw new Error(`spread ${spread} has no ${n}${event ? 'E' : ''}`);
}

/** Both players choose their numbers so that the spread's table reads n (attacker first). */
export function generate(game: Played<WarchonState>, n: number, event?: boolean): void {
  const battle = game.state.game.battle!;
  const [att, def] = pairFor(game, battle.spread, n, event);
  submit(game, battle.attacker, { type: 'commitNumber', number: att });
  submit(game, battle.defender, { type: 'commitNumber', number: def });
}

export function events(game: Played<WarchonState>, type?: string): any[] {
  return game.log.map((r) => r.event as any).filter((e) => type === undefined || e.type === type);
}

export function lastEvent(game: Played<WarchonState>, type: string): any {
  const all = events(game, type);
  return all[all.length - 1];
}

export function pendingKinds(game: Played<WarchonState>): string[] {
  return game.state.game.pending.map((p) => `${p.seat}:${p.kind}`);
}

/** A roster with every trait the demo tables name, for tests. */
export function traitType(key: string, army: Army, traits: string[], line = { size: 2, movement: 2, as: 2, ds: 2 }, hits = 1, name?: string): UnitType {
  return {
    key,
    name: name ?? key,
    army,
    count: 1,
    descriptors: [],
    points: 1,
    traits,
    lines: Array.from({ length: hits }, () => ({ ...line })),
    special: '',
    terrainModifiers: [],
  };
}
