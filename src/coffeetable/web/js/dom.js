// Small DOM helpers shared by every view, and the one way markup enters the page.
//
// The escaping rule: every piece of markup is built with html`...`, which escapes
// every interpolated value (names, table names, server text, translations) and
// returns trusted Markup; setHTML(el, markup) is the only place that sets
// innerHTML, and it refuses plain strings. A value is inserted as markup only when
// it already is Markup: made by html`` itself, by attrs(), or by trustedMarkup()
// for the few static pieces we write ourselves (rules pages, SVG symbol bodies).
// So `grep trustedMarkup` lists everything that is not escaped.

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text with every HTML metacharacter escaped: safe between tags and inside a quoted attribute. */
function escapeText(value) {
  return String(value).replace(/[&<>"']/g, (ch) => ESCAPES[ch]);
}

// Only this module can make Markup: the constructor wants a token nobody else has.
const MINT = Symbol('markup');

class Markup {
  constructor(mint, text, isAttributes = false) {
    if (mint !== MINT) throw new TypeError('make markup with html`...` or trustedMarkup()');
    this.text = text;
    this.isAttributes = isAttributes; // made by attrs(): may stand inside a tag
    Object.freeze(this);
  }

  toString() { return this.text; }
}

/**
 * Static markup written by us, inserted as is. Never pass it anything that came
 * from the server, the URL or a player: that is what html`` is for.
 */
export function trustedMarkup(text) {
  return new Markup(MINT, String(text));
}

// Where a hole of a template stands: between tags, inside a quoted attribute
// value, or inside a tag where an attribute name would go.
const TEXT = 'text';
const VALUE = 'value';
const TAG = 'tag';

/** The context of each hole of a template (worked out once per call site). */
const contextsBySite = new WeakMap();

function holeContexts(strings) {
  let contexts = contextsBySite.get(strings);
  if (contexts) return contexts;
  contexts = [];
  let state = TEXT;
  let quote = '';
  for (let n = 0; n < strings.length - 1; n += 1) {
    const chunk = strings[n];
    for (let i = 0; i < chunk.length; i += 1) {
      const ch = chunk[i];
      if (state === TEXT && ch === '<') {
        if (i === chunk.length - 1) throw new TypeError('html``: no value may make a tag name');
        if (/[A-Za-z/!?]/.test(chunk[i + 1])) state = TAG;
      } else if (state === TAG && (ch === '"' || ch === "'")) {
        state = VALUE;
        quote = ch;
      } else if (state === TAG && ch === '>') {
        state = TEXT;
      } else if (state === VALUE && ch === quote) {
        state = TAG;
      }
    }
    if (state === TAG && /=\s*$/.test(chunk)) {
      // an unquoted value ends at the first space: a name with a space would add attributes
      throw new TypeError(`html\`\`: quote the attribute value after ${JSON.stringify(chunk.slice(-30))}`);
    }
    contexts.push(state);
  }
  contextsBySite.set(strings, contexts);
  return contexts;
}

/** One interpolated value as markup, for its context. */
function insert(value, context) {
  if (Array.isArray(value)) return value.map((item) => insert(item, context)).join('');
  if (value == null) return '';
  if (context === TAG) {
    // inside a tag only whole attributes from attrs() may stand: escaping alone
    // would not stop a value like `x onmouseover=...` from adding attributes
    if (value instanceof Markup && value.isAttributes) return value.text;
    if (value === '' || value === false) return '';
    throw new TypeError('html``: inside a tag use attrs({...}) or a quoted attribute value');
  }
  if (context === VALUE) return escapeText(value instanceof Markup ? value.text : value);
  return value instanceof Markup ? value.text : escapeText(value);
}

/**
 * The tag of every template that makes markup: html`<b>${name}</b>`.
 * Each value is escaped (text and attribute values alike); Markup goes in as is;
 * an array goes in item by item; null and undefined add nothing. Attribute values
 * must be quoted; a hole inside a tag (where attribute names go) takes only
 * attrs({...}), or '' / false / null for none.
 */
export function html(strings, ...values) {
  const contexts = holeContexts(strings);
  let out = strings[0];
  values.forEach((value, i) => {
    out += insert(value, contexts[i]) + strings[i + 1];
  });
  return new Markup(MINT, out);
}

/** Markup items with a separator between them (like Array.join, for markup). */
export function joinHtml(items, separator) {
  return html`${items.map((item, i) => (i ? html`${separator}${item}` : item))}`;
}

/**
 * Attributes for inside a tag: attrs({disabled: !ok, 'data-card': id}) gives
 * ` data-card="7"` (or ` disabled data-card="7"`). true: the bare name; false,
 * null and undefined: left out; anything else: its escaped value.
 */
export function attrs(map) {
  let out = '';
  for (const [name, value] of Object.entries(map)) {
    if (!/^[a-zA-Z][\w:.-]*$/.test(name) || /^on/i.test(name)) throw new TypeError(`attrs(): bad attribute name ${name}`);
    if (value == null || value === false) continue;
    out += value === true ? ` ${name}` : ` ${name}="${escapeText(value)}"`;
  }
  return new Markup(MINT, out, true);
}

/** Put markup into an element. Refuses plain strings: build them with html``. */
export function setHTML(el, markup) {
  if (!(markup instanceof Markup)) throw new TypeError('setHTML() takes markup from html`...`, not a string');
  el.innerHTML = markup.text;
}

/** Load a stylesheet of ours once (a <link>, which the Content-Security-Policy allows). */
export function stylesheet(id, href) {
  if (document.getElementById(id)) return;
  const link = document.createElement('link');
  link.id = id;
  link.rel = 'stylesheet';
  link.href = href;
  document.head.append(link);
}

/** The first element matching selector inside root (default: document). */
export function $(selector, root = document) {
  return root.querySelector(selector);
}

/** Run handler(event, matched) for clicks on elements matching selector inside root. */
export function onClick(root, selector, handler) {
  const listener = (event) => {
    const target = event.target.closest(selector);
    if (target && root.contains(target)) handler(event, target);
  };
  root.addEventListener('click', listener);
  return () => root.removeEventListener('click', listener);
}

/** Show a short message in the corner for a few seconds (as text, never markup). */
export function toast(text, kind = 'info', seconds = 4) {
  const box = document.getElementById('toasts');
  if (!box) return;
  const item = document.createElement('div');
  item.className = `toast toast-${kind}`;
  item.setAttribute('data-testid', `toast-${kind}`);
  item.textContent = text;
  box.append(item);
  setTimeout(() => item.remove(), seconds * 1000);
}

/** Show or hide the banner under the top bar (e.g. "reconnecting"), as text. */
export function banner(text, kind = 'warn') {
  const box = document.getElementById('banner');
  if (!box) return;
  box.hidden = !text;
  box.textContent = text || '';
  box.className = `banner banner-${kind}`;
}
