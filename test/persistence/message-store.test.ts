/**
 * The message store on PostgreSQL: its reader filter is the SQL's, so the property the core
 * test checks on the memory ports is checked here against the query itself (random messages,
 * every set of a reader's seats); a send stores its jobs with it (a `when` job only when
 * someone listens) and nothing at all when the sender's minute is full, concurrent senders
 * included.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mayRead } from '../../src/app/messages.ts';
import { openDatabase, type Database } from '../../src/persistence/database.ts';
import { MessageStore } from '../../src/persistence/message-store.ts';
import { WebhookStore } from '../../src/persistence/webhook-store.ts';
import { databaseUrl } from '../support/server.ts';

let db: Database;
let store: MessageStore;
beforeAll(async () => {
  db = await openDatabase(databaseUrl());
  store = new MessageStore(db.prisma);
});
afterAll(async () => db?.close());

const SEATS = ['north', 'east', 'south'];
const SUBSETS = [[], ['north'], ['east'], ['south'], ['north', 'east'], ['north', 'south'], ['east', 'south'], SEATS];

async function aGame(): Promise<string> {
  const id = randomUUID();
  await db.prisma.game.create({ data: { id, type: 'guessing-game', options: {}, players: SEATS.map((seat) => ({ seat, name: seat })), seedCommitment: 'c', seed: 's', status: 'ACTIVE' } });
  return id;
}

const jobsOf = async (task: string) =>
  (await db.pool.query(`SELECT j.payload FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = $1`, [task])).rows.map((r) => r.payload);

describe('the message store', () => {
  it('reads back to each reader exactly the messages its seats may read (property, against the SQL)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ from: fc.integer({ min: 0, max: 2 }), to: fc.option(fc.uniqueArray(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 3 }), { nil: null }) }), { minLength: 1, maxLength: 10 }),
        async (messages) => {
          const gameId = await aGame();
          const sent = [];
          for (const m of messages) {
            const r = await store.send({ id: randomUUID(), gameId, from: SEATS[m.from]!, to: m.to ? m.to.map((i) => SEATS[i]!) : null, text: 'x' }, `test:${randomUUID()}`, { count: 20, seconds: 60 }, []);
            sent.push(r.stored!);
          }
          expect(await store.lastSeq(gameId)).toBe(sent[sent.length - 1]!.seq);
          for (const seats of SUBSETS) {
            const expected = sent.filter((m) => mayRead(m, seats)).map((m) => m.id);
            expect((await store.readable(gameId, seats, 0, 100)).map((m) => m.id), seats.join(',')).toEqual(expected);
            // A page after the first one readable.
            if (expected.length > 1) {
              const first = sent.find((m) => m.id === expected[0])!;
              expect((await store.readable(gameId, seats, first.seq, 1)).map((m) => m.id)).toEqual([expected[1]]);
            }
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('stores a message with its jobs, a `when` job only when someone listens; a full minute stores nothing', async () => {
    const gameId = await aGame();
    const task = `test-nobody-${randomUUID().slice(0, 8)}`;
    const sender = `test:${randomUUID()}`;
    const limit = { count: 2, seconds: 60 };
    const send = (text: string) => store.send({ id: randomUUID(), gameId, from: 'north', to: null, text }, sender, limit, [{ task, payload: { text } }, { task, payload: { text, heard: true }, when: 'listened' }]);
    const one = await send('one');
    expect(one).toMatchObject({ count: 1, stored: { from: 'north', to: null, text: 'one' } });
    expect((await send('two')).stored?.text).toBe('two');
    const three = await send('three');
    expect(three.stored).toBeNull();
    expect(three.count).toBe(3);
    expect(three.resetsAt.getTime()).toBeGreaterThan(Date.now() - 5_000);
    expect((await store.readable(gameId, [], 0, 100)).map((m) => m.text)).toEqual(['one', 'two']);
    // Nobody listens to this game: only the unconditional jobs, and none for the refused one.
    expect((await jobsOf(task)).sort((a, b) => a.text.localeCompare(b.text))).toEqual([{ text: 'one' }, { text: 'two' }]);
    // Someone listens now (a webhook on the game): the same send adds the `when` job too.
    const playerId = randomUUID();
    await db.prisma.player.create({ data: { id: playerId, name: 'P' } });
    await new WebhookStore(db.prisma, db.queryPool, db.url).create({ id: randomUUID(), playerId, gameId, url: 'https://example.com/hook', events: ['MESSAGE'], secret: 'sealed' });
    const heard = await store.send({ id: randomUUID(), gameId, from: 'north', to: null, text: 'four' }, `test:${randomUUID()}`, limit, [{ task, payload: { text: 'four' } }, { task, payload: { text: 'four', heard: true }, when: 'listened' }]);
    expect(heard.stored?.text).toBe('four');
    expect((await jobsOf(task)).filter((j) => j.text === 'four').sort((a, b) => Number(!!a.heard) - Number(!!b.heard))).toEqual([{ text: 'four' }, { text: 'four', heard: true }]);
    await db.pool.query('DELETE FROM graphile_worker._private_jobs WHERE task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = $1)', [task]);
  });

  it('counts concurrent senders once each: 12 at once with room for 5 store 5', async () => {
    const gameId = await aGame();
    const sender = `test:${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => store.send({ id: randomUUID(), gameId, from: 'east', to: ['north'], text: `m${i}` }, sender, { count: 5, seconds: 60 }, [])));
    expect(results.filter((r) => r.stored)).toHaveLength(5);
    expect((await store.readable(gameId, ['north'], 0, 100))).toHaveLength(5);
    expect((await store.readable(gameId, ['south'], 0, 100))).toHaveLength(0);
  });
});
