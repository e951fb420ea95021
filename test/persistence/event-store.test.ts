import { randomUUID, createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/persistence/database.ts';
import { EventStore } from '../../src/persistence/event-store.ts';
import { BatchedRevisions } from '../../src/persistence/revisions.ts';
import { statementName } from '../../src/persistence/statements.ts';
import { listMigrations, migrate } from '../../src/persistence/migrate.ts';
import { ownDatabase } from '../support/own-database.ts';
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
    game: { id, type: 't', options: {}, players: [{ seat: 'a', name: 'A' }], seedCommitment: 'c', seed: 's', status: 'ACTIVE', awaiting: ['a'], result: null, rules: 'r' },
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
    const appended = await store.append({ gameId: id, expectedVersion: 2, seat: 'a', command: { type: 'x' }, idempotencyKey: 'k', events: [{ type: 'E', seat: 'a', data: { type: 'E' }, rolls: [{ index: 0, sides: 6, value: 3 }] }], summary: { status: 'FINISHED', awaiting: [], result: { winners: ['a'], reason: 'r' } }, outbox: [] });
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

  it('give players, their codes and links, and the registration counts the columns the schema names (round three)', async () => {
    const id = randomUUID();
    const player = await db.prisma.player.create({ data: { id, name: 'P', email: 'p@example.org', emailCodeHash: 'h'.repeat(64), emailCodeExpires: new Date(Date.now() + 60_000) } });
    expect(player).toMatchObject({ emailCodeHash: 'h'.repeat(64), emailCodeAttempts: 0, unsubscribeVersion: 0 });
    expect((await db.prisma.player.update({ where: { id }, data: { unsubscribeVersion: { increment: 1 } } })).unsubscribeVersion).toBe(1);
    const address = `test:${id}`;
    const limit = await db.prisma.registrationLimit.create({ data: { address, count: 3 } });
    expect(limit).toMatchObject({ address, count: 3, windowStart: expect.any(Date) });
    expect(await db.prisma.registrationLimit.findUnique({ where: { address } })).toEqual(limit);
    await db.prisma.registrationLimit.delete({ where: { address } });
  });
});

