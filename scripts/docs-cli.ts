/**
 * `npx tsx scripts/docs-cli.ts`: prints the route reference of docs/business-api.md
 * (method, path, permission keys, query / body fields, reply) from the RouteDefs themselves.
 */
import type { JsonSchema, RouteDef } from '../server/http/route.js';
import { routes } from '../server/resources/index.js';

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

const reply = (r: RouteDef): string => {
  if (r.raw === 'stream' && r.path.endsWith('export')) return 'file (CSV / XLSX stream)';
  if (!r.reply) return r.raw ? 'see text' : 'object';
  const s = r.reply;
  if (s.properties && (s.properties as Record<string, unknown>).list) {
    const item = ((s.properties as Record<string, JsonSchema>).list.items as JsonSchema).properties as Record<string, unknown>;
    return `Page of {${Object.keys(item ?? {}).join(', ')}}`;
  }
  if (s.type === 'array') return `[{${Object.keys(((s.items as JsonSchema).properties as object) ?? {}).join(', ')}}]`;
  return `{${Object.keys((s.properties as object) ?? {}).join(', ')}}`;
};

const perm = (r: RouteDef) => {
  const a = r.access as { permission?: string | string[] } | string;
  if (typeof a === 'string') return a;
  return [a.permission ?? []].flat().map((k) => `\`${k}\``).join(' or ');
};

console.log('| Call | Permission (any of) | Query / body (`*` required) | Reply `data` |');
console.log('|---|---|---|---|');
for (const r of [...routes].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))) {
  const input = r.method === 'GET' ? fields(r.query) : r.raw === 'multipart' ? 'multipart, see text' : fields(r.body);
  console.log(`| \`${r.method} ${r.path}\`${r.summary ? `<br>${r.summary}` : ''} | ${perm(r)} | ${input} | ${reply(r)} |`);
}
