/**
 * The width a table's action column needs for its links, so a fixed column never clips them
 * (issue 14: up to 172 px were hidden on nine lists). An estimate from the labels' characters
 * in the current language: wide (CJK) characters at the font size, narrow ones at about half,
 * plus each small link button's padding and the gaps and cell padding around them.
 */
const FONT = 14;
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;
/** a small link button's horizontal padding (antd: 7 px each side) and the gap between links */
const BUTTON_PAD = 14;
const GAP = 4;
/** the table cell's padding (antd: 16 px each side) and the "more" link's icon */
const CELL_PAD = 32;
const MORE_ICON = 16;

export function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += WIDE.test(ch) ? FONT : /[A-Z]/.test(ch) ? FONT * 0.66 : /[ il.,:;'|!]/.test(ch) ? FONT * 0.3 : FONT * 0.56;
  return w;
}

/** Width for these link labels (already translated), `more` being the "more" label when they fold. */
export function actionColumnWidth(labels: readonly string[], more: string | null): number {
  const links = more ? [...labels, more] : labels;
  const text = links.reduce((sum, l) => sum + textWidth(l) + BUTTON_PAD, 0);
  return Math.ceil(text + GAP * Math.max(0, links.length - 1) + CELL_PAD + (more ? MORE_ICON : 0));
}
