/** Parts of a game page drawn from the game alone: the seats and the clocks' badges. */
import type { SeatInfo } from './api.ts';
import { seatColour, seatTitle } from './catalogue.ts';
import { h } from './dom.ts';

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
    s.deadline ? [' ', deadlineBadge(s.deadline)] : '',
    heldHere(s.id) ? h('span', { class: 'muted small' }, ' · seat token held in this browser') : '',
  )));
}
