/**
 * Messages between players through the API, on two server processes sharing one database
 * (real PostgreSQL, real HTTP, WebSocket, a real webhook receiver and a real SMTP server):
 * sendMessage and Game.messages in GraphQL, the REST mirror, the gameMessages subscription
 * across processes, the export, the MESSAGE webhook and mail, each only to the readers and
 * recipients a message has. The limits: 2,000 characters, 20 a minute per sender on every
 * process together. Messages never change the game's version.
 */
import { randomUUID } from 'node:crypto';
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wsClient } from '../support/client.ts';
import { ownDatabase, type OwnDatabase } from '../support/own-database.ts';
import { startMailBox, startReceiver, until, type MailBox, type Receiver } from '../support/receivers.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let a: TestServer;
let b: TestServer;
let receiver: Receiver;
let smtp: MailBox;
let db: OwnDatabase;

beforeAll(async () => {
  [receiver, smtp, db] = await Promise.all([startReceiver(), startMailBox(), ownDatabase('messages')]);
  const opts = { databaseUrl: db.url, rateLimit: 100_000, registrationsPerMinute: 10_000, workers: { pollInterval: 200 }, notifications: { allowPrivate: true }, mailer: { smtpUrl: smtp.url, from: 'Wargames <games@wargames.test>' } };
  [a, b] = await Promise.all([startTestServer(opts), startTestServer(opts)]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await Promise.all([receiver?.close(), smtp?.close()]);
  await db?.drop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mailsTo = (address: string) => smtp.mails.filter((m) => (Array.isArray(m.to) ? m.to : [m.to]).some((t) => t?.value.some((v) => v.address === address)));
const SEND = `mutation($id: ID!, $t: String!, $to: [String!]) { sendMessage(gameId: $id, text: $t, to: $to) { id from to text at } }`;
const READ = `query($id: ID!, $first: Int, $after: ID) { game(id: $id) { version messages(first: $first, after: $after) { id from to text at } } }`;

/** A verified player with mail on and a MESSAGE webhook to the receiver. */
async function player(name: string) {
  const email = `${name.toLowerCase()}-${randomUUID()}@example.test`;
  const r = await a.gql(`mutation($n: String!, $e: String) { registerPlayer(input: { name: $n, email: $e }) { player { id } token } }`, { n: name, e: email });
  expect(r.errors).toBeUndefined();
  const token = r.data.registerPlayer.token as string;
  const code = await until(() => mailsTo(email).find((m) => /Code: (\S+)/.test(m.text ?? ''))?.text?.match(/Code: (\S+)/)?.[1], 20_000, 'the code');
  expect((await a.gql(`mutation($c: String!) { verifyEmail(code: $c) { emailVerified } }`, { c: code }, token)).errors).toBeUndefined();
  expect((await a.gql(`mutation { updatePlayer(input: { notifyByEmail: true }) { notifyByEmail } }`, {}, token)).errors).toBeUndefined();
  const path = `/messages-${name}-${randomUUID()}`;
  const hook = await a.gql(`mutation($i: CreateWebhookInput!) { createWebhook(input: $i) { secret } }`, { i: { url: `${receiver.url}${path}`, events: ['MESSAGE'] } }, token);
  expect(hook.errors).toBeUndefined();
  receiver.secrets.set(path, hook.data.createWebhook.secret);
  return { token, email, path, hooks: () => receiver.received.filter((x) => x.path === path) };
}

function subscribe(client: Client, gameId: string) {
  const got: { id: string; text: string; to: string[] | null }[] = [];
  const errors: unknown[] = [];
  const stop = client.subscribe<{ gameMessages: { id: string; text: string; to: string[] | null } }>(
    { query: `subscription($id: ID!) { gameMessages(gameId: $id) { id from to text } }`, variables: { id: gameId } },
    { next: (m) => (m.data ? got.push(m.data.gameMessages) : errors.push(m.errors)), error: (e) => errors.push(e), complete: () => {} },
  );
  return { got, errors, stop };
}

describe('messages between players', () => {
  it('shows each reader, subscriber, export, webhook and mail only what it may see, across two processes', async () => {
    receiver.answer = () => 200;
    const [ada, bo, cy] = await Promise.all([player('Ada'), player('Bo'), player('Cy')]);
    // Ada holds north, Bo joins east, South is a seat token; Cy is in no seat.
    const created = await a.gql(`mutation($i: CreateGameInput!) { createGame(input: $i) { game { id version } seatTokens { seat token } inviteCode } }`, {
      i: { type: 'guessing-game', options: { target: 1000 }, seats: [{ seat: 'north', me: true }, { seat: 'east', open: true }, { seat: 'south', name: 'South' }] },
    }, ada.token);
    expect(created.errors).toBeUndefined();
    const id = created.data.createGame.game.id as string;
    const south = created.data.createGame.seatTokens.find((t: { seat: string }) => t.seat === 'south').token as string;
    const joined = await b.gql(`mutation($id: ID!, $c: String) { joinGame(gameId: $id, inviteCode: $c) { game { version } } }`, { id, c: created.data.createGame.inviteCode }, bo.token);
    expect(joined.errors).toBeUndefined();
    const version = joined.data.joinGame.game.version as number;

    // Subscribers on the other process: Bo, South's token, a spectator, Cy.
    const clients = [wsClient(b, bo.token), wsClient(b, south), wsClient(b), wsClient(b, cy.token)];
    const [boLive, southLive, spectatorLive, cyLive] = clients.map((c) => subscribe(c, id));
    // A subscription shows what is stored after it is registered, and graphql-ws says nothing
    // when that is: warm up with public messages until every subscriber has heard one, then
    // until each has the last one sent.
    const live = [boLive!, southLive!, spectatorLive!, cyLive!];
    const warm: string[] = [];
    await until(async () => {
      const w = await a.gql(SEND, { id, t: `warm-up ${warm.length}` }, ada.token);
      expect(w.errors).toBeUndefined();
      warm.push(w.data.sendMessage.id);
      await sleep(200);
      return live.every((l) => l.got.length > 0 || l.errors.length > 0);
    }, 20_000, 'the subscriptions');
    expect(live.map((l) => l.errors)).toEqual([[], [], [], []]);
    const last = warm[warm.length - 1]!;
    await until(() => live.every((l) => l.got.some((m) => m.id === last)), 10_000, 'the last warm-up');
    for (const l of live) l.got.splice(0, l.got.findIndex((m) => m.id === last) + 1);

    const hello = await a.gql(SEND, { id, t: 'Hello <b>all</b>' }, ada.token);
    expect(hello.errors).toBeUndefined();
    expect(hello.data.sendMessage).toMatchObject({ from: 'north', to: null, text: 'Hello <b>all</b>' });
    const toBo = await a.rest('POST', `/api/games/${id}/messages`, { text: 'secret-for-bo', to: ['east'] }, ada.token);
    expect(toBo.status).toBe(201);
    expect(toBo.body).toMatchObject({ from: 'north', to: ['east'], text: 'secret-for-bo' });
    const toAda = await b.gql(SEND, { id, t: 'secret-for-ada', to: ['north'] }, south);
    expect(toAda.errors).toBeUndefined();
    const [h, p1, p2] = [hello.data.sendMessage.id, toBo.body.id, toAda.data.sendMessage.id] as string[];

    // Game.messages: each reader its own, oldest first; the version did not move.
    const read = async (server: TestServer, token?: string) => {
      const r = await server.gql(READ, { id }, token);
      expect(r.errors).toBeUndefined();
      expect(r.data.game.version).toBe(version);
      return r.data.game.messages.map((m: { id: string }) => m.id);
    };
    expect(await read(b, ada.token)).toEqual([...warm, h, p1, p2]);
    expect(await read(a, bo.token)).toEqual([...warm, h, p1]);
    expect(await read(a, south)).toEqual([...warm, h, p2]);
    expect(await read(b)).toEqual([...warm, h]);
    expect(await read(b, cy.token)).toEqual([...warm, h]);
    // Paging with the cursor; a private message's id is no cursor for who may not read it.
    expect((await a.gql(READ, { id, first: 1, after: h }, bo.token)).data.game.messages.map((m: { id: string }) => m.id)).toEqual([p1]);
    expect((await a.gql(READ, { id, first: 1 }, bo.token)).data.game.messages.map((m: { id: string }) => m.id)).toEqual([warm[0]]);
    expect((await a.gql(READ, { id, after: p2 }, bo.token)).errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    // REST, the same.
    expect((await b.rest('GET', `/api/games/${id}/messages`)).body.messages.map((m: { id: string }) => m.id)).toEqual([...warm, h]);
    expect((await b.rest('GET', `/api/games/${id}/messages?after=${h}`, undefined, bo.token)).body.messages.map((m: { id: string }) => m.id)).toEqual([p1]);
    // The export: the same per reader.
    const exported = async (token?: string) => (await a.rest('GET', `/api/games/${id}/export`, undefined, token)).body;
    expect((await exported()).messages.map((m: { id: string }) => m.id)).toEqual([...warm, h]);
    expect((await exported(bo.token)).messages.map((m: { id: string }) => m.id)).toEqual([...warm, h, p1]);
    // Cy, in no seat, gets the export (not a refusal, which would hold no secret either) with the public ones only.
    const cyExport = await a.rest('GET', `/api/games/${id}/export`, undefined, cy.token);
    expect(cyExport.status).toBe(200);
    expect(cyExport.body.messages.map((m: { id: string }) => m.id)).toEqual([...warm, h]);
    expect(JSON.stringify(cyExport.body)).not.toContain('secret');
    expect(JSON.stringify(await exported(south))).toContain('secret-for-ada');

    // The subscriptions on the other process: each once, only its own.
    await until(() => boLive!.got.length >= 2 && southLive!.got.length >= 2 && spectatorLive!.got.length >= 1 && cyLive!.got.length >= 1, 10_000, 'the live messages');
    await sleep(500); // room for one too many
    expect(boLive!.got.map((m) => m.id)).toEqual([h, p1]);
    expect(southLive!.got.map((m) => m.id)).toEqual([h, p2]);
    expect(spectatorLive!.got.map((m) => m.id)).toEqual([h]);
    expect(cyLive!.got.map((m) => m.id)).toEqual([h]);
    for (const s of [boLive, southLive, spectatorLive, cyLive]) s!.stop();
    await Promise.all(clients.map((c) => c.dispose()));

    // Webhooks: Bo is told of the public one and his own; Ada of South's to her (not her own); Cy of nothing.
    const n = warm.length;
    await until(() => bo.hooks().length >= n + 2 && ada.hooks().length >= 1, 20_000, 'the webhooks');
    await until(() => mailsTo(bo.email).filter((m) => m.subject?.startsWith('Message from')).length >= n + 2 && mailsTo(ada.email).some((m) => m.subject?.startsWith('Message from')), 20_000, 'the mails');
    await sleep(1500); // room for a delivery that should not be
    expect(bo.hooks().map((x) => x.body.message.id).sort()).toEqual([...warm, h, p1].sort());
    expect(bo.hooks().every((x) => x.verified && x.body.type === 'MESSAGE' && x.body.gameId === id)).toBe(true);
    expect(bo.hooks().find((x) => x.body.message.id === p1)!.body.message).toMatchObject({ from: 'north', to: ['east'], text: 'secret-for-bo' });
    expect(ada.hooks().map((x) => x.body.message.id)).toEqual([p2]);
    expect(cy.hooks()).toEqual([]);
    // Mail: the same recipients; the markup is text, escaped in the HTML.
    const boMails = mailsTo(bo.email).filter((m) => m.subject?.startsWith('Message from'));
    expect(boMails).toHaveLength(n + 2);
    expect(boMails.map((m) => m.text).join('\n')).toContain('secret-for-bo');
    expect(boMails.map((m) => m.text).join('\n')).not.toContain('secret-for-ada');
    const helloMail = boMails.find((m) => m.text?.includes('Hello <b>all</b>'))!;
    expect(helloMail.html).toContain('Hello &#60;b&#62;all&#60;/b&#62;');
    const adaMails = mailsTo(ada.email).filter((m) => m.subject?.startsWith('Message from'));
    expect(adaMails.map((m) => m.subject)).toEqual([expect.stringContaining('Message from south')]);
    expect(adaMails[0]!.text).toContain('secret-for-ada');
    expect(mailsTo(cy.email).filter((m) => m.subject?.startsWith('Message from'))).toEqual([]);
    expect((await a.gql(READ, { id }, ada.token)).data.game.version).toBe(version);
  });

  it("reads a subscriber's seats when each message is pushed: a seat left after subscribing stops its private messages, one taken again starts them", async () => {
    const named = async (name: string) => {
      const r = await a.gql(`mutation($n: String!) { registerPlayer(input: { name: $n }) { token } }`, { n: name });
      expect(r.errors).toBeUndefined();
      return r.data.registerPlayer.token as string;
    };
    const [ada, bo] = await Promise.all([named('Ada'), named('Bo')]);
    // Ada holds red, Bo joins blue, green is a seat token; yellow stays open, so the game stays in the lobby.
    const created = await a.gql(`mutation($i: CreateGameInput!) { createGame(input: $i) { game { id } seatTokens { seat token } inviteCode } }`, {
      i: { type: 'chinese-warlords', options: { turnLimit: 10 }, seats: [{ seat: 'red', me: true }, { seat: 'blue', open: true }, { seat: 'green', name: 'Green' }, { seat: 'yellow', open: true }] },
    }, ada);
    expect(created.errors).toBeUndefined();
    const id = created.data.createGame.game.id as string;
    const green = created.data.createGame.seatTokens.find((t: { seat: string }) => t.seat === 'green').token as string;
    const code = created.data.createGame.inviteCode as string;
    const join = () => a.gql(`mutation($id: ID!, $c: String) { joinGame(gameId: $id, seat: "blue", inviteCode: $c) { game { version } } }`, { id, c: code }, bo);
    expect((await join()).errors).toBeUndefined();

    // Both subscribe on the other process while Bo holds blue.
    const clients = [wsClient(b, ada), wsClient(b, bo)];
    const [adaLive, boLive] = clients.map((c) => subscribe(c, id)) as [ReturnType<typeof subscribe>, ReturnType<typeof subscribe>];
    const warm: string[] = [];
    await until(async () => {
      const w = await a.gql(SEND, { id, t: `warm-up ${warm.length}` }, green);
      expect(w.errors).toBeUndefined();
      warm.push(w.data.sendMessage.id);
      await sleep(200);
      return adaLive.got.length > 0 && boLive.got.length > 0;
    }, 20_000, 'the subscriptions');
    const last = warm[warm.length - 1]!;
    await until(() => [adaLive, boLive].every((l) => l.got.some((m) => m.id === last)), 10_000, 'the last warm-up');
    for (const l of [adaLive, boLive]) l.got.splice(0, l.got.findIndex((m) => m.id === last) + 1);

    // Bo leaves blue (on the first process); then green writes to red and blue, then to everyone.
    expect((await a.gql(`mutation($id: ID!) { leaveGame(gameId: $id) { version } }`, { id }, bo)).errors).toBeUndefined();
    const secret = await a.gql(SEND, { id, t: 'secret-for-red-and-blue', to: ['red', 'blue'] }, green);
    expect(secret.errors).toBeUndefined();
    const after = await a.gql(SEND, { id, t: 'to everyone' }, green);
    expect(after.errors).toBeUndefined();
    const [p, h] = [secret.data.sendMessage.id, after.data.sendMessage.id] as string[];
    await until(() => adaLive.got.some((m) => m.id === h) && boLive.got.some((m) => m.id === h), 10_000, 'the public message');
    await sleep(500); // room for one too many
    expect(adaLive.got.map((m) => m.id)).toEqual([p, h]);
    expect(boLive.got.map((m) => m.id)).toEqual([h]);
    // As Game.messages says to Bo now.
    expect((await a.gql(READ, { id }, bo)).data.game.messages.map((m: { id: string }) => m.id)).not.toContain(p);

    // Bo takes blue again: what is written to blue from now on reaches him.
    expect((await join()).errors).toBeUndefined();
    const again = await a.gql(SEND, { id, t: 'for blue', to: ['blue'] }, green);
    expect(again.errors).toBeUndefined();
    await until(() => boLive.got.some((m) => m.id === again.data.sendMessage.id), 10_000, 'the message to blue');
    expect(boLive.got.map((m) => m.id)).toEqual([h, again.data.sendMessage.id]);
    expect(adaLive.got.map((m) => m.id)).toEqual([p, h]);
    for (const l of [adaLive, boLive]) l.stop();
    await Promise.all(clients.map((c) => c.dispose()));
  });

  it('refuses too long a message, spectators, strangers; counts 20 a minute per sender on every process together', async () => {
    const r = await a.rest('POST', '/api/games', { type: 'guessing-game', options: { target: 1000 }, seats: [{ seat: 'north', name: 'N' }, { seat: 'east', name: 'E' }] });
    const id = r.body.game.id as string;
    const north = r.body.seatTokens.find((t: { seat: string }) => t.seat === 'north').token as string;
    const long = await a.rest('POST', `/api/games/${id}/messages`, { text: 'x'.repeat(2001) }, north);
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe('BAD_REQUEST');
    expect((await a.gql(SEND, { id, t: 'x'.repeat(2001) }, north)).errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    expect((await a.rest('POST', `/api/games/${id}/messages`, { text: 'hi' })).status).toBe(401);
    expect((await a.gql(SEND, { id, t: 'hi', to: ['west'] }, north)).errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    const other = await a.rest('POST', '/api/games', { type: 'guessing-game', options: { target: 1000 }, seats: [{ seat: 'north', name: 'N' }, { seat: 'east', name: 'E' }] });
    const stranger = other.body.seatTokens[0].token as string;
    expect((await a.gql(SEND, { id, t: 'hi' }, stranger)).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');

    // 25 at once, half through each process: exactly 20 stored, 5 refused; then one more is refused on either.
    const sent = await Promise.all(Array.from({ length: 25 }, (_, i) => (i % 2 ? a : b).gql(SEND, { id, t: `m${i}` }, north)));
    expect(sent.filter((s) => s.errors === undefined)).toHaveLength(20);
    expect(sent.filter((s) => s.errors?.[0]?.extensions?.code === 'RATE_LIMITED')).toHaveLength(5);
    const refused = await a.gql(SEND, { id, t: 'one too many' }, north);
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', retryAfter: expect.any(Number) });
    const rest = await fetch(`${b.url}/api/games/${id}/messages`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${north}` }, body: JSON.stringify({ text: 'one too many' }) });
    expect(rest.status).toBe(429);
    expect(Number(rest.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await rest.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
    expect((await b.gql(READ, { id }, north)).data.game.messages).toHaveLength(20);
    expect((await b.gql(READ, { id }, north)).data.game.version).toBe(1);
  });
});
