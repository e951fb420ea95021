/**
 * The orders of submitCommand(notation) and submitCommands as the core takes them: a JSON
 * command or a line of notation each (docs/api.md, "Orders in words"). Shared by GraphQL
 * and REST, so both refuse the same malformed input in the same words.
 */
import { AppError } from '../app/errors.ts';
import type { OrderInput } from '../app/commands.ts';

/** submitCommand: a command or a notation, not both, not neither. */
export function oneOrder(command: unknown, notation: string | null | undefined): { command: unknown } | { notation: string } {
  const hasCommand = command !== undefined && command !== null;
  const hasNotation = notation !== undefined && notation !== null;
  if (hasCommand === hasNotation) throw new AppError('BAD_REQUEST', 'Give either command (JSON) or notation (one line of the game\'s notation)');
  return hasNotation ? { notation: notation as string } : { command };
}

/** submitCommands: commands or notations, one of them, not empty. */
export function ordersOf(commands: unknown[] | null | undefined, notations: string[] | null | undefined): OrderInput[] {
  const hasCommands = Array.isArray(commands);
  const hasNotations = Array.isArray(notations);
  if (hasCommands === hasNotations) throw new AppError('BAD_REQUEST', 'Give either commands (JSON) or notations (lines of the game\'s notation)');
  const list = hasNotations ? notations!.map((notation) => ({ notation })) : commands!.map((command) => ({ command }));
  if (list.length === 0) throw new AppError('BAD_REQUEST', 'Give at least one command');
  return list;
}
