/** Recorded replies of the admin_center API (shapes from server/routes), for schema render tests. */
const ts = '2026-01-02T03:04:05.000Z';

export const PERMISSION_TREE = [
  {
    id: 1,
    pid: 0,
    module: 'admin_center',
    permission_key: 'admin_center_home',
    permission_name: '管理中心',
    permission_type: 4,
    frontend_route: '/admin_center/home',
    children_recursive: [
      {
        id: 2,
        pid: 1,
        module: 'admin_center',
        permission_key: 'admin.permission.role',
        permission_name: 'Roles page',
        permission_type: 2,
        frontend_route: '/admin_center/authCenter/role',
        children_recursive: [
          { id: 3, pid: 2, module: 'admin_center', permission_key: 'admin.permission.role.delete', permission_name: 'Delete role', permission_type: 3, frontend_route: '', children_recursive: [] },
        ],
      },
    ],
  },
];

export const ROLE = { id: 7, name: 'Operators', is_super_admin: false, permission_ids: [1, 2, 3], account_count: 2, created_at: ts, updated_at: ts };

export const ADMIN_FIXTURES: Record<string, unknown> = {
  'GET permission/tree': PERMISSION_TREE,
  'GET role/list': { list: [ROLE, { ...ROLE, id: 8, name: 'Auditors', account_count: 0 }], total: 2, page: 1, page_size: 10 },
  'GET role/all': [
    { id: 7, name: 'Operators', is_super_admin: false },
    { id: 8, name: 'Auditors', is_super_admin: false },
  ],
  'GET role/detail': ROLE,
  'GET account/list': {
    list: [
      { id: 11, email: 'ops@example.com', name: 'Olga Ops', status: 1, roles: [{ id: 7, name: 'Operators', is_super_admin: false }], role_ids: [7], last_login_at: ts, created_at: ts, updated_at: ts },
    ],
    total: 1,
    page: 1,
    page_size: 10,
  },
  'GET audit-log/list': {
    list: [
      { id: 99, actor_id: 1, actor_email: 'admin@example.com', action: 'update', resource: 'role', target_id: '7', before: { name: 'Ops' }, after: { name: 'Operators' }, ip: '127.0.0.1', user_agent: 'test', created_at: ts },
    ],
    total: 1,
    page: 1,
    page_size: 10,
  },
};
