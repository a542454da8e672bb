import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from './typebox.js';

/**
 * Replies of the permission tree's calls (server/routes/permissions.ts), declared once: the
 * server's reply schemas and the console's type of a tree node (the role form's permission
 * tree, src/widgets/inputs/PermissionTree.tsx).
 */

/** one permission as `permission/list`, `permission/create` and `permission/update` return it */
export const PermissionItemReply = Type.Object({
  id: Type.Integer(),
  pid: Type.Integer(),
  module: Type.String(),
  permission_key: Type.String(),
  permission_name: Type.String(),
  permission_name_en: Type.String(),
  /** 1 menu, 2 page, 3 button, 4 module */
  permission_type: Type.Integer(),
  permission_type_name: StringEnum(['menu', 'page', 'button', 'module']),
  frontend_route: Type.String(),
  sort: Type.Integer(),
});
export type PermissionItem = Static<typeof PermissionItemReply>;

/** a node of `GET permission/tree`: a permission and its children (spec section 3) */
export type PermissionTreeNode = PermissionItem & { children_recursive: PermissionTreeNode[] };

/**
 * The node's JSON is the one the route always declared (it names itself with `$id`, its children
 * refer back with `$ref`, which the serialiser and the OpenAPI document resolve); its static type
 * is the recursive `PermissionTreeNode` above.
 */
const PermissionTreeNodeReply = Type.Unsafe<PermissionTreeNode>({
  $id: 'PermissionTreeNode',
  type: 'object',
  properties: { ...PermissionItemReply.properties, children_recursive: { type: 'array', items: { $ref: 'PermissionTreeNode#' } } },
});

/** `GET permission/tree`: the roots (module entries), children in `children_recursive` */
export const PermissionNodesReply = Type.Array(PermissionTreeNodeReply);
