/**
 * Live updates of one game: the gameEvents subscription from the last version seen. After
 * a lost connection the socket reconnects by itself and subscribes again from the version
 * reached, so no event is missed or doubled.
 */
import { GAME_EVENTS, type GameEvent, wsClient } from './api.ts';

export interface Follow {
  /** The last version the page has: the subscription resumes after it. */
  after(): number;
  event(e: GameEvent): void;
  connection(text: string, ok: boolean): void;
}

/** Returns the function that stops following. */
export function followGame(gameId: string, token: string | null, on: Follow): () => void {
  let unsubscribe: (() => void) | null = null;
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
    },
    closed: () => {
      if (stopped) return;
      on.connection('reconnecting…', false);
      // Drop the old subscription (it would be re-sent from its first afterVersion):
      // 'connected' subscribes again from the last version seen.
      unsubscribe?.();
      unsubscribe = null;
    },
  });
  return () => {
    stopped = true;
    unsubscribe?.();
    void client.dispose();
  };
}
