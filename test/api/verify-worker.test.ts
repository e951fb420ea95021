/**
 * POST /api/games/verify runs on a worker thread: large exports verified at once leave the
 * event loop free for everyone else (/healthz answers at once), and the route has a rate
 * limit of its own, well below the general one.
 */
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuessingGame } from '../support/client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let doc: any;
beforeAll(async () => {
  server = await startTestServer({ rateLimit: 100_000, verifyBodyLimit: 64 * 1024 * 1024 });
  const g = await createGuessingGame(server);
  await server.rest('POST', `/api/games/${g.id}/resign`, undefined, g.tokens.north);
  doc = (await server.rest('GET', `/api/games/${g.id}/export`)).body;
});
afterAll(async () => server?.close());

describe('verify on a worker thread', () => {
  it('keeps the event loop free while three large exports are verified at once', async () => {
    // About 25 MiB each of many small objects: slow to parse, as a long game's log is.
    const big = JSON.stringify({ ...doc, padding: Array.from({ length: 600_000 }, (_, i) => ({ i, seat: 'north', data: { type: 'Padding', n: i } })) });
    expect(big.length).toBeGreaterThan(20 * 1024 * 1024);
    // The server runs in this thread: record every document parsed here while the three are
    // verified. Parsing them on this thread is what held /healthz for seconds.
    const parse = JSON.parse;
    let largest = 0;
    JSON.parse = ((text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
      largest = Math.max(largest, typeof text === 'string' ? text.length : 0);
      return parse(text, reviver);
    }) as typeof JSON.parse;
    let busy = true;
    let probes = 0;
    const probe = (async () => {
      while (busy) {
        await fetch(`${server.url}/healthz`);
        probes++;
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    // Sent from another thread, so that only the server shares this thread with the probe.
    const sender = new Worker(
      `const { workerData, parentPort } = require('node:worker_threads');
       Promise.all([1, 2, 3].map(() => fetch(workerData.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: workerData.body })
         .then(async (r) => ({ status: r.status, body: await r.json() })))).then((a) => parentPort.postMessage(a));`,
      { eval: true, workerData: { url: `${server.url}/api/games/verify`, body: big } },
    );
    const answers = await new Promise<{ status: number; body: { valid: boolean } }[]>((resolve, reject) => {
      sender.once('message', resolve);
      sender.once('error', reject);
    });
    await sender.terminate();
    busy = false;
    await probe;
    JSON.parse = parse;
    for (const a of answers) expect(a).toMatchObject({ status: 200, body: { valid: true } });
    // Receiving the bodies still takes the main thread a little; parsing and re-folding do not:
    // nothing near a document's size was parsed here, and /healthz kept answering meanwhile.
    expect(largest).toBeLessThan(1024 * 1024);
    expect(probes).toBeGreaterThan(0);
  });

  it('answers a body that is not JSON with BAD_REQUEST', async () => {
    const r = await server.rest('POST', '/api/games/verify', '{"game": ');
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('BAD_REQUEST');
  });

  it('has a rate limit of its own, lower than the general one', async () => {
    const limited = await startTestServer({ rateLimit: 100_000, verifyRateLimit: 2 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await limited.rest('POST', '/api/games/verify', doc)).status);
      expect(statuses).toEqual([200, 200, 429]);
      expect((await limited.rest('GET', '/api/game-types')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
