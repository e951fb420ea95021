/**
 * The application core, called as plain functions on the memory ports (no HTTP, no
 * database): the actors, the outbox written with the events, and stored consequences that
 * fold back to the same game.
 */
import { describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR, type Actor } from '../../src/app/actors.ts';
import { createCore, type Core, type CoreOptions } from '../../src/app/core.ts';
import { memoryPorts } from '../../src/app/memory/index.ts';
import type { Ports } from '../../src/app/ports.ts';
import { games as hostedGames } from '../../src/domain/games.ts';
import { evolveMatch, initialMatch, matchStatus, visibleTo, type Recorded } from '../../src/domain/kernel/index.ts';
import { guessingGame } from '../support/guessing-game.ts';
import { chooser } from '../support/play.ts';

/** The calls these tests make, on a core built on `ports`. */
function service(ports: Ports, options: Partial<CoreOptions> = {}) {
  const core: Core = createCore(ports, { games: [...hostedGames, guessingGame], ...options });
  return {
    store: ports.games,
    module: core.module,
    create: core.commands.create.bind(core.commands),
    execute: core.commands.execute.bind(core.commands),
    read: core.reads.read.bind(core.reads),
    export: core.reads.export.bind(core.reads),
    verify: core.verify.check,
  };
}

const ports = memoryPorts();
const app = service(ports);

const seat = (gameId: string, s: string): Actor => ({ kind: 'seat', gameId, seat: s });

