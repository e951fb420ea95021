/** The JSON Schema of Raid on Wuchao's events (events.ts), as GameType.eventSchema publishes them. */
import { eventSchema as schemaOf, json, type EventProperties } from '../kernel/event-schema.ts';
import { SIDES } from './data.ts';
import type { WuchaoEvent } from './events.ts';

const { string, integer, boolean, array, nullable, object } = json;
const side = json.oneOf(...SIDES);
const strings = array(string);

const events: EventProperties<WuchaoEvent> = {
  CaoForcesPlaced: { space: string, units: strings },
  UnitPlaced: { unit: string, space: string },
  SetupCompleted: { round: integer },
  UnitMoved: { unit: string, side, from: string, to: string, movementLeft: integer, entersEnemy: boolean },
  MovementEnded: { side },
  UnitSteppedBack: { unit: string, from: string, to: string, automatic: boolean },
  CombatPhaseBegan: { side, combats: strings },
  GranariesRaided: { round: integer, space: string },
  CombatBegan: { space: string, attackerSide: side, attackers: strings, defenders: strings, bestDefense: integer, terrainBonus: integer, defense: integer, dice: strings },
  DieRolled: { space: string, die: string, roll: integer },
  XuYouRerolled: { space: string, die: string, previous: integer, roll: integer, tokensLeft: integer },
  RollAccepted: { space: string, die: string, roll: integer },
  CombatResolved: { space: string, attackTotal: integer, defense: integer, damage: integer },
  DamageAllocated: { space: string, units: strings, flipped: strings, destroyed: strings, automatic: boolean },
  CaoCaoDestroyed: { unit: string, space: string },
  AssaultSucceeded: { space: string, side, attackers: strings },
  // A withdrawal to null: no space on its path had room, the unit is destroyed.
  AssaultFailed: { space: string, side, withdrawals: array(object({ unit: string, from: string, to: nullable(string) })) },
  CombatPhaseEnded: { side },
  VictoryChecked: { round: integer, caoHoldsGranaries: boolean, yuanHoldsCamp: boolean, winner: nullable(side), reason: nullable(string) },
  RoundAdvanced: { round: integer },
  GameEnded: { winners: strings, reason: string },
};

export const eventSchema = schemaOf<WuchaoEvent>('Raid on Wuchao event', events);
