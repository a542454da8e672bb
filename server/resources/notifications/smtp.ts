/**
 * The console's outgoing mail server for notices (one setting, `notification_smtp` row 1):
 * `GET notification/smtp` shows it with the password masked, `POST notification/smtp/save`
 * changes it. The password is write-only: stored encrypted (server/ai/secrets.ts), never
 * returned, never in an audit row or a log line; an empty `password` keeps the stored one, and
 * `clear_password` removes it. A changed host drops a stored password unless it is typed again.
 */
import { Type, type Static } from '@sinclair/typebox';
import { encryptSecret, maskSecret } from '../../ai/secrets.js';
import { classifyAddress } from '../../http/addresses.js';
import { invalid } from '../../http/errors.js';
import { route } from '../../http/route.js';
import { Nullable } from '../../http/typebox.js';
import type { Queryable } from '../../db/db.js';
import { NK } from './keys.js';

const reply = Type.Object({
  configured: Type.Boolean(),
  host: Type.String(),
  port: Type.Integer(),
  secure: Type.Boolean(),
  username: Type.String(),
  password_masked: Type.String(),
  from_address: Type.String(),
  updated_at: Nullable(Type.String({ format: 'date-time' })),
});

interface SmtpRow {
  host: string;
  port: number;
  secure: boolean;
  username: string;
  password_mask: string;
  from_address: string;
  updated_at: Date | null;
}

async function read(db: Queryable, lock = false): Promise<Static<typeof reply>> {
  const r = (await db.query<SmtpRow>(`SELECT host, port, secure, username, password_mask, from_address, updated_at FROM notification_smtp WHERE id = 1${lock ? ' FOR UPDATE' : ''}`)).rows[0];
  const row = r ?? { host: '', port: 587, secure: false, username: '', password_mask: '', from_address: '', updated_at: null };
  const { password_mask, updated_at, ...rest } = row;
  return {
    configured: !!row.host && !!row.from_address,
    ...rest,
    password_masked: password_mask,
    updated_at: updated_at === null ? null : new Date(updated_at).toISOString(),
  };
}

const getRoute = route({
  method: 'GET',
  path: 'notification/smtp',
  access: { permission: [NK.smtp, NK.channel] },
  tags: ['notification'],
  summary: 'The mail server (SMTP) notices are sent through; the password is never returned, only its mask',
  query: Type.Object({}, { additionalProperties: false }),
  reply,
  handler: async (ctx) => read(ctx.db),
});

const HOST = '^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$|^\\[?[0-9A-Fa-f:.]+\\]?$';
const EMAIL_FROM = '^(.{0,100}<)?[^@\\s<>]+@[^@\\s<>]+\\.[^@\\s<>]+>?$';

const saveRoute = route({
  method: 'POST',
  path: 'notification/smtp/save',
  access: { permission: NK.smtp },
  tags: ['notification'],
  summary: 'Set the mail server notices are sent through (the password is stored encrypted and never returned)',
  body: Type.Object(
    {
      host: Type.String({ minLength: 1, maxLength: 200, pattern: HOST }),
      port: Type.Integer({ minimum: 1, maximum: 65535 }),
      secure: Type.Optional(Type.Boolean()),
      username: Type.Optional(Type.String({ maxLength: 200 })),
      password: Type.Optional(Type.String({ maxLength: 500 })),
      clear_password: Type.Optional(Type.Boolean()),
      from_address: Type.String({ minLength: 3, maxLength: 200, pattern: EMAIL_FROM }),
      // what the form showed (the stored password's mask): sent back by the console's form, ignored
      password_masked: Type.Optional(Type.String({ maxLength: 40 })),
    },
    { additionalProperties: false },
  ),
  reply,
  handler: async (ctx) => {
    const { host, port, secure = false, username = '', password = '', clear_password: clear, from_address } = ctx.body;
    const c = classifyAddress(host.replace(/^\[|\]$/g, ''));
    if (c.cls === 'forbidden') throw invalid([{ field: 'host', message: `is a ${c.en} address, never called / 是${c.zh}，不允许调用` }]);
    const before = await read(ctx.db, true);
    const moved = before.host !== '' && before.host.toLowerCase() !== host.toLowerCase();
    let enc: string | null = null;
    let mask = before.password_masked;
    if (password) {
      enc = encryptSecret(password, 'password');
      mask = maskSecret(password);
    } else if (clear || moved) {
      enc = '';
      mask = '';
    }
    await ctx.db.query(
      `INSERT INTO notification_smtp (id, host, port, secure, username, from_address, password_mask, password_enc, updated_at)
       VALUES (1, $1, $2, $3, $4, $5, $6, coalesce($7, ''), now())
       ON CONFLICT (id) DO UPDATE SET host = $1, port = $2, secure = $3, username = $4, from_address = $5, password_mask = $6,
              password_enc = coalesce($7, notification_smtp.password_enc), updated_at = now()`,
      [host, port, secure, username, from_address, mask, enc],
    );
    const after = await read(ctx.db);
    await ctx.audit({ action: 'update', resource: 'notification_smtp', targetId: 1, before, after });
    return after;
  },
});

export const smtpRoutes = [getRoute, saveRoute];
