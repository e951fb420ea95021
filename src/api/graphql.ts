/**
 * The GraphQL API (docs/api.md): schema, resolvers and the mercurius plugin options. It
 * only translates: every resolver calls the application layer.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GraphQLError } from 'graphql';
import mercurius from 'mercurius';
import { hashToken, SPECTATOR, type Actor } from '../app/actors.ts';
import type { Core } from '../app/core.ts';
import type { GameRead } from '../app/game-read.ts';
import { encodeCursor } from '../app/reads.ts';
import type { LobbyCreateInput } from '../app/lobby.ts';
import type { Players, PlayerOut } from '../app/players.ts';
import { AppError, isUnavailable } from '../app/errors.ts';
import { actorFor, requestActor } from './auth.ts';
import { depthLimit } from './cost.ts';
import { oneOrder, ordersOf } from './orders.ts';
import type { Resolvers } from './resolvers.ts';
import type { GameModule } from '../domain/kernel/index.ts';
import { viewTypes } from './view-types.ts';
import { published } from './openapi.ts';
import { absenceResolvers, absenceSchema } from './graphql-absence.ts';
import { messageResolvers, messageSchema } from './graphql-messages.ts';
import { notificationResolvers, notificationSchema } from './graphql-notifications.ts';

const baseSchema = /* GraphQL */ `
  scalar JSON

  "OPEN: a seat is still open (no setup yet); ABANDONED: cancelled before it started"
  enum GameStatus { OPEN SETUP ACTIVE FINISHED ABANDONED }
  "PUBLIC: listed in openGames; PRIVATE: joined only with the invite code"
  enum Visibility { PUBLIC PRIVATE }

  type GameType {
    id: ID!
    name: String!
    seats: [String!]!
    minPlayers: Int!
    maxPlayers: Int!
    optionsSchema: JSON!
    commandSchema: JSON!
    "JSON Schema of every event in this type's log (its data, as a client receives it), discriminated by type"
    eventSchema: JSON!
    "the bot kinds a seat may be played by (createGame seats: { seat, bot })"
    bots: [String!]!
    "one or two sentences for the lobby"
    description: String!
    "every seat, in seat order, as clients present it"
    seatDetails: [SeatDetail!]!
  }
  "A seat of a game type as clients present it."
  type SeatDetail {
    id: String!
    "the name players read, e.g. Wei"
    name: String!
    "a CSS hex colour, e.g. #2b6cb0"
    colour: String!
  }

  "A player as others see them: never their email."
  type PlayerSummary { id: ID! name: String! }
  type Seat {
    id: String!
    "empty while the seat is open"
    name: String!
    isYou: Boolean!
    mustAct: Boolean!
    "the player holding the seat, if a player does"
    player: PlayerSummary
    "nobody holds it yet: joinGame takes it"
    open: Boolean!
    "the bot the service plays the seat with"
    bot: String
    "when the seat runs out of time for the decision the game awaits from it (ISO timestamp); null without a clock or when nothing is awaited from it"
    deadline: String
  }
  type Prompt {
    seat: String!
    kind: String!
    prompt: String!
    "when the seat's time for this decision runs out (ISO timestamp); null without a clock and for a draw answer"
    deadline: String
  }
  "what a seat whose time runs out becomes: out of the game (RESIGN) or played by the random bot for the rest of it (BOT)"
  enum TimeoutPolicy { RESIGN BOT }
  "Seconds each awaited seat has for each decision"
  type Clock { perMove: Int! onTimeout: TimeoutPolicy! }
  type Result { winners: [String!]! reason: String! }

  type GameEvent {
    version: Int!
    type: String!
    "who caused it, if anyone"
    seat: String
    data: JSON!
    at: String!
  }

  "What the view of every game with a typed view has, whatever the game."
  interface View {
    "the game type's id"
    gameType: String!
    "the phase, in the rulebook's words"
    phase: String!
  }

  "A game without a typed view: its view as JSON."
  type GenericView { gameType: String! state: JSON! }

  type Game {
    id: ID!
    type: String!
    status: GameStatus!
    version: Int!
    createdAt: String!
    updatedAt: String!
    seats: [Seat!]!
    "every decision the game now waits for"
    awaiting: [Prompt!]!
    phase: String!
    round: Int
    "the state as the caller may see it, now or after an earlier version"
    view(atVersion: Int): GameView!
    "every command the caller's seat may submit now, ready to send unchanged"
    legalCommands: [JSON!]!
    "the same as orders in words: the line of the game's mail notation, a sentence, the command"
    legalOrders: [Order!]!
    events(after: Int, first: Int): [GameEvent!]!
    result: Result
    seedCommitment: String!
    "published once the game is finished"
    seed: String
    "the caller's seat in this game, if any"
    yourSeat: String
    isYourTurn: Boolean!
    visibility: Visibility!
    "the game's clock; null: no deadlines"
    clock: Clock
  }

  type PageInfo { hasNextPage: Boolean! endCursor: String }
  type GameEdge { cursor: String! node: Game! }
  type GameConnection { edges: [GameEdge!]! nodes: [Game!]! pageInfo: PageInfo! }
  input GamesFilter { type: String status: GameStatus "with a player token: only the games awaiting one of your seats (true) or none (false)" myTurn: Boolean }

  "You, with a player token: the only place your email is shown."
  type Player {
    id: ID!
    name: String!
    email: String
    emailVerified: Boolean!
    notifyByEmail: Boolean!
    "one mail a day with every game waiting for you, instead of a mail each time it becomes your turn"
    emailDigest: Boolean!
    "a secret URL of an iCalendar feed of your seats' deadlines; revoked with your tokens (null: the service has no key to make it)"
    calendarUrl: String
    "the games you hold a seat in, newest first"
    games(filter: GamesFilter, first: Int, after: String): GameConnection!
    "how many of your games await one of your seats"
    myTurnCount: Int!
    tokens: [PlayerToken!]!
  }
  type PlayerToken { id: ID! name: String! createdAt: String! lastUsedAt: String }
  type CreatedPlayerToken { id: ID! name: String! "shown once" token: String! }
  type RegisterPlayerPayload { player: Player! "a player token, shown once" token: String! }
  type JoinGamePayload { game: Game! "without a player token: the seat token of the seat taken" seatToken: String }
  input RegisterPlayerInput { name: String! email: String }
  input UpdatePlayerInput { name: String "null removes it" email: String notifyByEmail: Boolean emailDigest: Boolean }

  "What this service offers that a client may ask before showing a form"
  type ServiceInfo {
    "mail is configured (SMTP): verification codes and mail notifications are sent; false: no mail is ever sent"
    mailEnabled: Boolean!
  }

  type Query {
    gameTypes: [GameType!]!
    "what this service offers (mail on or off)"
    serviceInfo: ServiceInfo!
    game(id: ID!): Game
    "newest first; with a seat token, the games of that token"
    games(filter: GamesFilter, first: Int, after: String): GameConnection!
    "with a player token: you; null otherwise"
    me: Player
    "public games with an open seat, oldest first"
    openGames(type: String, first: Int, after: String): GameConnection!
    "the game an invite code belongs to, while it waits for players (the invite link /join/<code>)"
    invitation(code: String!): Game!
    "the whole game as one JSON document, as GET /api/games/{id}/export gives it (format wargame-service/export@1; complete once finished)"
    exportGame(id: ID!): JSON!
  }

  "One of: name (a seat token comes back), me (you take it, with a player token), open (someone joins later), bot (the service plays it; name optional)"
  input SeatInput { seat: String! name: String me: Boolean open: Boolean bot: String }
  "perMove: whole seconds for each decision, from 1 to 2592000 (30 days)"
  input ClockInput { perMove: Int! "default RESIGN" onTimeout: TimeoutPolicy }
  input CreateGameInput { type: String! options: JSON seats: [SeatInput!]! "default PRIVATE" visibility: Visibility "none: no deadlines" clock: ClockInput }
  type SeatToken { seat: String! token: String! }
  type CreateGamePayload { game: Game! seatTokens: [SeatToken!]! "when a seat is open: joins the game (joinGame inviteCode)" inviteCode: String }
  "one order a seat may give: notation is the line to type (docs/rules), command the legalCommands entry it stands for"
  type Order { notation: String! text: String! command: JSON! }
  type SubmitCommandsPayload { game: Game! "every event the commands appended, in order" events: [GameEvent!]! }
  type CommandPayload { game: Game! "the events this command appended" events: [GameEvent!]! }

  type Mutation {
    createGame(input: CreateGameInput!): CreateGamePayload!
    "command, or notation: one line of the game's mail notation instead; seat: for a player holding several seats of the game, the one the command is for"
    submitCommand(gameId: ID!, command: JSON, notation: String, expectedVersion: Int, idempotencyKey: String, seat: String): CommandPayload!
    "several commands of one seat (commands, or notations: one of them), in order, all or none, in one append"
    submitCommands(gameId: ID!, commands: [JSON!], notations: [String!], expectedVersion: Int, idempotencyKey: String, seat: String): SubmitCommandsPayload!
    resign(gameId: ID!, seat: String): Game!
    registerPlayer(input: RegisterPlayerInput!): RegisterPlayerPayload!
    updatePlayer(input: UpdatePlayerInput!): Player!
    verifyEmail(code: String!): Player!
    createPlayerToken(name: String!): CreatedPlayerToken!
    revokePlayerToken(id: ID!): Boolean!
    "with a player token you take the seat; without one, name is needed and a seat token comes back"
    joinGame(gameId: ID!, seat: String, name: String, inviteCode: String): JoinGamePayload!
    "before the game starts: frees your seat"
    leaveGame(gameId: ID!): Game!
    "the creator ends a game before it starts"
    cancelGame(gameId: ID!): Game!
    "re-derives every die roll of an export from its seed and re-folds its log, as POST /api/games/verify: { valid, ... }"
    verifyExport(export: JSON!): JSON!
  }

  type Subscription {
    "every stored event after afterVersion, then live ones, each once and in order"
    gameEvents(gameId: ID!, afterVersion: Int): GameEvent!
    "while a game waits for players (OPEN): the game now, then each time a seat is taken or freed, and once more when it starts or is cancelled (then it ends); a join that leaves seats open appends no event, so gameEvents has nothing to say about it"
    seatsChanged(gameId: ID!): Game!
  }
`;

