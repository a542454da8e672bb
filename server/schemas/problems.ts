/** One thing wrong with one schema file: where (file + JSON pointer) and why. */
export interface SchemaProblem {
  /** path relative to the project root, posix separators, e.g. `schemas/pages/admin_center/role.list.json` */
  file: string;
  /** JSON Pointer into the file (RFC 6901); `""` is the whole document */
  pointer: string;
  reason: string;
}

/** `file#/json/pointer: reason` — the one line format of the loader, the check and the error panel. */
export const formatProblem = (p: SchemaProblem): string => `${p.file}#${p.pointer}: ${p.reason}`;

/** Thrown by the loader: the app refuses to start, naming every problem. */
export class SchemaLoadError extends Error {
  constructor(readonly problems: SchemaProblem[]) {
    super(`invalid schemas (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${problems.map(formatProblem).join('\n')}`);
    this.name = 'SchemaLoadError';
  }
}

/** By file, then pointer: the order people read them in. */
export const sortProblems = (ps: readonly SchemaProblem[]): SchemaProblem[] =>
  [...ps].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0));
