import { F } from '../engine/fields.js';
import { ID } from '../engine/schemas.js';
import type { ResourceDef } from '../engine/types.js';
import { CALL_RESULTS, VK } from './keys.js';

/** One transcript line: who spoke (`ai` or `customer`), what, and when (ms from the call start). */
export const TRANSCRIPT_ITEM = {
  type: 'object',
  properties: { role: { type: 'string' }, content: { type: 'string' }, offset_ms: { type: 'integer' } },
};

/**
 * Call logs (read-only: written by the call campaigns, server/resources/voice/calls/campaign.ts): task, caller
 * and called number, customer, duration (seconds), result code 1 success / 2 failure (other) /
 * 3 failure (sensitive words) / 4 failure (timeout) / 5 dry run (not dialled) — null while the call is still
 * dialling —,
 * recording URL, transcript, call time; and of each campaign attempt: its number (1 = first
 * call, 2 = first redial …), the dialer that placed it (`dry_run` true: no call was placed),
 * `status` dialling | ended, the outcome in words, the dial request and the provider's call id
 * and status.
 */
export const callLog: ResourceDef = {
  name: 'call-center/log',
  auditName: 'call_log',
  table: 'call_log',
  keyword: "to_tsvector('simple', t.customer_name || ' ' || t.callee_number)",
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    task_id: { schema: ID, nullable: true, filter: 'eq' },
    task_name: { schema: { type: 'string' }, nullable: true, virtual: true, select: '(SELECT k.name FROM call_task k WHERE k.id = t.task_id)' },
    caller_number: F.str(32),
    callee_number: { schema: { type: 'string', maxLength: 32 }, filter: 'eq' },
    customer_name: F.str(100),
    duration_seconds: { schema: { type: 'integer', minimum: 0 }, filter: 'range', sort: true },
    result: { ...F.enumOf(CALL_RESULTS), nullable: true },
    attempt: { schema: { type: 'integer' }, nullable: true },
    dialer: { schema: { type: 'string', maxLength: 16 }, filter: 'eq' },
    dry_run: { schema: { type: 'boolean' } },
    status: { schema: { type: 'string', enum: ['dialling', 'ended'] }, sort: true },
    outcome: { schema: { type: 'string' } },
    request: { schema: { type: 'object', additionalProperties: true }, nullable: true, detailOnly: true },
    provider_call_id: { schema: { type: 'string' }, nullable: true },
    provider_status: { schema: { type: 'string' } },
    ended_at: F.dateTime({ nullable: true }),
    recording_url: F.url(),
    transcript: { schema: { type: 'array', items: TRANSCRIPT_ITEM }, detailOnly: true },
    called_at: { ...F.dateTime(), filter: 'range', sort: true },
    created_at: F.createdAt(),
  },
  operations: {
    list: { permission: VK.log },
    detail: { permission: [VK.log, VK.logDetail] },
  },
};
