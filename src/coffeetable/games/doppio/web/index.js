// The Espresso Doppio table: the path of five spaces, the players' cards, and
// what the player may do, built from `legal` only (never guessed from the view).
//
// Set-up: pick a colour of the piece being placed, then a highlighted space.
// Play: click pieces to select them (on one space: then a highlighted space
// moves them there; on two spaces: "Exchange" swaps them), click a fulfilled
// card to score it (both ways round legal: choose upright or turned 180°),
// Undo and End turn. Solo has no turns: each move costs a bean.
// The end screen breaks the beans down per round and per card (breakdown.js);
// it closes to a bar that can open it again.

import { attrs, html, setHTML, toast } from '../../js/dom.js';
import { lang, t } from '../../js/i18n.js';
import {
  hintKey, onTouchChange, setHTMLKeepingEndActions, tn,
} from '../kit.js';
import { breakdown } from './breakdown.js';
import {
  KINDS, SPACE_H, SPACE_W, diagram, installCss, piece, pieceOnSpace,
} from './pieces.js';

const GAP = 12;
const LOG_SIZE = 200;

function sameKinds(a, b) {
  return a.length === b.length && a.every((k) => b.includes(k));
}

/** Kinds in the engine's order (cup, saucer, spoon). */
function ordered(kinds) {
  return KINDS.filter((k) => kinds.has ? kinds.has(k) : kinds.includes(k));
}

class DoppioTable {
  constructor(root, ctx) {
    installCss();
    this.ctx = ctx;
    this.view = null;
    this.legal = [];
    this.sel = new Map(); // space -> Set of kinds
    this.colour = null; // set-up: the colour chosen
    this.choice = null; // a card whose orientation is being chosen
    this.log = [];
    this.endClosed = false; // the end screen folded away
    setHTML(root, html`
      <div class="doppio" data-testid="doppio">
        <div class="d-top">
          <div class="d-status" data-testid="turn-status"></div>
          <div class="d-reserve" data-testid="reserve"></div>
        </div>
        <div class="d-main">
          <div class="d-board">
            <div class="d-path" data-testid="path"></div>
            <div class="d-controls" data-testid="controls"></div>
            <div class="d-players"></div>
          </div>
          <aside class="d-side panel">
            <h3 data-i18n="doppio.log"></h3>
            <ol class="d-log" data-testid="game-log"></ol>
          </aside>
        </div>
        <div class="d-over"></div>
      </div>`);
    this.el = root.querySelector('.doppio');
    this.parts = {
      status: this.el.querySelector('.d-status'),
      reserve: this.el.querySelector('.d-reserve'),
      path: this.el.querySelector('.d-path'),
      controls: this.el.querySelector('.d-controls'),
      players: this.el.querySelector('.d-players'),
      log: this.el.querySelector('.d-log'),
      logTitle: this.el.querySelector('.d-side h3'),
      over: this.el.querySelector('.d-over'),
    };
    this.onClick = (event) => this.click(event);
    this.onKey = (event) => {
      if (event.key === 'Escape') this.clear();
    };
    this.el.addEventListener('click', this.onClick);
    document.addEventListener('keydown', this.onKey);
    this.stopTouchWatch = onTouchChange(() => this.render());
  }

  get me() { return this.ctx.seat; }

  // ---- messages from the server -----------------------------------------------------

  state(msg) {
    this.view = msg.view;
    this.legal = msg.legal || [];
    this.el.dataset.seq = String(msg.seq);
    this.keepValid();
    this.render();
  }

  /** The match's recent events, sent on (re)connection: the log starts from them. */
  retell(events) {
    this.log = events.filter((ev) => ev && ev.type).slice(-LOG_SIZE);
    this.renderLog();
  }

  event(ev) {
    if (!ev || !ev.type) return;
    this.log.push(ev);
    if (this.log.length > LOG_SIZE) this.log.shift();
    this.renderLog();
    if (this.view && this.view.phase === 'over') this.renderOver(); // the breakdown reads the log
  }

  rejected(msg) {
    toast(t('doppio.refused', { reason: msg.reason || '' }), 'error');
    this.render();
  }

  relabel() { this.render(); }

  seatsChanged() { this.render(); }

  destroy() {
    this.el.removeEventListener('click', this.onClick);
    document.removeEventListener('keydown', this.onKey);
    this.stopTouchWatch();
  }

  // ---- what is legal ----------------------------------------------------------------

  of(type) { return this.legal.filter((a) => a.type === type); }

