/** The shared state of one set of memory ports (src/app/memory/index.ts), and their job list. */
import type { AbsenceRecord, CommandRecord, Cursor, DeliveryRecord, GameRecord, JobChange, JobSpec, PlayerRecord, PlayerTokenRecord, RevocationListener, StoredEvent, StoredOutboxEntry, WebhookRecord } from '../ports.ts';
import type { MessageRecord } from '../ports-messages.ts';

export const copy = <T>(v: T): T => structuredClone(v);
export const newest = (a: GameRecord, b: GameRecord) => b.createdAt.getTime() - a.createdAt.getTime() || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0);
export const before = (g: GameRecord, c: Cursor) => g.createdAt < c.createdAt || (g.createdAt.getTime() === c.createdAt.getTime() && g.id < c.id);

/** A pending job of the memory queue. */
export interface MemoryJob {
  id: string;
  task: string;
  payload: Record<string, unknown>;
  key: string | null;
  runAt: Date;
  priority: number;
  maxAttempts: number;
  attempts: number;
}

/** The shared state of one set of memory ports. */
export class MemoryData {
  /** The store's clock (the database's now() on PostgreSQL). */
  now = () => new Date();
  readonly games = new Map<string, GameRecord>();
  readonly events = new Map<string, StoredEvent[]>();
  readonly commands = new Map<string, CommandRecord[]>();
  readonly outbox = new Map<string, StoredOutboxEntry[]>();
  readonly snapshots = new Map<string, { version: number; state: unknown; rules: string }[]>();
  readonly seatTokens = new Map<string, { gameId: string; seat: string }>();
  readonly players = new Map<string, PlayerRecord>();
  readonly playerTokens = new Map<string, PlayerTokenRecord & { tokenHash: string }>();
  /** Registrations per address in the current minute (PlayerStore.countRegistration). */
  readonly registrations = new Map<string, { windowStart: Date; count: number }>();
  /** Who hears revoked tokens (WakeUps.onTokenRevoked). */
  readonly revocationListeners = new Set<RevocationListener>();
  readonly webhooks = new Map<string, WebhookRecord>();
  readonly deliveries = new Map<string, DeliveryRecord>();
  readonly yourTurn = new Map<string, number>();
  readonly jobs: MemoryJob[] = [];
  /** The dispatcher's mark: the id of the last outbox row fanned out (ids grow in commit order here). */
  notifyMark = 0;
  /** When a failed delivery is due again. */
  readonly nextAttempt = new Map<string, Date>();
  /** Absences of every player (AbsenceStore). */
  readonly absences: AbsenceRecord[] = [];
  /** Messages between players, in the order stored; and the rate limit's windows per sender. */
  readonly messages: MessageRecord[] = [];
  readonly messageLimits = new Map<string, { windowStart: Date; count: number }>();
  private ids = 0;
  private position = 0;

  /** A player's absences (none for a seat no player holds). */
  absencesOf(playerId: string | undefined): AbsenceRecord[] {
    return playerId ? this.absences.filter((a) => a.playerId === playerId) : [];
  }

  nextId(): string {
    return String(++this.ids);
  }

  nextPosition(): string {
    return String(++this.position);
  }

  /** An enabled webhook listens to the game, or (with `mail`) a player of it wants mail. */
  listened(game: Pick<GameRecord, 'id' | 'playerIds'>, mail: boolean): boolean {
    for (const w of this.webhooks.values()) if (!w.disabledAt && (w.gameId === game.id || (w.gameId === null && game.playerIds.includes(w.playerId)))) return true;
    if (!mail) return false;
    return game.playerIds.some((id) => {
      const p = this.players.get(id);
      return Boolean(p?.notifyByEmail && p.emailVerified && p.email);
    });
  }

  /** Applies a commit's jobs (one with `when` only if someone listens). */
  applyJobs(changes: JobChange[] | undefined, game: Pick<GameRecord, 'id' | 'playerIds'>): void {
    for (const change of changes ?? []) {
      if ('removeKey' in change) {
        this.removeJob(change.removeKey);
        continue;
      }
      if (change.when && !this.listened(game, change.when === 'listened-or-mail')) continue;
      this.addJob(change);
    }
  }

  addJob(spec: JobSpec): string {
    if (spec.key) this.removeJob(spec.key);
    const runAt = spec.runAt ?? new Date(this.now().getTime() + (spec.runAfterSeconds ?? 0) * 1000);
    const job: MemoryJob = { id: this.nextId(), task: spec.task, payload: copy(spec.payload ?? {}), key: spec.key ?? null, runAt, priority: spec.priority ?? 0, maxAttempts: spec.maxAttempts ?? 25, attempts: 0 };
    this.jobs.push(job);
    return job.id;
  }

  removeJob(key: string): void {
    const i = this.jobs.findIndex((j) => j.key === key);
    if (i >= 0) this.jobs.splice(i, 1);
  }
}

