/**
 * The daily digest against real parts: two server processes on one database, both running
 * workers, smtp-server receiving the mail (parsed with mailparser), nodemailer answering a
 * digest through the service's SMTP listener. Ada wants the digest; Bob and Carol get the
 * your-turn mails as before.
 */
import { randomUUID } from 'node:crypto';
import type { ParsedMail } from 'mailparser';
import nodemailer, { type Transporter } from 'nodemailer';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayAfter, nextDigest } from '../../src/app/digests.ts';
import { TASKS } from '../../src/app/tasks.ts';
import { ownDatabase, type OwnDatabase } from '../support/own-database.ts';
import { startMailBox, until, type MailBox } from '../support/receivers.ts';
import { startTestServer, type TestServer, type TestServerOptions } from '../support/server.ts';

const DOMAIN = 'digest.wargames.test';
let a: TestServer;
let b: TestServer;
let box: MailBox;
let smtp: Transporter;
let db: OwnDatabase;

beforeAll(async () => {
  [box, db] = await Promise.all([startMailBox(), ownDatabase('digest')]);
  // One key for both processes, as a deployment's WEBHOOK_SECRET_KEY: the same reply addresses and links.
  const options: TestServerOptions = {
    databaseUrl: db.url, rateLimit: 100_000, workers: { pollInterval: 100 }, digests: false,
    mailer: { smtpUrl: box.url, from: 'Wargames <games@wargames.test>' },
    notifications: { publicUrl: 'http://wargames.test', allowPrivate: true, secretKey: Buffer.alloc(32, 7) },
    playByMail: { replyDomain: DOMAIN, perHour: 1000 },
  };
  a = await startTestServer({ ...options, smtpInbound: { port: 0 } });
  b = await startTestServer(options);
  smtp = nodemailer.createTransport({ host: '127.0.0.1', port: a.smtpPort!, secure: false, ignoreTLS: true });
});
afterAll(async () => {
  smtp?.close();
  await a?.close();
  await b?.close();
  await box?.close();
  await db?.drop();
});

const header = (m: ParsedMail, name: string) => m.headerLines.find((h) => h.key === name)?.line.slice(name.length + 1).trim();
const digestsOf = (address: string) => box.to(address).filter((m) => m.subject?.startsWith('Your games, '));
const turnMailsOf = (address: string) => box.to(address).filter((m) => m.subject?.startsWith('Your turn: '));

interface Person { id: string; email: string; token: string }

/** No job of these tasks left on the database (a job that ran is gone; a mail job ends once the SMTP server took it). */
const jobsRun = (tasks: string[]) =>
  until(async () => (await a.queue.pending()).every((j) => !tasks.includes(j.task_identifier)), 30_000, `no ${tasks.join(' or ')} job left`);

async function person(name: string, digest = false): Promise<Person> {
  const email = `${name.toLowerCase()}-${randomUUID().slice(0, 8)}@example.org`;
  const r = await a.gql(`mutation($n: String!, $e: String!) { registerPlayer(input: { name: $n, email: $e }) { player { id } token } }`, { n: name, e: email });
  const token = r.data.registerPlayer.token as string;
  const mail = await until(() => box.to(email)[0], 20_000, 'the verification mail');
  const code = /^Code: (\d{6})$/m.exec(mail.text ?? '')![1]!;
  await a.gql(`mutation($c: String!) { verifyEmail(code: $c) { emailVerified } }`, { c: code }, token);
  // The digest over REST (PATCH /api/me), mail over GraphQL: both take it.
  await b.gql(`mutation { updatePlayer(input: { notifyByEmail: true }) { notifyByEmail } }`, {}, token);
  if (digest) {
    const patched = await a.rest('PATCH', '/api/me', { emailDigest: true }, token);
    expect(patched.status).toBe(200);
    expect(patched.body.player).toMatchObject({ emailDigest: true, notifyByEmail: true });
  }
  return { id: r.data.registerPlayer.player.id, email, token };
}