  /** Set-up: the colours that may be placed now, and where the chosen one may go. */
  placeColours() { return [...new Set(this.of('place').map((a) => a.colour))]; }

  placeTargets() {
    const targets = new Map();
    for (const a of this.of('place')) if (a.colour === this.colour) targets.set(a.space, a);
    return targets;
  }

  /** Pieces that some move or exchange takes: "space:kind". */
  selectable() {
    const out = new Set();
    for (const a of this.of('move')) a.kinds.forEach((k) => out.add(`${a.from}:${k}`));
    for (const a of this.of('exchange')) {
      a.kinds.forEach((k) => out.add(`${a.from}:${k}`));
      a.with.forEach((k) => out.add(`${a.to}:${k}`));
    }
    return out;
  }

  /** The moves of the selection (one space): target space -> action. */
  moveTargets() {
    const targets = new Map();
    if (this.sel.size !== 1) return targets;
    const [[from, kinds]] = [...this.sel];
    for (const a of this.of('move')) {
      if (a.from === from && sameKinds(a.kinds, [...kinds])) targets.set(a.to, a);
    }
    return targets;
  }

  /** The exchange of the selection (two spaces), or null. */
  exchange() {
    if (this.sel.size !== 2) return null;
    const [a, b] = [...this.sel.keys()].sort((x, y) => x - y);
    return this.of('exchange').find((x) => x.from === a && x.to === b
      && sameKinds(x.kinds, [...this.sel.get(a)]) && sameKinds(x.with, [...this.sel.get(b)])) || null;
  }

  scoresFor(cardId) { return this.of('score').filter((a) => a.card === cardId); }

  keepValid() {
    if (!this.placeColours().includes(this.colour)) this.colour = null;
    const colours = this.placeColours();
    if (!this.colour && colours.length === 1) this.colour = colours[0];
    const ok = this.selectable();
    for (const [space, kinds] of [...this.sel]) {
      for (const k of [...kinds]) if (!ok.has(`${space}:${k}`)) kinds.delete(k);
      if (!kinds.size) this.sel.delete(space);
    }
    if (this.choice != null && this.scoresFor(this.choice).length < 2) this.choice = null;
  }

  // ---- clicks -------------------------------------------------------------------------

  click(event) {
    const el = event.target.closest('[data-colour], [data-piece], [data-target], [data-card], [data-score], [data-act]');
    if (!el || !this.el.contains(el)) return;
    const d = el.dataset;
    if (d.colour) {
      this.colour = this.colour === d.colour ? null : d.colour;
    } else if (d.piece) {
      this.togglePiece(Number(d.space), d.kind, event.shiftKey);
    } else if (d.target != null && d.target !== '') {
      this.target(Number(d.target));
      return;
    } else if (d.score) {
      const action = this.scoresFor(Number(d.card)).find((a) => String(a.turned) === d.score);
      if (action) this.send(action);
      return;
    } else if (d.card) {
      this.score(Number(d.card));
    } else if (d.act) {
      this.act(d.act);
      return;
    }
    this.render();
  }

  togglePiece(space, kind, add) {
    if (!this.selectable().has(`${space}:${kind}`)) return;
    const kinds = this.sel.get(space);
    if (kinds && kinds.has(kind)) {
      kinds.delete(kind);
      if (!kinds.size) this.sel.delete(space);
      return;
    }
    if (!kinds && this.sel.size >= 2 && !add) this.sel.clear(); // a third space starts afresh
    if (!kinds && this.sel.size >= 2) return;
    if (!this.sel.has(space)) this.sel.set(space, new Set());
    this.sel.get(space).add(kind);
  }

  target(space) {
    const action = this.view.phase === 'setup' ? this.placeTargets().get(space) : this.moveTargets().get(space);
    if (action) this.send(action);
  }

  score(cardId) {
    const options = this.scoresFor(cardId);
    if (options.length === 1) this.send(options[0]);
    else if (options.length === 2) this.choice = this.choice === cardId ? null : cardId;
  }

  act(name) {
    if (name === 'close-end' || name === 'open-end') {
      this.endClosed = name === 'close-end';
      this.renderOver();
    } else if (name === 'clear') this.clear();
    else if (name === 'exchange') {
      const action = this.exchange();
      if (action) this.send(action);
    } else {
      const action = this.legal.find((a) => a.type === name);
      if (action) this.send(action);
    }
  }

  clear() {
    this.sel.clear();
    this.choice = null;
    this.render();
  }

