/**
 * Whose turn, at a glance: the tab's title and its icon say "Your turn" and how many of the
 * player's games wait for them, so a player with the tab in the background sees it.
 */
import { gql } from './api.ts';
import { playerToken } from './player.ts';

let waiting = 0;
let page = { title: 'Wargames', yourTurn: false };

/** The games waiting for the signed-in player (`me { myTurnCount }`); 0 without a player token. */
export async function refreshWaiting(): Promise<void> {
  const token = playerToken();
  if (!token) waiting = 0;
  else {
    try {
      waiting = (await gql<{ me: { myTurnCount: number } | null }>('{ me { myTurnCount } }', {}, token)).me?.myTurnCount ?? 0;
    } catch {
      /* the count is a hint: keep the last one */
    }
  }
  show();
}

/** What the page is about; `yourTurn`: the game on this page waits for the viewer. */
export function setPage(title: string, yourTurn = false) {
  page = { title, yourTurn };
  show();
}

function show() {
  const count = waiting > 0 ? `(${waiting}) ` : '';
  document.title = `${count}${page.yourTurn ? 'Your turn · ' : ''}${page.title} · Wargames`;
  const link = document.querySelector<HTMLLinkElement>('link[rel=icon]');
  if (link) link.href = favicon(page.yourTurn || waiting > 0, waiting);
}

/** A round icon: green with the count when something waits for the player, grey otherwise. */
function favicon(attention: boolean, count: number): string {
  const fill = attention ? '#2f855a' : '#718096';
  const label = count > 0 ? String(Math.min(count, 99)) : attention ? '!' : '';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="15" fill="${fill}"/><text x="16" y="22" font-size="${label.length > 1 ? 15 : 19}" font-family="sans-serif" font-weight="700" text-anchor="middle" fill="#fff">${label}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}
