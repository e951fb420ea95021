/**
 * Builds the application core on a database: the event store, the registry of hosted
 * games, and the notifier that wakes subscriptions across processes. The api layer and
 * the workers get an Application and never reach below it.
 */
import type { GameModule } from '../domain/kernel/index.ts';
import { GameRegistry } from '../domain/kernel/index.ts';
import type { Database } from '../persistence/database.ts';
import { EventStore } from '../persistence/event-store.ts';
import { LobbyStore } from '../persistence/lobby-store.ts';
import { PlayerStore } from '../persistence/player-store.ts';
import { ClockStore } from '../persistence/clock-store.ts';
import { listMigrations, migrationsApplied } from '../persistence/migrate.ts';
import { Notifier } from '../persistence/notifier.ts';
import { Application } from './application.ts';
import { domainFingerprint } from './fingerprint.ts';
import { Lobby } from './lobby.ts';
import { Players } from './players.ts';

export interface Opened {
  application: Application;
  /** 'ready', or why not. */
  readiness(): Promise<{ ready: true } | { ready: false; status: string; error?: string }>;
  close(): Promise<void>;
}

export async function openApplication(opts: {
  database: Database;
  games: GameModule[];
  rulesFingerprint?: string;
  log?: (msg: string) => void;
  /** Player registrations a minute per address. */
  registrationsPerMinute?: number;
}): Promise<Opened> {
  const notifier = new Notifier(opts.database.url, opts.log ?? (() => {}));
  await notifier.start();
  const application = new Application(new EventStore(opts.database.prisma), new GameRegistry(opts.games), opts.rulesFingerprint ?? domainFingerprint(), notifier);
  const lobbyStore = new LobbyStore(opts.database.prisma);
  application.players = new Players(application, new PlayerStore(opts.database.prisma), lobbyStore, opts.registrationsPerMinute ?? 10);
  application.lobby = new Lobby(application, lobbyStore);
  application.clocks = new ClockStore(opts.database.prisma);
  // The migration files do not change while the process runs: read them once, not per probe.
  const migrations = listMigrations().map((m) => m.name);
  return {
    application,
    async readiness() {
      try {
        const ok = await migrationsApplied(async (sql) => (await opts.database.pool.query(sql)).rows, migrations);
        return ok ? { ready: true } : { ready: false, status: 'migrations pending' };
      } catch (error) {
        return { ready: false, status: 'database unreachable', error: (error as Error).message };
      }
    },
    close: () => notifier.close(),
  };
}

export { Application } from './application.ts';
export type { Actor } from './actors.ts';
