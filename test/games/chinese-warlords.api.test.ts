/**
 * Whole games of Chinese Warlords through GraphQL, as clients play them: each command is
 * picked from an awaited seat's legalCommands until the game has a result; then the export
 * verifies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chineseWarlords } from '../../src/domain/chinese-warlords/index.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createApiGame, expectVerifiableExport, lcg, playToTheEnd, SUBMIT } from '../support/api-game.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimit: 100_000 });
});
afterAll(async () => server?.close());

const TYPE = 'chinese-warlords';
type Command = { type: string; [k: string]: unknown };

/** Two strongholds three hexes apart: battles come quickly. */
const SKIRMISH = {
  name: 'skirmish',
  hexes: [
    ...['stronghold', 'open', 'open', 'stronghold'].map((terrain, col) => ({ col, row: 0, terrain })),
    ...['open', 'village', 'road', 'open'].map((terrain, col) => ({ col, row: 1, terrain })),
  ],
  strongholds: ['0,0', '3,0'],
};

const create = (options: Record<string, unknown>, seats = ['red', 'blue']) => createApiGame(server, chineseWarlords, seats, options);

async function playGame(options: Record<string, unknown>, seedNumber: number, seats = ['red', 'blue']) {
  const game = await create(options, seats);
  const rnd = lcg(seedNumber);
  const any = <T,>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const played = await playToTheEnd(
    server,
    chineseWarlords,
    game,
    ({ commands: options }) => {
      // Steer towards an ending: attack, walk into empty enemy strongholds, recruit a little.
      const fights = options.filter((c) => c.type === 'attack' || c.type === 'resolveAttack');
      const moves = options.filter((c) => c.type === 'move');
      const recruits = options.filter((c) => c.type === 'recruit');
      const ends = options.filter((c) => c.type.startsWith('end'));
      const captures = moves.filter((c) => SKIRMISH.strongholds.includes(c.to as string));
      if (captures.length) return any(captures);
      if (fights.length && rnd() < 0.9) return any(fights);
      if (moves.length && rnd() < 0.7) return any(moves);
      if (recruits.length && rnd() < 0.1) return any(recruits);
      if (ends.length) return ends[0]!;
      return any(options) as Command;
    },
    { maxSteps: 4000, pickSeat: any },
  );
  const view = await server.gql(`query($id: ID!) { game(id: $id) { view { __typename } } }`, { id: game.id });
  expect(view.data.game.view.__typename).toBe('ChineseWarlordsView');
  return { ...game, ...played };
}

describe('Chinese Warlords through the API', () => {
  it('is listed with its seats, player counts and schemas', async () => {
    const r = await server.gql(`{ gameTypes { id name seats minPlayers maxPlayers optionsSchema commandSchema } }`);
    const type = r.data.gameTypes.find((t: { id: string }) => t.id === TYPE);
    expect(type).toMatchObject({ name: 'Chinese Warlords', seats: ['red', 'blue', 'green', 'yellow'], minPlayers: 2, maxPlayers: 4 });
    expect(Object.keys(type.optionsSchema.properties)).toEqual(['map', 'mapGenerator', 'turnLimit']);
  });

  it('refuses illegal, out-of-turn and malformed commands with a reason', async () => {
    const game = await create({});
    const q = await server.gql(`query($id: ID!) { game(id: $id) { awaiting { seat kind } } }`, { id: game.id });
    const first = q.data.game.awaiting[0].seat as string;
    const other = first === 'red' ? 'blue' : 'red';
    const wrongSeat = await server.gql(SUBMIT, { id: game.id, c: { type: 'endRecruitment' } }, game.tokens[other]);
    expect(wrongSeat.errors?.[0].extensions.code).toBe('NOT_YOUR_TURN');
    const far = await server.gql(SUBMIT, { id: game.id, c: { type: 'recruit', unitType: 'thugs', hex: '6,8' } }, game.tokens[first]);
    expect(far.errors?.[0].extensions).toMatchObject({ code: 'ILLEGAL_COMMAND', reason: expect.stringContaining('cannot start in 6,8') });
    const warlord = await server.gql(SUBMIT, { id: game.id, c: { type: 'recruit', unitType: 'warlord', hex: '1,4' } }, game.tokens[first]);
    expect(warlord.errors?.[0].extensions).toMatchObject({ code: 'ILLEGAL_COMMAND', reason: 'You only get one Warlord' });
    const malformed = await server.gql(SUBMIT, { id: game.id, c: { type: 'recruit', unitType: 'tank', hex: '1,4' } }, game.tokens[first]);
    expect(malformed.errors?.[0].extensions.code).toBe('BAD_REQUEST');
  });

  it('shows the map, the units and the players in the view', async () => {
    const game = await create({});
    const rest = await server.rest('GET', `/api/games/${game.id}`);
    expect(rest.status).toBe(200);
    const view = rest.body.game.view;
    expect(view.map.strongholds).toEqual(['1,4', '11,4']);
    expect(view.units).toHaveLength(view.players.reduce((n: number, p: { abilityRoll: number }) => n + (p.abilityRoll === 7 ? 10 : 7), 0));
    expect(view.turn).toBe(1);
    const typed = await server.gql(
      `query($id: ID!) { game(id: $id) { view { ... on ChineseWarlordsView { turn phase activeSeat map { coordinates strongholds hexes { id terrain controller } } players { seat treasury ability stronghold } units { id type owner hex movementLeft } attack { target } defense { hex } result { reason } } } } }`,
      { id: game.id },
    );
    expect(typed.errors).toBeUndefined();
    expect(typed.data.game.view).toMatchObject({ turn: 1, phase: 'recruitment', map: { strongholds: ['1,4', '11,4'] }, attack: null, defense: null, result: null });
    expect(typed.data.game.view.map.hexes).toContainEqual({ id: '1,4', terrain: 'stronghold', controller: 'red' });
  });

  it('plays whole games from createGame to the result, and their exports verify', async () => {
    const conquest = await playGame({ map: SKIRMISH, turnLimit: 12 }, 7);
    expect(conquest.result.reason).toBeTruthy();
    expect(conquest.kinds.has('RECRUIT') && conquest.kinds.has('MOVE') && conquest.kinds.has('ATTACK')).toBe(true);
    await expectVerifiableExport(server, conquest.id);
    const limited = await playGame({ turnLimit: 2 }, 3, ['red', 'blue', 'green']);
    expect(limited.result.reason).toBeTruthy();
    await expectVerifiableExport(server, limited.id);
  });
});
