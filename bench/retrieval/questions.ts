/**
 * The labelled question set of the retrieval bench: what customers ask, written by hand in
 * English and Chinese, each labelled with the topic of the demo policy that answers it
 * (server/db/demo/knowledge.ts: one policy per topic per shop). Some questions name a value of
 * the shop (a carrier, a payment method, a country, a product) taken from the shop's profile;
 * the wording is deliberately not the policy's own (synonyms, other phrasing, typos left out).
 *
 * Each template is asked of several demo shops, so the set has well over 200 questions. Slices
 * (issue 21): the same language, the other language (the 'international' topic is left out: the
 * Chinese shops' policy of that topic is about invoices), hard paraphrases with typos, document
 * rows (a line of a learned document, retrieval.bench.ts) and questions nothing answers.
 */
import type { ShopProfile, Topic } from '../../server/db/demo/knowledge.js';

type Template = [Topic, string | ((p: ShopProfile) => string | null)];

const nth = <T>(xs: T[], i: number): T | undefined => xs[i % Math.max(xs.length, 1)];

export const EN: Template[] = [
  ['returns', 'How many days do I have to return something?'],
  ['returns', "What's your return window?"],
  ['returns', 'I want to send back a sweater I bought, is that possible?'],
  ['returns', 'Who pays for return shipping?'],
  ['returns', 'When will I get my money back after returning an order?'],
  ['returns', 'Is there a restocking fee?'],
  ['shipping', 'How long does delivery take?'],
  ['shipping', 'Which carriers do you ship with?'],
  ['shipping', 'Is shipping free?'],
  ['shipping', 'If I order this afternoon, when will it be sent out?'],
  ['shipping', (p) => `Do you deliver with ${p.carriers[0].name}?`],
  ['international', (p) => (p.countries.length ? `Do you ship to ${p.countries[0].country}?` : null)],
  ['international', (p) => (p.countries.length > 1 ? `How long does delivery to ${p.countries[1].country} take?` : null)],
  ['international', (p) => (p.countries.length > 2 ? `Will I have to pay import duties in ${p.countries[2].country}?` : null)],
  ['international', 'Do you ship to other countries?'],
  ['payment', 'What payment methods do you accept?'],
  ['payment', (p) => `Can I pay with ${nth(p.payments, 1)}?`],
  ['payment', 'Can I split the payment into instalments?'],
  ['payment', 'When is my card charged?'],
  ['payment', 'Do you take cash on delivery?'],
  ['warranty', 'How long is the warranty?'],
  ['warranty', 'My item broke after a few months, is it covered?'],
  ['warranty', 'How do I make a warranty claim?'],
  ['warranty', 'Does the guarantee cover water damage?'],
  ['sizes', 'What size should I order?'],
  ['sizes', 'Do your clothes run small or large?'],
  ['sizes', 'How do I measure my chest for the right size?'],
  ['sizes', "I'm between a medium and a large, which one should I take?"],
  ['changes', 'Can I cancel my order?'],
  ['changes', 'I entered the wrong address, can I still change it?'],
  ['changes', 'How long after ordering can I make changes to my order?'],
  ['tracking', 'Where is my parcel?'],
  ['tracking', 'How do I track my order?'],
  ['tracking', "My tracking number hasn't updated for a week"],
  ['damaged', 'The item arrived broken'],
  ['damaged', 'You sent me the wrong product'],
  ['damaged', 'The box was crushed and the product inside is damaged, what now?'],
  ['discounts', 'Can I combine two promo codes?'],
  ['discounts', 'I forgot to enter my discount code, can you add it now?'],
  ['discounts', 'The price dropped right after I bought it, can I get the difference back?'],
  ['discounts', 'Do you have a discount for a first order?'],
  ['contact', 'What are your customer service hours?'],
  ['contact', 'How quickly do you answer emails?'],
  ['contact', 'Is there someone I can chat with in the evening?'],
  ['exchanges', 'Can I swap this for another colour?'],
  ['exchanges', 'Can I exchange my jacket for a different size?'],
  ['exchanges', 'Is an exchange free of charge?'],
  ['care', (p) => (p.long ? `How should I clean the ${p.products[0]}?` : null)],
  ['care', (p) => (p.long && p.products.length > 1 ? `How do I look after my ${p.products[1]}?` : null)],
];

export const ZH: Template[] = [
  ['returns', '买了不合适可以退吗？'],
  ['returns', '几天内可以无理由退货？'],
  ['returns', '退货的运费谁出？'],
  ['returns', '退款多久到账？'],
  ['returns', '定制的商品能退吗？'],
  ['shipping', '什么时候发货？'],
  ['shipping', '用的是什么快递？'],
  ['shipping', '买多少钱包邮？'],
  ['shipping', '新疆能送吗，要几天？'],
  ['shipping', (p) => `能发${p.carriers[0].name}吗？`],
  ['international', '可以开发票吗？'],
  ['international', '电子发票怎么申请？'],
  ['international', '能开增值税专用发票吗？'],
  ['payment', (p) => `可以用${nth(p.payments, 1)}付款吗？`],
  ['payment', '支持分期付款吗？'],
  ['payment', '能货到付款吗？'],
  ['payment', '下单后多久要付款？'],
  ['warranty', '保修多长时间？'],
  ['warranty', '质保期内出故障怎么办？'],
  ['warranty', '进水了还能保修吗？'],
  ['warranty', '怎么申请质保？'],
  ['sizes', '我该穿什么尺码？'],
  ['sizes', '衣服偏大还是偏小？'],
  ['sizes', '胸围怎么量？'],
  ['changes', '付款后还能改地址吗？'],
  ['changes', '订单怎么取消？'],
  ['changes', '下单多久内可以修改订单？'],
  ['tracking', '我的快递到哪了？'],
  ['tracking', '物流一直不更新怎么办？'],
  ['tracking', '在哪里看物流单号？'],
  ['damaged', '收到的商品破了怎么办？'],
  ['damaged', '发错货了怎么处理？'],
  ['damaged', '少发了一件怎么办？'],
  ['discounts', '优惠券能叠加吗？'],
  ['discounts', '刚买完就降价了能退差价吗？'],
  ['discounts', '有新人优惠吗？'],
  ['contact', '客服几点上班？'],
  ['contact', '晚上发消息有人回复吗？'],
  ['contact', '客服邮箱是多少？'],
  ['exchanges', '能换个颜色吗？'],
  ['exchanges', '换货要运费吗？'],
  ['exchanges', '尺码不对可以换吗？'],
  ['care', (p) => (p.long ? `${p.products[0]}怎么清洗？` : null)],
  ['care', (p) => (p.long && p.products.length > 1 ? `${p.products[1]}怎么保养？` : null)],
];

