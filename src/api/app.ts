/**
 * Builds the HTTP server from a core (src/app/core.ts) and nothing else: GraphQL
 * (mercurius) and REST on one fastify instance, with CORS, rate limits, health checks,
 * OpenAPI docs and uniform errors. It runs no job: the workers are another role, started
 * by src/server.ts.
 */
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import underPressure from '@fastify/under-pressure';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import mercurius from 'mercurius';
import { hashToken } from '../app/actors.ts';
import type { Core } from '../app/core.ts';
import { AppError, isUnavailable, RETRY_AFTER_SECONDS } from '../app/errors.ts';
import { messageRoutes } from './rest-messages.ts';
import { notificationRoutes } from './rest-notifications.ts';
import { absenceRoutes } from './rest-absence.ts';
import { bearerToken, OPEN_ROUTES, refuseUnknownTokens, requestActor } from './auth.ts';
import { limitCost } from './cost.ts';
import { graphiqlRoutes } from './graphiql.ts';
import { graphqlOptions, retryAfter } from './graphql.ts';
import { mailRoutes } from './rest-mail.ts';
import { graphqlHttp, refuseSubscriptionsOverHttp } from './graphql-http.ts';
import { allowedMethods } from './http-semantics.ts';
import { swaggerOptions } from './openapi.ts';
import { observability, observeGraphql, REQUEST_ID_HEADER, requestId } from './observability.ts';
import { restRoutes } from './rest.ts';
import { securityHeaders, swaggerUiPolicy } from './security.ts';
import { verifyRoute } from './verify.ts';
import { webRoutes } from './web.ts';
import { DEFAULT_WEBSOCKET_LIMITS, registerWebSocket, withWebSocketLimits, type WebSocketLimits } from './websocket.ts';

export interface AppOptions {
  logger?: FastifyServerOptions['logger'];
  /** An existing pino logger to share (takes precedence over `logger`). */
  loggerInstance?: FastifyServerOptions['loggerInstance'];
  /** Requests per minute per seat token, or per address without one. */
  rateLimit?: number;
  /** Event-loop delay (ms) past which requests are answered 503 UNAVAILABLE (default 1000; 0: never). */
  maxEventLoopDelay?: number;
  /** How often the event-loop delay is measured, ms (default 1000). */
  pressureSampleInterval?: number;
  /** Largest request body in bytes. */
  bodyLimit?: number;
  /** Largest export POSTed to /api/games/verify, in bytes. */
  verifyBodyLimit?: number;
  /** Exports verified per minute per token or address (verify runs on a worker thread). */
  verifyRateLimit?: number;
  graphiql?: boolean;
  queryDepth?: number;
  /** Largest cost of a GraphQL operation (src/api/cost.ts). */
  costLimit?: number;
  corsOrigin?: string | boolean;
  /** fastify's trustProxy (TRUST_PROXY): whose X-Forwarded-For gives a client's address. */
  trustProxy?: boolean | number | string[];
  /** Subscription caps and the slow-consumer bounds of the WebSocket channel (websocket.ts). */
  websocket?: Partial<WebSocketLimits>;
  /** The bearer secret of POST /api/mail/inbound (MAIL_INBOUND_SECRET); none: the route answers 404. */
  mailInboundSecret?: string | null;
}

function errorPayload(request: { url: string }, code: string, message: string, extra: Record<string, unknown> = {}) {
  // /graphql clients read GraphQL errors; REST clients read { error }.
  return request.url.startsWith('/graphql')
    ? { data: null, errors: [{ message, extensions: { code, ...extra } }] }
    : { error: { code, message, ...extra } };
}

export type App = FastifyInstance & { core: Core };

