/**
 * A server process killed between a commit and its delivery: its webhook POST was on the
 * way when the process died (SIGKILL, no goodbye). The commit's job is in the database;
 * once another process runs the queue, it frees the dead process's jobs and delivers, with
 * the same webhook-id.
 */
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownDatabase, type OwnDatabase } from '../support/own-database.ts';
import { startReceiver, until, type Receiver } from '../support/receivers.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const KEY = randomBytes(32);
let receiver: Receiver | undefined;
let other: TestServer | undefined;
let child: ReturnType<typeof spawn> | undefined;
let db: OwnDatabase;
beforeAll(async () => {
  db = await ownDatabase('crash');
});
afterAll(async () => {
  child?.kill('SIGKILL');
  await other?.close();
  await receiver?.close();
  await db?.drop();
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function gql(url: string, query: string, variables: Record<string, unknown> = {}, token?: string) {
  const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify({ query, variables }) });
  return (await res.json()) as { data?: any; errors?: any[] };
}

describe('a server killed between commit and delivery', () => {
  it('delivers once another process runs the queue, with the same webhook-id', async () => {
    receiver = await startReceiver();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { ...process.env, DATABASE_URL: db.url, PORT: String(port), HOST: '127.0.0.1', WEBHOOK_SECRET_KEY: KEY.toString('hex'), WEBHOOK_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'warn', NODE_ENV: 'test', MAX_EVENT_LOOP_DELAY: '0', REGISTRATION_RATE_LIMIT: '1000000' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await until(async () => (await fetch(`${url}/readyz`).catch(() => null))?.ok, 60_000, 'the child server');

    const ada = (await gql(url, `mutation { registerPlayer(input: { name: "Ada" }) { token } }`)).data.registerPlayer.token as string;
    const path = `/crash-${randomUUID()}`;
    const hook = await gql(url, `mutation($i: CreateWebhookInput!) { createWebhook(input: $i) { secret } }`, { i: { url: `${receiver.url}${path}`, events: ['GAME_STARTED'] } }, ada);
    receiver.secrets.set(path, hook.data.createWebhook.secret);
    // The first attempt never gets an answer: the process dies while it waits.
    receiver.answer = ({ nth }) => (nth === 1 ? 'hang' : 200);
    const type = (await gql(url, `{ gameTypes { id seats } }`)).data.gameTypes.find((t: { id: string }) => t.id === 'raid-on-wuchao');
    const created = await gql(url, `mutation($i: CreateGameInput!) { createGame(input: $i) { game { id version } } }`, {
      i: { type: type.id, seats: [{ seat: type.seats[0], me: true }, { seat: type.seats[1], name: 'Bob' }] },
    }, ada);
    const gameId = created.data.createGame.game.id;
    const first = await until(() => receiver!.received.find((r) => r.path === path), 30_000, 'the first attempt');
    child.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));

    // Another process (a heartbeat every half second; a runner silent for 25 s is dead).
    other = await startTestServer({ databaseUrl: db.url, notifications: { secretKey: KEY, allowPrivate: true }, workers: { pollInterval: 500, heartbeatMs: 500, deadAfterMs: 25_000 } });
    const again = await until(() => receiver!.received.find((r) => r.path === path && r.status === 200), 90_000, 'the delivery after the crash');
    expect(again.id).toBe(first.id);
    expect(again.verified).toBe(true);
    expect(again.body).toMatchObject({ type: 'GAME_STARTED', gameId, game: { id: gameId, type: 'raid-on-wuchao' } });
    await new Promise((r) => setTimeout(r, 1000));
    expect(receiver.received.filter((r) => r.path === path && r.status === 200)).toHaveLength(1);
  });
});
