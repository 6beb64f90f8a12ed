// Each game lives in web/games/<name>/: i18n.js (its strings), rules.js (its
// rules page in every language) and index.js (the table renderer). Adding a
// game adds that folder; nothing here changes.

import { register } from './i18n.js';

const loaded = new Map();

function load(name, file) {
  const key = `${name}/${file}`;
  if (!loaded.has(key)) {
    if (!/^[\w-]+$/.test(name)) return Promise.reject(new Error(`bad game name ${name}`));
    loaded.set(key, import(`../games/${name}/${file}`));
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

/** The renderer of a game: {mount(root, ctx) -> {state, event, rejected, destroy}}. */
export async function loadRenderer(name) {
  await loadStrings(name);
  return (await load(name, 'index.js')).default;
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
