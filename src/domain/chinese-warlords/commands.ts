/** What a player sends. A turn is a sequence of small commands, each listed by legalCommands. */
import { commandType, type JsonSchema } from '../kernel/index.ts';
import { UNIT_TYPE_IDS, type UnitType } from './data.ts';

export type WarlordsCommand =
  | { type: 'recruit'; unitType: UnitType; hex: string }
  | { type: 'endRecruitment' }
  | { type: 'move'; unit: string; to: string }
  | { type: 'board'; unit: string; carrier: string }
  | { type: 'unload'; unit: string }
  | { type: 'endMovement' }
  | { type: 'attack'; stack: string; target: string }
  | { type: 'resolveAttack' }
  | { type: 'endCombat' }
  | { type: 'loseUnit'; unit: string }
  | { type: 'retreat'; to: string }
  | { type: 'beginTurn' }
  | { type: 'chooseVillage'; hex: string };

const hex = { type: 'string', pattern: '^-?[0-9]+,-?[0-9]+$', description: 'a hex id "col,row" (odd-r offset coordinates)' };
const unit = { type: 'string', minLength: 1, maxLength: 40 };

const command = (type: string, properties: Record<string, unknown> = {}, description = ''): JsonSchema => ({ ...commandType(type, properties), description });

export const commandSchema: JsonSchema = {
  oneOf: [
    // Every unit type, the Warlord too: buying one is refused with the rule's reason ("You only get one").
    command('recruit', { unitType: { enum: UNIT_TYPE_IDS }, hex }, 'RECRUITMENT: buy one unit (two Peasants with Popularity) and place it in or next to a village you control or your stronghold'),
    command('endRecruitment', {}, 'End your recruitment'),
    command('move', { unit, to: hex }, 'MOVEMENT: move one unit (with its passengers) by the cheapest path within its movement points'),
    command('board', { unit, carrier: unit }, 'Put a foot unit aboard a vehicle or boat in the same hex, at the start or end of the carrier move (boarding after it has moved ends its move)'),
    command('unload', { unit }, 'Take a passenger off its carrier, in the carrier hex (after the carrier has moved, this ends its move)'),
    command('endMovement', {}, 'End your movement'),
    command('attack', { stack: hex, target: hex }, 'COMBAT: the stack in `stack` attacks (or joins the attack on) the enemy stack in `target`'),
    command('resolveAttack', {}, 'Roll 1D10 on the Combat Resolution Table for the attack formed'),
    command('endCombat', {}, 'End your combat phase'),
    command('loseUnit', { unit }, 'Choose a unit to lose (upkeep unpaid, combat losses, or instead of retreating)'),
    command('retreat', { to: hex }, 'Retreat the attacked stack 1 space'),
    command('beginTurn', {}, 'Roll initiative for the next turn (only after a player left at the end of a turn)'),
    command('chooseVillage', { hex }, 'Ability 4, Nearby Village: the village within 3 hexes of your stronghold that you control from the start'),
  ],
};
