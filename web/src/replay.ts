/**
 * The replay slider under the board: one position per version, the line of the version
 * shown, and a way back to the live game. It draws and says which version the player
 * picked (after a short pause, so dragging does not read every version); the game page
 * loads that version's view.
 */
import { h } from './dom.ts';

export interface ReplayBar {
  /** `at`: the version replayed, null live; `line`: that version's log line; `back`: the button back to the live game. */
  draw(max: number, at: number | null, line: string, back: Node | ''): void;
}

export function replayBar(box: HTMLElement, pick: (version: number) => void): ReplayBar {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const slider = h('input', { type: 'range', min: 1, max: 1, value: 1, step: 1, 'aria-label': 'Replay: version', oninput: (e: Event) => {
    const v = Number((e.target as HTMLInputElement).value);
    clearTimeout(timer);
    timer = setTimeout(() => pick(v), 120);
  } });
  const label = h('span', { class: 'replay-label', 'aria-live': 'polite' });
  const live = h('span');
  box.append(h('label', { class: 'replay-row' }, 'Replay ', slider), label, live);
  return {
    draw(max, at, line, back) {
      slider.max = String(max);
      // While the player drags, the slider stays where their finger is.
      if (document.activeElement !== slider || at === null) slider.value = String(at ?? max);
      label.textContent = at !== null ? `Version ${at} of ${max}: ${line}` : `Live: version ${max}`;
      live.replaceChildren(back);
    },
  };
}