/** The schema's SDL, with a view type for each of the games that has a view schema (view-types.ts). */
export function buildSchema(games: readonly GameModule[]): string {
  const views = viewTypes(games);
  const members = ['GenericView', ...views.map((v) => v.typeName)];
  // Each view type is what its game's view() returns; the API adds gameType, and View.
  const common = views.map((v) => `extend type ${v.typeName} implements View { gameType: String! }`);
  return [baseSchema, notificationSchema, absenceSchema, messageSchema, ...views.map((v) => v.sdl), ...common, `union GameView = ${members.join(' | ')}`].join('\n');
}

export interface Context {
  actor: () => Promise<Actor>;
  request?: FastifyRequest;
  _connectionInit?: Record<string, unknown>;
}

const VIEW_TYPE = Symbol('gameType');

function connection(page: { nodes: GameRead[]; hasNextPage: boolean; endCursor: string | null }) {
  return {
    edges: page.nodes.map((node) => ({ cursor: encodeCursor(node), node })),
    nodes: page.nodes,
    pageInfo: { hasNextPage: page.hasNextPage, endCursor: page.endCursor },
  };
}

// An optional argument the client sent as null arrives as null (resolvers.ts types them so).
type GamesArgs = { filter?: { type?: string | null; status?: string | null; myTurn?: boolean | null } | null; first?: number | null; after?: string | null };
const gamesQuery = (args: GamesArgs) => ({ type: args.filter?.type ?? undefined, status: args.filter?.status ?? undefined, myTurn: args.filter?.myTurn, first: args.first ?? undefined, after: args.after });

