/**
 * `npm run bench`: measures the API, the queue, retrieval, the console pages, the bundle, navigation to
 * rows on every list page and start-up, each
 * against a baseline measured in the same run, prints a table and writes
 * bench/results/latest.json. `--smoke` is the short CI run; `--only` picks figures.
 * See docs/performance.md.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiSuite } from './api/api.bench.js';
import { closeAppServer } from './console/app-server.js';
import { bundleSuite } from './console/bundle.bench.js';
import { consoleSuite } from './console/console.bench.js';
import { navigationSuite } from './console/navigation.bench.js';
import { matches, parseArgs, USAGE } from './lib/args.js';
import { updateDoc } from './lib/docs.js';
import { describeMachine } from './lib/machine.js';
import { treeState } from './lib/tree.js';
import { printTable, writeReport, type Report } from './lib/report.js';
import { checkGoal, type Figure, type Suite, type SuiteContext } from './lib/result.js';
import { FIGURE_IDS } from './lib/figures.js';
import { GATE_FILE, gateTable, judge, readGate, updateReferences } from './lib/gate.js';
import { startupSuite } from './startup/startup.bench.js';
import { queueSuite } from './queue/queue.bench.js';
import { retrievalSuite } from './retrieval/retrieval.bench.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const suites: Suite[] = [startupSuite, apiSuite, queueSuite, retrievalSuite, consoleSuite, bundleSuite, navigationSuite];

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  if (args.list) {
    for (const id of FIGURE_IDS) console.log(id);
    return 0;
  }
  const started = Date.now();
  const tree = treeState(root);
  const ctx: SuiteContext = {
    smoke: args.smoke,
    only: args.only,
    skipPeer: args.skipPeer,
    runs: args.runs ?? (args.smoke ? 1 : 7),
    profile: args.profile,
    root,
    facts: {},
    log: (msg) => console.log(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${msg}`),
    wants: (prefix) => FIGURE_IDS.some((id) => id.startsWith(prefix) && matches(args.only, id)),
  };
  const figures: Figure[] = [];
  const errors: Report['errors'] = [];
  for (const suite of suites) {
    if (!ctx.wants(suite.id)) continue;
    ctx.log(`${suite.title}…`);
    const t0 = Date.now();
    try {
      const got = await suite.run(ctx);
      figures.push(...got.filter((f) => matches(args.only, f.id)).map(checkGoal));
    } catch (err) {
      const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
      errors.push({ suite: suite.id, message });
      ctx.log(`${suite.id} FAILED: ${message}`);
    }
    ctx.facts.suiteSeconds = { ...(ctx.facts.suiteSeconds as Record<string, number> | undefined), [suite.id]: Math.round((Date.now() - t0) / 1000) };
  }
  // the app server and browser the bundle and nav suites share
  await closeAppServer();
  const report: Report = {
    startedAt: new Date(started).toISOString(),
    finishedAt: new Date().toISOString(),
    durationS: Math.round((Date.now() - started) / 1000),
    mode: args.smoke ? 'smoke' : 'full',
    only: args.only,
    machine: describeMachine(),
    facts: { ...ctx.facts, commit: tree.commit, uncommitted: tree.changed.length ? tree.changed : undefined },
    figures,
    errors,
  };
  const out = path.resolve(root, args.out ?? `bench/results/${args.smoke ? 'smoke' : 'latest'}.json`);
  writeReport(out, report);
  // a full run of everything refreshes the table in docs/performance.md; a run of the API
  // figures on PostgreSQL refreshes the PostgreSQL table there
  const doc = path.join(root, 'docs/performance.md');
  if (!args.smoke && !args.profile && !args.out && tree.changed.length) {
    console.log(`docs/performance.md and ${GATE_FILE} left alone: the tree has uncommitted changes (${tree.changed.slice(0, 5).join(', ')}${tree.changed.length > 5 ? ', …' : ''}); commit them and run again`);
  } else if (!args.smoke && !args.profile && !args.out) {
    if (args.only.length === 0 && updateDoc(doc, 'latest', report)) console.log('docs/performance.md: latest-run table updated');
    const from = `full run ${report.startedAt.replace('T', ' ').slice(0, 16)} UTC (docs/performance.md, "Latest full run")`;
    if (args.only.length === 0 && updateReferences(path.join(root, GATE_FILE), figures, from)) console.log(`${GATE_FILE}: references updated`);
    const api = figures.filter((f) => f.id.startsWith('api.'));
    if (ctx.facts.apiDriver === 'postgres' && api.length && updateDoc(doc, 'api-postgres', { ...report, figures: api })) {
      console.log('docs/performance.md: PostgreSQL API table updated');
    }
  }
  printTable(figures);
  console.log(`\n${figures.length} figures in ${report.durationS} s → ${path.relative(root, out)}`);
  if (args.smoke) console.log('(smoke run: small data and short runs — the figures only show that the bench works)');
  // the regression gate: a smoke run's steady figures against the last full run's (docs/performance.md)
  let gateFailed = false;
  const gate = args.smoke && args.gate ? readGate(path.join(root, GATE_FILE)) : null;
  if (gate) {
    const rows = judge(gate, figures);
    console.log(`\nRegression gate (${GATE_FILE}; references: ${gate.from}):\n${gateTable(rows)}`);
    const worse = rows.filter((r) => r.ok === false);
    for (const r of worse) console.log(`REGRESSION: ${r.id} ${r.on} ${r.measured} is over its limit ${r.limit} (reference: ${r.reference})`);
    gateFailed = worse.length > 0;
  }
  for (const e of errors) console.log(`\nsuite ${e.suite} failed:\n${e.message}`);
  // a figure with no value that was not left out on purpose means the bench or the product broke
  const missing = figures.filter((f) => (f.value === null || f.value === undefined) && !f.skip);
  for (const f of missing) console.log(`not measured: ${f.id} — ${f.note ?? 'no value'}`);
  return errors.length || missing.length || gateFailed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(2);
  },
);
