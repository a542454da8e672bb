/**
 * A structural look at a bench page, steadier than timings on a loaded machine: how many React
 * fibers the page's tree holds once its rows are in, by component name, plus DOM nodes and
 * <style> elements. `npx tsx bench/console/fibers.ts list-schema list-antd [--query ?rows=100]`
 * (builds nothing: run `npm run bench -- --only console --profile` or the bench once first).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from './browser.js';
import { serveStatic } from './serve.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const COUNT = `(() => {
  const el = document.getElementById('root');
  const key = Object.keys(el).find((k) => k.startsWith('__reactContainer'));
  const byName = {};
  let fibers = 0;
  const walk = (f) => {
    for (; f; f = f.sibling) {
      fibers++;
      const t = f.type;
      const name = typeof t === 'string' ? '<' + t + '>' : t ? (t.displayName || t.name || (t.render && (t.render.displayName || t.render.name)) || (t.type && (t.type.displayName || t.type.name)) || (t.$$typeof ? String(t.$$typeof) : '?')) : '(text/host)';
      byName[name] = (byName[name] || 0) + 1;
      walk(f.child);
    }
  };
  walk(el[key].child);
  return { fibers, dom: document.getElementsByTagName('*').length, styles: document.querySelectorAll('style').length, byName };
})()`;

async function main() {
  const args = process.argv.slice(2);
  const qi = args.indexOf('--query');
  const query = qi >= 0 ? args.splice(qi, 2)[1] : '?rows=100&page_size=100';
  const server = await serveStatic(path.join(root, 'bench/console/dist'), path.join(root, 'bench/peers/node_modules'));
  const browser = await launch();
  try {
    for (const name of args) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${server.origin}/pages/${name}.html${query}`);
      await page.waitForFunction(() => (window as unknown as { __bench?: { done?: boolean } }).__bench?.done === true, null, { timeout: 60_000 });
      await page.waitForTimeout(300);
      const r = (await page.evaluate(COUNT)) as { fibers: number; dom: number; styles: number; byName: Record<string, number> };
      console.log(`${name}: ${r.fibers} fibers, ${r.dom} DOM elements, ${r.styles} <style>`);
      for (const [n, c] of Object.entries(r.byName).sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`  ${String(c).padStart(6)} ${n}`);
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
}
void main();
