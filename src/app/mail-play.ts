/**
 * Play by mail (docs/api.md, "Play by mail"): the reply addresses, an inbound message stored
 * (with the job that handles it) before it is acknowledged, and the handling: who it is
 * from, which game and seat its address stands for, its lines applied as submitCommands
 * (all or none, one append, through Commands like every other command), and the answer.
 * The reading and the texts are pure (src/app/mail); the listener and the HTTP route are
 * the api's (src/api/smtp.ts, rest-mail.ts); the task is the workers'.
 *
 * Authentication is two things at once. The reply address's token (per player, game and
 * seat, an HMAC of the service's key, stored only as its sha256) says which seat the mail
 * is for and that its sender once got our mail; the From must also be the player's verified
 * address, so a token leaked with a forwarded mail is not enough by itself. Either alone
 * can be forged or leaked: a From header costs nothing to write, and a reply address
 * travels with every quoted or forwarded copy. DKIM (mailauth can check it) would add that
 * the From's domain really sent the message; it is not required here.
 */
import { createHash, createHmac, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import { legalOrders, orderOf, visibleTo, type Command, type GameRegistry, type MatchState, type Order } from '../domain/kernel/index.ts';
import { isBatch } from './batch.ts';
import type { Commands } from './commands.ts';
import { AppError } from './errors.ts';
import type { ReadContext } from './game-read.ts';
import { answerText, applyOrders, noticeText, readInbound, seatPicture, yourTurnText, type AnswerOutcome, type Envelope, type InboundMail } from './mail/index.ts';
import { gameName } from './mails.ts';
import type { CommandRecord, GameRecord, JobSpec, MailStore, PlayerStore } from './ports.ts';
import type { Reads } from './reads.ts';
import { priorityOf, TASKS } from './tasks.ts';

/** Inbound mail over this is refused (the SMTP listener refuses it before it is stored). */
export const MAX_INBOUND_BYTES = 256 * 1024;

export interface MailPlayOptions {
  /** The domain of reply addresses; null: play by mail is off (no Reply-To, inbound mail ignored). */
  replyDomain: string | null;
  /** The key reply-address tokens are derived from. */
  secretKey: Buffer | null;
  /** Mails of a player admitted in an hour (default 30); more are neither applied nor answered, nor counted. */
  perHour?: number;
}

/** A mail the service sends about a game (queued as the `mail` task's message). */
export interface GameMail {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
  messageId: string;
  inReplyTo?: string;
  references?: string[];
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

export class MailPlay {
  private readonly tokenKey: Buffer | null;

  constructor(
    private readonly store: MailStore,
    private readonly players: PlayerStore,
    private readonly ctx: ReadContext,
    private readonly reads: Reads,
    private readonly commands: Commands,
    private readonly registry: GameRegistry,
    readonly options: MailPlayOptions,
  ) {
    this.tokenKey = options.secretKey && options.replyDomain ? Buffer.from(hkdfSync('sha256', options.secretKey, Buffer.alloc(0), 'mail reply addresses', 32)) : null;
  }

  get enabled(): boolean {
    return this.tokenKey !== null;
  }

  /** The game's name, the subject of every mail about it. */
  subject(game: GameRecord): string {
    return gameName(this.registry.type(game.type)?.name ?? game.type, game);
  }

  /** The reply address of a player's seat in a game (its token's hash stored for the way back). */
  async replyAddress(playerId: string, gameId: string, seat: string): Promise<string> {
    if (!this.tokenKey) throw new Error('play by mail is off');
    // Hex: a mail server may change the case of a local part.
    const token = createHmac('sha256', this.tokenKey).update(`${playerId}:${gameId}:${seat}`).digest('hex').slice(0, 32);
    await this.store.saveReplyAddress(hash(token), { playerId, gameId, seat });
    return `play+${token}@${this.options.replyDomain}`;
  }

  /** A Message-ID of ours: the game, the seat and the version its numbered list is of. */
  private messageId(kind: string, gameId: string, seat: string, version: number): string {
    return `<${kind}.${gameId}.${seat}.${version}.${randomBytes(6).toString('hex')}@${this.options.replyDomain ?? 'wargame-service'}>`;
  }

  /** The version a mail of ours listed its orders at, if `ids` name one for this game and seat. */
  private listedAt(ids: (string | null)[], gameId: string, seat: string): number | null {
    for (const id of ids.reverse()) {
      const m = id && /^<?(?:turn|answer)\.([0-9a-f-]{36})\.([^.]+)\.(\d+)\./.exec(id);
      if (m && m[1] === gameId && m[2] === seat) return Number(m[3]);
    }
    return null;
  }

  /**
   * The your-turn (or deadline-soon) part a mail gets: the position in words, the numbered
   * orders, its Reply-To and Message-ID. Null when play by mail is off. Drawn from the seat's
   * own view at `version`, so nothing hidden from the seat is in it.
   */
  async turnPart(game: GameRecord, playerId: string, seat: string, version: number): Promise<{ text: string; replyTo: string; messageId: string } | null> {
    if (!this.enabled) return null;
    const { state } = await this.ctx.states.of(game, version);
    const picture = seatPicture(this.ctx.module(game.type), state, seat);
    return { text: yourTurnText(picture), replyTo: await this.replyAddress(playerId, game.id, seat), messageId: this.messageId('turn', game.id, seat, version) };
  }

  /**
   * A raw message, from the SMTP listener or the HTTP route: stored with the job that
   * handles it, before either acknowledges it. A Message-ID already stored: `duplicate`.
   */
  async receive(raw: Buffer, envelope: Envelope = {}): Promise<{ id: string; duplicate: boolean }> {
    if (raw.length > MAX_INBOUND_BYTES) throw new AppError('BAD_REQUEST', `A mail has at most ${MAX_INBOUND_BYTES / 1024} KiB`);
    if (raw.length === 0) throw new AppError('BAD_REQUEST', 'An empty message');
    const { messageId } = await readInbound(raw, envelope);
    const clean = { ...(envelope.from !== undefined ? { from: envelope.from } : {}), ...(envelope.to ? { to: envelope.to } : {}) };
    return this.store.receive({ id: randomUUID(), messageId, raw, envelope: clean }, { task: TASKS.mailInbound, maxAttempts: 5, priority: priorityOf(TASKS.mailInbound) });
  }

  /**
   * The `mail_inbound` task: one stored message read, applied or refused, and answered. Once:
   * the mark and the answer's job are one statement (MailStore.handled), and orders an
   * earlier run applied before it stopped are found by the append's idempotency key, so a
   * rerun answers them "Applied" instead of applying or refusing them again.
   */
  async handle(id: string): Promise<string> {
    const record = await this.store.inbound(id);
    if (!record || record.handledAt) return 'already handled';
    const mail = await readInbound(record.raw, record.envelope);
    const decided = await this.decide(mail, id);
    const marked = await this.store.handled(id, decided.playerId, decided.outcome, (decided.mails ?? []).map((message) => this.mailJob(message)));
    return marked ? decided.outcome : 'already handled';
  }

  private async decide(mail: InboundMail, id: string): Promise<Decided> {
    if (mail.ignore) return { playerId: null, outcome: `ignored: ${mail.ignore}` };
    if (!this.enabled) return { playerId: null, outcome: 'ignored: play by mail is off' };
    let address = null;
    for (const to of mail.to) {
      const m = /^play\+([0-9a-f]{32})@(.+)$/.exec(to);
      if (m && m[2] === this.options.replyDomain!.toLowerCase()) address ??= await this.store.replyAddress(hash(m[1]!));
    }
    if (!address) return { playerId: null, outcome: 'ignored: no reply address of ours' };
    const player = await this.players.player(address.playerId);
    if (!player?.email || !player.emailVerified) return { playerId: null, outcome: 'ignored: the player has no verified address' };
    const verified = player.email.toLowerCase();
    // Counted in the store (the database), so the limit holds across workers and processes.
    if (!(await this.store.admit(id, player.id, this.options.perHour ?? 30))) return { playerId: player.id, outcome: 'ignored: rate limited' };
    const game = await this.ctx.store.game(address.gameId);
    if (!game) return { playerId: player.id, outcome: 'ignored: the game is gone' };
    const subject = `Re: ${this.subject(game)}`;
    const thread = { inReplyTo: mail.messageId ?? undefined, references: [...mail.references, ...(mail.messageId ? [mail.messageId] : [])] };
    const notice = (reason: string, outcome: string): Decided => ({
      playerId: player.id,
      outcome,
      mails: [{ to: verified, subject, text: noticeText(this.subject(game), reason), messageId: this.messageId('notice', game.id, address.seat, game.version), ...thread }],
    });
    if (mail.from !== verified) {
      // Told at the verified address, never at the From: a forger learns nothing.
      return notice(`A mail to your reply address for this game came from ${mail.from ?? 'no address'}, not from your verified address. Send your orders from ${player.email}.`, 'refused: forged From');
    }
    // Applied already, by an earlier run of this job that stopped before the mail was marked
    // handled: answered as applied, even if those orders ended the game.
    const earlier = await this.ctx.store.findCommand(game.id, address.seat, `mail:${id}`);
    if (earlier) return this.appliedBefore(earlier, game, player.id, verified, address.seat, subject, thread);
    // The seat first: once handed to the bot it is not theirs, over or not. The log says so
    // (SeatHandedToBot) before the game's record does.
    const held = game.seats.some((s) => s.seat === address.seat && s.kind === 'player' && s.playerId === player.id);
    if (!held || (game.status !== 'OPEN' && (await this.ctx.states.of(game)).state.handedToBot?.includes(address.seat))) {
      return notice(`You no longer hold the seat ${address.seat} in this game: this address takes no more orders.`, 'refused: the seat is no longer theirs');
    }
    if (game.status === 'FINISHED' || game.status === 'ABANDONED') {
      const result = game.result ? ` ${game.result.winners.length ? `Won by ${game.result.winners.join(', ')}` : 'No winner'}: ${game.result.reason}.` : '';
      return notice(`This game is over: it takes no more orders.${result}`, 'refused: the game is over');
    }
    return this.play(mail, id, game, player.id, verified, address.seat, subject, thread);
  }

  private async play(mail: InboundMail, id: string, game: GameRecord, playerId: string, to: string, seat: string, subject: string, thread: { inReplyTo?: string; references: string[] }) {
    const module = this.ctx.module(game.type);
    const key = `mail:${id}`;
    const { state, version } = await this.ctx.states.of(game);
    const at = this.listedAt([mail.inReplyTo, ...mail.references], game.id, seat);
    // A number picks from the list of the mail answered, only if the game has not moved since.
    const listed: Order[] = at === version ? legalOrders(module, state, seat) : [];
    const validate = (c: unknown) => {
      const v = this.registry.validateCommand(game.type, c);
      return v.ok ? { ok: true as const, value: v.value } : { ok: false as const, reason: v.reason };
    };
    const read = applyOrders(module, state, seat, mail.lines, listed, validate, { seed: game.seed });
    let answer: AnswerOutcome;
    let after: MatchState = state;
    let afterVersion = version;
    if (!read.ok) {
      const reason = at !== null && at !== version && /^\d+\.?$/.test(read.line) ? `${read.reason} (the game moved on since the mail you answered: write the order itself)` : read.reason;
      answer = { refused: { index: read.index, line: read.line, reason } };
    } else {
      try {
        const done = await this.commands.executeAll({ kind: 'player', playerId }, game.id, read.commands.map((command) => ({ command })), { seat, expectedVersion: version, idempotencyKey: key });
        answer = { applied: read.orders };
        afterVersion = done.game.version;
        after = (await this.ctx.states.of(await this.reads.record(game.id))).state;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        answer = { refused: { index: (error.extra as { index?: number }).index ?? 0, line: mail.lines.join(' / '), reason: error.message } };
      }
    }
    const picture = seatPicture(module, after, seat);
    const reply: GameMail = { to, subject, text: answerText(picture, answer), replyTo: await this.replyAddress(playerId, game.id, seat), messageId: this.messageId('answer', game.id, seat, afterVersion), ...thread };
    return { playerId, outcome: 'applied' in answer ? `applied ${answer.applied.length}` : `refused: ${answer.refused.reason}`, mails: [reply] };
  }

  /**
   * The answer to orders an earlier run applied (the append committed, the mark did not):
   * the stored commands in words, each from the seat's view of the position before it,
   * then the game as it is now.
   */
  private async appliedBefore(earlier: CommandRecord, game: GameRecord, playerId: string, to: string, seat: string, subject: string, thread: { inReplyTo?: string; references: string[] }): Promise<Decided> {
    const module = this.ctx.module(game.type);
    const commands: Command[] = isBatch(earlier.command) ? earlier.command.commands : [earlier.command as Command];
    const counts: number[] = isBatch(earlier.command) ? earlier.command.counts : [earlier.lastVersion - earlier.firstVersion + 1];
    const applied: Order[] = [];
    let at = earlier.firstVersion - 1;
    for (const [i, command] of commands.entries()) {
      const { state } = await this.ctx.states.of(game, at);
      applied.push(orderOf(module, visibleTo(module, state, seat).view(), seat, command));
      at += counts[i] ?? 0;
    }
    const { state, version } = await this.ctx.states.of(game);
    const reply: GameMail = {
      to, subject, text: answerText(seatPicture(module, state, seat), { applied }),
      replyTo: await this.replyAddress(playerId, game.id, seat), messageId: this.messageId('answer', game.id, seat, version), ...thread,
    };
    return { playerId, outcome: `applied ${applied.length} (by an earlier try, versions ${earlier.firstVersion}-${earlier.lastVersion})`, mails: [reply] };
  }

  /** The `mail` job that sends one of ours. */
  private mailJob(message: GameMail): JobSpec {
    return { task: TASKS.mail, payload: { message }, maxAttempts: 10, priority: priorityOf(TASKS.mail) };
  }
}

/** What handling a mail came to: who it was read as from, the outcome, the mails to send. */
interface Decided {
  playerId: string | null;
  outcome: string;
  mails?: GameMail[];
}
