/**
 * Noisy neighbours (issue 24.2): one player's webhook target accepts connections and never
 * answers, and 24 commands of that player's own game queue deliveries to it. Another
 * player's delivery must still arrive within 2 s, and another game's time-out fire within
 * a few seconds of its deadline: the clocks have a runner of their own, a webhook has one
 * delivery in flight at most (its jobs' queue name), an attempt has 5 s. The hanging
 * webhook is then disabled after a few failures in a row (here 3, at once) and its owner
 * told by mail (a real SMTP server).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownDatabase, type OwnDatabase } from '../support/own-database.ts';
import { startMailBox, startReceiver, until, type MailBox, type Receiver } from '../support/receivers.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let receiver: Receiver;
let box: MailBox;
let db: OwnDatabase;
beforeAll(async () => {
  [receiver, box, db] = await Promise.all([startReceiver(), startMailBox(), ownDatabase('isolation')]);
  server = await startTestServer({
    databaseUrl: db.url,
    rateLimit: 100_000,
    registrationsPerMinute: 10_000,
    mailer: { smtpUrl: box.url, from: 'Wargames <games@wargames.test>' },
    notifications: { allowPrivate: true, webhookDisableAfter: { failures: 3, ms: 0 } },
    workers: { pollInterval: 300 },
  });
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
  await box?.close();
  await db?.drop();
});


async function player(name: string, email?: string) {
  const r = await server.gql(`mutation($n: String!, $e: String) { registerPlayer(input: { name: $n, email: $e }) { player { id } token } }`, { n: name, e: email ?? null });
  expect(r.errors).toBeUndefined();
  const token = r.data.registerPlayer.token as string;
  if (email) {
    const mail = await until(() => box.to(email)[0], 20_000, 'the verification mail');
    const code = /^Code: (\d{6})$/m.exec(mail.text ?? '')![1]!;
    expect((await server.gql(`mutation($c: String!) { verifyEmail(code: $c) { emailVerified } }`, { c: code }, token)).data.verifyEmail.emailVerified).toBe(true);
  }
  return { id: r.data.registerPlayer.player.id as string, token };
}

/** `a` (north) and `b` (east) in a guessing game that lasts. */
async function game(a: { token: string }, b: { token: string }, clock?: { perMove: number }) {
  const created = await server.gql(`mutation($i: CreateGameInput!) { createGame(input: $i) { game { id } } }`, {
    i: { type: 'guessing-game', options: { target: 1000 }, seats: [{ seat: 'north', me: true }, { seat: 'east', open: true }], visibility: 'PUBLIC', ...(clock ? { clock } : {}) },
  }, a.token);
  expect(created.errors).toBeUndefined();
  const id = created.data.createGame.game.id as string;
  expect((await server.gql(`mutation($id: ID!) { joinGame(gameId: $id) { game { version } } }`, { id }, b.token)).errors).toBeUndefined();
  return id;
}

async function webhook(token: string, path: string, gameId: string) {
  const r = await server.gql(`mutation($i: CreateWebhookInput!) { createWebhook(input: $i) { webhook { id } secret } }`, { i: { url: `${receiver.url}${path}`, events: ['EVENT_APPENDED', 'YOUR_TURN'], gameId } }, token);
  expect(r.errors).toBeUndefined();
  receiver.secrets.set(path, r.data.createWebhook.secret);
  return r.data.createWebhook.webhook.id as string;
}

const guess = async (token: string, id: string) => {
  const r = await server.gql(`mutation($id: ID!, $c: JSON!) { submitCommand(gameId: $id, command: $c) { game { version } } }`, { id, c: { type: 'guess', number: 1 } }, token);
  expect(r.errors).toBeUndefined();
  return r.data.submitCommand.game.version as number;
};

describe('a webhook target that never answers', () => {
  it('does not hold up another player\'s delivery or another game\'s time-out; it is disabled and its owner told', async () => {
    const malloryMail = `mallory-${randomUUID().slice(0, 8)}@example.org`;
    const [mallory, trudy, ada, bob, carol, dave] = await Promise.all([player('Mallory', malloryMail), player('Trudy'), player('Ada'), player('Bob'), player('Carol'), player('Dave')]);
    const hang = `/hang-${randomUUID()}`;
    const fine = `/ada-${randomUUID()}`;
    receiver.answer = ({ path }) => (path === hang ? 'hang' : 200);
    const attackersGame = await game(mallory, trudy);
    const adasGame = await game(ada, bob);
    await webhook(mallory.token, hang, attackersGame);
    await webhook(ada.token, fine, adasGame);

    // 24 commands of the attacker's own game: deliveries to the target that hangs.
    for (let i = 0; i < 12; i++) {
      await guess(mallory.token, attackersGame);
      await guess(trudy.token, attackersGame);
    }
    await until(() => receiver.received.some((r) => r.path === hang), 10_000, 'the first hanging attempt');

    // Another game on a clock: its time-out within a few seconds of the deadline.
    const clockGame = await game(carol, dave, { perMove: 2 });
    const deadline = Date.now() + 2_000;
    // Another player's commit: its delivery within 2 s.
    const version = await guess(ada.token, adasGame);
    const committed = Date.now();
    await until(() => receiver.received.some((r) => r.path === fine && r.verified && r.body.type === 'EVENT_APPENDED' && r.body.version >= version), 10_000, 'Ada\'s delivery');
    expect(Date.now() - committed).toBeLessThan(2_000);
    await until(async () => {
      const r = await server.rest('GET', `/api/games/${clockGame}`);
      return r.body.game?.status === 'FINISHED';
    }, 20_000, 'the time-out');
    expect(Date.now() - deadline).toBeLessThan(5_000);
    // One attempt at a time on the hanging target (its deliveries wait in their own queue).
    expect(receiver.received.filter((r) => r.path === hang).length).toBeLessThanOrEqual(2);

    // After 3 failed attempts in a row (5 s each) the webhook is disabled, and Mallory told.
    const disabled = await until(async () => {
      const me = await server.gql(`{ me { webhooks { id enabled disabledReason } } }`, {}, mallory.token);
      const w = me.data.me.webhooks[0];
      return w && !w.enabled ? w : undefined;
    }, 40_000, 'the webhook disabled');
    expect(disabled.disabledReason).toMatch(/3 failed attempts in a row/);
    const notice = await until(() => box.to(malloryMail).find((m) => m.subject === 'Your webhook was disabled'), 20_000, 'the mail to its owner');
    expect(notice.text).toContain(`${receiver.url}${hang}`);
    const attempts = receiver.received.filter((r) => r.path === hang).length;
    // Nothing more to it: once its sender has no job left (its pending deliveries cancelled, its
    // gate closed), whatever it would still POST has been POSTed.
    await until(async () => !(await server.queue.pending()).some((j) => (j.payload as { webhookId?: string }).webhookId === disabled.id), 30_000, "the disabled webhook's sender to end");
    expect(receiver.received.filter((r) => r.path === hang).length).toBe(attempts);
  }, 120_000);
});

