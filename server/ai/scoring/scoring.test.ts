import { describe, expect, it } from 'vitest';
import { scoreAnswer, type CascadeInput } from './cascade.js';
import { exitCodeOf } from './exit-code.js';
import { NO_JUDGE, parseVerdict, type JudgeSetup } from './judge.js';
import { asPattern, contains, exact, f1, regex, similarity } from './scorers.js';
import { words } from './text.js';

const CODES = [
  { code: 'resolved', need_semantics_score: 1 },
  { code: 'no_answer', need_semantics_score: 0 },
  { code: 'transfer_human', need_semantics_score: 0 },
];

describe('tokens', () => {
  it('splits Chinese into words and English on spaces, folding width and case', () => {
    expect(words('您的订单已发货')).toEqual(['您', '的', '订单', '已', '发', '货']);
    expect(words('Ｙｅｓ, the items CAN be returned.')).toEqual(['yes', 'items', 'can', 'be', 'returned']);
  });
});

describe('cheap scorers', () => {
  it('exact ignores case, width, spaces and punctuation; contains needs the whole expected text', () => {
    expect(exact('  Yes,  within 30 days! ', 'yes within 30 days').passed).toBe(true);
    expect(exact('Yes within 31 days', 'yes within 30 days').passed).toBe(false);
    expect(contains('Sure — unworn items: returns within 30 days.', 'returns within 30 days').passed).toBe(true);
    expect(contains('returns within 3 days', 'returns within 30 days').passed).toBe(false);
    expect(contains('anything', '').passed).toBe(false);
  });

  it('regex: /pattern/flags, RE2 semantics, a bad pattern fails with its reason', () => {
    expect(asPattern('/30\\s*(days|天)/i')).toEqual({ source: '30\\s*(days|天)', flags: 'i' });
    expect(asPattern('30 days')).toBeNull();
    expect(regex('Returns within 30 DAYS', { source: '30\\s*days', flags: 'i' }).passed).toBe(true);
    expect(regex('退货期限30天', { source: '30\\s*(days|天)', flags: '' }).passed).toBe(true);
    expect(regex('Returns within 7 days', { source: '30\\s*days', flags: '' }).passed).toBe(false);
    const bad = regex('x', { source: '(?=x)', flags: '' });
    expect(bad.passed).toBe(false);
    expect(bad.reason).toContain('not a valid RE2');
  });

  it('similarity is token F1 against a threshold', () => {
    expect(f1('returns within 30 days', 'returns within 30 days').f1).toBe(1);
    expect(f1('completely different words', 'returns within 30 days').f1).toBe(0);
    const half = f1('p q r s', 'p q x y');
    expect(half.f1).toBeCloseTo(0.5);
    expect(similarity('退货期限为30天', '30天内可以退货', 0.5).score).toBeGreaterThan(0.3);
    expect(similarity('p q r s', 'p q x y', 0.5).passed).toBe(true);
    expect(similarity('p q r s', 'p q x y', 0.6).passed).toBe(false);
  });
});

describe('exit codes', () => {
  it('a marker names a configured code and is removed; otherwise answered / not answered', () => {
    expect(exitCodeOf({ text: 'Let me get a colleague. [exit_code: transfer_human]', responder: 'model', citations: [] }, CODES)).toEqual({
      exitCode: CODES[2],
      text: 'Let me get a colleague.',
    });
    expect(exitCodeOf({ text: 'Returns within 30 days.', responder: 'builtin', citations: [{}] }, CODES).exitCode?.code).toBe('resolved');
    expect(exitCodeOf({ text: 'Sorry, nothing found.', responder: 'builtin', citations: [] }, CODES).exitCode?.code).toBe('no_answer');
    expect(exitCodeOf({ text: 'x [exit_code: unknown_code]', responder: 'model', citations: [] }, CODES).exitCode?.code).toBe('resolved');
    expect(exitCodeOf({ text: 'x', responder: 'model', citations: [] }, []).exitCode).toBeNull();
  });
});

describe('cascade', () => {
  const base: CascadeInput = {
    question: 'Can I return it?',
    expected: 'Unworn items can be returned within 30 days.',
    answer: '',
    exitCode: CODES[0],
    threshold: 0.5,
    judge: NO_JUDGE,
  };
  let judged = 0;
  const judge: JudgeSetup = {
    available: true,
    model: 'judge-1',
    judge: async (_q, _e, answer) => {
      judged++;
      return { score: answer.includes('30') ? 0.9 : 0.1, reason: 'checked the number of days', tokens: 42 };
    },
  };

  it('a cheap pass decides without a semantic score or the judge', async () => {
    judged = 0;
    const r = await scoreAnswer({ ...base, answer: 'Sure. Unworn items can be returned within 30 days!', judge });
    expect(r).toMatchObject({ score: 100, passed: true, judgeTokens: 0 });
    expect(r.scores.map((s) => s.scorer)).toEqual(['exact', 'contains']);
    expect(judged).toBe(0);
  });

  it('an exit code that needs no semantic score stops after the cheap checks', async () => {
    const r = await scoreAnswer({ ...base, answer: 'Let me transfer you.', exitCode: CODES[2], judge });
    expect(r).toMatchObject({ score: 0, passed: false });
    expect(r.scores.at(-1)).toMatchObject({ scorer: 'similarity', score: null });
    expect(r.scores.at(-1)!.reason).toContain('transfer_human');
  });

  it('without a judge, similarity decides and the judge says why it did not run', async () => {
    const good = await scoreAnswer({ ...base, answer: 'Items that are unworn can be returned within 30 days of delivery.' });
    const bad = await scoreAnswer({ ...base, answer: 'Our store opens at nine in the morning.' });
    expect(good.passed).toBe(true);
    expect(bad.passed).toBe(false);
    expect(good.score!).toBeGreaterThan(bad.score!);
    expect(good.scores.at(-1)).toEqual({ scorer: 'judge', score: null, passed: null, reason: 'no judge model configured / 未配置评判模型' });
  });

  it('with a judge, it scores where needed and its tokens are counted', async () => {
    judged = 0;
    const r = await scoreAnswer({ ...base, answer: 'You have 30 days to send it back.', judge });
    expect(judged).toBe(1);
    expect(r).toMatchObject({ score: 90, passed: true, judgeTokens: 42 });
    expect(r.scores.map((s) => s.scorer)).toEqual(['exact', 'contains', 'similarity', 'judge']);
    const failing: JudgeSetup = { available: true, model: 'j', judge: async () => Promise.reject(new Error('HTTP 500')) };
    const f = await scoreAnswer({ ...base, answer: 'You have 30 days to send it back.', judge: failing });
    expect(f.scores.at(-1)!.reason).toContain('HTTP 500');
    expect(f.score).toBe(f.scores[2].score! * 100);
  });

  it('a /pattern/ expected answer is checked by regex only; no expected answer gives no score', async () => {
    const r = await scoreAnswer({ ...base, expected: '/30\\s*days/i', answer: 'Within 30 Days.' });
    expect(r).toMatchObject({ score: 100, passed: true });
    expect(r.scores.map((s) => s.scorer)).toEqual(['regex']);
    expect(await scoreAnswer({ ...base, expected: '', answer: 'hi' })).toMatchObject({ score: null, passed: true, scores: [] });
  });

  it('reads judge verdicts', () => {
    expect(parseVerdict('Sure: {"score": 0.8, "reason": "same facts"}')).toEqual({ score: 0.8, reason: 'same facts' });
    expect(parseVerdict('{"score": 75}').score).toBe(0.75);
    expect(() => parseVerdict('I think it is fine')).toThrow(/did not reply with a score/);
  });
});
