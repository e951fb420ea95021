/**
 * The service's public GraphQL API: queries and mutations over HTTP POST /graphql,
 * gameEvents over graphql-transport-ws on the same path. Nothing else is called.
 */
import { createClient, type Client } from 'graphql-ws';
import { features, type Features } from './features.ts';
import type * as S from './generated/schema.ts';
import { viewSelection } from './views.ts';

export interface GqlError { message: string; extensions?: { code?: string; reason?: string; currentVersion?: number } }
export class ApiError extends Error {
  constructor(readonly errors: GqlError[]) {
    super(errors.map((e) => e.extensions?.reason ?? e.message).join('; '));
  }
  get code() { return this.errors[0]?.extensions?.code; }
  get reason() { return this.errors[0]?.extensions?.reason; }
}

export async function gql<T = unknown>(query: string, variables: Record<string, unknown> = {}, token?: string | null): Promise<T> {
  const res = await fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  let body: { data?: T; errors?: GqlError[] };
  try {
    body = await res.json();
  } catch {
    throw new ApiError([{ message: `The service answered ${res.status}`, extensions: { code: 'INTERNAL' } }]);
  }
  if (body.errors?.length) throw new ApiError(body.errors);
  return body.data as T;
}

/** Sockets opened by the client, so a test (or a curious user) can drop them: window.wargame.dropConnection(). */
const sockets = new Set<WebSocket>();
class TrackedWebSocket extends WebSocket {
  constructor(url: string | URL, protocols?: string | string[]) {
    super(url, protocols);
    sockets.add(this);
    this.addEventListener('close', () => sockets.delete(this));
  }
}
(window as unknown as { wargame: object }).wargame = {
  dropConnection: () => sockets.forEach((s) => s.close(4499, 'dropped by the page')),
};

export function wsClient(token: string | null, on: { connected(): void; closed(): void }): Client {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`;
  const client = createClient({
    url,
    webSocketImpl: TrackedWebSocket,
    lazy: false,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: Number.POSITIVE_INFINITY,
    // A dropped connection is retried for ever, a little slower each time (at most 10 s).
    retryWait: (retries) => new Promise((r) => setTimeout(r, Math.min(10_000, 500 * 2 ** retries))),
    shouldRetry: () => true,
    keepAlive: 20_000,
  });
  client.on('connected', on.connected);
  client.on('closed', on.closed);
  return client;
}

/** A log entry; its data is the game's (each game's event schema says its shape). */
export type GameEvent = Pick<S.GameEvent, 'version' | 'type' | 'seat' | 'at'> & { data: Record<string, any> };
export type Prompt = Pick<S.Prompt, 'seat' | 'kind' | 'prompt'> & Partial<Pick<S.Prompt, 'deadline'>>;
export type SeatInfo = Pick<S.Seat, 'id' | 'name' | 'isYou' | 'mustAct' | 'open' | 'bot'> & { player: Pick<S.PlayerSummary, 'id' | 'name'> | null } & Partial<Pick<S.Seat, 'deadline'>> & { absentUntil?: string | null };
/** Any member of the GameView union, read whole (views.ts); a board narrows it to its game's. */
export type View = S.GameView;
export type GameData = Pick<S.Game, 'id' | 'type' | 'status' | 'version' | 'phase' | 'round' | 'yourSeat' | 'isYourTurn' | 'visibility'> & {
  seats: SeatInfo[];
  awaiting: Prompt[];
  legalCommands: Command[];
  result: S.Result | null;
  /** null: no deadlines (or a service without clocks) */
  clock?: (Pick<S.Clock, 'perMove'> & Partial<Pick<S.Clock, 'onTimeout'>>) | null;
  view: View;
};
export type Command = { type: string; [k: string]: unknown };

/** A game's fields the pages show; the clocks' deadlines when the service has them. */
export function gameFields(f: Pick<Features, 'promptDeadline' | 'seatDeadline' | 'gameClock' | 'seatAbsentUntil' | 'clockTimeout'>) {
  return `id type status version phase round visibility yourSeat isYourTurn result { winners reason }${f.gameClock ? ` clock { perMove${f.clockTimeout ? ' onTimeout' : ''} }` : ''}
    seats { id name isYou mustAct open bot player { id name }${f.seatDeadline ? ' deadline' : ''}${f.seatAbsentUntil ? ' absentUntil' : ''} }
    awaiting { seat kind prompt${f.promptDeadline ? ' deadline' : ''} }`;
}

/**
 * `withView: false` for a game that has not started (it has no view yet): its seats and
 * status only, and `view` is then null.
 */
export async function loadGame(id: string, token: string | null, withView = true): Promise<GameData> {
  const [feats, view] = await Promise.all([features(), viewSelection()]);
  const data = await gql<{ game: GameData | null }>(
    `query($id: ID!, $withView: Boolean!) { game(id: $id) { ${gameFields(feats)} legalCommands view @include(if: $withView) ${view} } }`,
    { id, withView },
    token,
  );
  if (data.game && !withView) data.game.view = null as unknown as View;
  if (!data.game) throw new ApiError([{ message: 'No such game', extensions: { code: 'NOT_FOUND' } }]);
  return data.game;
}

export async function loadViewAt(id: string, version: number, token: string | null): Promise<View> {
  const data = await gql<{ game: { view: View } }>(`query($id: ID!, $v: Int) { game(id: $id) { view(atVersion: $v) ${await viewSelection()} } }`, { id, v: version }, token);
  return data.game.view;
}

export async function gameType(id: string): Promise<{ type: string; status: string } | null> {
  return (await gql<{ game: { type: string; status: string } | null }>(`query($id: ID!) { game(id: $id) { type status } }`, { id })).game;
}

export async function loadEvents(id: string, after: number, token: string | null): Promise<GameEvent[]> {
  return (await gql<{ game: { events: GameEvent[] } }>(`query($id: ID!, $after: Int) { game(id: $id) { events(after: $after) { version type seat data at } } }`, { id, after }, token)).game.events;
}

/** `seat` names the seat for a player token holding several seats of the game. */
export async function submit(id: string, command: Command, expectedVersion: number, token: string | null, seat?: string | null) {
  return gql(
    `mutation($id: ID!, $c: JSON!, $v: Int, $seat: String) { submitCommand(gameId: $id, command: $c, expectedVersion: $v, seat: $seat) { game { version status } events { version type } } }`,
    { id, c: command, v: expectedVersion, seat: seat ?? null },
    token,
  );
}

export const GAME_EVENTS = `subscription($id: ID!, $after: Int) { gameEvents(gameId: $id, afterVersion: $after) { version type seat data at } }`;

/** A game's seats and status while it waits for players, pushed on each join or leave (Subscription.seatsChanged). */
export function seatsChangedQuery(f: Parameters<typeof gameFields>[0]) {
  return `subscription($id: ID!) { seatsChanged(gameId: $id) { ${gameFields(f)} legalCommands } }`;
}
export type SeatsChanged = Omit<GameData, 'view'>;
