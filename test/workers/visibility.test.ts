/**
 * A notification tells a seat no more than that seat may see. Two players of Warchon, each
 * with a webhook on every event and mail on, play until numbers have been committed and a
 * unit revealed by battle; then every webhook body has exactly the public fields (the game's
 * id, type, status and version, the seat it is about) and no mail or body carries any unit
 * marker's identity or a committed number: a mail's prompts are the ones a spectator sees.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MATCH_COMMANDS } from '../../src/domain/kernel/index.ts';
import { warchon } from '../../src/domain/warchon/index.ts';
import { SUBMIT } from '../support/client.ts';
import { ownDatabase, type OwnDatabase } from '../support/own-database.ts';
import { startMailBox, startReceiver, until, type MailBox, type Receiver } from '../support/receivers.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let box: MailBox;
let receiver: Receiver;
let db: OwnDatabase;
beforeAll(async () => {
  [box, receiver, db] = await Promise.all([startMailBox(), startReceiver(), ownDatabase('visibility')]);
  server = await startTestServer({
    databaseUrl: db.url, rateLimit: 1_000_000, registrationsPerMinute: 10_000, workers: { pollInterval: 200, concurrency: 4 },
    mailer: { smtpUrl: box.url, from: 'Wargame service <no-reply@localhost>' },
    notifications: { publicUrl: 'http://wargames.test', allowPrivate: true },
  });
});
afterAll(async () => {
  await server?.close();
  await Promise.all([box?.close(), receiver?.close()]);
  await db?.drop();
});

const ARMIES = ['azuthkan', 'celestine'] as const;
type Unit = { id: string; army: string; key: string | null; name: string | null; revealed: boolean };

async function player(name: string) {
  const email = `${name.toLowerCase()}-${randomUUID().slice(0, 8)}@example.org`;
  const r = await server.gql(`mutation($n: String!, $e: String!) { registerPlayer(input: { name: $n, email: $e }) { token } }`, { n: name, e: email });
  const token = r.data.registerPlayer.token as string;
  const mail = await until(() => box.mails.find((m) => m.to && !Array.isArray(m.to) && m.to.value[0]?.address === email), 20_000, 'the code');
  const code = /^Code: (\d{6})$/m.exec(mail.text ?? '')![1]!;
  await server.gql(`mutation($c: String!) { verifyEmail(code: $c) { emailVerified } }`, { c: code }, token);
  await server.gql(`mutation { updatePlayer(input: { notifyByEmail: true }) { notifyByEmail } }`, {}, token);
  const path = `/${name}-${randomUUID()}`;
  const hook = await server.gql(`mutation($i: CreateWebhookInput!) { createWebhook(input: $i) { secret } }`, {
    i: { url: `${receiver.url}${path}`, events: ['YOUR_TURN', 'GAME_STARTED', 'GAME_OVER', 'EVENT_APPENDED', 'DEADLINE_SOON'] },
  }, token);
  receiver.secrets.set(path, hook.data.createWebhook.secret);
  return { token, email, path };
}

describe('notifications and what a seat may see', () => {
  it('carry no hidden unit and no secret number of Warchon, in any webhook body or mail', async () => {
    const ada = await player('Ada');
    const bob = await player('Bob');
    const created = await server.gql(`mutation($i: CreateGameInput!) { createGame(input: $i) { game { id } inviteCode } }`, {
      i: { type: 'warchon', options: { turnLimit: 30 }, seats: [{ seat: 'azuthkan', me: true }, { seat: 'celestine', open: true }] },
    }, ada.token);
    const id = created.data.createGame.game.id as string;
    await server.gql(`mutation($id: ID!, $c: String) { joinGame(gameId: $id, inviteCode: $c) { game { status } } }`, { id, c: created.data.createGame.inviteCode }, bob.token);
    const token: Record<string, string> = { azuthkan: ada.token, celestine: bob.token };

    const secrets = new Set<string>();
    /** A seat's own view with its committed number, and the number. */
    const numbers: { army: string; view: unknown; n: number }[] = [];
    const publicPrompts = new Set<string>();
    let rnd = 11;
    const next = (n: number) => ((rnd = (Math.imul(rnd, 1664525) + 1013904223) >>> 0), rnd % n);
    let committed = 0;
    let revealed = false;
    for (let step = 0; step < 400 && (committed < 2 || !revealed); step++) {
      for (const army of ARMIES) {
        const own = (await server.rest('GET', `/api/games/${id}`, undefined, token[army])).body.game;
        // A unit by its key, and as the game's words label a known one ("Baphite Swarm (azuthkan-1)").
        for (const u of own.view.units as Unit[]) if (u.army === army && u.key) secrets.add(u.key).add(`${u.name} (${u.id})`);
        for (const key of own.view.unplaced.find((e: { army: string }) => e.army === army).units ?? []) secrets.add(key);
        const n = own.view.battle?.numberCall?.yourNumber;
        if (typeof n === 'number') numbers.push({ army, view: own.view, n });
        if ((own.view.units as Unit[]).some((u) => u.revealed)) revealed = true;
      }
      const spectator = (await server.gql(`query($id: ID!) { game(id: $id) { status awaiting { seat kind prompt } } }`, { id })).data.game;
      for (const p of spectator.awaiting) publicPrompts.add(p.prompt);
      if (spectator.status === 'FINISHED') break;
      const { seat, kind } = spectator.awaiting[next(spectator.awaiting.length)];
      if (kind === 'COMMIT_NUMBER') committed++;
      const legal = (await server.gql(`query($id: ID!) { game(id: $id) { legalCommands } }`, { id }, token[seat])).data.game.legalCommands.filter((c: { type: string }) => !(MATCH_COMMANDS as readonly string[]).includes(c.type));
      const moves = legal.filter((c: { type: string }) => c.type === 'moveUnit');
      const command = moves.length && next(10) < 8 ? moves[next(moves.length)] : legal[next(legal.length)];
      expect((await server.gql(SUBMIT, { id, c: command }, token[seat])).errors).toBeUndefined();
    }
    expect(committed).toBeGreaterThanOrEqual(2);
    expect(revealed).toBe(true);
    await server.gql(`mutation($id: ID!) { resign(gameId: $id) { status } }`, { id }, ada.token);
    const over = (path: string) => receiver.received.some((r) => r.path === path && r.body?.type === 'GAME_OVER');
    const overMail = (email: string) => box.mails.some((m) => m.subject?.startsWith('Game over') && (m.to as { value: { address: string }[] }).value[0]!.address === email);
    await until(() => over(ada.path) && over(bob.path) && overMail(ada.email) && overMail(bob.email), 60_000, 'the deliveries of the game\'s end');
    await new Promise((r) => setTimeout(r, 1000));

    const bodies = receiver.received.filter((r) => r.path === ada.path || r.path === bob.path);
    expect(bodies.length).toBeGreaterThan(10);
    for (const r of bodies) {
      expect(r.verified).toBe(true);
      // GAME_OVER carries the result too (winners and reason: nothing hidden).
      expect(Object.keys(r.body).sort()).toEqual(r.body.type === 'GAME_OVER' ? ['at', 'game', 'gameId', 'result', 'seat', 'type', 'version'] : ['at', 'game', 'gameId', 'seat', 'type', 'version']);
      expect(Object.keys(r.body.game).sort()).toEqual(['id', 'status', 'type', 'version']);
      expect(r.body.game.id).toBe(id);
      expect(r.body.gameId).toBe(id);
      expect([null, ...ARMIES]).toContain(r.body.seat);
      for (const key of secrets) expect(r.raw).not.toContain(key);
    }
    const mails = box.mails.filter((m) => m.subject !== 'Your email verification code' && [ada.email, bob.email].includes((m.to as { value: { address: string }[] }).value[0]!.address));
    expect(mails.some((m) => m.subject?.startsWith('Your turn'))).toBe(true);
    expect(mails.some((m) => m.subject?.startsWith('Game over'))).toBe(true);
    for (const m of mails) {
      for (const key of secrets) {
        expect(m.text).not.toContain(key);
        expect(m.html).not.toContain(key);
      }
      // A committed number, in the words the game would use for it (a seat's own position says
      // "your secret number is 3"; the prompt, public, "Choose a secret number"): a digit alone is anywhere.
      expect(m.text).not.toMatch(/secret number is/i);
      expect(m.html).not.toMatch(/secret number is/i);
      const waits = /The game waits for you to: (.*)$/m.exec(m.text ?? '');
      if (waits) for (const prompt of waits[1]!.split('; ')) expect(publicPrompts, `a mail's prompt: ${prompt}`).toContain(prompt);
    }
    expect(secrets.size).toBeGreaterThan(0);
    // Those words are the game's own: the position of a seat that has committed says them.
    expect(numbers.length).toBeGreaterThan(0);
    for (const { army, view, n } of numbers) expect(warchon.notation!.describe(view as never, army).join('\n')).toContain(`your secret number is ${n}`);
  }, 300_000);
});
