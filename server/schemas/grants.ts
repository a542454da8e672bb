/**
 * Page permissions grant the page's own read calls (issue 11).
 *
 * A route lists by hand the keys that may call it (`access: { permission }`); a page schema
 * names the key that opens it (`permission`) and the calls it makes (`data.api`, `load`,
 * option sources of its fields, `refreshWhile.watch`, actions' `api`). When the two drift
 * apart, a user holding only the page's key is refused (40003) on the page's own data call.
 * This module derives from the loaded schemas a grant table, `"GET path"` → keys, that the
 * access check accepts next to the route's declared keys, and the `schemas:check` rule that
 * reports a call no key of the page reaches.
 *
 * Rules (docs/security.md, "Page permissions grant their read calls"):
 * - who makes a call: the permission declared on the element making it (an action's
 *   `permission`, a field's `x-permission`, a column / section / tab `permission`), else the
 *   form mode's `permission` (a call under `modes.<mode>`), else who opens the schema: a page's
 *   `permission`; a form's `permission`, else each of its modes' `permission`, else the key that
 *   governs each `openForm` action opening it (and, for a schema with no key of its own, the
 *   keys of the schemas embedding it as a tab or a list section);
 * - only GET calls are granted. A POST (every write, and the few reads that are POSTs) keeps
 *   the route's declared keys only: a schema never widens who may change data;
 * - never on a route that is not `{ permission }` (public, login and service routes are not
 *   widened; a console session never passes a service route), nor on an admin_center route
 *   (accounts, roles, permissions, service tokens, audit, jobs: any route listing an
 *   `admin_center.` key or under those paths) — those keep their hand-declared keys only, so
 *   the privilege ceiling stays in one place (server/auth/ceiling.ts);
 * - routes under `/api/admin/` only (schemas name no other base).
 */
import type { Access, RouteDef, SessionUser } from '../http/route.js';
import type { SchemaProblem } from './problems.js';
import { collectRefs, parseApiRef } from './refs.js';
import { getSchemaStore } from './store.js';
import type { ParsedSchema } from './validate.js';

/** Route paths of the admin centre's spine: never granted through schemas whatever keys they list. */
export const ADMIN_ROUTE_PREFIXES = ['account/', 'role/', 'permission/', 'service-token/', 'audit-log/', 'job/'] as const;
const ADMIN_MODULE = 'admin_center.';
const MODES = ['add', 'edit', 'view'] as const;

export type RouteLike = Pick<RouteDef, 'method' | 'path' | 'base' | 'access'>;

/** Where a key on a call's path is declared. */
export type KeyVia = 'page' | 'form' | 'mode' | 'element';

/**
 * One way a user comes to make a call: the keys they necessarily hold on the way, outermost
 * first (the page's, the action's that opens a form, the form mode's, the element's). The
 * last one is the key the schema grants the call to.
 */
export type CallPath = Array<{ key: string; via: KeyVia }>;

/** One call a schema makes, with the ways users come to make it. */
export interface SchemaCall {
  schemaId: string;
  file: string;
  pointer: string;
  /** `"GET shop/list"` */
  api: string;
  method: 'GET' | 'POST';
  path: string;
  /** empty: nothing opens the schema */
  paths: CallPath[];
  /** the keys granted this call: the innermost key of each path */
  keys: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);
const unescape = (seg: string): string => seg.replace(/~1/g, '/').replace(/~0/g, '~');
const segments = (pointer: string): string[] => (pointer ? pointer.split('/').slice(1).map(unescape) : []);

/** The permissions declared on the elements on the way to `pointer`, outermost first (not the root, not a form mode). */
function elementChain(doc: Record<string, unknown>, pointer: string, isForm: boolean): CallPath {
  const segs = segments(pointer);
  let node: unknown = doc;
  const chain: CallPath = [];
  // the last segment is the string itself; its parent is the element making the call
  for (let i = 0; i < segs.length - 1; i++) {
    node = isObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[segs[i]] : undefined;
    if (!isObject(node)) continue;
    if (isForm && i === 1 && segs[0] === 'modes') continue;
    const p = node.permission ?? node['x-permission'];
    if (typeof p === 'string') chain.push({ key: p, via: 'element' });
  }
  return chain;
}

/** At most this many ways per call are kept (a form opened from many pages). */
const MAX_PATHS = 64;

