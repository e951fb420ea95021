/** Small DOM helpers: build HTML and SVG elements without a framework. */
type Child = Node | string | number | null | undefined | false | Child[];
type Attrs = Record<string, string | number | boolean | null | undefined | ((e: Event) => void)>;

function append(el: Element, children: Child[]) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : String(c));
  }
}

function setAttrs(el: Element, attrs: Attrs) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, '').toLowerCase(), v as EventListener);
    // Through the CSSOM: the service's Content-Security-Policy refuses style attributes.
    else if (k === 'style') (el as HTMLElement | SVGElement).style.cssText = String(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
export function s(tag: string, attrs: Attrs = {}, ...children: Child[]): SVGElement {
  const el = document.createElementNS(SVG_NS, tag) as SVGElement;
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** An SVG element that acts as a button: focusable, Enter/Space activate it. */
export function svgButton(el: SVGElement, label: string, onActivate: () => void): SVGElement {
  el.setAttribute('tabindex', '0');
  el.setAttribute('role', 'button');
  el.setAttribute('aria-label', label);
  el.classList.add('hit');
  el.addEventListener('click', (e) => {
    e.stopPropagation();
    onActivate();
  });
  el.addEventListener('keydown', (e) => {
    const k = (e as KeyboardEvent).key;
    if (k === 'Enter' || k === ' ') {
      e.preventDefault();
      e.stopPropagation();
      onActivate();
    }
  });
  const title = document.createElementNS(SVG_NS, 'title');
  title.textContent = label;
  el.prepend(title);
  return el;
}

export function clear(el: Element) {
  while (el.firstChild) el.firstChild.remove();
}

/** "baphite-swarm-1" → "Baphite Swarm 1". */
export function pretty(key: string): string {
  return key.replace(/[-_]/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').replace(/\b\w/g, (c) => c.toUpperCase());
}

export const SEAT_COLOURS: Record<string, string> = {
  cao: '#2b6cb0', yuan: '#c05621',
  wei: '#2b6cb0', shu: '#2f855a', wu: '#c53030', jin: '#6b46c1',
  red: '#c53030', blue: '#2b6cb0', green: '#2f855a', yellow: '#b7791f',
  azuthkan: '#9b2c2c', celestine: '#2c5282',
};
export const seatColour = (seat: string | null | undefined) => (seat && SEAT_COLOURS[seat]) || '#4a5568';
