/**
 * The notifications' tasks (registered by src/workers/tasks.ts), and the dispatcher's POST:
 *   dispatcher       the outbox → deliveries, and the webhooks' POSTs, signed as Standard Webhooks
 *                    do; a failed one is tried again after e^attempts s (the same webhook-id)
 *                    until a 2xx or the last attempt (src/app/dispatch.ts: one process at a time)
 *   notify-deadline  DEADLINE_SOON for a game's seat → its deliveries
 *   mail             one mail over SMTP (nodemailer); one naming its player (the digest) only
 *                    if they still want it when it runs
 *   notify, webhook  jobs of the releases before the dispatcher: nothing to do (it fans out every
 *                    row they would have, and sends every pending delivery)
 * Each attempt of a webhook has 5 seconds, for everything (connecting, sending, the
 * answer's status line and headers, at most 16 KiB); the attempt's outcome is its status,
 * known before any of the body. Connections are kept alive between a target's POSTs (a new
 * TCP connection a delivery cost the server about a tenth of its CPU in the bench's webhook
 * run): the body is read and dropped in the background, at most 64 KiB within a second, else
 * the connection is closed, so neither a target that never answers nor one that sends
 * 200 MiB holds a lane or a connection longer. A webhook's deliveries run one at a
 * time (its lane in the dispatcher), so a slow target holds up only its own. The address it
 * connects to is checked again (no private address unless allowed) and redirects are not
 * followed.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import nodemailer from 'nodemailer';
import type { Core } from '../app/core.ts';
import { signWebhook, type WebhookSend } from '../app/notifications.ts';
import { guardedLookup, isPrivateAddress } from '../app/targets.ts';
import { TASKS, type TaskRegistry } from '../app/tasks.ts';

export const WEBHOOK_TIMEOUT_MS = 5_000;
/** The most of an answer's status line and headers (node's maxHeaderSize). */
export const WEBHOOK_MAX_ANSWER_HEADER_BYTES = 16 * 1024;
/** The most of an answer's body read (and dropped) so that its connection can serve the next POST; past it, or past the time, the connection is closed. */
export const WEBHOOK_MAX_DRAINED_BYTES = 64 * 1024;
const WEBHOOK_DRAIN_MS = 1_000;

/**
 * Kept-alive connections, one pool for targets checked as public only and one for those where
 * private addresses are allowed: an agent pools by host and port, not by the lookup that
 * checked the address, so a connection opened under one rule never serves a POST under the
 * other. Idle ones close after 4 s (before the 5 s of Node's own servers).
 */
