/**
 * DATABASE_REPLICA_URL against a real streaming replica: a PostgreSQL 15 primary of the
 * test's own and a standby made by pg_basebackup -R, both started and stopped here. The
 * standby logs every statement it runs (log_statement = all), so the test sees which
 * requests it served:
 * - commands never read from it;
 * - the log after a version, exports and listings do, once it has caught up;
 * - with its replay paused (a replica behind), the log of a version it has not reached is
 *   still answered in full (from the primary), and commands go on.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { games as hostedGames } from '../../src/domain/games.ts';
import { openDatabase, type Database } from '../../src/persistence/database.ts';
import { openService, type Service } from '../../src/server.ts';
import { guessingGame } from '../support/guessing-game.ts';
import { call, createGuessing, nth, type Game } from './load.ts';
import { havePg15, primaryCluster, standbyOf, until, type Cluster } from './parts.ts';

if (!havePg15 && process.env.CI) throw new Error('PostgreSQL 15 is needed (.ci/run installs it)');

describe.skipIf(!havePg15)('reads on a streaming replica', () => {
  let primary: Cluster;
  let standby: Cluster;
  let database: Database;
  let service: Service;
  let base: string;
  let onPrimary: pg.Client;
  let onStandby: pg.Client;

  /** Statements the standby ran since `from` (bytes of its log), with their text. */
  const statementsSince = (from: number) =>
    readFileSync(join(standby.dir, 'log'), 'utf8')
      .slice(from)
      .split('\n')
      .filter((line) => / LOG:\s+(statement|execute [^:]*):/.test(line));
  const logSize = () => statSync(join(standby.dir, 'log')).size;
  const caughtUp = () =>
    until('the standby caught up', async () => {
      const want = (await onPrimary.query('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0].lsn;
      const { rows } = await onStandby.query('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok', [want]);
      return rows[0].ok as boolean;
    });

  beforeAll(async () => {
    primary = await primaryCluster();
    // The schema first, so the standby starts with it.
    await (await openDatabase(primary.url)).close();
    standby = await standbyOf(primary, ["log_statement = 'all'", 'hot_standby_feedback = on']);
    database = await openDatabase(primary.url, () => {}, undefined, { replicaUrl: standby.url });
    const gameModules = [new URL('../../src/domain/games.ts', import.meta.url).href, new URL('../support/guessing-game.ts', import.meta.url).href];
    service = await openService({ database, games: [...hostedGames, guessingGame], gameModules, workers: false, http: { logger: false, rateLimit: 100_000 } });
    base = await service.http!.listen({ port: 0, host: '127.0.0.1' });
    onPrimary = new pg.Client({ connectionString: primary.url });
    onStandby = new pg.Client({ connectionString: standby.url });
    await onPrimary.connect();
    await onStandby.connect();
  });
  afterAll(async () => {
    await onStandby?.end().catch(() => {});
    await onPrimary?.end().catch(() => {});
    await service?.close();
    await database?.close();
    standby?.stop();
    primary?.stop();
  });

  const commands = async (game: Game, from: number, n: number) => {
    for (let i = from; i < from + n; i++) {
      const { token, key } = nth(game, i);
      const r = await call(base, 'POST', `/api/games/${game.id}/commands`, { command: { type: 'guess', number: 1 }, idempotencyKey: key }, token);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
  };

  it('commands never read from the replica; the log, exports and listings do', async () => {
    const game = await createGuessing(base);
    await caughtUp();
    let from = logSize();
    await commands(game, 0, 8);
    expect(statementsSince(from)).toEqual([]);

    await caughtUp();
    from = logSize();
    const events = await call(base, 'GET', `/api/games/${game.id}/events?after=3`);
    expect(events.status).toBe(200);
    const exported = await call(base, 'GET', `/api/games/${game.id}/export`);
    expect(exported.status).toBe(200);
    // A private game is listed to its players only: the seat token lists its own game.
    const listed = await call(base, 'GET', '/api/games', undefined, game.tokens.north);
    expect(listed.status).toBe(200);
    const served = statementsSince(from);
    expect(served.filter((s) => s.includes('game_events')).length).toBeGreaterThanOrEqual(2); // the log and the export
    expect(served.some((s) => /FROM "?(public"?\.)?"?games/.test(s))).toBe(true); // the listing
    const version = (await call(base, 'GET', `/api/games/${game.id}`)).body.game.version as number;
    expect(events.body.events.map((e: { version: number }) => e.version)).toEqual(Array.from({ length: version - 3 }, (_, k) => 4 + k));
    expect(exported.body.events).toHaveLength(version);
    expect(listed.body.games.map((g: { id: string }) => g.id)).toContain(game.id);
  });

  it('a version the replica has not reached is answered in full from the primary', async () => {
    const game = await createGuessing(base);
    await commands(game, 0, 2);
    await caughtUp();
    const before = (await call(base, 'GET', `/api/games/${game.id}`)).body.game.version as number;
    await onStandby.query('SELECT pg_wal_replay_pause()');
    try {
      await commands(game, 2, 4); // commands go on with the replica behind
      const version = (await call(base, 'GET', `/api/games/${game.id}`)).body.game.version as number;
      expect(version).toBeGreaterThan(before);
      const behind = await onStandby.query('SELECT max(version)::int AS v FROM game_events WHERE game_id = $1', [game.id]);
      expect(behind.rows[0].v).toBe(before); // the replica really is behind
      const events = await call(base, 'GET', `/api/games/${game.id}/events?after=${before - 1}`);
      expect(events.body.events.map((e: { version: number }) => e.version)).toEqual(Array.from({ length: version - before + 1 }, (_, k) => before + k));
      const exported = await call(base, 'GET', `/api/games/${game.id}/export`);
      expect(exported.body.events).toHaveLength(version);
    } finally {
      await onStandby.query('SELECT pg_wal_replay_resume()');
    }
    await caughtUp();
  });
});
