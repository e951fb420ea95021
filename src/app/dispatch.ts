/**
 * The notifications' dispatcher: one at a time across every process running workers (the
 * store's lease), it follows the outbox and sends the webhooks' deliveries. No job of the queue
 * and no lock of a commit is on this path: a commit's outbox rows are the work, and the
 * dispatcher takes many games' commits in each of its statements.
 *
 *   fan-out  the outbox after the mark → deliveries, the mark moved on with them (one statement:
 *            Notifications.fanOutTail); woken by every commit (WakeUps.onCommit) and every second
 *            A webhook with nothing pending (none written unsent, none failing, no lane running)
 *            is sent its new deliveries before they are written (`#sendFirst`, up to
 *            SEND_FIRST_MS): those sent by then are written DELIVERED, the rest PENDING, and a
 *            lane still sending goes on. So a delivery that succeeds at once costs one row
 *            written, not a row written, read again and updated.
 *   send     the due webhook deliveries, read with the successes before recorded (one statement:
 *            WebhookStore.sendable); each webhook's in the order fanned out, one in flight per
 *            webhook (its lane here: the one dispatcher is the only sender), many webhooks at once
 *
 * At least once: a success is recorded after its POST (written with its fan-out, or with the
 * next read), so a dispatcher that dies before sends it again, with the same webhook-id, from
 * the next holder (the mark moves only with the deliveries written). Mails are jobs of the queue
 * (written with their deliveries), sent by any process's workers. A message's or a deadline's
 * webhook delivery is written by a job (not fanned out here): it may go out before or after a
 * commit's delivery made at about the same time.
 */
import type { Notifications, WebhookSend } from './notifications.ts';
import type { DeliveryRecord, DispatchLease, NewDelivery, WakeUps, WebhookRecord, WebhookStore } from './ports.ts';

