/**
 * Three Kingdoms Combined Arms: the game module. Each rule lives in the file named after
 * the rulebook's section: setup.ts (SETUP, TERRAIN), movement.ts (MOVE PHASE), attack.ts
 * (ATTACK PHASE), retreat.ts (retreat, DOUBLE WHAMMY RULE), turns.ts (TURN SEQUENCE),
 * victory.ts (VICTORY), data.ts (UNIT LIST).
 */
import { accept, refuse, settle, type GameModule, type Prompt, type Status } from '../kernel/index.ts';
import { cornerLabel, SQUARE_PATTERN } from './board.ts';
import { SEATS, UNIT_LIST } from './data.ts';
import { Batch, evolve } from './evolve.ts';
import type { TkEvent } from './events.ts';
import { commandSchema, type TkCommand } from './commands.ts';
import { initialState, placeUnit, placementCommands, placerOf, terrainEvent, type TkOptions } from './setup.ts';
import { move, moveCommands } from './movement.ts';
import { attack, attackCommands } from './attack.ts';
import { retreat, retreatCommands } from './retreat.ts';
import { flow } from './turns.ts';
import { eliminate } from './victory.ts';
import { faction, unitById, unitName, type TkState } from './state.ts';
import { view } from './view.ts';
import { eventSchema } from './event-schema.ts';
import { presentation } from './presentation.ts';
import { viewSchema } from './view-schema.ts';
import { notation } from './notation.ts';

export type { TkState, TkCommand, TkEvent, TkOptions };

const squares = { type: 'array', items: { type: 'string', pattern: SQUARE_PATTERN }, uniqueItems: true, maxItems: 144 };

const optionsSchema = {
  type: 'object',
  properties: {
    terrain: {
      description: 'A terrain layout to use instead of the one drawn from the seed',
      type: ['object', 'null'],
      properties: { cities: squares, forests: squares, mountains: squares },
      required: ['cities', 'forests', 'mountains'],
      additionalProperties: false,
      default: null,
    },
    turnLimit: {
      description: 'Rounds after which the game ends as a draw (none by default)',
      type: ['integer', 'null'],
      minimum: 1,
      maximum: 10000,
      default: null,
    },
  },
  additionalProperties: false,
};

function awaiting(state: TkState): Prompt[] {
  if (state.stage === 'FINISHED') return [];
  if (state.stage === 'SETUP') {
    const placer = placerOf(state);
    if (!placer) return [];
    const left = Object.values(state.reserves[placer]!).reduce((a, b) => a + b, 0);
    return [{ seat: placer, kind: 'SETUP', prompt: `Place a unit in your ${cornerLabel(state.corners[placer]!)}: ${left} left to place` }];
  }
  if (state.pendingRetreat) {
    const unit = unitById(state, state.pendingRetreat.unit)!;
    return [{ seat: state.pendingRetreat.seat, kind: 'RETREAT', prompt: `${unitName(unit)} must retreat: choose ${state.pendingRetreat.options.join(' or ')}` }];
  }
  if (state.phase === 'move') return [{ seat: state.active!, kind: 'MOVE', prompt: 'Move any of your units, then end movement' }];
  return [{ seat: state.active!, kind: 'ATTACK', prompt: 'Attack with any of your units, then end your turn' }];
}

function decideRule(state: TkState, command: TkCommand, seat: string): TkEvent[] | string {
  const pending = state.pendingRetreat;
  switch (command.type) {
    case 'placeUnit':
      if (state.stage !== 'SETUP') return 'Setup is over: units are placed only during setup';
      if (!UNIT_LIST[command.kind]) return `There is no unit type ${command.kind}`;
      return placeUnit(state, seat, command.kind, command.square);
    case 'retreat':
      return retreat(state, seat, command.unit, command.to);
    case 'move':
    case 'endMovement':
    case 'attack':
    case 'endTurn': {
      if (state.stage === 'SETUP') return 'Setup is not over: place your units first';
      if (pending) return `Waiting for ${faction(pending.seat)} to choose where ${unitName(unitById(state, pending.unit)!)} retreats`;
      const phase = state.phase === 'move' ? 'Move Phase' : 'Attack Phase';
      if (command.type === 'move' || command.type === 'endMovement') {
        if (state.phase !== 'move') return `It is the ${phase}: movement is over for this turn`;
        return command.type === 'move' ? move(state, seat, command.unit, command.to) : [{ type: 'MovementEnded', seat }];
      }
      if (state.phase !== 'attack') return `It is the ${phase}: end movement before attacking`;
      return command.type === 'attack' ? attack(state, seat, command.unit, command.target) : [{ type: 'TurnEnded', seat, round: state.round }];
    }
  }
  return `Unknown command ${(command as { type: string }).type}`;
}

function awaits(state: TkState, seat: string): boolean {
  return awaiting(state).some((p) => p.seat === seat);
}

export const threeKingdoms: GameModule<TkState, TkCommand, TkEvent, TkOptions> = {
  id: 'three-kingdoms-combined-arms',
  name: 'Three Kingdoms Combined Arms',
  seats: SEATS,
  minPlayers: 2,
  maxPlayers: 4,
  optionsSchema,
  commandSchema,
  eventSchema,
  viewSchema,
  presentation,
  exampleOptions: [{ turnLimit: 8 }],

  initialState,

  setup(input, random) {
    const batch = new Batch(initialState(input));
    batch.emit(terrainEvent(input.options, random));
    settle(batch, flow);
    return batch.events;
  },

  // The kernel has already checked that the game runs and waits for this seat: here, which
  // command fits the decision, and the rule's own refusal. What follows by itself is `flow`.
  decide(state, command, seat) {
    const events = decideRule(state, command, seat);
    if (typeof events === 'string') return refuse(events);
    const batch = new Batch(state);
    batch.emit(...events);
    settle(batch, flow);
    return accept(...batch.events);
  },

  evolve,

  view(state) {
    return view(state);
  },

  legalCommands(state, seat) {
    if (!awaits(state, seat)) return [];
    if (state.stage === 'SETUP') return placementCommands(state, seat);
    if (state.pendingRetreat) return retreatCommands(state, seat);
    return state.phase === 'move' ? moveCommands(state, seat) : attackCommands(state, seat);
  },

  status(state): Status {
    const phase =
      state.stage === 'SETUP'
        ? 'Setup'
        : state.stage === 'FINISHED'
          ? 'Game over'
          : `${faction(state.active!)} ${state.phase === 'attack' ? 'Attack Phase' : 'Move Phase'}`;
    // Players without Generals are out (ruling): the match rules stop asking them anything.
    return { stage: state.stage, phase, round: state.stage === 'SETUP' ? null : state.round, awaiting: awaiting(state), result: state.result, out: state.out };
  },

  eliminate,
  // The match's sentences name a faction as the rulebook does: "Wei", not the seat id "wei".
  seatName: faction,
  notation,
};
