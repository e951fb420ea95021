/**
 * The account part of the lobby: registering (name, optional email), signing in again with
 * a pasted player token, and once signed in the player's settings: name, email and its
 * verification code, email notifications (each turn, or a daily digest), the calendar feed
 * of their deadlines, webhooks (when the service has them), and the player's tokens (create
 * one for another device or a script, revoke one: the calendar link changes with it);
 * absences (web/src/absence.ts).
 */
import { absenceSettings } from './absence.ts';
import { ApiError, gql } from './api.ts';
import { clear, h } from './dom.ts';
import { features } from './features.ts';
import { currentPlayer, ME_FIELDS, playerToken, register, signedIn, signInWithToken, signOut, type Me } from './player.ts';
import type { WebhookEvent } from './generated/schema.ts';

let justSignedIn = false;

const reasonOf = (e: unknown) => (e instanceof ApiError ? e.reason ?? e.message : (e as Error).message);

export async function accountSection(onChange: () => void): Promise<HTMLElement> {
  const section = h('section', { id: 'account', class: 'account', 'aria-labelledby': 'account-h' });
  const me = await currentPlayer().catch(() => null);
  if (!me) drawSignedOut(section, onChange);
  else drawSignedIn(section, me, onChange);
  return section;
}

function field(id: string, label: string, input: HTMLInputElement) {
  input.id = id;
  return h('div', { class: 'field' }, h('label', { for: id }, label), input);
}

function drawSignedOut(section: HTMLElement, onChange: () => void) {
  const name = h('input', { type: 'text', name: 'player-name', required: true, maxlength: 100, autocomplete: 'nickname' });
  const email = h('input', { type: 'email', name: 'player-email', maxlength: 254, autocomplete: 'email', placeholder: 'optional' });
  const regError = h('p', { class: 'alert error', role: 'alert' });
  const token = h('input', { type: 'text', name: 'player-token', autocomplete: 'off', placeholder: 'wgp_…' });
  const signError = h('p', { class: 'alert error', role: 'alert' });
  section.append(
    h('h2', { id: 'account-h' }, 'Play as a registered player'),
    h('p', { class: 'muted small' }, 'A player finds all their games here on any device, joins open games under their name and may be told by email when it is their turn. Without one, each game\'s seat token stays in this browser only.'),
    h('div', { class: 'account-forms' },
      h('form', { class: 'register', onsubmit: async (e: Event) => {
        e.preventDefault();
        clear(regError);
        try {
          await register(name.value.trim(), email.value.trim() || null);
          justSignedIn = true;
          onChange();
        } catch (err) {
          regError.textContent = `Not registered: ${reasonOf(err)}`;
        }
      } }, h('h3', {}, 'Register'), field('reg-name', 'Name', name), field('reg-email', 'Email', email), h('button', { type: 'submit', class: 'primary' }, 'Register'), regError),
      h('form', { class: 'sign-in', onsubmit: async (e: Event) => {
        e.preventDefault();
        clear(signError);
        try {
          await signInWithToken(token.value.trim());
          onChange();
        } catch (err) {
          signError.textContent = `Not signed in: ${reasonOf(err)}`;
        }
      } }, h('h3', {}, 'Sign in with your player token'), h('p', { class: 'muted small' }, 'Paste the token shown when you registered (or one made under "Tokens" on another device).'), field('sign-token', 'Player token', token), h('button', { type: 'submit' }, 'Sign in'), signError),
    ),
  );
}

function drawSignedIn(section: HTMLElement, me: Me, onChange: () => void) {
  const stored = signedIn()!;
  const tokenBox = h('details', { class: 'my-token', open: justSignedIn },
    h('summary', {}, 'Your player token (to sign in on another device)'),
    h('p', { class: 'muted small' }, 'It is the only key to your account: keep it somewhere safe. Anyone holding it plays as you.'),
    h('input', { readonly: true, value: stored.token, class: 'link', 'aria-label': 'Your player token', onfocus: (e: Event) => (e.target as HTMLInputElement).select() }),
  );
  justSignedIn = false;
  const settings = h('div', { class: 'settings' });
  const away = h('div', { class: 'absences' });
  section.append(
    h('h2', { id: 'account-h' }, 'Your account'),
    h('p', { class: 'signed-in' }, 'Signed in as ', h('strong', {}, me.name), me.myTurnCount ? ` · ${me.myTurnCount} game${me.myTurnCount === 1 ? '' : 's'} waiting for you` : '', ' ',
      h('button', { type: 'button', class: 'sign-out', onclick: () => {
        if (confirm('Sign out on this browser? You need your player token to sign in again.')) {
          signOut();
          onChange();
        }
      } }, 'Sign out')),
    tokenBox,
    h('details', { class: 'settings-box' }, h('summary', {}, 'Settings: name, email, notifications, tokens'), settings),
    h('details', { class: 'absence-box' }, h('summary', {}, 'Away: stop your clocks (absence)'), away),
  );
  drawSettings(settings, me);
  void absenceSettings(away);
}

