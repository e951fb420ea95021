/** Folding events into the state. Events are facts: nothing is checked or rolled here. */
import { ABILITIES, UNIT_TYPES, type AbilityEffect } from './data.ts';
import { terrainAt } from './map.ts';
import type { WarlordsEvent } from './events.ts';
import { removePlayer } from './victory.ts';
import { unitsAt, type Unit, type WarlordsState } from './state.ts';

function updateUnits(s: WarlordsState, ids: string[], f: (u: Unit) => Unit): Unit[] {
  return s.units.map((u) => (ids.includes(u.id) ? f(u) : u));
}

export function evolve(s: WarlordsState, e: WarlordsEvent): WarlordsState {
  switch (e.type) {
    case 'GameSetUp': {
      const players: WarlordsState['players'] = {};
      const control: Record<string, string> = {};
      for (const p of e.players) {
        const ability = abilityEffect(p.abilityRoll);
        players[p.seat] = { seat: p.seat, treasury: p.treasury, abilityRoll: p.abilityRoll, ability, stronghold: p.stronghold, out: false, exhausted: [] };
        control[p.stronghold] = p.seat;
        if (p.village) control[p.village] = p.seat;
      }
      const villageToChoose = e.players.filter((p) => abilityEffect(p.abilityRoll) === 'village' && !p.village).map((p) => p.seat);
      const units = e.units.map((u) => ({ ...u, carriedBy: null, mpUsed: 0, rode: false, attackedTurn: 0, targetedTurn: 0, previousTargetedTurn: 0, retreatedTurn: 0 }));
      return { ...s, map: e.map, turnLimit: e.turnLimit, players, control, units, nextUnit: units.length + 1, villageToChoose };
    }
    case 'NearbyVillageTaken':
      return { ...s, control: e.hex ? { ...s.control, [e.hex]: e.seat } : s.control, villageToChoose: s.villageToChoose.filter((p) => p !== e.seat) };
    case 'TurnBegan': {
      const players = Object.fromEntries(Object.entries(s.players).map(([k, p]) => [k, { ...p, exhausted: [] }]));
      const units = s.units.map((u) => ({ ...u, mpUsed: 0, rode: false }));
      return { ...s, turn: e.turn, order: e.order, players, units, seat: null, stepDone: false, attack: null, defense: null };
    }
    case 'IncomeCollected':
      return withTreasury(s, e.incomes);
    case 'UpkeepSettled': {
      const upkeepLosses: Record<string, number> = {};
      for (const u of e.upkeep) if (!u.paid) upkeepLosses[u.seat] = u.lossRoll ?? 0;
      return { ...withTreasury(s, e.upkeep), phase: 'upkeep', seat: null, upkeepLosses };
    }
    case 'PhaseBegan':
      return { ...s, phase: e.phase, seat: e.seat, stepDone: false, attack: null, defense: null };
    case 'UnitLost': {
      const next = { ...s, units: s.units.filter((u) => u.id !== e.unit) };
      if (s.phase === 'upkeep' && (s.upkeepLosses[e.seat] ?? 0) > 0) {
        next.upkeepLosses = { ...s.upkeepLosses, [e.seat]: s.upkeepLosses[e.seat]! - 1 };
      }
      const d = s.defense;
      if (d && d.hex === e.hex && d.defender === e.seat) {
        // The chosen unit counts as one loss, then each passenger destroyed with it while
        // losses remain. Passengers' events come before their carrier's: a passenger takes a
        // loss only if one is left for the carrier after it.
        let { losses, then } = d;
        if (losses > (e.cause === 'carrier' ? 1 : 0)) losses -= 1;
        else if (losses === 0) then = null;
        next.defense = losses === 0 && then === null ? null : { ...d, losses, then };
        if (!unitsAt(next, d.hex).length) next.defense = null;
      }
      return next;
    }
    case 'AvailabilityRolled':
      if (e.available) return s;
      return { ...s, players: { ...s.players, [e.seat]: { ...s.players[e.seat]!, exhausted: [...s.players[e.seat]!.exhausted, e.unitType] } } };
    case 'UnitRecruited': {
      const fresh: Unit[] = e.units.map((id) => ({ id, type: e.unitType, owner: e.seat, hex: e.hex, carriedBy: null, mpUsed: 0, rode: false, attackedTurn: 0, targetedTurn: 0, previousTargetedTurn: 0, retreatedTurn: 0 }));
      return { ...s, units: [...s.units, ...fresh], nextUnit: s.nextUnit + e.units.length, players: { ...s.players, [e.seat]: { ...s.players[e.seat]!, treasury: e.treasury } } };
    }
    case 'RecruitmentEnded':
    case 'MovementEnded':
    case 'CombatEnded':
      return { ...s, stepDone: true };
    case 'UnitMoved': {
      const to = e.path[e.path.length - 1]!;
      // A boat that ends its move in a village moves no further that turn (ruling).
      const ashore = (u: Unit) => UNIT_TYPES[u.type].mobility === 'boat' && terrainAt(s.map, to) !== 'water';
      let units = updateUnits(s, [e.unit], (u) => ({ ...u, hex: to, mpUsed: ashore(u) ? Math.max(UNIT_TYPES[u.type].move, u.mpUsed + e.cost) : u.mpUsed + e.cost }));
      units = units.map((u) => (e.passengers.includes(u.id) ? { ...u, hex: to, rode: true } : u));
      return { ...s, units };
    }
    case 'UnitBoarded':
      return { ...s, units: endMoveIfMoved(updateUnits(s, [e.unit], (u) => ({ ...u, carriedBy: e.carrier })), e.carrier) };
    case 'UnitUnloaded':
      return { ...s, units: endMoveIfMoved(updateUnits(s, [e.unit], (u) => ({ ...u, carriedBy: null })), e.carrier) };
    case 'ControlTaken':
      return { ...s, control: { ...s.control, [e.hex]: e.seat } };
    case 'StrongholdCaptured':
      return s;
    case 'AttackDeclared': {
      const a = s.attack ?? { attacker: e.seat, target: e.target, defender: e.defender, stacks: [], units: [] };
      return {
        ...s,
        attack: { ...a, stacks: [...a.stacks, e.stack], units: [...a.units, ...e.units] },
        // The whole stack has made its attack, units out of range included ("must be combined").
        units: s.units.map((u) => (e.units.includes(u.id) || u.hex === e.stack ? { ...u, attackedTurn: s.turn } : u)),
      };
    }
    case 'CombatResolved': {
      const units = updateUnits(s, e.defenders, (u) => (u.targetedTurn === s.turn ? u : { ...u, targetedTurn: s.turn, previousTargetedTurn: u.targetedTurn }));
      const r = e.result;
      const defense =
        r === 'K2' || r === 'K' || r === 'R'
          ? { attacker: e.attacker, defender: e.defender, hex: e.target, losses: r === 'K2' ? 2 : r === 'K' ? 1 : 0, then: r === 'R' ? ('retreat' as const) : ('retreatOrLose' as const), result: r }
          : null;
      return { ...s, units, attack: null, defense };
    }
    case 'StackRetreated':
      return { ...s, units: updateUnits(s, e.units, (u) => ({ ...u, hex: e.to, retreatedTurn: s.turn })), defense: null };
    case 'PlayerDefeated':
      return removePlayer(s, e.seat, e.reason);
    case 'GameEnded':
      // Every ending closes with it: the game is over, nobody's phase, nothing pending.
      return { ...s, phase: 'over', seat: null, stepDone: false, result: { winners: [...e.winners], reason: e.reason }, attack: null, defense: null, upkeepLosses: {}, villageToChoose: [] };
    case 'TurnLimitReached':
      return { ...s, result: { winners: [], reason: `turn limit reached after turn ${e.turn} (draw)` } };
  }
}

/** Getting on or off a carrier that has moved is the end of its move (ruling): no points are left. */
function endMoveIfMoved(units: Unit[], carrier: string): Unit[] {
  return units.map((u) => (u.id === carrier && u.mpUsed > 0 ? { ...u, mpUsed: Math.max(u.mpUsed, UNIT_TYPES[u.type].move) } : u));
}

function withTreasury(s: WarlordsState, list: { seat: string; treasury: number }[]): WarlordsState {
  const players = { ...s.players };
  for (const { seat, treasury } of list) players[seat] = { ...players[seat]!, treasury };
  return { ...s, players };
}

export function abilityEffect(roll: number): AbilityEffect {
  return ABILITIES[roll]!.effect;
}
