// Delivering a roasting area: how many cubes of each colour each café takes,
// the rest to the warehouse. The choices are exactly the `to` of the legal
// deliver actions of that area: the panel starts on the one that sends the
// most cubes to cafés, and a +/- is offered only when it leads to another
// legal `to`, so Deliver always sends an action from `legal`.

import { attrs, html } from '../../js/dom.js';
import { t } from '../../js/i18n.js';
import { COLOURS, cube } from './icons.js';

/** A `to` as a comparable string (zeros and empty cafés left out). */
function signature(to) {
  const parts = [];
  for (const cafe of Object.keys(to || {}).sort()) {
    for (const colour of COLOURS) {
      const n = (to[cafe] || {})[colour] || 0;
      if (n) parts.push(`${cafe}:${colour}:${n}`);
    }
  }
  return parts.join('|');
}

function sent(to) {
  return Object.values(to || {}).reduce((sum, by) => sum + Object.values(by).reduce((a, b) => a + b, 0), 0);
}

export class Delivery {
  /** area: the view's area JSON; actions: the legal deliver actions for it. */
  constructor(area, actions) {
    this.area = area;
    this.actions = actions;
    this.bySig = new Map(actions.map((a) => [signature(a.to), a]));
    let best = actions[0];
    for (const a of actions) if (sent(a.to) > sent(best.to)) best = a;
    this.sel = JSON.parse(JSON.stringify(best.to || {}));
  }

  get key() { return `${this.area.id[0]},${this.area.id[1]}`; }

  value(cafe, colour) { return (this.sel[cafe] || {})[colour] || 0; }

  with(cafe, colour, n) {
    const next = JSON.parse(JSON.stringify(this.sel));
    next[cafe] = { ...(next[cafe] || {}), [colour]: n };
    return next;
  }

  can(cafe, colour, delta) {
    const n = this.value(cafe, colour) + delta;
    return n >= 0 && this.bySig.has(signature(this.with(cafe, colour, n)));
  }

  change(cafe, colour, delta) {
    if (this.can(cafe, colour, delta)) this.sel = this.with(cafe, colour, this.value(cafe, colour) + delta);
  }

  /** Everything to the warehouse, when that is legal (it always is). */
  none() {
    if (this.bySig.has('')) this.sel = {};
  }

  action() { return this.bySig.get(signature(this.sel)) || null; }

  /** Every café some legal delivery of this area reaches. */
  targets() {
    return new Set(COLOURS.flatMap((colour) => this.takers(colour)));
  }

  /** Cafés that may take some of a colour, in any legal delivery. */
  takers(colour) {
    const ids = new Set();
    for (const a of this.actions) {
      for (const [cafe, by] of Object.entries(a.to || {})) if (by[colour]) ids.add(cafe);
    }
    return [...ids].sort();
  }

  /** The panel: one block per colour on the area, a stepper per café. */
  render(cafes) {
    const byId = new Map(cafes.map((c) => [c.id, c]));
    const blocks = COLOURS.filter((c) => this.area.cubes[c]).map((colour) => {
      const n = this.area.cubes[colour];
      const takers = this.takers(colour);
      const given = takers.reduce((sum, cafe) => sum + this.value(cafe, colour), 0);
      const rows = takers.map((cafe) => {
        const info = byId.get(cafe) || { id: cafe, need: {}, have: {} };
        const wants = (info.need[colour] || 0) - ((info.have || {})[colour] || 0);
        const v = this.value(cafe, colour);
        return html`<li class="dl-row" data-testid="deliver-row-${cafe}-${colour}">
          <span class="dl-cafe">${info.name || cafe} (${cafe}) <span class="muted">${t('cafe.deliver.wants', { n: wants })}</span></span>
          <button type="button" class="tiny" data-deliver="${cafe}:${colour}:-1" ${attrs({ disabled: !this.can(cafe, colour, -1) })}
            data-testid="deliver-less-${cafe}-${colour}">−</button>
          <strong data-testid="deliver-n-${cafe}-${colour}">${v}</strong>
          <button type="button" class="tiny" data-deliver="${cafe}:${colour}:1" ${attrs({ disabled: !this.can(cafe, colour, 1) })}
            data-testid="deliver-more-${cafe}-${colour}">+</button></li>`;
      });
      return html`<div class="dl-colour">
        <h4><svg viewBox="0 0 12 12" class="cf-svg dl-cube">${cube(colour, 1, 1, 10)}</svg>
          ${t('cafe.deliver.cubes', { n, colour: t(`cafe.colour.${colour}`) })}</h4>
        ${rows.length ? html`<ul>${rows}</ul>` : html`<p class="muted">${t('cafe.deliver.noCafe')}</p>`}
        <p class="dl-rest" data-testid="deliver-rest-${colour}" data-n="${n - given}">${t('cafe.deliver.rest', { n: n - given })}</p></div>`;
    });
    return html`<div class="cf-deliver" data-testid="deliver-panel" data-area="${this.key}">
      <h3>${t('cafe.deliver.title')}</h3>${blocks}
      <div class="cf-buttons">
        <button type="button" class="primary" data-act="deliver-go" data-testid="deliver-confirm"
          ${attrs({ disabled: !this.action() })}>${t('cafe.deliver.go')}</button>
        <button type="button" data-act="deliver-none" data-testid="deliver-none">${t('cafe.deliver.none')}</button>
        <button type="button" data-act="cancel" data-testid="cancel">${t('cafe.cancel')}</button>
      </div></div>`;
  }
}
