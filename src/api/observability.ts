/**
 * Request ids and metrics for every request: an incoming `x-request-id` is kept (when it is a
 * plain token) and echoed, and each request is counted by route pattern, and each GraphQL
 * operation by its type and root fields, with its latency (src/metrics.ts).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Kind, type DocumentNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import { metrics, registry } from '../metrics.ts';

export const REQUEST_ID_HEADER = 'x-request-id';

/** fastify's genReqId: the caller's id if it is a short plain token (it lands in logs), else a new UUID. */
export function requestId(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(given) ? given : randomUUID();
}

interface OperationInfo {
  type: string;
  rootFields: string;
}
interface Operation {
  info: OperationInfo;
  errors: boolean;
}
const operations = new WeakMap<FastifyRequest, Operation>();
/** Per parsed document (mercurius hands the same object to every request with the same query text) and operation name. */
const infos = new WeakMap<DocumentNode, Map<string | undefined, OperationInfo | null>>();

function operationInfo(document: DocumentNode, wanted: string | undefined): OperationInfo | null {
  let byName = infos.get(document);
  if (!byName) infos.set(document, (byName = new Map()));
  let info = byName.get(wanted);
  if (info === undefined) {
    const ops = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    const op = ops.find((d) => wanted !== undefined && d.name?.value === wanted) ?? ops[0];
    info = op ? { type: op.operation, rootFields: [...rootFields(document, op.selectionSet)].sort().join(',') } : null;
    if (byName.size < 100) byName.set(wanted, info); // a bound: names are the client's
  }
  return info;
}

/** The distinct root field names an operation selects, through fragments: a set bounded by the schema. */
function rootFields(document: DocumentNode, selectionSet: SelectionSetNode, seen = new Set<string>()): Set<string> {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) seen.add(selection.name.value);
    else if (selection.kind === Kind.INLINE_FRAGMENT) rootFields(document, selection.selectionSet, seen);
    else {
      const fragment = document.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === selection.name.value);
      if (fragment?.kind === Kind.FRAGMENT_DEFINITION) rootFields(document, fragment.selectionSet, seen);
    }
  }
  return seen;
}

export function observability(app: FastifyInstance) {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });

  // The label sets seen so far and their children: prom-client hashes a label object on every
  // observe; a child is looked up by one string instead (the sets are bounded: routes, codes, fields).
  const httpChildren = new Map<string, { observe(v: number): void }>();
  const graphqlChildren = new Map<string, { observe(v: number): void }>();
  app.addHook('onResponse', (request, reply, done) => {
    if (request.raw.headers.upgrade) return done(); // a WebSocket lives as long as its connection
    const seconds = reply.elapsedTime / 1000;
    const route = request.routeOptions.url ?? 'unmatched';
    const key = `${request.method} ${route} ${reply.statusCode}`;
    let child = httpChildren.get(key);
    if (!child) httpChildren.set(key, (child = metrics.httpRequests.labels({ method: request.method, route, status_code: String(reply.statusCode) })));
    child.observe(seconds);
    if (route === '/graphql') {
      // No operation recorded: refused before execution (unparsable, invalid, too deep, limited).
      const op = operations.get(request);
      const type = op?.info.type ?? 'none';
      const fields = op?.info.rootFields ?? '';
      const outcome = !op || op.errors ? 'error' : 'ok';
      const gkey = `${type} ${fields} ${outcome}`;
      let g = graphqlChildren.get(gkey);
      if (!g) graphqlChildren.set(gkey, (g = metrics.graphqlOperations.labels({ operation_type: type, root_fields: fields, outcome })));
      g.observe(seconds);
    }
    done();
  });

  app.get('/metrics', async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()));
}

/** Called once mercurius is registered: records each executed operation on its HTTP request. */
export function observeGraphql(app: FastifyInstance) {
  const graphql = (app as unknown as { graphql: { addHook: (name: string, hook: (...args: never[]) => unknown) => void } }).graphql;
  graphql.addHook('preExecution', (async (_schema: unknown, document: DocumentNode, context: { reply?: { request: FastifyRequest } }) => {
    const request = context.reply?.request;
    if (!request) return;
    const wanted = (request.body as { operationName?: unknown } | undefined)?.operationName;
    const info = operationInfo(document, typeof wanted === 'string' ? wanted : undefined);
    if (info) operations.set(request, { info, errors: false });
  }) as never);
  graphql.addHook('onResolution', (async (execution: { errors?: unknown[] }, context: { reply?: { request: FastifyRequest } }) => {
    const op = context.reply && operations.get(context.reply.request);
    if (op && execution.errors?.length) op.errors = true;
  }) as never);
}
