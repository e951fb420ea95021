/**
 * Reads: a game as one actor sees it, listings a page at a time (newest first, keyset
 * cursors), a subscription's feed, and the export. Nothing here writes.
 */
import { visibleTo, type MatchState, type Recorded } from '../domain/kernel/index.ts';
import { seatIn, type Actor } from './actors.ts';
import { isBatch } from './batch.ts';
import { AppError } from './errors.ts';
import { ChangeFeed, EventFeed, FEED_PAGE } from './feed.ts';
import { GameRead, type ReadContext } from './game-read.ts';
import { readableMessages } from './messages.ts';
import type { Away, Cursor, GameRecord, GameRevisions, LobbyStore, MessageStore, WakeUps } from './ports.ts';
import type { ExportDocument } from './verify.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A page of a listing. */
export interface Page {
  nodes: GameRead[];
  hasNextPage: boolean;
  endCursor: string | null;
}

/** An opaque cursor: the position of a game in the newest-first listing. */
export function encodeCursor(g: { createdAt: Date; id: string }): string {
  return Buffer.from(JSON.stringify([g.createdAt.toISOString(), g.id])).toString('base64url');
}

export function decodeCursor(cursor: string): Cursor {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as [string, string];
    const createdAt = new Date(at);
    if (Number.isNaN(createdAt.getTime()) || createdAt.getUTCFullYear() < 2000 || typeof id !== 'string' || !UUID.test(id)) throw new Error();
    return { createdAt, id };
  } catch {
    throw new AppError('BAD_REQUEST', '"after" is not a cursor this API returned');
  }
}

/** "first" of a listing: from 1 to 100 (default 20). */
export function pageSize(first: number | null | undefined): number {
  const n = first ?? 20;
  if (!Number.isInteger(n) || n < 1 || n > 100) throw new AppError('BAD_REQUEST', '"first" must be from 1 to 100');
  return n;
}

export function page(ctx: ReadContext, rows: GameRecord[], first: number, actor: Actor): Page {
  const nodes = rows.slice(0, first).map((r) => new GameRead(ctx, r, actor));
  return { nodes, hasNextPage: rows.length > first, endCursor: nodes.length ? encodeCursor(nodes[nodes.length - 1]!) : null };
}

export interface ListArgs {
  type?: string;
  status?: string;
  myTurn?: boolean | null;
  first?: number;
  after?: string | null;
}

export class Reads {
  constructor(
    private readonly ctx: ReadContext,
    private readonly lobby: LobbyStore,
    private readonly wakeUps: WakeUps,
    /** For the export's messages: only those the reader may read. */
    private readonly messages: MessageStore,
    /** The rows' revisions, asked by reads of the games this process holds. */
    private readonly revisions: GameRevisions,
  ) {}

  /**
   * The game's record, or NOT_FOUND. Always the stored row as it is now (another process
   * may have written it): when this process holds the game with a whole row read before,
   * only the row's revision is asked (GameRevisions: the reads of one turn of the event loop
   * share one statement), and the row is read only when it is another.
   */
  async record(id: string): Promise<GameRecord> {
    return (await this.now(id)).record;
  }

  /** The record as `record` reads it, with the absences of its seat holders read in the same round trip (Away). */
  private async now(id: string): Promise<{ record: GameRecord; away: Away }> {
    if (typeof id !== 'string' || !UUID.test(id)) throw new AppError('NOT_FOUND', `No game with id "${id}"`);
    const held = this.ctx.states.held(id)?.record;
    if (held?.revision !== undefined) {
      const now = await this.revisions.revision(id);
      if (now?.revision === held.revision) return { record: held, away: now.away };
    }
    const read = await this.ctx.store.gameNow(id);
    if (!read) throw new AppError('NOT_FOUND', `No game with id "${id}"`);
    this.ctx.states.recordRead(read.game);
    return { record: read.game, away: read.away };
  }

  /** A game as `actor` sees it. */
  async read(gameId: string, actor: Actor): Promise<GameRead> {
    const { record, away } = await this.now(gameId);
    return new GameRead(this.ctx, record, actor, undefined, away);
  }

  /** A record already read, as `actor` sees it. */
  of(record: GameRecord, actor: Actor, state?: MatchState): GameRead {
    return new GameRead(this.ctx, record, actor, state);
  }

