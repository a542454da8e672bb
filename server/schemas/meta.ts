/**
 * Meta-schema validation: one ajv validator per kind (`schemas/meta/<kind>.schema.json`),
 * compiled once, turning ajv errors into `{ pointer, reason }` pairs that name the exact spot.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Ajv, MissingRefError, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { pointerSegment } from './canonical.js';

type AddFormats = typeof addFormatsModule;
const addFormats: AddFormats = (addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule;

export interface MetaIssue {
  pointer: string;
  reason: string;
}

export interface MetaValidators {
  /** kinds that have a meta-schema, e.g. `enum`, `list`, `form`, `detail`, `tabs` */
  readonly kinds: ReadonlySet<string>;
  /** Validates a document against its kind's meta-schema; `[]` when valid. */
  validate(kind: string, doc: unknown): MetaIssue[];
}

const META_SUFFIX = '.schema.json';

/** Precompiled (ajv standalone) validators by kind: the fast path; only a failure compiles the full one. */
export type Precompiled = Partial<Record<string, (data: unknown) => boolean>>;

/**
 * Reads every `*.schema.json` of the meta dir. A document is first checked with the
 * precompiled validator of its kind when given (no compile at start); only when that fails
 * (or there is none) is the kind's meta-schema compiled — once — with all errors on, for
 * messages that name every spot.
 */
export async function loadMetaValidators(metaDir: string, precompiled: Precompiled = {}): Promise<MetaValidators> {
  let names: string[] = [];
  try {
    // the fragment meta-schemas (page-fragment, form-fragment) are for editors, not kinds of document
    names = (await readdir(metaDir)).filter((n) => n.endsWith(META_SUFFIX) && !n.endsWith(`-fragment${META_SUFFIX}`));
  } catch {
    throw new Error(`meta-schemas not found in ${metaDir} (run npm run schemas:meta)`);
  }
  const files = new Map<string, Record<string, unknown>>();
  for (const n of names) files.set(n, JSON.parse(await readFile(path.join(metaDir, n), 'utf8')) as Record<string, unknown>);
  const compiled = new Map<string, ValidateFunction>();
  const kinds = new Set(names.map((n) => n.slice(0, -META_SUFFIX.length)));

  const compile = (kind: string): ValidateFunction => {
    const hit = compiled.get(kind);
    if (hit) return hit;
    const meta = files.get(kind + META_SUFFIX)!;
    const ajv = newAjv(meta);
    // meta files may refer to each other: add the missing one and compile again
    for (let round = 0; ; round++) {
      try {
        const fn = ajv.compile(meta);
        compiled.set(kind, fn);
        return fn;
      } catch (err) {
        if (!(err instanceof MissingRefError) || round > 20) throw err;
        const base = path.posix.basename(err.missingSchema.split('#')[0]);
        const other = files.get(base) ?? files.get(base + META_SUFFIX);
        if (!other) throw err;
        ajv.addSchema(other, err.missingSchema.split('#')[0]);
      }
    }
  };

  return {
    kinds,
    validate(kind, doc) {
      if (!kinds.has(kind)) return [{ pointer: '/kind', reason: `unknown kind "${kind}" (known: ${[...kinds].join(', ')})` }];
      const fast = precompiled[kind];
      if (fast && fast(doc)) return [];
      const fn = compile(kind);
      return fn(doc) ? [] : toIssues(fn.errors ?? [], doc);
    },
  };
}

function newAjv(meta: Record<string, unknown>): Ajv {
  const opts = { allErrors: true, strict: false, allowUnionTypes: true } as const;
  const draft = String(meta.$schema ?? '');
  const ajv = draft.includes('2020-12') ? new Ajv2020(opts) : new Ajv(opts);
  addFormats(ajv as Ajv);
  return ajv as Ajv;
}

/** Value at a JSON pointer (for messages such as "unknown action type"). */
function at(doc: unknown, pointer: string): unknown {
  let cur: unknown = doc;
  for (const seg of pointer.split('/').slice(1)) {
    const key = seg.replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur && typeof cur === 'object') cur = (cur as Record<string, unknown>)[key];
    else return undefined;
  }
  return cur;
}

/** Every prefix of a schema path that ends at a union branch, e.g. `#/anyOf/2`, `#/anyOf/2/properties/x/anyOf/0`. */
function branchPrefixes(schemaPath: string): string[] {
  const out: string[] = [];
  const re = /\/(?:anyOf|oneOf)\/\d+(?=\/|$)/g;
  for (let m = re.exec(schemaPath); m; m = re.exec(schemaPath)) out.push(schemaPath.slice(0, m.index + m[0].length));
  return out;
}

const isUnion = (e: ErrorObject) => e.keyword === 'anyOf' || e.keyword === 'oneOf';
const within = (parent: string, child: string) => child === parent || child.startsWith(`${parent}/`);

/**
 * ajv reports every branch of a union. Keep the branch the author meant: drop branches whose
 * discriminator (`type` / `kind` const) does not match, then, per union, the branches whose
 * errors sit less deep than the deepest branch's (a type mismatch at the union itself is
 * less telling than a bad property inside the matching object). When no branch fits at all,
 * one line says what the union allows. A union reached through a shared `$ref` has the same
 * schema path everywhere, so a branch is keyed by the union's value (instance path) too.
 */
