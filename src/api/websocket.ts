/**
 * The WebSocket channel (graphql-transport-ws on /graphql, served by mercurius), bounded and
 * honest about why it closes:
 * - a token that stands for nobody closes the connection with 4403 and the reason (the
 *   protocol's "Forbidden"), not a `connection_error` message the protocol does not have;
 * - subscriptions are capped per connection and per token (per address without one), and
 *   subscribing is rate limited per connection: past a cap the subscription gets an error
 *   RATE_LIMITED and the connection stays;
 * - a client that does not read what it is sent is a slow consumer: what the server holds
 *   for it is bounded (the feed waits for the consumer, src/app/feed.ts; ws's own buffer is
 *   watched here) and past the bound the connection is closed with 1008 and the reason;
 * - a player token revoked on any process closes its connections here with 4403 at once
 *   (the revocation's NOTIFY reaches every process; after a lost notification connection,
 *   every token still served is checked again);
 * - on shutdown every connection is closed with 1001 "server shutting down" (registerWebSocket).
 */
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { hashToken } from '../app/actors.ts';
import type { Core } from '../app/core.ts';
import { AppError, isUnavailable } from '../app/errors.ts';
import { bearerToken } from './auth.ts';

export interface WebSocketLimits {
  /** Open subscriptions on one connection. */
  perConnection: number;
  /** Open subscriptions of one token (of one address without a token), on this process. */
  perToken: number;
  /** Subscriptions started on one connection in a minute. */
  startsPerMinute: number;
  /** Bytes ws may hold unsent for one connection before it is closed as a slow consumer. */
  maxBuffered: number;
  /** How long a message may wait for the client to read it before the connection is closed as a slow consumer, ms. */
  slowConsumerMs: number;
}

export const DEFAULT_WEBSOCKET_LIMITS: WebSocketLimits = {
  perConnection: 20,
  perToken: 100,
  startsPerMinute: 120,
  maxBuffered: 4 * 1024 * 1024,
  slowConsumerMs: 30_000,
};

/** Close codes: graphql-transport-ws' Forbidden, and the standard ones. */
export const CLOSE = { forbidden: 4403, policy: 1008, tryAgainLater: 1013, goingAway: 1001 } as const;

/** How long a client has on shutdown to answer the close frame before its connection is cut, ms. */
const SHUTDOWN_CLOSE_MS = 1_000;

/** A close reason is at most 123 bytes. */
const reason = (text: string) => (Buffer.byteLength(text) <= 123 ? text : `${Buffer.from(text).subarray(0, 120).toString().replace(/\uFFFD+$/, '')}...`);

interface Connection {
  socket: WebSocket;
  /** token:<hash> or addr:<ip>: whose subscriptions these count as. */
  key: string;
  open: number;
  starts: number[];
}

type Subscribe = (root: unknown, args: unknown, ctx: { connection?: Connection }, info: unknown) => Promise<AsyncIterator<unknown> & AsyncIterable<unknown>>;

interface MercuriusOptions {
  resolvers: { Subscription?: Record<string, { subscribe: Subscribe }> };
  subscription?: Record<string, unknown>;
}

/**
 * Wraps the mercurius options of graphql.ts: the connection's authentication and every
 * subscription resolver get the limits above.
 */
