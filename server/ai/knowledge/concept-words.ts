/**
 * Which words of a question name what it is about, and how much (issue 21; lexicon.ts
 * `expandQuery` reads these lists): words of asking make no concept at all, generic second words
 * weigh WEAK_WEIGHT. Kept apart from the lexicon's groups (lexicon.ts) so that each stays short.
 */
import { tokenize } from './segment.js';

/**
 * Words of asking, not what is asked about (they make no concept of a question). English ones are
 * also taken as the index's tokens; Chinese ones are compared as words.
 */
export function askingWords(): Set<string> {
  return new Set(
    // contractions lose their apostrophe in the index's words (hasn't → hasnt), so the stopword list misses them
    'long much many way get got like ok okay anything something possible still yet also really just soon time take what whats thats theres im ive id youre youve dont doesnt didnt isnt arent wasnt werent hasnt havent hadnt cant couldnt wont wouldnt shouldnt'.split(' ').flatMap((w) => [w, ...tokenize(w)]).concat(
      '多久 多长时间 没有 有没有 几天 多少 怎么办 能不能 是否 可不可以 怎么样 一般 大概 现在 今天 还是 时候 多少天 支持 使用 需要 办理 应该'.split(' '),
    ).concat(
      // colloquial asking (啥 = 什么, 咋 = 怎么; issue 21)
      '啥 咋 啥时候 咋办 咋样 为啥 干啥 怎么回事'.split(' '),
    ),
  );
}

/**
 * Generic second words (issue 21): they frame what is asked ("a warranty **claim**", "the return
 * **window**", "the exchange **process**") more than they name it, so a concept the question
 * names only by them weighs WEAK_WEIGHT: a passage answering the rest is not declined for lacking
 * the word. Chosen on the development set (docs/ai.md "Deciding not to answer").
 */
export const GENERIC = new Set(
  'claim claims window process procedure policy policies fee fees period rule rules step steps option options info information detail details'.split(' ').flatMap((w) => tokenize(w)),
);
export const WEAK_WEIGHT = 0.4;
