/**
 * Code tables of the business entities (spec section 3), with labels in both locales, built from
 * the enum files: schemas/enums/<id>.json is the one home of an enum's values and labels (the
 * pages show them, the routes and ingestion validate against them, exports print their labels,
 * and the database's CHECK constraints on the columns an enum file lists under `columns` must
 * allow exactly its values: server/db/enum-constraints.test.ts). Each file is read once, when
 * this module loads; the schema loader validates the same files against the meta-schema at start.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { EnumDef, EnumId } from '../../src/contract/enums.js';
import { DEFAULT_SCHEMAS_DIR } from '../schemas/read.js';

export interface Labelled<T extends string | number = number> {
  id: T;
  label: string;
  label_en: string;
}

const files = new Map<string, EnumDef>();

/** schemas/enums/<id>.json as read at start (every item, deprecated ones included: old rows may hold them). */
export function enumFile(id: EnumId): EnumDef {
  let def = files.get(id);
  if (!def) {
    const file = path.join(DEFAULT_SCHEMAS_DIR, 'enums', `${id}.json`);
    def = JSON.parse(readFileSync(file, 'utf8')) as EnumDef;
    if (def.id !== id || !Array.isArray(def.items) || def.items.length === 0) throw new Error(`${file}: not the enum "${id}" (id or items missing)`);
    files.set(id, def);
  }
  return def;
}

function table(id: EnumId, type: 'integer'): Labelled<number>[];
function table(id: EnumId, type: 'string'): Labelled<string>[];
function table(id: EnumId, type: 'integer' | 'string'): Labelled<string | number>[] {
  return enumFile(id).items.map((i) => {
    const ok = type === 'integer' ? Number.isInteger(i.value) : typeof i.value === 'string';
    if (!ok) throw new Error(`schemas/enums/${id}.json: value ${JSON.stringify(i.value)} is not ${type === 'integer' ? 'an integer' : 'a string'}`);
    return { id: i.value as string | number, label: i.label['zh-CN'], label_en: i.label['en-US'] };
  });
}

export const ids = <T extends string | number>(list: readonly Labelled<T>[]): T[] => list.map((x) => x.id);

/**
 * The values of an enum that carry `tag` (its items' `tags`): what the server reads a value as
 * lives in the enum file with the value (issue 22), e.g. the call results of placed calls.
 * Throws at start when no value carries it (a tag renamed in the file).
 */
export function taggedValues(id: EnumId, tag: string): Array<string | number> {
  const out = enumFile(id)
    .items.filter((i) => i.tags?.includes(tag))
    .map((i) => i.value);
  if (!out.length) throw new Error(`schemas/enums/${id}.json: no value is tagged "${tag}"`);
  return out;
}

/** Shop (store) types: also the notification target types. */
export const SHOP_TYPES = table('shop_type', 'integer');
export const ENVS = table('env', 'string');
export const ENV_IDS = ids(ENVS);
export const CREATION_SOURCES = table('shop_source', 'integer');
export const PLUGIN_STATUS = table('plugin_status', 'integer');
export const AI_STATUS = table('ai_status', 'integer');
export const AUTHORIZE_STATUS = table('authorize_status', 'integer');
export const POLICY_SOURCE_TYPES = table('policy_source_type', 'integer');
/** chat / email: the channel of policies, learning material, assistants, prompts and model routing */
export const CHANNELS: readonly string[] = ids(table('policy_channel', 'string'));
export const FINANCIAL_STATUS: readonly string[] = ids(table('order_financial_status', 'string'));
export const FULFILLMENT_STATUS: readonly string[] = ids(table('order_fulfillment_status', 'string'));
export const NOTICE_STATUS = table('notification_status', 'integer');
export const DOC_STATUS = table('doc_learn_status', 'integer');
export const PLAN_PRODUCTS = table('plan_product', 'string');
export const PLAN_PERIODS = table('plan_period', 'string');
export const PLAN_ORDER_STATUS = table('plan_order_status', 'integer');
export const CURRENCIES: readonly string[] = ids(table('currency', 'string'));
export const MATERIAL_STATUS = table('learn_material_status', 'integer');
export const TICKET_LEARN = table('ticket_learn_status', 'integer');
export const REVIEW_STATUS = table('policy_review_status', 'integer');
export const DESC_STATUS = table('product_desc_status', 'integer');
export const FEEDBACK_STATUS: readonly string[] = ids(table('feedback_status', 'string'));
export const FEEDBACK_HANDLE_STATUS: readonly number[] = ids(table('feedback_handle_status', 'integer'));
export const MESSAGE_TYPES: readonly number[] = ids(table('message_type', 'integer'));
