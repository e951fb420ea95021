/**
 * HAProxy in front of three server processes on one PostgreSQL; one is killed (SIGKILL)
 * under load. Clients retry each command with its idempotency key until it is answered:
 * every command is then applied exactly once (nothing acknowledged is lost, nothing applied
 * twice), and subscribers whose process died resume from their last version on another.
 */
import pg from 'pg';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createGuessing, nth, type Game } from './load.ts';
import { havePg15, haveHaproxy, haproxy, primaryCluster, serverProcess, until, type Balancer, type Cluster, type ServerProcess } from './parts.ts';

const skip = !havePg15 || !haveHaproxy;
if (skip && process.env.CI) throw new Error('PostgreSQL 15 and HAProxy are needed (.ci/run installs them)');

/** A subscriber that resubscribes (a new connection, through the balancer) from the last version it saw. */
function subscriber(base: string, gameId: string) {
  const versions: number[] = [];
  let resumed = 0;
  let stopped = false;
  let dispose = () => {};
  const open = () => {
    const client = createClient({ url: `${base.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
    const after = versions.at(-1) ?? 0;
    const again = () => {
      client.dispose();
      if (stopped || resumed >= 10) return;
      resumed++;
      setTimeout(open, 200);
    };
    const off = client.subscribe<{ gameEvents: { version: number } }>(
      { query: 'subscription($id: ID!, $after: Int) { gameEvents(gameId: $id, afterVersion: $after) { version } }', variables: { id: gameId, after } },
      { next: (m) => m.data && versions.push(m.data.gameEvents.version), error: again, complete: again },
    );
    dispose = () => {
      off();
      client.dispose();
    };
  };
  open();
  return {
    versions,
    resumed: () => resumed,
    close: () => {
      stopped = true;
      dispose();
    },
  };
}

describe.skipIf(skip)('three server processes behind HAProxy, one killed under load', () => {
  let cluster: Cluster;
  let balancer: Balancer;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    cluster = await primaryCluster();
    const env = { DATABASE_URL: cluster.url, WORKERS: 'false', DATABASE_POOL_SIZE: '4' };
    servers.push(await serverProcess(env)); // migrates first
    servers.push(...(await Promise.all([serverProcess(env), serverProcess(env)])));
    balancer = await haproxy(servers.map((s) => s.url));
  });
  afterAll(async () => {
    balancer?.stop();
    await Promise.all(servers.map((s) => s.stop()));
    cluster?.stop();
  });

  it('applies every command once and resumes the subscriptions', async () => {
    const base = balancer.url;
    const games: Game[] = [];
    for (let i = 0; i < 6; i++) games.push(await createGuessing(base));
    // Three subscribers opened one after another: round robin gives each process one.
    const subs = [subscriber(base, games[0]!.id), subscriber(base, games[0]!.id), subscriber(base, games[0]!.id)];
    await until('subscribers got the setup events', async () => subs.every((s) => s.versions.length > 0));

    const perGame = 15;
    let acknowledged = 0;
    let retries = 0;
    let killed = false;
    const failures: string[] = [];
    const play = async (game: Game) => {
      for (let i = 0; i < perGame; i++) {
        const { token, key } = nth(game, i);
        let answered = false;
        for (let attempt = 0; attempt < 40 && !answered; attempt++) {
          if (attempt > 0) {
            retries++;
            await new Promise((r) => setTimeout(r, 100));
          }
          try {
            const r = await call(base, 'POST', `/api/games/${game.id}/commands`, { command: { type: 'guess', number: 1 }, idempotencyKey: key }, token);
            if (r.status === 200) answered = true;
            else if (r.status < 500) failures.push(`${game.id} #${i}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
          } catch {
            /* the connection died with its process: retry */
          }
          if (failures.length) return;
        }
        if (!answered) return void failures.push(`${game.id} #${i}: never answered`);
        acknowledged++;
        if (!killed && acknowledged >= 25) {
          killed = true;
          servers[1]!.kill(); // mid-load, requests in flight
        }
      }
    };
    await Promise.all(games.map(play));
    expect(failures).toEqual([]);
    expect(killed).toBe(true);
    expect(acknowledged).toBe(games.length * perGame);

    // Exactly once: each game stored perGame commands and perGame guesses.
    const db = new pg.Client({ connectionString: cluster.url });
    await db.connect();
    try {
      for (const game of games) {
        const { rows } = await db.query(
          `SELECT (SELECT count(*)::int FROM commands WHERE game_id = $1) AS commands,
                  (SELECT count(DISTINCT idempotency_key)::int FROM commands WHERE game_id = $1) AS keys,
                  (SELECT count(*)::int FROM game_events WHERE game_id = $1 AND type = 'GuessCommitted') AS guesses,
                  (SELECT version FROM games WHERE id = $1) AS version`,
          [game.id],
        );
        expect(rows[0]).toMatchObject({ commands: perGame, keys: perGame, guesses: perGame });
      }
      const final = (await db.query('SELECT version FROM games WHERE id = $1', [games[0]!.id])).rows[0].version as number;
      await until('the subscribers saw every version', async () => subs.every((s) => s.versions.at(-1) === final), { tries: 200, everyMs: 100 });
    } finally {
      await db.end();
    }
    for (const s of subs) {
      s.close();
      // In order, each once, from the first to the last.
      expect(s.versions).toEqual(Array.from({ length: s.versions.length }, (_, k) => s.versions[0]! + k));
    }
    // The subscriber on the killed process resumed elsewhere.
    expect(subs.some((s) => s.resumed() > 0)).toBe(true);
    // The survivors still answer through the balancer.
    expect((await call(base, 'GET', `/api/games/${games[0]!.id}`)).status).toBe(200);
  });
});
