/**
 * The notifications' dispatcher: one at a time across every process running workers (the
 * store's lease), it follows the outbox and sends the webhooks' deliveries. No job of the queue
 * and no lock of a commit is on this path: a commit's outbox rows are the work, and the
 * dispatcher takes many games' commits in each of its statements.
 *
 *   fan-out  the outbox after the mark → deliveries, the mark moved on with them (one statement:
 *            Notifications.fanOutTail); woken by every commit (WakeUps.onCommit) and every second
 *   send     the due webhook deliveries, read with the successes before recorded (one statement:
 *            WebhookStore.sendable); each webhook's in the order fanned out, one in flight per
 *            webhook (its lane here: the one dispatcher is the only sender), many webhooks at once
 *
 * At least once: a success is recorded after its POST (with the next read), so a dispatcher that
 * dies before sends it again, with the same webhook-id, from the next holder. Mails are jobs of
 * the queue (written with their deliveries), sent by any process's workers.
 */
import type { Notifications, WebhookSend } from './notifications.ts';
import type { DeliveryRecord, DispatchLease, WakeUps, WebhookRecord, WebhookStore } from './ports.ts';

export interface DispatchOptions {
  send: WebhookSend;
  log?: (msg: string) => void;
  /** How often the dispatcher looks without being woken (retries coming due, mails' and messages' deliveries written elsewhere), ms. */
  pollMs?: number;
  /** Webhooks sent to at once. */
  lanes?: number;
  /** The least time between two looks, ms: under load, each look takes the commits of many games. */
  gapMs?: number;
  /** The least time after a look that found nothing to do (no one listens to the games committing), ms. */
  idleGapMs?: number;
}

/** Deliveries of one webhook read at a time (its lane sends them in order, then asks again). */
const PER_WEBHOOK = 25;
/** Deliveries read at a time across every webhook. */
const SEND_BATCH = 400;

export class Dispatcher {
  #running = false;
  /** Stopped, or the lease lost: lanes send no more. */
  #halted = false;
  #wake: (() => void) | null = null;
  #woken = false;
  #loop: Promise<void> | null = null;
  /** A webhook's lane: its deliveries being sent, one at a time. */
  readonly #lanes = new Map<string, Promise<void>>();
  /** Successes not recorded yet (recorded by the next read). */
  #delivered: string[] = [];
  /**
   * The store's record-and-read, one at a time: a read whose snapshot came before another's
   * record could take the successes that one recorded for due, and send them again.
   */
  #serial: Promise<unknown> = Promise.resolve();
  /** Failing in a row (logged once, until it works again). */
  #failing = false;
  readonly #pollMs: number;
  readonly #gapMs: number;
  readonly #idleGapMs: number;
  readonly #maxLanes: number;
  readonly #log: (msg: string) => void;

  constructor(
    private readonly notifications: Notifications,
    private readonly store: WebhookStore,
    private readonly wakeUps: WakeUps,
    private readonly options: DispatchOptions,
  ) {
    this.#pollMs = options.pollMs ?? 1000;
    this.#gapMs = options.gapMs ?? 100;
    this.#idleGapMs = options.idleGapMs ?? 100;
    this.#maxLanes = options.lanes ?? 16;
    this.#log = options.log ?? (() => {});
  }

