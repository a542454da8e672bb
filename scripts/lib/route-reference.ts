/**
 * The route reference of docs/business-api.md (its last section, "## Route reference"): one table
 * row per business route (method, path, permission keys, query / body fields, reply), built from
 * the RouteDefs themselves. `npx tsx scripts/docs-cli.ts --write` rewrites the section;
 * tests/api/openapi.test.ts fails when the file and the routes disagree.
 */
import type { JsonSchema, RouteDef } from '../../server/http/route.js';

export const BUSINESS_API_DOC = 'docs/business-api.md';
const HEADING = '## Route reference';

const typeOf = (s: JsonSchema): string => {
  const t = Array.isArray(s.type) ? (s.type as string[]).join(' or ') : String(s.type ?? 'any');
  const bits: string[] = [];
  if (s.enum) bits.push(`enum ${(s.enum as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`);
  if (s.format) bits.push(String(s.format));
  if (s.minLength !== undefined || s.maxLength !== undefined) bits.push(`len ${s.minLength ?? 0}–${s.maxLength ?? '∞'}`);
  if (s.minimum !== undefined || s.maximum !== undefined) bits.push(`${s.minimum ?? '-∞'}…${s.maximum ?? '∞'}`);
  if (s.pattern) bits.push(`/${String(s.pattern).replace(/\|/g, '\\|')}/`);
  if (s.default !== undefined) bits.push(`default ${JSON.stringify(s.default)}`);
  if (t === 'array' && s.items) return `${typeOf(s.items as JsonSchema)}[]${bits.length ? ` (${bits.join('; ')})` : ''}`;
  return bits.length ? `${t} (${bits.join('; ')})` : t;
};

const fields = (s?: JsonSchema): string => {
  if (!s?.properties) return '—';
  const req = new Set((s.required as string[] | undefined) ?? []);
  return Object.entries(s.properties as Record<string, JsonSchema>)
    .map(([k, v]) => `\`${k}${req.has(k) ? '*' : ''}\`: ${typeOf(v)}`)
    .join('<br>');
};

const keysOf = (s: JsonSchema | undefined): string => Object.keys((s?.properties as object | undefined) ?? {}).join(', ');

const reply = (r: RouteDef): string => {
  const s = r.reply as JsonSchema;
  const media = s['x-media-types'] as string[] | undefined;
  if (media) {
    const orData = s['x-or-data'] as JsonSchema | undefined;
    return `file (${media.join(', ')})${orData ? `, or {${keysOf(orData)}}` : ''}`;
  }
  const list = (s.properties as Record<string, JsonSchema> | undefined)?.list;
  if (list?.items) return `Page of {${keysOf(list.items as JsonSchema)}}`;
  if (s.type === 'array') return `[{${keysOf(s.items as JsonSchema)}}]`;
  if (s.type === 'null') return 'null';
  return `{${keysOf(s)}}`;
};

const perm = (r: RouteDef) => {
  const a = r.access as { permission?: string | string[] } | string;
  if (typeof a === 'string') return a;
  return [a.permission ?? []].flat().map((k) => `\`${k}\``).join(' or ');
};

/** The section's table: a row per route, by path then method. */
export function routeReference(routes: readonly RouteDef[]): string {
  const lines = ['| Call | Permission (any of) | Query / body (`*` required) | Reply `data` |', '|---|---|---|---|'];
  for (const r of [...routes].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))) {
    const input = r.method === 'GET' ? fields(r.query) : r.raw === 'multipart' ? 'multipart, see text' : fields(r.body);
    const summary = r.summary ? `<br>${r.summary.replace(/\|/g, '\\|').replace(/\n/g, ' ')}` : '';
    lines.push(`| \`${r.method} ${r.path}\`${summary} | ${perm(r)} | ${input} | ${reply(r)} |`);
  }
  return lines.join('\n');
}

/** `doc` (the text of docs/business-api.md) with its route reference section replaced by `table`. */
export function withReference(doc: string, table: string): string {
  const at = doc.indexOf(`\n${HEADING}\n`);
  if (at < 0) throw new Error(`${BUSINESS_API_DOC}: no "${HEADING}" section`);
  return `${doc.slice(0, at)}\n${HEADING}\n\n${table}\n`;
}
