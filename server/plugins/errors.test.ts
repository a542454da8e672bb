import { describe, expect, it } from 'vitest';
import { fieldErrors } from './errors.js';

describe('fieldErrors', () => {
  it('names the field of each ajv issue', () => {
    expect(
      fieldErrors([
        { instancePath: '', keyword: 'required', params: { missingProperty: 'email' }, message: "must have required property 'email'" },
        { instancePath: '', keyword: 'additionalProperties', params: { additionalProperty: 'extra' }, message: 'x' },
        { instancePath: '/items/0/name', keyword: 'type', params: { type: 'string' }, message: 'must be string' },
        { instancePath: '', keyword: 'type', params: { type: 'object' }, message: 'must be object' },
      ], 'body'),
    ).toEqual([
      { field: 'email', message: 'is required / 必填' },
      { field: 'extra', message: 'is not allowed / 不允许的字段' },
      { field: 'items.0.name', message: 'must be string / 类型应为 string' },
      { field: 'body', message: 'must be object / 类型应为 object' },
    ]);
  });
});