  send(action) {
    this.sel.clear();
    this.choice = null;
    this.ctx.send(action);
    this.render();
  }

  // ---- drawing --------------------------------------------------------------------------

  name(seat) {
    if (seat == null) return '';
    if (seat === this.me) return t('doppio.you');
    return this.ctx.names()[seat] || t('doppio.seatName', { n: seat + 1 });
  }

  pieceName(kind, colour) {
    return t('doppio.piece', { colour: t(`doppio.colour.${colour}`), kind: t(`doppio.kind.${kind}`) });
  }

  render() {
    const v = this.view;
    if (!v) return;
    this.parts.logTitle.textContent = t('doppio.log');
    const mine = this.legal.length > 0;
    this.el.dataset.phase = v.phase;
    this.el.dataset.round = String(v.round);
    this.el.dataset.turn = v.turn == null ? '' : String(v.turn);
    this.el.dataset.canAct = String(mine);
    this.el.dataset.actions = String(v.actions_taken);
    this.el.dataset.solo = String(v.solo);
    this.el.dataset.beans = v.players.map((p) => p.beans).join(',');
    this.el.dataset.selected = [...this.sel].map(([s, k]) => `${s}:${ordered(k).join('+')}`).join(' ');
    setHTML(this.parts.status, this.statusText());
    this.parts.status.classList.toggle('my-turn', mine);
    this.parts.reserve.textContent = tn('doppio.reserve', v.reserve);
    setHTML(this.parts.path, this.pathSvg());
    setHTML(this.parts.controls, this.controls());
    setHTML(this.parts.players, html`${this.playerOrder().map((p) => this.playerPanel(p))}`);
    this.renderOver();
    this.renderLog();
  }

  renderOver() {
    const over = this.view.phase === 'over';
    setHTMLKeepingEndActions(this.parts.over, over ? this.overScreen() : html``);
    this.parts.over.classList.toggle('closed', over && this.endClosed);
  }

  playerOrder() {
    const seats = this.view.players.map((_, i) => i);
    if (this.me == null || this.me >= seats.length) return seats;
    return [this.me, ...seats.filter((s) => s !== this.me)];
  }

  statusText() {
    const v = this.view;
    const mine = this.legal.length > 0;
    if (v.phase === 'over') return html`<strong>${t('doppio.gameOver')}</strong>`;
    const round = v.solo ? '' : html`<span class="d-round">${t('doppio.round', { n: v.round })}</span> `;
    if (v.phase === 'setup') {
      const kind = t(`doppio.kind.${v.setup.kind}`);
      const text = mine ? t('doppio.setupYou', { kind }) : t('doppio.setupOther', { name: this.name(v.turn), kind });
      return html`${round}<span class="d-phase">${t('doppio.setup')}</span> ${text}`;
    }
    if (v.solo) {
      return html`${t('doppio.soloBudget', { n: v.players[0].beans })} <span class="muted">${t('doppio.soloHint')}</span>`;
    }
    if (mine) {
      return html`${round}<strong>${t('doppio.yourTurn')}</strong> <span class="muted">${t('doppio.actionsTaken', { n: v.actions_taken })}</span>`;
    }
    return html`${round}${t('doppio.theirTurn', { name: this.name(v.turn) })}`;
  }

