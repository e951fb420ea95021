/**
 * What the player has picked on the board and what a click then means, without the DOM:
 * a piece selected, a place inspected, or a choice between several commands one click
 * could mean. Each click returns the command to send, or null when only the picking changed.
 */
import type { Command, View } from './api.ts';
import type { Board } from './boards/types.ts';

export class Picking {
  selection: string | null = null;
  inspected: string | null = null;
  /** Several commands for one click: the player picks one. */
  choice: Command[] | null = null;

  constructor(private readonly board: Board) {}

  reset() {
    this.selection = null;
    this.inspected = null;
    this.choice = null;
  }

  /** Pieces with at least one command; places the selected piece (or no piece) acts on. */
  targets(commands: Command[], view: View) {
    const destinations = new Set<string>();
    const selectable = new Set<string>();
    for (const c of commands) {
      const piece = this.board.pieceOf(c, view);
      const place = this.board.placeOf(c, view);
      if (piece) selectable.add(piece);
      if (place && (this.selection ? piece === this.selection : piece === null)) destinations.add(place);
    }
    return { destinations, selectable };
  }

  matching(commands: Command[], view: View, piece: string | null, place: string | null): Command[] {
    return commands.filter((c) => this.board.pieceOf(c, view) === piece && this.board.placeOf(c, view) === place);
  }

  clickPlace(commands: Command[], view: View, place: string): Command | null {
    this.choice = null;
    if (this.selection) {
      const cmds = this.matching(commands, view, this.selection, place);
      if (cmds.length === 1) return cmds[0]!;
      if (cmds.length > 1) {
        this.choice = cmds;
        return null;
      }
    }
    const placeOnly = this.matching(commands, view, null, place);
    const { selectable } = this.targets(commands, view);
    const pieces = this.board.piecesAt(view, place).filter((p) => selectable.has(p.key));
    if (placeOnly.length === 1 && pieces.length === 0) return placeOnly[0]!;
    if (placeOnly.length > 1) this.choice = placeOnly;
    this.selection = null;
    this.inspected = place;
    return null;
  }

  clickPiece(commands: Command[], view: View, piece: string, place: string | null): Command | null {
    this.choice = null;
    if (this.selection && this.selection !== piece && place && this.matching(commands, view, this.selection, place).length) return this.clickPlace(commands, view, place);
    this.selection = this.targets(commands, view).selectable.has(piece) && this.selection !== piece ? piece : null;
    this.inspected = place;
    return null;
  }
}
