/**
 * A queued digest asks its player again when it is sent: the `digest` job writes the mail
 * job at once, and a player may turn mail off before a worker sends it. Real parts: the
 * server (no workers) on the tests' PostgreSQL, a worker service started only when the test
 * says, smtp-server receiving the mail. Ada unsubscribes by the digest's own link, Cy turns
 * the digest off, Fay changes her address (unverified): none gets the digest; Dee, who
 * changed nothing, does, and so does a mail job of the older shape (its message alone); Eve,
 * who unsubscribed and turned mail on again, gets it with her link now (the old one is spent).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { games as hostedGames } from '../../src/domain/games.ts';
import { openDatabase, type Database } from '../../src/persistence/database.ts';
import { openService, type Service, type ServiceOptions } from '../../src/server.ts';
import { TASKS } from '../../src/app/tasks.ts';
import { escapeHtml } from '../../src/app/mails.ts';
import { ownDatabase, type OwnDatabase } from '../support/own-database.ts';
import { startMailBox, until, type MailBox } from '../support/receivers.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const PUBLIC_URL = 'http://wargames.test';
let server: TestServer;
let box: MailBox;
let shared: Pick<ServiceOptions, 'digests' | 'mailer' | 'notifications' | 'playByMail'>;
let db: OwnDatabase;

beforeAll(async () => {
  [box, db] = await Promise.all([startMailBox(), ownDatabase('digest_unsubscribe')]);
  shared = {
    digests: false,
    mailer: { smtpUrl: box.url, from: 'Wargames <games@wargames.test>' },
    notifications: { publicUrl: PUBLIC_URL, allowPrivate: true, secretKey: Buffer.alloc(32, 9) },
    playByMail: { replyDomain: 'unsubscribe.wargames.test', perHour: 1000 },
  };
  server = await startTestServer({ databaseUrl: db.url, rateLimit: 100_000, ...shared });
});
afterAll(async () => {
  await server?.close();
  await box?.close();
  await db?.drop();
});

/** A worker service on the server's database, until the returned close. */
async function startWorkers(): Promise<() => Promise<void>> {
  const database: Database = await openDatabase(db.url);
  const service: Service = await openService({ ...shared, database, games: hostedGames, http: false, workers: { pollInterval: 100 } });
  return async () => {
    await service.close();
    await database.close();
  };
}

const digestsOf = (address: string) => box.to(address).filter((m) => m.subject?.startsWith('Your games, '));

interface Person { id: string; email: string; token: string }

async function person(name: string, digest: boolean): Promise<Person> {
  const email = `${name.toLowerCase()}-${randomUUID().slice(0, 8)}@example.org`;
  const r = await server.gql(`mutation($n: String!, $e: String!) { registerPlayer(input: { name: $n, email: $e }) { player { id } token } }`, { n: name, e: email });
  const token = r.data.registerPlayer.token as string;
  const mail = await until(() => box.to(email)[0], 20_000, 'the verification mail');
  const code = /^Code: (\d{6})$/m.exec(mail.text ?? '')![1]!;
  await server.gql(`mutation($c: String!) { verifyEmail(code: $c) { emailVerified } }`, { c: code }, token);
  const updated = await server.gql(`mutation($d: Boolean!) { updatePlayer(input: { notifyByEmail: true, emailDigest: $d }) { notifyByEmail emailDigest emailVerified } }`, { d: digest }, token);
  expect(updated.data.updatePlayer).toEqual({ notifyByEmail: true, emailDigest: digest, emailVerified: true });
  return { id: r.data.registerPlayer.player.id, email, token };
}

