import fs from 'node:fs';
import path from 'node:path';
import { migrationFiles } from '../../server/db/migrate.js';
import { startTsx } from '../lib/proc.js';
import type { SuiteContext } from '../lib/result.js';

/**
 * The bench database: PGlite in bench/.data/<scale> (seeded once, reused while the
 * migrations and demo sources are unchanged), or the PostgreSQL in DATABASE_URL (seeded
 * when its shop table is smaller than the scale asks). Full runs use the large demo data
 * (100k shops, 1M orders); smoke runs the ordinary demo data.
 */
export interface BenchData {
  driver: 'pglite' | 'postgres';
  /** env for a server child: DATA_DIR or DATABASE_URL, admin credentials, no logging */
  env: Record<string, string>;
  scale: 'demo' | 'large';
  adminEmail: string;
  adminPassword: string;
  counts: Record<string, number | null>;
}

export const ADMIN_EMAIL = process.env.BENCH_ADMIN_EMAIL ?? 'admin@example.com';
export const ADMIN_PASSWORD = process.env.BENCH_ADMIN_PASSWORD ?? 'bench-admin-password-2026';

interface Marker {
  scale: string;
  fingerprint: string;
  counts: Record<string, number | null>;
  seededAt: string;
  seconds: number;
}

/** Changes when the migrations or the demo seed change: the cached dir is then rebuilt. */
function fingerprint(root: string): string {
  const parts = migrationFiles().map((f) => `${f}:${fs.statSync(path.join(root, 'server/db/migrations', f)).size}`);
  const demo = path.join(root, 'server/db/demo');
  if (fs.existsSync(demo)) {
    for (const f of fs.readdirSync(demo).sort()) parts.push(`demo/${f}:${fs.statSync(path.join(demo, f)).size}`);
  }
  return parts.join(',');
}

let cached: Promise<BenchData> | null = null;

export function benchData(ctx: SuiteContext): Promise<BenchData> {
  cached ??= prepare(ctx);
  return cached;
}

async function prepare(ctx: SuiteContext): Promise<BenchData> {
  const scale = ctx.smoke ? 'demo' : 'large';
  const url = process.env.DATABASE_URL?.trim() ?? '';
  const base = { ADMIN_EMAIL, ADMIN_PASSWORD, LOG_LEVEL: 'silent', SEED_DEMO: '1' };
  if (url) {
    const env = { ...base, DATABASE_URL: url };
    const seeded = await seed(ctx, env, scale);
    return { driver: 'postgres', env, scale, adminEmail: ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD, counts: seeded.counts };
  }
  const dir = path.join(ctx.root, 'bench/.data', scale);
  const markerFile = path.join(dir, 'bench-seeded.json');
  const fp = fingerprint(ctx.root);
  const env = { ...base, DATA_DIR: dir, DATABASE_URL: '' };
  let marker: Marker | null = null;
  if (fs.existsSync(markerFile)) {
    marker = JSON.parse(fs.readFileSync(markerFile, 'utf8')) as Marker;
    if (marker.fingerprint !== fp || marker.scale !== scale) {
      ctx.log(`bench data in ${path.relative(ctx.root, dir)} is stale (migrations or demo seed changed): rebuilding`);
      marker = null;
    }
  }
  if (!marker) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    ctx.log(`seeding ${scale} demo data into ${path.relative(ctx.root, dir)} (once; later runs reuse it)…`);
    const r = await seed(ctx, env, scale);
    marker = { scale, fingerprint: fp, counts: r.counts, seededAt: new Date().toISOString(), seconds: r.seconds };
    fs.writeFileSync(path.join(dir, 'bench-seeded.json'), JSON.stringify(marker, null, 2));
  }
  return { driver: 'pglite', env, scale, adminEmail: ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD, counts: marker.counts };
}

async function seed(ctx: SuiteContext, env: Record<string, string>, scale: string) {
  const child = startTsx(path.join(ctx.root, 'bench/api/seed-child.ts'), [], { ...env, BENCH_SCALE: scale }, ctx.root);
  try {
    const r = await child.message<{ counts: Record<string, number | null>; seconds: number }>('BENCH_SEEDED', 60 * 60_000);
    ctx.log(`seeded in ${r.seconds.toFixed(0)} s: ${JSON.stringify(r.counts)}`);
    return r;
  } finally {
    await child.stop();
  }
}
