/**
 * The page's actions for the seat it plays: the main ones in the turn bar (a choice between
 * commands, the selected piece, "not your turn", the general commands such as End movement)
 * and the others beside the board (the inspected place, resign and draws, every legal command
 * as a plain list, a command as JSON). It draws; the game page acts.
 */
import type { Command, GameData, View } from './api.ts';
import type { Board, BoardContext } from './boards/types.ts';
import { h } from './dom.ts';
import { describeGeneric } from './log.ts';
import type { Picking } from './picking.ts';

/** The commands every game has, shown apart from the board's. */
export const MATCH = new Set(['resign', 'offerDraw', 'acceptDraw', 'declineDraw']);
const MATCH_LABELS: Record<string, string> = { resign: 'Resign', offerDraw: 'Offer a draw', acceptDraw: 'Accept the draw', declineDraw: 'Decline the draw' };

/** A command in words: the board's, else the generic. */
export function describeCommand(board: Board, c: Command, view: View): string {
  if (MATCH.has(c.type)) return MATCH_LABELS[c.type]!;
  try {
    return board.describe(c, view);
  } catch {
    return describeGeneric(c);
  }
}

export interface ActionsPanel {
  game: GameData;
  board: Board;
  picking: Picking;
  ctx: BoardContext;
  /** The commands the board offers (none while busy or replaying). */
  boardCommands: Command[];
  replaying: boolean;
  /** The seat the page acts for now; null: it plays none here. */
  seat: string | null;
  confirmResign: boolean;
  setConfirmResign(v: boolean): void;
  commandsOpen: boolean;
  toggleCommands(e: Event): void;
  seatName(id: string): string;
  describe(c: Command): string;
  button(label: string, onclick: () => void, attrs?: Record<string, string>): HTMLButtonElement;
  run(c: Command): void;
  refused(text: string): void;
  redraw(): void;
}

/** main: the turn bar's part; side: beside the board. */
export function actionsPanel(o: ActionsPanel): { main: Node[]; side: Node[] } {
  const main: Node[] = [];
  const side: Node[] = [];
  if (o.replaying) {
    main.push(h('p', { class: 'muted' }, 'Replaying an earlier version: go back to the live game to act.'));
    return { main, side };
  }
  if (!o.seat) return { main, side };
  const all = o.game.legalCommands;
  if (all.length === 0) {
    main.push(h('p', { class: 'muted' }, o.game.status === 'FINISHED' ? 'The game is over.' : 'Nothing for you to do now.'));
    return { main, side };
  }
  const view = o.game.view;
  const boardCmds = o.boardCommands;
  if (o.picking.choice) {
    main.push(h('div', { class: 'choice' }, h('p', {}, 'Which one?'), ...o.picking.choice.map((c) => o.button(o.describe(c), () => o.run(c))), o.button('Cancel', () => ((o.picking.choice = null), o.redraw()))));
  }
  if (o.picking.selection) {
    const own = boardCmds.filter((c) => o.board.pieceOf(c, view) === o.picking.selection && o.board.placeOf(c, view) === null);
    main.push(h('div', { class: 'selected' },
      h('p', {}, 'Selected: ', h('strong', {}, o.board.pieceLabel(view, o.picking.selection)), o.ctx.destinations.size ? ' — choose a highlighted place on the board.' : ''),
      ...own.map((c) => o.button(o.describe(c), () => o.run(c))),
      o.button('Cancel selection', () => ((o.picking.selection = null), o.redraw())),
    ));
  } else if (o.picking.inspected) {
    const here = o.board.piecesAt(view, o.picking.inspected);
    const placeOnly = boardCmds.filter((c) => o.board.pieceOf(c, view) === null && o.board.placeOf(c, view) === o.picking.inspected);
    side.push(h('div', { class: 'inspect' },
      h('p', {}, h('strong', {}, o.board.placeLabel(view, o.picking.inspected))),
      here.length ? h('ul', {}, here.map((p) => h('li', {}, o.ctx.selectable.has(p.key) ? o.button(p.label, () => ((o.picking.selection = p.key), o.redraw())) : p.label))) : h('p', { class: 'muted' }, 'Empty.'),
      ...placeOnly.map((c) => o.button(o.describe(c), () => o.run(c))),
    ));
  }
  const mustAct = o.game.seats.find((x) => x.id === o.seat)?.mustAct;
  if (!mustAct && o.game.status !== 'FINISHED') {
    const waiting = [...new Set(o.game.awaiting.map((p) => p.seat))].map(o.seatName).join(', ');
    main.push(h('p', { class: 'muted' }, `Not your turn${waiting ? `: waiting for ${waiting}` : ''}. Their moves appear here as they happen.`));
  }
  const general = boardCmds.filter((c) => o.board.pieceOf(c, view) === null && o.board.placeOf(c, view) === null);
  if (general.length) main.push(h('div', { class: 'general' }, ...general.map((c) => o.button(o.describe(c), () => o.run(c), { class: 'primary' }))));
  if (o.ctx.selectable.size && !o.picking.selection) main.push(h('p', { class: 'hint muted' }, 'Pick a highlighted piece on the board, then where it goes.'));

  const match = all.filter((c) => MATCH.has(c.type));
  if (match.length) {
    side.push(h('div', { class: 'match' }, ...match.map((c) =>
      c.type === 'resign'
        ? o.confirmResign
          ? h('span', {}, o.button('Really resign?', () => o.run(c), { class: 'danger' }), o.button('Keep playing', () => (o.setConfirmResign(false), o.redraw())))
          : o.button('Resign', () => (o.setConfirmResign(true), o.redraw()))
        : o.button(o.describe(c), () => o.run(c)),
    )));
  }
  // Every legal command as a plain list: the fallback for anything the board does not draw.
  const details = h('details', { class: 'all-commands', open: o.commandsOpen, ontoggle: o.toggleCommands },
    h('summary', {}, `Every legal command (${all.length})`),
    h('ul', {}, all.map((c) => h('li', {}, o.button(o.describe(c), () => o.run(c)), ' ', h('code', {}, JSON.stringify(c))))),
    rawCommandForm(o),
  );
  side.push(details);
  return { main, side };
}

function rawCommandForm(o: ActionsPanel) {
  const area = h('textarea', { rows: 2, 'aria-label': 'A command as JSON', placeholder: '{"type": "…"}' });
  return h('form', { class: 'raw', onsubmit: (e: Event) => {
    e.preventDefault();
    let c: Command;
    try {
      c = JSON.parse(area.value);
    } catch {
      return o.refused('That is not JSON.');
    }
    o.run(c);
  } }, h('label', {}, 'Send a command as JSON (for client authors)'), area, h('button', { type: 'submit' }, 'Send'));
}
