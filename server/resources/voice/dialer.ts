import { Type } from '@sinclair/typebox';
import { route } from '../../http/route.js';
import { NoQuery, StringEnum } from '../../http/typebox.js';
import { telephonyConfig } from './calls/config.js';
import { STATUS_PATH } from './calls/twilio.js';
import { VK } from './keys.js';

/**
 * `GET call-center/dialer`: which dialer places the campaigns' calls (TELEPHONY_PROVIDER), whether
 * it is ready, and what is missing when it is not. Secrets (the auth token) are never shown; the
 * account SID only by its last four characters.
 */
export const dialerRoute = route({
  method: 'GET',
  path: 'call-center/dialer',
  access: { permission: [VK.task, VK.log] },
  tags: ['call-center'],
  summary: 'The active dialer of call campaigns: `dry-run` (places no call) or `twilio`, whether it is ready and why not',
  query: NoQuery,
  reply: Type.Object({
    name: StringEnum(['dry-run', 'twilio']),
    dry_run: Type.Boolean(),
    ready: Type.Boolean(),
    problems: Type.Array(Type.String()),
    problems_text: Type.String(),
    account: Type.String(),
    from: Type.String(),
    base_url: Type.String(),
    status_callback_url: Type.String(),
  }),
  handler: async () => {
    const cfg = telephonyConfig();
    const twilio = cfg.provider === 'twilio';
    return {
      name: cfg.provider,
      dry_run: !twilio,
      ready: cfg.problems.length === 0,
      problems: cfg.problems,
      problems_text: cfg.problems.join('\n'),
      account: twilio && cfg.accountSid ? `…${cfg.accountSid.slice(-4)}` : '',
      from: twilio ? cfg.from : '',
      base_url: twilio ? cfg.baseUrl : '',
      status_callback_url: twilio && cfg.publicUrl ? `${cfg.publicUrl}${STATUS_PATH}` : '',
    };
  },
});
