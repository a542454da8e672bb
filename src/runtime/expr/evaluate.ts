/**
 * A whitelisted evaluator over jsep trees. No eval, no new Function, no calls on arbitrary
 * objects: only the helpers below and a fixed set of string / array / number methods,
 * invoked through their own prototypes. `__proto__`, `constructor`, `prototype` and the
 * legacy accessor names are refused; function values never leave the evaluator.
 */
import { parseExpression, type Node, type ObjectNode } from './parse.js';

export class ExpressionError extends Error {
  constructor(
    readonly expression: string,
    reason: string,
  ) {
    super(`${reason} in {{ ${expression} }}`);
    this.name = 'ExpressionError';
  }
}

export type Scope = Record<string, unknown>;

const DENIED = new Set([
  '__proto__',
  'constructor',
  'prototype',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
]);

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** Helpers callable by name. */
export const HELPERS: Record<string, (...args: unknown[]) => unknown> = {
  includes: (list, item) => (Array.isArray(list) || typeof list === 'string' ? list.includes(item as never) : false),
  length: (v) => (Array.isArray(v) || typeof v === 'string' ? v.length : isObj(v) ? Object.keys(v).length : 0),
  isEmpty: (v) =>
    v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0) || (isObj(v) && !Array.isArray(v) && Object.keys(v).length === 0),
  join: (list, sep) => (Array.isArray(list) ? list.join(typeof sep === 'string' ? sep : ',') : ''),
  number: (v) => Number(v),
  string: (v) => (v === undefined || v === null ? '' : String(v)),
  boolean: (v) => Boolean(v),
  lower: (v) => String(v ?? '').toLowerCase(),
  upper: (v) => String(v ?? '').toUpperCase(),
  keys: (v) => (isObj(v) ? Object.keys(v) : []),
  pick: (list, key) => (Array.isArray(list) ? list.map((x) => (isObj(x) ? x[String(key)] : undefined)) : []),
  coalesce: (...args) => args.find((a) => a !== undefined && a !== null),
  /** a date(-time) string or number → ISO 8601 (undefined when empty or invalid) */
  iso: (v) => {
    if (v === undefined || v === null || v === '') return undefined;
    const d = new Date(typeof v === 'number' ? v : String(v));
    return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
  },
};

const STRING_METHODS = new Set(['includes', 'startsWith', 'endsWith', 'indexOf', 'trim', 'toLowerCase', 'toUpperCase', 'slice', 'split', 'padStart']);
const ARRAY_METHODS = new Set(['includes', 'indexOf', 'join', 'slice', 'concat']);
const NUMBER_METHODS = new Set(['toFixed']);

function callMethod(expr: string, target: unknown, name: string, args: unknown[]): unknown {
  if (typeof target === 'string' && STRING_METHODS.has(name)) {
    return (String.prototype as unknown as Record<string, (...a: unknown[]) => unknown>)[name].apply(target, args);
  }
  if (Array.isArray(target) && ARRAY_METHODS.has(name)) {
    return (Array.prototype as unknown as Record<string, (...a: unknown[]) => unknown>)[name].apply(target, args);
  }
  if (typeof target === 'number' && NUMBER_METHODS.has(name)) {
    return (Number.prototype as unknown as Record<string, (...a: unknown[]) => unknown>)[name].apply(target, args);
  }
  throw new ExpressionError(expr, `method "${name}" is not allowed`);
}

function propKey(expr: string, key: unknown): string | number {
  if (typeof key === 'number') return key;
  if (typeof key !== 'string') throw new ExpressionError(expr, 'property keys must be strings or numbers');
  if (DENIED.has(key)) throw new ExpressionError(expr, `access to "${key}" is refused`);
  return key;
}

function readMember(expr: string, target: unknown, key: string | number): unknown {
  if (target === undefined || target === null) return undefined;
  if (typeof target === 'function') throw new ExpressionError(expr, 'functions have no readable members');
  if (typeof target === 'string' || Array.isArray(target)) {
    if (key === 'length') return target.length;
    if (typeof key === 'number' || /^\d+$/.test(key)) return target[Number(key)];
  }
  if (!isObj(target)) return undefined;
  const value = Reflect.get(target, key);
  return typeof value === 'function' ? undefined : value;
}

const BINARY: Record<string, (a: unknown, b: unknown) => unknown> = {
  '+': (a, b) => (a as number) + (b as number),
  '-': (a, b) => (a as number) - (b as number),
  '*': (a, b) => (a as number) * (b as number),
  '/': (a, b) => (a as number) / (b as number),
  '%': (a, b) => (a as number) % (b as number),
  '==': (a, b) => a == b, // eslint-disable-line eqeqeq -- the expression language's == is loose, like JavaScript's
  '!=': (a, b) => a != b, // eslint-disable-line eqeqeq -- the expression language's != is loose, like JavaScript's
  '===': (a, b) => a === b,
  '!==': (a, b) => a !== b,
  '<': (a, b) => (a as number) < (b as number),
  '>': (a, b) => (a as number) > (b as number),
  '<=': (a, b) => (a as number) <= (b as number),
  '>=': (a, b) => (a as number) >= (b as number),
};

