/**
 * seatsChanged: a join is pushed, not polled. A join that leaves a seat open appends no
 * event (gameEvents has nothing to say), so the watchers of a game waiting for players get
 * the game again on seatsChanged, on whichever process they are connected to (the lobby's
 * seat-taking wakes them through the same LISTEN/NOTIFY as a commit): the join, a leave,
 * and the last join that starts the game, which ends the stream.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wsClient } from '../support/client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let a: TestServer;
let b: TestServer;
beforeAll(async () => {
  const opts = { rateLimit: 100_000, registrationsPerMinute: 10_000 };
  [a, b] = await Promise.all([startTestServer(opts), startTestServer(opts)]);
});
afterAll(async () => Promise.all([a?.close(), b?.close()]));

const JOIN = `mutation($id: ID!, $seat: String, $name: String, $code: String) {
  joinGame(gameId: $id, seat: $seat, name: $name, inviteCode: $code) { game { id status } seatToken }
}`;
type Pushed = { status: string; version: number; seats: { id: string; name: string; open: boolean }[] };

function watch(server: TestServer, gameId: string) {
  const client = wsClient(server);
  const games: Pushed[] = [];
  const errors: unknown[] = [];
  let completed = false;
  let notify = () => {};
  client.subscribe<{ seatsChanged: Pushed }>(
    { query: 'subscription($id: ID!) { seatsChanged(gameId: $id) { status version seats { id name open } } }', variables: { id: gameId } },
    {
      next: (m) => {
        if (m.data) games.push(m.data.seatsChanged);
        if (m.errors) errors.push(...m.errors);
        notify();
      },
      error: (e) => (errors.push(e), notify()),
      complete: () => ((completed = true), notify()),
    },
  );
  const until = (test: () => boolean, ms = 10_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out with ${JSON.stringify(games)} ${JSON.stringify(errors)}`)), ms);
      const check = () => {
        if (test() || errors.length) {
          clearTimeout(timer);
          resolve();
        }
      };
      notify = check;
      check();
    });
  return { games, errors, until, completed: () => completed, close: () => client.dispose() };
}

describe('seatsChanged', () => {
  it('pushes each join and leave of a game waiting for players to a watcher on another process, then its start, and ends', async () => {
    const created = await a.gql(
      `mutation($input: CreateGameInput!) { createGame(input: $input) { game { id } seatTokens { seat token } inviteCode } }`,
      { input: { type: 'guessing-game', options: { target: 5 }, seats: [{ seat: 'north', name: 'Nia' }, { seat: 'east', open: true }, { seat: 'south', open: true }] } },
    );
    expect(created.errors).toBeUndefined();
    const { game, inviteCode } = created.data.createGame;
    const w = watch(b, game.id);
    try {
      // First the game as it is now.
      await w.until(() => w.games.length >= 1);
      expect(w.games[0]).toMatchObject({ status: 'OPEN', version: 0, seats: [{ id: 'north', open: false }, { id: 'east', open: true }, { id: 'south', open: true }] });

      // A join on the other process: no event, but the watcher gets the seat.
      const joined = await a.gql(JOIN, { id: game.id, seat: 'east', name: 'Eli', code: inviteCode });
      expect(joined.errors).toBeUndefined();
      expect(joined.data.joinGame.game.status).toBe('OPEN');
      await w.until(() => w.games.length >= 2);
      expect(w.games[1]).toMatchObject({ status: 'OPEN', version: 0, seats: [{ id: 'north' }, { id: 'east', name: 'Eli', open: false }, { id: 'south', open: true }] });

      // Eli leaves: the seat is open again for the watcher.
      const left = await a.gql('mutation($id: ID!) { leaveGame(gameId: $id) { id } }', { id: game.id }, joined.data.joinGame.seatToken);
      expect(left.errors).toBeUndefined();
      await w.until(() => w.games.length >= 3);
      expect(w.games[2]!.seats[1]).toMatchObject({ id: 'east', open: true });

      // The last two seats: the game starts, the watcher sees it, and the stream ends.
      for (const [seat, name] of [['east', 'Eve'], ['south', 'Sol']]) expect((await a.gql(JOIN, { id: game.id, seat, name, code: inviteCode })).errors).toBeUndefined();
      await w.until(() => w.completed());
      const last = w.games.at(-1)!;
      expect(last.status).not.toBe('OPEN');
      expect(last.seats.map((s) => s.name)).toEqual(['Nia', 'Eve', 'Sol']);
      expect(last.version).toBeGreaterThan(0);
      expect(w.errors).toEqual([]);
    } finally {
      await w.close();
    }
  });

  it('a cancelled game is pushed once more and the stream ends; an unknown game is NOT_FOUND', async () => {
    const created = await a.gql(
      `mutation($input: CreateGameInput!) { createGame(input: $input) { game { id } seatTokens { seat token } } }`,
      { input: { type: 'guessing-game', options: { target: 5 }, seats: [{ seat: 'north', name: 'Nia' }, { seat: 'east', open: true }] } },
    );
    const { game, seatTokens } = created.data.createGame;
    const w = watch(b, game.id);
    try {
      await w.until(() => w.games.length >= 1);
      expect((await a.gql('mutation($id: ID!) { cancelGame(gameId: $id) { id } }', { id: game.id }, seatTokens[0].token)).errors).toBeUndefined();
      await w.until(() => w.completed());
      expect(w.games.map((g) => g.status)).toEqual(['OPEN', 'ABANDONED']);
    } finally {
      await w.close();
    }
    const missing = watch(b, '00000000-0000-4000-8000-000000000000');
    try {
      await missing.until(() => missing.errors.length > 0 || missing.completed());
      expect(JSON.stringify(missing.errors)).toMatch(/NOT_FOUND|No game/);
    } finally {
      await missing.close();
    }
  });
});
