/**
 * The daily digest and the calendar feed on the core's memory ports (no HTTP, no database):
 * the memory DigestStore keeps the contract the PostgreSQL one does (a player's day once, a
 * calendar token valid at the player's token generation), and the your-turn mail is skipped
 * for a player with the digest on.
 */
import ical, { type VEvent } from 'node-ical';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../../src/app/actors.ts';
import { createCore } from '../../src/app/core.ts';
import { memoryPorts, runDueJobs } from '../../src/app/memory/index.ts';
import { TASKS } from '../../src/app/tasks.ts';
import { defineTasks } from '../../src/workers/tasks.ts';
import { guessingGame } from '../support/guessing-game.ts';

function setup() {
  const ports = memoryPorts();
  const now = Date.parse('2026-12-01T12:00:00Z');
  ports.data.now = () => new Date(now);
  const codes = new Map<string, string>();
  const core = createCore(ports, {
    games: [guessingGame], rulesFingerprint: 'test',
    notifications: { mail: true, secretKey: Buffer.alloc(32, 3), publicUrl: 'https://games.example.org' },
    playByMail: { replyDomain: 'play.example.org' },
    sendCode: (m) => void codes.set(m.to, /Code: (\d+)/.exec(m.text)![1]!),
  });
  const tasks: Record<string, (p: Record<string, unknown>) => Promise<void>> = {};
  defineTasks({ define: (name, task) => void (tasks[name] = (p) => task(p, { attempts: 1, maxAttempts: 1 })) }, core, { mailer: null });
  async function player(name: string, digest: boolean): Promise<{ actor: Actor; id: string; email: string; token: string }> {
    const email = `${name.toLowerCase()}@example.org`;
    const { player, token } = await core.players.register({ name, email }, { address: '127.0.0.1' });
    const actor: Actor = { kind: 'player', playerId: player.id };
    await core.players.verifyEmail(actor, codes.get(email));
    await core.players.update(actor, { notifyByEmail: true, emailDigest: digest });
    return { actor, id: player.id, email, token };
  }
  return { core, ports, data: ports.data, player, run: async () => {
      // The due jobs, then the dispatcher's fan-out of the outbox (the deliveries, stored; nothing is sent here).
      const ran = await runDueJobs(ports.data, tasks);
      while ((await core.notifications.fanOutTail()).more);
      return ran;
    } };
}

describe('the digest and the calendar on the memory ports', () => {
  it('skips the your-turn mail with the digest on, records a day once, and lists the game', async () => {
    const { core, data, player, run } = setup();
    const ada = await player('Ada', true);
    const bob = await player('Bob', false);
    expect((await core.players.me(ada.actor))!.emailDigest).toBe(true);
    await expect(core.players.update(ada.actor, { emailDigest: 'on' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    const { game } = await core.lobby.create(ada.actor, { type: 'guessing-game', visibility: 'PUBLIC', seats: [{ seat: 'north', me: true }, { seat: 'east', open: true }] });
    await core.lobby.join(bob.actor, game.id, { seat: 'east' });
    await run();
    const yourTurn = [...data.deliveries.values()].filter((d) => d.event === 'YOUR_TURN');
    expect(yourTurn.map((d) => d.playerId)).toEqual([bob.id]);

    expect(await core.ports.digests.readers()).toEqual([ada.id]);
    expect(await core.digests.day('2026-12-02', new Date('2026-12-02T07:00:00Z'))).toEqual([ada.id]);
    const planned = data.jobs.filter((j) => j.task === TASKS.digest);
    expect(planned.map((j) => j.payload)).toEqual([{ playerId: ada.id, day: '2026-12-02' }]);
    // The next day's, never one in the past.
    expect(data.jobs.find((j) => j.task === TASKS.digestDay)).toMatchObject({ payload: { day: '2026-12-03' }, runAt: new Date('2026-12-03T07:00:00Z') });
    // A process starting keeps the day pending (one missed while none ran runs at once).
    await core.digests.schedule(new Date('2026-12-05T09:00:00Z'));
    expect(data.jobs.filter((j) => j.task === TASKS.digestDay)).toMatchObject([{ payload: { day: '2026-12-03' } }]);

    expect(await core.digests.digest(ada.id, '2026-12-02')).toBe('sent');
    expect(await core.digests.digest(ada.id, '2026-12-02')).toBe('already sent');
    expect(await core.digests.digest(bob.id, '2026-12-02')).toBe('not wanted');
    const mails = data.jobs.filter((j) => j.task === TASKS.mail && (j.payload.message as { to?: string } | undefined)?.to === ada.email);
    expect(mails).toHaveLength(1);
    const message = mails[0]!.payload.message as { subject: string; text: string; references: string[] };
    expect(message.subject).toBe('Your games, 2026-12-02: 1 waiting for you');
    expect(message.text).toContain(`Open it: https://games.example.org/games/${game.id}`);
    expect(message.text).toMatch(/its own address: play\+[0-9a-f]{32}@play\.example\.org$/m);
    expect(message.text).toMatch(/^\s+1\. /m);
    expect(message.references).toEqual([expect.stringMatching(new RegExp(`^<turn\\.${game.id}\\.north\\.\\d+\\.`))]);
  });

  it('serves the calendar of the seats on a clock, and refuses it once a token is revoked', async () => {
    const { core, player } = setup();
    const ada = await player('Ada', false);
    const { game } = await core.lobby.create(ada.actor, { type: 'guessing-game', seats: [{ seat: 'north', me: true }, { seat: 'east', name: 'E' }], clock: { perMove: 3600 } });
    const url = (await core.digests.calendarUrl(ada.actor))!;
    expect(url).toMatch(/^https:\/\/games\.example\.org\/api\/calendar\/[0-9a-f]{40}\.ics$/);
    const token = /([0-9a-f]{40})\.ics$/.exec(url)![1]!;
    const events = Object.values(ical.sync.parseICS((await core.digests.calendarFeed(token))!)).filter((c): c is VEvent => c?.type === 'VEVENT');
    expect(events.map((e) => e.uid)).toEqual([`${game.id}.north.1@games.example.org`]);
    expect(new Date(events[0]!.end!).toISOString()).toBe('2026-12-01T13:00:00.000Z');

    const extra = await core.players.createToken(ada.actor, 'phone');
    expect(await core.digests.calendarFeed(token)).not.toBeNull();
    expect(await core.players.revokeToken(ada.actor, extra.id)).toBe(true);
    expect(await core.digests.calendarFeed(token)).toBeNull();
    const fresh = (await core.digests.calendarUrl(ada.actor))!;
    expect(fresh).not.toBe(url);
    expect(await core.digests.calendarFeed(/([0-9a-f]{40})\.ics$/.exec(fresh)![1]!)).toContain('BEGIN:VEVENT');
    expect(await core.digests.calendarFeed('f'.repeat(40))).toBeNull();
  });
});
