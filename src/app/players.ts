/**
 * Players: a name (and perhaps an email) playing across games with bearer tokens of their
 * own. A player token acts for every seat its player holds; tokens are stored as hashes,
 * several per player, each named and revocable. The email reaches nobody but its player:
 * seats, views, events and exports carry only the player's id and name.
 */
import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import { hashToken, PLAYER_TOKEN_PREFIX, SPECTATOR, type Actor } from './actors.ts';
import { AppError } from './errors.ts';
import type { GameStore, PlayerRecord, PlayerStore, RevocationListener, WakeUps } from './ports.ts';
import type { ListArgs, Page, Reads } from './reads.ts';
import { TOKEN_CACHE_SIZE, type SeatTokens } from './seat-tokens.ts';
import { Lru } from './states.ts';

/** What a player sees of themselves. */
export interface PlayerOut {
  id: string;
  name: string;
  email: string | null;
  emailVerified: boolean;
  notifyByEmail: boolean;
  /** One mail a day with every game waiting for them, instead of each your-turn mail. */
  emailDigest: boolean;
}

/** The mail that carries an email verification code (sending it is the mailer's job). */
export interface VerificationMail {
  playerId: string;
  to: string;
  subject: string;
  /** Has the line `Code: <code>`. */
  text: string;
}

const CODE_LIFETIME_MS = 24 * 3600_000;
const CODE_ATTEMPTS = 5;
const MAX_TOKENS = 50;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// One @, something on each side, a dot in the domain, no spaces or control characters.
const EMAIL = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+\.[^\s@\p{Cc}]+$/u;

/** A name shown to other players: 1 to 100 characters (spaces around it dropped), no control characters. */
export function validName(name: unknown, what = 'A name'): string {
  if (typeof name !== 'string') throw new AppError('BAD_REQUEST', `${what} is required (1 to 100 characters)`);
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 100) throw new AppError('BAD_REQUEST', `${what} has 1 to 100 characters, not ${trimmed.length}`);
  if (/\p{Cc}/u.test(trimmed)) throw new AppError('BAD_REQUEST', `${what} may not contain control characters (such as line breaks or tabs)`);
  return trimmed;
}

export function validEmail(email: unknown): string {
  if (typeof email !== 'string') throw new AppError('BAD_REQUEST', 'An email address is a string such as "ada@example.org"');
  const trimmed = email.trim();
  if (trimmed.length > 254 || !EMAIL.test(trimmed)) throw new AppError('BAD_REQUEST', `"${trimmed.slice(0, 60)}" is not an email address (like "ada@example.org")`);
  return trimmed;
}

function out(p: PlayerRecord): PlayerOut {
  return { id: p.id, name: p.name, email: p.email, emailVerified: p.emailVerified, notifyByEmail: p.notifyByEmail, emailDigest: p.emailDigest };
}

/** The code as stored: a hash, salted with the player's id (the code itself is only in the mail). */
function codeHash(playerId: string, code: string): string {
  return createHash('sha256').update(`${playerId}:${code}`).digest('hex');
}

function newCode(playerId: string) {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  return { code, stored: { emailCodeHash: codeHash(playerId, code), emailCodeExpires: new Date(Date.now() + CODE_LIFETIME_MS), emailCodeAttempts: 0 } };
}

/** The player wants mail (`digest`: the daily digest too) and has a verified address to get it at. */
export function wantsMail<P extends PlayerRecord>(player: P | null | undefined, digest = false): player is P & { email: string } {
  return Boolean(player?.email && player.emailVerified && player.notifyByEmail && (!digest || player.emailDigest));
}

/** The player `actor` is, or an error for anyone else. */
export async function playerOf(store: PlayerStore, actor: Actor): Promise<PlayerRecord> {
  if (actor.kind !== 'player') throw new AppError('UNAUTHENTICATED', 'This needs a player token (registerPlayer returns one): Authorization: Bearer <player token>');
  const player = await store.player(actor.playerId);
  if (!player) throw new AppError('UNAUTHENTICATED', 'This player no longer exists');
  return player;
}

export interface PlayersOptions {
  /** Registrations a minute per address (counted in the database, for every process together). */
  registrationsPerMinute: number;
  /** Sends the verification mail (the notifications queue it). */
  sendCode: (mail: VerificationMail) => Promise<void> | void;
}

/**
 * How long a player token found in the store is held before the store is asked again (which
 * also moves its lastUsedAt on, at most once a minute). While held, a revocation on any
 * process drops it: the revoking statement's NOTIFY (WakeUps.onTokenRevoked), and each use
 * first waits for WakeUps.heardRevocations, so a token revoked before the request arrived is
 * refused on every process; without a listening connection the store is asked every time.
 */
export const PLAYER_TOKEN_TRUST_MS = 30_000;

