/**
 * Play by mail against real parts only: smtp-server receives the service's mail (parsed
 * with mailparser), nodemailer sends the players' replies to the service's own SMTP
 * listener (or POSTs them raw to /api/mail/inbound), and the workers run the jobs. Raid on
 * Wuchao between Ada (Cao) and Bob (Yuan), who act only by answering mail.
 */
import { randomUUID } from 'node:crypto';
import type { ParsedMail } from 'mailparser';
import nodemailer, { type Transporter } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TASKS } from '../../src/app/tasks.ts';
import { mailPlayer, type MailPlayer } from '../support/mail-players.ts';
import { ownDatabase, type OwnDatabase } from '../support/own-database.ts';
import { startMailBox, until, type MailBox } from '../support/receivers.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const SECRET = 'inbound-secret-for-tests-0123456789';
const DOMAIN = 'play.wargames.test';
let server: TestServer;
let box: MailBox;
let smtp: Transporter;
let db: OwnDatabase;

beforeAll(async () => {
  [box, db] = await Promise.all([startMailBox(), ownDatabase('play_by_mail')]);
  server = await startTestServer({
    databaseUrl: db.url, rateLimit: 100_000, registrationsPerMinute: 10_000, workers: { pollInterval: 100 },
    mailer: { smtpUrl: box.url, from: 'Wargames <games@wargames.test>' },
    notifications: { publicUrl: 'http://wargames.test', allowPrivate: true },
    playByMail: { replyDomain: DOMAIN, perHour: 1000 },
    smtpInbound: { port: 0 },
    mailInboundSecret: SECRET,
  });
  smtp = nodemailer.createTransport({ host: '127.0.0.1', port: server.smtpPort!, secure: false, ignoreTLS: true });
});
afterAll(async () => {
  smtp?.close();
  await server?.close();
  await box?.close();
  await db?.drop();
});

