/**
 * Mail against a real SMTP server (smtp-server), each mail parsed with mailparser: the
 * verification code, "your turn" (at most one a game until the player acts), "game over",
 * each naming the game and what it waits for, linking to it, plain text and HTML, with an
 * unsubscribe link that works with a GET and no login.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TASKS } from '../../src/app/tasks.ts';
import { ownDatabase, type OwnDatabase } from '../support/own-database.ts';
import { startMailBox, until, type MailBox } from '../support/receivers.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const PUBLIC_URL = 'http://wargames.test';
let server: TestServer;
let box: MailBox;
let db: OwnDatabase;
beforeAll(async () => {
  [box, db] = await Promise.all([startMailBox(), ownDatabase('mail')]);
  server = await startTestServer({
    databaseUrl: db.url, rateLimit: 100_000, registrationsPerMinute: 10_000, workers: { pollInterval: 200 },
    mailer: { smtpUrl: box.url, from: 'Wargames <games@wargames.test>' },
    notifications: { publicUrl: PUBLIC_URL, allowPrivate: true },
  });
});
afterAll(async () => {
  await server?.close();
  await box?.close();
  await db?.drop();
});

/** No fan-out and no mail job left (a job that ran is gone; a mail job ends once the SMTP server took the mail): every mail of the commits so far has arrived. */
const jobsRun = () =>
  until(async () => (await server.queue.pending()).every((j) => j.task_identifier !== TASKS.notify && j.task_identifier !== TASKS.mail), 20_000, 'no fan-out or mail job left');
const PLAY = `mutation($id: ID!, $c: JSON!) { submitCommand(gameId: $id, command: $c) { game { version } } }`;

/** Ada with a verified address who wants mail. */
async function ada() {
  const email = `ada-${randomUUID().slice(0, 8)}@example.org`;
  const r = await server.gql(`mutation($e: String!) { registerPlayer(input: { name: "Ada", email: $e }) { player { id } token } }`, { e: email });
  const token = r.data.registerPlayer.token as string;
  const mail = await until(() => box.to(email)[0], 20_000, 'the verification mail');
  expect(mail.subject).toBe('Your email verification code');
  expect(mail.from?.value[0]).toEqual({ name: 'Wargames', address: 'games@wargames.test' });
  const code = /^Code: (\d{6})$/m.exec(mail.text ?? '')![1]!;
  expect(mail.html).toContain(`Code: ${code}`);
  expect((await server.gql(`mutation($c: String!) { verifyEmail(code: $c) { emailVerified } }`, { c: code }, token)).data.verifyEmail.emailVerified).toBe(true);
  await server.gql(`mutation { updatePlayer(input: { notifyByEmail: true }) { notifyByEmail } }`, {}, token);
  return { email, token, id: r.data.registerPlayer.player.id as string };
}

async function game(token: string) {
  const created = await server.gql(`mutation($i: CreateGameInput!) { createGame(input: $i) { game { id } inviteCode } }`, {
    i: { type: 'guessing-game', options: { target: 50 }, seats: [{ seat: 'north', me: true }, { seat: 'east', open: true }] },
  }, token);
  const id = created.data.createGame.game.id as string;
  const joined = await server.gql(`mutation($id: ID!, $code: String) { joinGame(gameId: $id, name: "Bob", inviteCode: $code) { seatToken } }`, { id, code: created.data.createGame.inviteCode });
  return { id, bob: joined.data.joinGame.seatToken as string };
}

