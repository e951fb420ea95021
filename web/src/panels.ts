/** Parts of a game page drawn from the game alone: the seats, the links that hand seats over, adding a seat by its token, and the clocks' badges. */
import type { GameData, SeatInfo } from './api.ts';
import { seatColour, seatTitle } from './catalogue.ts';
import { h, pretty } from './dom.ts';
import { onTimeoutInWords, perMoveInWords, timeLeft } from './features.ts';

/** Clock hook: a deadline shown as the time left, ticking (startDeadlineCountdowns). */
export const deadlineBadge = (deadline: string) =>
  h('span', { class: 'deadline', 'data-deadline': deadline, title: `Deadline: ${new Date(deadline).toLocaleString()}` });

/** Every seat: who holds it (a player, a name with a seat token, a bot) or that it is open. */
export function seatList(seats: SeatInfo[], type: string, mine: (seat: string) => boolean, heldHere: (seat: string) => boolean) {
  return h('ul', { class: 'seat-list' }, seats.map((s) => h('li', { 'data-seat': s.id, class: s.open ? 'open' : '' },
    h('span', { class: 'dot', style: `background:${seatColour(s.id, type)}` }), ' ',
    h('strong', {}, seatTitle(s.id, type)), ': ',
    s.open ? h('em', { class: 'open-seat' }, 'open seat') : h('span', { class: 'seat-name' }, s.name),
    s.bot ? h('span', { class: 'badge bot' }, `bot: ${s.bot}`) : '',
    s.player ? h('span', { class: 'badge player', title: 'a registered player' }, 'player') : '',
    mine(s.id) ? h('span', { class: 'badge you' }, 'you') : '',
    s.mustAct ? ' (to act)' : '',
    // While its player is away the clock stands still: the time left then, not ticking.
    s.deadline && !s.absentUntil ? [' ', deadlineBadge(s.deadline)] : '',
    s.deadline && s.absentUntil ? [' ', h('span', { class: 'deadline paused', title: `Deadline: ${new Date(s.deadline).toLocaleString()}` }, `⏸ ${timeLeft(s.deadline, Date.parse(s.absentUntil))} left`)] : '',
    s.absentUntil ? h('span', { class: 'badge absent', title: 'their clock stands still while they are away' }, `absent until ${new Date(s.absentUntil).toLocaleString()}`) : '',
    heldHere(s.id) ? h('span', { class: 'muted small' }, ' · seat token held in this browser') : '',
  )));
}

/** The seats held in this browser, each with the link that hands it to another player (and a button that forgets it here). */
export function seatLinks(mine: { seat: string; link: string; handOver: Element | null }[], open: boolean, toggle: (e: Event) => void): Element | '' {
  if (!mine.length) return '';
  return h('details', { open, ontoggle: toggle }, h('summary', {}, 'Links that hand a seat to another player'),
    h('p', { class: 'muted' }, 'Whoever opens a link plays that seat. Send each to its player only.'),
    h('ul', {}, mine.map(({ seat, link, handOver }) => h('li', {}, `${pretty(seat)}: `,
      h('input', { readonly: true, value: link, 'aria-label': `Link for ${seat}`, class: 'link', onfocus: (e: Event) => (e.target as HTMLInputElement).select() }),
      handOver ?? '',
    ))));
}

/** Seats handed over from this page: their links, shown once (the browser no longer keeps them). */
export function handedOverLinks(handed: [string, string][]): Element | '' {
  if (!handed.length) return '';
  return h('div', { class: 'handed' }, h('p', {}, 'Handed over (copy the link now, this browser no longer keeps it):'),
    h('ul', {}, handed.map(([s, link]) => h('li', {}, `${pretty(s)}: `, h('input', { readonly: true, value: link, 'aria-label': `Handed-over link for ${s}`, class: 'link' })))));
}

/** "Add a seat with its token": a seat token pasted here is handed to `add`. */
export function seatTokenForm(add: (token: string) => Promise<void>): Element {
  const input = h('input', { type: 'text', 'aria-label': 'Seat token', placeholder: 'seat token', autocomplete: 'off' });
  return h('form', { class: 'token-form', onsubmit: (e: Event) => {
    e.preventDefault();
    const t = input.value.trim();
    if (t) void add(t);
  } }, h('label', {}, 'Add a seat with its token '), input, h('button', { type: 'submit' }, 'Add'));
}

/** The game's clock and what happens to a seat out of time, in words (nothing without a clock). */
export function clockNote(clock: GameData['clock']): Element | '' {
  if (!clock) return '';
  return h('p', { class: 'muted small clock-note' }, `Clock: ${perMoveInWords(clock.perMove)} per move; ${onTimeoutInWords(clock.onTimeout)}.`);
}
