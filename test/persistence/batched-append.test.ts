/**
 * The appends of one turn of the event loop share a statement (APPEND_BATCH_SQL, a group
 * commit) when the store has the pg pool, as the service's has: each must come out exactly
 * as if it had run alone, whatever the others in its statement do.
 */
import { randomUUID, createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppendInput, GameRecord } from '../../src/app/ports.ts';
import { openDatabase, type Database } from '../../src/persistence/database.ts';
import { EventStore } from '../../src/persistence/event-store.ts';
import { databaseUrl } from '../support/server.ts';

let db: Database;
let other: Database;
let store: EventStore;
/** A second process's store: its own pool. */
let rival: EventStore;
beforeAll(async () => {
  db = await openDatabase(databaseUrl());
  other = await openDatabase(databaseUrl());
  store = new EventStore(db.prisma, { pool: db.queryPool, preparedStatements: true });
  rival = new EventStore(other.prisma, { pool: other.queryPool, preparedStatements: true });
});
afterAll(async () => {
  await db?.close();
  await other?.close();
});

const summary = { status: 'ACTIVE', awaiting: ['a'], result: null };

async function newGame(): Promise<GameRecord> {
  const id = randomUUID();
  return store.createGame({
    game: { id, type: 't', options: {}, players: [{ seat: 'a', name: 'A' }], seedCommitment: 'c', seed: 's', status: 'ACTIVE', awaiting: ['a'], result: null, rules: 'r' },
    tokens: [{ tokenHash: createHash('sha256').update(id).digest('hex'), seat: 'a', name: 'A' }],
    events: [{ type: 'Setup', seat: null, data: { type: 'Setup' } }],
  });
}

/** A command at the game's version, decided on the record given (as the command path appends). */
function command(game: GameRecord, extra: Partial<AppendInput> = {}): AppendInput {
  return {
    gameId: game.id, expectedVersion: game.version, seat: 'a', command: { type: 'guess', n: game.version }, idempotencyKey: null,
    events: [{ type: 'Guessed', seat: 'a', data: { n: game.version } }, { type: 'Hinted', seat: null, data: {}, rolls: [3] }],
    summary, outbox: [{ kind: 'EVENTS_APPENDED', seat: null }], base: game, ...extra,
  };
}

/** The transactions the games' commands were stored by. */
async function transactions(ids: string[]): Promise<number> {
  const { rows } = await db.pool.query(`SELECT count(DISTINCT xmin::text)::int AS n FROM commands WHERE game_id = ANY($1::uuid[])`, [ids]);
  return rows[0].n;
}