/** A JSON value with its objects' keys as PostgreSQL's jsonb keeps them: shorter first, then in byte order. */
function asStored(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asStored);
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value).sort((a, b) => Buffer.byteLength(a) - Buffer.byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return Object.fromEntries(keys.map((k) => [k, asStored((value as Record<string, unknown>)[k])]));
}

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
/** How long a fan-out waits for the deliveries it sends before writing them, ms: those unsent by then are written pending. */
const SEND_FIRST_MS = 200;

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
  /**
   * Webhooks with deliveries pending that this holder knows of (written unsent, or more due than
   * a read took), each with when it learned of the last (#learned): their new deliveries are
   * written first and sent in order by the reads, never before the pending ones. A webhook leaves
   * once a lane has sent everything pending of it that was known when its read began.
   */
  readonly #backlog = new Map<string, number>();
  #learned = 0;
  /** A read since the lease was taken has shown every webhook's due deliveries: until then, nothing is sent before it is written. */
  #primed = false;
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
        this.#trouble(`cannot ask for the dispatcher's lease: ${(error as Error).message}`);
      }
      if (!lease) {
        await this.#sleep(this.#pollMs * 2);
        continue;
      }
      this.#halted = false;
      // A holder before this one may have left deliveries pending: the first full read shows them.
      this.#primed = false;
      this.#backlog.clear();
      this.#learned = 0;
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
          this.#trouble(`dispatching failed: ${(error as Error).message}`);
          await this.#sleep(this.#pollMs);
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
      // Resolved once this fan-out's deliveries are written: a failed send of one is recorded after.
      let stored!: (ok: boolean) => void;
      const written$ = new Promise<boolean>((resolve) => (stored = resolve));
      let result: Awaited<ReturnType<Notifications['fanOutTail']>>;
      try {
        result = await this.notifications.fanOutTail(undefined, (deliveries, webhooks) => this.#sendFirst(deliveries, webhooks, written$));
      } finally {
        stored(result! !== undefined);
      }
      const { more, skipped, written } = result;
      if (written.length > 0) useful = true;
      for (const s of skipped) this.#log(`notifications: the commits of game ${s.gameId} after outbox row ${s.rowId} could not be fanned out (${s.error}), three times: skipped, so that the others' go out`);
      if (!more) break;
    }
    const free = this.#maxLanes - this.#lanes.size;
    const limit = free > 0 ? SEND_BATCH : 0;
    // What was pending before the read is in it, unless it was full.
    const since = this.#learned;
    const rows = await this.#sendable(limit);
    const whole = limit > 0 && rows.length < limit;
    if (whole) this.#primed = true;
    const byWebhook = new Map<string, { webhook: WebhookRecord | null; due: DeliveryRecord[] }>();
    for (const { delivery, webhook } of rows) {
      const id = delivery.webhookId!;
      const entry = byWebhook.get(id) ?? { webhook, due: [] };
      entry.due.push(delivery);
      byWebhook.set(id, entry);
    }
    if (whole) for (const id of this.#backlog.keys()) if (!byWebhook.has(id) && !this.#lanes.has(id)) this.#caughtUp(id, since);
    for (const [id, { webhook, due }] of byWebhook) {
      // All of the webhook's due deliveries, or more are behind them.
      const all = whole && due.length < PER_WEBHOOK;
      if (!all || this.#lanes.size >= this.#maxLanes) this.#pending(id);
      if (this.#lanes.size >= this.#maxLanes) continue;
      const lane = this.#lane(id, webhook, due)
        .then((sentAll) => {
          if (sentAll && all) this.#caughtUp(id, since);
        })
        .finally(() => {
          this.#lanes.delete(id);
          this.kick();
        });
      this.#lanes.set(id, lane);
    }
    return useful || rows.length > 0;
  }

  /** The webhook has deliveries pending (written unsent, or due beyond a read). */
  #pending(id: string): void {
    this.#backlog.set(id, ++this.#learned);
  }

  /** The webhook's deliveries pending as of `since` are all sent: unless more were learned of since, it has no backlog. */
  #caughtUp(id: string, since: number): void {
    if ((this.#backlog.get(id) ?? 0) <= since) this.#backlog.delete(id);
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

  #trouble(message: string): void {
    if (!this.#failing) this.#log(`notifications: ${message} (trying again every second; said once until it works)`);
    this.#failing = true;
  }

  /**
   * The fan-out's webhook deliveries, before they are written: each webhook with nothing
   * pending, enabled and not failing, is sent its deliveries in order in a lane of its own, and
   * the fan-out waits for them up to SEND_FIRST_MS. Answers those sent by then (written
   * DELIVERED); the rest are written PENDING, and a lane still sending goes on, its later
   * successes recorded by the next read. `written$`: the fan-out's write is done (true) or failed.
   */
  async #sendFirst(deliveries: NewDelivery[], webhooks: Map<string, WebhookRecord>, written$: Promise<boolean>): Promise<Set<string>> {
    const sent = new Set<string>();
    if (!this.#primed || this.#halted) return sent;
    const byWebhook = new Map<string, NewDelivery[]>();
    for (const d of deliveries) byWebhook.set(d.webhookId!, [...(byWebhook.get(d.webhookId!) ?? []), d]);
    let cut = false;
    /** When the deliveries a lane had not sent by the cut were learned of as pending. */
    const left = new Map<string, number>();
    const lanes = new Map<string, Promise<void>>();
    for (const [id, list] of byWebhook) {
      const webhook = webhooks.get(id);
      if (!webhook || webhook.failures > 0 || this.#backlog.has(id) || this.#lanes.has(id) || this.#lanes.size >= this.#maxLanes) {
        this.#pending(id);
        continue;
      }
      const delivered = (deliveryId: string) => (cut ? this.#delivered.push(deliveryId) : sent.add(deliveryId));
      const lane = this.#firstLane(webhook, list, delivered, written$)
        .then((sentAll) => {
          // Sent the rest after the cut: what it left pending is sent.
          if (sentAll && left.has(id)) this.#caughtUp(id, left.get(id)!);
        })
        .finally(() => {
          this.#lanes.delete(id);
          this.kick();
        });
      this.#lanes.set(id, lane);
      lanes.set(id, lane);
    }
    if (lanes.size > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([Promise.allSettled(lanes.values()), new Promise((resolve) => (timer = setTimeout(resolve, SEND_FIRST_MS)))]);
      clearTimeout(timer);
    }
    cut = true;
    // What a lane has not sent by now is written pending (sent by the lane if it goes on, else by a read).
    for (const id of lanes.keys()) {
      if (byWebhook.get(id)!.every((d) => sent.has(d.id))) continue;
      this.#pending(id);
      left.set(id, this.#learned);
    }
    return sent;
  }

  /** A webhook's new deliveries, in order, one at a time, before they are written (a failure is recorded once they are). */
  async #firstLane(webhook: WebhookRecord, list: NewDelivery[], delivered: (id: string) => void, written$: Promise<boolean>): Promise<boolean> {
    let sentAll = true;
    try {
      let secret: string;
      try {
        secret = this.notifications.open(webhook);
      } catch {
        return false; // written pending: the read's lane records the failure
      }
      for (const d of list) {
        if (this.#halted) return false;
        const now = new Date();
        const { sent: _, ...fields } = d;
        // The body as a retry reads it back, so that every attempt sends the same bytes.
        const delivery: DeliveryRecord = { ...fields, body: asStored(fields.body) as DeliveryRecord['body'], status: 'PENDING', attempts: 0, lastError: null, createdAt: now, updatedAt: now };
        const outcome = await this.options.send(webhook, secret, delivery);
        if (outcome.ok) {
          delivered(d.id);
          continue;
        }
        sentAll = false;
        // Its row must be written to record the failure; if the write failed, the next holder or look sends it again.
        if (!(await written$)) return false;
        await this.#record();
        if (await this.notifications.webhookFailed(delivery, webhook, outcome)) return false;
      }
      return sentAll;
    } catch (error) {
      this.#log(`notifications: sending to webhook ${webhook.id} failed: ${(error as Error).message}`);
      return false;
    }
  }

  /** A webhook's due deliveries, in order, one at a time; true when every one was sent. */
  async #lane(webhookId: string, webhook: WebhookRecord | null, due: DeliveryRecord[]): Promise<boolean> {
    let sentAll = true;
    try {
      if (!webhook || webhook.disabledAt) {
        await this.store.cancelPending(webhookId, webhook ? `the webhook was disabled: ${webhook.disabledReason}` : 'the webhook was deleted');
        return false;
      }
      let secret: string;
      try {
        secret = this.notifications.open(webhook);
      } catch (error) {
        // Its secret cannot be read (WEBHOOK_SECRET_KEY changed): a failed attempt, so it backs off and is disabled in time.
        await this.#record();
        await this.notifications.webhookFailed(due[0]!, webhook, { error: (error as Error).message });
        return false;
      }
      for (const delivery of due) {
        if (this.#halted) return false;
        const outcome = await this.options.send(webhook, secret, delivery);
        if (outcome.ok) {
          this.#delivered.push(delivery.id);
          continue;
        }
        sentAll = false;
        // A failure counts in a row after the successes before it: those are recorded first.
        await this.#record();
        // Disabled by it: the rest are cancelled by the next read, which sees it disabled.
        if (await this.notifications.webhookFailed(delivery, webhook, outcome)) return false;
      }
      return sentAll;
    } catch (error) {
      this.#log(`notifications: sending to webhook ${webhookId} failed: ${(error as Error).message}`);
      return false;
    }
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = () => {
        this.#wake = null;
        done();
      };
      if (this.#woken || !this.#running) this.#wake();
    });
  }
}
