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

const isGraphqlPost = (request: FastifyRequest) => request.method === 'POST' && request.url.split('?')[0] === PATH;

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
  app.addHook('onRequest', async (request, reply) => {
    if (!isGraphqlPost(request)) return;
    const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (!MEDIA_TYPES.includes(type)) {
      return refuse(reply, 415, `POST /graphql takes a JSON body (Content-Type: application/json), not ${type ? `"${type}"` : 'a body without a Content-Type'}`);
    }
  });
  app.addHook('preValidation', async (request, reply) => {
    if (!isGraphqlPost(request)) return;
    const problem = shapeProblem(request.body);
    if (problem) return refuse(reply, 400, problem);
  });
}

/** Registered once mercurius is: a subscription asked over HTTP is refused before it runs. */
export function refuseSubscriptionsOverHttp(app: FastifyInstance) {
  const graphql = (app as unknown as { graphql: { addHook: (name: string, hook: (...args: never[]) => unknown) => void } }).graphql;
  graphql.addHook('preExecution', (async (_schema: unknown, document: DocumentNode, context: { reply?: FastifyReply }) => {
    if (!context.reply) return; // over WebSocket
    const wanted = (context.reply.request.body as { operationName?: unknown } | undefined)?.operationName;
    const op = getOperationAST(document, typeof wanted === 'string' ? wanted : undefined);
    if (op?.operation === 'subscription') {
      throw new AppError('BAD_REQUEST', 'A subscription runs over WebSocket (graphql-transport-ws on /graphql), not over HTTP');
    }
  }) as never);
}
