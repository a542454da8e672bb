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

  it('keeps counts of model tokens: max_tokens, prompt_tokens, judge_tokens are no secrets', () => {
    expect(scrub({ max_tokens: 1024, prompt_tokens: 20, judge_tokens: 3, tokens_prompt: 5, access_token: 'a', tokenHash: 'h', 'admin-token': 'x' })).toEqual({
      max_tokens: 1024,
      prompt_tokens: 20,
      judge_tokens: 3,
      tokens_prompt: 5,
      access_token: '[redacted]',
      tokenHash: '[redacted]',
      'admin-token': '[redacted]',
    });
  });
});
