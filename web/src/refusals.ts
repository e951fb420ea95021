/**
 * A refusal in a player's words: seats named by who plays them ("Friend (Yuan)", not
 * "yuan"), and no schema paths ("command (root): unknown command type" reads "This is not
 * a command of this game").
 */
import type { SeatInfo } from './api.ts';
import { seatTitle } from './catalogue.ts';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function refusalInWords(reason: string, seats: SeatInfo[], type: string): string {
  let text = reason
    .replace(/\b(?:command )?\(root\):? unknown command type/gi, 'this is not a command of this game')
    .replace(/\b(?:command )?\(root\):? ?/gi, '')
    // "/unit must be string", "command/space: unknown field" → the field's name alone.
    .replace(/(?:command)?\/([A-Za-z]\w*)(?:\/\d+)*:? /g, '$1 ');
  const names = new Map<string, string>();
  for (const s of seats) {
    const who = s.open ? `the open seat ${seatTitle(s.id, type)}` : `${s.name} (${seatTitle(s.id, type)})`;
    names.set(s.id.toLowerCase(), who);
    names.set(seatTitle(s.id, type).toLowerCase(), who);
  }
  if (names.size) {
    const seatWord = new RegExp(`\\b(${[...names.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|')})\\b`, 'gi');
    // Only where a seat is meant: after "for", "by", "of", "to" or at a list's comma.
    text = text.replace(new RegExp(`\\b(for|by|to|from|waits for|awaits),? ${seatWord.source}`, 'gi'), (_m, word: string, seat: string) => `${word} ${names.get(seat.toLowerCase())}`);
    text = text.replace(new RegExp(`(, )${seatWord.source}(?=[,.;]|$)`, 'gi'), (_m, sep: string, seat: string) => `${sep}${names.get(seat.toLowerCase())}`);
  }
  return text.charAt(0).toUpperCase() + text.slice(1);
}
