// Every string the UI shows goes through t(), as plain text (see t() below).
// The common tables live in web/i18n/<lang>.js; each game adds its own
// (games/<name>/web/i18n.js, served at /static/games/<name>/) with register().
import en from '../i18n/en.js';
import fr from '../i18n/fr.js';
import de from '../i18n/de.js';
import es from '../i18n/es.js';

export const LANGUAGES = { en: 'English', fr: 'Français', de: 'Deutsch', es: 'Español' };
const STORAGE_KEY = 'coffeetable.lang';
const tables = { en: { ...en }, fr: { ...fr }, de: { ...de }, es: { ...es } };
const listeners = new Set();
let current = detect();

function detect() {
  const saved = safeGet(STORAGE_KEY);
  if (saved && saved in LANGUAGES) return saved;
  for (const tag of navigator.languages || [navigator.language || 'en']) {
    const code = String(tag).slice(0, 2).toLowerCase();
    if (code in LANGUAGES) return code;
  }
  return 'en';
}

function safeGet(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

/** The language in use: "en", "fr", "de" or "es". */
export function lang() { return current; }

/** Switch language, remember the choice, and tell every listener. */
export function setLang(code) {
  if (!(code in LANGUAGES) || code === current) return;
  current = code;
  try { localStorage.setItem(STORAGE_KEY, code); } catch { /* private mode */ }
  document.documentElement.lang = code;
  for (const fn of listeners) fn(code);
}

export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Add strings: {en: {key: text}, fr: {...}, ...} (a game's own table). */
export function register(extra) {
  for (const [code, strings] of Object.entries(extra)) {
    if (tables[code]) Object.assign(tables[code], strings);
  }
}

/** Whether a key exists (in English, the reference table). */
export function has(key) { return key in tables.en; }

/**
 * The text for key in the current language, falling back to English, then to
 * the key itself. "{name}" placeholders are filled from params, in one pass (a
 * param that itself reads "{name}" stays as it is).
 *
 * t() returns plain text, never markup: use it with textContent, in attributes,
 * or inside html`` (web/js/dom.js), which escapes it like any other value. No
 * translation carries markup; the markup around a translation (<b>, a chip, a
 * card) is written in the html`` template that shows it.
 */
export function t(key, params) {
  const text = lookup(plural(key, params));
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (all, name) => (name in params ? String(params[name]) : all));
}

function lookup(key) {
  return tables[current][key] ?? tables.en[key] ?? key;
}

const pluralRules = new Map();

/**
 * Plurals: a key written as "key.one" / "key.other" (and, where a language
 * needs them, "key.few", "key.many", ...) is chosen by params.count through
 * Intl.PluralRules of the language in use; a category the table lacks falls
 * back to "key.other". Every language writes whole sentences per form:
 * t('profile.games', {count: 3}) -> "3 games", "3 parties", "3 Partien".
 */
function plural(key, params) {
  if (!params || typeof params.count !== 'number' || !(`${key}.other` in tables.en)) return key;
  if (!pluralRules.has(current)) pluralRules.set(current, new Intl.PluralRules(current));
  const category = pluralRules.get(current).select(params.count);
  const chosen = `${key}.${category}`;
  return chosen in tables[current] || chosen in tables.en ? chosen : `${key}.other`;
}

/** The keys of every table, for the completeness test. */
export function keysByLanguage() {
  return Object.fromEntries(Object.entries(tables).map(([code, table]) => [code, Object.keys(table).sort()]));
}

document.documentElement.lang = current;
