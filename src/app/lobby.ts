/**
 * The lobby: games created with open seats (someone joins them later), seats taken by the
 * calling player, and seats the service plays (bots). A game with an open seat is OPEN:
 * it has no events and accepts no command; its setup runs when the last seat is taken,
 * in the same transaction as that seat. Seats are taken and freed by conditional updates
 * of the game's row, so the database decides between racing joiners on any process.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { BOT_KINDS, isBotKind, start, type GameModule } from '../domain/kernel/index.ts';
import { hashToken, seatsHeld, SPECTATOR, tokenFingerprint, type Actor } from './actors.ts';
import type { ClockInput } from './clock.ts';
import { seatColumns as columns, type Commands } from './commands.ts';
import { AppError } from './errors.ts';
import type { GameRead } from './game-read.ts';
import { outboxFor, summaryOf } from './outbox.ts';
import type { GameRecord, LobbyStore, PlayerRecord, SeatEntry } from './ports.ts';
import { decodeCursor, page, pageSize, type Reads } from './reads.ts';
import { toNewEvent } from './states.ts';
import { validName } from './players.ts';
import type { ReadContext } from './game-read.ts';
import type { SeatTokens } from './seat-tokens.ts';

export interface SeatInput {
  seat: string;
  name?: string | null;
  /** The calling player takes it. */
  me?: boolean | null;
  /** Left for someone to join. */
  open?: boolean | null;
  /** Played by the service. */
  bot?: string | null;
}

export interface LobbyCreateInput {
  type: string;
  options?: unknown;
  seats: SeatInput[];
  visibility?: string | null;
  /** Seconds for each decision (src/app/clock.ts). */
  clock?: ClockInput | null;
}

