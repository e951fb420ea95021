/**
 * What a seat sees. Raid on Wuchao has no hidden information: every viewer, spectators
 * included, sees the whole board.
 */
import type { Json, Status, Viewer } from '../kernel/index.ts';
import { terrainBonus } from './combat.ts';
import { enemyOf, type Side } from './data.ts';
import { movementLeft, neighbours, spacesHeld, token, unitsIn, type WuchaoState } from './state.ts';

export function view(s: WuchaoState, _viewer: Viewer, status: Status): Json {
  // Each side's spaces once: a unit in a space the enemy holds has stopped (§8).
  const held: Record<Side, Set<string>> = { cao: spacesHeld(s, 'cao'), yuan: spacesHeld(s, 'yuan') };
  const units = s.tokens.map((t) => {
    const u = s.units[t.id]!;
    const attack = u.reduced ? t.reducedAttack : t.attack;
    return {
      id: t.id,
      name: t.name,
      side: t.side,
      space: u.space,
      state: u.destroyed ? 'destroyed' : u.reduced ? 'reduced' : 'full',
      attack: attack === '1D6' ? null : attack,
      attackIsDie: attack === '1D6',
      defense: t.defense,
      move: t.move,
      movementLeft: u.space !== null ? movementLeft(s, t.id, held[enemyOf(t.side)].has(u.space)) : 0,
      path: [...(s.paths[t.id] ?? [])],
      special: t.special === true,
    };
  });
  const spaces = s.map.spaces.map((id) => ({
    id,
    control: s.control[id] ?? null,
    defenseBonus: terrainBonus(s, id),
    printedDefenseBonus: s.map.defenseBonus[id] ?? 0,
    granary: s.map.granaries.includes(id),
    camp: id === s.map.camp,
    victory: s.map.victorySpaces.includes(id),
    neighbours: [...neighbours(s, id)],
    units: [...unitsIn(s, id)],
  }));
  const c = s.combat;
  return {
    round: s.round === 0 ? null : s.round,
    rounds: s.rounds,
    phase: status.phase,
    stage: status.stage,
    spaces,
    connections: s.map.edges.map(([a, b]) => [a, b]),
    units,
    xuYouTokens: s.xuYou,
    granariesRaided: s.granariesRaided,
    pendingCombats: [...s.combats],
    combat: c
      ? {
          space: c.space,
          attackerSide: c.attackerSide,
          attackers: [...c.attackers],
          defenders: [...c.defenders],
          defense: c.defense,
          terrainBonus: c.terrainBonus,
          dice: c.dice.map((d) => ({ die: d.die, label: d.die === 'combat' ? 'combat 1D6' : `${token(s, d.die).name}'s 1D6`, roll: d.roll })),
          rerolling: c.rerolling,
          attackTotal: c.attackTotal,
          damage: c.damage,
        }
      : null,
    result: s.result ? { winners: [...s.result.winners], reason: s.result.reason } : null,
  };
}
