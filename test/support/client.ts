/** Small helpers for API tests: create a guessing game and act as its seats. */
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import type { TestServer } from './server.ts';

/** `visibility` PUBLIC: listed to anyone (without it the game is PRIVATE, listed only to its players). */
export async function createGuessingGame(server: TestServer, seats = ['north', 'east'], target = 1000, visibility?: 'PUBLIC') {
  const r = await server.rest('POST', '/api/games', { type: 'guessing-game', options: { target }, seats: seats.map((seat) => ({ seat, name: seat.toUpperCase() })), ...(visibility ? { visibility } : {}) });
  if (r.status !== 201) throw new Error(`createGame failed: ${JSON.stringify(r.body)}`);
  const tokens: Record<string, string> = Object.fromEntries(r.body.seatTokens.map((t: { seat: string; token: string }) => [t.seat, t.token]));
  return { id: r.body.game.id as string, tokens };
}

export const SUBMIT = `mutation($id: ID!, $c: JSON!, $v: Int, $k: String) {
  submitCommand(gameId: $id, command: $c, expectedVersion: $v, idempotencyKey: $k) { game { version } events { version type seat data } }
}`;

export function wsClient(server: TestServer, token?: string): Client {
  return createClient({
    url: server.url.replace(/^http/, 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
    lazy: true,
  });
}

/** Collects a subscription's events; `until` resolves once `n` events have arrived. */
export function collect(client: Client, gameId: string, afterVersion?: number) {
  const events: { version: number; type: string; data: any }[] = [];
  const errors: unknown[] = [];
  let notify: () => void = () => {};
  const unsubscribe = client.subscribe<{ gameEvents: { version: number; type: string; data: any } }>(
    { query: `subscription($id: ID!, $after: Int) { gameEvents(gameId: $id, afterVersion: $after) { version type data } }`, variables: { id: gameId, after: afterVersion } },
    {
      next: (m) => {
        if (m.data) events.push(m.data.gameEvents);
        if (m.errors) errors.push(...m.errors);
        notify();
      },
      error: (e) => {
        errors.push(e);
        notify();
      },
      complete: () => notify(),
    },
  );
  const until = (n: number, ms = 10_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${events.length} of ${n} events arrived: ${JSON.stringify(errors)}`)), ms);
      const check = () => {
        if (events.length >= n || errors.length) {
          clearTimeout(timer);
          resolve();
        }
      };
      notify = check;
      check();
    });
  return { events, errors, until, unsubscribe };
}
