// #/rules/<game>: a short rules page per game, in the current language.
// The tabs list the server's games; each game's page is web/games/<name>/rules.js.

import { api } from './api.js';
import { esc } from './dom.js';
import { lang, t, has } from './i18n.js';
import { loadRules, loadStrings } from './games.js';

export function mount(root, route) {
  let destroyed = false;
  root.innerHTML = `
    <section class="rules-page panel" data-testid="rules-page">
      <nav class="rules-tabs"></nav>
      <article class="rules" data-testid="rules-body"><p class="muted">${t('common.loading')}</p></article>
    </section>`;
  const tabs = root.querySelector('.rules-tabs');
  const body = root.querySelector('.rules');

  async function show() {
    let names = [];
    try {
      names = (await api.games()).map((game) => game.name);
    } catch {
      if (route.game) names = [route.game];
    }
    const game = route.game || names[0];
    await Promise.all(names.map(loadStrings));
    const rules = game ? await loadRules(game) : null;
    if (destroyed) return;
    tabs.innerHTML = names.map((name) => `
      <a href="#/rules/${esc(name)}" class="${name === game ? 'active' : ''}" data-testid="rules-tab-${esc(name)}">
        ${esc(has(`${name}.title`) ? t(`${name}.title`) : name)}</a>`).join('');
    if (!rules) {
      body.innerHTML = `<p data-testid="rules-missing">${t('rules.missing')}</p>`;
      return;
    }
    const page = rules[lang()] || rules.en;
    body.innerHTML = typeof page === 'function' ? page() : page;
  }

  show();
  return { destroy() { destroyed = true; } };
}
