/**
 * Players through the API: registration, player tokens (hashes only, several, named,
 * revocable at once on every process, lastUsedAt), me, updatePlayer and verifyEmail with
 * the code sent to the address, the seat argument, bad input, and the email that reaches
 * nobody but its player.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl, startTestServer, type TestServer } from '../support/server.ts';

let a: TestServer;
let b: TestServer;
let db: pg.Client;
/** The verification mails server a sends (it has no SMTP: the test reads them here). */
const sent: { to: string; text: string }[] = [];
beforeAll(async () => {
  [a, b] = await Promise.all([startTestServer({ rateLimit: 100_000, registrationsPerMinute: 10_000, sendCode: (mail) => void sent.push(mail) }), startTestServer({ rateLimit: 100_000, registrationsPerMinute: 10_000 })]);
  db = new pg.Client({ connectionString: databaseUrl() });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await Promise.all([a?.close(), b?.close()]);
});

const REGISTER = `mutation($input: RegisterPlayerInput!) { registerPlayer(input: $input) { player { id name email emailVerified notifyByEmail } token } }`;
const ME = `{ me { id name email emailVerified notifyByEmail myTurnCount tokens { id name createdAt lastUsedAt } } }`;

const codeOf = (mail: { text: string }) => /^Code: (\d{6})$/m.exec(mail.text)![1]!;
const VERIFY = `mutation($c: String!) { verifyEmail(code: $c) { emailVerified } }`;

async function register(server: TestServer, name: string, email?: string) {
  const r = await server.gql(REGISTER, { input: { name, ...(email ? { email } : {}) } });
  expect(r.errors).toBeUndefined();
  return r.data.registerPlayer as { player: { id: string; name: string; email: string | null }; token: string };
}

