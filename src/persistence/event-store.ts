/**
 * The event store: one stream per game. Appends name the version they expect; the
 * database tells racing writers apart (a conditional update of the game's version and
 * the (game_id, version) key on events), never an in-process lock.
 */
import { Prisma, type PrismaClient } from '../generated/prisma/client.ts';

export interface StoredEvent {
  version: number;
  type: string;
  seat: string | null;
  data: Record<string, unknown>;
  rolls: unknown[] | null;
  commandId: string | null;
  at: Date;
}

export interface NewEvent {
  type: string;
  seat: string | null;
  data: object;
  rolls?: unknown[] | null;
}

export interface GameRecord {
  id: string;
  type: string;
  options: unknown;
  players: { seat: string; name: string }[];
  seedCommitment: string;
  seed: string;
  status: string;
  version: number;
  awaiting: string[];
  result: { winners: string[]; reason: string } | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface GameSummary {
  status: string;
  awaiting: string[];
  result: { winners: string[]; reason: string } | null;
}

export interface CommandRecord {
  id: string;
  seat: string;
  command: Record<string, unknown>;
  idempotencyKey: string | null;
  firstVersion: number;
  lastVersion: number;
}

export type AppendOutcome =
  | { ok: true; firstVersion: number; lastVersion: number; commandId: string; game: GameRecord; events: StoredEvent[] }
  | { ok: false; conflict: 'VERSION'; currentVersion: number }
  | { ok: false; conflict: 'IDEMPOTENCY'; existing: CommandRecord };

/** The channel every process LISTENs on; payloads carry ids, never rows (8000-byte limit). */
export const EVENTS_CHANNEL = 'game_events';

function uniqueConstraint(error: unknown): string | null {
  if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
    // Through the pg adapter meta.target is empty; the name is in the driver error (STACK-NOTES).
    // It names an index ({ index }) or the columns ({ fields }).
    const meta = error.meta as { driverAdapterError?: { cause?: { constraint?: { index?: string; fields?: string[] } | string } }; target?: unknown } | undefined;
    const c = meta?.driverAdapterError?.cause?.constraint;
    if (typeof c === 'string') return c;
    return c?.index ?? c?.fields?.join(',') ?? String(meta?.target ?? 'unknown');
  }
  return null;
}

function toGame(row: {
  id: string; type: string; options: unknown; players: unknown; seedCommitment: string; seed: string; status: string;
  version: number; awaiting: string[]; result: unknown; createdAt: Date; updatedAt: Date;
}): GameRecord {
  return { ...row, players: row.players as GameRecord['players'], result: (row.result ?? null) as GameRecord['result'] };
}

function toCommand(row: { id: bigint; seat: string; command: unknown; idempotencyKey: string | null; firstVersion: number; lastVersion: number }): CommandRecord {
  return { ...row, id: row.id.toString(), command: row.command as Record<string, unknown> };
}

const json = (v: unknown) => v as Prisma.InputJsonValue;

export class EventStore {
  constructor(private readonly prisma: PrismaClient) {}

  /** Creates the game with its seat tokens (hashes) and setup events, all or nothing. */
  async createGame(input: {
    game: Omit<GameRecord, 'createdAt' | 'updatedAt' | 'version'>;
    tokens: { tokenHash: string; seat: string; name: string }[];
    events: NewEvent[];
  }): Promise<GameRecord> {
    const { game, tokens, events } = input;
    const row = await this.prisma.$transaction(async (tx) => {
      const created = await tx.game.create({
        data: {
          id: game.id, type: game.type, options: json(game.options), players: json(game.players), seedCommitment: game.seedCommitment,
          seed: game.seed, status: game.status, awaiting: game.awaiting, result: game.result ? json(game.result) : Prisma.DbNull,
          version: events.length,
        },
      });
      await tx.seatToken.createMany({ data: tokens.map((t) => ({ ...t, gameId: game.id })) });
      await tx.gameEvent.createMany({
        data: events.map((e, i) => ({ gameId: game.id, version: i + 1, type: e.type, seat: e.seat, data: json(e.data), rolls: e.rolls ? json(e.rolls) : Prisma.DbNull })),
      });
      await tx.$executeRaw`SELECT pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify({ gameId: game.id, version: events.length })})`;
      return created;
    });
    return toGame(row);
  }

