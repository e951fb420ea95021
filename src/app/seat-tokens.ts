import { tokenFingerprint, type Actor } from './actors.ts';
import { Lru } from './states.ts';

/** How many tokens of each kind a process holds (seat tokens here, player tokens in Players). */
export const TOKEN_CACHE_SIZE = 20_000;

/**
 * What each seat token stands for, by its hash. It never changes (a seat left in the lobby
 * and taken again is another token's: the actor carries the token's fingerprint), so a
 * process asks the store once per token, and not at all for a token it issued itself: the
 * game's creation and a join put theirs here once stored.
 */
export class SeatTokens {
  private readonly known = new Lru<string, Actor>(TOKEN_CACHE_SIZE);

  /** The seat a token's hash stands for, if this process has met it. */
  touch(tokenHash: string): Actor | undefined {
    return this.known.touch(tokenHash);
  }

  /** `tokenHash` stands for `seat` of `gameId` (found in the store, or stored by this process). */
  put(tokenHash: string, gameId: string, seat: string): Actor {
    const actor: Actor = { kind: 'seat', gameId, seat, token: tokenFingerprint(tokenHash) };
    this.known.put(tokenHash, actor);
    return actor;
  }
}
