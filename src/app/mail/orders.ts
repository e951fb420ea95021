/**
 * A mail's lines read as one seat's orders and applied as submitCommands: in order, all or
 * none (docs/api.md, "Play by mail"). Each line is a number from the list of the mail being
 * answered (only as the first order), an order in the game's notation, or a JSON command.
 * Pure: the core stores what this returns in one append, or nothing.
 */
import { asSeat, orderOf, parseOrder, stepEach, visibleTo, type Command, type GameModule, type MatchState, type Order, type Refusal, type SteppedAll } from '../../domain/kernel/index.ts';

export type OrderLine = { kind: 'number'; number: number; line: string } | { kind: 'json'; command: unknown; line: string } | { kind: 'notation'; line: string };

export type ReadLines = { ok: true; orders: OrderLine[] } | { ok: false; index: number; line: string; reason: string };

/** What each line is, before any of it is applied. */
export function readOrderLines(lines: readonly string[]): ReadLines {
  const orders: OrderLine[] = [];
  if (lines.length === 0) return { ok: false, index: 0, line: '', reason: 'The mail has no orders: write one order a line above the quoted message' };
  for (const [index, line] of lines.entries()) {
    const number = /^(\d+)\.?$/.exec(line);
    if (number) {
      // The list is that of the mail answered: after another order it would name a stale position.
      if (index > 0) return { ok: false, index, line, reason: 'A number from the list is only read as the first order; write the order itself' };
      orders.push({ kind: 'number', number: Number(number[1]), line });
    } else if (line.startsWith('{')) {
      let command: unknown;
      try {
        command = JSON.parse(line);
      } catch {
        return { ok: false, index, line, reason: 'This line begins like a JSON command but is not valid JSON' };
      }
      orders.push({ kind: 'json', command, line });
    } else orders.push({ kind: 'notation', line });
  }
  return { ok: true, orders };
}

/** The command's schema check, as the registry does it for this game type. */
export type Validate = (command: unknown) => { ok: true; value: Command } | { ok: false; reason: string };

export type Applied<S> = SteppedAll<S> & { orders: Order[] };
export type NotApplied = Refusal & { index: number; line: string };

/**
 * Apply the mail's orders for `seat`: each read on the position the previous ones left,
 * in words from that seat's view at the time (for the answer). `listed` is the numbered
 * list the mail answers (1 is its first order).
 */
export function applyOrders<S>(
  module: GameModule<S>,
  state: MatchState<S>,
  seat: string,
  lines: readonly string[],
  listed: readonly Order[],
  validate: Validate,
  opts: { seed: string },
): Applied<S> | NotApplied {
  const read = readOrderLines(lines);
  if (!read.ok) return { ok: false, code: 'BAD_REQUEST', reason: read.reason, index: read.index, line: read.line };
  const words: Order[] = [];
  const commandOf = (order: OrderLine, current: MatchState<S>): { ok: true; command: Command } | Refusal => {
    switch (order.kind) {
      case 'number': {
        const o = listed[order.number - 1];
        if (!o) return { ok: false, code: 'BAD_REQUEST', reason: listed.length ? `There is no order ${order.number}: the list goes from 1 to ${listed.length}` : 'There is no numbered list to choose from' };
        return { ok: true, command: o.command };
      }
      case 'json':
        return { ok: true, command: order.command as Command };
      case 'notation':
        return parseOrder(module, current, seat, order.line);
    }
  };
  const outcome = stepEach(
    module,
    state,
    read.orders,
    (order, current) => {
      const r = commandOf(order, current);
      if (!r.ok) return r;
      const valid = validate(r.command);
      if (!valid.ok) return { ok: false, code: 'BAD_REQUEST', reason: valid.reason };
      words.push(orderOf(module, visibleTo(module, current, seat).view(), seat, valid.value));
      return { ok: true, command: valid.value };
    },
    asSeat(seat),
    opts,
  );
  if (!outcome.ok) return { ...outcome, line: read.orders[outcome.index]!.line };
  return { ...outcome, orders: words };
}
