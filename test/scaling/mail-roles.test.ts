/**
 * Play by mail with the roles apart (src/server.ts): an HTTP process (WORKERS=false) with
 * the SMTP listener and POST /api/mail/inbound only stores what it receives, with its job;
 * a process of its own (`npm run worker`: src/worker.ts) handles it. While no worker runs,
 * the received mail waits, stored and unhandled, and nothing is applied; once one starts,
 * it is applied and answered, once.
 */
import nodemailer from 'nodemailer';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailBox, type MailBox } from '../support/receivers.ts';
import { freePort, havePg15, primaryCluster, serverProcess, until, type Cluster, type ServerProcess } from './parts.ts';

if (!havePg15 && process.env.CI) throw new Error('PostgreSQL 15 is needed (.ci/run installs it)');

const SECRET = 'inbound-secret-for-roles-0123456789';
const DOMAIN = 'roles.wargames.test';

async function gql(url: string, query: string, variables: Record<string, unknown> = {}, token?: string) {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await res.json()) as { data?: any; errors?: any[] };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

describe.skipIf(!havePg15)('play by mail: received over HTTP or SMTP, handled by a worker process', () => {
  let cluster: Cluster;
  let box: MailBox;
  let http: ServerProcess;
  let smtpPort: number;
  const workers: ServerProcess[] = [];
  let db: pg.Client;
  let env: Record<string, string>;

  beforeAll(async () => {
    cluster = await primaryCluster();
    box = await startMailBox();
    smtpPort = await freePort();
    env = {
      DATABASE_URL: cluster.url, SMTP_URL: box.url, MAIL_FROM: 'Wargames <games@wargames.test>', MAIL_REPLY_DOMAIN: DOMAIN, MAIL_INBOUND_SECRET: SECRET,
      DATABASE_POOL_SIZE: '4', QUEUE_POLL_MS: '300', QUEUE_HEARTBEAT_MS: '300', QUEUE_DEAD_AFTER_MS: '3000',
    };
    http = await serverProcess({ ...env, WORKERS: 'false', MAIL_INBOUND_PORT: String(smtpPort) }); // migrates first
    workers.push(await serverProcess(env, { worker: true }));
    db = new pg.Client({ connectionString: cluster.url });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end().catch(() => {});
    await Promise.all([http, ...workers].filter(Boolean).map((p) => p.stop()));
    await box?.close();
    cluster?.stop();
  });


  async function person(name: string) {
    const email = `${name.toLowerCase()}-${Date.now()}@example.org`;
    const token = (await gql(http.url, `mutation($n: String!, $e: String!) { registerPlayer(input: { name: $n, email: $e }) { token } }`, { n: name, e: email })).registerPlayer.token as string;
    const mail = await until('the verification mail', async () => box.to(email)[0], { tries: 400, everyMs: 50 });
    const code = /^Code: (\d{6})$/m.exec(mail.text ?? '')![1]!;
    await gql(http.url, `mutation($c: String!) { verifyEmail(code: $c) { emailVerified } }`, { c: code }, token);
    await gql(http.url, `mutation { updatePlayer(input: { notifyByEmail: true }) { notifyByEmail } }`, {}, token);
    return { email, token };
  }

  it('the HTTP process stores the mail; only a worker process applies and answers it', async () => {
    const ada = await person('Ada');
    const bob = await person('Bob');
    const created = (await gql(http.url, `mutation($i: CreateGameInput!) { createGame(input: $i) { game { id } inviteCode } }`, {
      i: { type: 'raid-on-wuchao', seats: [{ seat: 'cao', me: true }, { seat: 'yuan', open: true }] },
    }, ada.token)).createGame;
    const id = created.game.id as string;
    await gql(http.url, `mutation($id: ID!, $code: String) { joinGame(gameId: $id, inviteCode: $code) { game { status } } }`, { id, code: created.inviteCode }, bob.token);
    const turn = await until("Bob's your-turn mail", async () => box.to(bob.email).find((m) => m.replyTo), { tries: 400, everyMs: 50 });
    const replyTo = turn.replyTo!.value[0]!.address!;
    const place = /^\s*\d+\. (place \S+ \S+) {2}\(/m.exec(turn.text ?? '')![1]!;
    const version = async () => (await db.query(`SELECT version FROM games WHERE id = $1`, [id])).rows[0].version as number;
    const before = await version();

    // No worker runs now.
    await workers[0]!.stop();
    // A reply over SMTP to the HTTP process's listener, and one over its HTTP path.
    const smtp = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true });
    const bySmtp = `<roles-smtp-${Date.now()}@example.org>`;
    await smtp.sendMail({ from: bob.email, to: replyTo, subject: `Re: ${turn.subject}`, inReplyTo: turn.messageId, references: turn.messageId, messageId: bySmtp, text: place });
    smtp.close();
    const byHttp = `<roles-http-${Date.now()}@example.org>`;
    const posted = await fetch(`${http.url}/api/mail/inbound`, {
      method: 'POST', headers: { 'content-type': 'message/rfc822', authorization: `Bearer ${SECRET}` },
      body: `From: ${bob.email}\r\nTo: ${replyTo}\r\nSubject: Re: x\r\nMessage-ID: ${byHttp}\r\nIn-Reply-To: ${turn.messageId}\r\n\r\nnot an order\r\n`,
    });
    expect(posted.status).toBe(202);

    // Stored, each with its job, and waiting: the HTTP process runs no job.
    const stored = async () => (await db.query(`SELECT message_id, handled_at, outcome FROM inbound_mails WHERE message_id = ANY($1) ORDER BY message_id`, [[bySmtp, byHttp]])).rows;
    await new Promise((r) => setTimeout(r, 2000));
    expect(await stored()).toEqual([
      { message_id: byHttp, handled_at: null, outcome: null },
      { message_id: bySmtp, handled_at: null, outcome: null },
    ]);
    const jobs = await db.query(`SELECT count(*)::int AS n FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = 'mail_inbound'`);
    expect(jobs.rows[0].n).toBe(2);
    expect(await version()).toBe(before);
    expect(box.mails.filter((m) => [bySmtp, byHttp].includes(m.inReplyTo ?? ''))).toHaveLength(0);

    // A worker process of its own starts: it handles both, once.
    workers.push(await serverProcess(env, { worker: true }));
    const answered = await until('both answers', async () => {
      const a = box.mails.filter((m) => [bySmtp, byHttp].includes(m.inReplyTo ?? ''));
      return a.length >= 2 && a;
    }, { tries: 600, everyMs: 100 });
    expect(answered.find((m) => m.inReplyTo === bySmtp)!.text).toContain('Applied, in order:');
    expect(answered.find((m) => m.inReplyTo === byHttp)!.text).toContain('Nothing was applied.');
    expect(await version()).toBe(before + 1);
    const rows = await stored();
    expect(rows.every((r) => r.handled_at !== null)).toBe(true);
    expect(rows.find((r) => r.message_id === bySmtp).outcome).toBe('applied 1');
    await new Promise((r) => setTimeout(r, 1000)); // a second answer would have time to land
    expect(box.mails.filter((m) => [bySmtp, byHttp].includes(m.inReplyTo ?? ''))).toHaveLength(2);
  }, 180_000);
});
