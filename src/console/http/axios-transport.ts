/** The axios transport (loaded on demand through ./transport.ts `preloadTransport`). */
import axios, { AxiosError, type AxiosProgressEvent } from 'axios';
import { TransportError, type Progress, type Transport } from './transport.js';

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
