/**
 * Builds the application core on a database: the event store, the registry of hosted
 * games, and the notifier that wakes subscriptions across processes. The api layer and
 * the workers get an Application and never reach below it.
 */
import { randomBytes } from 'node:crypto';
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
import { Notifications, type NotificationOptions } from './notifications.ts';
import { Players } from './players.ts';
import { WebhookStore } from '../persistence/webhook-store.ts';
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
  /** Webhooks and mail (src/app/notifications.ts); default: webhooks on with a key made for this process, no mail. */
  notifications?: Partial<NotificationOptions>;
}): Promise<Opened> {
  const notifier = new Notifier(opts.database.url, opts.log ?? (() => {}));
  await notifier.start();
  const application = new Application(new EventStore(opts.database.prisma), new GameRegistry(opts.games), opts.rulesFingerprint ?? domainFingerprint(), notifier);
  const lobbyStore = new LobbyStore(opts.database.prisma);
  const playerStore = new PlayerStore(opts.database.prisma);
  application.players = new Players(application, playerStore, lobbyStore, opts.registrationsPerMinute ?? 10);
  application.players.revocations = notifier;
  application.lobby = new Lobby(application, lobbyStore);
  const n = opts.notifications ?? {};
  const notifications = new Notifications(application, new WebhookStore(opts.database.prisma), playerStore, {
    ...n,
    secretKey: n.secretKey === undefined ? processKey() : n.secretKey,
    publicUrl: n.publicUrl ?? 'http://localhost:4000',
    allowPrivate: n.allowPrivate ?? false,
    mail: n.mail ?? false,
  });
  application.notifications = notifications;
  // A player who wants mail makes each commit of their games need a notification job.
  application.store.mailListeners = lobbyStore.mailListeners = notifications.options.mail && notifications.options.secretKey !== null;
  application.players.codeSender = (mail) => notifications.sendCode(mail);
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

/** Without a configured key (tests, embedding): one per process, so secrets survive no restart. */
let key: Buffer | null = null;
function processKey(): Buffer {
  return (key ??= randomBytes(32));
}

export { Application } from './application.ts';
export type { Actor } from './actors.ts';
