/**
 * The scaling section of the bench (BENCH_SCALING=1, or BENCH_SCALING=only for this section
 * alone): commands/s through HAProxy in front of 1, 2 and 3 server processes on one
 * PostgreSQL 15 primary of its own, and the same with a streaming replica (pg_basebackup)
 * taking the reads that tolerate lag (DATABASE_REPLICA_URL). Each client loop plays a
 * guessing game through REST: a command, then the log after the version it reached (the
 * read a replica may serve). Uses the real parts of test/scaling/parts.ts; 127.0.0.1 only.
 */
import { call, createGuessing, nth } from '../test/scaling/load.ts';
import { haproxy, havePg15, haveHaproxy, primaryCluster, serverProcess, standbyOf, type ServerProcess } from '../test/scaling/parts.ts';
import { msSince, round, table } from './stats.ts';

export interface ScalingRow {
  processes: number;
  replica: boolean;
  clients: number;
  commands: number;
  seconds: number;
  commandsPerSecond: number;
}

/** A call retried on 502/503 (a backend HAProxy holds for down on a loaded machine), with the same idempotency key: bounded. */
async function retried(...args: Parameters<typeof call>): ReturnType<typeof call> {
  for (let i = 0; ; i++) {
    const r = await call(...args);
    if ((r.status !== 502 && r.status !== 503) || i >= 50) return r;
    await new Promise((res) => setTimeout(res, 100));
  }
}

async function loop(base: string, clients: number, commandsPerClient: number): Promise<{ commands: number; seconds: number }> {
  const games = await Promise.all(Array.from({ length: clients }, () => createGuessing(base)));
  const start = process.hrtime.bigint();
  let commands = 0;
  await Promise.all(
    games.map(async (game) => {
      for (let i = 0; i < commandsPerClient; i++) {
        const { token, key } = nth(game, i);
        const r = await retried(base, 'POST', `/api/games/${game.id}/commands`, { command: { type: 'guess', number: 1 }, idempotencyKey: key }, token);
        if (r.status >= 300) throw new Error(`command answered ${r.status}: ${JSON.stringify(r.body).slice(0, 200)}`);
        commands++;
        const events = await retried(base, 'GET', `/api/games/${game.id}/events?after=${Math.max(0, i - 1)}`);
        if (events.status !== 200) throw new Error(`events answered ${events.status}`);
      }
    }),
  );
  return { commands, seconds: msSince(start) / 1000 };
}

export async function runScaling(opts: { processes: number[]; clients: number; commandsPerClient: number; log: (m: string) => void }): Promise<ScalingRow[]> {
  if (!havePg15 || !haveHaproxy) {
    opts.log('scaling section skipped: needs PostgreSQL 15 (pg_basebackup) and HAProxy');
    return [];
  }
  const rows: ScalingRow[] = [];
  const primary = await primaryCluster();
  const standby = { current: undefined as Awaited<ReturnType<typeof standbyOf>> | undefined };
  try {
    for (const replica of [false, true]) {
      if (replica) standby.current = await standbyOf(primary);
      for (const n of opts.processes) {
        const env: Record<string, string> = { DATABASE_URL: primary.url, DATABASE_POOL_SIZE: '8', WORKERS: 'false' };
        if (replica && standby.current) env.DATABASE_REPLICA_URL = standby.current.url;
        const procs: ServerProcess[] = [await serverProcess(env)]; // the first migrates
        procs.push(...(await Promise.all(Array.from({ length: n - 1 }, () => serverProcess(env)))));
        const lb = await haproxy(procs.map((p) => p.url));
        try {
          await loop(lb.url, Math.min(4, opts.clients), 10); // warm-up, untimed
          const { commands, seconds } = await loop(lb.url, opts.clients, opts.commandsPerClient);
          rows.push({ processes: n, replica, clients: opts.clients, commands, seconds: round(seconds), commandsPerSecond: round(commands / seconds, 0) });
          opts.log(`scaling: ${n} process(es)${replica ? ' + replica' : ''}: ${round(commands / seconds, 0)} commands/s`);
        } finally {
          lb.stop();
          await Promise.all(procs.map((p) => p.stop()));
        }
      }
    }
  } finally {
    standby.current?.stop();
    primary.stop();
  }
  return rows;
}

export function scalingTable(rows: ScalingRow[]): string {
  return table(
    ['processes', 'reads on', 'clients', 'commands', 's', 'commands/s'],
    rows.map((r) => [r.processes, r.replica ? 'replica' : 'primary', r.clients, r.commands, r.seconds, r.commandsPerSecond]),
  );
}
