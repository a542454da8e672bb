/**
 * The permission tree derived from the page schemas (issue 11, "one file per simple page").
 *
 * A page schema (list, detail, tabs) with a `menu` object declares a menu page: its route (the
 * first of `routes`), its permission key (`permission`, flattened `module.key`), its menu entry
 * (`menu.group`, `menu.order`, `menu.icon`, `menu.aliases`) and its title (`title`, an i18n key,
 * read from the locale files in both languages). `deriveManifest` puts those pages into the
 * hand-written manifest (src/contract/permission-manifest.ts), which keeps only what no schema
 * declares: modules, menu groups, bespoke screens, buttons and hidden pages (attached to their
 * derived page through `pageChildren`). Server (seed, menus, checks) and console read the result.
 *
 * Pure functions, no I/O: the server passes the schemas of its store and the locale trees.
 */
import { MENU_ICON_NAMES } from './menu-icons.js';
import { MODULES, PermissionType, type ManifestNode, type ModuleManifest, type ModuleName, type Title } from './permission-manifest.js';

export const LOCALES = ['zh-CN', 'en-US'] as const;

/** A menu page as one schema declares it. */
export interface PageMenuDecl {
  /** the schema file (for problems) */
  file: string;
  module: ModuleName;
  /** unflattened manifest key (the permission without `module.`) */
  key: string;
  /** route relative to the module */
  route: string;
  group: string;
  order: number;
  icon?: string;
  /** relative to the module */
  aliases?: string[];
  title: Title;
}

export interface DeriveProblem {
  file: string;
  pointer: string;
  reason: string;
}

/** The schema fields read here (a ParsedSchema's `doc`). */
export interface PageDoc {
  kind?: unknown;
  module?: unknown;
  routes?: unknown;
  permission?: unknown;
  title?: unknown;
  menu?: unknown;
}

/** Looks an i18n key up in one locale (undefined when missing). */
export type Translate = (key: string, locale: (typeof LOCALES)[number]) => string | undefined;

