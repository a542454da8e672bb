/**
 * The wire: the browser's XMLHttpRequest, which is what axios ran on in the browser (its `xhr`
 * adapter) and the one browser API with upload progress. It keeps axios's behaviour the client
 * relies on: query strings serialized as axios did (`serializeParams`, checked against axios in
 * transport.test.ts), every HTTP status resolved with the body parsed when it is JSON (else the
 * text), lower-case response headers, timeouts (ECONNABORTED), cancellation through the
 * AbortSignal the data layer passes (ERR_CANCELED), network failures (ERR_NETWORK), blobs,
 * cookies (`withCredentials`), upload and download progress. Loaded with the first request
 * (./lazy-transport.ts).
 */
import { TransportError, type Progress, type Transport, type TransportRequest } from './transport.js';

/** axios's query encoding: encodeURIComponent, with `:`, `$`, `,` kept and spaces as `+`. */
const encode = (v: string): string =>
  encodeURIComponent(v).replace(/%3A/gi, ':').replace(/%24/g, '$').replace(/%2C/gi, ',').replace(/%20/g, '+');

/** A plain object or an array: what axios walks into (`obj[k]=v`, `list[0][k]=v`). */
function isVisitable(v: unknown): v is Record<string, unknown> | unknown[] {
  if (Array.isArray(v)) return true;
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v) as object | null;
  return (proto === null || proto === Object.prototype || Object.getPrototypeOf(proto) === null) && !(Symbol.toStringTag in v) && !(Symbol.iterator in v);
}

const scalar = (v: unknown): string => (v instanceof Date ? v.toISOString() : String(v));
const unbracket = (k: string) => (k.endsWith('[]') ? k.slice(0, -2) : k);
const entriesOf = (v: Record<string, unknown> | unknown[]): Array<[string, unknown]> =>
  Array.isArray(v) ? v.map((el, i) => [String(i), el]) : Object.keys(v).map((k) => [k.trim(), v[k]]);

/**
 * Query parameters as axios 1.x serialized them: null / undefined left out, a flat array as
 * `key[]=a&key[]=b`, nested objects and arrays as `obj[k]=v` / `obj[list][0]=v`, a key ending in
 * `{}` as JSON, dates as ISO strings.
 */
export function serializeParams(params: Record<string, unknown>): string {
  const pairs: string[] = [];
  const add = (key: string, value: unknown) => pairs.push(`${encode(key)}=${encode(scalar(value))}`);
  const walk = (value: Record<string, unknown> | unknown[], path: string[]) => {
    for (const [key, el] of entriesOf(value)) {
      if (el === undefined || el === null) continue;
      if (path.length === 0 && typeof el === 'object') {
        if (key.endsWith('{}')) {
          add(key, JSON.stringify(el));
          continue;
        }
        if (Array.isArray(el) && (key.endsWith('[]') || !el.some(isVisitable))) {
          for (const item of el) if (item !== undefined && item !== null) add(`${unbracket(key)}[]`, item);
          continue;
        }
      }
      if (isVisitable(el)) walk(el, [...path, key]);
      else add(path.length ? [...path, key].map((t, i) => (i ? `[${unbracket(t)}]` : unbracket(t))).join('') : key, el);
    }
  };
  walk(params, []);
  return pairs.join('&');
}

/** The base and the path joined as axios did (an absolute URL is used as it is), with the query. */
export function requestUrl(req: Pick<TransportRequest, 'baseURL' | 'url' | 'params'>): string {
  const absolute = /^([a-z][a-z\d+\-.]*:)?\/\//i.test(req.url);
  let url = absolute || !req.baseURL ? req.url : req.url ? `${req.baseURL.replace(/\/?\/$/, '')}/${req.url.replace(/^\/+/, '')}` : req.baseURL;
  const query = req.params ? serializeParams(req.params) : '';
  if (!query) return url;
  const hash = url.indexOf('#');
  if (hash !== -1) url = url.slice(0, hash);
  return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}

function headersOf(raw: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of raw.split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at <= 0) continue;
    const name = line.slice(0, at).trim().toLowerCase();
    const value = line.slice(at + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return headers;
}

/** A text body parsed as JSON when it is JSON (axios's silent JSON parsing), else the text. */
function parsed(text: string): unknown {
  if (!text) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const progress = (cb: (e: Progress) => void) => (e: ProgressEvent) => cb({ loaded: e.loaded, total: e.lengthComputable ? e.total : undefined });

export const xhrTransport: Transport = (req) =>
  new Promise((resolve, reject) => {
    const canceled = () => new TransportError('ERR_CANCELED', 'canceled');
    if (req.signal?.aborted) {
      reject(canceled());
      return;
    }
    const xhr = new XMLHttpRequest();
    let settled = false;
    const onAbort = () => xhr.abort();
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      req.signal?.removeEventListener('abort', onAbort);
      fn();
    };
    xhr.open(req.method.toUpperCase(), requestUrl(req), true);
    xhr.timeout = req.timeout;
    xhr.withCredentials = req.withCredentials;
    xhr.responseType = req.responseType === 'blob' ? 'blob' : 'text';
    for (const [name, value] of Object.entries(req.headers)) xhr.setRequestHeader(name, value);
    if (req.onDownloadProgress) xhr.onprogress = progress(req.onDownloadProgress);
    if (req.onUploadProgress) xhr.upload.onprogress = progress(req.onUploadProgress);
    xhr.onerror = () => settle(() => reject(new TransportError('ERR_NETWORK', 'Network Error')));
    xhr.ontimeout = () => settle(() => reject(new TransportError('ECONNABORTED', `timeout of ${req.timeout}ms exceeded`)));
    xhr.onabort = () => settle(() => reject(req.signal?.aborted ? canceled() : new TransportError('ECONNABORTED', 'Request aborted')));
    // loadend comes after error / timeout / abort (already settled then); status 0 is no reply
    xhr.onloadend = () =>
      settle(() => {
        if (xhr.status === 0) {
          reject(new TransportError('ECONNABORTED', 'Request aborted'));
          return;
        }
        const data: unknown = req.responseType === 'blob' ? xhr.response : parsed(xhr.responseText);
        resolve({ status: xhr.status, data, headers: headersOf(xhr.getAllResponseHeaders()) });
      });
    req.signal?.addEventListener('abort', onAbort);
    xhr.send(req.data ?? null);
  });