/** The calls of every page and form schema, each with the ways users come to make it. */
export function schemaCalls(schemas: readonly ParsedSchema[]): SchemaCall[] {
  const pages = schemas.filter((s) => s.kind !== 'enum');
  const byId = new Map(pages.map((s) => [s.id, s]));
  const refsOf = new Map(pages.map((s) => [s.id, collectRefs(s.doc, [])]));

  // who refers to a schema: openForm actions (with their mode), tabs and list sections
  const referrers = new Map<string, Array<{ from: ParsedSchema; pointer: string; mode: string | null }>>();
  for (const s of pages) {
    for (const r of refsOf.get(s.id)!.schemas) {
      const mode = r.pointer.endsWith('/form') ? modeAt(s.doc, r.pointer) : null;
      const list = referrers.get(r.value) ?? [];
      list.push({ from: s, pointer: r.pointer, mode });
      referrers.set(r.value, list);
    }
  }

  /**
   * The ways schema `id` (a form: in `mode`) is opened. A page with a permission is opened with
   * it (menu, route, or embedded: the embedded page's own key is needed too); a page without
   * one through the schemas embedding it. A form through the actions opening it in that mode
   * (and by its route when the mode has one), plus its own and the mode's permission.
   */
  const opens = (id: string, mode: string | null, seen: ReadonlySet<string>): CallPath[] => {
    const here = `${id}#${mode ?? ''}`;
    const s = byId.get(id);
    if (!s || seen.has(here)) return [];
    const next = new Set(seen).add(here);
    const doc = s.doc as { permission?: unknown; modes?: Record<string, { permission?: unknown; route?: unknown } | undefined> };
    const own: CallPath = [];
    if (typeof doc.permission === 'string') own.push({ key: doc.permission, via: s.kind === 'form' ? 'form' : 'page' });
    const spec = mode ? doc.modes?.[mode] : undefined;
    if (s.kind === 'form' && typeof spec?.permission === 'string') own.push({ key: spec.permission, via: 'mode' });
    if (s.kind !== 'form' && own.length) return [own];
    const out: CallPath[] = [];
    if (s.kind === 'form' && typeof spec?.route === 'string' && own.length) out.push(own);
    for (const ref of referrers.get(id) ?? []) {
      if (s.kind === 'form' && ref.mode !== null && ref.mode !== mode) continue;
      for (const p of ways(ref.from, ref.pointer, next)) if (out.length < MAX_PATHS) out.push([...p, ...own]);
    }
    if (!out.length && own.length) out.push(own);
    return out;
  };

  /** the ways a call (or a reference) at `pointer` of schema `s` is made */
  const ways = (s: ParsedSchema, pointer: string, seen: ReadonlySet<string>): CallPath[] => {
    const isForm = s.kind === 'form';
    const chain = elementChain(s.doc, pointer, isForm);
    const openers = isForm ? formModes(s.doc, pointer).flatMap((m) => opens(s.id, m, seen)) : opens(s.id, null, seen);
    if (!openers.length) return chain.length ? [chain] : [];
    return openers.slice(0, MAX_PATHS).map((p) => [...p, ...chain]).filter((p) => p.length);
  };

  const out: SchemaCall[] = [];
  for (const s of pages) {
    for (const r of refsOf.get(s.id)!.apis) {
      const api = parseApiRef(r.value);
      if (!api) continue;
      const paths = dedupe(ways(s, r.pointer, new Set()));
      const keys = [...new Set(paths.map((p) => p[p.length - 1].key))].sort();
      out.push({ schemaId: s.id, file: s.file, pointer: r.pointer, api: r.value, method: api.method, path: api.path, paths, keys });
    }
  }
  return out;
}

function dedupe(paths: CallPath[]): CallPath[] {
  const seen = new Map<string, CallPath>();
  for (const p of paths) seen.set(p.map((k) => `${k.via}:${k.key}`).join('>'), p);
  return [...seen.values()];
}

/** The mode an openForm action opens (the sibling `mode` of its `form`). */
function modeAt(doc: Record<string, unknown>, formPointer: string): string | null {
  let node: unknown = doc;
  for (const seg of segments(formPointer).slice(0, -1)) node = isObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[seg] : undefined;
  return isObject(node) && typeof node.mode === 'string' ? node.mode : null;
}

/**
 * The modes in which a form makes the call at `pointer`: the mode it sits under; the form's
 * own `load` in edit and view (the modes without a `load` of their own); anything else in
 * every mode.
 */
function formModes(doc: Record<string, unknown>, pointer: string): string[] {
  const modes = isObject(doc.modes) ? (doc.modes as Record<string, Record<string, unknown> | undefined>) : {};
  const declared = MODES.filter((m) => isObject(modes[m]));
  const under = /^\/modes\/(add|edit|view)(\/|$)/.exec(pointer);
  if (under) return [under[1]];
  if (pointer.startsWith('/load/')) {
    const loading = declared.filter((m) => m !== 'add' && !isObject(modes[m]?.load));
    return loading.length ? loading : declared;
  }
  return declared;
}

const declaredKeys = (access: Access): string[] | null =>
  typeof access === 'object' && 'permission' in access ? (Array.isArray(access.permission) ? access.permission : [access.permission]) : null;

/**
 * Why schemas may not grant keys on this route (null: they may). One rule for the access check
 * and for `schemas:check`.
 */