  /**
   * Games, newest first, a page at a time: with a seat token only that token's game, with a
   * player token that player's games, without a token the PUBLIC ones (a PRIVATE game is
   * listed only to its players; whoever has its id still reads it).
   */
  async listGames(actor: Actor, args: ListArgs): Promise<Page> {
    const first = pageSize(args.first);
    const after = args.after ? decodeCursor(args.after) : undefined;
    if (actor.kind === 'player') {
      return page(this.ctx, await this.lobby.playerGames(actor.playerId, { type: args.type, status: args.status, myTurn: args.myTurn ?? undefined }, first + 1, after), first, actor);
    }
    const ids = actor.kind === 'seat' || actor.kind === 'bot' ? { ids: [actor.gameId] } : { visibility: 'PUBLIC' };
    return page(this.ctx, await (this.ctx.store.lagTolerant ?? this.ctx.store).listGames({ type: args.type, status: args.status, ...ids }, first + 1, after), first, actor);
  }

  /** How many of the player's games await one of their seats. */
  myTurnCount(playerId: string): Promise<number> {
    return this.lobby.myTurnCount(playerId);
  }

  /**
   * A subscription's stream: every stored event after `after` as `actor` may see it, then
   * live ones, each exactly once and in order.
   */
  async feed(gameId: string, actor: Actor, after?: number | null): Promise<EventFeed> {
    const game = await this.record(gameId);
    const from = after ?? game.version;
    if (!Number.isInteger(from) || from < 0) throw new AppError('BAD_REQUEST', 'afterVersion must be a whole number');
    return new EventFeed(game.id, from, this.wakeUps, async (last) => (await this.read(game.id, actor)).events(last, FEED_PAGE));
  }

  /**
   * seatsChanged: while the game waits for players, the game as `actor` sees it now, then
   * again each time its seats change (a join, a leave) and once more when it starts or is
   * cancelled, which ends the stream. A game already past OPEN gives itself once.
   */
  async seatFeed(gameId: string, actor: Actor): Promise<ChangeFeed<GameRead>> {
    const game = await this.record(gameId);
    return new ChangeFeed(game.id, this.wakeUps, async () => {
      const now = await this.record(game.id);
      return { value: this.of(now, actor), key: JSON.stringify([now.status, now.version, now.seats, now.players]), last: now.status !== 'OPEN' };
    });
  }

  async export(gameId: string, actor: Actor): Promise<ExportDocument> {
    const game = await this.record(gameId);
    // Up to the version read, like a game's log (a later commit belongs with its later status).
    const stored = await (this.ctx.store.lagTolerant ?? this.ctx.store).events(game.id, 0, game.version);
    const { state } = await this.ctx.states.of(game);
    const visible = visibleTo(this.ctx.module(game.type), state, seatIn(actor, game));
    return {
      format: 'wargame-service/export@1',
      game: {
        id: game.id, type: game.type, options: game.options, players: game.players.map((p) => ({ ...p, bot: game.seats.find((s) => s.seat === p.seat && s.kind === 'bot')?.bot ?? null })), status: game.status, version: game.version,
        result: game.result, seedCommitment: game.seedCommitment, seed: visible.seed ? game.seed : null, rules: game.rules,
        createdAt: game.createdAt.toISOString(),
      },
      events: stored.map((e) => ({
        version: e.version, type: e.type, seat: e.seat, data: visible.event(e.data as Recorded['event']) as Record<string, unknown>,
        at: e.at.toISOString(), rolls: visible.rolls ? e.rolls : null,
      })),
      commands: visible.commands
        ? (await this.ctx.store.commands(game.id)).flatMap((c) => {
            if (!isBatch(c.command)) return [{ seat: c.seat, command: c.command, firstVersion: c.firstVersion, lastVersion: c.lastVersion }];
            // submitCommands stored several in one record: listed one by one, as verify replays them.
            let first = c.firstVersion;
            const counts = c.command.counts;
            return c.command.commands.map((command, i) => {
              const one = { seat: c.seat, command: command as Record<string, unknown>, firstVersion: first, lastVersion: first + counts[i]! - 1 };
              first += counts[i]!;
              return one;
            });
          })
        : null,
      messages: await readableMessages(this.messages, actor, game),
    };
  }
}
