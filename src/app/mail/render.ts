/**
 * The text of the mails a player gets about a game: your turn (the position in words, what
 * the game waits for, the numbered orders) and the answer to their orders. Everything is
 * drawn from the seat's own view and status, never the state, so a seat's mail can say
 * nothing hidden from it (Warchon's hidden units and numbers).
 */
import { legalOrders, matchStatus, seatName, visibleTo, type GameModule, type MatchState, type Order } from '../../domain/kernel/index.ts';

/** What one seat may know of a game, ready to write down. */
export interface SeatPicture {
  game: string;
  seat: string;
  /** The position in a few lines. */
  position: string[];
  /** What the game waits for, in sentences ("You: ...", "Cao: waiting for them"). */
  waiting: string[];
  /** The orders the seat may give now, numbered from 1 in the mail; empty when it is not their turn. */
  orders: Order[];
  yourTurn: boolean;
  /** Set once the game is over. */
  result: string | null;
}

export function seatPicture<S>(module: GameModule<S>, state: MatchState<S>, seat: string): SeatPicture {
  const view = visibleTo(module, state, seat).view();
  const status = matchStatus(module, state);
  const mine = status.awaiting.filter((p) => p.seat === seat);
  const others = [...new Set(status.awaiting.filter((p) => p.seat !== seat).map((p) => p.seat))];
  const waiting = [...mine.map((p) => `You: ${p.prompt}`), ...others.map((s) => `${seatName(module, s)}, to play`)];
  const result = status.result ? (status.result.winners.length ? `${status.result.winners.map((w) => seatName(module, w)).join(', ')} won: ${status.result.reason}` : `Draw: ${status.result.reason}`) : null;
  return {
    game: module.name,
    seat: seatName(module, seat),
    position: module.notation?.describe(view, seat) ?? [],
    waiting,
    // Resign and draw orders are always open; the list is for the seat whose turn it is.
    orders: mine.length ? legalOrders(module, state, seat) : [],
    yourTurn: mine.length > 0,
    result,
  };
}

const HOW_TO_ANSWER = [
  'Answer this mail with your orders, one a line, above the quoted text:',
  'the number of an order in this list (only as your first order), an order as written here,',
  'or a command as JSON. A line "end" stops the reading. The orders are applied in order, all or none.',
];

function waitsFor(p: SeatPicture): string[] {
  if (p.result) return ['The game is over.', p.result];
  return ['The game waits for:', ...p.waiting.map((w) => `  ${w}`)];
}

function numbered(orders: Order[]): string[] {
  const width = String(orders.length).length;
  return orders.map((o, i) => `${String(i + 1).padStart(width)}. ${o.notation}  (${o.text})`);
}

/** The orders, if it is the seat's turn, and how to answer. */
function ordersPart(p: SeatPicture): string[] {
  if (p.result) return [];
  if (!p.yourTurn) return ['It is not your turn: you will get a mail when it is. You may still resign or offer a draw by answering.'];
  return ['Your orders:', ...numbered(p.orders), '', ...HOW_TO_ANSWER];
}

/** The body of a your-turn mail. */
export function yourTurnText(p: SeatPicture): string {
  return [`${p.game}: you play ${p.seat}.`, '', ...p.position, '', ...waitsFor(p), '', ...ordersPart(p)].join('\n').trimEnd() + '\n';
}

export type AnswerOutcome = { applied: Order[] } | { refused: { line: string; index: number; reason: string } };

/** The body of the answer to a mail of orders: what was applied, or what was refused and why. */
export function answerText(p: SeatPicture, outcome: AnswerOutcome): string {
  const head =
    'applied' in outcome
      ? [`Applied, in order:`, ...outcome.applied.map((o) => `  ${o.text} (${o.notation})`)]
      : [`Refused: order ${outcome.refused.index + 1}, "${outcome.refused.line}": ${outcome.refused.reason}`, 'Nothing was applied.'];
  return [`${p.game}, ${p.seat}.`, '', ...head, '', ...p.position, '', ...waitsFor(p), '', ...ordersPart(p)].join('\n').trimEnd() + '\n';
}

/** An answer that applies nothing for a reason outside the game's rules (a finished game, a seat no longer held). */
export function noticeText(game: string, reason: string): string {
  return `${game}.\n\n${reason}\nNothing was applied.\n`;
}
