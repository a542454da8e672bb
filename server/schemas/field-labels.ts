/**
 * Field labels for server messages (issue 26): a refusal names a field by the label the person
 * saw on the form, in their language ("标题: 必填", not "title: 必填"). The labels are the titles
 * of the schemas that send to a route — a form's `modes.*.submit.api`, a list's filters for its
 * `data.api` — read through the locale files (the same trees the permission titles come from);
 * a few fields no form shows (the upload's `file`, a batch's `ids`) have their own names here.
 * A field no schema labels keeps its key.
 */
import { LOCALES } from '../../src/contract/page-menu.js';
import { permissionLocaleTrees } from './permission-tree.js';
import { getSchemaStore } from './store.js';
import type { ParsedSchema } from './validate.js';

type Lang = (typeof LOCALES)[number];
type Labels = Map<string, Map<string, Record<Lang, string>>>;

/** fields of hand-written routes and uploads, where no form property names them */
const OWN: Record<string, Record<Lang, string>> = {
  file: { 'zh-CN': '文件', 'en-US': 'File' },
  ids: { 'zh-CN': '所选记录', 'en-US': 'Selected records' },
  filter: { 'zh-CN': '筛选条件', 'en-US': 'Filter' },
  keyword: { 'zh-CN': '关键词', 'en-US': 'Keyword' },
};

const lookup = (tree: unknown, key: string): string | undefined => {
  let v: unknown = tree;
  for (const part of key.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
  return typeof v === 'string' ? v : undefined;
};

/** Every property with a title under a Formily object schema (void containers walked through). */
function titled(node: unknown, out: Map<string, string>): void {
  const props = (node as { properties?: Record<string, unknown> } | undefined)?.properties;
  if (!props || typeof props !== 'object') return;
  for (const [name, p] of Object.entries(props)) {
    const prop = p as { type?: string; title?: unknown };
    if (prop?.type === 'void') titled(prop, out);
    else if (typeof prop?.title === 'string' && !out.has(name)) out.set(name, prop.title);
  }
}

/** "POST shop/create" → the route key "POST shop/create" (query strings dropped) */
const apiKey = (api: unknown): string | null => (typeof api === 'string' && /^(GET|POST) \S+/.test(api) ? api.split('?')[0].trim() : null);

function build(schemas: readonly ParsedSchema[], trees: Record<string, unknown>): Labels {
  const labels: Labels = new Map();
  const add = (api: string | null, fields: Map<string, string>) => {
    if (!api || !fields.size) return;
    const at = labels.get(api) ?? new Map<string, Record<Lang, string>>();
    for (const [name, key] of fields) {
      if (at.has(name)) continue;
      const zh = lookup(trees['zh-CN'], key);
      const en = lookup(trees['en-US'], key);
      if (zh && en) at.set(name, { 'zh-CN': zh, 'en-US': en });
    }
    labels.set(api, at);
  };
  for (const s of schemas) {
    const doc = s.doc as Record<string, unknown>;
    if (s.kind === 'form') {
      const fields = new Map<string, string>();
      titled(doc.schema, fields);
      for (const mode of Object.values((doc.modes as Record<string, { submit?: { api?: unknown } }>) ?? {})) add(apiKey(mode?.submit?.api), fields);
      add(apiKey((doc.submit as { api?: unknown } | undefined)?.api), fields);
    } else if (s.kind === 'list') {
      const fields = new Map<string, string>();
      titled(doc.filters, fields);
      add(apiKey((doc.data as { api?: unknown } | undefined)?.api), fields);
    }
  }
  return labels;
}

let cache: { fp: string; labels: Labels } | null = null;

function current(): Labels {
  let all: ParsedSchema[];
  try {
    all = getSchemaStore().all();
  } catch {
    all = [];
  }
  const trees = permissionLocaleTrees();
  const fp = `${all.length}|${all.map((s) => s.hash).join(',')}`;
  if (cache?.fp !== fp) cache = { fp, labels: build(all, trees) };
  return cache.labels;
}

/**
 * The label of `field` on the route `METHOD path` (path relative to the API base, as the
 * schemas name it) in `lang`, or undefined (then the message keeps the field's key). A path into
 * a field (`items.0.name`, `ids[1]`) keeps its key: its place is what it says.
 */
export function fieldLabel(method: string, path: string, field: string, lang: Lang): string | undefined {
  if (/[.[]/.test(field)) return undefined;
  return current().get(`${method} ${path}`)?.get(field)?.[lang] ?? OWN[field]?.[lang];
}
