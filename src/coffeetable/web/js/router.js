// Hash routes: #/ (lobby), #/table/<id>, #/replay/<id>, #/rules/<game>, #/learn/<game>, #/signin, #/signup,
// #/sessions, #/bots, #/games, #/notifications, #/friends, #/moderation, #/players/<name>,
// #/leaderboards[/<game>[/<group>]], #/tournaments[/<id>], #/leagues/<game>.

const part = (text) => decodeURIComponent(text);

const ROUTES = [
  [/^#?\/?$/, () => ({ view: 'lobby' })],
  [/^#\/table\/([^/?]+)$/, (m) => ({ view: 'table', id: decodeURIComponent(m[1]) })],
  [/^#\/replay\/([^/?]+)$/, (m) => ({ view: 'replay', id: decodeURIComponent(m[1]) })],
  [/^#\/rules\/([\w-]+)$/, (m) => ({ view: 'rules', game: m[1] })],
  [/^#\/rules\/?$/, () => ({ view: 'rules', game: null })],
  [/^#\/learn\/([\w-]+)$/, (m) => ({ view: 'learn', game: m[1] })],
  [/^#\/signin\/?$/, () => ({ view: 'signin' })],
  [/^#\/signup\/?$/, () => ({ view: 'signup' })],
  [/^#\/sessions\/?$/, () => ({ view: 'sessions' })],
  [/^#\/bots\/?$/, () => ({ view: 'bots' })],
  [/^#\/notifications\/?$/, () => ({ view: 'notices' })],
  [/^#\/friends\/?$/, () => ({ view: 'friends' })],
  [/^#\/moderation\/?$/, () => ({ view: 'moderation' })],
  [/^#\/games\/?$/, () => ({ view: 'games' })],
  [/^#\/players\/([^/?]+)$/, (m) => ({ view: 'profile', name: part(m[1]) })],
  [/^#\/tournaments\/?$/, () => ({ view: 'tournaments', id: null })],
  [/^#\/tournaments\/([^/?]+)$/, (m) => ({ view: 'tournaments', id: part(m[1]) })],
  [/^#\/leagues\/([\w-]+)$/, (m) => ({ view: 'league', game: m[1] })],
  [/^#\/leaderboards\/?$/, () => ({ view: 'leaderboard', game: null, group: null })],
  [/^#\/leaderboards\/([\w-]+)(?:\/([^/?]+))?$/, (m) => ({
    view: 'leaderboard', game: m[1], group: m[2] ? part(m[2]) : null,
  })],
];

/** The route for a hash: {view, ...params}; unknown hashes go to the lobby. */
export function parse(hash) {
  for (const [pattern, build] of ROUTES) {
    const match = pattern.exec(hash);
    if (match) {
      try {
        return build(match);
      } catch {
        break; // a malformed %-escape: the lobby
      }
    }
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
