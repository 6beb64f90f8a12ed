// Names the views share, in the reader's language: a table's, a bot level's, and
// the levels a form offers. Its own module (not lobby.js) so that the views using
// them (lobby, Play now, table, replay, the bots' leaderboard) import no view.
import { has, t } from './i18n.js';

/**
 * A table's name in the reader's language, from its owner (the server's own name
 * is English): "Ada's table", "La table de Ada"; a table of bots: "Fika for bots".
 */
export function tableName(table) {
  if (!table) return '';
  const seats = Array.isArray(table.seats) ? table.seats : [];
  const game = has(`${table.game}.title`) ? t(`${table.game}.title`) : table.title || table.game || '';
  if (table.owner) return t('lobby.tableOf', { owner: table.owner });
  if (seats.length && seats.every((s) => s && s.bot)) return t('lobby.botsTable', { game });
  return table.name || game;
}

/** The plain levels for people (weakest first) when the game has them. */
const PLAIN_LEVELS = ['beginner', 'casual', 'strong', 'expert'];

/**
 * The bot levels a form offers for ``game``: its plain levels (beginner ... expert)
 * when it has them, the older names (random, greedy, ismcts) staying for the API only;
 * else every bot it lists (Espresso's easy, medium, hard).
 */
export function offeredLevels(game) {
  const levels = (game && game.bots) || [];
  const plain = PLAIN_LEVELS.filter((level) => levels.includes(level));
  return plain.length ? plain : levels;
}

/** The middling level a form selects first: casual, medium or greedy, else the first. */
export function usualLevel(levels) {
  return ['casual', 'medium', 'greedy'].find((level) => levels.includes(level)) || levels[0] || '';
}

/** A bot level's name for people: "Casual", "Stark"; the level itself when it has none. */
export function botName(level) {
  return has(`bot.${level}`) ? t(`bot.${level}`) : level;
}

/** A table summary's seats, each an object ({name}, {bot}, ...; a bare name becomes {name}). */
export function seatList(summary) {
  if (!summary || !Array.isArray(summary.seats)) return [];
  return summary.seats.map((s) => (s && typeof s === 'object' ? s : { name: s }));
}

/** A seat's label: its player's name, "Bot 2 (Casual)", or "Seat 2 (free)". */
export function seatLabel(seat, index) {
  if (seat.bot) return t('table.botSeat', { n: index + 1, level: botName(seat.bot) });
  return seat.name || t('table.emptySeat', { n: index + 1 });
}

/** Display names per seat, for the game's board. */
export function seatNames(summary) {
  return seatList(summary).map(seatLabel);
}
