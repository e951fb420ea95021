/**
 * The load scenarios, each a client of a server running in its own processes. Every
 * figure is counted from answers: a command counts once it is acknowledged (HTTP 200,
 * so stored); 500s and 503s are counted apart.
 */
import { gql, request } from './client.ts';
import { chooser } from '../test/support/play.ts'; // the client's own choices (the game's dice are the server's)
import { msSince, quantile, round } from './stats.ts';

export interface Load {
  name: string;
  games: number;
  commands: number;
  /** HTTP requests made for those commands (the loops' reads included). */
  requests: number;
  errors: number;
  internalErrors: number;
  unavailable: number;
  seconds: number;
  commandsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

function summary(name: string, games: number, latencies: number[], seconds: number, counts: { requests: number; errors: number; internal: number; unavailable: number }): Load {
  return {
    name,
    games,
    commands: latencies.length,
    requests: counts.requests,
    errors: counts.errors,
    internalErrors: counts.internal,
    unavailable: counts.unavailable,
    seconds: round(seconds, 3),
    commandsPerSecond: round(latencies.length / seconds, 1),
    p50Ms: round(quantile(latencies, 0.5)),
    p99Ms: round(quantile(latencies, 0.99)),
  };
}

const SEATS = ['north', 'east'] as const;

async function createGuessing(url: string, target: number): Promise<{ id: string; tokens: Record<string, string> }> {
  const r = await request(url, 'POST', '/api/games', { type: 'guessing-game', options: { target }, seats: SEATS.map((seat) => ({ seat, name: seat })) });
  if (r.status !== 201) throw new Error(`POST /api/games answered ${r.status}: ${r.text.slice(0, 200)}`);
  const body = r.json();
  return { id: body.game.id, tokens: Object.fromEntries(body.seatTokens.map((t: { seat: string; token: string }) => [t.seat, t.token])) };
}

/** The guessing game through REST, one request per command: north then east each round. */
export async function restLoop(url: string, games: number, commandsPerGame: number, target = 1_000_000): Promise<Load> {
  const created = await Promise.all(Array.from({ length: games }, () => createGuessing(url, target)));
  const latencies: number[] = [];
  const counts = { requests: 0, errors: 0, internal: 0, unavailable: 0 };
  const loop = async (game: { id: string; tokens: Record<string, string> }) => {
    let turn = 0; // north, then east, each round
    for (let i = 0; i < commandsPerGame; i++) {
      const seat = SEATS[turn % 2]!;
      const start = process.hrtime.bigint();
      const r = await request(url, 'POST', `/api/games/${game.id}/commands`, { command: { type: 'guess', number: 1 } }, game.tokens[seat]);
      counts.requests++;
      if (r.status === 200) {
        latencies.push(msSince(start));
        turn++;
      } else {
        counts.errors++;
        if (r.status >= 500 && r.status !== 503) counts.internal++;
        if (r.status === 503) counts.unavailable++;
        // Resynchronise on a fresh game rather than guess which seat is awaited.
        game = await createGuessing(url, target);
        turn = 0;
      }
    }
  };
  const start = process.hrtime.bigint();
  await Promise.all(created.map(loop));
  return summary(`REST, ${games} games`, games, latencies, msSince(start) / 1000, counts);
}

const CREATE_RAID = `mutation { createGame(input: { type: "raid-on-wuchao", seats: [{ seat: "cao", name: "Cao" }, { seat: "yuan", name: "Yuan" }] }) { game { id version } seatTokens { seat token } } }`;
export const STATUS = `query($id: ID!) { game(id: $id) { version status awaiting { seat } } }`;
export const LEGAL = `query($id: ID!) { game(id: $id) { legalCommands } }`;
export const SUBMIT = `mutation($id: ID!, $c: JSON!, $v: Int) { submitCommand(gameId: $id, command: $c, expectedVersion: $v) { game { version } } }`;
const SUBMIT_NEXT = `mutation($id: ID!, $c: JSON!, $v: Int) { submitCommand(gameId: $id, command: $c, expectedVersion: $v) { game { version status awaiting { seat } legalCommands } } }`;
const MATCH = new Set(['resign', 'offerDraw', 'acceptDraw', 'declineDraw']);

/** A new game of Raid on Wuchao with a seat token for each seat. */
export async function createRaid(url: string): Promise<{ id: string; version: number; tokens: Record<string, string> }> {
  const r = await gql(url, CREATE_RAID, {});
  if (r.status !== 200 || r.body.errors) throw new Error(`createGame: ${JSON.stringify(r.body).slice(0, 300)}`);
  const g = r.body.data.createGame;
  return { id: g.game.id as string, version: g.game.version as number, tokens: Object.fromEntries(g.seatTokens.map((t: { seat: string; token: string }) => [t.seat, t.token])) as Record<string, string> };
}

/**
 * A real game through GraphQL: Raid on Wuchao, both seats played by one client loop per
 * game, choosing among legalCommands. `three`: ask the status, ask the awaited seat's
 * legal commands, submit with expectedVersion (three requests a command). `carried`: the
 * submit's answer carries the awaiting seats and the submitter's legal commands, so a
 * read is needed only when the other seat moves next.
 */
export async function graphqlRaid(url: string, games: number, commandsPerGame: number, mode: 'three' | 'carried'): Promise<Load> {
  const latencies: number[] = [];
  const counts = { requests: 0, errors: 0, internal: 0, unavailable: 0 };
  const note = (status: number) => {
    if (status >= 500 && status !== 503) counts.internal++;
    if (status === 503) counts.unavailable++;
    if (status !== 200) counts.errors++;
  };
  const create = async () => {
    counts.requests++;
    return createRaid(url);
  };
  const loop = async (index: number) => {
    const choose = chooser(index + 1);
    let game = await create();
    let known: { version: number; seat: string; legal: { type: string }[] | null; finished: boolean } | null = null;
    for (let done = 0; done < commandsPerGame; ) {
      const start = process.hrtime.bigint();
      let version: number;
      let seat: string;
      let legal: { type: string }[];
      if (mode === 'three' || !known) {
        const s = await gql(url, STATUS, { id: game.id });
        counts.requests++;
        note(s.status);
        const g = s.body.data?.game;
        if (!g) continue;
        if (g.status === 'FINISHED' || g.awaiting.length === 0) {
          game = await create();
          known = null;
          continue;
        }
        version = g.version;
        seat = g.awaiting[0].seat;
        const l = await gql(url, LEGAL, { id: game.id }, game.tokens[seat]);
        counts.requests++;
        note(l.status);
        legal = l.body.data?.game?.legalCommands ?? [];
      } else {
        if (known.finished) {
          game = await create();
          known = null;
          continue;
        }
        version = known.version;
        seat = known.seat;
        if (known.legal) legal = known.legal;
        else {
          const l = await gql(url, LEGAL, { id: game.id }, game.tokens[seat]);
          counts.requests++;
          note(l.status);
          legal = l.body.data?.game?.legalCommands ?? [];
        }
      }
      const own = legal.filter((c) => !MATCH.has(c.type));
      if (own.length === 0) {
        game = await create();
        known = null;
        continue;
      }
      const command = own[choose(own.length)];
      const r = await gql(url, mode === 'three' ? SUBMIT : SUBMIT_NEXT, { id: game.id, c: command, v: version }, game.tokens[seat]);
      counts.requests++;
      note(r.status);
      if (r.status !== 200 || r.body.errors) {
        known = null;
        continue;
      }
      latencies.push(msSince(start));
      done++;
      if (mode === 'carried') {
        const g = r.body.data.submitCommand.game;
        const next = g.awaiting[0]?.seat ?? seat;
        known = { version: g.version, seat: next, legal: next === seat ? g.legalCommands : null, finished: g.status === 'FINISHED' || g.awaiting.length === 0 };
      }
    }
  };
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: games }, (_, i) => loop(i)));
  return summary(mode === 'three' ? `GraphQL Raid on Wuchao, 3 requests a command, ${games} games` : `GraphQL Raid on Wuchao, submit answer carries the next step, ${games} games`, games, latencies, msSince(start) / 1000, counts);
}

