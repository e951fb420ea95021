/** The game, lobby and clock stores in memory (see src/app/memory/index.ts). */
import type { AppendInput, AppendOutcome, Away, ClockStore, CommandRecord, Cursor, GameFilter, GameRecord, GameStore, LobbyStore, NewGame, SeatChange, SeatDeadline, StoredEvent } from '../ports.ts';
import { absentUntil, deadlineWith, warningWith } from '../absence.ts';
import { before, copy, newest, type MemoryData } from './data.ts';

export class MemoryGames implements GameStore {
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
    d.applyJobs(input.jobs, game);
    return { ok: true, firstVersion: first, lastVersion: last, commandId: command.id, game: copy(game), events: copy(events), away: this.away(game) };
  }

  async game(id: string) {
    const g = this.d.games.get(id);
    return g ? copy(g) : null;
  }

  async gameNow(id: string) {
    const game = await this.game(id);
    return game ? { game, away: this.away(game) } : null;
  }

  /** Seat.absentUntil's absences, as the PostgreSQL store reads them with the game (awaySql). */
  private away(game: GameRecord): Away {
    const out = new Map<string, Date>();
    if (game.status === 'FINISHED' || game.status === 'ABANDONED') return out;
    for (const id of new Set(game.playerIds)) {
      const until = absentUntil(this.d.absencesOf(id), this.d.now());
      if (until) out.set(id, until);
    }
    return out;
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

  async listGames(filter: { type?: string; status?: string; ids?: string[]; visibility?: string }, first: number, after?: Cursor) {
    return [...this.d.games.values()]
      .filter((g) => (!filter.type || g.type === filter.type) && (!filter.visibility || g.visibility === filter.visibility) && (!filter.status || g.status === filter.status) && (!filter.ids || filter.ids.includes(g.id)) && (!after || before(g, after)))
      .sort(newest).slice(0, first).map(copy);
  }
}

export class MemoryLobby implements LobbyStore {
  constructor(private readonly d: MemoryData) {}

  async changeSeats(change: SeatChange) {
    const d = this.d;
    const game = d.games.get(change.gameId);
    if (game?.status !== 'OPEN' || game.version !== 0 || JSON.stringify(game.seats) !== JSON.stringify(change.expected)) return null;
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

  async handToBot(gameId: string, seats: string[], bot: string) {
    const game = this.d.games.get(gameId);
    if (!game || game.version === 0 || seats.every((s) => game.bots.includes(s))) return null;
    const handed = seats.map((seat) => {
      const was = game.seats.find((s) => s.seat === seat);
      return { seat, kind: 'bot' as const, bot, ...(was?.kind === 'player' && was.playerId ? { handedFrom: was.playerId } : {}) };
    });
    Object.assign(game, { seats: [...game.seats.filter((s) => !seats.includes(s.seat)), ...handed], bots: [...new Set([...game.bots, ...seats])].sort(), updatedAt: this.d.now() });
    return copy(game);
  }

  async cancel(gameId: string) {
    const game = this.d.games.get(gameId);
    if (game?.status !== 'OPEN') return null;
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

export class MemoryClocks implements ClockStore {
  constructor(private readonly d: MemoryData) {}

  private rows(gameId: string, version: number, only?: string) {
    const game = this.d.games.get(gameId);
    if (!game?.clockPerMove) return [];
    const perMove = game.clockPerMove;
    const outbox = this.d.outbox.get(gameId) ?? [];
    return game.awaiting.flatMap((seat) => {
      if (only !== undefined && seat !== only) return [];
      const row = outbox.filter((o) => o.kind === 'SEAT_AWAITED' && o.seat === seat && o.version <= version).at(-1);
      if (!row) return [];
      const away = this.d.absencesOf(game.seats.find((s) => s.seat === seat && s.kind === 'player')?.playerId);
      return [{ seat, version: row.version, deadline: deadlineWith(row.createdAt, perMove, away), soon: warningWith(row.createdAt, perMove, away), gameVersion: game.version }];
    });
  }

  async deadlines(gameId: string, version: number): Promise<SeatDeadline[]> {
    return this.rows(gameId, version).map(({ seat, version: v, deadline }) => ({ seat, version: v, deadline }));
  }

  async deadline(gameId: string, seat: string) {
    const r = this.rows(gameId, Number.MAX_SAFE_INTEGER, seat)[0];
    return r ? { ...r, passed: r.deadline.getTime() <= this.d.now().getTime(), soonPassed: r.soon.getTime() <= this.d.now().getTime() } : null;
  }
}

