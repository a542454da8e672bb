/**
 * `product.reidentify` (重新识别): identifies a product description's attributes as a job.
 *
 * - With a model server configured: the model gateway (server/ai/gateway) is asked for the
 *   attributes as JSON; the description records which server answered.
 * - Without one (the gateway says `no_model`): the built-in extraction below, rule-based
 *   (price, sizes, capacity, dimensions, weight, materials, colours, warranty, returns,
 *   shipping, a summary) and labelled as such in the result — it reads what the text says and
 *   guesses nothing.
 *
 * Status: 0 pending (queued) → 1 identifying → 2 identified, or 3 failed with the reason in
 * `identify_error`. Only the job named in `identify_job_id` writes the row, so a newer
 * 重新识别 supersedes an older one that is still running.
 */
import { convert } from 'html-to-text';
import type { Db } from '../../db/db.js';
import { PermanentJobError, type JobContext, type JobKind } from '../../jobs/types.js';

export const REIDENTIFY_KIND = 'product.reidentify';

export interface ProductAttributes {
  summary: string;
  price: string | null;
  sizes: string[];
  capacity: string | null;
  dimensions: string | null;
  weight: string | null;
  materials: string[];
  colors: string[];
  warranty: string | null;
  returns: string | null;
  shipping: string | null;
  features: string[];
}

export const BUILTIN_LABEL = 'Built-in extraction (rules, no model) / 内置规则提取（未使用模型）';

const MATERIALS: Array<[RegExp, string]> = [
  [/\bstainless[\s-]steel\b|不锈钢/i, 'stainless steel'],
  [/\b(?:organic\s+)?cotton\b|纯棉|棉质|全棉/i, 'cotton'],
  [/\bpolyester\b|涤纶/i, 'polyester'],
  [/\bnylon\b|尼龙/i, 'nylon'],
  [/\bspandex\b|\belastane\b|氨纶/i, 'spandex'],
  [/\bleather\b|真皮|皮革/i, 'leather'],
  [/\bwool\b|\bmerino\b|羊毛/i, 'wool'],
  [/\bcashmere\b|羊绒/i, 'cashmere'],
  [/\bsilk\b|真丝|丝绸/i, 'silk'],
  [/\blinen\b|亚麻/i, 'linen'],
  [/\bbamboo\b|竹/i, 'bamboo'],
  [/\bceramic\b|\bporcelain\b|陶瓷/i, 'ceramic'],
  [/\bglass\b|玻璃/i, 'glass'],
  [/\b(?:solid\s+)?wood(?:en)?\b|实木|木质/i, 'wood'],
  [/\baluminium\b|\baluminum\b|铝/i, 'aluminium'],
  [/\bsilicone\b|硅胶/i, 'silicone'],
  [/\brubber\b|橡胶/i, 'rubber'],
  [/\bplastic\b|\bABS\b|塑料/i, 'plastic'],
  [/\bTPE\b/, 'TPE'],
  [/\bdown\b(?=\s+(?:fill|jacket|feather))|羽绒/i, 'down'],
];

const COLORS: Array<[RegExp, string]> = [
  [/\bblack\b|黑色/i, 'black'], [/\bwhite\b|白色/i, 'white'], [/\bgr[ae]y\b|灰色/i, 'grey'], [/\bred\b|红色/i, 'red'],
  [/\bblue\b|\bnavy\b|蓝色/i, 'blue'], [/\bgreen\b|绿色/i, 'green'], [/\byellow\b|黄色/i, 'yellow'], [/\bpink\b|粉色/i, 'pink'],
  [/\bpurple\b|紫色/i, 'purple'], [/\bbrown\b|棕色|咖啡色/i, 'brown'], [/\bbeige\b|米色/i, 'beige'], [/\borange\b|橙色/i, 'orange'],
];

const LETTER_SIZES = ['XXS', 'XS', 'S', 'M', 'L', 'XL', 'XXL', 'XXXL', '2XL', '3XL', '4XL'];

const uniq = (xs: string[]) => [...new Set(xs)];
/** "2 year" → "2 years" (English units only) */
const amount = (n: string, unit: string) => `${n} ${Number(n) > 1 && /^(year|month|day)$/i.test(unit) ? `${unit}s` : unit}`;
const clean = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The description as plain text (it is often HTML). */
export function plainText(html: string): string {
  if (!/[<&]/.test(html)) return html.trim();
  return convert(html, { wordwrap: false, selectors: [{ selector: 'a', options: { ignoreHref: true } }, { selector: 'img', format: 'skip' }] }).trim();
}

