/**
 * The wire under the HTTP client: one XMLHttpRequest per call (a few hundred bytes, where
 * axios took ~20 KiB gzip of every page). XHR rather than fetch because uploads report
 * progress. The transport resolves every HTTP status; the client decides what is an error.
 * Tests pass their own Transport (see client.test.ts).
 */
export type Method = 'get' | 'post';

export interface Progress {
  loaded: number;
  total?: number;
}

export interface TransportRequest {
  method: Method;
  /** the base, e.g. `/api/` or `https://admindev.example.com/api/` */
  baseURL: string;
  /** relative to the base, e.g. `admin/role/list` */
  url: string;
  /** query parameters, serialized as axios did: `a=1&list[]=x&list[]=y&obj[k]=v`, null / undefined left out */
  params?: Record<string, unknown>;
  /** a JSON string (the client serializes objects), FormData or Blob */
  data?: string | FormData | Blob;
  headers: Record<string, string>;
  /** ms; 0 = none */
  timeout: number;
  withCredentials: boolean;
  /** `json` (default): the body parsed when it is JSON, else the text; `blob`: a Blob */
  responseType?: 'json' | 'blob';
  signal?: AbortSignal;
  onUploadProgress?(e: Progress): void;
  onDownloadProgress?(e: Progress): void;
}

export interface TransportResponse<T = unknown> {
  status: number;
  data: T;
  /** lower-case names */
  headers: Record<string, string>;
}

export type Transport = (req: TransportRequest) => Promise<TransportResponse>;

export type TransportErrorCode = 'ERR_NETWORK' | 'ECONNABORTED' | 'ERR_CANCELED';

/** No reply: network failure, timeout (ECONNABORTED) or cancelled through the signal (ERR_CANCELED). */
export class TransportError extends Error {
  constructor(
    readonly code: TransportErrorCode,
    message: string,
  ) {
    super(message);
    this.name = code === 'ERR_CANCELED' ? 'CanceledError' : 'TransportError';
  }
}

export const isCancel = (e: unknown): boolean => e instanceof TransportError && e.code === 'ERR_CANCELED';

/** axios's encoding of query keys and values: `:`, `$`, `,` kept, spaces as `+`. */
const encode = (v: string) =>
  encodeURIComponent(v).replace(/%3A/gi, ':').replace(/%24/g, '$').replace(/%2C/gi, ',').replace(/%20/g, '+');

const plain = (v: unknown): string => (v instanceof Date ? v.toISOString() : String(v));

/** `params` as a query string (without `?`), the way axios's default serializer wrote it. */
export function serializeParams(params: Record<string, unknown> | undefined): string {
  if (!params) return '';
  const pairs: string[] = [];
  const add = (key: string, value: unknown, top: boolean) => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) {
      // a top-level array of plain values is `key[]=…` repeated; anything deeper is indexed
      const flat = top && !value.some((v) => v !== null && typeof v === 'object' && !(v instanceof Date));
      value.forEach((v, i) => add(flat ? `${key}[]` : `${key}[${i}]`, v, false));
    } else if (typeof value === 'object' && !(value instanceof Date)) {
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) add(`${key}[${k}]`, v, false);
    } else pairs.push(`${encode(key)}=${encode(plain(value))}`);
  };
  for (const [k, v] of Object.entries(params)) add(k, v, true);
  return pairs.join('&');
}

export function requestUrl(req: Pick<TransportRequest, 'baseURL' | 'url' | 'params'>): string {
  const base = /^([a-z][a-z\d+.-]*:)?\/\//i.test(req.url) ? req.url : `${req.baseURL.replace(/\/+$/, '')}/${req.url.replace(/^\/+/, '')}`;
  const query = serializeParams(req.params);
  return query ? `${base}${base.includes('?') ? '&' : '?'}${query}` : base;
}

function parseHeaders(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const at = line.indexOf(':');
    if (at > 0) out[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  return out;
}

const parseBody = (text: string): unknown => {
  if (!text) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

export const xhrTransport: Transport = (req) =>
  new Promise<TransportResponse>((resolve, reject) => {
    if (req.signal?.aborted) return reject(new TransportError('ERR_CANCELED', 'canceled'));
    const xhr = new XMLHttpRequest();
    xhr.open(req.method.toUpperCase(), requestUrl(req), true);
    xhr.timeout = req.timeout;
    xhr.withCredentials = req.withCredentials;
    xhr.responseType = req.responseType === 'blob' ? 'blob' : 'text';
    for (const [k, v] of Object.entries(req.headers)) xhr.setRequestHeader(k, v);
    const progress = (cb: ((e: Progress) => void) | undefined) =>
      cb ? (e: ProgressEvent) => cb({ loaded: e.loaded, total: e.lengthComputable ? e.total : undefined }) : null;
    xhr.onprogress = progress(req.onDownloadProgress);
    if (req.onUploadProgress) xhr.upload.onprogress = progress(req.onUploadProgress);
    const onAbort = () => xhr.abort();
    const done = () => req.signal?.removeEventListener('abort', onAbort);
    req.signal?.addEventListener('abort', onAbort);
    xhr.onload = () => {
      done();
      resolve({
        status: xhr.status,
        data: req.responseType === 'blob' ? xhr.response : parseBody(xhr.responseText),
        headers: parseHeaders(xhr.getAllResponseHeaders()),
      });
    };
    xhr.onerror = () => {
      done();
      reject(new TransportError('ERR_NETWORK', 'Network Error'));
    };
    xhr.ontimeout = () => {
      done();
      reject(new TransportError('ECONNABORTED', `timeout of ${req.timeout}ms exceeded`));
    };
    xhr.onabort = () => {
      done();
      reject(new TransportError('ERR_CANCELED', 'canceled'));
    };
    xhr.send(req.data ?? null);
  });
