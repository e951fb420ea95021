/**
 * Absence (API.md, "Absence, digests, calendars"): a player away stops the clocks of their
 * seats. Nothing is paused or stored per game: a seat's deadline stays derived, from when
 * the seat became awaited, its clock and the player's absences (`deadlineWith`, the same
 * rule the database's `absence_deadline` follows), so the time a seat has left when an
 * absence begins is the time it has when the absence ends, and a seat awaited during an
 * absence starts its full time at the end. The AbsenceStore stores an absence and moves
 * the waiting deadline jobs of the player's seats in one transaction; a deadline job that
 * runs before its derived deadline (the seat was awaited during an absence) moves itself
 * (src/app/deadlines.ts).
 *
 * The rules of a request (`absenceRefusal`) are pure and checked by the store at its own
 * clock, one request of a player at a time, so two processes never store overlapping
 * absences or more than the yearly allowance between them.
 */
import type { Actor } from './actors.ts';
import { AppError } from './errors.ts';
import type { AbsenceRecord, AbsenceStore, PlayerStore } from './ports.ts';
import { playerOf } from './players.ts';

/** The default of ABSENCE_DAYS_PER_YEAR: days of absence a player has each calendar year (UTC). */
export const ABSENCE_DAYS_PER_YEAR = 30;

const DAY = 86_400_000;
/** A start a little in the past (a form filled in a minute ago) begins now. */
const GRACE_MS = 5 * 60_000;
/** How far ahead an absence may be planned. */
const MAX_AHEAD_MS = 366 * DAY;

export interface AbsenceOut {
  id: string;
  from: string;
  until: string;
}

export const absenceOut = (a: AbsenceRecord): AbsenceOut => ({ id: a.id, from: a.from.toISOString(), until: a.until.toISOString() });

/**
 * When `seconds` of a seat's time, counted from `from`, run out, the time in `absences`
 * not counting (each absence's part after `from`). The absences do not overlap.
 */
export function deadlineWith(from: Date, seconds: number, absences: readonly { from: Date; until: Date }[]): Date {
  let deadline = from.getTime() + seconds * 1000;
  const sorted = absences.filter((a) => a.until.getTime() > from.getTime()).sort((a, b) => a.from.getTime() - b.from.getTime());
  for (const a of sorted) {
    if (a.from.getTime() >= deadline) break;
    deadline += a.until.getTime() - Math.max(a.from.getTime(), from.getTime());
  }
  return new Date(deadline);
}

/**
 * When a seat's "deadline soon" warning is due, for `seconds` of time counted from `from`:
 * when a quarter of the time is left, or, if absences begin after that and before the
 * deadline, when the last of them ends (the player is back, facing the deadline they moved;
 * a warning given before they left named the earlier one). The same rule as the database's
 * `absence_warning`.
 */
export function warningWith(from: Date, seconds: number, absences: readonly { from: Date; until: Date }[]): Date {
  const soon = deadlineWith(from, seconds * 0.75, absences).getTime();
  const deadline = deadlineWith(from, seconds, absences).getTime();
  let at = soon;
  for (const a of absences) if (a.from.getTime() >= soon && a.from.getTime() < deadline) at = Math.max(at, a.until.getTime());
  return new Date(at);
}

/** The end of the absence under way at `now` (absences that follow without a gap count as one), or null. */
export function absentUntil(absences: readonly { from: Date; until: Date }[], now: Date): Date | null {
  const sorted = [...absences].sort((a, b) => a.from.getTime() - b.from.getTime());
  let until: number | null = null;
  for (const a of sorted) {
    if (until === null) {
      if (a.from.getTime() <= now.getTime() && a.until.getTime() > now.getTime()) until = a.until.getTime();
    } else if (a.from.getTime() <= until) until = Math.max(until, a.until.getTime());
  }
  return until === null ? null : new Date(until);
}

/** Milliseconds of the span [from, until) in each calendar year (UTC). */
function perYear(from: Date, until: Date): Map<number, number> {
  const out = new Map<number, number>();
  let t = from.getTime();
  while (t < until.getTime()) {
    const year = new Date(t).getUTCFullYear();
    const end = Math.min(until.getTime(), Date.UTC(year + 1, 0, 1));
    out.set(year, (out.get(year) ?? 0) + end - t);
    t = end;
  }
  return out;
}

