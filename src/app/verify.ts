/**
 * Verify, as a pure module: re-derives every die roll from the published seed and re-runs
 * the game's commands through the kernel's turn, comparing each event with the log. No
 * store, no clock: the verify worker threads run it as the request path would.
 */
import { createHash } from 'node:crypto';
import { isBotKind, matchStatus, replay, type BotKind, type Command, type GameRegistry, type MatchState, type Recorded, type StoredCommand } from '../domain/kernel/index.ts';
import { assertExportShape } from './export-schema.ts';
import { sameJson } from './input.ts';
import type { EventOut } from './game-read.ts';

export interface ExportDocument {
  format: 'wargame-service/export@1';
  game: {
    id: string;
    type: string;
    options: unknown;
    /** bot: the bot kind the service played the seat with (verify checks its commands). */
    players: { seat: string; name: string; bot?: string | null }[];
    status: string;
    version: number;
    result: unknown;
    seedCommitment: string;
    seed: string | null;
    /** Fingerprint of the rules code the game started under. */
    rules?: string;
    createdAt: string;
  };
  events: (EventOut & { rolls: unknown[] | null })[];
  /** The accepted commands (only once finished: some are secret while the game runs). seat null: the service. */
  commands: { seat: string | null; command: unknown; firstVersion: number; lastVersion: number }[] | null;
  /** The messages between players the reader may read (public ones, and private ones sent by or to their seat); not verified. */
  messages?: { id: string; from: string; to: string[] | null; text: string; at: string }[];
}

export type VerifyReport =
  | { valid: true; events: number; commands: number; rolls: number; rulesChanged?: { game: string; now: string } }
  | { valid: false; reason: string; version?: number; expected?: unknown; found?: unknown };

/**
 * Re-derives every die roll from the published seed and re-runs the game's commands
 * through the kernel's turn, comparing each event with the log.
 */
export function verifyExport(doc: ExportDocument, registry: GameRegistry, now: string): VerifyReport {
  assertExportShape(doc); // another shape is the client's mistake, not a failed verification
  const report = check(doc, registry);
  const rules = doc?.game?.rules;
  if (typeof rules !== 'string' || rules === '' || rules === now) return report;
  if (report.valid) return { ...report, rulesChanged: { game: rules, now } };
  return {
    ...report,
    reason: `the rules have changed since this game was played (it started under rules ${rules}; this service runs ${now}), so this service cannot vouch for it: ${report.reason}`,
  };
}

function check(doc: ExportDocument, registry: GameRegistry): VerifyReport {
  const g = doc?.game;
  if (!g || typeof g !== 'object' || !Array.isArray(doc.events)) return { valid: false, reason: 'not an export document' };
  if (typeof g.seed !== 'string' || !g.seed) return { valid: false, reason: 'the seed is published only once the game is finished' };
  if (typeof g.seedCommitment !== 'string' || createHash('sha256').update(g.seed).digest('hex') !== g.seedCommitment) return { valid: false, reason: 'the seed does not match the seed commitment' };
  const module = registry.module(g.type);
  if (!module) return { valid: false, reason: `unknown game type "${g.type}"` };
  if (!Array.isArray(g.players) || !g.players.every((p) => p && typeof p.seat === 'string')) return { valid: false, reason: 'the export lists no players' };
  if (!Array.isArray(doc.commands)) return { valid: false, reason: 'the export lists no commands' };
  const events = doc.events;
  let version = 0;
  let rolls = 0;

  const compare = (produced: Recorded[]): VerifyReport | null => {
    for (const r of produced) {
      const stored = events[version];
      version++;
      if (!stored || stored.version !== version) return { valid: false, reason: 'an event is missing', version, expected: r.event, found: stored ?? null };
      const expected = { type: r.event.type, seat: r.seat, data: r.event, rolls: r.rolls ?? null };
      const found = { type: stored.type, seat: stored.seat, data: stored.data, rolls: stored.rolls ?? null };
      if (!sameJson(expected, found)) return { valid: false, reason: 'an event differs from what the rules and the seed produce', version, expected, found };
      rolls += r.rolls?.length ?? 0;
    }
    return null;
  };

  const commands = doc.commands;
  let state: MatchState | undefined;
  try {
    const run = replay(module, { options: g.options, players: g.players.map((p) => p.seat) }, g.seed, commands.map((c): StoredCommand => ({ seat: c.seat, command: c.command as Command })), botsOf(g.players));
    for (let next = run.next(); ; next = run.next()) {
      if (next.done) {
        state = next.value;
        break;
      }
      const s = next.value;
      if (s.kind === 'setup') {
        const bad = compare(s.recorded);
        if (bad) return bad;
        continue;
      }
      const c = commands[s.index]!;
      if (c.firstVersion !== version + 1) return { valid: false, reason: 'the commands do not follow each other', version: version + 1 };
      if (!s.outcome.ok) return { valid: false, reason: `a stored command is refused by the rules: ${s.outcome.reason}`, version: c.firstVersion };
      const bad = compare(s.outcome.recorded);
      if (bad) return bad;
      if (version !== c.lastVersion) return { valid: false, reason: 'a command produced a different number of events', version };
    }
  } catch (error) {
    return { valid: false, reason: `replay failed: ${(error as Error).message}`, version };
  }
  if (version !== events.length) return { valid: false, reason: 'the log has events no command explains', version: version + 1 };
  const status = matchStatus(module, state!);
  if (!sameJson(status.result, g.result)) {
    return { valid: false, reason: 'the result differs from the one the log produces', expected: status.result, found: g.result };
  }
  return { valid: true, events: events.length, commands: commands.length, rolls };
}

/** The seats an export says the service played, with their bot kinds. */
function botsOf(players: ExportDocument['game']['players']): Record<string, BotKind> {
  return Object.fromEntries(players.filter((p) => isBotKind(p.bot)).map((p) => [p.seat, p.bot as BotKind]));
}
