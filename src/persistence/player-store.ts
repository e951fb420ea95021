/**
 * Players and their tokens. Tokens are stored only as sha256 hashes and looked up on
 * every request (no cache), so a revoked token is refused at once by every process.
 */
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { CodeGuess, PlayerRecord, PlayerStore as PlayerPort, PlayerTokenRecord } from '../app/ports.ts';

export type { PlayerRecord, PlayerTokenRecord } from '../app/ports.ts';

/** The channel a revoked token's hash is announced on (every process ends its subscriptions). */
export const TOKENS_REVOKED_CHANNEL = 'wargame_tokens_revoked';

const TOKEN_FIELDS = { id: true, playerId: true, name: true, createdAt: true, lastUsedAt: true } as const;

export class PlayerStore implements PlayerPort {
  constructor(private readonly prisma: PrismaClient) {}

  /** The player and their first token, together or not at all. */
  async createPlayer(player: { id: string; name: string; email: string | null; emailCodeHash: string | null; emailCodeExpires: Date | null }, token: { id: string; name: string; tokenHash: string }): Promise<PlayerRecord> {
    return this.prisma.$transaction(async (tx) => {
      const created = await tx.player.create({ data: player });
      await tx.playerToken.create({ data: { ...token, playerId: player.id } });
      return created;
    });
  }

  async player(id: string): Promise<PlayerRecord | null> {
    return this.prisma.player.findUnique({ where: { id } });
  }

  async players(ids: string[]): Promise<PlayerRecord[]> {
    return ids.length ? this.prisma.player.findMany({ where: { id: { in: ids } } }) : [];
  }

  async updatePlayer(id: string, data: Partial<Omit<PlayerRecord, 'id' | 'createdAt' | 'updatedAt'>>): Promise<PlayerRecord> {
    return this.prisma.player.update({ where: { id }, data: { ...data, updatedAt: new Date() } });
  }

  /**
   * One guess of the email code, compared and counted in one statement: the row's lock
   * orders concurrent guesses, and each sees the count the one before it left, so at most
   * `max` guesses are ever compared (a right one verifies and forgets the code, the
   * `max`th wrong one forgets it too). 'none': no code was pending (any more).
   */
  async guessCode(id: string, hash: string, max: number): Promise<CodeGuess> {
    const rows = await this.prisma.$queryRawUnsafe<{ verified: boolean; attempts: number }[]>(
      `UPDATE players SET
         email_verified = (email_code_hash = $2),
         email_code_attempts = CASE WHEN email_code_hash = $2 THEN 0 ELSE email_code_attempts + 1 END,
         email_code_hash = CASE WHEN email_code_hash = $2 OR email_code_attempts + 1 >= $3 THEN NULL ELSE email_code_hash END,
         email_code_expires = CASE WHEN email_code_hash = $2 OR email_code_attempts + 1 >= $3 THEN NULL ELSE email_code_expires END,
         updated_at = now()
       WHERE id = $1::uuid AND NOT email_verified AND email_code_hash IS NOT NULL
         AND email_code_expires > now() AND email_code_attempts < $3
       RETURNING email_verified AS verified, email_code_attempts AS attempts`,
      id, hash, max,
    );
    const row = rows[0];
    if (!row) return { outcome: 'none' };
    return row.verified ? { outcome: 'verified' } : { outcome: 'wrong', attempts: row.attempts };
  }

  /**
   * Counts a registration from `address` in the current minute (one statement, so every
   * process shares the count); the count so far and when its minute ends.
   */
  async countRegistration(address: string): Promise<{ count: number; resetsAt: Date }> {
    const rows = await this.prisma.$queryRawUnsafe<{ count: number; resets_at: Date }[]>(
      `INSERT INTO registration_limits (address, window_start, count) VALUES ($1, now(), 1)
       ON CONFLICT (address) DO UPDATE SET
         count = CASE WHEN registration_limits.window_start <= now() - interval '1 minute' THEN 1 ELSE registration_limits.count + 1 END,
         window_start = CASE WHEN registration_limits.window_start <= now() - interval '1 minute' THEN now() ELSE registration_limits.window_start END
       RETURNING count, window_start + interval '1 minute' AS resets_at`,
      address,
    );
    return { count: rows[0]!.count, resetsAt: rows[0]!.resets_at };
  }

  /** Forgets the counts of minutes long past (the table keeps one row per recent address). */
  async forgetRegistrations(): Promise<void> {
    await this.prisma.$executeRawUnsafe(`DELETE FROM registration_limits WHERE window_start < now() - interval '10 minutes'`);
  }

  /**
   * Turns the player's mail off if `version` is their unsubscribe links' current one, and
   * moves it on (so the link works once); null when it is not (used, or older).
   */
  async unsubscribe(id: string, version: number): Promise<{ name: string } | null> {
    const rows = await this.prisma.$queryRawUnsafe<{ name: string }[]>(
      `UPDATE players SET notify_by_email = false, unsubscribe_version = unsubscribe_version + 1, updated_at = now()
       WHERE id = $1::uuid AND unsubscribe_version = $2 RETURNING name`,
      id, version,
    );
    return rows[0] ?? null;
  }

  /**
   * The token's player, marking it used (at most once a minute, so a busy client does not
   * write on every request).
   */
  async playerForToken(tokenHash: string): Promise<{ playerId: string; tokenId: string } | null> {
    const row = await this.prisma.playerToken.findUnique({ where: { tokenHash }, select: { id: true, playerId: true, lastUsedAt: true } });
    if (!row) return null;
    if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) {
      await this.prisma.playerToken.updateMany({ where: { id: row.id }, data: { lastUsedAt: new Date() } });
    }
    return { playerId: row.playerId, tokenId: row.id };
  }

  async createToken(token: { id: string; playerId: string; name: string; tokenHash: string }): Promise<PlayerTokenRecord> {
    return this.prisma.playerToken.create({ data: token, select: TOKEN_FIELDS });
  }

  async tokens(playerId: string): Promise<PlayerTokenRecord[]> {
    return this.prisma.playerToken.findMany({ where: { playerId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select: TOKEN_FIELDS });
  }

  async countTokens(playerId: string): Promise<number> {
    return this.prisma.playerToken.count({ where: { playerId } });
  }

  /**
   * Deletes one of the player's tokens and announces its hash to every process (the NOTIFY
   * is delivered once the delete commits: same statement); false when they have none by that id.
   */
  async revokeToken(playerId: string, id: string): Promise<boolean> {
    const rows = await this.prisma.$queryRawUnsafe<unknown[]>(
      `WITH gone AS (DELETE FROM player_tokens WHERE id = $1::uuid AND player_id = $2::uuid RETURNING token_hash),
       -- Calendar URLs made before are refused from now on (Digests.calendarFeed).
       moved AS (UPDATE players SET token_generation = token_generation + 1 WHERE id = $2::uuid AND EXISTS (SELECT 1 FROM gone) RETURNING id)
       SELECT 1 AS revoked FROM gone, LATERAL (SELECT pg_notify('${TOKENS_REVOKED_CHANNEL}', gone.token_hash)) sent WHERE (SELECT count(*) FROM moved) >= 0`,
      id, playerId,
    );
    return rows.length > 0;
  }
}
