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
  /** the demo operator's password when demo data creates it (DEMO_PASSWORD); empty → generated and printed once */
  demoPassword: string;
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
  /** jobs run at once in this process (WORKERS; default 4 on PGlite, 8 on PostgreSQL); 0 = an API-only instance (docs/operations.md) */
  workers: number;
  /** the schema pg-boss keeps its queue tables in (JOBS_SCHEMA) */
  jobsSchema: string;
  /** an idle worker looks for work this often, seconds (JOBS_POLL_SECONDS, default 1); on PostgreSQL an enqueue wakes it at once anyway */
  jobsPollSeconds: number;
  /** a learn-material export of more rows than this runs as a job instead of streaming (EXPORT_JOB_ROWS, default 5000) */
  exportJobRows: number;
  /** requests per minute per client address, all routes (RATE_LIMIT_PER_MINUTE, default 1200; 0 = off) */
  rateLimitPerMinute: number;
  /**
   * wrong passwords on one account within the hour past which sign-ins from new addresses are held
   * once (LOGIN_ACCOUNT_CEILING, default 100, at least 10; server/auth/throttle.ts)
   */
  loginAccountCeiling: number;
  /** sign-in requests per minute per address (RATE_LIMIT_LOGIN_PER_MINUTE, default 60; 0 = only the global limit) */
  rateLimitLoginPerMinute: number;
  /** a session unused this long is refused (SESSION_IDLE_MINUTES, default 120) */
  sessionIdleMinutes: number;
  /** live sessions per account; signing in beyond it revokes the oldest (SESSIONS_PER_ACCOUNT, default 10) */
  sessionsPerAccount: number;
  /** outbound calls to addresses users typed may reach loopback and private ranges (OUTBOUND_ALLOW_PRIVATE, default off; server/http/outbound.ts) */
  outboundAllowPrivate: boolean;
  /** hosts, addresses or CIDR ranges whose private addresses outbound calls may reach (OUTBOUND_ALLOW_HOSTS, comma-separated) */
  outboundAllowHosts: string[];
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
    demoPassword: env.DEMO_PASSWORD ?? '',
    cookieSecure: flag(env.COOKIE_SECURE, false),
    staticDir: path.resolve(cwd, env.STATIC_DIR?.trim() || './dist'),
    trustProxy: flag(env.TRUST_PROXY, false),
    logLevel: env.LOG_LEVEL?.trim() || 'info',
    bodyLimit: int(env.BODY_LIMIT, 1024 * 1024, 'BODY_LIMIT'),
    appName: env.APP_NAME?.trim() || '后台管理系统',
    version: env.npm_package_version ?? '0.1.0',
    workers: int(env.WORKERS, databaseUrl ? 8 : 4, 'WORKERS'),
    jobsSchema: env.JOBS_SCHEMA?.trim() || 'pgboss',
    jobsPollSeconds: int(env.JOBS_POLL_SECONDS, 1, 'JOBS_POLL_SECONDS') || 1,
    exportJobRows: int(env.EXPORT_JOB_ROWS, 5000, 'EXPORT_JOB_ROWS'),
    rateLimitPerMinute: int(env.RATE_LIMIT_PER_MINUTE, 1200, 'RATE_LIMIT_PER_MINUTE'),
    rateLimitLoginPerMinute: int(env.RATE_LIMIT_LOGIN_PER_MINUTE, 60, 'RATE_LIMIT_LOGIN_PER_MINUTE'),
    // failed sign-ins on one account (last hour) past which new addresses are held once (server/auth/throttle.ts)
    loginAccountCeiling: Math.max(10, int(env.LOGIN_ACCOUNT_CEILING, 100, 'LOGIN_ACCOUNT_CEILING') || 100),
    sessionIdleMinutes: int(env.SESSION_IDLE_MINUTES, 120, 'SESSION_IDLE_MINUTES') || 120,
    sessionsPerAccount: int(env.SESSIONS_PER_ACCOUNT, 10, 'SESSIONS_PER_ACCOUNT') || 10,
    outboundAllowPrivate: flag(env.OUTBOUND_ALLOW_PRIVATE, false),
    outboundAllowHosts: (env.OUTBOUND_ALLOW_HOSTS ?? '')
      .split(',')
      .map((x) => x.trim().toLowerCase())
      .filter(Boolean),
  };
}
