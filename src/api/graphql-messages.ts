/**
 * The GraphQL part of messages between players (docs/api.md, "Messages between players"):
 * sendMessage, Game.messages and the gameMessages subscription. Merged into the schema by
 * src/api/graphql.ts; it only translates: every resolver calls the core.
 */
import type { Actor } from '../app/actors.ts';
import type { Core } from '../app/core.ts';
import type { GameRead } from '../app/game-read.ts';
import { actorFor } from './auth.ts';

export const messageSchema = /* GraphQL */ `
  "A message between players: to null, everyone in the game; else only the seats named (and the sender) may read it"
  type Message { id: ID! "the sender's seat" from: String! to: [String!] "as written: plain text, never markup" text: String! at: String! }
  extend type Game {
    "the messages you may read (public ones; private ones sent by or to your seat), oldest first; after: the id of the last one you have"
    messages(first: Int, after: ID): [Message!]!
  }
  extend type Mutation {
    "from a seat of the game (seat: for a player holding several); to: the seats to write to privately, absent: everyone"
    sendMessage(gameId: ID!, text: String!, to: [String!], seat: String): Message!
  }
  extend type Subscription {
    "every message you may read sent after you subscribe, each once and in order"
    gameMessages(gameId: ID!): Message!
  }
`;

interface Context {
  actor: () => Promise<Actor>;
  request?: { headers?: { authorization?: unknown } };
  _connectionInit?: Record<string, unknown>;
}

export function messageResolvers(app: Core) {
  return {
    Game: {
      messages: async (g: GameRead, args: { first?: number | null; after?: string | null }, ctx: Context) => app.messages.list(await ctx.actor(), g.id, args),
    },
    Mutation: {
      sendMessage: async (_: unknown, args: { gameId: string; text: string; to?: string[] | null; seat?: string | null }, ctx: Context) => app.messages.send(await ctx.actor(), args.gameId, args),
    },
    Subscription: {
      gameMessages: {
        subscribe: async (_: unknown, args: { gameId: string }, ctx: Context) => {
          const actor = await actorFor(app, ctx._connectionInit?.authorization ?? ctx.request?.headers?.authorization);
          return app.messages.feed(actor, args.gameId);
        },
        resolve: (message: unknown) => message,
      },
    },
  };
}
