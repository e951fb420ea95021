/**
 * The job queue's tasks, each with its class. A class says how urgent a kind of job is
 * (its priority: lower runs first) and lets a process run some classes apart from the
 * others (Queue.start's `tasks`), so clock time-outs never wait behind a backlog of
 * webhook deliveries. The workers (src/workers/tasks.ts) define a function for each.
 */

export const TASKS = {
  /** A job of the releases before the dispatcher (a commit's fan-out): does nothing now, the dispatcher follows the outbox. */
  notify: 'notify',
  /** A message between players → its deliveries (webhooks and mail of its recipients). */
  message: 'notify-message',
  /** DEADLINE_SOON for a game's seat → its deliveries. */
  deadlineNotice: 'notify-deadline',
  /** A job of the releases before the dispatcher (a webhook's sender): does nothing now, the dispatcher sends. */
  webhook: 'webhook',
  /** One mail. */
  mail: 'mail',
  /** One inbound mail (play by mail): read, applied or refused, answered. */
  mailInbound: 'mail_inbound',
  /** A seat's time ran out: the service submits timeOut. */
  deadlinePassed: 'deadline_passed',
  /** A quarter of a seat's time is left. */
  deadlineSoon: 'deadline_soon',
  /** A seat the service plays is awaited: the bot moves. */
  bot: 'bot_move',
  /** DIGEST_TIME came: one `digest` job per player who wants the daily digest, and the next day's. */
  digestDay: 'digest_day',
  /** One player's daily digest: composed, recorded once for the day, with its mail job. */
  digest: 'digest',
} as const;

export type TaskName = (typeof TASKS)[keyof typeof TASKS];

/** clock: deadlines; play: bot moves; delivery: one webhook POST or mail; fanout: a commit to its deliveries. */
export type JobClass = 'clock' | 'play' | 'delivery' | 'fanout';

export const TASK_CLASS: Record<TaskName, JobClass> = {
  [TASKS.deadlinePassed]: 'clock',
  [TASKS.deadlineSoon]: 'clock',
  [TASKS.bot]: 'play',
  [TASKS.webhook]: 'delivery',
  [TASKS.mail]: 'delivery',
  [TASKS.mailInbound]: 'play',
  [TASKS.notify]: 'fanout',
  [TASKS.deadlineNotice]: 'fanout',
  [TASKS.digestDay]: 'fanout',
  [TASKS.digest]: 'fanout',
  [TASKS.message]: 'fanout',
};

/**
 * graphile-worker runs lower priorities first. Deadlines and moves first; a delivery
 * already fanned out goes before the fan-out of later commits, so under load each commit's
 * POSTs leave as soon as it is fanned out rather than after every pending commit has been.
 */
export const CLASS_PRIORITY: Record<JobClass, number> = { clock: -3, play: -2, delivery: -1, fanout: 0 };

export const priorityOf = (task: TaskName): number => CLASS_PRIORITY[TASK_CLASS[task]];

/** The tasks of some classes (a runner that takes only these). */
export function tasksOf(classes: Iterable<JobClass>): TaskName[] {
  const wanted = new Set(classes);
  return (Object.keys(TASK_CLASS) as TaskName[]).filter((t) => wanted.has(TASK_CLASS[t]));
}

/** What a task knows of its job's attempts. */
export interface TaskContext {
  /** This attempt's number, from 1. */
  attempts: number;
  maxAttempts: number;
}

/** A task: payload in, a core call out; a throw makes the queue try again later. */
export type TaskFn = (payload: Record<string, unknown>, job: TaskContext) => Promise<void>;

/** Where tasks are registered (the job queue's runner, src/persistence/queue.ts). */
export interface TaskRegistry {
  define(name: TaskName | string, task: TaskFn): void;
}
