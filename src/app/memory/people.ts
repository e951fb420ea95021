/** The player and webhook stores in memory (see src/app/memory/index.ts). */
import type { CodeGuess, DeliveryJobs, DeliveryRecord, DispatchLease, NewDelivery, OutboxMark, PlayerRecord, PlayerStore, PlayerTokenRecord, TailEntry, WebhookRecord, WebhookStore } from '../ports.ts';
import { copy, type MemoryData } from './data.ts';

export class MemoryPlayers implements PlayerStore {
  constructor(private readonly d: MemoryData) {}

  async createPlayer(player: { id: string; name: string; email: string | null; emailCodeHash: string | null; emailCodeExpires: Date | null }, token: { id: string; name: string; tokenHash: string }) {
    const at = this.d.now();
    const record: PlayerRecord = { ...player, emailVerified: false, notifyByEmail: false, emailCodeAttempts: 0, unsubscribeVersion: 0, emailDigest: false, tokenGeneration: 0, createdAt: at, updatedAt: at };
    this.d.players.set(player.id, record);
    this.d.playerTokens.set(token.tokenHash, { id: token.id, playerId: player.id, name: token.name, tokenHash: token.tokenHash, createdAt: at, lastUsedAt: null });
    return copy(record);
  }

  async player(id: string) {
    const p = this.d.players.get(id);
    return p ? copy(p) : null;
  }

  async players(ids: string[]) {
    return ids.flatMap((id) => (this.d.players.has(id) ? [copy(this.d.players.get(id)!)] : []));
  }

  async updatePlayer(id: string, data: Partial<Omit<PlayerRecord, 'id' | 'createdAt' | 'updatedAt'>>) {
    const p = this.d.players.get(id);
    if (!p) throw new Error(`no player ${id}`);
    Object.assign(p, copy(data), { updatedAt: this.d.now() });
    return copy(p);
  }

  async guessCode(id: string, hash: string, max: number): Promise<CodeGuess> {
    const p = this.d.players.get(id);
    if (!p || p.emailVerified || !p.emailCodeHash || !p.emailCodeExpires || p.emailCodeExpires <= this.d.now() || p.emailCodeAttempts >= max) return { outcome: 'none' };
    const at = this.d.now();
    if (p.emailCodeHash === hash) {
      Object.assign(p, { emailVerified: true, emailCodeAttempts: 0, emailCodeHash: null, emailCodeExpires: null, updatedAt: at });
      return { outcome: 'verified' };
    }
    p.emailCodeAttempts++;
    if (p.emailCodeAttempts >= max) Object.assign(p, { emailCodeHash: null, emailCodeExpires: null });
    p.updatedAt = at;
    return { outcome: 'wrong', attempts: p.emailCodeAttempts };
  }

  async countRegistration(address: string) {
    const now = this.d.now();
    let r = this.d.registrations.get(address);
    if (!r || r.windowStart.getTime() <= now.getTime() - 60_000) this.d.registrations.set(address, (r = { windowStart: now, count: 0 }));
    r.count++;
    return { count: r.count, resetsAt: new Date(r.windowStart.getTime() + 60_000) };
  }

  async forgetRegistrations() {
    const before = this.d.now().getTime() - 600_000;
    for (const [address, r] of this.d.registrations) if (r.windowStart.getTime() < before) this.d.registrations.delete(address);
  }

  async unsubscribe(id: string, version: number) {
    const p = this.d.players.get(id);
    if (!p || p.unsubscribeVersion !== version) return null;
    Object.assign(p, { notifyByEmail: false, unsubscribeVersion: version + 1, updatedAt: this.d.now() });
    return { name: p.name };
  }

  async playerForToken(tokenHash: string) {
    const t = this.d.playerTokens.get(tokenHash);
    if (!t) return null;
    t.lastUsedAt = this.d.now();
    return { playerId: t.playerId, tokenId: t.id };
  }

  private out({ tokenHash: _, ...t }: PlayerTokenRecord & { tokenHash: string }): PlayerTokenRecord {
    return copy(t);
  }

