/** What the players send. Small steps: one unit, one space, one decision at a time. */
import { commandType, type JsonSchema } from '../kernel/index.ts';

export type WuchaoCommand =
  /** §11 Setup (Yuan): place one unit. The ninth placement ends setup. */
  | { type: 'placeUnit'; unit: string; space: string }
  /** §11 Setup (Yuan) in one command (ruling): every unit at once. */
  | { type: 'deploy'; placements: { unit: string; space: string }[] }
  /** §6 Movement: one unit moves one space along a connection. */
  | { type: 'move'; unit: string; to: string }
  | { type: 'endMovement' }
  /** §6 Stacking limit: this excess unit steps back one space along its path. */
  | { type: 'stepBack'; unit: string }
  /** §10 Xu You: spend a token to reroll the die just rolled, or let it stand. */
  | { type: 'reroll' }
  | { type: 'acceptRoll' }
  /** §8 Damage Allocation: the unit taking each point of damage (a unit named twice is flipped, then removed). */
  | { type: 'allocateDamage'; units: string[] }
  /** §8 Failed Assault: where each attacker withdraws, when the stacking limit leaves a choice of who goes further back. */
  | { type: 'withdraw'; withdrawals: { unit: string; from: string; to: string | null }[] };

const id = { type: 'string', minLength: 1, maxLength: 40 };
const only = (type: string, properties: Record<string, unknown> = {}, required: string[] = []) => commandType(type, properties, required);

export const commandSchema: JsonSchema = {
  oneOf: [
    only('placeUnit', { unit: id, space: id }, ['unit', 'space']),
    only(
      'deploy',
      {
        placements: {
          type: 'array',
          maxItems: 40,
          items: { type: 'object', properties: { unit: id, space: id }, required: ['unit', 'space'], additionalProperties: false },
        },
      },
      ['placements'],
    ),
    only('move', { unit: id, to: id }, ['unit', 'to']),
    only('endMovement'),
    only('stepBack', { unit: id }, ['unit']),
    only('reroll'),
    only('acceptRoll'),
    only('allocateDamage', { units: { type: 'array', items: id, maxItems: 100 } }, ['units']),
    only(
      'withdraw',
      {
        withdrawals: {
          type: 'array',
          maxItems: 40,
          items: { type: 'object', properties: { unit: id, from: id, to: { oneOf: [id, { type: 'null' }] } }, required: ['unit', 'from', 'to'], additionalProperties: false },
        },
      },
      ['withdrawals'],
    ),
  ],
};
