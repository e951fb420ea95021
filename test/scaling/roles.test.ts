/**
 * The roles apart, on one database: two HTTP-only processes (WORKERS=false) and two worker
 * processes (`npm run worker`: src/worker.ts), started together. One worker is killed
 * (SIGKILL) while the jobs run. Bots still play their games to the end (each turn once),
 * clocks time out each awaited seat once, each webhook delivery arrives (at least once, as the
 * API promises: a worker killed between a POST and its record sends it again, with the same
 * webhook-id) and none is made twice, and each verification mail arrives once (a real SMTP
 * server), all by the jobs the HTTP processes' commits added. The queue's timing is short
 * (QUEUE_DEAD_AFTER_MS=3000) so the dead worker's jobs run elsewhere within the test.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailBox, startReceiver, type MailBox, type Receiver } from '../support/receivers.ts';
import { havePg15, primaryCluster, serverProcess, until, type Cluster, type ServerProcess } from './parts.ts';

if (!havePg15 && process.env.CI) throw new Error('PostgreSQL 15 is needed (.ci/run installs it)');

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

const CREATE = `mutation($i: CreateGameInput!) { createGame(input: $i) { game { id } } }`;

describe.skipIf(!havePg15)('HTTP and workers in processes of their own', () => {
  let cluster: Cluster;
  let receiver: Receiver;
  let box: MailBox;
  const http: ServerProcess[] = [];
  const workers: ServerProcess[] = [];
  let db: pg.Client;

  beforeAll(async () => {
    cluster = await primaryCluster();
    receiver = await startReceiver();
    box = await startMailBox();
    const env = { DATABASE_URL: cluster.url, SMTP_URL: box.url, MAIL_FROM: 'Wargames <games@wargames.test>', WEBHOOK_ALLOW_PRIVATE: 'true', DATABASE_POOL_SIZE: '4', QUEUE_POLL_MS: '300', QUEUE_HEARTBEAT_MS: '300', QUEUE_DEAD_AFTER_MS: '3000' };
    http.push(await serverProcess({ ...env, WORKERS: 'false' })); // migrates first
    const rest = await Promise.all([serverProcess({ ...env, WORKERS: 'false' }), serverProcess(env, { worker: true }), serverProcess(env, { worker: true })]);
    http.push(rest[0]!);
    workers.push(rest[1]!, rest[2]!);
    db = new pg.Client({ connectionString: cluster.url });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end().catch(() => {});
    await Promise.all([...http, ...workers].map((p) => p.stop()));
    await receiver?.close();
    await box?.close();
    cluster?.stop();
  });

  it('bots, clocks, webhooks and mail keep their promises when a worker dies', async () => {
    const [a, b] = [http[0]!.url, http[1]!.url];
    const ada = (await gql(a, `mutation { registerPlayer(input: { name: "Ada" }) { token } }`)).registerPlayer.token as string;
    const path = '/roles';
    const hook = await gql(b, `mutation($i: CreateWebhookInput!) { createWebhook(input: $i) { secret } }`, { i: { url: `${receiver.url}${path}`, events: ['GAME_STARTED', 'GAME_OVER'] } }, ada);
    receiver.secrets.set(path, hook.createWebhook.secret);
    const type = (await gql(a, `{ gameTypes { id seats bots } }`)).gameTypes.find((t: { id: string }) => t.id === 'raid-on-wuchao');
    const [s0, s1] = type.seats as [string, string];
    const bot = (type.bots as string[])[0] ?? 'random';

    // Bot games: Ada against a bot, the bot awaited first or later; and bot against bot.
    const botGames: string[] = [];
    for (let i = 0; i < 4; i++) {
      const seats = [{ seat: s0, bot }, { seat: s1, bot }];
      botGames.push((await gql(i % 2 ? a : b, CREATE, { i: { type: type.id, seats } }, ada)).createGame.game.id);
    }
    // Clock games: Ada and Bob, a second a move, nobody moves.
    const clockGames: string[] = [];
    for (let i = 0; i < 3; i++) {
      const seats = [{ seat: s0, me: true }, { seat: s1, name: 'Bob' }];
      clockGames.push((await gql(i % 2 ? a : b, CREATE, { i: { type: type.id, seats, clock: { perMove: 1 } } }, ada)).createGame.game.id);
    }
    // Mail: players register with an address, on either HTTP process, before the kill and after.
    const emails: string[] = [];
    const register = async (i: number) => {
      const email = `p${i}-${Date.now()}@example.org`;
      emails.push(email);
      await gql(i % 2 ? a : b, `mutation($e: String!) { registerPlayer(input: { name: "P${i}", email: $e }) { token } }`, { e: email });
    };
    for (let i = 0; i < 3; i++) await register(i);
    // One worker dies while the jobs run.
    await until('a job ran', async () => (await db.query(`SELECT count(*)::int AS n FROM commands`)).rows[0].n > 0, { tries: 200, everyMs: 50 });
    workers[0]!.kill();
    for (let i = 3; i < 6; i++) await register(i);

    // Bots: every game ends; each turn played once (the commands follow each other, none twice).
    await until('the bot games ended', async () => {
      const { rows } = await db.query(`SELECT count(*)::int AS n FROM games WHERE id = ANY($1::uuid[]) AND status = 'FINISHED'`, [botGames]);
      return rows[0].n === botGames.length;
    }, { tries: 600, everyMs: 100 });
    for (const id of botGames) {
      const { rows } = await db.query(`SELECT first_version, last_version FROM commands WHERE game_id = $1 ORDER BY first_version`, [id]);
      expect(rows.length).toBeGreaterThan(0);
      for (let k = 1; k < rows.length; k++) expect(rows[k].first_version).toBe(rows[k - 1].last_version + 1);
    }

    // Clocks: each game's awaited seat timed out, once.
    await until('the clocks ran out', async () => {
      const { rows } = await db.query(`SELECT count(DISTINCT game_id)::int AS n FROM game_events WHERE game_id = ANY($1::uuid[]) AND type = 'TimedOut'`, [clockGames]);
      return rows[0].n === clockGames.length;
    }, { tries: 600, everyMs: 100 });
    await new Promise((r) => setTimeout(r, 1500)); // a duplicate would have time to land
    for (const id of clockGames) {
      const { rows } = await db.query(`SELECT seat, count(*)::int AS n FROM game_events WHERE game_id = $1 AND type = 'TimedOut' GROUP BY seat`, [id]);
      for (const row of rows) expect(row.n).toBe(1);
    }

    // Webhooks: Ada's games started (the clock games; the bot games are not hers to play),
    // each event delivered under one webhook-id: a second delivery made for the same event
    // would have an id of its own. The same id answered 200 twice is the at-least-once the
    // API allows when the worker that sent it died before recording it.
    await until('every GAME_STARTED delivered', async () => {
      const started = new Set(receiver.received.filter((r) => r.path === path && r.status === 200 && r.body.type === 'GAME_STARTED').map((r) => r.body.gameId));
      return clockGames.every((id) => started.has(id));
    }, { tries: 600, everyMs: 100 });
    const ok = receiver.received.filter((r) => r.path === path && r.status === 200);
    expect(ok.every((r) => r.verified)).toBe(true);
    const idsOf = new Map<string, Set<string>>();
    for (const r of ok) {
      const event = `${r.body.gameId} ${r.body.type}`;
      idsOf.set(event, (idsOf.get(event) ?? new Set()).add(r.id));
    }
    for (const [event, ids] of idsOf) expect(ids.size, event).toBe(1);
    // Mail: one verification mail per address, none twice.
    await until('every verification mail', async () => emails.every((e) => box.to(e).length > 0), { tries: 600, everyMs: 100 });
    await new Promise((r) => setTimeout(r, 1000)); // a duplicate would have time to land
    for (const e of emails) {
      expect(box.to(e)).toHaveLength(1);
      expect(box.to(e)[0]!.subject).toBe('Your email verification code');
    }
    // The killed worker died by SIGKILL; the survivor did the work after the kill.
    expect(workers[0]!.child.signalCode).toBe('SIGKILL');
    expect(workers[1]!.child.exitCode).toBeNull();
  });
});
