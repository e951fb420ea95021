/** The seat tokens this browser holds, per game, in localStorage (they are the only key to a seat). */
const KEY = 'wargame.games.v1';

export interface HeldGame {
  id: string;
  type: string;
  seats: Record<string, string>; // seat → token
  names?: Record<string, string>;
  added: string;
  /** The invite code of a game this browser created with an open seat (shown once by createGame). */
  invite?: string;
}

function read(): Record<string, HeldGame> {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? '{}') as Record<string, HeldGame>;
  } catch {
    return {};
  }
}
function write(all: Record<string, HeldGame>) {
  localStorage.setItem(KEY, JSON.stringify(all));
}

export const store = {
  all(): HeldGame[] {
    return Object.values(read()).sort((a, b) => b.added.localeCompare(a.added));
  },
  get(id: string): HeldGame | undefined {
    return read()[id];
  },
  addSeat(id: string, type: string, seat: string, token: string) {
    const all = read();
    const g = (all[id] ??= { id, type, seats: {}, added: new Date().toISOString() });
    g.seats[seat] = token;
    write(all);
  },
  /** Keeps a game in this browser without a seat token (a player's game, or its invite code). */
  remember(id: string, type: string, extra: { invite?: string } = {}) {
    const all = read();
    const g = (all[id] ??= { id, type, seats: {}, added: new Date().toISOString() });
    if (extra.invite) g.invite = extra.invite;
    write(all);
  },
  forgetSeat(id: string, seat: string) {
    const all = read();
    if (all[id]) delete all[id].seats[seat];
    write(all);
  },
  forget(id: string) {
    const all = read();
    delete all[id];
    write(all);
  },
  /** The seat last played in each game, for the hot-seat switcher. */
  lastSeat(id: string): string | null {
    return localStorage.getItem(`wargame.seat.${id}`);
  },
  setLastSeat(id: string, seat: string) {
    localStorage.setItem(`wargame.seat.${id}`, seat);
  },
};

/** The invite link of a game with open seats: /join/<code> (the page finds the game by its code). */
export function inviteLink(_gameId: string, code: string): string {
  return `${location.origin}/join/${encodeURIComponent(code)}`;
}

/** A link that hands one seat to whoever opens it: the token rides in the #fragment, never sent to the server in a URL. */
export function seatLink(gameId: string, seat: string, token: string): string {
  return `${location.origin}/games/${gameId}#seat=${encodeURIComponent(seat)}&token=${encodeURIComponent(token)}`;
}