/** A Raid on Wuchao `host` creates; `joiner` takes Yuan, who sets up first (the game awaits them). */
async function raid(host: Person, joiner: Person): Promise<void> {
  const created = await server.gql(`mutation($i: CreateGameInput!) { createGame(input: $i) { game { id } inviteCode } }`, {
    i: { type: 'raid-on-wuchao', seats: [{ seat: 'cao', me: true }, { seat: 'yuan', open: true }] },
  }, host.token);
  const joined = await server.gql(`mutation($id: ID!, $code: String) { joinGame(gameId: $id, inviteCode: $code) { game { awaiting { seat } } } }`, { id: created.data.createGame.game.id, code: created.data.createGame.inviteCode }, joiner.token);
  expect(joined.data.joinGame.game.awaiting.map((p: { seat: string }) => p.seat)).toContain('yuan');
}

describe('a digest queued before the player turned mail off', () => {
  it('is not sent to a player who unsubscribed, turned the digest off or lost the verified address; is sent to one who did not', async () => {
    let stopWorkers = await startWorkers();
    const bob = await person('Bob', false);
    const [ada, cy, dee, fay, eve] = [await person('Ada', true), await person('Cy', true), await person('Dee', true), await person('Fay', true), await person('Eve', true)];
    for (const p of [ada, cy, dee, fay, eve]) await raid(bob, p);
    await stopWorkers();

    // The day's digests: each recorded with its mail job, which no worker runs yet.
    const day = new Date().toISOString().slice(0, 10);
    for (const p of [ada, cy, dee, fay, eve]) expect(await server.core.digests.digest(p.id, day)).toBe('sent');
    const mailJobs = await server.queue.pending(TASKS.mail);
    const jobOf = (p: Person) => mailJobs.find((j) => (j.payload as { message?: { to?: string } }).message?.to === p.email)!;
    for (const p of [ada, cy, dee, fay, eve]) expect(jobOf(p).payload).toMatchObject({ playerId: p.id, digest: true });
    // A job of the release before: the message alone, sent as written.
    const older = `older-${randomUUID().slice(0, 8)}@example.org`;
    await server.queue.add(TASKS.mail, { message: { to: older, subject: 'A mail job of the older shape', text: 'Still sent.\n' } });

    // Ada follows the digest's own unsubscribe link (the one its List-Unsubscribe carries).
    const linkOf = (p: Person) => /^<(.+)>$/.exec((jobOf(p).payload as { message: { headers: Record<string, string> } }).message.headers['List-Unsubscribe']!)![1]!;
    const unsubscribed = await fetch(linkOf(ada).replace(PUBLIC_URL, server.url));
    expect(unsubscribed.status).toBe(200);
    // Eve does too, then turns mail on again: her digest goes out, with her link now (the old one is spent).
    const eveOld = linkOf(eve);
    expect((await fetch(eveOld.replace(PUBLIC_URL, server.url))).status).toBe(200);
    expect((await server.gql(`mutation { updatePlayer(input: { notifyByEmail: true }) { notifyByEmail } }`, {}, eve.token)).data.updatePlayer.notifyByEmail).toBe(true);
    expect((await server.gql(`{ me { notifyByEmail } }`, {}, ada.token)).data.me.notifyByEmail).toBe(false);
    // Cy keeps mail on but turns the digest off; Fay's address changes (unverified until its code).
    expect((await server.gql(`mutation { updatePlayer(input: { emailDigest: false }) { emailDigest notifyByEmail } }`, {}, cy.token)).data.updatePlayer).toEqual({ emailDigest: false, notifyByEmail: true });
    const fayNew = `fay-new-${randomUUID().slice(0, 8)}@example.org`;
    expect((await server.gql(`mutation($e: String) { updatePlayer(input: { email: $e }) { email emailVerified } }`, { e: fayNew }, fay.token)).data.updatePlayer).toEqual({ email: fayNew, emailVerified: false });

    stopWorkers = await startWorkers();
    try {
      await until(() => digestsOf(dee.email)[0], 20_000, "Dee's digest");
      await until(() => digestsOf(eve.email)[0], 20_000, "Eve's digest");
      await until(() => box.to(older)[0], 20_000, 'the older-shaped mail');
      // Every digest job has run (a job that ran is gone from the queue), sent or dropped.
      const ids = [ada, cy, dee, fay, eve].map((p) => jobOf(p).id);
      await until(async () => !(await server.queue.pending(TASKS.mail)).some((j) => ids.includes(j.id)), 20_000, 'the digest jobs run');
      await new Promise((r) => setTimeout(r, 500)); // a mail sent would have time to land
    } finally {
      await stopWorkers();
    }
    expect(digestsOf(dee.email)).toHaveLength(1);
    expect(digestsOf(ada.email)).toHaveLength(0);
    expect(digestsOf(cy.email)).toHaveLength(0);
    expect(digestsOf(fay.email)).toHaveLength(0);
    expect(digestsOf(fayNew)).toHaveLength(0);
    // Eve's digest carries her link now, in its text, its HTML and its List-Unsubscribe, and it works.
    const [eveDigest] = digestsOf(eve.email);
    const eveNow = /^Turn mail off: (\S+)$/m.exec(eveDigest!.text ?? '')?.[1] ?? '';
    expect(eveNow).toMatch(/^http:\/\/wargames\.test\/unsubscribe\?/);
    expect(eveNow).not.toBe(eveOld);
    expect((eveDigest!.headers.get('list') as { unsubscribe?: { url?: string } })?.unsubscribe?.url).toBe(eveNow);
    expect(eveDigest!.text).not.toContain(eveOld);
    expect(String(eveDigest!.html)).not.toContain(escapeHtml(eveOld));
    expect(String(eveDigest!.html)).toContain(escapeHtml(eveNow));
    expect((await fetch(eveOld.replace(PUBLIC_URL, server.url))).status).toBe(404);
    expect((await fetch(eveNow.replace(PUBLIC_URL, server.url))).status).toBe(200);
  });
});

