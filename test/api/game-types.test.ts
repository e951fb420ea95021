/** Each game type publishes the JSON Schemas of its commands and of its events, on both channels. */
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuessingGame } from '../support/client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimit: 100_000 });
});
afterAll(async () => server?.close());

describe('game types', () => {
  it('publish their event schema on GraphQL and REST, the same document', async () => {
    const gql = await server.gql('{ gameTypes { id commandSchema eventSchema } }');
    expect(gql.errors).toBeUndefined();
    const rest = await server.rest('GET', '/api/game-types');
    expect(rest.status).toBe(200);
    for (const type of gql.data.gameTypes) {
      expect(type.eventSchema.oneOf.map((s: { title: string }) => s.title)).toContain('PlayerResigned');
      expect(rest.body.gameTypes.find((t: { id: string }) => t.id === type.id).eventSchema).toEqual(type.eventSchema);
    }
    expect(gql.data.gameTypes.find((t: { id: string }) => t.id === 'warchon').eventSchema.oneOf.map((s: { title: string }) => s.title)).toContain('NumberCommitted');
  });

  it('the events a client reads validate against its game type\'s schema', async () => {
    const game = await createGuessingGame(server);
    await server.rest('POST', `/api/games/${game.id}/resign`, undefined, game.tokens.north);
    const { body } = await server.rest('GET', `/api/games/${game.id}/events`);
    const type = (await server.rest('GET', '/api/game-types')).body.gameTypes.find((t: { id: string }) => t.id === 'guessing-game');
    const validate = new Ajv({ discriminator: true, strict: false }).compile(type.eventSchema);
    expect(body.events.map((e: { type: string }) => e.type)).toContain('PlayerResigned');
    for (const e of body.events) expect(validate(e.data), JSON.stringify(e)).toBe(true);
  });

  it('serve their presentation, the same on GraphQL and REST: a description, and each seat\'s name and colour in seat order', async () => {
    const gql = await server.gql('{ gameTypes { id seats description seatDetails { id name colour } } }');
    expect(gql.errors).toBeUndefined();
    const rest = await server.rest('GET', '/api/game-types');
    for (const type of gql.data.gameTypes) {
      const { description, seatDetails } = rest.body.gameTypes.find((t: { id: string }) => t.id === type.id);
      expect({ description, seatDetails }).toEqual({ description: type.description, seatDetails: type.seatDetails });
      expect(type.seatDetails.map((s: { id: string }) => s.id)).toEqual(type.seats);
      for (const s of type.seatDetails) expect(s.colour).toMatch(/^#[0-9a-f]{6}$/);
    }
    const byId = (id: string) => gql.data.gameTypes.find((t: { id: string }) => t.id === id);
    expect(byId('three-kingdoms-combined-arms').seatDetails).toEqual([
      { id: 'wei', name: 'Wei', colour: '#2b6cb0' },
      { id: 'shu', name: 'Shu', colour: '#2f855a' },
      { id: 'wu', name: 'Wu', colour: '#c53030' },
      { id: 'jin', name: 'Jin', colour: '#6b46c1' },
    ]);
    expect(byId('raid-on-wuchao').description).toMatch(/granaries at Wuchao/);
    for (const id of ['raid-on-wuchao', 'three-kingdoms-combined-arms', 'chinese-warlords', 'warchon']) expect(byId(id).description).not.toBe('');
    // A module without a presentation (the tests' guessing game): no description, seat ids, a neutral grey.
    expect(byId('guessing-game')).toMatchObject({ description: '', seatDetails: [{ id: 'north', name: 'north', colour: '#4a5568' }, { id: 'east', name: 'east', colour: '#4a5568' }, { id: 'south', name: 'south', colour: '#4a5568' }] });
  });
});
