/**
 * The server under test, as its own processes (`node src/main.ts`, WEB_CONCURRENCY of
 * them), so that the CPU it spends is measured apart from the client loops, and a scrape
 * of /metrics says how long its commands waited on the database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname } from 'node:path';
import { request } from './client.ts';

const ROOT = new URL('../', import.meta.url).pathname;
const TICKS = 100; // USER_HZ on Linux

/** A port free on 127.0.0.1 now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

function children(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** CPU seconds used so far by a process and every process below it (Linux /proc). */
export function treeCpuSeconds(pid: number): number {
  let ticks = 0;
  const visit = (p: number) => {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    } catch {
      return;
    }
    for (const c of children(p)) visit(c);
  };
  visit(pid);
  return ticks / TICKS;
}

/**
 * The postmaster whose processes alone are counted (null: every `postgres` process on the
 * machine). Set with `onlyCluster` from a backend's pid, so that other PostgreSQL clusters on
 * a shared machine (another engineer's tests) are not counted.
 */
let postmaster: number | null = null;

/** Counts only the processes of the cluster that runs the backend `backendPid`. */
export function onlyCluster(backendPid: number): void {
  postmaster = Number(readFileSync(`/proc/${backendPid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
}

/** PostgreSQL's own processes on this machine (their command name is `postgres`), of one cluster after `onlyCluster`. */
export function postgresPids(): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/comm`, 'utf8').trim() !== 'postgres') continue;
      if (postmaster !== null && Number(name) !== postmaster && Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) !== postmaster) continue;
      pids.push(Number(name));
    } catch {
      /* gone */
    }
  }
  return pids;
}

/** CPU ticks used so far by each PostgreSQL process on this machine. */
export function postgresTicks(): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const pid of postgresPids()) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks.set(pid, Number(fields[11]) + Number(fields[12]));
    } catch {
      /* gone */
    }
  }
  return ticks;
}

/** CPU seconds PostgreSQL used between two readings (processes that exited in between are not counted). */
export function postgresCpuSince(before: Map<number, number>): number {
  let ticks = 0;
  for (const [pid, t] of postgresTicks()) ticks += t - (before.get(pid) ?? 0);
  return ticks / TICKS;
}

export interface ServerProcess {
  url: string;
  processes: number;
  child: ChildProcess;
  cpuSeconds(): number;
  /** Sums of the command path's histograms over every server process. */
  scrape(): Promise<{ requestSeconds: number; requests: number; appendSeconds: number; appends: number }>;
  stop(): Promise<void>;
}

/**
 * `entry` (BENCH_SERVER, a script path) serves another checkout instead, e.g. an older
 * commit for a before/after comparison in one run; it is started from its own folder.
 */
export async function startServer(databaseUrl: string, processes: number, entry = process.env.BENCH_SERVER, extraEnv: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  const script = entry ?? 'bench/serve.ts';
  const cwd = entry ? dirname(entry) : ROOT;
  const child = spawn(process.execPath, [...(process.env.BENCH_SERVER_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? []), '--import', 'tsx', script], {
    cwd,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '1000000000',
      WEB_CONCURRENCY: String(processes),
      NODE_ENV: 'production',
      // Webhooks on (to the bench's own receiver on 127.0.0.1), players registered freely.
      WEBHOOK_SECRET_KEY: process.env.WEBHOOK_SECRET_KEY ?? randomBytes(32).toString('hex'),
      WEBHOOK_ALLOW_PRIVATE: 'true',
      REGISTRATION_RATE_LIMIT: '1000000',
      ...extraEnv,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await ready(url, child, processes);
  } catch (error) {
    child.kill('SIGKILL'); // not left behind, holding the bench's output open
    throw error;
  }
  return {
    url,
    processes,
    child,
    cpuSeconds: () => treeCpuSeconds(child.pid!),
    async scrape() {
      // Each server process has its own registry: scrape over fresh connections until every
      // process (told apart by its pid) has answered once.
      const byProcess = new Map<string, string>();
      for (let i = 0; i < processes * 30 && byProcess.size < processes; i++) {
        const m = await request(url, 'GET', '/metrics', undefined, undefined, { fresh: true });
        if (m.status !== 200) break; // a server without /metrics (an older one)
        const start = /^server_process_info\{pid="(\d+)"\}/m.exec(m.text)?.[1] ?? String(i);
        byProcess.set(start, m.text);
      }
      const sum = (text: string, name: string) =>
        [...text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'gm'))].reduce((a, m) => a + Number(m[1]), 0);
      let requestSeconds = 0;
      let requests = 0;
      let appendSeconds = 0;
      let appends = 0;
      for (const text of byProcess.values()) {
        requestSeconds += sum(text, 'http_request_duration_seconds_sum');
        requests += sum(text, 'http_request_duration_seconds_count');
        appendSeconds += sum(text, 'event_append_duration_seconds_sum');
        appends += sum(text, 'event_append_duration_seconds_count');
      }
      return { requestSeconds, requests, appendSeconds, appends };
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/** Waits until the server answers /readyz, and with several processes until each answers. */
async function ready(url: string, child: ChildProcess, processes: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const answer = await request(url, 'GET', '/readyz').catch(() => null);
    // With several processes, wait until each answers (each its own connection).
    if (answer?.status === 200 && (await request(url, 'GET', '/metrics').catch(() => null))?.status !== 200) return; // no metrics to wait for
    if (answer?.status === 200) {
      const seen = new Set<string>();
      for (let i = 0; i < processes * 20 && seen.size < processes; i++) {
        const m = await request(url, 'GET', '/metrics', undefined, undefined, { fresh: true }).catch(() => null);
        const start = m && /^server_process_info\{pid="(\d+)"\}/m.exec(m.text)?.[1];
        if (start) seen.add(start);
      }
      if (seen.size >= processes) return;
    }
    if (Date.now() > deadline) throw new Error('the server did not become ready in 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
}
