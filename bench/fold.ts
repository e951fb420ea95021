/**
 * Folding speed: one long game, loaded by a fresh service (empty in-process cache) from
 * the event store, with and without snapshots.
 */
import { isDeepStrictEqual } from 'node:util';
import { createCore, type Core } from '../src/app/core.ts';
import { memoryPorts } from '../src/app/memory/index.ts';
import type { Ports } from '../src/app/ports.ts';
import { SNAPSHOT_EVERY, States } from '../src/app/states.ts';
import { fold, GameRegistry, initialMatch, matchStatus, step, type GameModule, type MatchState, type Recorded } from '../src/domain/kernel/index.ts';
import type { PrismaClient } from '../src/generated/prisma/client.ts';
import { EventStore, type GameRecord, type NewEvent } from '../src/persistence/event-store.ts';
import { ClockStore } from '../src/persistence/clock-store.ts';
import { LobbyStore } from '../src/persistence/lobby-store.ts';
import { guessingGame } from '../test/support/guessing-game.ts';
import { median, msSince, round } from './stats.ts';

/**
 * The guessing game with a far target allowed whatever its own options cap (its first
 * versions capped the target at 1000 points, and every round scores about one point a
 * player: a game of 5000 events would have ended near 3000). Same rules otherwise.
 */
export const longGuessingGame: GameModule = {
  ...(guessingGame as unknown as GameModule),
  optionsSchema: {
    type: 'object',
    properties: { target: { type: 'integer', minimum: 1, maximum: 1_000_000_000, default: 10 } },
    additionalProperties: false,
  },
};

export interface LoadMeasure {
  /** Median load time of the whole state, ms. */
  medianMs: number;
  minMs: number;
  maxMs: number;
  /** Events read from the store and folded on each load. */
  eventsFolded: number;
  /** The version the snapshot used started from (0: none). */
  fromVersion: number;
  /** Events of the game per second of load time (whole game / median load time). */
  gameEventsPerSecond: number;
  /** Events actually folded per second of load time. */
  foldedEventsPerSecond: number;
  samplesMs: number[];
}

export interface FoldResult {
  events: number;
  commands: number;
  buildSeconds: number;
  snapshotsWritten: number;
  repeats: number;
  withoutSnapshots: LoadMeasure;
  withSnapshots: LoadMeasure;
  /** Load time without snapshots / with snapshots. */
  speedup: number;
  /** Reading all events from the store only (no folding), median ms. */
  readAllEventsMs: number;
  /** Folding already-read events in memory only (no database), median ms and events/s. */
  inMemoryFoldMs: number;
  inMemoryEventsPerSecond: number;
}

function recordedOf(e: { data: Record<string, unknown>; seat: string | null; rolls: unknown[] | null }): Recorded {
  return { event: e.data as Recorded['event'], seat: e.seat, rolls: (e.rolls ?? undefined) as Recorded['rolls'] };
}

/**
 * Builds one two-seat game of at least `events` events. The game is created by the
 * service; its commands are decided by the kernel's turn (`step`, with the game's seeded
 * dice, exactly as Commands.execute does) and their events appended in batches
 * through the event store, with a snapshot written wherever the service would write one
 * (each time the version crosses a multiple of SNAPSHOT_EVERY). Playing them one by one
 * through Commands.execute gives the same events but is too slow for this benchmark.
 */
async function buildLongGame(service: Core, events: number): Promise<{ game: GameRecord; commands: number; state: MatchState; tokens: Record<string, string> }> {
  const created = await service.commands.create({
    type: 'guessing-game',
    options: { target: 1_000_000_000 },
    seats: [
      { seat: 'north', name: 'bench-north' },
      { seat: 'east', name: 'bench-east' },
    ],
  });
  const store = service.ports.games;
  const game = (await store.game(created.game.id))!;
  const module = service.module(game.type);
  let { state, version } = await service.states.of(game);
  const seats = ['north', 'east'];
  const snapshots: { version: number; state: MatchState }[] = [];
  let batch: NewEvent[] = [];
  let batchFrom = version;
  let commands = 0;
  while (version < events) {
    const seat = seats[commands % 2]!;
    const command = { type: 'guess', number: 1 + (commands % 6) };
    const outcome = step(module, state, command, { kind: 'seat', seat }, { seed: game.seed });
    if (!outcome.ok) throw new Error(`the long game refused a command: ${outcome.reason}`);
    const before = version;
    state = outcome.state;
    for (const r of outcome.recorded) {
      batch.push({ type: r.event.type, seat, data: r.event, rolls: r.rolls ?? null });
      version++;
    }
    commands++;
    if (Math.floor(version / SNAPSHOT_EVERY) > Math.floor(before / SNAPSHOT_EVERY)) snapshots.push({ version, state });
    if (batch.length >= 1000 || version >= events) {
      const status = matchStatus(module, state);
      const outcome = await store.append({
        gameId: game.id, expectedVersion: batchFrom, seat, command: { type: 'benchBatch', commands }, idempotencyKey: null, events: batch,
        summary: { status: status.stage, awaiting: [...new Set(status.awaiting.map((p) => p.seat))], result: status.result }, outbox: [],
      });
      if (!outcome.ok) throw new Error(`appending the long game failed: ${JSON.stringify(outcome)}`);
      batch = [];
      batchFrom = version;
    }
  }
  for (const snap of snapshots) await store.saveSnapshot(game.id, snap.version, snap.state);
  const tokens = Object.fromEntries(created.seatTokens.map((t) => [t.seat, t.token]));
  return { game: (await store.game(game.id))!, commands, state, tokens };
}

