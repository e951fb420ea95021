/**
 * Each game module publishes the JSON Schema of its view (GameModule.viewSchema), from which
 * the GraphQL view type is generated. Random games through legalCommands: every view, of
 * every seat and of a spectator after every command, must be one the schema accepts.
 */
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { games } from '../../src/domain/games.ts';
import { visibleTo, type GameModule } from '../../src/domain/kernel/index.ts';
import { hostedGuessingGame } from '../support/hosted-guessing-game.ts';
import { randomGameOf } from '../support/random-game.ts';

const ajv = new Ajv({ allErrors: true });
/** Enough games to see most of each view (Warchon's battles, Chinese Warlords' long turns). */
const GAMES: Record<string, number> = { warchon: 20, 'chinese-warlords': 4 };

describe('view schemas', () => {
  for (const module of [...games, hostedGuessingGame] as GameModule[]) {
    it(`${module.id}: every view of random games matches the module's view schema`, () => {
      expect(module.viewSchema, 'a hosted game has a view schema').toBeDefined();
      const validate = ajv.compile(module.viewSchema!);
      let views = 0;
      for (let seed = 1; seed <= (GAMES[module.id] ?? 4); seed++) {
        randomGameOf(module, seed, (game) => {
          for (const viewer of [...game.state.players, null]) {
            const view = visibleTo(module, game.state, viewer).view() as Record<string, unknown>;
            expect(validate(view), `${viewer}: ${ajv.errorsText(validate.errors)}`).toBe(true);
            views++;
            // It does refuse: a key the schema does not list, a key missing.
            if (views === 1) {
              expect(validate({ ...view, notAField: 1 })).toBe(false);
              const { phase: _phase, ...withoutPhase } = view;
              expect(validate(withoutPhase)).toBe(false);
            }
          }
        });
      }
      expect(views).toBeGreaterThan(10);
    });
  }
});
