/**
 * Bots through the API: a bot seat is played by the service, as an ordinary command of
 * that seat, from whichever process, once per decision. A player plays a bot to the end in
 * every game type, and two bots play a game of each type to the end by themselves across
 * two server processes; every stored bot command was decided at the version just before it.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MATCH_COMMANDS } from '../../src/domain/kernel/index.ts';
import { expectVerifiableExport, lcg } from '../support/api-game.ts';
import { ownDatabase, type OwnDatabase } from '../support/own-database.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let a: TestServer;
let b: TestServer;
let db: pg.Client;
let own: OwnDatabase;
beforeAll(async () => {
  own = await ownDatabase('bots');
  const opts = { databaseUrl: own.url, rateLimit: 100_000, registrationsPerMinute: 10_000, workers: true };
  [a, b] = await Promise.all([startTestServer(opts), startTestServer(opts)]);
  db = new pg.Client({ connectionString: own.url });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await Promise.all([a?.close(), b?.close()]);
  await own?.drop();
});

/** Each type with options that keep a game of random moves short (turn limits). */
const TYPES: [string, [string, string], Record<string, unknown>][] = [
  ['raid-on-wuchao', ['cao', 'yuan'], {}],
  ['three-kingdoms-combined-arms', ['wei', 'shu'], { turnLimit: 2 }],
  ['chinese-warlords', ['red', 'blue'], { turnLimit: 2 }],
  ['warchon', ['azuthkan', 'celestine'], { turnLimit: 2 }],
];

const CREATE = `mutation($input: CreateGameInput!) { createGame(input: $input) { game { id status seats { id name bot open } } seatTokens { seat } } }`;
const STATE = `query($id: ID!) { game(id: $id) { status version awaiting { seat kind } result { winners reason } } }`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function register(server: TestServer, name: string) {
  const r = await server.gql(`mutation($n: String!) { registerPlayer(input: { name: $n }) { token } }`, { n: name });
  return r.data.registerPlayer.token as string;
}

async function waitFinished(server: TestServer, id: string, ms: number) {
  const until = Date.now() + ms;
  for (;;) {
    const g = (await server.gql(STATE, { id })).data.game;
    if (g.status === 'FINISHED') return g;
    if (Date.now() > until) throw new Error(`game ${id} not finished after ${ms} ms: ${JSON.stringify(g)}`);
    await sleep(100);
  }
}

/** Every bot command was decided at the version before it, under its key: one per decision. */
async function expectOncePerDecision(id: string, bots: string[]) {
  const rows = (await db.query('SELECT seat, idempotency_key, first_version FROM commands WHERE game_id = $1 ORDER BY first_version', [id])).rows;
  const byBots = rows.filter((r) => bots.includes(r.seat));
  expect(byBots.length).toBeGreaterThan(0);
  for (const r of byBots) expect(r.idempotency_key).toBe(`bot@${r.first_version - 1}`);
  return rows.length;
}

