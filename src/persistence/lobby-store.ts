/**
 * The lobby's storage: who holds each seat lives on the game's row, so taking or freeing a
 * seat is one conditional UPDATE of that row against the seats it was decided on. Two
 * joiners racing for the last seat: the database lets one UPDATE through (the other waits
 * for the row lock, then finds the seats changed and updates nothing). Filling the last
 * seat writes the setup events in the same transaction.
 */
import { Prisma, type PrismaClient } from '../generated/prisma/client.ts';
import type { Cursor, GameFilter, GameRecord, LobbyStore as LobbyPort, SeatChange } from '../app/ports.ts';
import { fromRow, type GameRow } from './event-store.ts';
import { jobJson, jobsSql } from './jobs.ts';

export type { GameFilter, SeatChange } from '../app/ports.ts';

const json = (v: unknown) => JSON.stringify(v);

/** The seats handed to the bot, each replaced by a bot entry naming the player who held it. */
const HAND_TO_BOT_SQL = `
UPDATE games SET
  seats = COALESCE((SELECT jsonb_agg(s) FROM jsonb_array_elements(seats) s WHERE NOT (s->>'seat' = ANY($2::text[]))), '[]'::jsonb)
    || (SELECT jsonb_agg(jsonb_strip_nulls(jsonb_build_object('seat', x, 'kind', 'bot', 'bot', $3::text,
          'handedFrom', (SELECT s->>'playerId' FROM jsonb_array_elements(seats) s WHERE s->>'seat' = x AND s->>'kind' = 'player'))))
        FROM unnest($2::text[]) x),
  bots = ARRAY(SELECT DISTINCT b FROM unnest(bots || $2::text[]) b ORDER BY b),
  updated_at = now()
WHERE id = $1::uuid AND version > 0 AND NOT (bots @> $2::text[])
RETURNING *`;

export class LobbyStore implements LobbyPort {
  constructor(private readonly prisma: PrismaClient) {}

  async handToBot(gameId: string, seats: string[], bot: string): Promise<GameRecord | null> {
    const rows = await this.prisma.$queryRawUnsafe<GameRow[]>(HAND_TO_BOT_SQL, gameId, seats, bot);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /**
   * Applies the change unless the game's seats or status moved on meanwhile (then null).
   * Only ever at version 0: the append relies on a started game's row changing only there.
   */
  async changeSeats(change: SeatChange): Promise<GameRecord | null> {
    return this.prisma.$transaction(async (tx) => {
      const start = change.start;
      const rows = await tx.$queryRawUnsafe<GameRow[]>(
        `UPDATE games SET seats = $3::jsonb, players = $4::jsonb, player_ids = $5::uuid[], bots = $6::text[], updated_at = now()
           ${start ? `, status = $7, version = $8::int, awaiting = $9::text[], result = $10::jsonb, invite_code_hash = NULL` : ''}
         WHERE id = $1::uuid AND status = 'OPEN' AND version = 0 AND seats = $2::jsonb
         RETURNING *`,
        change.gameId, json(change.expected), json(change.seats), json(change.players), change.playerIds, change.bots,
        ...(start ? [start.summary.status, start.events.length, start.summary.awaiting, start.summary.result ? json(start.summary.result) : null] : []),
      );
      const row = rows[0];
      if (!row) return null;
      if (change.removeTokensFor?.length) await tx.seatToken.deleteMany({ where: { gameId: change.gameId, seat: { in: change.removeTokensFor } } });
      if (change.addToken) await tx.seatToken.create({ data: { ...change.addToken, gameId: change.gameId } });
      if (start) {
        await tx.gameEvent.createMany({
          data: start.events.map((e, i) => ({
            gameId: change.gameId, version: i + 1, type: e.type, seat: e.seat, data: e.data as Prisma.InputJsonValue,
            rolls: e.rolls ? (e.rolls as Prisma.InputJsonValue) : Prisma.DbNull,
          })),
        });
        await tx.outbox.createMany({
          data: start.outbox.map((o) => ({ gameId: change.gameId, version: start.events.length, kind: o.kind, seat: o.seat, data: (o.data ?? {}) as Prisma.InputJsonValue })),
        });
        if (start.jobs?.length) {
          await tx.$queryRawUnsafe(
            `WITH g AS (SELECT $2::uuid AS id, $3::uuid[] AS player_ids), j AS (${jobsSql('$1', 'g')}) SELECT count(*)::int AS n FROM j`,
            json(start.jobs.map(jobJson)), change.gameId, change.playerIds,
          );
        }
      }
      return fromRow(row);
    });
  }

  /** OPEN → ABANDONED; null when the game is no longer OPEN. */
  async cancel(gameId: string): Promise<GameRecord | null> {
    const rows = await this.prisma.$queryRawUnsafe<GameRow[]>(
      `UPDATE games SET status = 'ABANDONED', invite_code_hash = NULL, updated_at = now() WHERE id = $1::uuid AND status = 'OPEN' RETURNING *`,
      gameId,
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** Public games with an open seat, oldest first, keyset-paginated by (createdAt, id). */
  async openGames(type: string | undefined, first: number, after?: Cursor): Promise<GameRecord[]> {
    const rows = await this.prisma.$queryRawUnsafe<GameRow[]>(
      `SELECT * FROM games WHERE status = 'OPEN' AND visibility = 'PUBLIC' AND ($1::text IS NULL OR type = $1)
         AND ($2::timestamptz IS NULL OR (created_at, id) > ($2::timestamptz, $3::uuid))
       ORDER BY created_at, id LIMIT $4::int`,
      type ?? null, after?.createdAt ?? null, after?.id ?? null, first,
    );
    return rows.map(fromRow);
  }

  /** The games a player holds a seat in, newest first; `myTurn`: those awaiting one of their seats. */
  async playerGames(playerId: string, filter: GameFilter, first: number, after?: Cursor): Promise<GameRecord[]> {
    const rows = await this.prisma.$queryRawUnsafe<GameRow[]>(
      `SELECT * FROM games WHERE player_ids @> ARRAY[$1::uuid] AND ($2::text IS NULL OR type = $2) AND ($3::text IS NULL OR status = $3)
         AND ($4::boolean IS NULL OR $4 = ${MY_TURN})
         AND ($5::timestamptz IS NULL OR (created_at, id) < ($5::timestamptz, $6::uuid))
       ORDER BY created_at DESC, id DESC LIMIT $7::int`,
      playerId, filter.type ?? null, filter.status ?? null, filter.myTurn ?? null, after?.createdAt ?? null, after?.id ?? null, first,
    );
    return rows.map(fromRow);
  }

  /** How many of the player's games await one of their seats. */
  async myTurnCount(playerId: string): Promise<number> {
    const rows = await this.prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM games WHERE player_ids @> ARRAY[$1::uuid] AND ${MY_TURN}`, playerId);
    return rows[0]?.n ?? 0;
  }

  /** The open game an invite code (its hash) belongs to. */
  async byInviteCode(codeHash: string): Promise<GameRecord | null> {
    const rows = await this.prisma.$queryRawUnsafe<GameRow[]>(`SELECT * FROM games WHERE invite_code_hash = $1 AND status = 'OPEN'`, codeHash);
    return rows[0] ? fromRow(rows[0]) : null;
  }
}

/** The game awaits a seat the player ($1) holds. */
const MY_TURN = `EXISTS (SELECT 1 FROM jsonb_array_elements(seats) s WHERE s->>'playerId' = $1::text AND s->>'seat' = ANY(awaiting))`;
