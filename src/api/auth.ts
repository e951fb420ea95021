/**
 * Bearer tokens: `Authorization: Bearer <token>` (over WebSocket, `authorization` in the
 * connection_init payload). No header: a spectator. The application decides what the
 * token stands for.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../app/actors.ts';
import type { Core } from '../app/core.ts';
import { AppError } from '../app/errors.ts';

export function bearerToken(header: unknown): string | null {
  if (header === undefined || header === null || header === '') return null;
  if (typeof header !== 'string') throw new AppError('UNAUTHENTICATED', 'The Authorization header must be "Bearer <seat token>"');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new AppError('UNAUTHENTICATED', 'The Authorization header must be "Bearer <seat token>"');
  return match[1]!;
}

export function actorFor(app: Core, header: unknown): Promise<Actor> {
  return app.authenticate(bearerToken(header));
}

/** Routes that answer whoever asks, token or not (probes and scrapers). */
/** Routes that take no player or seat token (the mail route checks its own secret). */
export const OPEN_ROUTES = new Set(['/healthz', '/readyz', '/metrics', '/api/mail/inbound']);

const actors = new WeakMap<FastifyRequest, Promise<Actor>>();

/** The actor of a request's Authorization header, looked up once per request. */
export function requestActor(app: Core, request: FastifyRequest): Promise<Actor> {
  let actor = actors.get(request);
  if (!actor) {
    actor = actorFor(app, request.headers.authorization);
    actor.catch(() => {}); // awaited by whoever needs it; never an unhandled rejection
    actors.set(request, actor);
  }
  return actor;
}

/**
 * A token that stands for nothing is refused on every route and channel (UNAUTHENTICATED),
 * whatever the route would do without one; registered after the rate limiter, which counts
 * such a request under its address.
 */
export function refuseUnknownTokens(app: FastifyInstance, application: Core) {
  const refuse = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.headers.authorization === undefined) return;
    try {
      await requestActor(application, request);
    } catch (error) {
      // mercurius would answer a refusal before execution with 200: this one is a 401.
      if (!(error instanceof AppError) || !request.url.startsWith('/graphql')) throw error;
      return reply.code(error.status).send({ data: null, errors: [{ message: error.message, extensions: error.details }] });
    }
  };
  // A route's own hook, after the rate limiter's (which is one too), so the request is counted first.
  app.addHook('onRoute', (route) => {
    if (OPEN_ROUTES.has(route.url)) return;
    const own = route.onRequest;
    route.onRequest = [...(Array.isArray(own) ? own : own ? [own] : []), refuse] as typeof route.onRequest;
  });
}
