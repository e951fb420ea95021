/**
 * What a GraphQL request may ask for, checked before anything runs: how deep it goes
 * (introspection aside: the standard introspection query of every tool is 15 deep, and it
 * only reads the schema) and, below, what it costs.
 */
import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  GraphQLError,
  Kind,
  type ASTNode,
  type ASTVisitor,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLOutputType,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValidationContext,
  visit,
} from 'graphql';
import type { ComplexityEstimator } from 'graphql-query-complexity';
import { AppError } from '../app/errors.ts';

// mercurius builds the schema with graphql's CommonJS build: whatever inspects its types
// (graphql-js checks instanceof) must be that same build, not the ES module one.
const require = createRequire(import.meta.url);
const { isListType, isNonNullType } = require('graphql') as typeof import('graphql');
const { getComplexity } = require('graphql-query-complexity') as typeof import('graphql-query-complexity');

/** Introspection reads the schema only: `__schema`, `__type` and everything below them. */
const isIntrospection = (name: string) => name.startsWith('__');

/**
 * A validation rule: refuse an operation whose fields nest deeper than `limit`, not
 * counting introspection fields (and everything below them).
 */
export function depthLimit(limit: number) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const d of context.getDocument().definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    const depthOf = (set: SelectionSetNode, seen: Set<string>): number => {
      let deepest = 0;
      for (const s of set.selections) {
        if (s.kind === Kind.FIELD) {
          if (isIntrospection(s.name.value)) continue;
          deepest = Math.max(deepest, 1 + (s.selectionSet ? depthOf(s.selectionSet, seen) : 0));
        } else if (s.kind === Kind.INLINE_FRAGMENT) {
          deepest = Math.max(deepest, depthOf(s.selectionSet, seen));
        } else {
          const fragment = fragments.get(s.name.value);
          // A cycle or a missing fragment is reported by graphql-js' own rules.
          if (!fragment || seen.has(s.name.value)) continue;
          deepest = Math.max(deepest, depthOf(fragment.selectionSet, new Set([...seen, s.name.value])));
        }
      }
      return deepest;
    };
    return {
      OperationDefinition(node) {
        const depth = depthOf(node.selectionSet, new Set());
        if (depth > limit) {
          const name = node.name ? `"${node.name.value}"` : 'The operation';
          context.reportError(new GraphQLError(`${name} nests fields ${depth} deep; at most ${limit} are allowed`, { nodes: [node] }));
        }
      },
    };
  };
}

/**
 * The cost of an operation, before it runs: every field costs its weight (1 unless listed
 * below), plus what is selected below it times the length of the list it returns: `first`
 * where the field takes it (`games` 20 by default, at most 100; `messages` 100 at most; `events` all of the log,
 * counted as 1,000), 10 game types, 4 seats (and prompts), or 10 for any other list. Aliases count
 * each time, so do fragments. Introspection costs nothing: it only reads the schema.
 */
export const COST_LIMIT = 25_000;

export const COST_WEIGHTS: Record<string, number> = {
  // Large JSON documents.
  'GameType.commandSchema': 100,
  'GameType.eventSchema': 100,
  'GameType.optionsSchema': 20,
  // Each folds a game's state (or reads its log) and may be long.
  'Game.view': 10,
  'Game.events': 10,
  'Game.legalCommands': 100,
  'Game.legalOrders': 100,
  'Game.awaiting': 5,
  // One read of the messages' table.
  'Game.messages': 5,
};
const EVENTS_WITHOUT_FIRST = 1_000;
const GAME_TYPES = 10;
const SEATS = 4;
const OTHER_LISTS = 10;

function listLength(parent: string, field: GraphQLField<unknown, unknown>, args: Record<string, unknown>): number {
  const first = typeof args.first === 'number' ? args.first : undefined;
  switch (`${parent}.${field.name}`) {
    case 'Query.games':
      return Math.min(Math.max(first ?? 20, 1), 100);
    case 'Game.events':
      return Math.min(Math.max(first ?? EVENTS_WITHOUT_FIRST, 0), EVENTS_WITHOUT_FIRST);
    case 'Game.messages':
      return Math.min(Math.max(first ?? 100, 1), 100);
    case 'Query.gameTypes':
      return GAME_TYPES;
    case 'GameConnection.edges':
    case 'GameConnection.nodes':
      return 1; // the page, counted at games(first)
    case 'Game.seats':
    case 'Game.awaiting':
    case 'GameType.seats':
    case 'GameType.seatDetails':
      return SEATS;
  }
  let t: GraphQLOutputType = field.type;
  if (isNonNullType(t)) t = t.ofType;
  return isListType(t) ? OTHER_LISTS : 1;
}