  pathSvg() {
    const v = this.view;
    const setup = v.phase === 'setup';
    const targets = setup ? (this.colour ? this.placeTargets() : new Map()) : this.moveTargets();
    const selectable = this.legal.length ? this.selectable() : new Set();
    const width = 5 * SPACE_W + 4 * GAP;
    const spaces = v.path.map((space, i) => {
      const x0 = i * (SPACE_W + GAP);
      const target = targets.has(i);
      const pieces = KINDS.map((kind) => {
        const colour = space[kind];
        if (!colour) return '';
        const key = `${i}:${kind}`;
        const sel = this.sel.has(i) && this.sel.get(i).has(kind);
        const cls = `${selectable.has(key) ? 'selectable' : ''} ${sel ? 'selected' : ''}`;
        const pick = selectable.has(key) ? attrs({ 'data-piece': 1, 'data-space': i, 'data-kind': kind }) : '';
        return html`<g class="pwrap ${cls}" ${pick} data-testid="piece-${i}-${kind}" data-colour-id="${colour}">
          <title>${this.pieceName(kind, colour)}</title>${pieceOnSpace(kind, colour, x0)}</g>`;
      });
      const ghost = setup && target ? html`<g class="ghost">${pieceOnSpace(v.setup.kind, this.colour, x0)}</g>` : '';
      return html`<g class="space ${target ? 'target' : ''}" data-testid="space-${i}" ${attrs({ 'data-target': target ? i : null })}>
        <rect class="space-bg" x="${x0}" y="0" width="${SPACE_W}" height="${SPACE_H}" rx="12"/>
        <text class="space-no" x="${x0 + 9}" y="20">${i + 1}</text>
        ${ghost}${pieces}
        ${target ? html`<g class="target-tab" data-target="${i}" data-testid="target-${i}">
          <rect x="${x0 + 20}" y="${SPACE_H + 5}" width="${SPACE_W - 40}" height="24" rx="12"/>
          <text x="${x0 + SPACE_W / 2}" y="${SPACE_H + 22}">${t(setup ? 'doppio.placeHere' : 'doppio.moveHere')}</text></g>` : ''}
      </g>`;
    });
    return html`<svg class="path-svg" viewBox="-6 -6 ${width + 12} ${SPACE_H + 42}" role="img" aria-label="${t('doppio.path')}">${spaces}</svg>`;
  }

  controls() {
    const v = this.view;
    if (!this.legal.length) return html``;
    if (v.phase === 'setup') {
      const kind = v.setup.kind;
      const buttons = this.placeColours().map((colour) => html`
        <button type="button" class="d-colour ${colour === this.colour ? 'chosen' : ''}" data-colour="${colour}"
          data-testid="colour-${colour}"><svg viewBox="0 0 40 40" aria-hidden="true">${piece(kind, colour)}</svg>
          ${this.pieceName(kind, colour)}</button>`);
      const hint = this.colour ? t(hintKey('doppio.hintSpace')) : t('doppio.hintColour');
      return html`<div class="d-palette">${buttons}</div><p class="d-hint" data-testid="hint">${hint}</p>`;
    }
    const exchange = this.exchange();
    const undo = this.legal.some((a) => a.type === 'undo');
    const end = this.legal.some((a) => a.type === 'end_turn');
    const moving = this.of('move').length > 0;
    let hint = '';
    if (!moving) hint = this.of('score').length ? t('doppio.hintScoreOnly') : '';
    else if (this.sel.size === 0) hint = t(hintKey('doppio.hintSelect'));
    else if (this.sel.size === 1) hint = this.moveTargets().size ? t(hintKey('doppio.hintTarget')) : t('doppio.hintNoTarget');
    else hint = exchange ? t('doppio.hintExchange') : t('doppio.hintNoExchange');
    if (this.of('score').length) hint += ` ${t(hintKey('doppio.hintScore'))}`;
    return html`
      <div class="d-buttons">
        ${this.sel.size === 2 ? html`<button type="button" class="primary" data-act="exchange" data-testid="exchange" ${attrs({ disabled: !exchange })}>${t('doppio.exchange')}</button>` : ''}
        ${this.sel.size ? html`<button type="button" data-act="clear" data-testid="clear">${t('doppio.clear')}</button>` : ''}
        ${undo ? html`<button type="button" data-act="undo" data-testid="undo">${t('doppio.undo')}</button>` : ''}
        ${end ? html`<button type="button" class="primary" data-act="end_turn" data-testid="end-turn">${t('doppio.endTurn')}</button>` : ''}
      </div>
      <p class="d-hint" data-testid="hint">${hint}</p>`;
  }

  playerPanel(seat) {
    const v = this.view;
    const p = v.players[seat];
    const active = v.turn === seat && v.phase !== 'over';
    const cards = p.cards.map((card) => this.card(card, seat));
    const scored = p.scored.map((card) => html`<span class="d-scored-card" title="${cardText(card)}">${card.beans}</span>`);
    return html`
      <section class="d-player panel ${active ? 'active' : ''} ${seat === this.me ? 'me' : ''}" data-testid="player-${seat}">
        <header>
          <strong>${this.name(seat)}</strong>
          ${active ? html`<span class="badge">${t(v.phase === 'setup' ? 'doppio.placing' : 'doppio.playing')}</span>` : ''}
          <span class="d-beans" data-testid="beans-${seat}" data-beans="${p.beans}">${tn('doppio.beans', p.beans)}</span>
          <span class="muted" data-testid="pile-${seat}" data-count="${p.pile.count}">${t('doppio.pile', { n: p.pile.count })}</span>
          <span class="muted" data-testid="scored-${seat}" data-count="${p.scored.length}">${t('doppio.scored', { n: p.scored.length })}</span>
        </header>
        <div class="d-cards">${cards.length ? cards : html`<span class="muted">${t('doppio.noCards')}</span>`}</div>
        ${scored.length ? html`<div class="d-scored">${scored}</div>` : ''}
      </section>`;
  }

