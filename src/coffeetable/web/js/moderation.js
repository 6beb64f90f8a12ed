// #/moderation: the moderators' page. The open reports, each with its context (the chat
// lines as they were, the table), and its actions: warn, mute chat for some hours, suspend,
// dismiss, with why (kept in the log); then the log of every action. The server answers
// 403 to anyone else, and the page says so. Every name and line goes through html``.

import { api } from './api.js';
import { account } from './account.js';
import { html, onClick, setHTML, toast } from './dom.js';
import { register, t } from './i18n.js';
import strings from '../i18n/moderation.js';
import { dateText, failure, profileHref } from './players.js';

register(strings);

const ACTIONS = ['warn', 'mute', 'suspend', 'dismiss'];

function chatLine(line, reported) {
  const said = line.phrase ? t(`chat.phrase.${line.phrase}`) : String(line.text || '');
  return html`<li class="${line.id === reported ? 'reported' : ''}" data-testid="mod-chat-line">
    <b>${line.name}</b> ${said}</li>`;
}

function reportItem(report) {
  const reason = t(`report.reason.${report.reason}`);
  return html`<li class="panel mod-report" data-testid="mod-report" data-id="${report.id}">
    <p><strong>${t('mod.by', { reporter: report.reporter, reported: report.reported, reason })}</strong>
      <span class="muted">${dateText(report.created)}</span>
      ${report.table_id ? html` · <a href="#/table/${encodeURIComponent(report.table_id)}">${t('mod.atTable', { table: report.table_id })}</a>` : ''}</p>
    <p><a href="${profileHref(report.reported)}">${report.reported}</a></p>
    ${report.text ? html`<blockquote data-testid="mod-report-text">${report.text}</blockquote>` : ''}
    ${report.chat.length ? html`<ol class="mod-chat">${report.chat.map((line) => chatLine(line, report.chat_id))}</ol>`
      : html`<p class="muted">${t('mod.noChat')}</p>`}
    <form class="inline-form mod-act" data-id="${report.id}">
      <input name="why" maxlength="500" placeholder="${t('mod.why')}" aria-label="${t('mod.why')}" data-testid="mod-why">
      <label>${t('mod.hours')} <input name="hours" type="number" min="1" max="720" value="24" data-testid="mod-hours"></label>
      ${ACTIONS.map((action) => html`<button type="button" class="tiny" data-action="moderate" data-act="${action}"
        data-id="${report.id}" data-testid="mod-${action}">${t(`mod.${action}`)}</button>`)}
    </form></li>`;
}

function logItem(entry) {
  const moderator = entry.moderator || t('mod.commandLine');
  return html`<li data-testid="mod-log-entry"><span class="muted">${dateText(entry.at)}</span>
    ${t('mod.logLine', { moderator, action: entry.action, player: entry.player })}
    ${entry.hours ? html` (${entry.hours} h)` : ''}${entry.why ? html` — ${entry.why}` : ''}</li>`;
}

export function mount(root) {
  let destroyed = false;

  async function load() {
    if (!account()) {
      setHTML(root, html`<section class="panel" data-testid="moderation-page"><h1>${t('mod.title')}</h1>
        <p><a href="#/signin">${t('menu.signIn')}</a></p></section>`);
      return;
    }
    let reports;
    let log;
    try {
      [reports, log] = await Promise.all([api.moderationReports(), api.moderationLog({ limit: 50 })]);
    } catch (err) {
      if (destroyed) return;
      const text = err.status === 403 ? t('mod.only') : failure(err);
      setHTML(root, html`<section class="panel" data-testid="moderation-page"><h1>${t('mod.title')}</h1>
        <p class="error" data-testid="moderation-refused">${text}</p></section>`);
      return;
    }
    if (destroyed) return;
    setHTML(root, html`<section class="moderation-page" data-testid="moderation-page">
      <h1>${t('mod.title')}</h1>
      <h2>${t('mod.reports')}</h2>
      ${reports.reports.length ? html`<ul class="mod-reports">${reports.reports.map(reportItem)}</ul>`
        : html`<p class="muted" data-testid="mod-none">${t('mod.none')}</p>`}
      <h2>${t('mod.log')}</h2>
      ${log.entries.length ? html`<ul class="mod-log">${log.entries.map(logItem)}</ul>`
        : html`<p class="muted">${t('mod.logEmpty')}</p>`}
    </section>`);
  }

  const off = onClick(root, '[data-action="moderate"]', async (event, button) => {
    const form = button.closest('form');
    const action = button.dataset.act;
    const body = { action, why: form.elements.why.value.trim() };
    if (action === 'mute') body.hours = Number(form.elements.hours.value) || 24;
    try {
      await api.moderate(Number(button.dataset.id), body);
      toast(t('mod.done', { action: t(`mod.${action}`) }));
    } catch (err) {
      toast(failure(err), 'error');
    }
    if (!destroyed) load();
  });
  load();
  return { destroy() { destroyed = true; off(); } };
}
