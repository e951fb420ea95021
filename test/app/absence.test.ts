/**
 * Absence on the memory ports (no HTTP, no database): the rules of a request, the clocks of
 * an absent player's seats standing still (the deadline derived without the absent time),
 * the waiting deadline jobs moved with an absence and with its cancellation, a job that
 * runs early moving itself, the warning given again on the return from an absence that
 * moved the deadline after it, and Seat.absentUntil. The same through PostgreSQL and two
 * processes in real time: test/api/absence.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { absenceRefusal, absentUntil, deadlineWith } from '../../src/app/absence.ts';
import type { Actor } from '../../src/app/actors.ts';
import { createCore, type CoreOptions } from '../../src/app/core.ts';
import { memoryPorts, runDueJobs } from '../../src/app/memory/index.ts';
import { TASKS } from '../../src/app/tasks.ts';
import { defineTasks } from '../../src/workers/tasks.ts';
import { guessingGame } from '../support/guessing-game.ts';

const T0 = Date.parse('2026-12-01T12:00:00Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000);
const iso = (seconds: number) => at(seconds).toISOString();

function setup(options: Partial<CoreOptions> = {}) {
  const ports = memoryPorts();
  let now = T0;
  ports.data.now = () => new Date(now);
  const core = createCore(ports, { games: [guessingGame], rulesFingerprint: 'test', ...options });
  const tasks: Record<string, (p: Record<string, unknown>) => Promise<void>> = {};
  defineTasks({ define: (name, task) => void (tasks[name] = (p) => task(p, { attempts: 1, maxAttempts: 1 })) }, core, { mailer: null });
  return {
    core, data: ports.data, ports,
    /** Seconds since T0 by the store's clock. */
    now: () => (now - T0) / 1000,
    later: (seconds: number) => void (now += seconds * 1000),
    run: async () => {
      // The due jobs, then the dispatcher's fan-out of the outbox (the deliveries, stored; nothing is sent here).
      const ran = await runDueJobs(ports.data, tasks);
      while ((await core.notifications.fanOutTail()).more);
      return ran;
    },
    runAt: (task: string) => ports.data.jobs.filter((j) => j.task === task).map((j) => (j.runAt.getTime() - T0) / 1000),
    player: async (name: string): Promise<Actor> => core.authenticate((await core.players.register({ name }, { address: '127.0.0.1' })).token),
  };
}

describe('the rules of an absence (pure)', () => {
  it('derives a deadline without the absent time, a seat awaited during an absence starting its full time at its end', () => {
    expect(deadlineWith(at(0), 60, [])).toEqual(at(60));
    // Away from 20 to 70: the 40 seconds left at 20 are left at 70.
    expect(deadlineWith(at(0), 60, [{ from: at(20), until: at(70) }])).toEqual(at(110));
    // Awaited while away: the full minute from the return.
    expect(deadlineWith(at(30), 60, [{ from: at(0), until: at(100) }])).toEqual(at(160));
    // An absence after the deadline changes nothing; one that the extension reaches counts.
    expect(deadlineWith(at(0), 60, [{ from: at(60), until: at(90) }])).toEqual(at(60));
    expect(deadlineWith(at(0), 60, [{ from: at(90), until: at(130) }, { from: at(10), until: at(50) }])).toEqual(at(140));
    expect(deadlineWith(at(0), 60, [{ from: at(100), until: at(130) }, { from: at(10), until: at(50) }])).toEqual(at(100));
    expect(absentUntil([{ from: at(0), until: at(10) }, { from: at(10), until: at(20) }], at(5))).toEqual(at(20));
    expect(absentUntil([{ from: at(10), until: at(20) }], at(5))).toBeNull();
  });

  it('refuses overlaps, a past start, an empty span and more than the yearly allowance, with the reason', () => {
    const now = at(0);
    const day = 86_400;
    expect(absenceRefusal(at(10), at(5), [], now, 30)).toMatch(/ends after it begins/);
    expect(absenceRefusal(at(-3600), at(5), [], now, 30)).toMatch(/cannot begin in the past/);
    expect(absenceRefusal(at(100), at(200), [{ from: at(150), until: at(300) }], now, 30)).toMatch(/overlaps your absence from/);
    expect(absenceRefusal(at(100), at(200), [{ from: at(200), until: at(300) }], now, 30)).toBeNull();
    expect(absenceRefusal(at(0), at(31 * day), [], now, 30)).toMatch(/at most 30 days of absence a calendar year: 2026 has 30 days left and this asks for 30.5/);
    // Counted per calendar year: 2026 keeps its days when the absence runs into 2027.
    expect(absenceRefusal(new Date('2026-12-20T00:00:00Z'), new Date('2027-01-25T00:00:00Z'), [], now, 30)).toBeNull();
    expect(absenceRefusal(at(0), at(2 * day), [{ from: at(-40 * day), until: at(-12 * day) }], now, 30)).toBeNull();
    expect(absenceRefusal(at(0), at(3 * day), [{ from: at(-40 * day), until: at(-12 * day) }], now, 30)).toMatch(/2026 has 2 days left and this asks for 3$/);
  });
});