// The same for the mails a fan-out writes (your turn, game over, deadline, messages): each
// delivery's mail is written at the fan-out and sent by its own job, seconds or, with workers
// busy or down, much later.
describe('a your-turn mail written before the player unsubscribed and turned mail on again', () => {
  it('goes out with their unsubscribe link now, which works; the spent one is nowhere in it', async () => {
    const stopWorkers = await startWorkers();
    const [bob, gil] = [await person('Bob', false), await person('Gil', false)];
    await stopWorkers();
    // Gil joins Bob's Raid and is awaited: the dispatcher's fan-out (run here, as a worker would) writes the mail and its job.
    await raid(bob, gil);
    const ids: string[] = [];
    const written = (await until(async () => {
      ids.push(...(await server.core.notifications.fanOutTail()).written);
      return (await Promise.all(ids.map((id) => server.core.notifications.mailOf(id)))).find((m) => m?.to === gil.email && m.delivery.event === 'YOUR_TURN');
    }, 10_000, 'the your-turn mail written'))!;
    const old = /Stop it: (\S+)$/m.exec(written.mail.text)![1]!;
    expect(written.mail.unsubscribe).toBe(old);

    expect((await fetch(old.replace(PUBLIC_URL, server.url))).status).toBe(200);
    expect((await server.gql(`mutation { updatePlayer(input: { notifyByEmail: true }) { notifyByEmail } }`, {}, gil.token)).data.updatePlayer.notifyByEmail).toBe(true);

    const again = await startWorkers();
    let sent;
    try {
      sent = await until(() => box.to(gil.email).find((m) => m.subject?.startsWith('Your turn: ')), 20_000, "Gil's your-turn mail");
    } finally {
      await again();
    }
    const now = /Stop it: (\S+)$/m.exec(sent.text ?? '')?.[1] ?? '';
    expect(now).toMatch(/^http:\/\/wargames\.test\/unsubscribe\?/);
    expect(now).not.toBe(old);
    expect((sent.headers.get('list') as { unsubscribe?: { url?: string } })?.unsubscribe?.url).toBe(now);
    expect(sent.text).not.toContain(old);
    expect(String(sent.html)).not.toContain(escapeHtml(old));
    expect(String(sent.html)).toContain(escapeHtml(now));
    expect((await fetch(now.replace(PUBLIC_URL, server.url))).status).toBe(200);
  });
});
