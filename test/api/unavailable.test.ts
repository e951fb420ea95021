/**
 * While PostgreSQL cannot be reached the service answers 503 UNAVAILABLE with Retry-After,
 * so clients know to retry: not INTERNAL, and not a 200 on GraphQL.
 */
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { games } from '../../src/domain/games.ts';
import { PrismaClient } from '../../src/generated/prisma/client.ts';
import type { Database } from '../../src/persistence/database.ts';
import { openService } from '../../src/server.ts';
import { databaseUrl } from '../support/server.ts';

// Queries go to a port where no PostgreSQL listens (the notifier keeps the real one).
const DEAD = 'postgresql://nobody:nothing@127.0.0.1:9/none';
let service: Awaited<ReturnType<typeof openService>>;
let base: string;
beforeAll(async () => {
  const pool = new pg.Pool({ connectionString: DEAD, connectionTimeoutMillis: 500 });
  pool.on('error', () => {});
  const database: Database = {
    url: databaseUrl(),
    prisma: new PrismaClient({ adapter: new PrismaPg(pool) }),
    pool,
    queryPool: pool,
    preparedStatements: true,
    groupCommit: true,
    close: async () => {
      await pool.end().catch(() => {});
    },
  };
  service = await openService({ database, games, http: { logger: false } });
  base = await service.http!.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => service?.close());

describe('with the database unreachable', () => {
  it('REST answers 503 UNAVAILABLE with Retry-After', async () => {
    const res = await fetch(`${base}/api/games/00000000-0000-4000-8000-000000000000`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('UNAVAILABLE');
  });

  it('GraphQL answers 503 UNAVAILABLE, queries and mutations alike', async () => {
    for (const query of ['{ game(id: "00000000-0000-4000-8000-000000000000") { id } }', 'mutation { createGame(input: { type: "raid-on-wuchao", seats: [{ seat: "cao", name: "A" }, { seat: "yuan", name: "B" }] }) { game { id } } }']) {
      const res = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
      expect(res.status, query).toBe(503);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      const body = (await res.json()) as { errors: { extensions: { code: string } }[] };
      expect(body.errors[0]!.extensions.code).toBe('UNAVAILABLE');
    }
  });

  it('readiness says the database is unreachable while the process stays up', async () => {
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(503);
  });
});
