/**
 * Prepares a Formily schema from the schema language before Formily sees it: translates
 * text keys, drops fields the caller lacks `x-permission` for or that the mode excludes
 * (`x-modes`), turns `x-enum` into `enum` options, and checks every x-component /
 * x-decorator against the registry (unknown → an error widget or a thrown error).
 */
import type { FormMode, FormilyNode, FormilyObject, EnumMap, ResourceFields } from './types.js';
import { UnknownWidgetError } from './registry.js';

export interface PrepareOptions {
  t(key: string): string;
  can(permission: string): boolean;
  mode?: FormMode;
  enums: EnumMap;
  /** the server's field schemas: their bounds become validators of same-named data fields */
  fields?: ResourceFields;
  locale: 'zh-CN' | 'en-US';
  hasWidget(name: string): boolean;
  /** throw on unknown widgets (tests) */
  strict: boolean;
  /** widget drawn instead of an unknown one (gets props { name, pointer }) */
  unknownWidget: string;
  /** JSON pointer of the schema root, e.g. /schema */
  pointer: string;
}

const TRANSLATED_PROPS = ['placeholder', 'title', 'okText', 'cancelText', 'tooltip', 'checkedChildren', 'unCheckedChildren', 'addonAfter', 'addonBefore'];

const escPointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

function prepareNode(node: FormilyNode, pointer: string, o: PrepareOptions): Record<string, unknown> | null {
  if (node['x-permission'] && !o.can(node['x-permission'])) return null;
  if (node['x-modes'] && o.mode && !node['x-modes'].includes(o.mode)) return null;
  const out: Record<string, unknown> = { ...node };
  delete out['x-permission'];
  delete out['x-modes'];
  delete out['x-enum'];
  if (node.title) out.title = o.t(node.title);
  if (node.description) out.description = o.t(node.description);
  if (node['x-content']) out['x-content'] = o.t(node['x-content']);
  if (node.enum) out.enum = node.enum.map((e) => ({ ...e, label: o.t(e.label) }));
  if (node['x-enum']) {
    const en = o.enums[node['x-enum']];
    out.enum = (en?.items ?? []).filter((i) => !i.deprecated).map((i) => ({ label: i.label[o.locale], value: i.value }));
  }
  const props = node['x-component-props'];
  if (props) {
    const p: Record<string, unknown> = { ...props };
    for (const k of TRANSLATED_PROPS) if (typeof p[k] === 'string' && !String(p[k]).includes('{{')) p[k] = o.t(String(p[k]));
    out['x-component-props'] = p;
  }
  // a field's input is named by its title (FormItem's label is not a <label for> the input), so
  // screen readers announce it and filters without a visible label still have a name
  if (node.type !== 'void' && node['x-component'] && typeof out.title === 'string' && out.title) {
    const p = (out['x-component-props'] ?? {}) as Record<string, unknown>;
    if (p['aria-label'] === undefined) out['x-component-props'] = { ...p, 'aria-label': out.title };
  }
  const validator = node['x-validator'];
  if (validator && typeof validator === 'object') {
    const tr = (r: unknown) => (r && typeof r === 'object' && 'message' in r && typeof r.message === 'string' ? { ...r, message: o.t(r.message) } : r);
    out['x-validator'] = Array.isArray(validator) ? validator.map(tr) : tr(validator);
  }
  for (const key of ['x-component', 'x-decorator'] as const) {
    const name = node[key];
    if (name && !o.hasWidget(name)) {
      const at = `${pointer}/${key}`;
      if (o.strict) throw new UnknownWidgetError(name, at);
      if (key === 'x-decorator') delete out[key];
      else {
        out['x-component'] = o.unknownWidget;
        out['x-component-props'] = { name, pointer: at };
      }
    }
  }
  if (node.properties) {
    const props2: Record<string, unknown> = {};
    for (const [k, child] of Object.entries(node.properties)) {
      const c = prepareNode(child, `${pointer}/properties/${escPointer(k)}`, o);
      if (c) props2[k] = c;
    }
    out.properties = props2;
  }
  if (node.items) out.items = prepareNode(node.items, `${pointer}/items`, o) ?? undefined;
  return out;
}

export function prepareFormilySchema(schema: FormilyObject, o: PrepareOptions): Record<string, unknown> {
  const prepared = prepareNode(schema as FormilyNode, o.pointer, o) ?? { type: 'object', properties: {} };
  if (o.fields) applyFieldConstraints(prepared, o.fields);
  return prepared;
}

/** JSON Schema keywords Formily turns into validators with its own localised messages. */
const CONSTRAINT_KEYS = ['maxLength', 'minLength', 'maximum', 'minimum', 'pattern'] as const;
const FORMATS: Record<string, string> = { email: 'email', uri: 'url', url: 'url' };

/**
 * Adds the server's bounds to the form's data fields (top level, through void containers)
 * unless the schema already states them, so a value the server would refuse is refused in
 * the form first. Required-ness is left to the schema: which fields a mode asks for is a page
 * decision (e.g. password only when adding).
 */
export function applyFieldConstraints(node: Record<string, unknown>, fields: ResourceFields): void {
  const props = node.properties as Record<string, Record<string, unknown>> | undefined;
  for (const [name, child] of Object.entries(props ?? {})) {
    if (child.type === 'void') {
      applyFieldConstraints(child, fields);
      continue;
    }
    const c = fields.properties[name];
    if (!c) continue;
    for (const k of CONSTRAINT_KEYS) if (c[k] !== undefined && child[k] === undefined) child[k] = c[k];
    if (c.format && FORMATS[c.format] && child.format === undefined) child.format = FORMATS[c.format];
  }
}

/**
 * Names of the data fields a form submits: top-level properties, through void containers,
 * leaving out the ones `include` rejects (e.g. fields the mode or the permission removed).
 */
export function dataFieldNames(
  schema: { properties?: Record<string, unknown> },
  include: (node: FormilyNode) => boolean = () => true,
): string[] {
  const out: string[] = [];
  for (const [k, raw] of Object.entries(schema.properties ?? {})) {
    const child = raw as FormilyNode & { properties?: Record<string, unknown> };
    if (!include(child)) continue;
    if (child.type === 'void') out.push(...dataFieldNames(child, include));
    else out.push(k);
  }
  return out;
}

/** Is this node part of the form in this mode for this account (`x-modes`, `x-permission`)? */
export const shownIn =
  (mode: FormMode | undefined, can: (key: string) => boolean) =>
  (node: FormilyNode): boolean =>
    (!node['x-modes'] || !mode || node['x-modes'].includes(mode)) && (!node['x-permission'] || can(node['x-permission']));
