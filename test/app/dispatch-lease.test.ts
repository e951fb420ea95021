/**
 * The dispatcher's asks for its lease, on the memory ports. Each ask is a new connection on
 * PostgreSQL, so it asks again after a wait of its own and not at each commit: with the lease
 * held by another process (commits everywhere wake every dispatcher), and with the database
 * gone once the lease is lost (a wake-up left over from the loss once made that wait nothing:
 * a whole core spent asking).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createCore } from '../../src/app/core.ts';
import { Dispatcher } from '../../src/app/dispatch.ts';
import { memoryPorts } from '../../src/app/memory/index.ts';
import type { DispatchLease, WebhookStore } from '../../src/app/ports.ts';
import { guessingGame } from '../support/guessing-game.ts';

const POLL_MS = 50;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The memory store, its lease answered by `answer` (null: another holds it; a throw: the database is down), asks counted. */
function setup(answer: () => DispatchLease | null) {
  const ports = memoryPorts();
  const core = createCore(ports, { games: [guessingGame], rulesFingerprint: 'test' });
  const asks = { n: 0 };
  const store: WebhookStore = Object.create(ports.webhooks, {
    // Answered in a later turn of the event loop, as a connection's answer is.
    lease: {
      value: () =>
        new Promise((resolve, reject) =>
          setImmediate(() => {
            asks.n++;
            try {
              resolve(answer());
            } catch (error) {
              reject(error);
            }
          }),
        ),
    },
  });
  const dispatcher = new Dispatcher(core.notifications, store, ports.wakeUps, { send: async () => ({ ok: true }), pollMs: POLL_MS });
  return { dispatcher, asks, wakeUps: ports.wakeUps };
}

let stop: (() => Promise<void>) | null = null;
afterEach(async () => {
  await stop?.();
  stop = null;
});

/** At most this many asks in `ms`: one every two polls, and one more for the first. */
const bound = (ms: number) => Math.ceil(ms / (2 * POLL_MS)) + 2;

describe('the dispatcher asks for its lease', () => {
  it('every two polls while another process holds it, not at each commit', async () => {
    const { dispatcher, asks, wakeUps } = setup(() => null);
    dispatcher.start();
    stop = () => dispatcher.stop();
    const started = Date.now();
    for (let i = 0; i < 60; i++) {
      wakeUps.publish('a-game', i + 1); // a commit somewhere: every dispatcher is kicked
      await pause(5);
    }
    const elapsed = Date.now() - started;
    expect(asks.n).toBeGreaterThanOrEqual(1);
    expect(asks.n).toBeLessThanOrEqual(bound(elapsed));
  });

  it('every two polls with the database down after the lease was lost', async () => {
    let down = false;
    let cut = () => {};
    const { dispatcher, asks } = setup(() => {
      if (down) throw new Error('connect ECONNREFUSED');
      return { lost: new Promise<void>((r) => (cut = r)), release: async () => {} };
    });
    dispatcher.start();
    stop = () => dispatcher.stop();
    while (asks.n === 0) await pause(5);
    const started = Date.now();
    down = true;
    cut(); // its connection ended: the lease is lost, and the dispatcher is woken to hear it
    await pause(400);
    const elapsed = Date.now() - started;
    expect(asks.n - 1).toBeGreaterThanOrEqual(1);
    expect(asks.n - 1).toBeLessThanOrEqual(bound(elapsed));
  });

  it('stops at once while waiting for it', async () => {
    const { dispatcher, asks } = setup(() => null);
    dispatcher.start();
    while (asks.n === 0) await pause(5);
    const stopping = dispatcher.stop();
    const when = await Promise.race([stopping.then(() => 'stopped'), pause(2 * POLL_MS * 20).then(() => 'still waiting')]);
    expect(when).toBe('stopped');
  });
});
