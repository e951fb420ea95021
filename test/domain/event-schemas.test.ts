/**
 * Each game type publishes the JSON Schema of its events (GameType.eventSchema). Random
 * games through legalCommands, with draw offers, time-outs and resignations, must produce
 * only events the schema accepts, as stored and as every seat and a spectator receive them.
 */
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { games } from '../../src/domain/games.ts';
import { matchEventSchemas } from '../../src/domain/kernel/event-schema.ts';
import { GameRegistry, MATCH_EVENTS, visibleTo } from '../../src/domain/kernel/index.ts';
import { randomGameOf } from '../support/random-game.ts';

const registry = new GameRegistry(games);
const ajv = new Ajv({ discriminator: true, allErrors: true });

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
      const check: Parameters<typeof randomGameOf>[2] = (game, fresh) => {
        for (const e of fresh) {
          expect(validate(e), fail(e, 'stored')).toBe(true);
          seen.add(e.type);
          for (const viewer of [...game.state.players, null]) {
            const redacted = visibleTo(module, game.state, viewer).event(e);
            expect(validate(redacted), fail(redacted, `for ${viewer}`)).toBe(true);
          }
        }
      };
      // Whole games, from several seeds, until more than a thousand commands have been played.
      let commands = 0;
      let seed = 1;
      for (; commands < 1000 || seed <= 6; seed++) {
        commands += randomGameOf(module, seed, check);
      }
      expect(seed).toBeGreaterThan(5);
      // The walk reaches the match's events too.
      for (const e of ['PlayerResigned', 'DrawOffered', 'DrawDeclined', 'GameEnded']) expect(seen, e).toContain(e);
    });
  }
});
