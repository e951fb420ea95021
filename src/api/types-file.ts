/**
 * GET /api/types.ts: the TypeScript types of every game type's commands, events and views,
 * generated from what the service publishes (the JSON Schemas of GameType.commandSchema and
 * eventSchema, and of each game's view, with json-schema-to-typescript), once per process on
 * first request. A client saves the file and types `legalCommands`,
 * `submitCommand` and events' `data` without hand-written guards.
 */
import type { FastifyInstance } from 'fastify';
import { compile } from 'json-schema-to-typescript';
import type { GameType } from '../domain/kernel/index.ts';
import type { JsonSchema } from '../domain/kernel/types.ts';
import { pascal } from './view-types.ts';

/** Every nested title prefixed with the game's name: each game has its own PlayerResigned. */
function prefixed(schema: unknown, prefix: string): unknown {
  if (Array.isArray(schema)) return schema.map((s) => prefixed(s, prefix));
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, k === 'title' && typeof v === 'string' ? `${prefix} ${v}` : prefixed(v, prefix)]));
}

async function fromJsonSchema(schema: JsonSchema, name: string, prefix: string, description: string): Promise<string> {
  const root = { ...(prefixed(schema, prefix) as JsonSchema), title: name, description };
  // additionalProperties false: an object lists what it carries, so a typo fails to compile.
  return compile(root as never, name, { bannerComment: '', additionalProperties: false, format: false, unknownAny: true });
}

export async function typesSource(types: GameType[], viewSchemas: Record<string, JsonSchema | undefined>): Promise<string> {
  const parts = [
    '/**',
    ' * The commands, events and views of every game type this service hosts, generated from',
    ' * the JSON Schemas of GET /api/game-types (commandSchema, eventSchema) and of the views.',
    " * Narrow a Command or an Event by the game's type, then by its `type` field.",
    ' */',
  ];
  for (const t of types) {
    const p = pascal(t.id);
    parts.push(await fromJsonSchema(t.commandSchema, `${p}Command`, t.name, `A command of ${t.name}: what legalCommands lists and submitCommand takes`));
    parts.push(await fromJsonSchema(t.eventSchema, `${p}Event`, t.name, `The data of an event of ${t.name}, as the log, the subscription and the export give it`));
  }
  parts.push(`export type Command = ${types.map((t) => `${pascal(t.id)}Command`).join(' | ')};`);
  parts.push(`export type Event = ${types.map((t) => `${pascal(t.id)}Event`).join(' | ')};`);
  parts.push(`/** The command and event types by game type id. */\nexport interface GameTypes {\n${types.map((t) => `  ${JSON.stringify(t.id)}: { command: ${pascal(t.id)}Command; event: ${pascal(t.id)}Event };`).join('\n')}\n}`);
  const typed = types.filter((t) => viewSchemas[t.id]);
  for (const t of typed) parts.push(await fromJsonSchema(viewSchemas[t.id]!, `${pascal(t.id)}View`, t.name, `${t.name} as a seat sees it (REST view; GraphQL's ${pascal(t.id)}View adds gameType)`));
  if (typed.length) parts.push(`/** The view of each game type with a typed view. */\nexport interface Views {\n${typed.map((t) => `  ${JSON.stringify(t.id)}: ${pascal(t.id)}View;`).join('\n')}\n}`);
  return `${parts.join('\n\n')}\n`;
}

/** Serves the file, generated on the first request and kept. */
export function typesRoute(app: FastifyInstance, types: () => GameType[], views: () => Record<string, JsonSchema | undefined>) {
  let source: Promise<string> | null = null;
  app.get('/api/types.ts', { schema: { tags: ['games'], operationId: 'typesFile', summary: 'The TypeScript types of every command, event and view (generated from the JSON Schemas)', response: { 200: { description: 'a TypeScript module of types only', content: { 'text/plain': { schema: { type: 'string' } } } } } } }, async (_req, reply) => {
    source ??= typesSource(types(), views()).catch((error) => {
      source = null;
      throw error;
    });
    reply.header('content-type', 'text/plain; charset=utf-8').header('content-disposition', 'inline; filename="types.ts"');
    return source;
  });
}
