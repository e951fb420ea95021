/**
 * The mails of notifications, rendered when their delivery is written: what a player is
 * told, in plain text and HTML, with the link to the game and the one to unsubscribe. Like
 * a webhook body they carry nothing anyone may not see of the game.
 */
import type { GameRecord } from './ports.ts';

/** A mail, rendered when its delivery is written. */
export interface MailBody {
  subject: string;
  text: string;
  html: string;
  /** Play by mail: the seat's reply address. */
  replyTo?: string;
  /** Play by mail: ours, naming the game, seat and version its numbered orders are of. */
  messageId?: string;
  /** The unsubscribe link it was written with: the player's link when it is sent takes its place (Notifications.mailOf). */
  unsubscribe?: string;
}

/** The links a mail carries. */
export interface MailLinks {
  game: string;
  unsubscribe: string;
}

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** "Raid on Wuchao: Cao vs Yuan". */
export function gameName(typeName: string, game: GameRecord): string {
  return `${typeName}: ${game.players.map((p) => p.name || 'open seat').join(' vs ')}`;
}

function mail(links: MailLinks, subject: string, lines: string[]): MailBody {
  const { game: link, unsubscribe } = links;
  const text = `${lines.join('\n')}\n\nOpen the game: ${link}\n\n--\nYou get this mail because you asked for mail about your games. Stop it: ${unsubscribe}\n`;
  const html = `<!doctype html><html><body>${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}<p><a href="${escapeHtml(link)}">Open the game</a></p><hr><p style="font-size:small">You get this mail because you asked for mail about your games. <a href="${escapeHtml(unsubscribe)}">Unsubscribe</a></p></body></html>`;
  return { subject, text, html, unsubscribe };
}

export function yourTurnMail(links: MailLinks, name: string, seat: string, prompts: string[]): MailBody {
  return mail(links, `Your turn: ${name}`, [
    `It is your turn (${seat}) in ${name}.`,
    prompts.length ? `The game waits for you to: ${prompts.join('; ')}` : 'The game waits for your decision.',
  ]);
}

export function gameOverMail(links: MailLinks, name: string, game: GameRecord, seats: string[]): MailBody {
  const result = game.result;
  const winners = result?.winners ?? [];
  const named = (seat: string) => {
    const holder = game.players.find((p) => p.seat === seat)?.name;
    return holder && holder !== seat ? `${seat} (${holder})` : seat;
  };
  const outcome = winners.length === 0 ? 'It ended without a winner' : seats.some((s) => winners.includes(s)) ? `You won (winners: ${winners.map(named).join(', ')})` : `Won by ${winners.map(named).join(', ')}`;
  return mail(links, `Game over: ${name}`, [
    `${name} is over.`,
    `${outcome}.`,
    `Why it ended: ${result?.reason ?? 'the game ended'}.`,
    'It waits for nothing more: the log, replay and export are open.',
  ]);
}

export function deadlineMail(links: MailLinks, name: string, seat: string, prompts: string[], deadline: Date): MailBody {
  return mail(links, `Deadline near: ${name}`, [
    `Your time to play ${seat} in ${name} runs out at ${deadline.toISOString().replace('T', ' ').slice(0, 16)} UTC.`,
    prompts.length ? `The game waits for you to: ${prompts.join('; ')}` : 'The game waits for your decision.',
    'If the time runs out, the game goes on without you (a timeout).',
  ]);
}

/** A seat ran out of time with `onTimeout: BOT`: the random bot plays it from now on. */
export function handedToBotMail(links: MailLinks, name: string, seat: string, yours: boolean): MailBody {
  return mail(links, `${yours ? 'Your seat was handed to the bot' : `${seat} was handed to the bot`}: ${name}`, [
    yours
      ? `Your time to play ${seat} in ${name} ran out, so the service's random bot plays ${seat} for the rest of the game.`
      : `${seat} ran out of time in ${name}, so the service's random bot plays it for the rest of the game.`,
    'The game goes on.',
  ]);
}

/** A message between players, to one of its recipients (the text as written: escaped in the HTML, never markup). */
export function messageMail(links: MailLinks, name: string, message: { from: string; to: string[] | null; text: string }): MailBody {
  const to = message.to ? `to ${message.to.join(', ')} only` : 'to everyone in the game';
  return mail(links, `Message from ${message.from}: ${name}`, [`${message.from} wrote ${to} in ${name}:`, ...message.text.split(/\r?\n/)]);
}