const when = (d: Date) => d.toISOString();

/**
 * Why an absence from `from` to `until` cannot be taken, beside the player's `others`, at
 * the store's clock `now` (null: it can). `from` has already been moved to `now` when it
 * was a few minutes in the past (`startOf`).
 */
export function absenceRefusal(from: Date, until: Date, others: readonly { from: Date; until: Date }[], now: Date, daysPerYear: number): string | null {
  if (until.getTime() <= from.getTime()) return 'an absence ends after it begins (until is later than from)';
  if (from.getTime() < now.getTime()) return `an absence cannot begin in the past (from ${when(from)}; now is ${when(now)})`;
  if (from.getTime() > now.getTime() + MAX_AHEAD_MS) return 'an absence begins within a year from now';
  const overlap = others.find((o) => o.from.getTime() < until.getTime() && o.until.getTime() > from.getTime());
  if (overlap) return `it overlaps your absence from ${when(overlap.from)} until ${when(overlap.until)}`;
  const taken = new Map<number, number>();
  for (const o of others) for (const [year, ms] of perYear(o.from, o.until)) taken.set(year, (taken.get(year) ?? 0) + ms);
  for (const [year, ms] of perYear(from, until)) {
    const used = taken.get(year) ?? 0;
    if (used + ms > daysPerYear * DAY) {
      const left = Math.max(0, daysPerYear * DAY - used) / DAY;
      return `at most ${daysPerYear} days of absence a calendar year: ${year} has ${round(left)} days left and this asks for ${round(ms / DAY)}`;
    }
  }
  return null;
}

const round = (days: number) => Math.floor(days * 100) / 100;

/** A start a few minutes in the past begins now; an earlier one stays (and is refused). */
export function startOf(from: Date, now: Date): Date {
  return from.getTime() < now.getTime() && from.getTime() >= now.getTime() - GRACE_MS ? now : from;
}

function parseTime(value: unknown, name: string): Date {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) {
    throw new AppError('BAD_REQUEST', `${name} is an ISO timestamp with its offset, e.g. 2027-07-01T00:00:00Z`);
  }
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) throw new AppError('BAD_REQUEST', `${name} is not a time: ${value}`);
  return d;
}

export class Absences {
  constructor(
    private readonly store: AbsenceStore,
    private readonly players: PlayerStore,
    private readonly daysPerYear: number,
  ) {}

  /** The player's absences: this calendar year's and every later one, oldest first. */
  async list(actor: Actor): Promise<AbsenceOut[]> {
    const player = await playerOf(this.players, actor);
    return (await this.store.list(player.id)).map(absenceOut);
  }

  /** setAbsence: refused BAD_REQUEST with the reason (overlap, past, over the year's allowance). */
  async set(actor: Actor, input: { from?: unknown; until?: unknown }): Promise<AbsenceOut> {
    const player = await playerOf(this.players, actor);
    const from = parseTime(input?.from, 'from');
    const until = parseTime(input?.until, 'until');
    const daysPerYear = this.daysPerYear;
    const stored = await this.store.set(player.id, from, until, (now, others) => {
      const start = startOf(from, now);
      const reason = absenceRefusal(start, until, others, now, daysPerYear);
      if (reason) throw new AppError('BAD_REQUEST', `This absence cannot be set: ${reason}`);
      return start;
    });
    return absenceOut(stored);
  }

  /** cancelAbsence: one not begun is gone; one under way ends now (the clocks run again). */
  async cancel(actor: Actor, id: string): Promise<boolean> {
    const player = await playerOf(this.players, actor);
    const outcome = await this.store.cancel(player.id, String(id));
    if (outcome === 'unknown') throw new AppError('NOT_FOUND', `You have no absence ${id}`);
    if (outcome === 'over') throw new AppError('BAD_REQUEST', `Absence ${id} is already over`);
    return true;
  }
}