describe('mail', () => {
  it('sends the code, "your turn" once until the player acts, and "game over"; each names the game, what it waits for, and links to it', async () => {
    const a = await ada();
    const { id, bob } = await game(a.token);
    const turn = await until(() => box.to(a.email).find((m) => m.subject?.startsWith('Your turn')), 20_000, 'your turn');
    expect(turn.subject).toBe('Your turn: Guessing Game: Ada vs Bob');
    const prompt = (await server.gql(`query($id: ID!) { game(id: $id) { awaiting { seat prompt } } }`, { id })).data.game.awaiting.find((p: { seat: string }) => p.seat === 'north').prompt;
    expect(turn.text).toContain('It is your turn (north) in Guessing Game: Ada vs Bob.');
    expect(turn.text).toContain(`The game waits for you to: ${prompt}`);
    expect(turn.text).toContain(`${PUBLIC_URL}/games/${id}`);
    expect(turn.html).toContain(`href="${PUBLIC_URL}/games/${id}"`);
    const unsubscribe = /Stop it: (\S+)/.exec(turn.text ?? '')![1]!;
    expect(unsubscribe.startsWith(`${PUBLIC_URL}/unsubscribe?`)).toBe(true);
    expect(turn.html).toContain('Unsubscribe');
    expect(turn.headerLines.find((h) => h.key === 'list-unsubscribe')?.line).toContain(unsubscribe);

    // Bob guesses: Ada is still awaited, nothing new. Ada guesses: her own move, no mail to her.
    await server.gql(PLAY, { id, c: { type: 'guess', number: 1 } }, bob);
    await server.gql(PLAY, { id, c: { type: 'guess', number: 1 } }, a.token);
    // Round two (after Ada acted): Bob's guess came last... Ada's did; so let Bob be last next.
    await server.gql(PLAY, { id, c: { type: 'guess', number: 1 } }, a.token);
    await server.gql(PLAY, { id, c: { type: 'guess', number: 1 } }, bob);
    await until(() => box.to(a.email).filter((m) => m.subject?.startsWith('Your turn')).length >= 2, 20_000, 'a second your-turn mail once Ada acted');
    await jobsRun();
    expect(box.to(a.email).filter((m) => m.subject?.startsWith('Your turn'))).toHaveLength(2);

    await server.gql(`mutation($id: ID!) { resign(gameId: $id) { status } }`, { id }, a.token);
    const over = await until(() => box.to(a.email).find((m) => m.subject?.startsWith('Game over')), 20_000, 'game over');
    expect(over.text).toContain('Guessing Game: Ada vs Bob is over.');
    expect(over.text).toContain('Won by east (Bob).');
    // The reason, as the game's result says it.
    const result = (await server.gql(`query($id: ID!) { game(id: $id) { result { winners reason } } }`, { id })).data.game.result;
    expect(result.winners).toEqual(['east']);
    expect(over.text).toContain(`Why it ended: ${result.reason}.`);
    expect(over.html).toContain(`Why it ended: ${result.reason}.`);
    expect(over.text).toContain(`${PUBLIC_URL}/games/${id}`);

    // The unsubscribe link: a GET, no login.
    const url = unsubscribe.replace(PUBLIC_URL, server.url);
    expect((await fetch(url.replace(/token=[^&]+/, 'token=forged'))).status).toBe(404);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Mail is off for Ada');
    expect((await server.gql(`{ me { notifyByEmail } }`, {}, a.token)).data.me.notifyByEmail).toBe(false);
    const before = box.to(a.email).length;
    await game(a.token);
    await jobsRun();
    expect(box.to(a.email)).toHaveLength(before);
    // The link worked once: used again (or by a mail program's one-click POST) it is not valid.
    expect((await fetch(url)).status).toBe(404);
    expect((await fetch(url, { method: 'POST' })).status).toBe(404);
    // Mail on again: the next mail carries a new link, which works (once).
    await server.gql(`mutation { updatePlayer(input: { notifyByEmail: true }) { id } }`, {}, a.token);
    await game(a.token);
    const next = await until(() => box.to(a.email).slice(before).find((m) => m.subject?.startsWith('Your turn')), 20_000, 'the next mail');
    const fresh = /Stop it: (\S+)/.exec(next.text ?? '')![1]!.replace(PUBLIC_URL, server.url);
    expect(fresh).not.toBe(url);
    expect((await fetch(fresh)).status).toBe(200);
    expect((await fetch(fresh)).status).toBe(404);
  });

  it('claims "your turn" at most once until one of the player\'s seats acts (a retried fan-out claims again)', async () => {
    const a = await ada();
    const { id, bob } = await game(a.token);
    const store = server.core.notifications.store;
    const p = (await server.gql(`mutation { registerPlayer(input: { name: "Cid" }) { player { id } } }`)).data.registerPlayer.player.id; // a claim is per player and game
    expect(await store.claimYourTurn(p, id, 1, ['north'])).toBe(true);
    expect(await store.claimYourTurn(p, id, 1, ['north'])).toBe(true); // the same commit again
    await server.gql(PLAY, { id, c: { type: 'guess', number: 1 } }, bob); // not north
    const v = (await server.gql(`query($id: ID!) { game(id: $id) { version } }`, { id })).data.game.version;
    expect(await store.claimYourTurn(p, id, v, ['north'])).toBe(false);
    await server.gql(PLAY, { id, c: { type: 'guess', number: 1 } }, a.token); // north acts
    const w = (await server.gql(`query($id: ID!) { game(id: $id) { version } }`, { id })).data.game.version;
    expect(await store.claimYourTurn(p, id, w, ['north'])).toBe(true);
    expect(await store.claimYourTurn(p, id, v, ['north'])).toBe(false); // an older commit, late
  });
});
