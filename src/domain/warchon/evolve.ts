/**
 * Folding events into the state. Events are facts: nothing here validates or rolls.
 */
import { waterElementalType, WATER_ELEMENTAL_KEY } from './data.ts';
import { isAerial, lineOf, typeOf } from './battlefield.ts';
import { newUnit } from './setup.ts';
import type { Pending, Unit, WarchonEvent, WarchonState } from './types.ts';
import { ARMIES } from './types.ts';

/** Events that move a multi-step Random Event on to its next stage. */
const EFFECT_STAGE_EVENTS = new Set(['HitsToAssign', 'ChoicesOffered', 'BridgeOffered', 'RetreatsOrdered']);

function dropPending(s: WarchonState, match: (p: Pending) => boolean): void {
  s.pending = s.pending.filter((p) => !match(p));
}

function destroy(s: WarchonState, unit: Unit): void {
  unit.destroyed = true;
  unit.shifted = true;
  if (s.moving === unit.id) s.moving = null;
  // Nothing waits on a unit that is gone.
  s.pending = s.pending
    .filter((p) => !(p.kind === 'RETREAT' && p.unit === unit.id))
    .map((p) => (p.kind === 'CHOOSE_UNIT' ? { ...p, options: p.options.filter((o) => o !== unit.id) } : p))
    .filter((p) => !(p.kind === 'CHOOSE_UNIT' && !p.optional && p.options.length === 0));
  if (s.battle) {
    const battle = s.battle;
    dropPending(s, (p) => p.kind === 'ALLOCATE_DAMAGE' && !Object.values(s.units).some((u) => !u.destroyed && u.spread === battle.spread && (u.fightsFor ?? u.army) === p.seat));
  }
}

function hit(s: WarchonState, unit: Unit): boolean {
  unit.hitsTaken += 1;
  if (unit.hitsTaken >= typeOf(s, unit).lines.length) {
    destroy(s, unit);
    return true;
  }
  return false;
}

/**
 * The state an event is folded into: a copy of every part the cases below change in place
 * (units, the lists, the battle), sharing the parts no event changes (the spreads, the unit
 * types but for ElementalJoined, which copies them first). A whole structuredClone of the
 * state cost about 0.9 ms a command, three quarters of Warchon's rules' time.
 */
function draft(state: WarchonState): WarchonState {
  const units: Record<string, Unit> = {};
  for (const id in state.units) units[id] = { ...state.units[id]! };
  const b = state.battle;
  return {
    ...state,
    unplaced: { ...state.unplaced },
    units,
    leftBattle: [...state.leftBattle],
    engaged: [...state.engaged],
    forcedInto: [...state.forcedInto],
    eventSpreads: [...state.eventSpreads],
    battle: b && {
      ...b,
      call: b.call && { ...b.call, commits: { ...b.call.commits } },
      modifiers: [...b.modifiers],
      berserkers: [...b.berserkers],
      withheld: [...b.withheld],
      bridge: [...b.bridge],
      picks: [...b.picks],
    },
    pending: [...state.pending],
  };
}

