/**
 * Writing an edited schema back with the schemas' formatting (docs/schemas.md, "Formatting"),
 * touching only what changed: a value equal to the one at the same place in the old text keeps
 * its old text byte for byte; a changed object or array sits on one line when that line fits in
 * LINE_LIMIT columns (`{ "a": 1, "b": [1, 2] }`), else one entry per line, two spaces deeper.
 * With `reflow` the rule applies to unchanged values too (below the header): one that fits on a
 * line is put on one; nothing already on one line is split, however long.
 * The document's own object always has one key per line. Used by `npm run schemas:tidy`.
 */

export const LINE_LIMIT = 110;

/** The header keys of a page or form: written as they are, one key per line (`routes` too, laid out by the rule like the body). */
const HEADER_KEYS = new Set(['$schema', 'id', 'kind', 'schemaVersion', 'version', 'module', 'permission', 'menu', 'title']);

type Json = unknown;
const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** A parsed value with the span of its text. */
export interface Node {
  start: number;
  end: number;
  value: Json;
  /** entries of an object (in order) or elements of an array */
  children?: Array<{ key?: string; node: Node }>;
}

/** Parses JSON keeping the span of every value (throws on invalid JSON, as JSON.parse). */
export function parseWithSpans(text: string): Node {
  let i = 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  const value = (): Node => {
    ws();
    const start = i;
    const c = text[i];
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      const children: Array<{ key?: string; node: Node }> = [];
      i++;
      ws();
      if (text[i] === close) i++;
      else {
        for (;;) {
          let key: string | undefined;
          if (c === '{') {
            ws();
            const ks = i;
            i = stringEnd(text, i);
            key = JSON.parse(text.slice(ks, i)) as string;
            ws();
            if (text[i++] !== ':') throw new Error(`expected ':' at ${i}`);
          }
          children.push({ key, node: value() });
          ws();
          const sep = text[i++];
          if (sep === close) break;
          if (sep !== ',') throw new Error(`expected ',' or '${close}' at ${i}`);
        }
      }
      const end = i;
      return { start, end, value: JSON.parse(text.slice(start, end)) as Json, children };
    }
    if (c === '"') i = stringEnd(text, i);
    else while (i < text.length && /[^\s,\]}]/.test(text[i])) i++;
    return { start, end: i, value: JSON.parse(text.slice(start, i)) as Json };
  };
  const root = value();
  ws();
  if (i !== text.length) throw new Error(`unexpected text at ${i}`);
  return root;
}

function stringEnd(text: string, i: number): number {
  if (text[i] !== '"') throw new Error(`expected a string at ${i}`);
  i++;
  while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}

/** Equal JSON values, object keys in the same order. */
export const sameJson = (a: Json, b: Json): boolean => JSON.stringify(a) === JSON.stringify(b);

/** One-line form: `{ "a": 1 }`, `[1, 2]`, `{}`, `[]`. */
export function inline(v: Json): string {
  if (Array.isArray(v)) return `[${v.map(inline).join(', ')}]`;
  if (isObject(v)) {
    const e = Object.entries(v);
    return e.length ? `{ ${e.map(([k, x]) => `${JSON.stringify(k)}: ${inline(x)}`).join(', ')} }` : '{}';
  }
  return JSON.stringify(v);
}

/**
 * Text of `v` placed at column `indent` after `prefix` characters of its line and followed by
 * `tail` characters (a comma); `old` is the node that stood there before, if any.
 */
function layout(v: Json, old: Node | undefined, source: string, indent: number, prefix: number, tail: number, reflow: boolean): string {
  const kept = old && sameJson(old.value, v) ? source.slice(old.start, old.end) : undefined;
  // as written when unchanged; with reflow, only a value on one line (also one packed past the limit by hand)
  if (kept !== undefined && (!reflow || !kept.includes('\n'))) return kept;
  const one = inline(v);
  const empty = Array.isArray(v) ? !v.length : isObject(v) ? !Object.keys(v).length : true;
  if (empty || indent + prefix + one.length + tail <= LINE_LIMIT) return one;
  const pad = ' '.repeat(indent + 2);
  if (Array.isArray(v)) {
    // elements keep their old text only where the array kept its length (no shifting)
    const olds = old?.children && Array.isArray(old.value) && old.value.length === v.length ? old.children : undefined;
    const lines = v.map((x, i) => pad + layout(x, olds?.[i].node, source, indent + 2, 0, i < v.length - 1 ? 1 : 0, reflow));
    return `[\n${lines.join(',\n')}\n${' '.repeat(indent)}]`;
  }
  const entries = Object.entries(v as Record<string, unknown>);
  const byKey = new Map((isObject(old?.value) ? old!.children ?? [] : []).map((c) => [c.key, c.node]));
  const lines = entries.map(([k, x], i) => {
    const p = `${JSON.stringify(k)}: `;
    return pad + p + layout(x, byKey.get(k), source, indent + 2, p.length, i < entries.length - 1 ? 1 : 0, reflow);
  });
  return `{\n${lines.join(',\n')}\n${' '.repeat(indent)}}`;
}

/** The new text of a schema file whose old text was `source` (see the file comment). */
export function writeLike(source: string, doc: Record<string, unknown>, reflow = false): string {
  const root = parseWithSpans(source);
  if (sameJson(root.value, doc) && !reflow) return source;
  // a file written on one line (a small fragment) stays on one line while it fits
  if (!source.trim().includes('\n') && inline(doc).length <= LINE_LIMIT) return `${inline(doc)}\n`;
  const byKey = new Map((root.children ?? []).map((c) => [c.key, c.node]));
  const entries = Object.entries(doc);
  const lines = entries.map(([k, x], i) => {
    const p = `${JSON.stringify(k)}: `;
    // the header keeps its lines as written (codemods edit them)
    return '  ' + p + layout(x, byKey.get(k), source, 2, p.length, i < entries.length - 1 ? 1 : 0, reflow && !HEADER_KEYS.has(k));
  });
  return `{\n${lines.join(',\n')}\n}\n`;
}
