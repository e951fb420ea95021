/**
 * A subscription's feed reads the store only as fast as its consumer takes events: one that
 * does not read holds about a page, however long the game (it used to queue every event).
 */
import { describe, expect, it } from 'vitest';
import type { EventOut } from '../../src/app/game-read.ts';
import { EventFeed, FEED_BUFFER, FEED_PAGE } from '../../src/app/feed.ts';
import type { Notifier } from '../../src/persistence/notifier.ts';

const notifier = { listen: () => () => {} } as unknown as Notifier;
const event = (version: number): EventOut => ({ version, type: 'E', seat: null, data: {}, at: '' });
const settle = () => new Promise((r) => setTimeout(r, 50));

describe('EventFeed', () => {
  it('stops reading while its consumer does not take events, and goes on when it does', async () => {
    let reads = 0;
    // A game of 100 000 events: every read returns a full page.
    const feed = new EventFeed('g', 0, notifier, async (after) => {
      reads++;
      return Array.from({ length: Math.min(FEED_PAGE, 100_000 - after) }, (_, i) => event(after + i + 1));
    });
    await settle();
    expect(reads).toBe(Math.ceil(FEED_BUFFER / FEED_PAGE));
    const taken: number[] = [];
    for (let i = 0; i < FEED_PAGE * 3; i++) taken.push(((await feed.next()).value as EventOut).version);
    expect(taken).toEqual(Array.from({ length: FEED_PAGE * 3 }, (_, i) => i + 1));
    await settle();
    expect(reads).toBeLessThanOrEqual(5);
    await feed.return();
  });
});
