/**
 * Reads of a game this process holds ask the database only whether the row is still the one
 * read last (its revision, xmin/version), not for the row again; they must still see what
 * another server process wrote: a seat taken in the lobby (the version unchanged) and
 * commands. One server here, one its own process (bench/serve.ts), on the same database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverProcess, type ServerProcess } from '../scaling/parts.ts';
import { SUBMIT } from '../support/client.ts';
import { openDatabase, type Database } from '../../src/persistence/database.ts';
import { databaseUrl, startTestServer, type TestServer } from '../support/server.ts';

let a: TestServer;
let b: ServerProcess;
let db: Database;
beforeAll(async () => {
  db = await openDatabase(databaseUrl(), () => {});
  [a, b] = await Promise.all([
    startTestServer({ rateLimit: 100_000, registrationsPerMinute: 10_000 }),
    serverProcess({ DATABASE_URL: databaseUrl(), WORKERS: 'false', REGISTRATION_RATE_LIMIT: '10000' }),
  ]);
});
afterAll(async () => Promise.all([a?.close(), b?.stop(), db?.close()]));

async function gqlB(query: string, variables: Record<string, unknown>, token?: string) {
  const res = await fetch(`${b.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return (await res.json()) as { data?: any; errors?: any[] };
}

const READ = `query($id: ID!) { game(id: $id) { version status phase awaiting { seat } legalCommands seats { id name open } events { version type } } }`;
const guesses = (game: { legalCommands: { type: string }[] }) => game.legalCommands.filter((c) => c.type === 'guess').length;
const JOIN = `mutation($id: ID!, $name: String, $code: String) { joinGame(gameId: $id, name: $name, inviteCode: $code) { game { version status } seatToken } }`;

/** Two reads on A in a row (the second one asks only for the revision), which must agree. */
async function readTwiceOnA(id: string, token?: string) {
  const first = await a.gql(READ, { id }, token);
  expect(first.errors).toBeUndefined();
  const second = await a.gql(READ, { id }, token);
  expect(second.data).toEqual(first.data);
  return first.data.game;
}

describe('reads of a game this process holds', () => {
  it('see what another server process wrote: a seat taken (the version unchanged), then each command', async () => {
    const host = await a.gql(`mutation { registerPlayer(input: { name: "Host" }) { token } }`);
    const token = host.data.registerPlayer.token as string;
    const created = await a.gql(
      `mutation($input: CreateGameInput!) { createGame(input: $input) { game { id } inviteCode } }`,
      { input: { type: 'guessing-game', options: { target: 50 }, seats: [{ seat: 'north', me: true }, { seat: 'east', open: true }, { seat: 'south', open: true }] } },
      token,
    );
    expect(created.errors).toBeUndefined();
    const id = created.data.createGame.game.id as string;
    const code = created.data.createGame.inviteCode as string;

    const open = await readTwiceOnA(id, token);
    expect(open).toMatchObject({ version: 0, status: 'OPEN', seats: [{ open: false }, { open: true }, { open: true }] });

    // B seats a guest: the row changes, its version does not.
    const east = await gqlB(JOIN, { id, name: 'Guest', code });
    expect(east.errors).toBeUndefined();
    expect(east.data.joinGame.game).toEqual({ version: 0, status: 'OPEN' });
    expect((await readTwiceOnA(id, token)).seats).toEqual([
      { id: 'north', name: 'Host', open: false },
      { id: 'east', name: 'Guest', open: false },
      { id: 'south', name: '', open: true },
    ]);

    // B seats the last one: setup runs there.
    const south = await gqlB(JOIN, { id, name: 'Third', code });
    expect(south.errors).toBeUndefined();
    const started = await readTwiceOnA(id, token);
    expect(started).toMatchObject({ status: 'ACTIVE', version: south.data.joinGame.game.version });
    expect(started.awaiting.map((s: { seat: string }) => s.seat).sort()).toEqual(['east', 'north', 'south']);
    expect(guesses(started)).toBe(6);
    // A holds the whole row it read, with its revision: its next read asked only for that.
    const held = a.core.states.held(id)?.record?.revision;
    expect(held).toMatch(new RegExp(`^\\d+/${started.version}$`));

    // Another writer changes the row and not its version (as the handover of a seat to the
    // bot does): A's next read has the change.
    await db.pool.query(`UPDATE games SET visibility = 'PUBLIC' WHERE id = $1::uuid`, [id]);
    const publicNow = await a.gql(`query($id: ID!) { game(id: $id) { version visibility } }`, { id }, token);
    expect(publicNow.data.game).toEqual({ version: started.version, visibility: 'PUBLIC' });
    expect(a.core.states.held(id)?.record?.revision).not.toBe(held);

    // North guesses on B: A's next read has it, and north has nothing left to do this round.
    const guessed = await gqlB(SUBMIT, { id, c: { type: 'guess', number: 1 } }, token);
    expect(guessed.errors).toBeUndefined();
    const afterNorth = await readTwiceOnA(id, token);
    expect(afterNorth.version).toBe(started.version + 1);
    expect(afterNorth.awaiting.map((s: { seat: string }) => s.seat).sort()).toEqual(['east', 'south']);
    expect(guesses(afterNorth)).toBe(0);
    expect(afterNorth.events.at(-1)).toEqual({ version: started.version + 1, type: 'GuessCommitted' });

    // East and south on B close the round (the die is rolled): A reads north's turn again.
    for (const joined of [east, south]) {
      expect((await gqlB(SUBMIT, { id, c: { type: 'guess', number: 1 } }, joined.data.joinGame.seatToken)).errors).toBeUndefined();
    }
    const round2 = await readTwiceOnA(id, token);
    expect(round2.version).toBe(afterNorth.version + 3); // two guesses and the die
    expect(guesses(round2)).toBe(6);

    // And the other way: a command on A, read on B.
    expect((await a.gql(SUBMIT, { id, c: { type: 'guess', number: 2 } }, token)).errors).toBeUndefined();
    const onB = await gqlB(READ, { id }, token);
    expect(onB.data.game.version).toBe(round2.version + 1);
    expect(guesses(onB.data.game)).toBe(0);
    // A's own command, read on A after a read on B: A saw its own write.
    expect((await readTwiceOnA(id, token)).version).toBe(round2.version + 1);
  });
});
