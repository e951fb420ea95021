/**
 * What this service's schema offers beyond the core, read once by introspection, so the
 * client uses the clock and webhook parts of the contract when the service has them and
 * says so plainly when it does not:
 * - clocks: `Prompt.deadline` / `Seat.deadline` (ISO timestamps), `CreateGameInput.clock`;
 * - webhooks: `createWebhook`, `deleteWebhook`, `me { webhooks { deliveries } }`;
 * - absences: `setAbsence`, `cancelAbsence`, `me { absences }`, `Seat.absentUntil`.
 */
import { gql } from './api.ts';

export interface Features {
  promptDeadline: boolean;
  seatDeadline: boolean;
  clockInput: boolean;
  webhooks: boolean;
  /** `Game.clock { perMove }` */
  gameClock: boolean;
  /** `setAbsence`, `cancelAbsence`, `me { absences }` */
  absences?: boolean;
  /** `Seat.absentUntil` */
  seatAbsentUntil?: boolean;
  /** `ClockInput.onTimeout` / `Clock.onTimeout`: what happens to a seat out of time (RESIGN or BOT) */
  clockTimeout: boolean;
  /** Messages between players: `sendMessage`, `Game.messages`. */
  messages: boolean;
}

let cached: Promise<Features> | null = null;

export function features(): Promise<Features> {
  cached ??= gql<{ prompt: Fields; seat: Fields; create: { inputFields: { name: string }[] } | null; mutation: Fields; player: Fields; game: Fields; clockInput: { inputFields: { name: string }[] | null } | null }>(
    `{ prompt: __type(name: "Prompt") { fields { name } } seat: __type(name: "Seat") { fields { name } }
       create: __type(name: "CreateGameInput") { inputFields { name } } mutation: __type(name: "Mutation") { fields { name } }
       player: __type(name: "Player") { fields { name } } game: __type(name: "Game") { fields { name } } clockInput: __type(name: "ClockInput") { inputFields { name } } }`,
  )
    .then((r) => {
      const has = (t: Fields, f: string) => !!t?.fields?.some((x) => x.name === f);
      return {
        promptDeadline: has(r.prompt, 'deadline'),
        seatDeadline: has(r.seat, 'deadline'),
        clockInput: !!r.create?.inputFields.some((x) => x.name === 'clock'),
        webhooks: has(r.mutation, 'createWebhook') && has(r.mutation, 'deleteWebhook') && has(r.player, 'webhooks'),
        gameClock: has(r.game, 'clock'),
        absences: has(r.mutation, 'setAbsence') && has(r.mutation, 'cancelAbsence') && has(r.player, 'absences'),
        seatAbsentUntil: has(r.seat, 'absentUntil'),
        clockTimeout: !!r.clockInput?.inputFields?.some((x) => x.name === 'onTimeout'),
        messages: has(r.mutation, 'sendMessage') && has(r.game, 'messages'),
      };
    })
    .catch(() => ({ promptDeadline: false, seatDeadline: false, clockInput: false, webhooks: false, gameClock: false, clockTimeout: false, messages: false }));
  return cached;
}
type Fields = { fields: { name: string }[] | null } | null;

/** A clock's time per move in words: "1 day", "3 hours", "45 minutes". */
export function perMoveInWords(seconds: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (seconds % 86400 === 0) return unit(seconds / 86400, 'day');
  if (seconds % 3600 === 0) return unit(seconds / 3600, 'hour');
  if (seconds % 60 === 0) return unit(seconds / 60, 'minute');
  return unit(seconds, 'second');
}

/** What happens to a seat whose time runs out, in words (Clock.onTimeout; RESIGN when absent). */
export function onTimeoutInWords(policy: string | null | undefined): string {
  return policy === 'BOT'
    ? 'a seat whose time runs out is handed to a bot, which plays it for the rest of the game'
    : 'a seat whose time runs out is out of the game, as if it had resigned';
}

/** "2 d 3 h", "4 h 05 min", "3 min 07 s", "time is up": what is left until an ISO deadline. */
export function timeLeft(deadline: string, now = Date.now()): string {
  const ms = Date.parse(deadline) - now;
  if (!Number.isFinite(ms)) return '';
  if (ms <= 0) return 'time is up';
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  const hh = Math.floor((s % 86400) / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = s % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  if (d > 0) return `${d} d ${hh} h`;
  if (hh > 0) return `${hh} h ${two(mm)} min`;
  return `${mm} min ${two(ss)} s`;
}

/**
 * Clock hook: every element under `root` with data-deadline="<ISO>" shows the time left,
 * ticking each second. Returns the function that stops it.
 */
export function startDeadlineCountdowns(root: HTMLElement): () => void {
  const tick = () => {
    for (const el of root.querySelectorAll<HTMLElement>('[data-deadline]')) {
      const left = timeLeft(el.dataset.deadline!);
      el.textContent = left === 'time is up' ? '⏱ time is up' : `⏱ ${left} left`;
      el.classList.toggle('late', left === 'time is up');
    }
  };
  tick();
  const timer = setInterval(tick, 1000);
  return () => clearInterval(timer);
}
