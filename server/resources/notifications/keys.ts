/** Permission keys of notice delivery (issue 24): the channels page and the notice detail. */
const T = 'intelligent_text';

export const NK = {
  channel: `${T}.text.merchant_notice.channel`,
  channelAdd: `${T}.text.merchant_notice.channel.add`,
  channelUpdate: `${T}.text.merchant_notice.channel.update`,
  channelDelete: `${T}.text.merchant_notice.channel.delete`,
  smtp: `${T}.text.merchant_notice.channel.smtp`,
  noticeDetail: `${T}.text.merchant_notice.notice_list.detail`,
} as const;
