/**
 * A real telephony provider, modelled on Twilio's Programmable Voice REST API:
 *
 * - create call: `POST {TWILIO_BASE_URL}/2010-04-01/Accounts/{AccountSid}/Calls.json`,
 *   form-encoded `To`, `From`, `Twiml`, `StatusCallback`, `StatusCallbackMethod`, with HTTP basic
 *   auth (account SID : auth token); the reply's `sid` is the call's id;
 * - status callback: Twilio posts the call's final `CallStatus` (form-encoded) to our
 *   `StatusCallback` URL, signed in `X-Twilio-Signature`: base64 HMAC-SHA1, keyed with the auth
 *   token, over the full URL followed by every POST parameter sorted by name as name + value;
 * - fetch call: `GET …/Calls/{CallSid}.json` (basic auth) — its `status` and `duration`: how the
 *   campaign learns the outcome of a call whose status callback never came (campaign.ts).
 *
 * The TwiML of a call says the scene's prologue and applies its silent-inquiry settings: after
 * `silent_seconds` of silence it asks again, at most `silent_times` times, then hangs up. (The
 * AI conversation after the prologue is not part of this dialer.)
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { TelephonyConfig } from './config.js';
import type { CallResult, CallStatus, DialRequest, DialResult, Dialer } from './dialer-types.js';

export const TWILIO_API_VERSION = '2010-04-01';
export const STATUS_PATH = '/api/telephony/status';

/** The X-Twilio-Signature of a request to `url` with form `params`. */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  let data = url;
  for (const k of Object.keys(params).sort()) data += k + params[k];
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64');
}

/** Constant-time check of a received signature (missing or malformed → false). */
export function verifyTwilioSignature(authToken: string, signature: string | undefined, url: string, params: Record<string, string>): boolean {
  if (!authToken || !signature) return false;
  const want = Buffer.from(twilioSignature(authToken, url, params));
  const got = Buffer.from(signature);
  return want.length === got.length && timingSafeEqual(want, got);
}

/** Twilio's final call statuses → the spec's result codes (section 4) and an outcome text. */
const FINAL: Record<string, { result: CallResult; outcome: string }> = {
  completed: { result: 1, outcome: 'connected / 已接通' },
  busy: { result: 2, outcome: 'busy / 占线' },
  'no-answer': { result: 4, outcome: 'no answer (ring timeout) / 无人接听（超时）' },
  failed: { result: 2, outcome: 'call failed / 呼叫失败' },
  canceled: { result: 2, outcome: 'call cancelled / 呼叫已取消' },
};

/** The result of a CallStatus, or null while the call is not over (queued, ringing, in-progress …). */
export function statusResult(callStatus: string): { result: CallResult; outcome: string } | null {
  return FINAL[callStatus] ?? null;
}

const xml = (s: string): string => s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/** The TwiML of one call: the prologue, asked again after each silence (silent inquiry), then hang up. */
export function callTwiml(scene: DialRequest['scene']): string {
  const say = `<Say>${xml(scene.prologue)}</Say>`;
  const asks = Array.from({ length: 1 + Math.max(0, scene.silentTimes) }, () => `<Gather input="speech" timeout="${scene.silentSeconds}">${say}</Gather>`);
  return `<?xml version="1.0" encoding="UTF-8"?><Response>${asks.join('')}<Hangup/></Response>`;
}

/** E.164 as Twilio wants it: the digits with a leading +. */
export const e164 = (phone: string): string => phone.replace(/[\s-]/g, '');

export function twilioDialer(cfg: TelephonyConfig): Dialer {
  const auth = `Basic ${Buffer.from(`${cfg.accountSid}:${cfg.authToken}`).toString('base64')}`;
  const endpoint = `${cfg.baseUrl}/${TWILIO_API_VERSION}/Accounts/${encodeURIComponent(cfg.accountSid)}/Calls.json`;
  return {
    name: 'twilio',
    dryRun: false,
    async status(callSid: string, signal: AbortSignal): Promise<CallStatus> {
      const res = await fetch(endpoint.replace(/\.json$/, `/${encodeURIComponent(callSid)}.json`), {
        headers: { authorization: auth, accept: 'application/json' },
        signal: AbortSignal.any([signal, AbortSignal.timeout(10_000)]),
      });
      const body = (await res.json().catch(() => ({}))) as { status?: unknown; duration?: unknown };
      if (!res.ok || typeof body.status !== 'string') throw new Error(`Twilio did not say how call ${callSid} stands: HTTP ${res.status}`);
      const duration = Number(body.duration);
      return { providerStatus: body.status, final: statusResult(body.status), ...(Number.isFinite(duration) && body.duration !== null ? { durationSeconds: duration } : {}) };
    },
    async dial(req: DialRequest, signal: AbortSignal): Promise<DialResult> {
      // a task's own Twilio number is its caller id; otherwise the account's TWILIO_FROM
      const from = req.from && req.fromProvider === 'twilio' ? req.from : cfg.from || req.from;
      if (!from) {
        return { kind: 'ended', result: 2, outcome: 'no caller number: give the task a Twilio number or set TWILIO_FROM / 无主叫号码' };
      }
      const form = {
        To: e164(req.to),
        From: e164(from),
        Twiml: callTwiml(req.scene),
        StatusCallback: `${cfg.publicUrl}${STATUS_PATH}?attempt=${req.attemptId}`,
        StatusCallbackMethod: 'POST',
      };
      let res: Response;
      try {
        res = await fetch(endpoint, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: new URLSearchParams(form).toString(),
          signal: AbortSignal.any([signal, AbortSignal.timeout(15_000)]),
        });
      } catch (err) {
        if (signal.aborted) throw err; // stopping: the attempt is settled later (campaign.ts, stale attempts)
        return { kind: 'ended', result: 2, outcome: `could not reach Twilio: ${(err as Error).message} / 无法连接 Twilio`, request: form };
      }
      const text = await res.text();
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        /* not JSON: reported below by status */
      }
      if (!res.ok || typeof body.sid !== 'string') {
        const why = typeof body.message === 'string' ? `${body.message}${body.code ? ` (${String(body.code)})` : ''}` : `HTTP ${res.status}`;
        return { kind: 'ended', result: 2, outcome: `Twilio refused the call: ${why} / Twilio 拒绝呼叫`, providerStatus: `http-${res.status}`, request: form };
      }
      return {
        kind: 'placed',
        providerCallId: body.sid,
        providerStatus: typeof body.status === 'string' ? body.status : 'queued',
        outcome: 'placed, waiting for the call status / 已拨出，等待通话结果',
        request: form,
      };
    },
  };
}