const agents = new Map<string, http.Agent>();
function agentFor(protocol: string, allowPrivate: boolean): http.Agent {
  const key = `${protocol}${allowPrivate}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: true, timeout: 4_000, maxFreeSockets: 64, scheduling: 'lifo' as const };
    agents.set(key, (agent = protocol === 'https:' ? new https.Agent(options) : new http.Agent(options)));
  }
  return agent;
}
/** RFC 3834: every mail the service sends is a program's, so no auto-responder answers it. */
const AUTO = { 'Auto-Submitted': 'auto-generated' };
const USER_AGENT = 'wargame-service-webhooks/1';

export interface MailerOptions {
  smtpUrl: string;
  from: string;
}

/** POSTs `body` to `url`: the status, or why it failed. Never follows a redirect. */
export function post(url: string, headers: Record<string, string>, body: string, opts: { allowPrivate: boolean; timeoutMs?: number }): Promise<{ status: number } | { error: string }> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (!opts.allowPrivate && isIP(host) && isPrivateAddress(host)) return Promise.resolve({ error: `${host} is a private address: not delivered` });
  const started = Date.now();
  return postOnce(target, headers, body, opts, opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS).then((r) =>
    // A kept-alive connection the target closed as this POST went out: once more on a new one (Node's advice for req.reusedSocket).
    'reused' in r ? postOnce(target, headers, body, opts, Math.max(1, (opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS) - (Date.now() - started)), true) : r,
  ) as Promise<{ status: number } | { error: string }>;
}

function postOnce(target: URL, headers: Record<string, string>, body: string, opts: { allowPrivate: boolean }, timeoutMs: number, fresh = false): Promise<{ status: number } | { error: string } | { reused: true }> {
  return new Promise((resolve) => {
    const client = target.protocol === 'https:' ? https : http;
    let done = false;
    const finish = (r: { status: number } | { error: string } | { reused: true }) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = client.request(
      target,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT, 'content-length': String(Buffer.byteLength(body)), ...headers },
        lookup: guardedLookup(opts.allowPrivate) as never,
        // A retry after a reused connection failed takes a new one.
        agent: fresh ? false : agentFor(target.protocol, opts.allowPrivate),
        maxHeaderSize: WEBHOOK_MAX_ANSWER_HEADER_BYTES,
      },
      (res) => {
        // The status is the answer; the body is dropped as it comes, so the connection can serve the next POST.
        finish({ status: res.statusCode ?? 0 });
        let read = 0;
        const drain = setTimeout(() => res.destroy(), WEBHOOK_DRAIN_MS);
        res.on('data', (chunk: Buffer) => {
          if ((read += chunk.length) > WEBHOOK_MAX_DRAINED_BYTES) res.destroy();
        });
        res.on('close', () => clearTimeout(drain));
        res.on('error', () => {});
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish({ error: `no answer within ${timeoutMs / 1000} s` });
    }, timeoutMs);
    req.on('error', (e: NodeJS.ErrnoException) => finish(!fresh && req.reusedSocket && (e.code === 'ECONNRESET' || e.code === 'EPIPE') ? { reused: true } : { error: e.message }));
    req.end(body);
  });
}

/** One signed POST of a delivery (the dispatcher's `send`). */
export function webhookSender(allowPrivate: boolean): WebhookSend {
  return async (webhook, secret, delivery) => {
    const body = JSON.stringify(delivery.body);
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = { 'webhook-id': delivery.id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signWebhook(secret, delivery.id, timestamp, body) };
    const outcome = await post(webhook.url, headers, body, { allowPrivate });
    const ok = 'status' in outcome && outcome.status >= 200 && outcome.status < 300;
    const error = ok ? undefined : 'error' in outcome ? outcome.error : outcome.status >= 300 && outcome.status < 400 ? `answered ${outcome.status}: redirects are not followed` : `answered ${outcome.status}`;
    return { ok, error };
  };
}

/**
 * Registers the notifications' tasks and, with `dispatch`, starts the dispatcher (it runs only
 * while this process holds its lease). Returns what to stop when the worker stops.
 */
export function defineNotificationTasks(queue: TaskRegistry, core: Core, mailer: MailerOptions | null, log: (msg: string) => void, dispatch: boolean): { stop(): Promise<void>; close(): void } {
  const notifications = core.notifications;
  const transport = mailer ? nodemailer.createTransport(mailer.smtpUrl) : null;

  // Jobs of the releases before the dispatcher (a commit's fan-out, a webhook's sender or its timer): it does their work.
  queue.define(TASKS.notify, async () => {});
  queue.define(TASKS.webhook, async () => {});

  queue.define(TASKS.deadlineNotice, async (p) => {
    await notifications.fanOutDeadline(String(p.gameId), String(p.seat), Number(p.version), new Date(String(p.deadline)));
  });

  queue.define(TASKS.mail, async (p, helpers) => {
    if (!transport || !mailer) return;
    const message = p.message as { to: string; subject: string; text: string; html?: string; replyTo?: string; messageId?: string; inReplyTo?: string; references?: string[]; headers?: Record<string, string> } | undefined;
    if (message) {
      // A job naming its player (the digest) goes out only if they still want it, to their
      // address and with their unsubscribe link now; one with the message alone (answers,
      // jobs queued before) as written.
      const now = typeof p.playerId === 'string' ? await notifications.mailNow(p.playerId, p.digest === true, message, typeof p.unsubscribe === 'string' ? p.unsubscribe : undefined) : message;
      if (!now) {
        log(`mail to player ${p.playerId} dropped: they no longer want it`);
        return;
      }
      await transport.sendMail({ from: mailer.from, ...now, headers: { ...now.headers, ...AUTO } });
      return;
    }
    const found = await notifications.mailOf(String(p.id));
    if (!found) return;
    try {
      await transport.sendMail({
        from: mailer.from, to: found.to, subject: found.mail.subject, text: found.mail.text, html: found.mail.html,
        headers: { ...AUTO, 'List-Unsubscribe': `<${found.unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
        messageId: found.mail.messageId ?? `<${found.delivery.id}@wargame-service>`,
        ...(found.mail.replyTo ? { replyTo: found.mail.replyTo } : {}),
      });
    } catch (error) {
      const last = helpers.attempts >= helpers.maxAttempts;
      await notifications.store.attempted(found.delivery.id, { status: last ? 'FAILED' : 'PENDING', error: (error as Error).message });
      log(`mail ${found.delivery.id} failed: ${(error as Error).message}`);
      throw error;
    }
    await notifications.store.attempted(found.delivery.id, { status: 'DELIVERED', error: null });
  });

  const dispatcher = dispatch ? core.dispatcher({ send: webhookSender(notifications.options.allowPrivate), log }) : null;
  dispatcher?.start();
  return {
    // Before the database closes: the dispatcher records what it sent.
    stop: async () => dispatcher?.stop(),
    // After the queue's runners stopped: a mail job in flight keeps its transport until then.
    close: () => transport?.close(),
  };
}
