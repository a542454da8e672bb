/**
 * The prompt a model answers from (docs/ai.md "Answering"): the assistant's template (or the
 * default) with the shop, the question and the knowledge the retrieval decision uses
 * (server/ai/knowledge/decide.ts) — numbered, with titles; when the decision used nothing, the
 * knowledge says so and tells the model to decline and hand over rather than guess.
 */
import type { Hit } from './retrieval/search.js';

export const DEFAULT_PROMPT = `You are the customer service assistant of {{shop}}. Answer the customer's question using only the knowledge below; if it does not answer the question, say so and offer to pass the question to a human colleague. Answer in the customer's language.

Knowledge:
{{knowledge}}`;

/** What the prompt's knowledge says when the decision used nothing: the model is to decline and hand over. */
export const NO_KNOWLEDGE =
  "(nothing in this shop's knowledge answers the question: say that you cannot answer it reliably and that a colleague will follow up; do not guess)";

/** The knowledge as the prompt gets it: numbered, with its title. */
export function knowledgeBlock(hits: Hit[]): string {
  if (!hits.length) return NO_KNOWLEDGE;
  return hits.map((h, i) => `[${i + 1}] ${h.title}\n${h.text}`).join('\n\n');
}

export function fillPrompt(template: string, v: { shop: string; knowledge: string; question: string }): { system: string; askSeparately: boolean } {
  let t = template;
  const hasKnowledge = /\{\{\s*(knowledge|policies)\s*\}\}/.test(t);
  t = t.replace(/\{\{\s*shop\s*\}\}/g, v.shop).replace(/\{\{\s*(knowledge|policies)\s*\}\}/g, v.knowledge);
  const hasQuestion = /\{\{\s*question\s*\}\}/.test(t);
  t = t.replace(/\{\{\s*question\s*\}\}/g, v.question);
  if (!hasKnowledge) t = `${t}\n\nKnowledge:\n${v.knowledge}`;
  return { system: t, askSeparately: !hasQuestion };
}