/**
 * Hard paraphrases with typos (issue 21): what customers type — misspelt words, no question mark,
 * other words than the policy's; Chinese with homophone typos and colloquial wording. Written
 * after the lexicon, not used to tune it.
 */
export const HARD_EN: Template[] = [
  ['returns', 'how many dayz do i have to retrun stuff'],
  ['returns', 'can i get a refnd if i dont like it'],
  ['shipping', 'when wil my order ship out'],
  ['shipping', 'wich delivery company do u use'],
  ['payment', 'can i pay in installmants'],
  ['payment', 'do u take paypall or credit cards'],
  ['warranty', 'is ther a guarentee if it breaks'],
  ['sizes', 'what sise should i get, im usually a medium'],
  ['changes', 'i need to cancle my order asap'],
  ['tracking', 'where is my packge, cant find tracking'],
  ['damaged', 'item came brokn in the box'],
  ['discounts', 'can i use 2 promo codes togther'],
  ['contact', 'what time does ur support open'],
  ['exchanges', 'can i swop for a bigger size'],
];
export const HARD_ZH: Template[] = [
  ['returns', '买的东西不想要了能退么'],
  ['returns', '退欵多久到'],
  ['shipping', '啥时候发货啊'],
  ['shipping', '走的哪个快地'],
  ['payment', '能不能分期付'],
  ['warranty', '坏了保不保修'],
  ['sizes', '我平时穿M码，选哪个码合适'],
  ['changes', '地址写错了咋改'],
  ['tracking', '包裹到哪了查不到'],
  ['damaged', '收到货是坏的咋办'],
  ['discounts', '两张卷能一起用不'],
  ['contact', '客服啥时候在线'],
  ['exchanges', '码数不对能换不'],
];

/** Questions nothing in a demo shop's knowledge answers (asked of every labelled shop, in both languages). */
export const UNANSWERABLE: string[] = [
  'Do you have a store I can visit in person?',
  'Is there a loyalty app for my phone?',
  'Do you sell gift vouchers for birthdays?',
  'Can I book a video call with a stylist?',
  'Are your factories certified fair trade?',
  'Do you give discounts to nurses?',
  'Can I pay with cryptocurrency?',
  'Do you plant a tree for every order?',
  '你们有线下体验店吗？',
  '可以预约设计师一对一咨询吗？',
  '产品有没有有机认证？',
  '支持数字人民币付款吗？',
  '老师有专属折扣吗？',
  '可以开直播带货合作吗？',
  '你们招不招兼职？',
  '能帮我刻个名字吗？',
];

export interface LabelledShop {
  id: number;
  profile: ShopProfile;
  /** policy id by topic */
  policies: Map<Topic, number>;
}

export interface Labelled {
  shopId: number;
  lang: 'en' | 'zh';
  question: string;
  topic: Topic;
  /** the policy that answers it */
  policyId: number;
  /** same: asked in the shop's language; cross: in the other; hard: paraphrases with typos */
  slice?: 'same' | 'cross' | 'hard';
}

/**
 * Every template asked of `perTemplate` shops (rotating), where it applies: `same` asks each
 * language's templates of shops of that language, `cross` the other language's fixed-wording
 * templates (a Chinese question of an English shop), `hard` the paraphrases with typos of each
 * shop's language.
 */
export function buildQuestions(shops: LabelledShop[], perTemplate = 3, slice: 'same' | 'cross' | 'hard' = 'same'): Labelled[] {
  const out: Labelled[] = [];
  for (const lang of ['en', 'zh'] as const) {
    const pool = shops.filter((s) => s.profile.lang === lang);
    if (!pool.length) continue;
    const templates =
      slice === 'cross' ? (lang === 'en' ? ZH : EN).filter(([topic, t]) => typeof t === 'string' && topic !== 'international') : slice === 'hard' ? (lang === 'en' ? HARD_EN : HARD_ZH) : lang === 'en' ? EN : ZH;
    let next = 0;
    templates.forEach(([topic, t]) => {
      let asked = 0;
      for (let tries = 0; tries < pool.length && asked < perTemplate; tries++) {
        const s = pool[next++ % pool.length];
        const question = typeof t === 'string' ? t : t(s.profile);
        const policyId = s.policies.get(topic);
        if (!question || !policyId) continue;
        out.push({ shopId: s.id, lang: slice === 'cross' ? (lang === 'en' ? 'zh' : 'en') : lang, question, topic, policyId, slice });
        asked++;
      }
    });
  }
  return out;
}
