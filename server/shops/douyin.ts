/**
 * Douyin (抖店) shops: not pulled. The Douyin shop open platform (抖店开放平台,
 * op.jinritemai.com) gives its product and order APIs to approved service-provider apps; the
 * request signing, the token exchange and the reply shapes are documented behind a developer
 * account, and no public emulator or sandbox exists that a test of ours could run against. We
 * implement nothing we cannot check, so the adapter says so instead of pretending: a sync of a
 * Douyin shop fails at once with this reason, and docs/integrations.md "Douyin" says the same.
 * Douyin product knowledge keeps arriving through the Douyin product import (server/resources/learning/douyin-import.ts)
 * and the ingestion API.
 */
import { PlatformRefused, type ShopAdapter } from './types.js';

export const DOUYIN_UNSUPPORTED =
  'Douyin shops cannot be synced yet: the Douyin shop open platform API is not implemented, because its signing and replies could not be verified from public documentation (docs/integrations.md). Use the Douyin product import or the ingestion API / 抖音店铺暂不支持同步：抖店开放平台接口的签名与返回格式无法仅凭公开文档核实，因此未实现（见 docs/integrations.md）。请使用抖音商品导入或数据接入 API';

export const douyinAdapter: ShopAdapter = {
  platform: 'douyin',
  entities: [],
  async pull() {
    throw new PlatformRefused(DOUYIN_UNSUPPORTED);
  },
  throttled: 0,
};