export class Players {
  /** Player tokens found in the store, by hash, with when: dropped on revocation (see PLAYER_TOKEN_TRUST_MS). */
  private readonly playerTokens = new Lru<string, { actor: Actor; at: number }>(TOKEN_CACHE_SIZE);
  /** Moves on with every revocation heard: a look-up that started before one is not kept. */
  private revocationsHeard = 0;
  private registered = 0;

  constructor(
    readonly store: PlayerStore,
    private readonly gameStore: GameStore,
    /** Seat tokens met by this process (one look-up per token; none for those it issued). */
    private readonly seatTokens: SeatTokens,
    private readonly reads: Reads,
    /** Where revocations from every process are heard (WakeUps.onTokenRevoked). */
    private readonly revocations: Pick<WakeUps, 'onTokenRevoked' | 'heardRevocations'>,
    private readonly options: PlayersOptions,
  ) {
    revocations.onTokenRevoked((hash) => {
      this.revocationsHeard++;
      if (hash === null) this.playerTokens.clear();
      else this.playerTokens.delete(hash);
    });
  }

  /**
   * The actor a bearer token stands for (null: no token, a spectator): a player token (held
   * for up to PLAYER_TOKEN_TRUST_MS once found, refused on every process as soon as it is
   * revoked on any) or a seat token.
   */
  async authenticate(token: string | null): Promise<Actor> {
    if (token === null) return SPECTATOR;
    const hash = hashToken(token);
    if (token.startsWith(PLAYER_TOKEN_PREFIX) && token.length > 32) {
      const now = Date.now();
      const held = this.playerTokens.get(hash);
      if (held && now - held.at < PLAYER_TOKEN_TRUST_MS) {
        // Every revocation committed before this request arrived, heard: still held, still valid.
        const heard = await this.revocations.heardRevocations().then(() => true, () => false);
        if (heard && this.playerTokens.get(hash) === held) return held.actor;
      }
      const heard = this.revocationsHeard;
      const found = await this.store.playerForToken(hash);
      if (!found) {
        this.playerTokens.delete(hash);
        throw new AppError('UNAUTHENTICATED', 'This token is not known (or was revoked)');
      }
      const actor: Actor = { kind: 'player', playerId: found.playerId };
      // A revocation heard while the store answered may be this token's: not kept, asked again next time.
      if (heard === this.revocationsHeard) this.playerTokens.put(hash, { actor, at: now });
      return actor;
    }
    const known = this.seatTokens.touch(hash);
    if (known) return known;
    const seat = await this.gameStore.seatForToken(hash);
    if (!seat) throw new AppError('UNAUTHENTICATED', 'This token is not known');
    return this.seatTokens.put(hash, seat.gameId, seat.seat);
  }

  /** Calls `listener` with each player token's hash revoked on any process (null: some may have been missed: recheck); returns the unsubscribe. */
  onTokenRevoked(listener: RevocationListener): () => void {
    return this.revocations.onTokenRevoked(listener);
  }

  /** §8: one count per address and minute in the database, so N processes still allow the limit once. */
  private async limit(address: string) {
    const perMinute = this.options.registrationsPerMinute;
    if (++this.registered % 100 === 0) await this.store.forgetRegistrations();
    const { count, resetsAt } = await this.store.countRegistration(address);
    if (count > perMinute) {
      throw new AppError('RATE_LIMITED', `Too many registrations from this address: at most ${perMinute} a minute; retry in ${Math.max(1, Math.ceil((resetsAt.getTime() - Date.now()) / 1000))} s`);
    }
  }

  /** A new player and their first token (shown once). */
  async register(input: { name?: unknown; email?: unknown }, from: { address: string }): Promise<{ player: PlayerOut; token: string }> {
    const name = validName(input?.name, 'A player\'s name');
    const email = input.email === undefined || input.email === null ? null : validEmail(input.email);
    await this.limit(from.address);
    const token = PLAYER_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const id = randomUUID();
    const code = email ? newCode(id) : null;
    const player = await this.store.createPlayer(
      { id, name, email, emailCodeHash: code?.stored.emailCodeHash ?? null, emailCodeExpires: code?.stored.emailCodeExpires ?? null },
      { id: randomUUID(), name: 'registration', tokenHash: hashToken(token) },
    );
    if (email && code) await this.sendCode(player.id, email, code.code);
    return { player: out(player), token };
  }

  private async sendCode(playerId: string, to: string, code: string) {
    await this.options.sendCode({
      playerId, to, subject: 'Your email verification code',
      text: `Enter this code to verify your email address for the wargame service (verifyEmail):\n\nCode: ${code}\n\nIt is valid for 24 hours. If you did not ask for it, ignore this mail.\n`,
    });
  }

  /** The player `actor` is, or an error for anyone else. */
  playerOf(actor: Actor): Promise<PlayerRecord> {
    return playerOf(this.store, actor);
  }

