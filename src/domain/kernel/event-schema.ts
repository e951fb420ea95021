/**
 * JSON Schemas of events, as each game type publishes them (`GameType.eventSchema`) next
 * to its command schema: what a client may find in an event's `data`, redacted or not.
 * A game lists each of its events' properties in `<game>/event-schema.ts`, checked by the
 * compiler against its event type (every event, every property, nothing else); a test
 * validates every event of random games against the schema.
 */
import type { GameEvent, JsonSchema } from './types.ts';

/** Small builders for the schemas below, so each event reads as one line. */
export const json = {
  string: { type: 'string' } as JsonSchema,
  integer: { type: 'integer' } as JsonSchema,
  number: { type: 'number' } as JsonSchema,
  boolean: { type: 'boolean' } as JsonSchema,
  nullable: (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] }),
  array: (items: JsonSchema): JsonSchema => ({ type: 'array', items }),
  oneOf: (...values: readonly (string | number | boolean)[]): JsonSchema => ({ enum: [...values] }),
  /** An object with exactly these properties (all required unless listed in `optional`). */
  object: (properties: Record<string, JsonSchema>, optional: string[] = []): JsonSchema => ({
    type: 'object',
    properties,
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    additionalProperties: false,
  }),
  /** An object whose keys are not fixed (e.g. a seat per key) and whose values all match. */
  record: (values: JsonSchema): JsonSchema => ({ type: 'object', additionalProperties: values }),
};

/**
 * Every event of a game by type, each with a schema for each of its properties but
 * `type`: the compiler holds this to the game's event union, in both directions.
 */
export type EventProperties<E extends GameEvent> = {
  [K in E['type']]: { [P in keyof Extract<E, { type: K }> as P extends 'type' ? never : P]-?: JsonSchema };
};

/** The schema of one event type: `type` fixed, these properties, nothing else. */
export function eventType(type: string, properties: Record<string, JsonSchema> = {}): JsonSchema {
  return {
    type: 'object',
    title: type,
    properties: { type: { const: type }, ...properties },
    required: ['type', ...Object.keys(properties)],
    additionalProperties: false,
  };
}

/** A game's event schema: one alternative per event type, discriminated by `type`. */
export function eventSchema<E extends GameEvent>(title: string, events: EventProperties<E>): JsonSchema {
  return {
    title,
    type: 'object',
    required: ['type'],
    discriminator: { propertyName: 'type' },
    oneOf: Object.entries(events as Record<string, Record<string, JsonSchema>>).map(([type, properties]) => eventType(type, properties)),
  };
}

/** The match's own events (match.ts, turn.ts), in every game's log. */
export type MatchEvent =
  | { type: 'PlayerResigned'; seat: string }
  | { type: 'TimedOut'; seat: string }
  /** Its time ran out with `onTimeout: BOT`: the random bot plays it from now on. */
  | { type: 'SeatHandedToBot'; seat: string }
  | { type: 'DrawOffered'; seat: string }
  | { type: 'DrawAccepted'; seat: string }
  | { type: 'DrawDeclined'; seat: string }
  /** Its author left the game. */
  | { type: 'DrawOfferLapsed'; seat: string; reason: string }
  /** Empty winners: a draw. */
  | { type: 'GameEnded'; winners: string[]; reason: string };

const matchEvents: EventProperties<MatchEvent> = {
  PlayerResigned: { seat: json.string },
  TimedOut: { seat: json.string },
  SeatHandedToBot: { seat: json.string },
  DrawOffered: { seat: json.string },
  DrawAccepted: { seat: json.string },
  DrawDeclined: { seat: json.string },
  DrawOfferLapsed: { seat: json.string, reason: json.string },
  GameEnded: { winners: json.array(json.string), reason: json.string },
};

export const matchEventSchemas: JsonSchema[] = Object.entries(matchEvents).map(([type, properties]) => eventType(type, properties));
