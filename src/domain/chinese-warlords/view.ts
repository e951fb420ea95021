/** What a seat sees: everything (Chinese Warlords has no hidden information). */
import type { Json, Viewer } from '../kernel/index.ts';
import { ABILITIES, UNIT_TYPES } from './data.ts';
import { movementLeft } from './movement.ts';
import { attackedLastTurn, type WarlordsState } from './state.ts';

export function view(s: WarlordsState, _viewer: Viewer): Json {
  return {
    turn: s.turn,
    phase: s.phase,
    activeSeat: s.seat,
    initiativeOrder: s.order,
    turnLimit: s.turnLimit,
    map: {
      name: s.map.name,
      coordinates: 'odd-r offset: id "col,row", pointy-top hexes, odd rows shifted half a hex east',
      hexes: s.map.hexes.map((h) => ({ id: h.id, col: h.col, row: h.row, terrain: h.terrain, controller: s.control[h.id] ?? null })),
      strongholds: s.map.strongholds,
    },
    // Before GameSetUp (replay version 0) there are no players yet: the empty pre-setup view.
    players: s.seats.filter((seat) => s.players[seat]).map((seat) => {
      const p = s.players[seat]!;
      const ability = ABILITIES[p.abilityRoll]!;
      return {
        seat,
        treasury: p.treasury,
        abilityRoll: p.abilityRoll,
        ability: ability.name,
        abilityText: ability.text,
        stronghold: p.stronghold,
        out: p.out,
        unavailable: p.exhausted,
        upkeepLossesToChoose: s.upkeepLosses[seat] ?? 0,
      };
    }),
    units: s.units.map((u) => ({
      id: u.id,
      type: u.type,
      name: UNIT_TYPES[u.type].name,
      owner: u.owner,
      hex: u.hex,
      carriedBy: u.carriedBy,
      force: UNIT_TYPES[u.type].force,
      range: UNIT_TYPES[u.type].range,
      movementLeft: movementLeft(u),
      attacked: u.attackedTurn === s.turn,
      retreated: u.retreatedTurn === s.turn,
      attackedRecently: attackedLastTurn(u, s.turn),
    })),
    attack: s.attack ? { attacker: s.attack.attacker, defender: s.attack.defender, target: s.attack.target, stacks: s.attack.stacks, units: s.attack.units } : null,
    defense: s.defense ? { attacker: s.defense.attacker, defender: s.defense.defender, hex: s.defense.hex, result: s.defense.result, lossesToChoose: s.defense.losses, afterLosses: s.defense.then } : null,
    result: s.result ? { winners: s.result.winners, reason: s.result.reason } : null,
  };
}
