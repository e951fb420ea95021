/**
 * The core, built once from its ports (src/app/ports.ts): every service is made here by its
 * constructor, with all it needs, and the planners that say what follows a commit are
 * registered here. src/server.ts builds one on PostgreSQL; the core's tests build one on
 * the memory ports (src/app/memory). Nothing below reaches around it.
 */
import { randomBytes } from 'node:crypto';
import { ABSENCE_DAYS_PER_YEAR, Absences } from './absence.ts';
import { GameRegistry, type GameModule } from '../domain/kernel/index.ts';
import type { Actor } from './actors.ts';
import { Bots } from './bots.ts';
import { Commands } from './commands.ts';
import { Deadlines, type DeadlineSoonHook } from './deadlines.ts';
import { Digests } from './digests.ts';
import { Handover } from './handover.ts';
import { AppError } from './errors.ts';
import { domainFingerprint } from './fingerprint.ts';
import type { ReadContext } from './game-read.ts';
import { Planners, type JobPlanner } from './jobs.ts';
import { Lobby } from './lobby.ts';
import { MailPlay, type MailPlayOptions } from './mail-play.ts';
import { MESSAGE_DEFAULTS, Messages, type MessageOptions } from './messages.ts';
import { Notifications, type NotificationOptions } from './notifications.ts';
import { botPlanner, clockPlanner, messagePlanner } from './planners.ts';
import { Dispatcher, type DispatchOptions } from './dispatch.ts';
import { playerOf, Players, type VerificationMail } from './players.ts';
import type { Ports } from './ports.ts';
import { Reads } from './reads.ts';
import { SeatTokens } from './seat-tokens.ts';
import { States } from './states.ts';
import { Verifier } from './verifier.ts';
import { verifyExport, type ExportDocument, type VerifyReport } from './verify.ts';

/** The module that exports the hosted games, for the verify workers to load. */
export const HOSTED_GAMES_MODULE = new URL('../domain/games.ts', import.meta.url).href;

export interface CoreOptions {
  games: GameModule[];
  /** URLs of modules exporting `games` (default: src/domain/games.ts), loaded by the verify workers. */
  gameModules?: string[];
  /** Tags games and snapshots; default: a fingerprint of src/domain. */
  rulesFingerprint?: string;
  /** Player registrations a minute per address (default 10). */
  registrationsPerMinute?: number;
  /** Webhooks and mail; default: webhooks on with a key made for this process, no mail. */
  notifications?: Partial<NotificationOptions>;
  /** Sends a verification code (default: the notifications queue it as a mail). */
  sendCode?: (mail: VerificationMail) => Promise<void> | void;
  /** Sends "deadline near" (default: the notifications fan it out to webhooks and mail). */
  deadlineSoon?: DeadlineSoonHook;
  /** Play by mail: the reply addresses' domain (none: off) and the rate limit. */
  playByMail?: Partial<Omit<MailPlayOptions, 'secretKey'>>;
  /** Days of absence a player may take each calendar year (default ABSENCE_DAYS_PER_YEAR, 30). */
  absenceDaysPerYear?: number;
  /** When the daily digest goes out, "HH:MM" UTC (default 07:00). */
  digestTime?: string;
  /** More planners, after the core's own (a channel of its own: reminders, digests, ...). */
  planners?: Record<string, JobPlanner>;
  /** Messages between players: length and rate limits (default 2,000 characters, 20 a minute). */
  messages?: Partial<MessageOptions>;
}

export interface Core {
  readonly registry: GameRegistry;
  /** The rules fingerprint games record. */
  readonly rules: string;
  readonly ports: Ports;
  /** Folded states (the cache, snapshots). */
  readonly states: States;
  readonly commands: Commands;
  readonly reads: Reads;
  readonly lobby: Lobby;
  readonly players: Players;
  readonly notifications: Notifications;
  /** Play by mail: reply addresses, inbound messages, their handling. */
  readonly mail: MailPlay;
  readonly bots: Bots;
  readonly deadlines: Deadlines;
  /** Absences: setAbsence, cancelAbsence, me.absences (src/app/absence.ts). */
  readonly absences: Absences;
  /** The daily digest and the calendar feed. */
  readonly digests: Digests;
  /** Seats out of time handed to the bot in the record (onTimeout: BOT; the deadline task calls it). */
  readonly handover: Handover;
  /** Messages between players (sendMessage, Game.messages, gameMessages). */
  readonly messages: Messages;
  readonly planners: Planners;
  /** The notifications' dispatcher (src/app/dispatch.ts), for a process running workers to start: `send` makes one POST. */
  dispatcher(options: DispatchOptions): Dispatcher;
  readonly verify: {
    /** Checks a parsed export here (pure: no store). */
    check(doc: ExportDocument): VerifyReport;
    /** Parses and checks an export's bytes on a worker thread. */
    body(bytes: Uint8Array): Promise<VerifyReport>;
  };
  /** The hosted module of a game type. */
  module(type: string): GameModule;
  /** The actor a bearer token stands for (null: a spectator). */
  authenticate(token: string | null): Promise<Actor>;
  readiness(): Promise<{ ready: true } | { ready: false; status: string; error?: string }>;
  close(): Promise<void>;
}

