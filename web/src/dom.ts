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
    // Through the CSSOM, not a style="" attribute: a strict Content-Security-Policy allows it.
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

/**
 * After a board is drawn: each SVG button's accessible name starts with the text it shows
 * (a speech-input user says what they see), its own text only, not that of buttons inside it.
 * axe-core reads adjacent SVG texts as one word, hence the spaces added.
 */
/** The words axe-core compares: parentheticals dropped, then letters and digits only. */
const words = (text: string) => text.replace(/\([^()]*\)/g, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

export function nameButtons(root: Element) {
  for (const el of root.querySelectorAll('.hit[aria-label]')) {
    const own: string[] = [];
    const walk = (n: Node) => {
      for (const c of n.childNodes) {
        if (c instanceof Element && (c.classList.contains('hit') || c.tagName.toLowerCase() === 'title')) continue;
        if (c.nodeType === Node.TEXT_NODE) {
          // Separate texts read as separate words (SVG drops the trailing space when it draws).
          if (c.textContent && !/\s$/.test(c.textContent)) c.textContent += ' ';
          own.push(c.textContent ?? '');
        }
        else walk(c);
      }
    };
    walk(el);
    const visible = own.join(' ').replace(/\s+/g, ' ').trim();
    const label = el.getAttribute('aria-label') ?? '';
    if (visible && !` ${words(label)} `.includes(` ${words(visible)} `)) el.setAttribute('aria-label', `${visible}: ${label}`);
  }
}
