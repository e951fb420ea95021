/**
 * The lobby: the account (register, sign in with a player token, settings), my games (the
 * signed-in player's games from `me { games }` merged with the games whose seat tokens this
 * browser holds, the ones waiting for me first), public open games to join, opening a link,
 * and creating a game: each seat for me, open, a bot or a named player (a seat token comes
 * back and stays in this browser), public or private, with the invite link shown after.
 */
import { ApiError, gql } from './api.ts';
import { accountSection } from './account.ts';
import { loadCatalogue, seatColour, seatTitle, typeName, type GameTypeInfo } from './catalogue.ts';
import { clear, h, pretty } from './dom.ts';
import { features } from './features.ts';
import { playerToken, signedIn } from './player.ts';
import { store } from './store.ts';

export async function lobbyPage(root: HTMLElement, navigate: (path: string) => void) {
  const reload = () => navigate('/#account');
  const mine = h('section', { class: 'my-games', 'aria-labelledby': 'my-games-h' }, h('h2', { id: 'my-games-h' }, 'My games'), h('p', { class: 'muted' }, 'Loading…'));
  const open = h('section', { class: 'open-games', 'aria-labelledby': 'open-games-h' }, h('h2', { id: 'open-games-h' }, 'Open games to join'), h('p', { class: 'muted' }, 'Loading…'));
  const types = h('section', { class: 'types', 'aria-labelledby': 'types-h' }, h('h2', { id: 'types-h' }, 'New game'));
  const join = joinForm(navigate);
  const account = await accountSection(reload);
  root.append(h('h1', {}, 'Lobby'), account, mine, open, join, types);

  const [gameTypes, feats] = await Promise.all([loadCatalogue(), features()]);
  for (const t of gameTypes) types.append(typeCard(t, navigate, feats.clockInput, feats.clockTimeout));
  await Promise.all([drawMine(mine, navigate), drawOpenGames(open)]);
}

function joinForm(navigate: (path: string) => void) {
  const input = h('input', { type: 'text', id: 'join-link', placeholder: 'https://…/join/<code>  or  …/games/<id>#seat=…&token=…', autocomplete: 'off' });
  const note = h('p', { class: 'muted', role: 'status' });
  return h('section', { class: 'join' },
    h('h2', {}, 'Open an invite or seat link'),
    h('form', { onsubmit: (e: Event) => {
      e.preventDefault();
      try {
        const url = new URL(input.value.trim(), location.origin);
        if (!/^\/(games|join)\/[^/]+$/.test(url.pathname)) throw new Error();
        navigate(url.pathname + url.search + url.hash);
      } catch {
        note.textContent = 'That is not a game link: it looks like /join/<code> or /games/<id>#seat=<seat>&token=<token>.';
      }
    } }, h('label', { for: 'join-link' }, 'Link '), input, h('button', { type: 'submit' }, 'Open')),
    note,
  );
}

interface ListedSeat { id: string; name: string; mustAct: boolean; isYou: boolean; open: boolean; bot: string | null }
interface Listed { id: string; type: string; status: string; version: number; updatedAt: string; visibility: string; seats: ListedSeat[]; awaiting: { seat: string; prompt: string }[] }
const LISTED = 'id type status version updatedAt visibility seats { id name mustAct isYou open bot } awaiting { seat prompt }';

/**
 * My games: with a player token, `me { games }` (those awaiting me by `myTurn: true`, and
 * `myTurnCount`), merged with the games whose seat tokens this browser holds; the ones
 * waiting for me first, then the most recently moved.
 */
