/**
 * Messages between players in the core, on the memory ports. The property: over random
 * games (two or three seats, each held by a seat token or by a player, a player sometimes
 * holding two) and random messages (public, or private to random seats; some sent after the
 * game ended), no reader ever sees a private message not addressed to them: not another
 * seat (Game.messages, the export, its subscription), not a spectator, not a player outside
 * the game, not a webhook or a mail of a player who is no recipient. And every reader sees
 * exactly what they may. Then the limits: length and rate (by the store's clock).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SPECTATOR, type Actor } from '../../src/app/actors.ts';
import { createCore, type CoreOptions } from '../../src/app/core.ts';
import { memoryPorts, runDueJobs } from '../../src/app/memory/index.ts';
import type { MessageOut } from '../../src/app/messages.ts';
import { TASKS } from '../../src/app/tasks.ts';
import { defineTasks } from '../../src/workers/tasks.ts';
import { guessingGame } from '../support/guessing-game.ts';

function setup(options: Partial<CoreOptions> = {}) {
  const ports = memoryPorts();
  let now = Date.parse('2026-12-01T12:00:00Z');
  ports.data.now = () => new Date(now);
  const core = createCore(ports, { games: [guessingGame], rulesFingerprint: 'test', notifications: { mail: true, secretKey: Buffer.alloc(32, 7) }, ...options });
  const tasks: Record<string, (p: Record<string, unknown>) => Promise<void>> = {};
  defineTasks({ define: (name, task) => void (tasks[name] = (p) => task(p, { attempts: 1, maxAttempts: 1 })) }, core, { mailer: null });
  return {
    core, ports, data: ports.data,
    later: (seconds: number) => void (now += seconds * 1000),
    // Only the fan-outs: the deliveries are looked at where they are stored, not sent.
    fanOut: async () => {
      await runDueJobs(ports.data, { [TASKS.message]: tasks[TASKS.message]! });
      while ((await core.notifications.fanOutTail()).more);
    },
  };
}

const SEATS = ['north', 'east', 'south'];

interface Scenario {
  /** Per seat: 'token', or the index of the player holding it. */
  holders: ('token' | number)[];
  messages: { from: number; to: number[] | null; endBefore: boolean }[];
}

const scenario: fc.Arbitrary<Scenario> = fc.integer({ min: 2, max: 3 }).chain((n) =>
  fc.record({
    holders: fc.array(fc.oneof(fc.constant<'token'>('token'), fc.integer({ min: 0, max: 2 })), { minLength: n, maxLength: n }),
    messages: fc.array(
      fc.record({
        from: fc.integer({ min: 0, max: n - 1 }),
        to: fc.option(fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { minLength: 1, maxLength: n }), { nil: null }),
        endBefore: fc.boolean(),
      }),
      { minLength: 1, maxLength: 8 },
    ),
  }),
);

async function take(feed: AsyncIterableIterator<MessageOut>, n: number): Promise<MessageOut[]> {
  const got: MessageOut[] = [];
  for (let i = 0; i < n; i++) got.push((await feed.next()).value as MessageOut);
  // Nothing more comes (a wake-up reads at once on the memory ports).
  const more = await Promise.race([feed.next(), new Promise((r) => setTimeout(() => r('none'), 5))]);
  expect(more).toBe('none');
  await feed.return?.();
  return got;
}

