/**
 * Absence on the account page (setAbsence, cancelAbsence, me { absences }): while the
 * player is away the clocks of their seats stand still, and opponents see "absent until".
 * A form with the first and last moment (the browser's local time, sent as ISO timestamps),
 * the list of this year's and later absences, each with a button that cancels it (one under
 * way ends now: the clocks run again with the time they had). A refusal says why.
 */
import { ApiError, gql } from './api.ts';
import { h } from './dom.ts';
import { features } from './features.ts';
import { playerToken } from './player.ts';

interface Absence { id: string; from: string; until: string }

const reasonOf = (e: unknown) => (e instanceof ApiError ? e.reason ?? e.message : (e as Error).message);
/** A Date as the value of an <input type="datetime-local"> (local time, to the minute). */
const local = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export async function absenceSettings(box: HTMLElement, said = ''): Promise<void> {
  box.replaceChildren(h('h3', {}, 'Away'));
  if (!(await features()).absences) {
    box.append(h('p', { class: 'muted small absences-missing' }, 'This service does not offer absences yet.'));
    return;
  }
  const r = await gql<{ me: { absences: Absence[] } | null }>(`{ me { absences { id from until } } }`, {}, playerToken()).catch(() => null);
  const list = r?.me?.absences ?? [];
  const now = new Date();
  const from = h('input', { type: 'datetime-local', id: 'absence-from', required: true, value: local(now) });
  const until = h('input', { type: 'datetime-local', id: 'absence-until', required: true, value: local(new Date(now.getTime() + 7 * 86_400_000)) });
  const note = h('p', { class: 'muted small', role: 'status' }, said);
  const upcoming = list.filter((a) => Date.parse(a.until) > Date.now());
  box.append(
    h('p', { class: 'muted small' }, 'While you are away the clocks of your seats stand still: the time a seat has left when your absence begins is the time it has when it ends. Your opponents see until when you are away. The service allows a limited number of days each calendar year.'),
    upcoming.length
      ? h('ul', { class: 'absence-list' }, upcoming.map((a) => {
        const begun = Date.parse(a.from) <= Date.now();
        return h('li', { 'data-absence-id': a.id }, `${begun ? 'Away now' : 'Away'} from ${when(a.from)} until ${when(a.until)} `,
          h('button', { type: 'button', class: 'cancel-absence', onclick: async () => {
            try {
              await gql(`mutation($id: ID!) { cancelAbsence(id: $id) }`, { id: a.id }, playerToken());
              void absenceSettings(box, begun ? 'Welcome back: your clocks run again.' : 'Absence cancelled.');
            } catch (err) {
              note.textContent = `Not cancelled: ${reasonOf(err)}`;
            }
          } }, begun ? 'I am back' : 'Cancel'));
      }))
      : h('p', { class: 'small no-absence' }, 'No absence planned.'),
    h('form', { class: 'new-absence', onsubmit: async (e: Event) => {
      e.preventDefault();
      const start = new Date(from.value);
      const end = new Date(until.value);
      if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) return void (note.textContent = 'Not set: give both the first and the last moment.');
      try {
        const set = await gql<{ setAbsence: Absence }>(`mutation($i: AbsenceInput!) { setAbsence(input: $i) { id from until } }`, { i: { from: start.toISOString(), until: end.toISOString() } }, playerToken());
        void absenceSettings(box, `Absence set: from ${when(set.setAbsence.from)} until ${when(set.setAbsence.until)}.`);
      } catch (err) {
        note.textContent = `Not set: ${reasonOf(err)}`;
      }
    } },
      h('div', { class: 'field' }, h('label', { for: 'absence-from' }, 'Away from'), from),
      h('div', { class: 'field' }, h('label', { for: 'absence-until' }, 'Back on'), until),
      h('button', { type: 'submit' }, 'Set absence')),
    note,
  );
}