  /**
   * Appends a command's events at `expectedVersion + 1...`, in one transaction with the
   * command record and the game's new summary. Nothing is stored unless all of it is.
   */
  async append(input: {
    gameId: string;
    expectedVersion: number;
    seat: string;
    command: object;
    idempotencyKey: string | null;
    events: NewEvent[];
    summary: GameSummary;
  }): Promise<AppendOutcome> {
    const { gameId, expectedVersion, events, summary } = input;
    const lastVersion = expectedVersion + events.length;
    const at = new Date();
    try {
      return await this.prisma.$transaction(async (tx) => {
        // Only the writer that read the current version moves it on; a racing writer finds
        // no row at its expected version (the row lock makes it wait for the winner first).
        const updated = await tx.game
          .update({
            where: { id: gameId, version: expectedVersion },
            data: {
              version: lastVersion, status: summary.status, awaiting: summary.awaiting,
              result: summary.result ? json(summary.result) : Prisma.DbNull, updatedAt: at,
            },
          })
          .catch(async (error: unknown) => {
            if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2025')) throw error;
            const current = await tx.game.findUnique({ where: { id: gameId }, select: { version: true } });
            throw new VersionConflict(current?.version ?? expectedVersion);
          });
        const command = await tx.commandRecord.create({
          data: { gameId, seat: input.seat, command: json(input.command), idempotencyKey: input.idempotencyKey, firstVersion: expectedVersion + 1, lastVersion },
        });
        const rows = events.map((e, i) => ({
          gameId, version: expectedVersion + 1 + i, type: e.type, seat: e.seat, data: json(e.data),
          rolls: e.rolls ? json(e.rolls) : Prisma.DbNull, commandId: command.id, at,
        }));
        await tx.gameEvent.createMany({ data: rows });
        await tx.$executeRaw`SELECT pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify({ gameId, version: lastVersion })})`;
        return {
          ok: true as const, firstVersion: expectedVersion + 1, lastVersion, commandId: command.id.toString(), game: toGame(updated),
          events: events.map((e, i) => ({
            version: expectedVersion + 1 + i, type: e.type, seat: e.seat, data: e.data as Record<string, unknown>,
            rolls: e.rolls ?? null, commandId: command.id.toString(), at,
          })),
        };
      });
    } catch (error) {
      if (error instanceof VersionConflict) return { ok: false, conflict: 'VERSION', currentVersion: error.currentVersion };
      const constraint = uniqueConstraint(error);
      if (constraint === 'commands_idempotency' && input.idempotencyKey) {
        const existing = await this.findCommand(gameId, input.seat, input.idempotencyKey);
        if (existing) return { ok: false, conflict: 'IDEMPOTENCY', existing };
      }
      if (constraint) {
        const current = await this.prisma.game.findUnique({ where: { id: gameId }, select: { version: true } });
        return { ok: false, conflict: 'VERSION', currentVersion: current?.version ?? expectedVersion };
      }
      throw error;
    }
  }

  async game(id: string): Promise<GameRecord | null> {
    const row = await this.prisma.game.findUnique({ where: { id } });
    return row ? toGame(row) : null;
  }

  /** Events after `after`, up to `until` (inclusive), at most `limit`. */
  async events(gameId: string, after = 0, until?: number, limit?: number): Promise<StoredEvent[]> {
    const rows = await this.prisma.gameEvent.findMany({
      where: { gameId, version: { gt: after, ...(until !== undefined ? { lte: until } : {}) } },
      orderBy: { version: 'asc' },
      ...(limit !== undefined ? { take: limit } : {}),
    });
    return rows.map((r) => ({
      version: r.version, type: r.type, seat: r.seat, data: r.data as Record<string, unknown>,
      rolls: (r.rolls ?? null) as unknown[] | null, commandId: r.commandId?.toString() ?? null, at: r.at,
    }));
  }

  async findCommand(gameId: string, seat: string, idempotencyKey: string): Promise<CommandRecord | null> {
    const row = await this.prisma.commandRecord.findUnique({ where: { gameId_seat_idempotencyKey: { gameId, seat, idempotencyKey } } });
    return row ? toCommand(row) : null;
  }

  async commands(gameId: string): Promise<CommandRecord[]> {
    const rows = await this.prisma.commandRecord.findMany({ where: { gameId }, orderBy: { firstVersion: 'asc' } });
    return rows.map(toCommand);
  }

  async seatForToken(tokenHash: string): Promise<{ gameId: string; seat: string } | null> {
    return this.prisma.seatToken.findUnique({ where: { tokenHash }, select: { gameId: true, seat: true } });
  }

  /** `rules` names the rules code that folded the state (see GameService). */
  async saveSnapshot(gameId: string, version: number, state: unknown, rules = ''): Promise<void> {
    await this.prisma.snapshot.upsert({
      where: { gameId_version: { gameId, version } },
      create: { gameId, version, state: json(state), rules },
      update: { state: json(state), rules },
    });
  }

  /** The latest snapshot at or before `version` folded by the given rules. */
  async snapshot(gameId: string, version?: number, rules = ''): Promise<{ version: number; state: unknown } | null> {
    return this.prisma.snapshot.findFirst({
      where: { gameId, rules, ...(version !== undefined ? { version: { lte: version } } : {}) },
      orderBy: { version: 'desc' },
      select: { version: true, state: true },
    });
  }

  /** Games, newest first, keyset-paginated by (createdAt, id). */
  async listGames(filter: { type?: string; status?: string; ids?: string[] }, first: number, after?: { createdAt: Date; id: string }): Promise<GameRecord[]> {
    const rows = await this.prisma.game.findMany({
      where: {
        ...(filter.type ? { type: filter.type } : {}),
        ...(filter.status ? { status: filter.status } : {}),
        ...(filter.ids ? { id: { in: filter.ids } } : {}),
        ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: first,
    });
    return rows.map(toGame);
  }
}

class VersionConflict extends Error {
  constructor(readonly currentVersion: number) {
    super('version conflict');
  }
}
