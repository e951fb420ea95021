/**
 * Playing a hosted game through GraphQL as a client does, for the whole-game API tests:
 * create it, then at each step ask who the game awaits, fetch that seat's legalCommands,
 * let the test choose one and submit it, until the game is FINISHED.
 */
import { expect } from 'vitest';
import { MATCH_COMMANDS, type Command, type GameModule, type Prompt } from '../../src/domain/kernel/index.ts';
import { SUBMIT } from './client.ts';
import type { TestServer } from './server.ts';

export { SUBMIT } from './client.ts';

export interface ApiGame<S> {
  id: string;
  tokens: Record<string, string>;
  /** The client's own picture of the game, folded from the events it received. */
  state: S;
}

export async function createApiGame<S>(server: TestServer, module: GameModule<S>, players: string[], options: Record<string, unknown> = {}): Promise<ApiGame<S>> {
  const r = await server.gql(
    `mutation($input: CreateGameInput!) { createGame(input: $input) { game { id events { type data } } seatTokens { seat token } } }`,
    { input: { type: module.id, options, seats: players.map((seat) => ({ seat, name: seat.toUpperCase() })) } },
  );
  expect(r.errors).toBeUndefined();
  const { game, seatTokens } = r.data.createGame;
  let state = module.initialState({ options, players });
  for (const e of game.events) state = module.evolve(state, e.data);
  return { id: game.id, tokens: Object.fromEntries(seatTokens.map((t: { seat: string; token: string }) => [t.seat, t.token])), state };
}

export interface Turn {
  seat: string;
  kind: string;
  awaiting: Prompt[];
  /** The seat's legalCommands without resign and draw offers. */
  commands: Command[];
}

/** Plays until the game is FINISHED; `choose` picks each command, `pickSeat` which awaited seat acts. */
export async function playToTheEnd<S>(
  server: TestServer,
  module: GameModule<S>,
  game: ApiGame<S>,
  choose: (turn: Turn, game: ApiGame<S>) => Command,
  options: { maxSteps?: number; pickSeat?: (awaiting: Prompt[]) => Prompt } = {},
) {
  const kinds = new Set<string>();
  for (let steps = 0; ; steps++) {
    expect(steps).toBeLessThan(options.maxSteps ?? 3000);
    const q = await server.gql(`query($id: ID!) { game(id: $id) { status awaiting { seat kind prompt } result { winners reason } } }`, { id: game.id });
    expect(q.errors).toBeUndefined();
    if (q.data.game.status === 'FINISHED') return { result: q.data.game.result as { winners: string[]; reason: string }, kinds, steps };
    const awaiting: Prompt[] = q.data.game.awaiting;
    expect(awaiting.length).toBeGreaterThan(0);
    const { seat, kind } = (options.pickSeat ?? ((a) => a[0]!))(awaiting);
    kinds.add(kind);
    const mine = await server.gql(`query($id: ID!) { game(id: $id) { legalCommands isYourTurn } }`, { id: game.id }, game.tokens[seat]);
    expect(mine.errors).toBeUndefined();
    expect(mine.data.game.isYourTurn).toBe(true);
    const commands = (mine.data.game.legalCommands as Command[]).filter((c) => !(MATCH_COMMANDS as readonly string[]).includes(c.type));
    expect(commands.length).toBeGreaterThan(0);
    const command = choose({ seat, kind, awaiting, commands }, game);
    const r = await server.gql(SUBMIT, { id: game.id, c: command }, game.tokens[seat]);
    expect(r.errors, JSON.stringify(command)).toBeUndefined();
    for (const e of r.data.submitCommand.events) game.state = module.evolve(game.state, e.data);
  }
}

/** The finished game's export verifies: every roll re-derived from the seed, the log re-folded. */
export async function expectVerifiableExport(server: TestServer, id: string) {
  const exported = await server.rest('GET', `/api/games/${id}/export`);
  expect(exported.status).toBe(200);
  expect(exported.body.game.seed).toMatch(/^[0-9a-f]{64}$/);
  const verified = await server.rest('POST', '/api/games/verify', exported.body);
  expect(verified.body).toMatchObject({ valid: true });
}

/** A small deterministic generator for a test client's choices: a number in [0, 1). */
export function lcg(seed: number): () => number {
  let r = seed >>> 0;
  return () => ((r = (Math.imul(r, 1664525) + 1013904223) >>> 0), r / 2 ** 32);
}
