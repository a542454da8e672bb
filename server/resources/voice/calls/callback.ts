/**
 * `POST /api/telephony/status`: the telephony provider's signed status callback (public: the
 * provider has no session). The request must carry a valid `X-Twilio-Signature` over
 * PUBLIC_URL + the path and query it was sent to, and the form parameters; anything else is
 * refused with an envelope (HTTP 403, code 40003) and changes nothing. A final `CallStatus`
 * (completed, busy, no-answer, failed, canceled) ends the attempt with the spec's result code
 * and moves its number on (redial or done); other statuses are noted on the attempt.
 */
import type { FastifyInstance } from 'fastify';
import { Code } from '../../../../src/contract/codes.js';
import type { Db } from '../../../db/db.js';
import { sendEnvelope } from '../../../plugins/errors.js';
import { settleAttempt } from './attempts.js';
import { telephonyConfig } from './config.js';
import { STATUS_PATH, statusResult, verifyTwilioSignature } from './twilio.js';

interface AttemptRow {
  id: number;
  status: string;
  provider_call_id: string | null;
}

export async function registerTelephony(app: FastifyInstance, db: Db): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, body));
    // no query schema (the signature is checked first): what the query parser gives, a repeated key as a list
    scope.post<{ Querystring: Record<string, string | string[] | undefined> }>(STATUS_PATH, { config: { apiReply: true }, schema: { hide: true } }, async (req, reply) => {
      const cfg = telephonyConfig();
      if (cfg.provider !== 'twilio' || !cfg.authToken) {
        return sendEnvelope(reply, 409, Code.CONFLICT, 'no telephony provider is configured to send status callbacks / 未配置电话服务商，不接受状态回调');
      }
      if (typeof req.body !== 'string') {
        return sendEnvelope(reply, 400, Code.VALIDATION, 'a form-encoded body is expected / 请求体须为表单编码');
      }
      const params: Record<string, string> = {};
      for (const [k, v] of new URLSearchParams(req.body)) params[k] = v;
      const base = cfg.publicUrl || `${req.protocol}://${req.host}`;
      const signature = req.headers['x-twilio-signature'];
      if (!verifyTwilioSignature(cfg.authToken, typeof signature === 'string' ? signature : undefined, `${base}${req.url}`, params)) {
        return sendEnvelope(reply, 403, Code.FORBIDDEN, 'the request signature is missing or wrong / 请求签名缺失或不符');
      }
      if (params.AccountSid && cfg.accountSid && params.AccountSid !== cfg.accountSid) {
        return sendEnvelope(reply, 403, Code.FORBIDDEN, 'the callback is for another account / 回调不属于本账号');
      }
      const attemptParam = req.query.attempt;
      const attemptId = typeof attemptParam === 'string' && /^\d{1,9}$/.test(attemptParam) ? Number(attemptParam) : null;
      const found = await db.query<AttemptRow>(
        attemptId !== null
          ? `SELECT id, status, provider_call_id FROM call_log WHERE id = $1`
          : `SELECT id, status, provider_call_id FROM call_log WHERE provider_call_id = $1 ORDER BY id DESC LIMIT 1`,
        [attemptId ?? params.CallSid ?? ''],
      );
      const row = found.rows[0];
      if (!row) return sendEnvelope(reply, 404, Code.NOT_FOUND, 'no such call attempt / 无此呼叫记录');
      if (row.provider_call_id && params.CallSid && row.provider_call_id !== params.CallSid) {
        return sendEnvelope(reply, 400, Code.VALIDATION, 'CallSid does not match the attempt / CallSid 与呼叫记录不符');
      }
      const status = String(params.CallStatus ?? '');
      const final = statusResult(status);
      const now = app.jobs.clock.now();
      if (!final) {
        await db.query(
          `UPDATE call_log SET provider_status = $2, provider_call_id = coalesce(provider_call_id, $3) WHERE id = $1 AND status = 'dialling'`,
          [row.id, status.slice(0, 32), params.CallSid ?? null],
        );
        return sendEnvelope(reply, 200, Code.OK, 'ok', { attempt: row.id, status, final: false });
      }
      const duration = Number.parseInt(params.CallDuration ?? '', 10);
      const settled = await db.tx(async (q) => {
        if (params.CallSid) await q.query(`UPDATE call_log SET provider_call_id = coalesce(provider_call_id, $2) WHERE id = $1`, [row.id, params.CallSid]);
        return settleAttempt(
          q,
          row.id,
          { result: final.result, outcome: final.outcome, providerStatus: status, durationSeconds: Number.isFinite(duration) && duration >= 0 ? duration : 0 },
          now,
        );
      });
      return sendEnvelope(reply, 200, Code.OK, 'ok', { attempt: row.id, status, final: true, result: final.result, settled });
    });
  });
}
