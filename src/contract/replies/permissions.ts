import { Type, type Static } from '@sinclair/typebox';
import { PermissionRow } from './session.js';
import { StringEnum } from './typebox.js';

/**
 * Replies of the permission tree's calls (server/routes/permissions.ts), declared once: the
 * server's reply schemas and the console's type of a tree node (the role form's permission
 * tree, src/widgets/inputs/PermissionTree.tsx).
 */

const { frontend_route, ...head } = PermissionRow.properties;

/**
 * one permission as `permission/list`, `permission/create` and `permission/update` return it: a
 * record of `account/role-permissions` (replies/session.ts) with its type's name and its sort
 */
export const PermissionItemReply = Type.Object({
  ...head,
  permission_type_name: StringEnum(['menu', 'page', 'button', 'module']),
  frontend_route,
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
