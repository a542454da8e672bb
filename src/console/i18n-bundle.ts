/** One locale's texts as a single tree: every `src/locales/<lng>/<ns>.json` under its namespace key. */
export type LocaleTree = { [key: string]: string | LocaleTree };

/**
 * Namespaces every screen may need (the shell, shared words), bundled with the shell; the rest
 * belong to pages, the schema runtime's own (`runtime`) included: /login draws no widget.
 */
export const CORE_NAMESPACES = ['shell', 'common'] as const;

const namespaceOf = (file: string) => /([^/]+)\.json$/.exec(file)?.[1];

/** The files' texts by namespace; `which` keeps the core namespaces or the modules' ones. */
export function localeTree(files: Record<string, LocaleTree>, which: 'all' | 'core' | 'modules' = 'all'): LocaleTree {
  const out: LocaleTree = {};
  for (const [file, content] of Object.entries(files)) {
    const ns = namespaceOf(file);
    if (!ns) continue;
    const core = (CORE_NAMESPACES as readonly string[]).includes(ns);
    if (which === 'all' || (which === 'core') === core) out[ns] = content;
  }
  return out;
}
