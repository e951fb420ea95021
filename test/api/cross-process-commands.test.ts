/**
 * A game another server process wrote last. A process holding the game decides a command on
 * the state and record it holds (the append's version check, or a second look before a refusal,
 * says whether they were the latest), and a read asks only whether the row is still the one it
 * holds (its revision) before reading it. The commit's NOTIFY tells every process the game's new
 * version (WakeUps.onVersion): a process that heard it knows its record is old, and reads the
 * row at once, for a command and for a read. Two servers here, on the same database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuessingGame } from '../support/client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let a: TestServer;
let b: TestServer;
beforeAll(async () => {
  [a, b] = await Promise.all([startTestServer({ rateLimit: 100_000 }), startTestServer({ rateLimit: 100_000 })]);
});
afterAll(async () => Promise.all([a?.close(), b?.close()]));

/** Counts B's revision asks (GameRevisions: "is the row still the one held?") while `run` runs. */
async function revisionAsks<T>(run: () => Promise<T>): Promise<{ result: T; asks: number }> {
  const revisions = b.core.ports.revisions;
  const ask = revisions.revision;
  let asks = 0;
  revisions.revision = (id) => (asks++, ask.call(revisions, id));
  try {
    return { result: await run(), asks };
  } finally {
    revisions.revision = ask;
  }
}

async function game() {
  const { id, tokens: token } = await createGuessingGame(a, ['north', 'east'], 1_000_000);
  const guess = (s: TestServer, seat: string) => s.rest('POST', `/api/games/${id}/commands`, { command: { type: 'guess', number: 1 } }, token[seat]);
  /** A's command, once B has heard its commit (told after B's core, which listened first). */
  const onAHeardByB = async (seat: string) => {
    let told = 0;
    let tell = () => {};
    const off = b.core.ports.wakeUps.onVersion((gameId, version) => {
      if (gameId !== id) return;
      told = Math.max(told, version);
      tell();
    });
    try {
      const answer = await guess(a, seat);
      expect(answer.status).toBe(200);
      const version = answer.body.game.version as number;
      while (told < version) await new Promise<void>((resolve) => (tell = resolve));
      return version;
    } finally {
      off();
    }
  };
  return { id, token, guess, onAHeardByB };
}

describe('a game another process wrote last', () => {
  it('a command reads the row at once and is decided on the latest state', async () => {
    const g = await game();
    expect((await g.guess(b, 'north')).status).toBe(200); // B holds the game as it wrote it
    const version = await g.onAHeardByB('east');
    const { result, asks } = await revisionAsks(() => g.guess(b, 'north'));
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body.events[0].version).toBe(version + 1);
    expect(asks).toBe(0);
  });

  it('a read reads the row at once, and a second read asks only its revision', async () => {
    const g = await game();
    expect((await g.guess(b, 'north')).status).toBe(200);
    const version = await g.onAHeardByB('east');
    const first = await revisionAsks(() => b.rest('GET', `/api/games/${g.id}`, undefined, g.token.north));
    expect(first.result.status).toBe(200);
    expect(first.result.body.game.version).toBe(version);
    expect(first.asks).toBe(0);
    // The read folded the game to the row's version: B holds the row again, and asks only its revision.
    const second = await revisionAsks(() => b.rest('GET', `/api/games/${g.id}`, undefined, g.token.north));
    expect(second.result.body.game.version).toBe(version);
    expect(second.asks).toBe(1);
  });
});