describe('private messages stay private (property)', () => {
  it('no reader sees a private message not addressed to them; each sees all they may', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ holders, messages }) => {
        const { core, ports, data, fanOut } = setup();
        const seats = SEATS.slice(0, holders.length);
        // Three players (and one outside the game), each with a webhook and mail on.
        const people = [];
        for (const name of ['Ada', 'Bo', 'Cy', 'Out']) {
          const { player, token } = await core.players.register({ name }, { address: '127.0.0.1' });
          await ports.players.updatePlayer(player.id, { email: `${name.toLowerCase()}@example.org`, emailVerified: true, notifyByEmail: true });
          await ports.webhooks.create({ id: crypto.randomUUID(), playerId: player.id, gameId: null, url: 'https://example.org/hook', events: ['MESSAGE'], secret: 'x' });
          people.push({ id: player.id, actor: (await core.authenticate(token)) as Actor });
        }
        const created = await core.lobby.create(SPECTATOR, { type: 'guessing-game', visibility: 'PUBLIC', seats: seats.map((seat, i) => (holders[i] === 'token' ? { seat, name: seat } : { seat, open: true })) });
        const gameId = created.game.id;
        for (const [i, seat] of seats.entries()) {
          const h = holders[i]!;
          if (h !== 'token') await core.lobby.join(people[h]!.actor, gameId, { seat });
        }
        // Who reads: each seat token, each player of the game (all their seats), the outsider, a spectator.
        const readers: { name: string; actor: Actor; seats: string[]; playerId?: string }[] = [];
        for (const { seat, token } of created.seatTokens) readers.push({ name: `token:${seat}`, actor: await core.authenticate(token), seats: [seat] });
        for (const [p, person] of people.entries()) {
          const held = seats.filter((_, i) => holders[i] === p);
          if (held.length || p === 3) readers.push({ name: `player:${p}`, actor: person.actor, seats: held, playerId: person.id });
        }
        readers.push({ name: 'spectator', actor: SPECTATOR, seats: [] });
        const feeds = await Promise.all(readers.map((r) => core.messages.feed(r.actor, gameId)));

        // Send: each from a reader holding its seat (a token, or the player), with a mark and markup.
        const sent: (MessageOut & { mark: string })[] = [];
        let ended = false;
        let version = (await ports.games.game(gameId))!.version;
        for (const [i, m] of messages.entries()) {
          if (m.endBefore && !ended && i > 0) {
            const h = readers.find((r) => r.seats.includes(seats[0]!))!;
            version = (await core.commands.execute(h.actor, gameId, { type: 'resign' }, { seat: seats[0] })).game.version;
            ended = true;
          }
          const from = seats[m.from]!;
          // The recipients come back once each, in the game's seat order.
          const to = m.to ? seats.filter((t, j) => m.to!.includes(j) && t !== from) : null;
          if (to && to.length === 0) continue;
          const writer = readers.find((r) => r.seats.includes(from))!;
          const mark = `mark-${i}-${Math.random().toString(36).slice(2)}`;
          const out = await core.messages.send(writer.actor, gameId, { text: `<b>${mark}</b>`, to: to ?? undefined, seat: from });
          expect(out).toMatchObject({ from, to, text: `<b>${mark}</b>` });
          sent.push({ ...out, mark });
        }
        await fanOut();
        const mayRead = (m: MessageOut, held: string[]) => m.to === null || held.includes(m.from) || m.to.some((t) => held.includes(t));

        for (const [k, r] of readers.entries()) {
          const expected = sent.filter((m) => mayRead(m, r.seats)).map((m) => m.id);
          const forbidden = sent.filter((m) => !mayRead(m, r.seats));
          const listed = await core.messages.list(r.actor, gameId);
          const exported = (await core.reads.export(gameId, r.actor)).messages ?? [];
          const live = await take(feeds[k]!, expected.length);
          expect(listed.map((m) => m.id), r.name).toEqual(expected);
          expect(exported.map((m) => m.id), r.name).toEqual(expected);
          expect(live.map((m) => m.id), r.name).toEqual(expected);
          // Page by page too, with the cursor.
          if (expected.length > 1) expect((await core.messages.list(r.actor, gameId, { first: 1, after: expected[0] })).map((m) => m.id)).toEqual([expected[1]]);
          const everything = JSON.stringify({ listed, exported, live, game: await (await core.reads.read(gameId, r.actor)).events() });
          for (const m of forbidden) {
            expect(everything, `${r.name} sees ${m.mark}`).not.toContain(m.mark);
            // Nor may its id be used as a cursor: it says nothing of the message.
            await expect(core.messages.list(r.actor, gameId, { after: m.id })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
          }
        }

        // Webhooks and mail: one of each per message to each player who may read it and did not write it, to nobody else.
        const deliveries = [...data.deliveries.values()].filter((d) => d.event === 'MESSAGE');
        for (const [p, person] of people.entries()) {
          const held = seats.filter((_, i) => holders[i] === p);
          const mine = deliveries.filter((d) => d.playerId === person.id);
          const due = sent.filter((m) => held.length > 0 && mayRead(m, held) && !held.includes(m.from));
          for (const channel of ['WEBHOOK', 'MAIL'] as const) {
            expect(mine.filter((d) => d.channel === channel).map((d) => JSON.stringify(d.body).match(/mark-\d+-[a-z0-9]+/)?.[0]).sort(), `${channel} of player ${p}`).toEqual(due.map((m) => m.mark).sort());
          }
          for (const m of sent.filter((x) => !due.includes(x))) expect(JSON.stringify(mine), `player ${p} told of ${m.mark}`).not.toContain(m.mark);
        }
        // Messages never change the game's version: only the resignation did.
        expect((await ports.games.game(gameId))!.version).toBe(version);
      }),
      { numRuns: 60 },
    );
  });
});

