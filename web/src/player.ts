/**
 * The player signed in on this browser: a player token (from registerPlayer, or pasted from
 * another device) kept in localStorage, with the name it was last seen under. The token is
 * the only key to the account: the page shows it so it can be copied, and forgets it on
 * "sign out" or when the service answers UNAUTHENTICATED (revoked).
 */
import { ApiError, gql } from './api.ts';

const KEY = 'wargame.player.v1';

export interface Me { id: string; name: string; email: string | null; emailVerified: boolean; notifyByEmail: boolean; emailDigest: boolean; myTurnCount: number }
interface Stored { token: string; id: string; name: string }

export function signedIn(): Stored | null {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Stored | null;
    return v && typeof v.token === 'string' ? v : null;
  } catch {
    return null;
  }
}

/** The player token, for Authorization: Bearer (null when nobody is signed in here). */
export const playerToken = () => signedIn()?.token ?? null;

export function signOut() {
  localStorage.removeItem(KEY);
}

function keep(token: string, me: { id: string; name: string }) {
  localStorage.setItem(KEY, JSON.stringify({ token, id: me.id, name: me.name }));
}

export const ME_FIELDS = 'id name email emailVerified notifyByEmail emailDigest myTurnCount';

export async function register(name: string, email: string | null): Promise<Me> {
  const r = await gql<{ registerPlayer: { player: Me; token: string } }>(
    `mutation($i: RegisterPlayerInput!) { registerPlayer(input: $i) { token player { ${ME_FIELDS} } } }`,
    { i: { name, ...(email ? { email } : {}) } },
  );
  keep(r.registerPlayer.token, r.registerPlayer.player);
  return r.registerPlayer.player;
}

/** Signing in again on this (or another) browser: a pasted player token, checked with `me`. */
export async function signInWithToken(token: string): Promise<Me> {
  const r = await gql<{ me: Me | null }>(`{ me { ${ME_FIELDS} } }`, {}, token);
  if (!r.me) throw new Error('That is not a player token (they start with wgp_).');
  keep(token, r.me);
  return r.me;
}

/** The signed-in player as the service sees them now; a revoked token signs this browser out. */
export async function currentPlayer(): Promise<Me | null> {
  const token = playerToken();
  if (!token) return null;
  try {
    const r = await gql<{ me: Me | null }>(`{ me { ${ME_FIELDS} } }`, {}, token);
    if (r.me) keep(token, r.me);
    else signOut();
    return r.me;
  } catch (e) {
    if (e instanceof ApiError && e.code === 'UNAUTHENTICATED') {
      signOut();
      return null;
    }
    throw e;
  }
}