/** A Raid on Wuchao `host` creates; `joiner` takes Yuan, who sets up first (the game awaits them). */
async function raid(host: Person, joiner: Person): Promise<string> {
  const created = await a.gql(`mutation($i: CreateGameInput!) { createGame(input: $i) { game { id } inviteCode } }`, {
    i: { type: 'raid-on-wuchao', seats: [{ seat: 'cao', me: true }, { seat: 'yuan', open: true }] },
  }, host.token);
  const id = created.data.createGame.game.id as string;
  const joined = await b.gql(`mutation($id: ID!, $code: String) { joinGame(gameId: $id, inviteCode: $code) { game { status awaiting { seat } } } }`, { id, code: created.data.createGame.inviteCode }, joiner.token);
  expect(joined.errors).toBeUndefined();
  expect(joined.data.joinGame.game.awaiting.map((p: { seat: string }) => p.seat)).toContain('yuan');
  return id;
}

/** Each game's part of a digest: its reply address and its numbered orders (notation by number). */
function parts(m: ParsedMail) {
  const text = m.text ?? '';
  return text.split(/^Game \d+: /m).slice(1).map((block) => ({
    block,
    replyTo: /its own address: (\S+)$/m.exec(block)?.[1] ?? null,
    url: /Open it: (\S+)$/m.exec(block)?.[1] ?? null,
    orders: [...block.matchAll(/^\s*(\d+)\. (.+?) {2}\(/gm)].map((x) => ({ n: Number(x[1]), notation: x[2]! })),
  }));
}

describe('the daily digest', () => {
  it('sends one mail a day with every game waiting, each with its orders and reply address, even with two processes racing; no your-turn mail meanwhile', async () => {
    const ada = await person('Ada', true);
    const bob = await person('Bob');
    const carol = await person('Carol');
    const first = await raid(bob, ada);
    const second = await raid(carol, ada);
    // Carol's your-turn mail (the same path, for a player without the digest) comes; once no
    // fan-out and no mail job is left, every your-turn mail of these games has arrived.
    await raid(ada, carol);
    await until(() => turnMailsOf(carol.email)[0], 20_000, "Carol's your-turn mail");
    await jobsRun([TASKS.notify, TASKS.mail]);
    expect(turnMailsOf(ada.email)).toHaveLength(0);

    // Both processes plan the day and run the player's digest at once.
    const day = new Date().toISOString().slice(0, 10);
    const [planned, , ...outcomes] = await Promise.all([a.core.digests.day(day), b.core.digests.day(day), a.core.digests.digest(ada.id, day), b.core.digests.digest(ada.id, day)]);
    expect(planned).toContain(ada.id);
    expect(planned).not.toContain(bob.id);
    expect(outcomes.filter((o) => o === 'sent').length).toBeLessThanOrEqual(1);
    const digest = await until(() => digestsOf(ada.email)[0], 20_000, "Ada's digest");
    // The `digest` jobs both days planned have run, to "already sent", and any mail they queued has gone.
    await jobsRun([TASKS.digest, TASKS.mail]);
    expect(await a.core.digests.digest(ada.id, day)).toBe('already sent');
    expect(await b.core.digests.digest(ada.id, day)).toBe('already sent');
    expect(digestsOf(ada.email)).toHaveLength(1);
    expect(await a.core.digests.digest(bob.id, day)).toBe('not wanted');

    expect(digest.subject).toBe(`Your games, ${day}: 2 waiting for you`);
    expect(header(digest, 'auto-submitted')).toBe('auto-generated');
    expect(header(digest, 'list-unsubscribe')).toMatch(/^<http:\/\/wargames\.test\/unsubscribe\?player=/);
    expect(digest.html).toContain(`href="http://wargames.test/games/${first}"`);
    expect(digest.html).not.toContain('<script');
    // Escaped: no text here carries markup, so the check above sees none either way; the orders' quotes show it is.
    expect(digest.html).toContain('A line &#34;end&#34; stops the reading');
    expect(digest.html).not.toContain('"end"');
    const games = parts(digest);
    expect(games.map((g) => g.url).sort()).toEqual([`http://wargames.test/games/${first}`, `http://wargames.test/games/${second}`].sort());
    const addresses = games.map((g) => g.replyTo);
    for (const address of addresses) expect(address).toMatch(new RegExp(`^play\\+[0-9a-f]{32}@${DOMAIN.replace(/\./g, '\\.')}$`));
    expect(new Set(addresses).size).toBe(2);
    for (const g of games) {
      expect(g.block).toContain('you play yuan');
      expect(g.orders.length).toBeGreaterThan(0);
      expect(g.orders[0]).toMatchObject({ n: 1 });
      expect(g.orders.some((o) => o.notation.startsWith('place '))).toBe(true);
    }

    // Answering one game's address from the digest: a number picks from that game's list.
    const one = games.find((g) => g.url!.endsWith(first))!;
    const place = one.orders.find((o) => o.notation.startsWith('place '))!;
    const messageId = `<digest-answer-${randomUUID()}@example.org>`;
    const references = [...(Array.isArray(digest.references) ? digest.references : digest.references ? [digest.references] : []), digest.messageId!];
    await smtp.sendMail({ from: ada.email, to: one.replyTo!, subject: `Re: ${digest.subject}`, inReplyTo: digest.messageId, references, messageId, text: `${place.n}\n` });
    const answer = await until(() => box.mails.find((m) => m.inReplyTo === messageId), 20_000, 'the answer');
    expect(answer.text).toContain('Applied, in order:');
    expect(answer.text).toContain(`(${place.notation})`);
    const events = (await a.rest('GET', `/api/games/${first}/events`, undefined, ada.token)).body;
    expect(JSON.stringify(events)).toContain(place.notation.split(' ')[1]);
  });

  it('turning the digest off brings the your-turn mails back; emailDigest is a Boolean', async () => {
    const dan = await person('Dan', true);
    const bad = await a.gql(`mutation { updatePlayer(input: { emailDigest: "yes" }) { emailDigest } }`, {}, dan.token);
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    const rest = await a.rest('PATCH', '/api/me', { emailDigest: 'yes' }, dan.token);
    expect(rest.status).toBe(400);
    const off = await a.gql(`mutation { updatePlayer(input: { emailDigest: false }) { emailDigest notifyByEmail } }`, {}, dan.token);
    expect(off.data.updatePlayer).toEqual({ emailDigest: false, notifyByEmail: true });
    expect((await a.gql(`{ me { emailDigest } }`, {}, dan.token)).data.me.emailDigest).toBe(false);
    const eve = await person('Eve');
    await raid(eve, dan);
    await until(() => turnMailsOf(dan.email)[0], 20_000, "Dan's your-turn mail");
  });

  it('no digest for a player with nothing waiting; the day runs at DIGEST_TIME, never in the past', async () => {
    const fay = await person('Fay', true);
    expect(await a.core.ports.digests.readers()).toContain(fay.id);
    expect(await a.core.digests.digest(fay.id, '2026-01-01')).toBe('nothing waits');
    expect(nextDigest(new Date('2026-03-04T08:00:00Z'), '07:00')).toEqual({ day: '2026-03-05', runAt: new Date('2026-03-05T07:00:00Z') });
    expect(nextDigest(new Date('2026-03-04T06:59:00Z'), '07:00')).toEqual({ day: '2026-03-04', runAt: new Date('2026-03-04T07:00:00Z') });
    expect(dayAfter('2026-12-31', '23:30')).toEqual({ day: '2027-01-01', runAt: new Date('2027-01-01T23:30:00Z') });

    // At start each process adds the next digest_day unless one is there: the one pending stays.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const pending = async () => (await client.query<{ run_at: Date; payload: { day: string } }>(`SELECT run_at, payload FROM graphile_worker._private_jobs WHERE key = 'digest-day'`)).rows;
      await a.core.digests.schedule();
      const before = await pending();
      expect(before).toHaveLength(1);
      expect(before[0]!.run_at.getUTCHours() * 60 + before[0]!.run_at.getUTCMinutes()).toBe(7 * 60);
      await b.core.digests.schedule(new Date('2030-06-01T12:00:00Z'));
      expect(await pending()).toEqual(before);
    } finally {
      await client.end();
    }
  });
});
