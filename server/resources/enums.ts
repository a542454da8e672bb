/** Code tables of the business entities (spec section 3), with labels in both locales. */
export interface Labelled<T extends string | number = number> {
  id: T;
  label: string;
  label_en: string;
}

const l = <T extends string | number>(id: T, label: string, label_en: string): Labelled<T> => ({ id, label, label_en });

/** Shop (store) types: also the notification target types. */
export const SHOP_TYPES = [l(1, 'Shopify', 'Shopify'), l(2, '抖音', 'Douyin'), l(3, 'Shopline', 'Shopline'), l(4, '自建站', 'Custom site')];
export const ENVS = [l('dev', '测试', 'dev (test)'), l('pre', '预发布', 'pre (pre-release)'), l('prod', '正式', 'prod'), l('pre2', '预发布2', 'pre2'), l('pre3', 'Super', 'pre3 (Super)')];
export const ENV_IDS = ENVS.map((e) => e.id);
export const CREATION_SOURCES = [l(0, '平台', 'Platform'), l(1, '商户', 'Merchant'), l(2, 'API', 'API')];
export const PLUGIN_STATUS = [l(0, '未安装', 'Not installed'), l(1, '已启用', 'Enabled'), l(2, '已停用', 'Disabled')];
export const AI_STATUS = [l(0, '关闭', 'Off'), l(1, '开启', 'On')];
export const AUTHORIZE_STATUS = [l(0, '未授权', 'Not authorized'), l(1, '已授权', 'Authorized'), l(2, '已过期', 'Expired')];
export const POLICY_SOURCE_TYPES = [
  l(1, '运营手动', 'Operator (manual)'), l(2, 'URL', 'URL'), l(3, '工单', 'Ticket'), l(4, '平台', 'Platform'),
  l(5, '自动学习工单', 'Auto-learn ticket'), l(6, '历史对话', 'Historical dialogue'),
  l(7, '企业助手知识', 'Enterprise assistant knowledge'), l(8, '文档知识', 'Document knowledge'),
  l(9, '客服训练', 'Customer service training'), l(10, '运营添加', 'Operator added'), l(11, '对话训练', 'Conversation training'),
];
export const CHANNELS = ['chat', 'email'] as const;
export const FINANCIAL_STATUS = ['pending', 'authorized', 'paid', 'partially_paid', 'partially_refunded', 'refunded', 'voided'] as const;
export const FULFILLMENT_STATUS = ['unfulfilled', 'partial', 'fulfilled', 'restocked'] as const;
export const NOTICE_STATUS = [l(0, '草稿', 'Draft'), l(1, '已推送', 'Pushed'), l(2, '推送中', 'Pushing')];
export const DOC_STATUS = [l(0, '学习中', 'Learning'), l(1, '已学习', 'Learned'), l(2, '学习失败', 'Failed')];
export const PLAN_PRODUCTS = [l('text', '智能文本', 'Text'), l('voice', '智能语音', 'Voice')];
export const PLAN_PERIODS = [l('month', '月付', 'Monthly'), l('quarter', '季付', 'Quarterly'), l('year', '年付', 'Yearly')];
export const PLAN_ORDER_STATUS = [l(0, '待支付', 'Pending payment'), l(1, '生效中', 'Active'), l(2, '已过期', 'Expired'), l(3, '已取消', 'Cancelled'), l(4, '已退款', 'Refunded')];
export const CURRENCIES = ['USD', 'CNY', 'EUR', 'GBP', 'JPY'] as const;
export const MATERIAL_STATUS = [l(0, '待处理', 'Pending'), l(1, '已学习', 'Learned'), l(2, '已忽略', 'Ignored')];
export const TICKET_LEARN = [l(0, '未学习', 'Not learned'), l(1, '学习中', 'Learning'), l(2, '已学习', 'Learned')];
export const REVIEW_STATUS = [l(0, '待审核', 'Pending'), l(1, '已采纳', 'Adopted'), l(2, '已拒绝', 'Rejected')];
export const DESC_STATUS = [l(0, '待识别', 'Pending'), l(1, '识别中', 'Identifying'), l(2, '已识别', 'Identified'), l(3, '识别失败', 'Failed')];

export const ids = <T extends string | number>(list: Labelled<T>[]): T[] => list.map((x) => x.id);
