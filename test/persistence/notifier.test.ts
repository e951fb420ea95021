/**
 * The notifier's catch-up (src/persistence/notifier.ts): a change whose NOTIFY never came is
 * still found by comparing the games listened to with the database, also a seat taken at
 * version 0, which moves only the game's `updated_at` (seatsChanged's watchers).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Notifier } from '../../src/persistence/notifier.ts';
import { databaseUrl, startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let db: pg.Client;
beforeAll(async () => {
  server = await startTestServer({ rateLimit: 100_000 });
  db = new pg.Client({ connectionString: databaseUrl() });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await server?.close();
});

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the notifier catch-up', () => {
  it('wakes the listeners of a game waiting for players whose seats changed without a NOTIFY', async () => {
    const created = await server.gql(
      `mutation($input: CreateGameInput!) { createGame(input: $input) { game { id } } }`,
      { input: { type: 'guessing-game', options: { target: 5 }, seats: [{ seat: 'north', name: 'N' }, { seat: 'east', open: true }] } },
    );
    const id = created.data.createGame.game.id as string;
    const notifier = new Notifier(databaseUrl(), () => {}, { catchUpMs: 100 });
    await notifier.start();
    try {
      let wakes = 0;
      const unlisten = notifier.listen(id, () => wakes++);
      // The first look at a game wakes once (nothing is known of it yet), then it is quiet.
      await expect.poll(() => wakes, { timeout: 5_000 }).toBe(1);
      await settle(400);
      expect(wakes).toBe(1);
      // A seat taken by a process whose NOTIFY was lost: the row changed, no version did.
      await db.query(`UPDATE games SET players = players, updated_at = now() WHERE id = $1::uuid`, [id]);
      await expect.poll(() => wakes, { timeout: 5_000 }).toBe(2);
      await settle(400);
      expect(wakes).toBe(2);
      unlisten();
    } finally {
      await notifier.close();
    }
  });
});
