/**
 * Whole games of Raid on Wuchao through GraphQL, as a client plays them: each command is
 * picked from the awaited seat's legalCommands until the game has a result; then the
 * export verifies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createApiGame, expectVerifiableExport, lcg, playToTheEnd, SUBMIT } from '../support/api-game.ts';
import { raidOnWuchao, type WuchaoState } from '../../src/domain/raid-on-wuchao/index.ts';
import { neighbours } from '../../src/domain/raid-on-wuchao/state.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimit: 100_000 });
});
afterAll(async () => server?.close());

const TYPE = 'raid-on-wuchao';
const PLAYERS = ['cao', 'yuan'];

type Command = { type: string; [k: string]: unknown };

const create = (options: Record<string, unknown> = {}) => createApiGame(server, raidOnWuchao, PLAYERS, options);

/** A simple player: Cao rides for the granaries, Yuan for A1; other decisions at random. */
function pick(state: WuchaoState, seat: string, options: Command[], rnd: () => number): Command {
  const moves = options.filter((c) => c.type === 'move');
  if (moves.length && rnd() < 0.85) {
    const targets = seat === 'cao' ? state.map.granaries : [state.map.camp];
    const d: Record<string, number> = Object.fromEntries(targets.map((t) => [t, 0]));
    const queue = [...targets];
    while (queue.length) {
      const x = queue.shift()!;
      for (const n of neighbours(state, x)) if (d[n] === undefined) (d[n] = d[x]! + 1), queue.push(n);
    }
    const closer = moves.filter((m) => (d[m.to as string] ?? 99) < (d[state.units[m.unit as string]!.space!] ?? 99));
    const pool = closer.length ? closer : moves;
    return pool[Math.floor(rnd() * pool.length)]!;
  }
  return options[Math.floor(rnd() * options.length)]!;
}

async function playGame(seedNumber: number) {
  const game = await create();
  const rnd = lcg(seedNumber);
  const played = await playToTheEnd(server, raidOnWuchao, game, ({ seat, awaiting, commands }) => {
    expect(awaiting).toHaveLength(1); // one decision at a time in this game
    expect(commands).toEqual(raidOnWuchao.legalCommands(game.state, seat));
    return pick(game.state, seat, commands, rnd);
  }, { maxSteps: 2000 });
  return { ...game, ...played };
}

describe('Raid on Wuchao through the API', () => {
  it('is listed with its seats, player counts and schemas', async () => {
    const r = await server.gql(`{ gameTypes { id name seats minPlayers maxPlayers optionsSchema commandSchema } }`);
    const type = r.data.gameTypes.find((t: { id: string }) => t.id === TYPE);
    expect(type).toMatchObject({ name: 'Raid on Wuchao', seats: ['cao', 'yuan'], minPlayers: 2, maxPlayers: 2 });
    expect(type.optionsSchema.properties).toHaveProperty('map');
    expect(type.optionsSchema.properties).toHaveProperty('tokens');
  });

  it('refuses at createGame a replaced map or token sheet that cannot be played, saying why', async () => {
    const r = await server.gql(`mutation($input: CreateGameInput!) { createGame(input: $input) { game { id } } }`, {
      input: { type: TYPE, options: { map: { spaces: ['A1', 'B1'], edges: [['A1', 'B1']] } }, seats: [{ seat: 'cao', name: 'Cao Cao' }, { seat: 'yuan', name: 'Yuan Shao' }] },
    });
    expect(r.errors?.[0].extensions.code).toBe('BAD_REQUEST');
    expect(r.errors?.[0].message).toContain('H1 is not a space of the map');
  });

  it('refuses illegal, out-of-turn and malformed commands with a reason', async () => {
    const game = await create();
    const wrongSeat = await server.gql(SUBMIT, { id: game.id, c: { type: 'placeUnit', unit: 'zhang-he', space: 'E1' } }, game.tokens.cao);
    expect(wrongSeat.errors?.[0].extensions.code).toBe('NOT_YOUR_TURN');
    const zoneB = await server.gql(SUBMIT, { id: game.id, c: { type: 'placeUnit', unit: 'zhang-he', space: 'B1' } }, game.tokens.yuan);
    expect(zoneB.errors?.[0].extensions).toMatchObject({ code: 'ILLEGAL_COMMAND', reason: expect.stringContaining('zone B') });
    const malformed = await server.gql(SUBMIT, { id: game.id, c: { type: 'placeUnit', unit: 'zhang-he' } }, game.tokens.yuan);
    expect(malformed.errors?.[0].extensions.code).toBe('BAD_REQUEST');
  });

  it('plays whole games from createGame to the result, and their exports verify', async () => {
    for (const seed of [1, 2, 3]) {
      const game = await playGame(seed);
      expect(game.result.winners).toHaveLength(1);
      expect(game.result.reason).toBeTruthy();
      expect(game.kinds.has('SETUP') && game.kinds.has('MOVE')).toBe(true);
      // The server's view is the one the rules give for the folded events.
      const rest = await server.rest('GET', `/api/games/${game.id}`);
      expect(rest.body.game.view).toEqual(raidOnWuchao.view(game.state, null));
      await expectVerifiableExport(server, game.id);
    }
  });
});
