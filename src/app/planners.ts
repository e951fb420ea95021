/**
 * The core's own planners (src/app/jobs.ts): what a commit makes due.
 *   bots      a seat the service plays is awaited → its move, as a job (no observer, no sweep)
 *   clocks    a seat on a clock becomes awaited → its time-out at the deadline and a warning
 *             when a quarter is left, both from the store's clock; a seat no longer awaited
 *             → both cancelled
 * The notifications need no planner: the dispatcher (src/app/dispatch.ts) follows the outbox
 * the commits write anyway. And one planner of a day rather than a commit:
 *   digests   DIGEST_TIME came (the `digest_day` job) → one `digest` job per player who wants it
 *   messages  a message between players is stored → its fan-out (MessagePlanner: a message
 *             is no commit of the game, but it is planned the same way, its jobs stored by
 *             the statement that stores it, only when someone listens)
 */
import type { JobPlanner, MessagePlanner } from './jobs.ts';
import type { JobChange, JobSpec } from './ports.ts';
import { priorityOf, TASKS } from './tasks.ts';

export const deadlineKey = (gameId: string, seat: string) => `deadline:${gameId}:${seat}`;
export const deadlineSoonKey = (gameId: string, seat: string) => `deadline-soon:${gameId}:${seat}`;
/** Attempts of a `deadline_soon` job (planned, moved by itself or by an absence). */
export const DEADLINE_SOON_ATTEMPTS = 5;

/** One move job a game (keyed: a pending one is replaced, a running one lets a new one follow). */
export const botPlanner: JobPlanner = ({ game, summary, version }) => {
  if (game.bots.length === 0 || !summary.awaiting.some((s) => game.bots.includes(s))) return [];
  // A draw offer awaits a bot's answer with no SEAT_AWAITED row: the summary says it is awaited.
  return [{ task: TASKS.bot, payload: { gameId: game.id, version }, key: `bot:${game.id}`, priority: priorityOf(TASKS.bot) }];
};

/**
 * A seat's time starts when the game starts awaiting it (its SEAT_AWAITED row, written by
 * the same statement at the database's now()): the jobs run that many seconds after the
 * commit by the database's clock. One job of each kind per game and seat (the key): a new
 * decision of the seat replaces them. The job names the version at which the deadline was
 * set; the time-out is submitted at that version, so a command landing first wins.
 */
export const clockPlanner: JobPlanner = ({ game, outbox, summary, version }) => {
  const perMove = game.clockPerMove;
  if (!perMove) return [];
  const jobs: JobChange[] = [];
  const still = new Set(summary.awaiting);
  for (const seat of game.awaiting) {
    if (still.has(seat)) continue;
    jobs.push({ removeKey: deadlineKey(game.id, seat) }, { removeKey: deadlineSoonKey(game.id, seat) });
  }
  for (const o of outbox) {
    if (o.kind !== 'SEAT_AWAITED' || o.seat === null) continue;
    const payload = { gameId: game.id, seat: o.seat, version };
    jobs.push(
      { task: TASKS.deadlinePassed, payload, key: deadlineKey(game.id, o.seat), runAfterSeconds: perMove, priority: priorityOf(TASKS.deadlinePassed) },
      { task: TASKS.deadlineSoon, payload, key: deadlineSoonKey(game.id, o.seat), runAfterSeconds: perMove * 0.75, maxAttempts: DEADLINE_SOON_ATTEMPTS, priority: priorityOf(TASKS.deadlineSoon) },
    );
  }
  return jobs;
};

/** The one pending `digest_day` job (every process scheduling it adds the same). */
export const digestDayKey = 'digest-day';

/**
 * The day's digests: one `digest` job per player, keyed by player and day, so planning the
 * same day twice plans each once while pending (and DigestStore.record sends each once anyway).
 */
export function digestPlanner(day: string, playerIds: string[]): (JobSpec & { key: string })[] {
  return playerIds.map((playerId) => ({ task: TASKS.digest, payload: { playerId, day }, key: `digest:${playerId}:${day}`, maxAttempts: 10, priority: priorityOf(TASKS.digest) }));
}

/** The fan-out of a message, added with it only when someone listens to its game (as notify). */
export function messagePlanner(mail: boolean): MessagePlanner {
  return ({ message }) => [{ task: TASKS.message, payload: { id: message.id, gameId: message.gameId }, maxAttempts: 25, priority: priorityOf(TASKS.message), when: mail ? 'listened-or-mail' : 'listened' }];
}
