// Each game's board lives in its own folder (games/<name>/web/ in the package, or
// web/ beside an installed game's module), served at /static/games/<name>/: i18n.js
// (its strings), rules.js (its rules page in every language) and index.js (the table
// renderer). A game that ships no board gets the generic one (genericboard.js).
// Adding a game adds that folder; nothing here changes.

import { api } from './api.js';
import genericBoard from './genericboard.js';
import { register } from './i18n.js';

const loaded = new Map();

function load(name, file) {
  const key = `${name}/${file}`;
  if (!loaded.has(key)) {
    if (!/^[\w-]+$/.test(name)) return Promise.reject(new Error(`bad game name ${name}`));
    // A game with no folder of its own: nothing to ask the server for (no 404s).
    loaded.set(key, facts(name).then((found) => (found.board
      ? import(`../games/${name}/${file}`)
      : Promise.reject(new Error(`${name} ships no ${file}`)))));
  }
  return loaded.get(key);
}

/** Register a game's strings; resolves false when the game has none. */
export async function loadStrings(name) {
  try {
    const module = await load(name, 'i18n.js');
    register(module.default);
    return true;
  } catch {
    return false;
  }
}

/** The renderer of a game: {mount(root, ctx) -> {state, event, rejected, destroy}}; the
 * generic board (its view as text, its legal actions as buttons) when it ships none. */
export async function loadRenderer(name) {
  if (!(await facts(name)).board) return genericBoard;
  await loadStrings(name);
  return (await load(name, 'index.js')).default;
}

let listed = null;

/** What GET /api/games says of a game ({} when the server cannot say): realtime, board... */
export async function facts(name) {
  if (!listed) listed = api.games().catch(() => { listed = null; return []; });
  const found = (await listed).find((game) => game.name === name);
  return found || { board: true }; // an older server (or a failed look): try its own board
}

/** A game's rules: {en: html, fr: html, ...}, or null when it has none yet. */
export async function loadRules(name) {
  await loadStrings(name);
  try {
    return (await load(name, 'rules.js')).default;
  } catch {
    return null;
  }
}
