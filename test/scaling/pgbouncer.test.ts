/**
 * The service behind a real PgBouncer 1.18 in transaction mode: two server processes with
 * DATABASE_URL on the pooler, DATABASE_PREPARED_STATEMENTS=false (1.18 cannot keep named
 * statements across transactions) and DATABASE_DIRECT_URL on the cluster itself for LISTEN,
 * the job queue and the migrations. Commands on either process, events read on the other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createGuessing, nth } from './load.ts';
import { havePg15, havePgBouncer, pgbouncer, primaryCluster, serverProcess, type Bouncer, type Cluster, type ServerProcess } from './parts.ts';

const skip = !havePg15 || !havePgBouncer;
if (skip && process.env.CI) throw new Error('PostgreSQL 15 and PgBouncer are needed (.ci/run installs them)');

describe.skipIf(skip)('behind PgBouncer in transaction mode', () => {
  let cluster: Cluster;
  let bouncer: Bouncer;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    cluster = await primaryCluster();
    bouncer = await pgbouncer(cluster, 3);
    const env = { DATABASE_URL: bouncer.url, DATABASE_DIRECT_URL: cluster.url, DATABASE_PREPARED_STATEMENTS: 'false', DATABASE_POOL_SIZE: '4' };
    // The first applies the migrations (on the direct URL); then the second.
    servers.push(await serverProcess(env));
    servers.push(await serverProcess(env));
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    bouncer?.stop();
    cluster?.stop();
  });

  it('serves concurrent commands from two processes through three server connections (with named statements on, the same run fails: "prepared statement ... does not exist")', async () => {
    const games = await Promise.all(Array.from({ length: 6 }, (_, i) => createGuessing(servers[i % 2]!.url)));
    const perGame = 12;
    const failures: string[] = [];
    const versions: number[] = [];
    await Promise.all(
      games.map(async (game, g) => {
        for (let i = 0; i < perGame; i++) {
          const { token, key } = nth(game, i);
          const server = servers[(g + i) % 2]!; // alternate processes on every command
          const r = await call(server.url, 'POST', `/api/games/${game.id}/commands`, { command: { type: 'guess', number: 1 }, idempotencyKey: key }, token);
          if (r.status !== 200) failures.push(`${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
          else versions[g] = r.body.version ?? r.body.game?.version;
        }
      }),
    );
    expect(failures).toEqual([]);
    for (const [g, game] of games.entries()) {
      const r = await call(servers[(g + 1) % 2]!.url, 'GET', `/api/games/${game.id}`);
      expect(r.status).toBe(200);
      expect(r.body.game.version).toBe(versions[g]);
    }
  });

  it('a retried command with its idempotency key is answered from its first outcome, on the other process', async () => {
    const game = await createGuessing(servers[0]!.url);
    const { token, key } = nth(game, 0);
    const body = { command: { type: 'guess', number: 1 }, idempotencyKey: key };
    const first = await call(servers[0]!.url, 'POST', `/api/games/${game.id}/commands`, body, token);
    const again = await call(servers[1]!.url, 'POST', `/api/games/${game.id}/commands`, body, token);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    const events = await call(servers[1]!.url, 'GET', `/api/games/${game.id}/events?after=0`);
    expect(events.status).toBe(200);
    expect(events.body.events.filter((e: { type: string }) => e.type === 'GuessCommitted')).toHaveLength(1);
  });
});
