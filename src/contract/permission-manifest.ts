/**
 * The hand-written part of the permission tree: modules, menu groups, bespoke screens, hidden
 * pages without a schema of their own, and buttons, with every key of spec section 6 verbatim.
 * Menu pages drawn by a schema are NOT listed here: each page schema declares its route, menu
 * entry (`menu`: group, order, icon), title and permission key, and the whole tree is derived
 * from this manifest plus the schemas (src/contract/page-menu.ts `derivePermissionTree`; the
 * server does it from its schema store and serves it, `GET permission-tree`). The buttons and
 * hidden pages of such a page sit in `pageChildren`, by the page's key. The server seeds the
 * permission table from the derived tree, the client builds its routes and menus from it, and
 * `schemas:check` checks schema permission keys and routes against it.
 *
 * A node's flattened key is `module + "." + key` (spec section 6). `route` is relative to the
 * module (`shop/list` → `/intelligent_text/shop/list`). `hidden` routes exist but have no
 * menu entry. Titles are in both locales here, so no second copy is kept in the locale files
 * (a derived page's title is its schema's `title` key, read from the locale files).
 */

export type ModuleName = 'intelligent_text' | 'intelligent_voice' | 'panda_descendant' | 'admin_center';
export const MODULES: readonly ModuleName[] = ['intelligent_text', 'intelligent_voice', 'panda_descendant', 'admin_center'];
export const UNAUTH_COMMON = 'unauth_common';

/** permission_type values of spec section 3. */
export const PermissionType = { MENU: 1, PAGE: 2, BUTTON: 3, MODULE: 4 } as const;
export type PermissionTypeValue = (typeof PermissionType)[keyof typeof PermissionType];

export interface Title {
  'zh-CN': string;
  'en-US': string;
}

export interface ManifestNode {
  key: string;
  type: PermissionTypeValue;
  title: Title;
  /** route relative to the module, without a leading slash */
  route?: string;
  hidden?: boolean;
  /** other paths (relative to the module) that open the same page */
  aliases?: string[];
  /** position within its menu group (pages derived from schemas carry their `menu.order`) */
  order?: number;
  /** antd icon name of the collapsed side menu (src/contract/menu-icons.ts); pages derived from schemas carry `menu.icon` */
  icon?: string;
  children?: ManifestNode[];
}

export interface ModuleManifest {
  module: ModuleName;
  title: Title;
  home: ManifestNode;
  menus: ManifestNode[];
  /**
   * Buttons and hidden pages of the pages a schema declares (by the page's unflattened key):
   * attached under the derived page node (src/contract/page-menu.ts `deriveManifest`).
   */
  pageChildren?: Record<string, ManifestNode[]>;
}

const t = (zh: string, en: string): Title => ({ 'zh-CN': zh, 'en-US': en });
const menu = (key: string, title: Title, children: ManifestNode[]): ManifestNode => ({ key, type: 1, title, children });
const page = (key: string, route: string, title: Title, extra: Partial<ManifestNode> = {}): ManifestNode => ({
  key,
  type: 2,
  title,
  route,
  ...extra,
});
const hiddenPage = (key: string, route: string, title: Title, extra: Partial<ManifestNode> = {}) =>
  page(key, route, title, { ...extra, hidden: true });
const button = (key: string, title: Title): ManifestNode => ({ key, type: 3, title });

const ADD = t('新增', 'Add');
const EDIT = t('编辑', 'Edit');
const DETAIL = t('详情', 'Detail');
const DELETE = t('删除', 'Delete');

/** The four hidden task pages shared by taskList and ratingTaskList. */
function taskPages(base: string, routeBase: string): ManifestNode[] {
  return [
    hiddenPage(`${base}.add`, `${routeBase}/addTask`, t('新增任务', 'Add task')),
    hiddenPage(`${base}.edit`, `${routeBase}/editTask/:id`, t('编辑任务', 'Edit task')),
    hiddenPage(`${base}.detail`, `${routeBase}/detail/:id`, t('任务详情', 'Task detail')),
    hiddenPage(`${base}.result`, `${routeBase}/detail/result/:id`, t('任务结果', 'Task result')),
  ];
}

