import { describe, expect, it } from 'vitest';
import { ExpressionError, evaluate } from './evaluate.js';
import { resolveCondition, resolveMap, resolvePath, resolveValue } from './template.js';

const scope = {
  record: { id: 7, name: 'ops', tags: ['a', 'b'], status: 1 },
  values: { type: 3, email: 'x@y.z' },
  user: { id: 1 },
  list: [1, 2, 3],
};

describe('safe expression evaluator', () => {
  it('evaluates members, literals, arithmetic, comparison, logic and ternary', () => {
    expect(evaluate('record.id + 1', scope)).toBe(8);
    expect(evaluate("record['name']", scope)).toBe('ops');
    expect(evaluate('record.tags[1]', scope)).toBe('b');
    expect(evaluate('values.type === 3 && !record.missing', scope)).toBe(true);
    expect(evaluate('record.status == 1 ? "on" : "off"', scope)).toBe('on');
    expect(evaluate('record.missing ?? 5', scope)).toBe(5);
    expect(evaluate('record.missing.deeper', scope)).toBeUndefined();
    expect(evaluate('(2 + 3) * 4 % 7', scope)).toBe(6);
    expect(evaluate('[1, record.id]', scope)).toEqual([1, 7]);
    expect(evaluate("{ id: record.id, 'n': record.name }", scope)).toEqual({ id: 7, n: 'ops' });
    expect(evaluate('list.length', scope)).toBe(3);
  });

  it('offers whitelisted helpers and methods only', () => {
    expect(evaluate("includes(record.tags, 'a')", scope)).toBe(true);
    expect(evaluate('length(list)', scope)).toBe(3);
    expect(evaluate("record.name.startsWith('o')", scope)).toBe(true);
    expect(evaluate("list.join('-')", scope)).toBe('1-2-3');
    expect(() => evaluate('alert(1)', scope)).toThrow(ExpressionError);
    expect(() => evaluate('list.map(1)', scope)).toThrow(/not allowed/);
    expect(() => evaluate('record.name.constructor("x")', scope)).toThrow(/refused/);
  });

  it('refuses constructor / __proto__ / prototype access', () => {
    expect(() => evaluate('record.constructor', scope)).toThrow(/refused/);
    expect(() => evaluate('record.__proto__', scope)).toThrow(/refused/);
    expect(() => evaluate("record['__proto__']", scope)).toThrow(/refused/);
    expect(() => evaluate("record['constr' + 'uctor']", scope)).toThrow(/refused/);
    expect(() => evaluate('constructor', scope)).toThrow(/refused/);
    expect(() => evaluate('list.prototype', scope)).toThrow(/refused/);
    expect(() => evaluate('{ __proto__: 1 }', scope)).toThrow(/refused/);
  });

  it('never hands out functions and refuses this / assignment / compound', () => {
    expect(evaluate('toString', scope)).toBeUndefined();
    expect(evaluate('record.hasOwnProperty', scope)).toBeUndefined();
    expect(() => evaluate('this', scope)).toThrow(ExpressionError);
    expect(() => evaluate('a = 1', scope)).toThrow(ExpressionError);
    expect(() => evaluate('a, b', scope)).toThrow(ExpressionError);
  });

  it('resolves templates, conditions and maps', () => {
    expect(resolveValue('{{ record.id }}', scope)).toBe(7);
    expect(resolveValue('id-{{ record.id }}', scope)).toBe('id-7');
    expect(resolveValue('plain', scope)).toBe('plain');
    expect(resolvePath('/x/{{ "a b" }}', scope)).toBe('/x/a%20b');
    expect(resolveCondition('{{ values.type > 2 }}', scope)).toBe(true);
    expect(resolveCondition(undefined, scope)).toBe(true);
    expect(resolveMap({ id: '{{ record.id }}', 'a.b': 1, gone: '{{ record.nope }}' }, scope)).toEqual({ id: 7, a: { b: 1 } });
  });
});
