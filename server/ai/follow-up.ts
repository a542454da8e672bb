/**
 * A follow-up question in a conversation ("how long does that take?", "那换货呢？") often names
 * nothing the knowledge holds: what it is about is in the customer's previous question. When the
 * question alone is declined (server/ai/knowledge/decide.ts), answer.ts asks again with the
 * previous question before it and keeps that retrieval when it answers; the built-in responder
 * then quotes by both, a model's prompt gets that knowledge (the model has the turns themselves).
 */
/** the previous question is used when it is at most this long (characters) */
const MAX_PREVIOUS = 500;

/** The question with the customer's last earlier question before it, or null when there is none. */
export function contextQuery(question: string, history: ReadonlyArray<{ role: string; content: string }> | undefined): string | null {
  const prev = [...(history ?? [])].reverse().find((t) => t.role === 'user' && t.content.trim());
  if (!prev) return null;
  const text = prev.content.trim().slice(0, MAX_PREVIOUS);
  return text === question.trim() ? null : `${text}\n${question}`;
}
