/**
 * Play by mail, the pure part (docs/api.md, "Play by mail"): reading an inbound message,
 * its lines as orders, and the text of the mails sent. The core's mail adapter does the
 * I/O (listening, the reply-address tokens, sending) and calls these.
 */
export * from './inbound.ts';
export * from './orders.ts';
export * from './render.ts';