/** Rule-based attributes of a product's title and description (deterministic). */
export function extractAttributes(title: string, description: string): ProductAttributes {
  const body = plainText(description);
  const text = `${title}\n${body}`;
  const first = (re: RegExp, fmt: (m: RegExpMatchArray) => string): string | null => {
    const m = text.match(re);
    return m ? clean(fmt(m)) : null;
  };

  const price =
    first(/(US\$|HK\$|C\$|A\$|\$|¥|￥|€|£|RMB|CNY|USD|EUR|GBP)\s?(\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d+(?:\.\d{1,2})?)/i, (m) => `${m[1]}${m[1].length > 1 && /[a-z]/i.test(m[1]) ? ' ' : ''}${m[2]}`) ??
    first(/(\d+(?:\.\d{1,2})?)\s?(元|块|USD|CNY|EUR|GBP|dollars?)\b/i, (m) => `${m[1]} ${m[2]}`) ??
    first(/(\d+(?:\.\d{1,2})?)\s?元/, (m) => `${m[1]} 元`);

  // sizes: a "sizes: ..." / "尺码：..." list, else letter sizes written as a run (S/M/L, S-XL)
  let sizes: string[] = [];
  const sizeList = text.match(/(?:\bsizes?|\bavailable in|尺码|尺寸可选)\s*[:：]?\s*((?:(?:XXS|XS|S|M|L|XL|XXL|XXXL|[2-4]XL|EU\s?\d{2}|US\s?\d{1,2}(?:\.5)?|\d{2}(?:\.5)?)\s*(?:[,/、|]|-|–|to|and|\s)\s*)+(?:XXS|XS|S|M|L|XL|XXL|XXXL|[2-4]XL|EU\s?\d{2}|US\s?\d{1,2}(?:\.5)?|\d{2}(?:\.5)?))\b/i);
  if (sizeList) {
    const range = sizeList[1].match(/^(XXS|XS|S|M|L|XL|XXL|XXXL)\s*(?:-|–|to)\s*(XXS|XS|S|M|L|XL|XXL|XXXL)$/i);
    if (range) {
      const a = LETTER_SIZES.indexOf(range[1].toUpperCase());
      const b = LETTER_SIZES.indexOf(range[2].toUpperCase());
      sizes = a >= 0 && b > a ? LETTER_SIZES.slice(a, b + 1) : [range[1], range[2]];
    } else {
      sizes = sizeList[1].split(/\s*(?:[,/、|]|\band\b)\s*/i).map((x) => clean(x).toUpperCase()).filter(Boolean);
    }
  } else {
    const run = text.match(/\b((?:XXS|XS|S|M|L|XL|XXL|XXXL)(?:\s*\/\s*(?:XXS|XS|S|M|L|XL|XXL|XXXL)){2,})\b/);
    if (run) sizes = run[1].split('/').map((x) => x.trim());
  }

  const capacity = first(/(\d+(?:\.\d+)?)\s?(ml|mL|ML|L|litres?|liters?|oz|升|毫升)(?![a-z])/, (m) => `${m[1]} ${m[2]}`);
  const dimensions = first(
    /(\d+(?:\.\d+)?)\s?[x×*]\s?(\d+(?:\.\d+)?)(?:\s?[x×*]\s?(\d+(?:\.\d+)?))?\s?(mm|cm|m|in|inch(?:es)?|"|厘米|毫米)/i,
    (m) => `${[m[1], m[2], m[3]].filter(Boolean).join(' × ')} ${m[4]}`,
  );
  const weight = first(/(\d+(?:\.\d+)?)\s?(kg|g|lbs?|克|千克|公斤)(?![a-z])/i, (m) => `${m[1]} ${m[2]}`);
  const materials = uniq(MATERIALS.filter(([re]) => re.test(text)).map(([, name]) => name));
  const colors = uniq(COLORS.filter(([re]) => re.test(text)).map(([, name]) => name));
  const warranty =
    first(/(\d+)[-\s]?(years?|months?|days?)(?:'|’)?\s+(?:limited\s+)?warranty/i, (m) => amount(m[1], m[2])) ??
    first(/warranty\s*(?:of|:)?\s*(\d+)\s*(years?|months?|days?)/i, (m) => amount(m[1], m[2])) ??
    first(/(?:保修|质保)\s*(\d+)\s*(年|个月|天)/, (m) => `${m[1]} ${m[2]}`);
  const returns =
    first(/(\d+)[-\s]?days?\s+(?:free\s+)?returns?/i, (m) => `${m[1]} days`) ??
    first(/returns?\s+within\s+(\d+)\s+days?/i, (m) => `${m[1]} days`) ??
    first(/(\d+)\s*天无理由退(?:换)?货/, (m) => `${m[1]} 天`);
  const shipping =
    first(/ships?\s+(?:with)?in\s+(\d+(?:\s?[–-]\s?\d+)?)\s+(?:business\s+)?days?/i, (m) => `${m[1]} days`) ??
    first(/(\d+(?:\s?[–-]\s?\d+)?)\s*(?:天|小时)内?发货/, (m) => m[0]);
  const bullet = /^\s*(?:[-*•·]|\d+[.)、])\s*/;
  const features = body
    .split(/\n+/)
    .filter((l) => bullet.test(l))
    .map((l) => clean(l.replace(bullet, '')))
    .filter((l) => l.length > 2 && l.length <= 200)
    .slice(0, 10);
  const sentences = body.split(/(?<=[.!?])\s+|(?<=[。！？])|\n+/).map(clean).filter(Boolean);
  const summary = (sentences[0] ?? '').slice(0, 300);
  return { summary, price, sizes, capacity, dimensions, weight, materials, colors, warranty, returns, shipping, features };
}

const LABELS: Array<[keyof ProductAttributes, string]> = [
  ['summary', 'Summary / 概述'],
  ['price', 'Price / 价格'],
  ['sizes', 'Sizes / 尺码'],
  ['capacity', 'Capacity / 容量'],
  ['dimensions', 'Dimensions / 尺寸'],
  ['weight', 'Weight / 重量'],
  ['materials', 'Materials / 材质'],
  ['colors', 'Colours / 颜色'],
  ['warranty', 'Warranty / 保修'],
  ['returns', 'Returns / 退货'],
  ['shipping', 'Shipping / 发货'],
  ['features', 'Features / 卖点'],
];

/** The identified description as people read it: the method first, then one line per attribute found. */
export function describe(title: string, a: Partial<ProductAttributes>, method: string): string {
  const lines = [`[${method}]`, `Title / 标题: ${title}`];
  for (const [key, label] of LABELS) {
    const v = a[key];
    if (v === null || v === undefined || v === '' || (Array.isArray(v) && !v.length)) continue;
    lines.push(`${label}: ${Array.isArray(v) ? v.join(', ') : String(v)}`);
  }
  return lines.join('\n');
}

const SYSTEM_PROMPT =
  'You extract product attributes for a customer-service knowledge base. Reply with ONE JSON object and nothing else: ' +
  '{"summary": string, "price": string|null, "sizes": string[], "capacity": string|null, "dimensions": string|null, "weight": string|null, ' +
  '"materials": string[], "colors": string[], "warranty": string|null, "returns": string|null, "shipping": string|null, "features": string[]}. ' +
  'Use only facts stated in the text, in the language of the text; null or [] when the text does not say.';

/** The first JSON object in a model reply (models sometimes wrap it in prose or a code fence). */
export function parseModelAttributes(text: string): Partial<ProductAttributes> | null {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  try {
    const v = JSON.parse(text.slice(start, end + 1)) as Record<string, unknown>;
    if (!v || typeof v !== 'object') return null;
    const out: Partial<ProductAttributes> = {};
    for (const [key] of LABELS) {
      const x = v[key];
      if (Array.isArray(x)) (out as Record<string, unknown>)[key] = x.filter((y) => typeof y === 'string' || typeof y === 'number').map(String).slice(0, 20);
      else if (typeof x === 'string' || typeof x === 'number') (out as Record<string, unknown>)[key] = String(x).slice(0, 1000);
    }
    return out;
  } catch {
    return null;
  }
}

interface ModelOutcome {
  kind: 'ok' | 'no_model' | 'failed';
  attributes?: Partial<ProductAttributes>;
  server?: string;
  error?: string;
}

/** Asks the model gateway, when it is there (it is loaded lazily: a missing gateway means no model). */
async function askModel(ctx: JobContext, shopId: number, title: string, body: string): Promise<ModelOutcome> {
  let gateway: typeof import('../../ai/gateway/index.js');
  try {
    gateway = await import('../../ai/gateway/index.js');
  } catch {
    return { kind: 'no_model' };
  }
  const r = await gateway.chat({
    db: ctx.db,
    shopId,
    channel: 'chat',
    messages: [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: `Title: ${title}\n\nDescription:\n${body.slice(0, 12000)}` },
    ],
    temperature: 0,
    maxTokens: 800,
    signal: ctx.signal,
  });
  if (r.outcome === 'no_model') return { kind: 'no_model' };
  const server = r.server ? `${r.server.name} (${r.server.model})` : 'model';
  if (r.outcome !== 'ok') return { kind: 'failed', server, error: r.error || `the model gave no answer (${r.outcome})` };
  const attributes = parseModelAttributes(r.text) ?? { summary: r.text.trim().slice(0, 1000) };
  return { kind: 'ok', attributes, server };
}

interface DescRow {
  shop_id: number;
  title: string;
  description: string;
}

/** Writes the outcome, only while this job is still the one named on the row. */
async function settle(db: Db, id: number, jobId: number, values: { status: 2 | 3; desc?: string; attributes?: object; method?: string; error?: string; at: Date }) {
  await db.query(
    `UPDATE product_desc
        SET status = $3::smallint,
            identified_desc = CASE WHEN $3::smallint = 2 THEN $4::text ELSE identified_desc END,
            attributes = CASE WHEN $3::smallint = 2 THEN $5::jsonb ELSE attributes END,
            identify_method = CASE WHEN $3::smallint = 2 THEN $6::varchar ELSE identify_method END,
            identify_error = $7, identified_at = $8, updated_at = now()
      WHERE id = $1 AND identify_job_id = $2`,
    [id, jobId, values.status, values.desc ?? '', JSON.stringify(values.attributes ?? {}), values.method ?? '', (values.error ?? '').slice(0, 1000), values.at],
  );
}

export const reidentifyKind: JobKind<{ descId: number }> = {
  kind: REIDENTIFY_KIND,
  title: (d) => `Identify product description ${d.descId} / 识别商品描述 ${d.descId}`,
  maxAttempts: 3,
  retryDelaySeconds: 5,
  async run(ctx) {
    const id = ctx.job.data.descId;
    const jobId = ctx.job.id;
    const r = await ctx.db.query<DescRow>(
      `UPDATE product_desc SET status = 1, updated_at = now() WHERE id = $1 AND identify_job_id = $2 RETURNING shop_id, title, description`,
      [id, jobId],
    );
    const row = r.rows[0];
    // deleted, or a newer 重新识别 took over: nothing to do
    if (!row) return { skipped: true };
    await ctx.progress(0, 1);
    const body = plainText(row.description);
    if (!body && !row.title.trim()) {
      await settle(ctx.db, id, jobId, { status: 3, error: 'nothing to identify: the product has no title or description / 商品没有标题和描述，无可识别内容', at: ctx.now() });
      return { status: 3 };
    }
    const model = await askModel(ctx, row.shop_id, row.title, body);
    if (model.kind === 'failed') {
      const reason = `model ${model.server ?? ''} failed: ${model.error ?? ''} / 模型识别失败`;
      if (ctx.job.attempt < (reidentifyKind.maxAttempts ?? 3)) throw new Error(reason);
      await settle(ctx.db, id, jobId, { status: 3, error: reason, at: ctx.now() });
      throw new PermanentJobError(reason);
    }
    const method = model.kind === 'ok' ? `Model ${model.server} / 模型识别` : BUILTIN_LABEL;
    const attributes = model.kind === 'ok' ? model.attributes! : extractAttributes(row.title, row.description);
    await settle(ctx.db, id, jobId, {
      status: 2,
      desc: describe(row.title, attributes, method),
      attributes,
      method: model.kind === 'ok' ? 'model' : 'builtin',
      at: ctx.now(),
    });
    await ctx.progress(1, 1);
    return { status: 2, method: model.kind === 'ok' ? 'model' : 'builtin', server: model.server ?? null };
  },
};
