/**
 * Builds a game in a chosen position from a short description, for rule tests:
 *   scenario({ units: { 'wei-general-1': 'E5', 'shu-infantry-1': 'F6' }, phase: 'attack' })
 * Unit ids are "<seat>-<kind>-<n>"; the terrain is only what is given.
 */
import { initialMatch } from '../../../src/domain/kernel/index.ts';
import { threeKingdoms, type TkState } from '../../../src/domain/three-kingdoms-combined-arms/index.ts';
import type { UnitKind } from '../../../src/domain/three-kingdoms-combined-arms/data.ts';
import type { Played } from '../../support/play.ts';

export interface Description {
  players?: string[];
  units: Record<string, string>;
  cities?: Record<string, string | null>;
  forests?: string[];
  mountains?: string[];
  active?: string;
  phase?: 'move' | 'attack';
  round?: number;
  turnLimit?: number | null;
  damage?: Record<string, number>;
  retreated?: string[];
  moved?: string[];
  attacked?: string[];
  out?: string[];
}

export function scenario(d: Description): Played<TkState> {
  const players = d.players ?? ['wei', 'shu'];
  const input = { options: { turnLimit: d.turnLimit ?? null }, players };
  const base = threeKingdoms.initialState(input);
  const terrain: TkState['terrain'] = {};
  for (const s of d.mountains ?? []) terrain[s] = 'mountain';
  for (const s of d.forests ?? []) terrain[s] = 'forest';
  for (const s of Object.keys(d.cities ?? {})) terrain[s] = 'city';
  const empty = Object.fromEntries(players.map((p) => [p, Object.fromEntries(Object.keys(base.reserves[p]!).map((k) => [k, 0]))]));
  const game: TkState = {
    ...base,
    stage: 'ACTIVE',
    terrain,
    cities: { ...(d.cities ?? {}) },
    reserves: empty as TkState['reserves'],
    units: Object.entries(d.units).map(([id, square]) => {
      const [seat, kind] = id.split('-') as [string, UnitKind];
      return { id, seat, kind, square };
    }),
    round: d.round ?? 1,
    active: d.active ?? players[0]!,
    phase: d.phase ?? 'move',
    damage: d.damage ?? {},
    retreated: d.retreated ?? [],
    moved: d.moved ?? [],
    attacked: d.attacked ?? [],
    out: d.out ?? [],
  };
  return { module: threeKingdoms, seed: 'scenario', options: input.options, state: { ...initialMatch(threeKingdoms, input), game }, log: [] };
}
