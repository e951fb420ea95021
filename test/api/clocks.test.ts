/**
 * Correspondence clocks through the API, on two server processes sharing one database and
 * one job queue: every awaited seat has a deadline from the moment the game awaits it (its
 * own, when several are awaited), shown on Seat and Prompt and cleared when it acts; when
 * it passes, the service times the seat out through the application core, once, with no
 * client connected; a command landing first wins; with three players the seat is out and
 * play goes on; and a deadline that passed while every process was stopped is acted on
 * when one starts again.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PER_MOVE } from '../../src/app/clock.ts';
import { DeadlineNotYet } from '../../src/app/deadlines.ts';
import { ownDatabase, type OwnDatabase } from '../support/own-database.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let a: TestServer;
let b: TestServer;
let db: pg.Client;
/** The database of a and b, their own: no other file's runner takes their deadlines. */
let ownDb: OwnDatabase;
/** The database's clock minus this process's (deadlines are the database's). */
let skew = 0;
const opts = { rateLimit: 100_000, registrationsPerMinute: 10_000, workers: true };

beforeAll(async () => {
  ownDb = await ownDatabase('clocks');
  [a, b] = await Promise.all([startTestServer({ ...opts, databaseUrl: ownDb.url }), startTestServer({ ...opts, databaseUrl: ownDb.url })]);
  db = new pg.Client({ connectionString: ownDb.url });
  await db.connect();
  const before = Date.now();
  const now = (await db.query<{ now: Date }>('SELECT clock_timestamp() AS now')).rows[0]!.now.getTime();
  skew = now - (before + Date.now()) / 2;
});
afterAll(async () => {
  await db?.end();
  await Promise.all([a?.close(), b?.close()]);
  await ownDb?.drop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Sleeps until the database's clock shows `at`. */
const sleepUntil = (at: Date) => sleep(Math.max(0, at.getTime() - skew - Date.now()));

const CREATE = `mutation($input: CreateGameInput!) { createGame(input: $input) {
  game { id version clock { perMove } seats { id deadline mustAct } awaiting { seat kind deadline } }
  seatTokens { seat token } } }`;
const STATE = `query($id: ID!) { game(id: $id) {
  status version clock { perMove } result { winners reason }
  seats { id deadline mustAct } awaiting { seat kind deadline }
  events { version type seat data at } } }`;
const SUBMIT = `mutation($id: ID!, $c: JSON!, $v: Int) { submitCommand(gameId: $id, command: $c, expectedVersion: $v) { game { version } } }`;
const LEGAL = `query($id: ID!) { game(id: $id) { version legalCommands } }`;

interface Created {
  id: string;
  tokens: Record<string, string>;
  game: any;
}

async function create(server: TestServer, input: Record<string, unknown>): Promise<Created> {
  const r = await server.gql(CREATE, { input });
  expect(r.errors).toBeUndefined();
  const c = r.data.createGame;
  return { id: c.game.id, game: c.game, tokens: Object.fromEntries(c.seatTokens.map((t: { seat: string; token: string }) => [t.seat, t.token])) };
}

const state = async (server: TestServer, id: string) => {
  const r = await server.gql(STATE, { id });
  expect(r.errors).toBeUndefined();
  return r.data.game;
};

async function waitFor<T>(what: string, ms: number, probe: () => Promise<T | null | undefined | false>): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > until) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(100);
  }
}

const seconds = (iso: string, s: number) => new Date(new Date(iso).getTime() + s * 1000).toISOString();
const lastAt = (g: { events: { at: string }[] }) => g.events[g.events.length - 1]!.at;

/** The clocks' own jobs of a game (other workers may key theirs alike). */
async function jobs(gameId: string) {
  const { rows } = await db.query<{ key: string; run_at: Date; task_identifier: string }>(
    `SELECT key, run_at, task_identifier FROM graphile_worker.jobs WHERE key LIKE $1 AND task_identifier IN ('deadline_passed', 'deadline_soon') ORDER BY key`,
    [`%:${gameId}:%`],
  );
  return rows;
}

