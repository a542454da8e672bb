/**
 * The wire under the HTTP client: XMLHttpRequest (query serialization as axios did, timeouts,
 * cancellation, upload and download progress, blobs), in ./xhr-transport.ts, loaded on first use
 * by ./lazy-transport.ts. The transport resolves every HTTP status; the client decides what is an
 * error. Tests pass their own Transport (see client.test.ts). This file holds the types and the
 * error only, so xhr-transport.ts imports it without a circle.
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
  /** query parameters, serialized as axios did (xhr-transport.ts `serializeParams`): `a=1&list[]=x&list[]=y&obj[k]=v`, null / undefined left out */
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
