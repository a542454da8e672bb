import { describe, expect, it, vi } from 'vitest';
import { createHttpClient, REQUEST_TIMEOUT, type ApiError, type HttpDeps } from './client.js';
import { EXPORT_TIMEOUT, fileNameFromDisposition, withXlsxTimestamp } from './files.js';
import { apiBase, isDevHost } from './host.js';
import { readSid } from './cookies.js';
import { TransportError, type Transport, type TransportRequest } from './transport.js';
import zh from '../../locales/zh-CN/common.json';

type Reply = { status?: number; data: unknown; headers?: Record<string, string> };

/** A transport in the style of axios-mock-adapter: records requests, replies from a function. */
function mockTransport(reply: (req: TransportRequest) => Reply | Error) {
  const calls: TransportRequest[] = [];
  const transport: Transport = async (req) => {
    calls.push(req);
    const r = reply(req);
    if (r instanceof Error) throw r;
    return { data: r.data, status: r.status ?? 200, headers: r.headers ?? {} };
  };
  return { transport, calls };
}

const lookup = (key: string, vars?: Record<string, unknown>): string => {
  const v = key
    .replace(/^common\./, '')
    .split('.')
    .reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], zh);
  return String(v ?? key).replace(/\{\{(\w+)\}\}/g, (_, n: string) => String(vars?.[n] ?? ''));
};

function setup(reply: (req: TransportRequest) => Reply | Error, token = 'tok123') {
  const { transport, calls } = mockTransport(reply);
  const deps: HttpDeps & { errors: string[]; saved: Array<[Blob, string]>; opened: string[] } = {
    errors: [],
    saved: [],
    opened: [],
    t: lookup,
    showError: (text) => deps.errors.push(text),
    onUnauthorized: vi.fn(),
    getToken: () => token,
    transport,
    saveFile: (blob, name) => deps.saved.push([blob, name]),
    openFile: (url) => deps.opened.push(url),
  };
  return { http: createHttpClient(deps), deps, calls };
}

const ok = (data: unknown): Reply => ({ data: { code: 10000, msg: 'ok', data } });