async function drawMine(section: HTMLElement, navigate: (path: string) => void) {
  const held = store.all();
  const token = playerToken();
  type Row = { game: Listed; seats: string[]; waiting: boolean };
  const rows = new Map<string, Row>();
  let myTurnCount = 0;
  if (token) {
    const r = await gql<{ me: { myTurnCount: number; waiting: { nodes: Listed[] }; all: { nodes: Listed[] } } | null }>(
      `{ me { myTurnCount waiting: games(filter: { myTurn: true }, first: 50) { nodes { ${LISTED} } } all: games(first: 50) { nodes { ${LISTED} } } } }`, {}, token,
    ).catch(() => ({ me: null }));
    if (r.me) {
      myTurnCount = r.me.myTurnCount;
      const waiting = new Set(r.me.waiting.nodes.map((g) => g.id));
      for (const g of [...r.me.waiting.nodes, ...r.me.all.nodes]) {
        if (!rows.has(g.id)) rows.set(g.id, { game: g, seats: g.seats.filter((s) => s.isYou).map((s) => s.id), waiting: waiting.has(g.id) });
      }
    }
  }
  // The seat-token games this browser holds (one request: an alias per game).
  const extra = held.filter((g) => Object.keys(g.seats).length > 0 || !rows.has(g.id));
  if (extra.length) {
    const query = `{ ${extra.map((g, i) => `g${i}: game(id: ${JSON.stringify(g.id)}) { ${LISTED} }`).join(' ')} }`;
    const data = await gql<Record<string, Listed | null>>(query).catch(() => ({}) as Record<string, Listed | null>);
    extra.forEach((hg, i) => {
      const game = data[`g${i}`];
      if (!game) return;
      const seats = Object.keys(hg.seats);
      const row = rows.get(game.id);
      const waiting = game.seats.some((s) => s.mustAct && hg.seats[s.id]);
      if (row) {
        row.seats = [...new Set([...row.seats, ...seats])];
        row.waiting ||= waiting;
      } else if (seats.length || hg.invite) {
        rows.set(game.id, { game, seats, waiting });
      }
    });
  }
  const list = [...rows.values()].filter((r) => r.game.status !== 'ABANDONED');
  list.sort((a, b) => Number(b.waiting) - Number(a.waiting) || b.game.updatedAt.localeCompare(a.game.updatedAt));
  const waitingCount = Math.max(myTurnCount, list.filter((r) => r.waiting).length);
  section.replaceChildren(h('h2', { id: 'my-games-h' }, 'My games', waitingCount ? h('span', { class: 'badge your-turn my-turn-count' }, `${waitingCount} waiting for you`) : ''));
  if (list.length === 0) {
    section.append(h('p', { class: 'muted' }, 'No games yet: create one below, join an open game, or open a link someone sent you.'));
    return;
  }
  const ul = h('ul', { class: 'game-list' });
  for (const { game, seats, waiting } of list) {
    const my = game.seats.filter((s) => seats.includes(s.id));
    const href = `/games/${game.id}`;
    const others = game.seats.filter((s) => !seats.includes(s.id)).map((s) => (s.open ? `${pretty(s.id)} open` : `${s.name} (${pretty(s.id)})`));
    ul.append(h('li', { class: waiting ? 'waiting' : '', 'data-game': game.id },
      h('a', { href, onclick: (e: Event) => (e.preventDefault(), navigate(href)) }, typeName(game.type)),
      ' ',
      h('span', { class: 'badge' }, game.status.toLowerCase()),
      waiting ? h('span', { class: 'badge your-turn' }, 'your move') : '',
      h('div', { class: 'muted small' },
        `You: ${my.map((s) => `${s.name || '—'} (${pretty(s.id)})`).join(', ') || '—'}`,
        others.length ? ` · with ${others.join(', ')}` : '',
        ' · ',
        game.status === 'OPEN' ? `waiting for ${game.seats.filter((s) => s.open).length} more player(s)` : game.awaiting.length ? `waiting for ${[...new Set(game.awaiting.map((a) => pretty(a.seat)))].join(', ')}` : 'nothing awaited',
        ` · v${game.version}`),
    ));
  }
  section.append(ul);
}

interface OpenGame { id: string; type: string; createdAt: string; seats: { id: string; name: string; open: boolean; bot: string | null }[] }

/** openGames: the public games with an open seat, oldest first; each opens its page to join. */
async function drawOpenGames(section: HTMLElement) {
  const r = await gql<{ openGames: { nodes: OpenGame[] } }>(`{ openGames(first: 20) { nodes { id type createdAt seats { id name open bot } } } }`, {}, playerToken()).catch(() => null);
  const games = r?.openGames.nodes ?? [];
  section.replaceChildren(h('h2', { id: 'open-games-h' }, 'Open games to join'));
  if (!games.length) {
    section.append(h('p', { class: 'muted' }, 'No public game is waiting for players right now: create one below and make it public.'));
    return;
  }
  section.append(h('ul', { class: 'game-list' }, games.map((g) => h('li', { 'data-game': g.id },
    h('a', { href: `/games/${g.id}` }, typeName(g.type)), ' ',
    h('span', { class: 'badge' }, `${g.seats.filter((s) => s.open).length} open`),
    h('div', { class: 'muted small' }, g.seats.map((s) => `${pretty(s.id)}: ${s.open ? 'open' : s.name}`).join(' · '), ` · since ${new Date(g.createdAt).toLocaleString()}`),
  ))));
}

type SeatKind = 'me' | 'open' | 'named' | `bot:${string}`;

/** How each seat of a new game is held: the choice per seat, and the createGame input for it. */
function seatInput(seat: string, kind: SeatKind, name: string) {
  if (kind === 'me') return { seat, me: true };
  if (kind === 'open') return { seat, open: true };
  if (kind.startsWith('bot:')) return { seat, bot: kind.slice(4) };
  return { seat, name: name || pretty(seat) };
}