  async me(actor: Actor): Promise<PlayerOut | null> {
    return actor.kind === 'player' ? out(await this.playerOf(actor)) : null;
  }

  /** A new email is unverified until its code comes back; null removes it. */
  async update(actor: Actor, input: { name?: unknown; email?: unknown; notifyByEmail?: unknown; emailDigest?: unknown }): Promise<PlayerOut> {
    const player = await this.playerOf(actor);
    const data: Parameters<PlayerStore['updatePlayer']>[1] = {};
    if (input.name !== undefined && input.name !== null) data.name = validName(input.name, 'A player\'s name');
    if (input.notifyByEmail !== undefined && input.notifyByEmail !== null) {
      if (typeof input.notifyByEmail !== 'boolean') throw new AppError('BAD_REQUEST', 'notifyByEmail is true or false');
      data.notifyByEmail = input.notifyByEmail;
    }
    if (input.emailDigest !== undefined && input.emailDigest !== null) {
      if (typeof input.emailDigest !== 'boolean') throw new AppError('BAD_REQUEST', 'emailDigest is true or false');
      data.emailDigest = input.emailDigest;
    }
    let code: string | null = null;
    if (input.email === null) Object.assign(data, { email: null, emailVerified: false, emailCodeHash: null, emailCodeExpires: null, emailCodeAttempts: 0 });
    else if (input.email !== undefined) {
      const email = validEmail(input.email);
      if (email !== player.email || !player.emailVerified) {
        const fresh = newCode(player.id);
        code = fresh.code;
        Object.assign(data, { email, emailVerified: false, ...fresh.stored });
      }
    }
    const updated = await this.store.updatePlayer(player.id, data);
    if (code && updated.email) await this.sendCode(updated.id, updated.email, code);
    return out(updated);
  }

  async verifyEmail(actor: Actor, code: unknown): Promise<PlayerOut> {
    const player = await this.playerOf(actor);
    if (typeof code !== 'string' || code.trim() === '') throw new AppError('BAD_REQUEST', 'The code is the one in the mail: "Code: <code>"');
    if (!player.email) throw new AppError('BAD_REQUEST', 'You have no email address to verify');
    if (player.emailVerified) return out(player);
    // Compared and counted in one statement: concurrent guesses cannot all read "4 so far".
    const guess = await this.store.guessCode(player.id, codeHash(player.id, code.trim()), CODE_ATTEMPTS);
    if (guess.outcome === 'wrong') {
      throw new AppError('BAD_REQUEST', guess.attempts >= CODE_ATTEMPTS ? 'Wrong code, too many times: set the email again with updatePlayer for a new one' : 'Wrong code');
    }
    const now = await this.store.player(player.id);
    if (!now) throw new AppError('UNAUTHENTICATED', 'This player no longer exists');
    // 'none' after a right guess of a concurrent request: verified all the same.
    if (guess.outcome === 'none' && !now.emailVerified) {
      throw new AppError('BAD_REQUEST', 'No code is pending for this address (it expired or was guessed wrong too often): set the email again with updatePlayer for a new one');
    }
    return out(now);
  }

  async createToken(actor: Actor, name: unknown): Promise<{ id: string; name: string; token: string; createdAt: Date; lastUsedAt: Date | null }> {
    const player = await this.playerOf(actor);
    const tokenName = validName(name, 'A token\'s name');
    if ((await this.store.countTokens(player.id)) >= MAX_TOKENS) throw new AppError('BAD_REQUEST', `A player has at most ${MAX_TOKENS} tokens: revoke one first`);
    const token = PLAYER_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const created = await this.store.createToken({ id: randomUUID(), playerId: player.id, name: tokenName, tokenHash: hashToken(token) });
    return { ...created, token };
  }

  async revokeToken(actor: Actor, id: unknown): Promise<boolean> {
    const player = await this.playerOf(actor);
    if (typeof id !== 'string' || !UUID.test(id)) return false;
    const revoked = await this.store.revokeToken(player.id, id);
    // Refused here at once, without waiting for our own NOTIFY: the player's tokens are asked again.
    this.revocationsHeard++;
    for (const [hash, held] of this.playerTokens) if (held.actor.kind === 'player' && held.actor.playerId === player.id) this.playerTokens.delete(hash);
    return revoked;
  }

  async tokens(playerId: string) {
    return this.store.tokens(playerId);
  }

  /** The player's games, newest first; `myTurn`: only (or none of) those awaiting one of their seats. */
  async games(actor: Actor, args: ListArgs): Promise<Page> {
    if (actor.kind !== 'player') throw new AppError('UNAUTHENTICATED', 'This needs a player token');
    return this.reads.listGames(actor, args);
  }

  myTurnCount(playerId: string): Promise<number> {
    return this.reads.myTurnCount(playerId);
  }
}
