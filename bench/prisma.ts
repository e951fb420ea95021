/**
 * What Prisma itself costs on the hot path: the append's one statement (the very SQL and
 * parameters EventStore.append sends, a named prepared statement) run through Prisma's
 * `$queryRawUnsafe` and through pg directly, on the same pool of the same database,
 * alternating rounds so that both see the same machine. The bench process's own CPU
 * (Node) per statement is the figure: PostgreSQL does the same work either way.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Database } from '../src/persistence/database.ts';
import { appendStatement, EventStore, type AppendInput } from '../src/persistence/event-store.ts';
import { statementName } from '../src/persistence/statements.ts';
import { median, round } from './stats.ts';

export interface PrismaCost {
  concurrency: number;
  statements: number;
  rounds: number;
  prismaCpuMs: number;
  pgCpuMs: number;
  prismaPerSecond: number;
  pgPerSecond: number;
}

export async function prismaCost(db: Database, concurrency: number, perGame: number, rounds = 3): Promise<PrismaCost> {
  const store = new EventStore(db.prisma);
  const via = {
    prisma: (sql: string, values: unknown[]) => db.prisma.$queryRawUnsafe(sql, ...values),
    pg: (sql: string, values: unknown[]) => db.queryPool.query({ name: statementName({ sql }), text: sql, values }),
  };
  const results: Record<'prisma' | 'pg', { cpu: number[]; rate: number[] }> = { prisma: { cpu: [], rate: [] }, pg: { cpu: [], rate: [] } };
  for (let round = 0; round < rounds + 1; round++) {
    for (const kind of round % 2 ? (['pg', 'prisma'] as const) : (['prisma', 'pg'] as const)) {
      const games = await Promise.all(Array.from({ length: concurrency }, () => newGame(store)));
      const cpu = process.cpuUsage();
      const start = process.hrtime.bigint();
      await Promise.all(
        games.map(async (game) => {
          for (let v = 1; v <= perGame; v++) {
            const input: AppendInput = {
              gameId: game.id, expectedVersion: v, seat: 'a', command: { type: 'guess', number: 1 }, idempotencyKey: null,
              events: [{ type: 'Guessed', seat: 'a', data: { type: 'Guessed', number: 1 } }],
              summary: { status: 'ACTIVE', awaiting: ['a'], result: null },
              outbox: [{ kind: 'EVENTS_APPENDED', seat: null }, { kind: 'SEAT_AWAITED', seat: 'a' }],
              base: { ...game, version: v },
            };
            const { sql, values } = appendStatement(input);
            await via[kind](sql, values);
          }
        }),
      );
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      const used = process.cpuUsage(cpu);
      if (round === 0) continue; // the first round of each warms up
      results[kind].cpu.push((used.user + used.system) / 1000 / (concurrency * perGame));
      results[kind].rate.push((concurrency * perGame) / seconds);
    }
  }
  return {
    concurrency, statements: concurrency * perGame, rounds,
    prismaCpuMs: round(median(results.prisma.cpu), 3), pgCpuMs: round(median(results.pg.cpu), 3),
    prismaPerSecond: Math.round(median(results.prisma.rate)), pgPerSecond: Math.round(median(results.pg.rate)),
  };
}

async function newGame(store: EventStore) {
  const id = randomUUID();
  return store.createGame({
    game: { id, type: 'guessing-game', options: {}, players: [{ seat: 'a', name: 'A' }], seedCommitment: 'c', seed: 's', status: 'ACTIVE', awaiting: ['a'], result: null, rules: 'bench' },
    tokens: [{ tokenHash: createHash('sha256').update(id).digest('hex'), seat: 'a', name: 'A' }],
    events: [{ type: 'Setup', seat: null, data: { type: 'Setup' } }],
  });
}
