/**
 * Folded states: a game's state at a version, from what this process last folded or wrote
 * (an LRU cache checked against the version the store returns), a snapshot, or the log.
 * A snapshot is written each time a commit crosses a multiple of SNAPSHOT_EVERY.
 */
import { fold, initialMatch, type GameModule, type MatchState, type Recorded } from '../domain/kernel/index.ts';
import type { GameRecord, GameStore, NewEvent, StoredEvent } from './ports.ts';

/** A snapshot is written each time a game's version crosses a multiple of this. */
export const SNAPSHOT_EVERY = 100;
const CACHE_SIZE = 2_000;

/** A bounded map that forgets the least recently used entry first. */
export class Lru<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super();
  }
  touch(key: K): V | undefined {
    const value = super.get(key);
    if (value !== undefined) {
      this.delete(key);
      super.set(key, value);
    }
    return value;
  }
  put(key: K, value: V): void {
    this.delete(key);
    super.set(key, value);
    if (this.size > this.limit) this.delete(this.keys().next().value!);
  }
}

export function recordedOf(e: StoredEvent): Recorded {
  return { event: e.data as Recorded['event'], seat: e.seat, rolls: (e.rolls ?? undefined) as Recorded['rolls'] };
}

export function toNewEvent(r: Recorded): NewEvent {
  return { type: r.event.type, seat: r.seat, data: r.event, rolls: r.rolls ?? null };
}

export interface Cached {
  version: number;
  state: MatchState;
  /** The game's row as of `version` (what cannot change, the seed and type, included). */
  record?: GameRecord;
}

export class States {
  /** The latest state this process folded or wrote, per game; checked against the version the store returns. */
  private readonly cache = new Lru<string, Cached>(CACHE_SIZE);

  constructor(
    private readonly store: GameStore,
    private readonly module: (type: string) => GameModule,
    /** The rules fingerprint snapshots are tagged with (a snapshot of other rules is never read). */
    private readonly rules: string,
  ) {}

  /** What this process holds of a game, if anything (marks it recently used). */
  held(gameId: string): Cached | undefined {
    return typeof gameId === 'string' ? this.cache.touch(gameId) : undefined;
  }

  /** The game's type, if this process holds it (for metrics of a refused command). */
  typeOf(gameId: string): string | undefined {
    return this.cache.get(gameId)?.record?.type;
  }

  /**
   * A whole record just read: held as the record of the state this process holds at its
   * version (so a later read may ask the store whether the row is still that one).
   */
  recordRead(record: GameRecord): void {
    const held = this.cache.get(record.id);
    if (held && held.version === record.version && held.record !== record) this.cache.set(record.id, { ...held, record });
  }

  /**
   * Another process committed the game at `version` (WakeUps.onVersion): the record held is no
   * longer the row, so the next command reads the row instead of deciding on it (its append would
   * be refused), and the next read reads it instead of first asking its revision. The state held
   * stays, the base of the next fold.
   */
  heard(gameId: string, version: number): void {
    const held = this.cache.get(gameId);
    if (held?.record && held.version < version) this.cache.set(gameId, { version: held.version, state: held.state });
  }

  remember(gameId: string, version: number, state: MatchState, record?: GameRecord): void {
    this.cache.put(gameId, { version, state, record: record?.version === version ? record : undefined });
  }

  /** After a commit from `before` to the record's version: hold its state, snapshot when a multiple is crossed. */
  async committed(record: GameRecord, before: number, state: MatchState): Promise<void> {
    this.remember(record.id, record.version, state, record);
    if (Math.floor(record.version / SNAPSHOT_EVERY) > Math.floor(before / SNAPSHOT_EVERY)) {
      await this.store.saveSnapshot(record.id, record.version, state, this.rules);
    }
  }

  /** The folded state at `version` (default: the record's). */
  async of(game: GameRecord, version?: number): Promise<{ state: MatchState; version: number }> {
    const module = this.module(game.type);
    const target = version === undefined ? game.version : Math.max(0, Math.min(version, game.version));
    const cached = this.cache.touch(game.id);
    // The common case: this process folded this version already, nothing to read.
    if (cached && cached.version === target) return cached;
    let base: { version: number; state: MatchState } | null = cached && cached.version < target ? cached : null;
    if (!base || target - base.version > SNAPSHOT_EVERY) {
      const snap = await this.store.snapshot(game.id, target, this.rules);
      if (snap && (!base || snap.version > base.version)) base = { version: snap.version, state: snap.state as MatchState };
    }
    base ??= { version: 0, state: initialMatch(module, { options: game.options, players: game.players.map((p) => p.seat) }) };
    if (base.version === target) return base;
    const events = await this.store.events(game.id, base.version, target);
    const state = fold(module, base.state, events.map(recordedOf));
    const reached = events.length ? events[events.length - 1]!.version : base.version;
    if (reached === game.version && (!cached || cached.version < reached)) this.remember(game.id, reached, state, game);
    return { state, version: reached };
  }
}