describe('sending a message', () => {
  async function game() {
    const env = setup({ messages: { perMinute: 3 } });
    const created = await env.core.lobby.create(SPECTATOR, { type: 'guessing-game', seats: [{ seat: 'north', name: 'N' }, { seat: 'east', name: 'E' }] });
    const north = await env.core.authenticate(created.seatTokens[0]!.token);
    return { ...env, id: created.game.id, north };
  }

  it('refuses spectators, empty or too long text, and seats that are not in the game', async () => {
    const { core, id, north } = await game();
    await expect(core.messages.send(SPECTATOR, id, { text: 'hi' })).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(core.messages.send({ kind: 'seat', gameId: crypto.randomUUID(), seat: 'north' }, id, { text: 'hi' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(core.messages.send(north, id, { text: '  ' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(core.messages.send(north, id, { text: 'a\u0000b' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(core.messages.send(north, id, { text: 'x'.repeat(2001) })).rejects.toMatchObject({ code: 'BAD_REQUEST', extra: { maxLength: 2000 } });
    // 2,000 characters, counted as characters: an emoji is one.
    expect((await core.messages.send(north, id, { text: '😀'.repeat(2000) })).text).toHaveLength(4000);
    await expect(core.messages.send(north, id, { text: 'hi', to: ['west'] })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(core.messages.send(north, id, { text: 'hi', to: [] })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(core.messages.send(north, id, { text: 'hi', to: ['north'] })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(core.messages.send(north, id, { text: 'hi', seat: 'east' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('counts a sender\'s messages a minute by the store\'s clock (RATE_LIMITED with retryAfter)', async () => {
    const { core, id, north, later } = await game();
    for (let i = 0; i < 3; i++) await core.messages.send(north, id, { text: `m${i}` });
    await expect(core.messages.send(north, id, { text: 'one too many' })).rejects.toMatchObject({ code: 'RATE_LIMITED', extra: { retryAfter: expect.any(Number) } });
    expect((await core.messages.list(north, id)).map((m) => m.text)).toEqual(['m0', 'm1', 'm2']);
    later(61);
    expect((await core.messages.send(north, id, { text: 'again' })).text).toBe('again');
  });

  it('adds the fan-out with the message only when someone listens to the game', async () => {
    const { core, data, id, north } = await game();
    await core.messages.send(north, id, { text: 'nobody listens' });
    expect(data.jobs.filter((j) => j.task === TASKS.message)).toEqual([]);
  });
});
