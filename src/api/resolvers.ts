/**
 * A small typed resolver map for the GraphQL schema (graphql.ts): the arguments of every
 * field that takes some, written as the SDL writes them, and the TypeScript types that
 * follow from them (a nullable argument may be absent or null). test/api/resolvers.test.ts
 * holds FIELD_ARGS to the schema, and every resolver to a field of it.
 */
import type { GameRead } from '../app/game-read.ts';
import type { PlayerOut } from '../app/players.ts';
import type { WebhookOut } from '../app/notifications.ts';

export const FIELD_ARGS = {
  Query: {
    game: { id: 'ID!' },
    games: { filter: 'GamesFilter', first: 'Int', after: 'String' },
    openGames: { type: 'String', first: 'Int', after: 'String' },
    invitation: { code: 'String!' },
    exportGame: { id: 'ID!' },
  },
  Game: {
    view: { atVersion: 'Int' },
    events: { after: 'Int', first: 'Int' },
    messages: { first: 'Int', after: 'ID' },
  },
  Player: {
    games: { filter: 'GamesFilter', first: 'Int', after: 'String' },
  },
  Mutation: {
    createGame: { input: 'CreateGameInput!' },
    submitCommand: { gameId: 'ID!', command: 'JSON', notation: 'String', expectedVersion: 'Int', idempotencyKey: 'String', seat: 'String' },
    submitCommands: { gameId: 'ID!', commands: '[JSON!]', notations: '[String!]', expectedVersion: 'Int', idempotencyKey: 'String', seat: 'String' },
    resign: { gameId: 'ID!', seat: 'String' },
    verifyExport: { export: 'JSON!' },
    registerPlayer: { input: 'RegisterPlayerInput!' },
    updatePlayer: { input: 'UpdatePlayerInput!' },
    verifyEmail: { code: 'String!' },
    createPlayerToken: { name: 'String!' },
    revokePlayerToken: { id: 'ID!' },
    joinGame: { gameId: 'ID!', seat: 'String', name: 'String', inviteCode: 'String' },
    leaveGame: { gameId: 'ID!' },
    cancelGame: { gameId: 'ID!' },
    createWebhook: { input: 'CreateWebhookInput!' },
    deleteWebhook: { id: 'ID!' },
    sendMessage: { gameId: 'ID!', text: 'String!', to: '[String!]', seat: 'String' },
    setAbsence: { input: 'AbsenceInput!' },
    cancelAbsence: { id: 'ID!' },
  },
  Webhook: {
    deliveries: { first: 'Int' },
  },
  Subscription: {
    gameEvents: { gameId: 'ID!', afterVersion: 'Int' },
    seatsChanged: { gameId: 'ID!' },
    gameMessages: { gameId: 'ID!' },
  },
} as const;

/** The input types, as graphql-js hands them to a resolver. */
interface Inputs {
  GamesFilter: { type?: string | null; status?: 'SETUP' | 'ACTIVE' | 'FINISHED' | 'ABANDONED' | null; myTurn?: boolean | null };
  CreateGameInput: {
    type: string;
    options?: unknown;
    seats: { seat: string; name?: string | null; me?: boolean | null; open?: boolean | null; bot?: string | null }[];
    visibility?: 'PUBLIC' | 'PRIVATE' | null;
  };
  RegisterPlayerInput: { name: string; email?: string | null };
  UpdatePlayerInput: { name?: string | null; email?: string | null; notifyByEmail?: boolean | null; emailDigest?: boolean | null };
  CreateWebhookInput: { url: string; events: string[]; gameId?: string | null };
}

type Named<N> = N extends `[${infer I}!]` ? Named<I>[] : N extends 'ID' | 'String' ? string : N extends 'Int' | 'Float' ? number : N extends 'Boolean' ? boolean : N extends 'JSON' ? unknown : N extends keyof Inputs ? Inputs[N] : never;
type Spec = Record<string, string>;
type Required<S extends Spec> = { [K in keyof S as S[K] extends `${string}!` ? K : never]: S[K] extends `${infer N}!` ? Named<N> : never };
type Optional<S extends Spec> = { [K in keyof S as S[K] extends `${string}!` ? never : K]?: Named<S[K]> | null };

type Fields = typeof FIELD_ARGS;
/** The arguments a resolver of `Type.field` receives. */
export type ArgsOf<T extends keyof Fields, F extends keyof Fields[T]> = Fields[T][F] extends Spec ? Required<Fields[T][F]> & Optional<Fields[T][F]> : never;

/** What each type's resolvers receive as their parent. */
interface Parents {
  Query: unknown;
  Mutation: unknown;
  Subscription: unknown;
  Game: GameRead;
  Player: PlayerOut;
  Webhook: WebhookOut;
}

type FieldResolver<P, A, C> = (parent: P, args: A, context: C) => unknown;

/**
 * The resolver map: every field with arguments gets them typed; other fields of these types
 * and the other types' resolvers (unions, interfaces) are free-form.
 */
export type Resolvers<C> = {
  [T in keyof Fields]: {
    [F in keyof Fields[T]]?:
      | FieldResolver<Parents[T], ArgsOf<T, F>, C>
      | { subscribe: FieldResolver<Parents[T], ArgsOf<T, F>, C>; resolve?: (payload: never) => unknown };
  } & { [field: string]: FieldResolver<Parents[T], Record<string, never>, C> | object | undefined };
} & { [type: string]: Record<string, unknown> };
