/**
 * Play by mail's rate limit per player holds under workers: one HTTP process that only
 * stores mail, two worker services (four jobs at a time each) handling it at once, on one
 * database. A burst of replies from one player: exactly `perHour` are handled and answered,
 * the rest neither applied nor answered. The count is the database's (MailStore.admit), so
 * no worker's own count could let more through.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TASKS } from '../../src/app/tasks.ts';
import { games as hostedGames } from '../../src/domain/games.ts';
import { openDatabase, type Database } from '../../src/persistence/database.ts';
import { openService, type Service } from '../../src/server.ts';
import { mailPlayer } from '../support/mail-players.ts';
import { ownDatabase, type OwnDatabase } from '../support/own-database.ts';
import { startMailBox, until, type MailBox } from '../support/receivers.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const SECRET = 'inbound-secret-for-rate-limit-0123456789';
const DOMAIN = 'limit.wargames.test';
const PER_HOUR = 3;
let server: TestServer;
let box: MailBox;
const workers: { service: Service; database: Database }[] = [];
let db: OwnDatabase;

beforeAll(async () => {
  [box, db] = await Promise.all([startMailBox(), ownDatabase('mail_rate_limit')]);
  const shared = {
    mailer: { smtpUrl: box.url, from: 'Wargames <games@wargames.test>' },
    notifications: { publicUrl: 'http://wargames.test', allowPrivate: true },
    playByMail: { replyDomain: DOMAIN, perHour: PER_HOUR },
  };
  server = await startTestServer({ databaseUrl: db.url, rateLimit: 100_000, registrationsPerMinute: 10_000, ...shared, mailInboundSecret: SECRET });
  for (let i = 0; i < 2; i++) {
    const database = await openDatabase(db.url);
    workers.push({ database, service: await openService({ ...shared, database, games: hostedGames, http: false, workers: { pollInterval: 100, concurrency: 4 } }) });
  }
});
afterAll(async () => {
  for (const w of workers) {
    await w.service.close();
    await w.database.close();
  }
  await server?.close();
  await box?.close();
  await db?.drop();
});


/** A player who wants mail (registered, verified, mail on). */
const person = (name: string) => mailPlayer(server, box, name);

