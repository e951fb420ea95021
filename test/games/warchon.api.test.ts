/**
 * Whole games of Warchon through GraphQL, as clients play them: each command is picked
 * from an awaited seat's legalCommands until the game has a result; then the export
 * verifies. Secret numbers are awaited from both seats at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimit: 100_000 });
});
afterAll(async () => server?.close());

const TYPE = 'warchon';
const MATCH = ['resign', 'offerDraw', 'acceptDraw', 'declineDraw'];
const SUBMIT = `mutation($id: ID!, $c: JSON!) { submitCommand(gameId: $id, command: $c) { game { version } events { version type seat data } } }`;

type Command = { type: string; [k: string]: unknown };

async function create(options: Record<string, unknown> = {}) {
  const r = await server.gql(
    `mutation($input: CreateGameInput!) { createGame(input: $input) { game { id status version } seatTokens { seat token } } }`,
    { input: { type: TYPE, options, seats: [{ seat: 'azuthkan', name: 'Azuthka' }, { seat: 'celestine', name: 'Celestia' }] } },
  );
  expect(r.errors).toBeUndefined();
  const { game, seatTokens } = r.data.createGame;
  const tokens: Record<string, string> = Object.fromEntries(seatTokens.map((t: { seat: string; token: string }) => [t.seat, t.token]));
  return { id: game.id as string, tokens };
}

async function playToTheEnd(options: Record<string, unknown>, seedNumber: number) {
  const game = await create(options);
  let r = seedNumber;
  const rnd = () => ((r = (Math.imul(r, 1664525) + 1013904223) >>> 0), r / 2 ** 32);
  const kinds = new Set<string>();
  for (let steps = 0; ; steps++) {
    expect(steps).toBeLessThan(3000);
    const q = await server.gql(`query($id: ID!) { game(id: $id) { status awaiting { seat kind prompt } result { winners reason } view { __typename } } }`, { id: game.id });
    expect(q.errors).toBeUndefined();
    if (q.data.game.status === 'FINISHED') return { ...game, result: q.data.game.result, kinds };
    expect(q.data.game.view.__typename).toBe('WarchonView');
    const awaiting = q.data.game.awaiting as { seat: string; kind: string }[];
    expect(awaiting.length).toBeGreaterThan(0);
    for (const a of awaiting) kinds.add(a.kind);
    const { seat } = awaiting[Math.floor(rnd() * awaiting.length)]!;
    const mine = await server.gql(`query($id: ID!) { game(id: $id) { legalCommands } }`, { id: game.id }, game.tokens[seat]);
    expect(mine.errors).toBeUndefined();
    const options: Command[] = mine.data.game.legalCommands.filter((c: Command) => !MATCH.includes(c.type));
    expect(options.length).toBeGreaterThan(0);
    const moves = options.filter((c) => c.type === 'moveUnit');
    const command = moves.length && rnd() < 0.8 ? moves[Math.floor(rnd() * moves.length)]! : options[Math.floor(rnd() * options.length)]!;
    const res = await server.gql(SUBMIT, { id: game.id, c: command }, game.tokens[seat]);
    expect(res.errors, JSON.stringify(command)).toBeUndefined();
  }
}

async function expectVerifiableExport(id: string) {
  const exported = await server.rest('GET', `/api/games/${id}/export`);
  expect(exported.status).toBe(200);
  const verified = await server.rest('POST', '/api/games/verify', exported.body);
  expect(verified.body).toMatchObject({ valid: true });
}

describe('Warchon through the API', () => {
  it('is listed with its seats, player counts and schemas', async () => {
    const r = await server.gql(`{ gameTypes { id name seats minPlayers maxPlayers optionsSchema commandSchema } }`);
    const type = r.data.gameTypes.find((t: { id: string }) => t.id === TYPE);
    expect(type).toMatchObject({ name: 'Warchon', seats: ['azuthkan', 'celestine'], minPlayers: 2, maxPlayers: 2 });
    expect(type.optionsSchema.properties).toHaveProperty('numbers');
    expect(type.optionsSchema.properties).toHaveProperty('roster');
  });

  it('refuses illegal, out-of-turn and malformed commands with a reason', async () => {
    const game = await create();
    const wrongSeat = await server.gql(SUBMIT, { id: game.id, c: { type: 'placeUnit', unit: 'celestine-paladins-1', spread: 1 } }, game.tokens.celestine);
    expect(wrongSeat.errors?.[0].extensions.code).toBe('NOT_YOUR_TURN');
    const outside = await server.gql(SUBMIT, { id: game.id, c: { type: 'placeUnit', unit: 'baphite-swarm-1', spread: 1 } }, game.tokens.azuthkan);
    expect(outside.errors?.[0].extensions).toMatchObject({ code: 'ILLEGAL_COMMAND', reason: expect.stringContaining('spreads 5, 6, 7') });
    const malformed = await server.gql(SUBMIT, { id: game.id, c: { type: 'placeUnit', unit: 'baphite-swarm-1' } }, game.tokens.azuthkan);
    expect(malformed.errors?.[0].extensions.code).toBe('BAD_REQUEST');
  });

  it('keeps Azuthkan\'s setup hidden from Celestine and spectators', async () => {
    const game = await create();
    const placed = await server.gql(SUBMIT, { id: game.id, c: { type: 'placeUnit', unit: 'deathknoll-ogres-1', spread: 7 } }, game.tokens.azuthkan);
    expect(placed.errors).toBeUndefined();
    for (const token of [game.tokens.celestine, undefined]) {
      const seen = await server.gql(`query($id: ID!) { game(id: $id) { events { type data } } }`, { id: game.id }, token);
      expect(seen.errors).toBeUndefined();
      expect(JSON.stringify(seen.data)).not.toContain('deathknoll');
      const rest = await server.rest('GET', `/api/games/${game.id}`, undefined, token);
      expect(rest.status).toBe(200);
      expect(JSON.stringify(rest.body)).not.toContain('deathknoll');
      expect(rest.body.game.view.units).toEqual([expect.objectContaining({ id: 'azuthkan-1', spread: 7, known: false, name: null })]);
    }
    const own = await server.rest('GET', `/api/games/${game.id}`, undefined, game.tokens.azuthkan);
    expect(own.body.game.view.units).toEqual([expect.objectContaining({ id: 'azuthkan-1', known: true, name: 'Deathknoll Ogres' })]);
  });

  it('plays whole games from createGame to the result, with secret or server numbers, and their exports verify', async () => {
    for (const [options, seed] of [[{ turnLimit: 40 }, 1], [{ numbers: 'server', turnLimit: 40 }, 2]] as const) {
      const game = await playToTheEnd(options, seed);
      expect(game.result.reason).toBeTruthy();
      expect(game.kinds.has('SETUP') && game.kinds.has('MOVE')).toBe(true);
      if (!('numbers' in options)) expect(game.kinds.has('COMMIT_NUMBER')).toBe(true);
      await expectVerifiableExport(game.id);
    }
  });
});
