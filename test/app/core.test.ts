/**
 * The core on its memory ports (src/app/memory): no HTTP, no database. Commands, the
 * lobby, conflicts and finished games, and what follows a commit: the jobs the planners add
 * with it (a bot's move, a seat's deadlines), run here by the memory queue through the same
 * tasks the workers define; and the notifications' dispatcher, which follows the outbox.
 */
import { describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR, type Actor } from '../../src/app/actors.ts';
import { createCore, type CoreOptions } from '../../src/app/core.ts';
import { memoryPorts, runDueJobs } from '../../src/app/memory/index.ts';
import { TASKS } from '../../src/app/tasks.ts';
import { defineTasks } from '../../src/workers/tasks.ts';
import { guessingGame } from '../support/guessing-game.ts';

function setup(options: Partial<CoreOptions> = {}) {
  const ports = memoryPorts();
  let now = Date.parse('2026-12-01T12:00:00Z');
  ports.data.now = () => new Date(now);
  const core = createCore(ports, { games: [guessingGame], rulesFingerprint: 'test', ...options });
  // The workers' own tasks, registered on a plain map the memory queue runs.
  const tasks: Record<string, (p: Record<string, unknown>) => Promise<void>> = {};
  const define = (name: string, task: (p: Record<string, unknown>, job: { attempts: number; maxAttempts: number }) => Promise<void>) => {
    tasks[name] = (p) => task(p, { attempts: 1, maxAttempts: 1 });
  };
  defineTasks({ define }, core, { mailer: null });
  return {
    core, ports, data: ports.data,
    later: (seconds: number) => {
      now += seconds * 1000;
    },
    run: async () => {
      // The due jobs, then the dispatcher's fan-out of the outbox (the deliveries, stored; nothing is sent here).
      const ran = await runDueJobs(ports.data, tasks);
      while ((await core.notifications.fanOutTail()).more);
      return ran;
    },
    jobs: (task?: string) => ports.data.jobs.filter((j) => task === undefined || j.task === task),
  };
}

const seat = (gameId: string, s: string): Actor => ({ kind: 'seat', gameId, seat: s });
const TWO = [{ seat: 'north', name: 'N' }, { seat: 'east', name: 'E' }];

describe('commands on the memory ports', () => {
  it('creates a game (setup stored), runs a command, and refuses one pinned to an older version', async () => {
    const { core, ports } = setup();
    const { game, seatTokens } = await core.commands.create({ type: 'guessing-game', options: { target: 10 }, seats: TWO });
    expect(game.version).toBe(1);
    expect((await ports.games.events(game.id)).map((e) => e.type)).toEqual(['GameStarted']);
    // A seat token authenticates as its seat.
    expect(await core.authenticate(seatTokens[0]!.token)).toMatchObject({ kind: 'seat', gameId: game.id, seat: 'north' });
    await expect(core.authenticate('not-a-token')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });

    const moved = await core.commands.execute(seat(game.id, 'north'), game.id, { type: 'guess', number: 3 }, { expectedVersion: 1 });
    expect(moved.game.version).toBe(2);
    await expect(core.commands.execute(seat(game.id, 'east'), game.id, { type: 'guess', number: 3 }, { expectedVersion: 1 })).rejects.toMatchObject({ code: 'VERSION_CONFLICT', extra: { currentVersion: 2 } });
    // Unpinned, it is decided on the current version.
    expect((await core.commands.execute(seat(game.id, 'east'), game.id, { type: 'guess', number: 3 })).game.version).toBeGreaterThan(2);
  });

  it('a finished game takes no more commands and publishes its seed (through visibleTo)', async () => {
    const { core } = setup();
    const { game } = await core.commands.create({ type: 'guessing-game', seats: TWO });
    expect(await game.seed()).toBeNull();
    const ended = await core.commands.execute(seat(game.id, 'east'), game.id, { type: 'resign' });
    expect(ended.game.status).toBe('FINISHED');
    expect(await (await core.reads.read(game.id, { kind: 'spectator' })).seed()).toMatch(/^[0-9a-f]{64}$/);
    await expect(core.commands.execute(seat(game.id, 'north'), game.id, { type: 'guess', number: 1 })).rejects.toMatchObject({ code: 'GAME_OVER' });
    expect(core.verify.check(await core.reads.export(game.id, { kind: 'spectator' }))).toMatchObject({ valid: true });
  });
});

