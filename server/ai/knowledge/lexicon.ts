/**
 * The customer-service lexicon: groups of words that mean the same thing to a shop's customers,
 * in English and Chinese (issue 21). A question is expanded with the other words of every group
 * it touches, in both directions, so a Chinese question finds an English policy ("退货" → return)
 * and a question in other words finds the policy's own ("couriers" → carrier, "guarantee" →
 * warranty). Kept in the repo as data, written by hand for the shop domain (no download, no
 * model); a word in no group is searched as itself.
 *
 * Each group: English words or phrases (stemmed like the index: "returns" and "returned" are
 * "return"), then Chinese words (matched as substrings of the question, since the segmenter cuts
 * 退货期限 or 能退吗 differently by context).
 */
import { askingWords, GENERIC, WEAK_WEIGHT } from './concept-words.js';
import { hasSeq } from './coverage.js';
import { generalWeight } from './general-idf.js';
import { hanWords, tokenize } from './segment.js';

type Group = readonly [en: readonly string[], zh: readonly string[], opts?: { concept: boolean }];

export const LEXICON: readonly Group[] = [
  // returns, refunds, exchanges
  [['return', 'send back', 'sending back', 'take back', 'returning'], ['退货', '退回', '寄回', '退换', '退吗', '能退', '可以退', '无理由']],
  [['refund', 'money back', 'reimburse', 'refunded', 'credited back'], ['退款', '退钱', '到账', '原路退回', '退还']],
  [['exchange', 'swap', 'different size', 'another size', 'another colour', 'another color'], ['换货', '调换', '换一', '换个', '能换', '可以换', '换尺码']],
  [['restocking fee', 'restock'], ['手续费']],
  [['packaging', 'tag', 'tags', 'unused', 'unworn'], ['吊牌', '包装', '完好']],
  // shipping and delivery
  [['shipping', 'ship', 'delivery', 'deliver', 'dispatch', 'shipped', 'send out', 'sent out', 'post'], ['发货', '配送', '送达', '邮寄', '寄出', '发出']],
  [['carrier', 'courier', 'couriers', 'carriers', 'express', 'logistics', 'delivery company', 'shipping company'], ['快递', '物流', '快递公司', '顺丰', '速运']],
  [['arrive', 'arrived', 'arrival', 'receive', 'received', 'get here', 'reach me', 'delivery time', 'transit'], ['到货', '送到', '几天能到', '多久到', '多久能到', '几天到', '到达', '收到', '签收']],
  [['free shipping', 'free delivery', 'shipping free', 'ship free'], ['包邮', '免运费', '免邮']],
  [['shipping cost', 'shipping fee', 'postage', 'delivery fee', 'delivery charge', 'shipping charge'], ['运费', '邮费', '配送费']],
  [['track', 'tracking', 'tracking number', 'where is my order', 'where is my parcel', 'where is my package', 'status of my order'], ['物流查询', '查物流', '物流单号', '单号', '追踪', '查询物流', '到哪', '到哪了']],
  [['parcel', 'package'], ['包裹', '快递']],
  [['international', 'abroad', 'overseas', 'other countries', 'another country', 'foreign', 'worldwide'], ['海外', '国外', '国际', '境外', '港澳台', '出国']],
  [['customs', 'duty', 'duties', 'import tax', 'import duties'], ['关税', '进口税', '清关']],
  [['remote area', 'remote'], ['偏远']],
  // orders
  [['order', 'purchase', 'bought'], ['订单', '下单', '买的']],
  [['cancel', 'cancellation', 'cancelled', 'canceled'], ['取消', '撤销']],
  [['change', 'modify', 'edit', 'update', 'amend'], ['修改', '更改', '改']],
  [['address', 'shipping address', 'delivery address'], ['地址', '收货地址']],
  // payment
  [['payment', 'pay', 'paying', 'checkout', 'payment method', 'payment methods', 'paypal', 'apple pay', 'google pay', 'shop pay'], ['付款', '支付', '付钱', '结账', '支付方式', '微信支付', '支付宝', '抖音支付']],
  [['instalment', 'installment', 'instalments', 'installments', 'pay later', 'buy now pay later', 'klarna', 'afterpay', 'affirm', 'interest-free'], ['分期', '花呗', '月付', '免息']],
  // a card charged is paid, not a battery charging (the phrase takes the word from the battery group)
  [['credit card', 'card', 'visa', 'mastercard', 'card charged', 'charge my card', 'charged to my card', 'charged my card'], ['信用卡', '银行卡', '银联']],
  [['cash on delivery', 'pay on delivery'], ['货到付款']],
  [['bank transfer', 'wire transfer'], ['对公转账', '转账']],
  [['invoice', 'receipt', 'vat invoice', 'fapiao', 'tax invoice'], ['发票', '开票', '收据', '增值税']],
  [['price', 'cost', 'how much'], ['价格', '多少钱', '价钱']],
  [['item', 'items', 'product', 'products', 'goods', 'thing', 'things', 'stuff'], ['商品', '产品', '东西', '宝贝', '货品']],
  [['deadline', 'time limit', 'window', 'within'], ['期限', '时限', '以内', '之内']],
  // warranty, faults, damage
  [['warranty', 'guarantee', 'guaranteed', 'warranties'], ['保修', '质保', '保修期', '保固']],
  [['repair', 'fix', 'repaired', 'fixed'], ['维修', '修理', '修好', '修吗']],
  [['defect', 'defective', 'fault', 'faulty', 'not working', 'stopped working', 'malfunction', 'broke'], ['故障', '质量问题', '不工作', '坏了', '失灵']],
  [['damaged', 'damage', 'broken', 'cracked', 'crushed', 'smashed'], ['破损', '损坏', '摔坏', '碎了', '坏的']],
  [['wrong item', 'wrong product', 'wrong size sent', 'missing item', 'incorrect item'], ['错发', '发错', '少件', '漏发']],
  [['replace', 'replacement'], ['更换', '补发', '换新']],
  [['photo', 'picture', 'video'], ['照片', '图片', '视频']],
  // sizes
  [['size', 'sizing', 'size guide', 'size chart', 'fit', 'fits'], ['尺码', '尺寸', '码数', '尺码表', '大小', '穿什么码', '选码']],
  [['chest', 'bust'], ['胸围']],
  [['waist'], ['腰围']],
  [['cm', 'centimetre', 'centimeter'], ['厘米', '公分']],
  [['run small', 'runs small', 'small', 'tight', 'size up', 'run large', 'runs large', 'large', 'loose', 'relaxed fit', 'size down', 'true to size', 'standard size', 'normal size'],
    ['偏小', '小一码', '选大', '偏大', '大一码', '选小', '宽松', '版型', '标准', '正常尺码', '平时尺码']],
  [['clothing', 'clothes', 'apparel', 'garment', 'jacket', 'shirt'], ['衣服', '服装', '衣物']],
  // discounts
  [['discount', 'coupon', 'promo code', 'discount code', 'voucher', 'promotion', 'code', 'codes', 'coupons'], ['优惠券', '优惠', '折扣', '券', '优惠码', '活动']],
  [['combine', 'stack', 'stacking', 'two', 'one', 'more than one', 'multiple', 'only one', 'single'], ['叠加', '同时使用', '多张', '两张', '一张', '只能']],
  [['price drop', 'price adjustment', 'reduced', 'price difference', 'cheaper', 'went down'], ['降价', '差价', '保价', '价保']],
  [['newsletter', 'first order', 'new customer', 'sign up'], ['新人', '首单', '关注店铺']],
  // contact
  [['customer service', 'support', 'contact', 'agent', 'human', 'someone', 'team', 'talk to'], ['客服', '联系', '人工', '在线客服']],
  [['hours', 'opening hours', 'business hours', 'available', 'open', 'working hours', 'online'], ['工作时间', '营业时间', '几点', '上班', '在线']],
  [['email', 'e-mail', 'mail'], ['邮件', '邮箱', '电邮']],
  [['weekend', 'saturday', 'sunday'], ['周末', '周六', '周日']],
  [['reply', 'answer', 'respond', 'response'], ['回复', '答复']],
  // products and care
  [['care', 'wash', 'washing', 'clean', 'cleaning', 'look after', 'maintain', 'maintenance'], ['保养', '清洗', '洗涤', '机洗', '手洗', '清洁', '洗']],
  [['dishwasher'], ['洗碗机']],
  [['microwave'], ['微波炉']],
  [['waterproof', 'water resistant', 'splash'], ['防水', '防溅']],
  [['battery', 'charge', 'charging'], ['电池', '充电', '电量']],
  // documents of some shops
  [['wholesale', 'bulk', 'corporate', 'business order', 'group buy', 'large order'], ['批发', '团购', '企业', '大宗', '批量']],
  [['loyalty', 'points', 'reward', 'rewards', 'member', 'membership', 'loyalty programme', 'loyalty program'], ['积分', '会员', '会员积分']],
  [['tier', 'silver', 'gold'], ['等级', '银卡', '金卡']],
  [['expire', 'expiry', 'expiration', 'valid'], ['有效期', '过期', '清零']],
  [['birthday'], ['生日']],
  [['custom', 'customise', 'customize', 'personalised', 'personalized', 'logo'], ['定制', '个性化']],
  [['gift card', 'gift cards'], ['礼品卡', '购物卡']],
  [['free', 'no charge', 'free of charge'], ['免费', '包邮']],
  // how long, when: answered by "within N days", never what a question is about (no concept)
  [['how long', 'how many days', 'when will', 'how soon', 'business days', 'working days'], ['多久', '几天', '多长时间', '多少天', '什么时候', '工作日'], { concept: false }],
];

