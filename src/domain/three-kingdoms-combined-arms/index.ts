/**
 * Three Kingdoms Combined Arms: the game module. Each rule lives in the file named after
 * the rulebook's section: setup.ts (SETUP, TERRAIN), movement.ts (MOVE PHASE), attack.ts
 * (ATTACK PHASE), retreat.ts (retreat, DOUBLE WHAMMY RULE), turns.ts (TURN SEQUENCE),
 * victory.ts (VICTORY), data.ts (UNIT LIST).
 */
import { accept, refuse, type GameModule, type Prompt, type Status } from '../kernel/index.ts';
import { cornerLabel, SQUARE_PATTERN } from './board.ts';
import { SEATS, UNIT_LIST } from './data.ts';
import { Batch, evolve } from './evolve.ts';
import type { TkEvent } from './events.ts';
import { commandSchema, type TkCommand } from './commands.ts';
import { initialState, placeUnit, placementCommands, setupEvents, type TkOptions } from './setup.ts';
import { endMovement, move, moveCommands } from './movement.ts';
import { attack, attackCommands, finishAttacks } from './attack.ts';
import { retreat, retreatCommands } from './retreat.ts';
import { eliminate } from './victory.ts';
import { faction, unitById, unitName, type TkState } from './state.ts';
import { view } from './view.ts';
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
    if (!state.placer) return [];
    const left = Object.values(state.reserves[state.placer]!).reduce((a, b) => a + b, 0);
    return [{ seat: state.placer, kind: 'SETUP', prompt: `Place a unit in your ${cornerLabel(state.corners[state.placer]!)}: ${left} left to place` }];
  }
  if (state.pendingRetreat) {
    const unit = unitById(state, state.pendingRetreat.unit)!;
    return [{ seat: state.pendingRetreat.seat, kind: 'RETREAT', prompt: `${unitName(unit)} must retreat: choose ${state.pendingRetreat.options.join(' or ')}` }];
  }
  if (state.phase === 'move') return [{ seat: state.active!, kind: 'MOVE', prompt: 'Move any of your units, then end movement' }];
  return [{ seat: state.active!, kind: 'ATTACK', prompt: 'Attack with any of your units, then end your turn' }];
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

  initialState,

  setup(input, random) {
    const batch = new Batch(initialState(input));
    setupEvents(batch, input.options, random);
    return batch.events;
  },

  decide(state, command, seat) {
    if (state.stage === 'FINISHED') return refuse('The game is over', 'GAME_OVER');
    if (!awaits(state, seat)) return refuse('Not your turn', 'NOT_YOUR_TURN');
    const batch = new Batch(state);
    let refusal: string | null = null;
    const pending = state.pendingRetreat;
    switch (command.type) {
      case 'placeUnit':
        if (state.stage !== 'SETUP') return refuse('Setup is over: units are placed only during setup');
        if (!UNIT_LIST[command.kind]) return refuse(`There is no unit type ${command.kind}`);
        refusal = placeUnit(batch, seat, command.kind, command.square);
        break;
      case 'retreat':
        refusal = retreat(batch, seat, command.unit, command.to);
        break;
      case 'move':
      case 'endMovement':
      case 'attack':
      case 'endTurn': {
        if (state.stage === 'SETUP') return refuse('Setup is not over: place your units first');
        if (pending) return refuse(`Waiting for ${faction(pending.seat)} to choose where ${unitName(unitById(state, pending.unit)!)} retreats`);
        const phase = state.phase === 'move' ? 'Move Phase' : 'Attack Phase';
        if (command.type === 'move' || command.type === 'endMovement') {
          if (state.phase !== 'move') return refuse(`It is the ${phase}: movement is over for this turn`);
          if (command.type === 'move') refusal = move(batch, seat, command.unit, command.to);
          else endMovement(batch, seat);
        } else {
          if (state.phase !== 'attack') return refuse(`It is the ${phase}: end movement before attacking`);
          if (command.type === 'attack') refusal = attack(batch, seat, command.unit, command.target);
          else finishAttacks(batch);
        }
        break;
      }
      default:
        return refuse(`Unknown command ${(command as { type: string }).type}`, 'BAD_REQUEST');
    }
    return refusal ? refuse(refusal) : accept(...batch.events);
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