describe('players', () => {
  it('registers a player: a player token shown once and stored only as a hash; me shows the player to themselves', async () => {
    const { player, token } = await register(a, '  Ada  ', 'ada@example.org');
    expect(player).toMatchObject({ name: 'Ada', email: 'ada@example.org', emailVerified: false, notifyByEmail: false });
    expect(token).toMatch(/^wgp_[A-Za-z0-9_-]{43}$/);
    const stored = await db.query('SELECT * FROM player_tokens WHERE player_id = $1', [player.id]);
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored.rows)).not.toContain(token);
    const me = await a.gql(ME, {}, token);
    expect(me.data.me).toMatchObject({ id: player.id, name: 'Ada', email: 'ada@example.org', myTurnCount: 0 });
    expect(me.data.me.tokens).toEqual([{ id: expect.any(String), name: 'registration', createdAt: expect.any(String), lastUsedAt: expect.any(String) }]);
    // Without a token, or with a seat token: no me (an answer, not an error).
    const anonymous = await a.gql(ME);
    expect(anonymous.errors).toBeUndefined();
    expect(anonymous.data.me).toBeNull();
    const seated = await a.rest('POST', '/api/games', { type: 'guessing-game', seats: [{ seat: 'north', name: 'N' }, { seat: 'east', name: 'E' }] });
    expect(seated.status).toBe(201);
    const bySeat = await a.gql(ME, {}, seated.body.seatTokens[0].token);
    expect(bySeat.errors).toBeUndefined();
    expect(bySeat.data.me).toBeNull();
    expect((await a.rest('GET', '/api/me', undefined, seated.body.seatTokens[0].token)).status).toBe(401);
  });

  it('holds several named tokens; a revoked one is refused at once by another server process', async () => {
    const { token } = await register(a, 'Grace');
    const created = await a.gql(`mutation { createPlayerToken(name: "laptop") { id name token } }`, {}, token);
    expect(created.errors).toBeUndefined();
    const laptop = created.data.createPlayerToken;
    expect(laptop).toMatchObject({ name: 'laptop', token: expect.stringMatching(/^wgp_/) });
    // Both work, on both processes.
    for (const server of [a, b]) for (const t of [token, laptop.token]) expect((await server.gql(`{ me { name } }`, {}, t)).data.me.name).toBe('Grace');
    const tokens = (await b.gql(`{ me { tokens { id name lastUsedAt } } }`, {}, token)).data.me.tokens;
    expect(tokens.map((t: { name: string }) => t.name)).toEqual(['registration', 'laptop']);
    expect(tokens[1].lastUsedAt).not.toBeNull();

    const revoked = await a.gql(`mutation($id: ID!) { revokePlayerToken(id: $id) }`, { id: laptop.id }, token);
    expect(revoked.data.revokePlayerToken).toBe(true);
    const refused = await b.gql(`{ me { name } }`, {}, laptop.token);
    expect(refused.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
    expect((await b.rest('GET', '/api/me', undefined, laptop.token)).status).toBe(401);
    // The other token still works; revoking again, or someone else's token, says false.
    expect((await b.gql(`{ me { name } }`, {}, token)).data.me.name).toBe('Grace');
    expect((await a.gql(`mutation($id: ID!) { revokePlayerToken(id: $id) }`, { id: laptop.id }, token)).data.revokePlayerToken).toBe(false);
    const unknown = await a.gql(`{ me { name } }`, {}, 'wgp_' + 'x'.repeat(43));
    expect(unknown.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('a player token another process holds (it was used there) is refused there right after its revocation, every time', async () => {
    const { token } = await register(a, 'Hedy');
    for (let i = 0; i < 10; i++) {
      const created = (await a.gql(`mutation($n: String!) { createPlayerToken(name: $n) { id token } }`, { n: `t${i}` }, token)).data.createPlayerToken;
      // Used on b twice: b holds it (the second use is answered from what b holds).
      for (let use = 0; use < 2; use++) expect((await b.gql(`{ me { name } }`, {}, created.token)).data.me.name).toBe('Hedy');
      expect((await a.gql(`mutation($id: ID!) { revokePlayerToken(id: $id) }`, { id: created.id }, token)).data.revokePlayerToken).toBe(true);
      const refused = await b.gql(`{ me { name } }`, {}, created.token);
      expect(refused.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
      // And on a, where it was revoked and also used.
      expect((await a.gql(`{ me { name } }`, {}, created.token)).errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
    }
    expect((await b.gql(`{ me { name } }`, {}, token)).data.me.name).toBe('Hedy');
  });

  it('changes name and email; a new email is verified with the code sent to it, stored only as a hash', async () => {
    const { player, token } = await register(a, 'Lin', 'lin@example.org');
    expect(sent.at(-1)?.to).toBe('lin@example.org');
    const code = codeOf(sent.at(-1)!);
    const stored = (await db.query('SELECT email_code_hash FROM players WHERE id = $1', [player.id])).rows[0].email_code_hash as string;
    expect(stored).toBe(createHash('sha256').update(`${player.id}:${code}`).digest('hex'));
    expect(JSON.stringify((await db.query('SELECT * FROM players WHERE id = $1', [player.id])).rows)).not.toContain(`"${code}"`);

    const wrong = await a.gql(`mutation { verifyEmail(code: "nope") { emailVerified } }`, {}, token);
    expect(wrong.errors?.[0]).toMatchObject({ message: 'Wrong code', extensions: { code: 'BAD_REQUEST' } });
    const ok = await a.gql(`mutation($c: String!) { verifyEmail(code: $c) { email emailVerified } }`, { c: code }, token);
    expect(ok.data.verifyEmail).toEqual({ email: 'lin@example.org', emailVerified: true });

    const changed = await a.gql(`mutation { updatePlayer(input: { name: "Lin Yu", email: "yu@example.org", notifyByEmail: true }) { name email emailVerified notifyByEmail } }`, {}, token);
    expect(changed.data.updatePlayer).toEqual({ name: 'Lin Yu', email: 'yu@example.org', emailVerified: false, notifyByEmail: true });
    expect(sent.at(-1)).toMatchObject({ to: 'yu@example.org' });
    const code2 = codeOf(sent.at(-1)!);
    expect((await a.gql(`mutation($c: String!) { verifyEmail(code: $c) { emailVerified } }`, { c: code2 }, token)).data.verifyEmail.emailVerified).toBe(true);
  });

  it('refuses bad names and emails with clear errors, and player-only operations without a player token', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, '1 to 100 characters'],
      [{ name: '   ' }, '1 to 100 characters'],
      [{ name: 'x'.repeat(101) }, '1 to 100 characters'],
      [{ name: 'bad\nname' }, 'control characters'],
      [{ name: 'Ok', email: 'not-an-email' }, 'is not an email address'],
      [{ name: 'Ok', email: 'a@b' }, 'is not an email address'],
      [{ name: 'Ok', email: 'a b@example.org' }, 'is not an email address'],
    ];
    for (const [input, message] of cases) {
      const r = await a.gql(REGISTER, { input });
      expect(r.errors?.[0].extensions.code, JSON.stringify(input)).toBe('BAD_REQUEST');
      expect(r.errors?.[0].message).toContain(message);
    }
    const rest = await a.rest('POST', '/api/players', { name: 'x', email: 'nope' });
    expect(rest).toMatchObject({ status: 400, body: { error: { code: 'BAD_REQUEST' } } });
    expect((await a.rest('POST', '/api/players', { email: 'a@example.org' })).status).toBe(400);
    for (const q of [`mutation { updatePlayer(input: { name: "x" }) { id } }`, `mutation { verifyEmail(code: "1") { id } }`, `mutation { createPlayerToken(name: "x") { id } }`]) {
      expect((await a.gql(q)).errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
    }
    const { token } = await register(a, 'Val');
    expect((await a.gql(`mutation { createPlayerToken(name: "") { id } }`, {}, token)).errors?.[0].extensions.code).toBe('BAD_REQUEST');
    expect((await a.gql(`mutation { updatePlayer(input: { email: "x@" }) { id } }`, {}, token)).errors?.[0].extensions.code).toBe('BAD_REQUEST');
  });

  it('counts wrong guesses of the email code in the statement that compares them: 60 at once through two processes are 5 guesses', async () => {
    const { player, token } = await register(a, 'Quinn', 'quinn@example.org');
    const code = codeOf(sent.at(-1)!);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).gql(VERIFY, { c: wrong }, token)));
    const messages = answers.map((r) => r.errors?.[0].message as string);
    expect(messages.filter((m) => m?.startsWith('Wrong code'))).toHaveLength(5);
    expect(messages.filter((m) => m?.startsWith('No code is pending'))).toHaveLength(55);
    // The code is gone: the right one, now, verifies nothing.
    expect((await a.gql(VERIFY, { c: code }, token)).errors?.[0].message).toMatch(/No code is pending/);
    const row = (await db.query('SELECT email_verified, email_code_hash, email_code_attempts FROM players WHERE id = $1', [player.id])).rows[0];
    expect(row).toEqual({ email_verified: false, email_code_hash: null, email_code_attempts: 5 });
  });

  it('does not verify with the right code sent 26th in a burst of 30', async () => {
    for (let run = 0; run < 3; run++) {
      const { token } = await register(a, `Burst ${run}`, `burst${run}@example.org`);
      const code = codeOf(sent.at(-1)!);
      const guesses = Array.from({ length: 30 }, (_, i) => (i === 25 ? code : String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0')));
      // The 25 wrong ones at once through both processes, then the rest (the right code first):
      // whatever order the 25 reach the database in, they use up the five guesses.
      const burst = (list: string[]) => Promise.all(list.map((c, i) => (i % 2 ? a : b).gql(VERIFY, { c }, token)));
      await burst(guesses.slice(0, 25));
      await burst(guesses.slice(25));
      expect((await a.gql(ME, {}, token)).data.me.emailVerified, `run ${run}`).toBe(false);
    }
    // Within the five guesses the right code still works, wrong ones before it or not.
    const { token } = await register(a, 'Patient', 'patient@example.org');
    const code = codeOf(sent.at(-1)!);
    for (const c of ['000000', '999999']) if (c !== code) await b.gql(VERIFY, { c }, token);
    expect((await a.gql(VERIFY, { c: code }, token)).data.verifyEmail.emailVerified).toBe(true);
  });

  it('limits registrations per address across processes, counted in the database (RATE_LIMITED / 429)', async () => {
    // Two processes behind a proxy: the client's address is its X-Forwarded-For (one of this test's own).
    const opts = { rateLimit: 100_000, registrationsPerMinute: 2, trustProxy: true } as const;
    const [one, two] = await Promise.all([startTestServer(opts), startTestServer(opts)]);
    const from = { 'x-forwarded-for': '198.51.100.23' };
    await db.query(`DELETE FROM registration_limits WHERE address IN ('198.51.100.23', '192.0.2.77')`);
    try {
      expect((await one.rest('POST', '/api/players', { name: 'one' }, undefined, from)).status).toBe(201);
      expect((await two.rest('POST', '/api/players', { name: 'two' }, undefined, from)).status).toBe(201);
      const third = await one.rest('POST', '/api/players', { name: 'three' }, undefined, from);
      expect(third).toMatchObject({ status: 429, body: { error: { code: 'RATE_LIMITED', message: expect.stringMatching(/at most 2 a minute; retry in \d+ s/) } } });
      expect((await two.rest('POST', '/api/players', { name: 'four' }, undefined, from)).body.error.code).toBe('RATE_LIMITED');
      // Another address has a count of its own.
      expect((await two.rest('POST', '/api/players', { name: 'five' }, undefined, { 'x-forwarded-for': '192.0.2.77' })).status).toBe(201);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('a player holding several seats of one game names the seat; a token never acts for a seat it does not hold', async () => {
    const { token } = await register(a, 'Solo');
    const other = await register(a, 'Other');
    const created = await a.gql(
      `mutation($input: CreateGameInput!) { createGame(input: $input) { game { id status seats { id name isYou player { id name } open bot } } seatTokens { seat } } }`,
      { input: { type: 'guessing-game', options: { target: 3 }, seats: [{ seat: 'north', me: true }, { seat: 'east', me: true }] } },
      token,
    );
    expect(created.errors).toBeUndefined();
    const game = created.data.createGame.game;
    expect(created.data.createGame.seatTokens).toEqual([]);
    expect(game.seats.map((s: { isYou: boolean; player: { name: string }; open: boolean }) => [s.isYou, s.player.name, s.open])).toEqual([[true, 'Solo', false], [true, 'Solo', false]]);
    const SUBMIT = `mutation($id: ID!, $c: JSON!, $seat: String) { submitCommand(gameId: $id, command: $c, seat: $seat) { events { type seat } } }`;
    const unnamed = await a.gql(SUBMIT, { id: game.id, c: { type: 'guess', number: 1 } }, token);
    expect(unnamed.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_REQUEST' }, message: expect.stringContaining('north, east') });
    const north = await a.gql(SUBMIT, { id: game.id, c: { type: 'guess', number: 1 }, seat: 'north' }, token);
    expect(north.data.submitCommand.events).toEqual([{ type: 'GuessCommitted', seat: 'north' }]);
    expect((await a.gql(SUBMIT, { id: game.id, c: { type: 'guess', number: 1 }, seat: 'south' }, token)).errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect((await a.gql(SUBMIT, { id: game.id, c: { type: 'guess', number: 1 }, seat: 'east' }, other.token)).errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect((await a.gql(SUBMIT, { id: game.id, c: { type: 'guess', number: 1 } }, other.token)).errors?.[0].extensions.code).toBe('FORBIDDEN');
    // REST: the same seat argument.
    const east = await a.rest('POST', `/api/games/${game.id}/commands`, { command: { type: 'guess', number: 2 }, seat: 'east' }, token);
    expect(east.status).toBe(200);
  });

  it('shows a player\'s email to nobody else: seats, views, events, exports and lists carry only id and name', async () => {
    // Names of their own: every answer below must show them (the game is in it), emails never.
    const names = { host: `Host ${Date.now()}`, guest: `Guest ${Date.now()}` };
    const host = await register(a, names.host, 'host-secret@example.org');
    const guest = await register(a, names.guest, 'guest-secret@example.org');
    const GAME = `mutation($input: CreateGameInput!) { createGame(input: $input) { game { id } inviteCode } }`;
    const JOIN = `mutation($id: ID!, $seat: String) { joinGame(gameId: $id, seat: $seat) { game { status } seatToken } }`;
    const created = await a.gql(GAME, { input: { type: 'guessing-game', options: { target: 2 }, visibility: 'PUBLIC', seats: [{ seat: 'north', me: true }, { seat: 'east', open: true }] } }, host.token);
    expect(created.errors).toBeUndefined();
    const { id } = created.data.createGame.game;
    const joined = await a.gql(JOIN, { id }, guest.token);
    expect(joined.data.joinGame).toEqual({ game: { status: 'ACTIVE' }, seatToken: null });
    // A game still in the lobby with both of them seated: the one the open-games list shows.
    const waiting = await a.gql(GAME, { input: { type: 'guessing-game', options: { target: 2 }, visibility: 'PUBLIC', seats: [{ seat: 'north', me: true }, { seat: 'east', open: true }, { seat: 'south', open: true }] } }, host.token);
    expect(waiting.errors).toBeUndefined();
    const waitingId = waiting.data.createGame.game.id as string;
    expect((await a.gql(JOIN, { id: waitingId, seat: 'east' }, guest.token)).data.joinGame.game.status).toBe('OPEN');
    // A list's page holding the game (other files' games share the database and its lists).
    const pageWith = async (path: string, gameId: string, token?: string) => {
      let after = '';
      for (let n = 0; n < 50; n++) {
        const r = await a.rest('GET', `${path}${path.includes('?') ? '&' : '?'}first=100${after}`, undefined, token);
        expect(r.status, path).toBe(200);
        if (r.body.games.some((g: { id: string }) => g.id === gameId)) return r.body;
        if (!r.body.pageInfo.hasNextPage) break;
        after = `&after=${encodeURIComponent(r.body.pageInfo.endCursor)}`;
      }
      throw new Error(`${path} does not list ${gameId}`);
    };
    const seen: [string, string][] = [];
    for (const token of [undefined, guest.token, host.token]) {
      const who = String(token);
      const q = await a.gql(`query($id: ID!) { game(id: $id) { seats { id name player { id name } } events { data } view { ... on GenericView { state } } } }`, { id }, token);
      expect(q.errors).toBeUndefined();
      seen.push([`graphql game ${who}`, JSON.stringify(q)]);
      const game = await a.rest('GET', `/api/games/${id}`, undefined, token);
      expect(game.status).toBe(200);
      seen.push([`rest game ${who}`, JSON.stringify(game.body)]);
      const exported = await a.rest('GET', `/api/games/${id}/export`, undefined, token);
      expect(exported.status).toBe(200);
      seen.push([`export ${who}`, JSON.stringify(exported.body)]);
      seen.push([`games ${who}`, JSON.stringify(await pageWith('/api/games?type=guessing-game', id, token))]);
      seen.push([`open-games ${who}`, JSON.stringify(await pageWith('/api/open-games?type=guessing-game', waitingId, token))]);
    }
    seen.push(['me/games', JSON.stringify(await pageWith('/api/me/games', waitingId, guest.token))]);
    for (const [where, s] of seen) {
      // Each answer does carry both players (so it could carry their emails)...
      expect(s, where).toContain(names.host);
      expect(s, where).toContain(names.guest);
      // ...and not the emails.
      expect(s, where).not.toContain('host-secret');
      expect(s, where).not.toContain('guest-secret');
    }
    expect(seen[0]![1]).toContain(`"player":{"id":"${host.player.id}","name":"${names.host}"}`);
    const stored = await db.query('SELECT players::text, seats::text FROM games WHERE id = ANY($1::uuid[])', [[id, waitingId]]);
    expect(stored.rows).toHaveLength(2);
    expect(JSON.stringify(stored.rows)).toContain(names.guest);
    expect(JSON.stringify(stored.rows)).not.toContain('secret@');
  });
});