export interface Created {
  game: GameRead;
  seatTokens: { seat: string; token: string }[];
  /** Joins a PRIVATE game (and a PUBLIC one); only while a seat is open. */
  inviteCode: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RETRIES = 50;
const newToken = () => randomBytes(24).toString('base64url');
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export class Lobby {
  constructor(
    private readonly ctx: ReadContext,
    private readonly commands: Commands,
    private readonly reads: Reads,
    private readonly store: LobbyStore,
    /** The player an actor is (src/app/players.ts). */
    private readonly playerOf: (actor: Actor) => Promise<PlayerRecord>,
    /** The seat tokens this process met: a join's goes in once stored. */
    private readonly seatTokens: SeatTokens,
  ) {}

  private module(type: string): GameModule {
    return this.ctx.module(type);
  }

  private async record(gameId: string): Promise<GameRecord> {
    const game = typeof gameId === 'string' && UUID.test(gameId) ? await this.ctx.store.game(gameId) : null;
    if (!game) throw new AppError('NOT_FOUND', `No game with id "${gameId}"`);
    return game;
  }

  /**
   * createGame: seats named (a seat token each, as always), taken by the caller (`me`), left
   * open, or played by a bot. Without open seats the game is set up at once.
   */
  async create(actor: Actor, input: LobbyCreateInput): Promise<Created> {
    const seats = Array.isArray(input?.seats) ? input.seats : [];
    const plain = seats.every((s) => !s?.me && !s?.open && (s?.bot === undefined || s?.bot === null)) && (input?.visibility ?? null) === null;
    if (plain) {
      const created = await this.commands.create({ ...input, seats: seats.map((s) => ({ seat: s.seat, name: s.name as string })) });
      return { ...created, inviteCode: null };
    }

    const ids = seats.map((s) => s.seat);
    this.commands.checkSeats(input.type, ids);
    if (new Set(ids).size !== ids.length) throw new AppError('BAD_REQUEST', 'Each seat may be taken once');
    const visibility = input.visibility ?? 'PRIVATE';
    if (visibility !== 'PUBLIC' && visibility !== 'PRIVATE') throw new AppError('BAD_REQUEST', 'visibility is PUBLIC or PRIVATE');

    const player = actor.kind === 'player' ? await this.playerOf(actor) : null;
    const entries: SeatEntry[] = [];
    const players: { seat: string; name: string }[] = [];
    const tokens: { seat: string; name: string; token: string }[] = [];
    for (const s of seats) {
      const hasBot = s.bot !== undefined && s.bot !== null;
      if ([Boolean(s.me), Boolean(s.open), hasBot].filter(Boolean).length > 1) throw new AppError('BAD_REQUEST', `Seat ${s.seat}: give one of name, me, open or bot`);
      const hasName = s.name !== undefined && s.name !== null;
      if (s.me) {
        if (!player) throw new AppError('UNAUTHENTICATED', `Seat ${s.seat}: "me" needs a player token (registerPlayer returns one)`);
        if (hasName) throw new AppError('BAD_REQUEST', `Seat ${s.seat}: a seat you take carries your player name; give no name`);
        entries.push({ seat: s.seat, kind: 'player', playerId: player.id });
        players.push({ seat: s.seat, name: player.name });
      } else if (s.open) {
        if (hasName) throw new AppError('BAD_REQUEST', `Seat ${s.seat}: an open seat is named by whoever joins it; give no name`);
        entries.push({ seat: s.seat, kind: 'open' });
        players.push({ seat: s.seat, name: '' });
      } else if (hasBot) {
        if (!isBotKind(s.bot)) throw new AppError('BAD_REQUEST', `Seat ${s.seat}: unknown bot "${String(s.bot)}"; bots: ${BOT_KINDS.join(', ')}`);
        entries.push({ seat: s.seat, kind: 'bot', bot: s.bot });
        players.push({ seat: s.seat, name: hasName ? validName(s.name, `Seat ${s.seat}'s name`) : `${s.bot} bot` });
      } else {
        const name = validName(s.name, `Seat ${s.seat}'s name`);
        const token = newToken();
        entries.push({ seat: s.seat, kind: 'token', token: tokenFingerprint(hashToken(token)) });
        players.push({ seat: s.seat, name });
        tokens.push({ seat: s.seat, name, token });
      }
    }
    const inviteCode = entries.some((e) => e.kind === 'open') ? randomBytes(9).toString('base64url') : null;
    const { game } = await this.commands.open(
      { type: input.type, options: input.options, players, tokens, entries, visibility, inviteCodeHash: inviteCode ? sha256(inviteCode) : null, createdBy: player?.id ?? null, clock: input.clock },
      actor,
    );
    return { game, seatTokens: tokens.map(({ seat, token }) => ({ seat, token })), inviteCode };
  }

  private checkInvite(game: GameRecord, inviteCode: unknown) {
    const given = typeof inviteCode === 'string' && inviteCode !== '' ? inviteCode : null;
    if (given === null) {
      if (game.visibility === 'PUBLIC') return;
      throw new AppError('FORBIDDEN', 'This game is private: join it with its invite code (inviteCode)');
    }
    const a = Buffer.from(sha256(given));
    const b = Buffer.from(game.inviteCodeHash ?? '');
    if (a.length !== b.length || !timingSafeEqual(a, b)) throw new AppError('FORBIDDEN', 'This invite code is not the one of this game');
  }

  private notOpen(game: GameRecord, action: string): never {
    if (game.status === 'ABANDONED') throw new AppError('GAME_OVER', 'The game was cancelled before it started');
    if (action === 'join') throw new AppError('SEAT_TAKEN', 'The game has started: every seat is taken');
    throw new AppError('ILLEGAL_COMMAND', `The game has started: you can no longer ${action} it (resign instead)`, { reason: 'the game has started' });
  }

  /**
   * joinGame: with a player token the player takes the seat; without one `name` is needed
   * and a seat token comes back. No `seat`: the first open one.
   */
  async join(actor: Actor, gameId: string, args: { seat?: string | null; name?: string | null; inviteCode?: string | null }): Promise<{ game: GameRead; seatToken: string | null }> {
    const player = actor.kind === 'player' ? await this.playerOf(actor) : null;
    const name = player ? player.name : validName(args.name, 'Joining without a player token needs a name; the name');
    for (let attempt = 0; attempt < RETRIES; attempt++) {
      const game = await this.record(gameId);
      if (game.status !== 'OPEN') this.notOpen(game, 'join');
      this.checkInvite(game, args.inviteCode);
      let seat = args.seat ?? null;
      if (seat !== null && !game.players.some((p) => p.seat === seat)) {
        throw new AppError('BAD_REQUEST', `This game has no seat "${seat}"; its seats are ${game.players.map((p) => p.seat).join(', ')}`);
      }
      seat ??= game.seats.find((s) => s.kind === 'open')?.seat ?? null;
      if (seat === null || game.seats.find((s) => s.seat === seat)?.kind !== 'open') throw new AppError('SEAT_TAKEN', seat ? `Seat ${seat} is taken` : 'Every seat is taken');
      const token = player ? null : newToken();
      const taken: SeatEntry = player
        ? { seat, kind: 'player', playerId: player.id, joined: true }
        : { seat, kind: 'token', joined: true, token: tokenFingerprint(hashToken(token!)) };
      const seats = game.seats.map((s) => (s.seat === seat ? taken : s));
      const players = game.players.map((p) => (p.seat === seat ? { seat, name } : p));
      const full = !seats.some((s) => s.kind === 'open');
      let setup = null;
      if (full) {
        const started = start(this.module(game.type), { options: game.options, players: players.map((p) => p.seat) }, game.seed);
        setup = { started, outbox: outboxFor(null, started.status, null, { first: 1, last: started.recorded.length }), summary: summaryOf(started.status) };
      }
      const changed = await this.store.changeSeats({
        gameId: game.id, expected: game.seats, ...columns(seats), players,
        ...(token ? { addToken: { tokenHash: hashToken(token), seat, name } } : {}),
        ...(setup ? { start: { events: setup.started.recorded.map(toNewEvent), summary: setup.summary, outbox: setup.outbox,
          jobs: this.commands.plan({ game: { ...game, ...columns(seats), awaiting: [] }, version: setup.started.recorded.length, outbox: setup.outbox, summary: setup.summary, seat: null }) } } : {}),
      });
      if (!changed) continue; // the seats moved on meanwhile: look again
      if (token) this.seatTokens.put(hashToken(token), game.id, seat);
      // Started or not, the watchers of the game are woken (a seat taken appends no event
      // until the last one: seatsChanged reads the seats again).
      await this.commands.committed(changed, 0, setup?.started.state ?? null);
      const as: Actor = player ? actor : { kind: 'seat', gameId: game.id, seat, token: tokenFingerprint(hashToken(token!)) };
      return { game: this.reads.of(changed, as, setup?.started.state), seatToken: token };
    }
    throw new AppError('VERSION_CONFLICT', 'The game is too busy right now; try again', { currentVersion: 0 });
  }

  /** leaveGame: before the start, the caller's seats become open again (their seat token stops working). */
  async leave(actor: Actor, gameId: string): Promise<GameRead> {
    if (actor.kind === 'spectator') throw new AppError('UNAUTHENTICATED', 'Leaving a game needs the token that holds your seat');
    for (let attempt = 0; attempt < RETRIES; attempt++) {
      const game = await this.record(gameId);
      if (game.status !== 'OPEN') this.notOpen(game, 'leave');
      const held = seatsHeld(actor, game);
      if (held.length === 0) throw new AppError('FORBIDDEN', 'You hold no seat in this game');
      const seats = game.seats.map((s): SeatEntry => (held.includes(s.seat) ? { seat: s.seat, kind: 'open' } : s));
      const players = game.players.map((p) => (held.includes(p.seat) ? { seat: p.seat, name: '' } : p));
      const changed = await this.store.changeSeats({
        gameId: game.id, expected: game.seats, ...columns(seats), players,
        removeTokensFor: game.seats.filter((s) => held.includes(s.seat) && s.kind === 'token').map((s) => s.seat),
      });
      if (changed) {
        await this.commands.committed(changed, 0, null); // wakes seatsChanged's watchers
        return this.reads.of(changed, SPECTATOR);
      }
    }
    throw new AppError('VERSION_CONFLICT', 'The game is too busy right now; try again', { currentVersion: 0 });
  }

  /**
   * cancelGame: the creator ends an OPEN game before it starts (ABANDONED). A game created
   * without a player token is cancelled by a seat token it returned.
   */
  async cancel(actor: Actor, gameId: string): Promise<GameRead> {
    const game = await this.record(gameId);
    if (game.status === 'ABANDONED') return this.reads.of(game, actor);
    if (game.status !== 'OPEN') this.notOpen(game, 'cancel');
    const creator = game.createdBy
      ? actor.kind === 'player' && actor.playerId === game.createdBy
      : actor.kind === 'seat' && actor.gameId === game.id && game.seats.some((s) => s.seat === actor.seat && s.kind === 'token' && !s.joined);
    if (!creator) {
      if (actor.kind === 'spectator') throw new AppError('UNAUTHENTICATED', 'Only the game\'s creator may cancel it');
      throw new AppError('FORBIDDEN', 'Only the game\'s creator may cancel it');
    }
    const cancelled = await this.store.cancel(game.id);
    if (!cancelled) {
      const now = await this.record(gameId);
      if (now.status === 'ABANDONED') return this.reads.of(now, actor);
      this.notOpen(now, 'cancel');
    }
    await this.commands.committed(cancelled, 0, null);
    return this.reads.of(cancelled, actor);
  }

  /** The bot kinds a game type offers (every type: the kinds the kernel knows). */
  botKinds(_type: string): string[] {
    return [...BOT_KINDS];
  }

  /** The game an invite link names (/join/<code>): found by its code, while a seat is open. */
  async invitation(actor: Actor, code: unknown): Promise<GameRead> {
    const game = typeof code === 'string' && code.length > 0 && code.length <= 100 ? await this.store.byInviteCode(sha256(code)) : null;
    if (!game) throw new AppError('NOT_FOUND', 'No game waiting for players has this invite code');
    return this.reads.of(game, actor);
  }

  /** Public games with an open seat, oldest first. */
  async openGames(actor: Actor, args: { type?: string | null; first?: number | null; after?: string | null }) {
    const first = pageSize(args.first);
    return page(this.ctx, await this.store.openGames(args.type ?? undefined, first + 1, args.after ? decodeCursor(args.after) : undefined), first, actor);
  }
}
