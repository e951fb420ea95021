/**
 * Every port of the core in memory: a second implementation beside PostgreSQL's, for the
 * core's tests (no database, no HTTP) and the bench's pure-core section. It keeps the
 * contracts that matter to the core: an append lands only at the version it names, a
 * reused idempotency key is told apart, jobs are added with their commit (and only when
 * someone listens, for a job that says so), deadlines come from when a seat became awaited.
 * Records go in and out as copies, as they would through a database. Its clock is `now`,
 * which a test may move on.
 */
import type {
  AppendInput, AppendOutcome, ClockStore, CommandRecord, Cursor, DeliveryRecord, GameFilter, GameRecord, GameStore, JobChange, JobQueue, JobSpec,
  LobbyStore, NewDelivery, NewGame, PlayerRecord, PlayerStore, PlayerTokenRecord, Ports, SeatChange, SeatDeadline, StoredEvent, StoredOutboxEntry,
  WakeUps, WebhookRecord, WebhookStore,
} from '../ports.ts';

const copy = <T>(v: T): T => structuredClone(v);
const newest = (a: GameRecord, b: GameRecord) => b.createdAt.getTime() - a.createdAt.getTime() || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0);
const before = (g: GameRecord, c: Cursor) => g.createdAt < c.createdAt || (g.createdAt.getTime() === c.createdAt.getTime() && g.id < c.id);

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
  readonly webhooks = new Map<string, WebhookRecord>();
  readonly deliveries = new Map<string, DeliveryRecord>();
  readonly yourTurn = new Map<string, number>();
  readonly jobs: MemoryJob[] = [];
  private ids = 0;
  private position = 0;

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

  /** Applies a commit's jobs; returns how many conditional ones were added. */
  applyJobs(changes: JobChange[] | undefined, game: Pick<GameRecord, 'id' | 'playerIds'>): number {
    let conditional = 0;
    for (const change of changes ?? []) {
      if ('removeKey' in change) {
        this.removeJob(change.removeKey);
        continue;
      }
      if (change.when && !this.listened(game, change.when === 'listened-or-mail')) continue;
      if (change.when) conditional++;
      this.addJob(change);
    }
    return conditional;
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

class MemoryGames implements GameStore {
  constructor(private readonly d: MemoryData) {}

  async createGame(input: NewGame): Promise<GameRecord> {
    const d = this.d;
    if (d.games.has(input.game.id)) throw new Error(`game ${input.game.id} exists`);
    const at = d.now();
    const g = input.game;
    const record: GameRecord = {
      seats: [], playerIds: [], bots: [], visibility: 'PRIVATE', inviteCodeHash: null, createdBy: null, clockPerMove: null,
      ...copy(g), version: input.events.length, createdAt: at, updatedAt: at,
    };
    d.games.set(record.id, record);
    for (const t of input.tokens) d.seatTokens.set(t.tokenHash, { gameId: record.id, seat: t.seat });
    d.events.set(record.id, input.events.map((e, i) => ({ version: i + 1, type: e.type, seat: e.seat, data: copy(e.data) as Record<string, unknown>, rolls: copy(e.rolls ?? null), commandId: null, at, position: d.nextPosition() })));
    d.commands.set(record.id, []);
    d.outbox.set(record.id, (input.outbox ?? []).map((o) => ({ ...copy(o), id: d.nextId(), gameId: record.id, version: record.version, createdAt: at })));
    d.applyJobs(input.jobs, record);
    return copy(record);
  }

  async append(input: AppendInput): Promise<AppendOutcome> {
    const d = this.d;
    const game = d.games.get(input.gameId);
    if (!game || game.version !== input.expectedVersion) return { ok: false, conflict: 'VERSION', currentVersion: game?.version ?? input.expectedVersion };
    const commands = d.commands.get(game.id)!;
    if (input.idempotencyKey !== null && input.seat !== null) {
      const existing = commands.find((c) => c.seat === input.seat && c.idempotencyKey === input.idempotencyKey);
      if (existing) return { ok: false, conflict: 'IDEMPOTENCY', existing: copy(existing) };
    }
    const at = d.now();
    const first = input.expectedVersion + 1;
    const last = input.expectedVersion + input.events.length;
    const command: CommandRecord = { id: d.nextId(), seat: input.seat, command: copy(input.command) as Record<string, unknown>, idempotencyKey: input.idempotencyKey, firstVersion: first, lastVersion: last };
    commands.push(command);
    const events = input.events.map((e, i): StoredEvent => ({ version: first + i, type: e.type, seat: e.seat, data: copy(e.data) as Record<string, unknown>, rolls: copy(e.rolls ?? null), commandId: command.id, at, position: d.nextPosition() }));
    d.events.get(game.id)!.push(...events);
    Object.assign(game, { version: last, status: input.summary.status, awaiting: [...input.summary.awaiting], result: copy(input.summary.result), updatedAt: at });
    d.outbox.get(game.id)!.push(...input.outbox.map((o) => ({ ...copy(o), id: d.nextId(), gameId: game.id, version: last, createdAt: at })));
    const notified = d.applyJobs(input.jobs, game);
    return { ok: true, firstVersion: first, lastVersion: last, commandId: command.id, game: copy(game), events: copy(events), notified };
  }

  async game(id: string) {
    const g = this.d.games.get(id);
    return g ? copy(g) : null;
  }

  async events(gameId: string, after = 0, until?: number, limit?: number) {
    const all = (this.d.events.get(gameId) ?? []).filter((e) => e.version > after && (until === undefined || e.version <= until));
    return copy(limit === undefined ? all : all.slice(0, limit));
  }

  async outbox(gameId: string, version?: number) {
    return copy((this.d.outbox.get(gameId) ?? []).filter((o) => version === undefined || o.version === version));
  }

  async findCommand(gameId: string, seat: string, key: string) {
    const c = (this.d.commands.get(gameId) ?? []).find((x) => x.seat === seat && x.idempotencyKey === key);
    return c ? copy(c) : null;
  }

  async commands(gameId: string) {
    return copy(this.d.commands.get(gameId) ?? []);
  }

  async seatForToken(tokenHash: string) {
    const t = this.d.seatTokens.get(tokenHash);
    return t ? { ...t } : null;
  }

  async saveSnapshot(gameId: string, version: number, state: unknown, rules = '') {
    const list = (this.d.snapshots.get(gameId) ?? []).filter((s) => s.version !== version);
    list.push({ version, state: copy(state), rules });
    this.d.snapshots.set(gameId, list);
  }

  async snapshot(gameId: string, version?: number, rules = '') {
    const found = (this.d.snapshots.get(gameId) ?? []).filter((s) => s.rules === rules && (version === undefined || s.version <= version)).sort((a, b) => b.version - a.version)[0];
    return found ? { version: found.version, state: copy(found.state) } : null;
  }

  async listGames(filter: { type?: string; status?: string; ids?: string[] }, first: number, after?: Cursor) {
    return [...this.d.games.values()]
      .filter((g) => (!filter.type || g.type === filter.type) && (!filter.status || g.status === filter.status) && (!filter.ids || filter.ids.includes(g.id)) && (!after || before(g, after)))
      .sort(newest).slice(0, first).map(copy);
  }
}

class MemoryLobby implements LobbyStore {
  constructor(private readonly d: MemoryData) {}

  async changeSeats(change: SeatChange) {
    const d = this.d;
    const game = d.games.get(change.gameId);
    if (!game || game.status !== 'OPEN' || game.version !== 0 || JSON.stringify(game.seats) !== JSON.stringify(change.expected)) return null;
    const at = d.now();
    Object.assign(game, { seats: copy(change.seats), players: copy(change.players), playerIds: [...change.playerIds], bots: [...change.bots], updatedAt: at });
    for (const [hash, t] of d.seatTokens) if (t.gameId === game.id && change.removeTokensFor?.includes(t.seat)) d.seatTokens.delete(hash);
    if (change.addToken) d.seatTokens.set(change.addToken.tokenHash, { gameId: game.id, seat: change.addToken.seat });
    const start = change.start;
    if (start) {
      Object.assign(game, { status: start.summary.status, version: start.events.length, awaiting: [...start.summary.awaiting], result: copy(start.summary.result), inviteCodeHash: null });
      d.events.set(game.id, start.events.map((e, i) => ({ version: i + 1, type: e.type, seat: e.seat, data: copy(e.data) as Record<string, unknown>, rolls: copy(e.rolls ?? null), commandId: null, at, position: d.nextPosition() })));
      d.outbox.get(game.id)!.push(...start.outbox.map((o) => ({ ...copy(o), id: d.nextId(), gameId: game.id, version: game.version, createdAt: at })));
      d.applyJobs(start.jobs, game);
    }
    return copy(game);
  }

  async cancel(gameId: string) {
    const game = this.d.games.get(gameId);
    if (!game || game.status !== 'OPEN') return null;
    Object.assign(game, { status: 'ABANDONED', inviteCodeHash: null, updatedAt: this.d.now() });
    return copy(game);
  }

  async openGames(type: string | undefined, first: number, after?: Cursor) {
    return [...this.d.games.values()]
      .filter((g) => g.status === 'OPEN' && g.visibility === 'PUBLIC' && (!type || g.type === type) && (!after || !before(g, after) && !(g.id === after.id)))
      .sort((a, b) => -newest(a, b)).slice(0, first).map(copy);
  }

  private myTurn(g: GameRecord, playerId: string) {
    return g.seats.some((s) => s.playerId === playerId && g.awaiting.includes(s.seat));
  }

  async playerGames(playerId: string, filter: GameFilter, first: number, after?: Cursor) {
    return [...this.d.games.values()]
      .filter((g) => g.playerIds.includes(playerId) && (!filter.type || g.type === filter.type) && (!filter.status || g.status === filter.status)
        && (filter.myTurn === undefined || filter.myTurn === this.myTurn(g, playerId)) && (!after || before(g, after)))
      .sort(newest).slice(0, first).map(copy);
  }

  async myTurnCount(playerId: string) {
    return [...this.d.games.values()].filter((g) => g.playerIds.includes(playerId) && this.myTurn(g, playerId)).length;
  }

  async byInviteCode(codeHash: string) {
    const g = [...this.d.games.values()].find((x) => x.inviteCodeHash === codeHash && x.status === 'OPEN');
    return g ? copy(g) : null;
  }
}

class MemoryPlayers implements PlayerStore {
  constructor(private readonly d: MemoryData) {}

  async createPlayer(player: { id: string; name: string; email: string | null; emailCode: string | null; emailCodeExpires: Date | null }, token: { id: string; name: string; tokenHash: string }) {
    const at = this.d.now();
    const record: PlayerRecord = { ...player, emailVerified: false, notifyByEmail: false, emailCodeAttempts: 0, createdAt: at, updatedAt: at };
    this.d.players.set(player.id, record);
    this.d.playerTokens.set(token.tokenHash, { id: token.id, playerId: player.id, name: token.name, tokenHash: token.tokenHash, createdAt: at, lastUsedAt: null });
    return copy(record);
  }

  async player(id: string) {
    const p = this.d.players.get(id);
    return p ? copy(p) : null;
  }

  async players(ids: string[]) {
    return ids.flatMap((id) => (this.d.players.has(id) ? [copy(this.d.players.get(id)!)] : []));
  }

  async updatePlayer(id: string, data: Partial<Omit<PlayerRecord, 'id' | 'createdAt' | 'updatedAt'>>) {
    const p = this.d.players.get(id);
    if (!p) throw new Error(`no player ${id}`);
    Object.assign(p, copy(data), { updatedAt: this.d.now() });
    return copy(p);
  }

  async wrongCode(id: string, max: number) {
    const p = this.d.players.get(id)!;
    p.emailCodeAttempts++;
    if (p.emailCodeAttempts >= max) Object.assign(p, { emailCode: null, emailCodeExpires: null });
    return p.emailCodeAttempts;
  }

  async playerForToken(tokenHash: string) {
    const t = this.d.playerTokens.get(tokenHash);
    if (!t) return null;
    t.lastUsedAt = this.d.now();
    return { playerId: t.playerId, tokenId: t.id };
  }

  private out({ tokenHash: _, ...t }: PlayerTokenRecord & { tokenHash: string }): PlayerTokenRecord {
    return copy(t);
  }

  async createToken(token: { id: string; playerId: string; name: string; tokenHash: string }) {
    const record = { ...token, createdAt: this.d.now(), lastUsedAt: null };
    this.d.playerTokens.set(token.tokenHash, record);
    return this.out(record);
  }

  async tokens(playerId: string) {
    return [...this.d.playerTokens.values()].filter((t) => t.playerId === playerId).map((t) => this.out(t));
  }

  async countTokens(playerId: string) {
    return (await this.tokens(playerId)).length;
  }

  async revokeToken(playerId: string, id: string) {
    for (const [hash, t] of this.d.playerTokens) {
      if (t.id === id && t.playerId === playerId) return this.d.playerTokens.delete(hash);
    }
    return false;
  }
}

class MemoryWebhooks implements WebhookStore {
  constructor(private readonly d: MemoryData) {}

  async create(w: Pick<WebhookRecord, 'id' | 'playerId' | 'gameId' | 'url' | 'events' | 'secret'>) {
    const record: WebhookRecord = { ...copy(w), failures: 0, disabledAt: null, disabledReason: null, createdAt: this.d.now() };
    this.d.webhooks.set(w.id, record);
    return copy(record);
  }

  async count(playerId: string) {
    return [...this.d.webhooks.values()].filter((w) => w.playerId === playerId).length;
  }

  async delete(playerId: string, id: string) {
    return this.d.webhooks.get(id)?.playerId === playerId && this.d.webhooks.delete(id);
  }

  async ofPlayer(playerId: string) {
    return [...this.d.webhooks.values()].filter((w) => w.playerId === playerId).map(copy);
  }

  async get(id: string) {
    const w = this.d.webhooks.get(id);
    return w ? copy(w) : null;
  }

  async listening(gameId: string, playerIds: string[]) {
    return [...this.d.webhooks.values()].filter((w) => !w.disabledAt && (w.gameId === gameId || (w.gameId === null && playerIds.includes(w.playerId)))).map(copy);
  }

  async deliveries(webhookId: string, first: number) {
    return [...this.d.deliveries.values()].filter((x) => x.webhookId === webhookId).reverse().slice(0, first).map(copy);
  }

  async delivery(id: string) {
    const x = this.d.deliveries.get(id);
    return x ? copy(x) : null;
  }

  async commandSeat(gameId: string, version: number) {
    return (this.d.commands.get(gameId) ?? []).find((c) => c.lastVersion === version)?.seat ?? null;
  }

  async claimYourTurn(playerId: string, gameId: string, version: number, seats: string[]) {
    const key = `${playerId}:${gameId}`;
    const last = this.d.yourTurn.get(key);
    const acted = (this.d.commands.get(gameId) ?? []).some((c) => c.seat !== null && seats.includes(c.seat) && last !== undefined && c.lastVersion > last && c.lastVersion <= version);
    if (last === undefined || last === version || (last < version && acted)) {
      this.d.yourTurn.set(key, version);
      return true;
    }
    return false;
  }

  async enqueue(deliveries: NewDelivery[], job: (d: NewDelivery) => JobSpec) {
    const written: string[] = [];
    for (const x of deliveries) {
      if (this.d.deliveries.has(x.id)) continue;
      const at = this.d.now();
      this.d.deliveries.set(x.id, { ...copy(x), status: 'PENDING', attempts: 0, lastError: null, createdAt: at, updatedAt: at });
      this.d.addJob(job(x));
      written.push(x.id);
    }
    return written;
  }

  async attempted(id: string, outcome: { status: DeliveryRecord['status']; error?: string | null; attempt?: boolean }) {
    const x = this.d.deliveries.get(id);
    if (!x) return;
    Object.assign(x, { status: outcome.status, attempts: x.attempts + (outcome.attempt === false ? 0 : 1), lastError: outcome.error ?? x.lastError, updatedAt: this.d.now() });
  }

  async webhookAttempted(deliveryId: string, webhookId: string, ok: boolean, outcome: { status: DeliveryRecord['status']; error?: string | null }) {
    const w = this.d.webhooks.get(webhookId);
    if (w) w.failures = ok ? 0 : w.failures + 1;
    await this.attempted(deliveryId, { ...outcome, attempt: true });
  }

  async disable(id: string, reason: string) {
    const w = this.d.webhooks.get(id);
    if (w && !w.disabledAt) Object.assign(w, { disabledAt: this.d.now(), disabledReason: reason });
  }
}

class MemoryClocks implements ClockStore {
  constructor(private readonly d: MemoryData) {}

  private rows(gameId: string, version: number, only?: string) {
    const game = this.d.games.get(gameId);
    if (!game?.clockPerMove) return [];
    const perMove = game.clockPerMove;
    const outbox = this.d.outbox.get(gameId) ?? [];
    return game.awaiting.flatMap((seat) => {
      if (only !== undefined && seat !== only) return [];
      const row = outbox.filter((o) => o.kind === 'SEAT_AWAITED' && o.seat === seat && o.version <= version).at(-1);
      return row ? [{ seat, version: row.version, deadline: new Date(row.createdAt.getTime() + perMove * 1000), gameVersion: game.version }] : [];
    });
  }

  async deadlines(gameId: string, version: number): Promise<SeatDeadline[]> {
    return this.rows(gameId, version).map(({ seat, version: v, deadline }) => ({ seat, version: v, deadline }));
  }

  async deadline(gameId: string, seat: string) {
    const r = this.rows(gameId, Number.MAX_SAFE_INTEGER, seat)[0];
    return r ? { ...r, passed: r.deadline.getTime() <= this.d.now().getTime() } : null;
  }
}

class MemoryJobs implements JobQueue {
  constructor(private readonly d: MemoryData) {}

  async add(task: string, payload: Record<string, unknown> = {}, options: { key?: string; runAt?: Date; maxAttempts?: number; priority?: number } = {}) {
    return this.d.addJob({ task, payload, ...options });
  }

  async remove(key: string) {
    this.d.removeJob(key);
  }
}

class MemoryWakeUps implements WakeUps {
  private readonly listeners = new Map<string, Set<() => void>>();

  publish(gameId: string, _version: number): void {
    for (const wake of this.listeners.get(gameId) ?? []) queueMicrotask(wake);
  }

  listen(gameId: string, wake: () => void): () => void {
    const set = this.listeners.get(gameId) ?? new Set();
    set.add(wake);
    this.listeners.set(gameId, set);
    return () => void set.delete(wake);
  }
}

/** A fresh set of memory ports, and the data behind them (for tests to look at, and its clock). */
export function memoryPorts(data = new MemoryData()): Ports & { data: MemoryData } {
  return {
    data,
    games: new MemoryGames(data),
    lobby: new MemoryLobby(data),
    players: new MemoryPlayers(data),
    webhooks: new MemoryWebhooks(data),
    clocks: new MemoryClocks(data),
    jobs: new MemoryJobs(data),
    wakeUps: new MemoryWakeUps(),
  };
}

/** Runs the due jobs of the memory queue with `tasks`, lowest priority first, until none is due; returns how many ran. */
export async function runDueJobs(data: MemoryData, tasks: Record<string, (payload: Record<string, unknown>) => Promise<void>>, limit = 1_000): Promise<number> {
  let ran = 0;
  for (; ran < limit; ran++) {
    const now = data.now().getTime();
    const due = data.jobs.filter((j) => j.runAt.getTime() <= now && tasks[j.task]).sort((a, b) => a.priority - b.priority || a.runAt.getTime() - b.runAt.getTime())[0];
    if (!due) break;
    data.jobs.splice(data.jobs.indexOf(due), 1);
    due.attempts++;
    try {
      await tasks[due.task]!(due.payload);
    } catch (error) {
      if (due.attempts >= due.maxAttempts) throw error;
      data.jobs.push({ ...due, runAt: new Date(now + 1000 * Math.exp(due.attempts)) });
    }
  }
  return ran;
}
