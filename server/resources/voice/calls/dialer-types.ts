/**
 * The dialer's types (what a campaign asks, what a dialer answers), apart from dialer.ts so a
 * provider's dialer (twilio.ts) can implement them without importing dialer.ts, which picks it.
 */
import type { DialerName } from './config.js';

/** Spec section 4: 1 success, 2 failure (other), 3 failure (sensitive words), 4 failure (timeout). */
export type CallResult = 1 | 2 | 3 | 4 | 5;

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

/** What the provider says of a placed call when asked (its status call). */
export interface CallStatus {
  providerStatus: string;
  /** the result when the call is over; null while it is not (queued, ringing, in progress) */
  final: { result: CallResult; outcome: string } | null;
  durationSeconds?: number;
}

export interface Dialer {
  name: DialerName;
  /** true: no call is placed, attempts are recorded as dry runs */
  dryRun: boolean;
  dial(req: DialRequest, signal: AbortSignal): Promise<DialResult>;
  /**
   * Asks the provider how a placed call stands (for a status callback that never came); throws
   * when the provider cannot be asked. Absent: the provider only reports by callback.
   */
  status?(providerCallId: string, signal: AbortSignal): Promise<CallStatus>;
}
