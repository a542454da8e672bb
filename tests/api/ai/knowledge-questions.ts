/**
 * The labelled questions of the retrieval and decline figures (issue 21), written by hand against
 * the demo policies' topics (not their wording). The development sets were used to tune the
 * lexicon and to choose the decision's default threshold and top-k
 * (server/ai/knowledge/decide.ts `calibrate`); the held-out sets were written after and are never
 * used to tune (a held-out miss is not fixed by adding its words). Do not move questions between
 * them. Asked in one English and one Chinese demo shop without documents
 * (tests/api/ai/demo-knowledge.test.ts).
 */
/** [question, the title of the policy that answers it] */
export type Labelled = Array<[string, string]>;

// Chinese questions for an English shop, English questions for a Chinese (Douyin) shop
export const ZH_TO_EN: Labelled = [
  ['退货期限是多久？', 'Return policy'],
  ['退款多久能到账？', 'Return policy'],
  ['你们用哪家快递发货？', 'Shipping, carriers and delivery times'],
  ['保修期是多久？', 'Warranty'],
  ['可以用信用卡付款吗？', 'Payment methods'],
  ['能分期付款吗？', 'Payment methods'],
  ['下单后可以取消订单吗？', 'Order changes and cancellation'],
  ['怎么查物流？', 'Order tracking'],
  ['收到的商品破损了怎么办？', 'Damaged or wrong items'],
  ['优惠券可以叠加使用吗？', 'Discount codes and promotions'],
  ['尺码不合适可以换货吗？', 'Exchanges'],
  ['衣服尺码偏大还是偏小？', 'Size guide'],
  ['客服的工作时间是几点？', 'Customer service hours'],
  ['可以寄到国外吗？要交关税吗？', 'International shipping'],
];
export const EN_TO_ZH: Labelled = [
  ['How long do I have to return an item?', '退换货政策'],
  ['When will I get my refund?', '退换货政策'],
  ['Which courier do you use?', '发货与配送'],
  ['How long is the warranty?', '质保说明'],
  ['Can I pay in instalments?', '支付方式'],
  ['Can I cancel my order?', '修改与取消订单'],
  ['How do I track my parcel?', '物流查询'],
  ['My item arrived broken, what should I do?', '商品损坏与错发处理'],
  ['Can I use two coupons on one order?', '优惠券与活动'],
  ['Can I exchange it for another size?', '换货说明'],
  ['What size should I take with a 98 cm chest?', '尺码表'],
  ['Can I get an invoice?', '发票说明'],
  ['What are your customer service hours?', '客服时间'],
];
// the same language, in other words than the policy's
export const EN_SAME: Labelled = [
  ['Which couriers deliver my order?', 'Shipping, carriers and delivery times'],
  ['Is there a guarantee on this?', 'Warranty'],
  ['Can I send back something I bought?', 'Return policy'],
  ['Do you take PayPal?', 'Payment methods'],
  ['My parcel came smashed', 'Damaged or wrong items'],
  ['Is there free shipping?', 'Shipping, carriers and delivery times'],
];
export const ZH_SAME: Labelled = [
  ['质保多久？', '质保说明'],
  ['能用支付宝吗？', '支付方式'],
  ['东西坏了能修吗？', '质保说明'],
  ['满多少包邮？', '发货与配送'],
  ['可以改收货地址吗？', '修改与取消订单'],
  ['胸围98穿什么码？', '尺码表'],
];
// misspelt, as customers type (development: written with the spelling correction,
// server/ai/knowledge/spelling.ts, in other words than the bench's hard slice — but after its
// falsely declined questions had been read, so not blind to them)
export const EN_TYPOS: Labelled = [
  ['how long is the warrenty', 'Warranty'],
  ['can i chnage my delivery adress', 'Order changes and cancellation'],
  ['do you acept apple pay', 'Payment methods'],
  ['my parcle arived damaged', 'Damaged or wrong items'],
  ['how do i trak my ordr', 'Order tracking'],
  ['is shiping free', 'Shipping, carriers and delivery times'],
  ['can i excange this for a smaller one', 'Exchanges'],
  ['how do i get a refund for a retrned item', 'Return policy'],
];
// misspelt English questions for a Chinese shop
export const EN_TYPOS_TO_ZH: Labelled = [
  ['how long is the warrenty', '质保说明'],
  ['can i cancell my order', '修改与取消订单'],
  ['wich courier do you use', '发货与配送'],
  ['can i pay in instalmnts', '支付方式'],
];
// Chinese typos (同音字 / 形近字), for the Chinese shop (development: written with the Chinese
// spelling correction, server/ai/knowledge/zh-spelling.ts, after the bench's hard slice had been read)
export const ZH_TYPOS: Labelled = [
  ['保休多久？', '质保说明'],
  ['退宽多久到账？', '退换货政策'],
  ['用的哪家快第？', '发货与配送'],
  ['满多少包油？', '发货与配送'],
  ['优惠卷可以叠加吗？', '优惠券与活动'],
  ['物流查洵在哪里？', '物流查询'],
];
// questions touching two things, one the policy's topic and one of framing or detail (development,
// added with the decision's "said elsewhere" share — since replaced by decide-model.ts's signals; written before it was
// measured, by topic, not from the bench's wording)
export const EN_TWO_CONCEPTS: Labelled = [
  ['Which cards do you take at checkout?', 'Payment methods'],
  ['How soon do you reply to a message on the weekend?', 'Customer service hours'],
  ['Is it possible to pay part now and the rest later?', 'Payment methods'],
  ['My package has been stuck for days, who do I contact?', 'Order tracking'],
  ['Can I exchange shoes that I already wore outside?', 'Exchanges'],
  ['Do you refund the original shipping charge?', 'Return policy'],
  ['The zipper broke on my jacket, is that a warranty case?', 'Warranty'],
  ['The parcel arrived with one item missing', 'Damaged or wrong items'],
  ['Is there a code for my first purchase?', 'Discount codes and promotions'],
];
export const ZH_TWO_CONCEPTS: Labelled = [
  ['周末客服回消息吗？', '客服时间'],
  ['退货要自己付运费吗？', '退换货政策'],
  ['换货的话运费谁承担？', '换货说明'],
  ['快递一直没动静怎么回事？', '物流查询'],
  ['下单以后还能改颜色吗？', '修改与取消订单'],
  ['收到的货少了一个配件', '商品损坏与错发处理'],
  ['优惠券过期了还能用吗？', '优惠券与活动'],
];
// more that nothing answers, written with the two-concept questions above as development
// questions; measured before use, they are answered at every threshold from 0.55 to 0.65 (6 of 20
// asks: "collect my order from your office", "rent out products for events", 有没有会员日活动), which
// would have moved the calibrated threshold to 0.7 — so they were made held out instead (reported,
// never tuned on; docs/ai.md "Deciding not to answer" says so)
export const UNANSWERABLE_MORE = [
  'Can I collect my order from your office?',
  'Do you sponsor sports clubs?',
  'Are your staff paid a living wage?',
  'Do you rent out products for events?',
  'Can my dog come into the showroom?',
  '可以用外币付款吗？',
  '你们的包装可以回收吗？',
  '有没有会员日活动？',
  '客服可以说英语吗？',
  '能寄到南极吗？',
];
// nothing in a demo shop's knowledge answers these (asked in shops without documents)
export const UNANSWERABLE_EN = [
  'Do you have a pick-up store near me?',
  'Is there a rewards programme?',
  'Can I book a fitting appointment?',
  'Do you offer a student discount?',
  'Can I pay with Bitcoin?',
  'Are your products vegan?',
  'Do you have a physical shop in London?',
  'Do you offer gift wrapping?',
];
export const UNANSWERABLE_ZH = [
  '有没有线下门店可以自提？',
  '你们有积分奖励计划吗？',
  '可以预约上门安装吗？',
  '有学生优惠吗？',
  '支持比特币付款吗？',
  '你们的产品是纯素的吗？',
  '可以礼品包装吗？',
  '北京有实体店吗？',
];

