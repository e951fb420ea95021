/**
 * The lobby: the game types with their seats, creating a game (a name per seat; the seat
 * tokens that come back stay in this browser), my games (those whose tokens this browser
 * holds, the ones waiting for me first) and opening a game from a seat link.
 */
import { gql, type GameTypeInfo } from './api.ts';
import { clear, h, pretty, seatColour } from './dom.ts';
import { typeName } from './game.ts';
import { DESCRIPTIONS } from './games.ts';
import { store } from './store.ts';

export async function lobbyPage(root: HTMLElement, navigate: (path: string) => void) {
  const mine = h('section', { class: 'my-games', 'aria-labelledby': 'my-games-h' }, h('h2', { id: 'my-games-h' }, 'My games'), h('p', { class: 'muted' }, 'Loading…'));
  const types = h('section', { class: 'types', 'aria-labelledby': 'types-h' }, h('h2', { id: 'types-h' }, 'New game'));
  const join = joinForm(navigate);
  root.append(h('h1', {}, 'Lobby'), mine, join, types);

  const { gameTypes } = await gql<{ gameTypes: GameTypeInfo[] }>(`{ gameTypes { id name seats minPlayers maxPlayers } }`);
  for (const t of gameTypes) types.append(typeCard(t, navigate));
  await drawMine(mine, navigate);
}

function joinForm(navigate: (path: string) => void) {
  const input = h('input', { type: 'text', id: 'join-link', placeholder: 'https://…/games/<id>#seat=…&token=…', autocomplete: 'off' });
  const note = h('p', { class: 'muted', role: 'status' });
  return h('section', { class: 'join' },
    h('h2', {}, 'Join with a seat link'),
    h('form', { onsubmit: (e: Event) => {
      e.preventDefault();
      try {
        const url = new URL(input.value.trim(), location.origin);
        if (!/^\/games\/[^/]+$/.test(url.pathname)) throw new Error();
        navigate(url.pathname + url.hash);
      } catch {
        note.textContent = 'That is not a game link: it looks like /games/<id>#seat=<seat>&token=<token>.';
      }
    } }, h('label', { for: 'join-link' }, 'Link '), input, h('button', { type: 'submit' }, 'Open')),
    note,
  );
}

interface Listed { id: string; type: string; status: string; version: number; updatedAt: string; seats: { id: string; name: string; mustAct: boolean }[]; awaiting: { seat: string; prompt: string }[] }

async function drawMine(section: HTMLElement, navigate: (path: string) => void) {
  const held = store.all();
  const list = h('ul', { class: 'game-list' });
  section.replaceChildren(section.firstChild!);
  if (held.length === 0) {
    section.append(h('p', { class: 'muted' }, 'No games in this browser yet: create one below, or open a seat link someone sent you.'));
    return;
  }
  // One request for all of them: an alias per game.
  const query = `{ ${held.map((g, i) => `g${i}: game(id: ${JSON.stringify(g.id)}) { id type status version updatedAt seats { id name mustAct } awaiting { seat prompt } }`).join(' ')} }`;
  const data = await gql<Record<string, Listed | null>>(query).catch(() => ({}) as Record<string, Listed | null>);
  const games = held.map((g, i) => ({ held: g, game: data[`g${i}`] ?? null }));
  const waiting = (x: (typeof games)[number]) => !!x.game?.seats.some((s) => s.mustAct && x.held.seats[s.id]);
  games.sort((a, b) => Number(waiting(b)) - Number(waiting(a)) || (b.game?.updatedAt ?? '').localeCompare(a.game?.updatedAt ?? ''));
  for (const { held: hg, game } of games) {
    if (!game) continue;
    const mySeats = Object.keys(hg.seats);
    const my = game.seats.filter((s) => mySeats.includes(s.id));
    const wait = waiting({ held: hg, game });
    const href = `/games/${game.id}`;
    list.append(h('li', { class: wait ? 'waiting' : '' },
      h('a', { href, onclick: (e: Event) => (e.preventDefault(), navigate(href)) }, typeName(game.type)),
      ' ',
      h('span', { class: 'badge' }, game.status.toLowerCase()),
      wait ? h('span', { class: 'badge your-turn' }, 'your move') : '',
      h('div', { class: 'muted small' }, `You: ${my.map((s) => `${s.name} (${pretty(s.id)})`).join(', ')} · ${game.awaiting.length ? `waiting for ${[...new Set(game.awaiting.map((a) => pretty(a.seat)))].join(', ')}` : 'nothing awaited'} · v${game.version}`),
    ));
  }
  section.append(list);
}

function typeCard(t: GameTypeInfo, navigate: (path: string) => void) {
  const error = h('p', { class: 'alert error', role: 'alert' });
  const inputs = t.seats.map((seat, i) => {
    const include = h('input', { type: 'checkbox', checked: i < t.minPlayers || t.minPlayers === t.maxPlayers, disabled: i < t.minPlayers, 'aria-label': `Play with ${seat}` });
    const name = h('input', { type: 'text', value: '', placeholder: `${pretty(seat)}'s player`, 'aria-label': `Name for ${seat}`, name: `seat-${seat}` });
    return { seat, include, name };
  });
  const options = h('textarea', { rows: 2, placeholder: '{}', 'aria-label': 'Options as JSON', name: 'options' });
  const form = h('form', { class: 'create', onsubmit: async (e: Event) => {
    e.preventDefault();
    clear(error);
    const seats = inputs.filter((x) => x.include.checked).map((x) => ({ seat: x.seat, name: x.name.value.trim() || pretty(x.seat) }));
    let opts: unknown = undefined;
    if (options.value.trim()) {
      try {
        opts = JSON.parse(options.value);
      } catch {
        error.textContent = 'Options are not JSON.';
        return;
      }
    }
    try {
      const r = await gql(`mutation($input: CreateGameInput!) { createGame(input: $input) { game { id type } seatTokens { seat token } } }`, { input: { type: t.id, options: opts, seats } });
      const { game, seatTokens } = r.createGame;
      for (const st of seatTokens) store.addSeat(game.id, game.type, st.seat, st.token);
      navigate(`/games/${game.id}`);
    } catch (err) {
      error.textContent = `Not created: ${(err as Error).message}`;
    }
  } },
    h('fieldset', {}, h('legend', {}, 'Seats'), ...inputs.map((x) => h('div', { class: 'seat-row' },
      t.minPlayers < t.maxPlayers ? x.include : '',
      h('span', { class: 'dot', style: `background:${seatColour(x.seat)}` }),
      h('span', { class: 'seat-id' }, pretty(x.seat)),
      x.name,
    ))),
    h('details', {}, h('summary', {}, 'Options (JSON, see the game type\'s optionsSchema)'), options),
    h('button', { type: 'submit', class: 'primary' }, `Create ${t.name}`),
    error,
  );
  return h('article', { class: 'type-card', 'data-type': t.id },
    h('h3', {}, t.name),
    h('p', {}, DESCRIPTIONS[t.id] ?? ''),
    h('p', { class: 'muted small' }, `${t.minPlayers === t.maxPlayers ? t.minPlayers : `${t.minPlayers}–${t.maxPlayers}`} players · seats: ${t.seats.map(pretty).join(', ')}`),
    form,
  );
}