describe('absence on the memory ports', () => {
  it('stops the clock of an absent player\'s seat, moves its deadline jobs, and a cancel resumes it with the same time left', async () => {
    const s = setup();
    const player = await s.player('Ada');
    const { game } = await s.core.lobby.create(player, { type: 'guessing-game', options: { target: 100 }, seats: [{ seat: 'north', me: true }, { seat: 'east', name: 'E' }], clock: { perMove: 60 } });
    const seatsNow = async () => (await s.core.reads.read(game.id, { kind: 'spectator' })).seatsWithDeadlines();
    expect(s.runAt(TASKS.deadlinePassed)).toEqual([60, 60]);

    s.later(20);
    const absence = await s.core.absences.set(player, { from: iso(20), until: iso(120) });
    expect(absence).toEqual({ id: expect.any(String), from: iso(20), until: iso(120) });
    expect(await s.core.absences.list(player)).toEqual([absence]);
    // North's 40 seconds left wait until 120; east's clock runs on.
    const seats = await seatsNow();
    expect(seats.map((x) => [x.id, x.deadline, x.absentUntil])).toEqual([['north', iso(160), iso(120)], ['east', iso(60), null]]);
    expect(s.runAt(TASKS.deadlinePassed).sort((a, b) => a - b)).toEqual([60, 160]);
    expect(s.runAt(TASKS.deadlineSoon).sort((a, b) => a - b)).toEqual([45, 145]);

    // East acts in time; at 70 north is still not out.
    s.later(10);
    await s.core.commands.execute({ kind: 'seat', gameId: game.id, seat: 'east' }, game.id, { type: 'guess', number: 1 });
    s.later(40);
    await s.run();
    expect((await s.core.reads.read(game.id, { kind: 'spectator' })).status).toBe('ACTIVE');

    // Back at 70: the absence ends now, north has its 40 seconds again (deadline 110), and the job follows.
    await expect(s.core.absences.cancel(player, absence.id)).resolves.toBe(true);
    expect((await seatsNow()).map((x) => [x.id, x.deadline, x.absentUntil])).toEqual([['north', iso(110), null], ['east', null, null]]);
    expect(s.runAt(TASKS.deadlinePassed)).toEqual([110]);
    await expect(s.core.absences.cancel(player, absence.id)).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/already over/) });

    s.later(39);
    await s.run();
    expect((await s.core.reads.read(game.id, { kind: 'spectator' })).status).toBe('ACTIVE');
    s.later(1);
    await s.run();
    const read = await s.core.reads.read(game.id, { kind: 'spectator' });
    expect(read.result).toEqual({ winners: ['east'], reason: 'time out' });
    expect(s.core.deadlines.stats.timedOut).toBe(1);
  });

  it('warns again on the return from an absence begun after the warning, with the deadline it moved; once per deadline', async () => {
    const notices: { seat: string; version: number; deadline: Date }[] = [];
    const s = setup({ deadlineSoon: async ({ seat, version, deadline }) => void notices.push({ seat, version, deadline }) });
    const player = await s.player('Ada');
    const { game } = await s.core.lobby.create(player, { type: 'guessing-game', options: { target: 100 }, seats: [{ seat: 'north', me: true }, { seat: 'east', name: 'E' }], clock: { perMove: 60 } });
    // East acts at once: only north's clock runs (awaited since version 1).
    await s.core.commands.execute({ kind: 'seat', gameId: game.id, seat: 'east' }, game.id, { type: 'guess', number: 1 });
    s.later(45);
    await s.run();
    expect(notices).toEqual([{ seat: 'north', version: 1, deadline: at(60) }]);

    // Away from 50 to 100 with 10 seconds left: the deadline is 110, and the warning is due again at the return.
    s.later(5);
    await s.core.absences.set(player, { from: iso(50), until: iso(100) });
    expect(s.runAt(TASKS.deadlineSoon)).toEqual([100]);
    s.later(49);
    await s.run();
    expect(notices).toHaveLength(1);
    s.later(1);
    await s.run();
    expect(notices.at(-1)).toEqual({ seat: 'north', version: 1, deadline: at(110) });

    // Away again from 101, back early at 103: warned at once for the deadline of 112.
    await s.core.absences.set(player, { from: iso(101), until: iso(200) });
    expect(s.runAt(TASKS.deadlineSoon)).toEqual([200]);
    s.later(3);
    await s.core.absences.cancel(player, (await s.core.absences.list(player)).at(-1)!.id);
    expect(s.runAt(TASKS.deadlineSoon)).toEqual([103]);
    await s.run();
    expect(notices.map((n) => (n.deadline.getTime() - T0) / 1000)).toEqual([60, 110, 112]);
    // An absence after the deadline moves nothing: no warning planned again.
    s.later(1);
    await s.core.absences.set(player, { from: iso(1000), until: iso(2000) });
    expect(s.runAt(TASKS.deadlineSoon)).toEqual([]);
    s.later(8);
    await s.run();
    expect((await s.core.reads.read(game.id, { kind: 'spectator' })).result?.reason).toBe('time out');
    expect(notices).toHaveLength(3);
  });

  it("reads Seat.absentUntil with the game: a read and a command's answer ask the absence store no more", async () => {
    const s = setup();
    let asked = 0;
    const lookup = s.ports.absences.absentUntil.bind(s.ports.absences);
    s.ports.absences.absentUntil = (ids) => (asked++, lookup(ids));
    const player = await s.player('Ada');
    const { game } = await s.core.lobby.create(player, { type: 'guessing-game', options: { target: 100 }, seats: [{ seat: 'north', me: true }, { seat: 'east', name: 'E' }], clock: { perMove: 60 } });
    await s.core.absences.set(player, { from: iso(0), until: iso(120) });
    const answer = await s.core.commands.execute({ kind: 'seat', gameId: game.id, seat: 'east' }, game.id, { type: 'guess', number: 1 });
    expect((await answer.game.seatsWithDeadlines()).map((x) => [x.id, x.absentUntil])).toEqual([['north', iso(120)], ['east', null]]);
    expect((await (await s.core.reads.read(game.id, player)).seatsWithDeadlines()).map((x) => [x.id, x.absentUntil])).toEqual([['north', iso(120)], ['east', null]]);
    expect(asked).toBe(0);
    // Once it is over, nobody is away.
    s.later(120);
    expect((await (await s.core.reads.read(game.id, player)).seatsWithDeadlines()).map((x) => x.absentUntil)).toEqual([null, null]);
    expect(asked).toBe(0);
  });

  it('a seat awaited during an absence starts its full time at the end: its early jobs move themselves', async () => {
    const s = setup();
    const player = await s.player('Ada');
    await s.core.absences.set(player, { from: iso(0), until: iso(100) });
    const { game } = await s.core.lobby.create(player, { type: 'guessing-game', options: { target: 100 }, seats: [{ seat: 'north', me: true }, { seat: 'east', bot: 'random' }], clock: { perMove: 60 } });
    await s.run(); // the bot's guess
    // The planner knows nothing of absences: its jobs say 45 and 60 ...
    expect(s.runAt(TASKS.deadlinePassed)).toEqual([60]);
    s.later(60);
    await s.run();
    // ... and moved themselves to the derived times when they ran.
    expect(s.runAt(TASKS.deadlinePassed)).toEqual([160]);
    expect(s.runAt(TASKS.deadlineSoon)).toEqual([145]);
    expect(s.core.deadlines.stats.moved).toBe(2);
    s.later(99);
    await s.run();
    expect((await s.core.reads.read(game.id, { kind: 'spectator' })).status).toBe('ACTIVE');
    s.later(1);
    await s.run();
    expect((await s.core.reads.read(game.id, { kind: 'spectator' })).result?.reason).toBe('time out');
  });

  it('refuses with clear reasons and only for players; ABSENCE_DAYS_PER_YEAR is the allowance', async () => {
    const s = setup({ absenceDaysPerYear: 3 });
    const player = await s.player('Ada');
    const day = 86_400;
    await expect(s.core.absences.set({ kind: 'spectator' }, { from: iso(60), until: iso(120) })).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(s.core.absences.set(player, { from: 'tomorrow', until: iso(120) })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/from is an ISO timestamp/) });
    await expect(s.core.absences.set(player, { from: iso(-3600), until: iso(120) })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/cannot begin in the past/) });
    // A start a minute ago (the form took a while) begins now.
    expect((await s.core.absences.set(player, { from: iso(-60), until: iso(day) })).from).toBe(iso(0));
    await expect(s.core.absences.set(player, { from: iso(3600), until: iso(2 * day) })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/overlaps your absence/) });
    await expect(s.core.absences.set(player, { from: iso(2 * day), until: iso(5 * day) })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/at most 3 days of absence a calendar year: 2026 has 2 days left and this asks for 3/) });
    const second = await s.core.absences.set(player, { from: iso(2 * day), until: iso(4 * day) });
    // One not begun is gone when cancelled; someone else's is not found.
    const other = await s.player('Bo');
    await expect(s.core.absences.cancel(other, second.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await s.core.absences.cancel(player, second.id);
    expect((await s.core.absences.list(player)).map((a) => a.id)).not.toContain(second.id);
  });
});
