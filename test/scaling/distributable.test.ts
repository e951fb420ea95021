/**
 * The schema stays distributable by game (docs/scaling.md, step 3: Citus with game_id as the
 * distribution column). Read from the migrated database's own catalog:
 * - every per-game table (a NOT NULL game_id column, and games itself by its id) has the
 *   game in its primary key and in every unique constraint or unique index, except the
 *   few named below, each looked up by a key of its own (their plan is in docs/scaling.md);
 * - no statement of the command path names two games once group commit is off
 *   (DATABASE_GROUP_COMMIT=false, as a deployment sharded by game runs): PostgreSQL logs every
 *   statement of commands on two games played at once (log_statement = all), and none that
 *   reads or writes a table carries both ids (the coalesced wake-up NOTIFY after the commits reads none).
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { nth, SEATS } from './load.ts';
import { havePg15, primaryCluster, type Cluster } from './parts.ts';

if (!havePg15 && process.env.CI) throw new Error('PostgreSQL 15 is needed (.ci/run installs it)');

/**
 * Constraints that do not hold the game today, and why each is not on the command path's
 * one-game statements. Sharded, each becomes a table distributed by its own key (a lookup
 * from the key to the game). A new entry here needs the same argument in docs/scaling.md.
 */
const OWN_KEY: Record<string, string> = {
  'games.games_invite_code_hash_key': 'joining by invite code finds the game from the code (a lookup table by code)',
  'seat_tokens.seat_tokens_pkey': 'a seat token finds its game (a lookup table by token hash)',
  'commands.commands_pkey': 'a serial id no statement looks a command up by (the idempotency key is per game)',
  'mail_reply_addresses.mail_reply_addresses_pkey': 'a mail\'s reply address finds its game from its token (a lookup table by token hash, as seat tokens are)',
  'deliveries.deliveries_pkey': 'a delivery is addressed by its id from its job (deliveries may be distributed by webhook)',
};

describe.skipIf(!havePg15)('the schema stays distributable by game', () => {
  let cluster: Cluster;
  let server: TestServer;
  let client: pg.Client;

  beforeAll(async () => {
    cluster = await primaryCluster();
    // Sharded by game, each statement must stay on one game's node: group commit off (docs/scaling.md).
    server = await startTestServer({ databaseUrl: cluster.url, groupCommit: false }); // migrates
    client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await server?.close();
    cluster?.stop();
  });

  it('every per-game table holds game_id in its primary key and unique constraints', async () => {
    const { rows } = await client.query<{ table: string; index: string; columns: string[] }>(`
      SELECT t.relname AS table, i.relname AS index, array_agg(a.attname::text ORDER BY k.n) AS columns
      FROM pg_index x
      JOIN pg_class t ON t.oid = x.indrelid
      JOIN pg_class i ON i.oid = x.indexrelid
      JOIN pg_namespace s ON s.oid = t.relnamespace AND s.nspname = 'public'
      CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY AS k(attnum, n)
      JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
      WHERE x.indisunique
        AND (t.relname = 'games' OR EXISTS (
          SELECT 1 FROM pg_attribute g WHERE g.attrelid = t.oid AND g.attname = 'game_id' AND g.attnotnull AND NOT g.attisdropped))
      GROUP BY t.relname, i.relname
      ORDER BY 1, 2`);
    const tables = new Set(rows.map((r) => r.table));
    // The tables docs/scaling.md names as per game are all seen as such.
    for (const t of ['games', 'game_events', 'commands', 'snapshots', 'seat_tokens', 'outbox']) expect(tables).toContain(t);
    const without = rows
      .filter((r) => !r.columns.includes(r.table === 'games' ? 'id' : 'game_id'))
      .map((r) => `${r.table}.${r.index}`);
    expect(without.filter((name) => !OWN_KEY[name])).toEqual([]);
    // An exception that no longer exists leaves the list too.
    expect(Object.keys(OWN_KEY).filter((name) => !without.includes(name))).toEqual([]);
  });

  it('no statement of the command path names two games', async () => {
    const create = async () => {
      const r = await server.rest('POST', '/api/games', { type: 'guessing-game', options: { target: 1_000_000 }, seats: SEATS.map((seat) => ({ seat, name: seat })) });
      expect(r.status).toBe(201);
      return { id: r.body.game.id as string, tokens: Object.fromEntries(r.body.seatTokens.map((t: { seat: string; token: string }) => [t.seat, t.token])) };
    };
    const games = [await create(), await create()];
    const log = join(cluster.dir, 'log');
    const from = statSync(log).size;
    await client.query(`ALTER SYSTEM SET log_statement = 'all'`);
    await client.query(`ALTER SYSTEM SET log_parameter_max_length = -1`);
    await client.query('SELECT pg_reload_conf()');
    await new Promise((r) => setTimeout(r, 300)); // the reload reaches every backend
    for (let i = 0; i < 6; i++) {
      // Both games at once.
      const results = await Promise.all(
        games.map((game) => {
          const { token, key } = nth(game, i);
          return server.rest('POST', `/api/games/${game.id}/commands`, { command: { type: 'guess', number: 1 }, idempotencyKey: key }, token);
        }),
      );
      expect(results.map((r) => r.status)).toEqual([200, 200]);
    }
    await client.query(`ALTER SYSTEM RESET log_statement`);
    await client.query(`ALTER SYSTEM RESET log_parameter_max_length`);
    await client.query('SELECT pg_reload_conf()');
    const text = readFileSync(log, 'utf8').slice(from);
    // Entries by backend: a statement line, its continuation lines and its parameters.
    const entries: string[] = [];
    const current = new Map<string, number>();
    let last = -1;
    for (const line of text.split('\n')) {
      const m = /^\S+ \S+ \S+ \[(\d+)\] (LOG|DETAIL):\s+(.*)$/.exec(line);
      if (!m) {
        if (last >= 0) entries[last] += `\n${line}`;
        continue;
      }
      const [, pid, level, rest] = m as unknown as [string, string, string, string];
      if (level === 'LOG' && /^(statement|execute)/.test(rest)) {
        last = entries.push(rest) - 1;
        current.set(pid, last);
      } else if (level === 'DETAIL' && rest.startsWith('parameters:') && current.has(pid)) {
        entries[current.get(pid)!] += `\n${rest}`;
      } else last = -1;
    }
    const appends = entries.filter((e) => e.includes('game_events'));
    expect(appends.length).toBeGreaterThan(0); // the log did see the command path
    // The wake-up NOTIFY after the commits (coalesced: many games in one) reads no table.
    const both = entries.filter((e) => !/^execute [^:]*: SELECT pg_notify\(\$1, \$2\)\n/.test(e) && games.every((g) => e.includes(g.id)));
    expect(both).toEqual([]);
  });
});