export function grantRefusal(route: RouteLike): string | null {
  if ((route.base ?? 'admin') !== 'admin') return 'not an /api/admin/ route';
  const keys = declaredKeys(route.access);
  if (!keys) return `its access is ${typeof route.access === 'string' ? `'${route.access}'` : "a service token's"}: schemas grant only on routes declaring permission keys`;
  if (keys.some((k) => k.startsWith(ADMIN_MODULE)) || ADMIN_ROUTE_PREFIXES.some((p) => route.path.startsWith(p))) {
    return 'it is an admin_center route (accounts, roles, permissions, service tokens, audit, jobs): it keeps its hand-declared keys only';
  }
  if (route.method !== 'GET') return 'it is a POST: schemas grant read (GET) calls only, a POST keeps its declared keys';
  return null;
}

/**
 * `"GET path"` → keys granted by the schemas: for each way of making a call on a route
 * `grantRefusal` allows that none of the route's declared keys serves, the innermost key on
 * that way (the element's, else the form mode's, else the page's). The table holds only what
 * the declared keys lack.
 */
export type GrantTable = ReadonlyMap<string, ReadonlySet<string>>;

export function deriveGrants(schemas: readonly ParsedSchema[], routes: readonly RouteLike[]): Map<string, Set<string>> {
  const byApi = new Map(routes.filter((r) => (r.base ?? 'admin') === 'admin').map((r) => [`${r.method} ${r.path}`, r]));
  const table = new Map<string, Set<string>>();
  for (const c of schemaCalls(schemas)) {
    const route = byApi.get(`${c.method} ${c.path}`);
    if (!route || grantRefusal(route)) continue;
    const declared = declaredKeys(route.access) ?? [];
    const api = `${c.method} ${c.path}`;
    for (const p of c.paths) {
      // a way the declared keys already serve needs no grant
      if (p.some((k) => declared.includes(k.key))) continue;
      const keys = table.get(api) ?? new Set<string>();
      keys.add(p[p.length - 1].key);
      table.set(api, keys);
    }
  }
  return table;
}

const describe = (p: CallPath): string => p.map((k) => `${k.via} "${k.key}"`).join(' + ');

/**
 * `schemas:check`: on every way a user comes to make a call, one of the keys they hold on the
 * way reaches the route, by the route's declared keys or by the grant table. With the table in
 * place this fails only where the grant is refused (a POST, an admin_center route, a service
 * route) and the route lists none of those keys.
 */
export function checkPermissionReach(schemas: readonly ParsedSchema[], routes: readonly RouteLike[]): SchemaProblem[] {
  const byApi = new Map(routes.filter((r) => (r.base ?? 'admin') === 'admin').map((r) => [`${r.method} ${r.path}`, r]));
  const table = deriveGrants(schemas, routes);
  const problems: SchemaProblem[] = [];
  for (const c of schemaCalls(schemas)) {
    const api = `${c.method} ${c.path}`;
    const route = byApi.get(api);
    if (!route) continue; // "unknown API" is reported by the reference check
    if (route.access === 'public' || route.access === 'login') continue;
    const declared = declaredKeys(route.access) ?? [];
    const reaches = (k: string) => declared.includes(k) || Boolean(table.get(api)?.has(k));
    const blocked = c.paths.filter((p) => !p.some((k) => reaches(k.key)));
    if (!blocked.length) continue;
    const refusal = grantRefusal(route);
    problems.push({
      file: c.file,
      pointer: c.pointer,
      reason:
        `${c.api} is refused to a user holding ${blocked.map(describe).join(', or ')}: ` +
        `the route lists ${declared.length ? declared.map((k) => `"${k}"`).join(', ') : 'no permission keys'} and schemas do not grant it (${refusal ?? 'no grant'}) — ` +
        `list the key in the route's access (server code) or give the element a permission the route lists`,
    });
  }
  return problems;
}

/**
 * The access check's second way in: the grant table of the schemas in the store, derived again
 * whenever the store's content changes (the dev watch swaps files in; tests set stores of
 * their own). Asked only after the route's declared keys refused, so a granted call costs one
 * fingerprint of the store and a refused one nothing more.
 */
export function schemaGrantCheck(routes: readonly RouteLike[]): { allows(route: RouteLike, user: SessionUser): boolean; table(): GrantTable } {
  let fingerprint: string | null = null;
  let table: Map<string, Set<string>> = new Map();
  const current = (): GrantTable => {
    let pages: ParsedSchema[];
    try {
      pages = getSchemaStore().pages();
    } catch {
      return new Map(); // no schemas loaded: nothing granted
    }
    const fp = pages.map((s) => `${s.id}:${s.hash}`).join('|');
    if (fp !== fingerprint) {
      table = deriveGrants(pages, routes);
      fingerprint = fp;
    }
    return table;
  };
  return {
    table: current,
    allows(route, user) {
      if (grantRefusal(route)) return false;
      const keys = current().get(`${route.method} ${route.path}`);
      if (!keys) return false;
      for (const k of keys) if (user.keys.has(k)) return true;
      return false;
    },
  };
}
