import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './typebox.js';

/**
 * `GET session-area/shop-options` (server/resources/sessions/index.ts): shops for the pickers of
 * the session, config, tools and prompt pages, declared once for the server's reply and the
 * console's viewers.
 */
export const ShopOption = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  /** `id-name` */
  label: Type.String(),
  type: Type.Integer(),
  /** the shop's customer (merchant user) name */
  customer: Nullable(Type.String()),
});
export const ShopOptionsReply = Type.Array(ShopOption);

/**
 * `GET shop-list` (server/resources/shops/shop.ts): the shared shop picker's rows (any page's
 * picker), with the environment; prod shops are labelled `id-name`, others `[env] name`. The
 * console's shop picker (src/widgets/inputs/ShopPicker.tsx) reads its id, label, type and customer.
 */
export const ShopListItem = Type.Object({ ...ShopOption.properties, env: Type.String() });
export const ShopListReply = Type.Array(ShopListItem);

export type ShopOption = Static<typeof ShopOption>;
export type ShopListItem = Static<typeof ShopListItem>;
