/** The player and webhook stores in memory (see src/app/memory/index.ts). */
import { notifyGate, webhookGate } from '../planners.ts';
import type { CodeGuess, DeliveryJobs, DeliveryRecord, JobSpec, NewDelivery, PlayerRecord, PlayerStore, PlayerTokenRecord, WebhookRecord, WebhookStore } from '../ports.ts';
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

  async listening(gameId: string, playerIds: string[]) {
    return [...this.d.webhooks.values()].filter((w) => !w.disabledAt && (w.gameId === gameId || (w.gameId === null && playerIds.includes(w.playerId)))).map(copy);
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

  async enqueue(deliveries: NewDelivery[], jobs: DeliveryJobs, notified?: { gameId: string; through: number }) {
    const written: string[] = [];
    const woken = new Set<string>();
    for (const x of deliveries) {
      if (this.d.deliveries.has(x.id)) continue;
      const at = this.d.now();
      this.d.deliveries.set(x.id, { ...copy(x), status: 'PENDING', attempts: 0, lastError: null, createdAt: at, updatedAt: at });
      if (x.channel === 'MAIL') this.d.addJob(jobs.mail(x));
      else if (x.webhookId) woken.add(x.webhookId);
      written.push(x.id);
    }
    for (const id of [...woken].sort()) if (this.d.openGate(webhookGate(id), null)) this.d.addJob(jobs.webhook(id));
    const gate = notified && this.d.gates.get(notifyGate(notified.gameId));
    if (gate && notified) gate.through = Math.max(gate.through ?? notified.through, notified.through);
    return written;
  }

  async unnotified(gameId: string, upTo: number) {
    const gate = this.d.gates.get(notifyGate(gameId));
    if (!gate?.open || gate.through === null) return null;
    const through = gate.through;
    const rows = (this.d.outbox.get(gameId) ?? []).filter((o) => o.version > through && o.version <= upTo).sort((a, b) => a.version - b.version || Number(a.id) - Number(b.id));
    return { through, rows: copy(rows) };
  }

  async settleNotify(gameId: string) {
    const gate = this.d.gates.get(notifyGate(gameId));
    if (!gate?.open) return true;
    if ((this.d.outbox.get(gameId) ?? []).some((o) => o.version > (gate.through ?? 0))) return false;
    gate.open = false;
    return true;
  }

  async wake(webhookId: string, job: JobSpec) {
    if (this.d.openGate(webhookGate(webhookId), null)) this.d.addJob(job);
  }

  private pending(webhookId: string) {
    return [...this.d.deliveries.values()].filter((x) => x.webhookId === webhookId && x.status === 'PENDING');
  }

  private due(webhookId: string, limit: number) {
    const now = this.d.now().getTime();
    return this.pending(webhookId).filter((x) => (this.d.nextAttempt.get(x.id)?.getTime() ?? 0) <= now).slice(0, limit).map(copy);
  }

  private recordDelivered(webhookId: string, delivered: string[]) {
    if (delivered.length === 0) return;
    for (const id of delivered) {
      const x = this.d.deliveries.get(id);
      if (!x || x.webhookId !== webhookId) continue;
      Object.assign(x, { status: 'DELIVERED', attempts: x.attempts + 1, updatedAt: this.d.now() });
      this.d.nextAttempt.delete(id);
    }
    const w = this.d.webhooks.get(webhookId);
    if (w) w.failures = 0;
    this.failingSince.set(webhookId, null);
  }

  async sending(webhookId: string, limit: number, delivered: string[]) {
    this.recordDelivered(webhookId, delivered);
    const w = this.d.webhooks.get(webhookId);
    return { webhook: w ? copy(w) : null, due: w ? this.due(webhookId, limit) : [] };
  }

  async cancelPending(webhookId: string, reason: string) {
    const pending = this.pending(webhookId);
    for (const x of pending) Object.assign(x, { status: 'CANCELLED', lastError: reason, updatedAt: this.d.now() });
    return pending.length;
  }

  async healGates(seconds: number, job: (key: string) => JobSpec | null) {
    const before = this.d.now().getTime() - seconds * 1000;
    const healed: string[] = [];
    for (const [key, gate] of this.d.gates) {
      if (!gate.open || (gate.openedAt?.getTime() ?? 0) > before || this.d.jobs.some((j) => j.key === key && j.attempts < j.maxAttempts)) continue;
      gate.openedAt = this.d.now();
      const spec = job(key);
      if (!spec) continue;
      this.d.addJob(spec);
      healed.push(key);
    }
    return healed;
  }

  async settleWebhook(webhookId: string, timer: JobSpec, delivered: string[] = []) {
    this.recordDelivered(webhookId, delivered);
    const gate = this.d.gates.get(webhookGate(webhookId));
    const pending = this.pending(webhookId);
    const now = this.d.now().getTime();
    const next = pending.map((x) => this.d.nextAttempt.get(x.id)?.getTime() ?? 0);
    if (next.some((t) => t <= now)) return 'due' as const;
    if (gate) gate.open = false;
    if (next.length === 0) return 'idle' as const;
    this.d.addJob({ ...timer, runAt: new Date(Math.min(...next)) });
    return 'waiting' as const;
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

