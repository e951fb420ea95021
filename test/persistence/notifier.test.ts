/**
 * The notifier's catch-up (src/persistence/notifier.ts): a change whose NOTIFY never came is
 * still found by comparing the games listened to with the database, also a seat taken at
 * version 0, which moves only the game's `updated_at` (seatsChanged's watchers).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Notifier } from '../../src/persistence/notifier.ts';
import { TOKENS_REVOKED_CHANNEL } from '../../src/persistence/player-store.ts';
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

describe('the revocation barrier (heardRevocations)', () => {
  it('has told the listeners every revocation committed before the call once it resolves, one round trip for the callers meanwhile', async () => {
    const notifier = new Notifier(databaseUrl(), () => {}, { catchUpMs: 0 });
    // Not listening yet: it cannot know, and says so.
    await expect(notifier.heardRevocations()).rejects.toThrow(/listening connection/);
    await notifier.start();
    try {
      const heard: (string | null)[] = [];
      notifier.onTokenRevoked((hash) => void heard.push(hash));
      for (let i = 0; i < 20; i++) {
        // Committed by another connection (another process's revoking statement).
        await db.query('SELECT pg_notify($1, $2)', [TOKENS_REVOKED_CHANNEL, `hash-${i}`]);
        await notifier.heardRevocations();
        expect(heard).toContain(`hash-${i}`);
      }
      // Many callers at once: all resolve, each after the revocation committed before it.
      await db.query('SELECT pg_notify($1, $2)', [TOKENS_REVOKED_CHANNEL, 'hash-many']);
      await Promise.all(Array.from({ length: 50 }, () => notifier.heardRevocations()));
      expect(heard).toContain('hash-many');
    } finally {
      await notifier.close();
    }
  });
});
