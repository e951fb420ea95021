/**
 * Webhooks against a real receiver on 127.0.0.1 that verifies every delivery with the
 * `standardwebhooks` library: the events of a player's games, signed; a 500 is retried
 * with the same webhook-id within 30 s; a webhook that keeps failing is disabled and says
 * so; private targets refused (at creation, after DNS, at delivery) unless allowed; no
 * redirect followed; a job planned for listened games is not added to a commit nobody listens to.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TASKS } from '../../src/app/tasks.ts';
import { post } from '../../src/workers/notifications.ts';
import { ownDatabase, type OwnDatabase } from '../support/own-database.ts';
import { startReceiver, until, type Receiver } from '../support/receivers.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let strict: TestServer;
let receiver: Receiver;
let db: OwnDatabase;
beforeAll(async () => {
  [receiver, db] = await Promise.all([startReceiver(), ownDatabase('webhooks')]);
  [server, strict] = await Promise.all([
    startTestServer({ databaseUrl: db.url, rateLimit: 100_000, registrationsPerMinute: 10_000, notifications: { allowPrivate: true, webhookAttempts: 2 }, workers: { pollInterval: 200 } }),
    startTestServer({ databaseUrl: db.url, rateLimit: 100_000, registrationsPerMinute: 10_000, workers: false }),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.close(), strict?.close()]);
  await receiver?.close();
  await db?.drop();
});

const CREATE_WEBHOOK = `mutation($i: CreateWebhookInput!) { createWebhook(input: $i) { webhook { id url events gameId enabled } secret } }`;
const ME = `{ me { webhooks { id enabled disabledReason deliveries(first: 50) { id event status attempts lastError at seat version } } } }`;

async function player(s: TestServer, name: string) {
  const r = await s.gql(`mutation($n: String!) { registerPlayer(input: { name: $n }) { player { id } token } }`, { n: name });
  expect(r.errors).toBeUndefined();
  return { id: r.data.registerPlayer.player.id as string, token: r.data.registerPlayer.token as string };
}

async function webhook(s: TestServer, token: string, path: string, events: string[], gameId?: string) {
  const r = await s.gql(CREATE_WEBHOOK, { i: { url: `${receiver.url}${path}`, events, ...(gameId ? { gameId } : {}) } }, token);
  expect(r.errors).toBeUndefined();
  receiver.secrets.set(path, r.data.createWebhook.secret);
  return r.data.createWebhook as { webhook: { id: string }; secret: string };
}

/** Ada (north) and Bob (east) in a guessing game; both are awaited once it starts. */
async function game(s: TestServer, ada: { token: string }, bob: { token: string }, clock?: { perMove: number }) {
  const created = await s.gql(`mutation($i: CreateGameInput!) { createGame(input: $i) { game { id } } }`, {
    i: { type: 'guessing-game', options: { target: 5 }, seats: [{ seat: 'north', me: true }, { seat: 'east', open: true }], visibility: 'PUBLIC', ...(clock ? { clock } : {}) },
  }, ada.token);
  const id = created.data.createGame.game.id as string;
  const joined = await s.gql(`mutation($id: ID!) { joinGame(gameId: $id) { game { version } } }`, { id }, bob.token);
  expect(joined.errors).toBeUndefined();
  return id;
}

const guess = (s: TestServer, token: string, id: string, n: number) =>
  s.gql(`mutation($id: ID!, $c: JSON!) { submitCommand(gameId: $id, command: $c) { game { version } } }`, { id, c: { type: 'guess', number: n } }, token);

