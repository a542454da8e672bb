import type { FieldDef } from './types.js';

/** Small builders for the common field shapes. */
export const F = {
  id: (): FieldDef => ({ schema: { type: 'integer' }, readOnly: true, sort: true }),
  createdAt: (): FieldDef => ({ schema: { type: 'string', format: 'date-time' }, readOnly: true, filter: 'range', sort: true }),
  updatedAt: (): FieldDef => ({ schema: { type: 'string', format: 'date-time' }, readOnly: true, sort: true }),
  str: (maxLength: number, extra: Partial<FieldDef> = {}, minLength = 0): FieldDef => ({
    schema: { type: 'string', maxLength, ...(minLength ? { minLength } : {}) },
    ...extra,
  }),
  text: (maxLength = 20000, extra: Partial<FieldDef> = {}): FieldDef => ({ schema: { type: 'string', maxLength }, ...extra }),
  int: (minimum: number, maximum: number, extra: Partial<FieldDef> = {}): FieldDef => ({
    schema: { type: 'integer', minimum, maximum },
    ...extra,
  }),
  money: (extra: Partial<FieldDef> = {}): FieldDef => ({
    schema: { type: 'number', minimum: 0, maximum: 9999999999 },
    filter: 'range',
    sort: true,
    ...extra,
  }),
  enumOf: <T extends string | number>(values: readonly T[], extra: Partial<FieldDef> = {}): FieldDef => ({
    schema: { type: typeof values[0] === 'number' ? 'integer' : 'string', enum: [...values] },
    filter: 'eq',
    // a status or type column sorts (lists group by it); a virtual one only where it says so
    sort: !extra.virtual,
    ...extra,
  }),
  bool: (extra: Partial<FieldDef> = {}): FieldDef => ({ schema: { type: 'boolean' }, filter: 'eq', ...extra }),
  /** a time column sorts (unless virtual or told otherwise) */
  dateTime: (extra: Partial<FieldDef> = {}): FieldDef => ({ schema: { type: 'string', format: 'date-time' }, sort: !extra.virtual, ...extra }),
  email: (extra: Partial<FieldDef> = {}): FieldDef => ({ schema: { type: 'string', format: 'email', maxLength: 200 }, ...extra }),
  url: (extra: Partial<FieldDef> = {}): FieldDef => ({ schema: { type: 'string', maxLength: 500, pattern: '^(https?://\\S+)?$' }, ...extra }),
  /** a shop reference: filterable, required on create */
  shopId: (extra: Partial<FieldDef> = {}): FieldDef => ({
    schema: { type: 'integer', minimum: 1, maximum: 2147483647 },
    filter: 'eq',
    required: true,
    ...extra,
  }),
  /** the shop's name, read through a correlated lookup by primary key */
  shopName: (col = 'shop_id'): FieldDef => ({
    schema: { type: 'string' },
    nullable: true,
    virtual: true,
    select: `(SELECT s.name FROM shop s WHERE s.id = t.${col})`,
  }),
  /**
   * Filter only (a list's mail-account picker, spec: GET shop/mail-account/list): the rows of that
   * account's shop; a detail names the shop's first mail account.
   */
  mailAccountFilter: (): FieldDef => ({
    schema: { type: 'integer', minimum: 1, maximum: 2147483647 },
    nullable: true,
    virtual: true,
    detailOnly: true,
    filter: 'eq',
    select: '(SELECT min(m.id) FROM mail_account m WHERE m.shop_id = t.shop_id)',
    filterWhere: 't.shop_id = (SELECT m.shop_id FROM mail_account m WHERE m.id = $value)',
  }),
};
