/**
 * A game page: the board drawn by the game's Board, what the game waits for and from whom,
 * the caller's legal commands as actions (on the board where natural, and as a plain list),
 * the log in words, a replay slider over every version, and live updates through the
 * gameEvents subscription that resume from the last version seen after a lost connection.
 */
import { ApiError, gameType, loadGame, loadViewAt, seatsChangedQuery, submit, type Command, type GameData, type GameEvent, type SeatInfo, type View } from './api.ts';
import { boardFor } from './boards/index.ts';
import type { Board, BoardContext } from './boards/types.ts';
import { refreshWaiting, setPage } from './attention.ts';
import { seatColour, seatTitle, typeName } from './catalogue.ts';
import { refusalInWords } from './refusals.ts';
import { actionsPanel, describeCommand, MATCH } from './actions.ts';
import { clear, h, nameButtons, pretty } from './dom.ts';
import { formatEvent } from './log.ts';
import { features, startDeadlineCountdowns } from './features.ts';
import { playerToken, signedIn } from './player.ts';
import { followGame } from './live.ts';
import { beforeStart, joinSeat, openGamePanel } from './open-game.ts';
import { GameLog, Seats } from './game-state.ts';
import { messagesPanel } from './messages.ts';
import { Picking } from './picking.ts';
import { replayBar } from './replay.ts';
import { clockNote, deadlineBadge, handedOverLinks, seatLinks, seatList as panelSeatList, seatTokenForm } from './panels.ts';
import { inviteLink, seatLink, store } from './store.ts';
import { zoomable } from './zoom.ts';


/**
 * `inviteCode`: the page was opened from an invite link (/join/<code>): while the game is
 * OPEN it offers its open seats to join with that code.
 */
