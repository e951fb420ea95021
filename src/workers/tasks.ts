/**
 * The worker role: every task of the job queue, each a payload in and a core call out.
 * Which jobs exist is the planners' business (src/app/planners.ts), when they run the
 * queue's; here is only what each does. src/server.ts registers these with the queue's
 * runner in a process that runs workers (WORKERS=true, or `npm run worker`).
 */
import type { Core } from '../app/core.ts';
import { deadlineJobOf } from '../app/deadlines.ts';
import { TASKS, type TaskRegistry } from '../app/tasks.ts';
import { defineNotificationTasks, type MailerOptions } from './notifications.ts';

export interface WorkerOptions {
  /** SMTP for mail (null: mail jobs do nothing). */
  mailer: MailerOptions | null;
  log?: (msg: string) => void;
  /** Run the notifications' dispatcher here, while no other process holds it (default false). */
  dispatch?: boolean;
}

/**
 * Registers every task (and starts the dispatcher). When the worker stops: `stop` (the
 * dispatcher) before the database closes, `close` (the mail transport) after the queue's runners.
 */
export function defineTasks(queue: TaskRegistry, core: Core, options: WorkerOptions): { stop(): Promise<void>; close(): void } {
  queue.define(TASKS.bot, async (p) => {
    await core.bots.move(String(p.gameId));
  });
  queue.define(TASKS.deadlinePassed, async (p) => {
    await core.deadlines.deadlinePassed(deadlineJobOf(p));
  });
  queue.define(TASKS.deadlineSoon, async (p) => {
    await core.deadlines.deadlineSoon(deadlineJobOf(p));
  });
  queue.define(TASKS.message, async (p) => {
    await core.messages.fanOut(String(p.gameId), String(p.id));
  });
  queue.define(TASKS.mailInbound, async (p) => {
    await core.mail.handle(String(p.id));
  });
  queue.define(TASKS.digestDay, async (p) => {
    await core.digests.day(String(p.day));
  });
  queue.define(TASKS.digest, async (p) => {
    await core.digests.digest(String(p.playerId), String(p.day));
  });
  return defineNotificationTasks(queue, core, options.mailer, options.log ?? (() => {}), options.dispatch ?? false);
}
