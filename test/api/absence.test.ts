/**
 * Absence through the API on two server processes sharing one database and one job queue,
 * both running workers, in real time with seconds-long clocks: an absence set while a
 * seat's deadline job waits stops the clock (the deadline moves, the job with it, nothing
 * fires at the old time), Seat.absentUntil says until when, a cancel resumes the clock with
 * the time left when the absence began, and the time-out then comes exactly once. A seat
 * awaited during an absence starts its full time at the end. A player warned of a deadline
 * before going away is warned again on the return, for the deadline the absence moved (a real
 * webhook receiver). REST and GraphQL agree and refuse with the reason.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownDatabase, type OwnDatabase } from '../support/own-database.ts';
import { startReceiver, until as waitUntil, type Receiver } from '../support/receivers.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let a: TestServer;
let b: TestServer;
let db: pg.Client;
let receiver: Receiver;
let own: OwnDatabase;
const opts = { rateLimit: 100_000, registrationsPerMinute: 10_000, workers: { pollInterval: 200 }, notifications: { allowPrivate: true } };

beforeAll(async () => {
  [receiver, own] = await Promise.all([startReceiver(), ownDatabase('absence')]);
  [a, b] = await Promise.all([startTestServer({ ...opts, databaseUrl: own.url }), startTestServer({ ...opts, databaseUrl: own.url })]);
  db = new pg.Client({ connectionString: own.url });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await Promise.all([a?.close(), b?.close()]);
  await receiver?.close();
  await own?.drop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (iso: string) => new Date(iso).getTime();
const STATE = `query($id: ID!) { game(id: $id) { status result { winners reason } seats { id deadline absentUntil mustAct } events { type seat data at } } }`;
const ABSENCES = `{ me { absences { id from until } } }`;

async function player(server: TestServer, name: string): Promise<string> {
  const r = await server.gql(`mutation($n: String!) { registerPlayer(input: { name: $n }) { token } }`, { n: name });
  expect(r.errors).toBeUndefined();
  return r.data.registerPlayer.token as string;
}

async function game(server: TestServer, token: string, perMove: number) {
  const r = await server.gql(`mutation($i: CreateGameInput!) { createGame(input: $i) { game { id seats { id deadline } } seatTokens { seat token } } }`, {
    i: { type: 'guessing-game', options: { target: 100 }, seats: [{ seat: 'north', me: true }, { seat: 'east', name: 'East' }], clock: { perMove } },
  }, token);
  expect(r.errors).toBeUndefined();
  const east = r.data.createGame.seatTokens.find((t: { seat: string }) => t.seat === 'east').token as string;
  return { id: r.data.createGame.game.id as string, east, northDeadline: r.data.createGame.game.seats.find((s: { id: string }) => s.id === 'north').deadline as string };
}

const state = async (server: TestServer, id: string) => {
  const r = await server.gql(STATE, { id });
  expect(r.errors).toBeUndefined();
  return r.data.game;
};
const north = async (server: TestServer, id: string) => (await state(server, id)).seats.find((s: { id: string }) => s.id === 'north');
const timedOut = (g: { events: { type: string; at: string }[] }) => g.events.filter((e) => e.type === 'TimedOut');

async function waitFor<T>(what: string, limit: number, probe: () => Promise<T | null | undefined | false>): Promise<T> {
  const until = Date.now() + limit;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > until) throw new Error(`${what}: not within ${limit} ms`);
    await sleep(100);
  }
}

/** The pending deadline job of a seat, as the queue holds it. */
async function job(gameId: string, seat: string) {
  const { rows } = await db.query<{ run_at: Date }>('SELECT run_at FROM graphile_worker._private_jobs WHERE key = $1', [`deadline:${gameId}:${seat}`]);
  return rows[0]?.run_at ?? null;
}

