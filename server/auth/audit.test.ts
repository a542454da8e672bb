import { describe, expect, it } from 'vitest';
import { scrub } from './audit.js';

describe('scrub', () => {
  it('redacts secret-like keys recursively and keeps the rest', () => {
    const out = scrub({
      email: 'a@b.c',
      password: 'p',
      new_password: 'q',
      nested: { token: 't', list: [{ api_key: 'k', name: 'n' }], client_secret: 's' },
      when: new Date('2026-01-01T00:00:00Z'),
    });
    expect(out).toEqual({
      email: 'a@b.c',
      password: '[redacted]',
      new_password: '[redacted]',
      nested: { token: '[redacted]', list: [{ api_key: '[redacted]', name: 'n' }], client_secret: '[redacted]' },
      when: '2026-01-01T00:00:00.000Z',
    });
  });
});
