/**
 * Builds the HTTP server: GraphQL (mercurius) and REST on one fastify instance, with
 * CORS, rate limits, health checks, OpenAPI docs and uniform errors.
 */
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import mercurius from 'mercurius';
import { GameRegistry, type GameModule } from '../domain/kernel/index.ts';
import type { Database } from '../persistence/database.ts';
import { EventStore } from '../persistence/event-store.ts';
import { listMigrations, migrationsApplied } from '../persistence/migrate.ts';
import { trackPool } from '../metrics.ts';
import { bearerToken } from './auth.ts';
import { ApiError } from './errors.ts';
import { domainFingerprint } from './fingerprint.ts';
import { graphiqlRoutes } from './graphiql.ts';
import { graphqlOptions } from './graphql.ts';
import { Notifier } from './notifier.ts';
import { observability, observeGraphql, REQUEST_ID_HEADER, requestId } from './observability.ts';
import { restRoutes } from './rest.ts';
import { GameService, hashToken } from './service.ts';

export interface AppOptions {
  database: Database;
  games: GameModule[];
  logger?: FastifyServerOptions['logger'];
  /** An existing pino logger to share (takes precedence over `logger`). */
  loggerInstance?: FastifyServerOptions['loggerInstance'];
  /** Requests per minute per seat token, or per address without one. */
  rateLimit?: number;
  /** Largest request body in bytes. */
  bodyLimit?: number;
  /** Largest export POSTed to /api/games/verify, in bytes. */
  verifyBodyLimit?: number;
  graphiql?: boolean;
  queryDepth?: number;
  corsOrigin?: string | boolean;
  /** Tags snapshots; default: a fingerprint of src/domain. */
  rulesFingerprint?: string;
}

function errorPayload(request: { url: string }, code: string, message: string, extra: Record<string, unknown> = {}) {
  // /graphql clients read GraphQL errors; REST clients read { error }.
  return request.url.startsWith('/graphql')
    ? { data: null, errors: [{ message, extensions: { code, ...extra } }] }
    : { error: { code, message, ...extra } };
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance & { service: GameService }> {
  const app = Fastify({
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : { logger: options.logger ?? { level: 'info' } }),
    bodyLimit: options.bodyLimit ?? 256 * 1024,
    // Requests from clients that come and go: never hang on to a slow one forever.
    requestTimeout: 30_000,
    forceCloseConnections: true,
    // An incoming x-request-id is kept (and echoed, observability.ts), or one is made.
    genReqId: requestId,
  });
  const store = new EventStore(options.database.prisma);
  const service = new GameService(store, new GameRegistry(options.games), options.rulesFingerprint ?? domainFingerprint());
  const notifier = new Notifier(options.database.url, (msg) => app.log.warn(msg));
  await notifier.start();
  app.addHook('onClose', async () => notifier.close()); // mercurius does not close what it did not open
  const untrack = [trackPool('queries', options.database.queryPool), trackPool('notify', options.database.pool)];
  app.addHook('onClose', async () => {
    for (const off of untrack) off();
  });
  observability(app);

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) return reply.code(error.status).send(errorPayload(request, error.code, error.message, error.extra));
    const status = (error as FastifyError).statusCode ?? 500;
    if (status === 429) return reply.code(429).send(errorPayload(request, 'RATE_LIMITED', error.message));
    if (status === 413) return reply.code(413).send(errorPayload(request, 'BAD_REQUEST', `The request body is larger than ${app.initialConfig.bodyLimit} bytes`));
    if (status >= 400 && status < 500) return reply.code(status === 415 ? 415 : 400).send(errorPayload(request, 'BAD_REQUEST', error.message));
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(errorPayload(request, 'INTERNAL', 'Internal error'));
  });
  app.setNotFoundHandler((request, reply) => reply.code(404).send(errorPayload(request, 'NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}`)));

  await app.register(cors, {
    origin: options.corsOrigin ?? true,
    allowedHeaders: ['authorization', 'content-type', 'idempotency-key', REQUEST_ID_HEADER],
    exposedHeaders: [REQUEST_ID_HEADER],
  });
  await app.register(rateLimit, {
    max: options.rateLimit ?? 600,
    timeWindow: 60_000,
    allowList: (req) => req.url === '/healthz' || req.url === '/readyz' || req.url === '/metrics',
    keyGenerator: (req) => {
      let token: string | null = null;
      try {
        token = bearerToken(req.headers.authorization);
      } catch {
        /* refused later, counted by address */
      }
      return token ? `seat:${hashToken(token)}` : `addr:${req.ip}`;
    },
    errorResponseBuilder: (_req, ctx) => Object.assign(new Error(`Too many requests: at most ${ctx.max} a minute; retry in ${Math.ceil(ctx.ttl / 1000)} s`), { statusCode: 429 }),
  });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Wargame service', version: '0.1.0', description: 'REST mirror of the GraphQL API at /graphql: the same operations, error codes and seat tokens (Authorization: Bearer <token>).' },
      components: { securitySchemes: { seatToken: { type: 'http', scheme: 'bearer' } } },
    },
    hideUntagged: true,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  // The migration files do not change while the process runs: read them once, not per probe.
  const migrations = listMigrations().map((m) => m.name);
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    try {
      const ok = await migrationsApplied(async (sql) => (await options.database.pool.query(sql)).rows, migrations);
      if (!ok) return reply.code(503).send({ status: 'migrations pending' });
      return { status: 'ready' };
    } catch (error) {
      return reply.code(503).send({ status: 'database unreachable', error: (error as Error).message });
    }
  });

  await app.register(restRoutes, { service, verifyBodyLimit: options.verifyBodyLimit ?? 64 * 1024 * 1024 });
  // mercurius' own GraphiQL page loads its scripts from a CDN: ours serves them (graphiql.ts).
  await app.register(mercurius, graphqlOptions(service, notifier, { graphiql: false, queryDepth: options.queryDepth ?? 12 }) as never);
  observeGraphql(app);
  if (options.graphiql) await app.register(graphiqlRoutes);

  app.decorate('service', service);
  return app as unknown as FastifyInstance & { service: GameService };
}