describe('absence on two processes, in real time', () => {
  it('stops the clock of a waiting seat, moves its job, and a cancel resumes it with the same time left; the time-out comes once', async () => {
    const ada = await player(a, 'Ada');
    const g = await game(a, ada, 4);
    // East acts at once: only north's clock runs.
    expect((await b.gql(`mutation($id: ID!) { submitCommand(gameId: $id, command: { type: "guess", number: 1 }) { game { version } } }`, { id: g.id }, g.east)).errors).toBeUndefined();
    const d0 = ms(g.northDeadline);
    expect((await job(g.id, 'north'))?.getTime()).toBe(d0);

    await sleep(1_000);
    // Away for a minute, asked of the other process (REST).
    const set = await b.rest('POST', '/api/me/absences', { from: new Date().toISOString(), until: new Date(Date.now() + 60_000).toISOString() }, ada);
    expect(set.status).toBe(201);
    const { id, from, until } = set.body as { id: string; from: string; until: string };
    const left = d0 - ms(from);
    expect(left).toBeGreaterThan(1_000);
    expect(left).toBeLessThan(3_500);
    // Both processes see the clock standing still: the deadline is the old one plus the absence.
    for (const server of [a, b]) {
      const seat = await north(server, g.id);
      expect(seat.absentUntil).toBe(until);
      expect(ms(seat.deadline)).toBe(ms(until) + left);
    }
    // The waiting job moved with it, in the same transaction.
    expect((await job(g.id, 'north'))?.getTime()).toBe(ms(until) + left);

    // Past the old deadline nothing happens.
    await sleep(Math.max(0, d0 - Date.now()) + 2_000);
    const meanwhile = await state(a, g.id);
    expect(meanwhile.status).toBe('ACTIVE');
    expect(timedOut(meanwhile)).toEqual([]);

    // Back early (GraphQL, on the first process): the absence ends now, the same time is left.
    const cancelled = await a.gql(`mutation($id: ID!) { cancelAbsence(id: $id) }`, { id }, ada);
    expect(cancelled.errors).toBeUndefined();
    expect(cancelled.data.cancelAbsence).toBe(true);
    const [ended] = (await a.gql(ABSENCES, {}, ada)).data.me.absences;
    expect(ended).toMatchObject({ id, from });
    expect(ms(ended.until)).toBeLessThan(ms(until));
    const seat = await north(b, g.id);
    expect(seat.absentUntil).toBeNull();
    expect(ms(seat.deadline) - ms(ended.until)).toBe(left);
    expect((await job(g.id, 'north'))?.getTime()).toBe(ms(seat.deadline));

    // The time-out, once, from whichever process, not before the new deadline.
    const over = await waitFor('the time-out', 15_000, async () => {
      const s = await state(b, g.id);
      return s.status === 'FINISHED' && s;
    });
    expect(over.result).toEqual({ winners: ['east'], reason: 'time out' });
    expect(timedOut(over)).toHaveLength(1);
    expect(ms(timedOut(over)[0].at)).toBeGreaterThanOrEqual(ms(seat.deadline));
    await sleep(1_000);
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM commands WHERE game_id = $1 AND command->>'type' = 'timeOut'`, [g.id]);
    expect(rows[0].n).toBe(1);
  });

  it('a seat awaited during an absence starts its full time when the absence ends', async () => {
    const bo = await player(b, 'Bo');
    const now = Date.now();
    const set = await a.gql(`mutation($i: AbsenceInput!) { setAbsence(input: $i) { id from until } }`, { i: { from: new Date(now).toISOString(), until: new Date(now + 3_000).toISOString() } }, bo);
    expect(set.errors).toBeUndefined();
    const { until } = set.data.setAbsence;
    const g = await game(b, bo, 2);
    expect((await a.gql(`mutation($id: ID!) { submitCommand(gameId: $id, command: { type: "guess", number: 1 }) { game { version } } }`, { id: g.id }, g.east)).errors).toBeUndefined();
    // Two seconds from the return, not from the start of the game.
    expect(ms(g.northDeadline)).toBe(ms(until) + 2_000);
    expect((await north(a, g.id)).absentUntil).toBe(until);
    const over = await waitFor('the time-out', 15_000, async () => {
      const s = await state(a, g.id);
      return s.status === 'FINISHED' && s;
    });
    expect(timedOut(over)).toHaveLength(1);
    expect(ms(timedOut(over)[0].at)).toBeGreaterThanOrEqual(ms(until) + 2_000);
  });

  it('warns again when the player is back from an absence begun after the warning, for the deadline it moved, and once per deadline', async () => {
    const ada = await player(a, 'Ada');
    const path = `/deadline-soon-${randomUUID()}`;
    const hook = await a.gql(`mutation($i: CreateWebhookInput!) { createWebhook(input: $i) { secret } }`, { i: { url: `${receiver.url}${path}`, events: ['DEADLINE_SOON'] } }, ada);
    expect(hook.errors).toBeUndefined();
    receiver.secrets.set(path, hook.data.createWebhook.secret);
    const warnings = () => receiver.received.filter((r) => r.path === path && r.status === 200);
    const g = await game(a, ada, 12);
    expect((await b.gql(`mutation($id: ID!) { submitCommand(gameId: $id, command: { type: "guess", number: 1 }) { game { version } } }`, { id: g.id }, g.east)).errors).toBeUndefined();
    const d0 = ms(g.northDeadline);

    // The warning when a quarter of the time is left (9 s in).
    const [first] = await waitUntil(() => warnings().length > 0 && warnings(), 20_000, 'the first warning');
    expect(first!.verified).toBe(true);
    expect(first!.body).toMatchObject({ type: 'DEADLINE_SOON', gameId: g.id, seat: 'north' });
    // Away for a minute (on the second process), back a second later (on the first).
    const set = await b.rest('POST', '/api/me/absences', { from: new Date().toISOString(), until: new Date(Date.now() + 60_000).toISOString() }, ada);
    expect(set.status).toBe(201);
    const left = d0 - ms(set.body.from);
    expect(left).toBeGreaterThan(500);
    await sleep(1_000);
    expect(warnings()).toHaveLength(1); // none while away
    expect((await a.gql(`mutation($id: ID!) { cancelAbsence(id: $id) }`, { id: set.body.id }, ada)).data.cancelAbsence).toBe(true);
    const [ended] = (await a.gql(ABSENCES, {}, ada)).data.me.absences;
    const deadline = ms((await north(b, g.id)).deadline);
    expect(deadline - ms(ended.until)).toBe(left);

    // Warned again on the return, before the deadline it moved: another delivery of the same decision.
    const second = await waitUntil(() => warnings()[1], 10_000, 'the warning after the return');
    expect(second.verified).toBe(true);
    expect(second.id).not.toBe(first!.id);
    expect(second.body).toMatchObject({ type: 'DEADLINE_SOON', gameId: g.id, seat: 'north', version: first!.body.version });
    expect(ms(second.body.at)).toBeGreaterThanOrEqual(ms(ended.until));
    expect(ms(second.body.at)).toBeLessThan(deadline);
    // An absence after the deadline moves nothing: no third warning, before or at the time-out.
    expect((await a.rest('POST', '/api/me/absences', { from: new Date(Date.now() + 3_600_000).toISOString(), until: new Date(Date.now() + 7_200_000).toISOString() }, ada)).status).toBe(201);
    await waitFor('the time-out', 15_000, async () => (await state(a, g.id)).status === 'FINISHED');
    await sleep(1_000);
    expect(warnings()).toHaveLength(2);
  });

  it("says a seat's absentUntil in a command's answer and in every read, the absences read with the game on both processes", async () => {
    const ada = await player(a, 'Ada');
    const g = await game(a, ada, 600);
    const until = new Date(Date.now() + 60_000).toISOString();
    expect((await b.rest('POST', '/api/me/absences', { from: new Date().toISOString(), until }, ada)).status).toBe(201);
    // The answer of east's command on the first process (which holds the game, so read nothing before its append).
    const answer = await a.gql(`mutation($id: ID!) { submitCommand(gameId: $id, command: { type: "guess", number: 1 }) { game { seats { id absentUntil } } } }`, { id: g.id }, g.east);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.submitCommand.game.seats).toEqual([{ id: 'north', absentUntil: until }, { id: 'east', absentUntil: null }]);
    const rest = await a.rest('GET', `/api/games/${g.id}`, undefined, g.east);
    expect((rest.body as { game: { seats: { id: string; absentUntil: string | null }[] } }).game.seats.map((x) => [x.id, x.absentUntil])).toEqual([['north', until], ['east', null]]);
    // Back on the other process: the first sees it on its next read of the game it still holds unchanged.
    const [{ id }] = (await b.gql(ABSENCES, {}, ada)).data.me.absences;
    expect((await b.gql(`mutation($id: ID!) { cancelAbsence(id: $id) }`, { id }, ada)).data.cancelAbsence).toBe(true);
    expect((await north(a, g.id)).absentUntil).toBeNull();
  });

  it('lists, refuses with the reason and cancels over REST and GraphQL', async () => {
    const cy = await player(a, 'Cy');
    const day = 86_400_000;
    const start = Date.now() + day;
    const first = await a.rest('POST', '/api/me/absences', { from: new Date(start).toISOString(), until: new Date(start + 2 * day).toISOString() }, cy);
    expect(first.status).toBe(201);
    const overlap = await b.gql(`mutation($i: AbsenceInput!) { setAbsence(input: $i) { id } }`, { i: { from: new Date(start + day).toISOString(), until: new Date(start + 3 * day).toISOString() } }, cy);
    expect(overlap.errors?.[0]).toMatchObject({ message: expect.stringMatching(/overlaps your absence from/), extensions: { code: 'BAD_REQUEST' } });
    const past = await b.rest('POST', '/api/me/absences', { from: new Date(Date.now() - day).toISOString(), until: new Date(start).toISOString() }, cy);
    expect(past.status).toBe(400);
    expect(JSON.stringify(past.body)).toMatch(/cannot begin in the past/);
    const long = await b.rest('POST', '/api/me/absences', { from: new Date(start + 10 * day).toISOString(), until: new Date(start + 110 * day).toISOString() }, cy);
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body)).toMatch(/at most 30 days of absence a calendar year/);
    expect((await b.rest('GET', '/api/me/absences', undefined, cy)).body).toEqual({ absences: [first.body] });
    expect((await a.rest('GET', '/api/me/absences')).status).toBe(401);
    expect((await a.rest('DELETE', `/api/me/absences/${first.body.id}`, undefined, await player(a, 'Dee'))).status).toBe(404);
    expect((await a.rest('DELETE', `/api/me/absences/${first.body.id}`, undefined, cy)).body).toEqual({ cancelled: true });
    expect((await b.gql(ABSENCES, {}, cy)).data.me.absences).toEqual([]);
  });
});