  async createToken(token: { id: string; playerId: string; name: string; tokenHash: string }) {
    const record = { ...token, createdAt: this.d.now(), lastUsedAt: null };
    this.d.playerTokens.set(token.tokenHash, record);
    return this.out(record);
  }

  async tokens(playerId: string) {
    return [...this.d.playerTokens.values()].filter((t) => t.playerId === playerId).map((t) => this.out(t));
  }

  async countTokens(playerId: string) {
    return (await this.tokens(playerId)).length;
  }

  async revokeToken(playerId: string, id: string) {
    for (const [hash, t] of this.d.playerTokens) {
      if (t.id !== id || t.playerId !== playerId) continue;
      this.d.playerTokens.delete(hash);
      const p = this.d.players.get(playerId);
      if (p) p.tokenGeneration++;
      for (const listener of this.d.revocationListeners) queueMicrotask(() => listener(hash));
      return true;
    }
    return false;
  }
}

export class MemoryWebhooks implements WebhookStore {
  constructor(private readonly d: MemoryData) {}

  async create(w: Pick<WebhookRecord, 'id' | 'playerId' | 'gameId' | 'url' | 'events' | 'secret'>) {
    const record: WebhookRecord = { ...copy(w), failures: 0, disabledAt: null, disabledReason: null, createdAt: this.d.now() };
    this.d.webhooks.set(w.id, record);
    return copy(record);
  }

  async count(playerId: string) {
    return [...this.d.webhooks.values()].filter((w) => w.playerId === playerId).length;
  }

  async delete(playerId: string, id: string) {
    return this.d.webhooks.get(id)?.playerId === playerId && this.d.webhooks.delete(id);
  }

  async ofPlayer(playerId: string) {
    return [...this.d.webhooks.values()].filter((w) => w.playerId === playerId).map(copy);
  }

  async get(id: string) {
    const w = this.d.webhooks.get(id);
    return w ? copy(w) : null;
  }

  async listening(games: { id: string; playerIds: string[] }[]) {
    const hooks = [...this.d.webhooks.values()].filter((w) => !w.disabledAt).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return new Map(games.map((g) => [g.id, hooks.filter((w) => w.gameId === g.id || (w.gameId === null && g.playerIds.includes(w.playerId))).map(copy)]));
  }

  async deliveries(webhookId: string, first: number) {
    return [...this.d.deliveries.values()].filter((x) => x.webhookId === webhookId).reverse().slice(0, first).map(copy);
  }

  async delivery(id: string) {
    const x = this.d.deliveries.get(id);
    return x ? copy(x) : null;
  }

  async commandSeat(gameId: string, version: number) {
    return (this.d.commands.get(gameId) ?? []).find((c) => c.lastVersion === version)?.seat ?? null;
  }

  async claimYourTurn(playerId: string, gameId: string, version: number, seats: string[]) {
    const key = `${playerId}:${gameId}`;
    const last = this.d.yourTurn.get(key);
    const acted = (this.d.commands.get(gameId) ?? []).some((c) => c.seat !== null && seats.includes(c.seat) && last !== undefined && c.lastVersion > last && c.lastVersion <= version);
    if (last === undefined || last === version || (last < version && acted)) {
      this.d.yourTurn.set(key, version);
      return true;
    }
    return false;
  }

  async enqueue(deliveries: NewDelivery[], jobs: DeliveryJobs, mark?: OutboxMark) {
    const written: string[] = [];
    for (const x of deliveries) {
      if (this.d.deliveries.has(x.id)) continue;
      const at = this.d.now();
      this.d.deliveries.set(x.id, { ...copy(x), status: 'PENDING', attempts: 0, lastError: null, createdAt: at, updatedAt: at });
      if (x.channel === 'MAIL') this.d.addJob(jobs.mail(x));
      written.push(x.id);
    }
    if (mark) this.d.notifyMark = Math.max(this.d.notifyMark, Number(mark.id));
    return written;
  }

