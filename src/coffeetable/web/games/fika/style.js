// Fika's styles, added to the page once by index.js (the site's css/ stays shared).
export const STYLE = `
.fika { display: grid; grid-template-columns: minmax(0, 1fr) 300px; gap: 14px; align-items: start; position: relative; }
.fika .fika-board { background: #efe2cf; border-radius: var(--radius, 12px); padding: 10px 12px; box-shadow: var(--shadow);
  display: flex; flex-direction: column; gap: 6px; }
.fika .row { display: flex; gap: 8px; justify-content: center; }
.fika .fk-slot { width: 68px; height: 95px; border-radius: 8px; position: relative; transition: transform .12s; }
.fika .fk-slot .fcard { width: 100%; height: 100%; display: block; }
.fika .fk-slot.clickable { cursor: pointer; box-shadow: 0 0 0 3px #e0a030, 0 0 12px rgba(224,160,48,.6); }
.fika .fk-slot.clickable:hover, .fika .fk-slot.clickable:focus-visible { transform: translateY(-3px); outline: none; }
.fika .fk-slot.selected { box-shadow: 0 0 0 4px #2f6fb5, 0 0 12px rgba(47,111,181,.6); transform: translateY(-4px); }
.fika .fk-slot.fresh { box-shadow: 0 0 0 3px #8a5a2b; }
.fika .fk-slot.picked { outline: 3px dashed #2f6fb5; outline-offset: 2px; }
.fika .pbar { display: flex; align-items: center; gap: 10px; flex-wrap: wrap; justify-content: center; min-height: 28px; }
.fika .pbar .tips { font-size: 20px; color: #c8742c; letter-spacing: 2px; }
.fika .pick-state { display: inline-flex; align-items: center; gap: 6px; font-style: italic; color: var(--muted); }
.fika .pick-state svg { width: 26px; height: 36px; }
.fika .pick-state.shown svg { width: 44px; height: 62px; }
.fika .pick-state.done { color: var(--ok); font-weight: 600; }
.fika .street-zone { display: flex; gap: 22px; align-items: center; justify-content: center; padding: 6px 0;
  border-top: 2px dashed #cdb798; border-bottom: 2px dashed #cdb798; }
.fika .street-zone .label, .fika .hand-zone .label { font-size: 12px; color: var(--muted); text-transform: uppercase; letter-spacing: .05em; text-align: center; }
.fika .street-zone .cards { display: flex; flex-wrap: wrap; gap: 6px; justify-content: center; }
.fika .supply .fk-slot, .fika .beside .fk-slot { width: 60px; height: 84px; }
.fika .street-zone .cards { flex-wrap: nowrap; min-width: 60px; }
.fika .beside .cards { flex-direction: column; gap: 4px; }
.fika .beside .fk-slot { width: 84px; height: 60px; }
.fika .beside .fk-slot svg.sideways { width: 60px; height: 84px; transform: translate(12px, -12px) rotate(90deg); }
.fika .street-cell { width: 68px; height: 95px; }
.fika .group-wrap { position: relative; display: flex; flex-direction: column; align-items: center; }
.fika .known-label { font-size: 10px; color: var(--muted); max-width: 80px; text-align: center; }
.fika .prompt { display: flex; row-gap: 2px; flex-wrap: wrap; gap: 8px 14px; align-items: center; justify-content: center; background: var(--paper, #fffaf2);
  border-radius: 10px; padding: 6px 12px; min-height: 44px; }
.fika .prompt.mine { box-shadow: 0 0 0 2px #e0a030; }
.fika .prompt .round { font-weight: 700; color: var(--roast); }
.fika .prompt .text { font-weight: 600; }
.fika .prompt .buttons { display: inline-flex; gap: 6px; flex-wrap: wrap; }
.fika .prompt .lone { color: var(--warn); font-weight: 600; }
.fika .colour-btn svg, .fika .chip svg { width: 16px; height: 16px; vertical-align: -3px; fill: currentColor; }
.fika .c-brown { color: #6b3f22; } .fika .c-green { color: #2f7a3d; } .fika .c-pink { color: #c2487f; }
.fika .colour-btn { font-weight: 700; }
.fika .chip { font-weight: 600; }
.fika .hand-zone { padding-top: 4px; }
.fika .fika-side { display: flex; flex-direction: column; gap: 10px; }
.fika .box { background: var(--paper, #fffaf2); border-radius: 10px; padding: 8px 12px; box-shadow: var(--shadow); }
.fika .box h3 { margin: 4px 0 6px; font-size: 15px; }
.fika .box h4 { margin: 4px 0; font-size: 13px; }
.fika .colour-order, .fika ul.plain { margin: 0; padding-left: 0; list-style: none; font-size: 14px; }
.fika .score-cafes { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; }
.fika .score-cafe table { border-collapse: collapse; font-size: 11px; width: 100%; }
.fika .score-cafe td { padding: 1px 2px; vertical-align: middle; }
.fika .score-cafe .chip { display: inline-flex; align-items: center; gap: 1px; font-size: 14px; font-weight: 800; }
.fika .score-cafe tr.miss { color: var(--muted); }
.fika .score-cafe tr.total td { border-top: 1px solid var(--line); font-weight: 700; font-size: 13px; }
.fika .score-cafe.winner h4::after { content: " ★"; color: #c8742c; }
.fika .num { text-align: right; font-weight: 700; }
.fika .fika-log ol { max-height: 220px; overflow-y: auto; margin: 0; padding-left: 0; list-style: none; font-size: 12px; }
.fika .fika-log li { padding: 1px 0; border-bottom: 1px dotted var(--line); }
.fika .fika-log li.strong { font-weight: 700; }
.fika .guide table { font-size: 11px; border-collapse: collapse; }
.fika .guide td, .fika .guide th { padding: 2px 4px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
.fika .guide summary { cursor: pointer; font-weight: 700; }
.fika .muted { color: var(--muted); } .fika .small { font-size: 12px; }
.fika .fika-end { position: absolute; inset: 0; display: flex; align-items: flex-start; justify-content: center; padding-top: 120px;
  background: rgba(52,36,26,.35); border-radius: var(--radius, 12px); z-index: 5; }
.fika .fika-end .card-panel { background: var(--paper, #fffaf2); border-radius: 14px; padding: 20px 36px; text-align: center; box-shadow: var(--shadow); }
.fika .fika-end .big { font-size: 24px; font-weight: 700; color: var(--roast); }
/* the cards */
.fcard .bg { fill: #fffaf0; stroke: #8a6a4f; stroke-width: 1.5; }
.fcard.face.c-brown .band { fill: #7a4a2a; } .fcard.face.c-green .band { fill: #3d8b4a; } .fcard.face.c-pink .band { fill: #d9669b; }
.fcard.face .sym-big { fill: rgba(255,255,255,.85); }
.fcard.face .sym-small { fill: #fff; }
.fcard.face .num { font: 700 32px Georgia, serif; fill: #fff; text-anchor: middle; }
.fcard.face .eff { font: 600 6px sans-serif; fill: #34241a; text-anchor: middle; }
.fcard.face .obj { font: 6px sans-serif; fill: #34241a; text-anchor: middle; }
.fcard.face .coins { font: 700 7px sans-serif; fill: #b07a1c; text-anchor: middle; }
.fcard.face .rule { stroke: #d8c6ae; stroke-width: .8; }
.fcard.face .as rect { fill: #2f6fb5; } .fcard.face .as text { fill: #fff; font: 700 9px sans-serif; text-anchor: middle; }
.fcard.back .bg { fill: #8a5a3b; } .fcard.back .frame { fill: none; stroke: #e8d2b5; stroke-width: 1.5; } .fcard.back .cup { fill: #f3e1c8; color: #f3e1c8; }
.fcard.group .bg { fill: #5d3b27; }
.fcard.group .half-3 { fill: #c8742c; } .fcard.group .half-2 { fill: #9a7a5e; }
.fcard.group .cups use { fill: #fffaf0; color: #fffaf0; }
.fcard.group .cupn { font: 700 8px sans-serif; fill: #fffaf0; text-anchor: end; }
.fcard.group .known rect, .fcard.group .known use { fill: #fff; } .fcard.group .known text { font: 700 10px sans-serif; fill: #fff; }
.fcard.empty rect { fill: rgba(255,255,255,.35); stroke: #b99c7c; stroke-width: 1.5; stroke-dasharray: 4 3; }
.fcard.empty text { font: 700 18px sans-serif; fill: #c9b497; text-anchor: middle; }
.fcard.street .bg { fill: #b9b3aa; stroke: #8f877b; } .fcard.street .stones { stroke: #9d968b; stroke-width: 1.2; fill: none; }
.fcard.street text { font: 700 16px sans-serif; fill: #eeeae4; text-anchor: middle; }
.rules-cards.fika-legend { display: flex; gap: 8px; flex-wrap: wrap; }
.rules-cards.fika-legend svg { width: 70px; height: 98px; }
@media (max-width: 1000px) { .fika { grid-template-columns: 1fr; } }
`;

/** Add the styles to the page once (the table and the rules page use them). */
export function installStyle() {
  if (document.getElementById('fika-style')) return;
  const style = document.createElement('style');
  style.id = 'fika-style';
  style.textContent = STYLE;
  document.head.append(style);
}
