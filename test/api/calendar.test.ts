/**
 * The calendar feed (me.calendarUrl) through HTTP, parsed with node-ical as a calendar app
 * would: one event per current deadline of the player's seats, a UID that stays while the
 * decision lasts (another seat's move) and changes with a new one, and a URL that stops
 * working when one of the player's tokens is revoked.
 */
import ical, { type VEvent } from 'node-ical';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
const PUBLIC = 'http://calendar.wargames.test';

beforeAll(async () => {
  server = await startTestServer({ rateLimit: 100_000, notifications: { publicUrl: PUBLIC } });
});
afterAll(async () => {
  await server?.close();
});

const CREATE = `mutation($input: CreateGameInput!) { createGame(input: $input) { game { id } seatTokens { seat token } } }`;

async function feed(url: string): Promise<{ status: number; type: string | null; events: VEvent[] }> {
  expect(url.startsWith(`${PUBLIC}/api/calendar/`)).toBe(true);
  const res = await fetch(`${server.url}${url.slice(PUBLIC.length)}`);
  const text = await res.text();
  if (res.status !== 200) return { status: res.status, type: res.headers.get('content-type'), events: [] };
  const parsed = ical.sync.parseICS(text);
  return { status: res.status, type: res.headers.get('content-type'), events: Object.values(parsed).filter((c): c is VEvent => c?.type === 'VEVENT') };
}

async function calendarUrl(token: string): Promise<string> {
  const r = await server.gql(`{ me { calendarUrl } }`, {}, token);
  expect(r.errors).toBeUndefined();
  return r.data.me.calendarUrl as string;
}

async function deadlineOf(id: string, seat: string): Promise<string> {
  const r = await server.gql(`query($id: ID!) { game(id: $id) { seats { id deadline } } }`, { id });
  return r.data.game.seats.find((s: { id: string }) => s.id === seat).deadline as string;
}

async function guess(id: string, number: number, token: string) {
  const r = await server.gql(`mutation($id: ID!, $c: JSON!) { submitCommand(gameId: $id, command: $c) { game { version } } }`, { id, c: { type: 'guess', number } }, token);
  expect(r.errors).toBeUndefined();
}

describe('the calendar feed', () => {
  it('has one event per current deadline, UIDs stable while a decision lasts, and is revoked with the tokens', async () => {
    const reg = await server.gql(`mutation { registerPlayer(input: { name: "Ada" }) { token } }`);
    const ada = reg.data.registerPlayer.token as string;
    const url = await calendarUrl(ada);
    expect(url).toMatch(/^http:\/\/calendar\.wargames\.test\/api\/calendar\/[0-9a-f]{40}\.ics$/);
    expect(await calendarUrl(ada)).toBe(url);
    const rest = await server.rest('GET', '/api/me', undefined, ada);
    expect(rest.body.player.calendarUrl).toBe(url);
    // No game yet: an empty calendar, still a calendar.
    expect(await feed(url)).toMatchObject({ status: 200, events: [] });

    const clock = { perMove: 86_400 };
    const seats = [{ seat: 'north', me: true }, { seat: 'east', name: 'E' }];
    const one = (await server.gql(CREATE, { input: { type: 'guessing-game', seats, clock } }, ada)).data.createGame;
    const two = (await server.gql(CREATE, { input: { type: 'guessing-game', seats, clock } }, ada)).data.createGame;
    // No clock, no deadline, no event.
    const three = (await server.gql(CREATE, { input: { type: 'guessing-game', seats } }, ada)).data.createGame;
    expect(three.game.id).toBeDefined();
    const east = (g: { seatTokens: { seat: string; token: string }[] }) => g.seatTokens.find((t) => t.seat === 'east')!.token;

    const first = await feed(url);
    expect(first.type).toMatch(/^text\/calendar/);
    expect(first.events).toHaveLength(2);
    const uidOf = (events: VEvent[], id: string) => events.find((e) => e.uid.startsWith(`${id}.`))?.uid;
    for (const g of [one, two]) {
      const event = first.events.find((e) => e.uid.startsWith(`${g.game.id}.north.`))!;
      expect(event.uid).toMatch(new RegExp(`^${g.game.id}\\.north\\.\\d+@calendar\\.wargames\\.test$`));
      // iCalendar times are whole seconds: the deadline's, rounded down.
      expect(new Date(event.end!).getTime()).toBe(Math.floor(Date.parse(await deadlineOf(g.game.id, 'north')) / 1000) * 1000);
      expect(event.summary).toContain('north');
      expect(JSON.stringify(event.url)).toContain(`"${PUBLIC}/games/${g.game.id}"`);
    }

    // East guesses: Ada's decision in game one goes on, its event keeps its UID.
    await guess(one.game.id, 1, east(one));
    const after = await feed(url);
    expect(after.events).toHaveLength(2);
    expect(uidOf(after.events, one.game.id)).toBe(uidOf(first.events, one.game.id));
    // Ada guesses in game two while East has not: her decision there is made, its event gone.
    await guess(two.game.id, 1, ada);
    const made = await feed(url);
    expect(made.events.map((e) => e.uid)).toEqual([uidOf(first.events, one.game.id)]);
    // East guesses too: a new round, a new decision of Ada's, a new UID.
    await guess(two.game.id, 1, east(two));
    const next = await feed(url);
    expect(next.events).toHaveLength(2);
    expect(uidOf(next.events, two.game.id)).toBeDefined();
    expect(uidOf(next.events, two.game.id)).not.toBe(uidOf(first.events, two.game.id));
    expect(uidOf(next.events, one.game.id)).toBe(uidOf(first.events, one.game.id));

    // Revoking one of her tokens revokes the feed; asking again gives a new URL that works.
    const created = await server.gql(`mutation { createPlayerToken(name: "phone") { id } }`, {}, ada);
    expect((await feed(url)).status).toBe(200);
    const revoked = await server.gql(`mutation($id: ID!) { revokePlayerToken(id: $id) }`, { id: created.data.createPlayerToken.id }, ada);
    expect(revoked.data.revokePlayerToken).toBe(true);
    expect((await feed(url)).status).toBe(404);
    const fresh = await calendarUrl(ada);
    expect(fresh).not.toBe(url);
    expect(await feed(fresh)).toMatchObject({ status: 200 });
    expect((await feed(fresh)).events).toHaveLength(2);
    expect((await feed(url)).status).toBe(404);
  });

  it('refuses what is not a calendar token (404), and needs a player token for calendarUrl', async () => {
    expect((await fetch(`${server.url}/api/calendar/${'0'.repeat(40)}.ics`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/calendar/nothing.ics`)).status).toBe(404);
    expect((await server.gql(`{ me { calendarUrl } }`)).data.me).toBeNull();
  });
});