export const MANIFEST: ModuleManifest[] = [
  {
    module: 'intelligent_text',
    title: t('智能文本', 'Intelligent text'),
    home: page('text_home', 'home', t('文本首页', 'Text home'), { hidden: true }),
    menus: [
      menu('text.script_manage', t('话术管理', 'Script management'), [
        page('text.script_manage.playground', 'scriptManage/playground', t('提示词调试', 'Prompt playground'), { order: 20 }),
        hiddenPage('text.script_manage.trace', 'scriptManage/trace/:id', t('回答追踪', 'Answer trace'), { order: 90 }),
      ]),
      menu('text.shop', t('店铺与客户', 'Shops and customers'), [
        hiddenPage('text.shop.session_category', 'shop/sessionCategory', t('会话分类', 'Session categories'), { order: 60 }),
      ]),
      menu('text.order', t('订单', 'Orders'), []),
      menu('text.session', t('会话', 'Sessions'), [
        page('text.session.chat', 'session/chat', t('聊天会话', 'Chat sessions'), {
          order: 10,
          children: [
            button('text.session.chat.import', t('导入', 'Import')),
            button('text.session.chat.train', t('训练', 'Train')),
            button('text.session.chat.batch_status', t('批量状态', 'Batch status')),
          ],
        }),
        page('text.session.mail', 'session/mail', t('邮件会话', 'Mail sessions'), {
          order: 20,
          children: [button('text.session.mail.import', t('导入', 'Import'))],
        }),
        page('text.session.voice', 'session/voice', t('语音会话', 'Voice sessions'), { order: 30 }),
      ]),
      menu('text.merchant_notice', t('商户通知', 'Merchant notices'), []),
      menu('text.operations_tools', t('运营工具', 'Operations tools'), []),
      menu('text.data_center', t('数据中心', 'Data center'), []),
      menu('text.learn', t('学习中心', 'Learning center'), []),
      menu('admin.config_center', t('配置中心', 'Config center'), []),
    ],
    pageChildren: {
      'text.script_manage.task_list': taskPages('text.script_manage.task_list', 'scriptManage/taskList'),
      'text.script_manage.rating_task_list': taskPages('text.script_manage.rating_task_list', 'scriptManage/ratingTaskList'),
      'text.shop.list': [
        button('text.shop.list.edit', EDIT),
        button('text.shop.list.copy_policy', t('复制知识', 'Copy policies')),
        button('text.shop.list.sync', t('同步消息', 'Sync messages')),
        hiddenPage('text.shop.list.profile_basic', 'shop/profile/basic/:id', t('店铺基础资料', 'Shop profile (basic)')),
        hiddenPage('text.shop.list.profile_advanced', 'shop/profile/advanced/:id', t('店铺高级资料', 'Shop profile (advanced)')),
      ],
      'text.shop.sync_log': [
        hiddenPage('text.shop.sync_log.success', 'shop/syncLog/result/success/:id', t('同步成功', 'Sync succeeded')),
        hiddenPage('text.shop.sync_log.fail', 'shop/syncLog/result/fail/:id', t('同步失败', 'Sync failed')),
      ],
      'text.shop.plan': [button('text.shop.plan.create', ADD), button('text.shop.plan.update', EDIT)],
      'text.shop.plan_order': [
        button('text.shop.plan_order.create', ADD),
        button('text.shop.plan_order.update', EDIT),
        hiddenPage('text.shop.plan_order.renew', 'shop/plan_order/renew/:id', t('续费详情', 'Renewal detail')),
      ],
      'text.order.shopify': [button('text.order.shopify.import', t('导入', 'Import'))],
      'text.session.mark': [
        hiddenPage('text.session.mark.add', 'session/mark/addMark', t('新增标注', 'Add mark')),
        hiddenPage('text.session.mark.edit', 'session/mark/editMark/:id', t('编辑标注', 'Edit mark')),
      ],
      'text.merchant_notice.notice_list': [
        button('text.merchant_notice.notice_list.add', ADD),
        button('text.merchant_notice.notice_list.update', EDIT),
        button('text.merchant_notice.notice_list.delete', DELETE),
        button('text.merchant_notice.notice_list.push', t('推送', 'Push')),
        hiddenPage('text.merchant_notice.notice_list.detail', 'merchantNotice/noticeList/detail/:id', t('通知详情', 'Notice detail')),
      ],
      'text.merchant_notice.channel': [
        button('text.merchant_notice.channel.add', ADD),
        button('text.merchant_notice.channel.update', EDIT),
        button('text.merchant_notice.channel.delete', DELETE),
        button('text.merchant_notice.channel.smtp', t('邮件服务器', 'Mail server')),
      ],
      'text.merchant_notice.template': [
        button('text.merchant_notice.template.add', ADD),
        button('text.merchant_notice.template.update', EDIT),
        button('text.merchant_notice.template.delete', DELETE),
      ],
      'text.operations_tools.image_extraction': [hiddenPage('text.operations_tools.image_extraction.add', 'operationsTools/imageExtraction/add', ADD)],
      'text.data_center.data_set': [
        hiddenPage('text.data_center.data_set.add', 'dataCenter/dataSet/add', ADD),
        hiddenPage('text.data_center.data_set.edit', 'dataCenter/dataSet/edit/:id', EDIT),
      ],
      'text.data_center.rating_data_set': [
        hiddenPage('text.data_center.rating_data_set.add', 'dataCenter/ratingDataSet/add', ADD),
        hiddenPage('text.data_center.rating_data_set.edit', 'dataCenter/ratingDataSet/edit/:id', EDIT),
      ],
      'text.learn.material': [
        hiddenPage('text.learn.material.detail', 'learn/material/detail/:id', DETAIL),
        hiddenPage('text.learn.material.knowledge', 'learn/material/knowledge', t('素材知识', 'Knowledge from materials')),
        hiddenPage('text.learn.material.exports', 'learn/material/exports', t('导出记录', 'Exports')),
        button('text.learn.material.export', t('导出', 'Export')),
        button('text.learn.material.remark', t('备注', 'Remark')),
        button('text.learn.material.ticket_learn', t('工单学习', 'Ticket learning')),
      ],
      'text.learn.policy_management': [
        hiddenPage('text.learn.policy_management.hit_test', 'learn/policyManagement/hitTest', t('命中测试', 'Retrieval test')),
        button('text.learn.policy_management.create', ADD),
        button('text.learn.policy_management.update', EDIT),
        button('text.learn.policy_management.delete', DELETE),
      ],
      'text.learn.prompt_management': [
        hiddenPage('text.learn.prompt_management.versions', 'learn/promptManagement/versions/:id', t('提示词版本对比', 'Prompt versions: changes')),
      ],
      'text.learn.doc_manage': [
        button('text.learn.doc_manage.create', t('上传', 'Upload')),
        button('text.learn.doc_manage.delete', DELETE),
        button('text.learn.doc_manage.learn', t('学习', 'Learn')),
      ],
      'admin.learn_center.text_assistant': [
        hiddenPage('admin.learn_center.text_assistant.add', 'learn/textAssistant/add', ADD),
        hiddenPage('admin.learn_center.text_assistant.edit', 'learn/textAssistant/edit/:id', EDIT),
        hiddenPage('admin.learn_center.text_assistant.detail', 'learn/textAssistant/detail/:id', DETAIL),
      ],
    },
  },
  {
    module: 'intelligent_voice',
    title: t('智能语音', 'Intelligent voice'),
    home: page('voice_home', 'home', t('语音首页', 'Voice home'), { hidden: true }),
    menus: [
      menu('admin.call_center', t('呼叫中心', 'Call center'), []),
      menu('voice.customer', t('客户与套餐', 'Customers and plans'), []),
      menu('voice.config_center', t('配置中心', 'Config center'), [
        // a page form (schemas/forms/intelligent_voice/call-center/fallback.json), not a list page
        page('admin.config_center.fallback', 'configCenter/fallback', t('兜底配置', 'Fallback'), { order: 10 }),
      ]),
    ],
    pageChildren: {
      // the spec's voice "customer shops" list adds and edits shops (issue 26): the same shop rows as text's shop list
      'voice.customer.list': [button('voice.customer.list.edit', EDIT)],
      'admin.call_center.scene': [
        hiddenPage('admin.call_center.scene.add', 'callCenter/scene/add', ADD),
        hiddenPage('admin.call_center.scene.edit', 'callCenter/scene/edit/:id', EDIT),
      ],
      'admin.call_center.call_task': [
        hiddenPage('admin.call_center.call_task.add', 'callCenter/task/add', ADD),
        hiddenPage('admin.call_center.call_task.edit', 'callCenter/task/edit/:id', EDIT),
      ],
      'admin.call_center.log': [hiddenPage('admin.call_center.log.detail', 'callCenter/logs/detail/:id', DETAIL)],
      'admin.call_center.voice': [
        hiddenPage('admin.call_center.voice.add', 'callCenter/voice/add', ADD),
        hiddenPage('admin.call_center.voice.edit', 'callCenter/voice/edit/:id', EDIT),
      ],
      'admin.call_center.ivr': [hiddenPage('admin.call_center.ivr.edit', 'callCenter/ivr/edit', EDIT)],
    },
  },
  {
    module: 'panda_descendant',
    title: t('实验室', 'Experiment lab'),
    home: page('panda_descendant_home', 'home', t('实验室首页', 'Lab home'), { hidden: true }),
    menus: [
      menu('lab.train', t('训练', 'Training'), []),
      menu('lab.text', t('文本', 'Text'), []),
      menu('lab.account', t('账号', 'Accounts'), []),
    ],
    pageChildren: {
      'lab.train.task': [
        hiddenPage('lab.train.task.add', 'lab/train/task/add', ADD),
        hiddenPage('lab.train.task.edit', 'lab/train/task/edit/:id', EDIT),
        hiddenPage('lab.train.task.detail', 'lab/train/task/detail/:id', DETAIL),
      ],
      'lab.train.dataset': [
        hiddenPage('lab.train.dataset.add', 'lab/dataSet/add', ADD),
        hiddenPage('lab.train.dataset.update', 'lab/dataSet/edit/:id', EDIT),
      ],
      'lab.text.content': [
        hiddenPage('lab.text.content.detail', 'lab/text/content/details/:id', DETAIL),
        hiddenPage('lab.text.content.add', 'lab/text/content/add', ADD),
        hiddenPage('lab.text.content.update', 'lab/text/content/edit/:id', EDIT),
      ],
    },
  },
  {
    module: 'admin_center',
    title: t('管理中心', 'Admin center'),
    home: page('admin_center_home', 'home', t('管理中心首页', 'Admin home'), { hidden: true }),
    menus: [
      menu('admin.permission', t('权限中心', 'Auth center'), []),
      menu('admin.system', t('系统', 'System'), []),
    ],
    pageChildren: {
      'admin.permission.permission': [
        button('admin.permission.permission.create', ADD),
        button('admin.permission.permission.update', EDIT),
        button('admin.permission.permission.delete', DELETE),
      ],
      'admin.permission.role': [
        hiddenPage('admin.permission.role.create', 'authCenter/role/add', t('新增角色', 'Add role')),
        hiddenPage('admin.permission.role.update', 'authCenter/role/edit/:id', t('编辑角色', 'Edit role')),
        hiddenPage('admin.permission.role.detail', 'authCenter/role/detail/:id', t('角色详情', 'Role detail')),
        button('admin.permission.role.delete', DELETE),
      ],
      'admin.permission.account': [
        button('admin.permission.account.create', ADD),
        button('admin.permission.account.update', EDIT),
        button('admin.permission.account.delete', DELETE),
        button('admin.permission.account.reset_password', t('重置密码', 'Reset password')),
      ],
      'admin.job': [
        hiddenPage('admin.job.detail', 'system/jobs/detail/:id', t('任务详情', 'Job detail')),
        button('admin.job.retry', t('重试', 'Retry')),
        button('admin.job.cancel', t('取消', 'Cancel')),
      ],
      'admin.service_token': [
        button('admin.service_token.create', t('新建令牌', 'Create token')),
        button('admin.service_token.delete', t('吊销', 'Revoke')),
      ],
    },
  },
];