/** The seconds a RATE_LIMITED client should wait, as REST's Retry-After says (set by app.ts's rate limiter). */
export function retryAfter(error: unknown): { retryAfter?: number } {
  const seconds = (error as { retryAfter?: unknown } | null)?.retryAfter;
  return typeof seconds === 'number' ? { retryAfter: seconds } : {};
}

/**
 * Verify's own budget over GraphQL, as REST's POST /api/games/verify has one (a verify takes
 * a worker thread): `max` documents a minute per token, or per address without one.
 */
function verifyBudget(max: number) {
  const windows = new Map<string, { count: number; resetAt: number }>();
  return (key: string) => {
    const now = Date.now();
    let w = windows.get(key);
    if (!w || w.resetAt <= now) {
      if (windows.size > 10_000) windows.clear(); // a bound on memory, not a policy
      windows.set(key, (w = { count: 0, resetAt: now + 60_000 }));
    }
    if (++w.count > max) {
      const retryAfter = Math.ceil((w.resetAt - now) / 1000);
      throw new AppError('RATE_LIMITED', `Too many verifications: at most ${max} a minute; retry in ${retryAfter} s`, { retryAfter });
    }
  };
}

export function graphqlOptions(app: Core, opts: { graphiql: boolean; queryDepth: number; verifyRateLimit?: number }) {
  const spendVerify = verifyBudget(opts.verifyRateLimit ?? 10);
  const players = (): Players => app.players;
  const lobby = () => app.lobby;
  const extra = notificationResolvers(app);
  const talk = messageResolvers(app);
  const games = app.registry.modules();
  const viewTypeOf = new Map(viewTypes(games).map((v) => [v.gameType, v.typeName]));
  const resolvers = {
    Query: {
      gameTypes: () => app.registry.types().map(published),
      serviceInfo: () => ({ mailEnabled: app.notifications.mailEnabled }),
      game: async (_: unknown, args: { id: string }, ctx: Context) => app.reads.read(args.id, await ctx.actor()),
      games: async (_: unknown, args: GamesArgs, ctx: Context) =>
        connection(await app.reads.listGames(await ctx.actor(), gamesQuery(args))),
      me: async (_: unknown, __: unknown, ctx: Context) => players().me(await ctx.actor()),
      openGames: async (_: unknown, args: { type?: string | null; first?: number | null; after?: string | null }, ctx: Context) => connection(await lobby().openGames(await ctx.actor(), args)),
      invitation: async (_: unknown, args: { code: string }, ctx: Context) => lobby().invitation(await ctx.actor(), args.code),
      exportGame: async (_: unknown, args: { id: string }, ctx: Context) => app.reads.export(args.id, await ctx.actor()),
    },
    GameType: {
      bots: (t: { id: string }) => lobby().botKinds(t.id),
    },
    Player: {
      // A Player is only ever the caller (me, registerPlayer, updatePlayer, verifyEmail).
      games: (p: PlayerOut, args: GamesArgs) => players().games({ kind: 'player', playerId: p.id }, gamesQuery(args)).then(connection),
      myTurnCount: (p: PlayerOut) => players().myTurnCount(p.id),
      calendarUrl: (p: PlayerOut) => app.digests.calendarUrl({ kind: 'player', playerId: p.id }),
      tokens: async (p: PlayerOut) =>
        (await players().tokens(p.id)).map((t) => ({ id: t.id, name: t.name, createdAt: t.createdAt.toISOString(), lastUsedAt: t.lastUsedAt?.toISOString() ?? null })),
    },
    Game: {
      createdAt: (g: GameRead) => g.createdAt.toISOString(),
      updatedAt: (g: GameRead) => g.updatedAt.toISOString(),
      seats: (g: GameRead) => g.seatsWithDeadlines(),
      awaiting: (g: GameRead) => g.awaitingWithDeadlines(),
      phase: async (g: GameRead) => (await g.progress()).phase,
      round: async (g: GameRead) => (await g.progress()).round,
      view: async (g: GameRead, args: { atVersion?: number | null }) => {
        const { view } = await g.view(args.atVersion);
        const typed = view === null ? undefined : viewTypeOf.get(g.type);
        const out = typed ? { ...(view as object), gameType: g.type } : { gameType: g.type, state: view };
        Object.defineProperty(out, VIEW_TYPE, { value: typed ?? 'GenericView' });
        return out;
      },
      legalCommands: (g: GameRead) => g.legalCommands(),
      legalOrders: (g: GameRead) => g.legalOrders(),
      events: (g, args) => g.events(args.after ?? 0, args.first ?? undefined),
    },
    GameView: {
      resolveType: (view: Record<symbol, string>) => view[VIEW_TYPE],
    },
    View: {
      resolveType: (view: Record<symbol, string>) => view[VIEW_TYPE],
    },
    Mutation: {
      createGame: async (_: unknown, args: { input: LobbyCreateInput }, ctx: Context) => lobby().create(await ctx.actor(), args.input),
      submitCommand: async (_: unknown, args: { gameId: string; command?: unknown; notation?: string | null; expectedVersion?: number | null; idempotencyKey?: string | null; seat?: string | null }, ctx: Context) => {
        const actor = await ctx.actor();
        const order = oneOrder(args.command, args.notation);
        return 'notation' in order ? app.commands.executeAll(actor, args.gameId, [order], { ...args, single: true }) : app.commands.execute(actor, args.gameId, order.command, args);
      },
      submitCommands: async (_: unknown, args: { gameId: string; commands?: unknown[] | null; notations?: string[] | null; expectedVersion?: number | null; idempotencyKey?: string | null; seat?: string | null }, ctx: Context) =>
        app.commands.executeAll(await ctx.actor(), args.gameId, ordersOf(args.commands, args.notations), args),
      resign: async (_: unknown, args: { gameId: string; seat?: string | null }, ctx: Context) => (await app.commands.execute(await ctx.actor(), args.gameId, { type: 'resign' }, { seat: args.seat })).game,
      registerPlayer: (_: unknown, args: { input: { name: string; email?: string | null } }, ctx: Context) => players().register(args.input, { address: ctx.request?.ip ?? 'unknown' }),
      updatePlayer: async (_: unknown, args: { input: { name?: string | null; email?: string | null; notifyByEmail?: boolean | null; emailDigest?: boolean | null } }, ctx: Context) => players().update(await ctx.actor(), args.input),
      verifyEmail: async (_: unknown, args: { code: string }, ctx: Context) => players().verifyEmail(await ctx.actor(), args.code),
      createPlayerToken: async (_: unknown, args: { name: string }, ctx: Context) => players().createToken(await ctx.actor(), args.name),
      revokePlayerToken: async (_: unknown, args: { id: string }, ctx: Context) => players().revokeToken(await ctx.actor(), args.id),
      joinGame: async (_: unknown, args: { gameId: string; seat?: string | null; name?: string | null; inviteCode?: string | null }, ctx: Context) => lobby().join(await ctx.actor(), args.gameId, args),
      leaveGame: async (_: unknown, args: { gameId: string }, ctx: Context) => lobby().leave(await ctx.actor(), args.gameId),
      cancelGame: async (_: unknown, args: { gameId: string }, ctx: Context) => lobby().cancel(await ctx.actor(), args.gameId),
      // The verifier's worker reads bytes, as the REST route hands it.
      verifyExport: (_: unknown, args: { export: unknown }, ctx: Context) => {
        const auth = ctx.request?.headers.authorization;
        spendVerify(typeof auth === 'string' ? `token:${hashToken(auth)}` : `addr:${ctx.request?.ip ?? 'unknown'}`);
        return app.verify.body(Buffer.from(JSON.stringify(args.export)));
      },
    },
    Subscription: {
      gameEvents: {
        subscribe: async (_, args, ctx) => {
          const actor = await actorFor(app, ctx._connectionInit?.authorization ?? ctx.request?.headers?.authorization);
          return app.reads.feed(args.gameId, actor, args.afterVersion);
        },
        resolve: (event: unknown) => event,
      },
      seatsChanged: {
        subscribe: async (_, args, ctx) => {
          const actor = await actorFor(app, ctx._connectionInit?.authorization ?? ctx.request?.headers?.authorization);
          return app.reads.seatFeed(args.gameId, actor);
        },
        resolve: (game: unknown) => game,
      },
    },
    Webhook: extra.Webhook,
  } satisfies Resolvers<Context>;

  Object.assign(resolvers.Player, extra.Player);
  Object.assign(resolvers.Mutation, extra.Mutation);
  const absence = absenceResolvers(app);
  Object.assign(resolvers.Player, absence.Player);
  Object.assign(resolvers.Mutation, absence.Mutation);
  Object.assign(resolvers.Game, talk.Game);
  Object.assign(resolvers.Mutation, talk.Mutation);
  Object.assign(resolvers.Subscription, talk.Subscription);
  return {
    schema: buildSchema(games),
    resolvers,
    graphiql: opts.graphiql,
    // Our own depth limit, not mercurius' queryDepth: that one counts introspection too,
    // and refuses the standard introspection query every tool sends (15 deep).
    validationRules: [depthLimit(opts.queryDepth)],
    // Compile a query to JavaScript once it has been seen once (graphql-jit): the same few
    // queries come back on every turn.
    jit: 1,
    // Automatic persisted queries (Apollo's protocol): a bot that repeats one query sends
    // its sha256 in extensions.persistedQuery, the text only once per server process.
    persistedQueryProvider: mercurius.persistedQueryDefaults.automatic(1000),
    path: '/graphql',
    context: (request: FastifyRequest): Context => {
      // The request's one look-up of its token, shared with the rate limiter and refuseUnknownTokens.
      return { request, actor: () => requestActor(app, request) };
    },
    subscription: {
      // Refuse a wrong token at connection time; no token means a spectator.
      onConnect: async (data: { payload?: { authorization?: unknown } }) => {
        await actorFor(app, data.payload?.authorization);
        return true;
      },
      context: (): Context => ({ actor: () => Promise.resolve(SPECTATOR) }),
    },
    // Errors thrown before execution (rate limit, body size, unparseable queries) arrive here.
    errorHandler: (error: Error & { statusCode?: number }, request: FastifyRequest, reply: { code(n: number): { send(b: unknown): unknown } }) => {
      if (error.statusCode === 429 || error.statusCode === 413) {
        const code = error.statusCode === 429 ? 'RATE_LIMITED' : 'BAD_REQUEST';
        return reply.code(error.statusCode).send({ data: null, errors: [{ message: error.message, extensions: { code, ...retryAfter(error) } }] });
      }
      const { statusCode, response } = formatErrors({ errors: [new GraphQLError(error.message, { originalError: error })] }, { reply: { log: request.log } });
      return reply.code(statusCode).send(response);
    },
    errorFormatter: (execution: { data?: unknown; errors: readonly GraphQLError[] }, ctx: unknown) => formatErrors(execution, ctx),
  };
}

