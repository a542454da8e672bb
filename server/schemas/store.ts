/**
 * The loaded schemas, by id. `loadSchemas` fills the module-level current store; the schema
 * routes read it. The dev watch swaps single entries in place.
 */
import type { EnumDef } from '../../src/contract/enums.js';
import type { SchemaProblem } from './problems.js';
import { collectRefs } from './refs.js';
import type { ParsedSchema } from './validate.js';

/** What the dev watch reports (null when no watch runs). */
export interface WatchStatus {
  /** problems of refused edits: each file's last good version is still served */
  refused: SchemaProblem[];
  /**
   * problems of what is served now (the start-up load checks files one by one; a deleted file
   * another still refers to shows here)
   */
  standing: SchemaProblem[];
}

export interface SchemaSummary {
  id: string;
  version: number;
  hash: string;
  kind: string;
  routes: string[];
  module: string | null;
  permission: string | null;
}

export class SchemaStore {
  private readonly byId = new Map<string, ParsedSchema>();
  private readonly enumRefs = new Map<string, string[]>();
  /** set by the dev watch (server/schemas/watch.ts); read by `GET schema/watch-status` */
  watch: WatchStatus | null = null;

  constructor(
    schemas: readonly ParsedSchema[],
    /** property names whose values are i18n keys (not needed here, kept for the inspector) */
    readonly textKeys: readonly string[] = [],
  ) {
    for (const s of schemas) this.put(s);
  }

  get size(): number {
    return this.byId.size;
  }

  get(id: string): ParsedSchema | undefined {
    return this.byId.get(id);
  }

  /** Every schema, enums included, sorted by id. */
  all(): ParsedSchema[] {
    return [...this.byId.values()].sort((a, b) => a.id.localeCompare(b.id));
  }

  /** Pages and forms (everything but enums), sorted by id. */
  pages(): ParsedSchema[] {
    return this.all().filter((s) => s.kind !== 'enum');
  }

  byFile(file: string): ParsedSchema | undefined {
    for (const s of this.byId.values()) if (s.file === file) return s;
    return undefined;
  }

  enumDef(id: string): EnumDef | undefined {
    const s = this.byId.get(id);
    return s && s.kind === 'enum' ? (s.doc as unknown as EnumDef) : undefined;
  }

  /** The enums a schema refers to (`enum` of columns / items, `x-enum` of fields), by id. */
  enumsFor(id: string): Record<string, EnumDef> {
    const out: Record<string, EnumDef> = {};
    for (const e of this.enumRefs.get(id) ?? []) {
      const def = this.enumDef(e);
      if (def) out[e] = def;
    }
    return out;
  }

  summary(s: ParsedSchema): SchemaSummary {
    return {
      id: s.id,
      version: s.version,
      hash: s.hash,
      kind: s.kind,
      routes: s.routes,
      module: s.module ?? null,
      permission: s.permission ?? null,
    };
  }

  /** Adds or replaces one schema (a file renamed or an id changed drops the old entry of that file). */
  put(s: ParsedSchema): void {
    const previous = this.byFile(s.file);
    if (previous && previous.id !== s.id) this.remove(previous.id);
    this.byId.set(s.id, s);
    this.enumRefs.set(s.id, s.kind === 'enum' ? [] : [...new Set(collectRefs(s.doc, []).enums.map((r) => r.value))]);
  }

  remove(id: string): void {
    this.byId.delete(id);
    this.enumRefs.delete(id);
  }
}

let current: SchemaStore | null = null;

/** Set by `loadSchemas`; tests may set their own. */
export function setSchemaStore(store: SchemaStore | null): void {
  current = store;
}

export function getSchemaStore(): SchemaStore {
  if (!current) throw new Error('schemas are not loaded: call loadSchemas() before serving schema routes');
  return current;
}
