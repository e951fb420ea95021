/**
 * The core's ports on PostgreSQL: the stores, the job queue (graphile-worker, whose runner
 * the worker role starts) and the wake-ups (LISTEN/NOTIFY). src/server.ts opens these and
 * builds the core on them.
 */
import type { Ports } from '../app/ports.ts';
import { AbsenceStore } from './absence-store.ts';
import { ClockStore } from './clock-store.ts';
import type { Database } from './database.ts';
import { DigestStore } from './digest-store.ts';
import { EventStore } from './event-store.ts';
import { LobbyStore } from './lobby-store.ts';
import { MailStore } from './mail-store.ts';
import { MessageStore } from './message-store.ts';
import { listMigrations, migrationsApplied } from './migrate.ts';
import { Notifier } from './notifier.ts';
import { BatchedRevisions } from './revisions.ts';
import { PlayerStore } from './player-store.ts';
import { Queue, type QueueOptions } from './queue.ts';
import { ReplicaReads } from './replica.ts';
import { WebhookStore } from './webhook-store.ts';

export interface PostgresPorts {
  ports: Ports;
  /** The job queue: add jobs from any role; `start` runs them (the worker role). */
  queue: Queue;
  close(): Promise<void>;
}

export async function openPorts(database: Database, opts: { log?: (msg: string) => void; queue?: Omit<QueueOptions, 'connectionString'> } = {}): Promise<PostgresPorts> {
  const log = opts.log ?? (() => {});
  const direct = database.directUrl ?? database.url;
  const notifier = new Notifier(direct, log);
  await notifier.start();
  const queue = new Queue({ connectionString: direct, log, ...opts.queue });
  // The migration files do not change while the process runs: read them once, not per probe.
  const migrations = listMigrations().map((m) => m.name);
  const games = new EventStore(database.prisma, { pool: database.queryPool, preparedStatements: database.preparedStatements, groupCommit: database.groupCommit });
  if (database.replica) {
    const replica = new EventStore(database.replica.prisma, { pool: database.replica.pool, preparedStatements: database.preparedStatements });
    games.lagTolerant = new ReplicaReads(games, replica, { log });
  }
  const ports: Ports = {
    games,
    revisions: new BatchedRevisions({ pool: database.queryPool, preparedStatements: database.preparedStatements }),
    lobby: new LobbyStore(database.prisma),
    players: new PlayerStore(database.prisma),
    webhooks: new WebhookStore(database.prisma, database.queryPool, database.directUrl ?? database.url),
    clocks: new ClockStore(database.prisma),
    absences: new AbsenceStore(database.prisma),
    mail: new MailStore(database.prisma),
    digests: new DigestStore(database.prisma),
    messages: new MessageStore(database.prisma),
    jobs: queue,
    wakeUps: notifier,
    async readiness() {
      try {
        const ok = await migrationsApplied(async (sql) => (await database.pool.query(sql)).rows, migrations);
        return ok ? { ready: true } : { ready: false, status: 'migrations pending' };
      } catch (error) {
        return { ready: false, status: 'database unreachable', error: (error as Error).message };
      }
    },
  };
  return {
    ports,
    queue,
    async close() {
      await queue.stop();
      await notifier.close();
    },
  };
}
