/**
 * Warchon's secrets through every channel a client has: nothing hidden reaches the other
 * seat or a spectator — GraphQL view and events, REST game, view and events, the export,
 * and a live subscription — until the rules reveal it. The secrets: which unit each
 * marker is (until it has fought) and a committed number (until both are in).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MATCH_COMMANDS } from '../../src/domain/kernel/index.ts';
import { typeKeyOf } from '../../src/domain/warchon/setup.ts';
import { collect, SUBMIT, wsClient } from '../support/client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimit: 1_000_000 });
});
afterAll(async () => server?.close());

const ARMIES = ['azuthkan', 'celestine'] as const;
type Unit = { id: string; army: string; known: boolean; key: string | null; name: string | null; revealed: boolean };

describe('Warchon secrets over the API', () => {
  it('never reach the other seat or a spectator on any channel before the rules reveal them', async () => {
    const created = await server.gql(
      `mutation($i: CreateGameInput!) { createGame(input: $i) { game { id } seatTokens { seat token } } }`,
      { i: { type: 'warchon', options: { turnLimit: 30 }, seats: ARMIES.map((seat) => ({ seat, name: seat })) } },
    );
    const id: string = created.data.createGame.game.id;
    const token: Record<string, string> = Object.fromEntries(created.data.createGame.seatTokens.map((t: { seat: string; token: string }) => [t.seat, t.token]));
    const viewers = [...ARMIES, null] as const;
    const clients = viewers.map((v) => wsClient(server, v ? token[v] : undefined));
    const feeds = clients.map((c) => collect(c, id, 0));

    const viewOf = async (viewer: string | null) => (await server.rest('GET', `/api/games/${id}`, undefined, viewer ? token[viewer] : undefined)).body.game;

    /** How many hidden keys, unit types and names were looked for (a walk that never held one proves nothing). */
    const looked = { placedKeys: 0, types: 0, names: 0 };
    /** What `viewer` must not see now: keys, unit types and names of the opponent's unrevealed units, and an uncommitted-by-both number. */
    async function check(step: number) {
      const owners = Object.fromEntries(await Promise.all(ARMIES.map(async (a) => [a, await viewOf(a)] as const)));
      for (const [i, viewer] of viewers.entries()) {
        const auth = viewer ? token[viewer] : undefined;
        const hiddenKeys: string[] = [];
        const hiddenNumbers: number[] = [];
        // The type and name too ("baphite-swarm" of "baphite-swarm-2"), unless a revealed unit of the army shows them anyway.
        const hiddenTypes = new Set<string>();
        const shownTypes = new Set<string>();
        const hiddenNames = new Set<string>();
        const shownNames = new Set<string>();
        for (const army of ARMIES) {
          if (army === viewer) continue;
          const own = owners[army];
          for (const u of own.view.units as Unit[]) {
            if (u.army === army && !u.revealed && u.key) {
              hiddenKeys.push(u.key);
              looked.placedKeys++;
            }
          }
          for (const key of own.view.unplaced.find((e: { army: string }) => e.army === army).units ?? []) hiddenKeys.push(key);
          for (const u of own.view.units as Unit[]) if (u.army === army && u.revealed && u.key) shownTypes.add(typeKeyOf(u.key));
          for (const u of own.view.units as Unit[]) if (u.army === army && u.name) (u.revealed ? shownNames : hiddenNames).add(u.name);
        }
        for (const key of hiddenKeys) if (!shownTypes.has(typeKeyOf(key))) hiddenTypes.add(typeKeyOf(key));
        for (const name of shownNames) hiddenNames.delete(name);
        looked.types += hiddenTypes.size;
        looked.names += hiddenNames.size;
        for (const army of ARMIES) {
          if (army === viewer) continue;
          const own = owners[army];
          const call = own.view.battle?.numberCall;
          if (call && call.yourNumber !== null && call.committed.length < 2) hiddenNumbers.push(call.yourNumber);
        }
        const gql = await server.gql(`query($id: ID!) { game(id: $id) { events { type data } view { ... on WarchonView { units { id key known } battle { numberCall { yourNumber } } } } legalCommands awaiting { prompt } } }`, { id }, auth);
        expect(gql.errors).toBeUndefined();
        const rest = await viewOf(viewer);
        const events = (await server.rest('GET', `/api/games/${id}/events`, undefined, auth)).body.events;
        const exported = (await server.rest('GET', `/api/games/${id}/export`, undefined, auth)).body;
        await feeds[i]!.until(exported.game.version - (await server.rest('GET', `/api/games/${id}`)).body.game.version + exported.events.length);
        const channels = {
          graphql: JSON.stringify(gql.data),
          rest: JSON.stringify({ ...rest, view: { ...rest.view, spreads: null } }),
          events: JSON.stringify(events),
          export: JSON.stringify({ events: exported.events, commands: exported.commands, seed: exported.game.seed }),
          subscription: JSON.stringify(feeds[i]!.events),
        };
        for (const [channel, text] of Object.entries(channels)) {
          for (const key of hiddenKeys) expect(text, `step ${step}: ${channel} shows ${key} to ${viewer}`).not.toContain(`"${key}"`);
          for (const type of hiddenTypes) expect(text, `step ${step}: ${channel} shows the type ${type} to ${viewer}`).not.toContain(`"${type}"`);
          for (const name of hiddenNames) expect(text, `step ${step}: ${channel} shows the name ${name} to ${viewer}`).not.toContain(`"${name}"`);
        }
        if (hiddenNumbers.length) {
          for (const e of [...events, ...exported.events, ...feeds[i]!.events].filter((e: { type: string }) => e.type === 'NumberCommitted')) {
            if (e.data.army !== viewer) expect(e.data.number, `step ${step}: a committed number reached ${viewer}`).toBeNull();
          }
          expect(gql.data.game.view.battle.numberCall.yourNumber).not.toBe(hiddenNumbers[0]);
        }
        expect(exported.commands).toBeNull();
        expect(exported.game.seed).toBeNull();
      }
      return owners;
    }

    let rnd = 7;
    const next = (n: number) => ((rnd = (Math.imul(rnd, 1664525) + 1013904223) >>> 0), rnd % n);
    let numbersChecked = 0;
    let revealedChecked = false;
    for (let step = 0; step < 400 && (numbersChecked < 2 || !revealedChecked); step++) {
      const owners = await check(step);
      if ((owners.azuthkan.view.units as Unit[]).some((u) => u.revealed)) revealedChecked = true;
      const game = owners.azuthkan;
      if (game.status === 'FINISHED') break;
      const awaiting = game.awaiting as { seat: string; kind: string }[];
      const { seat, kind } = awaiting[next(awaiting.length)]!;
      if (kind === 'COMMIT_NUMBER') numbersChecked++;
      const legal = (await server.gql(`query($id: ID!) { game(id: $id) { legalCommands } }`, { id }, token[seat])).data.game.legalCommands.filter((c: { type: string }) => !(MATCH_COMMANDS as readonly string[]).includes(c.type));
      const moves = legal.filter((c: { type: string }) => c.type === 'moveUnit');
      const command = moves.length && next(10) < 8 ? moves[next(moves.length)] : legal[next(legal.length)];
      const r = await server.gql(SUBMIT, { id, c: command }, token[seat]);
      expect(r.errors).toBeUndefined();
    }
    // The walk reached both secrets' moments: a number committed while the other was not, and a unit revealed by battle.
    expect(numbersChecked).toBeGreaterThanOrEqual(2);
    expect(revealedChecked).toBe(true);
    expect(looked.placedKeys).toBeGreaterThan(0);
    expect(looked.types).toBeGreaterThan(0);
    expect(looked.names).toBeGreaterThan(0);
    for (const c of clients) await c.dispose();
  }, 300_000);
});
