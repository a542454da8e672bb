/**
 * The HTTP client of spec sections 7–9. Base `/api/` (admin calls under `admin/`, config
 * under `common/`), cookies sent, `admin-token` header from the `sid` cookie, 5-minute timeout.
 * Envelope codes: 10000 resolves `data`; 20001 clears the session and goes to /login
 * (rejecting with 请先登录); any other code shows `msg` unless the call is silent and rejects
 * with an ApiError carrying code, msg and data (40001 field errors live in `data.errors`).
 * Transport failures show the HTTP status message plus the network suffix. The wire is
 * ./transport.ts (XMLHttpRequest, loaded with the first request); tests pass their own transport.
 */
import { Code, type Envelope } from '../../contract/codes.js';
import type { HttpPort, RequestOptions, TransferOptions } from '../../runtime/env.js';
import { apiBase } from './host.js';
import {
  DEFAULT_FILE_NAME,
  DOWNLOAD_TIMEOUTS,
  fileNameFromDisposition,
  openUrl,
  percentOf,
  saveBlob,
  withXlsxTimestamp,
} from './files.js';
import { lazyTransport } from './lazy-transport.js';
import { isCancel, TransportError, type Method, type Progress, type Transport, type TransportRequest, type TransportResponse } from './transport.js';

export const REQUEST_TIMEOUT = 300_000;
/** HTTP statuses with a message of their own (spec section 8). */
export const KNOWN_STATUSES = [200, 401, 403, 404, 408, 500, 501, 502, 503, 504, 505] as const;

/** A rejected call: envelope code (or -1 for a transport failure), message, data, HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly msg: string,
    readonly data: unknown = null,
    readonly status?: number,
  ) {
    super(msg);
    this.name = 'ApiError';
  }
}

export interface HttpDeps {
  t(key: string, vars?: Record<string, unknown>): string;
  showError(text: string): void;
  /** 20001: clear persisted state and `sid`, go to /login */
  onUnauthorized(): void;
  getToken(): string | undefined;
  /** the console's locale, sent as `x-lang` so the server's messages come in it (server/http/lang.ts) */
  getLocale?(): string;
  baseURL?: string;
  /** the wire (default: XMLHttpRequest) */
  transport?: Transport;
  saveFile?(blob: Blob, fileName: string): void;
  openFile?(url: string): void;
}

type Base = 'admin' | 'common';

export interface HttpClient extends HttpPort {
  /** GET on the common base, e.g. `config` → /api/common/config */
  getCommon<T = unknown>(path: string, params?: Record<string, unknown>, opts?: RequestOptions): Promise<T>;
}

const isEnvelope = (v: unknown): v is Envelope => typeof v === 'object' && v !== null && 'code' in v;

/** What a call asks of the transport, before the base, token header and body encoding are applied. */
interface Call extends Partial<Omit<TransportRequest, 'data' | 'method' | 'url'>> {
  method: Method;
  url: string;
  data?: unknown;
}

const isOk = (status: number) => status >= 200 && status < 300;