describe('webhooks', () => {
  it('POST the events of a player\'s games, signed as Standard Webhooks; a 500 is retried with the same id within 30 s', async () => {
    const ada = await player(server, 'Ada');
    const bob = await player(server, 'Bob');
    const path = `/ada-${randomUUID()}`;
    const created = await webhook(server, ada.token, path, ['YOUR_TURN', 'GAME_STARTED', 'EVENT_APPENDED', 'GAME_OVER']);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    // The first attempt of every delivery fails.
    receiver.answer = ({ path: p, nth }) => (p === path && nth === 1 ? 500 : 200);
    const id = await game(server, ada, bob);
    const mine = () => receiver.received.filter((r) => r.path === path);
    const started = await until(() => mine().filter((r) => r.body?.type === 'GAME_STARTED').length >= 2 && mine().filter((r) => r.body?.type === 'GAME_STARTED'), 30_000, 'the retry');
    expect(started.every((r) => r.verified)).toBe(true);
    expect(started[0]!.id).toBe(started[1]!.id);
    expect(started.map((r) => r.status)).toEqual([500, 200]);
    expect(started[0]!.raw).toBe(started[1]!.raw);
    expect(started[0]!.body).toEqual({ type: 'GAME_STARTED', gameId: id, version: started[0]!.body.version, seat: null, game: { id, type: 'guessing-game', status: 'ACTIVE', version: started[0]!.body.version }, at: expect.any(String) });
    // YOUR_TURN for Ada's seat only, never Bob's.
    const yourTurn = () => mine().filter((r) => r.body?.type === 'YOUR_TURN' && r.status === 200);
    const turns = await until(() => yourTurn().length > 0 && yourTurn(), 30_000, 'your turn');
    expect(turns.map((r) => r.body.seat)).toEqual(['north']);

    await guess(server, bob.token, id, 1);
    const appended = await until(() => mine().find((r) => r.body?.type === 'EVENT_APPENDED' && r.status === 200 && r.body.version > started[0]!.body.version), 30_000, 'events appended');
    expect(appended.verified).toBe(true);
    expect(appended.body.seat).toBeNull();

    const me = await server.gql(ME, {}, ada.token);
    const hook = me.data.me.webhooks.find((w: { id: string }) => w.id === created.webhook.id);
    expect(hook.enabled).toBe(true);
    const startedDelivery = hook.deliveries.find((d: { id: string }) => d.id === started[0]!.id);
    expect(startedDelivery).toMatchObject({ event: 'GAME_STARTED', status: 'DELIVERED', attempts: 2, lastError: 'answered 500' });

    // REST mirror.
    const rest = await server.rest('GET', '/api/me/webhooks', undefined, ada.token);
    expect(rest.status).toBe(200);
    expect(rest.body.webhooks.find((w: { id: string }) => w.id === created.webhook.id).deliveries.map((d: { id: string }) => d.id)).toContain(started[0]!.id);
    expect(await server.gql(ME, {}, bob.token)).toMatchObject({ data: { me: { webhooks: [] } } });

    // GAME_OVER carries the winners and the reason.
    await server.gql(`mutation($id: ID!) { resign(gameId: $id) { status } }`, { id }, bob.token);
    const over = await until(() => mine().find((r) => r.body?.type === 'GAME_OVER' && r.status === 200), 30_000, 'game over');
    expect(over.verified).toBe(true);
    const result = (await server.gql(`query($id: ID!) { game(id: $id) { result { winners reason } } }`, { id })).data.game.result;
    expect(result.winners).toEqual(['north']);
    expect(over.body).toEqual({ type: 'GAME_OVER', gameId: id, version: over.body.version, seat: null, game: { id, type: 'guessing-game', status: 'FINISHED', version: over.body.version }, at: expect.any(String), result });
    expect(mine().filter((r) => r.body?.type !== 'GAME_OVER').every((r) => !('result' in r.body))).toBe(true);

    // Deleted: no more deliveries. Another webhook of Ada's, made after, hears the next game
    // (the same fan-out would write the deleted one's deliveries); once it has heard the last
    // commit and neither the game's fan-out nor the deleted webhook's sender has a job left,
    // anything sent to the deleted one has arrived.
    expect((await server.gql(`mutation($id: ID!) { deleteWebhook(id: $id) }`, { id: created.webhook.id }, ada.token)).data.deleteWebhook).toBe(true);
    const before = mine().length;
    const afterPath = `/ada-after-${randomUUID()}`;
    await webhook(server, ada.token, afterPath, ['YOUR_TURN', 'GAME_STARTED', 'EVENT_APPENDED', 'GAME_OVER']);
    const other = await game(server, ada, bob);
    const last = (await guess(server, ada.token, other, 1)).data.submitCommand.game.version as number;
    await until(() => receiver.received.some((r) => r.path === afterPath && r.status === 200 && r.body?.gameId === other && r.body.type === 'EVENT_APPENDED' && r.body.version === last), 30_000, 'the other webhook to hear the last commit');
    await until(async () => !(await server.queue.pending()).some((j) => (j.task_identifier === 'notify' && (j.payload as { gameId?: string }).gameId === other) || (j.task_identifier === 'webhook' && (j.payload as { webhookId?: string }).webhookId === created.webhook.id)), 30_000, 'the fan-out and the deleted webhook\'s sender to finish');
    expect(mine().length).toBe(before);
  });

  it('sends DEADLINE_SOON for a seat when the clocks say so, to the webhooks of the seat\'s player', async () => {
    const ada = await player(server, 'Ada');
    const bob = await player(server, 'Bob');
    const path = `/deadline-${randomUUID()}`;
    const bobPath = `/deadline-bob-${randomUUID()}`;
    receiver.answer = () => 200;
    await webhook(server, ada.token, path, ['DEADLINE_SOON']);
    await webhook(server, bob.token, bobPath, ['DEADLINE_SOON']);
    const id = await game(server, ada, bob);
    const deadline = new Date(Date.now() + 3600_000);
    await server.core.notifications.deadlineSoon(id, 'north', { version: 1, deadline });
    await server.core.notifications.deadlineSoon(id, 'north', { version: 1, deadline }); // once per seat, version and deadline
    const got = await until(() => receiver.received.find((r) => r.path === path), 20_000, 'deadline soon');
    expect(got.verified).toBe(true);
    expect(got.body).toMatchObject({ type: 'DEADLINE_SOON', gameId: id, seat: 'north', version: 1 });
    // The two calls above share one job (its key) unless the first had started; the same warning
    // asked for again once they have run is a job of its own, whose fan-out finds its delivery
    // written and must neither write it again nor leave the webhook's gate open without a job.
    const notices = async () => (await server.queue.pending(TASKS.deadlineNotice)).filter((j) => (j.payload as { gameId?: string }).gameId === id);
    await until(async () => (await notices()).length === 0, 20_000, 'the warning\'s fan-out');
    await server.core.notifications.deadlineSoon(id, 'north', { version: 1, deadline });
    await until(async () => (await notices()).length === 0, 20_000, 'the repeated warning\'s fan-out');
    // Then another warning for each seat: a webhook sends its deliveries one at a time in the
    // order fanned out, so once these arrive, a repeat of north's, or north's sent to Bob, has.
    await server.core.notifications.deadlineSoon(id, 'north', { version: 2, deadline });
    await server.core.notifications.deadlineSoon(id, 'east', { version: 1, deadline });
    await until(() => receiver.received.some((r) => r.path === path && r.body?.version === 2), 20_000, "Ada's second warning (a gate left open by a fan-out that wrote nothing holds it back)");
    await until(() => receiver.received.some((r) => r.path === bobPath), 20_000, "Bob's warning for east");
    expect(receiver.received.filter((r) => r.path === path).map((r) => [r.body.seat, r.body.version])).toEqual([['north', 1], ['north', 2]]);
    expect(receiver.received.filter((r) => r.path === bobPath).map((r) => [r.body.seat, r.body.version])).toEqual([['east', 1]]);
  });

  it('sends DEADLINE_SOON when a seat on a clock has a quarter of its time left', async () => {
    const ada = await player(server, 'Ada');
    const bob = await player(server, 'Bob');
    const path = `/clock-${randomUUID()}`;
    receiver.answer = () => 200;
    await webhook(server, ada.token, path, ['DEADLINE_SOON']);
    const id = await game(server, ada, bob, { perMove: 6 });
    const got = await until(() => receiver.received.find((r) => r.path === path), 20_000, 'deadline soon from the clock');
    expect(got.verified).toBe(true);
    expect(got.body).toMatchObject({ type: 'DEADLINE_SOON', gameId: id, seat: 'north' });
    await server.gql(`mutation($id: ID!) { resign(gameId: $id) { status } }`, { id }, ada.token);
  });

  it('disables a webhook that keeps failing, and says why', async () => {
    const ada = await player(server, 'Ada');
    const bob = await player(server, 'Bob');
    const path = `/down-${randomUUID()}`;
    receiver.answer = ({ path: p }) => (p === path ? 503 : 200);
    const created = await webhook(server, ada.token, path, ['GAME_STARTED']);
    await game(server, ada, bob);
    const hook = await until(async () => {
      const me = await server.gql(ME, {}, ada.token);
      const w = me.data.me.webhooks.find((x: { id: string }) => x.id === created.webhook.id);
      return !w.enabled && w;
    }, 30_000, 'the webhook to be disabled');
    expect(hook.disabledReason).toMatch(/failed 2 times.*answered 503/);
    expect(hook.deliveries[0]).toMatchObject({ status: 'FAILED', attempts: 2, lastError: 'answered 503' });
  });

  it('refuses private and loopback targets unless allowed, also after DNS resolution', async () => {
    const ada = await player(strict, 'Ada');
    for (const url of ['http://127.0.0.1:9/x', 'http://10.1.2.3/x', 'http://[::1]/x', 'http://169.254.169.254/latest', 'http://localhost:9/x', 'http://[::ffff:127.0.0.1]/x']) {
      const r = await strict.gql(CREATE_WEBHOOK, { i: { url, events: ['YOUR_TURN'] } }, ada.token);
      expect(r.errors?.[0]?.extensions?.code, url).toBe('BAD_REQUEST');
      expect(r.errors?.[0]?.message, url).toMatch(/private|loopback/);
    }
    for (const [input, code] of [
      [{ url: 'ftp://example.org/x', events: ['YOUR_TURN'] }, 'BAD_REQUEST'],
      [{ url: 'https://example.org/x', events: [] }, 'BAD_REQUEST'],
      [{ url: 'https://example.org/x', events: ['YOUR_TURN'], gameId: randomUUID() }, 'NOT_FOUND'],
    ] as const) {
      expect((await strict.gql(CREATE_WEBHOOK, { i: input }, ada.token)).errors?.[0]?.extensions?.code).toBe(code);
    }
    expect((await strict.gql(CREATE_WEBHOOK, { i: { url: 'https://example.org/x', events: ['YOUR_TURN'] } })).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const rest = await strict.rest('POST', '/api/me/webhooks', { url: 'http://127.0.0.1/x', events: ['YOUR_TURN'] }, ada.token);
    expect(rest.status).toBe(400);
    // A game that is not yours.
    const other = await player(strict, 'Other');
    const bob = await player(strict, 'Bob');
    const id = await game(strict, other, bob);
    expect((await strict.gql(CREATE_WEBHOOK, { i: { url: 'https://example.org/x', events: ['YOUR_TURN'], gameId: id } }, ada.token)).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');

    // At delivery the address connected to is checked again, and redirects are not followed.
    expect(await post(`${receiver.url}/x`, {}, '{}', { allowPrivate: false })).toEqual({ error: expect.stringMatching(/private address/) });
    const port = new URL(receiver.url).port;
    expect(await post(`http://localhost:${port}/x`, {}, '{}', { allowPrivate: false })).toEqual({ error: expect.stringMatching(/private address/) });
    const path = `/redirect-${randomUUID()}`;
    receiver.answer = ({ path: p }) => (p === path ? { redirect: `${receiver.url}/elsewhere` } : 200);
    expect(await post(`${receiver.url}${path}`, {}, '{}', { allowPrivate: true })).toEqual({ status: 302 });
    expect(receiver.received.some((r) => r.path === '/elsewhere')).toBe(false);
  });

  it('adds a job planned only for a listened game in the append only when someone listens, never for an append that was not stored', async () => {
    const store = strict.core.ports.games;
    const newGame = async (playerIds: string[]) => {
      const id = randomUUID();
      await store.createGame({
        game: { id, type: 'guessing-game', options: {}, players: [{ seat: 'north', name: 'N' }], seedCommitment: 'c', seed: 's', status: 'ACTIVE', awaiting: ['north'], result: null, rules: 'r', playerIds, seats: playerIds.map((p) => ({ seat: 'north', kind: 'player' as const, playerId: p })) },
        tokens: [],
        events: [{ type: 'Setup', seat: null, data: { type: 'Setup' } }],
      });
      return id;
    };
    const append = (gameId: string, expectedVersion = 1) =>
      store.append({ gameId, expectedVersion, seat: 'north', command: { type: 'x' }, idempotencyKey: null, events: [{ type: 'E', seat: 'north', data: { type: 'E' } }], summary: { status: 'ACTIVE', awaiting: ['north'], result: null }, outbox: [{ kind: 'EVENTS_APPENDED', seat: null }],
        // A job planned only if someone listens (as a message's fan-out is); the store decides in the append.
        jobs: [{ task: 'test-nobody-runs', payload: { gameId }, when: 'listened' }] });
    // The conditional jobs the appends added, by game (nobody runs this task: they stay queued).
    const queued = async (gameId: string) => {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        const { rows } = await client.query(
          `SELECT count(*)::int AS n FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = 'test-nobody-runs' AND j.payload->>'gameId' = $1`,
          [gameId],
        );
        return rows[0].n as number;
      } finally {
        await client.end();
      }
    };
    // Nobody listens (seat tokens; a player without webhook or mail): no job, no NOTIFY.
    const cid = await player(strict, 'Cid');
    const [alone, withCid] = [await newGame([]), await newGame([cid.id])];
    expect(await append(alone)).toMatchObject({ ok: true });
    expect(await append(withCid)).toMatchObject({ ok: true });
    expect([await queued(alone), await queued(withCid)]).toEqual([0, 0]);
    // A player with a webhook on all their games: one job with the append.
    const ada = await player(strict, 'Ada');
    const r = await strict.rest('POST', '/api/me/webhooks', { url: 'https://93.184.215.14/hook', events: ['YOUR_TURN'] }, ada.token);
    expect(r.status).toBe(201);
    const id = await newGame([ada.id]);
    expect(await append(id)).toMatchObject({ ok: true });
    expect(await queued(id)).toBe(1);
    // A losing append (the version moved on) stores nothing and adds nothing.
    expect(await append(id, 1)).toMatchObject({ ok: false, conflict: 'VERSION' });
    expect(await queued(id)).toBe(1);
  });
});
