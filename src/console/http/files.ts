/** Download helpers (spec section 7): file names, `.xlsx` cache-busting, saving a blob. */
export const DEFAULT_FILE_NAME = 'file.csv';
/** learn-material/export may run for a day. */
export const EXPORT_TIMEOUT = 24 * 60 * 60 * 1000;
/** per-path download timeouts; everything else uses the client default */
export const DOWNLOAD_TIMEOUTS: Record<string, number> = { 'learn-material/export': EXPORT_TIMEOUT };

/** File name from a Content-Disposition header (RFC 5987 `filename*` first), else undefined. */
export function fileNameFromDisposition(header: string | null | undefined): string | undefined {
  if (!header) return undefined;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)?''([^;]+)/.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      /* fall through to the plain form */
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/.exec(header);
  const name = plain ? (plain[2] ?? plain[1]).trim() : '';
  return name || undefined;
}

/** A file URL ending in .xlsx gets a timestamp query so caches never serve a stale export. */
export function withXlsxTimestamp(url: string, now: number = Date.now()): string {
  const bare = url.split(/[?#]/)[0];
  if (!bare.toLowerCase().endsWith('.xlsx')) return url;
  return `${url}${url.includes('?') ? '&' : '?'}t=${now}`;
}

export const percentOf = (loaded: number, total: number | undefined): number =>
  total ? Math.min(100, Math.round((loaded * 100) / total)) : 0;

/** Saves a blob through a temporary object URL and anchor. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  openUrl(url, fileName);
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function openUrl(url: string, fileName?: string): void {
  const a = document.createElement('a');
  a.href = url;
  if (fileName) a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
}
