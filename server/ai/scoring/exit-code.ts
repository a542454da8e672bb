/**
 * The exit code of an answer (how the conversation ended), told from the answer itself:
 * - a model may name one of the configured codes with a marker `[exit_code: <code>]`; the
 *   marker is taken out of the answer text;
 * - otherwise an answer with no text, or a built-in answer that found no knowledge, ends as
 *   `no_answer`, and any other answer as `resolved` — when those codes are configured.
 * No configured code fits → null (the cascade then scores the answer semantically).
 */
import type { ExitCodeInfo } from './cascade.js';

export const ANSWERED = 'resolved';
export const NOT_ANSWERED = 'no_answer';

const MARKER = /\[\s*exit[_ ]?code\s*[:：]\s*([A-Za-z0-9_.:-]{1,60})\s*\]/iu;

export function exitCodeOf(
  answer: { text: string; responder: string; citations: unknown[] },
  codes: ExitCodeInfo[],
): { exitCode: ExitCodeInfo | null; text: string } {
  const byCode = new Map(codes.map((c) => [c.code.toLowerCase(), c]));
  const m = MARKER.exec(answer.text);
  if (m) {
    const named = byCode.get(m[1].toLowerCase());
    if (named) return { exitCode: named, text: answer.text.replace(MARKER, '').trim() };
  }
  const text = answer.text.trim();
  const nothing = !text || (answer.responder === 'builtin' && answer.citations.length === 0);
  return { exitCode: byCode.get(nothing ? NOT_ANSWERED : ANSWERED) ?? null, text };
}
