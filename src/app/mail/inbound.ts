/**
 * An inbound mail as the play-by-mail handler needs it (docs/api.md, "Play by mail"): who
 * sent it to which address, what it answers, whether it must be ignored (an auto-reply,
 * bulk mail, a bounce), and the lines of its own text. No I/O: the core's mail adapter
 * hands the raw message here, whichever way it arrived (SMTP or HTTP).
 */
import EmailReplyParser from 'email-reply-parser';
import { simpleParser, type AddressObject } from 'mailparser';

export interface InboundMail {
  messageId: string | null;
  /** The From address, lower case; null when there is none. */
  from: string | null;
  /** Every address it was sent to (envelope recipients, To and Cc), lower case: one of them is a reply address. */
  to: string[];
  inReplyTo: string | null;
  /** The Message-IDs of the thread, oldest first. */
  references: string[];
  subject: string;
  /** Why this mail is neither applied nor answered (an auto-reply, bulk mail, an empty return path), or null. */
  ignore: string | null;
  /** The non-empty lines of its own text (no quote, no signature), trimmed, up to a line `end`. */
  lines: string[];
}

/** What the SMTP transaction said, when the mail came that way (the envelope is not in the message). */
export interface Envelope {
  /** MAIL FROM: "" for a bounce. */
  from?: string;
  /** RCPT TO addresses. */
  to?: string[];
}

const addresses = (field: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((a) => a.value.flatMap((v) => [v.address, ...(v.group ?? []).map((g) => g.address)])).filter((a): a is string => Boolean(a)).map((a) => a.toLowerCase());

/**
 * RFC 3834: mail a program sent by itself (Auto-Submitted other than "no"), list or bulk
 * mail (Precedence), and bounces (an empty return path) get no answer, so two robots never
 * answer each other forever.
 */
function ignored(header: (name: string) => string | undefined, envelope: Envelope): string | null {
  const auto = header('auto-submitted')?.trim().toLowerCase();
  if (auto && !auto.startsWith('no')) return `Auto-Submitted: ${auto}`;
  const precedence = header('precedence')?.trim().toLowerCase();
  if (precedence && ['bulk', 'junk', 'list'].includes(precedence)) return `Precedence: ${precedence}`;
  const returnPath = envelope.from ?? header('return-path');
  if (returnPath !== undefined && returnPath.replace(/[<>\s]/g, '') === '') return 'an empty return path (a bounce)';
  return null;
}

/** The lines to read as orders: the text above the quote and the signature, up to `end`. */
export function orderLines(text: string): string[] {
  const own = new EmailReplyParser().parseReply(text.replace(/\r\n?/g, '\n'));
  const lines: string[] = [];
  for (const raw of own.split('\n')) {
    const line = raw.trim();
    if (line.toLowerCase() === 'end') break;
    // "-- " opens a signature (the reply parser misses one after the last order line in some clients).
    if (raw === '-- ' || raw === '--') break;
    // A rule (an HTML <hr> made text, Outlook's line above the quoted headers) is no order.
    if (line && !/^[-_=]{3,}$/.test(line)) lines.push(line);
  }
  return lines;
}

/** Read a raw message (RFC 5322, as received). Its HTML part is read as text when it has no text part. */
export async function readInbound(raw: Buffer | string, envelope: Envelope = {}): Promise<InboundMail> {
  const mail = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true });
  const rawHeader = (name: string) => {
    const line = mail.headerLines.find((h) => h.key === name)?.line;
    return line === undefined ? undefined : line.slice(line.indexOf(':') + 1);
  };
  const references = typeof mail.references === 'string' ? mail.references.split(/\s+/).filter(Boolean) : (mail.references ?? []);
  const ignore = ignored(rawHeader, envelope);
  return {
    messageId: mail.messageId ?? null,
    from: addresses(mail.from)[0] ?? null,
    to: [...new Set([...(envelope.to ?? []).map((a) => a.toLowerCase()), ...addresses(mail.to), ...addresses(mail.cc)])],
    inReplyTo: mail.inReplyTo ?? null,
    references,
    subject: mail.subject ?? '',
    ignore,
    // mailparser turns an HTML-only message into text (html-to-text); blockquotes become "> " lines.
    lines: ignore ? [] : orderLines(mail.text ?? ''),
  };
}
