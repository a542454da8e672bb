import { Type } from '@sinclair/typebox';
import { Nullable } from '../../http/typebox.js';
/** Permission keys of the page groups (spec section 6) and the reply shorthands their routes share. */
const T = 'intelligent_text.text';
export const PG = {
  template: `${T}.merchant_notice.template`,
  templateAdd: `${T}.merchant_notice.template.add`,
  templateUpdate: `${T}.merchant_notice.template.update`,
  templateDelete: `${T}.merchant_notice.template.delete`,
  shopSync: `${T}.shop.list.sync`,
  profileBasic: `${T}.shop.list.profile_basic`,
  profileAdvanced: `${T}.shop.list.profile_advanced`,
  syncLog: `${T}.shop.sync_log`,
  syncSuccess: `${T}.shop.sync_log.success`,
  syncFail: `${T}.shop.sync_log.fail`,
  renew: `${T}.shop.plan_order.renew`,
  chat: `${T}.session.chat`,
  mark: `${T}.session.mark`,
  feedback: `${T}.session.feedback`,
  shopList: `${T}.shop.list`,
  shopIntroduction: `${T}.shop.list.introduction`,
  customerList: `${T}.shop.customer_list`,
  customerConfig: `${T}.shop.customer_list.config`,
  customerNote: `${T}.shop.customer_list.note`,
  customerDownload: `${T}.shop.customer_list.download`,
  customerOnboard: `${T}.shop.customer_list.onboard`,
} as const;

export const int = Type.Integer();
export const str = Type.String();
export const dateTime = Type.String({ format: 'date-time' });
export const nint = Nullable(int);
export const nstr = Nullable(str);
