/** The log in words: the game's own wording for its events, or a generic line. */
import type { Command, GameEvent, View } from './api.ts';
import type { Board } from './boards/types.ts';
import { pretty } from './dom.ts';

function scalar(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v) && v.every((x) => typeof x !== 'object')) return v.join(', ');
  return null;
}

/** "Unit Moved: unit xu-chu, from C2, to D1". */
export function genericLine(e: GameEvent): string {
  const parts = Object.entries(e.data ?? {})
    .filter(([k]) => k !== 'type')
    .map(([k, v]) => [k, scalar(v)] as const)
    .filter(([, v]) => v !== null && v !== '')
    .map(([k, v]) => `${pretty(k).toLowerCase()} ${v}`);
  return `${pretty(e.type).replace(/ /g, ' ')}${parts.length ? `: ${parts.join(', ')}` : ''}`.replace(/^(\w)/, (c) => c.toUpperCase());
}

export function describeGeneric(c: Command): string {
  const rest = Object.entries(c).filter(([k]) => k !== 'type').map(([k, v]) => `${pretty(k).toLowerCase()} ${scalar(v) ?? JSON.stringify(v)}`);
  return `${pretty(c.type)}${rest.length ? ` (${rest.join(', ')})` : ''}`;
}

export function formatEvent(board: Board, e: GameEvent, view: View | undefined, seatName: (s: string) => string): string {
  const d = e.data ?? {};
  switch (e.type) {
    case 'PlayerResigned': return `${seatName(d.seat ?? e.seat)} resigned.`;
    case 'TimedOut': return `${seatName(d.seat)} ran out of time.`;
    case 'DrawOffered': return `${seatName(d.seat ?? e.seat)} offered a draw.`;
    case 'DrawAccepted': return `${seatName(d.seat ?? e.seat)} accepted the draw.`;
    case 'DrawDeclined': return `${seatName(d.seat ?? e.seat)} declined the draw.`;
    case 'DrawOfferLapsed': return 'The draw offer lapsed.';
    case 'GameEnded': return `Game over: ${Array.isArray(d.winners) && d.winners.length ? `${d.winners.map(seatName).join(', ')} won` : 'a draw'}${d.reason ? ` (${d.reason})` : ''}.`;
  }
  try {
    const line = view ? board.formatEvent(e, view, seatName) : null;
    if (line) return line;
  } catch {
    /* a shape the formatter did not expect: the generic line says it */
  }
  return genericLine(e);
}
