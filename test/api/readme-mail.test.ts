/**
 * The README's play-by-mail walk-through, run as written: terminal 1's mail catcher (its
 * port the only change, so tests running at once do not collide) and terminal 2's block
 * between `<!-- mail-tour:begin -->` and `<!-- mail-tour:end -->`, in one bash with
 * `set -euo pipefail`, in a folder of its own, against a started service configured as
 * terminal 1 configures `npm start`. Bo's reply goes from his verified address to the
 * service's SMTP listener and its answer lands in mails.txt.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownDatabase, type OwnDatabase } from '../support/own-database.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const run = promisify(execFile);
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const ROOT = new URL('../../', import.meta.url).pathname;

function block(begin: string, end: string): string {
  const from = readme.indexOf(begin);
  const to = readme.indexOf(end, from);
  if (from < 0 || to < from) throw new Error(`README.md has no ${begin} … ${end}`);
  return [...readme.slice(from, to).matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]).join('\n');
}

const freePort = () => new Promise<number>((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address() as { port: number };
    s.close(() => resolve(port));
  });
});

let server: TestServer;
let dir: string;
let catcher: ReturnType<typeof spawn>;
let db: OwnDatabase;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'readme-mail-'));
  // Terminal 1: the catcher line as written, on a free port.
  const lines = readme.split('\n');
  const at = lines.indexOf('# terminal 1');
  const terminal1 = lines.slice(at + 1, at + 3);
  expect(terminal1[0]).toMatch(/^node -e .*\.listen\(1025\)" &$/);
  const port = await freePort();
  catcher = spawn('bash', ['-c', terminal1[0]!.replace('.listen(1025)', `.listen(${port})`).replace(/ &$/, '')], {
    cwd: dir, env: { ...process.env, NODE_PATH: join(ROOT, 'node_modules') }, stdio: 'ignore',
  });
  // Terminal 1's service: SMTP_URL to the catcher, MAIL_FROM's domain for the reply addresses, a listener.
  expect(terminal1[1]).toBe("SMTP_URL=smtp://127.0.0.1:1025 MAIL_FROM='Wargames <games@play.localhost>' MAIL_INBOUND_PORT=2525 npm start");
  db = await ownDatabase('readme_mail');
  server = await startTestServer({
    databaseUrl: db.url, rateLimit: 100_000, workers: { pollInterval: 100 },
    mailer: { smtpUrl: `smtp://127.0.0.1:${port}`, from: 'Wargames <games@play.localhost>' },
    playByMail: { replyDomain: 'play.localhost' },
    smtpInbound: { port: 0 },
  });
});
afterAll(async () => {
  catcher?.kill();
  await server?.close();
  await db?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the README play-by-mail walk-through', () => {
  it('runs as written: two players verified by mail, a game, Bo answers from his verified address and is answered', async () => {
    const script = block('<!-- mail-tour:begin -->', '<!-- mail-tour:end -->');
    expect(script).toContain("from:'Bo <bo@example.org>'");
    expect(script).toContain('bo@example.org 2');
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: dir,
      env: { ...process.env, API: server.url, INBOUND: String(server.smtpPort), NODE_PATH: join(ROOT, 'node_modules') },
      timeout: 90_000,
    });
    expect(stdout).toMatch(/^SETUP$/m);
    expect(stdout).toMatch(/^play\+[0-9a-f]{32}@play\.localhost$/m);
    expect(stdout).toContain('Applied, in order:\n  Place Chunyu Qiong in H1 (place chunyu-qiong H1)\n  Place Sui Yuanjin in H2 (place sui-yuanjin H2)');
  }, 120_000);
});
