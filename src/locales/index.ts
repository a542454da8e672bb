/**
 * All locale resources: every `src/locales/<lng>/<ns>.json`, each file's content under its
 * namespace key, so `shell.login.title` lives in `shell.json` as {"login":{"title":…}}.
 * Areas add files; nothing here changes.
 */
export type LocaleTree = { [key: string]: string | LocaleTree };

const files = import.meta.glob<LocaleTree>('./*/*.json', { eager: true, import: 'default' });

export function mergeLocaleFiles(entries: Record<string, LocaleTree>): Record<string, LocaleTree> {
  const out: Record<string, LocaleTree> = {};
  for (const [file, content] of Object.entries(entries)) {
    const m = /\.\/([^/]+)\/([^/]+)\.json$/.exec(file);
    if (!m) continue;
    const [, lng, ns] = m;
    (out[lng] ??= {})[ns] = content;
  }
  return out;
}

/** `{ 'zh-CN': { shell: {...}, common: {...}, ... }, 'en-US': {...} }` */
export const resources: Record<string, LocaleTree> = mergeLocaleFiles(files);

/** Every leaf key as a dotted path, e.g. `shell.login.title`. */
export function leafKeys(tree: LocaleTree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : leafKeys(v, `${prefix}${k}.`),
  );
}
