/**
 * A shop picker that tells look-alike shops apart (issue 26): each option shows the shop's id,
 * type and customer under its name, the search matches all of them, and the shops this browser
 * picked lately come first (./recent-shops.ts). The runtime's `GET shop-list` pickers
 * (RemoteSelect) and the session viewers use it.
 */
import { Select, Typography } from 'antd';
import type { SelectProps } from 'antd';
import { useMemo } from 'react';
import shopType from '../../../schemas/enums/shop_type.json';
import { enumLabel, type EnumDef, type EnumLocale } from '../../contract/enums.js';
import type { ShopListItem } from '../../contract/replies/shops.js';
import { rankRecent, rememberShop } from './recent-shops.js';

/** a row of `GET shop-list` (src/contract/replies/shops.ts) as the picker reads it: type and customer may be missing */
export type ShopItem = Pick<ShopListItem, 'id' | 'label'> & { type?: ShopListItem['type'] | null; customer?: ShopListItem['customer'] };

const SHOP_TYPE = shopType as EnumDef;

export function shopDescription(s: ShopItem, locale: EnumLocale, noCustomer: string): string {
  const type = s.type === undefined || s.type === null ? '' : enumLabel(SHOP_TYPE, s.type, locale);
  return [`#${s.id}`, type, s.customer || noCustomer].filter(Boolean).join(' · ');
}

type Props = Omit<SelectProps, 'options'> & {
  shops: readonly ShopItem[];
  locale: EnumLocale;
  t(key: string): string;
};

export function ShopPicker({ shops, locale, t, onChange, ...rest }: Props) {
  const options = useMemo(() => {
    const { items, recent } = rankRecent(shops, (s) => s.id);
    const noCustomer = t('runtime.shopPicker.noCustomer');
    return items.map((s) => {
      const desc = shopDescription(s, locale, noCustomer);
      return { value: s.id, label: s.label, desc, recent: recent.has(s.id), search: `${s.label} ${desc}`.toLowerCase() };
    });
    // the ranking reads the recent list once per option list (a pick re-ranks on the next open)
  }, [shops, locale, t]);
  return (
    <Select
      allowClear
      showSearch
      filterOption={(input, o) => !!o && String(o.search).includes(input.trim().toLowerCase())}
      optionRender={(o) => (
        <div data-testid="shop-option" data-id={o.value}>
          <div>
            {o.data.label}
            {o.data.recent ? (
              <Typography.Text type="secondary" style={{ fontSize: 12, marginInlineStart: 6 }}>
                {t('runtime.shopPicker.recent')}
              </Typography.Text>
            ) : null}
          </div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {o.data.desc}
          </Typography.Text>
        </div>
      )}
      {...rest}
      options={options}
      onChange={(v, o) => {
        if (Array.isArray(v)) v.forEach(rememberShop);
        else rememberShop(v);
        onChange?.(v, o);
      }}
    />
  );
}
