import { API_CASES, LIST_METRICS } from '../api/cases.js';

/** Every figure id the bench can produce, in table order (`--list` prints them, `--only` filters on them). */
export const FIGURE_IDS: string[] = [
  'startup.schemas',
  'startup.listen',
  ...API_CASES.flatMap((c) => LIST_METRICS.map((m) => `api.${c.id}.${m}`)),
  'api.login.rps',
  'console.list.render',
  'console.list.navigation',
  'console.virtual.render',
  'console.form.render',
  'console.form.keystroke',
  'console.peer.amis.render',
  'console.peer.amis.navigation',
  'bundle.login',
  'bundle.list',
];
