/**
 * A RuntimeEnv for the bench's schema pages: the in-memory API (schema/list, schema/detail and
 * the page data), no-op notifications and navigation, a dictionary `t`, every permission.
 * The runtime itself (loader, controllers, widgets) is the product's own code. Like the real
 * server, the in-memory API names the fingerprint of the meta-schema check its schemas passed
 * (checked in Node before the run: ../check-schemas.ts), so the runtime does not repeat it.
 */
import { SCHEMA_CHECK } from '../../../src/contract/schema-check.js';
import type { RuntimeEnv } from '../../../src/runtime/env.js';
import common from '../../../src/locales/en-US/common.json';
import runtime from '../../../src/locales/en-US/runtime.json';
import { pageOf } from './data.js';
import { label } from './form-fields.js';
import { enums, FORM_ROUTE, formSchema, LABELS, listSchema } from './bench-schemas.js';

interface Entry {
  id: string;
  kind: string;
  routes: string[];
  enums: string[];
  schema(): unknown;
}
const SCHEMAS: Record<string, Entry> = {
  [listSchema.id]: { id: listSchema.id, kind: 'list', routes: listSchema.routes, enums: Object.keys(enums), schema: () => listSchema },
  'intelligent_text.bench_form': { id: 'intelligent_text.bench_form', kind: 'form', routes: [FORM_ROUTE], enums: [], schema: formSchema },
};

type Tree = { [k: string]: string | Tree };
const flat = (prefix: string, t: Tree, out: Record<string, string> = {}): Record<string, string> => {
  for (const [k, v] of Object.entries(t)) {
    if (typeof v === 'string') out[`${prefix}.${k}`] = v;
    else flat(`${prefix}.${k}`, v, out);
  }
  return out;
};
/** The product's own English texts (runtime, common) plus the bench's labels. */
const TEXTS: Record<string, string> = { ...flat('runtime', runtime as Tree), ...flat('common', common as Tree), ...LABELS };
const interpolate = (s: string, vars?: Record<string, unknown>) => (vars ? s.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, k: string) => String(vars[k] ?? '')) : s);

const later = <T>(value: T): Promise<T> => new Promise((resolve) => setTimeout(() => resolve(value), 0));

function get(path: string, params: Record<string, unknown> = {}): Promise<unknown> {
  if (path === 'schema/list') {
    return later({
      checked: SCHEMA_CHECK,
      list: Object.values(SCHEMAS).map((s) => ({ id: s.id, version: 1, hash: `bench-${s.id}`, kind: s.kind, routes: s.routes, module: 'intelligent_text' })),
    });
  }
  if (path === 'schema/detail') {
    const s = SCHEMAS[String(params.id)];
    if (!s) return Promise.reject(new Error(`no bench schema ${String(params.id)}`));
    return later({ schema: s.schema(), hash: `bench-${s.id}`, enums: Object.fromEntries(s.enums.map((e) => [e, enums[e]])), checked: SCHEMA_CHECK });
  }
  if (path === 'bench/list') {
    const q = new URLSearchParams(location.search);
    const pageSize = Number(params.page_size ?? 10);
    return later(pageOf(Number(q.get('total') ?? Math.max(pageSize, 100_000)), Number(params.page ?? 1), pageSize));
  }
  return Promise.reject(new Error(`bench env: no fake for GET ${path}`));
}

export const benchEnv: RuntimeEnv = {
  http: {
    get: get as RuntimeEnv['http']['get'],
    post: (() => later(null)) as RuntimeEnv['http']['post'],
    download: async () => undefined,
    upload: (() => later(null)) as RuntimeEnv['http']['upload'],
  },
  notify: { success: () => undefined, error: (t) => console.error(t), info: () => undefined },
  confirm: async () => true,
  navigate: () => undefined,
  t: (key, vars) => interpolate(TEXTS[key] ?? label(key), vars),
  can: () => true,
  locale: 'en-US',
  devMode: false,
};
