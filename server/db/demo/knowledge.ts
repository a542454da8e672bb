/**
 * Demo knowledge worth retrieving: each demo shop gets its own knowledge, built from one profile
 * per shop (return window, carriers and delivery times, warranty, payment methods, sizes, …) so
 * that every policy, product policy, document and demo chat reply of a shop agrees with the
 * others. Douyin shops write in Chinese, the others in English. Deterministic: the profile is
 * drawn from a PRNG seeded by the shop's slug.
 *
 * The bench (bench/retrieval) asks its labelled questions against exactly these policies; the
 * questions are written there by hand, not derived from the policy wording.
 */
import { Rng } from './random.js';
import { CN_PRODUCTS, PRODUCTS } from './words.js';

export type Lang = 'en' | 'zh';

/** The knowledge topics: one policy each (the same key in both languages). */
export const TOPICS = [
  'returns', 'shipping', 'international', 'payment', 'warranty', 'sizes', 'changes', 'tracking', 'damaged', 'discounts', 'contact', 'exchanges', 'care',
] as const;
export type Topic = (typeof TOPICS)[number];

interface Carrier {
  name: string;
  days: string;
}

export interface ShopProfile {
  lang: Lang;
  /** currency symbol and code */
  cur: string;
  code: string;
  email: string;
  returnDays: number;
  refundDays: number;
  restockFee: number | null;
  freeReturns: boolean;
  cutoff: string;
  processingDays: number;
  carriers: Carrier[];
  freeShipOver: number;
  shipFee: number;
  countries: Array<{ country: string; carrier: string; days: string; duties: boolean }>;
  payments: string[];
  installments: string | null;
  chargeAtShipping: boolean;
  warrantyMonths: number;
  warrantyItems: string;
  fit: 'true' | 'small' | 'large';
  sizes: Array<[string, number, number]>;
  changeHours: number;
  damageDays: number;
  priceAdjustDays: number;
  hours: string;
  tz: string;
  emailReplyHours: number;
  exchangeDays: number;
  products: string[];
  /** long policies (product care guide, many countries) on about a third of the shops */
  long: boolean;
}

export interface DemoShop {
  id: number;
  type: number;
  country: string;
  slug: string;
}

const hash = (s: string) => {
  let h = 2166136261;
  for (const ch of s) h = Math.imul(h ^ ch.codePointAt(0)!, 16777619) >>> 0;
  return h;
};

const EN_CARRIERS: Record<string, Carrier[]> = {
  US: [{ name: 'UPS Ground', days: '3–5 business days' }, { name: 'USPS Priority Mail', days: '2–3 business days' }, { name: 'FedEx 2Day', days: '2 business days' }, { name: 'FedEx Standard Overnight', days: 'the next business day' }],
  GB: [{ name: 'Royal Mail Tracked 48', days: '2–3 working days' }, { name: 'DPD Next Day', days: 'the next working day' }, { name: 'Evri', days: '3–5 working days' }],
  DE: [{ name: 'DHL Paket', days: '1–3 business days' }, { name: 'DPD Classic', days: '2–4 business days' }, { name: 'Hermes', days: '3–5 business days' }],
  FR: [{ name: 'Colissimo', days: '2–4 business days' }, { name: 'Chronopost', days: 'the next business day' }, { name: 'Mondial Relay', days: '3–6 business days' }],
  NL: [{ name: 'PostNL', days: '1–2 business days' }, { name: 'DHL Parcel', days: '1–3 business days' }],
  CA: [{ name: 'Canada Post Expedited', days: '3–7 business days' }, { name: 'Purolator Express', days: '1–3 business days' }, { name: 'UPS Standard', days: '3–6 business days' }],
  AU: [{ name: 'Australia Post Parcel Post', days: '3–6 business days' }, { name: 'StarTrack Express', days: '1–3 business days' }, { name: 'Sendle', days: '2–5 business days' }],
  JP: [{ name: 'Yamato Transport', days: '1–2 days' }, { name: 'Japan Post Yu-Pack', days: '2–4 days' }, { name: 'Sagawa Express', days: '1–3 days' }],
  SG: [{ name: 'Ninja Van', days: '1–3 working days' }, { name: 'SingPost', days: '2–4 working days' }, { name: 'J&T Express', days: '1–2 working days' }],
  BR: [{ name: 'Correios SEDEX', days: '2–5 business days' }, { name: 'Correios PAC', days: '5–12 business days' }, { name: 'Loggi', days: '2–5 business days' }],
};
const CURRENCY: Record<string, [string, string]> = {
  US: ['$', 'USD'], GB: ['£', 'GBP'], DE: ['€', 'EUR'], FR: ['€', 'EUR'], NL: ['€', 'EUR'], CA: ['C$', 'CAD'], AU: ['A$', 'AUD'], JP: ['¥', 'JPY'], SG: ['S$', 'SGD'], BR: ['R$', 'BRL'], CN: ['¥', 'CNY'],
};
const TZ: Record<string, string> = { US: 'ET', GB: 'UK time', DE: 'CET', FR: 'CET', NL: 'CET', CA: 'ET', AU: 'AEST', JP: 'JST', SG: 'SGT', BR: 'BRT', CN: 'CST' };
const EN_PAYMENTS = ['Visa', 'Mastercard', 'American Express', 'PayPal', 'Apple Pay', 'Google Pay', 'Shop Pay', 'Discover'];
const EN_INSTALLMENTS = ['Klarna (four interest-free payments)', 'Afterpay (four payments every two weeks)', 'Affirm (monthly payments over 3, 6 or 12 months)'];
const ABROAD = ['Canada', 'United Kingdom', 'Germany', 'France', 'Australia', 'Japan', 'Singapore', 'Netherlands', 'Ireland', 'Sweden', 'Spain', 'Italy', 'Mexico', 'Brazil', 'New Zealand'];
const ABROAD_CARRIER = ['DHL Express', 'UPS Worldwide Saver', 'FedEx International Priority', 'USPS Priority Mail International'];