export function createHttpClient(deps: HttpDeps): HttpClient {
  const transport = deps.transport ?? lazyTransport;

  const statusMessage = (status: number | undefined, err?: unknown): string => {
    if (status && (KNOWN_STATUSES as readonly number[]).includes(status)) return deps.t(`common.http.status.${status}`);
    if (status) return deps.t('common.http.statusOther', { status });
    if (err instanceof TransportError && err.code === 'ECONNABORTED') return deps.t('common.http.status.408');
    return deps.t('common.http.network');
  };

  /** Resolves an envelope: data on 10000, session handling on 20001, ApiError otherwise. */
  const settle = <T>(env: unknown, opts: RequestOptions | undefined, status: number): T => {
    if (!isEnvelope(env)) {
      const msg = statusMessage(status) + deps.t('common.http.networkSuffix');
      if (!opts?.silent) deps.showError(msg);
      throw new ApiError(-1, msg, env, status);
    }
    if (env.code === Code.OK) return env.data as T;
    if (env.code === Code.NOT_LOGGED_IN) {
      deps.onUnauthorized();
      throw new ApiError(env.code, deps.t('common.http.pleaseLogin'), env.data, status);
    }
    // the server answers in the x-lang language; an empty msg falls back to the code's own text
    const msg = env.msg || (deps.t(`common.codes.${env.code}`) !== `common.codes.${env.code}` ? deps.t(`common.codes.${env.code}`) : deps.t('common.http.failed'));
    if (!opts?.silent) deps.showError(msg);
    throw new ApiError(env.code, msg, env.data, status);
  };

  const fail = (msg: string, opts: RequestOptions | undefined, data: unknown, status?: number): never => {
    if (!opts?.silent) deps.showError(msg);
    throw new ApiError(-1, msg, data, status);
  };

  const send = async <T>(cfg: Call, opts?: RequestOptions): Promise<TransportResponse<T>> => {
    const headers: Record<string, string> = { accept: 'application/json, text/plain, */*' };
    const token = deps.getToken();
    if (token) headers['admin-token'] = token;
    const locale = deps.getLocale?.();
    if (locale) headers['x-lang'] = locale;
    let data: TransportRequest['data'];
    if (cfg.data instanceof FormData || cfg.data instanceof Blob || typeof cfg.data === 'string') data = cfg.data;
    else if (cfg.data !== undefined) {
      data = JSON.stringify(cfg.data);
      headers['content-type'] = 'application/json';
    }
    let res: TransportResponse;
    try {
      res = await transport({
        baseURL: deps.baseURL ?? apiBase(),
        withCredentials: true,
        ...cfg,
        data,
        headers,
        timeout: opts?.timeout ?? cfg.timeout ?? REQUEST_TIMEOUT,
        signal: opts?.signal,
      });
    } catch (e) {
      if (isCancel(e)) throw e;
      return fail(statusMessage(undefined, e) + deps.t('common.http.networkSuffix'), opts, null);
    }
    if (!isOk(res.status)) {
      // a reply that still carries an envelope (e.g. 20001 on a 401) is handled as one
      if (isEnvelope(res.data)) settle(res.data, opts, res.status);
      return fail(statusMessage(res.status) + deps.t('common.http.networkSuffix'), opts, res.data ?? null, res.status);
    }
    return res as TransportResponse<T>;
  };

  const call = async <T>(base: Base, cfg: Call, opts?: RequestOptions): Promise<T> => {
    const res = await send<unknown>({ ...cfg, url: `${base}/${cfg.url}` }, opts);
    return settle<T>(res.data, opts, res.status);
  };

  const progress = (opts?: TransferOptions) =>
    opts?.onProgress ? (e: Progress) => opts.onProgress?.(percentOf(e.loaded, e.total)) : undefined;

  return {
    get: (path, params, opts) => call('admin', { method: 'get', url: path, params }, opts),
    post: (path, body, opts) => call('admin', { method: 'post', url: path, data: body }, opts),
    getCommon: (path, params, opts) => call('common', { method: 'get', url: path, params }, opts),

    async download(path, body, opts) {
      const res = await send<Blob>(
        {
          method: body === undefined ? 'get' : 'post',
          url: `admin/${path}`,
          data: body,
          responseType: 'blob',
          timeout: DOWNLOAD_TIMEOUTS[path] ?? REQUEST_TIMEOUT,
          onDownloadProgress: progress(opts),
        },
        opts,
      );
      const type = res.headers['content-type'] ?? '';
      if (type.includes('json')) {
        // an envelope instead of a file: an error, or a URL to fetch the file from
        const raw: unknown = res.data instanceof Blob ? JSON.parse(await res.data.text()) : res.data;
        const data = settle<unknown>(raw, opts, res.status);
        const url = typeof data === 'string' ? data : (data as { url?: unknown } | null)?.url;
        if (typeof url === 'string') (deps.openFile ?? openUrl)(withXlsxTimestamp(url));
        return;
      }
      const name = fileNameFromDisposition(res.headers['content-disposition']);
      const blob = res.data instanceof Blob ? res.data : new Blob([res.data as BlobPart]);
      (deps.saveFile ?? saveBlob)(blob, name ?? opts?.fileName ?? DEFAULT_FILE_NAME);
    },

    upload: (path, form, opts) =>
      call('admin', { method: 'post', url: path, data: form, onUploadProgress: progress(opts) }, opts),

    async blob(path, params, opts) {
      const res = await send<Blob>({ method: 'get', url: `admin/${path}`, params, responseType: 'blob' }, opts);
      const type = res.headers['content-type'] ?? '';
      if (type.includes('json')) {
        // an envelope instead of the file: a refusal (shown unless silent), or no file at all
        const raw: unknown = res.data instanceof Blob ? JSON.parse(await res.data.text()) : res.data;
        const data = settle<unknown>(raw, opts, res.status);
        throw new ApiError(-1, deps.t('common.http.failed'), data, res.status);
      }
      return res.data instanceof Blob ? res.data : new Blob([res.data as BlobPart], { type });
    },
  };
}
