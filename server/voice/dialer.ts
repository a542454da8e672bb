/**
 * The dialer interface: how a call campaign places one call attempt. The campaign
 * (campaign.ts) writes the attempt's call_log row first, then asks the dialer; the answer
 * either ends the attempt at once (a dry run, a refused request) or says the call was placed
 * and its outcome comes later (a provider's status callback, callback.ts).
 */
import { telephonyConfig, type DialerName, type TelephonyConfig } from './config.js';
import { twilioDialer } from './twilio.js';

/** Spec section 4: 1 success, 2 failure (other), 3 failure (sensitive words), 4 failure (timeout). */
export type CallResult = 1 | 2 | 3 | 4;

export interface DialRequest {
  /** call_log id of this attempt */
  attemptId: number;
  taskId: number;
  /** the number called */
  to: string;
  /** the task's outbound number used as caller id ('' when the task has no enabled number) */
  from: string;
  /** carrier of that outbound number (call_number.provider) */
  fromProvider: string;
  customerName: string;
  /** 1 for the first call, 2 for the first redial … */
  attempt: number;
  scene: {
    id: number;
    prologue: string;
    /** silent inquiry: ask again after this many seconds of silence … */
    silentSeconds: number;
    /** … at most this many times */
    silentTimes: number;
    voiceProvider: string;
    /** the provider's voice id of the scene's sound ('' = provider default) */
    voice: string;
    timeZone: string;
  };
}

export type DialResult =
  /** the attempt is over: its result code and a bilingual outcome text */
  | { kind: 'ended'; result: CallResult; outcome: string; durationSeconds?: number; providerStatus?: string; request?: unknown }
  /** the call was placed; the provider reports how it ended later */
  | { kind: 'placed'; providerCallId: string; providerStatus: string; outcome: string; request?: unknown };

export interface Dialer {
  name: DialerName;
  /** true: no call is placed, attempts are recorded as dry runs */
  dryRun: boolean;
  dial(req: DialRequest, signal: AbortSignal): Promise<DialResult>;
}

export const DRY_RUN_OUTCOME = 'not dialled (dry run) / 未拨打（演练）';

/**
 * The default dialer: places no call. Each attempt is recorded (marked dry run) with result 2
 * (failure, other) — nobody was called — so the campaign's redial rule and finish run as they
 * would for real, and nothing in the call log pretends a call happened.
 */
export const dryRunDialer: Dialer = {
  name: 'dry-run',
  dryRun: true,
  async dial(req) {
    return { kind: 'ended', result: 2, outcome: DRY_RUN_OUTCOME, durationSeconds: 0, providerStatus: 'dry-run', request: req };
  },
};

/** The dialer the environment selects (TELEPHONY_PROVIDER, config.ts). */
export function dialerFor(cfg: TelephonyConfig = telephonyConfig()): Dialer {
  return cfg.provider === 'twilio' ? twilioDialer(cfg) : dryRunDialer;
}