function toIssues(all: ErrorObject[], doc: unknown): MetaIssue[] {
  // the editor meta-schemas wrap objects in `if $ref … else <the object>` (fragment references,
  // schemas/meta/src/to-json.ts): the `if` line only repeats the errors under `else`
  const errors = all.filter((e) => e.keyword !== 'if');
  const unionAt = errors.filter(isUnion).map((e) => ({ sp: e.schemaPath, ip: e.instancePath }));
  /** `instancePath|branchSchemaPath` of every union branch an error sits in, outermost first */
  const branchKeys = (e: ErrorObject): string[] =>
    branchPrefixes(e.schemaPath).map((b) => {
      const u = b.slice(0, b.lastIndexOf('/'));
      const inst = unionAt
        .filter((x) => x.sp === u && within(x.ip, e.instancePath))
        .sort((a, b2) => b2.ip.length - a.ip.length)[0];
      return `${inst?.ip ?? ''}|${b}`;
    });
  const dropped = new Set<string>();
  const allowedConsts = new Map<string, Set<string>>();
  for (const e of errors) {
    const prop = e.instancePath.split('/').pop() ?? '';
    const keys = branchKeys(e);
    if (e.keyword !== 'const' || !keys.length || (prop !== 'type' && prop !== 'kind')) continue;
    dropped.add(keys[keys.length - 1]);
    const at0 = e.instancePath.slice(0, e.instancePath.lastIndexOf('/'));
    const set = allowedConsts.get(at0) ?? new Set<string>();
    set.add(String((e.params as { allowedValue?: unknown }).allowedValue));
    allowedConsts.set(at0, set);
  }
  const depth = (e: ErrorObject) => describe(e)[0].split('/').length;
  const unions = new Map<string, Map<string, number>>(); // union (instance|schema path) → branch → deepest error
  for (const e of errors) {
    for (const k of branchKeys(e)) {
      const u = k.slice(0, k.lastIndexOf('/'));
      const branches = unions.get(u) ?? new Map<string, number>();
      branches.set(k, Math.max(branches.get(k) ?? 0, depth(e)));
      unions.set(u, branches);
    }
  }
  for (const branches of unions.values()) {
    const live = [...branches].filter(([b]) => !dropped.has(b));
    const max = Math.max(...live.map(([, d]) => d));
    for (const [b, d] of live) if (d < max) dropped.add(b);
  }
  const real = errors.filter((e) => !branchKeys(e).some((k) => dropped.has(k)));
  const out: MetaIssue[] = [];
  const seen = new Set<string>();
  const push = (pointer: string, reason: string) => {
    const k = `${pointer}\u0000${reason}`;
    if (!seen.has(k)) {
      seen.add(k);
      out.push({ pointer, reason });
    }
  };
  for (const e of real) {
    if (!isUnion(e)) {
      push(...describe(e));
      continue;
    }
    // the union's own error: only when none of its branches left an error to show
    const own = `${e.schemaPath}/`;
    const inside = (x: ErrorObject) => x.schemaPath.startsWith(own) && within(e.instancePath, x.instancePath);
    if (real.some((x) => !isUnion(x) && inside(x) && !allShallow(x, e))) continue;
    const consts = allowedConsts.get(e.instancePath);
    const v = at(doc, e.instancePath);
    const disc = v && typeof v === 'object' ? ((v as Record<string, unknown>).type ?? (v as Record<string, unknown>).kind) : undefined;
    const perBranch = new Map<string, string>(); // a branch's const says more than its type
    for (const x of errors) {
      if (x.instancePath !== e.instancePath || !x.schemaPath.startsWith(own)) continue;
      const branch = x.schemaPath.slice(0, own.length + x.schemaPath.slice(own.length).indexOf('/'));
      const p = x.params as { type?: unknown; allowedValue?: unknown };
      if (x.keyword === 'const') perBranch.set(branch, JSON.stringify(p.allowedValue));
      else if (x.keyword === 'type' && !perBranch.has(branch)) perBranch.set(branch, String(p.type));
    }
    const expected = [...perBranch.values()];
    push(
      e.instancePath,
      consts
        ? `unknown type ${JSON.stringify(disc)} (allowed: ${[...consts].join(', ')})`
        : `matches none of the allowed forms${expected.length ? ` (expected ${[...new Set(expected)].join(' or ')})` : ''}`,
    );
  }
  // drop branch errors at the union itself when the union line already says it
  const isUnionLine = (i: MetaIssue) => i.reason.startsWith('matches none') || i.reason.startsWith('unknown type');
  const unionPointers = new Set(out.filter(isUnionLine).map((i) => i.pointer));
  return out.filter((i) => isUnionLine(i) || !unionPointers.has(i.pointer));
}

/** A branch error at the union's own value (type / const mismatch): the union line covers it. */
function allShallow(x: ErrorObject, union: ErrorObject): boolean {
  return x.instancePath === union.instancePath && (x.keyword === 'type' || x.keyword === 'const');
}

function describe(e: ErrorObject): [string, string] {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return [`${e.instancePath}/${pointerSegment(String(p.missingProperty))}`, 'required property is missing'];
    case 'additionalProperties':
      return [`${e.instancePath}/${pointerSegment(String(p.additionalProperty))}`, 'unknown property (not in the schema language)'];
    case 'const':
      return [e.instancePath, `must be ${JSON.stringify(p.allowedValue)}`];
    case 'enum':
      return [e.instancePath, `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`];
    case 'pattern':
      return [e.instancePath, `must match ${String(p.pattern)}`];
    default:
      return [e.instancePath, e.message ?? e.keyword];
  }
}