describe('appending', () => {
  it('lets exactly one of 50 concurrent appends at the same expected version win, leaving no gap and no duplicate', async () => {
    const id = await newGame(1);
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        store.append({ gameId: id, expectedVersion: 1, seat: 'a', command: { i }, idempotencyKey: null, events: [{ type: 'E', seat: 'a', data: { i } }, { type: 'F', seat: 'a', data: { i } }], summary, outbox: [] }),
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
      const o = await store.append({ gameId: id, expectedVersion, seat: 'a', command: {}, idempotencyKey: null, events: [{ type: 'E', seat: 'a', data: {} }], summary, outbox: [] });
      expect(o).toEqual({ ok: false, conflict: 'VERSION', currentVersion: 2 });
    }
    expect(await store.events(id)).toHaveLength(2);
  });

  it('finds a command again by its idempotency key and stores it once', async () => {
    const id = await newGame(1);
    const first = await store.append({ gameId: id, expectedVersion: 1, seat: 'a', command: { n: 1 }, idempotencyKey: 'same', events: [{ type: 'E', seat: 'a', data: {} }], summary, outbox: [] });
    expect(first.ok).toBe(true);
    const again = await store.append({ gameId: id, expectedVersion: 2, seat: 'a', command: { n: 1 }, idempotencyKey: 'same', events: [{ type: 'E', seat: 'a', data: {} }], summary, outbox: [] });
    expect(again).toMatchObject({ ok: false, conflict: 'IDEMPOTENCY', existing: { firstVersion: 2, lastVersion: 2 } });
    expect(await store.events(id)).toHaveLength(2);
    expect((await store.game(id))!.version).toBe(2);
  });

  it('writes outbox rows with the events, and none for a refused append', async () => {
    const id = await newGame(1);
    const outbox = [{ kind: 'EVENTS_APPENDED' as const, seat: null }, { kind: 'SEAT_AWAITED' as const, seat: 'a', data: { prompt: 'p' } }];
    const ok = await store.append({ gameId: id, expectedVersion: 1, seat: 'a', command: {}, idempotencyKey: 'o', events: [{ type: 'E', seat: 'a', data: {} }], summary, outbox });
    expect(ok.ok).toBe(true);
    // A version conflict and a reused key both store nothing, outbox rows included.
    await store.append({ gameId: id, expectedVersion: 1, seat: 'a', command: {}, idempotencyKey: null, events: [{ type: 'E', seat: 'a', data: {} }], summary, outbox });
    await store.append({ gameId: id, expectedVersion: 2, seat: 'a', command: {}, idempotencyKey: 'o', events: [{ type: 'E', seat: 'a', data: {} }], summary, outbox });
    expect((await store.outbox(id)).map((o) => [o.version, o.kind, o.seat, o.data])).toEqual([[2, 'EVENTS_APPENDED', null, {}], [2, 'SEAT_AWAITED', 'a', { prompt: 'p' }]]);
  });

  it('gives events a global position that increases across games', async () => {
    const a = await newGame(1);
    const b = await newGame(1);
    const first = await store.append({ gameId: a, expectedVersion: 1, seat: 'a', command: {}, idempotencyKey: null, events: [{ type: 'E', seat: 'a', data: {} }, { type: 'F', seat: 'a', data: {} }], summary, outbox: [] });
    const second = await store.append({ gameId: b, expectedVersion: 1, seat: 'a', command: {}, idempotencyKey: null, events: [{ type: 'E', seat: 'a', data: {} }], summary, outbox: [] });
    if (!first.ok || !second.ok) throw new Error('append failed');
    const positions = [...first.events, ...second.events].map((e) => BigInt(e.position!));
    expect([...positions].sort((x, y) => (x < y ? -1 : 1))).toEqual(positions);
    expect(new Set(positions).size).toBe(3);
    expect((await store.events(a)).slice(1).map((e) => e.position)).toEqual(first.events.map((e) => e.position));
  });

  it('stores a command of the service itself, which has no seat', async () => {
    const id = await newGame(1);
    const o = await store.append({ gameId: id, expectedVersion: 1, seat: null, command: { type: 'timeOut', seat: 'a' }, idempotencyKey: null, events: [{ type: 'TimedOut', seat: null, data: {} }], summary, outbox: [] });
    expect(o.ok).toBe(true);
    expect(await store.commands(id)).toMatchObject([{ seat: null, command: { type: 'timeOut', seat: 'a' } }]);
  });
});

describe('an append to a game that does not exist', () => {
  it('writes nothing: its rows come from the game row it updates (no foreign key needed)', async () => {
    const id = randomUUID();
    const outcome = await store.append({ gameId: id, expectedVersion: 0, seat: 'a', command: {}, idempotencyKey: 'k', events: [{ type: 'E', seat: 'a', data: {} }], summary, outbox: [{ kind: 'EVENTS_APPENDED', seat: null }] });
    expect(outcome).toMatchObject({ ok: false, conflict: 'VERSION' });
    for (const table of ['game_events', 'commands', 'outbox']) {
      expect((await db.pool.query(`SELECT count(*)::int AS n FROM ${table} WHERE game_id = $1`, [id])).rows[0].n).toBe(0);
    }
  });
});

describe('the record an append returns', () => {
  it('is the row as stored, with its revision, whether the append read back the whole row or only the changing columns over the caller\'s record', async () => {
    const id = await newGame(1);
    const whole = await store.append({ gameId: id, expectedVersion: 1, seat: 'a', command: {}, idempotencyKey: null, events: [{ type: 'E', seat: 'a', data: {} }], summary, outbox: [] });
    if (!whole.ok) throw new Error('not appended');
    expect(whole.game).toEqual(await store.game(id));
    // A seat handed to the bot meanwhile (no new version): the caller's record does not know it.
    await db.pool.query(`UPDATE games SET bots = ARRAY['a'] WHERE id = $1::uuid`, [id]);
    const done = { status: 'FINISHED', awaiting: [], result: { winners: ['a'], reason: 'r' } };
    const over = await store.append({ gameId: id, expectedVersion: 2, seat: 'a', command: {}, idempotencyKey: null, events: [{ type: 'E', seat: 'a', data: {} }], summary: done, outbox: [], base: whole.game });
    if (!over.ok) throw new Error('not appended');
    // Assembled over the caller's record, it is the row, revision and all: a later read may trust it.
    const row = (await store.game(id))!;
    expect(row.revision).toMatch(/^\d+\/3$/);
    expect(over.game).toEqual(row);
    expect(over.game).toMatchObject({ version: 3, status: 'FINISHED', awaiting: [], result: done.result, bots: ['a'] });
  });
});

