/** Scoring of answers against expected answers (docs/ai.md "Scoring"). */
export { scoreAnswer, type ExitCodeInfo } from './cascade.js';
export { exitCodeOf } from './exit-code.js';
export type { JudgeSetup } from './judge.js';
