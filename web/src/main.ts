/** The play-by-web client: a tiny router over the lobby, game pages and invite links. */
import { gql } from './api.ts';
import { refreshWaiting, setPage } from './attention.ts';
import { loadCatalogue } from './catalogue.ts';
import { h } from './dom.ts';
import { gamePage } from './game.ts';
import { lobbyPage } from './lobby.ts';
import { signedIn } from './player.ts';
import './style.css';

const app = document.getElementById('app')!;
const conn = document.getElementById('conn')!;
let leave: (() => void) | null = null;

function setConnection(text: string, ok: boolean) {
  conn.textContent = text;
  conn.className = `conn ${ok ? 'ok' : 'down'}`;
}

let routing = 0;
async function route() {
  const id = ++routing;
  leave?.();
  leave = null;
  // Each page draws into an element of its own: a page still loading when the player
  // moves on (a link clicked in the meantime) draws into nothing and is let go.
  const page = h('div', { class: 'page' });
  app.replaceChildren(page);
  const path = location.pathname;
  const game = /^\/games\/([^/]+)\/?$/.exec(path);
  const join = /^\/join\/([^/]+)\/?$/.exec(path);
  let left: (() => void) | null = null;
  try {
    await loadCatalogue();
    if (game) left = await gamePage(page, decodeURIComponent(game[1]!), setConnection);
    else if (join) left = await joinPage(page, decodeURIComponent(join[1]!), setConnection);
    else await lobbyPage(page, navigate);
  } catch (e) {
    page.append(h('p', { class: 'alert error', role: 'alert' }, `Something went wrong: ${(e as Error).message}`));
  }
  if (id !== routing) return left?.();
  leave = left;
  // A game page names its turn in the title itself (game.ts).
  if (!leave) setPage(page.querySelector('h1')?.textContent ?? 'Lobby');
  void refreshWaiting();
  showAccount();
  if (location.hash.length > 1 && !location.hash.includes('=')) document.getElementById(location.hash.slice(1))?.scrollIntoView();
}

/** The header names the signed-in player (a link to the account settings in the lobby). */
export function showAccount() {
  const me = signedIn();
  const link = document.getElementById('account-link');
  if (link) link.textContent = me ? me.name : 'Sign in';
}

/**
 * /join/<code>: the game's page, offering its open seats with that invite code. The game is
 * found by its code (invitation); links that also name it (?game=<id>) skip the look-up.
 */
async function joinPage(root: HTMLElement, code: string, setConn: typeof setConnection): Promise<(() => void) | null> {
  let gameId: string | null = new URLSearchParams(location.search).get("game");
  if (!gameId) {
    try {
      gameId = (await gql<{ invitation: { id: string } }>('query($code: String!) { invitation(code: $code) { id } }', { code })).invitation.id;
    } catch (error) {
      root.append(
        h('h1', {}, 'Join a game'),
        h('p', { class: 'alert error', role: 'alert' }, `This invite link leads to no game waiting for players: ${(error as Error).message}`),
        h('p', {}, h('a', { href: '/' }, 'Back to the lobby')),
      );
      return null;
    }
  }
  return gamePage(root, gameId as string, setConn, { inviteCode: code });
}

export function navigate(path: string) {
  history.pushState(null, '', path);
  void route();
}

// Links inside the client move without a reload.
document.addEventListener('click', (e) => {
  const a = (e.target as Element).closest?.('a');
  if (!a || a.target || a.origin !== location.origin || (e as MouseEvent).metaKey || (e as MouseEvent).ctrlKey) return;
  e.preventDefault();
  navigate(a.pathname + a.search + a.hash);
});
window.addEventListener('popstate', () => void route());
void route();
