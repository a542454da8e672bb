import path from 'node:path';

/** Every setting of the server, read once from the environment (docs/api.md "Settings"). */
export interface Config {
  port: number;
  host: string;
  /** PGlite data directory (used when `databaseUrl` is empty) */
  dataDir: string;
  /** PostgreSQL connection string; empty → embedded PGlite in `dataDir` */
  databaseUrl: string;
  adminEmail: string;
  /** empty → a strong password is generated for the first super admin and printed once */
  adminPassword: string;
  seedDemo: boolean;
  cookieSecure: boolean;
  /** the built client (Vite `dist`) */
  staticDir: string;
  /** trust X-Forwarded-For (behind a reverse proxy) */
  trustProxy: boolean;
  /** pino level; 'silent' turns logging off */
  logLevel: string;
  /** maximum JSON body size in bytes */
  bodyLimit: number;
  appName: string;
  version: string;
}

const flag = (v: string | undefined, dflt: boolean): boolean => {
  if (v === undefined || v.trim() === '') return dflt;
  return ['1', 'true', 'yes', 'on'].includes(v.trim().toLowerCase());
};

const int = (v: string | undefined, dflt: number, name: string): number => {
  if (v === undefined || v.trim() === '') return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${v}"`);
  return n;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const databaseUrl = (env.DATABASE_URL ?? '').trim();
  return {
    port: int(env.PORT, 8080, 'PORT'),
    host: env.HOST?.trim() || '127.0.0.1',
    dataDir: path.resolve(cwd, env.DATA_DIR?.trim() || './data'),
    databaseUrl,
    adminEmail: (env.ADMIN_EMAIL?.trim() || 'admin@example.com').toLowerCase(),
    adminPassword: env.ADMIN_PASSWORD ?? '',
    seedDemo: flag(env.SEED_DEMO, databaseUrl === ''),
    cookieSecure: flag(env.COOKIE_SECURE, false),
    staticDir: path.resolve(cwd, env.STATIC_DIR?.trim() || './dist'),
    trustProxy: flag(env.TRUST_PROXY, false),
    logLevel: env.LOG_LEVEL?.trim() || 'info',
    bodyLimit: int(env.BODY_LIMIT, 1024 * 1024, 'BODY_LIMIT'),
    appName: env.APP_NAME?.trim() || '后台管理系统',
    version: env.npm_package_version ?? '0.1.0',
  };
}
