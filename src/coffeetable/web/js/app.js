// Boot: the language switch, the top navigation and the hash router.

import { attrs, html, setHTML } from './dom.js';
import { start } from './router.js';
import { LANGUAGES, lang, setLang, onLangChange, t } from './i18n.js';
import * as lobby from './lobby.js';
import * as table from './table.js';
import * as rules from './rules.js';

const VIEWS = { lobby, table, rules };
const app = document.getElementById('app');
let route = null;
let active = null;

function mount(next) {
  if (active && active.destroy) active.destroy();
  route = next;
  app.replaceChildren();
  app.dataset.view = next.view;
  active = VIEWS[next.view].mount(app, next) || {};
  window.coffeetable.view = active;
  renderChrome();
}

function renderChrome() {
  const nav = document.getElementById('topnav');
  const here = route ? route.view : 'lobby';
  setHTML(nav, html`
    <a href="#/" class="${here === 'lobby' ? 'active' : ''}" data-testid="nav-lobby">${t('nav.lobby')}</a>
    <a href="#/rules" class="${here === 'rules' ? 'active' : ''}" data-testid="nav-rules">${t('nav.rules')}</a>`);
  document.getElementById('lang-label').textContent = t('lang.label');
  const select = document.getElementById('lang-select');
  setHTML(select, html`${Object.entries(LANGUAGES)
    .map(([code, name]) => html`<option value="${code}" ${attrs({ selected: code === lang() })}>${name}</option>`)}`);
  document.title = t('app.title');
}

document.getElementById('lang-select').addEventListener('change', (event) => setLang(event.target.value));

onLangChange(() => {
  // A live table keeps its connection and only redraws its words.
  if (active && active.relabel) {
    active.relabel();
    renderChrome();
  } else if (route) {
    mount(route);
  }
});

window.coffeetable = { view: null, get route() { return route; } };
start(mount);