/** Without a configured key (tests, embedding): one per process, so secrets survive no restart. */
let key: Buffer | null = null;
function processKey(): Buffer {
  return (key ??= randomBytes(32));
}

export function createCore(ports: Ports, options: CoreOptions): Core {
  const registry = new GameRegistry(options.games);
  const rules = options.rulesFingerprint ?? domainFingerprint();
  const module = (type: string): GameModule => {
    const found = registry.module(type);
    if (!found) throw new AppError('INTERNAL', `game type ${type} is no longer hosted`);
    return found;
  };
  const n = options.notifications ?? {};
  const notificationOptions: NotificationOptions = {
    ...n,
    secretKey: n.secretKey === undefined ? processKey() : n.secretKey,
    publicUrl: n.publicUrl ?? 'http://localhost:4000',
    allowPrivate: n.allowPrivate ?? false,
    mail: n.mail ?? false,
  };

  // What follows a commit: the core's planners, then any the caller adds.
  const planners = new Planners()
    .register('bots', botPlanner)
    .register('clocks', clockPlanner);
  for (const [name, plan] of Object.entries(options.planners ?? {})) planners.register(name, plan);

  const states = new States(ports.games, module, rules);
  ports.wakeUps.onVersion((gameId, version) => states.heard(gameId, version));
  const ctx: ReadContext = { module, states, store: ports.games, clocks: ports.clocks, absences: ports.absences };
  const reads = new Reads(ctx, ports.lobby, ports.wakeUps, ports.messages, ports.revisions);
  const seatTokens = new SeatTokens();
  const commands = new Commands(ctx, ports.games, states, reads, registry, planners, ports.wakeUps, rules, seatTokens);
  const mail = new MailPlay(ports.mail, ports.players, ctx, reads, commands, registry, {
    replyDomain: notificationOptions.mail ? (options.playByMail?.replyDomain ?? null) : null,
    secretKey: notificationOptions.secretKey,
    perHour: options.playByMail?.perHour,
  });
  const notifications = new Notifications(ports.webhooks, ports.players, ports.games, reads, registry, ports.jobs, mail, notificationOptions);
  const players = new Players(ports.players, ports.games, seatTokens, reads, ports.wakeUps, {
    registrationsPerMinute: options.registrationsPerMinute ?? 10,
    sendCode: options.sendCode ?? ((mail) => notifications.sendCode(mail)),
  });
  const lobby = new Lobby(ctx, commands, reads, ports.lobby, (actor) => playerOf(ports.players, actor), seatTokens);
  const bots = new Bots(ports.games, reads, commands);
  const handover = new Handover(ports.games, ports.lobby, states, ports.jobs);
  const deadlines = new Deadlines(ports.clocks, reads, commands, options.deadlineSoon ?? (async (d) => void (await notifications.fanOutDeadline(d.gameId, d.seat, d.version, d.deadline))), handover, ports.jobs);
  const absences = new Absences(ports.absences, ports.players, options.absenceDaysPerYear ?? ABSENCE_DAYS_PER_YEAR);
  const digests = new Digests(ports.digests, ports.players, reads, ports.clocks, mail, notifications, ports.jobs, {
    time: options.digestTime ?? '07:00', publicUrl: notificationOptions.publicUrl, secretKey: notificationOptions.secretKey, mail: notificationOptions.mail,
  });
  const messages = new Messages(ports.messages, reads, ports.wakeUps, messagePlanner(notificationOptions.mail && notificationOptions.secretKey !== null), notifications, { ...MESSAGE_DEFAULTS, ...options.messages });
  const verifier = new Verifier(options.gameModules ?? [HOSTED_GAMES_MODULE], rules);

  return {
    registry, rules, ports, states, commands, reads, lobby, players, notifications, mail, bots, deadlines, absences, digests, handover, messages, planners, module,
    dispatcher: (o) => new Dispatcher(notifications, ports.webhooks, ports.wakeUps, o),
    verify: { check: (doc) => verifyExport(doc, registry, rules), body: (bytes) => verifier.verify(bytes) },
    authenticate: (token) => players.authenticate(token),
    readiness: () => ports.readiness?.() ?? Promise.resolve({ ready: true }),
    close: () => verifier.close(),
  };
}
