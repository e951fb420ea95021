/**
 * Play by mail's handling on the memory ports: a mail's orders applied once and answered
 * once, even when the job stops between the append and the mark (the process died there)
 * and runs again. The stop is the memory store's own `handled` failing once.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/app/core.ts';
import { memoryPorts } from '../../src/app/memory/index.ts';
import { TASKS } from '../../src/app/tasks.ts';
import { games } from '../../src/domain/games.ts';

const DOMAIN = 'play.wargames.test';

async function setup(perHour?: number) {
  const ports = memoryPorts();
  const core = createCore(ports, { games, rulesFingerprint: 'test', notifications: { mail: true }, playByMail: { replyDomain: DOMAIN, perHour } });
  const person = async (name: string) => {
    const id = randomUUID();
    const email = `${name.toLowerCase()}@example.org`;
    await ports.players.createPlayer({ id, name, email, emailCodeHash: null, emailCodeExpires: null }, { id: randomUUID(), name: 'default', tokenHash: randomUUID() });
    await ports.players.updatePlayer(id, { emailVerified: true });
    return { id, email };
  };
  const ada = await person('Ada');
  const bob = await person('Bob');
  const created = await core.lobby.create({ kind: 'player', playerId: ada.id }, { type: 'raid-on-wuchao', seats: [{ seat: 'cao', me: true }, { seat: 'yuan', open: true }] });
  await core.lobby.join({ kind: 'player', playerId: bob.id }, created.game.id, { inviteCode: created.inviteCode });
  const gameId = created.game.id;
  const record = async () => (await ports.games.game(gameId))!;
  // Bob's your-turn part: Yuan sets up.
  const turn = (await core.mail.turnPart(await record(), bob.id, 'yuan', (await record()).version))!;
  const orders = [...turn.text.matchAll(/^\s*(\d+)\. (.+?) {2}\(/gm)].map((m) => m[2]!);
  const mailJobs = () => ports.data.jobs.filter((j) => j.task === TASKS.mail);
  /** Bob's reply stored as the listener stores it; the id its job handles. */
  const send = async (body: string) => {
    const raw = Buffer.from(`From: Bob <${bob.email}>\r\nTo: ${turn.replyTo}\r\nSubject: Re: Raid\r\nMessage-ID: <${randomUUID()}@example.org>\r\nIn-Reply-To: ${turn.messageId}\r\n\r\n${body}\r\n`);
    return (await core.mail.receive(raw)).id;
  };
  /** The process dies right after the orders' append: the next mark fails, once. */
  const dieBeforeTheMark = () => {
    const handled = ports.mail.handled.bind(ports.mail);
    ports.mail.handled = async () => {
      ports.mail.handled = handled;
      throw new Error('the process died');
    };
  };
  return { core, ports, gameId, record, orders, mailJobs, send, dieBeforeTheMark };
}

describe('a mail of orders, handled once', () => {
  it('answers once "Applied" when the job stopped after the append and runs again; applies nothing twice', async () => {
    const { core, ports, record, orders, mailJobs, send, dieBeforeTheMark } = await setup();
    const place = orders.find((o) => o.startsWith('place '))!;
    const id = await send(place);
    const before = (await record()).version;
    const jobsBefore = mailJobs().length;

    dieBeforeTheMark();
    await expect(core.mail.handle(id)).rejects.toThrow('the process died');
    expect((await record()).version).toBe(before + 1); // the append committed
    expect((await ports.mail.inbound(id))!.handledAt).toBeNull();
    expect(mailJobs()).toHaveLength(jobsBefore); // no answer yet

    // The job's next attempt: the orders are found applied, answered so, not applied again.
    expect(await core.mail.handle(id)).toMatch(/^applied 1 \(by an earlier try, versions \d+-\d+\)$/);
    expect((await record()).version).toBe(before + 1);
    const answers = mailJobs().slice(jobsBefore);
    expect(answers).toHaveLength(1);
    const text = (answers[0]!.payload as { message: { text: string } }).message.text;
    expect(text).toContain('Applied, in order:');
    expect(text).toContain(`(${place})`);
    expect(text).not.toContain('Nothing was applied');
    expect((await ports.mail.inbound(id))!.handledAt).not.toBeNull();

    // A third run (a duplicate job): nothing.
    expect(await core.mail.handle(id)).toBe('already handled');
    expect(mailJobs().slice(jobsBefore)).toHaveLength(1);
    expect((await record()).version).toBe(before + 1);
  });

  it('answers "Applied", not "the game is over", when the orders an earlier try applied ended the game', async () => {
    const { core, record, mailJobs, send, dieBeforeTheMark } = await setup();
    const id = await send('resign');
    const jobsBefore = mailJobs().length;
    dieBeforeTheMark();
    await expect(core.mail.handle(id)).rejects.toThrow('the process died');
    expect((await record()).status).toBe('FINISHED');
    expect(await core.mail.handle(id)).toMatch(/^applied 1 /);
    const answers = mailJobs().slice(jobsBefore);
    expect(answers).toHaveLength(1);
    const text = (answers[0]!.payload as { message: { text: string } }).message.text;
    expect(text).toContain('Applied, in order:');
    expect(text).not.toContain('This game is over: it takes no more orders');
  });

  it('marks a mail handled and queues its answer together, once: a second mark queues nothing', async () => {
    const { core, ports, orders, mailJobs, send } = await setup();
    const id = await send(orders.find((o) => o.startsWith('place '))!);
    const jobsBefore = mailJobs().length;
    expect(await core.mail.handle(id)).toBe('applied 1');
    expect(mailJobs().slice(jobsBefore)).toHaveLength(1);
    expect(await ports.mail.handled(id, null, 'again', [{ task: TASKS.mail, payload: {} }])).toBe(false);
    expect(mailJobs().slice(jobsBefore)).toHaveLength(1);
  });

  it('counts a mail against its player once: the limit holds, and a rerun of a counted mail is not counted again', async () => {
    const { core, send, dieBeforeTheMark } = await setup(2);
    const [a, b, c] = [await send('no order'), await send('no order'), await send('no order')];
    expect(await core.mail.handle(a)).toMatch(/^refused: /);
    // b counted, then the job stops before its mark: the rerun is not a second count.
    dieBeforeTheMark();
    await expect(core.mail.handle(b)).rejects.toThrow('the process died');
    expect(await core.mail.handle(b)).toMatch(/^refused: /);
    expect(await core.mail.handle(c)).toBe('ignored: rate limited');
  });

  it('counts only admitted mails: an hour after them the player is admitted again, however many were refused since', async () => {
    const { core, ports, send } = await setup(2);
    const start = Date.now();
    const at = (minutes: number) => (ports.data.now = () => new Date(start + minutes * 60_000));
    const handleAll = async (n: number) => {
      const ids = [];
      for (let i = 0; i < n; i++) ids.push(await send('no order'));
      const outcomes = [];
      for (const id of ids) outcomes.push((await core.mail.handle(id)).replace(/^refused: .*/, 'admitted'));
      return outcomes;
    };
    at(0);
    expect(await handleAll(2)).toEqual(['admitted', 'admitted']);
    at(30);
    expect(await handleAll(3)).toEqual(['ignored: rate limited', 'ignored: rate limited', 'ignored: rate limited']);
    at(61);
    expect(await handleAll(3)).toEqual(['admitted', 'admitted', 'ignored: rate limited']);
  });
});