function drawSettings(box: HTMLElement, me: Me) {
  const name = h('input', { type: 'text', value: me.name, maxlength: 100, required: true });
  const email = h('input', { type: 'email', value: me.email ?? '', maxlength: 254, placeholder: 'none' });
  const notify = h('input', { type: 'checkbox', id: 'notify-email', checked: me.notifyByEmail });
  const digest = h('input', { type: 'checkbox', id: 'email-digest', checked: me.emailDigest });
  const note = h('p', { class: 'muted small', role: 'status' });
  const profile = h('form', { class: 'profile', onsubmit: async (e: Event) => {
    e.preventDefault();
    note.textContent = '';
    const input: Record<string, unknown> = { name: name.value.trim(), notifyByEmail: notify.checked, emailDigest: digest.checked };
    const newEmail = email.value.trim() || null;
    if (newEmail !== me.email) input.email = newEmail;
    try {
      const r = await gql<{ updatePlayer: Me }>(`mutation($i: UpdatePlayerInput!) { updatePlayer(input: $i) { ${ME_FIELDS} } }`, { i: input }, playerToken());
      Object.assign(me, r.updatePlayer);
      localStorage.setItem('wargame.player.v1', JSON.stringify({ ...signedIn()!, name: me.name }));
      clear(box);
      drawSettings(box, me);
      box.querySelector('.profile [role=status]')!.textContent = 'Saved.';
    } catch (err) {
      note.textContent = `Not saved: ${reasonOf(err)}`;
    }
  } },
    h('h3', {}, 'Profile'),
    field('set-name', 'Name', name),
    field('set-email', 'Email (seen by nobody else)', email),
    h('p', { class: 'small email-state' }, me.email ? (me.emailVerified ? '✓ Email verified' : 'Email not verified yet: enter the code mailed to it below.') : 'No email: no mail is sent.'),
    h('div', { class: 'field check' }, notify, h('label', { for: 'notify-email' }, ' Email me when it is my turn and when a game ends (needs a verified email)')),
    h('div', { class: 'field check' }, digest, h('label', { for: 'email-digest' }, ' Instead of a mail each turn, one mail a day listing every game waiting for me (daily digest)')),
    h('button', { type: 'submit', class: 'primary' }, 'Save'),
    note,
  );
  box.append(profile);
  // Honest about mail: with none configured no code would ever come, so no form asks for it.
  const mailOff = h('p', { class: 'alert info mail-off', role: 'note', hidden: true }, 'Mail is not configured on this service: no mail is sent (no email codes, no mail when it is your turn), so your email cannot be verified here. Webhooks still work.');
  const verify = me.email && !me.emailVerified ? h('div', { hidden: true }, verifyForm(box, me)) : null;
  box.append(mailOff);
  if (verify) box.append(verify);
  void mailEnabled().then((on) => {
    mailOff.hidden = on;
    if (verify) verify.hidden = !on;
    const state = profile.querySelector('.email-state');
    if (!on && verify && state) state.textContent = 'Email not verified: this service sends no mail, so no code can come.';
  });
  const calendar = h('div', { class: 'calendar' });
  box.append(calendar);
  void drawCalendar(calendar);
  const hooks = h('div', { class: 'webhooks' });
  box.append(hooks);
  void webhookSettings(hooks);
  const tokens = h('div', { class: 'tokens' });
  box.append(tokens);
  void drawTokens(tokens);
}

let mailInfo: Promise<boolean> | null = null;
/** Query.serviceInfo.mailEnabled, read once (a service without it: mail taken as on). */
function mailEnabled(): Promise<boolean> {
  mailInfo ??= gql<{ serviceInfo: { mailEnabled: boolean } }>('{ serviceInfo { mailEnabled } }').then((r) => r.serviceInfo.mailEnabled, () => true);
  return mailInfo;
}

