/**
 * A PostgreSQL outage with a job and a delivery in flight (issue 24.1). One server process
 * (HTTP and workers) on a cluster of the test's own; a webhook receiver that answers each
 * delivery after a while, so one is always in flight; a mail server that answers each mail
 * after a while, so a mail job is running; commands in a loop. The database is stopped with
 * `pg_ctl stop -m immediate` while both are in flight (the job's completion cannot be written,
 * nor the delivery's success), for 10 s, then started again. The process must survive
 * (graphile-worker's runner stops on such an error: the queue starts another once the database
 * is back; the dispatcher's lease ends with its connection: it takes it again), answer 503
 * UNAVAILABLE with Retry-After while the database is down (never a refused connection), and
 * afterwards every acknowledged command's events are stored, every acknowledged commit's
 * delivery arrives, and the mail goes out (its job runs again).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, nth, type Game } from '../scaling/load.ts';
import { havePg15, primaryCluster, serverProcess, until, type Cluster, type ServerProcess } from '../scaling/parts.ts';
import { startMailBox, startReceiver, type MailBox, type Receiver } from '../support/receivers.ts';

if (!havePg15 && process.env.CI) throw new Error('PostgreSQL 15 is needed (.ci/run installs it)');

describe.skipIf(!havePg15)('a database outage with a job in flight', () => {
  let cluster: Cluster;
  let receiver: Receiver;
  let box: MailBox;
  let server: ServerProcess;

  beforeAll(async () => {
    cluster = await primaryCluster();
    receiver = await startReceiver();
    box = await startMailBox({ answerAfterMs: 3000 });
    server = await serverProcess({ DATABASE_URL: cluster.url, SMTP_URL: box.url, MAIL_FROM: 'games@outage.test', PUBLIC_URL: 'http://outage.test', WEBHOOK_ALLOW_PRIVATE: 'true', DATABASE_POOL_SIZE: '4', QUEUE_POLL_MS: '300', QUEUE_HEARTBEAT_MS: '500', MAX_EVENT_LOOP_DELAY: '0' });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
    await box?.close();
    cluster?.stop();
  });

  it('survives, answers 503 while down, and loses nothing', async () => {
    const base = server.url;
    const ada = await call(base, 'POST', '/graphql', { query: 'mutation { registerPlayer(input: { name: "Ada" }) { token } }' });
    const token = ada.body.data.registerPlayer.token as string;
    // Ada holds north (her player token), east is a named seat (its seat token).
    const created = await call(base, 'POST', '/api/games', { type: 'guessing-game', options: { target: 1_000_000 }, seats: [{ seat: 'north', me: true }, { seat: 'east', name: 'east' }] }, token);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const seatTokens = Object.fromEntries(created.body.seatTokens.map((t: { seat: string; token: string }) => [t.seat, t.token]));
    const game: Game = { id: created.body.game.id, tokens: { north: token, east: seatTokens.east } };
    const path = '/outage';
    const hook = await call(base, 'POST', '/api/me/webhooks', { url: `${receiver.url}${path}`, events: ['EVENT_APPENDED'], gameId: game.id }, token);
    expect(hook.status).toBe(201);
    receiver.secrets.set(path, hook.body.secret);
    receiver.answer = () => ({ status: 200, afterMs: 1500 });

    // Commands in a loop; what each answered.
    const acked: { version: number; type: string }[] = [];
    const commits: number[][] = []; // each acknowledged command's event versions
    const answers: { status: number; retryAfter: string | null; code?: string; refused?: string }[] = [];
    let i = 0;
    let looping = true;
    const loop = (async () => {
      while (looping) {
        const { token: t, key } = nth(game, i);
        try {
          const res = await fetch(`${base}/api/games/${game.id}/commands`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${t}` },
            body: JSON.stringify({ command: { type: 'guess', number: 1 }, idempotencyKey: key }),
            signal: AbortSignal.timeout(15_000),
          });
          const body = (await res.json()) as any;
          answers.push({ status: res.status, retryAfter: res.headers.get('retry-after'), code: body.error?.code });
          if (res.status === 200) {
            for (const e of body.events) acked.push({ version: e.version, type: e.type });
            commits.push(body.events.map((e: { version: number }) => e.version));
            i++;
          }
        } catch (error) {
          answers.push({ status: 0, retryAfter: null, refused: String((error as Error).cause ?? error) });
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    })();

    // A delivery is in flight (its answer comes 1.5 s later), and a mail job (a player's code, answered 3 s later): the database goes away.
    await until('a delivery in flight', async () => receiver.received.some((r) => r.path === path), { tries: 400, everyMs: 50 });
    const email = 'eve@outage.test';
    const eve = await call(base, 'POST', '/graphql', { query: `mutation { registerPlayer(input: { name: "Eve", email: "${email}" }) { token } }` });
    expect(eve.body.errors).toBeUndefined();
    await until('a mail job in flight', async () => box.started() > 0, { tries: 400, everyMs: 50 });
    cluster.halt();
    const downAt = answers.length;
    await new Promise((r) => setTimeout(r, 10_000));
    const whileDown = answers.slice(downAt);
    cluster.resume();

    // Back: commands are acknowledged again, then a few more.
    await until('commands acknowledged again', async () => {
      if (server.child.exitCode !== null || server.child.signalCode !== null) throw new Error(`the server exited: ${server.output().slice(-3000)}`);
      return answers.slice(downAt + whileDown.length).some((a) => a.status === 200);
    }, { tries: 600, everyMs: 100 });
    const after = i;
    await until('a few more commands', async () => i >= after + 4, { tries: 600, everyMs: 100 });
    looping = false;
    await loop;

    expect(server.child.exitCode, server.output()).toBeNull();
    expect(server.child.signalCode).toBeNull();
    // While down: 503 UNAVAILABLE with Retry-After, never a refused connection or a 500.
    expect(whileDown.length).toBeGreaterThan(0);
    expect(whileDown.some((a) => a.status === 503)).toBe(true);
    for (const a of answers) {
      expect(a.refused, JSON.stringify(a)).toBeUndefined();
      expect([200, 503], JSON.stringify(a)).toContain(a.status);
      if (a.status === 503) {
        expect(a.code).toBe('UNAVAILABLE');
        expect(a.retryAfter).toMatch(/^\d+$/);
      }
    }

    // Nothing lost: every acknowledged command's events are stored.
    const stored = await call(base, 'GET', `/api/games/${game.id}/events?first=100000`, undefined, game.tokens.north);
    expect(stored.status).toBe(200);
    const log = new Map<number, string>(stored.body.events.map((e: { version: number; type: string }) => [e.version, e.type]));
    for (const e of acked) expect(log.get(e.version), `event ${e.version}`).toBe(e.type);

    // The jobs ran afterwards: each acknowledged commit's delivery arrived (answered 200).
    receiver.answer = () => 200;
    expect(commits.length).toBeGreaterThan(4);
    const got = () => new Set(receiver.received.filter((r) => r.path === path && r.status === 200 && r.verified).map((r) => r.body.version as number));
    await until('every acknowledged commit delivered', async () => commits.every((versions) => versions.some((v) => got().has(v))), { tries: 1200, everyMs: 100 }).catch(async (error) => {
      // What was missing, what the service says of its deliveries, and what the server logged.
      const missing = commits.filter((versions) => !versions.some((v) => got().has(v)));
      const listed = await call(base, 'GET', '/api/me/webhooks?first=100', undefined, token).catch(() => null);
      throw new Error(`${(error as Error).message}; missing commits ${JSON.stringify(missing)}; webhooks ${JSON.stringify(listed?.body).slice(0, 3000)}; server: ${server.output().slice(-3000)}`);
    });
    // The mail's job ran again once the database was back.
    await until('the mail sent', async () => box.to(email).length > 0, { tries: 600, everyMs: 100 });
    expect(server.output()).not.toMatch(/shutting down after an error/);
    expect(server.output()).toMatch(/job queue: the \w+ runner is back/); // it did stop, and came back
  }, 180_000);
});
