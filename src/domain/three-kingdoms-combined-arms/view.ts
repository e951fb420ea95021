/** What a player sees: everything (the game has no hidden information). */
import type { Json } from '../kernel/index.ts';
import { ALL_SQUARES } from './board.ts';
import { BOARD_SIZE, UNIT_KINDS, UNIT_LIST } from './data.ts';
import { defenseOf, faction, unitName, type TkState } from './state.ts';
import { placerOf } from './setup.ts';

export function view(state: TkState): Json {
  const terrain = ALL_SQUARES.filter((s) => state.terrain[s]).map((square) => ({
    square,
    kind: state.terrain[square]!,
    controller: state.terrain[square] === 'city' ? (state.cities[square] ?? null) : null,
  }));
  return {
    size: BOARD_SIZE,
    stage: state.stage,
    round: state.stage === 'SETUP' ? null : state.round,
    activeSeat: state.active,
    phase: state.stage === 'SETUP' ? 'SETUP' : state.stage === 'FINISHED' ? 'OVER' : state.phase === 'attack' ? 'ATTACK' : 'MOVE',
    placer: placerOf(state),
    turnLimit: state.turnLimit,
    players: state.players.map((seat) => ({
      seat,
      faction: faction(seat),
      corner: state.corners[seat]!,
      out: state.out.includes(seat),
      citiesControlled: Object.values(state.cities).filter((c) => c === seat).length,
      reserve: UNIT_KINDS.filter((k) => (state.reserves[seat]?.[k] ?? 0) > 0).map((kind) => ({ kind, name: UNIT_LIST[kind].name, count: state.reserves[seat]![kind] })),
    })),
    terrain,
    units: state.units.map((u) => ({
      id: u.id,
      name: unitName(u),
      seat: u.seat,
      kind: u.kind,
      square: u.square,
      move: UNIT_LIST[u.kind].move,
      range: UNIT_LIST[u.kind].range,
      defense: defenseOf(state, u),
      damage: state.damage[u.id] ?? 0,
      moved: state.moved.includes(u.id),
      attacked: state.attacked.includes(u.id),
      retreated: state.retreated.includes(u.id),
    })),
    destroyed: state.destroyed.map((d) => ({ id: d.id, name: unitName(d), seat: d.seat, kind: d.kind })),
    pendingRetreat: state.pendingRetreat ? { unit: state.pendingRetreat.unit, seat: state.pendingRetreat.seat, options: state.pendingRetreat.options } : null,
    result: state.result ? { winners: state.result.winners, reason: state.result.reason } : null,
  };
}