async function measureLoads(
  prisma: PrismaClient,
  modules: GameModule[],
  game: GameRecord,
  repeats: number,
  fromVersion: number,
): Promise<{ measure: LoadMeasure; state: MatchState }> {
  const samples: number[] = [];
  let state: MatchState | null = null;
  for (let i = 0; i <= repeats; i++) {
    // A fresh service each time: nothing cached in-process. (The registry compiles JSON
    // Schemas when built: outside the timed part.)
    const registry = new GameRegistry(modules);
    const fresh = new States(new EventStore(prisma), (type) => registry.module(type)!, '');
    const start = process.hrtime.bigint();
    const loaded = await fresh.of(game);
    const ms = msSince(start);
    if (loaded.version !== game.version) throw new Error(`loaded version ${loaded.version}, expected ${game.version}`);
    state = loaded.state;
    if (i > 0) samples.push(ms); // the first load warms up the code paths: not counted
  }
  const med = median(samples);
  const folded = game.version - fromVersion;
  return {
    state: state!,
    measure: {
      medianMs: round(med, 3),
      minMs: round(Math.min(...samples), 3),
      maxMs: round(Math.max(...samples), 3),
      eventsFolded: folded,
      fromVersion,
      gameEventsPerSecond: Math.round(game.version / (med / 1000)),
      foldedEventsPerSecond: Math.round(folded / (med / 1000)),
      samplesMs: samples.map((s) => round(s, 3)),
    },
  };
}

export async function runFold(prisma: PrismaClient, hosted: GameModule[], events: number, repeats: number): Promise<FoldResult & { gameId: string; tokens: Record<string, string>; nextSeat: number }> {
  const modules = [...hosted, longGuessingGame];
  // The core on the bench's database (its job queue and wake-ups unused: memory ones stand in).
  const memory = memoryPorts();
  const ports: Ports = { ...memory, games: new EventStore(prisma), lobby: new LobbyStore(prisma), clocks: new ClockStore(prisma) };
  const writer = createCore(ports, { games: modules, rulesFingerprint: '' });
  const buildStart = process.hrtime.bigint();
  const { game, commands, state: built, tokens } = await buildLongGame(writer, events);
  const buildSeconds = msSince(buildStart) / 1000;
  const snapshotsWritten = await prisma.snapshot.count({ where: { gameId: game.id } });
  const store = new EventStore(prisma);

  // (b) with the snapshots the service wrote every SNAPSHOT_EVERY versions.
  const latest = await store.snapshot(game.id);
  if (!latest) throw new Error(`the service wrote no snapshot for a game of ${game.version} events (SNAPSHOT_EVERY = ${SNAPSHOT_EVERY})`);
  const withSnap = await measureLoads(prisma, modules, game, repeats, latest.version);

  // (a) without snapshots: every event from version 1.
  await prisma.snapshot.deleteMany({ where: { gameId: game.id } });
  const without = await measureLoads(prisma, modules, game, repeats, 0);
  const json = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;
  if (!isDeepStrictEqual(json(without.state), json(withSnap.state)) || !isDeepStrictEqual(json(without.state), json(built))) {
    throw new Error('the states loaded from a snapshot, folded from all events and built in memory differ');
  }

  // Where the time goes: reading the rows vs folding them.
  const readSamples: number[] = [];
  const foldSamples: number[] = [];
  const module = longGuessingGame;
  const input = { options: game.options, players: game.players.map((p) => p.seat) };
  for (let i = 0; i <= repeats; i++) {
    const readStart = process.hrtime.bigint();
    const stored = await store.events(game.id);
    const readMs = msSince(readStart);
    const foldStart = process.hrtime.bigint();
    fold(module, initialMatch(module, input), stored.map(recordedOf));
    const foldMs = msSince(foldStart);
    if (i > 0) {
      readSamples.push(readMs);
      foldSamples.push(foldMs);
    }
  }
  const inMemoryFoldMs = median(foldSamples);

  return {
    gameId: game.id,
    tokens,
    // The long game's commands alternate north, east: the next is north after an even count.
    nextSeat: commands % 2,
    events: game.version,
    commands,
    buildSeconds: round(buildSeconds, 2),
    snapshotsWritten,
    repeats,
    withoutSnapshots: without.measure,
    withSnapshots: withSnap.measure,
    speedup: round(without.measure.medianMs / withSnap.measure.medianMs, 1),
    readAllEventsMs: round(median(readSamples), 3),
    inMemoryFoldMs: round(inMemoryFoldMs, 3),
    inMemoryEventsPerSecond: Math.round(game.version / (inMemoryFoldMs / 1000)),
  };
}
