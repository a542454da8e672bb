import { describe, expect, it } from 'vitest';
import { redactKeys } from './trace.js';

describe('redactKeys: no key reaches a trace', () => {
  it('masks the given keys and anything shaped like a key or a bearer token', () => {
    const t = redactKeys('my key sk-abcdefghijklmnop1234 and Bearer abc.def-123456789 api_key=secretvalue99 custom-key-xyz', ['custom-key-xyz']);
    expect(t).not.toContain('sk-abcdefghijklmnop1234');
    expect(t).not.toContain('abc.def-123456789');
    expect(t).not.toContain('secretvalue99');
    expect(t).not.toContain('custom-key-xyz');
    expect(t).toContain('sk-…1234');
    expect(t).toContain('Bearer [redacted]');
  });

  it('leaves ordinary text alone (tokens as counts, short words)', () => {
    const s = 'max_tokens 1024, 11 prompt tokens; return within 14 days (sk-1 is a SKU)';
    expect(redactKeys(s)).toBe(s);
  });
});
