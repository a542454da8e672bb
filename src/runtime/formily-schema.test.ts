import { describe, expect, it } from 'vitest';
import { applyFieldConstraints } from './formily-schema.js';

describe('applyFieldConstraints', () => {
  const fields = {
    properties: {
      email: { type: 'string', format: 'email', maxLength: 200 },
      name: { type: 'string', minLength: 1, maxLength: 50 },
      age: { type: 'integer', minimum: 0, maximum: 150 },
      link: { type: 'string', format: 'uri' },
    },
  };

  it('adds the server bounds to same-named fields, also inside void containers', () => {
    const schema = {
      type: 'object',
      properties: {
        email: { type: 'string' },
        grid: { type: 'void', properties: { name: { type: 'string' }, age: { type: 'number' }, link: { type: 'string' } } },
        other: { type: 'string' },
      },
    };
    applyFieldConstraints(schema, fields);
    const p = schema.properties as Record<string, Record<string, unknown>>;
    expect(p.email).toMatchObject({ format: 'email', maxLength: 200 });
    const g = (p.grid.properties as Record<string, Record<string, unknown>>);
    expect(g.name).toMatchObject({ minLength: 1, maxLength: 50 });
    expect(g.age).toMatchObject({ minimum: 0, maximum: 150 });
    expect(g.link.format).toBe('url');
    expect(p.other).toEqual({ type: 'string' });
  });

  it('keeps what the schema states itself', () => {
    const schema = { type: 'object', properties: { name: { type: 'string', maxLength: 20 } } };
    applyFieldConstraints(schema, fields);
    expect((schema.properties.name as Record<string, unknown>).maxLength).toBe(20);
  });
});

describe('dataFieldNames with shownIn', () => {
  it('leaves out fields the mode or a missing permission removes', async () => {
    const { dataFieldNames, shownIn } = await import('./formily-schema.js');
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        password: { type: 'string', 'x-modes': ['add'] },
        box: { type: 'void', properties: { secret: { type: 'string', 'x-permission': 'm.k' }, note: { type: 'string' } } },
      },
    };
    expect(dataFieldNames(schema, shownIn('edit', () => false))).toEqual(['name', 'note']);
    expect(dataFieldNames(schema, shownIn('add', () => true))).toEqual(['name', 'password', 'secret', 'note']);
  });
});