describe('a webhook target that answers without end', () => {
  it('takes the status from the headers, and reads at most 64 KiB of the body before it closes the connection', async () => {
    const http = await import('node:http');
    const { post } = await import('../../src/workers/notifications.ts');
    let sent = 0;
    const flood = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024);
      const more = () => {
        while (!res.destroyed && sent < 200 * 1024 * 1024 && res.write(chunk)) sent += chunk.length;
        if (!res.destroyed && sent < 200 * 1024 * 1024) res.once('drain', more);
        else res.end();
      };
      more();
    });
    await new Promise<void>((r) => flood.listen(0, '127.0.0.1', () => r()));
    try {
      const { port } = flood.address() as { port: number };
      const outcome = await post(`http://127.0.0.1:${port}/`, {}, '{}', { allowPrivate: true });
      expect(outcome).toEqual({ status: 200 });
      await new Promise((r) => setTimeout(r, 200));
      expect(sent).toBeLessThan(200 * 1024 * 1024); // the connection was closed long before
    } finally {
      flood.closeAllConnections();
      await new Promise((r) => flood.close(r));
    }
  });

  it('refuses an answer whose headers pass 16 KiB', async () => {
    const net = await import('node:net');
    const { post } = await import('../../src/workers/notifications.ts');
    const big = net.createServer((socket) => {
      socket.once('data', () => socket.end(`HTTP/1.1 200 OK\r\nx-pad: ${'a'.repeat(20 * 1024)}\r\ncontent-length: 0\r\n\r\n`));
    });
    await new Promise<void>((r) => big.listen(0, '127.0.0.1', () => r()));
    try {
      const { port } = big.address() as { port: number };
      const outcome = await post(`http://127.0.0.1:${port}/`, {}, '{}', { allowPrivate: true });
      expect(outcome).toHaveProperty('error');
    } finally {
      await new Promise((r) => big.close(r));
    }
  });
});

describe('webhook connections kept alive', () => {
  it('sends a target\'s POSTs over one connection, never one opened for private targets to a call that forbids them, and again on a new one when the target closed it', async () => {
    const http = await import('node:http');
    const net = await import('node:net');
    const { post } = await import('../../src/workers/notifications.ts');
    let connections = 0;
    const target = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
    });
    target.on('connection', () => connections++);
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', () => r()));
    // A target that answers a connection's first POST, then drops the connection when the next comes (as one closing an idle connection would).
    let dropped = 0;
    const dropping = net.createServer((socket) => {
      let requests = 0;
      socket.on('data', () => {
        if (requests++ === 0) socket.write('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n');
        else {
          dropped++;
          socket.destroy();
        }
      });
    });
    await new Promise<void>((r) => dropping.listen(0, '127.0.0.1', () => r()));
    try {
      const { port } = target.address() as { port: number };
      for (let i = 0; i < 5; i++) expect(await post(`http://localhost:${port}/hook`, {}, '{}', { allowPrivate: true })).toEqual({ status: 200 });
      expect(connections).toBe(1);
      // The connection to localhost, checked with private addresses allowed, is not reused by a call that forbids them.
      expect(await post(`http://localhost:${port}/hook`, {}, '{}', { allowPrivate: false })).toEqual({ error: expect.stringMatching(/private address/) });
      expect(connections).toBe(1);
      const other = (dropping.address() as { port: number }).port;
      expect(await post(`http://127.0.0.1:${other}/`, {}, '{}', { allowPrivate: true })).toEqual({ status: 200 });
      expect(await post(`http://127.0.0.1:${other}/`, {}, '{}', { allowPrivate: true })).toEqual({ status: 200 });
      expect(dropped).toBe(1); // the second went out on the kept connection, was dropped, and was sent again on a new one
    } finally {
      target.closeAllConnections();
      await new Promise((r) => target.close(r));
      await new Promise((r) => dropping.close(r));
    }
  });
});