describe('play by mail under workers', () => {
  it('holds the per-player limit when a burst of replies is handled by several workers at once', async () => {
    const ada = await person('Ada');
    const bob = await person('Bob');
    const created = await server.gql(`mutation($i: CreateGameInput!) { createGame(input: $i) { game { id } inviteCode } }`, {
      i: { type: 'raid-on-wuchao', seats: [{ seat: 'cao', me: true }, { seat: 'yuan', open: true }] },
    }, ada.token);
    const id = created.data.createGame.game.id as string;
    await server.gql(`mutation($id: ID!, $code: String) { joinGame(gameId: $id, inviteCode: $code) { game { status } } }`, { id, code: created.data.createGame.inviteCode }, bob.token);
    const turn = await until(() => box.to(bob.email).find((m) => m.replyTo), 20_000, "Bob's your-turn mail");
    const replyTo = turn.replyTo!.value[0]!.address!;

    // Eight replies at once (each refused: no order in them, so the game stays where it is
    // and every one that gets through is answered).
    const ids = Array.from({ length: 8 }, () => `<burst-${randomUUID()}@example.org>`);
    const posted = await Promise.all(ids.map((messageId) => server.app.inject({
      method: 'POST', url: '/api/mail/inbound', headers: { 'content-type': 'message/rfc822', authorization: `Bearer ${SECRET}` },
      payload: `From: ${bob.email}\r\nTo: ${replyTo}\r\nSubject: Re: ${turn.subject}\r\nMessage-ID: ${messageId}\r\nIn-Reply-To: ${turn.messageId}\r\n\r\nnot an order\r\n`,
    })));
    expect(posted.map((p) => p.statusCode)).toEqual(ids.map(() => 202));
    const stored = posted.map((p) => p.json().id as string);
    const outcomes = await until(async () => {
      const records = await Promise.all(stored.map((s) => server.core.ports.mail.inbound(s)));
      if (!records.every((r) => r?.handledAt)) return false;
      const { rows } = await workers[0]!.database.pool.query(`SELECT outcome FROM inbound_mails WHERE id = ANY($1::uuid[])`, [stored]);
      return rows.map((r) => r.outcome as string);
    }, 30_000, 'the burst handled');
    expect(outcomes.filter((o) => o === 'ignored: rate limited')).toHaveLength(8 - PER_HOUR);
    expect(outcomes.filter((o) => o.startsWith('refused: '))).toHaveLength(PER_HOUR);

    await until(() => box.mails.filter((m) => ids.includes(m.inReplyTo ?? '')).length >= PER_HOUR, 20_000, 'the answers');
    // Every answer is queued with its mail's mark (all handled above): once no mail job is left, an answer too many has landed.
    await until(async () => (await server.queue.pending()).every((j) => j.task_identifier !== TASKS.mail && j.task_identifier !== TASKS.mailInbound), 20_000, 'the mail jobs run');
    expect(box.mails.filter((m) => ids.includes(m.inReplyTo ?? ''))).toHaveLength(PER_HOUR);

    // The hour is the player's, not the game's: one more reply later in it is not handled either.
    const late = `<late-${randomUUID()}@example.org>`;
    const more = await server.app.inject({
      method: 'POST', url: '/api/mail/inbound', headers: { 'content-type': 'message/rfc822', authorization: `Bearer ${SECRET}` },
      payload: `From: ${bob.email}\r\nTo: ${replyTo}\r\nSubject: Re: x\r\nMessage-ID: ${late}\r\n\r\nnot an order\r\n`,
    });
    await until(async () => (await server.core.ports.mail.inbound(more.json().id))?.handledAt, 20_000, 'the late reply handled');
    const { rows } = await workers[0]!.database.pool.query(`SELECT outcome FROM inbound_mails WHERE id = $1::uuid`, [more.json().id]);
    expect(rows[0].outcome).toBe('ignored: rate limited');
  }, 120_000);

  it('counts only admitted mails: once they are an hour old the player is admitted again, however many were refused since', async () => {
    const carol = await person('Carol');
    const dan = await person('Dan');
    const created = await server.gql(`mutation($i: CreateGameInput!) { createGame(input: $i) { game { id } inviteCode } }`, {
      i: { type: 'raid-on-wuchao', seats: [{ seat: 'cao', me: true }, { seat: 'yuan', open: true }] },
    }, carol.token);
    const id = created.data.createGame.game.id as string;
    await server.gql(`mutation($id: ID!, $code: String) { joinGame(gameId: $id, inviteCode: $code) { game { status } } }`, { id, code: created.data.createGame.inviteCode }, dan.token);
    const turn = await until(() => box.to(dan.email).find((m) => m.replyTo), 20_000, "Dan's your-turn mail");
    const replyTo = turn.replyTo!.value[0]!.address!;
    const { pool } = workers[0]!.database;
    /** `n` replies at once (no order in them), handled: their ids by outcome. */
    const burst = async (n: number) => {
      const posted = await Promise.all(Array.from({ length: n }, () => server.app.inject({
        method: 'POST', url: '/api/mail/inbound', headers: { 'content-type': 'message/rfc822', authorization: `Bearer ${SECRET}` },
        payload: `From: ${dan.email}\r\nTo: ${replyTo}\r\nSubject: Re: x\r\nMessage-ID: <again-${randomUUID()}@example.org>\r\n\r\nnot an order\r\n`,
      })));
      const stored = posted.map((p) => p.json().id as string);
      const rows = await until(async () => {
        const { rows } = await pool.query(`SELECT id::text, outcome FROM inbound_mails WHERE id = ANY($1::uuid[]) AND handled_at IS NOT NULL`, [stored]);
        return rows.length === n && (rows as { id: string; outcome: string }[]);
      }, 30_000, 'the replies handled');
      return { admitted: rows.filter((r) => r.outcome.startsWith('refused: ')).map((r) => r.id), limited: rows.filter((r) => r.outcome === 'ignored: rate limited').map((r) => r.id) };
    };

    // As many refused as admitted: counted, the refused ones alone would fill the next hour.
    const first = await burst(2 * PER_HOUR);
    expect(first.admitted).toHaveLength(PER_HOUR);
    expect(first.limited).toHaveLength(PER_HOUR);
    // An hour on (rows moved back rather than a wait): the admitted ones are 61 minutes old,
    // the refused ones, sent in the meantime, 30.
    await pool.query(`UPDATE inbound_mails SET received_at = received_at - interval '61 minutes', admitted_at = admitted_at - interval '61 minutes' WHERE id = ANY($1::uuid[])`, [first.admitted]);
    await pool.query(`UPDATE inbound_mails SET received_at = received_at - interval '30 minutes' WHERE id = ANY($1::uuid[])`, [first.limited]);

    // Admitted again, up to the limit: the refused mails did not count.
    const second = await burst(PER_HOUR + 1);
    expect(second.admitted).toHaveLength(PER_HOUR);
    expect(second.limited).toHaveLength(1);
  }, 120_000);
});
