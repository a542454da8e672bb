import { describe, expect, it, vi } from 'vitest';
import { buildAccess } from '../contract/access.js';
import type { HttpPort } from '../runtime/env.js';
import { buildRuntimeEnv, type RuntimeEnvDeps } from './runtime-env.js';

function deps(over: Partial<RuntimeEnvDeps> = {}) {
  const confirmCalls: Array<{ onOk?: () => void; onCancel?: () => void; content?: unknown }> = [];
  const d: RuntimeEnvDeps = {
    http: {} as HttpPort,
    message: { success: vi.fn(), error: vi.fn(), info: vi.fn() } as unknown as RuntimeEnvDeps['message'],
    modal: { confirm: (cfg: (typeof confirmCalls)[number]) => (confirmCalls.push(cfg), { destroy() {}, update() {}, then() {} }) } as unknown as RuntimeEnvDeps['modal'],
    navigate: vi.fn(),
    t: (key, vars) => (vars ? `${key}:${JSON.stringify(vars)}` : key),
    access: buildAccess([{ id: 1, pid: 0, module: 'admin_center', permission_key: 'admin.permission.role' }], []),
    locale: 'en-US',
    devMode: true,
    ...over,
  };
  return { d, confirmCalls };
}

describe('buildRuntimeEnv', () => {
  it('checks flattened keys, super admin holds all', () => {
    const env = buildRuntimeEnv(deps().d);
    expect(env.can('admin_center.admin.permission.role')).toBe(true);
    expect(env.can('admin_center.admin.permission.role.delete')).toBe(false);
    const admin = buildRuntimeEnv(deps({ access: buildAccess([], [{ is_super_admin: true }]) }).d);
    expect(admin.can('admin_center.admin.permission.role.delete')).toBe(true);
  });

  it('passes notify, navigate, t, locale and devMode through', () => {
    const { d } = deps();
    const env = buildRuntimeEnv(d);
    env.notify.success('saved');
    env.navigate('/x', { replace: true });
    expect(d.message.success).toHaveBeenCalledWith('saved');
    expect(d.navigate).toHaveBeenCalledWith('/x', { replace: true });
    expect(env.t('a.b', { n: 1 })).toBe('a.b:{"n":1}');
    expect(env.locale).toBe('en-US');
    expect(env.devMode).toBe(true);
    expect(env.http).toBe(d.http);
  });

  it('confirm resolves true on OK and false on cancel', async () => {
    const { d, confirmCalls } = deps();
    const env = buildRuntimeEnv(d);
    const yes = env.confirm('delete?');
    confirmCalls[0].onOk?.();
    await expect(yes).resolves.toBe(true);
    const no = env.confirm('delete?', { danger: true });
    confirmCalls[1].onCancel?.();
    await expect(no).resolves.toBe(false);
    expect(confirmCalls[0].content).toBe('delete?');
  });
});
