/**
 * Fans out "game X has new events" between server processes: every process LISTENs on
 * one PostgreSQL channel; appends NOTIFY inside their transaction, so a notification
 * arrives only after commit, on every process sharing the database. Listeners re-read
 * the store from their last version, so a lost or merged notification never loses an
 * event: after a reconnect every listener is woken to catch up.
 */
import pg from 'pg';
import { EVENTS_CHANNEL } from '../persistence/event-store.ts';

type Wake = () => void;

export class Notifier {
  private client: pg.Client | null = null;
  private readonly listeners = new Map<string, Set<Wake>>();
  private closed = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly url: string,
    private readonly log: (msg: string) => void,
  ) {}

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (msg) => {
      try {
        const { gameId } = JSON.parse(msg.payload ?? '{}') as { gameId?: string };
        if (gameId) this.wake(gameId);
      } catch {
        /* not ours */
      }
    });
    client.on('error', (error) => {
      this.log(`notification connection lost: ${error.message}`);
      this.reconnect();
    });
    client.on('end', () => this.reconnect());
    await client.connect();
    await client.query(`LISTEN ${EVENTS_CHANNEL}`);
    this.client = client;
  }

  private reconnect() {
    if (this.closed || this.retry) return;
    this.client = null;
    this.retry = setTimeout(async () => {
      this.retry = null;
      try {
        await this.start();
        for (const id of this.listeners.keys()) this.wake(id); // catch up on anything missed
      } catch (error) {
        this.log(`notification reconnect failed: ${(error as Error).message}`);
        this.reconnect();
      }
    }, 1000);
  }

  wake(gameId: string) {
    for (const fn of this.listeners.get(gameId) ?? []) fn();
  }

  /** Calls `wake` whenever the game may have new events; returns the unsubscribe. */
  listen(gameId: string, wake: Wake): () => void {
    let set = this.listeners.get(gameId);
    if (!set) this.listeners.set(gameId, (set = new Set()));
    set.add(wake);
    return () => {
      set.delete(wake);
      if (set.size === 0) this.listeners.delete(gameId);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}