describe('http client envelope codes', () => {
  it('resolves data on 10000, with base /api/admin/, credentials, admin-token and a 5-minute timeout', async () => {
    const { http, calls } = setup(() => ok({ list: [1] }));
    await expect(http.get('role/list', { page: 1 })).resolves.toEqual({ list: [1] });
    const cfg = calls[0];
    expect(cfg.baseURL).toBe('/api/');
    expect(cfg.url).toBe('admin/role/list');
    expect(cfg.params).toEqual({ page: 1 });
    expect(cfg.withCredentials).toBe(true);
    expect(cfg.headers['admin-token']).toBe('tok123');
    expect(cfg.timeout).toBe(REQUEST_TIMEOUT);
    expect(REQUEST_TIMEOUT).toBe(300000);
  });

  it('puts config under the common base', async () => {
    const { http, calls } = setup(() => ok({}));
    await http.getCommon('config', { a: 1 });
    expect(calls[0].url).toBe('common/config');
  });

  it('sends no admin-token without a saved token', async () => {
    const { http, calls } = setup(() => ok(null), '');
    await http.post('user/login', { email: 'a', password: 'b' });
    expect(calls[0].headers['admin-token']).toBeFalsy();
    expect(JSON.parse(String(calls[0].data))).toEqual({ email: 'a', password: 'b' });
  });

  it('20001 clears the session, goes to /login and rejects with 请先登录', async () => {
    const { http, deps } = setup(() => ({ data: { code: 20001, msg: 'not logged in', data: null } }));
    await expect(http.get('User/Get')).rejects.toMatchObject({ code: 20001, message: '请先登录' });
    expect(deps.onUnauthorized).toHaveBeenCalledOnce();
    expect(deps.errors).toEqual([]);
  });

  it('other codes show msg and reject with code, msg and data (40001 field errors)', async () => {
    const data = { errors: [{ field: 'email', message: 'required' }] };
    const { http, deps } = setup(() => ({ data: { code: 40001, msg: 'validation failed', data } }));
    const err = (await http.post('account/create', {}).catch((e: unknown) => e)) as ApiError;
    expect(err).toMatchObject({ name: 'ApiError', code: 40001, msg: 'validation failed', data });
    expect(deps.errors).toEqual(['validation failed']);
    expect(deps.onUnauthorized).not.toHaveBeenCalled();
  });

  it('a silent call shows nothing but still rejects', async () => {
    const { http, deps } = setup(() => ({ data: { code: 40003, msg: 'forbidden', data: null } }));
    await expect(http.get('role/list', undefined, { silent: true })).rejects.toMatchObject({ code: 40003 });
    expect(deps.errors).toEqual([]);
  });

  it.each([
    [401, '未授权，请重新登录'],
    [403, '拒绝访问'],
    [404, '请求错误，未找到该资源'],
    [408, '请求超时'],
    [500, '服务器错误'],
    [501, '服务未实现'],
    [502, '网络错误'],
    [503, '服务不可用'],
    [504, '网络超时'],
    [505, 'HTTP 版本不受支持'],
  ])('HTTP %i shows its message with the network suffix', async (status, text) => {
    const { http, deps } = setup(() => ({ status, data: 'x' }));
    await expect(http.get('x')).rejects.toMatchObject({ code: -1, status });
    expect(deps.errors).toEqual([`${text}, 请检查网络或联系管理员`]);
  });

  it('a network failure shows the network message with the suffix', async () => {
    const { http, deps } = setup(() => new TransportError('ERR_NETWORK', 'Network Error'));
    await expect(http.get('x')).rejects.toMatchObject({ code: -1 });
    expect(deps.errors).toEqual(['网络连接失败, 请检查网络或联系管理员']);
  });

  it('a timeout shows the 408 message with the suffix; a cancelled call rejects quietly', async () => {
    const { http, deps } = setup(() => new TransportError('ECONNABORTED', 'timeout'));
    await expect(http.get('x')).rejects.toMatchObject({ code: -1 });
    expect(deps.errors).toEqual(['请求超时, 请检查网络或联系管理员']);
    const cancelled = setup(() => new TransportError('ERR_CANCELED', 'canceled'));
    await expect(cancelled.http.get('x')).rejects.toMatchObject({ name: 'CanceledError' });
    expect(cancelled.deps.errors).toEqual([]);
  });

  it('an envelope on an HTTP error status is handled by its code', async () => {
    const { http, deps } = setup(() => ({ status: 401, data: { code: 20001, msg: 'nope', data: null } }));
    await expect(http.get('x')).rejects.toMatchObject({ code: 20001, message: '请先登录' });
    expect(deps.onUnauthorized).toHaveBeenCalledOnce();
  });
});