export function evolve(state: WarchonState, event: WarchonEvent): WarchonState {
  const s = draft(state);
  const battle = s.battle;
  if (battle && battle.step === 'event' && EFFECT_STAGE_EVENTS.has(event.type)) battle.effectStage += 1;
  switch (event.type) {
    case 'GameSetUp':
      s.phase = 'setup';
      s.setupArmy = 'azuthkan';
      s.pending = [{ kind: 'SETUP', seat: 'azuthkan' }];
      return s;
    case 'UnitPlaced': {
      const key = event.unit!;
      s.unplaced[event.army] = s.unplaced[event.army].filter((k) => k !== key);
      s.units[event.marker] = newUnit(event.marker, event.army, key, event.spread);
      if (s.unplaced[event.army].length === 0) dropPending(s, (p) => p.kind === 'SETUP');
      return s;
    }
    case 'SetupFinished':
      if (event.army === 'azuthkan') {
        s.setupArmy = 'celestine';
        s.pending = [{ kind: 'SETUP', seat: 'celestine' }];
      } else {
        s.setupArmy = null;
        s.phase = 'turnStart';
        s.active = 'celestine'; // so that the first turn is Azuthkan's
        s.pending = [];
      }
      return s;
    case 'TurnBegan':
      s.turn = event.turn;
      s.active = event.army;
      s.phase = 'movement';
      s.moving = null;
      s.leftBattle = [];
      s.eventSpreads = [];
      s.forcedInto = [];
      s.lastBattle = 0;
      s.engaged = s.engaged.filter((e) => e.turn >= event.turn - 1);
      for (const u of Object.values(s.units)) {
        u.shifted = u.army !== event.army;
        u.movesLeft = u.army === event.army && !u.destroyed && u.spread !== null ? lineOf(s, u).movement : 0;
      }
      s.pending = [{ kind: 'MOVE', seat: event.army }];
      return s;
    case 'UnitShifted': {
      const u = s.units[event.unit]!;
      u.shifted = true;
      if (s.moving === u.id) s.moving = null;
      return s;
    }
    case 'UnitMoved': {
      const u = s.units[event.unit]!;
      u.spread = event.to;
      // Aerial units fly straight to their destination; others spend one Movement per spread.
      u.movesLeft = isAerial(s, u) ? 0 : u.movesLeft - (event.moves ?? 1);
      if (event.leftBattle) s.leftBattle.push(event.from);
      if (event.stopped) {
        u.movesLeft = 0;
        u.shifted = true;
        s.moving = null;
      } else {
        // Shifted when the next unit moves or the Movement Round ends, Movement left or not:
        // the opponent sees how far a unit went, never whether it could have gone further.
        s.moving = u.id;
      }
      return s;
    }
    case 'MovementEnded':
      for (const u of Object.values(s.units)) if (u.army === event.army) u.shifted = true;
      s.moving = null;
      s.phase = 'battles';
      s.lastBattle = 0;
      s.pending = [];
      return s;
    case 'BattleBegan':
      for (const r of event.units) s.units[r.id]!.revealed = true;
      s.battle = {
        spread: event.spread,
        attacker: event.attacker,
        defender: event.defender,
        step: 'strategy',
        strategyAsked: false,
        call: null,
        number: null,
        originalNumber: null,
        eventIndex: null,
        effectStage: 0,
        modifiers: [],
        halved: false,
        berserkers: [],
        withheld: [],
        bridge: [],
        picks: [],
        engaged: false,
      };
      return s;
    case 'StrategyRoundBegan':
      battle!.strategyAsked = true;
      s.pending = event.armies.map((seat) => ({ kind: 'STRATEGY', seat }));
      return s;
    case 'BerserkDeclared':
      battle!.berserkers.push(event.unit);
      battle!.modifiers.push({ units: [event.unit], op: 'mul', value: event.multiplier, stat: 'CS', reason: 'Berserk' });
      return s;
    case 'StrategyEnded':
      dropPending(s, (p) => p.kind === 'STRATEGY' && p.seat === event.army);
      return s;
    case 'NumberCalled':
      battle!.call = { purpose: event.purpose, commits: { azuthkan: null, celestine: null } };
      s.pending.push(...ARMIES.map((seat): Pending => ({ kind: 'COMMIT_NUMBER', seat })));
      return s;
    case 'NumberCommitted':
      if (battle?.call) battle.call.commits[event.army] = event.number;
      dropPending(s, (p) => p.kind === 'COMMIT_NUMBER' && p.seat === event.army);
      return s;
    case 'NumberGenerated':
      s.generations += 1;
      battle!.call = null;
      battle!.number = { purpose: event.purpose, value: event.number, event: event.event };
      if (battle!.step === 'event' && event.purpose === 'effect') battle!.effectStage += 1;
      return s;
    case 'RandomEventTriggered':
      battle!.number = null;
      battle!.originalNumber = event.number;
      battle!.step = 'event-number';
      s.eventSpreads.push(event.spread);
      return s;
    case 'RandomEventDrawn':
      battle!.number = null;
      battle!.eventIndex = event.number - 1;
      battle!.effectStage = 0;
      battle!.step = 'event';
      return s;
    case 'EventResolved':
      battle!.number = null;
      battle!.picks = [];
      battle!.step = event.endsCombat ? 'finish' : event.useOriginalNumber ? 'original' : 'resume';
      return s;
    case 'CombatResolved':
      battle!.number = null;
      battle!.step = 'finish';
      return s;
    case 'CombatEnded':
      battle!.number = null;
      battle!.step = 'finish';
      return s;
    case 'HitsToAssign':
      for (const seat of ARMIES) {
        const hits = event.hits[seat];
        const fighting = Object.values(s.units).some((u) => !u.destroyed && u.spread === event.spread && (u.fightsFor ?? u.army) === seat);
        if (hits > 0 && fighting) s.pending.push({ kind: 'ALLOCATE_DAMAGE', seat, hits, cause: event.cause });
      }
      return s;
    case 'HitAssigned': {
      const u = s.units[event.unit]!;
      s.pending = s.pending
        .map((p) => (p.kind === 'ALLOCATE_DAMAGE' && p.seat === event.army ? { ...p, hits: p.hits - 1 } : p))
        .filter((p) => !(p.kind === 'ALLOCATE_DAMAGE' && p.hits <= 0));
      hit(s, u);
      return s;
    }
    case 'UnitHit':
      hit(s, s.units[event.unit]!);
      return s;
    case 'UnitDestroyed': {
      const u = s.units[event.unit]!;
      destroy(s, u);
      if (event.cause === 'capacity') dropPending(s, (p) => p.kind === 'DESTROY_UNIT');
      return s;
    }
    case 'Engaged':
      s.engaged.push({ spread: event.spread, turn: s.turn });
      if (battle) battle.engaged = true;
      return s;
    case 'CSModified':
      battle!.modifiers.push({ units: event.units, op: event.op, value: event.value, stat: event.stat, reason: event.reason });
      return s;
    case 'CSHalved':
      battle!.halved = true;
      return s;
    case 'ChoicesOffered':
      for (const c of event.choices) s.pending.push({ kind: 'CHOOSE_UNIT', seat: c.seat, purpose: event.purpose, options: c.options, optional: c.optional });
      return s;
    case 'UnitChosen':
      battle!.picks.push({ seat: event.seat, unit: event.unit });
      dropPending(s, (p) => p.kind === 'CHOOSE_UNIT' && p.seat === event.seat);
      return s;
    case 'ChoicePassed':
      dropPending(s, (p) => p.kind === 'CHOOSE_UNIT' && p.seat === event.seat);
      return s;
    case 'ReserveJoined': {
      const u = s.units[event.unit.id]!;
      u.spread = event.spread;
      u.reserve = true;
      u.revealed = true;
      u.shifted = true;
      return s;
    }
    case 'ElementalJoined': {
      if (!s.types[WATER_ELEMENTAL_KEY]) {
        const effect = s.spreads.find((sp) => sp.number === event.spread)?.events?.find((e) => e.effect.kind === 'waterElemental')?.effect;
        const e = effect && effect.kind === 'waterElemental' ? effect : { cs: 4, hits: 2, trait: 'Aquatic' };
        // The types are shared with the state before (draft): a new record, not a change to it.
        s.types = { ...s.types, [WATER_ELEMENTAL_KEY]: waterElementalType(event.army, e.cs, e.hits, e.trait) };
      }
      s.units[event.unit] = {
        id: event.unit,
        key: WATER_ELEMENTAL_KEY,
        army: event.army,
        type: WATER_ELEMENTAL_KEY,
        spread: event.spread,
        hitsTaken: 0,
        destroyed: false,
        revealed: true,
        shifted: true,
        movesLeft: 0,
        reserve: false,
        temporary: true,
        fightsFor: null,
      };
      return s;
    }
    case 'UnitBribed':
      s.units[event.unit]!.fightsFor = event.fightsFor;
      return s;
    case 'BridgeOffered':
      s.pending.push({ kind: 'MAGIC_BRIDGE', seat: event.army });
      return s;
    case 'UnitCommittedToBridge':
      battle!.bridge.push(event.unit);
      return s;
    case 'BridgeCrossed': {
      const committed = new Set(event.committed);
      battle!.bridge = [...event.committed];
      battle!.withheld = Object.values(s.units)
        .filter((u) => !u.destroyed && u.spread === event.spread && (u.fightsFor ?? u.army) === battle!.attacker && !committed.has(u.id))
        .map((u) => u.id);
      dropPending(s, (p) => p.kind === 'MAGIC_BRIDGE');
      return s;
    }
    case 'RiversFury':
      return s;
    case 'RetreatsOrdered':
      for (const r of event.retreats) s.pending.push({ kind: 'RETREAT', seat: r.seat, unit: r.unit, options: r.options, cause: event.cause });
      return s;
    case 'UnitRetreated': {
      const u = s.units[event.unit]!;
      u.spread = event.to;
      u.reserve = false;
      if (!s.forcedInto.includes(event.to)) s.forcedInto.push(event.to);
      dropPending(s, (p) => p.kind === 'RETREAT' && p.unit === event.unit);
      return s;
    }
    case 'CapacityExceeded':
      s.pending.push({ kind: 'DESTROY_UNIT', seat: event.army, spread: event.spread, aerial: event.aerial === true });
      return s;
    case 'BattleEnded':
      for (const u of Object.values(s.units)) u.fightsFor = null;
      s.lastBattle = event.spread;
      s.battle = null;
      return s;
    case 'TurnEnded':
      s.phase = 'turnStart';
      for (const u of Object.values(s.units)) u.reserve = false;
      return s;
    case 'GameEnded':
      // Every ending: no battle, number call or move is left open (a call ended by a
      // resignation or a time-out no longer shows its committed number to its owner only).
      s.phase = 'over';
      s.pending = [];
      s.battle = null;
      s.moving = null;
      s.result = { winners: event.winners, reason: event.reason };
      return s;
  }
  return s;
}