describe('the lobby on the memory ports', () => {
  it('keeps a game with an open seat OPEN until it is joined, then sets it up by the same create path', async () => {
    const { core, ports } = setup();
    const created = await core.lobby.create({ kind: 'spectator' }, { type: 'guessing-game', seats: [{ seat: 'north', name: 'N' }, { seat: 'east', open: true }], visibility: 'PUBLIC' });
    expect(created.game.status).toBe('OPEN');
    expect(created.inviteCode).toEqual(expect.any(String));
    expect((await ports.games.events(created.game.id))).toEqual([]);
    expect((await core.lobby.openGames({ kind: 'spectator' }, {})).nodes.map((g) => g.id)).toEqual([created.game.id]);
    const joined = await core.lobby.join({ kind: 'spectator' }, created.game.id, { name: 'Eve', inviteCode: created.inviteCode });
    expect(joined.game.status).toBe('ACTIVE');
    expect(joined.game.version).toBe(1);
    expect((await core.lobby.openGames({ kind: 'spectator' }, {})).nodes).toEqual([]);
    await expect(core.lobby.join({ kind: 'spectator' }, created.game.id, { name: 'Zed', inviteCode: created.inviteCode })).rejects.toMatchObject({ code: 'SEAT_TAKEN' });
  });
});

describe('seat tokens', () => {
  it('a process knows the seat tokens it issued (created or joined) without asking the store; another asks once per token', async () => {
    const { core, ports } = setup();
    const asked: string[] = [];
    const seatForToken = ports.games.seatForToken.bind(ports.games);
    ports.games.seatForToken = (hash) => {
      asked.push(hash);
      return seatForToken(hash);
    };
    const { game, seatTokens } = await core.commands.create({ type: 'guessing-game', seats: TWO });
    const open = await core.lobby.create({ kind: 'spectator' }, { type: 'guessing-game', seats: [{ seat: 'north', name: 'N' }, { seat: 'east', open: true }], visibility: 'PUBLIC' });
    const joined = await core.lobby.join({ kind: 'spectator' }, open.game.id, { name: 'Eve' });
    const tokens = [...seatTokens.map((t) => [game.id, t.seat, t.token] as const), [open.game.id, 'north', open.seatTokens[0]!.token] as const, [open.game.id, 'east', joined.seatToken!] as const];
    for (const [gameId, s, token] of tokens) expect(await core.authenticate(token)).toMatchObject({ kind: 'seat', gameId, seat: s });
    expect(asked).toEqual([]);

    // Another process on the same store has met none of them: one look-up each, then none.
    const other = createCore(ports, { games: [guessingGame], rulesFingerprint: 'test' });
    for (const [gameId, s, token] of [...tokens, ...tokens]) expect(await other.authenticate(token)).toMatchObject({ kind: 'seat', gameId, seat: s });
    expect(asked).toHaveLength(tokens.length);
    // The token the joined seat holds is the one the game's seat entry names.
    expect(await core.commands.execute(await core.authenticate(joined.seatToken!), open.game.id, { type: 'guess', number: 1 })).toMatchObject({ game: { version: 2 } });
  });
});

