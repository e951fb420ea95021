/**
 * What the REST operations answer, as JSON Schemas for their OpenAPI document (/docs/json):
 * a generated client (openapi-typescript and the like) gets a type for every response, and
 * for every game type's commands and events (components). The routes' own schemas allow
 * more properties than they list, so nothing a handler returns is dropped by the
 * serializer; the published document does not (documented()), so a client's typo such as
 * `game.stauts` fails to compile.
 */
import type { GameType } from '../domain/kernel/index.ts';
import { pascal } from './view-types.ts';

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

/** The security requirement of an operation either token may be sent with (none: a spectator). */
export const optionalToken: { [scheme: string]: string[] }[] = [{ seatToken: [] }, { playerToken: [] }, {}];
/** The security requirement of an operation only a seat may call: its seat token, or the token of the player holding it. */
export const requiredToken: { [scheme: string]: string[] }[] = [{ seatToken: [] }, { playerToken: [] }];
/** The security requirement of an operation only a player may call. */
export const playerOnly: { [scheme: string]: string[] }[] = [{ playerToken: [] }];

/** Both are bearer tokens: the service tells them apart, a client only needs to know which one an operation takes. */
export const securitySchemes = {
  seatToken: { type: 'http', scheme: 'bearer', description: 'A seat token: one seat of one game (createGame seatTokens, joinGame without a player token)' },
  playerToken: { type: 'http', scheme: 'bearer', description: 'A player token: every seat its player holds, in every game (registerPlayer, createPlayerToken)' },
} as const;

/** Marks the places the document refers to the command and event unions (documented()). */
export const COMMAND_NOTE = "one of the game type's commands (components: Command, <GameType>Command)";
const EVENT_NOTE = 'the event as the caller may see it (components: Event, <GameType>Event)';

const result: Schema = { ...object({ winners: array(string), reason: string }), type: ['object', 'null'], description: 'once the game is finished' };

const game: Schema = object({
  id: string,
  type: string,
  status: { type: 'string', enum: ['OPEN', 'SETUP', 'ACTIVE', 'FINISHED', 'ABANDONED'] },
  version: integer,
  createdAt: { type: 'string', format: 'date-time' },
  updatedAt: { type: 'string', format: 'date-time' },
  seats: array(
    object({
      id: string,
      name: { ...string, description: 'empty while the seat is open' },
      isYou: boolean,
      mustAct: boolean,
      player: { ...object({ id: string, name: string }), type: ['object', 'null'], description: 'the player holding the seat, if a player does' },
      open: boolean,
      bot: nullable('string'),
      deadline: { ...nullable('string'), description: 'when the seat runs out of time for what the game awaits from it' },
      absentUntil: { ...nullable('string'), description: "while the seat's player is absent: when they are back (their clock stands still until then)" },
    }),
  ),
  phase: string,
  round: nullable('integer'),
  awaiting: array(object({ seat: string, kind: string, prompt: string, deadline: nullable('string') })),
  result,
  seedCommitment: string,
  seed: { ...nullable('string'), description: 'published once the game is finished' },
  yourSeat: nullable('string'),
  isYourTurn: boolean,
  visibility: { type: 'string', enum: ['PUBLIC', 'PRIVATE'] },
  clock: { ...object({ perMove: integer }), type: ['object', 'null'], description: 'seconds for each decision; null: no deadlines' },
});

export const command: Schema = { type: 'object', required: ['type'], properties: { type: string }, additionalProperties: true, description: COMMAND_NOTE };

const event: Schema = object({
  version: integer,
  type: string,
  seat: { ...nullable('string'), description: 'who caused it, if anyone' },
  data: { type: 'object', additionalProperties: true, description: EVENT_NOTE },
  at: { type: 'string', format: 'date-time' },
});

const view: Schema = { description: "the game's view as the caller may see it (see the GraphQL view types)", ...anyJson };

/** One order in words (legalOrders): the line of the game's notation, a sentence, the command. */
const order: Schema = object({ notation: string, text: string, command });