function verifyForm(box: HTMLElement, me: Me) {
  const code = h('input', { type: 'text', inputmode: 'numeric', maxlength: 6, autocomplete: 'one-time-code', placeholder: '123456' });
  const note = h('p', { class: 'muted small', role: 'status' });
  return h('form', { class: 'verify', onsubmit: async (e: Event) => {
    e.preventDefault();
    try {
      const r = await gql<{ verifyEmail: Me }>(`mutation($c: String!) { verifyEmail(code: $c) { ${ME_FIELDS} } }`, { c: code.value.trim() }, playerToken());
      Object.assign(me, r.verifyEmail);
      clear(box);
      drawSettings(box, me);
    } catch (err) {
      note.textContent = `Not verified: ${reasonOf(err)}`;
    }
  } }, h('h3', {}, 'Verify your email'), field('verify-code', 'Code from the mail', code), h('button', { type: 'submit' }, 'Verify'), note);
}

/** The secret link of the player's deadlines as a calendar feed (me.calendarUrl), for calendar apps. */
async function drawCalendar(box: HTMLElement) {
  const r = await gql<{ me: { calendarUrl: string | null } | null }>(`{ me { calendarUrl } }`, {}, playerToken()).catch(() => null);
  const url = r?.me?.calendarUrl ?? null;
  box.replaceChildren(
    h('h3', {}, 'Calendar'),
    url
      ? h('div', {},
          h('p', { class: 'muted small' }, 'Subscribe to this link in your calendar app to see every deadline of your games; it updates as they move. Keep it to yourself: it works without signing in. Revoking a token below changes it.'),
          h('input', { readonly: true, value: url, class: 'link calendar-url', 'aria-label': 'Your calendar link', onfocus: (e: Event) => (e.target as HTMLInputElement).select() }),
          h('p', { class: 'small' }, h('a', { href: url, class: 'calendar-link' }, 'Calendar feed (.ics)')))
      : h('p', { class: 'muted small' }, 'This service offers no calendar feed.'),
  );
}

interface TokenInfo { id: string; name: string; createdAt: string; lastUsedAt: string | null }

async function drawTokens(box: HTMLElement, created?: { name: string; token: string }) {
  const r = await gql<{ me: { tokens: TokenInfo[] } | null }>(`{ me { tokens { id name createdAt lastUsedAt } } }`, {}, playerToken()).catch(() => null);
  const list = r?.me?.tokens ?? [];
  const name = h('input', { type: 'text', maxlength: 100, required: true, placeholder: 'e.g. phone, my script' });
  const note = h('p', { class: 'muted small', role: 'status' });
  const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'never');
  box.replaceChildren(
    h('h3', {}, 'Tokens'),
    h('p', { class: 'muted small' }, 'Each token signs in as you. Revoke one you no longer use: it stops working at once. Revoking the one this browser uses signs it out.'),
    h('ul', { class: 'token-list' }, list.map((t) => h('li', { 'data-token-id': t.id },
      h('strong', {}, t.name), h('span', { class: 'muted small' }, ` · made ${when(t.createdAt)} · last used ${when(t.lastUsedAt)} `),
      h('button', { type: 'button', class: 'revoke', onclick: async () => {
        try {
          await gql(`mutation($id: ID!) { revokePlayerToken(id: $id) }`, { id: t.id }, playerToken());
          // Was it this browser's? Then `me` no longer answers.
          const still = await currentPlayer().catch(() => null);
          if (!still) return void location.assign('/#account');
          void drawTokens(box);
          // The calendar link was revoked with it: show the new one.
          const calendar = box.parentElement?.querySelector<HTMLElement>('.calendar');
          if (calendar) void drawCalendar(calendar);
        } catch (err) {
          note.textContent = `Not revoked: ${reasonOf(err)}`;
        }
      } }, `Revoke ${t.name}`),
    ))),
    created ? h('div', { class: 'new-token' }, h('p', {}, `New token "${created.name}" (shown only now: copy it):`),
      h('input', { readonly: true, value: created.token, class: 'link', 'aria-label': `New token ${created.name}`, onfocus: (e: Event) => (e.target as HTMLInputElement).select() })) : '',
    h('form', { class: 'new-token-form', onsubmit: async (e: Event) => {
      e.preventDefault();
      try {
        const c = await gql<{ createPlayerToken: { name: string; token: string } }>(`mutation($n: String!) { createPlayerToken(name: $n) { id name token } }`, { n: name.value.trim() }, playerToken());
        void drawTokens(box, c.createPlayerToken);
      } catch (err) {
        note.textContent = `Not made: ${reasonOf(err)}`;
      }
    } }, field('new-token-name', 'New token named ', name), h('button', { type: 'submit' }, 'Make a token')),
    note,
  );
}

