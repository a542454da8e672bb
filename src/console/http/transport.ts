/**
 * The wire under the HTTP client: axios (query serialization, timeouts, cancellation, upload
 * and download progress, blobs). The transport resolves every HTTP status; the client decides
 * what is an error. Tests pass their own Transport (see client.test.ts).
 */
import axios, { AxiosError, type AxiosProgressEvent } from 'axios';

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
  /** query parameters, serialized by axios: `a=1&list[]=x&list[]=y&obj[k]=v`, null / undefined left out */
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

/** The URL a request goes to, query included (axios's own serializer). */
export function requestUrl(req: Pick<TransportRequest, 'baseURL' | 'url' | 'params'>): string {
  return axios.getUri({ baseURL: req.baseURL, url: req.url, params: req.params });
}

const instance = axios.create({ validateStatus: () => true });

const progress = (cb: ((e: Progress) => void) | undefined) =>
  cb ? (e: AxiosProgressEvent) => cb({ loaded: e.loaded, total: e.total }) : undefined;

export const axiosTransport: Transport = async (req) => {
  try {
    const r = await instance.request({
      method: req.method,
      baseURL: req.baseURL,
      url: req.url,
      params: req.params,
      data: req.data,
      headers: req.headers,
      timeout: req.timeout,
      withCredentials: req.withCredentials,
      responseType: req.responseType === 'blob' ? 'blob' : 'json',
      signal: req.signal,
      onUploadProgress: progress(req.onUploadProgress),
      onDownloadProgress: progress(req.onDownloadProgress),
    });
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries((r.headers ?? {}) as Record<string, unknown>)) if (v != null) headers[k.toLowerCase()] = String(v);
    return { status: r.status, data: r.data as unknown, headers };
  } catch (e) {
    if (axios.isCancel(e)) throw new TransportError('ERR_CANCELED', 'canceled');
    const err = e as AxiosError;
    if (err.code === AxiosError.ECONNABORTED || err.code === AxiosError.ETIMEDOUT) throw new TransportError('ECONNABORTED', err.message);
    throw new TransportError('ERR_NETWORK', err.message || 'Network Error');
  }
};