export async function gamePage(root: HTMLElement, gameId: string, setConnection: (text: string, ok: boolean) => void, opts: { inviteCode?: string } = {}): Promise<() => void> {
  // A seat handed over by link: /games/<id>#seat=<seat>&token=<token>.
  const hash = new URLSearchParams(location.hash.slice(1));
  const found = await gameType(gameId);
  const type = found?.type;
  if (!type) {
    root.append(h('h1', {}, 'No such game'), h('p', {}, h('a', { href: '/' }, 'Back to the lobby')));
    return () => {};
  }
  if (hash.get('token') && hash.get('seat')) {
    store.addSeat(gameId, type, hash.get('seat')!, hash.get('token')!);
    store.setLastSeat(gameId, hash.get('seat')!);
    history.replaceState(null, '', location.pathname);
  }
  const board: Board = boardFor(type);
  const seatsQuery = seatsChangedQuery(await features());

  // Which seat the page plays: a seat token held here, or the signed-in player's (game-state.ts).
  const pTok = playerToken();
  const seats = new Seats(gameId, type, pTok);
  const token = () => seats.token();
  const playerSeats = (): SeatInfo[] => seats.playerSeats(game);
  /** The seat the page acts for now. */
  const current = (): string | null => seats.current(game);
  const inviteCode = opts.inviteCode ?? store.get(gameId)?.invite ?? null;

  let game: GameData | null = null;
  const log = new GameLog();
  const picking = new Picking(board);
  let replay: { version: number; view: View } | null = null;
  let busy = false;
  let message: { text: string; kind: 'error' | 'info' } | null = null;
  let confirmResign = false;
  let disposed = false;

  // Layout: the turn bar (what the game waits for, the reply to the last command, the main
  // actions) stays in view at every size; below it the board and, beside it (below on a
  // phone), the other actions, the log and the seats.
  const title = h('h1', { class: 'game-title' });
  const seatBar = h('div', { class: 'seat-bar', role: 'group', 'aria-label': 'Your seats in this game' });
  const status = h('section', { class: 'status', 'aria-live': 'polite', 'aria-label': 'What the game waits for' });
  const alertBox = h('div', { class: 'alert', role: 'alert' });
  const actions = h('section', { class: 'actions', 'aria-label': 'Your actions' });
  const turnBar = h('div', { class: 'turn-bar' }, status, alertBox, actions);
  const boardBox = h('div', { class: 'board', 'aria-label': 'Board' });
  const summary = h('div', { class: 'summary' });
  const zoom = zoomable(boardBox, () => draw());
  const more = h('section', { class: 'more-actions', 'aria-label': 'More actions' });
  const replayBox = h('section', { class: 'replay', 'aria-label': 'Replay' });
  // Focusable: a keyboard reaches the log and scrolls it.
  const logList = h('ol', { class: 'log', 'aria-label': 'Log', tabindex: 0 });
  const seatsBox = h('section', { class: 'seats' });
  const openBox = h('section', { class: 'open-game', 'aria-label': 'Waiting for players', hidden: true });
  const grid = h('div', { class: 'game-grid' },
    h('div', { class: 'board-col' }, zoom.controls, boardBox, summary, replayBox),
    h('div', { class: 'side-col' }, more, h('h2', {}, 'Log'), logList, seatsBox),
  );
  const playing = h('div', { class: 'playing' }, turnBar, grid);
  root.append(h('div', { class: 'game-head' }, title, seatBar), openBox, playing);
  const stopCountdowns = startDeadlineCountdowns(root);

  const seatName = (id: string) => {
    const s = game?.seats.find((x) => x.id === id);
    return s ? `${s.name} (${seatTitle(id, type)})` : seatTitle(id, type);
  };
  // Messages between players (messages.ts), beside the log; hidden where the service has none.
  const talk = messagesPanel(gameId, seatName);
  talk.el.hidden = true;
  void features().then((f) => (talk.el.hidden = !f.messages));
  grid.querySelector('.side-col')!.insertBefore(talk.el, seatsBox);

  function ctxCommands(): Command[] {
    if (!game || replay || busy) return [];
    return game.legalCommands.filter((c) => !MATCH.has(c.type));
  }

  function buildContext(): BoardContext {
    const view = replay ? replay.view : game!.view;
    const commands = ctxCommands();
    const { destinations, selectable } = picking.targets(commands, view);
    return { game: game!, view, commands, selection: picking.selection, inspected: picking.inspected, destinations, selectable, clickPlace, clickPiece };
  }

  function clickPlace(place: string) {
    if (!game || replay) return;
    const command = picking.clickPlace(ctxCommands(), game.view, place);
    if (command) void run(command);
    else draw();
  }

  function clickPiece(piece: string, place: string | null) {
    if (!game || replay) return;
    const command = picking.clickPiece(ctxCommands(), game.view, piece, place);
    if (command) void run(command);
    else draw();
  }

  async function run(command: Command) {
    if (!game || busy) return;
    busy = true;
    message = { text: `Sending: ${describe(command)}…`, kind: 'info' };
    draw();
    try {
      await submit(gameId, command, game.version, token(), playerSeats().length > 1 ? game.yourSeat : null);
      picking.reset();
      message = null;
      confirmResign = false;
      busy = false;
      await refresh();
    } catch (e) {
      busy = false;
      const err = e instanceof ApiError ? e : null;
      const code = err?.code ?? 'ERROR';
      const why = err?.reason ?? (e as Error).message;
      const words = refusalInWords(why, game.seats, game.type);
      message = { text: code === 'VERSION_CONFLICT' ? 'Refused: the game moved on before your command arrived. The board is up to date again.' : `Refused (${code}): ${words}`, kind: 'error' };
      await refresh().catch(() => {});
      draw();
    }
  }

  const describe = (c: Command) => describeCommand(board, c, game!.view);

  function draw() {
    if (!game || disposed) return;
    title.replaceChildren(`${typeName(game.type)} `, h('span', { class: 'muted' }, `· ${game.status.toLowerCase()} · version ${game.version}`));
    drawSeatBar();
    const yourTurn = game.status !== 'FINISHED' && game.seats.some((x) => x.mustAct && isMine(x.id));
    const awaited = [...new Set(game.awaiting.map((p) => p.seat))].filter((x) => !isMine(x)).map(seatName);
    const state = game.status === 'FINISHED' ? 'game over' : game.status === 'OPEN' ? 'waiting for players' : !yourTurn && awaited.length ? `waiting for ${awaited.join(', ')}` : game.status.toLowerCase();
    setPage(yourTurn ? typeName(game.type) : `${typeName(game.type)} · ${state}`, yourTurn);
    const waiting = game.status === 'OPEN' || game.status === 'ABANDONED';
    openBox.hidden = !waiting;
    playing.hidden = waiting;
    if (waiting) return drawOpen();
    const ctx = buildContext();

    // What the game waits for.
    clear(status);
    if (game.status === 'FINISHED') {
      const r = game.result;
      status.append(h('p', { class: 'result' }, r ? `Game over: ${r.winners.length ? r.winners.map(seatName).join(', ') + ' won' : 'a draw'} — ${r.reason}` : 'Game over'));
    } else if (game.awaiting.length === 0) {
      status.append(h('p', {}, 'Nothing awaited.'));
    } else {
      status.append(h('ul', { class: 'awaiting' }, game.awaiting.map((p) =>
        h('li', {}, h('strong', { style: `color:${seatColour(p.seat)}` }, isMine(p.seat) ? 'You' : seatName(p.seat)), ` (${p.kind.toLowerCase().replace(/_/g, ' ')}): ${p.prompt}`,
          p.deadline ? [' ', deadlineBadge(p.deadline)] : ''),
      )));
    }
    alertBox.className = `alert ${message ? message.kind : ''}`;
    alertBox.textContent = message?.text ?? '';

    // The board.
    const scroll = { left: boardBox.scrollLeft, top: boardBox.scrollTop };
    boardBox.replaceChildren(board.render(ctx));
    nameButtons(boardBox);
    zoom.fit(boardBox.querySelector('svg'), scroll);
    boardBox.classList.toggle('replaying', !!replay);
    summary.replaceChildren(...(board.summary?.(ctx.view, game) ?? []).map((x) => h('p', {}, x)));
    drawActions(ctx);
    drawReplay();
    drawLog();
    drawSeats();
    talk.draw(game.seats.map((x) => ({ id: x.id, name: seatName(x.id) })), current());
  }

  const isMine = (id: string) => seats.isMine(id);

  function drawSeatBar() {
    const { held, playerHolds, seat } = seats;
    const options: (string | null)[] = [...Object.keys(held), ...(playerHolds.length ? [null] : [])];
    const me = signedIn()?.name ?? 'You';
    const label = (o: string | null) => (o !== null ? seatName(o) : playerHolds.length === 1 ? seatName(playerHolds[0]!) : `${me} (${playerHolds.map(pretty).join(', ')})`);
    const must = (o: string | null) => (o === null ? game!.seats.some((x) => playerHolds.includes(x.id) && x.mustAct) : game!.seats.find((x) => x.id === o)?.mustAct);
    seatBar.replaceChildren(
      ...(options.length === 0 ? [h('span', { class: 'muted' }, 'Watching (you hold no seat here)')] : []),
      ...(options.length === 1 ? [h('span', {}, 'Playing as ', h('strong', { style: `color:${seatColour(current())}` }, label(options[0]!)))] : []),
      ...(options.length > 1
        ? [h('span', {}, 'Play as: '), ...options.map((o) =>
            h('button', { type: 'button', class: 'seat-btn', 'aria-pressed': String(o === seat), style: `--seat:${seatColour(o)}`, onclick: () => switchSeat(o) }, o === null ? `${me} (player)` : pretty(o), must(o) ? ' ●' : ''),
          )]
        : []),
    );
  }

  const seatList = (list: SeatInfo[]) => panelSeatList(list, type, isMine, (x) => !!seats.held[x]);

  // An OPEN game: its seats, the invite link, joining, leaving and cancelling. The join that
  // takes the last seat starts the game: its setup events arrive on the gameEvents
  // subscription and the page turns into the board. Nothing is polled: an earlier join, a
  // leave or a cancel appends no event and arrives on seatsChanged (live.ts); the seats are
  // also read again when the player comes back to the tab (a wake-up lost with the connection).
  const joinName = h('input', { type: 'text', id: 'join-name', placeholder: 'Your name', autocomplete: 'nickname', maxlength: 100 });
  let openSig = '';
  let copied = '';
  function drawOpen() {
    const g = game!;
    const sig = JSON.stringify([g.status, g.seats, seats.playerHolds, Object.keys(seats.held), message, copied, busy, inviteCode]);
    if (sig === openSig) return;
    openSig = sig;
    openBox.replaceChildren(...openGamePanel({
      game: g,
      mineHere: seats.holdsAny(),
      inviteLink: inviteCode ? inviteLink(gameId, inviteCode) : null,
      me: signedIn(),
      joinName,
      copied,
      message,
      seatList: () => seatList(g.seats),
      button,
      join: (x) => void join(x),
      act: (what) => void act(what),
      copy: (text) => void copy(text),
    }));
  }

  async function copy(text: string) {
    try {
      await navigator.clipboard.writeText(text);
      copied = 'Copied.';
    } catch {
      (openBox.querySelector('#invite-link') as HTMLInputElement | null)?.select();
      copied = 'Selected: copy it with Ctrl+C (this browser does not let the page copy).';
    }
    draw();
  }

  /** joinGame: with the player token the player takes the seat; without one, a name and a seat token back. */
  async function join(s: string) {
    if (busy || !game) return;
    const name = joinName.value.trim();
    if (!pTok && !name) {
      message = { text: 'Your name, please: the other players see it on the seat.', kind: 'error' };
      return draw();
    }
    busy = true;
    message = null;
    try {
      const st = await joinSeat(gameId, s, pTok ? null : name, inviteCode, pTok);
      if (st) {
        seats.hold(s, st);
        seats.play(s);
      } else seats.asPlayer();
      if (location.pathname.startsWith('/join/')) history.replaceState(null, '', `/games/${gameId}`);
      resetLog();
      connect();
    } catch (e) {
      message = { text: `Not joined: ${reasonOf(e)}`, kind: 'error' };
    }
    busy = false;
    await refresh();
  }

  /** leaveGame frees the caller's seats of an OPEN game; cancelGame (the creator) ends it. */
  async function act(what: 'leaveGame' | 'cancelGame') {
    if (busy) return;
    busy = true;
    message = null;
    try {
      await beforeStart(what, gameId, token());
      if (what === 'leaveGame') {
        seats.left();
        connect();
      }
      message = { text: what === 'leaveGame' ? 'You left the game: your seat is open again.' : 'The game is cancelled.', kind: 'info' };
    } catch (e) {
      message = { text: `${what === 'leaveGame' ? 'Not left' : 'Not cancelled'}: ${reasonOf(e)}`, kind: 'error' };
    }
    busy = false;
    await refresh();
  }

  const reasonOf = (e: unknown) => (e instanceof ApiError ? `${e.reason ?? e.message} (${e.code})` : (e as Error).message);
  const resetLog = () => {
    log.reset();
  };

  const openDetails = new Set<string>();
  const remember = (key: string, e: Event) => ((e.target as HTMLDetailsElement).open ? openDetails.add(key) : openDetails.delete(key));

  function button(label: string, onclick: () => void, attrs: Record<string, string> = {}) {
    return h('button', { type: 'button', onclick, ...(busy ? { disabled: true } : {}), ...attrs }, label);
  }

  function drawActions(ctx: BoardContext) {
    if (!game) return;
    const { main, side } = actionsPanel({
      game, board, picking, ctx, boardCommands: ctxCommands(), replaying: !!replay, seat: current(),
      confirmResign, setConfirmResign: (v) => (confirmResign = v),
      commandsOpen: openDetails.has('commands'), toggleCommands: (e) => remember('commands', e),
      seatName, describe, button, run: (c) => void run(c),
      refused: (text) => ((message = { text, kind: 'error' }), draw()),
      redraw: draw,
    });
    actions.replaceChildren(...main);
    more.replaceChildren(...side);
  }

  const replayView = replayBar(replayBox, (v) => void showVersion(v));
  function drawReplay() {
    if (!game) return;
    const at = replay?.version ?? null;
    replayView.draw(game.version, at, at === null ? '' : lineFor(log.at(at)),
      replay ? button('Back to the live game', () => ((replay = null), draw()), { class: 'live-btn' }) : '');
  }

  async function showVersion(v: number) {
    if (!game) return;
    if (v >= game.version) {
      replay = null;
    } else {
      const view = await loadViewAt(gameId, v, token());
      replay = { version: v, view };
      picking.reset();
    }
    draw();
  }

  const lineFor = (e: GameEvent | undefined) => (e ? formatEvent(board, e, game?.view, seatName) : '');

  function drawLog() {
    if (log.drawn === log.events.length && !replay) return;
    log.drawn = log.events.length;
    logList.replaceChildren(...log.events.map((e) => h('li', { value: e.version, class: replay?.version === e.version ? 'current' : '', 'data-version': e.version }, lineFor(e))));
    logList.scrollTop = logList.scrollHeight;
  }

  function drawSeats() {
    if (!game) return;
    const mine = Object.entries(seats.held);
    seatsBox.replaceChildren(
      h('h2', {}, 'Seats'),
      seatList(game.seats),
      clockNote(game.clock),
      seatLinks(mine.map(([s, t]) => ({ seat: s, link: seatLink(gameId, s, t), handOver: mine.length > 1 ? button(`Hand ${pretty(s)} over (forget it here)`, () => void handOver(s, t), { class: 'hand-over', 'data-seat': s }) : null })),
        openDetails.has('links'), (e) => remember('links', e)),
      handedOverLinks(handedOver),
      tokenForm(),
    );
  }

  /** A seat added by its token (panels.ts): held here and played from now on. */
  const tokenForm = () => seatTokenForm(async (t) => {
    try {
      const g = await loadGame(gameId, t);
      if (!g.yourSeat) throw new Error('That token holds no seat in this game.');
      seats.hold(g.yourSeat, t);
      await switchSeat(g.yourSeat);
    } catch (err) {
      message = { text: `Not added: ${(err as Error).message}`, kind: 'error' };
      draw();
    }
  });

  const handedOver: [string, string][] = [];
  async function handOver(s: string, t: string) {
    handedOver.push([s, seatLink(gameId, s, t)]);
    seats.drop(s);
    if (seats.seat === s) await switchSeat(Object.keys(seats.held)[0] ?? null);
    else draw();
  }

  async function switchSeat(s: string | null) {
    if (!seats.pick(s, game?.version ?? 0)) return;
    picking.reset();
    // The log is redacted per seat: read it again as the new seat.
    resetLog();
    connect();
    await refresh();
  }

  let refreshing: Promise<void> | null = null;
  let again = false;
  async function refresh(): Promise<void> {
    if (refreshing) {
      again = true;
      return refreshing;
    }
    refreshing = (async () => {
      do {
        again = false;
        const before = game?.version;
        // A game not started has no view: ask for it once the game has started.
        const started = (status: string) => status !== 'OPEN' && status !== 'ABANDONED';
        game = await loadGame(gameId, token(), started(game?.status ?? found!.status));
        if (!game.view && started(game.status)) game = await loadGame(gameId, token());
        if (before !== undefined && before !== game.version) void refreshWaiting();
        // Hot seat: the page may follow the turn to another seat held here (game-state.ts).
        if (seats.read(game)) {
          resetLog();
          connect();
          again = true;
        }
      } while (again);
      if (game!.status !== 'OPEN' && game!.status !== 'ABANDONED' && picking.selection && !buildContext().selectable.has(picking.selection)) picking.selection = null;
      draw();
    })().finally(() => (refreshing = null));
    return refreshing;
  }

  // Live updates (live.ts): each new event joins the log; one past the page's version
  // reloads the game.
  let stopFollowing: (() => void) | null = null;
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;
  function connect() {
    stopFollowing?.();
    talk.follow(token());
    stopFollowing = followGame(gameId, token(), {
      after: () => log.lastSeen,
      connection: (text, ok) => !disposed && setConnection(text, ok),
      seats: {
        open: () => game?.status === 'OPEN',
        query: seatsQuery,
        changed: (g) => {
          // Still waiting (or cancelled): the seats as pushed. Started: gameEvents brings the setup.
          if (!game || disposed || (g.status !== 'OPEN' && g.status !== 'ABANDONED')) return;
          game = { ...game, ...g };
          seats.read(game);
          draw();
        },
      },
      event: (e) => {
        log.add(e);
        if (!game || e.version > game.version) {
          clearTimeout(refreshTimer);
          refreshTimer = setTimeout(() => void refresh(), 60);
        } else drawLog();
      },
    });
  }

  // Boards lay themselves out for the screen's width (phones get a vertical map).
  let resizeTimer: ReturnType<typeof setTimeout> | undefined;
  let lastNarrow = window.innerWidth < 700;
  const onResize = () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      if ((window.innerWidth < 700) !== lastNarrow) (lastNarrow = !lastNarrow), draw();
    }, 150);
  };
  window.addEventListener('resize', onResize);
  const onVisible = () => {
    if (document.visibilityState === 'visible' && game?.status === 'OPEN' && !disposed) void refresh().catch(() => {});
  };
  document.addEventListener('visibilitychange', onVisible);

  try {
    await refresh();
  } catch (e) {
    root.replaceChildren(h('h1', {}, 'This game could not be loaded'), h('p', {}, (e as Error).message), h('p', {}, h('a', { href: '/' }, 'Back to the lobby')));
    return () => {};
  }
  connect();
  return () => {
    disposed = true;
    stopCountdowns();
    window.removeEventListener('resize', onResize);
    document.removeEventListener('visibilitychange', onVisible);
    stopFollowing?.();
    talk.dispose();
    setConnection('', true);
  };
}
