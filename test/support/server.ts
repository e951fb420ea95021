/**
 * A real server on a free port against the test database, for tests that go through
 * HTTP, GraphQL and WebSocket as clients do. It is composed as src/server.ts composes the
 * service (openService); it runs no job unless the test asks (`workers`).
 */
import { inject } from 'vitest';
import type { AppOptions } from '../../src/api/app.ts';
import type { Core } from '../../src/app/core.ts';
import { games as hostedGames } from '../../src/domain/games.ts';
import type { GameModule } from '../../src/domain/kernel/index.ts';
import { openDatabase } from '../../src/persistence/database.ts';
import type { Queue } from '../../src/persistence/queue.ts';
import { openService, type ServiceOptions } from '../../src/server.ts';
import { guessingGame } from './guessing-game.ts';

export interface TestServer {
  url: string;
  app: NonNullable<Awaited<ReturnType<typeof openService>>['http']>;
  core: Core;
  /** The job queue (its runner runs only with `workers`). */
  queue: Queue;
  /** The SMTP listener's port, when the test asked for one (smtpInbound). */
  smtpPort: number | null;
  gql(query: string, variables?: Record<string, unknown>, token?: string): Promise<{ data?: any; errors?: any[]; status: number }>;
  rest(method: string, path: string, body?: unknown, token?: string, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export function databaseUrl(): string {
  return inject('databaseUrl');
}

export type TestServerOptions = AppOptions &
  Omit<ServiceOptions, 'database' | 'games' | 'http'> & { games?: GameModule[]; /** default: the tests' database */ databaseUrl?: string; /** DATABASE_GROUP_COMMIT (default true) */ groupCommit?: boolean };

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const database = await openDatabase(options.databaseUrl ?? databaseUrl(), undefined, undefined, { groupCommit: options.groupCommit ?? true });
  // The verify workers load the games by module URL: the hosted ones and the test's own.
  const gameModules = [new URL('../../src/domain/games.ts', import.meta.url).href, new URL('./guessing-game.ts', import.meta.url).href];
  const { databaseUrl: _, groupCommit: __, games, workers, ...rest } = options;
  // A test runs its own checks (schema validators, code generators, random games) in the
  // server's process on a shared machine: the 503 for a blocked event loop only where a test
  // asks (test/api/overload.test.ts). 0 turns the check off (@fastify/under-pressure); any limit
  // would not do, since a starved process measures no delay at all and under-pressure counts
  // that as Infinity. Registrations are counted per address in the database, shared by every
  // test file (all from 127.0.0.1): tests of the limit set their own, and an X-Forwarded-For.
  const service = await openService({
    gameModules, registrationsPerMinute: 100_000, ...rest, database, games: games ?? [...hostedGames, guessingGame], workers: workers ?? false,
    http: { logger: false, verifyRateLimit: 1_000, maxEventLoopDelay: 0, ...rest },
  });
  const app = service.http!;
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const auth = (token?: string): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});
  return {
    url: address,
    app,
    core: service.core,
    queue: service.queue,
    smtpPort: service.smtp?.port ?? null,
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
      await service.close();
      await database.close();
    },
  };
}
