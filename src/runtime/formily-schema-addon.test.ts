import { describe, expect, it } from 'vitest';
import { prepareFormilySchema } from './formily-schema.js';
import type { FormilyObject } from './types.js';

describe('prepareFormilySchema: unit addons', () => {
  it('translates addonAfter / addonBefore of x-component-props (units beside number inputs)', () => {
    const schema = {
      type: 'object',
      properties: {
        secs: { type: 'number', 'x-component': 'NumberPicker', 'x-component-props': { addonAfter: 'voiceCenter.unit.seconds', addonBefore: 'voiceCenter.unit.times' } },
      },
    } as unknown as FormilyObject;
    const out = prepareFormilySchema(schema, {
      t: (k) => ({ 'voiceCenter.unit.seconds': '秒', 'voiceCenter.unit.times': '次' })[k] ?? k,
      can: () => true,
      enums: {},
      locale: 'zh-CN',
      hasWidget: () => true,
      strict: true,
      unknownWidget: 'UnknownWidget',
      pointer: '/schema',
    });
    const props = (out.properties as Record<string, Record<string, Record<string, unknown>>>).secs['x-component-props'];
    expect(props).toEqual({ addonAfter: '秒', addonBefore: '次' });
  });
});