/** A translate over locale trees `{ 'zh-CN': { ns: {…} }, … }` (`ns.a.b`, or `ns:a.b`). */
export function treeTranslate(trees: Record<string, unknown>): Translate {
  return (key, locale) => {
    const [ns, rest] = key.includes(':') ? (key.split(':', 2) as [string, string]) : [null, key];
    const parts = ns ? [ns, ...rest.split('.')] : rest.split('.');
    let cur: unknown = trees[locale];
    for (const p of parts) {
      if (!cur || typeof cur !== 'object') return undefined;
      cur = (cur as Record<string, unknown>)[p];
    }
    return typeof cur === 'string' ? cur : undefined;
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** The menu page a schema declares, or null (no `menu`); problems for a declaration that cannot be derived. */
export function pageMenuDecl(file: string, doc: PageDoc, translate: Translate): { decl: PageMenuDecl | null; problems: DeriveProblem[] } {
  const problems: DeriveProblem[] = [];
  const bad = (pointer: string, reason: string) => {
    problems.push({ file, pointer, reason });
    return { decl: null, problems };
  };
  if (!isObject(doc.menu)) return { decl: null, problems };
  const menu = doc.menu;
  const module = doc.module as ModuleName;
  if (!MODULES.includes(module)) return bad('/module', `a menu page needs a module (one of ${MODULES.join(', ')})`);
  const routes = Array.isArray(doc.routes) ? (doc.routes as string[]) : [];
  if (!routes.length) return bad('/menu', 'a menu page needs a route: the first of "routes" is its menu route');
  const prefix = `/${module}/`;
  if (!routes[0].startsWith(prefix) || routes[0].includes(':')) {
    return bad('/routes/0', `the menu route "${routes[0]}" must start with "${prefix}" and have no ":param" segment`);
  }
  if (typeof doc.permission !== 'string' || !doc.permission.startsWith(`${module}.`)) {
    return bad('/menu', `a menu page needs its own "permission" key in its module ("${module}.…"): it is the page's permission node`);
  }
  if (typeof menu.icon === 'string' && !(MENU_ICON_NAMES as readonly string[]).includes(menu.icon)) {
    problems.push({ file, pointer: '/menu/icon', reason: `unknown menu icon "${menu.icon}" (not in src/contract/menu-icons.ts)` });
  }
  const aliases = Array.isArray(menu.aliases) ? (menu.aliases as string[]) : [];
  aliases.forEach((a, i) => {
    if (!a.startsWith(prefix)) problems.push({ file, pointer: `/menu/aliases/${i}`, reason: `alias "${a}" must start with "${prefix}"` });
  });
  const titleKey = typeof doc.title === 'string' ? doc.title : '';
  const title = { 'zh-CN': translate(titleKey, 'zh-CN') ?? titleKey, 'en-US': translate(titleKey, 'en-US') ?? titleKey };
  return {
    decl: {
      file,
      module,
      key: doc.permission.slice(module.length + 1),
      route: routes[0].slice(prefix.length),
      group: String(menu.group),
      order: typeof menu.order === 'number' ? menu.order : 0,
      ...(typeof menu.icon === 'string' ? { icon: menu.icon } : {}),
      ...(aliases.length ? { aliases: aliases.filter((a) => a.startsWith(prefix)).map((a) => a.slice(prefix.length)) } : {}),
      title,
    },
    problems,
  };
}

const clone = (n: ManifestNode): ManifestNode => ({ ...n, ...(n.children ? { children: n.children.map(clone) } : {}) });

function walk(nodes: readonly ManifestNode[], visit: (n: ManifestNode) => void): void {
  for (const n of nodes) {
    visit(n);
    walk(n.children ?? [], visit);
  }
}

/** Where a group's entries sort: their `order`; a node without one keeps its place (after the ordered ones before it). */
function sortGroup(children: ManifestNode[]): ManifestNode[] {
  let last = 0;
  const keyed = children.map((c, i) => {
    if (c.order !== undefined) last = c.order;
    return { c, o: c.order ?? last, i };
  });
  return keyed.sort((a, b) => a.o - b.o || a.i - b.i).map((k) => k.c);
}

export const MANIFEST_FILE = 'src/contract/permission-manifest.ts';

/**
 * The manifest with the declared menu pages put under their groups (sorted by `order`), and the
 * `pageChildren` of the static manifest attached to them. Problems: an unknown group, a key or a
 * route declared twice (by two schemas, or by a schema and the manifest), children whose page no
 * schema declares. A refused declaration is left out; everything else is still derived.
 */
export function deriveManifest(
  manifest: readonly ModuleManifest[],
  decls: readonly PageMenuDecl[],
): { manifest: ModuleManifest[]; problems: DeriveProblem[] } {
  const problems: DeriveProblem[] = [];
  const out: ModuleManifest[] = manifest.map((m) => ({ ...m, home: clone(m.home), menus: m.menus.map(clone) }));
  const sorted = [...decls].sort((a, b) => a.file.localeCompare(b.file));
  for (const m of out) {
    const keys = new Map<string, string>();
    const routes = new Map<string, string>();
    const groups = new Map<string, ManifestNode>();
    walk([m.home, ...m.menus], (n) => {
      keys.set(n.key, MANIFEST_FILE);
      if (n.route) routes.set(n.route, MANIFEST_FILE);
      for (const a of n.aliases ?? []) routes.set(a, MANIFEST_FILE);
      if (n.type === PermissionType.MENU) groups.set(n.key, n);
    });
    const used = new Set<string>();
    for (const d of sorted.filter((x) => x.module === m.module)) {
      const group = groups.get(d.group);
      if (!group) {
        problems.push({ file: d.file, pointer: '/menu/group', reason: `unknown menu group "${d.group}" in module ${m.module} (groups: ${[...groups.keys()].join(', ')})` });
        continue;
      }
      if (keys.has(d.key)) {
        problems.push({ file: d.file, pointer: '/permission', reason: `page key "${m.module}.${d.key}" is declared twice (also by ${keys.get(d.key)})` });
        continue;
      }
      const clash = [d.route, ...(d.aliases ?? [])].find((r) => routes.has(r));
      if (clash) {
        problems.push({ file: d.file, pointer: '/routes/0', reason: `route "/${m.module}/${clash}" is declared by two pages (also by ${routes.get(clash)})` });
        continue;
      }
      keys.set(d.key, d.file);
      routes.set(d.route, d.file);
      for (const a of d.aliases ?? []) routes.set(a, d.file);
      const children = (m.pageChildren?.[d.key] ?? []).map(clone);
      if (m.pageChildren?.[d.key]) used.add(d.key);
      walk(children, (c) => keys.set(c.key, MANIFEST_FILE));
      group.children = [
        ...(group.children ?? []),
        {
          key: d.key,
          type: PermissionType.PAGE,
          title: d.title,
          route: d.route,
          order: d.order,
          ...(d.icon ? { icon: d.icon } : {}),
          ...(d.aliases?.length ? { aliases: d.aliases } : {}),
          ...(children.length ? { children } : {}),
        },
      ];
    }
    for (const g of groups.values()) if (g.children) g.children = sortGroup(g.children);
    for (const k of Object.keys(m.pageChildren ?? {})) {
      if (!used.has(k)) {
        problems.push({
          file: MANIFEST_FILE,
          pointer: `/${m.module}.${k}`,
          reason: `pageChildren of "${m.module}.${k}": no page schema declares that page (a "menu" with permission "${m.module}.${k}")`,
        });
      }
    }
    delete m.pageChildren;
  }
  return { manifest: out, problems };
}

/** Declarations of a set of schema documents (pages with a `menu`), and their problems. */
export function pageMenuDecls(
  schemas: ReadonlyArray<{ file: string; kind: string; doc: PageDoc }>,
  translate: Translate,
): { decls: PageMenuDecl[]; problems: DeriveProblem[] } {
  const decls: PageMenuDecl[] = [];
  const problems: DeriveProblem[] = [];
  for (const s of schemas) {
    if (s.kind === 'enum' || s.kind === 'form') continue;
    const r = pageMenuDecl(s.file, s.doc, translate);
    problems.push(...r.problems);
    if (r.decl) decls.push(r.decl);
  }
  return { decls, problems };
}

/** The whole derivation: static manifest + schemas + locale look-up. */
export function derivePermissionTree(
  manifest: readonly ModuleManifest[],
  schemas: ReadonlyArray<{ file: string; kind: string; doc: PageDoc }>,
  translate: Translate,
): { manifest: ModuleManifest[]; problems: DeriveProblem[] } {
  const { decls, problems } = pageMenuDecls(schemas, translate);
  const derived = deriveManifest(manifest, decls);
  return { manifest: derived.manifest, problems: [...problems, ...derived.problems] };
}
