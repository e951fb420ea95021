/**
 * Orders in words: a seat's legal commands as lines of a game's mail notation, and a line
 * read back into a command (docs/api.md, "Orders in words"). Case and extra spaces are
 * forgiven; a line that could mean two things is refused.
 */
import { matchLegalCommands, type MatchCommand, type MatchState } from './match.ts';
import { visibleTo } from './turn.ts';
import type { Command, GameModule, Json, Refusal } from './types.ts';

/** One thing a seat may do now, three ways: the line to type, a sentence, the command. */
export interface Order {
  notation: string;
  text: string;
  command: Command;
}

export type ReadOrder = { ok: true; command: Command } | Refusal;

/** The match's own commands, the same in every game. */
const MATCH_ORDERS: Record<MatchCommand['type'], { line: string; text: string }> = {
  resign: { line: 'resign', text: 'Resign the game' },
  offerDraw: { line: 'offer draw', text: 'Offer a draw' },
  acceptDraw: { line: 'accept draw', text: 'Accept the draw' },
  declineDraw: { line: 'decline draw', text: 'Decline the draw' },
};

/** Lower case, single spaces, no spaces at either end: how lines are compared. */
export function normalizeLine(line: string): string {
  return line.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** A command as one order, in words from `view` (the seat's own). */
export function orderOf(module: GameModule, view: Json, seat: string, command: Command): Order {
  const match = MATCH_ORDERS[command.type as MatchCommand['type']];
  if (match) return { notation: match.line, text: match.text, command };
  if (!module.notation) return { notation: JSON.stringify(command), text: JSON.stringify(command), command };
  return { notation: module.notation.format(command, view, seat), text: module.notation.text(command, view, seat), command };
}

/** Every order `seat` may give now (legalCommands, match commands included), in the game's notation. */
export function legalOrders<S>(module: GameModule<S>, state: MatchState<S>, seat: string): Order[] {
  const view = visibleTo(module, state, seat).view();
  return matchLegalCommands(module, state, seat).map((c) => orderOf(module, view, seat, c));
}

const badRequest = (reason: string): Refusal => ({ ok: false, code: 'BAD_REQUEST', reason });

/**
 * Read one line of notation as `seat`'s command in this position. A legal order is matched
 * by its line; any other line is read by the game's notation, so that a command that is
 * not legal now still reaches the rules and is refused with their reason. A line that is
 * no order of this game is refused BAD_REQUEST with why.
 */
export function parseOrder<S>(module: GameModule<S>, state: MatchState<S>, seat: string, line: string): ReadOrder {
  const wanted = normalizeLine(line);
  if (!wanted) return badRequest('An empty line is not an order');
  const orders = legalOrders(module, state, seat);
  const matches = orders.filter((o) => normalizeLine(o.notation) === wanted);
  if (matches.length === 1) return { ok: true, command: matches[0]!.command };
  if (matches.length > 1) return badRequest(`"${line.trim()}" is ambiguous: it could mean ${matches.map((o) => o.text).join(' or ')}`);
  const match = Object.entries(MATCH_ORDERS).find(([, o]) => o.line === wanted);
  if (match) return { ok: true, command: { type: match[0] } };
  if (!module.notation) return badRequest(`"${line.trim()}" is not an order of ${module.name}: send the command as JSON`);
  const read = module.notation.parse(wanted.split(' '), visibleTo(module, state, seat).view(), seat);
  if (typeof read === 'string') return badRequest(`"${line.trim()}" is not an order of ${module.name}: ${read}`);
  return { ok: true, command: read };
}

/** One verb of a game's notation: the words that follow it, and how to read them. */
export interface Verb<V, C> {
  /** What follows the verb, for help and to count the words: ["unit", "space"]; a last name ending in "..." takes any number. */
  args: string[];
  read(args: string[], view: V, seat: string): C | string;
}

/**
 * A game's notation read as a table of verbs ("move", "end movement"), each reading the
 * words after it. The longest verb that begins the line wins; an unknown verb is refused
 * with every form this game knows.
 */
export function verbs<V, C>(table: Record<string, Verb<V, C>>) {
  const known = Object.keys(table).sort((a, b) => b.length - a.length);
  const form = (v: string) => [v, ...table[v]!.args.map((a) => `<${a}>`)].join(' ');
  return (words: string[], view: Json, seat: string): C | string => {
    const line = words.join(' ');
    const verb = known.find((v) => line === v || line.startsWith(`${v} `));
    if (verb === undefined) return `the orders are ${[...Object.keys(table).map(form), ...Object.values(MATCH_ORDERS).map((o) => o.line)].join(', ')}`;
    const args = words.slice(verb.split(' ').length);
    const names = table[verb]!.args;
    const open = names.at(-1)?.endsWith('...') ?? false;
    if (open ? args.length < names.length - 1 : args.length !== names.length) return `write it as ${form(verb)}`;
    return table[verb]!.read(args, view as V, seat);
  };
}

/**
 * The one id among `ids` that `word` names, whatever its case; a string says why none
 * does, or that two ids differ only by case (the line would be ambiguous).
 */
export function pickId(word: string, ids: Iterable<string>, what: string): { id: string } | { refused: string } {
  const found = [...new Set(ids)].filter((id) => id.toLowerCase() === word.toLowerCase());
  if (found.length === 1) return { id: found[0]! };
  if (found.length > 1) return { refused: `"${word}" is ambiguous: ${found.join(' or ')}` };
  return { refused: `there is no ${what} "${word}"` };
}

/** Where a game finds the ids a word of some kind may name (in the seat's view), and what to call them in a refusal. */
export type IdLookup<V> = (view: V, kind: string, seat: string) => { ids: Iterable<string>; what: string };

/** Each word read as an id of its kind (kinds repeat for longer lists), or the first refusal. */
export function readIds<V>(lookup: IdLookup<V>, view: V, seat: string, words: string[], kinds: string[]): string[] | string {
  const out: string[] = [];
  for (const [i, word] of words.entries()) {
    const { ids, what } = lookup(view, kinds[i % kinds.length]!, seat);
    const r = pickId(word, ids, what);
    if ('refused' in r) return r.refused;
    out.push(r.id);
  }
  return out;
}

/**
 * Verbs whose words are ids: `args` names them for help, "from:space" shows as <from> and
 * is read as a space; `make` builds the command from the ids found.
 */
export function idVerbs<V>(lookup: IdLookup<V>) {
  return <C>(args: string[], make: (ids: string[], view: V, seat: string) => C | string): Verb<V, C> => {
    const kinds = args.map((a) => a.split(':').at(-1)!);
    return {
      args: args.map((a) => a.split(':')[0]!),
      read: (words, view, seat) => {
        const r = readIds(lookup, view, seat, words, kinds);
        return typeof r === 'string' ? r : make(r, view, seat);
      },
    };
  };
}

/** A verb with nothing after it: "end movement". */
export function plainVerb<C>(command: C): Verb<unknown, C> {
  return { args: [], read: () => command };
}
