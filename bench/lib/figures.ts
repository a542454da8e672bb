import { API_CASES, LIST_METRICS } from '../api/cases.js';

/** Every figure id the bench can produce, in table order (`--list` prints them, `--only` filters on them). */
export const FIGURE_IDS: string[] = [
  'startup.schemas',
  'startup.listen',
  'startup.listen.cpu',
  ...API_CASES.flatMap((c) => LIST_METRICS.map((m) => `api.${c.id}.${m}`)),
  'api.workers.shop-list',
  'api.login.rps',
  ...['pglite', 'postgres'].flatMap((d) => ['rate', 'start-p50', 'start-p99'].map((m) => `queue.${d}.${m}`)),
  'queue.postgres.vs-pgboss',
  'queue.postgres.remote-start-p50',
  'queue.postgres.remote-start-p99',
  ...['pglite', 'postgres'].flatMap((d) => ['recall5', 'mrr', 'p50', 'p99'].map((m) => `retrieval.${d}.${m}`)),
  ...['pglite', 'postgres'].flatMap((d) =>
    [...['same', 'cross', 'hard', 'docs'].map((x) => `slice.${x}.recall5`), 'slice.unanswerable.declined', 'slice.falseDeclines', 'slice.p50'].map((m) => `retrieval.${d}.${m}`),
  ),
  'console.list.render',
  'console.list.navigation',
  'console.virtual.render',
  'console.form.render',
  'console.form.keystroke',
  'console.peer.amis.render',
  'console.peer.amis.navigation',
  'bundle.login',
  'bundle.list',
  'nav.list.p50',
  'nav.list.worst',
  'nav.list.all',
];
