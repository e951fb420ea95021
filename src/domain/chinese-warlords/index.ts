/**
 * Chinese Warlords (China in the 1920s): hex map, recruitment, movement and combat for
 * 2 to 4 warlords. The game module on the kernel's contract.
 */
import { notation } from './notation.ts';
import { accept, refuse, type Decision, type GameModule, type Prompt, type Random, type Status } from '../kernel/index.ts';
import { SEATS, UNIT_TYPES, type UnitType } from './data.ts';
import { attackCommands, attackRefusal, attackersFrom, defenseOptions, resolveAttack } from './combat.ts';
import { commandSchema, type WarlordsCommand } from './commands.ts';
import type { WarlordsEvent } from './events.ts';
import { evolve } from './evolve.ts';
import { loseUnitEvents, retreatEvents, settle, upkeepCandidates } from './flow.ts';
import { terrainAt } from './map.ts';
import { boardRefusal, canMove, destinations, moveRefusal, reachable, strongholdOwnerAt, unloadRefusal } from './movement.ts';
import { recruit, recruitCommands, recruitRefusal } from './recruitment.ts';
import { choosingVillage, gameSetUp, initialState, nearbyVillages, optionsSchema, type WarlordsOptions } from './setup.ts';
import { activeSeats, passengersOf, unitById, unitsAt, type WarlordsState } from './state.ts';
import { beginTurn } from './turn.ts';
import { view } from './view.ts';
import { eventSchema } from './event-schema.ts';
import { presentation } from './presentation.ts';
import { viewSchema } from './view-schema.ts';

export type { WarlordsState } from './state.ts';
export type { WarlordsEvent } from './events.ts';
export type { WarlordsCommand } from './commands.ts';
export type { WarlordsOptions } from './setup.ts';

const PHASE_NAMES = { setup: 'Setup', upkeep: 'Upkeep', recruitment: 'Recruitment', movement: 'Movement', combat: 'Combat', turnEnd: 'Initiative', over: 'Game over' } as const;

function prompts(s: WarlordsState): Prompt[] {
  if (s.result) return [];
  if (s.phase === 'setup') {
    const seat = choosingVillage(s);
    return seat ? [{ seat, kind: 'CHOOSE_VILLAGE', prompt: `Nearby Village: choose the village you control, ${nearbyVillages(s, seat).join(', ')}` }] : [];
  }
  if (s.phase === 'upkeep') {
    return s.order
      .filter((p) => !s.players[p]!.out && (s.upkeepLosses[p] ?? 0) > 0)
      .map((seat) => ({ seat, kind: 'LOSE_UNITS', prompt: `Upkeep unpaid: choose ${s.upkeepLosses[seat]} more unit(s) to lose` }));
  }
  if (s.phase === 'turnEnd') return s.seat ? [{ seat: s.seat, kind: 'BEGIN_TURN', prompt: `Roll initiative to begin turn ${s.turn + 1}` }] : [];
  if (s.defense) {
    const d = s.defense;
    if (d.losses > 0) return [{ seat: d.defender, kind: 'ALLOCATE_DAMAGE', prompt: `${d.result}: choose ${d.losses} unit(s) lost in ${d.hex}` }];
    // With no retreat square the only thing left is to lose a unit: say so.
    const canRetreat = defenseOptions(s).retreat.length > 0;
    const text =
      d.then === 'retreatOrLose'
        ? canRetreat ? `${d.result}: retreat the stack in ${d.hex} 1 space or lose another unit` : `${d.result}: the stack in ${d.hex} cannot retreat: lose another unit`
        : canRetreat ? `R: retreat the stack in ${d.hex} 1 space` : `R: the stack in ${d.hex} cannot retreat: lose 1 unit`;
    return [{ seat: d.defender, kind: 'RETREAT', prompt: text }];
  }
  if (!s.seat || s.stepDone) return [];
  if (s.phase === 'recruitment') return [{ seat: s.seat, kind: 'RECRUIT', prompt: `Recruit units (treasury ${s.players[s.seat]!.treasury}), then end recruitment` }];
  if (s.phase === 'movement') return [{ seat: s.seat, kind: 'MOVE', prompt: 'Move your units, then end movement' }];
  if (s.phase === 'combat') {
    const text = s.attack ? `Add stacks to the attack on ${s.attack.target} or resolve it` : 'Attack enemy stacks in range, then end combat';
    return [{ seat: s.seat, kind: 'ATTACK', prompt: text }];
  }
  return [];
}

