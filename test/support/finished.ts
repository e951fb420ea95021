/**
 * Finished means finished (docs/api.md: "the view and status show the result, the finished
 * phase, nothing pending and nothing hidden"), checked the same way after every ending of
 * every game: the match's status, the module's own status and view for every viewer, and
 * the log, which closes with one GameEnded { winners, reason }.
 */
import { expect } from 'vitest';
import { evolveMatch, initialMatch, matchLegalCommands, matchStatus, visibleTo } from '../../src/domain/kernel/index.ts';
import { status, type Played } from './play.ts';

type View = Record<string, unknown>;

/** What each game's own view shows once it is over, in its own names. */
const FINISHED_VIEW: Record<string, (view: View) => void> = {
  'raid-on-wuchao': (v) => expect(v).toMatchObject({ phase: 'Game over', stage: 'FINISHED', combat: null, pendingCombats: [] }),
  'three-kingdoms-combined-arms': (v) => expect(v).toMatchObject({ phase: 'OVER', stage: 'FINISHED', activeSeat: null, placer: null, pendingRetreat: null }),
  'chinese-warlords': (v) => {
    expect(v).toMatchObject({ phase: 'over', activeSeat: null, attack: null, defense: null });
    for (const p of v.players as { upkeepLossesToChoose: number }[]) expect(p.upkeepLossesToChoose).toBe(0);
  },
  warchon: (v) => {
    expect(v).toMatchObject({ phase: 'Game over', activeArmy: null, battle: null });
    for (const u of v.units as { known: boolean }[]) expect(u.known).toBe(true);
  },
};

/** The seat that owns a unit of a view, whatever the game calls it. */
const ownerOf = (u: Record<string, unknown>) => (u.owner ?? u.seat ?? u.army ?? u.side) as string;

/** `folded: false` for a game set in a position by hand (its log does not reach that position). */
export function expectFinished(g: Played<unknown>, expected?: { winners: string[]; reason: string }, { folded = true } = {}): void {
  const s = status(g);
  const result = s.result!;
  expect(s.stage, `${g.module.id}: finished`).toBe('FINISHED');
  if (expected) expect(result).toEqual(expected);
  expect(s.awaiting).toEqual([]);
  const own = g.module.status(g.state.game);
  expect(own).toMatchObject({ stage: 'FINISHED', awaiting: [], result });
  expect(s.phase).toBe(own.phase);

  // The log closes the same way every time: one GameEnded, the last event.
  const ended = g.log.filter((r) => r.event.type === 'GameEnded');
  expect(ended.length, `${g.module.id}: one GameEnded in ${g.log.map((r) => r.event.type).slice(-6).join(', ')}`).toBe(1);
  expect(g.log.at(-1)!.event).toEqual({ type: 'GameEnded', winners: result.winners, reason: result.reason });

  // Nothing pending: nobody may do anything any more.
  for (const seat of g.state.players) {
    expect(g.module.legalCommands(g.state.game, seat), `${seat} has nothing left to do`).toEqual([]);
    expect(matchLegalCommands(g.module, g.state, seat)).toEqual([]);
  }

  // Nothing hidden: every seat and a spectator see the same view, with the result.
  const views = [null, ...g.state.players].map((viewer) => {
    const { viewer: _who, ...view } = visibleTo(g.module, g.state, viewer).view() as View;
    expect(view.result, `${g.module.id} view for ${viewer}`).toEqual(result);
    return view;
  });
  for (const view of views.slice(1)) expect(view).toEqual(views[0]);
  const view = views[0]!;
  FINISHED_VIEW[g.module.id]!(view);

  // A player who resigned or ran out of time is out in the module's own terms too, with no
  // piece left, in games that put players out (three or more at the table).
  if (g.module.eliminate && Array.isArray(view.players)) {
    for (const seat of g.state.out) {
      expect((view.players as { seat: string; out: boolean }[]).find((p) => p.seat === seat)?.out, `${seat} is out`).toBe(true);
      expect((view.units as Record<string, unknown>[]).filter((u) => ownerOf(u) === seat), `${seat}'s units are off the board`).toEqual([]);
    }
  }

  // The stored log alone folds to the same state.
  if (!folded) return;
  let replayed = initialMatch(g.module, { options: g.options, players: g.state.players });
  for (const r of g.log) replayed = evolveMatch(g.module, replayed, r);
  expect(matchStatus(g.module, replayed)).toEqual(s);
}
