/**
 * GraphQL over HTTP, checked before mercurius sees the request, so that a client's mistake
 * is a 400 (or 415) BAD_REQUEST saying what is wrong rather than a crash inside the
 * executor: the media type (JSON, or mercurius' application/graphql), the request's shape
 * (`query` a string, `variables` and `extensions` objects, `operationName` a string), and
 * subscriptions, which run over WebSocket only.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { getOperationAST, type DocumentNode } from 'graphql';
import { AppError } from '../app/errors.ts';

const PATH = '/graphql';
const MEDIA_TYPES = ['application/json', 'application/graphql'];

function refuse(reply: FastifyReply, status: number, message: string) {
  return reply.code(status).send({ data: null, errors: [{ message, extensions: { code: 'BAD_REQUEST' } }] });
}

const isGraphqlPost = (request: FastifyRequest) => request.method === 'POST' && (request.url === PATH || request.url.split('?')[0] === PATH);

/** What is wrong with a GraphQL request's parameters, or null. */
function shapeProblem(body: unknown): string | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'A GraphQL request is a JSON object { "query": "...", "variables": {...}, "operationName": "..." }';
  const { query, variables, operationName, extensions } = body as Record<string, unknown>;
  // An automatic persisted query may send only its hash (extensions.persistedQuery).
  const persisted = extensions && typeof extensions === 'object' && 'persistedQuery' in extensions;
  if (typeof query !== 'string' && !(query === undefined && persisted)) return `"query" must be a string holding a GraphQL document (got ${query === undefined ? 'nothing' : JSON.stringify(query)?.slice(0, 40)})`;
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) return '"variables" must be an object of variable values';
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return '"operationName" must be a string';
  if (extensions !== undefined && extensions !== null && (typeof extensions !== 'object' || Array.isArray(extensions))) return '"extensions" must be an object';
  return null;
}

/** Registered before mercurius: refuses what it would otherwise answer with INTERNAL. */
export function graphqlHttp(app: FastifyInstance) {
  // Callback hooks (no promise a request): they run on every request of every route.
  app.addHook('onRequest', (request, reply, done) => {
    if (!isGraphqlPost(request)) return done();
    const header = request.headers['content-type'];
    // The usual header as it comes, without splitting it.
    const type = header === 'application/json' ? header : (header ?? '').split(';')[0]!.trim().toLowerCase();
    if (!MEDIA_TYPES.includes(type)) {
      refuse(reply, 415, `POST /graphql takes a JSON body (Content-Type: application/json), not ${type ? `"${type}"` : 'a body without a Content-Type'}`);
      return;
    }
    done();
  });
  app.addHook('preValidation', (request, reply, done) => {
    if (!isGraphqlPost(request)) return done();
    const problem = shapeProblem(request.body);
    if (problem) {
      refuse(reply, 400, problem);
      return;
    }
    done();
  });
}

/** Registered once mercurius is: a subscription asked over HTTP is refused before it runs. */
export function refuseSubscriptionsOverHttp(app: FastifyInstance) {
  const graphql = (app as unknown as { graphql: { addHook: (name: string, hook: (...args: never[]) => unknown) => void } }).graphql;
  // Per parsed document (mercurius hands the same object to each request with the same text) and operation name.
  const kinds = new WeakMap<DocumentNode, Map<string | undefined, string | undefined>>();
  graphql.addHook('preExecution', (async (_schema: unknown, document: DocumentNode, context: { reply?: FastifyReply }) => {
    if (!context.reply) return; // over WebSocket
    const given = (context.reply.request.body as { operationName?: unknown } | undefined)?.operationName;
    const wanted = typeof given === 'string' ? given : undefined;
    let byName = kinds.get(document);
    if (!byName) kinds.set(document, (byName = new Map()));
    let kind = byName.get(wanted);
    if (kind === undefined && !byName.has(wanted)) {
      kind = getOperationAST(document, wanted)?.operation;
      if (byName.size < 100) byName.set(wanted, kind); // a bound: names are the client's
    }
    if (kind === 'subscription') {
      throw new AppError('BAD_REQUEST', 'A subscription runs over WebSocket (graphql-transport-ws on /graphql), not over HTTP');
    }
  }) as never);
}