const guess = (server: TestServer, g: Created, seat: string, number = 1) => server.gql(SUBMIT, { id: g.id, c: { type: 'guess', number } }, g.tokens[seat]);

describe('clocks', () => {
  it('takes clock { perMove } in whole seconds from 1 to 30 days, over GraphQL and REST', async () => {
    for (const perMove of [0, -5, MAX_PER_MOVE + 1]) {
      const r = await a.gql(CREATE, { input: { type: 'guessing-game', seats: [{ seat: 'north', name: 'N' }, { seat: 'east', name: 'E' }], clock: { perMove } } });
      expect(r.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
      expect(r.errors?.[0]?.message).toMatch(/whole number of seconds from 1 to 2592000/);
    }
    const fraction = await a.gql(CREATE, { input: { type: 'guessing-game', seats: [{ seat: 'north', name: 'N' }, { seat: 'east', name: 'E' }], clock: { perMove: 1.5 } } });
    expect(fraction.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    const rest = await a.rest('POST', '/api/games', { type: 'guessing-game', seats: [{ seat: 'north', name: 'N' }, { seat: 'east', name: 'E' }], clock: { perMove: 2.5 } });
    expect(rest.status).toBe(400);
    const zero = await a.rest('POST', '/api/games', { type: 'guessing-game', seats: [{ seat: 'north', name: 'N' }, { seat: 'east', name: 'E' }], clock: { perMove: 0 } });
    expect(zero.status).toBe(400);
    expect(zero.body.error.code).toBe('BAD_REQUEST');
    // Nothing was stored for a refused clock.
    const made = await a.rest('POST', '/api/games', { type: 'guessing-game', seats: [{ seat: 'north', name: 'N' }, { seat: 'east', bot: 'random' }], clock: { perMove: MAX_PER_MOVE } });
    expect(made.status).toBe(201);
    expect(made.body.game.clock).toEqual({ perMove: MAX_PER_MOVE, onTimeout: 'RESIGN' });
    const north = made.body.game.awaiting.find((p: { seat: string }) => p.seat === 'north');
    expect(north.deadline).toEqual(expect.any(String));
    const fetched = await a.rest('GET', `/api/games/${made.body.game.id}`);
    expect(fetched.body.game.seats.find((s: { id: string }) => s.id === 'north').deadline).toBe(north.deadline);
    await a.rest('POST', `/api/games/${made.body.game.id}/resign`, undefined, made.body.seatTokens[0].token);

    const none = await create(a, { type: 'guessing-game', seats: [{ seat: 'north', name: 'N' }, { seat: 'east', name: 'E' }] });
    expect(none.game.clock).toBeNull();
    expect(none.game.seats.map((s: { deadline: unknown }) => s.deadline)).toEqual([null, null]);
    expect(none.game.awaiting.map((p: { deadline: unknown }) => p.deadline)).toEqual([null, null]);
    expect(await jobs(none.id)).toEqual([]);
  });

  it('gives every awaited seat its own deadline from when the game awaited it, cleared when it acts, and none for a draw answer', async () => {
    const g = await create(a, { type: 'guessing-game', options: { target: 1000 }, seats: ['north', 'east', 'south'].map((seat) => ({ seat, name: seat })), clock: { perMove: 600 } });
    let s = await state(a, g.id);
    // All three are awaited at once from the setup's commit: the database's time of it plus 600 s.
    const start = seconds(lastAt(s), 600);
    expect(s.awaiting).toEqual(['north', 'east', 'south'].map((seat) => ({ seat, kind: 'COMMIT_NUMBER', deadline: start })));
    expect(s.seats).toEqual(['north', 'east', 'south'].map((id) => ({ id, deadline: start, mustAct: true })));
    expect(g.game.awaiting.map((p: { deadline: string }) => p.deadline)).toEqual([start, start, start]);
    // One job per game and seat, run when its deadline passes (and a warning at three quarters).
    expect((await jobs(g.id)).map((j) => [j.key, j.run_at.toISOString()]).sort()).toEqual([
      ...['east', 'north', 'south'].map((seat) => [`deadline-soon:${g.id}:${seat}`, seconds(lastAt(s), 450)]),
      ...['east', 'north', 'south'].map((seat) => [`deadline:${g.id}:${seat}`, seconds(lastAt(s), 600)]),
    ].sort());

    await sleep(50);
    expect((await guess(a, g, 'north')).errors).toBeUndefined();
    s = await state(b, g.id);
    expect(s.seats).toEqual([{ id: 'north', deadline: null, mustAct: false }, { id: 'east', deadline: start, mustAct: true }, { id: 'south', deadline: start, mustAct: true }]);
    expect((await jobs(g.id)).map((j) => j.key).filter((k) => k.includes(':north'))).toEqual([]);

    // A draw offer is no decision: east's clock runs on, and answering it has no deadline.
    expect((await a.gql(SUBMIT, { id: g.id, c: { type: 'offerDraw' } }, g.tokens.east)).errors).toBeUndefined();
    s = await state(a, g.id);
    expect(s.awaiting).toEqual([
      { seat: 'east', kind: 'COMMIT_NUMBER', deadline: start },
      { seat: 'south', kind: 'COMMIT_NUMBER', deadline: start },
      { seat: 'north', kind: 'ANSWER_DRAW', deadline: null },
      { seat: 'south', kind: 'ANSWER_DRAW', deadline: null },
    ]);
    expect(s.seats.find((x: { id: string }) => x.id === 'north')).toEqual({ id: 'north', deadline: null, mustAct: true });
    expect((await a.gql(SUBMIT, { id: g.id, c: { type: 'declineDraw' } }, g.tokens.south)).errors).toBeUndefined();
    expect((await state(a, g.id)).awaiting.find((p: { seat: string }) => p.seat === 'south').deadline).toBe(start);

    // The round ends: all three face a new decision, with a new deadline from that commit.
    await sleep(50);
    expect((await guess(b, g, 'east')).errors).toBeUndefined();
    expect((await guess(a, g, 'south')).errors).toBeUndefined();
    s = await state(a, g.id);
    const next = seconds(lastAt(s), 600);
    expect(next > start).toBe(true);
    expect(s.awaiting.map((p: { deadline: string }) => p.deadline)).toEqual([next, next, next]);
    expect((await jobs(g.id)).filter((j) => j.key.startsWith('deadline:')).map((j) => j.run_at.toISOString())).toEqual([next, next, next]);

    // The game ends: no deadline, no job left.
    await a.gql(SUBMIT, { id: g.id, c: { type: 'resign' } }, g.tokens.north);
    await a.gql(SUBMIT, { id: g.id, c: { type: 'resign' } }, g.tokens.east);
    s = await state(a, g.id);
    expect(s.status).toBe('FINISHED');
    expect(s.seats.map((x: { deadline: unknown }) => x.deadline)).toEqual([null, null, null]);
    expect(await jobs(g.id)).toEqual([]);
  });

  it('starts the clock of a lobby game when its last seat is taken, not before', async () => {
    const g = await create(a, { type: 'raid-on-wuchao', seats: [{ seat: 'cao', name: 'Cao' }, { seat: 'yuan', open: true }], visibility: 'PUBLIC', clock: { perMove: 600 } });
    expect(g.game.clock).toEqual({ perMove: 600 });
    expect(g.game.seats.map((x: { deadline: unknown }) => x.deadline)).toEqual([null, null]);
    expect(await jobs(g.id)).toEqual([]);
    const joined = await b.gql(`mutation($id: ID!) { joinGame(gameId: $id, name: "Yuan") { seatToken game { awaiting { seat deadline } events { at } } } }`, { id: g.id });
    expect(joined.errors).toBeUndefined();
    const game = joined.data.joinGame.game;
    // The database's time of the commit that took the seat (the outbox row's, whoever wrote it).
    const { rows } = await db.query<{ created_at: Date }>(`SELECT created_at FROM outbox WHERE game_id = $1 AND kind = 'SEAT_AWAITED'`, [g.id]);
    expect(rows).toHaveLength(1);
    expect(game.awaiting).toEqual([{ seat: 'yuan', deadline: seconds(rows[0]!.created_at.toISOString(), 600) }]);
    expect(Math.abs(new Date(game.awaiting[0].deadline).getTime() - new Date(lastAt(game)).getTime() - 600_000)).toBeLessThan(1_000);
    expect((await jobs(g.id)).map((j) => j.key).sort()).toEqual([`deadline-soon:${g.id}:yuan`, `deadline:${g.id}:yuan`].sort());
    await a.gql(SUBMIT, { id: g.id, c: { type: 'resign' } }, g.tokens.cao);
    expect(await jobs(g.id)).toEqual([]);
  });

  it('times out a two-player game where nobody acts, once, within a few seconds of the deadline, with two server processes and no client', async () => {
    const g = await create(a, { type: 'raid-on-wuchao', seats: [{ seat: 'cao', name: 'Cao' }, { seat: 'yuan', name: 'Yuan' }], clock: { perMove: 3 } });
    const yuan = g.game.awaiting.find((p: { seat: string }) => p.seat === 'yuan');
    expect(yuan.kind).toBe('SETUP');
    const finished = await waitFor('the time-out', 12_000, async () => {
      const s = await state(b, g.id);
      return s.status === 'FINISHED' && s;
    });
    expect(finished.result).toEqual({ winners: ['cao'], reason: 'time out' });
    const tail = finished.events.slice(-2);
    expect(tail.map((e: { type: string; seat: string | null; data: unknown }) => [e.type, e.seat, e.data])).toEqual([
      ['TimedOut', null, { type: 'TimedOut', seat: 'yuan' }],
      ['GameEnded', null, { type: 'GameEnded', winners: ['cao'], reason: 'time out' }],
    ]);
    const late = new Date(tail[0].at).getTime() - new Date(yuan.deadline).getTime();
    expect(late).toBeGreaterThanOrEqual(0);
    expect(late).toBeLessThan(5_000);
    // Exactly once: one command of the service, whichever process ran it, and no more later.
    await sleep(2_500);
    const { rows } = await db.query('SELECT seat, command, first_version FROM commands WHERE game_id = $1', [g.id]);
    expect(rows).toEqual([{ seat: null, command: { type: 'timeOut', seat: 'yuan' }, first_version: finished.version - 1 }]);
    expect((await state(a, g.id)).events.filter((e: { type: string }) => e.type === 'TimedOut')).toHaveLength(1);
    expect(await jobs(g.id)).toEqual([]);
  });

  it('leaves alone a game whose seats act every second with 4 s a move', async () => {
    const g = await create(a, { type: 'guessing-game', options: { target: 1_000_000 }, seats: [{ seat: 'north', name: 'N' }, { seat: 'east', name: 'E' }], clock: { perMove: 4 } });
    for (let round = 0; round < 8; round++) {
      await sleep(1_000);
      expect((await guess(round % 2 ? a : b, g, 'north')).errors).toBeUndefined();
      expect((await guess(round % 2 ? b : a, g, 'east')).errors).toBeUndefined();
    }
    await sleep(1_000);
    const s = await state(a, g.id);
    expect(s.status).toBe('ACTIVE');
    expect(s.events.filter((e: { type: string }) => e.type === 'DieRolled')).toHaveLength(8);
    expect(s.events.filter((e: { type: string }) => e.type === 'TimedOut')).toEqual([]);
    await a.gql(SUBMIT, { id: g.id, c: { type: 'resign' } }, g.tokens.north);
  });

  it('lets a bot on a clock play to the end without ever being timed out', async () => {
    const made = await a.rest('POST', '/api/games', { type: 'guessing-game', options: { target: 8 }, seats: [{ seat: 'north', name: 'N' }, { seat: 'east', bot: 'random' }], clock: { perMove: 2 } });
    expect(made.status).toBe(201);
    const g: Created = { id: made.body.game.id, tokens: { north: made.body.seatTokens[0].token }, game: made.body.game };
    const finished = await waitFor('the end of the bot game', 60_000, async () => {
      const s = await state(a, g.id);
      if (s.status === 'FINISHED') return s;
      if (s.awaiting.some((p: { seat: string }) => p.seat === 'north')) await guess(b, g, 'north', 6);
      await sleep(300);
      return null;
    });
    expect(finished.result.reason).not.toBe('time out');
    expect(finished.events.filter((e: { type: string }) => e.type === 'TimedOut')).toEqual([]);
  });

  it('lets exactly one of a time-out and a last-moment command win, never both', async () => {
    // Several games, each raced at its own moment around its deadline: the seat's command
    // (pinned to the version it saw) against the service's time-out, run here directly and
    // by both servers' queue runners.
    const offsets = [-400, -150, -50, 0, 50, 150, 400, 900];
    const games = await Promise.all(offsets.map(() => create(a, { type: 'raid-on-wuchao', seats: [{ seat: 'cao', name: 'Cao' }, { seat: 'yuan', name: 'Yuan' }], clock: { perMove: 2 } })));
    const outcomes = await Promise.all(
      games.map(async (g, i) => {
        const version = g.game.version;
        const deadline = new Date(g.game.awaiting[0].deadline);
        const legal = (await a.gql(LEGAL, { id: g.id }, g.tokens.yuan)).data.game.legalCommands.filter((c: { type: string }) => !['resign', 'offerDraw'].includes(c.type));
        await sleepUntil(new Date(deadline.getTime() + offsets[i]!));
        const [command, timeout] = await Promise.all([
          (i % 2 ? a : b).gql(SUBMIT, { id: g.id, c: legal[0], v: version }, g.tokens.yuan),
          a.core.deadlines.deadlinePassed({ gameId: g.id, seat: 'yuan', version }).catch((e: unknown) => (e instanceof DeadlineNotYet ? 'early' : Promise.reject(e))),
        ]);
        return { g, version, command, timeout };
      }),
    );
    await sleep(3_000);
    for (const [i, { g, version, command, timeout }] of outcomes.entries()) {
      const { rows } = await db.query('SELECT seat, command FROM commands WHERE game_id = $1 AND first_version = $2', [g.id, version + 1]);
      expect(rows).toHaveLength(1);
      const events = (await state(a, g.id)).events.filter((e: { version: number }) => e.version > version).slice(0, 2);
      const seatWon = command.errors === undefined;
      // Well before the deadline (by the database's clock) nothing times the seat out.
      if (offsets[i]! <= -400) expect(seatWon).toBe(true);
      if (seatWon) {
        // The seat's command is the one stored at that version; the time-out for that decision is not.
        expect(rows[0].seat).toBe('yuan');
        expect(events[0].type).not.toBe('TimedOut');
        expect(timeout).not.toBe('timed-out');
      } else {
        expect(['VERSION_CONFLICT', 'GAME_OVER']).toContain(command.errors?.[0].extensions.code);
        expect(rows[0]).toEqual({ seat: null, command: { type: 'timeOut', seat: 'yuan' } });
        expect(events.map((e: { type: string }) => e.type)).toEqual(['TimedOut', 'GameEnded']);
      }
    }
  });

  it('puts a timed-out seat out of a three-player game and play goes on', async () => {
    const g = await create(a, { type: 'chinese-warlords', options: { turnLimit: 3 }, seats: ['red', 'blue', 'green'].map((seat) => ({ seat, name: seat })), clock: { perMove: 3 } });
    const first = g.game.awaiting[0].seat as string;
    const out = await waitFor('the first time-out', 12_000, async () => {
      const s = await state(b, g.id);
      const i = s.events.findIndex((e: { type: string }) => e.type === 'TimedOut');
      return i >= 0 && { s, i };
    });
    const { s, i } = out;
    const timedOut = s.events[i];
    expect(timedOut.data).toEqual({ type: 'TimedOut', seat: first });
    // The game's own consequences follow (the player is out, play moves on), not its end.
    expect(s.events[i + 1]).toMatchObject({ type: 'PlayerDefeated', data: { seat: first, reason: `${first} ran out of time` } });
    expect(s.events.slice(i).some((e: { type: string }) => e.type === 'GameEnded')).toBe(false);
    // Still being played (a time-out during setup's village choice ends setup too).
    expect(s.status).toBe('ACTIVE');
    expect(s.seats.find((x: { id: string }) => x.id === first)).toEqual({ id: first, deadline: null, mustAct: false });
    expect(s.awaiting.length).toBeGreaterThan(0);
    for (const p of s.awaiting) {
      expect(p.seat).not.toBe(first);
      expect(p.deadline > timedOut.at).toBe(true);
    }
    expect((await a.gql(LEGAL, { id: g.id }, g.tokens[first])).data.game.legalCommands).toEqual([]);
    // The players left stay awaited in turn and time out too, until one is left.
    const finished = await waitFor('the end', 20_000, async () => {
      const f = await state(a, g.id);
      return f.status === 'FINISHED' && f;
    });
    expect(finished.result.reason).toBe('time out');
    expect(finished.result.winners).toHaveLength(1);
    expect(finished.events.filter((e: { type: string }) => e.type === 'TimedOut')).toHaveLength(2);
  });
});

// On a database of their own (test/support/own-database.ts), so that no other test file's server runs their jobs.
describe('clocks on a database of their own', () => {
  it('warns once when a quarter of the time is left, through the deadline-soon hook, and not for a seat that acted', async () => {
    const own = await ownDatabase('clocks');
    let servers: TestServer[] = [];
    try {
      // The runners look for due jobs every half second (default 2 s), so that the warning, a
      // second before the deadline, is not taken after it.
      const notices: { gameId: string; seat: string; version: number; deadline: Date }[] = [];
      const fast = { ...opts, databaseUrl: own.url, workers: { pollInterval: 500 }, deadlineSoon: async (n: (typeof notices)[number]) => void notices.push(n) };
      servers = await Promise.all([startTestServer(fast), startTestServer(fast)]);
      const g = await create(servers[0]!, { type: 'guessing-game', options: { target: 1000 }, seats: [{ seat: 'north', name: 'N' }, { seat: 'east', name: 'E' }], clock: { perMove: 4 } });
      const deadline = g.game.awaiting[0].deadline;
      expect((await guess(servers[1]!, g, 'north')).errors).toBeUndefined();
      await waitFor('the warning', 8_000, async () => notices.length > 0);
      await sleep(1_000);
      expect(notices).toEqual([{ gameId: g.id, seat: 'east', version: g.game.version, deadline: new Date(deadline) }]);
      await servers[0]!.gql(SUBMIT, { id: g.id, c: { type: 'resign' } }, g.tokens.north);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
      await own.drop();
    }
  });

  it('times out a seat whose deadline passed while every server process was stopped, once one starts again', async () => {
    const own = await ownDatabase('clocks');
    const url = own.url;
    let servers: TestServer[] = [];
    try {
      servers = [await startTestServer({ ...opts, databaseUrl: url })];
      const g = await create(servers[0]!, { type: 'raid-on-wuchao', seats: [{ seat: 'cao', name: 'Cao' }, { seat: 'yuan', name: 'Yuan' }], clock: { perMove: 2 } });
      const deadline = new Date(g.game.awaiting[0].deadline);
      await servers[0]!.close();
      servers = [];
      await sleepUntil(new Date(deadline.getTime() + 3_000));
      const other = new pg.Client({ connectionString: url });
      await other.connect();
      try {
        // Nobody ran it: the job waits in the database.
        expect((await other.query('SELECT count(*)::int AS n FROM commands WHERE game_id = $1', [g.id])).rows[0].n).toBe(0);
        expect((await other.query(`SELECT key FROM graphile_worker.jobs WHERE key = $1`, [`deadline:${g.id}:yuan`])).rows).toHaveLength(1);
        servers = await Promise.all([startTestServer({ ...opts, databaseUrl: url }), startTestServer({ ...opts, databaseUrl: url })]);
        const finished = await waitFor('the time-out after the restart', 10_000, async () => {
          const s = await state(servers[1]!, g.id);
          return s.status === 'FINISHED' && s;
        });
        expect(finished.result).toEqual({ winners: ['cao'], reason: 'time out' });
        expect(finished.events.filter((e: { type: string }) => e.type === 'TimedOut')).toHaveLength(1);
      } finally {
        await other.end();
      }
    } finally {
      await Promise.all(servers.map((s) => s.close()));
      await own.drop();
    }
  });
});
