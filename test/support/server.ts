/**
 * A real server on a free port against the test database, for tests that go through
 * HTTP, GraphQL and WebSocket as clients do.
 */
import { inject } from 'vitest';
import { buildApp, type AppOptions } from '../../src/api/app.ts';
import { games as hostedGames } from '../../src/domain/games.ts';
import type { GameModule } from '../../src/domain/kernel/index.ts';
import { openDatabase } from '../../src/persistence/database.ts';
import { guessingGame } from './guessing-game.ts';

export interface TestServer {
  url: string;
  app: Awaited<ReturnType<typeof buildApp>>;
  gql(query: string, variables?: Record<string, unknown>, token?: string): Promise<{ data?: any; errors?: any[]; status: number }>;
  rest(method: string, path: string, body?: unknown, token?: string, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export function databaseUrl(): string {
  return inject('databaseUrl');
}

export async function startTestServer(options: Partial<Omit<AppOptions, 'database'>> & { games?: GameModule[]; /** default: the tests' database */ databaseUrl?: string } = {}): Promise<TestServer> {
  const database = await openDatabase(options.databaseUrl ?? databaseUrl());
  // The verify workers load the games by module URL: the hosted ones and the test's own.
  const gameModules = [new URL('../../src/domain/games.ts', import.meta.url).href, new URL('./guessing-game.ts', import.meta.url).href];
  // Registrations are counted per address in the database, shared by every test file (all
  // from 127.0.0.1): tests of the limit set their own, and an X-Forwarded-For of their own.
  // The overload guard is off: a busy machine must not refuse the tests' own requests
  // (test/api/overload.test.ts tests it).
  const app = await buildApp({ logger: false, gameModules, verifyRateLimit: 1_000, registrationsPerMinute: 100_000, maxEventLoopDelay: 0, ...options, database, games: options.games ?? [...hostedGames, guessingGame] });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const auth = (token?: string): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});
  return {
    url: address,
    app,
    async gql(query, variables, token) {
      const res = await fetch(`${address}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth(token) },
        body: JSON.stringify({ query, variables }),
      });
      return { ...((await res.json()) as object), status: res.status };
    },
    async rest(method, path, body, token, headers = {}) {
      const res = await fetch(`${address}${path}`, {
        method,
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...auth(token), ...headers },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        /* not JSON */
      }
      return { status: res.status, body: parsed };
    },
    async close() {
      await app.close();
      await database.close();
    },
  };
}
