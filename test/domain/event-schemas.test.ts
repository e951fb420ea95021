/**
 * Each game type publishes the JSON Schema of its events (GameType.eventSchema). Random
 * games through legalCommands, with draw offers, time-outs and resignations, must produce
 * only events the schema accepts, as stored and as every seat and a spectator receive them.
 */
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { games } from '../../src/domain/games.ts';
import { matchEventSchemas } from '../../src/domain/kernel/event-schema.ts';
import { activePlayers, GameRegistry, MATCH_EVENTS, matchLegalCommands, SYSTEM, visibleTo, type GameModule } from '../../src/domain/kernel/index.ts';
import { attempt, chooser, legal, newGame, status } from '../support/play.ts';

const registry = new GameRegistry(games);
const ajv = new Ajv({ discriminator: true, allErrors: true });

const OPTIONS: Record<string, unknown[]> = {
  'raid-on-wuchao': [{}],
  'three-kingdoms-combined-arms': [{ turnLimit: 8 }],
  'chinese-warlords': [{ turnLimit: 10 }],
  warchon: [{ numbers: 'players', turnLimit: 30 }, { numbers: 'server', turnLimit: 30 }],
};

/** Play one game: mostly the game's own legal commands, now and then a match command. */
function play(module: GameModule, options: unknown, players: string[], seed: number, check: (events: unknown[], viewers: unknown[][]) => void) {
  const game = newGame(module, options, players, `events-${seed}`);
  const pick = chooser(seed);
  const after = (from: number) => {
    const fresh = game.log.slice(from).map((r) => r.event);
    const viewers = [...players, null].map((v) => fresh.map((e) => visibleTo(module, game.state, v).event(e)));
    check(fresh, viewers);
  };
  after(0);
  let commands = 0;
  // Every third game, someone resigns along the way.
  const resignAt = seed % 3 === 0 ? 5 + pick(60) : -1;
  for (let step = 0; step < 400 && status(game).stage !== 'FINISHED'; step++) {
    const from = game.log.length;
    const active = activePlayers(module, game.state);
    const offer = game.state.drawOffer;
    const r = pick(100);
    let outcome;
    if (step === resignAt) {
      outcome = attempt(game, active[pick(active.length)]!, { type: 'resign' });
    } else if (offer && active.length > 2 && r < 10) {
      outcome = attempt(game, offer.by, { type: 'resign' }); // the offer lapses
    } else if (offer) {
      const answering = active.find((p) => !offer.accepted.includes(p))!;
      outcome = attempt(game, answering, { type: r < 15 ? 'acceptDraw' : 'declineDraw' });
    } else if (r === 0) {
      outcome = attempt(game, active[pick(active.length)]!, { type: 'offerDraw' });
    } else if (r === 1 && active.length > 2) {
      const awaited = status(game).awaiting[0]!.seat;
      outcome = attempt(game, SYSTEM, { type: 'timeOut', seat: awaited });
    } else {
      const awaiting = status(game).awaiting.filter((p) => p.kind !== 'ANSWER_DRAW');
      const seat = awaiting[pick(awaiting.length)]!.seat;
      const options = legal(game, seat);
      outcome = attempt(game, seat, options[pick(options.length)]!);
    }
    expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    commands++;
    after(from);
  }
  // Unfinished after 400 commands: the players resign one by one.
  while (status(game).stage !== 'FINISHED') {
    const from = game.log.length;
    const seat = activePlayers(module, game.state)[0]!;
    expect(matchLegalCommands(module, game.state, seat)).toContainEqual({ type: 'resign' });
    expect(attempt(game, seat, { type: 'resign' }).ok).toBe(true);
    commands++;
    after(from);
  }
  return commands;
}

describe('event schemas', () => {
  it('the match events are in every game type\'s schema, once', () => {
    expect(matchEventSchemas.map((s) => s.title)).toEqual([...MATCH_EVENTS]);
    for (const type of registry.types()) {
      const titles = (type.eventSchema.oneOf as { title: string }[]).map((s) => s.title);
      for (const e of MATCH_EVENTS) expect(titles.filter((t) => t === e), `${type.id} ${e}`).toHaveLength(1);
      expect(new Set(titles).size).toBe(titles.length);
    }
  });

  for (const module of games) {
    it(`${module.id}: every event of random games matches the published schema, redacted or not`, () => {
      const validate = ajv.compile(registry.type(module.id)!.eventSchema);
      // It does refuse: an unknown type, a missing or an extra field.
      expect(validate({ type: 'NoSuchEvent' })).toBe(false);
      expect(validate({ type: 'GameEnded', winners: [] })).toBe(false);
      expect(validate({ type: 'GameEnded', winners: [], reason: 'x', extra: 1 })).toBe(false);
      const seen = new Set<string>();
      const fail = (e: unknown, who: string) => `${who} ${JSON.stringify(e)}: ${ajv.errorsText(validate.errors)}`;
      const check = (events: unknown[], viewers: unknown[][]) => {
        for (const e of events) {
          expect(validate(e), fail(e, 'stored')).toBe(true);
          seen.add((e as { type: string }).type);
        }
        for (const list of viewers) for (const e of list) expect(validate(e), fail(e, 'redacted')).toBe(true);
      };
      // Whole games, from several seeds, until more than a thousand commands have been played.
      let commands = 0;
      let seed = 1;
      for (; commands < 1000 || seed <= 6; seed++) {
        const options = OPTIONS[module.id]![seed % OPTIONS[module.id]!.length];
        const count = module.minPlayers + (seed % (module.maxPlayers - module.minPlayers + 1));
        commands += play(module, options, module.seats.slice(0, count) as string[], seed, check);
      }
      expect(seed).toBeGreaterThan(5);
      // The walk reaches the match's events too.
      for (const e of ['PlayerResigned', 'DrawOffered', 'DrawDeclined', 'GameEnded']) expect(seen, e).toContain(e);
    });
  }
});
