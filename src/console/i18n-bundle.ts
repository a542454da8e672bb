/** One locale's texts as a single tree: every `src/locales/<lng>/<ns>.json` under its namespace key. */
export type LocaleTree = { [key: string]: string | LocaleTree };

export function localeTree(files: Record<string, LocaleTree>): LocaleTree {
  const out: LocaleTree = {};
  for (const [file, content] of Object.entries(files)) {
    const ns = /([^/]+)\.json$/.exec(file)?.[1];
    if (ns) out[ns] = content;
  }
  return out;
}
