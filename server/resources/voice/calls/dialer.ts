/**
 * The dialer interface: how a call campaign places one call attempt. The campaign
 * (campaign.ts) writes the attempt's call_log row first, then asks the dialer; the answer
 * either ends the attempt at once (a dry run, a refused request) or says the call was placed
 * and its outcome comes later (a provider's status callback, callback.ts).
 */
import { telephonyConfig, type TelephonyConfig } from './config.js';
import type { Dialer } from './dialer-types.js';
import { twilioDialer } from './twilio.js';

export type { DialRequest, DialResult, Dialer } from './dialer-types.js';

export const DRY_RUN_OUTCOME = 'not dialled (dry run) / 未拨打（演练）';

/**
 * The default dialer: places no call. Each attempt is recorded (marked dry run) with result 5
 * (dry run, not dialled — its own value, not a failure) so the campaign's redial rule and finish
 * run as they would for a call that did not connect, and nothing in the call log pretends a call
 * happened or failed.
 */
export const dryRunDialer: Dialer = {
  name: 'dry-run',
  dryRun: true,
  async dial(req) {
    return { kind: 'ended', result: 5, outcome: DRY_RUN_OUTCOME, durationSeconds: 0, providerStatus: 'dry-run', request: req };
  },
};

/** The dialer the environment selects (TELEPHONY_PROVIDER, config.ts). */
export function dialerFor(cfg: TelephonyConfig = telephonyConfig()): Dialer {
  return cfg.provider === 'twilio' ? twilioDialer(cfg) : dryRunDialer;
}
