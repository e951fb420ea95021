/** Reading inbound mail: real raw messages as mail clients and servers write them. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readInbound } from '../../../src/app/mail/index.ts';

const sample = (name: string) => readFileSync(new URL(`./samples/${name}`, import.meta.url));

describe('readInbound', () => {
  it('reads a Gmail reply: the orders above the quoted message, the thread, the addresses', async () => {
    const mail = await readInbound(sample('gmail-quoted-reply.eml'));
    expect(mail).toEqual({
      messageId: '<CAF=x8a1Qm4@mail.gmail.com>',
      from: 'liu.bei@example.net',
      to: ['play+3f9c2a@games.example.org'],
      inReplyTo: '<turn-17.raid-1@games.example.org>',
      references: ['<turn-17.raid-1@games.example.org>'],
      subject: 'Re: Raid on Wuchao: your turn (Cao movement)',
      ignore: null,
      lines: ['move xu-chu A1 B1', 'move xu-chu B1 C1', 'end movement'],
    });
  });

  it('drops the signature ("-- ", "Sent from my iPhone"), decodes quoted-printable, reads Cc and the whole thread', async () => {
    const mail = await readInbound(sample('signature.eml'));
    expect(mail.lines).toEqual(['2', 'accept roll']);
    expect(mail.to).toEqual(['play+77aa01@games.example.org', 'xun.yu@example.com']);
    expect(mail.references).toEqual(['<turn-1.raid-1@games.example.org>', '<turn-3.raid-1@games.example.org>']);
  });

  it('reads an HTML-only reply (Outlook) as text, without the quoted message', async () => {
    const mail = await readInbound(sample('outlook-html-only.eml'));
    expect(mail.ignore).toBeNull();
    expect(mail.lines).toEqual(['place chunyu-qiong H1', 'place sui-yuanjin H2']);
  });

  it.each([
    ['outlook-plain-reply.eml', ['reroll']],
    ['french-client-reply.eml', ['2']],
  ])('drops the quoted message of %s (Outlook’s headers block, a French "a écrit :")', async (name, lines) => {
    expect((await readInbound(sample(name))).lines).toEqual(lines);
  });

  it('stops at a line "end"; keeps a JSON line; forgives nothing else itself (the notation does)', async () => {
    const mail = await readInbound(sample('end-line.eml'));
    expect(mail.ignore).toBeNull();
    expect(mail.lines).toEqual(['Move   Xu-Chu A1 B1', '{"type":"endMovement"}']);
  });

  it.each([
    ['vacation-auto-reply.eml', 'Auto-Submitted: auto-replied'],
    ['bulk.eml', 'Precedence: bulk'],
    ['bounce.eml', 'an empty return path (a bounce)'],
  ])('ignores %s: no order is read from it', async (name, why) => {
    const mail = await readInbound(sample(name));
    expect(mail.ignore).toBe(why);
    expect(mail.lines).toEqual([]);
    expect(mail.messageId).toMatch(/^<.+>$/);
  });

  it('takes the SMTP envelope over the headers: an empty MAIL FROM is a bounce, RCPT TO is an address it was sent to', async () => {
    const mail = await readInbound(sample('signature.eml'), { from: '', to: ['Play+77AA01@games.example.org', 'bcc+1@games.example.org'] });
    expect(mail.ignore).toBe('an empty return path (a bounce)');
    expect(mail.to).toEqual(['play+77aa01@games.example.org', 'bcc+1@games.example.org', 'xun.yu@example.com']);
    const sent = await readInbound(sample('signature.eml'), { from: 'cao.cao@example.com' });
    expect(sent.ignore).toBeNull();
  });

  it('reads a message without Message-ID or From as such, rather than failing', async () => {
    const mail = await readInbound('Subject: hi\r\n\r\nresign\r\n');
    expect(mail).toMatchObject({ messageId: null, from: null, to: [], inReplyTo: null, references: [], lines: ['resign'] });
  });
});
