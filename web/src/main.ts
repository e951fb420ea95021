/** The play-by-web client: a tiny router over the lobby, game pages and invite links. */
import { h } from './dom.ts';
import { gamePage } from './game.ts';
import { lobbyPage } from './lobby.ts';
import './style.css';

const app = document.getElementById('app')!;
const conn = document.getElementById('conn')!;
let leave: (() => void) | null = null;

function setConnection(text: string, ok: boolean) {
  conn.textContent = text;
  conn.className = `conn ${ok ? 'ok' : 'down'}`;
}

async function route() {
  leave?.();
  leave = null;
  app.replaceChildren();
  const path = location.pathname;
  const game = /^\/games\/([^/]+)\/?$/.exec(path);
  const join = /^\/join\/([^/]+)\/?$/.exec(path);
  try {
    if (game) leave = await gamePage(app, decodeURIComponent(game[1]!), setConnection);
    else if (join) app.append(h('h1', {}, 'Join a game'), h('p', {}, 'Invite codes open when the service offers open seats. Until then, ask the game\'s creator for a seat link (it opens /games/<id>).'), h('p', {}, h('a', { href: '/' }, 'Back to the lobby')));
    else await lobbyPage(app, navigate);
  } catch (e) {
    app.append(h('p', { class: 'alert error', role: 'alert' }, `Something went wrong: ${(e as Error).message}`));
  }
  document.title = `${app.querySelector('h1')?.textContent ?? 'Wargames'} · Wargames`;
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
  navigate(a.pathname + a.hash);
});
window.addEventListener('popstate', () => void route());
void route();
