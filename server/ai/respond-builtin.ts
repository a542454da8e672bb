/**
 * The built-in responder (no model server needed; docs/ai.md "The built-in responder"): from the
 * hits the retrieval decision uses (server/ai/knowledge/decide.ts: relevance ≥ the knowledge
 * base's threshold among its top-k), the sentences of the best source that share the most words
 * with the question, cited, labelled "built-in responder / 内置检索应答"; when no hit is used it
 * declines in the question's language and says a colleague will follow up.
 */
import { expandQuery, type Expansion } from './knowledge/lexicon.js';
import { DEFAULT_RETRIEVAL, judge, usedHits, type RetrievalSettings } from './knowledge/decide.js';
import { isChinese, tokenize } from './knowledge/segment.js';
import type { Hit } from './retrieval/search.js';

export interface Citation {
  source_type: string;
  source_id: number;
  title: string;
  score: number;
  /** the chunk that was used */
  chunk?: string;
}

/** The label of every built-in answer. */
export const BUILTIN_LABEL = 'built-in responder / 内置检索应答';
export const BUILTIN_MODEL = 'builtin';
export const NOTHING_FOUND = {
  en: "I couldn't find anything in this shop's knowledge that answers this, so I can't give you a reliable answer. A member of our team will follow up.",
  zh: '抱歉，店铺的知识库里没有找到能回答这个问题的内容，我无法给出可靠的答复，稍后会由人工客服跟进。',
};

/** The question's words a hit contains (title and text). */
const termsOf = (h: Pick<Hit, 'title' | 'text'>, terms: Set<string>) => new Set(tokenize(`${h.title}\n${h.text}`).filter((w) => terms.has(w)));

/** Sentences of a chunk (Chinese and English ends, lines). */
export function sentencesOf(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\n+/)) {
    const parts = line.match(/[^。！？!?]*[。！？!?]+[」』"”']?|[^。！？!?]+$/gu) ?? [line];
    for (const p of parts) {
      // English sentences inside: split on ". " (not inside numbers like 3.5)
      for (const s of p.split(/(?<=[a-z0-9)\]][.;])\s+(?=[A-Z0-9"“(])/u)) {
        const t = s.trim();
        if (t) out.push(t);
      }
    }
  }
  return out;
}

/**
 * The few sentences of `text` that answer the question best, in their order: each sentence is
 * scored by the question's words it has, a word that few of the sentences have counting more
 * ("98" in a size table, where every line has "chest" and "cm"); sentences under half the best
 * score are left out. With `lead`, the first sentence is always among them.
 */
export function bestSentences(text: string, terms: Set<string>, max = 3, maxChars = 420, lead = false): string[] {
  const sents = sentencesOf(text);
  const words = sents.map((s) => new Set(tokenize(s).filter((w) => terms.has(w))));
  const df = new Map<string, number>();
  for (const ws of words) for (const w of ws) df.set(w, (df.get(w) ?? 0) + 1);
  const scored = sents.map((s, i) => {
    let score = 0;
    for (const w of words[i]) score += Math.log(1 + sents.length / df.get(w)!);
    return { i, s, score };
  });
  const best = Math.max(0, ...scored.map((x) => x.score));
  const picked = scored
    .filter((x) => x.score > 0 && x.score >= best / 2)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, max);
  if (!picked.length) picked.push(...scored.slice(0, 2));
  // the opening sentence of a policy states its rule (the return window, the warranty term)
  if (lead && scored.length && !picked.some((x) => x.i === 0)) {
    if (picked.length >= max) picked.pop();
    picked.push(scored[0]);
  }
  const chosen = picked.sort((a, b) => a.i - b.i);
  const out: string[] = [];
  let len = 0;
  for (const x of chosen) {
    if (len && len + x.s.length > maxChars) break;
    out.push(x.s);
    len += x.s.length;
  }
  // a heading line alone says little: take the sentence after it too
  if (out.length === 1 && out[0].length < 40 && sents[chosen[0].i + 1]) out.push(sents[chosen[0].i + 1]);
  return out;
}

const round = (x: number) => Math.round(x * 1000) / 1000;
export const citationOf = (h: Hit): Citation => ({ source_type: h.source_type, source_id: h.source_id, title: h.title, score: round(h.score), chunk: h.text });

export interface BuiltinAnswer {
  text: string;
  citations: Citation[];
  /** true when the shop's knowledge had nothing that answers (declined) */
  nothingFound: boolean;
}

/** The built-in answer from ranked hits, by the retrieval decision of `settings`. */
export function composeBuiltin(
  question: string,
  hits: Hit[],
  terms: string[],
  expansion: Expansion = expandQuery(question),
  settings: Pick<RetrievalSettings, 'threshold' | 'topK'> = DEFAULT_RETRIEVAL,
): BuiltinAnswer {
  const zh = isChinese(question);
  const relevant = usedHits(judge(hits, expansion, settings));
  if (!relevant.length) return { text: `${zh ? NOTHING_FOUND.zh : NOTHING_FOUND.en}\n\n— ${BUILTIN_LABEL}`, citations: [], nothingFound: true };
  const top = relevant[0];
  // the sentences to quote are picked by the question's words and the lexicon's (a Chinese question, an English policy)
  const termSet = new Set([...terms, ...expansion.added.filter(([, w]) => w >= 0.5).map(([t]) => t)]);
  const used = [top];
  // a second source, nearly as good, that answers a part of the question the first does not
  const covered = termsOf(top, termSet);
  const second = relevant.find(
    (h) =>
      h !== top &&
      h.score >= top.score * 0.75 &&
      h.matched >= Math.ceil(terms.length / 2) &&
      (h.source_type !== top.source_type || h.source_id !== top.source_id) &&
      [...termsOf(h, termSet)].some((w) => !covered.has(w)),
  );
  if (second) used.push(second);
  const parts = used.map((h) => bestSentences(h.text, termSet, used.length > 1 ? 2 : 3, 420, h.chunk_index === 0).join(zh ? '' : ' '));
  const titles = used.map((h) => (zh ? `《${h.title}》` : `"${h.title}"`)).join(zh ? '、' : ', ');
  const body = parts.join('\n');
  const text = zh ? `根据本店的${titles}：\n${body}\n\n— ${BUILTIN_LABEL}` : `From our ${titles}:\n${body}\n\n— ${BUILTIN_LABEL}`;
  return { text, citations: used.map(citationOf), nothingFound: false };
}
