/** What the game page needs from each game's drawing: the board, and how its commands map onto it. */
import type { Command, GameData, GameEvent, View } from '../api.ts';

export interface BoardContext<V = View> {
  game: GameData;
  view: V;
  /** The caller's commands that the board may offer (none in a replay). */
  commands: Command[];
  selection: string | null;
  inspected: string | null;
  /** Places the selected piece may go to, or where a command without a piece acts. */
  destinations: Set<string>;
  /** Pieces with at least one command. */
  selectable: Set<string>;
  clickPlace(place: string): void;
  clickPiece(piece: string, place: string | null): void;
}

export interface Piece { key: string; label: string }

/** V: the game's view type, generated from the schema (web/src/generated/schema.ts). */
export interface Board<V = View> {
  /** The thing a command acts with (a unit, a stack, a unit still to place), as a key the board draws. */
  pieceOf(cmd: Command, view: V): string | null;
  /** Where a command acts (a space, a square, a hex, a spread), as a key the board draws. */
  placeOf(cmd: Command, view: V): string | null;
  render(ctx: BoardContext<V>): Element;
  pieceLabel(view: V, key: string): string;
  placeLabel(view: V, key: string): string;
  /** What stands at a place, for the inspector beside the board. */
  piecesAt(view: V, place: string): Piece[];
  /** A command in words, e.g. "Move Xu Chu to D1". */
  describe(cmd: Command, view: V): string;
  /** One event in words (null: the generic wording). */
  formatEvent(e: GameEvent, view: V, seatName: (s: string) => string): string | null;
  /** A few lines under the board: treasury, Capacity, combat in progress… */
  summary?(view: V, game: GameData): (string | Node)[];
}
