/**
 * The JSON Schema of Warchon's events (types.ts), as GameType.eventSchema publishes them.
 * Nulls stand for what is hidden from the viewer while the game runs (an unrevealed unit's
 * identity, a secret number not yet generated, which class overflowed a spread).
 */
import { eventSchema as schemaOf, json, type EventProperties } from '../kernel/event-schema.ts';
import { ARMIES, type WarchonEvent } from './types.ts';

const { string, integer, number, boolean, array, nullable, object, oneOf } = json;
const army = oneOf(...ARMIES);
const strings = array(string);
const purpose = oneOf('combat', 'event', 'effect');
const choice = oneOf('reserve', 'accidentalFall', 'assassination', 'bribery');
const revealed = object({ id: string, army, key: string, type: string, name: string });

const events: EventProperties<WarchonEvent> = {
  GameSetUp: { numbers: oneOf('players', 'server'), turnLimit: nullable(integer) },
  UnitPlaced: { army, marker: string, spread: integer, unit: nullable(string), unitType: nullable(string) },
  SetupFinished: { army },
  TurnBegan: { turn: integer, army },
  UnitShifted: { unit: string },
  UnitMoved: { army, unit: string, from: integer, to: integer, moves: nullable(integer), stopped: boolean, leftBattle: boolean },
  MovementEnded: { army },
  BattleBegan: { spread: integer, attacker: army, defender: army, units: array(revealed) },
  StrategyRoundBegan: { spread: integer, armies: array(army) },
  BerserkDeclared: { spread: integer, unit: string, multiplier: number },
  StrategyEnded: { army },
  NumberCalled: { spread: integer, purpose, generation: integer },
  NumberCommitted: { army, generation: integer, number: nullable(integer) },
  NumberGenerated: { spread: integer, purpose, by: oneOf('players', 'server'), attackerNumber: integer, defenderNumber: integer, number: integer, event: boolean },
  RandomEventTriggered: { spread: integer, number: integer },
  RandomEventDrawn: { spread: integer, number: integer, name: string },
  EventResolved: { spread: integer, endsCombat: boolean, useOriginalNumber: boolean },
  CombatResolved: { spread: integer, attackTotal: number, defenseTotal: number, difference: number, column: string, number: integer, row: integer, result: string },
  CombatEnded: { spread: integer, reason: string },
  HitsToAssign: { spread: integer, hits: object({ azuthkan: integer, celestine: integer }), cause: string },
  HitAssigned: { army, unit: string, hitsTaken: integer, destroyed: boolean },
  UnitHit: { unit: string, cause: string, hitsTaken: integer, destroyed: boolean },
  UnitDestroyed: { unit: string, cause: string },
  Engaged: { spread: integer },
  CSModified: { spread: integer, units: strings, op: oneOf('add', 'set', 'mul'), value: number, stat: oneOf('AS', 'DS', 'CS'), reason: string },
  CSHalved: { spread: integer },
  // Options another seat chooses from are hidden: an empty list.
  ChoicesOffered: { spread: integer, purpose: choice, choices: array(object({ seat: army, options: strings, optional: boolean })) },
  UnitChosen: { seat: army, purpose: choice, unit: string },
  ChoicePassed: { seat: army, purpose: choice },
  ReserveJoined: { spread: integer, unit: revealed, from: integer },
  ElementalJoined: { spread: integer, army, unit: string },
  UnitBribed: { spread: integer, unit: string, fightsFor: army },
  BridgeOffered: { spread: integer, army },
  UnitCommittedToBridge: { unit: string },
  BridgeCrossed: { spread: integer, committed: strings },
  RiversFury: { picks: array(object({ army, roll: integer, unit: string })) },
  RetreatsOrdered: { cause: string, retreats: array(object({ unit: string, seat: army, options: array(integer) })) },
  UnitRetreated: { unit: string, from: integer, to: integer },
  CapacityExceeded: { army, spread: integer, aerial: nullable(boolean), capacity: integer },
  BattleEnded: { spread: integer },
  TurnEnded: { turn: integer, army },
  GameEnded: { winners: array(army), reason: string },
};

export const eventSchema = schemaOf<WarchonEvent>('Warchon event', events);
