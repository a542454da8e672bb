/**
 * `image.extract` (识别): reads the text of an uploaded image and its attributes with a
 * vision-capable model server (docs/ai.md "Image extraction").
 *
 * - The image (bytes kept in `image_file`) goes to the FIRST ENABLED model server marked
 *   `supports_vision` as a base64 data URL in an OpenAI chat `image_url` content part, through the
 *   model gateway (so the call is one `model_call` row: server, model, latency, tokens, outcome).
 *   The model is asked for JSON `{ text, attributes }`; `extracted_text` gets the text,
 *   `extra_info` the attributes as lines, `attributes` the JSON.
 * - With no such server the row says so (status 4, the reason in `extract_error`) and no text is
 *   written: nothing pretends to extract.
 * - An image that is not stored in the console (an outside address) cannot be read: status 3.
 *
 * Status: 0 not extracted, 1 extracting, 2 extracted, 3 failed, 4 no vision model. Only the job
 * named in `extract_job_id` writes the row, so a newer 识别 supersedes an older one.
 */
import type { Db } from '../../db/db.js';
import { PermanentJobError, type JobKind } from '../../jobs/types.js';

export const IMAGE_EXTRACT_KIND = 'image.extract';

export const EXTRACT_STATUS = { none: 0, running: 1, done: 2, failed: 3, noVision: 4 } as const;

export const NO_VISION_MODEL =
  'no enabled model server reads images: mark one as vision in configCenter/server (模型服务配置) / 没有启用的视觉模型服务：请在 配置中心 → 模型服务配置 中启用一个支持视觉的模型服务';
export const NOT_STORED =
  'the image is not stored in the console (an outside address): upload it to extract its text / 图片不在控制台中（外部地址），请上传图片后再识别';

/** The first enabled model server that reads images (lowest id), or null. */
export async function firstVisionServer(db: Pick<Db, 'query'>): Promise<{ id: number; name: string; model: string } | null> {
  const r = await db.query<{ id: number; name: string; model: string }>(
    `SELECT id, name, model FROM config_model_server WHERE enabled AND supports_vision ORDER BY id LIMIT 1`,
  );
  return r.rows[0] ?? null;
}

const ATTRIBUTE_LABELS: Record<string, string> = {
  product: 'Product / 商品',
  brand: 'Brand / 品牌',
  size: 'Size / 尺码',
  colour: 'Colour / 颜色',
  color: 'Colour / 颜色',
  price: 'Price / 价格',
  material: 'Material / 材质',
};

const SYSTEM_PROMPT =
  'You read images for a customer-service knowledge base. Reply with ONE JSON object and nothing else: ' +
  '{"text": string, "attributes": {"product": string|null, "brand": string|null, "size": string|null, "colour": string|null, ' +
  '"price": string|null, "material": string|null, "other": {"<attribute>": string}}}. ' +
  '"text" is all the text visible in the image, line by line, in its own language ("" when there is none). ' +
  '"attributes" are what the image itself shows (product name, brand, sizes, colours, price, material, any other attribute under "other"); ' +
  'null when the image does not show it. Never guess.';

export interface ImageReading {
  text: string;
  attributes: Record<string, string>;
}

const str = (v: unknown): string | null => {
  if (typeof v === 'string') return v.trim() || null;
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) {
    const xs = v.filter((x) => typeof x === 'string' || typeof x === 'number').map(String);
    return xs.length ? xs.join(', ') : null;
  }
  return null;
};

/** The model's reply as text and attributes: its first JSON object, else the whole reply as the text. */
export function parseReading(reply: string): ImageReading {
  const start = reply.indexOf('{');
  const end = reply.lastIndexOf('}');
  if (start >= 0 && end > start) {
    try {
      const v = JSON.parse(reply.slice(start, end + 1)) as Record<string, unknown>;
      if (v && typeof v === 'object' && !Array.isArray(v)) {
        const attributes: Record<string, string> = {};
        const a = (v.attributes && typeof v.attributes === 'object' ? v.attributes : {}) as Record<string, unknown>;
        for (const [k, x] of Object.entries(a)) {
          if (k === 'other' && x && typeof x === 'object' && !Array.isArray(x)) {
            for (const [ok, ox] of Object.entries(x as Record<string, unknown>)) {
              const s = str(ox);
              if (s && ok.trim()) attributes[ok.trim().slice(0, 100)] = s.slice(0, 1000);
            }
            continue;
          }
          const s = str(x);
          if (s) attributes[(k === 'color' ? 'colour' : k).slice(0, 100)] = s.slice(0, 1000);
        }
        return { text: (str(v.text) ?? '').slice(0, 20000), attributes };
      }
    } catch {
      /* not JSON: the reply is the text */
    }
  }
  return { text: reply.trim().slice(0, 20000), attributes: {} };
}

/** The attributes as people read them, one line each (known ones labelled in both languages). */
export function describeAttributes(a: Record<string, string>): string {
  return Object.entries(a)
    .map(([k, v]) => `${ATTRIBUTE_LABELS[k] ?? k}: ${v}`)
    .join('\n');
}