export function withWebSocketLimits<T>(options: T, application: Core, limits: WebSocketLimits = DEFAULT_WEBSOCKET_LIMITS): T {
  const opts = options as unknown as MercuriusOptions;
  const byKey = new Map<string, number>();
  /** The open connections of each token (token:<hash>), to end them when it is revoked. */
  const sockets = new Map<string, Set<{ socket: WebSocket; token: string }>>();
  const forbid = (socket: WebSocket, why: string) => {
    if (socket.readyState !== socket.OPEN) return;
    socket.close(CLOSE.forbidden, reason(`Forbidden: ${why}`));
  };
  application.players?.onTokenRevoked((hash) => {
    if (hash !== null) {
      for (const { socket } of sockets.get(`token:${hash}`) ?? []) forbid(socket, 'this token was revoked');
      return;
    }
    for (const set of sockets.values()) {
      for (const { socket, token } of set) {
        application.authenticate(token).catch((error) => {
          if (error instanceof AppError && error.code === 'UNAUTHENTICATED') forbid(socket, 'this token was revoked');
        });
      }
    }
  });

  const closeSlow = (socket: WebSocket, why: string) => {
    if (socket.readyState !== socket.OPEN) return;
    socket.close(CLOSE.policy, reason(`slow consumer: ${why}`));
    // The close frame waits behind what the client has not read: do not wait for it long.
    setTimeout(() => socket.terminate(), 5_000).unref();
  };

  /** Watches what ws holds for the client: each message must be taken in time, the total stay bounded. */
  const watch = (socket: WebSocket) => {
    const send = socket.send.bind(socket) as (data: unknown, options?: unknown, cb?: (err?: Error) => void) => void;
    (socket as unknown as { send: typeof send }).send = (data, options, cb) => {
      const done = typeof options === 'function' ? (options as (err?: Error) => void) : cb;
      const timer = setTimeout(() => closeSlow(socket, `a message went unread for ${Math.round(limits.slowConsumerMs / 1000)} s`), limits.slowConsumerMs);
      timer.unref();
      send(data, typeof options === 'function' ? undefined : options, (err) => {
        clearTimeout(timer);
        done?.(err);
      });
      if (socket.bufferedAmount > limits.maxBuffered) closeSlow(socket, `more than ${limits.maxBuffered} bytes unread`);
    };
  };

  const subscription = opts.subscription ?? {};
  opts.subscription = {
    ...subscription,
    // mercurius calls onConnect as a method of the connection, which holds the socket.
    onConnect: async function (this: { socket?: WebSocket; context?: { request?: FastifyRequest } } | undefined, data: { payload?: { authorization?: unknown } }) {
      const socket = this?.socket;
      const header = data.payload?.authorization;
      let key: string;
      let token: string | null;
      try {
        const actor = await application.authenticate(bearerToken(header));
        token = bearerToken(header);
        key = token && actor.kind !== 'spectator' ? `token:${hashToken(token)}` : `addr:${this?.context?.request?.ip ?? 'unknown'}`;
      } catch (error) {
        if (!socket) throw error;
        if (error instanceof AppError && error.code === 'UNAUTHENTICATED') socket.close(CLOSE.forbidden, reason(`Forbidden: ${error.message}`));
        else if (isUnavailable(error)) socket.close(CLOSE.tryAgainLater, 'The service cannot reach its database right now; retry shortly');
        else throw error;
        return false;
      }
      if (!socket) return true;
      watch(socket);
      if (token && key.startsWith('token:')) {
        const entry = { socket, token };
        let set = sockets.get(key);
        if (!set) sockets.set(key, (set = new Set()));
        set.add(entry);
        socket.once('close', () => {
          set.delete(entry);
          if (set.size === 0 && sockets.get(key) === set) sockets.delete(key);
        });
      }
      const connection: Connection = { socket, key, open: 0, starts: [] };
      return { connection };
    },
  };

  for (const field of Object.values(opts.resolvers.Subscription ?? {})) {
    const subscribe = field.subscribe;
    field.subscribe = async (root, args, ctx, info) => {
      const connection = ctx.connection;
      if (!connection) return subscribe(root, args, ctx, info);
      const now = Date.now();
      connection.starts = connection.starts.filter((t) => now - t < 60_000);
      if (connection.starts.length >= limits.startsPerMinute) throw new AppError('RATE_LIMITED', `At most ${limits.startsPerMinute} subscriptions a minute on one connection`);
      if (connection.open >= limits.perConnection) throw new AppError('RATE_LIMITED', `At most ${limits.perConnection} open subscriptions on one connection`);
      if ((byKey.get(connection.key) ?? 0) >= limits.perToken) {
        throw new AppError('RATE_LIMITED', `At most ${limits.perToken} open subscriptions per ${connection.key.startsWith('token:') ? 'token' : 'address'}`);
      }
      connection.starts.push(now);
      connection.open++;
      byKey.set(connection.key, (byKey.get(connection.key) ?? 0) + 1);
      let held = true;
      const release = () => {
        if (!held) return;
        held = false;
        connection.open--;
        const left = (byKey.get(connection.key) ?? 1) - 1;
        if (left > 0) byKey.set(connection.key, left);
        else byKey.delete(connection.key);
      };
      let feed: AsyncIterator<unknown>;
      try {
        feed = await subscribe(root, args, ctx, info);
      } catch (error) {
        release();
        throw error;
      }
      const tracked: AsyncIterableIterator<unknown> = {
        next: () =>
          feed.next().then(
            (r) => {
              if (r.done) release();
              return r;
            },
            (error) => {
              release();
              throw error;
            },
          ),
        return: (value?: unknown) => {
          release();
          return feed.return ? feed.return(value) : Promise.resolve({ value: undefined, done: true });
        },
        throw: (error?: unknown) => {
          release();
          return feed.throw ? feed.throw(error) : Promise.reject(error);
        },
        [Symbol.asyncIterator]() {
          return tracked;
        },
      };
      return tracked;
    };
  }
  return options;
}

/**
 * @fastify/websocket, registered before mercurius (which then uses it rather than register
 * its own) so that on shutdown every connection is told why it closes, rather than the
 * plugin's default close with no code.
 */
export async function registerWebSocket(app: FastifyInstance) {
  await app.register(websocket, {
    options: { maxPayload: 1024 * 1024 }, // mercurius' own choice
    preClose(this: FastifyInstance, done: () => void) {
      const clients = [...this.websocketServer.clients];
      for (const client of clients) {
        if (client.readyState === client.OPEN) client.close(CLOSE.goingAway, 'server shutting down');
      }
      // A client that never answers the close frame would hold the HTTP server (and the
      // shutdown) until the grace period ends (issue 24 §8): a moment, then cut.
      const cut = setTimeout(() => {
        for (const client of clients) client.terminate();
      }, SHUTDOWN_CLOSE_MS);
      void Promise.all(clients.map((client) => (client.readyState === client.CLOSED ? null : new Promise((resolve) => client.once('close', resolve))))).then(() => {
        clearTimeout(cut);
        this.websocketServer.close();
        done();
      });
    },
  });
}