describe('the revision of a game row', () => {
  it('is the same for the same row, and changes with any update of it, the version unchanged too', async () => {
    const revisions = new BatchedRevisions({ pool: db.queryPool, preparedStatements: db.preparedStatements });
    const id = await newGame(1);
    const read = (await store.game(id))!;
    expect(read.revision).toMatch(/^\d+\/1$/);
    expect((await revisions.revision(id))?.revision).toBe(read.revision);
    expect(await revisions.revision(randomUUID())).toBeNull();
    expect(await store.gameNow(randomUUID())).toBeNull();

    // A command: the append's own revision is the row's.
    const appended = await store.append({ gameId: id, expectedVersion: 1, seat: 'a', command: {}, idempotencyKey: null, events: [{ type: 'E', seat: 'a', data: {} }], summary, outbox: [] });
    if (!appended.ok) throw new Error('not appended');
    const after = (await store.gameNow(id))?.game;
    expect(after).toEqual(await store.game(id));
    expect(after).toMatchObject({ version: 2 });
    expect(appended.game.revision).toBe(after!.revision);
    expect((await revisions.revision(id))?.revision).toBe(appended.game.revision);

    // An update that leaves the version alone (as the lobby's and the handover's do).
    await db.pool.query(`UPDATE games SET bots = ARRAY['a'] WHERE id = $1::uuid`, [id]);
    const changed = (await store.gameNow(id))?.game;
    expect(changed).toMatchObject({ version: 2, bots: ['a'] });
    expect(changed!.revision).not.toBe(appended.game.revision);
    expect((await revisions.revision(id))?.revision).toBe(changed!.revision);
  });
});

describe('named statements', () => {
  it('name the append and the game read, and survive a column added to games while they are cached', async () => {
    expect(statementName({ sql: 'SELECT 1' })).toBeUndefined();
    // A database of its own: the ALTER TABLE below must not lock another test file's games.
    const named = await ownDatabase('named');
    const own = await openDatabase(named.url, () => {}, undefined, { poolSize: 1 });
    try {
      const s = new EventStore(own.prisma);
      const id = randomUUID();
      await s.createGame({
        game: { id, type: 't', options: {}, players: [{ seat: 'a', name: 'A' }], seedCommitment: 'c', seed: 's', status: 'ACTIVE', awaiting: ['a'], result: null, rules: 'r' },
        tokens: [], events: [{ type: 'Setup', seat: null, data: { type: 'Setup' } }],
      });
      const append = (v: number) => s.append({ gameId: id, expectedVersion: v, seat: 'a', command: { v }, idempotencyKey: null, events: [{ type: 'E', seat: 'a', data: { v } }], summary, outbox: [] });
      // Past the five custom plans, so PostgreSQL holds a generic plan for the one connection.
      for (let v = 1; v <= 7; v++) expect(await append(v)).toMatchObject({ ok: true });
      expect(await s.game(id)).toMatchObject({ version: 8 });
      const held = (await own.queryPool.query('SELECT name FROM pg_prepared_statements')).rows.map((r) => r.name);
      expect(held).toEqual(expect.arrayContaining([expect.stringMatching(/^ws_/)]));
      // What a migration of a newer version does while this process runs: a statement that
      // selected * would now fail with "cached plan must not change result type".
      await own.pool.query('ALTER TABLE games ADD COLUMN later_column INTEGER');
      expect(await append(8)).toMatchObject({ ok: true, lastVersion: 9 });
      expect(await s.game(id)).toMatchObject({ version: 9 });
    } finally {
      await own.close();
      await named.drop();
    }
  });
});
