/**
 * The notifications' tasks (registered by src/workers/tasks.ts):
 *   notify           a game's commits' outbox rows → their deliveries (added by the statement of
 *                    the commit that opens the game's notify gate; one job a game at a time)
 *   notify-deadline  DEADLINE_SOON for a game's seat → its deliveries
 *   webhook          a webhook's sender: its deliveries' POSTs one at a time, signed as Standard
 *                    Webhooks do; a failed one is tried again after e^attempts s (the same
 *                    webhook-id) until a 2xx or the last attempt (src/app/notifications.ts)
 *   mail             one mail over SMTP (nodemailer)
 * Each attempt of a webhook has 5 seconds, for everything (connecting, sending, the
 * answer's status line and headers, at most 16 KiB); the answer's body is never read (the
 * connection is closed once the status is known), so neither a target that never answers
 * nor one that sends 200 MiB holds a runner longer. A webhook's deliveries run one at a
 * time (one sender job a webhook, its gate), so a slow target holds one runner at most. The address it
 * connects to is checked again (no private address unless allowed) and redirects are not
 * followed.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import nodemailer from 'nodemailer';
import type { Notifications } from '../app/notifications.ts';
import { signWebhook } from '../app/notifications.ts';
import { guardedLookup, isPrivateAddress } from '../app/targets.ts';
import { TASKS, type TaskRegistry } from '../app/tasks.ts';

export const WEBHOOK_TIMEOUT_MS = 5_000;
/** The most of an answer read: its status line and headers (node's maxHeaderSize); the body is not read. */
export const WEBHOOK_MAX_ANSWER_HEADER_BYTES = 16 * 1024;
/** RFC 3834: every mail the service sends is a program's, so no auto-responder answers it. */
const AUTO = { 'Auto-Submitted': 'auto-generated' };
const USER_AGENT = 'wargame-service-webhooks/1';

export interface MailerOptions {
  smtpUrl: string;
  from: string;
}

/** POSTs `body` to `url`: the status, or why it failed. Never follows a redirect. */
export function post(url: string, headers: Record<string, string>, body: string, opts: { allowPrivate: boolean; timeoutMs?: number }): Promise<{ status: number } | { error: string }> {
  return new Promise((resolve) => {
    const target = new URL(url);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (!opts.allowPrivate && isIP(host) && isPrivateAddress(host)) return resolve({ error: `${host} is a private address: not delivered` });
    const client = target.protocol === 'https:' ? https : http;
    const timeoutMs = opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
    let done = false;
    const finish = (r: { status: number } | { error: string }) => {
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
        agent: false,
        maxHeaderSize: WEBHOOK_MAX_ANSWER_HEADER_BYTES,
      },
      (res) => {
        // The status is the answer: the body is not read, the connection closed at once.
        finish({ status: res.statusCode ?? 0 });
        res.destroy();
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish({ error: `no answer within ${timeoutMs / 1000} s` });
    }, timeoutMs);
    req.on('error', (e) => finish({ error: e.message }));
    req.end(body);
  });
}

export function defineNotificationTasks(queue: TaskRegistry, notifications: Notifications, mailer: MailerOptions | null, log: (msg: string) => void = () => {}): { close(): void } {
  const transport = mailer ? nodemailer.createTransport(mailer.smtpUrl) : null;

  queue.define(TASKS.notify, async (p) => {
    await notifications.fanOut(String(p.gameId), Number(p.version), String(p.status), p.gated === true);
  });

  queue.define(TASKS.deadlineNotice, async (p) => {
    await notifications.fanOutDeadline(String(p.gameId), String(p.seat), Number(p.version), new Date(String(p.deadline)));
  });

  queue.define(TASKS.webhook, async (p) => {
    await notifications.webhookTask(p, async (webhook, secret, delivery) => {
      const body = JSON.stringify(delivery.body);
      const timestamp = Math.floor(Date.now() / 1000);
      const headers = { 'webhook-id': delivery.id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signWebhook(secret, delivery.id, timestamp, body) };
      const outcome = await post(webhook.url, headers, body, { allowPrivate: notifications.options.allowPrivate });
      const ok = 'status' in outcome && outcome.status >= 200 && outcome.status < 300;
      const error = ok ? undefined : 'error' in outcome ? outcome.error : outcome.status >= 300 && outcome.status < 400 ? `answered ${outcome.status}: redirects are not followed` : `answered ${outcome.status}`;
      return { ok, error };
    });
  });

  queue.define(TASKS.mail, async (p, helpers) => {
    if (!transport || !mailer) return;
    const message = p.message as { to: string; subject: string; text: string; html?: string; replyTo?: string; messageId?: string; inReplyTo?: string; references?: string[]; headers?: Record<string, string> } | undefined;
    if (message) {
      await transport.sendMail({ from: mailer.from, ...message, headers: { ...message.headers, ...AUTO } });
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

  return { close: () => transport?.close() };
}
