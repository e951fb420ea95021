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
import { listMigrations, migrationsApplied } from '../persistence/migrate.ts';
import { Notifier } from '../persistence/notifier.ts';
import { Application } from './application.ts';
import { domainFingerprint } from './fingerprint.ts';
import { Lobby } from './lobby.ts';
import { Notifications, type NotificationOptions } from './notifications.ts';
import { Players } from './players.ts';
import { WebhookStore } from '../persistence/webhook-store.ts';

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
  /** Webhooks and mail (src/app/notifications.ts); default: webhooks on with a key made for this process, no mail. */
  notifications?: Partial<NotificationOptions>;
}): Promise<Opened> {
  const notifier = new Notifier(opts.database.url, opts.log ?? (() => {}));
  await notifier.start();
  const application = new Application(new EventStore(opts.database.prisma), new GameRegistry(opts.games), opts.rulesFingerprint ?? domainFingerprint(), notifier);
  const lobbyStore = new LobbyStore(opts.database.prisma);
  const playerStore = new PlayerStore(opts.database.prisma);
  application.players = new Players(application, playerStore, lobbyStore, opts.registrationsPerMinute ?? 10);
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

/** Without a configured key (tests, embedding): one per process, so secrets survive no restart. */
let key: Buffer | null = null;
function processKey(): Buffer {
  return (key ??= randomBytes(32));
}

export { Application } from './application.ts';
export type { Actor } from './actors.ts';
