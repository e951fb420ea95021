/**
 * What the REST operations answer, as JSON Schemas for their OpenAPI document (/docs/json):
 * a generated client (openapi-typescript and the like) gets a type for every response, and
 * for every game type's commands and events (components). Objects allow more properties
 * than they list: new fields reach clients without a schema change, and nothing a handler
 * returns is dropped by the serializer.
 */
import type { GameType } from '../domain/kernel/index.ts';

type Schema = Record<string, unknown>;

const string = { type: 'string' } as const;
const integer = { type: 'integer' } as const;
const boolean = { type: 'boolean' } as const;
const nullable = (type: 'string' | 'integer') => ({ type: [type, 'null'] }) as const;
const anyJson = {} as const;
const object = (properties: Record<string, Schema>, description?: string): Schema => ({
  type: 'object',
  ...(description ? { description } : {}),
  properties,
  required: Object.keys(properties),
  additionalProperties: true,
});
const array = (items: Schema): Schema => ({ type: 'array', items });

/** The security requirement of an operation a seat token may be sent with (none: a spectator). */
export const optionalToken: { [scheme: string]: string[] }[] = [{ seatToken: [] }, {}];
/** The security requirement of an operation only a seat may call. */
export const requiredToken: { [scheme: string]: string[] }[] = [{ seatToken: [] }];

const result: Schema = { ...object({ winners: array(string), reason: string }), type: ['object', 'null'], description: 'once the game is finished' };

const game: Schema = object({
  id: string,
  type: string,
  status: { type: 'string', enum: ['SETUP', 'ACTIVE', 'FINISHED', 'ABANDONED'] },
  version: integer,
  createdAt: { type: 'string', format: 'date-time' },
  updatedAt: { type: 'string', format: 'date-time' },
  seats: array(object({ id: string, name: string, isYou: boolean, mustAct: boolean })),
  phase: string,
  round: nullable('integer'),
  awaiting: array(object({ seat: string, kind: string, prompt: string })),
  result,
  seedCommitment: string,
  seed: { ...nullable('string'), description: 'published once the game is finished' },
  yourSeat: nullable('string'),
  isYourTurn: boolean,
});

const command: Schema = { type: 'object', required: ['type'], properties: { type: string }, additionalProperties: true, description: "one of the game type's commands (components: <GameType>Command)" };

const event: Schema = object({
  version: integer,
  type: string,
  seat: { ...nullable('string'), description: 'who caused it, if anyone' },
  data: { type: 'object', additionalProperties: true, description: "the event as the caller may see it (components: <GameType>Event)" },
  at: { type: 'string', format: 'date-time' },
});

const view: Schema = { description: "the game's view as the caller may see it (see the GraphQL view types)", ...anyJson };

/** One order in words (legalOrders): the line of the game's notation, a sentence, the command. */
const order: Schema = object({ notation: string, text: string, command });

/** The success responses, by operation. */
export const responses = {
  gameTypes: object({
    gameTypes: array(
      object({
        id: string,
        name: string,
        seats: array(string),
        minPlayers: integer,
        maxPlayers: integer,
        optionsSchema: { type: 'object', additionalProperties: true },
        commandSchema: { type: 'object', additionalProperties: true },
        eventSchema: { type: 'object', additionalProperties: true },
      }),
    ),
  }),
  created: object({ game, seatTokens: array(object({ seat: string, token: { ...string, description: 'secret: send it as Authorization: Bearer <token>' } })) }),
  games: object({ games: array(game), pageInfo: object({ hasNextPage: boolean, endCursor: nullable('string') }) }),
  game: object({ game: { ...game, properties: { ...(game.properties as Schema), view, legalCommands: array(command), legalOrders: array(order) }, required: [...(game.required as string[]), 'view', 'legalCommands', 'legalOrders'] } }),
  orders: object({ orders: array(order) }),
  view: object({ version: integer, view }),
  outcome: object({ game, events: { ...array(event), description: 'the events the command appended' } }),
  events: object({ events: array(event) }),
  export: object({
    format: { type: 'string', const: 'wargame-service/export@1' },
    game: { type: 'object', additionalProperties: true },
    events: array({ ...event, properties: { ...(event.properties as Schema), rolls: { type: ['array', 'null'] } } }),
    commands: { type: ['array', 'null'], items: { type: 'object', additionalProperties: true } },
  }),
  verify: {
    type: 'object',
    required: ['valid'],
    properties: {
      valid: boolean,
      events: integer,
      commands: integer,
      rolls: integer,
      rulesChanged: object({ game: string, now: string }),
      reason: string,
      version: integer,
      expected: anyJson,
      found: anyJson,
    },
    additionalProperties: true,
  },
} satisfies Record<string, Schema>;

const player: Schema = object({ id: string, name: string, email: nullable('string'), emailVerified: boolean, notifyByEmail: boolean });
const playerToken: Schema = object({ id: string, name: string, createdAt: { type: 'string', format: 'date-time' }, lastUsedAt: { type: ['string', 'null'], format: 'date-time' } });
const gamesPage = responses.games;

/** The success responses of the players' and the lobby's operations (rest-players.ts). */
export const playerResponses = {
  registered: object({ player, token: { ...string, description: 'the player token, shown once: send it as Authorization: Bearer <token>' } }),
  me: object({ player: { ...player, properties: { ...(player.properties as Schema), myTurnCount: integer, tokens: array(playerToken) } } }),
  player: object({ player }),
  myGames: { ...gamesPage, properties: { ...(gamesPage.properties as Schema), myTurnCount: integer } },
  tokens: object({ tokens: array(playerToken) }),
  tokenCreated: { ...playerToken, properties: { ...(playerToken.properties as Schema), token: { ...string, description: 'shown once' } }, required: [...(playerToken.required as string[]), 'token'] },
  revoked: object({ revoked: boolean }),
  joined: object({ game, seatToken: { ...nullable('string'), description: 'without a player token: the seat token for the seat taken, shown once' } }),
  game: object({ game }),
  openGames: gamesPage,
} satisfies Record<string, Schema>;

const pascal = (id: string) => id.replace(/(^|-)([a-z0-9])/g, (_, _dash, c: string) => c.toUpperCase());

/**
 * Every game type's command and event schemas, named `<GameType>Command` and
 * `<GameType>Event` (e.g. RaidOnWuchaoCommand), for the document's components.
 */
export function componentSchemas(types: GameType[]): Record<string, Schema> {
  return Object.fromEntries(
    types.flatMap((t) => [
      [`${pascal(t.id)}Command`, { ...t.commandSchema, description: `A command of ${t.name}, as submitCommand takes it` }],
      [`${pascal(t.id)}Event`, { ...t.eventSchema, description: `The data of an event of ${t.name}, as the log, the subscription and the export give it` }],
    ]),
  );
}
