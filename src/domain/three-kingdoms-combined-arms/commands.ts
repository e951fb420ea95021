/** What a player sends. One small command per decision (one unit, one square). */
import { commandType, type JsonSchema } from '../kernel/index.ts';
import { SQUARE_PATTERN } from './board.ts';
import { UNIT_KINDS, type UnitKind } from './data.ts';

export type TkCommand =
  /** SETUP: place one unit of `kind` from your army on `square` of your corner. */
  | { type: 'placeUnit'; kind: UnitKind; square: string }
  /** MOVE PHASE: move one of your units to `to` (the shortest free path is taken). */
  | { type: 'move'; unit: string; to: string }
  /** MOVE PHASE over: go to the attack phase. */
  | { type: 'endMovement' }
  /** ATTACK PHASE: `unit` attacks the enemy unit `target`. */
  | { type: 'attack'; unit: string; target: string }
  /** ATTACK PHASE over: end your turn. */
  | { type: 'endTurn' }
  /** Your unit must retreat: choose its square. */
  | { type: 'retreat'; unit: string; to: string };

const square = { type: 'string', pattern: SQUARE_PATTERN };
const unitId = { type: 'string', minLength: 1, maxLength: 40 };

const command = (type: string, properties: Record<string, unknown> = {}) => commandType(type, properties);

export const commandSchema: JsonSchema = {
  oneOf: [
    command('placeUnit', { kind: { enum: UNIT_KINDS }, square }),
    command('move', { unit: unitId, to: square }),
    command('endMovement'),
    command('attack', { unit: unitId, target: unitId }),
    command('endTurn'),
    command('retreat', { unit: unitId, to: square }),
  ],
};
