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
import { Verifier } from './verifier.ts';

/** The module that exports the hosted games, for the verify workers to load. */
export const HOSTED_GAMES_MODULE = new URL('../domain/games.ts', import.meta.url).href;

export interface Opened {
  application: Application;
  /** Verifies exports on worker threads (Application.verify's checking code, off the main thread). */
  verifier: Verifier;
  /** 'ready', or why not. */
  readiness(): Promise<{ ready: true } | { ready: false; status: string; error?: string }>;
  close(): Promise<void>;
}

export async function openApplication(opts: {
  database: Database;
  games: GameModule[];
  /** URLs of modules exporting `games` (default: src/domain/games.ts), loaded by the verify workers. */
  gameModules?: string[];
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
  const verifier = new Verifier(opts.gameModules ?? [HOSTED_GAMES_MODULE], application.rules);
  return {
    application,
    verifier,
    async readiness() {
      try {
        const ok = await migrationsApplied(async (sql) => (await opts.database.pool.query(sql)).rows, migrations);
        return ok ? { ready: true } : { ready: false, status: 'migrations pending' };
      } catch (error) {
        return { ready: false, status: 'database unreachable', error: (error as Error).message };
      }
    },
    close: async () => {
      await verifier.close();
      await notifier.close();
    },
  };
}

export { Application } from './application.ts';
export type { Actor } from './actors.ts';