describe('download and upload', () => {
  it('saves the file with the Content-Disposition name and reports progress', async () => {
    const { http, deps, calls } = setup((cfg) => {
      cfg.onDownloadProgress?.({ loaded: 50, total: 100 });
      return { data: new Blob(['a,b']), headers: { 'content-type': 'text/csv', 'content-disposition': "attachment; filename*=UTF-8''%E6%8A%A5%E8%A1%A8.csv" } };
    });
    const progress: number[] = [];
    await http.download('shop/export', { a: 1 }, { onProgress: (p) => progress.push(p) });
    expect(calls[0].method).toBe('post');
    expect(calls[0].responseType).toBe('blob');
    expect(deps.saved[0][1]).toBe('报表.csv');
    expect(progress).toEqual([50]);
  });

  it('defaults the name to file.csv and uses the 24-hour timeout for learn-material/export', async () => {
    const { http, deps, calls } = setup(() => ({ data: new Blob(['x']), headers: { 'content-type': 'application/octet-stream' } }));
    await http.download('learn-material/export', {});
    expect(deps.saved[0][1]).toBe('file.csv');
    expect(calls[0].timeout).toBe(EXPORT_TIMEOUT);
    expect(EXPORT_TIMEOUT).toBe(86_400_000);
    await http.download('other/export', {}, { timeout: 1234 });
    expect(calls[1].timeout).toBe(1234);
  });

  it('opens a returned .xlsx URL with a timestamp, and rejects an error envelope', async () => {
    let reply: Reply = { data: new Blob([JSON.stringify({ code: 10000, msg: '', data: { url: 'https://files/x.xlsx' } })]), headers: { 'content-type': 'application/json' } };
    const { http, deps } = setup(() => reply);
    await http.download('learn-material/export', {});
    expect(deps.opened[0]).toMatch(/^https:\/\/files\/x\.xlsx\?t=\d+$/);
    reply = { data: new Blob([JSON.stringify({ code: 40003, msg: 'forbidden', data: null })]), headers: { 'content-type': 'application/json' } };
    await expect(http.download('learn-material/export', {})).rejects.toMatchObject({ code: 40003 });
    expect(deps.errors).toEqual(['forbidden']);
  });

  it('uploads FormData with progress and resolves data', async () => {
    const { http, calls } = setup((cfg) => {
      cfg.onUploadProgress?.({ loaded: 3, total: 4 });
      return ok({ id: 9 });
    });
    const form = new FormData();
    form.append('file', new Blob(['x']), 'a.txt');
    const progress: number[] = [];
    await expect(http.upload('learn-doc/create', form, { onProgress: (p) => progress.push(p) })).resolves.toEqual({ id: 9 });
    expect(calls[0].data).toBe(form);
    expect(progress).toEqual([75]);
  });
});

describe('helpers', () => {
  it('parses Content-Disposition file names', () => {
    expect(fileNameFromDisposition('attachment; filename="a b.xlsx"')).toBe('a b.xlsx');
    expect(fileNameFromDisposition('attachment; filename=plain.csv')).toBe('plain.csv');
    expect(fileNameFromDisposition('attachment')).toBeUndefined();
    expect(fileNameFromDisposition(undefined)).toBeUndefined();
  });

  it('adds a timestamp only to .xlsx URLs', () => {
    expect(withXlsxTimestamp('/f/a.xlsx', 5)).toBe('/f/a.xlsx?t=5');
    expect(withXlsxTimestamp('/f/a.xlsx?x=1', 5)).toBe('/f/a.xlsx?x=1&t=5');
    expect(withXlsxTimestamp('/f/a.csv', 5)).toBe('/f/a.csv');
  });

  it('detects dev hosts', () => {
    expect(isDevHost('admindev.example.com')).toBe(true);
    expect(isDevHost('localhost')).toBe(true);
    expect(isDevHost('admin.example.com')).toBe(false);
    expect(isDevHost('127.0.0.1')).toBe(false);
  });

  it('rewrites the API host from a stored domain on dev hosts only', () => {
    const store = new Map<string, string>();
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => store.set(k, v),
      removeItem: (k: string) => store.delete(k),
    });
    expect(apiBase('localhost')).toBe('/api/');
    store.set('api_domain', JSON.stringify('https://admindev.example.com/'));
    expect(apiBase('localhost')).toBe('https://admindev.example.com/api/');
    expect(apiBase('admin.example.com')).toBe('/api/');
    store.set('api_domain', 'http://localhost:9000');
    expect(apiBase('localhost')).toBe('http://localhost:9000/api/');
    store.set('api_domain', 'javascript:alert(1)');
    expect(apiBase('localhost')).toBe('/api/');
    vi.unstubAllGlobals();
  });

  it('reads the sid cookie', () => {
    expect(readSid('a=1; sid=abc%3D; b=2')).toBe('abc=');
    expect(readSid('a=1')).toBeUndefined();
  });
});