function decideRules(s: WarlordsState, c: WarlordsCommand, seat: string, random: Random): WarlordsEvent[] | string {
  const mine = s.seat === seat && !s.stepDone && !s.defense;
  switch (c.type) {
    case 'recruit': {
      if (s.phase !== 'recruitment' || !mine) return 'It is not your recruitment';
      if (!UNIT_TYPES[c.unitType as UnitType]) return `Unknown unit type ${c.unitType}`;
      const why = recruitRefusal(s, seat, c.unitType, c.hex);
      return why ?? recruit(s, seat, c.unitType, c.hex, random);
    }
    case 'endRecruitment':
      if (s.phase !== 'recruitment' || !mine) return 'It is not your recruitment';
      return [{ type: 'RecruitmentEnded', seat }];
    case 'move': {
      if (s.phase !== 'movement' || !mine) return 'It is not your movement';
      const u = unitById(s, c.unit);
      const why = moveRefusal(s, seat, u, c.to);
      if (why) return why;
      const reach = reachable(s, u!).get(c.to)!;
      const events: WarlordsEvent[] = [{ type: 'UnitMoved', seat, unit: u!.id, path: reach.path, cost: reach.cost, passengers: passengersOf(s, u!.id).map((p) => p.id) }];
      const owner = strongholdOwnerAt(s, c.to, seat);
      // "capture his stronghold": the stronghold becomes the captor's, then its owner is
      // defeated: the capture's own facts come before the ending, nothing after it.
      if (owner) events.push({ type: 'StrongholdCaptured', seat, hex: c.to, owner, unit: u!.id });
      const t = terrainAt(s.map, c.to);
      if ((t === 'village' || t === 'stronghold') && s.control[c.to] !== seat) events.push({ type: 'ControlTaken', seat, hex: c.to, from: s.control[c.to] ?? null });
      if (owner) events.push({ type: 'PlayerDefeated', seat: owner, reason: `${seat} captured ${owner}'s stronghold` });
      return events;
    }
    case 'board': {
      if (s.phase !== 'movement' || !mine) return 'It is not your movement';
      const u = unitById(s, c.unit);
      const carrier = unitById(s, c.carrier);
      const why = boardRefusal(s, seat, u, carrier);
      return why ?? [{ type: 'UnitBoarded', seat, unit: c.unit, carrier: c.carrier, hex: u!.hex }];
    }
    case 'unload': {
      if (s.phase !== 'movement' || !mine) return 'It is not your movement';
      const u = unitById(s, c.unit);
      const why = unloadRefusal(s, seat, u);
      return why ?? [{ type: 'UnitUnloaded', seat, unit: c.unit, carrier: u!.carriedBy!, hex: u!.hex }];
    }
    case 'endMovement':
      if (s.phase !== 'movement' || !mine) return 'It is not your movement';
      return [{ type: 'MovementEnded', seat }];
    case 'attack': {
      if (s.phase !== 'combat' || !mine) return 'It is not your combat phase';
      const why = attackRefusal(s, seat, c.stack, c.target);
      if (why) return why;
      const defender = unitsAt(s, c.target)[0]!.owner;
      return [{ type: 'AttackDeclared', seat, stack: c.stack, target: c.target, defender, units: attackersFrom(s, c.stack, c.target).map((u) => u.id) }];
    }
    case 'resolveAttack':
      if (s.phase !== 'combat' || !mine) return 'It is not your combat phase';
      if (!s.attack) return 'No attack has been declared';
      return resolveAttack(s, random);
    case 'endCombat':
      if (s.phase !== 'combat' || !mine) return 'It is not your combat phase';
      if (s.attack) return `Resolve the attack on ${s.attack.target} first`;
      return [{ type: 'CombatEnded', seat }];
    case 'loseUnit': {
      if (s.phase === 'upkeep') {
        if (!(s.upkeepLosses[seat]! > 0)) return 'You have no upkeep losses to choose';
        if (!upkeepCandidates(s, seat).includes(c.unit)) return 'Choose one of your units other than the Warlord (he goes only when nothing else is left)';
        return loseUnitEvents(s, c.unit);
      }
      if (!s.defense || s.defense.defender !== seat) return 'You have no losses to choose';
      const { lose } = defenseOptions(s);
      if (!lose.includes(c.unit)) return lose.length ? `Choose a unit of the stack in ${s.defense.hex}` : 'Your stack must retreat now: it can, so it does not lose a unit';
      return loseUnitEvents(s, c.unit);
    }
    case 'retreat': {
      if (!s.defense || s.defense.defender !== seat) return 'None of your stacks has to retreat';
      const { retreat } = defenseOptions(s);
      if (s.defense.losses > 0) return `Choose the ${s.defense.losses} unit(s) lost first`;
      if (!retreat.includes(c.to)) return retreat.length ? `The stack in ${s.defense.hex} cannot retreat to ${c.to}; it may go to ${retreat.join(', ')}` : `The stack in ${s.defense.hex} cannot retreat (no free adjacent hex, or it already retreated this turn): lose a unit instead`;
      return retreatEvents(s, c.to);
    }
    case 'chooseVillage': {
      if (choosingVillage(s) !== seat) return 'You have no village to choose';
      const villages = nearbyVillages(s, seat);
      if (!villages.includes(c.hex)) return `${c.hex} is not a free village within 3 hexes of your stronghold: choose ${villages.join(', ')}`;
      return [{ type: 'NearbyVillageTaken', seat, hex: c.hex }];
    }
    case 'beginTurn':
      if (s.phase !== 'turnEnd' || s.seat !== seat) return 'The turn is not over';
      return beginTurn(s, random);
  }
  return 'Unknown command';
}

