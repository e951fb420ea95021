/**
 * The GraphQL part of notifications (docs/api.md, "Notifications"): webhooks on `me`,
 * createWebhook and deleteWebhook. Merged into the schema by src/api/graphql.ts; it only
 * translates: every resolver calls the application layer.
 */
import type { Actor } from '../app/actors.ts';
import type { Core } from '../app/core.ts';
import type { PlayerOut } from '../app/players.ts';
import type { WebhookOut } from '../app/notifications.ts';

export const notificationSchema = /* GraphQL */ `
  enum WebhookEvent { YOUR_TURN GAME_STARTED GAME_OVER EVENT_APPENDED DEADLINE_SOON SEAT_HANDED_TO_BOT MESSAGE }
  "PENDING: to be tried (again); DELIVERED: a 2xx came back; FAILED: every attempt failed; CANCELLED: its webhook was disabled"
  enum DeliveryStatus { PENDING DELIVERED FAILED CANCELLED }
  type WebhookDelivery {
    "the webhook-id header: the same on every attempt"
    id: ID!
    event: WebhookEvent!
    status: DeliveryStatus!
    attempts: Int!
    lastError: String
    at: String!
    gameId: ID!
    version: Int!
    seat: String
  }
  type Webhook {
    id: ID!
    url: String!
    events: [WebhookEvent!]!
    "null: every game of yours"
    gameId: ID
    "false once it kept failing (see disabledReason)"
    enabled: Boolean!
    disabledReason: String
    createdAt: String!
    "newest first"
    deliveries(first: Int): [WebhookDelivery!]!
  }
  type CreateWebhookPayload { webhook: Webhook! "whsec_<base64>: shown once; verify deliveries with it (Standard Webhooks)" secret: String! }
  "gameId: one game of yours; none: all your games"
  input CreateWebhookInput { url: String! events: [WebhookEvent!]! gameId: ID }
  extend type Player { webhooks: [Webhook!]! }
  extend type Mutation {
    createWebhook(input: CreateWebhookInput!): CreateWebhookPayload!
    deleteWebhook(id: ID!): Boolean!
  }
`;

interface Context {
  actor: () => Promise<Actor>;
}

export function notificationResolvers(app: Core) {
  const notifications = () => app.notifications;
  return {
    Player: {
      webhooks: (p: PlayerOut) => notifications().webhooks(p.id),
    },
    Webhook: {
      deliveries: (w: WebhookOut, args: { first?: number | null }) => notifications().deliveries(w.id, args.first ?? 20),
    },
    Mutation: {
      createWebhook: async (_: unknown, args: { input: { url: string; events: string[]; gameId?: string | null } }, ctx: Context) => notifications().createWebhook(await ctx.actor(), args.input),
      deleteWebhook: async (_: unknown, args: { id: string }, ctx: Context) => notifications().deleteWebhook(await ctx.actor(), args.id),
    },
  };
}