const estimator: ComplexityEstimator = ({ type, field, args, childComplexity }) => {
  if (isIntrospection(type.name) || isIntrospection(field.name)) return 0;
  return (COST_WEIGHTS[`${type.name}.${field.name}`] ?? 1) + childComplexity * listLength(type.name, field, args);
};

/** `maxNodes` bounds the counting itself: fields counted (introspection included, fragments expanded). */
export function queryCost(schema: GraphQLSchema, document: DocumentNode, variables?: Record<string, unknown>, operationName?: string, maxNodes = 2 * COST_LIMIT): number {
  return getComplexity({ schema, query: document, variables: variables ?? {}, operationName, estimators: [estimator], maxQueryNodes: maxNodes });
}

/**
 * The variables a document's cost can depend on: those given to a `first` argument (the
 * estimator's only input from arguments) or to a directive (@skip, @include). Any other
 * variable (a game id, a command) leaves the cost as it is.
 */
function costVariables(document: DocumentNode): string[] {
  const names = new Set<string>();
  const collect = (node: ASTNode) =>
    visit(node, {
      enter(n) {
        if (n.kind === Kind.VARIABLE) names.add(n.name.value);
      },
    });
  visit(document, {
    enter(n) {
      if ((n.kind === Kind.ARGUMENT && n.name.value === 'first') || n.kind === Kind.DIRECTIVE) collect(n);
    },
  });
  return [...names].sort();
}

/**
 * Costs already counted, per schema and parsed document (mercurius hands the same document
 * object to every request with the same query text), for the operation and the values of
 * the document's cost variables: a client's loop asking the same query of another game
 * costs no second count.
 */
const counted = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, { variables: string[]; costs: Map<string, number> }>>();
const COSTS_PER_DOCUMENT = 100;

function cachedCost(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown> | undefined, operationName: string | undefined, maxNodes: number): number {
  let documents = counted.get(schema);
  if (!documents) counted.set(schema, (documents = new WeakMap()));
  let entry = documents.get(document);
  if (!entry) documents.set(document, (entry = { variables: costVariables(document), costs: new Map() }));
  // A document whose cost no variable moves (the usual one) is keyed by its operation alone.
  const key = entry.variables.length === 0 ? `${maxNodes}:${operationName ?? ''}` : JSON.stringify([operationName ?? null, maxNodes, entry.variables.map((v) => variables?.[v] ?? null)]);
  const known = entry.costs.get(key);
  if (known !== undefined) return known;
  const cost = queryCost(schema, document, variables, operationName, maxNodes);
  if (entry.costs.size >= COSTS_PER_DOCUMENT) entry.costs.clear();
  entry.costs.set(key, cost);
  return cost;
}

/**
 * Refuse, before it runs, an operation that costs more than `limit` (a mercurius
 * preExecution hook: it sees the request's variables, so `first: $n` counts what it is).
 */
export function limitCost(app: FastifyInstance, limit = COST_LIMIT) {
  const graphql = (app as unknown as { graphql: { addHook: (name: string, hook: (...args: never[]) => unknown) => void } }).graphql;
  graphql.addHook('preExecution', (async (schema: GraphQLSchema, document: DocumentNode, context: { reply?: { request: FastifyRequest } }, variables?: Record<string, unknown>) => {
    const wanted = (context.reply?.request.body as { operationName?: unknown } | undefined)?.operationName;
    let cost: number;
    try {
      cost = cachedCost(schema, document, variables, typeof wanted === 'string' ? wanted : undefined, 2 * limit);
    } catch (error) {
      // Counting stops past twice the limit in fields: every field but introspection costs at least 1.
      if (error instanceof Error && /maximum allowed number of nodes/.test(error.message)) {
        throw new AppError('BAD_REQUEST', `The query selects more than ${2 * limit} fields (fragments counted each time they are used), more than the cost limit of ${limit} allows`, { limit });
      }
      throw error;
    }
    if (cost > limit) {
      throw new AppError('BAD_REQUEST', `The query costs ${cost}, more than the limit of ${limit}: ask for fewer aliases, smaller pages (first) or fewer nested lists`, { cost, limit });
    }
  }) as never);
}