const header = (m: ParsedMail, name: string) => m.headerLines.find((h) => h.key === name)?.line.slice(name.length + 1).trim();
const replyTo = (m: ParsedMail) => (m.replyTo?.value[0]?.address ?? null) as string | null;
/** The numbered orders of a mail: notation by number. */
const listed = (m: ParsedMail) => [...(m.text ?? '').matchAll(/^\s*(\d+)\. (.+?)  \(/gm)].map((x) => ({ n: Number(x[1]), notation: x[2]! }));

type Person = MailPlayer;

/** A player who wants mail (registered, verified, mail on). */
const person = (name: string) => mailPlayer(server, box, name);

/** A Raid on Wuchao: Ada is Cao, Bob joins as Yuan; Bob's first your-turn mail (Yuan sets up). */
async function raid() {
  const ada = await person('Ada');
  const bob = await person('Bob');
  const created = await server.gql(`mutation($i: CreateGameInput!) { createGame(input: $i) { game { id } inviteCode } }`, {
    i: { type: 'raid-on-wuchao', seats: [{ seat: 'cao', me: true }, { seat: 'yuan', open: true }] },
  }, ada.token);
  const id = created.data.createGame.game.id as string;
  const joined = await server.gql(`mutation($id: ID!, $code: String) { joinGame(gameId: $id, inviteCode: $code) { game { status } } }`, { id, code: created.data.createGame.inviteCode }, bob.token);
  expect(joined.errors).toBeUndefined();
  const turn = await until(() => box.to(bob.email).find((m) => replyTo(m)), 20_000, "Bob's your-turn mail");
  return { id, ada, bob, turn };
}

const version = async (id: string) => (await server.gql(`query($id: ID!) { game(id: $id) { version } }`, { id })).data.game.version as number;

/** Every mail job (inbound handled, answer sent) run: a mail an answer queued has arrived by now. */
const mailJobsRun = () =>
  until(async () => (await server.queue.pending()).every((j) => j.task_identifier !== TASKS.mail && j.task_identifier !== TASKS.mailInbound), 20_000, 'the mail jobs run');

let sent = 0;
/** A reply to `to` from `from`, through the service's SMTP listener; the answer it gets (if `answered`). */
async function reply(from: string, answering: ParsedMail, body: { text?: string; html?: string; headers?: Record<string, string>; messageId?: string }, answered = true) {
  const messageId = body.messageId ?? `<reply-${++sent}-${randomUUID()}@example.org>`;
  await smtp.sendMail({
    from, to: replyTo(answering)!, subject: `Re: ${answering.subject}`, inReplyTo: answering.messageId, references: answering.messageId,
    messageId, text: body.text, html: body.html, headers: body.headers,
  });
  if (!answered) return { messageId, answer: null };
  const answer = await until(() => box.mails.find((m) => m.inReplyTo === messageId), 20_000, `the answer to ${messageId}`);
  return { messageId, answer };
}

/** Yuan's nine placements, read from a list of orders: each unit once, at most five a space. */
function placements(m: ParsedMail): string[] {
  const places = listed(m).filter((o) => o.notation.startsWith('place '));
  const units = [...new Set(places.map((o) => o.notation.split(' ')[1]!))];
  const spaces = [...new Set(places.map((o) => o.notation.split(' ')[2]!))];
  return units.map((u, i) => `place ${u} ${spaces[Math.floor(i / 3) % spaces.length]}`);
}

describe('play by mail', () => {
  it('your-turn mail: the position in words, numbered orders, its own Reply-To, Auto-Submitted; one subject per game', async () => {
    const { bob, turn } = await raid();
    expect(header(turn, 'auto-submitted')).toBe('auto-generated');
    expect(replyTo(turn)).toMatch(new RegExp(`^play\\+[0-9a-f]{32}@${DOMAIN.replace(/\./g, '\\.')}$`));
    expect(turn.text).toContain('Raid on Wuchao: you play');
    expect(turn.text).toMatch(/^\s*1\. place \S+ \S+ {2}\(/m);
    expect(turn.text).toContain('Answer this mail with your orders');
    expect(turn.to).toBeDefined();
    expect(box.to(bob.email).filter((m) => replyTo(m)).length).toBe(1);
  });

  it('a reply with several orders (a number first, then notation) is applied in one append and answered in the thread', async () => {
    const { id, bob, turn } = await raid();
    const lines = placements(turn);
    expect(lines).toHaveLength(9);
    const first = listed(turn).find((o) => o.notation.split(' ')[1] === lines[0]!.split(' ')[1])!;
    lines[0] = `place ${first.notation.split(' ')[1]} ${first.notation.split(' ')[2]}`;
    const before = await version(id);
    const { messageId, answer } = await reply(bob.email, turn, { text: [`${first.n}`, ...lines.slice(1)].join('\n') });
    expect(answer!.subject).toBe(`Re: ${turn.subject?.replace(/^Your turn: /, '')}`);
    expect(answer!.references).toContain(messageId);
    expect(header(answer!, 'auto-submitted')).toBe('auto-generated');
    expect(answer!.text).toContain('Applied, in order:');
    expect((answer!.text ?? '').match(/^ {2}Place .+ \(place /gm)).toHaveLength(9);
    expect(answer!.text).toContain('The game waits for:');
    const commands = (await server.rest('GET', `/api/games/${id}/export`)).body;
    expect(commands.events.length).toBeGreaterThanOrEqual(before + 9);
    expect(await version(id)).toBeGreaterThanOrEqual(before + 9);
  });

  it('a refused order: nothing applied, the answer says which and why, and gives the list again', async () => {
    const { id, bob, turn } = await raid();
    const place = listed(turn).find((o) => o.notation.startsWith('place '))!.notation;
    const before = await version(id);
    const { answer } = await reply(bob.email, turn, { text: `${place}\n${place}\n` });
    expect(answer!.text).toMatch(/Refused: order 2, "place [^"]+": /);
    expect(answer!.text).toContain('Nothing was applied.');
    expect(answer!.text).toContain('Your orders:');
    expect(await version(id)).toBe(before);
  });

  it('reads only the text above a quote and a signature; an HTML-only reply too', async () => {
    const { id, bob, turn } = await raid();
    const [a, b] = placements(turn);
    const before = await version(id);
    const quoted = `${a}\n\n-- \nBob\nSent from my phone\n\nOn Tue, 1 Dec 2026 at 10:00, Wargames <games@wargames.test> wrote:\n> resign\n> ${b}\n`;
    const first = await reply(bob.email, turn, { text: quoted });
    expect(first.answer!.text).toContain('Applied, in order:');
    expect(await version(id)).toBe(before + 1);
    expect((await server.gql(`query($id: ID!) { game(id: $id) { status } }`, { id })).data.game.status).not.toBe('FINISHED');
    const html = await reply(bob.email, first.answer!, { html: `<div><p>${b}</p></div><blockquote type="cite"><p>resign</p></blockquote>` });
    expect(html.answer!.text).toContain('Applied, in order:');
    expect(await version(id)).toBe(before + 2);
  });

  it('a forged From applies nothing and is told at the verified address; a replayed Message-ID and an auto-reply are neither applied nor answered', async () => {
    const { id, bob, turn } = await raid();
    const [a, b] = placements(turn);
    const before = await version(id);
    const forged = await reply('mallory@evil.test', turn, { text: a }, false);
    const notice = await until(() => box.to(bob.email).find((m) => m.inReplyTo === forged.messageId), 20_000, 'the notice of a forged From');
    expect(notice.text).toContain('mallory@evil.test');
    expect(notice.text).toContain('Nothing was applied.');
    // Any other mail the handling queued with the notice has been sent once no mail job is left.
    await mailJobsRun();
    expect(box.to('mallory@evil.test')).toHaveLength(0);
    expect(await version(id)).toBe(before);

    const once = await reply(bob.email, turn, { text: a });
    expect(await version(id)).toBe(before + 1);
    // The same Message-ID again (a retried delivery), over HTTP this time: stored once, nothing new.
    const raw = `From: ${bob.email}\r\nTo: ${replyTo(turn)}\r\nSubject: Re: x\r\nMessage-ID: ${once.messageId}\r\nIn-Reply-To: ${turn.messageId}\r\n\r\n${b}\r\n`;
    const again = await server.app.inject({ method: 'POST', url: '/api/mail/inbound', headers: { 'content-type': 'message/rfc822', authorization: `Bearer ${SECRET}` }, payload: raw });
    expect(again.statusCode).toBe(202);
    expect(again.json().duplicate).toBe(true);

    const auto = `From: ${bob.email}\r\nTo: ${replyTo(turn)}\r\nSubject: Out of office\r\nAuto-Submitted: auto-replied\r\nMessage-ID: <auto-${randomUUID()}@example.org>\r\n\r\n${b}\r\n`;
    const stored = await server.app.inject({ method: 'POST', url: '/api/mail/inbound', headers: { 'content-type': 'message/rfc822', authorization: `Bearer ${SECRET}` }, payload: auto });
    expect(stored.statusCode).toBe(202);
    await until(async () => (await server.core.ports.mail.inbound(stored.json().id))?.handledAt, 20_000, 'the auto-reply handled');
    // An answer is only queued with the mark (MailStore.handled): sent once its mail job has run,
    // so every mail job must be gone before the answers are counted.
    await mailJobsRun();
    expect(box.mails.filter((m) => m.inReplyTo === once.messageId)).toHaveLength(1);
    expect(box.mails.filter((m) => (m.inReplyTo ?? '').includes('auto-'))).toHaveLength(0);
    expect(await version(id)).toBe(before + 1);
  });

  it('a reply for a seat handed to the bot (out of time) is refused, clearly, and nothing of it applied', async () => {
    const ada = await person('Ada');
    const bob = await person('Bob');
    const created = await server.gql(`mutation($i: CreateGameInput!) { createGame(input: $i) { game { id } inviteCode } }`, {
      i: { type: 'raid-on-wuchao', seats: [{ seat: 'cao', me: true }, { seat: 'yuan', open: true }], clock: { perMove: 1, onTimeout: 'BOT' } },
    }, ada.token);
    const id = created.data.createGame.game.id as string;
    await server.gql(`mutation($id: ID!, $code: String) { joinGame(gameId: $id, inviteCode: $code) { game { status } } }`, { id, code: created.data.createGame.inviteCode }, bob.token);
    const turn = await until(() => box.to(bob.email).find((m) => replyTo(m)), 20_000, "Bob's your-turn mail");
    // Bob lets his second run out: the bot plays Yuan from now on.
    await until(async () => {
      const g = (await server.gql(`query($id: ID!) { game(id: $id) { seats { id bot } } }`, { id })).data.game;
      return g.seats.find((s: { id: string }) => s.id === 'yuan').bot === 'random';
    }, 30_000, 'the seat handed to the bot');
    const [a] = placements(turn);
    const messageId = `<late-seat-${randomUUID()}@example.org>`;
    const raw = `From: ${bob.email}\r\nTo: ${replyTo(turn)}\r\nSubject: Re: ${turn.subject}\r\nMessage-ID: ${messageId}\r\nIn-Reply-To: ${turn.messageId}\r\n\r\n${a}\r\n`;
    const posted = await server.app.inject({ method: 'POST', url: '/api/mail/inbound', headers: { 'content-type': 'message/rfc822', authorization: `Bearer ${SECRET}` }, payload: raw });
    expect(posted.statusCode).toBe(202);
    const answer = await until(() => box.mails.find((m) => m.inReplyTo === messageId), 20_000, 'the refusal');
    expect(answer.text).toContain('You no longer hold the seat yuan in this game: this address takes no more orders.');
    expect(answer.text).toContain('Nothing was applied.');
    expect(answer.text).not.toContain('Your orders:');
    expect(answer.to).toMatchObject({ value: [{ address: bob.email }] });
    // Nothing of it in the log: no command under this mail's key.
    expect(await server.core.ports.games.findCommand(id, 'yuan', `mail:${posted.json().id}`)).toBeNull();
  });

  it('the HTTP path needs the secret; with it the mail is applied like one over SMTP', async () => {
    const { id, bob, turn } = await raid();
    const [a] = placements(turn);
    const messageId = `<http-${randomUUID()}@example.org>`;
    const raw = `From: Bob <${bob.email}>\r\nTo: ${replyTo(turn)}\r\nSubject: Re: ${turn.subject}\r\nMessage-ID: ${messageId}\r\nIn-Reply-To: ${turn.messageId}\r\n\r\n${a}\r\n`;
    const post = (authorization?: string) => server.app.inject({ method: 'POST', url: '/api/mail/inbound', headers: { 'content-type': 'message/rfc822', ...(authorization ? { authorization } : {}) }, payload: raw });
    expect((await post()).statusCode).toBe(401);
    expect((await post('Bearer not-the-secret-at-all-no')).statusCode).toBe(401);
    const before = await version(id);
    expect((await post(`Bearer ${SECRET}`)).statusCode).toBe(202);
    const answer = await until(() => box.mails.find((m) => m.inReplyTo === messageId), 20_000, 'the answer');
    expect(answer.text).toContain('Applied, in order:');
    expect(await version(id)).toBe(before + 1);
  });

  it('the listener refuses a mail over 256 KiB (nothing stored); so does the HTTP path', async () => {
    const { bob, turn } = await raid();
    const big = 'x'.repeat(300 * 1024);
    await expect(smtp.sendMail({ from: bob.email, to: replyTo(turn)!, subject: 'big', text: big })).rejects.toMatchObject({ responseCode: 552 });
    const raw = `From: ${bob.email}\r\nTo: ${replyTo(turn)}\r\nSubject: big\r\n\r\n${big}\r\n`;
    const post = await server.app.inject({ method: 'POST', url: '/api/mail/inbound', headers: { 'content-type': 'message/rfc822', authorization: `Bearer ${SECRET}` }, payload: raw });
    expect(post.statusCode).toBe(413);
  });

  it('a whole game played only by mail, then a reply to the finished game is answered so', async () => {
    const { id, ada, bob, turn } = await raid();
    const who = { cao: ada, yuan: bob } as Record<string, Person>;
    // Yuan sets up in one mail; then each awaited seat answers its newest mail with orders.
    const last: Record<string, ParsedMail> = { yuan: turn };
    const { answer } = await reply(bob.email, turn, { text: placements(turn).join('\n') });
    last.yuan = answer!;
    let mails = 1;
    for (;;) {
      const q = (await server.gql(`query($id: ID!) { game(id: $id) { status version awaiting { seat } } }`, { id })).data.game;
      if (q.status === 'FINISHED') break;
      expect(mails).toBeLessThan(400);
      const seat = q.awaiting[0].seat as string;
      const p = who[seat]!;
      // "end" stops the reading: the thanks below it are no order.
      // The newest mail to that player listing orders at this version.
      const mail = await until(() => box.to(p.email).filter((m) => m.text?.includes('Your orders:') && (m.messageId ?? '').includes(`.${seat}.${q.version}.`)).at(-1), 20_000, `a mail with ${seat}'s orders at version ${q.version}`);
      last[seat] = mail;
      const orders = listed(mail).filter((o) => !['resign', 'offer draw', 'accept draw', 'decline draw'].includes(o.notation));
      const pick = orders.find((o) => o.notation === 'end movement') ?? orders[0]!;
      const r = await reply(p.email, mail, { text: `${pick.n}\nend\nThanks!\n-- \n${p.name}` });
      expect(r.answer!.text).toContain('Applied, in order:');
      mails++;
    }
    const final = (await server.gql(`query($id: ID!) { game(id: $id) { status version result { winners reason } } }`, { id })).data.game;
    expect(final.status).toBe('FINISHED');
    const late = await reply(bob.email, last.yuan!, { text: 'resign' });
    expect(late.answer!.text).toContain('This game is over: it takes no more orders.');
    expect(late.answer!.text).toContain(final.result.reason);
    expect(late.answer!.text).toContain('Nothing was applied.');
    expect(late.answer!.text).not.toContain('Your orders:');
    expect(await version(id)).toBe(final.version);
    expect((await server.gql(`query($id: ID!) { game(id: $id) { result { winners reason } } }`, { id })).data.game.result).toEqual(final.result);
    const verified = await server.rest('POST', '/api/games/verify', (await server.rest('GET', `/api/games/${id}/export`)).body);
    expect(verified.body.valid).toBe(true);
  }, 300_000);
});
