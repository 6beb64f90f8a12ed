// #/rules/<game>: a short rules page per game, in the current language.
// The tabs list the server's games; each game's page is games/<name>/web/rules.js:
// text we wrote ourselves, which rulesPage() below trusts as markup.

import { api } from './api.js';
import { html, setHTML, trustedMarkup } from './dom.js';
import { lang, t, has } from './i18n.js';
import { loadRules, loadStrings } from './games.js';

/**
 * A game's rules page: our own text, trusted as markup, with legend() (cards drawn
 * by the game, through html``) where the text says {legend}.
 */
export function rulesPage(text, legend) {
  const [before, after = ''] = text.split('{legend}');
  return html`${trustedMarkup(before)}${legend()}${trustedMarkup(after)}`;
}

export function mount(root, route) {
  let destroyed = false;
  setHTML(root, html`
    <section class="rules-page panel" data-testid="rules-page">
      <nav class="rules-tabs"></nav>
      <article class="rules" data-testid="rules-body"><p class="muted">${t('common.loading')}</p></article>
    </section>`);
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
    setHTML(tabs, html`${names.map((name) => html`
      <a href="#/rules/${name}" class="${name === game ? 'active' : ''}" data-testid="rules-tab-${name}">
        ${has(`${name}.title`) ? t(`${name}.title`) : name}</a>`)}`);
    if (!rules) {
      setHTML(body, html`<p data-testid="rules-missing">${t('rules.missing')}</p>`);
      return;
    }
    const page = rules[lang()] || rules.en;
    setHTML(body, typeof page === 'function' ? page() : page); // a plain string is refused
  }

  show();
  return { destroy() { destroyed = true; } };
}
