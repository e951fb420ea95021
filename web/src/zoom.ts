/**
 * Zoom and pan for a board: buttons, Ctrl+wheel (a trackpad's pinch) and a two-finger pinch
 * on a touch screen; the board's box scrolls to pan. Until the player zooms, the board is
 * drawn large enough that its smallest text is at least 11 px (on a phone that means
 * zoomed in, and panned by scrolling the box).
 */
import { h } from './dom.ts';

const MIN_TEXT_PX = 11;
const MAX_ZOOM = 5;

export interface Zoom {
  controls: HTMLElement;
  /** After each drawing: size the new SVG, keep where the player had panned to. */
  fit(svg: Element | null, scroll: { left: number; top: number }): void;
}

export function zoomable(box: HTMLElement, redraw: () => void): Zoom {
  let chosen: number | null = null; // null: the legible zoom
  let current = 1;
  const clamp = (z: number) => Math.min(MAX_ZOOM, Math.max(1, z));
  const set = (z: number | null) => {
    chosen = z === null ? null : clamp(z);
    redraw();
  };
  const label = h('span', { class: 'zoom-level', 'aria-live': 'polite' });
  const controls = h('div', { class: 'zoom', role: 'group', 'aria-label': 'Zoom the board' },
    h('button', { type: 'button', 'aria-label': 'Zoom out', title: 'Zoom out', onclick: () => set(current / 1.4) }, '−'),
    h('button', { type: 'button', 'aria-label': 'Zoom in', title: 'Zoom in', onclick: () => set(current * 1.4) }, '+'),
    h('button', { type: 'button', onclick: () => set(null) }, 'Fit text'),
    h('button', { type: 'button', onclick: () => set(1) }, 'Whole board'),
    label,
  );

  box.addEventListener('wheel', (e) => {
    if (!e.ctrlKey && !e.metaKey) return; // a plain wheel scrolls the page
    e.preventDefault();
    set(current * Math.exp(-e.deltaY / 300));
  }, { passive: false });
  let pinch: { distance: number; zoom: number } | null = null;
  const distance = (t: TouchList) => Math.hypot(t[0]!.clientX - t[1]!.clientX, t[0]!.clientY - t[1]!.clientY);
  box.addEventListener('touchstart', (e) => {
    if (e.touches.length === 2) pinch = { distance: distance(e.touches), zoom: current };
  }, { passive: true });
  box.addEventListener('touchmove', (e) => {
    if (!pinch || e.touches.length !== 2) return;
    e.preventDefault();
    set(pinch.zoom * (distance(e.touches) / pinch.distance));
  }, { passive: false });
  box.addEventListener('touchend', () => (pinch = null));

  return {
    controls,
    fit(svg, scroll) {
      if (!(svg instanceof SVGSVGElement)) {
        controls.hidden = true;
        return;
      }
      controls.hidden = false;
      current = chosen ?? legibleZoom(svg, box);
      svg.style.width = `${current * 100}%`;
      svg.style.maxHeight = current > 1 ? 'none' : '';
      label.textContent = `${Math.round(current * 100)} %`;
      box.scrollLeft = scroll.left;
      box.scrollTop = scroll.top;
    },
  };
}

/** The zoom at which the drawing's smallest text is MIN_TEXT_PX on screen. */
function legibleZoom(svg: SVGSVGElement, box: HTMLElement): number {
  const viewWidth = svg.viewBox.baseVal?.width;
  if (!viewWidth) return 1;
  svg.style.width = '100%';
  const scale = svg.getBoundingClientRect().width / viewWidth || box.clientWidth / viewWidth;
  let smallest = Number.POSITIVE_INFINITY;
  for (const t of svg.querySelectorAll('text')) {
    const size = Number.parseFloat(getComputedStyle(t).fontSize);
    if (size > 0 && t.textContent?.trim()) smallest = Math.min(smallest, size);
  }
  if (!Number.isFinite(smallest) || scale <= 0) return 1;
  return Math.min(MAX_ZOOM, Math.max(1, MIN_TEXT_PX / (smallest * scale)));
}
