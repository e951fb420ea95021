/**
 * Players and their tokens. Tokens are stored only as sha256 hashes and looked up on
 * every request (no cache), so a revoked token is refused at once by every process.
 */
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { PlayerRecord, PlayerStore as PlayerPort, PlayerTokenRecord } from '../app/ports.ts';

export type { PlayerRecord, PlayerTokenRecord } from '../app/ports.ts';

const TOKEN_FIELDS = { id: true, playerId: true, name: true, createdAt: true, lastUsedAt: true } as const;

export class PlayerStore implements PlayerPort {
  constructor(private readonly prisma: PrismaClient) {}

  /** The player and their first token, together or not at all. */
  async createPlayer(player: { id: string; name: string; email: string | null; emailCode: string | null; emailCodeExpires: Date | null }, token: { id: string; name: string; tokenHash: string }): Promise<PlayerRecord> {
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

  /** A wrong guess of the email code: counts it, and forgets the code after `max` wrong ones. */
  async wrongCode(id: string, max: number): Promise<number> {
    const p = await this.prisma.player.update({ where: { id }, data: { emailCodeAttempts: { increment: 1 } } });
    if (p.emailCodeAttempts >= max) await this.prisma.player.update({ where: { id }, data: { emailCode: null, emailCodeExpires: null } });
    return p.emailCodeAttempts;
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

  /** Deletes one of the player's tokens; false when they have none by that id. */
  async revokeToken(playerId: string, id: string): Promise<boolean> {
    const { count } = await this.prisma.playerToken.deleteMany({ where: { id, playerId } });
    return count > 0;
  }
}
