/**
 * The panel of a game not started (or cancelled): what it is, its clock, its seats, the
 * invite link, and joining, leaving or cancelling. It draws; the game page acts, with the
 * mutations below.
 */
import { gql, type GameData } from './api.ts';
import { seatTitle, typeDescription } from './catalogue.ts';
import { h } from './dom.ts';
import { onTimeoutInWords, perMoveInWords } from './features.ts';

export interface OpenGame {
  game: GameData;
  /** This browser (or the signed-in player) holds a seat here. */
  mineHere: boolean;
  inviteLink: string | null;
  me: { name: string } | null;
  /** The name field of a guest joining (kept across drawings: what they typed stays). */
  joinName: HTMLInputElement;
  copied: string;
  message: { text: string; kind: 'error' | 'info' } | null;
  seatList(): Element;
  button(label: string, onclick: () => void, attrs?: Record<string, string>): HTMLButtonElement;
  join(seat: string): void;
  act(what: 'leaveGame' | 'cancelGame'): void;
  copy(text: string): void;
}

export function openGamePanel(o: OpenGame): (Node | string)[] {
  const g = o.game;
  const parts: (Node | string)[] = [];
  if (g.status === 'ABANDONED') {
    parts.push(h('h2', {}, 'Cancelled'), h('p', {}, 'This game was cancelled before it started.'), o.seatList(), h('p', {}, h('a', { href: '/' }, 'Back to the lobby')));
  } else {
    const open = g.seats.filter((x) => x.open);
    parts.push(
      h('h2', {}, 'Waiting for players'),
      // What the game is and how fast it is played, before anyone takes a seat.
      h('p', { class: 'about-game' }, typeDescription(g.type)),
      h('p', { class: 'clock-note' }, g.clock ? `Clock: ${perMoveInWords(g.clock.perMove)} per move; ${onTimeoutInWords(g.clock.onTimeout)}.` : 'No clock: take the time you need for each move.'),
      h('p', {}, `It starts as soon as the last seat is taken (${open.length} open). `,
        g.visibility === 'PUBLIC' ? 'It is public: listed among the open games in the lobby.' : 'It is private: only someone with its invite link can join.'),
      o.seatList(),
    );
    if (o.inviteLink && o.mineHere) {
      const link = o.inviteLink;
      parts.push(h('div', { class: 'invite' },
        h('label', { for: 'invite-link' }, 'Invite link — send it to the players you want:'),
        h('div', { class: 'copy-row' },
          h('input', { id: 'invite-link', readonly: true, value: link, class: 'link', onfocus: (e: Event) => (e.target as HTMLInputElement).select() }),
          o.button('Copy', () => o.copy(link), { class: 'copy' })),
        o.copied ? h('p', { class: 'muted small', role: 'status' }, o.copied) : '',
      ));
    }
    if (!o.mineHere) {
      if (g.visibility === 'PRIVATE' && !o.inviteLink) parts.push(h('p', { class: 'muted' }, 'This game is private: join it from the invite link its creator sends you.'));
      else parts.push(h('div', { class: 'join-seat' },
        o.me ? h('p', {}, 'You join as ', h('strong', {}, o.me.name), ' (your player account).')
          : h('p', {}, h('label', { for: 'join-name' }, 'Your name '), o.joinName, h('br'), h('span', { class: 'muted small' }, 'A seat token comes back and stays in this browser. Register in the lobby first to keep all your games together.')),
        ...open.map((x) => o.button(`Join as ${seatTitle(x.id, g.type)}`, () => o.join(x.id), { class: 'primary join-btn', 'data-seat': x.id })),
      ));
    } else {
      parts.push(h('div', { class: 'leave-cancel' },
        o.button('Leave this game', () => o.act('leaveGame'), { class: 'leave' }),
        o.button('Cancel the game', () => o.act('cancelGame'), { class: 'danger cancel' }),
        h('p', { class: 'muted small' }, 'Leaving frees your seat; only the creator may cancel.'),
      ));
    }
  }
  if (o.message) parts.push(h('div', { class: `alert ${o.message.kind}`, role: 'alert' }, o.message.text));
  return parts;
}

/** joinGame: with a player token the player takes the seat (null comes back); without one, `name` is needed and the seat token comes back. */
export async function joinSeat(gameId: string, seat: string, name: string | null, inviteCode: string | null, playerToken: string | null): Promise<string | null> {
  const r = await gql<{ joinGame: { seatToken: string | null } }>(
    `mutation($id: ID!, $seat: String, $name: String, $code: String) { joinGame(gameId: $id, seat: $seat, name: $name, inviteCode: $code) { seatToken game { id status } } }`,
    { id: gameId, seat, name, code: inviteCode },
    playerToken,
  );
  return r.joinGame.seatToken;
}

/** leaveGame frees the caller's seats of an OPEN game; cancelGame (the creator) ends it. */
export async function beforeStart(what: 'leaveGame' | 'cancelGame', gameId: string, token: string | null): Promise<void> {
  await gql(`mutation($id: ID!) { ${what}(gameId: $id) { id status } }`, { id: gameId }, token);
}