// Every event the schema has, in words: a Record over the generated enum, so an event added to
// the schema fails the web build until it is offered here.
const WEBHOOK_EVENT_WORDS: Record<WebhookEvent, string> = {
  YOUR_TURN: 'your turn', GAME_STARTED: 'game started', GAME_OVER: 'game over', EVENT_APPENDED: 'event appended',
  DEADLINE_SOON: 'deadline soon', SEAT_HANDED_TO_BOT: 'seat handed to a bot', MESSAGE: 'message',
};
const WEBHOOK_EVENTS = Object.keys(WEBHOOK_EVENT_WORDS) as WebhookEvent[];
interface Webhook { id: string; url: string; events: string[]; deliveries: { id: string; event: string; status: string; attempts: number; lastError: string | null; at: string }[] }

/**
 * Notification hook: webhooks (createWebhook / deleteWebhook / me { webhooks { deliveries } })
 * when the service's schema has them; otherwise a line saying it does not.
 */
export async function webhookSettings(box: HTMLElement, created?: { url: string; secret: string }): Promise<void> {
  box.replaceChildren(h('h3', {}, 'Webhooks'));
  if (!(await features()).webhooks) {
    box.append(h('p', { class: 'muted small webhooks-missing' }, 'This service does not offer webhooks yet.'));
    return;
  }
  const r = await gql<{ me: { webhooks: Webhook[] } | null }>(
    `{ me { webhooks { id url events deliveries(first: 5) { id event status attempts lastError at } } } }`, {}, playerToken(),
  ).catch(() => null);
  const url = h('input', { type: 'url', required: true, placeholder: 'https://example.org/hook' });
  const boxes = WEBHOOK_EVENTS.map((ev) => h('input', { type: 'checkbox', value: ev, checked: ev === 'YOUR_TURN' || ev === 'GAME_OVER', id: `hook-${ev}` }));
  const note = h('p', { class: 'muted small', role: 'status' });
  box.append(
    h('p', { class: 'muted small' }, 'The service POSTs signed JSON (Standard Webhooks) to your address for all your games.'),
    h('ul', { class: 'webhook-list' }, (r?.me?.webhooks ?? []).map((w) => h('li', {},
      h('code', {}, w.url), ` · ${w.events.join(', ')} `,
      h('button', { type: 'button', onclick: async () => {
        try {
          await gql(`mutation($id: ID!) { deleteWebhook(id: $id) }`, { id: w.id }, playerToken());
          void webhookSettings(box);
        } catch (err) {
          note.textContent = `Not deleted: ${reasonOf(err)}`;
        }
      } }, 'Delete'),
      w.deliveries.length ? h('ul', { class: 'deliveries small' }, w.deliveries.map((d) => h('li', {}, `${new Date(d.at).toLocaleString()} ${d.event}: ${d.status.toLowerCase()} after ${d.attempts} attempt${d.attempts === 1 ? '' : 's'}${d.lastError ? ` (${d.lastError})` : ''}`))) : h('p', { class: 'muted small' }, 'No deliveries yet.'),
    ))),
    created ? h('p', { class: 'new-secret' }, `Secret for ${created.url} (shown only now): `, h('code', {}, created.secret)) : '',
    h('form', { class: 'new-webhook', onsubmit: async (e: Event) => {
      e.preventDefault();
      const events = boxes.filter((b) => b.checked).map((b) => b.value);
      try {
        const c = await gql<{ createWebhook: { webhook: { url: string }; secret: string } }>(
          `mutation($i: CreateWebhookInput!) { createWebhook(input: $i) { webhook { id url events } secret } }`, { i: { url: url.value.trim(), events } }, playerToken(),
        );
        void webhookSettings(box, { url: c.createWebhook.webhook.url, secret: c.createWebhook.secret });
      } catch (err) {
        // A private address's refusal names the operator's switch (WEBHOOK_ALLOW_PRIVATE=true) itself.
        note.textContent = `Not added: ${reasonOf(err)}`;
      }
    } }, field('hook-url', 'Address', url), h('div', { class: 'hook-events' }, boxes.map((b) => h('label', { for: b.id }, b, ` ${WEBHOOK_EVENT_WORDS[b.value as WebhookEvent]} `))), h('button', { type: 'submit' }, 'Add webhook')),
    note,
  );
}
