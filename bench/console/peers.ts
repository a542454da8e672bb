import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { SuiteContext } from '../lib/result.js';

/**
 * The peers live in their own package (bench/peers), installed by the bench on first use —
 * never dependencies of the product. Smoke runs do not install them (CI stays fast); they
 * measure amis only when an earlier full run installed it.
 */
export async function ensurePeers(ctx: SuiteContext): Promise<{ ok: true; version: string } | { ok: false; note: string }> {
  if (ctx.skipPeer) return { ok: false, note: 'skipped (--skip-peer)' };
  const dir = path.join(ctx.root, 'bench/peers');
  const pkg = path.join(dir, 'node_modules/amis/package.json');
  const sdk = path.join(dir, 'node_modules/amis/sdk/sdk.js');
  if (!fs.existsSync(sdk)) {
    if (ctx.smoke) return { ok: false, note: 'skipped in smoke (amis not installed; a full run installs it into bench/peers)' };
    ctx.log('installing the amis peer into bench/peers (first run only)…');
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, encoding: 'utf8', timeout: 10 * 60_000 });
    if (r.status !== 0 || !fs.existsSync(sdk)) return { ok: false, note: `amis install failed: ${(r.stderr || r.stdout || '').slice(-300)}` };
  }
  const version = (JSON.parse(fs.readFileSync(pkg, 'utf8')) as { version: string }).version;
  return { ok: true, version };
}