/** The success responses, by operation. */
/** A message between players (docs/api.md, "Messages between players"). */
const message: Schema = object({
  id: string,
  from: { ...string, description: "the sender's seat" },
  to: { type: ['array', 'null'], items: string, description: 'null: everyone in the game; else only these seats (and the sender) may read it' },
  text: { ...string, description: 'as written: plain text, never markup' },
  at: { type: 'string', format: 'date-time' },
});

export const responses = {
  serviceInfo: object({ mailEnabled: { type: 'boolean', description: 'mail is configured (SMTP): verification codes and mail notifications are sent' } }),
  message,
  messages: object({ messages: array(message) }),
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
        bots: { ...array(string), description: 'the bot kinds a seat may be played by (createGame seats: { seat, bot })' },
        description: string,
        seatDetails: array(object({ id: string, name: string, colour: { ...string, description: 'a CSS hex colour, e.g. #2b6cb0' } })),
      }),
    ),
  }),
  created: object({ game, inviteCode: { ...nullable('string'), description: 'when a seat is open: joins the game (POST /api/games/{id}/join)' }, seatTokens: array(object({ seat: string, token: { ...string, description: 'secret: send it as Authorization: Bearer <token>' } })) }),
  games: object({ games: array(game), pageInfo: object({ hasNextPage: boolean, endCursor: nullable('string') }) }),
  game: object({ game: { ...game, properties: { ...(game.properties as Schema), view, legalCommands: array(command), legalOrders: array(order) }, required: [...(game.required as string[]), 'view', 'legalCommands', 'legalOrders'] } }),
  orders: object({ orders: array(order) }),
  view: object({ version: integer, view }),
  outcome: object({ game, events: { ...array(event), description: 'the events the command appended' } }),
  events: object({ events: array(event), pageInfo: object({ hasNextPage: boolean, endCursor: integer }) }),
  export: object({
    format: { type: 'string', const: 'wargame-service/export@1' },
    game: { type: 'object', additionalProperties: true },
    events: array({ ...event, properties: { ...(event.properties as Schema), rolls: { type: ['array', 'null'] } } }),
    commands: { type: ['array', 'null'], items: { type: 'object', additionalProperties: true } },
    messages: { ...array(message), description: 'the messages between players the caller may read' },
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

const player: Schema = object({ id: string, name: string, email: nullable('string'), emailVerified: boolean, notifyByEmail: boolean, emailDigest: boolean });
const playerToken: Schema = object({ id: string, name: string, createdAt: { type: 'string', format: 'date-time' }, lastUsedAt: { type: ['string', 'null'], format: 'date-time' } });
const gamesPage = responses.games;

/** The success responses of the players' and the lobby's operations (rest-players.ts). */
export const playerResponses = {
  registered: object({ player, token: { ...string, description: 'the player token, shown once: send it as Authorization: Bearer <token>' } }),
  me: object({ player: { ...player, properties: { ...(player.properties as Schema), myTurnCount: integer, tokens: array(playerToken), calendarUrl: { ...nullable('string'), description: 'the secret URL of your deadlines as an iCalendar feed; revoked with your tokens' } } } }),
  player: object({ player }),
  myGames: { ...gamesPage, properties: { ...(gamesPage.properties as Schema), myTurnCount: integer } },
  tokens: object({ tokens: array(playerToken) }),
  tokenCreated: { ...playerToken, properties: { ...(playerToken.properties as Schema), token: { ...string, description: 'shown once' } }, required: [...(playerToken.required as string[]), 'token'] },
  revoked: object({ revoked: boolean }),
  joined: object({ game, seatToken: { ...nullable('string'), description: 'without a player token: the seat token for the seat taken, shown once' } }),
  game: object({ game }),
  openGames: gamesPage,
} satisfies Record<string, Schema>;

/** The JSON Schema dialect of every published schema (Ajv: `Ajv2020` from ajv/dist/2020, with `discriminator: true`). */
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';
const publishedTypes = new WeakMap<GameType, GameType>();
const withDialect = (schema: Schema): Schema => ({ $schema: JSON_SCHEMA_DIALECT, ...schema });

/** A game type as both channels publish it: its schemas say which dialect they are written in. */
export function published(type: GameType): GameType {
  let out = publishedTypes.get(type);
  if (!out) {
    out = { ...type, optionsSchema: withDialect(type.optionsSchema), commandSchema: withDialect(type.commandSchema), eventSchema: withDialect(type.eventSchema) };
    publishedTypes.set(type, out);
  }
  return out;
}

/**
 * Every game type's command and event schemas, named `<GameType>Command` and
 * `<GameType>Event` (e.g. RaidOnWuchaoCommand), for the document's components.
 */
export function componentSchemas(types: GameType[]): Record<string, Schema> {
  // Without Ajv's `discriminator` keyword: OpenAPI reads it as inheritance, and generators
  // (openapi-typescript) then tag a union that refers to the schema with its own name. Each
  // alternative's `type` const discriminates it all the same.
  const plain = ({ discriminator: _, ...schema }: Schema): Schema => schema;
  return Object.fromEntries(
    types.flatMap((t) => [
      [`${pascal(t.id)}Command`, { ...plain(t.commandSchema), description: `A command of ${t.name}, as submitCommand takes it` }],
      [`${pascal(t.id)}Event`, { ...plain(t.eventSchema), description: `The data of an event of ${t.name}, as the log, the subscription and the export give it` }],
    ]),
  );
}

type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };
type Operation = { operationId?: string; responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>; requestBody?: { content?: Record<string, { schema?: Schema }> } };

/** An operation without an explicit operationId is named after its method and path (get /api/me/games: getMeGames). */
const operationName = (method: string, path: string) =>
  method + path.replace(/^\/api/, '').split(/[/-]/).filter(Boolean).map((p) => (p.startsWith('{') ? 'By' + pascal(p.slice(1, -1)) : pascal(p))).join('');

/**
 * The published document, from what @fastify/swagger built out of the routes: the command
 * body, `legalCommands` and events' `data` refer to the unions `Command` and `Event`
 * (anyOf of every game type's discriminated union), response objects list what they carry
 * and no more, and every operation has an operationId.
 */
export function documented<T>(document: T, types: GameType[]): T {
  const doc = document as Doc;
  const schemas = (doc.components.schemas ??= {});
  const union = (suffix: string, what: string) => ({
    description: `${what} of any game type: narrow by the game's type to <GameType>${suffix}, then by its \`type\``,
    anyOf: types.map((t) => ({ $ref: `#/components/schemas/${pascal(t.id)}${suffix}` })),
  });
  schemas.Command = union('Command', 'A command');
  schemas.Event = union('Event', 'The data of an event');
  const walk = (node: unknown, inResponse: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, inResponse));
    if (!node || typeof node !== 'object') return node;
    const schema = node as Schema;
    if (schema.description === COMMAND_NOTE) return { $ref: '#/components/schemas/Command' };
    if (schema.description === EVENT_NOTE) return { $ref: '#/components/schemas/Event' };
    const out = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, walk(v, inResponse)]));
    // Only objects that list their properties: a free-form one (a JSON Schema, options) stays open.
    if (inResponse && out.additionalProperties === true && out.properties) delete out.additionalProperties;
    return out;
  };
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      op.operationId ??= operationName(method, path);
      if (op.requestBody) op.requestBody = walk(op.requestBody, false) as Operation['requestBody'];
      if (op.responses) op.responses = walk(op.responses, true) as Operation['responses'];
    }
  }
  return document;
}

/** The @fastify/swagger options: OpenAPI 3.1, both bearer schemes, the game types' unions. */
export function swaggerOptions(types: GameType[]) {
  return {
    openapi: {
      // 3.1: its schemas are JSON Schema 2020-12, as the game types' command and event schemas are.
      openapi: '3.1.0',
      info: {
        title: 'Wargame service',
        version: '0.1.0',
        license: { name: 'MIT', identifier: 'MIT' },
        description:
          'REST mirror of the GraphQL API at /graphql: the same operations, error codes and tokens (Authorization: Bearer <token>). The TypeScript types of every command, event and view are served at /api/types.ts.',
      },
      components: { securitySchemes, schemas: componentSchemas(types) },
    },
    hideUntagged: true,
    transformObject: ({ openapiObject }: { openapiObject: unknown }) => documented(openapiObject, types),
  };
}