describe('the application core', () => {
  it('runs a command as the system actor from a plain function call: a time-out ends a two-player game', async () => {
    const { game } = await app.create({ type: 'guessing-game', options: { target: 10 }, seats: [{ seat: 'north', name: 'N' }, { seat: 'east', name: 'E' }] });
    const outcome = await app.execute(SYSTEM_ACTOR, game.id, { type: 'timeOut', seat: 'east' }, { expectedVersion: game.version });
    expect(outcome.events.map((e) => [e.type, e.seat, e.data])).toEqual([
      ['TimedOut', null, { type: 'TimedOut', seat: 'east' }],
      ['PlayerOut', null, { type: 'PlayerOut', seat: 'east' }],
      ['GameEnded', null, { type: 'GameEnded', winners: ['north'], reason: 'time out' }],
    ]);
    expect(outcome.game).toMatchObject({ status: 'FINISHED', result: { winners: ['north'], reason: 'time out' } });
    // The service's command is part of the verifiable record.
    expect(app.verify(await app.export(game.id, { kind: 'spectator' }))).toMatchObject({ valid: true, commands: 1 });
  });

  it('refuses the system actor anything but a match command, and a seat the service\'s commands', async () => {
    const { game } = await app.create({ type: 'guessing-game', seats: [{ seat: 'north', name: 'N' }, { seat: 'east', name: 'E' }] });
    await expect(app.execute(SYSTEM_ACTOR, game.id, { type: 'guess', number: 1 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(app.execute(seat(game.id, 'north'), game.id, { type: 'timeOut', seat: 'east' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(app.execute({ kind: 'spectator' }, game.id, { type: 'resign' })).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('writes what changed for whom with the events: started, awaited seats, appended, ended', async () => {
    const { game } = await app.create({ type: 'guessing-game', options: { target: 10 }, seats: [{ seat: 'north', name: 'N' }, { seat: 'east', name: 'E' }] });
    const created = await app.store.outbox(game.id);
    expect(created.map((o) => [o.version, o.kind, o.seat])).toEqual([
      [1, 'EVENTS_APPENDED', null],
      [1, 'GAME_STARTED', null],
      [1, 'SEAT_AWAITED', 'north'],
      [1, 'SEAT_AWAITED', 'east'],
    ]);
    // A refused command stores no row.
    await expect(app.execute(seat(game.id, 'north'), game.id, { type: 'acceptDraw' })).rejects.toMatchObject({ code: 'ILLEGAL_COMMAND' });
    await app.execute(seat(game.id, 'north'), game.id, { type: 'guess', number: 2 });
    // North has guessed: only the appended events; east was awaited already.
    expect((await app.store.outbox(game.id)).slice(created.length).map((o) => [o.version, o.kind, o.seat])).toEqual([[2, 'EVENTS_APPENDED', null]]);
    await app.execute(seat(game.id, 'east'), game.id, { type: 'resign' });
    expect((await app.store.outbox(game.id)).slice(created.length + 1).map((o) => [o.kind, o.seat, o.data])).toEqual([
      ['EVENTS_APPENDED', null, { firstVersion: 3, lastVersion: 5 }],
      ['GAME_ENDED', null, { result: { winners: ['north'], reason: 'east resigned' } }],
    ]);
  });

  it('answers 422 IDEMPOTENCY_KEY_REUSED when a key is used again for another command', async () => {
    const { game } = await app.create({ type: 'guessing-game', seats: [{ seat: 'north', name: 'N' }, { seat: 'east', name: 'E' }] });
    await app.execute(seat(game.id, 'north'), game.id, { type: 'guess', number: 2 }, { idempotencyKey: 'k1' });
    await expect(app.execute(seat(game.id, 'north'), game.id, { type: 'guess', number: 3 }, { idempotencyKey: 'k1' })).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    const again = await app.execute(seat(game.id, 'north'), game.id, { type: 'guess', number: 2 }, { idempotencyKey: 'k1' });
    expect(again.events.map((e) => e.version)).toEqual([2]);
  });

  it('returns the first outcome to a retry racing the first request with the same key and expectedVersion', async () => {
    const { game } = await app.create({ type: 'guessing-game', seats: [{ seat: 'north', name: 'N' }, { seat: 'east', name: 'E' }] });
    const tries = await Promise.allSettled(Array.from({ length: 8 }, () => app.execute(seat(game.id, 'north'), game.id, { type: 'guess', number: 4 }, { idempotencyKey: 'race', expectedVersion: 1 })));
    expect(tries.map((t) => t.status)).toEqual(Array(8).fill('fulfilled'));
    for (const t of tries) expect((t as PromiseFulfilledResult<{ events: { version: number }[] }>).value.events.map((e) => e.version)).toEqual([2]);
    expect((await app.store.events(game.id)).map((e) => e.version)).toEqual([1, 2]);
  });
});

describe('a resignation in a game of three or more', () => {
  // Every game hosted for more than two players: its consequences are stored events.
  const cases = [
    { type: 'three-kingdoms-combined-arms', seats: ['wei', 'shu', 'wu'] },
    { type: 'chinese-warlords', seats: ['red', 'blue', 'green'] },
  ];
  it.each(cases)('$type: folding only the stored log reproduces the server\'s status and view', async ({ type, seats }) => {
    const module = app.module(type);
    const choose = chooser(7);
    for (let round = 0; round < 3; round++) {
      const { game } = await app.create({ type, seats: seats.map((s) => ({ seat: s, name: s })) });
      // Play a little, then have a seat resign (an awaited one, so its pending choice goes too).
      for (let i = 0; i < 15 + round * 20; i++) {
        const read = await app.read(game.id, { kind: 'spectator' });
        const awaiting = (await read.progress()).awaiting;
        if (awaiting.length === 0) break;
        const who = awaiting[choose(awaiting.length)]!.seat;
        const legal = (await (await app.read(game.id, seat(game.id, who))).legalCommands()).filter((c) => !['resign', 'offerDraw', 'acceptDraw', 'declineDraw'].includes(c.type));
        if (legal.length === 0) break;
        await app.execute(seat(game.id, who), game.id, legal[choose(legal.length)]);
      }
      const before = await app.read(game.id, { kind: 'spectator' });
      const quitter = (await before.progress()).awaiting[0]?.seat ?? seats[round]!;
      const outcome = await app.execute(seat(game.id, quitter), game.id, { type: 'resign' });
      expect(outcome.events[0]!.type).toBe('PlayerResigned');
      expect(outcome.events.length, 'the consequences are stored').toBeGreaterThan(1);

      const record = (await app.store.game(game.id))!;
      let folded = initialMatch(module, { options: record.options, players: record.players.map((p) => p.seat) });
      for (const e of await app.store.events(game.id)) folded = evolveMatch(module, folded, { event: e.data as Recorded['event'], seat: e.seat, rolls: (e.rolls ?? undefined) as Recorded['rolls'] });
      const server = await app.read(game.id, { kind: 'spectator' });
      expect(matchStatus(module, folded)).toEqual(await server.progress());
      for (const viewer of [null, ...seats]) {
        const read = viewer ? await app.read(game.id, seat(game.id, viewer)) : server;
        expect(visibleTo(module, folded, viewer).view()).toEqual((await read.view()).view);
      }
      expect((await server.progress()).awaiting.some((p) => p.seat === quitter)).toBe(false);
    }
  });
});

describe('rules versions', () => {
  it('a game records the rules it started under; verify says plainly when they have changed since', async () => {
    const older = service(ports, { games: [guessingGame], rulesFingerprint: 'rules-old' });
    const { game } = await older.create({ type: 'guessing-game', seats: [{ seat: 'north', name: 'N' }, { seat: 'east', name: 'E' }] });
    expect(game.rules).toBe('rules-old');
    await older.execute(seat(game.id, 'north'), game.id, { type: 'resign' });
    const doc = await older.export(game.id, { kind: 'spectator' });
    expect(doc.game.rules).toBe('rules-old');
    expect(older.verify(doc)).toEqual({ valid: true, events: 4, commands: 1, rolls: 1 });

    const newer = service(ports, { games: [guessingGame], rulesFingerprint: 'rules-new' });
    expect(newer.verify(doc)).toMatchObject({ valid: true, rulesChanged: { game: 'rules-old', now: 'rules-new' } });
    const tampered = structuredClone(doc);
    (tampered.events[0]!.data as { first: string }).first = tampered.events[0]!.data.first === 'north' ? 'east' : 'north';
    const report = newer.verify(tampered);
    expect(report.valid).toBe(false);
    expect((report as { reason: string }).reason).toMatch(/^the rules have changed since this game was played \(it started under rules rules-old; this service runs rules-new\)/);
  });
});