function evalNode(expr: string, node: Node, scope: Scope): unknown {
  switch (node.type) {
    case 'Literal':
      return (node as unknown as { value: unknown }).value;
    case 'Identifier': {
      const name = (node as unknown as { name: string }).name;
      if (name === 'undefined') return undefined;
      if (DENIED.has(name)) throw new ExpressionError(expr, `access to "${name}" is refused`);
      const value = isObj(scope) ? Reflect.get(scope, name) : undefined;
      return typeof value === 'function' ? undefined : value;
    }
    case 'ThisExpression':
      throw new ExpressionError(expr, '"this" is not allowed');
    case 'MemberExpression': {
      const m = node as unknown as { object: Node; property: Node; computed: boolean; optional?: boolean };
      const target = evalNode(expr, m.object, scope);
      const key = m.computed ? evalNode(expr, m.property, scope) : (m.property as unknown as { name: string }).name;
      return readMember(expr, target, propKey(expr, key));
    }
    case 'CallExpression': {
      const c = node as unknown as { callee: Node; arguments: Node[] };
      const args = c.arguments.map((a) => evalNode(expr, a, scope));
      if (c.callee.type === 'Identifier') {
        const name = (c.callee as unknown as { name: string }).name;
        const helper = Object.prototype.hasOwnProperty.call(HELPERS, name) ? HELPERS[name] : undefined;
        if (!helper) throw new ExpressionError(expr, `function "${name}" is not allowed`);
        return helper(...args);
      }
      if (c.callee.type === 'MemberExpression') {
        const m = c.callee as unknown as { object: Node; property: Node; computed: boolean };
        const target = evalNode(expr, m.object, scope);
        const name = m.computed ? evalNode(expr, m.property, scope) : (m.property as unknown as { name: string }).name;
        if (typeof name !== 'string') throw new ExpressionError(expr, 'bad method name');
        if (target === undefined || target === null) return undefined;
        return callMethod(expr, target, propKey(expr, name) as string, args);
      }
      throw new ExpressionError(expr, 'calls are allowed on helpers and whitelisted methods only');
    }
    case 'UnaryExpression': {
      const u = node as unknown as { operator: string; argument: Node };
      const v = evalNode(expr, u.argument, scope);
      if (u.operator === '!') return !v;
      if (u.operator === '-') return -(v as number);
      if (u.operator === '+') return +(v as number);
      throw new ExpressionError(expr, `operator "${u.operator}" is not allowed`);
    }
    case 'BinaryExpression': {
      const b = node as unknown as { operator: string; left: Node; right: Node };
      if (b.operator === '&&') return evalNode(expr, b.left, scope) && evalNode(expr, b.right, scope);
      if (b.operator === '||') return evalNode(expr, b.left, scope) || evalNode(expr, b.right, scope);
      if (b.operator === '??') return evalNode(expr, b.left, scope) ?? evalNode(expr, b.right, scope);
      const op = Object.prototype.hasOwnProperty.call(BINARY, b.operator) ? BINARY[b.operator] : undefined;
      if (!op) throw new ExpressionError(expr, `operator "${b.operator}" is not allowed`);
      return op(evalNode(expr, b.left, scope), evalNode(expr, b.right, scope));
    }
    case 'ConditionalExpression': {
      const c = node as unknown as { test: Node; consequent: Node; alternate: Node };
      return evalNode(expr, c.test, scope) ? evalNode(expr, c.consequent, scope) : evalNode(expr, c.alternate, scope);
    }
    case 'ArrayExpression':
      return (node as unknown as { elements: Array<Node | null> }).elements.map((e) => (e ? evalNode(expr, e, scope) : undefined));
    case 'ObjectExpression': {
      const out: Record<string, unknown> = {};
      for (const p of (node as unknown as ObjectNode).properties) {
        const raw = p.key.type === 'Identifier' ? (p.key as unknown as { name: string }).name : (p.key as unknown as { value: unknown }).value;
        out[propKey(expr, String(raw))] = evalNode(expr, p.value, scope);
      }
      return out;
    }
    case 'Compound':
      throw new ExpressionError(expr, 'one expression only');
    default:
      throw new ExpressionError(expr, `syntax "${node.type}" is not allowed`);
  }
}

/** Evaluates one expression (without the surrounding {{ }}). */
export function evaluate(expression: string, scope: Scope): unknown {
  let node: Node;
  try {
    node = parseExpression(expression);
  } catch (e) {
    throw new ExpressionError(expression, e instanceof Error ? e.message : 'parse error');
  }
  return evalNode(expression, node, scope);
}