  /** Every commit here is whole and in id order: the rows after the mark are the tail. */
  async tail(limit: number, mail: boolean): Promise<TailEntry[]> {
    const rows = [...this.d.outbox.values()].flat().filter((o) => Number(o.id) > this.d.notifyMark).sort((a, b) => Number(a.id) - Number(b.id)).slice(0, limit);
    return rows.map((o) => {
      const game = this.d.games.get(o.gameId);
      return { ...copy(o), listened: game ? this.d.listened(game, mail) : false, mark: { tx: o.id, id: o.id } };
    });
  }

  async sendable(limit: number, perWebhook: number, busy: string[], delivered: string[]) {
    const now = this.d.now();
    for (const id of delivered) {
      const x = this.d.deliveries.get(id);
      if (!x || x.status !== 'PENDING') continue;
      Object.assign(x, { status: 'DELIVERED', attempts: x.attempts + 1, updatedAt: now });
      this.d.nextAttempt.delete(id);
      const w = x.webhookId ? this.d.webhooks.get(x.webhookId) : undefined;
      if (w) {
        w.failures = 0;
        this.failingSince.set(w.id, null);
      }
    }
    const taken = new Map<string, number>();
    const out: { delivery: DeliveryRecord; webhook: WebhookRecord | null }[] = [];
    for (const x of this.d.deliveries.values()) {
      if (out.length >= limit) break;
      if (x.channel !== 'WEBHOOK' || x.status !== 'PENDING' || !x.webhookId || busy.includes(x.webhookId)) continue;
      if ((this.d.nextAttempt.get(x.id)?.getTime() ?? 0) > now.getTime()) continue;
      const n = taken.get(x.webhookId) ?? 0;
      if (n >= perWebhook) continue;
      taken.set(x.webhookId, n + 1);
      const w = this.d.webhooks.get(x.webhookId);
      out.push({ delivery: copy(x), webhook: w ? copy(w) : null });
    }
    return out;
  }

  /** One process here: the hold is always this one's, and never lost. */
  async lease(): Promise<DispatchLease | null> {
    return { lost: new Promise<void>(() => {}), release: async () => {} };
  }

  async cancelPending(webhookId: string, reason: string) {
    const pending = [...this.d.deliveries.values()].filter((x) => x.webhookId === webhookId && x.status === 'PENDING');
    for (const x of pending) Object.assign(x, { status: 'CANCELLED', lastError: reason, updatedAt: this.d.now() });
    return pending.length;
  }

  async attempted(id: string, outcome: { status: DeliveryRecord['status']; error?: string | null; attempt?: boolean }) {
    const x = this.d.deliveries.get(id);
    if (!x) return;
    Object.assign(x, { status: outcome.status, attempts: x.attempts + (outcome.attempt === false ? 0 : 1), lastError: outcome.error ?? x.lastError, updatedAt: this.d.now() });
  }

  async webhookFailed(deliveryId: string, webhookId: string, outcome: { status: DeliveryRecord['status']; error?: string | null; retryAfterSeconds?: number }) {
    const w = this.d.webhooks.get(webhookId);
    const now = this.d.now();
    if (w) {
      w.failures += 1;
      this.failingSince.set(webhookId, this.failingSince.get(webhookId) ?? now);
    }
    await this.attempted(deliveryId, { status: outcome.status, error: outcome.error, attempt: true });
    if (outcome.retryAfterSeconds === undefined) this.d.nextAttempt.delete(deliveryId);
    else this.d.nextAttempt.set(deliveryId, new Date(now.getTime() + outcome.retryAfterSeconds * 1000));
    const since = this.failingSince.get(webhookId);
    return { failures: w?.failures ?? 0, failingForMs: since ? now.getTime() - since.getTime() : 0 };
  }

  private readonly failingSince = new Map<string, Date | null>();

  async disable(id: string, reason: string) {
    const w = this.d.webhooks.get(id);
    if (!w || w.disabledAt) return false;
    Object.assign(w, { disabledAt: this.d.now(), disabledReason: reason });
    return true;
  }
}

