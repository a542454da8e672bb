/**
 * Which dialer places the calls of call campaigns, read from the environment each time it is
 * needed (so an API process and `npm run worker` processes agree, and a changed setting needs
 * only a restart). docs/operations.md "Telephony (call campaigns)".
 *
 *   TELEPHONY_PROVIDER   dry-run (default) | twilio
 *   TWILIO_ACCOUNT_SID   the account (AC…)            — twilio
 *   TWILIO_AUTH_TOKEN    signs API calls and callbacks — twilio
 *   TWILIO_FROM          caller id when a task's outbound number is not a Twilio number
 *   TWILIO_BASE_URL      default https://api.twilio.com (tests point it at a local fake)
 *   PUBLIC_URL           this console's public address; Twilio posts call status to
 *                        PUBLIC_URL/api/telephony/status — twilio
 */
export type DialerName = 'dry-run' | 'twilio';

export interface TelephonyConfig {
  provider: DialerName;
  accountSid: string;
  authToken: string;
  from: string;
  baseUrl: string;
  publicUrl: string;
  /** why the configured provider cannot place calls (empty = ready) */
  problems: string[];
}

const DRY_RUN_NAMES = ['', 'dry-run', 'dryrun', 'dry_run', 'none'];

export function telephonyConfig(env: NodeJS.ProcessEnv = process.env): TelephonyConfig {
  const raw = (env.TELEPHONY_PROVIDER ?? '').trim().toLowerCase();
  const cfg: TelephonyConfig = {
    provider: raw === 'twilio' ? 'twilio' : 'dry-run',
    accountSid: (env.TWILIO_ACCOUNT_SID ?? '').trim(),
    authToken: (env.TWILIO_AUTH_TOKEN ?? '').trim(),
    from: (env.TWILIO_FROM ?? '').trim(),
    baseUrl: ((env.TWILIO_BASE_URL ?? '').trim() || 'https://api.twilio.com').replace(/\/+$/, ''),
    publicUrl: (env.PUBLIC_URL ?? '').trim().replace(/\/+$/, ''),
    problems: [],
  };
  if (raw !== 'twilio' && !DRY_RUN_NAMES.includes(raw)) {
    cfg.problems.push(`TELEPHONY_PROVIDER "${raw}" is not known (dry-run or twilio) / 未知的 TELEPHONY_PROVIDER`);
  }
  if (cfg.provider === 'twilio') {
    if (!cfg.accountSid) cfg.problems.push('TWILIO_ACCOUNT_SID is not set / 未设置 TWILIO_ACCOUNT_SID');
    if (!cfg.authToken) cfg.problems.push('TWILIO_AUTH_TOKEN is not set / 未设置 TWILIO_AUTH_TOKEN');
    if (!/^https?:\/\//.test(cfg.publicUrl)) cfg.problems.push('PUBLIC_URL (http(s)://…) is needed for status callbacks / 状态回调需要 PUBLIC_URL');
    if (!/^https?:\/\//.test(cfg.baseUrl)) cfg.problems.push('TWILIO_BASE_URL must be an http(s) URL / TWILIO_BASE_URL 须为 http(s) 地址');
  }
  return cfg;
}