interface Outcome {
  status: 2 | 3 | 4;
  reading?: ImageReading;
  model?: string;
  error?: string;
}

/** Writes the outcome, only while this job is still the one named on the row. */
async function settle(db: Db, id: number, jobId: number, o: Outcome, at: Date): Promise<void> {
  const done = o.status === EXTRACT_STATUS.done;
  await db.query(
    `UPDATE image_extraction
        SET extract_status = $3::smallint,
            extracted_text = CASE WHEN $4::boolean THEN $5::text ELSE extracted_text END,
            extra_info = CASE WHEN $4::boolean THEN $6::text ELSE extra_info END,
            attributes = CASE WHEN $4::boolean THEN $7::jsonb ELSE attributes END,
            extract_model = $8, extract_error = $9, extracted_at = CASE WHEN $4::boolean THEN $10::timestamptz ELSE extracted_at END,
            updated_at = now()
      WHERE id = $1 AND extract_job_id = $2`,
    [
      id,
      jobId,
      o.status,
      done,
      o.reading?.text ?? '',
      done ? describeAttributes(o.reading?.attributes ?? {}) : '',
      JSON.stringify(o.reading?.attributes ?? {}),
      (o.model ?? '').slice(0, 300),
      (o.error ?? '').slice(0, 1000),
      at,
    ],
  );
}

const MAX_ATTEMPTS = 2;

export const imageExtractKind: JobKind<{ rowId: number }> = {
  kind: IMAGE_EXTRACT_KIND,
  title: (d) => `Extract image #${d.rowId} / 识别图片 #${d.rowId}`,
  maxAttempts: MAX_ATTEMPTS,
  retryDelaySeconds: 5,
  timeoutSeconds: 5 * 60,
  async run(ctx) {
    const id = ctx.job.data.rowId;
    const jobId = ctx.job.id;
    const r = await ctx.db.query<{ shop_id: number; title: string; image_file_id: number | null }>(
      `UPDATE image_extraction SET extract_status = 1, updated_at = now() WHERE id = $1 AND extract_job_id = $2 RETURNING shop_id, title, image_file_id`,
      [id, jobId],
    );
    const row = r.rows[0];
    if (!row) return { skipped: 'the row was deleted or a newer extraction took over' };
    await ctx.progress(0, 1);
    if (row.image_file_id === null) {
      await settle(ctx.db, id, jobId, { status: 3, error: NOT_STORED }, ctx.now());
      throw new PermanentJobError(NOT_STORED);
    }
    const server = await firstVisionServer(ctx.db);
    if (!server) {
      await settle(ctx.db, id, jobId, { status: 4, error: NO_VISION_MODEL }, ctx.now());
      return { status: 4, reason: 'no vision model' };
    }
    const f = await ctx.db.query<{ content_type: string; data: Uint8Array }>(`SELECT content_type, data FROM image_file WHERE id = $1`, [row.image_file_id]);
    if (!f.rows[0]) {
      await settle(ctx.db, id, jobId, { status: 3, error: NOT_STORED }, ctx.now());
      throw new PermanentJobError(NOT_STORED);
    }
    const dataUrl = `data:${f.rows[0].content_type};base64,${Buffer.from(f.rows[0].data).toString('base64')}`;
    const gateway = await import('../../ai/gateway/index.js');
    const label = `${server.name} (${server.model})`;
    let failure: string;
    try {
      const res = await gateway.chat({
        db: ctx.db,
        shopId: row.shop_id,
        channel: 'chat',
        sessionKey: `image-extraction:${id}`,
        modelServerId: server.id,
        messages: [
          { role: 'system', content: SYSTEM_PROMPT },
          {
            role: 'user',
            content: [
              { type: 'text', text: `Image title: ${row.title}\nRead the text in this image and its attributes.` },
              { type: 'image_url', image_url: { url: dataUrl } },
            ],
          },
        ],
        temperature: 0,
        maxTokens: 2000,
        signal: ctx.signal,
      });
      if (res.outcome === 'ok') {
        const reading = parseReading(res.text);
        await settle(ctx.db, id, jobId, { status: 2, reading, model: res.server ? `${res.server.name} (${res.server.model})` : label }, ctx.now());
        await ctx.progress(1, 1);
        return { status: 2, server: label, chars: reading.text.length, attributes: Object.keys(reading.attributes).length };
      }
      failure = res.error || `the model gave no answer (${res.outcome}) / 模型没有回答`;
    } catch (e) {
      failure = (e as Error).message; // the server was disabled meanwhile (40001), or the database
    }
    const reason = `model ${label} failed: ${failure} / 视觉模型识别失败`;
    if (ctx.job.attempt < MAX_ATTEMPTS) throw new Error(reason);
    await settle(ctx.db, id, jobId, { status: 3, error: reason, model: label }, ctx.now());
    throw new PermanentJobError(reason);
  },
};