describe('appends made together', () => {
  it('are stored in one transaction, each answered with its own row, revision, events and positions as stored', async () => {
    const games = await Promise.all(Array.from({ length: 12 }, () => newGame()));
    const outcomes = await Promise.all(games.map((g) => store.append(command(g))));
    expect(await transactions(games.map((g) => g.id))).toBe(1);
    for (const [i, o] of outcomes.entries()) {
      if (!o.ok) throw new Error(`append ${i} refused`);
      const id = games[i]!.id;
      expect(o.game).toEqual(await store.game(id));
      expect(o.game.revision).toMatch(/^\d+\/3$/);
      expect(o).toMatchObject({ firstVersion: 2, lastVersion: 3 });
      const stored = (await store.events(id)).slice(1);
      expect(o.events).toEqual(stored);
      expect(stored.map((e) => [e.type, e.rolls, e.commandId])).toEqual([['Guessed', null, o.commandId], ['Hinted', [3], o.commandId]]);
      expect(await store.commands(id)).toMatchObject([{ id: o.commandId, seat: 'a', command: { type: 'guess', n: 1 }, firstVersion: 2, lastVersion: 3 }]);
      expect((await store.outbox(id)).map((r) => [r.version, r.kind])).toEqual([[3, 'EVENTS_APPENDED']]);
    }
    // The next round goes on from the records the batch returned.
    const again = await Promise.all(outcomes.map((o) => store.append(command((o as { game: GameRecord }).game))));
    expect(again.every((o) => o.ok && o.lastVersion === 5)).toBe(true);
  });

  it('leave the others stored when one is behind its game: that one alone is refused with the version now', async () => {
    const games = await Promise.all(Array.from({ length: 5 }, () => newGame()));
    const moved = await store.append(command(games[2]!));
    if (!moved.ok) throw new Error('not appended');
    const outcomes = await Promise.all(games.map((g) => store.append(command(g))));
    expect(outcomes[2]).toEqual({ ok: false, conflict: 'VERSION', currentVersion: 3 });
    for (const i of [0, 1, 3, 4]) expect(outcomes[i]).toMatchObject({ ok: true, lastVersion: 3 });
    expect((await store.events(games[2]!.id)).map((e) => e.version)).toEqual([1, 2, 3]);
  });

  it('leave the others stored when one reuses an idempotency key: that one gets the command stored first, nothing twice', async () => {
    const games = await Promise.all(Array.from({ length: 4 }, () => newGame()));
    const first = await store.append(command(games[1]!, { idempotencyKey: 'k' }));
    if (!first.ok) throw new Error('not appended');
    const outcomes = await Promise.all(games.map((g, i) => store.append(command(i === 1 ? first.game : g, { idempotencyKey: 'k' }))));
    expect(outcomes[1]).toMatchObject({ ok: false, conflict: 'IDEMPOTENCY', existing: { id: first.commandId, firstVersion: 2 } });
    for (const i of [0, 2, 3]) expect(outcomes[i]).toMatchObject({ ok: true, lastVersion: 3 });
    expect(await store.commands(games[1]!.id)).toHaveLength(1);
    for (const i of [0, 2, 3]) expect(await store.commands(games[i]!.id)).toHaveLength(1);
  });

  it('of one game at the same version: exactly one is stored, the others find the game moved on', async () => {
    const game = await newGame();
    const bystander = await newGame();
    const outcomes = await Promise.all([...Array.from({ length: 6 }, (_, i) => store.append(command(game, { command: { i } }))), store.append(command(bystander))]);
    expect(outcomes.filter((o) => o.ok)).toHaveLength(2);
    expect(outcomes[6]).toMatchObject({ ok: true });
    for (const o of outcomes.slice(0, 6).filter((o) => !o.ok)) expect(o).toEqual({ ok: false, conflict: 'VERSION', currentVersion: 3 });
    expect((await store.events(game.id)).map((e) => e.version)).toEqual([1, 2, 3]);
    expect(await store.commands(game.id)).toHaveLength(1);
  });

  it('by two processes over the same games in opposite orders: each game gets exactly one of its two commands, round after round', async () => {
    let games = await Promise.all(Array.from({ length: 10 }, () => newGame()));
    for (let round = 0; round < 5; round++) {
      const mine = games.map((g) => store.append(command(g, { command: { by: 'mine' } })));
      const theirs = [...games].reverse().map((g) => rival.append(command(g, { command: { by: 'theirs' } })));
      const [a, b] = await Promise.all([Promise.all(mine), Promise.all(theirs)]);
      b.reverse();
      games = games.map((g, i) => {
        const won = [a[i]!, b[i]!].filter((o) => o.ok);
        expect(won).toHaveLength(1);
        const loser = [a[i]!, b[i]!].find((o) => !o.ok);
        expect(loser).toEqual({ ok: false, conflict: 'VERSION', currentVersion: g.version + 2 });
        return (won[0] as { game: GameRecord }).game;
      });
    }
    for (const g of games) expect((await store.events(g.id)).map((e) => e.version)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
  });

  it('add each commit\'s own jobs, and none for the one refused', async () => {
    const games = await Promise.all(Array.from({ length: 3 }, () => newGame()));
    const moved = await store.append(command(games[0]!));
    if (!moved.ok) throw new Error('not appended');
    const job = (g: GameRecord) => [{ task: 'batched-append-test', payload: { game: g.id }, key: `batched-append-test:${g.id}`, runAfterSeconds: 3600 }];
    const outcomes = await Promise.all(games.map((g) => store.append(command(g, { jobs: job(g) }))));
    expect(outcomes.map((o) => o.ok)).toEqual([false, true, true]);
    const { rows } = await db.pool.query(
      `SELECT j.key FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = 'batched-append-test' ORDER BY j.key`,
    );
    expect(rows.map((r) => r.key)).toEqual([`batched-append-test:${games[1]!.id}`, `batched-append-test:${games[2]!.id}`].sort());
    await db.pool.query(`DELETE FROM graphile_worker._private_jobs WHERE task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = 'batched-append-test')`);
  });

  it('mark each game\'s outbox rows heard only when someone listens to it, together and alone', async () => {
    const player = async (mail = false) => {
      const id = randomUUID();
      await db.prisma.player.create({ data: { id, name: 'P', ...(mail ? { email: `${id}@example.com`, emailVerified: true, notifyByEmail: true } : {}) } });
      return id;
    };
    const hook = async (playerId: string, gameId: string | null) =>
      db.prisma.webhook.create({ data: { id: randomUUID(), playerId, gameId, url: 'https://example.com/hook', events: ['EVENT_APPENDED'], secret: 'sealed' } });
    const [nobody, onGame, byPlayer, byMail, quiet] = await Promise.all(Array.from({ length: 5 }, () => newGame()));
    const [p2, p3, p4, p5] = [await player(), await player(), await player(true), await player()];
    await hook(p2, onGame!.id); // a webhook on the game, of a player not in it
    await hook(p3, null); // player-wide, of a player in the game
    await hook(p5, onGame!.id); // a player of quiet's, on another game only
    const players: [GameRecord, string[]][] = [[byPlayer!, [p3]], [byMail!, [p4]], [quiet!, [p5]]];
    for (const [g, ids] of players) await db.pool.query('UPDATE games SET player_ids = $2::uuid[] WHERE id = $1::uuid', [g.id, ids]);
    const games = [nobody!, onGame!, byPlayer!, byMail!, quiet!];
    const heard = async () =>
      (await db.pool.query<{ game_id: string; heard: boolean[] }>('SELECT game_id::text, array_agg(heard ORDER BY id) AS heard FROM outbox WHERE game_id = ANY($1::uuid[]) GROUP BY game_id', [games.map((g) => g.id)])).rows;
    const want = (n: number) => expect.arrayContaining(games.map((g) => ({ game_id: g.id, heard: Array(n).fill(g === onGame || g === byPlayer || g === byMail) })));

    const together = await Promise.all(games.map((g) => store.append(command(g))));
    expect(await transactions(games.map((g) => g.id))).toBe(1);
    expect(await heard()).toEqual(want(1));
    for (const [i, g] of games.entries()) {
      const o = together[i]!;
      if (!o.ok) throw new Error('refused');
      await store.append(command({ ...g, version: o.lastVersion }));
    }
    expect(await heard()).toEqual(want(2));
  });
});


describe('appends made while a statement is in flight', () => {
  /** Holds a game's row lock in a transaction of its own, as a racing writer would, until released. */
  async function holdRow(id: string): Promise<() => Promise<void>> {
    const client = await db.pool.connect();
    await client.query('BEGIN');
    await client.query('SELECT 1 FROM games WHERE id = $1::uuid FOR UPDATE', [id]);
    let held = true;
    return async () => {
      if (!held) return;
      held = false;
      await client.query('ROLLBACK');
      client.release();
    };
  }
  const turn = () => new Promise((r) => setImmediate(r));

  it('wait for it and go together, made in different turns of the event loop', async () => {
    const patient = new EventStore(db.prisma, { pool: db.queryPool, preparedStatements: true, stallMs: 60_000 });
    const [locked, ...games] = await Promise.all(Array.from({ length: 4 }, () => newGame()));
    const release = await holdRow(locked!.id);
    const first = patient.append(command(locked!));
    await turn();
    const rest: Promise<unknown>[] = [];
    for (const g of games) {
      rest.push(patient.append(command(g)));
      await turn();
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(await transactions(games.map((g) => g.id).concat(locked!.id))).toBe(0);
    await release();
    expect(await first).toMatchObject({ ok: true });
    expect(await Promise.all(rest)).toMatchObject(games.map(() => ({ ok: true })));
    expect(await transactions(games.map((g) => g.id))).toBe(1);
    expect(await transactions([locked!.id, games[0]!.id])).toBe(2);
  });

  it('go at once as a second statement when a statement\'s worth waits behind it (fill)', async () => {
    const eager = new EventStore(db.prisma, { pool: db.queryPool, preparedStatements: true, stallMs: 60_000, fill: 3 });
    const [locked, ...games] = await Promise.all(Array.from({ length: 4 }, () => newGame()));
    const release = await holdRow(locked!.id);
    try {
      const first = eager.append(command(locked!));
      await turn();
      const rest: Promise<unknown>[] = [];
      for (const g of games) {
        rest.push(eager.append(command(g)));
        await turn();
      }
      // Without fill they would wait for the locked statement (stallMs is a minute).
      const held = new Promise((r) => setTimeout(() => r('held up behind the locked game'), 10_000).unref());
      expect(await Promise.race([Promise.all(rest), held])).toMatchObject(games.map(() => ({ ok: true })));
      expect(await transactions(games.map((g) => g.id))).toBe(1);
      expect(await transactions([locked!.id])).toBe(0);
      await release();
      expect(await first).toMatchObject({ ok: true });
    } finally {
      await release();
    }
  });

  it('go anyway after a while when it waits on a game\'s row lock: no other game is held up behind it', async () => {
    const [locked, other] = await Promise.all([newGame(), newGame()]);
    const release = await holdRow(locked!.id);
    try {
      const first = store.append(command(locked!));
      await turn();
      // Its default wait is 20 ms; without it, this append would wait for the lock's release.
      const held = new Promise((r) => setTimeout(() => r('held up behind the locked game'), 10_000).unref());
      expect(await Promise.race([store.append(command(other!)), held])).toMatchObject({ ok: true, lastVersion: 3 });
      expect(await transactions([locked!.id])).toBe(0);
      await release();
      expect(await first).toMatchObject({ ok: true, lastVersion: 3 });
    } finally {
      await release();
    }
  });
});
