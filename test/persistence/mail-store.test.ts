/**
 * The mail store's statements on PostgreSQL: a message stored with its job, and marked
 * handled with its answer's job in one statement, once.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/persistence/database.ts';
import { MailStore } from '../../src/persistence/mail-store.ts';
import { databaseUrl } from '../support/server.ts';

let db: Database;
let store: MailStore;
beforeAll(async () => {
  db = await openDatabase(databaseUrl());
  store = new MailStore(db.prisma);
});
afterAll(async () => db?.close());

/** Jobs of a task no runner knows stay pending for the test to read. */
const jobsOf = async (task: string) =>
  (await db.pool.query(
    `SELECT j.payload, j.priority, j.max_attempts FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = $1 ORDER BY j.id`,
    [task],
  )).rows;
const forget = (task: string) => db.pool.query('DELETE FROM graphile_worker._private_jobs WHERE task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = $1)', [task]);

describe('the mail store', () => {
  it('marks a mail handled and queues its answer in one statement, once: a second call does nothing', async () => {
    const inboundTask = `test-inbound-${randomUUID().slice(0, 8)}`;
    const answerTask = `test-answer-${randomUUID().slice(0, 8)}`;
    const id = randomUUID();
    const stored = await store.receive({ id, messageId: `<${id}@example.org>`, raw: Buffer.from('Subject: x\r\n\r\nresign\r\n'), envelope: {} }, { task: inboundTask });
    expect(stored).toEqual({ id, duplicate: false });
    expect(await jobsOf(inboundTask)).toEqual([expect.objectContaining({ payload: { id } })]);

    const playerId = randomUUID();
    const answer = { task: answerTask, payload: { message: { to: 'bob@example.org', text: 'Applied' } }, maxAttempts: 10, priority: 3 };
    expect(await store.handled(id, playerId, 'applied 1', [answer])).toBe(true);
    expect(await jobsOf(answerTask)).toEqual([{ payload: answer.payload, priority: 3, max_attempts: 10 }]);
    const row = (await db.pool.query(`SELECT handled_at, player_id::text, outcome FROM inbound_mails WHERE id = $1`, [id])).rows[0];
    expect(row).toMatchObject({ player_id: playerId, outcome: 'applied 1' });
    expect(row.handled_at).toBeInstanceOf(Date);

    // Again (the job ran twice): no new mark, no second answer.
    expect(await store.handled(id, playerId, 'applied 1 again', [answer])).toBe(false);
    expect(await jobsOf(answerTask)).toHaveLength(1);
    expect((await db.pool.query(`SELECT outcome FROM inbound_mails WHERE id = $1`, [id])).rows[0].outcome).toBe('applied 1');
    expect((await store.inbound(id))!.handledAt).toEqual(row.handled_at);

    // Two at once: one marks and queues, the other neither.
    const other = randomUUID();
    await store.receive({ id: other, messageId: null, raw: Buffer.from('x'), envelope: {} }, { task: inboundTask });
    const both = await Promise.all([store.handled(other, null, 'one', [answer]), store.handled(other, null, 'two', [answer])]);
    expect(both.filter(Boolean)).toHaveLength(1);
    expect(await jobsOf(answerTask)).toHaveLength(2);
    await forget(inboundTask);
    await forget(answerTask);
  });

  it('marks a mail ignored without a job (nothing to answer)', async () => {
    const task = `test-inbound-${randomUUID().slice(0, 8)}`;
    const id = randomUUID();
    await store.receive({ id, messageId: null, raw: Buffer.from('x'), envelope: {} }, { task });
    expect(await store.handled(id, null, 'ignored: an auto-reply', [])).toBe(true);
    expect((await store.inbound(id))!.handledAt).not.toBeNull();
    await forget(task);
  });
});
