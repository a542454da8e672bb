import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('loadConfig', () => {
  it('defaults', () => {
    const c = loadConfig({}, '/srv/app');
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: path.resolve('/srv/app/data'),
      databaseUrl: '',
      adminEmail: 'admin@example.com',
      adminPassword: '',
      seedDemo: true,
      cookieSecure: false,
      staticDir: path.resolve('/srv/app/dist'),
    });
  });

  it('demo data is off by default with DATABASE_URL, and flags parse', () => {
    const c = loadConfig({ DATABASE_URL: 'postgres://x/y', COOKIE_SECURE: '1', PORT: '9000', ADMIN_EMAIL: 'Boss@Example.com' }, '/');
    expect(c).toMatchObject({ seedDemo: false, cookieSecure: true, port: 9000, adminEmail: 'boss@example.com' });
    expect(loadConfig({ DATABASE_URL: 'postgres://x/y', SEED_DEMO: 'true' }).seedDemo).toBe(true);
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT/);
  });
});
