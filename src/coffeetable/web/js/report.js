// The "Report" dialog (a player's profile, a chat line): a reason from the server's list
// and a few words, sent to POST /api/reports. Its strings are i18n/moderation.js's.

import { api } from './api.js';
import { attrs, html, setHTML, toast } from './dom.js';
import { register, t } from './i18n.js';
import strings from '../i18n/moderation.js';
import { failure } from './players.js';

register(strings);

export const REASONS = ['chat', 'conduct', 'cheating', 'other'];

/** Open the dialog: about {username, tableId?, chatId?}; reason: the one chosen first. */
export function openReport(about, reason = 'conduct') {
  const dialog = document.createElement('dialog');
  dialog.className = 'report-dialog';
  dialog.setAttribute('data-testid', 'report-dialog');
  dialog.setAttribute('aria-label', t('report.title', { name: about.username }));
  setHTML(dialog, html`<form method="dialog" class="report-form">
    <h2>${t('report.title', { name: about.username })}</h2>
    <label>${t('report.reason')}
      <select name="reason" data-testid="report-reason">${REASONS.map((key) => html`<option value="${key}"
        ${attrs({ selected: key === reason })}>${t(`report.reason.${key}`)}</option>`)}</select></label>
    <label>${t('report.text')}
      <textarea name="text" maxlength="500" rows="3" data-testid="report-text"></textarea></label>
    <p class="error" data-testid="report-error" hidden></p>
    <div class="report-buttons">
      <button type="submit" class="primary" value="send" data-testid="report-send">${t('report.send')}</button>
      <button type="button" data-testid="report-cancel">${t('report.cancel')}</button>
    </div></form>`);
  document.body.append(dialog);
  const form = dialog.querySelector('form');
  const problem = dialog.querySelector('[data-testid="report-error"]');
  dialog.addEventListener('close', () => dialog.remove());
  dialog.addEventListener('keydown', (event) => event.stopPropagation()); // no board takes its keys
  dialog.querySelector('[data-testid="report-cancel"]').addEventListener('click', () => dialog.close());
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = { username: about.username, reason: form.elements.reason.value, text: form.elements.text.value.trim() };
    if (about.tableId) body.table_id = about.tableId;
    if (about.chatId) body.chat_id = about.chatId;
    try {
      await api.report(body);
    } catch (err) {
      problem.hidden = false;
      problem.textContent = failure(err);
      return;
    }
    dialog.close();
    toast(t('report.sent'));
  });
  dialog.showModal();
  form.elements.reason.focus();
  return dialog;
}
