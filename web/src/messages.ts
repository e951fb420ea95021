/**
 * The messages panel of the game page (docs/api.md, "Messages between players"): what the
 * seat shown may read (the public messages, and the private ones sent by or to it), live
 * from the gameMessages subscription, and a form to write to everyone or to one seat.
 * A message is text and only text: it is put in the page with textContent, never as markup.
 */
import { ApiError, gql, wsClient } from './api.ts';
import { h } from './dom.ts';

export interface MessageItem {
  id: string;
  from: string;
  to: string[] | null;
  text: string;
  at: string;
}

const FIELDS = 'id from to text at';
const PAGE = 100;
/** The service's limit (docs/api.md): longer ones are refused with BAD_REQUEST. */
export const MAX_MESSAGE = 2000;

export interface MessagesPanel {
  el: HTMLElement;
  /** The seats (id and how to name it) and the one writing now (null: watching, or not known yet). */
  draw(seats: { id: string; name: string }[], writer: string | null): void;
  /** Read again as another token (the seat shown changed). */
  follow(token: string | null): void;
  dispose(): void;
}

export function messagesPanel(gameId: string, seatName: (id: string) => string): MessagesPanel {
  const list = h('ol', { class: 'messages', 'aria-label': 'Messages', tabindex: 0 });
  const text = h('textarea', { name: 'message', rows: 2, maxlength: MAX_MESSAGE, 'aria-label': 'Message', placeholder: 'Write to the other players' });
  const to = h('select', { name: 'to', 'aria-label': 'To' });
  const send = h('button', { type: 'submit' }, 'Send message');
  const note = h('p', { class: 'messages-note', 'aria-live': 'polite' });
  // Hidden until draw() knows who writes: a spectator never sees a form flash up.
  const form = h('form', { class: 'message-form', hidden: true, onsubmit: (e: Event) => (e.preventDefault(), void submit()) }, text, h('div', { class: 'message-send' }, h('label', {}, 'To ', to), send));
  const el = h('section', { class: 'messages-panel', 'aria-label': 'Messages between players' }, h('h2', {}, 'Messages'), list, form, note);

  let token: string | null = null;
  let writer: string | null = null;
  let seatsSig = '';
  const shown = new Map<string, MessageItem>();
  let stop: (() => void) | null = null;
  let generation = 0;

  function line(m: MessageItem): HTMLElement {
    const body = h('p', { class: 'message-text' });
    // Plain text, whatever it holds: "<b>x</b>" shows as those characters.
    body.textContent = m.text;
    const who = m.from === writer ? 'You' : seatName(m.from);
    const whom = m.to === null ? 'to everyone' : `to ${m.to.map((s) => (s === writer ? 'you' : seatName(s))).join(', ')} only`;
    const head = h('div', { class: 'message-head' }, h('strong', {}), ` ${whom} · `, h('time', { datetime: m.at }, new Date(m.at).toLocaleString()));
    (head.firstChild as HTMLElement).textContent = who;
    return h('li', { class: m.to === null ? 'message public' : 'message private', 'data-id': m.id }, head, body);
  }

  function render() {
    list.replaceChildren(...[...shown.values()].map(line));
    if (shown.size === 0) list.append(h('li', { class: 'muted' }, 'No messages yet.'));
    list.scrollTop = list.scrollHeight;
  }

  function add(ms: MessageItem[]) {
    let changed = false;
    for (const m of ms) if (!shown.has(m.id)) (shown.set(m.id, m), (changed = true));
    if (changed) render();
  }

  /** Every message readable now, a page at a time (after the last one shown). */
  async function catchUp(g: number) {
    let after = [...shown.keys()].pop() ?? null;
    for (;;) {
      const r = await gql<{ game: { messages: MessageItem[] } }>(`query($id: ID!, $after: ID) { game(id: $id) { messages(first: ${PAGE}, after: $after) { ${FIELDS} } } }`, { id: gameId, after }, token);
      if (g !== generation) return;
      add(r.game.messages);
      if (r.game.messages.length < PAGE) return;
      after = r.game.messages[r.game.messages.length - 1]!.id;
    }
  }

  function follow(next: string | null) {
    token = next;
    const g = ++generation;
    stop?.();
    shown.clear();
    render();
    let unsubscribe: (() => void) | null = null;
    const client = wsClient(token, {
      // Subscribe first, then read what came before: a message in between shows once (by id).
      connected: () => {
        unsubscribe?.();
        unsubscribe = client.subscribe<{ gameMessages: MessageItem }>({ query: `subscription($id: ID!) { gameMessages(gameId: $id) { ${FIELDS} } }`, variables: { id: gameId } }, {
          next: ({ data }) => data?.gameMessages && g === generation && add([data.gameMessages]),
          error: () => {},
          complete: () => {},
        });
        void catchUp(g).catch((e) => (note.textContent = `Messages not read: ${(e as Error).message}`));
      },
      closed: () => {
        unsubscribe?.();
        unsubscribe = null;
      },
    });
    stop = () => {
      unsubscribe?.();
      void client.dispose();
    };
  }

  async function submit() {
    const body = text.value;
    if (!writer || body.trim() === '') return;
    send.disabled = true;
    note.textContent = '';
    try {
      const r = await gql<{ sendMessage: MessageItem }>(
        `mutation($id: ID!, $text: String!, $to: [String!], $seat: String) { sendMessage(gameId: $id, text: $text, to: $to, seat: $seat) { ${FIELDS} } }`,
        { id: gameId, text: body, to: to.value ? [to.value] : null, seat: writer },
        token,
      );
      add([r.sendMessage]);
      text.value = '';
    } catch (e) {
      note.textContent = `Not sent: ${e instanceof ApiError ? `${e.reason ?? e.message} (${e.code})` : (e as Error).message}`;
    }
    send.disabled = false;
  }

  return {
    el,
    draw(seats, who) {
      const sig = JSON.stringify([seats, who]);
      if (sig === seatsSig) return;
      seatsSig = sig;
      writer = who;
      form.hidden = who === null;
      if (who === null) note.textContent = 'Only the seats of the game write here; you read the public messages.';
      else if (note.textContent?.startsWith('Only the seats')) note.textContent = '';
      const keep = to.value;
      to.replaceChildren(h('option', { value: '' }, 'everyone'), ...seats.filter((s) => s.id !== who).map((s) => h('option', { value: s.id }, `${s.name} only`)));
      to.value = [...to.options].some((o) => o.value === keep) ? keep : '';
      render();
    },
    follow,
    dispose() {
      generation++;
      stop?.();
    },
  };
}
