/**
 * The core's own planners (src/app/jobs.ts): what a commit makes due.
 *   bots      a seat the service plays is awaited → its move, as a job (no observer, no sweep)
 *   clocks    a seat on a clock becomes awaited → its time-out at the deadline and a warning
 *             when a quarter is left, both from the store's clock; a seat no longer awaited
 *             → both cancelled
 *   notify    someone listens to the game → the fan-out of the commit's outbox rows (one
 *             job a game at a time: commits while one is pending or running add none)
 * And one planner of a day rather than a commit:
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

/** The gate of a webhook's sender: one `webhook` job at a time per webhook (one delivery in flight). */
export const webhookGate = (webhookId: string) => `webhook:${webhookId}`;

/** The gate of a game's fan-out: one `notify` job at a time per game. */
export const notifyGate = (gameId: string) => `notify:${gameId}`;

/**
 * The fan-out job of a commit, added by the store only when someone listens to the game and
 * only when the commit opens the game's notify gate: while a fan-out of the game is pending
 * or running, later commits add nothing and that job takes their outbox rows too (it reads
 * every row after the gate's `through`, and closes the gate only when none is left).
 * `gated: true` tells it from a job of an older release (one version, no gate).
 */
export function notifyJob(gameId: string, version: number, status: string, mail: boolean): JobSpec {
  return {
    // It must not give up (its gate stays open until it ends): a failing one is tried again, at most every 6 hours.
    // Keyed by its gate, as every gated job is: a gate with no job of its key is stuck (stuckGates).
    task: TASKS.notify, payload: { gameId, version, status, gated: true }, key: notifyGate(gameId), maxAttempts: 1000, priority: priorityOf(TASKS.notify), when: mail ? 'listened-or-mail' : 'listened',
    gate: { key: notifyGate(gameId), after: version - 1 },
  };
}

/** `mail`: a player who wants mail listens too (mail is on and webhooks can be signed). */
export function notifyPlanner(mail: boolean): JobPlanner {
  return ({ game, version, summary }) => [notifyJob(game.id, version, summary.status, mail)];
}

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
