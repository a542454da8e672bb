/** Scoring of answers against expected answers (docs/ai.md "Scoring"). */
export { scoreAnswer, type CascadeInput, type CascadeResult, type ExitCodeInfo } from './cascade.js';
export { exitCodeOf } from './exit-code.js';
export { DEFAULT_JUDGE_PROMPT, NO_JUDGE, judgePrompt, parseVerdict, type JudgeFn, type JudgeSetup, type JudgeVerdict } from './judge.js';
export { SCORERS, asPattern, contains, exact, f1, regex, similarity, type ScoreEntry, type ScorerName } from './scorers.js';
export { normalize, words } from './text.js';