/** One client loop on one game: the cost of a command in that game. */
export async function sequential(url: string, game: { id: string; tokens: Record<string, string> }, commands: number, firstSeat = 0): Promise<{ p50Ms: number; p99Ms: number; errors: number }> {
  const latencies: number[] = [];
  let errors = 0;
  for (let i = 0; i < commands; i++) {
    const seat = SEATS[(i + firstSeat) % 2]!;
    const start = process.hrtime.bigint();
    const r = await request(url, 'POST', `/api/games/${game.id}/commands`, { command: { type: 'guess', number: 1 } }, game.tokens[seat]);
    if (r.status === 200) latencies.push(msSince(start));
    else errors++;
  }
  return { p50Ms: round(quantile(latencies, 0.5)), p99Ms: round(quantile(latencies, 0.99)), errors };
}

export async function newGuessingGame(url: string) {
  return createGuessing(url, 1_000_000);
}

export interface Burst {
  what: string;
  requests: number;
  byStatus: Record<string, number>;
  internalErrors: number;
  unavailable: number;
  seconds: number;
}

/** `n` requests at once: how the service answers when many arrive together. */
export async function burst(url: string, n: number): Promise<Burst[]> {
  const tally = async (what: string, make: () => Promise<number>): Promise<Burst> => {
    const start = process.hrtime.bigint();
    const statuses = await Promise.all(Array.from({ length: n }, () => make().catch(() => 0)));
    const byStatus: Record<string, number> = {};
    for (const s of statuses) byStatus[s] = (byStatus[s] ?? 0) + 1;
    return { what, requests: n, byStatus, internalErrors: statuses.filter((s) => s >= 500 && s !== 503).length, unavailable: statuses.filter((s) => s === 503).length, seconds: round(msSince(start) / 1000, 3) };
  };
  const creates = await tally(`${n} concurrent createGame`, async () => (await request(url, 'POST', '/api/games', { type: 'guessing-game', seats: SEATS.map((seat) => ({ seat, name: seat })) })).status);
  const games = await Promise.all(Array.from({ length: n }, () => createGuessing(url, 1_000_000)));
  let next = 0;
  const commands = await tally(`${n} concurrent commands`, async () => {
    const g = games[next++]!;
    return (await request(url, 'POST', `/api/games/${g.id}/commands`, { command: { type: 'guess', number: 1 } }, g.tokens.north)).status;
  });
  return [creates, commands];
}