  card(card, seat) {
    const options = seat === this.me ? this.scoresFor(card.id) : [];
    const text = cardText(card);
    const choosing = this.choice === card.id;
    const choice = choosing ? html`
      <div class="d-choice" data-testid="score-choice">
        ${options.map((a) => html`<button type="button" data-score="${a.turned}" data-card="${card.id}"
          data-testid="score-${a.turned ? 'turned' : 'upright'}">
          <span class="${a.turned ? 'flip' : ''}">${diagram(card)}</span>${t(a.turned ? 'doppio.turned' : 'doppio.upright')}</button>`)}
      </div>` : '';
    return html`
      <div class="dcard ${options.length ? 'scorable' : ''} ${choosing ? 'choosing' : ''}" title="${text}"
        ${attrs({ 'data-card': options.length ? card.id : null })} data-testid="card-${seat}-${card.id}">
        <div class="dc-head"><span class="dc-no">#${card.id}</span><span class="dc-beans">${t('doppio.cardBeans', { n: card.beans })}</span></div>
        ${diagram(card)}
        <div class="dc-text">${text}</div>
        ${options.length ? html`<div class="dc-cta">${t('doppio.scoreIt')}</div>` : ''}
      </div>${choice}`;
  }

  /** The close button, the slot for the shared buttons (Play again, ...) and the button that opens it again. */
  endChrome() {
    return {
      close: html`<button type="button" class="end-close" data-act="close-end" data-testid="end-close"
        title="${t('doppio.end.closeTip')}" aria-label="${t('doppio.end.close')}">×</button>`,
      actions: html`<div class="end-actions" data-testid="end-actions"></div>`,
      open: html`<button type="button" class="end-open" data-act="open-end" data-testid="end-open">${t('doppio.end.show')}</button>`,
    };
  }

  overScreen() {
    const v = this.view;
    const chrome = this.endChrome();
    const lines = breakdown(v, this.log);
    if (v.solo) {
      const beans = v.players[0].beans;
      const rank = v.rank || 'tea';
      return html`
        <div class="d-end panel" data-testid="solo-over" data-rank="${rank}" data-beans="${beans}">
          ${chrome.close}
          <h2>${t('doppio.soloOver')}</h2>
          <p class="d-big">${tn('doppio.beans', beans)}</p>
          <p class="d-rank">${t(`doppio.rank.${rank}`)}</p>
          <ol class="d-ranks">${['tea', 'filter', 'french_press', 'espresso_machine', 'barista'].map((r) =>
            html`<li class="${r === rank ? 'me' : ''}">${t(`doppio.rankRange.${r}`)} — ${t(`doppio.rank.${r}`)}</li>`)}</ol>
          ${lines[0].rounds[0].cards ? html`<div class="d-breakdown" data-testid="breakdown">
            <h3>${t('doppio.end.perCard')}</h3>${this.cardChips(0, lines[0].rounds[0].cards)}</div>` : ''}
          ${chrome.actions}${chrome.open}
        </div>`;
    }
    const winners = v.winners || [];
    const names = winners.map((s) => this.name(s));
    const title = winners.includes(this.me) ? t('doppio.youWin')
      : t(winners.length > 1 ? 'doppio.winnersAre' : 'doppio.winnerIs', { names: names.join(', ') });
    const rounds = lines[0].rounds.map((r) => r.round);
    const partial = lines.some((line) => line.rounds.some((r) => !r.cards));
    const rows = v.players.map((p, s) => html`
      <tr class="${winners.includes(s) ? 'win' : ''}" data-testid="final-row-${s}"><th>${this.name(s)}</th>
        ${lines[s].rounds.map((r) => html`<td class="num" data-testid="round-beans-${s}-${r.round}"
          data-beans="${r.beans == null ? '' : r.beans}">${r.beans == null ? '—' : r.beans}</td>`)}
        <td class="num total" data-testid="final-beans-${s}" data-beans="${p.beans}">${tn('doppio.beans', p.beans)}</td></tr>`);
    const cards = v.players.map((p, s) => html`
      <li data-testid="card-lines-${s}"><b>${this.name(s)}</b>
        ${lines[s].rounds.map((r) => html`<div class="d-round-cards" data-testid="round-cards-${s}-${r.round}"><span class="muted">${t('doppio.end.roundCards', { n: r.round })}</span>
          ${r.cards ? this.cardChips(s, r.cards) : html`<span class="muted">${t('doppio.end.unknown')}</span>`}</div>`)}</li>`);
    return html`
      <div class="d-end panel" data-testid="doppio-over" data-winners="${winners.join(',')}">
        ${chrome.close}
        <h2>${t('doppio.gameOver')}</h2>
        <p class="d-big" data-testid="winner-line">${title}</p>
        <div class="d-breakdown" data-testid="breakdown">
          <table class="d-score-table"><thead><tr><th></th>
            ${rounds.map((r) => html`<th>${t('doppio.end.round', { n: r })}</th>`)}<th>${t('doppio.end.total')}</th></tr></thead>
            <tbody>${rows}</tbody></table>
          <h3>${t('doppio.end.perCard')}</h3>
          <ul class="d-card-lines">${cards}</ul>
          ${partial ? html`<p class="muted small">${t('doppio.end.partial')}</p>` : ''}
        </div>
        ${chrome.actions}${chrome.open}
      </div>`;
  }

