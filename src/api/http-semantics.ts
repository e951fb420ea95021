/**
 * HTTP's own conventions on the REST routes: 405 with Allow for a method a path does not
 * take, a game's version as its ETag, and If-Match as expectedVersion (412 when it is not
 * the current version).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../app/errors.ts';

/** The methods each route pattern takes, to tell a wrong method (405) from a wrong path (404). */
export function allowedMethods(app: FastifyInstance): (request: FastifyRequest) => string[] | null {
  const routes: { method: string; path: RegExp }[] = [];
  app.addHook('onRoute', (route) => {
    if (route.url.includes('*')) return; // catch-alls (CORS preflights, static files) say nothing of a path
    const path = new RegExp(`^${route.url.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[^/]+/g, '[^/]+')}/?$`);
    for (const method of [route.method].flat()) routes.push({ method, path });
  });
  return (request) => {
    const path = request.url.split('?')[0]!;
    const methods = [...new Set(routes.filter((r) => r.path.test(path)).map((r) => r.method))];
    return methods.length && !methods.includes(request.method) ? methods.sort() : null;
  };
}

/** A game's version as a strong entity tag. */
export const versionTag = (version: number) => `"${version}"`;

/** The version an If-Match header names (undefined: no header, or `*`, which any existing game matches). */
export function ifMatchVersion(header: unknown): number | undefined {
  if (header === undefined || header === '*') return undefined;
  const match = typeof header === 'string' ? /^\s*(?:W\/)?"(\d{1,10})"\s*$/.exec(header) : null;
  if (!match) throw new AppError('BAD_REQUEST', 'If-Match must be one ETag of this game, e.g. "7" (its version), or *');
  return Number(match[1]);
}

/** The expected version of a command: the body's, or If-Match's (which must agree when both are given). */
export function expectedVersion(ifMatch: unknown, body: number | undefined): { expectedVersion: number | undefined; fromHeader: boolean } {
  const matched = ifMatchVersion(ifMatch);
  if (matched !== undefined && body !== undefined && body !== matched) throw new AppError('BAD_REQUEST', `If-Match names version ${matched} and expectedVersion ${body}: send one, or the same`);
  return { expectedVersion: body ?? matched, fromHeader: matched !== undefined };
}

/**
 * Runs a command whose expected version may come from If-Match: a mismatch is then HTTP's
 * 412 PRECONDITION_FAILED (with the current version and its ETag), not the body's 409.
 */
export async function withIfMatch<T>(reply: FastifyReply, fromHeader: boolean, run: () => Promise<T>): Promise<T | FastifyReply> {
  try {
    return await run();
  } catch (error) {
    if (!fromHeader || !(error instanceof AppError) || error.code !== 'VERSION_CONFLICT') throw error;
    const current = error.extra.currentVersion;
    if (typeof current === 'number') reply.header('etag', versionTag(current));
    return reply.code(412).send({ error: { code: 'PRECONDITION_FAILED', message: `If-Match does not match: ${error.message}`, currentVersion: current } });
  }
}