export interface WebhookLoad extends Load {
  webhooksPerGame: number;
  deliveries: number;
  /** From a command's acknowledgement to its EVENT_APPENDED delivery arriving at the receiver. */
  deliveryP50Ms: number;
  deliveryP99Ms: number;
}

/**
 * The notifications section's games, made ready: a player a game (registered), the game, its
 * `hooks` webhooks (0: none) and their receiver in this process. `play` is what is measured:
 * the commands per second, and how long from a command's acknowledgement (it is stored by then)
 * to its EVENT_APPENDED POST reaching the receiver, to the last delivery's arrival. The games
 * are a player's (north, player token) against a seat token (east), so the commit's notify
 * check runs either way. The setup stays out of the measure: registering players and creating
 * games and webhooks is no command's cost (until round thirteen it was counted in each
 * command's CPU).
 */
export async function webhookGames(url: string, games: number, hooks: number): Promise<{ play(commandsPerGame: number): Promise<WebhookLoad> }> {
  const { createServer } = await import('node:http');
  const acked = new Map<string, number>();
  const early = new Set<string>();
  const delays: number[] = [];
  let deliveries = 0;
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const now = performance.now();
      res.writeHead(204).end();
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString());
        deliveries++;
        const key = `${body.gameId}:${body.version}`;
        const at = acked.get(key);
        if (body.type === 'EVENT_APPENDED' && req.url === '/0') {
          if (at !== undefined) delays.push(Math.max(0, now - at));
          else early.add(key); // before the answer reached the client: no delay to speak of
        }
      } catch {
        /* not ours */
      }
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  const setup = async () => {
    const p = await gql(url, `mutation($n: String!) { registerPlayer(input: { name: $n }) { token } }`, { n: 'bench' });
    const player = p.body.data.registerPlayer.token as string;
    const g = await gql(url, `mutation { createGame(input: { type: "guessing-game", options: { target: 1000000 }, seats: [{ seat: "north", me: true }, { seat: "east", name: "east" }] }) { game { id } seatTokens { seat token } } }`, {}, player);
    const id = g.body.data.createGame.game.id as string;
    for (let i = 0; i < hooks; i++) {
      const h = await gql(url, `mutation($i: CreateWebhookInput!) { createWebhook(input: $i) { webhook { id } } }`, { i: { url: `${hookUrl}/${i}`, events: ['EVENT_APPENDED'], gameId: id } }, player);
      if (h.body.errors) throw new Error(`createWebhook: ${JSON.stringify(h.body.errors)}`);
    }
    return { id, tokens: { north: player, east: g.body.data.createGame.seatTokens[0].token as string } };
  };
  const created = await Promise.all(Array.from({ length: games }, setup));
  const play = async (commandsPerGame: number): Promise<WebhookLoad> => {
    const latencies: number[] = [];
    const counts = { requests: 0, errors: 0, internal: 0, unavailable: 0 };
    const loop = async (game: { id: string; tokens: Record<string, string> }) => {
      for (let i = 0; i < commandsPerGame; i++) {
        const seat = SEATS[i % 2]!;
        const start = process.hrtime.bigint();
        const r = await request(url, 'POST', `/api/games/${game.id}/commands`, { command: { type: 'guess', number: 1 } }, game.tokens[seat]);
        counts.requests++;
        if (r.status !== 200) {
          counts.errors++;
          if (r.status >= 500 && r.status !== 503) counts.internal++;
          if (r.status === 503) counts.unavailable++;
          return;
        }
        const key = `${game.id}:${r.json().game.version}`;
        if (early.delete(key)) delays.push(0);
        else acked.set(key, performance.now());
        latencies.push(msSince(start));
      }
    };
    const start = process.hrtime.bigint();
    await Promise.all(created.map(loop));
    const seconds = msSince(start) / 1000;
    // Let the last deliveries arrive (at most 10 s).
    const expected = hooks * latencies.length;
    for (let waited = 0; hooks > 0 && deliveries < expected && waited < 10_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    await new Promise<void>((r) => receiver.close(() => r()));
    return {
      ...summary(`REST with ${hooks} webhook(s) per game, ${games} games`, games, latencies, seconds, counts),
      webhooksPerGame: hooks,
      deliveries,
      deliveryP50Ms: round(quantile(delays, 0.5)),
      deliveryP99Ms: round(quantile(delays, 0.99)),
    };
  };
  return { play };
}
