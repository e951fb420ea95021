/**
 * Orders in words over GraphQL and REST (docs/api.md, "Orders in words"): legalOrders,
 * submitCommand with a notation, and submitCommands (all or none, one append, the refusal
 * naming which order and why). Raid on Wuchao, whose Yuan places nine units one by one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raidOnWuchao } from '../../src/domain/raid-on-wuchao/index.ts';
import { createApiGame } from '../support/api-game.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimit: 100_000 });
});
afterAll(async () => server?.close());

const ORDERS = `query($id: ID!) { game(id: $id) { version legalCommands legalOrders { notation text command } } }`;
const SUBMIT_NOTATION = `mutation($id: ID!, $n: String, $v: Int) { submitCommand(gameId: $id, notation: $n, expectedVersion: $v) { game { version } events { version type } } }`;
const SUBMIT_ALL = `mutation($id: ID!, $c: [JSON!], $n: [String!], $v: Int, $k: String) {
  submitCommands(gameId: $id, commands: $c, notations: $n, expectedVersion: $v, idempotencyKey: $k) { game { version } events { version type seat } } }`;

const create = () => createApiGame(server, raidOnWuchao, ['cao', 'yuan']);

describe('orders in words', () => {
  it('lists the seat\'s legal commands as orders, each command the legalCommands entry, on GraphQL and REST alike', async () => {
    const game = await create();
    const yuan = await server.gql(ORDERS, { id: game.id }, game.tokens.yuan);
    expect(yuan.errors).toBeUndefined();
    const { legalOrders, legalCommands } = yuan.data.game;
    expect(legalOrders.map((o: { command: unknown }) => o.command)).toEqual(legalCommands);
    expect(legalOrders.some((o: { notation: string }) => /^place \S+ \S+$/.test(o.notation))).toBe(true);
    expect(legalOrders.find((o: { notation: string }) => o.notation === 'resign').text).toBe('Resign the game');
    const rest = await server.rest('GET', `/api/games/${game.id}/orders`, undefined, game.tokens.yuan);
    expect(rest.status).toBe(200);
    expect(rest.body.orders).toEqual(legalOrders);
    const full = await server.rest('GET', `/api/games/${game.id}`, undefined, game.tokens.yuan);
    expect(full.body.game.legalOrders).toEqual(legalOrders);
  });

  it('submitCommand takes a notation, refuses a line that is no order (BAD_REQUEST, why) and one that breaks a rule', async () => {
    const game = await create();
    const { legalOrders, version } = (await server.gql(ORDERS, { id: game.id }, game.tokens.yuan)).data.game;
    const place = legalOrders.find((o: { notation: string }) => o.notation.startsWith('place ')).notation as string;
    const nonsense = await server.gql(SUBMIT_NOTATION, { id: game.id, n: 'fly to the moon' }, game.tokens.yuan);
    expect(nonsense.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    expect(nonsense.errors?.[0]?.message).toContain('is not an order of Raid on Wuchao');
    const both = await server.gql(`mutation($id: ID!) { submitCommand(gameId: $id, command: {type: "resign"}, notation: "resign") { game { version } } }`, { id: game.id }, game.tokens.yuan);
    expect(both.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    const ok = await server.gql(SUBMIT_NOTATION, { id: game.id, n: `  ${place.toUpperCase()} `, v: version }, game.tokens.yuan);
    expect(ok.errors).toBeUndefined();
    expect(ok.data.submitCommand.events.map((e: { type: string }) => e.type)).toContain('UnitPlaced');
    // The same unit again: it is no longer to be placed (refused, nothing stored).
    const again = await server.gql(SUBMIT_NOTATION, { id: game.id, n: place }, game.tokens.yuan);
    expect(again.errors?.[0]?.extensions?.code).toMatch(/BAD_REQUEST|ILLEGAL_COMMAND/);
    expect((await server.rest('GET', `/api/games/${game.id}`)).body.game.version).toBe(ok.data.submitCommand.game.version);
    const rest = await server.rest('POST', `/api/games/${game.id}/commands`, { notation: 'offer draw' }, game.tokens.yuan);
    expect(rest.status).toBe(200);
    expect(rest.body.events.map((e: { type: string }) => e.type)).toEqual(['DrawOffered']);
  });

  it('submitCommands applies all nine placements in one append, in order; the export lists them one by one and verifies', async () => {
    const game = await create();
    const lines: string[] = [];
    // Each placement read on the position the previous left: pick the first listed placement of a unit not yet named.
    const { legalOrders } = (await server.gql(ORDERS, { id: game.id }, game.tokens.yuan)).data.game;
    const units = [...new Set(legalOrders.filter((o: { notation: string }) => o.notation.startsWith('place ')).map((o: { notation: string }) => o.notation.split(' ')[1]))] as string[];
    const spaces = [...new Set(legalOrders.filter((o: { notation: string }) => o.notation.startsWith('place ')).map((o: { notation: string }) => o.notation.split(' ')[2]))] as string[];
    units.forEach((u, i) => lines.push(`place ${u} ${spaces[Math.floor(i / 3) % spaces.length]}`));
    expect(units).toHaveLength(9);
    const before = (await server.rest('GET', `/api/games/${game.id}`)).body.game.version;
    const r = await server.gql(SUBMIT_ALL, { id: game.id, n: lines, v: before, k: 'setup-1' }, game.tokens.yuan);
    expect(r.errors).toBeUndefined();
    const events = r.data.submitCommands.events;
    expect(events.filter((e: { type: string }) => e.type === 'UnitPlaced')).toHaveLength(9);
    expect(events.map((e: { version: number }) => e.version)).toEqual(events.map((_: unknown, i: number) => before + 1 + i));
    // The same key again: the first outcome, nothing new.
    const again = await server.gql(SUBMIT_ALL, { id: game.id, n: lines, k: 'setup-1' }, game.tokens.yuan);
    expect(again.errors).toBeUndefined();
    expect(again.data.submitCommands.events).toEqual(events);
    // Cao is awaited now; finish with a resignation so the export shows the commands and verifies.
    expect((await server.rest('POST', `/api/games/${game.id}/resign`, undefined, game.tokens.cao)).status).toBe(200);
    const exported = await server.rest('GET', `/api/games/${game.id}/export`);
    expect(exported.body.commands.filter((c: { command: { type: string } }) => c.command.type === 'placeUnit')).toHaveLength(9);
    const verified = await server.rest('POST', '/api/games/verify', exported.body);
    expect(verified.body.valid).toBe(true);
  });

  it('submitCommands is all or none: one refused, nothing stored, the answer names which and why (GraphQL and REST)', async () => {
    const game = await create();
    const { legalOrders, version } = (await server.gql(ORDERS, { id: game.id }, game.tokens.yuan)).data.game;
    const place = legalOrders.find((o: { notation: string }) => o.notation.startsWith('place ')).command;
    const r = await server.gql(SUBMIT_ALL, { id: game.id, c: [place, place] }, game.tokens.yuan);
    expect(r.errors?.[0]?.message).toMatch(/^Command 2 \(placeUnit\) was refused: .+Nothing was applied\.$/);
    expect(r.errors?.[0]?.extensions?.index).toBe(1);
    const bad = await server.rest('POST', `/api/games/${game.id}/commands/batch`, { notations: ['resign', 'flap wings'] }, game.tokens.yuan);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('Command 2 ("flap wings")');
    const schema = await server.rest('POST', `/api/games/${game.id}/commands/batch`, { commands: [place, { type: 'nope' }] }, game.tokens.yuan);
    expect(schema.status).toBe(400);
    expect(schema.body.error.message).toMatch(/^Command 2: /);
    expect((await server.rest('GET', `/api/games/${game.id}`)).body.game.version).toBe(version);
    const ok = await server.rest('POST', `/api/games/${game.id}/commands/batch`, { commands: [place, { type: 'offerDraw' }] }, game.tokens.yuan);
    expect(ok.status).toBe(200);
    expect(ok.body.events.map((e: { type: string }) => e.type)).toEqual(['UnitPlaced', 'DrawOffered']);
    expect(ok.body.game.version).toBe(version + 2);
  });
});