const ZH_CARRIERS: Carrier[] = [
  { name: '顺丰速运', days: '江浙沪次日达，其他地区1-2天' },
  { name: '京东物流', days: '1-3天送达' },
  { name: '中通快递', days: '2-4天送达' },
  { name: '圆通速递', days: '2-5天送达' },
  { name: '韵达快递', days: '3-5天送达' },
  { name: '极兔速递', days: '3-6天送达' },
];
const ZH_PAYMENTS = ['微信支付', '支付宝', '抖音支付', '银联云闪付', '信用卡'];
const ZH_INSTALLMENTS = ['花呗分期（3期、6期免息）', '抖音月付（最长12期）', '信用卡分期（6期免息）'];

/** The shop's profile: every value its knowledge states. */
export function profileOf(shop: DemoShop): ShopProfile {
  const rng = new Rng(hash(`knowledge:${shop.slug}`));
  const zh = shop.type === 2;
  const country = zh ? 'CN' : EN_CARRIERS[shop.country] ? shop.country : 'US';
  const [cur, code] = CURRENCY[country] ?? ['$', 'USD'];
  const pickN = <T,>(list: readonly T[], n: number) => {
    const pool = [...list];
    const out: T[] = [];
    while (out.length < n && pool.length) out.push(pool.splice(rng.int(0, pool.length - 1), 1)[0]);
    return out;
  };
  const scale = code === 'JPY' ? 100 : 1;
  const carriers = zh ? pickN(ZH_CARRIERS, rng.int(2, 3)) : pickN(EN_CARRIERS[country], Math.min(EN_CARRIERS[country].length, rng.int(2, 3)));
  const long = rng.chance(0.35);
  const sizeBase = rng.int(84, 90);
  return {
    lang: zh ? 'zh' : 'en',
    cur,
    code,
    email: zh ? `kefu@${shop.slug}.cn` : `support@${shop.slug}.com`,
    returnDays: zh ? rng.pick([7, 15, 30]) : rng.pick([14, 30, 45, 60, 90]),
    refundDays: rng.pick([3, 5, 7, 10]),
    restockFee: rng.chance(0.3) ? rng.pick([10, 15, 20]) : null,
    freeReturns: rng.chance(0.5),
    cutoff: zh ? rng.pick(['16:00', '17:00', '18:00']) : rng.pick(['12 pm', '1 pm', '2 pm', '3 pm']),
    processingDays: rng.int(1, 3),
    carriers,
    freeShipOver: zh ? rng.pick([49, 59, 88, 99, 199]) : rng.pick([35, 50, 75, 100, 150]) * scale,
    shipFee: zh ? rng.pick([6, 8, 10, 12]) : rng.pick([4.95, 5.99, 7.5, 9.95]) * scale,
    countries: zh
      ? []
      : pickN(ABROAD.filter((c) => !c.startsWith(country)), long ? 12 : 4).map((c) => ({
          country: c,
          carrier: rng.pick(ABROAD_CARRIER),
          days: `${rng.int(3, 6)}–${rng.int(7, 14)} business days`,
          duties: rng.chance(0.5),
        })),
    payments: zh ? pickN(ZH_PAYMENTS, rng.int(3, 5)) : pickN(EN_PAYMENTS, rng.int(3, 6)),
    installments: rng.chance(0.6) ? (zh ? rng.pick(ZH_INSTALLMENTS) : rng.pick(EN_INSTALLMENTS)) : null,
    chargeAtShipping: rng.chance(0.4),
    warrantyMonths: rng.pick([6, 12, 18, 24, 36]),
    warrantyItems: zh ? rng.pick(['电子产品与小家电', '全部商品', '家具与灯具']) : rng.pick(['electronics and small appliances', 'every product we sell', 'bags, shoes and outerwear']),
    fit: rng.pick(['true', 'small', 'large'] as const),
    sizes: ['XS', 'S', 'M', 'L', 'XL', 'XXL'].map((s, i) => [s, sizeBase + i * 5, sizeBase - 16 + i * 5] as [string, number, number]),
    changeHours: rng.pick([1, 2, 12, 24]),
    damageDays: rng.pick([2, 3, 7, 14]),
    priceAdjustDays: rng.pick([7, 14, 30]),
    hours: zh ? rng.pick(['每天 9:00-22:00', '周一至周六 9:00-21:00', '每天 8:30-23:30']) : rng.pick(['Monday to Friday, 9 am to 6 pm', 'every day, 8 am to 8 pm', 'Monday to Saturday, 10 am to 7 pm']),
    tz: TZ[country] ?? 'ET',
    emailReplyHours: rng.pick([12, 24, 48]),
    exchangeDays: rng.pick([14, 30, 60]),
    products: zh ? pickN(CN_PRODUCTS, long ? 8 : 3) : pickN(PRODUCTS, long ? 10 : 3),
    long,
  };
}