export async function buildApp(core: Core, options: AppOptions = {}): Promise<App> {
  const app = Fastify({
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : { logger: options.logger ?? { level: 'info' } }),
    bodyLimit: options.bodyLimit ?? 256 * 1024,
    // Requests from clients that come and go: never hang on to a slow one forever.
    requestTimeout: 30_000,
    // On close, idle keep-alive connections go at once; a request in flight is let finish.
    forceCloseConnections: 'idle',
    // An incoming x-request-id is kept (and echoed, observability.ts), or one is made.
    genReqId: requestId,
    // Behind a reverse proxy every client would share the proxy's address (and its rate limit).
    trustProxy: (options.trustProxy ?? false) as boolean, // a number of hops works too (its types omit it)
  });
  // The core is the composition root's (src/server.ts): it opens and closes it, not this server.
  const application = core;
  observability(app);

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.code === 'UNAVAILABLE') reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      if (error.code === 'RATE_LIMITED' && typeof error.extra.retryAfter === 'number') reply.header('retry-after', String(error.extra.retryAfter));
      return reply.code(error.status).send(errorPayload(request, error.code, error.message, error.extra));
    }
    if (isUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply.code(503).header('retry-after', String(RETRY_AFTER_SECONDS)).send(errorPayload(request, 'UNAVAILABLE', 'The service cannot reach its database right now; retry shortly'));
    }
    const status = (error as FastifyError).statusCode ?? 500;
    if (status === 429) return reply.code(429).send(errorPayload(request, 'RATE_LIMITED', error.message, retryAfter(error)));
    if (status === 413) return reply.code(413).send(errorPayload(request, 'BAD_REQUEST', `The request body is larger than ${app.initialConfig.bodyLimit} bytes`));
    if (status >= 400 && status < 500) return reply.code(status === 415 ? 415 : 400).send(errorPayload(request, 'BAD_REQUEST', error.message));
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(errorPayload(request, 'INTERNAL', 'Internal error'));
  });
  // Every 503 says when to come back (GraphQL answers are built by mercurius).
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (reply.statusCode === 503 && !reply.hasHeader('retry-after')) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
    done(null, payload);
  });
  const allowed = allowedMethods(app);
  app.setNotFoundHandler((request, reply) => {
    const methods = allowed(request);
    if (methods) return reply.code(405).header('allow', methods.join(', ')).send(errorPayload(request, 'METHOD_NOT_ALLOWED', `${request.url.split('?')[0]} takes ${methods.join(', ')}, not ${request.method}`));
    return reply.code(404).send(errorPayload(request, 'NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}`));
  });

  await app.register(cors, {
    origin: options.corsOrigin ?? true,
    allowedHeaders: ['authorization', 'content-type', 'idempotency-key', 'if-match', REQUEST_ID_HEADER],
    exposedHeaders: [REQUEST_ID_HEADER, 'etag', 'link', 'allow', 'retry-after'],
  });
  await securityHeaders(app);
  // Saturation is answered, not suffered: past these limits a request gets 503 UNAVAILABLE
  // with Retry-After instead of waiting in a queue it would time out in.
  await app.register(underPressure, {
    maxEventLoopDelay: options.maxEventLoopDelay ?? 1_000,
    sampleInterval: options.pressureSampleInterval ?? 1_000,
    retryAfter: RETRY_AFTER_SECONDS,
    exposeStatusRoute: false,
    pressureHandler: (request, reply, type, value) => {
      // Liveness and metrics answer even so: a busy process is not a dead one.
      if (request.url === '/healthz' || request.url === '/metrics') return;
      reply
        .code(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send(errorPayload(request, 'UNAVAILABLE', `The service is saturated (${type} ${typeof value === 'number' ? Math.round(value) : value}); retry in ${RETRY_AFTER_SECONDS} s`));
    },
  });
  await app.register(rateLimit, {
    max: options.rateLimit ?? 600,
    timeWindow: 60_000,
    allowList: (req) => OPEN_ROUTES.has(req.url),
    // A token earns its own budget only once it is known to stand for someone: a made-up
    // token is counted under the address, and refused (refuseUnknownTokens).
    keyGenerator: async (req) => {
      try {
        const token = bearerToken(req.headers.authorization);
        if (token && (await requestActor(application, req)).kind !== 'spectator') return `token:${hashToken(token)}`;
      } catch {
        /* an unknown or malformed token: refused next, counted by address */
      }
      return `addr:${req.ip}`;
    },
    errorResponseBuilder: (_req, ctx) => Object.assign(new Error(`Too many requests: at most ${ctx.max} a minute; retry in ${Math.ceil(ctx.ttl / 1000)} s`), { statusCode: 429, retryAfter: Math.ceil(ctx.ttl / 1000) }),
  });
  refuseUnknownTokens(app, application);
  await app.register(swagger, swaggerOptions(core.registry.types()) as never);
  await app.register(swaggerUi, { routePrefix: '/docs', transformStaticCSP: swaggerUiPolicy });

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    const ready = await core.readiness();
    if (ready.ready) return { status: 'ready' };
    return reply.code(503).send({ status: ready.status, ...(ready.error ? { error: ready.error } : {}) });
  });

  await app.register(restRoutes, { application });
  await app.register(notificationRoutes, { application });
  await app.register(absenceRoutes, { application });
  await app.register(messageRoutes, { application });
  await app.register(mailRoutes, { application, secret: options.mailInboundSecret ?? null });
  // An export of a long game is far larger than any command: its own body limit.
  await app.register(verifyRoute, { verify: core.verify.body, bodyLimit: options.verifyBodyLimit ?? 64 * 1024 * 1024, rateLimit: options.verifyRateLimit ?? 10 });
  graphqlHttp(app);
  await registerWebSocket(app);
  // mercurius' own GraphiQL page loads its scripts from a CDN: ours serves them (graphiql.ts).
  await app.register(mercurius, withWebSocketLimits(graphqlOptions(application, { graphiql: false, queryDepth: options.queryDepth ?? 12, verifyRateLimit: options.verifyRateLimit ?? 10 }), application, { ...DEFAULT_WEBSOCKET_LIMITS, ...options.websocket }) as never);
  // Before observeGraphql's hook: a query refused for its cost is recorded as refused.
  limitCost(app, options.costLimit);
  observeGraphql(app);
  refuseSubscriptionsOverHttp(app);
  if (options.graphiql) await app.register(graphiqlRoutes);

  await app.register(webRoutes);
  app.decorate('core', core);
  return app as unknown as App;
}

