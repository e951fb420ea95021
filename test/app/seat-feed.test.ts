/**
 * seatsChanged's feed in the core, on the memory ports: the game now, then after each join
 * and leave (which append no event: the lobby wakes the game's watchers itself), then the
 * start, and the stream ends; a read that did not change anything yields nothing.
 */
import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/app/core.ts';
import { memoryPorts } from '../../src/app/memory/index.ts';
import { guessingGame } from '../support/guessing-game.ts';

const spectator = { kind: 'spectator' } as const;

describe('the seat feed', () => {
  it('gives a game waiting for players after each join and leave, then its start, and ends', async () => {
    const core = createCore(memoryPorts(), { games: [guessingGame], rulesFingerprint: 'test' });
    const created = await core.lobby.create(spectator, { type: 'guessing-game', options: { target: 5 }, seats: [{ seat: 'north', name: 'N' }, { seat: 'east', open: true }, { seat: 'south', open: true }] });
    const id = created.game.id;
    const feed = await core.reads.seatFeed(id, spectator);
    const next = async () => {
      const r = await feed.next();
      return r.done ? null : { status: r.value.status, open: r.value.seats.filter((s) => s.open).map((s) => s.id) };
    };
    expect(await next()).toEqual({ status: 'OPEN', open: ['east', 'south'] });
    const eve = await core.lobby.join(spectator, id, { seat: 'east', name: 'Eve', inviteCode: created.inviteCode });
    expect(await next()).toEqual({ status: 'OPEN', open: ['south'] });
    await core.lobby.leave(await core.authenticate(eve.seatToken), id);
    expect(await next()).toEqual({ status: 'OPEN', open: ['east', 'south'] });
    await core.lobby.join(spectator, id, { seat: 'east', name: 'Eli', inviteCode: created.inviteCode });
    await core.lobby.join(spectator, id, { seat: 'south', name: 'Sol', inviteCode: created.inviteCode });
    // Two joins, maybe one wake-up: the feed gives what the store says when it reads.
    let last = await next();
    if (last?.status === 'OPEN') last = await next();
    expect(last).toEqual({ status: 'ACTIVE', open: [] });
    expect(await next()).toBeNull();
  });
});