describe('bots', () => {
  it('lists the bots each game type offers', async () => {
    const r = await a.gql(`{ gameTypes { id bots } }`);
    expect(r.data.gameTypes.filter((t: { id: string }) => t.id !== 'guessing-game')).toEqual(TYPES.map(([id]) => ({ id, bots: ['random'] })));
  });

  it('acts within a second of being awaited, as an ordinary command of its seat', async () => {
    const token = await register(a, 'Quick');
    const created = await a.gql(CREATE, { input: { type: 'guessing-game', options: { target: 6 }, seats: [{ seat: 'north', me: true }, { seat: 'east', bot: 'random' }] } }, token);
    expect(created.data.createGame.game.seats[1]).toEqual({ id: 'east', name: 'random bot', bot: 'random', open: false });
    const id = created.data.createGame.game.id;
    for (let round = 0; round < 3; round++) {
      for (let polls = 0; ; polls++) {
        const g = (await a.gql(STATE, { id })).data.game;
        if (g.status === 'FINISHED' || !g.awaiting.some((p: { seat: string }) => p.seat === 'east')) break;
        expect(polls, 'the bot has not moved after 30 s').toBeLessThan(1500);
        await sleep(20);
      }
      const g = (await a.gql(STATE, { id })).data.game;
      if (g.status === 'FINISHED') break;
      await a.gql(`mutation($id: ID!) { submitCommand(gameId: $id, command: { type: "guess", number: 1 }) { game { version } } }`, { id }, token);
    }
    const events = (await a.rest('GET', `/api/games/${id}/events`)).body.events as { type: string; seat: string | null; at: string }[];
    expect(events.some((e) => e.type === 'GuessCommitted' && e.seat === 'east')).toBe(true);
    // Within a second of being awaited, by the database's clock: each bot move's time after the
    // event that made the game wait for it (the bot is woken by that commit, not by the sweep).
    for (const [i, e] of events.entries()) {
      if (i === 0 || e.seat !== 'east' || events[i - 1]!.seat === 'east') continue;
      expect(new Date(e.at).getTime() - new Date(events[i - 1]!.at).getTime()).toBeLessThan(1000);
    }
  });

  it('is played by another process\'s sweep when the process that created the game plays no bot', async () => {
    const lonely = await startTestServer({ databaseUrl: own.url, rateLimit: 100_000, workers: false });
    try {
      const created = await lonely.gql(CREATE, { input: { type: 'guessing-game', options: { target: 4 }, seats: [{ seat: 'north', bot: 'random' }, { seat: 'east', bot: 'random' }] } });
      const id = created.data.createGame.game.id;
      await waitFinished(lonely, id, 30_000);
      await expectOncePerDecision(id, ['north', 'east']);
    } finally {
      await lonely.close();
    }
  });

  for (const [type, [human, bot], options] of TYPES) {
    it(`${type}: a player plays a bot to the end`, async () => {
      const token = await register(a, `Player of ${type}`);
      const created = await a.gql(CREATE, { input: { type, options, seats: [{ seat: human, me: true }, { seat: bot, bot: 'random' }] } }, token);
      expect(created.errors).toBeUndefined();
      const id = created.data.createGame.game.id;
      const rnd = lcg(type.length);
      for (let steps = 0; ; steps++) {
        expect(steps).toBeLessThan(3000);
        const g = (await a.gql(STATE, { id })).data.game;
        if (g.status === 'FINISHED') break;
        if (!g.awaiting.some((p: { seat: string }) => p.seat === human)) {
          await sleep(20); // the bot's move
          continue;
        }
        const legal = (await a.gql(`query($id: ID!) { game(id: $id) { version legalCommands } }`, { id }, token)).data.game;
        const own = legal.legalCommands.filter((c: { type: string }) => !(MATCH_COMMANDS as readonly string[]).includes(c.type));
        const command = own[Math.floor(rnd() * own.length)];
        const r = await a.gql(`mutation($id: ID!, $c: JSON!, $v: Int) { submitCommand(gameId: $id, command: $c, expectedVersion: $v) { game { version } } }`, { id, c: command, v: legal.version }, token);
        // The bot may have moved meanwhile (both awaited at once): look again.
        if (r.errors) expect(['VERSION_CONFLICT', 'NOT_YOUR_TURN']).toContain(r.errors[0].extensions.code);
      }
      await expectOncePerDecision(id, [bot]);
      await expectVerifiableExport(a, id);
    });

    it(`${type}: two bots play it to the end by themselves, once per decision across two processes`, async () => {
      const created = await a.gql(CREATE, { input: { type, options, seats: [{ seat: human, bot: 'random' }, { seat: bot, bot: 'random', name: 'Robo' }] } });
      expect(created.errors).toBeUndefined();
      const id = created.data.createGame.game.id;
      const finished = await waitFinished(b, id, 120_000);
      expect(finished.result.reason).toBeTruthy();
      const commands = await expectOncePerDecision(id, [human, bot]);
      const exported = (await b.rest('GET', `/api/games/${id}/export`)).body;
      expect(exported.commands).toHaveLength(commands);
      expect(exported.commands.every((c: { seat: string }) => c.seat === human || c.seat === bot)).toBe(true);
      // The export names the seats the service played: verify re-derives their commands from the published seed.
      expect(exported.game.players.map((p: { bot: string | null }) => p.bot)).toEqual(['random', 'random']);
      await expectVerifiableExport(b, id);
    });
  }
});
