/**
 * The README's tour, run as written: the shell blocks between `<!-- tour:begin -->` and
 * `<!-- tour:end -->` in README.md, pasted into one bash (with `set -euo pipefail`, so a step
 * that fails stops it) against a started server with WEBHOOK_ALLOW_PRIVATE's setting. Only
 * API and WARGAME_DIR are given, as the tour says a reader sets them. The README cannot drift
 * from the service without this failing.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownDatabase, type OwnDatabase } from '../support/own-database.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const run = promisify(execFile);

/** The tour's shell commands, in order. */
function tourScript(readme: string): string {
  const begin = readme.indexOf('<!-- tour:begin -->');
  const end = readme.indexOf('<!-- tour:end -->');
  if (begin < 0 || end < begin) throw new Error('README.md has no <!-- tour:begin --> … <!-- tour:end --> block');
  return [...readme.slice(begin, end).matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]).join('\n');
}

let server: TestServer;
let db: OwnDatabase;
beforeAll(async () => {
  db = await ownDatabase('readme_tour');
  server = await startTestServer({ databaseUrl: db.url, rateLimit: 100_000, workers: true, notifications: { allowPrivate: true } });
});
afterAll(async () => {
  await server?.close();
  await db?.drop();
});

describe('the README tour', () => {
  it('runs end to end as written', async () => {
    const script = tourScript(readFileSync(new URL('../../README.md', import.meta.url), 'utf8'));
    expect(script).toContain('$API');
    // One base URL: no step names the port itself, except where API gets its default.
    expect(script.split('\n').filter((l) => /:4000/.test(l))).toEqual(['API=${API:-http://127.0.0.1:4000}']);
    // Steps are numbered once each.
    const steps = [...script.matchAll(/^# (\d+)\./gm)].map((m) => Number(m[1]));
    expect(new Set(steps).size).toBe(steps.length);

    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], {
      env: { ...process.env, API: server.url, WARGAME_DIR: process.cwd() },
      timeout: 120_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    // Step 6's refusal, step 7's events, the lobby, the invite link and step 15's delivery.
    expect(stdout).toMatch(/"code":"(NOT_YOUR_TURN|ILLEGAL_COMMAND)"/);
    expect(stdout).toMatch(/\{"version":2,"type":"UnitPlaced","seat":"yuan"\}/);
    expect(stdout).toMatch(/^OPEN$/m);
    expect(stdout).toMatch(new RegExp(`invite link: ${server.url}/join/\\S+\\?game=`));
    expect(stdout).toMatch(/"type":"YOUR_TURN"/);
  }, 150_000);
});
