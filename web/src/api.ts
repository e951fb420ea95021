/**
 * The service's public GraphQL API: queries and mutations over HTTP POST /graphql,
 * gameEvents over graphql-transport-ws on the same path. Nothing else is called.
 */
import { createClient, type Client } from 'graphql-ws';
import { features, type Features } from './features.ts';

export interface GqlError { message: string; extensions?: { code?: string; reason?: string; currentVersion?: number } }
export class ApiError extends Error {
  constructor(readonly errors: GqlError[]) {
    super(errors.map((e) => e.extensions?.reason ?? e.message).join('; '));
  }
  get code() { return this.errors[0]?.extensions?.code; }
  get reason() { return this.errors[0]?.extensions?.reason; }
}

export async function gql<T = any>(query: string, variables: Record<string, unknown> = {}, token?: string | null): Promise<T> {
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

export interface GameEvent { version: number; type: string; seat: string | null; data: Record<string, any>; at: string }
export interface Prompt { seat: string; kind: string; prompt: string; deadline?: string | null }
export interface SeatInfo { id: string; name: string; isYou: boolean; mustAct: boolean; open: boolean; bot: string | null; player: { id: string; name: string } | null; deadline?: string | null }
export interface GameData {
  id: string;
  type: string;
  status: string;
  version: number;
  phase: string;
  round: number | null;
  seats: SeatInfo[];
  awaiting: Prompt[];
  legalCommands: Command[];
  yourSeat: string | null;
  isYourTurn: boolean;
  result: { winners: string[]; reason: string } | null;
  visibility: 'PUBLIC' | 'PRIVATE';
  view: any;
}
export type Command = { type: string; [k: string]: unknown };
export interface GameTypeInfo { id: string; name: string; seats: string[]; minPlayers: number; maxPlayers: number; bots: string[] }

/** Selection sets of each game's view (the GameView union: one fragment per type, see src/api/views). */
export const VIEW_FRAGMENTS: Record<string, string> = {
  'raid-on-wuchao': `... on RaidOnWuchaoView { round rounds phase stage
    spaces { id control defenseBonus printedDefenseBonus granary camp victory neighbours units }
    connections units { id name side space state attack attackIsDie defense move movementLeft path special }
    xuYouTokens granariesRaided pendingCombats
    combat { space attackerSide attackers defenders defense terrainBonus dice { die label roll } rerolling attackTotal damage }
    result { winners reason } }`,
  'three-kingdoms-combined-arms': `... on ThreeKingdomsCombinedArmsView { size stage round activeSeat phase placer turnLimit
    players { seat faction corner out citiesControlled reserve { kind name count } }
    terrain { square kind controller }
    units { id name seat kind square move range defense damage moved attacked retreated }
    destroyed { id name seat kind } pendingRetreat { unit seat options } result { winners reason } }`,
  'chinese-warlords': `... on ChineseWarlordsView { turn phase activeSeat initiativeOrder turnLimit
    map { name coordinates hexes { id col row terrain controller } strongholds }
    players { seat treasury abilityRoll ability abilityText stronghold out unavailable upkeepLossesToChoose }
    units { id type name owner hex carriedBy force range movementLeft attacked retreated attackedRecently }
    attack { attacker defender target stacks units } defense { attacker defender hex result lossesToChoose afterLosses }
    result { winners reason } }`,
  warchon: `... on WarchonView { turn phase activeArmy numbers turnLimit viewer
    spreads { number name terrain capacity specialRules paths neighbours engaged randomEventThisTurn }
    units { id army spread destroyed revealed shifted known key type name size movement as ds hits maxHits traits movesLeft reserve temporary fightsFor }
    unplaced { army count units }
    battle { spread attacker defender step numberCall { purpose committed yourNumber } lastNumber { purpose value event } originalNumber randomEvent modifiers { units op value stat reason } halved berserkers withheld bridge engaged }
    result { winners reason } }`,
};
const viewSelection = (type: string) => `{ __typename ${VIEW_FRAGMENTS[type] ?? '... on GenericView { gameType state }'} }`;

/** A game's fields the pages show; the clocks' deadlines when the service has them. */
export function gameFields(f: Pick<Features, 'promptDeadline' | 'seatDeadline'>) {
  return `id type status version phase round visibility yourSeat isYourTurn result { winners reason }
    seats { id name isYou mustAct open bot player { id name }${f.seatDeadline ? ' deadline' : ''} }
    awaiting { seat kind prompt${f.promptDeadline ? ' deadline' : ''} }`;
}

export async function loadGame(id: string, type: string, token: string | null): Promise<GameData> {
  const fields = gameFields(await features());
  const data = await gql<{ game: GameData | null }>(
    `query($id: ID!) { game(id: $id) { ${fields} legalCommands view ${viewSelection(type)} } }`,
    { id },
    token,
  );
  if (!data.game) throw new ApiError([{ message: 'No such game', extensions: { code: 'NOT_FOUND' } }]);
  return data.game;
}

export async function loadViewAt(id: string, type: string, version: number, token: string | null): Promise<any> {
  const data = await gql(`query($id: ID!, $v: Int) { game(id: $id) { view(atVersion: $v) ${viewSelection(type)} } }`, { id, v: version }, token);
  return data.game.view;
}

export async function gameType(id: string): Promise<{ type: string } | null> {
  return (await gql<{ game: { type: string } | null }>(`query($id: ID!) { game(id: $id) { type } }`, { id })).game;
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