const money = (p: ShopProfile, n: number) => (p.lang === 'zh' ? `${n}元` : `${p.cur}${Number.isInteger(n) ? n : n.toFixed(2)}`);
const list = (items: string[], and = 'and') => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} ${and} ${items.at(-1)}`);

// product care, for the long care guides
const CARE_EN: Record<string, string> = {
  'Hiking Backpack 30L': 'Empty all pockets and shake out sand after every trip. Wash by hand in lukewarm water with a mild soap; never put the backpack in a washing machine, which damages the frame sheet and the waterproof coating. Hang it upside down to dry out of direct sunlight. Re-proof the fabric once a season with a spray-on water repellent.',
  'Ceramic Pour-over Set': 'The dripper and the carafe are dishwasher safe on the top rack. Avoid sudden temperature changes: do not pour boiling water into a cold dripper straight from the fridge. Descale the carafe once a month with a spoon of citric acid in warm water.',
  'Organic Cat Treats': 'Keep the pouch closed with its zip and store it in a cool, dry place. Once opened, use within six weeks. Do not refrigerate, as condensation softens the treats.',
  'Wireless Earbuds Pro': 'Clean the ear tips weekly with a dry cotton swab; they can be rinsed with water when removed from the earbuds, but dry them fully before refitting. Keep the charging case contacts free of dust. Charge to at least 50 percent before storing the earbuds for several weeks.',
  'Yoga Mat Non-slip': 'Wipe the mat after each session with a cloth and a mix of water and a few drops of mild soap. Do not use alcohol or essential oils, which break down the natural rubber. Roll it with the top side out and keep it away from radiators.',
  'Linen Bed Sheets': 'Machine wash at 40 °C with similar colours and a mild detergent; do not use bleach. Tumble dry on low or line dry; linen softens with every wash. Iron while slightly damp if you prefer a crisp look.',
  'LED Desk Lamp': 'Dust the lamp head with a dry microfibre cloth. Never spray cleaner directly on the lamp. The LED module lasts about 50,000 hours and is not user-replaceable; contact us if it flickers.',
  'Stainless Water Bottle': 'Wash the bottle by hand with warm soapy water and a bottle brush; the powder-coated outside is not dishwasher safe. Do not freeze the bottle or use it for carbonated drinks. Remove the silicone seal from the lid monthly to clean it.',
  'Silk Scarf': 'Dry clean only, or hand wash in cold water with a silk detergent. Never wring the scarf; roll it in a towel to remove water and dry flat. Iron on the silk setting from the reverse side.',
  'Kids Rain Boots': 'Rinse mud off with cold water and let the boots dry at room temperature, away from heaters, which crack the rubber. The removable insoles can be hand washed. A white bloom on the rubber is natural and wipes off with a damp cloth.',
  'Vitamin C Serum': 'Keep the bottle tightly closed, away from light and heat; a cupboard is better than the bathroom shelf. Use within three months of opening. A light amber colour is normal; if the serum turns dark brown, stop using it.',
  'Smart Plant Sensor': 'The sensor is splash-proof, not waterproof: push it into the soil only up to the marked line. Replace the CR2032 battery once a year. Wipe the probe clean when moving it between plants.',
  'Leather Wallet': 'Wipe with a dry cloth and condition the leather twice a year with a colourless leather balm. Keep it away from water; if it gets wet, let it dry naturally at room temperature.',
  'Bluetooth Speaker': 'The speaker is rated IP67: it can be submerged in fresh water up to 1 metre for 30 minutes. Rinse it with fresh water after contact with salt water or chlorine and let it dry before charging. Close the USB-C flap before it gets wet.',
  'Running Shoes': 'Remove the insoles and laces and hand wash the shoes in cold water with a soft brush. Do not machine wash or tumble dry them. Stuff them with newspaper to keep their shape while they dry. Replace running shoes after about 600 to 800 kilometres.',
};
const CARE_ZH: Record<string, string> = {
  '保温杯 500ml': '首次使用前请用温水加少量洗洁精清洗。杯身不可放入洗碗机或微波炉。请勿装入碳酸饮料、牛奶长时间存放。杯盖硅胶圈每月取下清洗一次。',
  '无线蓝牙耳机': '耳机防水等级为IPX4，可防汗防溅水，但不可浸泡。请定期用干棉签清洁充电触点。长时间不用时请保持50%左右电量。',
  '儿童雨靴': '用清水冲洗泥污后放在阴凉处自然晾干，不可暴晒或靠近暖气。鞋垫可拆下手洗。',
  '纯棉四件套': '首次使用前建议单独清洗一次。水温不超过40度，使用中性洗涤剂，不可漂白。反面晾晒，避免暴晒褪色。',
  '坚果礼盒': '开封后请密封保存，置于阴凉干燥处，建议一个月内食用完毕。如发现受潮变软，可用烤箱低温烘烤5分钟。',
  '护手霜套装': '请存放在阴凉处，避免阳光直射。开封后建议12个月内使用完毕。如出现红肿刺痒请立即停止使用。',
  '电动牙刷': '每次使用后用清水冲洗刷头并甩干。刷头建议每3个月更换一次。机身防水等级IPX7，但充电底座不可沾水。',
  '羊毛围巾': '建议干洗，或用冷水加羊毛专用洗涤剂轻柔手洗，不可拧干，平铺晾干。熨烫请使用低温并垫布。',
  '速干运动T恤': '可机洗，水温不超过30度，请勿使用柔顺剂，柔顺剂会影响速干性能。不可烘干，挂起晾干即可。',
  '陶瓷餐具套装': '可放入洗碗机和微波炉，但金边款不可放入微波炉。避免冷热骤变，以免开裂。',
};

interface PolicyText {
  topic: Topic;
  title: string;
  content: string;
  channel: 'chat' | 'email';
}

function englishPolicies(p: ShopProfile): PolicyText[] {
  const c = (topic: Topic, title: string, content: string, channel: 'chat' | 'email' = 'chat'): PolicyText => ({ topic, title, content, channel });
  const carriers = p.carriers.map((x) => `${x.name} (${x.days})`);
  const out: PolicyText[] = [
    c('returns', 'Return policy', [
      `You can return unused items in their original packaging within ${p.returnDays} days of delivery.`,
      p.freeReturns ? 'Returns are free: print the prepaid return label from your order page.' : `Return shipping costs ${money(p, p.shipFee)}, deducted from the refund, unless the item is faulty.`,
      p.restockFee ? `Opened electronics carry a ${p.restockFee}% restocking fee.` : 'We charge no restocking fee.',
      `To start a return, open the order page and choose "Return items", or email ${p.email} with your order number.`,
      `Once the parcel reaches our warehouse we inspect it and refund the original payment method within ${p.refundDays} business days; your bank may take a few more days to show it.`,
      'Final-sale items, gift cards and personalised products cannot be returned.',
    ].join(' ')),
    c('shipping', 'Shipping, carriers and delivery times', [
      `Orders placed before ${p.cutoff} ${p.tz} on a business day leave our warehouse the same day; later orders ship within ${p.processingDays} business day${p.processingDays > 1 ? 's' : ''}.`,
      `Our carriers are ${list(carriers)}.`,
      `Standard shipping is free on orders over ${money(p, p.freeShipOver)}; below that it costs ${money(p, p.shipFee)}. Faster services are priced at checkout.`,
      'We cannot deliver to P.O. boxes or freight forwarders.',
    ].join(' ')),
    c('international', 'International shipping', [
      `Besides domestic orders we ship to ${p.countries.length} other countries: ${list(p.countries.map((x) => x.country))}. Prices are shown in ${p.code}; your card may convert them.`,
      ...p.countries.map((x) => `${x.country}: ${x.carrier}, usually ${x.days}. ${x.duties ? `Import duties and taxes for ${x.country} are collected at checkout, so nothing is due on delivery.` : `Import duties and taxes for ${x.country} are not included and are paid to the carrier on delivery.`}`),
      'Countries not listed here: we do not ship there yet.',
    ].join('\n\n')),
    c('payment', 'Payment methods', [
      `We accept ${list(p.payments)}.`,
      p.installments ? `You can also buy now and pay later: spread the cost with ${p.installments}, chosen at checkout.` : 'We do not offer instalment or buy-now-pay-later plans.',
      p.chargeAtShipping ? 'Your card is authorised when you order and charged only when the order ships.' : 'Your payment is taken when you place the order.',
      `All prices are in ${p.code} and include VAT where it applies; a VAT invoice is attached to the shipping confirmation email.`,
      'We do not accept cash on delivery, cheques or bank transfers.',
    ].join(' ')),
    c('warranty', 'Warranty', [
      `We give a ${p.warrantyMonths}-month warranty on ${p.warrantyItems}, counted from the delivery date.`,
      'It covers defects in materials and workmanship. It does not cover normal wear, accidents, water damage beyond the product rating, or repairs made by someone else.',
      `To make a claim, email ${p.email} with your order number, a photo or short video of the fault, and a description. We repair or replace the item, or refund it when neither is possible.`,
    ].join(' ')),
    c('sizes', 'Size guide', [
      p.fit === 'true' ? 'Our clothing runs true to size.' : p.fit === 'small' ? 'Our clothing runs small: if you are between sizes, take the next size up.' : 'Our clothing has a relaxed fit and runs large: if you are between sizes, take the smaller one.',
      'Measure your chest at its fullest point under the arms, and your waist at the narrowest point.',
      ...p.sizes.map(([s, chest, waist]) => `${s}: chest ${chest}–${chest + 4} cm (${Math.round(chest / 2.54)}–${Math.round((chest + 4) / 2.54)} in), waist ${waist}–${waist + 4} cm.`),
    ].join('\n')),
    c('changes', 'Order changes and cancellation', [
      `You can change the shipping address or cancel an order within ${p.changeHours} hour${p.changeHours > 1 ? 's' : ''} of placing it, from the order confirmation email or by contacting us.`,
      'After that the order is being packed and cannot be changed; you can refuse the delivery or return it once it arrives.',
      'Cancelled orders are refunded in full to the original payment method.',
    ].join(' ')),
    c('tracking', 'Order tracking', [
      'As soon as your order ships you receive an email with the carrier and a tracking link.',
      'You can also track it on our Track order page with your order number and email address.',
      'Tracking can take up to 24 hours to show the first scan. If it has not moved for five business days, contact us and we will open an investigation with the carrier.',
    ].join(' ')),
    c('damaged', 'Damaged or wrong items', [
      `If your parcel arrives damaged, or you received the wrong item, tell us within ${p.damageDays} days of delivery.`,
      'Send a photo of the item and of the box with the shipping label, with your order number.',
      'We then send a replacement at no cost, or refund you in full if you prefer; you do not need to send the damaged item back.',
    ].join(' ')),
    c('discounts', 'Discount codes and promotions', [
      'Only one discount code can be used per order, and codes cannot be added after the order is placed.',
      `If an item you bought is reduced within ${p.priceAdjustDays} days of your purchase, we refund the difference once: just ask.`,
      'Sign up for our newsletter to get 10% off your first order. Discounts do not apply to gift cards.',
    ].join(' ')),
    c('contact', 'Customer service hours', [
      `Our support team is available ${p.hours} (${p.tz}) in the chat on our website.`,
      `Emails to ${p.email} are answered within ${p.emailReplyHours} hours, including weekends.`,
      'Outside these hours the assistant in the chat answers common questions and passes anything else to the team.',
    ].join(' '), 'email'),
    c('exchanges', 'Exchanges', [
      `Need another size or colour? You can exchange an item once for free within ${p.exchangeDays} days of delivery.`,
      'Choose "Exchange" on the order page; we ship the new item as soon as the original is scanned by the carrier.',
      'If the new size is out of stock we refund the item instead.',
    ].join(' ')),
  ];
  if (p.long) {
    out.push(c('care', 'Product care guide', ['How to look after what you bought from us, product by product.', ...p.products.map((x) => `${x}\n${CARE_EN[x] ?? 'Wipe clean with a dry cloth.'}`)].join('\n\n')));
  }
  return out;
}

function chinesePolicies(p: ShopProfile): PolicyText[] {
  const c = (topic: Topic, title: string, content: string, channel: 'chat' | 'email' = 'chat'): PolicyText => ({ topic, title, content, channel });
  const out: PolicyText[] = [
    c('returns', '退换货政策', [
      `本店支持签收后${p.returnDays}天内无理由退货，商品需保持完好、吊牌和配件齐全、不影响二次销售。`,
      p.freeReturns ? '本店已开通运费险，退货运费由保险承担。' : `非质量问题退货的运费由买家承担（约${p.shipFee}元）；质量问题由本店承担运费。`,
      '申请退货请在订单页点击“申请售后”，填写原因并上传照片。',
      `仓库收到退货并验收后，退款会在${p.refundDays}个工作日内原路退回，具体到账时间以银行为准。`,
      '定制商品、贴身衣物和已拆封的食品不支持无理由退货。',
    ].join('')),
    c('shipping', '发货与配送', [
      `当天${p.cutoff}前付款的订单当天发货，之后付款的订单在${p.processingDays}个工作日内发货。`,
      `默认合作快递：${p.carriers.map((x) => `${x.name}（${x.days}）`).join('、')}。`,
      `订单满${p.freeShipOver}元包邮，不满${p.freeShipOver}元收取运费${p.shipFee}元。新疆、西藏等偏远地区需另补运费，配送时间延长2-3天。`,
      '暂不支持港澳台及海外地区配送。',
    ].join('')),
    c('payment', '支付方式', [
      `本店支持${p.payments.join('、')}付款。`,
      p.installments ? `同时支持${p.installments}。` : '本店暂不支持分期付款。',
      '下单后请在30分钟内完成支付，超时订单会自动取消。',
      '不支持货到付款。',
    ].join('')),
    c('international', '发票说明', [
      '本店所有商品均可开具电子普通发票，个人和企业均可申请。',
      '请在订单确认收货后，于订单详情页点击“申请发票”，填写抬头和税号，发票将在3个工作日内发送到您的邮箱。',
      '如需开具增值税专用发票，请联系客服并提供企业开票信息。',
    ].join('')),
    c('warranty', '质保说明', [
      `本店${p.warrantyItems}提供${p.warrantyMonths}个月质保（保修期），自签收之日起计算。`,
      '质保期内因产品本身质量问题出现故障，可免费维修或更换。',
      '人为损坏、进水、私自拆修不在质保范围内。',
      `申请质保请联系在线客服或发送邮件至${p.email}，提供订单号和故障照片或视频。`,
    ].join('')),
    c('sizes', '尺码表', [
      p.fit === 'true' ? '本店服装尺码标准，按平时尺码选购即可。' : p.fit === 'small' ? '本店服装版型偏小，介于两个尺码之间建议选大一码。' : '本店服装版型宽松偏大，介于两个尺码之间建议选小一码。',
      '测量方法：胸围在腋下最丰满处水平测量一周，腰围在腰部最细处测量。',
      ...p.sizes.map(([s, chest, waist]) => `${s}码：胸围${chest}-${chest + 4}厘米，腰围${waist}-${waist + 4}厘米。`),
    ].join('\n')),
    c('changes', '修改与取消订单', [
      `付款后${p.changeHours}小时内可以修改收货地址或取消订单，请在订单页操作或联系客服。`,
      '订单进入打包环节后无法修改，可在收到商品后申请退货。',
      '取消的订单款项将全额原路退回。',
    ].join('')),
    c('tracking', '物流查询', [
      '订单发货后，您可以在订单详情页查看快递公司和物流单号，点击即可查看实时物流。',
      '发货后24小时内物流信息可能未更新，请耐心等待。',
      '如物流超过3天没有更新，请联系客服，我们会帮您联系快递公司核实。',
    ].join('')),
    c('damaged', '商品损坏与错发处理', [
      `收到的商品如有破损、损坏、少件或发错货，请在签收后${p.damageDays}天内联系客服。`,
      '请提供订单号、商品照片和外包装快递面单照片。',
      '核实后我们会为您免费补发或全额退款，无需寄回破损商品。',
    ].join('')),
    c('discounts', '优惠券与活动', [
      '每个订单只能使用一张店铺优惠券，下单后不能再补用优惠券。',
      `购买后${p.priceAdjustDays}天内如商品降价，可联系客服申请退还差价一次。`,
      '关注店铺即可领取新人专享5元无门槛券。',
    ].join('')),
    c('contact', '客服时间', [
      `在线客服工作时间为${p.hours}。`,
      `非工作时间可留言或发邮件至${p.email}，我们会在${p.emailReplyHours}小时内回复。`,
      '智能客服全天在线，可解答常见问题。',
    ].join(''), 'email'),
    c('exchanges', '换货说明', [
      `签收后${p.exchangeDays}天内，尺码或颜色不合适可免费换货一次。`,
      '请在订单页选择“换货”，寄回原商品后我们会在收到退件当天发出新商品。',
      '如所换尺码缺货，将为您办理退款。',
    ].join('')),
  ];
  if (p.long) {
    out.push(c('care', '商品保养指南', ['以下是本店各商品的使用与保养说明。', ...p.products.map((x) => `${x}\n${CARE_ZH[x] ?? '请用干布擦拭。'}`)].join('\n\n')));
  }
  return out;
}

/** The policies of a shop (one per topic; the long care guide on about a third of the shops). */
export function policiesOf(p: ShopProfile): PolicyText[] {
  return p.lang === 'zh' ? chinesePolicies(p) : englishPolicies(p);
}

/** An old policy kept switched off (status 0): the index leaves it out, so answers never cite it. */
export function retiredPolicyOf(p: ShopProfile): PolicyText {
  return p.lang === 'zh'
    ? { topic: 'returns', title: '退换货政策（旧版，已停用）', content: `旧规则：签收后${p.returnDays + 3}天内可退货。此规则已停用，以现行《退换货政策》为准。`, channel: 'chat' }
    : { topic: 'returns', title: 'Return policy (2024, retired)', content: `Old rule: returns were accepted within ${p.returnDays + 10} days. Replaced by the current return policy.`, channel: 'chat' };
}

/** The after-sales policy of one product (Douyin product knowledge), in line with the shop's rules. */
export function productPolicyOf(p: ShopProfile, title: string): string {
  return p.lang === 'zh'
    ? `${title}：支持${p.returnDays}天无理由退货，质保${p.warrantyMonths}个月，${p.carriers[0].name}发货（${p.carriers[0].days}）。${CARE_ZH[title] ?? ''}`
    : `${title}: returns within ${p.returnDays} days, ${p.warrantyMonths}-month warranty, ships with ${p.carriers[0].name} (${p.carriers[0].days}). ${CARE_EN[title] ?? ''}`.trim();
}

/** A product description as the identification would write it, in line with the shop's rules. */
export function productDescOf(p: ShopProfile, title: string): string {
  return `${title}: ships within ${p.processingDays} business day${p.processingDays > 1 ? 's' : ''} with ${p.carriers[0].name}; ${p.returnDays}-day returns; ${p.warrantyMonths}-month warranty.`;
}

/**
 * Multi-page documents (pages separated by form feeds, as text extractors give them), for a few
 * shops: wholesale terms and a loyalty programme in English, 会员积分规则 and 企业团购说明 in Chinese.
 */
export function documentsOf(p: ShopProfile, k: number): Array<{ name: string; type: 'txt' | 'md'; text: string }> {
  if (p.lang === 'zh') {
    return k % 2 === 0
      ? [{
          name: '会员积分规则.txt', type: 'txt',
          text: [
            `会员积分规则（第1页，共3页）\n\n一、积分获取\n每消费1元累积1积分，确认收货后到账。评价晒图额外奖励20积分，每月最多5次。生日当月消费享双倍积分。\n\n二、会员等级\n普通会员：注册即可。银卡会员：年度累计消费满1000元。金卡会员：年度累计消费满5000元，享全场95折。`,
            `会员积分规则（第2页，共3页）\n\n三、积分使用\n100积分可抵扣1元，单笔订单最多抵扣订单金额的20%。积分可兑换优惠券和周边礼品，兑换后不退回。\n\n四、积分有效期\n积分有效期为获得之日起12个月，到期自动清零。退货订单对应的积分将被扣回。`,
            `会员积分规则（第3页，共3页）\n\n五、其他说明\n积分不可转让、不可提现。如发现刷单等违规行为，本店有权清空积分并取消会员资格。本规则最终解释权归本店所有，如有疑问请联系客服${p.email}。`,
          ].join('\f'),
        }]
      : [{
          name: '企业团购说明.md', type: 'md',
          text: [
            `# 企业团购说明（第1页）\n\n单笔订单满50件即可享受企业团购价：50-199件享9折，200-499件享85折，500件以上享8折。\n\n支持定制企业logo，定制起订量为100件，定制周期15个工作日。`,
            `# 企业团购说明（第2页）\n\n团购订单可开具增值税专用发票。付款方式支持对公转账，款到发货。\n\n大宗订单采用物流专线配送，全国3-7天送达，运费按实际重量计算。`,
            `# 企业团购说明（第3页）\n\n团购联系人：大客户经理，邮箱${p.email}，工作日9:00-18:00。团购商品如有质量问题，${p.returnDays}天内可退换。`,
          ].join('\f'),
        }];
  }
  return k % 2 === 0
    ? [{
        name: 'wholesale-terms.txt', type: 'txt',
        text: [
          `Wholesale terms — page 1 of 3\n\nWho can buy wholesale\nRegistered retailers with a resale certificate can open a wholesale account. The minimum first order is ${money(p, 500 * (p.code === 'JPY' ? 100 : 1))}; reorders have no minimum.\n\nPricing\nWholesale prices are 50% off retail. Orders of 100 units or more of one product get a further 5% off.`,
          `Wholesale terms — page 2 of 3\n\nPayment terms\nThe first order is paid in advance by card or bank transfer. After three orders, accounts in good standing can pay on net 30 terms.\n\nLead times\nIn-stock products ship within 5 business days. Pre-orders for the next season open in January and July.`,
          `Wholesale terms — page 3 of 3\n\nShipping and returns\nWholesale orders ship on pallets by freight; delivery costs are quoted with the order. Wholesale items cannot be returned for change of mind; faulty items are replaced within the ${p.warrantyMonths}-month warranty.\n\nContact: ${p.email}`,
        ].join('\f'),
      }]
    : [{
        name: 'loyalty-programme.md', type: 'md',
        text: [
          `# Loyalty programme — page 1\n\nMembers earn 1 point for every ${p.cur}1 spent, credited when the order is delivered. Writing a review with a photo earns 50 bonus points.\n\n## Tiers\nSilver from 500 points a year: free express shipping. Gold from 2,000 points a year: early access to sales and a birthday gift.`,
          `# Loyalty programme — page 2\n\n## Redeeming points\n100 points are worth ${p.cur}1 off. Points can cover up to half of an order and cannot be used on gift cards.\n\n## Expiry\nPoints expire 18 months after they were earned. Points from returned orders are removed.`,
          `# Loyalty programme — page 3\n\nMembership is free and personal; points cannot be transferred or exchanged for cash. Questions: ${p.email}.`,
        ].join('\f'),
      }];
}

