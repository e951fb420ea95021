import { randomUUID, createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/persistence/database.ts';
import { EventStore } from '../../src/persistence/event-store.ts';
import { listMigrations, migrate } from '../../src/persistence/migrate.ts';
import { databaseUrl } from '../support/server.ts';

let db: Database;
let store: EventStore;
beforeAll(async () => {
  db = await openDatabase(databaseUrl());
  store = new EventStore(db.prisma);
});
afterAll(async () => db?.close());

async function newGame(events = 1) {
  const id = randomUUID();
  await store.createGame({
    game: { id, type: 't', options: {}, players: [{ seat: 'a', name: 'A' }], seedCommitment: 'c', seed: 's', status: 'ACTIVE', awaiting: ['a'], result: null },
    tokens: [{ tokenHash: createHash('sha256').update(id).digest('hex'), seat: 'a', name: 'A' }],
    events: Array.from({ length: events }, (_, i) => ({ type: 'Setup', seat: null, data: { type: 'Setup', i } })),
  });
  return id;
}

const summary = { status: 'ACTIVE', awaiting: ['a'], result: null };

describe('migrations', () => {
  it('are recorded as prisma migrate deploy records them, and applying again changes nothing', async () => {
    expect(await migrate(databaseUrl())).toEqual([]);
    const rows = (await db.pool.query('SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name')).rows;
    expect(rows.map((r) => r.migration_name)).toEqual(listMigrations().map((m) => m.name));
    for (const [i, m] of listMigrations().entries()) {
      expect(rows[i].checksum).toBe(m.checksum);
      expect(rows[i].finished_at).not.toBeNull();
      expect(rows[i].applied_steps_count).toBe(1);
    }
  });

  it('give a database every Prisma model can be written to and read from', async () => {
    const id = await newGame(2);
    const appended = await store.append({ gameId: id, expectedVersion: 2, seat: 'a', command: { type: 'x' }, idempotencyKey: 'k', events: [{ type: 'E', seat: 'a', data: { type: 'E' }, rolls: [{ index: 0, sides: 6, value: 3 }] }], summary: { status: 'FINISHED', awaiting: [], result: { winners: ['a'], reason: 'r' } } });
    expect(appended).toMatchObject({ ok: true, firstVersion: 3, lastVersion: 3 });
    await store.saveSnapshot(id, 3, { any: 'state' });
    const game = await store.game(id);
    expect(game).toMatchObject({ version: 3, status: 'FINISHED', awaiting: [], result: { winners: ['a'], reason: 'r' }, players: [{ seat: 'a', name: 'A' }] });
    expect((await store.events(id)).map((e) => [e.version, e.type, e.rolls])).toEqual([[1, 'Setup', null], [2, 'Setup', null], [3, 'E', [{ index: 0, sides: 6, value: 3 }]]]);
    expect(await store.commands(id)).toMatchObject([{ seat: 'a', command: { type: 'x' }, idempotencyKey: 'k', firstVersion: 3, lastVersion: 3 }]);
    expect(await store.snapshot(id)).toEqual({ version: 3, state: { any: 'state' } });
    expect(await store.seatForToken(createHash('sha256').update(id).digest('hex'))).toEqual({ gameId: id, seat: 'a' });
    expect((await store.listGames({ ids: [id] }, 5)).map((g) => g.id)).toEqual([id]);
  });
});

describe('appending', () => {
  it('lets exactly one of 50 concurrent appends at the same expected version win, leaving no gap and no duplicate', async () => {
    const id = await newGame(1);
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        store.append({ gameId: id, expectedVersion: 1, seat: 'a', command: { i }, idempotencyKey: null, events: [{ type: 'E', seat: 'a', data: { i } }, { type: 'F', seat: 'a', data: { i } }], summary }),
      ),
    );
    const winners = outcomes.filter((o) => o.ok);
    expect(winners).toHaveLength(1);
    for (const o of outcomes.filter((o) => !o.ok)) expect(o).toEqual({ ok: false, conflict: 'VERSION', currentVersion: 3 });
    const events = await store.events(id);
    expect(events.map((e) => e.version)).toEqual([1, 2, 3]);
    expect(events[1]!.data).toEqual(events[2]!.data); // both from the single winner
    expect((await store.game(id))!.version).toBe(3);
    expect(await store.commands(id)).toHaveLength(1);
  });

  it('refuses a version that is behind or ahead, storing nothing', async () => {
    const id = await newGame(2);
    for (const expectedVersion of [1, 5]) {
      const o = await store.append({ gameId: id, expectedVersion, seat: 'a', command: {}, idempotencyKey: null, events: [{ type: 'E', seat: 'a', data: {} }], summary });
      expect(o).toEqual({ ok: false, conflict: 'VERSION', currentVersion: 2 });
    }
    expect(await store.events(id)).toHaveLength(2);
  });

  it('finds a command again by its idempotency key and stores it once', async () => {
    const id = await newGame(1);
    const first = await store.append({ gameId: id, expectedVersion: 1, seat: 'a', command: { n: 1 }, idempotencyKey: 'same', events: [{ type: 'E', seat: 'a', data: {} }], summary });
    expect(first.ok).toBe(true);
    const again = await store.append({ gameId: id, expectedVersion: 2, seat: 'a', command: { n: 1 }, idempotencyKey: 'same', events: [{ type: 'E', seat: 'a', data: {} }], summary });
    expect(again).toMatchObject({ ok: false, conflict: 'IDEMPOTENCY', existing: { firstVersion: 2, lastVersion: 2 } });
    expect(await store.events(id)).toHaveLength(2);
    expect((await store.game(id))!.version).toBe(2);
  });

  it('delivers a notification only after commit', async () => {
    const client = await db.pool.connect();
    const got: string[] = [];
    client.on('notification', (m) => got.push(m.payload!));
    await client.query('LISTEN game_events');
    const id = await newGame(1);
    await store.append({ gameId: id, expectedVersion: 1, seat: 'a', command: {}, idempotencyKey: null, events: [{ type: 'E', seat: 'a', data: {} }], summary });
    await store.append({ gameId: id, expectedVersion: 1, seat: 'a', command: {}, idempotencyKey: null, events: [{ type: 'E', seat: 'a', data: {} }], summary }); // conflict: rolled back
    await new Promise((r) => setTimeout(r, 200));
    await client.query('UNLISTEN game_events');
    client.release();
    expect(got.map((p) => JSON.parse(p)).filter((p) => p.gameId === id)).toEqual([{ gameId: id, version: 1 }, { gameId: id, version: 2 }]);
  });
});
