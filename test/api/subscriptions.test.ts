import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, createGuessingGame, SUBMIT, wsClient } from '../support/client.ts';
import { longGuessingGame } from '../support/long-game.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// Two server processes' worth of servers on one database: nothing in memory is shared.
let one: TestServer;
let two: TestServer;
beforeAll(async () => {
  [one, two] = await Promise.all([startTestServer(), startTestServer()]);
});
afterAll(async () => {
  await one?.close();
  await two?.close();
});

const guess = (number: number) => ({ type: 'guess', number });

describe('gameEvents subscription', () => {
  it('delivers an event committed through another server instance, exactly once', async () => {
    const { id, tokens } = await createGuessingGame(one);
    const client = wsClient(one, tokens.north);
    const feed = collect(client, id, 0);
    await feed.until(1); // the stored setup event: the subscription is registered
    const r = await two.gql(SUBMIT, { id, c: guess(3) }, tokens.east);
    expect(r.errors).toBeUndefined();
    await feed.until(2);
    await new Promise((resolve) => setTimeout(resolve, 300)); // room for a duplicate to show up
    expect(feed.events.map((e) => e.version)).toEqual([1, 2]);
    feed.unsubscribe();
    await client.dispose();
  });

  it('resumes after a disconnect from the last version seen, with no gap and no duplicate', async () => {
    const { id, tokens } = await createGuessingGame(one);
    const first = wsClient(two);
    const a = collect(first, id, 0);
    await a.until(1);
    await one.gql(SUBMIT, { id, c: guess(2) }, tokens.north);
    await a.until(2);
    await first.dispose(); // the client goes away
    await one.gql(SUBMIT, { id, c: guess(2) }, tokens.east); // 3: guess, 4: roll
    await one.gql(SUBMIT, { id, c: guess(1) }, tokens.north); // 5
    const second = wsClient(one);
    const last = a.events[a.events.length - 1]!.version;
    const b = collect(second, id, last);
    await b.until(3);
    await one.gql(SUBMIT, { id, c: guess(1) }, tokens.east); // 6, 7
    await b.until(5);
    expect([...a.events, ...b.events].map((e) => e.version)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    await second.dispose();
  });

  it('redacts events for the subscriber: a spectator never sees a secret guess before the roll', async () => {
    const { id, tokens } = await createGuessingGame(one);
    const client = wsClient(two);
    const feed = collect(client, id, 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await one.gql(SUBMIT, { id, c: guess(6) }, tokens.north);
    await feed.until(1);
    expect(feed.events[0]).toMatchObject({ version: 2, type: 'GuessCommitted', data: { seat: 'north', number: null } });
    await client.dispose();
  });

  it('starts from the current version when no afterVersion is given', async () => {
    const { id, tokens } = await createGuessingGame(one);
    await one.gql(SUBMIT, { id, c: guess(1) }, tokens.north);
    const client = wsClient(one, tokens.north);
    const feed = collect(client, id);
    // graphql-transport-ws has no message saying a subscription is registered: give it time.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await two.gql(SUBMIT, { id, c: guess(1) }, tokens.east);
    await feed.until(2);
    expect(feed.events.map((e) => e.version)).toEqual([3, 4]);
    await client.dispose();
  });

  it('delivers every stored event of a long game to a subscriber from version 0, however many', async () => {
    const id = await longGuessingGame(one.core, 3_000);
    const version = (await one.core.ports.games.game(id))!.version;
    const client = wsClient(two);
    const feed = collect(client, id, 0);
    await feed.until(version, 60_000);
    expect(feed.events.map((e) => e.version)).toEqual(Array.from({ length: version }, (_, i) => i + 1));
    await client.dispose();
  });

  it('refuses a connection with an unknown token, and an unknown game', async () => {
    // A game that exists, which a spectator may follow: the refusal is the token's.
    const { id } = await createGuessingGame(one);
    const open = wsClient(one);
    const watched = collect(open, id, 0);
    await watched.until(1);
    expect(watched.errors).toEqual([]);
    await open.dispose();
    const bad = wsClient(one, 'not-a-token');
    const feed = collect(bad, id, 0);
    await feed.until(1).catch(() => {});
    expect(feed.events).toEqual([]);
    expect(feed.errors).toHaveLength(1);
    expect(feed.errors[0]).toMatchObject({ code: 4403, reason: expect.stringMatching(/^Forbidden: This token is not known/) });
    await bad.dispose();
    const client = wsClient(one);
    const missing = collect(client, '00000000-0000-4000-8000-000000000000', 0);
    await missing.until(1).catch(() => {});
    expect(JSON.stringify(missing.errors)).toContain('NOT_FOUND');
    await client.dispose();
  });
});
