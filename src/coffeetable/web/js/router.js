// Hash routes: #/ (lobby), #/table/<id>, #/rules/<game>.

const ROUTES = [
  [/^#?\/?$/, () => ({ view: 'lobby' })],
  [/^#\/table\/([^/?]+)$/, (m) => ({ view: 'table', id: decodeURIComponent(m[1]) })],
  [/^#\/rules\/([\w-]+)$/, (m) => ({ view: 'rules', game: m[1] })],
  [/^#\/rules\/?$/, () => ({ view: 'rules', game: null })],
];

/** The route for a hash: {view, ...params}; unknown hashes go to the lobby. */
export function parse(hash) {
  for (const [pattern, build] of ROUTES) {
    const match = pattern.exec(hash);
    if (match) return build(match);
  }
  return { view: 'lobby' };
}

export function go(hash) {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = hash;
}

/** Call render(route) now and on every hash change. */
export function start(render) {
  const run = () => render(parse(location.hash));
  window.addEventListener('hashchange', run);
  run();
}
