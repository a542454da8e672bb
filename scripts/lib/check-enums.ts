/**
 * "One home per meaning" (issue 22): an inline option list in a page or form — Formily's `enum`
 * array, `options` in widget props — that carries an enum file's values with that enum's labels
 * is a copy of the enum, and a copy drifts (the job-kind list of the job detail page missed a
 * kind for a round). `schemas:check` and the dev watch refuse it and name the enum to refer to.
 *
 * A copy: the same set of values as the enum (all its items, or those not deprecated) and, in at
 * least one locale, the same label for every value (labels written as i18n keys are looked up).
 * Same values alone are not enough: `[0, 1, 2]` with other labels is another meaning.
 */
import { pointerSegment } from '../../server/schemas/canonical.js';
import type { SchemaProblem } from '../../server/schemas/problems.js';
import type { ParsedSchema } from '../../server/schemas/validate.js';
import { LOCALES, type LocaleTrees } from './locales.js';

interface EnumItem {
  value: unknown;
  label: Record<string, string>;
  deprecated?: boolean;
}
interface Option {
  value: unknown;
  label: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);
const valueKey = (values: readonly unknown[]) => JSON.stringify(values.map(String).sort());

/** Looks an i18n key up in locale trees (`ns.a.b` or `ns:a.b`); undefined when missing. */
function lookUp(trees: LocaleTrees, locale: string, key: string): string | undefined {
  const [ns, rest] = key.includes(':') ? (key.split(':', 2) as [string, string]) : [null, key];
  let cur: unknown = trees[locale];
  for (const p of ns ? [ns, ...rest.split('.')] : rest.split('.')) {
    if (!isObject(cur)) return undefined;
    cur = cur[p];
  }
  return typeof cur === 'string' ? cur : undefined;
}

/** Where the reference goes instead of the list at `pointer`. */
function instead(pointer: string, id: string): string {
  if (pointer.endsWith('/widgetProps/options')) return `"enum": "${id}" on the column or item`;
  if (pointer.endsWith('/x-component-props/options')) return `"x-component-props": { "enumId": "${id}" } (or "x-enum": "${id}" on a field)`;
  return `"x-enum": "${id}"`;
}

/** Every inline option list of `schemas` that copies an enum file among them. */
export function checkInlineEnumCopies(schemas: readonly ParsedSchema[], locales: LocaleTrees): SchemaProblem[] {
  const byValues = new Map<string, Array<{ id: string; items: EnumItem[] }>>();
  for (const s of schemas) {
    if (s.kind !== 'enum' || !Array.isArray(s.doc.items)) continue;
    const items = s.doc.items as EnumItem[];
    const live = items.filter((i) => !i.deprecated);
    for (const set of live.length === items.length ? [items] : [items, live]) {
      const k = valueKey(set.map((i) => i.value));
      byValues.set(k, [...(byValues.get(k) ?? []), { id: s.id, items: set }]);
    }
  }
  const problems: SchemaProblem[] = [];
  for (const s of schemas) {
    if (s.kind === 'enum') continue;
    const label = (l: unknown, locale: string) => (typeof l === 'string' ? (lookUp(locales, locale, l) ?? l) : isObject(l) ? l[locale] : undefined);
    const visit = (node: unknown, pointer: string, key: string | null) => {
      if (Array.isArray(node)) {
        const isList = (key === 'enum' || key === 'options') && node.length > 0 && node.every((o) => isObject(o) && 'value' in o && 'label' in o);
        if (isList) {
          const opts = node as Option[];
          for (const e of byValues.get(valueKey(opts.map((o) => o.value))) ?? []) {
            const same = LOCALES.some((loc) =>
              opts.every((o) => label(o.label, loc) === e.items.find((i) => String(i.value) === String(o.value))?.label[loc]),
            );
            if (!same) continue;
            problems.push({ file: s.file, pointer, reason: `copies the enum "${e.id}" (its values and labels): refer to it instead, ${instead(pointer, e.id)} — its labels live in schemas/enums/${e.id}.json` });
            break;
          }
          return;
        }
        node.forEach((v, i) => visit(v, `${pointer}/${i}`, null));
        return;
      }
      if (isObject(node)) for (const [k, v] of Object.entries(node)) visit(v, `${pointer}/${pointerSegment(k)}`, k);
    };
    visit(s.doc, '', null);
  }
  return problems;
}