function formatErrors(execution: { data?: unknown; errors: readonly GraphQLError[] }, ctx: unknown) {
  const errors = (execution.errors ?? []).flatMap((error: GraphQLError) => {
    const inner = error.originalError as (Error & { errors?: GraphQLError[] }) | undefined;
    if (inner?.errors && Array.isArray(inner.errors)) return inner.errors.map((e) => toClientError(e, 'BAD_REQUEST', ctx));
    return [toClientError(error, undefined, ctx)];
  });
  // graphql-over-http: a request that could not run is a 400; one that ran answers 200.
  const ran = execution.data !== undefined && execution.data !== null;
  const code = (c: string) => errors.some((e) => e.extensions.code === c);
  // Unavailable is worth a retry whether or not part of the query ran: say so with 503.
  const status = code('UNAVAILABLE') ? 503 : ran ? 200 : code('INTERNAL') ? 500 : code('BAD_REQUEST') ? 400 : 200;
  return { statusCode: status, response: { data: execution.data ?? null, errors } };
}

/** Every error a client sees carries one of the stable codes; internals are never leaked. */
function toClientError(error: GraphQLError | Error, fallback: 'BAD_REQUEST' | undefined, ctx: unknown) {
  const gql = error as GraphQLError;
  const original = gql.originalError ?? (error instanceof GraphQLError ? undefined : error);
  const base = { message: error.message, ...(gql.locations ? { locations: gql.locations } : {}), ...(gql.path ? { path: gql.path } : {}) };
  if (original instanceof AppError) return { ...base, extensions: original.details };
  if (original && isUnavailable(original)) {
    return { ...base, message: 'The service cannot reach its database right now; retry shortly', extensions: { code: 'UNAVAILABLE' } };
  }
  if (original && (original as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return { ...base, extensions: { code: 'BAD_REQUEST' } };
  }
  if (!original || fallback || (original as { statusCode?: number }).statusCode === 400 || /^MER_ERR_GQL_(VALIDATION|QUERY_DEPTH)|^MER_ERR_INVALID/.test((original as { code?: string }).code ?? '')) {
    return { ...base, extensions: { code: 'BAD_REQUEST' } };
  }
  // A resolver crashed: log it, tell the client only that it was our fault.
  const log = (ctx as { reply?: { log: FastifyInstance['log'] }; app?: FastifyInstance }).reply?.log ?? (ctx as { app?: FastifyInstance }).app?.log;
  log?.error({ err: original }, 'resolver failed');
  return { ...base, message: 'Internal error', extensions: { code: 'INTERNAL' } };
}