/**
 * The questions of the demo chats, by topic: what a customer of this shop asks (in the shop's
 * language). The AI replies are the built-in responder's answers to them.
 */
export const CHAT_QUESTIONS: Record<Lang, Array<[Topic, string]>> = {
  en: [
    ['returns', 'Can I return these shoes if they do not fit?'],
    ['returns', 'How many days do I have to return an item?'],
    ['shipping', 'How long does shipping take?'],
    ['shipping', 'Which carrier do you use?'],
    ['international', 'Do you ship to other countries?'],
    ['payment', 'Can I pay with PayPal?'],
    ['payment', 'Do you have buy now pay later?'],
    ['warranty', 'Is there a warranty on this?'],
    ['sizes', 'What size should I take? My chest is 98 cm.'],
    ['changes', 'Can I change my shipping address?'],
    ['tracking', 'Where is my order? How can I track it?'],
    ['damaged', 'My package arrived damaged, what can I do?'],
    ['discounts', 'Can I use two discount codes?'],
    ['exchanges', 'Can I exchange it for a bigger size?'],
  ],
  zh: [
    ['returns', '不合适可以退货吗？'],
    ['returns', '退款多久能到账？'],
    ['shipping', '今天下单什么时候发货？'],
    ['shipping', '发什么快递，几天能到？'],
    ['payment', '可以用花呗分期吗？'],
    ['payment', '支持哪些付款方式？'],
    ['warranty', '这个保修多久？'],
    ['sizes', '胸围98穿什么码？'],
    ['changes', '下单后还能改地址吗？'],
    ['tracking', '怎么查物流？'],
    ['damaged', '收到的东西坏了怎么办？'],
    ['discounts', '优惠券可以叠加使用吗？'],
    ['exchanges', '尺码不合适能换吗？'],
    ['international', '可以开发票吗？'],
  ],
};
