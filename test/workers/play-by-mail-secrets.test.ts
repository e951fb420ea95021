/**
 * Play by mail keeps each seat's secrets, end to end: a game of Warchon (hidden setup)
 * between Ada (Azuthkan) and Bob (Celestine), who both want mail, on a real server whose
 * workers send the your-turn mails through SMTP to smtp-server (parsed with mailparser).
 * Each your-turn mail lists its seat's position and orders (src/app/mail); test/app/mail/
 * render.test.ts checks the text per seat, this checks the mail a player receives. Each
 * mail names its own seat's units, as its owner's view labels them (the positive control:
 * the words looked for are the mail's words), and none of the other seat's hidden ones.
 */
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBMIT } from '../support/client.ts';
import { mailPlayer } from '../support/mail-players.ts';
import { ownDatabase, type OwnDatabase } from '../support/own-database.ts';
import { startMailBox, until, type MailBox } from '../support/receivers.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let box: MailBox;
let db: OwnDatabase;

beforeAll(async () => {
  [box, db] = await Promise.all([startMailBox(), ownDatabase('mail_secrets')]);
  server = await startTestServer({
    databaseUrl: db.url,
    rateLimit: 100_000,
    registrationsPerMinute: 10_000,
    workers: { pollInterval: 100 },
    mailer: { smtpUrl: box.url, from: 'Wargames <games@wargames.test>' },
    notifications: { publicUrl: 'http://wargames.test', allowPrivate: true },
    playByMail: { replyDomain: 'play.wargames.test', perHour: 1000 },
  });
});
afterAll(async () => {
  await server?.close();
  await box?.close();
  await db?.drop();
});

const ARMIES = ['azuthkan', 'celestine'] as const;
type Army = (typeof ARMIES)[number];
const ARMY_NAME: Record<Army, string> = { azuthkan: 'Azuthkan', celestine: 'Celestine' };
type Unit = { id: string; army: string; key: string | null; name: string | null; known: boolean; revealed: boolean; destroyed: boolean };
interface View {
  units: Unit[];
  unplaced: { army: string; units: string[] | null }[];
}


/** A player who wants mail (registered, verified, mail on). */
const person = (name: string) => mailPlayer(server, box, name, 30_000);

describe('play by mail and hidden information', () => {
  it("a your-turn mail names its own seat's units and none of the other seat's hidden ones", async () => {
    const ada = await person('Ada');
    const bob = await person('Bob');
    const created = await server.gql(
      `mutation($i: CreateGameInput!) { createGame(input: $i) { game { id } inviteCode } }`,
      {
        i: {
          type: 'warchon',
          options: { turnLimit: 30 },
          seats: [
            { seat: 'azuthkan', me: true },
            { seat: 'celestine', open: true },
          ],
        },
      },
      ada.token,
    );
    const id = created.data.createGame.game.id as string;
    const joined = await server.gql(
      `mutation($id: ID!, $c: String) { joinGame(gameId: $id, inviteCode: $c) { game { status } } }`,
      { id, c: created.data.createGame.inviteCode },
      bob.token,
    );
    expect(joined.errors).toBeUndefined();
    const who: Record<Army, { email: string; token: string }> = { azuthkan: ada, celestine: bob };

    const viewOf = async (army: Army) => (await server.rest('GET', `/api/games/${id}`, undefined, who[army].token)).body.game.view as View;
    /**
     * A seat's secrets, read from its own view: the keys of the units it has still to place
     * ("baphite-swarm-2"), and of each unit on the map not yet revealed its label as the mail
     * writes a known unit ("Baphite Swarm (azuthkan-1)"), its name and its key. `named`: those
     * the seat's own mail uses (the keys to place, the labels).
     */
    const secretsOf = (army: Army, own: View) => {
      const toPlace = own.unplaced.find((p) => p.army === army)!.units ?? [];
      const placed = own.units.filter((u) => u.army === army && !u.revealed && !u.destroyed);
      const named = [...toPlace, ...placed.map((u) => `${u.name} (${u.id})`)];
      return { named, all: [...new Set([...named, ...placed.flatMap((u) => [u.name!, u.key!])])] };
    };
    /** The newest your-turn mail to a seat's player, listing its orders at a version after `after`. */
    const turnMail = (army: Army, after: number) =>
      until(
        () =>
          box.to(who[army].email)
            .map((m) => ({ m, v: Number(new RegExp(`turn\\.${id}\\.${army}\\.(\\d+)\\.`).exec(m.messageId ?? '')?.[1] ?? -1) }))
            .filter((x) => x.v > after)
            .at(-1),
        30_000,
        `${army}'s your-turn mail after version ${after}`,
      );

    /** The mail to `army` now: its own secrets all in it, the other's none; the other's placed units only as unknown. */
    async function check(army: Army, mail: ParsedMail) {
      const other = ARMIES.find((a) => a !== army)!;
      const [own, theirs] = await Promise.all([viewOf(army), viewOf(other)]);
      const text = mail.text ?? '';
      const mine = secretsOf(army, own).named;
      const hidden = secretsOf(other, theirs).all;
      expect(mine.length).toBeGreaterThan(0);
      expect(hidden.length).toBeGreaterThan(0);
      expect(
        hidden.filter((w) => `${text}\n${mail.html || ''}`.includes(w)),
        `${other}'s hidden units named in ${army}'s mail`,
      ).toEqual([]);
      expect(
        mine.filter((w) => !text.includes(w)),
        `${army}'s own units missing from its mail`,
      ).toEqual([]);
      // The other army's units on the map are in the mail, as the seat's own view shows them: unknown.
      for (const u of own.units.filter((u) => u.army === other && !u.known && !u.destroyed))
        expect(text).toContain(`an unknown ${ARMY_NAME[other]} unit (${u.id})`);
      return Number(new RegExp(`turn\\.${id}\\.${army}\\.(\\d+)\\.`).exec(mail.messageId ?? '')![1]);
    }

    /** A seat places all its units, each the first placement its legal commands offer. */
    async function setUp(army: Army) {
      for (let i = 0; i < 50; i++) {
        const g = (await server.gql(`query($id: ID!) { game(id: $id) { version legalCommands } }`, { id }, who[army].token)).data.game;
        const place = (g.legalCommands as { type: string }[]).find((c) => c.type === 'placeUnit');
        if (!place) return;
        expect((await server.gql(SUBMIT, { id, c: place, v: g.version }, who[army].token)).errors).toBeUndefined();
      }
      throw new Error(`${army} still has units to place`);
    }

    // Azuthkan sets up first: Ada's mail lists her units to place, not Celestine's.
    const first = await check('azuthkan', (await turnMail('azuthkan', -1)).m);
    await setUp('azuthkan');
    // Celestine's turn to set up: Bob's mail has Azuthkan's units on the map as markers only.
    const bobs = await turnMail('celestine', -1);
    expect(bobs.v).toBeGreaterThan(first);
    expect((await viewOf('azuthkan')).units.filter((u) => u.army === 'azuthkan').length).toBeGreaterThan(0);
    await check('celestine', bobs.m);
    await setUp('celestine');
    // Turn 1: Ada's next mail names her units on the map by name, and Celestine's as markers only.
    const second = await turnMail('azuthkan', first);
    expect((await viewOf('celestine')).units.filter((u) => u.army === 'celestine').length).toBeGreaterThan(0);
    await check('azuthkan', second.m);
  }, 300_000);
});
