/**
 * The games this service hosts, as `gameTypes` describes them: names, one-line
 * descriptions, seats with their names and colours. Read once per page load; a game added
 * to the service shows here with no change to the client.
 */
import { gql } from './api.ts';
import { pretty } from './dom.ts';
import type { GameType } from './generated/schema.ts';

export type GameTypeInfo = Pick<GameType, 'id' | 'name' | 'description' | 'seats' | 'seatDetails' | 'minPlayers' | 'maxPlayers' | 'bots'>;

let types: GameTypeInfo[] = [];
let loading: Promise<GameTypeInfo[]> | null = null;

export function loadCatalogue(): Promise<GameTypeInfo[]> {
  loading ??= gql<{ gameTypes: GameTypeInfo[] }>('{ gameTypes { id name description seats seatDetails { id name colour } minPlayers maxPlayers bots } }').then(
    (r) => (types = r.gameTypes),
    (e) => {
      loading = null; // try again on the next page
      throw e;
    },
  );
  return loading;
}

export const gameTypes = () => types;
export const typeName = (type: string) => types.find((t) => t.id === type)?.name ?? pretty(type);
export const typeDescription = (type: string) => types.find((t) => t.id === type)?.description ?? '';

/** A seat's colour from its game's seat details (any game's when the type is not given). */
export function seatColour(seat: string | null | undefined, type?: string): string {
  if (!seat) return NEUTRAL;
  const ordered = type ? [...types.filter((t) => t.id === type), ...types.filter((t) => t.id !== type)] : types;
  for (const t of ordered) {
    const found = t.seatDetails.find((d) => d.id === seat);
    if (found) return found.colour;
  }
  return NEUTRAL;
}
const NEUTRAL = '#4a5568';

/** The seat's name in its game ("Cao Cao's forces"), or its id made readable. */
export function seatTitle(seat: string, type?: string): string {
  const t = types.find((x) => x.id === type) ?? types.find((x) => x.seatDetails.some((d) => d.id === seat));
  return t?.seatDetails.find((d) => d.id === seat)?.name ?? pretty(seat);
}