describe('what follows a commit, planned with it', () => {
  it('a bot seat awaited gets one move job with the commit; its task plays the game to the end', async () => {
    const { core, jobs, run } = setup();
    const { game } = await core.lobby.create({ kind: 'spectator' }, { type: 'guessing-game', options: { target: 5 }, seats: [{ seat: 'north', bot: 'random' }, { seat: 'east', bot: 'random' }] });
    expect(jobs(TASKS.bot)).toHaveLength(1);
    expect(jobs(TASKS.bot)[0]).toMatchObject({ key: `bot:${game.id}`, payload: { gameId: game.id, version: 1 } });
    await run();
    const read = await core.reads.read(game.id, { kind: 'spectator' });
    expect(read.status).toBe('FINISHED');
    expect(jobs(TASKS.bot)).toEqual([]);
    expect(core.bots.stats.moved).toBeGreaterThanOrEqual(2); // a round at least: both seats guessed
  });

  it('a seat on a clock gets its deadline jobs from the store\'s clock; acting replaces them, ending removes them, and a passed one times the seat out', async () => {
    const { core, jobs, run, later, data } = setup();
    const start = data.now().getTime();
    const { game } = await core.commands.create({ type: 'guessing-game', options: { target: 100 }, seats: TWO, clock: { perMove: 60 } });
    const deadlines = () => jobs(TASKS.deadlinePassed).map((j) => [j.key, j.payload.seat, j.runAt.getTime() - start]);
    expect(deadlines()).toEqual([[`deadline:${game.id}:north`, 'north', 60_000], [`deadline:${game.id}:east`, 'east', 60_000]]);
    expect(jobs(TASKS.deadlineSoon).map((j) => j.runAt.getTime() - start)).toEqual([45_000, 45_000]);
    const seats = await (await core.reads.read(game.id, { kind: 'spectator' })).seatsWithDeadlines();
    expect(seats.map((s) => s.deadline)).toEqual([new Date(start + 60_000).toISOString(), new Date(start + 60_000).toISOString()]);

    // North acts: its jobs go (east is still awaited, its jobs stay).
    later(10);
    await core.commands.execute(seat(game.id, 'north'), game.id, { type: 'guess', number: 1 });
    expect(deadlines()).toEqual([[`deadline:${game.id}:east`, 'east', 60_000]]);
    // Nothing is due before the deadline; past it, east is timed out by the service.
    expect(await run()).toBe(0);
    later(51);
    await run();
    const read = await core.reads.read(game.id, { kind: 'spectator' });
    expect(read.status).toBe('FINISHED');
    expect(read.result).toEqual({ winners: ['north'], reason: 'time out' });
    expect((await core.ports.games.commands(game.id)).map((c) => [c.seat, c.command])).toContainEqual([null, { type: 'timeOut', seat: 'east' }]);
    expect(core.deadlines.stats.timedOut).toBe(1);
    expect(jobs(TASKS.deadlinePassed)).toEqual([]);
  });

  it('fans out the games someone listens to, from the outbox, and sends each webhook\'s deliveries once, in order', async () => {
    const { core, jobs } = setup();
    const quiet = await core.commands.create({ type: 'guessing-game', seats: TWO });
    await core.commands.execute(seat(quiet.game.id, 'north'), quiet.game.id, { type: 'guess', number: 2 });
    const { player, token } = await core.players.register({ name: 'Ada' }, { address: '127.0.0.1' });
    const ada = await core.authenticate(token);
    expect(ada).toEqual({ kind: 'player', playerId: player.id });
    await core.notifications.createWebhook(ada, { url: 'https://93.184.215.14/hook', events: ['YOUR_TURN', 'EVENT_APPENDED'] });
    const heard = await core.lobby.create(ada, { type: 'guessing-game', seats: [{ seat: 'north', me: true }, { seat: 'east', name: 'E' }] });
    await core.commands.execute(seat(heard.game.id, 'east'), heard.game.id, { type: 'guess', number: 2 });
    // No job follows a commit for the notifications: the dispatcher reads the outbox.
    expect(jobs().map((j) => j.task)).not.toContain(TASKS.notify);
    const sent: [string, string, number][] = [];
    const dispatcher = core.dispatcher({ send: async (_w, _s, d) => (sent.push([d.gameId, d.event, d.version]), { ok: true }) });
    await dispatcher.pass();
    await dispatcher.settle();
    await dispatcher.pass(); // nothing more: each was recorded as sent
    await dispatcher.settle();
    // Only the game Ada plays in; the other is read past.
    // (North stays awaited while east guesses: one YOUR_TURN, when the game began awaiting it.)
    expect(sent).toEqual([[heard.game.id, 'EVENT_APPENDED', 1], [heard.game.id, 'YOUR_TURN', 1], [heard.game.id, 'EVENT_APPENDED', 2]]);
  });

  it('skips, the third time, the commits of a game that cannot be fanned out, so that the other games\' go out', async () => {
    const { core, ports } = setup();
    const { token } = await core.players.register({ name: 'Ada' }, { address: '127.0.0.1' });
    const ada = await core.authenticate(token);
    await core.notifications.createWebhook(ada, { url: 'https://93.184.215.14/hook', events: ['EVENT_APPENDED'] });
    const broken = await core.lobby.create(ada, { type: 'guessing-game', seats: [{ seat: 'north', me: true }, { seat: 'east', name: 'E' }] });
    const fine = await core.lobby.create(ada, { type: 'guessing-game', seats: [{ seat: 'north', me: true }, { seat: 'east', name: 'E' }] });
    // A fault of ours in one game's fan-out (injected: its record comes back without its seats).
    const listGames = ports.games.listGames.bind(ports.games);
    ports.games.listGames = async (...args) => (await listGames(...args)).map((g) => (g.id === broken.game.id ? { ...g, seats: undefined as never } : g));
    const logged: string[] = [];
    const sent: string[] = [];
    const dispatcher = core.dispatcher({ send: async (_w, _s, d) => (sent.push(d.gameId), { ok: true }), log: (m) => logged.push(m) });
    await expect(dispatcher.pass()).rejects.toThrow(TypeError);
    await expect(dispatcher.pass()).rejects.toThrow(TypeError);
    expect(sent).toEqual([]);
    await dispatcher.pass();
    await dispatcher.settle();
    expect(sent).toEqual([fine.game.id]);
    expect(logged).toEqual([expect.stringContaining(`the commits of game ${broken.game.id}`)]);
  });

  it('counts a webhook whose secret cannot be read (the key changed) as a failed attempt, tried again later', async () => {
    const { core, ports, later } = setup();
    const { token } = await core.players.register({ name: 'Ada' }, { address: '127.0.0.1' });
    const ada = await core.authenticate(token);
    const { webhook } = await core.notifications.createWebhook(ada, { url: 'https://93.184.215.14/hook', events: ['EVENT_APPENDED'] });
    // Sealed with another key.
    ports.data.webhooks.get(webhook.id)!.secret = 'v1.AAAAAAAAAAAAAAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA';
    await core.lobby.create(ada, { type: 'guessing-game', seats: [{ seat: 'north', me: true }, { seat: 'east', name: 'E' }] });
    const sent: string[] = [];
    const dispatcher = core.dispatcher({ send: async (_w, _s, d) => (sent.push(d.id), { ok: true }) });
    await dispatcher.pass();
    await dispatcher.settle();
    const [delivery] = await ports.webhooks.deliveries(webhook.id, 5);
    expect(sent).toEqual([]);
    expect(delivery).toMatchObject({ status: 'PENDING', attempts: 1, lastError: expect.stringContaining('WEBHOOK_SECRET_KEY') });
    // Not due again at once: the next look sends nothing; e^1 s later it is tried again.
    await dispatcher.pass();
    await dispatcher.settle();
    expect((await ports.webhooks.deliveries(webhook.id, 5))[0]!.attempts).toBe(1);
    later(3);
    await dispatcher.pass();
    await dispatcher.settle();
    expect((await ports.webhooks.deliveries(webhook.id, 5))[0]!.attempts).toBe(2);
  });

  it('takes planners of other channels, registered by name, with every commit', async () => {
    const seen: [string, number, string[]][] = [];
    const { core, jobs } = setup({
      planners: {
        reminders: ({ game, version, outbox }) => {
          seen.push([game.id, version, outbox.map((o) => o.kind)]);
          return [{ task: 'remind', payload: { gameId: game.id }, key: `remind:${game.id}`, runAfterSeconds: 3600 }];
        },
      },
    });
    expect(core.planners.names).toEqual(['bots', 'clocks', 'reminders']);
    const { game } = await core.commands.create({ type: 'guessing-game', seats: TWO });
    await core.commands.execute(SYSTEM_ACTOR, game.id, { type: 'timeOut', seat: 'east' });
    expect(seen).toEqual([[game.id, 1, ['EVENTS_APPENDED', 'GAME_STARTED', 'SEAT_AWAITED', 'SEAT_AWAITED']], [game.id, 4, ['EVENTS_APPENDED', 'GAME_ENDED']]]);
    expect(jobs('remind')).toHaveLength(1); // keyed: the second replaced the first
  });
});