// Held out: written after the lexicon was tuned on the sets above and not used to tune it
// (the figures of both are in docs/ai.md; a held-out miss is not fixed by adding its words).
export const HELD_OUT_ZH_TO_EN: Labelled = [
  ['如果不喜欢可以退吗？', 'Return policy'],
  ['运费怎么算？', 'Shipping, carriers and delivery times'],
  ['东西坏了，有质保吗？', 'Warranty'],
  ['可以用苹果支付吗？', 'Payment methods'],
  ['发货后多久能收到？', 'Shipping, carriers and delivery times'],
  ['我想改一下地址', 'Order changes and cancellation'],
  ['快递单号在哪里看？', 'Order tracking'],
  ['发错货了怎么办？', 'Damaged or wrong items'],
  ['新用户有折扣吗？', 'Discount codes and promotions'],
];
export const HELD_OUT_EN_TO_ZH: Labelled = [
  ['Can I get my money back?', '退换货政策'],
  ['Do you deliver to Tibet?', '发货与配送'],
  ['Is Alipay accepted?', '支付方式'],
  ['How long will delivery take?', '发货与配送'],
  ['I received the wrong item', '商品损坏与错发处理'],
  ['Can I swap the colour?', '换货说明'],
  ['Do you issue VAT receipts?', '发票说明'],
];
export const HELD_OUT_UNANSWERABLE = [
  'Can I visit your warehouse?',
  'Do you have a mobile app?',
  'Is there a referral bonus for inviting friends?',
  'Do you price match other stores?',
  '你们招聘客服吗？',
  '可以刻字吗？',
  '有没有以旧换新活动？',
  '可以开直播吗？',
];

