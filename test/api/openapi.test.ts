/**
 * The OpenAPI document at /docs/json is what a client generator starts from: it must be a
 * valid OpenAPI document, every operation must say what it answers, the operations that
 * take a seat token must say so (Swagger UI's Authorize then sends it), and a client
 * generated from it (openapi-typescript) must compile with typed responses, commands and
 * events. All offline.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('gives every operation a success response with a schema', () => {
    expect(operations().length).toBeGreaterThanOrEqual(10);
    for (const { path, method, op } of operations()) {
      const success = Object.entries((op.responses ?? {}) as Record<string, any>).filter(([status]) => /^2/.test(status));
      expect(success, `${method} ${path}`).toHaveLength(1);
      expect(success[0]![1].content?.['application/json']?.schema, `${method} ${path}`).toBeDefined();
    }
  });

  it('attaches the bearer scheme to the operations that take a seat token', () => {
    expect(doc.components.securitySchemes.seatToken).toEqual({ type: 'http', scheme: 'bearer' });
    const security = (method: string, path: string) => doc.paths[path][method].security;
    // Only a seat may submit or resign; reads may send one (a spectator does not).
    for (const path of ['/api/games/{id}/commands', '/api/games/{id}/resign']) expect(security('post', path)).toEqual([{ seatToken: [] }]);
    for (const path of ['/api/games', '/api/games/{id}', '/api/games/{id}/view', '/api/games/{id}/events', '/api/games/{id}/export', '/api/open-games']) {
      expect(security('get', path)).toEqual([{ seatToken: [] }, {}]);
    }
    // A player token may create (seats for "me") and join; without one, a name is enough.
    for (const path of ['/api/games', '/api/games/{id}/join']) expect(security('post', path)).toEqual([{ seatToken: [] }, {}]);
    // What only a player may do.
    for (const [method, path] of [['get', '/api/me'], ['patch', '/api/me'], ['get', '/api/me/games'], ['post', '/api/me/tokens'], ['delete', '/api/me/tokens/{id}']]) {
      expect(security(method!, path!), `${method} ${path}`).toEqual([{ seatToken: [] }]);
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
  const status: 'SETUP' | 'ACTIVE' | 'FINISHED' | 'ABANDONED' = created.game.status;
  const command: components['schemas']['RaidOnWuchaoCommand'] = { type: 'move', unit: 'cao-cao', to: 'B1' };
  const outcome = (await (await fetch(base + '/api/games/x/commands', { method: 'POST', headers: { authorization: 'Bearer ' + token }, body: JSON.stringify({ command }) })).json()) as Json<'/api/games/{id}/commands', 'post', 200>;
  const event = outcome.events[0]!.data as components['schemas']['WarchonEvent'];
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
      const tsc = join(process.cwd(), 'node_modules', 'typescript', 'bin', 'tsc');
      const args = ['--ignoreConfig', '--noEmit', '--strict', '--target', 'ES2022', '--lib', 'ES2022,DOM', '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--allowImportingTsExtensions', join(dir, 'client.ts')];
      let output = '';
      try {
        execFileSync(process.execPath, [tsc, ...args], { cwd: dir, encoding: 'utf8' });
      } catch (error) {
        output = String((error as { stdout?: string }).stdout ?? error);
      }
      expect(output).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