interface Compiled {
  /** English words and phrases whose every word is a token: their token lists */
  en: string[][];
  /** English phrases with words the index drops ("how long", "not working"): matched in the raw question */
  raw: RegExp[];
  zh: readonly string[];
  /** the tokens the group adds to a query, with their weight relative to the lexicon's (1) */
  tokens: Array<[string, number]>;
  /** what counts as the group in a passage: its English entries (a phrase as its tokens joined by a space) and its Chinese words */
  marks: string[];
  concept: boolean;
}

/** A Chinese word's characters are searched too (the index's segmenter may cut the word differently), at this share. */
const CHAR_SHARE = 0.4;
/** The words of an English phrase of a group ("shipping cost" → ship, cost) are searched too, at this share. */
const PHRASE_SHARE = 0.5;

/**
 * The lexicon compiled, on first use: compiling segments its Chinese words with jieba, whose
 * dictionary takes about 0.5 s of CPU and 60 MB to load — at import it cost every server start
 * that (docs/performance.md, "Start-up"); now only a process that expands a question pays it.
 */
let compiled: { groups: Compiled[]; zhByLength: string[]; asking: Set<string>; enTokens: Set<string> } | null = null;
const lexicon = () => (compiled ??= compileLexicon());

const compileGroups = (): Compiled[] => LEXICON.map(([en, zh, opts]) => {
  const enTok: string[][] = [];
  const raw: RegExp[] = [];
  const rawMarks: string[] = [];
  for (const w of en) {
    const t = tokenize(w);
    if (t.length && t.length === w.split(/[\s-]+/).length) enTok.push(t);
    else {
      raw.push(new RegExp(`(?<![\\p{L}\\p{N}])${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'u'));
      // in a passage, by the words it keeps ("cash on delivery": cash … delivery)
      if (t.length > 1) rawMarks.push(t.join(' '));
    }
  }
  const tokens = new Map<string, number>();
  const marks = new Set<string>(rawMarks);
  for (const t of enTok) {
    marks.add(t.join(' '));
    if (t.length === 1) tokens.set(t[0], 1);
  }
  for (const t of enTok) for (const w of t) if (!tokens.has(w)) tokens.set(w, PHRASE_SHARE);
  for (const w of zh) {
    marks.add(w);
    // the word, and as the index may have it in context: the segmenter's words of it (a word of
    // one character, and the characters of longer words, at a share)
    for (const t of [...tokenize(w), w]) {
      const weight = [...t].length > 1 ? 1 : CHAR_SHARE;
      if ((tokens.get(t) ?? 0) < weight) tokens.set(t, weight);
    }
  }
  return { en: enTok, raw, zh, tokens: [...tokens], marks: [...marks], concept: opts?.concept ?? true };
});

function compileLexicon() {
  const groups = compileGroups();
  return {
    groups,
    /** The lexicon's Chinese words, longest first (保修期 is taken out of a question before 保修). */
    zhByLength: [...new Set(groups.flatMap((g) => g.zh))].sort((x, y) => [...y].length - [...x].length),
    /** Words of asking, not what is asked about (they make no concept of a question): concept-words.ts */
    asking: askingWords(),
    enTokens: new Set(groups.flatMap((g) => g.en.flat())),
  };
}

/** The lexicon's Chinese words, longest first (compiled on first use, like the rest of the lexicon). */
export const zhWordsByLength = (): readonly string[] => lexicon().zhByLength;

/**
 * The Chinese concepts of `text` (the lexicon's words already taken out): jieba's words of two or
 * more characters, and runs of single characters it cut apart (比特|币 stays 比特, 刻|字 → 刻字).
 */
function hanConcepts(text: string): string[] {
  const asking = lexicon().asking;
  const out: string[] = [];
  for (const run of text.match(/\p{Script=Han}+/gu) ?? []) {
    let single = '';
    const flush = () => {
      if ([...single].length >= 2 && !asking.has(single)) out.push(single);
      single = '';
    };
    for (const w of hanWords(run)) {
      if (asking.has(w) || tokenize(w).length === 0) {
        flush();
        continue;
      }
      if ([...w].length === 1) single += w;
      else {
        flush();
        out.push(w);
      }
    }
    flush();
  }
  return out;
}

export interface Expansion {
  /** the question's own tokens */
  terms: string[];
  /** tokens the lexicon adds (not among `terms`), each with its weight (1, or CHAR_SHARE for a character) */
  added: Array<[string, number]>;
  /**
   * What each token of `terms` and `added` counts with in ranking: the question's own words each
   * count; a word the lexicon added counts with the question's word of its group (the best of
   * them in a passage, not their sum), so a passage that names many payment methods does not
   * outweigh one that answers the rest of the question.
   */
  group: Map<string, string>;
  /**
   * What the question asks about, for deciding whether a passage answers it: one entry per group
   * the question touches (any of the group's words counts), and one per content word of the
   * question in no group (that word itself; Chinese characters the dictionary did not know are
   * kept together: 线|下|门|店 is one concept, 线下门店).
   */
  concepts: string[][];
  /**
   * How much each concept weighs in `coverage` (same order): 1 for a lexicon group and an English
   * word, a Chinese word by how rare it is in general Chinese (jieba's IDF table, general-idf.ts):
   * 如果 and 喜欢 say little about what is asked, 门店 and 比特币 say what it is about.
   */
  weights: number[];
  /** how many of `concepts` are lexicon groups (they come first; the rest are words in no group) */
  grouped: number;
  /** misspelt words and what they were read as (spelling.ts; null: a function word, dropped) */
  corrected?: Array<[string, string | null]>;
}

/** Every English token of the lexicon's groups (spelling.ts corrects a typo towards them first). */
export const lexiconTokens = (): ReadonlySet<string> => lexicon().enTokens;

/** A question's tokens with its misspelt ones read as corrected (null: dropped). */
const fixed = (toks: string[], fix?: ReadonlyMap<string, string | null>): string[] =>
  fix?.size ? toks.flatMap((t) => (fix.has(t) ? (fix.get(t) === null ? [] : [fix.get(t)!]) : [t])) : toks;

/** The question's tokens, the lexicon's additions and the question's concepts. */
export function expandQuery(query: string, fix?: ReadonlyMap<string, string | null>): Expansion {
  const { groups, zhByLength, asking } = lexicon();
  const toks = fixed(tokenize(query), fix);
  const terms = [...new Set(toks)];
  const lower = query.normalize('NFKC').toLowerCase();
  let text = lower;
  const covered = new Set<string>();
  const concepts: string[][] = [];
  const weights: number[] = [];
  const added = new Map<string, number>();
  // a word of a matched phrase means only the phrase ("customer service" is not "customs")
  const inPhrase = new Set(groups.flatMap((g) => g.en.filter((seq) => seq.length > 1 && hasSeq(toks, seq)).flat()));
  const group = new Map<string, string>();
  for (const [gi, g] of groups.entries()) {
    const enHit = g.en.filter((seq) => (seq.length > 1 || !inPhrase.has(seq[0])) && hasSeq(toks, seq));
    const rawHit = g.raw.filter((r) => r.test(lower));
    const zhHit = g.zh.filter((w) => lower.includes(w));
    if (!enHit.length && !rawHit.length && !zhHit.length) continue;
    for (const seq of enHit) for (const w of seq) covered.add(w);
    for (const r of rawHit) text = text.replace(new RegExp(r.source, 'gu'), ' ');
    if (g.concept) {
      concepts.push(g.marks.length ? g.marks : g.en.flat());
      const said = enHit.flat();
      weights.push(said.length && !zhHit.length && !rawHit.length && said.every((w) => GENERIC.has(w)) ? WEAK_WEIGHT : 1);
    }
    // a group that is no concept (how long, when) adds its words at half weight
    const share = g.concept ? 1 : 0.5;
    for (const [t, w] of g.tokens) if (!terms.includes(t)) added.set(t, Math.max(w * share, added.get(t) ?? 0));
    // the words the group adds count with the question's first word of the group (max, not sum)
    const own = [...enHit.flat(), ...zhHit.flatMap((w) => tokenize(w, { chars: false }))].find((t) => terms.includes(t));
    const key = own ?? `g${gi}`;
    for (const [t] of g.tokens) if (!terms.includes(t) && !group.has(t)) group.set(t, key);
  }
  for (const t of terms) group.set(t, t);
  // the dictionary's Chinese words are concepts already: what is left of the Chinese text
  for (const w of zhByLength) if (text.includes(w)) text = text.split(w).join(' ');
  const grouped = concepts.length;
  for (const w of new Set(hanConcepts(text))) {
    concepts.push([w]);
    weights.push(generalWeight(w));
  }
  // English (and other spaced) words in no group
  for (const w of new Set(fixed(tokenize(text.replace(/\p{Script=Han}+/gu, ' ')), fix))) {
    // a word of one letter (chat-speak u, r) names nothing
    if (covered.has(w) || asking.has(w) || /^\p{L}$/u.test(w)) continue;
    concepts.push([w]);
    weights.push(GENERIC.has(w) ? WEAK_WEIGHT : 1);
  }
  const corrected = fix?.size ? [...fix] : undefined;
  return { terms, added: [...added], concepts, group, weights, grouped, ...(corrected ? { corrected } : {}) };
}

// what a passage holds of a question's concepts: coverage.ts
export { conceptsIn, coverage } from './coverage.js';
