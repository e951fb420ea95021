/**
 * The OpenAPI document at /docs/json is what a client generator starts from: it must be a
 * valid OpenAPI document, every operation must say what it answers, the operations that
 * take a seat token must say so (Swagger UI's Authorize then sends it), and a client
 * generated from it (openapi-typescript) must compile with typed responses, commands and
 * events. All offline.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import openapiTS from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let doc: any;
beforeAll(async () => {
  server = await startTestServer({ rateLimit: 100_000 });
  doc = (await server.rest('GET', '/docs/json')).body;
});
afterAll(async () => server?.close());

/**
 * tsc's complaints about a file, offline and strict ('' when it compiles). In a child process,
 * asynchronously: the server under test shares this process's event loop, and a blocked loop
 * would be answered 503 by its saturation guard.
 */
async function compiles(dir: string, file: string): Promise<string> {
  const tsc = join(process.cwd(), 'node_modules', 'typescript', 'bin', 'tsc');
  const args = ['--ignoreConfig', '--noEmit', '--strict', '--target', 'ES2022', '--lib', 'ES2022,DOM', '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--allowImportingTsExtensions', join(dir, file)];
  try {
    await promisify(execFile)(process.execPath, [tsc, ...args], { cwd: dir, encoding: 'utf8' });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('gives every operation a success response with a schema, and a unique operationId', () => {
    expect(operations().length).toBeGreaterThanOrEqual(10);
    for (const { path, method, op } of operations()) {
      const success = Object.entries((op.responses ?? {}) as Record<string, any>).filter(([status]) => /^2/.test(status));
      expect(success, `${method} ${path}`).toHaveLength(1);
      const content = success[0]![1].content ?? {};
      expect(content['application/json']?.schema ?? content['text/plain']?.schema, `${method} ${path}`).toBeDefined();
      expect(op.operationId, `${method} ${path}`).toMatch(/^[a-zA-Z]+$/);
    }
    const ids = operations().map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/api/games/{id}/commands'].post.operationId).toBe('submitCommand');
  });

  it('declares the Idempotency-Key and If-Match headers of a command', () => {
    const headers = doc.paths['/api/games/{id}/commands'].post.parameters.filter((p: { in: string }) => p.in === 'header').map((p: { name: string }) => p.name.toLowerCase());
    expect(headers).toEqual(expect.arrayContaining(['idempotency-key', 'if-match']));
  });

  it('refers to the command and event unions where clients touch them, and lists what a game carries', async () => {
    const game = doc.paths['/api/games/{id}'].get.responses['200'].content['application/json'].schema.properties.game;
    expect(game.properties.legalCommands.items).toEqual({ $ref: '#/components/schemas/Command' });
    expect(game.additionalProperties).toBeUndefined();
    const body = doc.paths['/api/games/{id}/commands'].post.requestBody.content['application/json'].schema;
    expect(body.properties.command).toEqual({ $ref: '#/components/schemas/Command' });
    const events = doc.paths['/api/games/{id}/events'].get.responses['200'].content['application/json'].schema;
    expect(events.properties.events.items.properties.data).toEqual({ $ref: '#/components/schemas/Event' });
    expect(doc.components.schemas.Command.anyOf).toContainEqual({ $ref: '#/components/schemas/RaidOnWuchaoCommand' });
    // What a live game carries is what the document lists: no field a typed client cannot see.
    const posted = await server.rest('POST', '/api/games', { type: 'raid-on-wuchao', seats: [{ seat: 'cao', name: 'A' }, { seat: 'yuan', name: 'B' }] });
    expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    const created = posted.body;
    const read = (await server.rest('GET', `/api/games/${created.game.id}`)).body.game;
    expect(Object.keys(read).filter((k) => !(k in game.properties))).toEqual([]);
    expect(Object.keys(read.seats[0]).filter((k) => !(k in game.properties.seats.items.properties))).toEqual([]);
  });

  it('names the bearer scheme of both token kinds, on the operations that take them', () => {
    expect(doc.components.securitySchemes.seatToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.playerToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    const security = (method: string, path: string) => doc.paths[path][method].security;
    const either = [{ seatToken: [] }, { playerToken: [] }];
    // Only a seat may submit or resign (its seat token, or its player's); reads may send either (a spectator sends none).
    for (const path of ['/api/games/{id}/commands', '/api/games/{id}/resign']) expect(security('post', path)).toEqual(either);
    for (const path of ['/api/games', '/api/games/{id}', '/api/games/{id}/view', '/api/games/{id}/events', '/api/games/{id}/export', '/api/open-games']) {
      expect(security('get', path)).toEqual([...either, {}]);
    }
    // A player token may create (seats for "me") and join; without one, a name is enough.
    for (const path of ['/api/games', '/api/games/{id}/join']) expect(security('post', path)).toEqual([...either, {}]);
    // What only a player may do.
    for (const [method, path] of [['get', '/api/me'], ['patch', '/api/me'], ['get', '/api/me/games'], ['post', '/api/me/tokens'], ['delete', '/api/me/tokens/{id}'], ['post', '/api/me/webhooks']]) {
      expect(security(method!, path!), `${method} ${path}`).toEqual([{ playerToken: [] }]);
    }
    for (const [method, path] of [['get', '/api/game-types'], ['post', '/api/players'], ['post', '/api/games/verify']]) expect(security(method!, path!)).toBeUndefined();
  });

  it('carries every game type\'s command and event schemas as components', async () => {
    const types = (await server.rest('GET', '/api/game-types')).body.gameTypes;
    const schemas = doc.components.schemas;
    const titles = (schema: { oneOf: { title: string }[] }) => schema.oneOf.map((s) => s.title);
    expect(titles(schemas.RaidOnWuchaoCommand)).toEqual(titles(types.find((t: { id: string }) => t.id === 'raid-on-wuchao').commandSchema));
    expect(titles(schemas.WarchonEvent)).toEqual(titles(types.find((t: { id: string }) => t.id === 'warchon').eventSchema));
    expect(titles(schemas.WarchonEvent)).toContain('PlayerResigned');
    for (const name of ['ThreeKingdomsCombinedArmsCommand', 'ThreeKingdomsCombinedArmsEvent', 'ChineseWarlordsCommand', 'ChineseWarlordsEvent']) expect(schemas[name]).toBeDefined();
  });

  it('generates a client that compiles, with types for responses, commands and events', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-client-'));
    try {
      writeFileSync(join(dir, 'api.ts'), await openapiTS(doc));
      writeFileSync(
        join(dir, 'client.ts'),
        `import type { components, paths } from './api.ts';
type Json<P extends keyof paths, M extends keyof paths[P], S extends number> = paths[P][M] extends { responses: { [K in S]: { content: { 'application/json': infer T } } } } ? T : never;

export async function createAndMove(base: string): Promise<number> {
  const created = (await (await fetch(base + '/api/games', { method: 'POST' })).json()) as Json<'/api/games', 'post', 201>;
  const token: string = created.seatTokens[0]!.token;
  const version: number = created.game.version;
  const status: 'OPEN' | 'SETUP' | 'ACTIVE' | 'FINISHED' | 'ABANDONED' = created.game.status;
  // @ts-expect-error a typo is no field of a game
  void created.game.stauts;
  const read = (await (await fetch(base + '/api/games/x')).json()) as Json<'/api/games/{id}', 'get', 200>;
  for (const c of read.game.legalCommands) if (c.type === 'move' && 'unit' in c) void (c.unit satisfies string);
  // @ts-expect-error no game type has this command
  read.game.legalCommands.push({ type: 'fly' });
  const command: components['schemas']['RaidOnWuchaoCommand'] = { type: 'move', unit: 'cao-cao', to: 'B1' };
  const outcome = (await (await fetch(base + '/api/games/x/commands', { method: 'POST', headers: { authorization: 'Bearer ' + token }, body: JSON.stringify({ command }) })).json()) as Json<'/api/games/{id}/commands', 'post', 200>;
  const event = outcome.events[0]!.data as components['schemas']['WarchonEvent'];
  const any: components['schemas']['Event'] = outcome.events[0]!.data;
  void any;
  if (event.type === 'NumberCommitted') {
    const n: number | null = event.number;
    // @ts-expect-error a redacted number may be null
    const m: number = event.number;
    void n, m;
  }
  // @ts-expect-error not a command of Raid on Wuchao
  const wrong: components['schemas']['RaidOnWuchaoCommand'] = { type: 'fly' };
  // @ts-expect-error the version is a number
  const text: string = created.game.version;
  const types = (await (await fetch(base + '/api/game-types')).json()) as Json<'/api/game-types', 'get', 200>;
  void wrong, text, status;
  return version + types.gameTypes.length + outcome.game.version;
}
`,
      );
      const output = await compiles(dir, 'client.ts');
      expect(output).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('serves the TypeScript types of commands, events and views, so legalCommands are typed without guards', async () => {
    const res = await fetch(`${server.url}/api/types.ts`);
    expect(res.status).toBe(200);
    const source = await res.text();
    const dir = mkdtempSync(join(tmpdir(), 'types-file-'));
    try {
      writeFileSync(join(dir, 'types.ts'), source);
      writeFileSync(
        join(dir, 'bot.ts'),
        `import type { Command, GameTypes, RaidOnWuchaoCommand, RaidOnWuchaoView, Views, WarchonEvent } from './types.ts';
export function pick(legal: RaidOnWuchaoCommand[]): RaidOnWuchaoCommand | undefined {
  for (const c of legal) if (c.type === 'move') return { type: 'move', unit: c.unit, to: c.to };
  return legal.find((c) => c.type === 'endMovement');
}
export function read(e: WarchonEvent, v: RaidOnWuchaoView, any: Command): number | null {
  const units: string[] = v.units.map((u) => u.id);
  const same: Views['raid-on-wuchao'] = v;
  const cmd: GameTypes['warchon']['command'] = { type: 'resign' };
  void units, same, cmd, any;
  // @ts-expect-error not a command of Raid on Wuchao
  const wrong: RaidOnWuchaoCommand = { type: 'fly' };
  // @ts-expect-error a typo is no field of the view
  void v.unitz;
  void wrong;
  return e.type === 'NumberCommitted' ? e.number : null;
}
`,
      );
      expect(await compiles(dir, 'bot.ts')).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
