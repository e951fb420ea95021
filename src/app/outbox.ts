/**
 * What changed for whom, derived from the status before and after a command and written
 * with its events (the store commits both or neither). Workers (notifications, deadlines,
 * bots) read these rows; nothing here knows about them.
 */
import type { Status } from '../domain/kernel/index.ts';
import type { GameSummary, OutboxEntry } from './ports.ts';

/** The seats awaited for a game decision (a draw answer is not one: no clock runs on it). */
function decisions(status: Status | null): Map<string, { kind: string; prompt: string }[]> {
  const map = new Map<string, { kind: string; prompt: string }[]>();
  for (const p of status?.awaiting ?? []) {
    if (p.kind === 'ANSWER_DRAW') continue;
    map.set(p.seat, [...(map.get(p.seat) ?? []), { kind: p.kind, prompt: p.prompt }]);
  }
  return map;
}

/**
 * `before` is null for a new game. `actor` is the seat whose command this was (null for
 * the service or setup): a seat that acted and is still awaited faces a new decision.
 */
export function outboxFor(before: Status | null, after: Status, actor: string | null, appended: { first: number; last: number }): OutboxEntry[] {
  const out: OutboxEntry[] = [{ kind: 'EVENTS_APPENDED', seat: null, data: { firstVersion: appended.first, lastVersion: appended.last } }];
  if (before === null) out.push({ kind: 'GAME_STARTED', seat: null });
  if (after.stage === 'FINISHED') {
    if (before?.stage !== 'FINISHED') out.push({ kind: 'GAME_ENDED', seat: null, data: { result: after.result } });
    return out;
  }
  const was = decisions(before);
  for (const [seat, prompts] of decisions(after)) {
    if (!was.has(seat) || seat === actor) out.push({ kind: 'SEAT_AWAITED', seat, data: { prompts } });
  }
  return out;
}

/** What the games table keeps of a status, for listing and "your turn". */
export function summaryOf(status: Status): GameSummary {
  return { status: status.stage, awaiting: [...new Set(status.awaiting.map((p) => p.seat))], result: status.result };
}