function legalCommands(s: WarlordsState, seat: string): WarlordsCommand[] {
  if (s.result || !s.players[seat] || s.players[seat]!.out) return [];
  if (s.phase === 'setup') return choosingVillage(s) === seat ? nearbyVillages(s, seat).map((hex) => ({ type: 'chooseVillage', hex })) : [];
  if (s.phase === 'upkeep') return (s.upkeepLosses[seat] ?? 0) > 0 ? upkeepCandidates(s, seat).map((unit) => ({ type: 'loseUnit', unit })) : [];
  if (s.phase === 'turnEnd') return s.seat === seat ? [{ type: 'beginTurn' }] : [];
  if (s.defense) {
    if (s.defense.defender !== seat) return [];
    const { lose, retreat } = defenseOptions(s);
    return [...retreat.map((to): WarlordsCommand => ({ type: 'retreat', to })), ...lose.map((unit): WarlordsCommand => ({ type: 'loseUnit', unit }))];
  }
  if (s.seat !== seat || s.stepDone) return [];
  const out: WarlordsCommand[] = [];
  if (s.phase === 'recruitment') {
    out.push(...recruitCommands(s, seat), { type: 'endRecruitment' });
  } else if (s.phase === 'movement') {
    const own = s.units.filter((u) => u.owner === seat);
    for (const [u, hexes] of destinations(s, own)) for (const to of hexes) out.push({ type: 'move', unit: u.id, to });
    for (const u of own) for (const carrier of own) if (!boardRefusal(s, seat, u, carrier)) out.push({ type: 'board', unit: u.id, carrier: carrier.id });
    for (const u of own) if (u.carriedBy && !unloadRefusal(s, seat, u)) out.push({ type: 'unload', unit: u.id });
    out.push({ type: 'endMovement' });
  } else if (s.phase === 'combat') {
    out.push(...attackCommands(s, seat));
    out.push(s.attack ? { type: 'resolveAttack' } : { type: 'endCombat' });
  }
  return out;
}

export const chineseWarlords: GameModule<WarlordsState, WarlordsCommand, WarlordsEvent, WarlordsOptions> = {
  id: 'chinese-warlords',
  name: 'Chinese Warlords',
  seats: SEATS,
  minPlayers: 2,
  maxPlayers: 4,
  optionsSchema,
  commandSchema,
  eventSchema,
  viewSchema,
  presentation,
  exampleOptions: [{ turnLimit: 10 }],

  initialState,

  setup(input, random) {
    return settle(initialState(input), [gameSetUp(input, random)], random).events;
  },

  // The kernel has already checked that the game runs and waits for this seat.
  decide(state, command, seat, random): Decision<WarlordsEvent> {
    const outcome = decideRules(state, command, seat, random);
    if (typeof outcome === 'string') return refuse(outcome);
    return accept(...settle(state, outcome, random).events);
  },

  evolve,
  view,
  legalCommands,

  status(s): Status {
    const phase = s.seat && ['recruitment', 'movement', 'combat'].includes(s.phase) ? `${PHASE_NAMES[s.phase]} (${s.seat})` : PHASE_NAMES[s.phase];
    const out = s.seats.filter((p) => s.players[p]?.out);
    if (s.result) return { stage: 'FINISHED', phase: 'Game over', round: s.turn || null, awaiting: [], result: s.result, out };
    return { stage: s.phase === 'setup' ? 'SETUP' : 'ACTIVE', phase, round: s.turn || null, awaiting: prompts(s), result: null, out };
  },

  eliminate(state, seat, random, reason) {
    // A player who resigns or runs out of time is out; play moves on. If the turn has
    // ended the next player in line is asked to roll initiative (BEGIN_TURN). During setup
    // (the ability 4 village choice) setup ends as it would have: the first turn's
    // initiative is rolled at once, as after the choice itself.
    if (state.players[seat]?.out) return [];
    const why = reason === 'time out' ? `${seat} ran out of time` : reason;
    return settle(state, [{ type: 'PlayerDefeated', seat, reason: why }], state.phase === 'setup' ? random : null).events;
  },
  notation,
};

export { activeSeats };
