/** The JSON Schema of Three Kingdoms Combined Arms' events (events.ts), as GameType.eventSchema publishes them. */
import { eventSchema as schemaOf, json, type EventProperties } from '../kernel/event-schema.ts';
import { UNIT_KINDS } from './data.ts';
import type { TkEvent } from './events.ts';

const { string, integer, array, nullable, object, oneOf } = json;
const kind = oneOf(...UNIT_KINDS);
const squares = array(string);

const events: EventProperties<TkEvent> = {
  TerrainPlaced: { source: oneOf('seed', 'options'), cities: squares, forests: squares, mountains: squares },
  UnitPlaced: { seat: string, unit: string, kind, square: string },
  SetupCompleted: { unplaced: array(object({ seat: string, kind, count: integer })) },
  TurnStarted: { seat: string, round: integer },
  UnitMoved: { seat: string, unit: string, from: string, to: string, path: squares },
  CityOccupied: { square: string, seat: string, previous: nullable(string) },
  MovementEnded: { seat: string },
  UnitAttacked: { seat: string, unit: string, target: string, damage: integer, damageThisPhase: integer, defense: integer },
  RetreatForced: { seat: string, unit: string, from: string, options: squares },
  UnitRetreated: { seat: string, unit: string, from: string, to: string, direction: oneOf('back', 'lateral') },
  UnitDestroyed: { seat: string, unit: string, kind, square: string, reason: oneOf('DOUBLE_WHAMMY', 'OFF_BOARD', 'NO_RETREAT') },
  PlayerOut: { seat: string, reason: string, cause: oneOf('generals', 'left') },
  TurnEnded: { seat: string, round: integer },
  GameEnded: { winners: array(string), reason: string },
};

export const eventSchema = schemaOf<TkEvent>('Three Kingdoms Combined Arms event', events);
