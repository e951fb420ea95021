/**
 * A game page's state that is not drawing: which seat the page plays (Seats) and the log it
 * has received (GameLog).
 *
 * Which seat the page plays. A seat is played with
 * its seat token when this browser holds one (`seat` set), else with the signed-in player's
 * token (`seat` null, "player mode": the service tells which seats are theirs by `isYou` and
 * which one it waits for by `yourSeat`). Hot seat: with several seats held here, the page
 * follows the turn unless the player picked a seat by hand since the game last moved.
 */
import type { GameData, GameEvent } from './api.ts';
import { store } from './store.ts';

export class Seats {
  /** seat → seat token, the ones this browser holds for the game */
  held: Record<string, string>;
  /** the seat played with its seat token; null: player mode (or watching) */
  seat: string | null;
  /** the seats the signed-in player holds here (known in player mode, from `isYou`) */
  playerHolds: string[] = [];
  /** the version at which the player last picked a seat by hand */
  private chosenAt = -1;

  constructor(
    private readonly gameId: string,
    private readonly type: string,
    private readonly playerToken: string | null,
  ) {
    this.held = store.get(gameId)?.seats ?? {};
    const last = store.lastSeat(gameId);
    this.seat = last && this.held[last] ? last : (Object.keys(this.held)[0] ?? null);
  }

  /** The token the page acts and reads with now. */
  token(): string | null {
    return this.seat ? (this.held[this.seat] ?? null) : this.playerToken;
  }

  /** In player mode, the player's seats in `game`. */
  playerSeats(game: GameData | null): GameData['seats'] {
    return this.seat === null && this.playerToken && game ? game.seats.filter((x) => x.isYou) : [];
  }

  /** The seat the page acts for now. */
  current(game: GameData | null): string | null {
    return this.seat ?? (this.playerSeats(game).length ? game!.yourSeat : null);
  }

  isMine(id: string): boolean {
    return this.seat ? id === this.seat : this.playerHolds.includes(id);
  }

  /** This browser or the signed-in player holds a seat here. */
  holdsAny(): boolean {
    return Object.keys(this.held).length > 0 || this.playerHolds.length > 0;
  }

  /** A seat token this browser now holds (joined with a name, or added by hand). */
  hold(seat: string, token: string) {
    store.addSeat(this.gameId, this.type, seat, token);
    this.held = store.get(this.gameId)!.seats;
  }

  /** Joined with the player token: player mode. */
  asPlayer() {
    store.remember(this.gameId, this.type);
    this.seat = null;
  }

  /** A seat token handed over (forgotten here); the seat played stays as it is until picked. */
  drop(seat: string) {
    store.forgetSeat(this.gameId, seat);
    this.held = store.get(this.gameId)?.seats ?? {};
  }

  /** The caller left the game: the seat played is forgotten, the next one held (if any) played. */
  left() {
    if (this.seat) store.forgetSeat(this.gameId, this.seat);
    this.held = store.get(this.gameId)?.seats ?? {};
    this.seat = Object.keys(this.held)[0] ?? null;
    this.playerHolds = [];
  }

  /** The player picks a seat (null: player mode); returns whether it changed. */
  pick(seat: string | null, version: number): boolean {
    if (seat === this.seat) return false;
    this.play(seat);
    this.chosenAt = version; // follow the turn again only once the game moves on
    return true;
  }

  /** Plays this seat from now on (remembered for the next visit). */
  play(seat: string | null) {
    this.seat = seat;
    if (seat) store.setLastSeat(this.gameId, seat);
  }

  /**
   * After a read of the game: the player's seats (player mode), and the hot seat. Returns
   * true when the page switched to another seat held here (its log is then read again).
   */
  read(game: GameData): boolean {
    if (this.seat === null) this.playerHolds = game.seats.filter((x) => x.isYou).map((x) => x.id);
    // When the seat shown is not awaited and exactly one other seat held here is, play it.
    const heldAwaited = game.seats.filter((x) => this.held[x.id] && x.mustAct).map((x) => x.id);
    if (game.version > this.chosenAt && this.seat && !heldAwaited.includes(this.seat) && heldAwaited.length === 1 && Object.keys(this.held).length > 1) {
      this.play(heldAwaited[0]!);
      return true;
    }
    return false;
  }
}

/**
 * The log as this page has it: the events read on the subscription, in order, as the seat
 * played may see them (redacted per seat: read again from the start when the seat changes).
 */
export class GameLog {
  events: GameEvent[] = [];
  /** The last version received: the subscription resumes after it. */
  lastSeen = 0;
  /** How many events the log list shows (-1: draw it again). */
  drawn = -1;

  reset() {
    this.events = [];
    this.lastSeen = 0;
    this.drawn = -1;
  }

  add(e: GameEvent) {
    this.events.push(e);
    this.lastSeen = e.version;
  }

  at(version: number): GameEvent | undefined {
    return this.events.find((e) => e.version === version);
  }
}