/** The synthetic common-home permission of spec section 3. */
export const COMMON_HOME = {
  id: -1,
  pid: -1,
  module: UNAUTH_COMMON,
  permission_key: 'common_home',
  permission_name: '首页',
  permission_type: PermissionType.PAGE,
  frontend_route: '/home',
} as const;

/**
 * Manifest pages drawn by a hand-written screen instead of a schema (flattened keys; module
 * homes are bespoke too). The client maps each to its screen (src/console/routes/pages.ts);
 * `schemas:check` requires a schema page for every other routed entry.
 */
export const BESPOKE_PAGE_KEYS = [
  'intelligent_text.text.session.chat',
  'intelligent_text.text.session.mail',
  'intelligent_text.text.session.voice',
  'intelligent_text.text.script_manage.playground',
  'intelligent_text.text.script_manage.trace',
] as const;

export interface FlatManifestEntry {
  module: ModuleName;
  node: ManifestNode;
  /** key of the parent node, or the module name for top-level menus and the home */
  parent: string;
  /** absolute route, e.g. /intelligent_text/shop/list */
  path?: string;
}

/** Every node of the manifest in tree order (module entries are not included: they are the module itself). */
export function flattenManifest(manifest: readonly ModuleManifest[]): FlatManifestEntry[] {
  const out: FlatManifestEntry[] = [];
  const walk = (module: ModuleName, node: ManifestNode, parent: string) => {
    out.push({ module, node, parent, path: node.route ? `/${module}/${node.route}` : undefined });
    for (const child of node.children ?? []) walk(module, child, node.key);
  };
  for (const m of manifest) {
    walk(m.module, m.home, m.module);
    for (const n of m.menus) walk(m.module, n, m.module);
  }
  return out;
}

/** Every flattened permission key (`module.key`), including the module keys themselves. */
export function allPermissionKeys(manifest: readonly ModuleManifest[]): Set<string> {
  const keys = new Set<string>(manifest.map((m) => m.module));
  for (const e of flattenManifest(manifest)) keys.add(`${e.module}.${e.node.key}`);
  return keys;
}
