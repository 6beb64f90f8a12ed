// Small DOM helpers shared by every view.

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escape text for use inside HTML markup or an attribute. */
export function esc(value) {
  return String(value ?? '').replace(/[&<>"']/g, (ch) => ESCAPES[ch]);
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

/** Show a short message in the corner for a few seconds. */
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

/** Show or hide the banner under the top bar (e.g. "reconnecting"). */
export function banner(text, kind = 'warn') {
  const box = document.getElementById('banner');
  if (!box) return;
  box.hidden = !text;
  box.textContent = text || '';
  box.className = `banner banner-${kind}`;
}
