/**
 * The lobby through the API: open seats, invite codes, OPEN until the last seat is taken
 * (then setup runs), joining with a player token or a name, leaving, cancelling, the
 * public list, the race for the last seat across two server processes, "my turn" agreeing
 * with `awaiting` after every command, and the REST mirror.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MATCH_COMMANDS } from '../../src/domain/kernel/index.ts';
import { lcg } from '../support/api-game.ts';
import { SUBMIT } from '../support/client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let a: TestServer;
let b: TestServer;
beforeAll(async () => {
  const opts = { rateLimit: 100_000, registrationsPerMinute: 10_000 };
  [a, b] = await Promise.all([startTestServer(opts), startTestServer(opts)]);
});
afterAll(async () => Promise.all([a?.close(), b?.close()]));

const CREATE = `mutation($input: CreateGameInput!) {
  createGame(input: $input) { game { id status version visibility seats { id name open bot player { id name } isYou } awaiting { seat } } seatTokens { seat token } inviteCode }
}`;
const JOIN = `mutation($id: ID!, $seat: String, $name: String, $code: String) {
  joinGame(gameId: $id, seat: $seat, name: $name, inviteCode: $code) { game { id status version seats { id name open isYou } } seatToken }
}`;

async function player(server: TestServer, name: string) {
  const r = await server.gql(`mutation($n: String!) { registerPlayer(input: { name: $n }) { player { id } token } }`, { n: name });
  expect(r.errors).toBeUndefined();
  return { id: r.data.registerPlayer.player.id as string, token: r.data.registerPlayer.token as string };
}

async function create(server: TestServer, input: Record<string, unknown>, token?: string) {
  const r = await server.gql(CREATE, { input: { type: 'guessing-game', options: { target: 5 }, ...input } }, token);
  expect(r.errors).toBeUndefined();
  return r.data.createGame;
}

describe('the lobby', () => {
  it('keeps a game with an open seat OPEN, without setup or commands, until the seat is taken by invite code', async () => {
    const host = await player(a, 'Host');
    const created = await create(a, { seats: [{ seat: 'north', me: true }, { seat: 'east', open: true }] }, host.token);
    expect(created.game).toMatchObject({ status: 'OPEN', version: 0, visibility: 'PRIVATE', awaiting: [] });
    expect(created.game.seats).toEqual([
      { id: 'north', name: 'Host', open: false, bot: null, player: { id: host.id, name: 'Host' }, isYou: true },
      { id: 'east', name: '', open: true, bot: null, player: null, isYou: false },
    ]);
    expect(created.inviteCode).toMatch(/^[A-Za-z0-9_-]{12}$/);
    const id = created.game.id;

    // An OPEN game accepts no command.
    const early = await a.gql(SUBMIT, { id, c: { type: 'guess', number: 1 } }, host.token);
    expect(early.errors?.[0].extensions.code).toBe('NOT_YOUR_TURN');
    expect(early.errors?.[0].message).toContain('has not started');
    const q = await a.gql(`query($id: ID!) { game(id: $id) { status events { type } legalCommands view { __typename } } }`, { id }, host.token);
    expect(q.data.game).toEqual({ status: 'OPEN', events: [], legalCommands: [], view: { __typename: 'GenericView' } });

    // Private: the invite code is needed, and must be this game's.
    expect((await a.gql(JOIN, { id, name: 'Guest' })).errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect((await a.gql(JOIN, { id, name: 'Guest', code: 'wrong-code-x' })).errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect((await a.gql(JOIN, { id, code: created.inviteCode })).errors?.[0].extensions.code).toBe('BAD_REQUEST'); // no name, no player token
    expect((await a.gql(JOIN, { id, name: 'Guest', code: created.inviteCode, seat: 'south' })).errors?.[0].extensions.code).toBe('BAD_REQUEST');
    expect((await a.gql(JOIN, { id, name: 'Guest', code: created.inviteCode, seat: 'north' })).errors?.[0].extensions.code).toBe('SEAT_TAKEN');

    // The invite link /join/<code> finds the game by its code alone (GraphQL and REST).
    const INVITATION = `query($code: String!) { invitation(code: $code) { id status seats { id open } } }`;
    expect((await b.gql(INVITATION, { code: created.inviteCode })).data.invitation).toMatchObject({ id, status: 'OPEN', seats: [{ open: false }, { open: true }] });
    expect((await b.gql(INVITATION, { code: 'wrong-code-x' })).errors?.[0].extensions.code).toBe('NOT_FOUND');
    expect((await b.rest('GET', `/api/invitations/${created.inviteCode}`)).body.game).toMatchObject({ id, status: 'OPEN' });

    const joined = await b.gql(JOIN, { id, name: 'Guest', code: created.inviteCode });
    expect(joined.errors).toBeUndefined();
    expect(joined.data.joinGame.game.status).toBe('ACTIVE');
    expect(joined.data.joinGame.game.version).toBeGreaterThan(0);
    expect(joined.data.joinGame.game.seats[1]).toEqual({ id: 'east', name: 'Guest', open: false, isYou: true });
    const seatToken = joined.data.joinGame.seatToken;
    expect(seatToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    // Setup ran; both play: the player by player token, the guest by seat token.
    expect((await a.gql(SUBMIT, { id, c: { type: 'guess', number: 1 } }, host.token)).errors).toBeUndefined();
    expect((await a.gql(SUBMIT, { id, c: { type: 'guess', number: 1 } }, seatToken)).errors).toBeUndefined();
    // Too late to join, leave or cancel; the code leads nowhere once the game has started.
    expect((await a.gql(JOIN, { id, name: 'Late', code: created.inviteCode })).errors?.[0].extensions.code).toBe('SEAT_TAKEN');
    expect((await b.rest('GET', `/api/invitations/${created.inviteCode}`)).status).toBe(404);
    expect((await a.gql(`mutation($id: ID!) { leaveGame(gameId: $id) { id } }`, { id }, host.token)).errors?.[0].extensions.code).toBe('ILLEGAL_COMMAND');
    expect((await a.gql(`mutation($id: ID!) { cancelGame(gameId: $id) { id } }`, { id }, host.token)).errors?.[0].extensions.code).toBe('ILLEGAL_COMMAND');
  });

  it('lists public games with an open seat, oldest first; leaving frees the seat, the creator cancels', async () => {
    const host = await player(a, 'Lister');
    const first = await create(a, { visibility: 'PUBLIC', seats: [{ seat: 'north', me: true }, { seat: 'east', open: true }, { seat: 'south', open: true }] }, host.token);
    const second = await create(a, { visibility: 'PUBLIC', seats: [{ seat: 'north', open: true }, { seat: 'east', name: 'Named' }] });
    const hidden = await create(a, { seats: [{ seat: 'north', open: true }, { seat: 'east', name: 'Named' }] });
    const list = await b.gql(`{ openGames(type: "guessing-game", first: 100) { nodes { id status } pageInfo { hasNextPage } } }`);
    const ids = list.data.openGames.nodes.map((g: { id: string }) => g.id);
    expect(ids.indexOf(first.game.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(first.game.id)).toBeLessThan(ids.indexOf(second.game.id));
    expect(ids).not.toContain(hidden.game.id);
    // Paging goes on after the cursor, oldest first.
    const one = await b.gql(`{ openGames(type: "guessing-game", first: 1) { nodes { id } pageInfo { endCursor hasNextPage } } }`);
    const next = await b.gql(`query($after: String) { openGames(type: "guessing-game", first: 1, after: $after) { nodes { id } } }`, { after: one.data.openGames.pageInfo.endCursor });
    expect(next.data.openGames.nodes[0].id).toBe(ids[1]);

    // A public game is joined without the code; leaving frees the seat and voids the seat token.
    const guest = await player(b, 'Guest');
    const joined = await b.gql(JOIN, { id: first.game.id, seat: 'south' }, guest.token);
    expect(joined.data.joinGame).toMatchObject({ game: { status: 'OPEN' }, seatToken: null });
    const anon = await a.gql(JOIN, { id: second.game.id, name: 'Anon' });
    expect(anon.data.joinGame.game.status).toBe('ACTIVE'); // its last seat
    const left = await a.gql(`mutation($id: ID!) { leaveGame(gameId: $id) { status seats { id open } } }`, { id: first.game.id }, guest.token);
    expect(left.data.leaveGame.seats).toEqual([{ id: 'north', open: false }, { id: 'east', open: true }, { id: 'south', open: true }]);
    expect((await a.gql(`mutation($id: ID!) { leaveGame(gameId: $id) { id } }`, { id: first.game.id }, guest.token)).errors?.[0].extensions.code).toBe('FORBIDDEN');

    // Only the creator cancels; a cancelled game is ABANDONED and leaves the list.
    expect((await a.gql(`mutation($id: ID!) { cancelGame(gameId: $id) { id } }`, { id: first.game.id }, guest.token)).errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect((await a.gql(`mutation($id: ID!) { cancelGame(gameId: $id) { id } }`, { id: first.game.id })).errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
    const cancelled = await a.gql(`mutation($id: ID!) { cancelGame(gameId: $id) { status } }`, { id: first.game.id }, host.token);
    expect(cancelled.data.cancelGame.status).toBe('ABANDONED');
    expect((await a.gql(JOIN, { id: first.game.id }, guest.token)).errors?.[0].extensions.code).toBe('GAME_OVER');
    expect((await a.gql(SUBMIT, { id: first.game.id, c: { type: 'guess', number: 1 } }, host.token)).errors?.[0].extensions.code).toBe('GAME_OVER');
    const after = await b.gql(`{ openGames(type: "guessing-game", first: 100) { nodes { id } } }`);
    expect(after.data.openGames.nodes.map((g: { id: string }) => g.id)).not.toContain(first.game.id);
    // A game created without a player token is cancelled by a seat token it returned.
    const anonymous = await create(a, { seats: [{ seat: 'north', open: true }, { seat: 'east', name: 'Maker' }] });
    const maker = anonymous.seatTokens[0].token;
    expect((await a.gql(`mutation($id: ID!) { cancelGame(gameId: $id) { status } }`, { id: anonymous.game.id }, maker)).data.cancelGame.status).toBe('ABANDONED');
  });

  it('lists a PRIVATE game only to its players (GET /api/games, games, openGames); whoever has its id still reads it', async () => {
    const host = await player(a, 'Secretive');
    const stranger = await player(b, 'Stranger');
    const hidden = await create(a, { seats: [{ seat: 'north', me: true }, { seat: 'east', open: true }] }, host.token);
    const shown = await create(a, { visibility: 'PUBLIC', seats: [{ seat: 'north', me: true }, { seat: 'east', open: true }] }, host.token);
    const plain = await a.rest('POST', '/api/games', { type: 'guessing-game', options: { target: 5 }, seats: [{ seat: 'north', name: 'N' }, { seat: 'east', name: 'E' }] });
    const listed = async (token?: string) => {
      const rest = (await b.rest('GET', '/api/games?first=100&type=guessing-game', undefined, token)).body.games.map((g: { id: string }) => g.id);
      const gql = (await b.gql(`{ games(first: 100, filter: { type: "guessing-game" }) { nodes { id } } }`, {}, token)).data.games.nodes.map((g: { id: string }) => g.id);
      const open = (await b.gql(`{ openGames(type: "guessing-game", first: 100) { nodes { id } } }`, {}, token)).data.openGames.nodes.map((g: { id: string }) => g.id);
      expect(gql).toEqual(rest);
      return { games: rest as string[], open: open as string[] };
    };
    for (const token of [undefined, stranger.token, plain.body.seatTokens[0].token]) {
      const seen = await listed(token);
      expect(seen.games, String(token)).not.toContain(hidden.game.id);
      expect(seen.open).not.toContain(hidden.game.id);
      expect(seen.open).toContain(shown.game.id);
    }
    expect((await listed()).games).toContain(shown.game.id); // PUBLIC: listed to anyone
    expect((await listed()).games).not.toContain(plain.body.game.id); // PRIVATE by default
    expect((await listed(plain.body.seatTokens[0].token)).games).toEqual([plain.body.game.id]);
    expect((await listed(host.token)).games).toEqual(expect.arrayContaining([hidden.game.id, shown.game.id]));
    // Read by id, as a spectator, as before.
    expect((await b.rest('GET', `/api/games/${hidden.game.id}`)).status).toBe(200);
    expect((await b.gql(`query($id: ID!) { game(id: $id) { id status } }`, { id: hidden.game.id })).data.game).toEqual({ id: hidden.game.id, status: 'OPEN' });
  });

  it('gives the last seat to exactly one of many joiners racing on two server processes; the others are told SEAT_TAKEN', async () => {
    for (let round = 0; round < 3; round++) {
      const created = await create(a, { visibility: 'PUBLIC', seats: [{ seat: 'north', name: 'Host' }, { seat: 'east', open: true }, { seat: 'south', open: true }] });
      const id = created.game.id;
      const joiners = await Promise.all(Array.from({ length: 6 }, (_, i) => player(i % 2 ? a : b, `Racer ${i}`)));
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => {
          const server = i % 2 ? a : b;
          // Half with player tokens, half anonymous; all want the last seats.
          return i < 6 ? server.gql(JOIN, { id }, joiners[i]!.token) : server.gql(JOIN, { id, name: `Anon ${i}` });
        }),
      );
      const won = results.filter((r) => !r.errors);
      const lost = results.filter((r) => r.errors);
      expect(won).toHaveLength(2);
      expect(lost.map((r) => r.errors![0].extensions.code)).toEqual(Array(18).fill('SEAT_TAKEN'));
      expect(lost.every((r) => r.status === 200)).toBe(true);
      // Exactly one of the two winners filled the last seat and ran the setup, once.
      expect(won.filter((r) => r.data.joinGame.game.status === 'ACTIVE')).toHaveLength(1);
      const events = await a.rest('GET', `/api/games/${id}/events`);
      expect(events.body.events.filter((e: { version: number }) => e.version === 1)).toHaveLength(1);
      const game = (await a.rest('GET', `/api/games/${id}`)).body.game;
      expect(game.seats.map((s: { open: boolean }) => s.open)).toEqual([false, false, false]);
      expect(new Set(game.seats.map((s: { name: string }) => s.name)).size).toBe(3);
    }
    // REST answers the loser 409.
    const created = await create(a, { visibility: 'PUBLIC', seats: [{ seat: 'north', name: 'Host' }, { seat: 'east', open: true }] });
    expect((await a.rest('POST', `/api/games/${created.game.id}/join`, { name: 'One' })).status).toBe(200);
    expect(await b.rest('POST', `/api/games/${created.game.id}/join`, { name: 'Two' })).toMatchObject({ status: 409, body: { error: { code: 'SEAT_TAKEN' } } });
  });

  it('agrees "my turn" with awaiting after every command of a random game played by player tokens', async () => {
    const p1 = await player(a, 'P1');
    const p2 = await player(b, 'P2');
    const created = await create(a, { options: { target: 12 }, seats: [{ seat: 'north', me: true }, { seat: 'east', open: true }, { seat: 'south', open: true }] }, p1.token);
    const id = created.game.id;
    await b.gql(JOIN, { id, seat: 'east', code: created.inviteCode }, p2.token);
    await a.gql(JOIN, { id, seat: 'south', code: created.inviteCode }, p1.token); // p1 holds north and south
    const seatsOf: Record<string, string> = { north: p1.token, east: p2.token, south: p1.token };
    const rnd = lcg(7);
    const check = async () => {
      const g = (await a.gql(`query($id: ID!) { game(id: $id) { status awaiting { seat } } }`, { id })).data.game;
      const awaited = new Set(g.awaiting.map((p: { seat: string }) => p.seat));
      for (const [who, seats, server] of [[p1, ['north', 'south'], b], [p2, ['east'], a]] as const) {
        const mine = seats.some((s) => awaited.has(s));
        const me = await server.gql(
          `query($id: ID!) { me { myTurnCount yes: games(filter: { myTurn: true }, first: 100) { nodes { id isYourTurn } } no: games(filter: { myTurn: false }, first: 100) { nodes { id } } } game(id: $id) { isYourTurn seats { id isYou mustAct } } }`,
          { id }, who.token,
        );
        expect(me.errors).toBeUndefined();
        const yes = me.data.me.yes.nodes.map((n: { id: string }) => n.id);
        expect(yes.includes(id)).toBe(mine);
        expect(me.data.me.no.nodes.map((n: { id: string }) => n.id).includes(id)).toBe(!mine);
        expect(me.data.me.myTurnCount).toBe(yes.length);
        expect(me.data.game.isYourTurn).toBe(mine);
        expect(me.data.game.seats.filter((s: { isYou: boolean }) => s.isYou).map((s: { id: string }) => s.id)).toEqual(seats);
        const rest = await server.rest('GET', '/api/me/games?myTurn=true&first=100', undefined, who.token);
        expect(rest.body.games.map((g: { id: string }) => g.id).includes(id)).toBe(mine);
        expect(rest.body.myTurnCount).toBe(me.data.me.myTurnCount);
      }
      return g;
    };
    for (let steps = 0; ; steps++) {
      expect(steps).toBeLessThan(300);
      const g = await check();
      if (g.status === 'FINISHED') break;
      const awaiting: { seat: string }[] = g.awaiting;
      const seat = awaiting[Math.floor(rnd() * awaiting.length)]!.seat;
      const legal = (await a.gql(`query($id: ID!) { game(id: $id) { legalCommands } }`, { id }, seatsOf[seat])).data.game.legalCommands;
      // p1's game view is of the awaited seat it holds; ask for the seat's own commands by naming it.
      const own = legal.filter((c: { type: string }) => !(MATCH_COMMANDS as readonly string[]).includes(c.type));
      const command = own.length ? own[Math.floor(rnd() * own.length)] : { type: 'guess', number: 1 + Math.floor(rnd() * 6) };
      const r = await a.gql(`mutation($id: ID!, $c: JSON!, $seat: String) { submitCommand(gameId: $id, command: $c, seat: $seat) { game { version } } }`, { id, c: command, seat }, seatsOf[seat]);
      expect(r.errors, JSON.stringify(command)).toBeUndefined();
    }
  });

  it('mirrors players and the lobby over REST', async () => {
    const reg = await a.rest('POST', '/api/players', { name: 'Rest Host', email: 'rest@example.org' });
    expect(reg).toMatchObject({ status: 201, body: { player: { name: 'Rest Host', email: 'rest@example.org', emailVerified: false }, token: expect.stringMatching(/^wgp_/) } });
    const host = reg.body.token as string;
    const me = await a.rest('GET', '/api/me', undefined, host);
    expect(me.body.player).toMatchObject({ name: 'Rest Host', myTurnCount: 0, tokens: [{ name: 'registration' }] });
    expect((await a.rest('GET', '/api/me')).status).toBe(401);
    expect((await a.rest('PATCH', '/api/me', { name: 'Rest Host 2' }, host)).body.player.name).toBe('Rest Host 2');
    const tok = await a.rest('POST', '/api/me/tokens', { name: 'script' }, host);
    expect(tok).toMatchObject({ status: 201, body: { name: 'script', token: expect.stringMatching(/^wgp_/) } });
    expect((await a.rest('DELETE', `/api/me/tokens/${tok.body.id}`, undefined, host)).body).toEqual({ revoked: true });
    expect((await b.rest('GET', '/api/me', undefined, tok.body.token)).status).toBe(401);

    const created = await a.rest('POST', '/api/games', { type: 'guessing-game', options: { target: 3 }, visibility: 'PUBLIC', seats: [{ seat: 'north', me: true }, { seat: 'east', open: true }] }, host);
    expect(created).toMatchObject({ status: 201, body: { game: { status: 'OPEN', visibility: 'PUBLIC' }, seatTokens: [], inviteCode: expect.any(String) } });
    const id = created.body.game.id as string;
    const open = await b.rest('GET', '/api/open-games?type=guessing-game&first=100');
    expect(open.body.games.map((g: { id: string }) => g.id)).toContain(id);
    const guest = (await b.rest('POST', '/api/players', { name: 'Rest Guest' })).body.token as string;
    const joined = await b.rest('POST', `/api/games/${id}/join`, {}, guest);
    expect(joined).toMatchObject({ status: 200, body: { game: { status: 'ACTIVE' }, seatToken: null } });
    const mine = await a.rest('GET', '/api/me/games?myTurn=true', undefined, guest);
    expect(mine.body.games.map((g: { id: string }) => g.id)).toContain(id);
    expect(mine.body.myTurnCount).toBeGreaterThanOrEqual(1);
    const cmd = await a.rest('POST', `/api/games/${id}/commands`, { command: { type: 'guess', number: 2 } }, guest);
    expect(cmd.status).toBe(200);
    expect((await a.rest('GET', '/api/me/games?myTurn=true', undefined, guest)).body.games.map((g: { id: string }) => g.id)).not.toContain(id);

    // Leave and bad input over REST.
    const other = await a.rest('POST', '/api/games', { type: 'guessing-game', seats: [{ seat: 'north', me: true }, { seat: 'east', open: true }] }, host);
    const oid = other.body.game.id as string;
    const anon = await a.rest('POST', `/api/games/${oid}/join`, { name: 'Anon', inviteCode: other.body.inviteCode });
    expect(anon.status).toBe(200);
    expect(anon.body.game.status).toBe('ACTIVE');
    expect((await a.rest('POST', `/api/games/${oid}/leave`, undefined, anon.body.seatToken)).status).toBe(422);
    const third = await a.rest('POST', '/api/games', { type: 'guessing-game', seats: [{ seat: 'north', me: true }, { seat: 'east', open: true }] }, host);
    expect((await a.rest('POST', `/api/games/${third.body.game.id}/leave`, undefined, host)).body.game.seats.map((s: { open: boolean }) => s.open)).toEqual([true, true]);
    expect((await a.rest('POST', `/api/games/${third.body.game.id}/cancel`, undefined, host)).body.game.status).toBe('ABANDONED');
  });

  it('a seat token that left its seat no longer acts for it, once someone else has taken it', async () => {
    const created = await create(a, { seats: [{ seat: 'north', name: 'Stays' }, { seat: 'east', open: true }] });
    const id = created.game.id;
    const first = (await a.gql(JOIN, { id, name: 'First', code: created.inviteCode })).data.joinGame.seatToken;
    // A query with it, so this process has looked the token up (and may remember it).
    expect((await a.gql(`query($id: ID!) { game(id: $id) { yourSeat } }`, { id }, first)).data.game.yourSeat).toBe('east');
    // Joining filled the game: start again with one that stays open.
    const open = await create(a, { seats: [{ seat: 'north', name: 'Stays' }, { seat: 'east', open: true }, { seat: 'south', open: true }] });
    const oid = open.game.id;
    const leaver = (await a.gql(JOIN, { id: oid, seat: 'east', name: 'Leaver', code: open.inviteCode })).data.joinGame.seatToken;
    expect((await a.gql(`query($id: ID!) { game(id: $id) { yourSeat } }`, { id: oid }, leaver)).data.game.yourSeat).toBe('east');
    expect((await a.gql(`mutation($id: ID!) { leaveGame(gameId: $id) { id } }`, { id: oid }, leaver)).errors).toBeUndefined();
    await a.gql(JOIN, { id: oid, seat: 'east', name: 'Newcomer', code: open.inviteCode });
    await a.gql(JOIN, { id: oid, seat: 'south', name: 'Third', code: open.inviteCode });
    const q = await a.gql(`query($id: ID!) { game(id: $id) { status yourSeat } }`, { id: oid }, leaver);
    expect(q.data?.game?.yourSeat ?? null).toBeNull();
    const r = await a.gql(SUBMIT, { id: oid, c: { type: 'guess', number: 1 } }, leaver);
    expect(['FORBIDDEN', 'UNAUTHENTICATED']).toContain(r.errors?.[0].extensions.code);
  });

  it('refuses bad lobby input with clear errors', async () => {
    const host = await player(a, 'Picky');
    const bad: [Record<string, unknown>, string | undefined, string, string][] = [
      [{ seats: [{ seat: 'north', me: true }, { seat: 'east', open: true }] }, undefined, 'UNAUTHENTICATED', 'player token'],
      [{ seats: [{ seat: 'north', me: true, open: true }, { seat: 'east', open: true }] }, host.token, 'BAD_REQUEST', 'one of name, me, open or bot'],
      [{ seats: [{ seat: 'north', open: true, name: 'X' }, { seat: 'east', open: true }] }, host.token, 'BAD_REQUEST', 'give no name'],
      [{ seats: [{ seat: 'north', bot: 'genius' }, { seat: 'east', open: true }] }, host.token, 'BAD_REQUEST', 'unknown bot "genius"; bots: random'],
      [{ seats: [{ seat: 'north' }, { seat: 'east', open: true }] }, host.token, 'BAD_REQUEST', '1 to 100 characters'],
      [{ seats: [{ seat: 'north', name: 'tab\there' }, { seat: 'east', open: true }] }, host.token, 'BAD_REQUEST', 'control characters'],
      [{ seats: [{ seat: 'west', open: true }, { seat: 'east', open: true }] }, host.token, 'BAD_REQUEST', 'Unknown seat "west"'],
      [{ seats: [{ seat: 'east', open: true }, { seat: 'east', open: true }] }, host.token, 'BAD_REQUEST', 'Each seat may be taken once'],
    ];
    for (const [input, token, code, message] of bad) {
      const r = await a.gql(CREATE, { input: { type: 'guessing-game', ...input } }, token);
      expect(r.errors?.[0].extensions.code, JSON.stringify(input)).toBe(code);
      expect(r.errors?.[0].message).toContain(message);
    }
    const rest = await a.rest('POST', '/api/games', { type: 'guessing-game', visibility: 'SECRET', seats: [{ seat: 'north', open: true }, { seat: 'east', open: true }] });
    expect(rest.status).toBe(400);
    const created = await create(a, { seats: [{ seat: 'north', open: true }, { seat: 'east', open: true }] });
    expect((await a.gql(JOIN, { id: created.game.id, name: 'bad\u0007name', code: created.inviteCode })).errors?.[0].extensions.code).toBe('BAD_REQUEST');
    expect((await a.gql(JOIN, { id: '00000000-0000-0000-0000-000000000000', name: 'x' })).errors?.[0].extensions.code).toBe('NOT_FOUND');
    expect((await a.gql(`mutation { leaveGame(gameId: "nope") { id } }`, {}, host.token)).errors?.[0].extensions.code).toBe('NOT_FOUND');
  });
});