function typeCard(t: GameTypeInfo, navigate: (path: string) => void, clockInput: boolean, clockTimeout: boolean) {
  const error = h('p', { class: 'alert error', role: 'alert' });
  const player = signedIn();
  const inputs = t.seats.map((seat, i) => {
    const include = h('input', { type: 'checkbox', checked: i < t.minPlayers || t.minPlayers === t.maxPlayers, disabled: i < t.minPlayers, 'aria-label': `Play with ${seat}` });
    const kind = h('select', { name: `kind-${seat}`, 'aria-label': `Who plays ${seat}` },
      player ? h('option', { value: 'me', selected: i === 0 }, `Me (${player.name})`) : '',
      h('option', { value: 'open', selected: !!player && i > 0 }, 'Open'),
      ...t.bots.map((b) => h('option', { value: `bot:${b}` }, `Bot: ${b}`)),
      h('option', { value: 'named', selected: !player }, 'A name'),
    );
    const name = h('input', { type: 'text', value: '', placeholder: `${pretty(seat)}'s player`, 'aria-label': `Name for ${seat}`, name: `seat-${seat}` });
    const sync = () => (name.hidden = kind.value !== 'named');
    kind.addEventListener('change', sync);
    sync();
    return { seat, include, kind, name };
  });
  const visibility = h('select', { name: 'visibility', 'aria-label': 'Visibility' },
    h('option', { value: 'PRIVATE', selected: true }, 'Private (invite link)'),
    h('option', { value: 'PUBLIC' }, 'Public (listed)'));
  // Clock hook: seconds per decision, when the service offers clocks (CreateGameInput.clock).
  const perMove = h('select', { name: 'clock', 'aria-label': 'Time per move' },
    h('option', { value: '' }, 'No clock'),
    ...[[3600, '1 hour'], [86400, '1 day'], [259200, '3 days'], [604800, '7 days']].map(([s, l]) => h('option', { value: String(s) }, `${l} per move`)));
  // The time-out policy (ClockInput.onTimeout), offered with a clock only.
  const onTimeout = h('select', { name: 'on-timeout', 'aria-label': 'Out of time' },
    h('option', { value: 'RESIGN', selected: true }, 'Out of time: resigns'),
    h('option', { value: 'BOT' }, 'Out of time: hand to a bot'));
  const syncClock = () => (onTimeout.hidden = !perMove.value);
  perMove.addEventListener('change', syncClock);
  syncClock();
  const options = h('textarea', { rows: 2, placeholder: '{}', 'aria-label': 'Options as JSON', name: 'options' });
  const form = h('form', { class: 'create', onsubmit: async (e: Event) => {
    e.preventDefault();
    clear(error);
    const chosen = inputs.filter((x) => x.include.checked);
    const seats = chosen.map((x) => seatInput(x.seat, x.kind.value as SeatKind, x.name.value.trim()));
    let opts: unknown = undefined;
    if (options.value.trim()) {
      try {
        opts = JSON.parse(options.value);
      } catch {
        error.textContent = 'Options are not JSON.';
        return;
      }
    }
    const input: Record<string, unknown> = { type: t.id, options: opts, seats, visibility: visibility.value };
    if (clockInput && perMove.value) input.clock = { perMove: Number(perMove.value), ...(clockTimeout ? { onTimeout: onTimeout.value } : {}) };
    try {
      const r = await gql<{ createGame: { game: { id: string; type: string }; seatTokens: { seat: string; token: string }[]; inviteCode: string | null } }>(`mutation($input: CreateGameInput!) { createGame(input: $input) { game { id type } seatTokens { seat token } inviteCode } }`, { input }, playerToken());
      const { game, seatTokens, inviteCode } = r.createGame;
      for (const st of seatTokens) store.addSeat(game.id, game.type, st.seat, st.token);
      // Keep the game (and its invite code, shown only now) in this browser.
      store.remember(game.id, game.type, { invite: inviteCode ?? undefined });
      navigate(`/games/${game.id}`);
    } catch (err) {
      error.textContent = `Not created: ${err instanceof ApiError ? err.reason ?? err.message : (err as Error).message}`;
    }
  } },
    h('fieldset', {}, h('legend', {}, 'Seats'), ...inputs.map((x) => h('div', { class: 'seat-row' },
      t.minPlayers < t.maxPlayers ? x.include : '',
      h('span', { class: 'dot', style: `background:${seatColour(x.seat, t.id)}` }),
      h('span', { class: 'seat-id' }, seatTitle(x.seat, t.id)),
      h('div', { class: 'seat-choice' }, x.kind, x.name),
    ))),
    h('div', { class: 'create-row' }, visibility, clockInput ? perMove : '', clockInput && clockTimeout ? onTimeout : ''),
    h('details', {}, h('summary', {}, 'Options (JSON, see the game type\'s optionsSchema)'), options),
    h('button', { type: 'submit', class: 'primary' }, `Create ${t.name}`),
    error,
  );
  return h('article', { class: 'type-card', 'data-type': t.id },
    h('h3', {}, t.name),
    h('p', {}, t.description),
    h('p', { class: 'muted small' }, `${t.minPlayers === t.maxPlayers ? t.minPlayers : `${t.minPlayers}–${t.maxPlayers}`} players · seats: ${t.seats.map(pretty).join(', ')}`),
    form,
  );
}