  /** What each scored card earned: "#6 +3" chips (×2 when met twice, ↻ when turned). */
  cardChips(seat, cards) {
    if (!cards.length) return html`<span class="muted">${t('doppio.end.noCards')}</span>`;
    return html`<span class="d-chips">${cards.map((c) => {
      const card = this.findCard(c.card);
      const tip = tn('doppio.end.cardTip', c.matches, { card: card ? cardText(card) : `#${c.card}` });
      return html`<span class="d-chip" data-testid="card-beans-${seat}-${c.card}" data-beans="${c.beans}" title="${tip}">#${c.card}${c.turned ? ' ↻' : ''}
        <b>+${c.beans}</b>${c.matches > 1 ? html` <small>×${c.matches}</small>` : ''}</span>`;
    })}</span>`;
  }

  renderLog() {
    const items = this.log.map((ev) => this.logLine(ev)).filter(Boolean);
    setHTML(this.parts.log, html`${items.slice(-60).map((line) => html`<li>${line}</li>`)}`);
    this.parts.log.scrollTop = this.parts.log.scrollHeight;
  }

  kindsText(kinds) {
    return (kinds || []).map((k) => t(`doppio.kind.${k}`)).join(t('doppio.and'));
  }

  logLine(ev) {
    const name = ev.seat == null ? '' : this.ctx.names()[ev.seat] || t('doppio.seatName', { n: ev.seat + 1 });
    switch (ev.type) {
      case 'placed':
        return t('doppio.log.placed', { name, piece: this.pieceName(ev.kind, ev.colour), space: ev.space + 1 });
      case 'move':
        return t('doppio.log.move', { name, pieces: this.kindsText(ev.kinds), from: ev.from + 1, to: ev.to + 1 });
      case 'exchange':
        return t('doppio.log.exchange', {
          name, pieces: this.kindsText(ev.kinds), from: ev.from + 1, other: this.kindsText(ev.with), to: ev.to + 1,
        });
      case 'scored': {
        const card = this.findCard(ev.card);
        return tn(ev.turned ? 'doppio.log.scoredTurned' : 'doppio.log.scored', ev.beans, {
          name, card: card ? cardText(card) : `#${ev.card}`,
        });
      }
      case 'undone':
        return t('doppio.log.undone', { name });
      case 'turn':
        return html`<span class="muted">${t('doppio.log.turn', { name })}</span>`;
      case 'round_over':
        return html`<strong>${t('doppio.log.roundOver', { name })}</strong>`;
      case 'game_over':
        return html`<strong>${t(ev.reason === 'reserve_empty' ? 'doppio.gameOverReserve' : 'doppio.gameOver')}</strong>`;
      case 'clock':
        return t('doppio.log.clock', { name });
      default:
        return '';
    }
  }

  findCard(id) {
    for (const p of this.view ? this.view.players : []) {
      const card = [...p.cards, ...p.scored].find((c) => c.id === id);
      if (card) return card;
    }
    return null;
  }
}

function cardText(card) {
  const text = card.text || {};
  return text[lang()] || text.en || '';
}

export default {
  name: 'doppio',
  mount: (root, ctx) => new DoppioTable(root, ctx),
};