  /** Starts trying for the lease, and dispatches while it holds it. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    const off = this.wakeUps.onCommit(() => this.kick());
    this.#loop = this.#run().finally(off);
  }

  /** Stops: the lanes end after their POST in flight, the successes are recorded, the lease let go. */
  async stop(): Promise<void> {
    if (!this.#running) return;
    this.#running = false;
    this.#halted = true;
    this.kick();
    await this.#loop;
  }

  /** Something may be due: look now rather than at the next poll. */
  kick(): void {
    this.#woken = true;
    this.#wake?.();
  }

  async #run(): Promise<void> {
    while (this.#running) {
      let lease: DispatchLease | null = null;
      try {
        lease = await this.store.lease();
        this.#failing = false;
      } catch (error) {
        this.#trouble(`cannot ask for the dispatcher's lease: ${(error as Error).message}`, this.#pollMs * 2);
      }
      if (!lease) {
        await this.#sleep(this.#pollMs * 2, false);
        continue;
      }
      this.#halted = false;
      let lost = false;
      void lease.lost.then(() => {
        lost = true;
        this.#halted = true;
        this.kick();
      });
      while (this.#running && !lost) {
        const started = Date.now();
        let useful = true;
        try {
          this.#woken = false;
          useful = await this.pass();
          this.#failing = false;
        } catch (error) {
          this.#trouble(`dispatching failed: ${(error as Error).message}`, this.#pollMs);
          await this.#sleep(this.#pollMs, false);
          continue;
        }
        if (!this.#woken) await this.#sleep(this.#pollMs);
        else {
          // Woken again at once: wait a little, so the next look takes many commits (longer after a look for nothing).
          const gap = (useful ? this.#gapMs : this.#idleGapMs) - (Date.now() - started);
          if (gap > 0) await new Promise((r) => setTimeout(r, gap));
        }
      }
      this.#halted = true;
      await Promise.allSettled(this.#lanes.values());
      // Lost or not, what was sent is recorded if the database answers (else the next holder sends it again).
      await this.#record().catch(() => {});
      this.#delivered = [];
      await lease.release();
      if (lost && this.#running) this.#log('notifications: the dispatcher\'s lease was lost; asking again');
    }
  }

  /**
   * One look: the outbox fanned out as far as it goes, then a lane started for each webhook with
   * deliveries due (and none running). Public for the core's tests (memory ports, no loop).
   * False: it found nothing to do (no delivery written, none due, none being sent).
   */
  async pass(): Promise<boolean> {
    let useful = this.#lanes.size > 0;
    // A full read may have more behind it; a short one was all there was (commits after it wake the next look).
    for (;;) {
      const { more, skipped, written } = await this.notifications.fanOutTail();
      if (written.length > 0) useful = true;
      for (const s of skipped) this.#log(`notifications: the commits of game ${s.gameId} after outbox row ${s.rowId} could not be fanned out (${s.error}), three times: skipped, so that the others' go out`);
      if (!more) break;
    }
    const free = this.#maxLanes - this.#lanes.size;
    const rows = await this.#sendable(free > 0 ? SEND_BATCH : 0);
    const byWebhook = new Map<string, { webhook: WebhookRecord | null; due: DeliveryRecord[] }>();
    for (const { delivery, webhook } of rows) {
      const id = delivery.webhookId!;
      const entry = byWebhook.get(id) ?? { webhook, due: [] };
      entry.due.push(delivery);
      byWebhook.set(id, entry);
    }
    for (const [id, { webhook, due }] of byWebhook) {
      if (this.#lanes.size >= this.#maxLanes) break;
      const lane = this.#lane(id, webhook, due).finally(() => {
        this.#lanes.delete(id);
        this.kick();
      });
      this.#lanes.set(id, lane);
    }
    return useful || rows.length > 0;
  }

  /** Waits for every lane, then records their successes (the core's tests: one pass, all sent). */
  async settle(): Promise<void> {
    while (this.#lanes.size > 0) await Promise.allSettled([...this.#lanes.values()]);
    await this.#record();
  }

  async #record(): Promise<void> {
    if (this.#delivered.length > 0) await this.#sendable(0);
  }

  /** The successes so far recorded, then (limit > 0) what is due of the webhooks not being sent to: one call at a time. */
  #sendable(limit: number): Promise<{ delivery: DeliveryRecord; webhook: WebhookRecord | null }[]> {
    const next = this.#serial.then(() => this.store.sendable(limit, PER_WEBHOOK, [...this.#lanes.keys()], this.#delivered.splice(0)));
    this.#serial = next.catch(() => {});
    return next;
  }

  #trouble(message: string, againMs: number): void {
    if (!this.#failing) this.#log(`notifications: ${message} (trying again every ${againMs / 1000} s; said once until it works)`);
    this.#failing = true;
  }

  /** A webhook's due deliveries, in order, one at a time. */
  async #lane(webhookId: string, webhook: WebhookRecord | null, due: DeliveryRecord[]): Promise<void> {
    try {
      if (!webhook || webhook.disabledAt) {
        await this.store.cancelPending(webhookId, webhook ? `the webhook was disabled: ${webhook.disabledReason}` : 'the webhook was deleted');
        return;
      }
      let secret: string;
      try {
        secret = this.notifications.open(webhook);
      } catch (error) {
        // Its secret cannot be read (WEBHOOK_SECRET_KEY changed): a failed attempt, so it backs off and is disabled in time.
        await this.#record();
        await this.notifications.webhookFailed(due[0]!, webhook, { error: (error as Error).message });
        return;
      }
      for (const delivery of due) {
        if (this.#halted) return;
        const outcome = await this.options.send(webhook, secret, delivery);
        if (outcome.ok) {
          this.#delivered.push(delivery.id);
          continue;
        }
        // A failure counts in a row after the successes before it: those are recorded first.
        await this.#record();
        // Disabled by it: the rest are cancelled by the next read, which sees it disabled.
        if (await this.notifications.webhookFailed(delivery, webhook, outcome)) return;
      }
    } catch (error) {
      this.#log(`notifications: sending to webhook ${webhookId} failed: ${(error as Error).message}`);
    }
  }

  /**
   * Waits `ms`. A kick (a commit, on any process) ends it early only when `kicked`: waiting for
   * the lease, or after a failure, there is nothing a commit changes, and each ask again is a new
   * connection (one a commit in a process beside the holder; a whole core's worth of them with
   * the database down and a kick left over). stop() always ends it.
   */
  #sleep(ms: number, kicked = true): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = () => {
        if (kicked || !this.#running) {
          this.#wake = null;
          done();
        }
      };
      if ((kicked && this.#woken) || !this.#running) this.#wake();
    });
  }
}
