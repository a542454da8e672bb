/**
 * Headless detail controller: loads one record by the schema's load call through the query
 * client (src/runtime/data-layer: cached by API and params, cancelled when the page goes away,
 * reloaded after a write to its resource); refresh, and the live refresh of `refreshWhile`
 * (quiet reloads: the record stays shown, no loading state).
 */
import { getPath } from '../api.js';
import { useApiQuery } from '../data-layer/use-api-query.js';
import type { RuntimeEnv } from '../env.js';
import { resolveMap } from '../expr/template.js';
import type { DetailSchema, RuntimeUser } from '../types.js';
import { useRefreshWhile } from './use-refresh-while.js';
import { useStable } from './use-stable.js';

export interface DetailController {
  record: Record<string, unknown> | null;
  loading: boolean;
  error: unknown;
  refresh(): void;
  /** reloads without a loading state; resolves when the reply is in */
  refreshQuietly(): Promise<void>;
  /** replies (or failures) so far: embedded lists reload when it grows after the first */
  loads: number;
  /** `refreshWhile` is reloading the record now */
  live: boolean;
  scope: Record<string, unknown>;
}

export function useDetailController(
  schema: DetailSchema,
  opts: { env: RuntimeEnv; params: Record<string, unknown>; query?: Record<string, string>; user?: RuntimeUser | null },
): DetailController {
  const params = useStable(opts.params);
  let request: Record<string, unknown> = {};
  let requestError: unknown = null;
  try {
    request = resolveMap(schema.load.params, { params, query: opts.query ?? {}, user: opts.user ?? null });
  } catch (e) {
    requestError = e;
  }
  const q = useApiQuery({ http: opts.env.http, api: schema.load.api, params: request, paramsError: requestError });
  const found = q.data === undefined ? null : getPath(q.data, schema.load.path);
  const record = found && typeof found === 'object' ? (found as Record<string, unknown>) : null;
  const { refresh: reload, refreshQuietly } = q;
  const refresh = () => void reload().catch(() => undefined);
  const scope = { record: record ?? {}, row: record ?? {}, params, query: opts.query ?? {}, user: opts.user ?? null };
  const live = useRefreshWhile(schema.refreshWhile, { env: opts.env, data: record, loads: q.loads, scope, reload: refreshQuietly });
  return { record, loading: q.loading, error: q.error, refresh, refreshQuietly, loads: q.loads, live, scope };
}
