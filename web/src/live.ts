/**
 * Live updates of one game: the gameEvents subscription from the last version seen. After
 * a lost connection the socket reconnects by itself and subscribes again from the version
 * reached, so no event is missed or doubled. While the game waits for players, also
 * seatsChanged on the same socket: a join that leaves a seat open appends no event, and is
 * pushed there (nothing is polled).
 */
import { GAME_EVENTS, type GameEvent, type SeatsChanged, wsClient } from './api.ts';

export interface Follow {
  /** The last version the page has: the subscription resumes after it. */
  after(): number;
  event(e: GameEvent): void;
  connection(text: string, ok: boolean): void;
  /** While the game waits for players: the seatsChanged subscription's query, and each game it pushes. */
  seats?: { open(): boolean; query: string; changed(game: SeatsChanged): void };
}

/** Returns the function that stops following. */
export function followGame(gameId: string, token: string | null, on: Follow): () => void {
  let unsubscribe: (() => void) | null = null;
  let unsubscribeSeats: (() => void) | null = null;
  let stopped = false;
  const client = wsClient(token, {
    connected: () => {
      if (stopped) return;
      on.connection('live', true);
      unsubscribe?.();
      unsubscribe = client.subscribe<{ gameEvents: GameEvent }>({ query: GAME_EVENTS, variables: { id: gameId, after: on.after() } }, {
        next: ({ data }) => {
          const e = data?.gameEvents;
          if (e && e.version > on.after()) on.event(e);
        },
        error: () => on.connection('reconnecting…', false),
        complete: () => {},
      });
      unsubscribeSeats?.();
      unsubscribeSeats = null;
      const seats = on.seats;
      if (seats?.open()) {
        unsubscribeSeats = client.subscribe<{ seatsChanged: SeatsChanged }>({ query: seats.query, variables: { id: gameId } }, {
          next: ({ data }) => data?.seatsChanged && seats.changed(data.seatsChanged),
          error: () => {},
          complete: () => {},
        });
      }
    },
    closed: () => {
      if (stopped) return;
      on.connection('reconnecting…', false);
      // Drop the old subscription (it would be re-sent from its first afterVersion):
      // 'connected' subscribes again from the last version seen.
      unsubscribe?.();
      unsubscribe = null;
      unsubscribeSeats?.();
      unsubscribeSeats = null;
    },
  });
  return () => {
    stopped = true;
    unsubscribe?.();
    unsubscribeSeats?.();
    void client.dispose();
  };
}
