/**
 * Images the console itself serves under `/api/admin/` (uploads of image extraction) need the
 * session's `admin-token` header, which an `<img src>` cannot send: they are fetched through the
 * environment's HTTP port and shown from a `blob:` URL (the page's CSP allows `'self'`, `data:`
 * and `blob:` images). Any other address is shown as it is.
 */
import { useContext, useEffect, useState } from 'react';
import { RuntimeContext } from '../../runtime/context.js';

const API_PREFIX = '/api/admin/';

/** `/api/admin/image-extraction/image?id=5` → { path: 'image-extraction/image', params: { id: '5' } }; null for other addresses. */
export function servedPath(src: string): { path: string; params: Record<string, string> } | null {
  if (!src.startsWith(API_PREFIX)) return null;
  const u = new URL(src, 'http://console.invalid');
  return { path: u.pathname.slice(API_PREFIX.length), params: Object.fromEntries(u.searchParams) };
}

/** The address to show `src` from: a blob URL for a console-served image (null while it loads or when it failed). */
export function useServedImage(src: string | null): { url: string | null; failed: boolean } {
  const rt = useContext(RuntimeContext);
  const served = src ? servedPath(src) : null;
  const blob = rt?.env.http.blob?.bind(rt.env.http);
  const [state, setState] = useState<{ src: string | null; url: string | null; failed: boolean }>({ src: null, url: null, failed: false });
  useEffect(() => {
    if (!src || !served || !blob) return;
    let live = true;
    let url: string | null = null;
    blob(served.path, served.params, { silent: true }).then(
      (b) => {
        url = URL.createObjectURL(b);
        if (live) setState({ src, url, failed: false });
        else URL.revokeObjectURL(url);
      },
      () => live && setState({ src, url: null, failed: true }),
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `served` and `blob` follow `src` and the env
  }, [src]);
  if (!src) return { url: null, failed: false };
  if (!served || !blob) return { url: src, failed: false };
  return state.src === src ? { url: state.url, failed: state.failed } : { url: null, failed: false };
}
