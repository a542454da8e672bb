import { describe, expect, it } from 'vitest';
import { decidingScore, decisionOf } from './run-decision.js';

describe('decisionOf: what decided a question, as one bilingual line', () => {
  it('names the deciding scorer, its score and its reason in both languages', () => {
    const scores = [
      { scorer: 'exact' as const, score: 0, passed: false, reason: 'the answer differs from the expected answer / 与期望答案不一致' },
      { scorer: 'contains' as const, score: 0, passed: false, reason: 'the expected answer is not in the answer / 回答不包含期望答案' },
      { scorer: 'similarity' as const, score: 0.62, passed: true, reason: 'F1 0.62, precision 0.70, recall 0.55, threshold 0.5 / 词级相似度达到阈值' },
      { scorer: 'judge' as const, score: null, passed: null, reason: 'no judge model configured / 未配置评判模型' },
    ];
    expect(decidingScore(scores)?.scorer).toBe('similarity');
    expect(decisionOf({ outcome: 'pass', expected: 'x', scores, error: '', exitCode: null })).toBe(
      'Similarity 0.62: F1 0.62, precision 0.70, recall 0.55, threshold 0.5 / 相似度 0.62：词级相似度达到阈值',
    );
  });

  it('an error says it was not scored and why; no expected answer says so', () => {
    expect(decisionOf({ outcome: 'error', expected: 'x', scores: [], error: 'the model call failed (refused) / 模型调用失败（refused）', exitCode: null })).toBe(
      'Not scored: the model call failed (refused) / 未评分：模型调用失败（refused）',
    );
    expect(decisionOf({ outcome: 'pass', expected: ' ', scores: [], error: '', exitCode: null })).toMatch(/^No expected answer: the answer has text/);
  });

  it('a reason without a Chinese half is used for both', () => {
    const scores = [{ scorer: 'judge' as const, score: 0.8, passed: true, reason: 'Judge (judge-1): stand-in judge' }];
    expect(decisionOf({ outcome: 'pass', expected: 'x', scores, error: '', exitCode: null })).toBe(
      'LLM judge 0.8: Judge (judge-1): stand-in judge / 模型评判 0.8：Judge (judge-1): stand-in judge',
    );
  });
});
