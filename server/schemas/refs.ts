/**
 * Everything a schema document refers to, each with the JSON pointer where it sits: widgets,
 * enums, i18n keys, API calls, permission keys, other schemas and routes. Used by the
 * loader (which enums to send with a schema) and by `schemas:check` (cross-references).
 * The property names follow schemas/meta/src (see the header of its index.ts).
 */
import { pointerSegment } from './canonical.js';

export interface Ref {
  value: string;
  pointer: string;
}

export interface SchemaRefs {
  widgets: Ref[];
  enums: Ref[];
  texts: Ref[];
  /** `"METHOD path"` strings */
  apis: Ref[];
  permissions: Ref[];
  /** ids of other page / form schemas (openForm `form`, list section `list`, tab `schema`) */
  schemas: Ref[];
  /** route patterns (`routes` of a page, `modes.*.route` of a form) */
  routes: Ref[];
}

/** Widget names: column / detail item / section `widget`, Formily `x-component` and `x-decorator`. */
const WIDGET_KEYS = new Set(['widget', 'x-component', 'x-decorator']);
/**
 * Enum ids: column / detail item `enum` (a string; Formily's inline `enum` is an array), Formily
 * `x-enum`, and `enumId` in the props of a display widget inside a form (EnumTag as x-component).
 */
const ENUM_KEYS = new Set(['enum', 'x-enum', 'enumId']);
const PERMISSION_KEYS = new Set(['permission', 'x-permission']);
const API_REF = /^(GET|POST) [A-Za-z0-9_][A-Za-z0-9_./-]*$/;

/**
 * Walks a page / form document. `textKeys` are the property names whose string values are
 * i18n keys (TEXT_KEYS of schemas/meta/src/index.ts). Enum files are not walked for texts:
 * their labels are inline in both languages.
 */
export function collectRefs(doc: unknown, textKeys: readonly string[]): SchemaRefs {
  const refs: SchemaRefs = { widgets: [], enums: [], texts: [], apis: [], permissions: [], schemas: [], routes: [] };
  const texts = new Set(textKeys);
  const isEnumDoc = isObject(doc) && doc.kind === 'enum';

  // inside a parameter mapping (`body`, `params`) keys are request fields, not texts
  const visit = (node: unknown, pointer: string, parent: Record<string, unknown> | null, key: string | null, mapping = false): void => {
    if (Array.isArray(node)) {
      node.forEach((v, i) => visit(v, `${pointer}/${i}`, parent, key, mapping));
      return;
    }
    if (isObject(node)) {
      const inner = mapping || key === 'body' || key === 'params';
      for (const [k, v] of Object.entries(node)) visit(v, `${pointer}/${pointerSegment(k)}`, node, k, inner);
      return;
    }
    if (typeof node !== 'string' || key === null) return;
    const ref = { value: node, pointer };
    if (WIDGET_KEYS.has(key)) refs.widgets.push(ref);
    else if (ENUM_KEYS.has(key)) refs.enums.push(ref);
    else if (PERMISSION_KEYS.has(key)) refs.permissions.push(ref);
    else if (API_REF.test(node)) refs.apis.push(ref); // `api`, or any prop of a widget that names a call
    else if (isSchemaRef(parent, key)) refs.schemas.push(ref);
    else if (key === 'routes' || (key === 'route' && pointer.startsWith('/modes/'))) refs.routes.push(ref);
    else if (!isEnumDoc && !mapping && texts.has(key)) refs.texts.push(ref);
  };
  visit(doc, '', null, null);
  return refs;
}

/** openForm `form`, list section `list`, tab `schema` (a string; a form's own `schema` is an object). */
function isSchemaRef(parent: Record<string, unknown> | null, key: string): boolean {
  if (!parent) return false;
  if (key === 'form') return parent.type === 'openForm';
  if (key === 'list') return parent.type === 'list';
  if (key === 'schema') return true;
  return false;
}

const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** Splits `"GET role/list"` into method and path. */
export function parseApiRef(ref: string): { method: 'GET' | 'POST'; path: string } | null {
  const m = API_REF.exec(ref);
  return m ? { method: m[1] as 'GET' | 'POST', path: ref.slice(m[1].length + 1) } : null;
}
