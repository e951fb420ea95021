/**
 * `clock: { onTimeout: BOT }` on two server processes sharing one database and job queue,
 * with seconds-long clocks and no client watching: a seat whose deadline passes is handed to
 * the random bot once (`SeatHandedToBot`, by the system), the game goes on and the bot plays
 * that seat to the end; its former holder is refused; the export verifies; the default stays
 * RESIGN; the player's webhook and mail say so.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownDatabase, type OwnDatabase } from '../support/own-database.ts';
import { startMailBox, startReceiver, until, type MailBox, type Receiver } from '../support/receivers.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let a: TestServer;
let b: TestServer;
let receiver: Receiver;
let smtp: MailBox;
let db: pg.Client;
let own: OwnDatabase;

beforeAll(async () => {
  [receiver, smtp, own] = await Promise.all([startReceiver(), startMailBox(), ownDatabase('timeout_bot')]);
  const opts = { databaseUrl: own.url, rateLimit: 100_000, registrationsPerMinute: 10_000, workers: { pollInterval: 200 }, notifications: { allowPrivate: true }, mailer: { smtpUrl: smtp.url, from: 'Wargames <games@wargames.test>' } };
  [a, b] = await Promise.all([startTestServer(opts), startTestServer(opts)]);
  db = new pg.Client({ connectionString: own.url });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await Promise.all([a?.close(), b?.close()]);
  await Promise.all([receiver?.close(), smtp?.close()]);
  await own?.drop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const STATE = `query($id: ID!) { game(id: $id) { status version clock { perMove onTimeout } result { winners reason } seats { id bot player { id } } events { type seat data } } }`;
const SUBMIT = `mutation($id: ID!, $c: JSON!) { submitCommand(gameId: $id, command: $c) { game { version } } }`;

async function verifiedPlayer(server: TestServer, name: string) {
  const email = `${name.toLowerCase()}-${randomUUID()}@example.test`;
  const r = await server.gql(`mutation($n: String!, $e: String) { registerPlayer(input: { name: $n, email: $e }) { player { id } token } }`, { n: name, e: email });
  expect(r.errors).toBeUndefined();
  const token = r.data.registerPlayer.token as string;
  const code = await until(() => smtp.to(email).find((m) => /Code: (\S+)/.test(m.text ?? ''))?.text?.match(/Code: (\S+)/)?.[1], 20_000, 'the code');
  expect((await server.gql(`mutation($c: String!) { verifyEmail(code: $c) { emailVerified } }`, { c: code }, token)).errors).toBeUndefined();
  expect((await server.gql(`mutation { updatePlayer(input: { notifyByEmail: true }) { notifyByEmail } }`, {}, token)).errors).toBeUndefined();
  return { id: r.data.registerPlayer.player.id as string, token, email };
}

describe('onTimeout: BOT', () => {
  it('hands a seat out of time to the random bot once, and the game goes on to its end; webhooks and mail say so; the export verifies', async () => {
    const ada = await verifiedPlayer(a, 'Ada');
    const path = `/handover-${randomUUID()}`;
    receiver.answer = () => 200;
    const hook = await a.gql(`mutation($i: CreateWebhookInput!) { createWebhook(input: $i) { secret } }`, { i: { url: `${receiver.url}${path}`, events: ['SEAT_HANDED_TO_BOT', 'GAME_OVER'] } }, ada.token);
    expect(hook.errors).toBeUndefined();
    receiver.secrets.set(path, hook.data.createWebhook.secret);

    const created = await a.gql(`mutation($i: CreateGameInput!) { createGame(input: $i) { game { id clock { perMove onTimeout } } seatTokens { seat token } } }`, {
      i: { type: 'guessing-game', options: { target: 6 }, seats: [{ seat: 'north', me: true }, { seat: 'east', name: 'East' }], clock: { perMove: 2, onTimeout: 'BOT' } },
    }, ada.token);
    expect(created.errors).toBeUndefined();
    const id = created.data.createGame.game.id as string;
    expect(created.data.createGame.game.clock).toEqual({ perMove: 2, onTimeout: 'BOT' });
    const east = created.data.createGame.seatTokens.find((t: { seat: string }) => t.seat === 'east').token as string;

    // Ada never plays; East plays whenever awaited. North's time runs out and the bot takes it.
    const finished = await until(async () => {
      const s = (await b.gql(STATE, { id })).data.game;
      if (s.status === 'FINISHED') return s;
      await b.gql(SUBMIT, { id, c: { type: 'guess', number: 3 } }, east);
      await sleep(300);
      return null;
    }, 90_000, 'the end of the game');

    const handed = finished.events.filter((e: { type: string }) => e.type === 'SeatHandedToBot');
    expect(handed).toEqual([{ type: 'SeatHandedToBot', seat: null, data: { type: 'SeatHandedToBot', seat: 'north' } }]);
    expect(finished.events.filter((e: { type: string }) => e.type === 'TimedOut')).toEqual([]);
    expect(finished.result.reason).not.toBe('time out');
    // The bot played north after the handover (its guesses are north's commands).
    const after = finished.events.slice(finished.events.findIndex((e: { type: string }) => e.type === 'SeatHandedToBot'));
    expect(after.some((e: { type: string; seat: string | null }) => e.type === 'GuessCommitted' && e.seat === 'north')).toBe(true);
    expect(finished.seats.find((s: { id: string }) => s.id === 'north')).toMatchObject({ bot: 'random', player: null });
    // Exactly once across both processes: one system command.
    const { rows } = await db.query('SELECT command FROM commands WHERE game_id = $1 AND seat IS NULL', [id]);
    expect(rows).toEqual([{ command: { type: 'timeOut', seat: 'north', bot: true } }]);
    // Ada no longer plays north: refused as not hers. On the finished game a seat's holder
    // is told GAME_OVER (east, here), so that answer would mean north still answered to her.
    expect((await a.gql(SUBMIT, { id, c: { type: 'resign' } }, east)).errors?.[0]?.extensions?.code).toBe('GAME_OVER');
    const refused = await a.gql(SUBMIT, { id, c: { type: 'resign' } }, ada.token);
    expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await a.gql(`query($id: ID!) { game(id: $id) { yourSeat } }`, { id }, ada.token)).data.game.yourSeat).toBeNull();

    // The webhook and the mail say so; GAME_OVER carries the result.
    const said = await until(() => receiver.received.find((r) => r.path === path && r.body?.type === 'SEAT_HANDED_TO_BOT'), 20_000, 'the webhook');
    expect(said.verified).toBe(true);
    expect(said.body).toMatchObject({ type: 'SEAT_HANDED_TO_BOT', gameId: id, seat: 'north' });
    const over = await until(() => receiver.received.find((r) => r.path === path && r.body?.type === 'GAME_OVER'), 20_000, 'game over');
    expect(over.body.result).toEqual(finished.result);
    const mail = await until(() => smtp.to(ada.email).find((m) => m.subject?.startsWith('Your seat was handed to the bot')), 20_000, 'the mail');
    expect(mail.text).toContain('the service\'s random bot plays north for the rest of the game');

    // The log replays: the export verifies.
    const exported = await a.rest('GET', `/api/games/${id}/export`);
    expect(exported.status).toBe(200);
    const report = await a.rest('POST', '/api/games/verify', exported.body);
    expect(report.body).toMatchObject({ valid: true });
  });

  it('refuses the seat to its holder at once after the handover, even before its record says so; RESIGN stays the default', async () => {
    const created = await a.gql(`mutation($i: CreateGameInput!) { createGame(input: $i) { game { id clock { onTimeout } } seatTokens { seat token } } }`, {
      i: { type: 'guessing-game', options: { target: 1000 }, seats: [{ seat: 'north', name: 'N' }, { seat: 'east', name: 'E' }, { seat: 'south', name: 'S' }], clock: { perMove: 600, onTimeout: 'BOT' } },
    });
    const id = created.data.createGame.game.id as string;
    const tokens = Object.fromEntries(created.data.createGame.seatTokens.map((t: { seat: string; token: string }) => [t.seat, t.token]));
    // The time-out as the deadline task submits it (the kernel decides), without the record's update.
    await a.core.commands.execute({ kind: 'system' }, id, { type: 'timeOut', seat: 'north', bot: true });
    const refused = await b.gql(SUBMIT, { id, c: { type: 'guess', number: 2 } }, tokens.north);
    expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(refused.errors?.[0]?.message).toContain('played by the service\'s bot');
    // The others play on; the record follows the log (what the deadline task does after its
    // commit), once, and the bot answers for north.
    expect((await b.gql(SUBMIT, { id, c: { type: 'guess', number: 2 } }, tokens.east)).errors).toBeUndefined();
    expect(await b.core.handover.settle(id)).toEqual(['north']);
    expect(await a.core.handover.settle(id)).toEqual([]);
    expect((await b.gql(SUBMIT, { id, c: { type: 'guess', number: 2 } }, tokens.south)).errors).toBeUndefined();
    await until(async () => {
      const s = (await a.gql(STATE, { id })).data.game;
      return s.events.some((e: { type: string; seat: string | null }) => e.type === 'GuessCommitted' && e.seat === 'north') && s;
    }, 30_000, 'the bot\'s guess for north');
    await a.gql(SUBMIT, { id, c: { type: 'resign' } }, tokens.east);
    await a.gql(SUBMIT, { id, c: { type: 'resign' } }, tokens.south);

    const plain = await a.gql(`mutation($i: CreateGameInput!) { createGame(input: $i) { game { clock { perMove onTimeout } } } }`, {
      i: { type: 'guessing-game', options: { target: 5 }, seats: [{ seat: 'north', name: 'N' }, { seat: 'east', name: 'E' }], clock: { perMove: 600 } },
    });
    expect(plain.data.createGame.game.clock).toEqual({ perMove: 600, onTimeout: 'RESIGN' });
    const bad = await a.rest('POST', '/api/games', { type: 'guessing-game', options: { target: 5 }, seats: [{ seat: 'north', name: 'N' }, { seat: 'east', name: 'E' }], clock: { perMove: 600, onTimeout: 'PASS' } });
    expect(bad.status).toBe(400);
  });
});
