/**
 * The one permission manifest: every module, menu, page and button of spec section 2,
 * with every key of spec section 6 verbatim. The server seeds the permission table from it,
 * the client builds its route configuration and menus from it, and `schemas:check` checks
 * schema permission keys against it.
 *
 * A node's flattened key is `module + "." + key` (spec section 6). `route` is relative to the
 * module (`shop/list` → `/intelligent_text/shop/list`). `hidden` routes exist but have no
 * menu entry. Titles are in both locales here, so no second copy is kept in the locale files.
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
  children?: ManifestNode[];
}

export interface ModuleManifest {
  module: ModuleName;
  title: Title;
  home: ManifestNode;
  menus: ManifestNode[];
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
        page('text.script_manage.task_list', 'scriptManage/taskList', t('测试任务', 'Test tasks'), {
          children: taskPages('text.script_manage.task_list', 'scriptManage/taskList'),
        }),
        page('text.script_manage.playground', 'scriptManage/playground', t('提示词调试', 'Prompt playground')),
        page('text.script_manage.rating_task_list', 'scriptManage/ratingTaskList', t('评分任务', 'Rating tasks'), {
          children: taskPages('text.script_manage.rating_task_list', 'scriptManage/ratingTaskList'),
        }),
      ]),
      menu('text.shop', t('店铺与客户', 'Shops and customers'), [
        page('text.shop.list', 'shop/list', t('店铺列表', 'Shops'), {
          children: [
            button('text.shop.list.edit', EDIT),
            button('text.shop.list.copy_policy', t('复制知识', 'Copy policies')),
            button('text.shop.list.sync', t('同步消息', 'Sync messages')),
            hiddenPage('text.shop.list.profile_basic', 'shop/profile/basic/:id', t('店铺基础资料', 'Shop profile (basic)')),
            hiddenPage('text.shop.list.profile_advanced', 'shop/profile/advanced/:id', t('店铺高级资料', 'Shop profile (advanced)')),
          ],
        }),
        page('text.shop.sync_log', 'shop/syncLog', t('同步日志', 'Sync log'), {
          children: [
            hiddenPage('text.shop.sync_log.success', 'shop/syncLog/result/success/:id', t('同步成功', 'Sync succeeded')),
            hiddenPage('text.shop.sync_log.fail', 'shop/syncLog/result/fail/:id', t('同步失败', 'Sync failed')),
          ],
        }),
        page('text.shop.plan', 'shop/plan', t('套餐管理', 'Plans'), {
          children: [button('text.shop.plan.create', ADD), button('text.shop.plan.update', EDIT)],
        }),
        page('text.shop.plan_order', 'shop/plan_order', t('套餐订单', 'Plan orders'), {
          children: [
            button('text.shop.plan_order.create', ADD),
            button('text.shop.plan_order.update', EDIT),
            hiddenPage('text.shop.plan_order.renew', 'shop/plan_order/renew/:id', t('续费详情', 'Renewal detail')),
          ],
        }),
        page('text.shop.customer_list', 'shop/customerList', t('客户列表', 'Customers')),
        hiddenPage('text.shop.session_category', 'shop/sessionCategory', t('会话分类', 'Session categories')),
      ]),
      menu('text.order', t('订单', 'Orders'), [
        page('text.order.shopify', 'order/shopify', t('订单查询', 'Order query'), {
          children: [button('text.order.shopify.import', t('导入', 'Import'))],
        }),
      ]),
      menu('text.session', t('会话', 'Sessions'), [
        page('text.session.chat', 'session/chat', t('聊天会话', 'Chat sessions'), {
          children: [button('text.session.chat.import', t('导入', 'Import'))],
        }),
        page('text.session.mail', 'session/mail', t('邮件会话', 'Mail sessions'), {
          children: [button('text.session.mail.import', t('导入', 'Import'))],
        }),
        page('text.session.voice', 'session/voice', t('语音会话', 'Voice sessions')),
        page('text.session.mark', 'session/mark', t('会话标注', 'Session marks'), {
          children: [
            hiddenPage('text.session.mark.add', 'session/mark/addMark', t('新增标注', 'Add mark')),
            hiddenPage('text.session.mark.edit', 'session/mark/editMark/:id', t('编辑标注', 'Edit mark')),
          ],
        }),
        page('text.session.feedback', 'session/feedback', t('反馈', 'Feedback')),
      ]),
      menu('text.merchant_notice', t('商户通知', 'Merchant notices'), [
        page('text.merchant_notice.notice_list', 'merchantNotice/noticeList', t('通知列表', 'Notices'), {
          children: [
            button('text.merchant_notice.notice_list.add', ADD),
            button('text.merchant_notice.notice_list.update', EDIT),
            button('text.merchant_notice.notice_list.delete', DELETE),
            button('text.merchant_notice.notice_list.push', t('推送', 'Push')),
          ],
        }),
        page('text.merchant_notice.template', 'merchantNotice/template', t('模板管理', 'Templates'), {
          children: [
            button('text.merchant_notice.template.add', ADD),
            button('text.merchant_notice.template.update', EDIT),
            button('text.merchant_notice.template.delete', DELETE),
          ],
        }),
      ]),
      menu('text.operations_tools', t('运营工具', 'Operations tools'), [
        page('text.operations_tools.image_extraction', 'operationsTools/imageExtraction', t('图片提取', 'Image extraction'), {
          children: [hiddenPage('text.operations_tools.image_extraction.add', 'operationsTools/imageExtraction/add', ADD)],
        }),
        page('text.operations_tools.file_upload', 'operationsTools/fileUpload2S3', t('S3 文件', 'S3 files')),
        page('text.operations_tools.policy_import', 'operationsTools/policyImport', t('知识导入', 'Policy import')),
      ]),
      menu('text.data_center', t('数据中心', 'Data center'), [
        page('text.data_center.data_set', 'dataCenter/dataSet', t('数据集', 'Datasets'), {
          children: [
            hiddenPage('text.data_center.data_set.add', 'dataCenter/dataSet/add', ADD),
            hiddenPage('text.data_center.data_set.edit', 'dataCenter/dataSet/edit/:id', EDIT),
          ],
        }),
        page('text.data_center.exit_code', 'dataCenter/exitCode', t('退出码', 'Exit codes')),
        page('text.data_center.rating_data_set', 'dataCenter/ratingDataSet', t('评分数据集', 'Rating datasets'), {
          children: [
            hiddenPage('text.data_center.rating_data_set.add', 'dataCenter/ratingDataSet/add', ADD),
            hiddenPage('text.data_center.rating_data_set.edit', 'dataCenter/ratingDataSet/edit/:id', EDIT),
          ],
        }),
      ]),
      menu('text.learn', t('学习中心', 'Learning center'), [
        page('text.learn.prompt_management', 'learn/promptManagement', t('提示词管理', 'Prompts')),
        page('text.learn.material', 'learn/material', t('学习素材', 'Learning materials'), {
          children: [
            hiddenPage('text.learn.material.detail', 'learn/material/detail/:id', DETAIL),
            hiddenPage('text.learn.material.knowledge', 'learn/material/knowledge', t('素材知识', 'Knowledge from materials')),
            hiddenPage('text.learn.material.exports', 'learn/material/exports', t('导出记录', 'Exports')),
            button('text.learn.material.export', t('导出', 'Export')),
            button('text.learn.material.remark', t('备注', 'Remark')),
            button('text.learn.material.ticket_learn', t('工单学习', 'Ticket learning')),
          ],
        }),
        page('text.learn.todo_preview', 'learn/todo-preview', t('待办预览', 'To-do preview')),
        page('text.learn.policy_management', 'learn/policyManagement', t('知识管理', 'Policies'), {
          children: [
            hiddenPage('text.learn.policy_management.hit_test', 'learn/policyManagement/hitTest', t('命中测试', 'Retrieval test')),
            button('text.learn.policy_management.create', ADD),
            button('text.learn.policy_management.update', EDIT),
            button('text.learn.policy_management.delete', DELETE),
          ],
        }),
        page('text.learn.store_policy', 'learn/storePolicy', t('店铺知识', 'Shop policies')),
        page('text.learn.auto_learn_policy', 'learn/autoLearnPolicy', t('自动学习知识', 'Auto-learned policies')),
        page('text.learn.auto_learn_product', 'learn/autoLearnProduct', t('自动学习商品', 'Auto-learned products')),
        page('text.learn.product_knowledge', 'learn/productKnowledge', t('商品知识', 'Product knowledge')),
        page('text.learn.doc_manage', 'learn/docManage', t('文档管理', 'Documents'), {
          children: [
            button('text.learn.doc_manage.create', t('上传', 'Upload')),
            button('text.learn.doc_manage.delete', DELETE),
            button('text.learn.doc_manage.learn', t('学习', 'Learn')),
          ],
        }),
        page('text.learn.picture_analyze', 'learn/pictureAnalyze', t('图片分析', 'Picture analysis')),
        page('admin.learn_center.text_assistant', 'learn/textAssistant', t('文本助手', 'Text assistants'), {
          children: [
            hiddenPage('admin.learn_center.text_assistant.add', 'learn/textAssistant/add', ADD),
            hiddenPage('admin.learn_center.text_assistant.edit', 'learn/textAssistant/edit/:id', EDIT),
            hiddenPage('admin.learn_center.text_assistant.detail', 'learn/textAssistant/detail/:id', DETAIL),
          ],
        }),
      ]),
      menu('admin.config_center', t('配置中心', 'Config center'), [
        page('admin.config_center.fallback', 'configCenter/fallback', t('兜底配置', 'Fallback')),
        page('admin.config_center.model_strategy', 'configCenter/modelStrategy', t('模型策略', 'Model strategy')),
        page('admin.config_center.auto_learn', 'configCenter/autoLearn', t('自动学习', 'Auto-learn')),
        page('admin.config_center.auto_learn_shop', 'configCenter/autoLearnShop', t('自动学习店铺', 'Auto-learn shops')),
        page('admin.config_center.diver_data', 'configCenter/divertData', t('分流数据', 'Divert data')),
        page('admin.config_center.model_services_config', 'configCenter/server', t('模型服务配置', 'Model servers')),
      ]),
    ],
  },
  {
    module: 'intelligent_voice',
    title: t('智能语音', 'Intelligent voice'),
    home: page('voice_home', 'home', t('语音首页', 'Voice home'), { hidden: true }),
    menus: [
      menu('admin.call_center', t('呼叫中心', 'Call center'), [
        page('admin.call_center.scene', 'callCenter/scene', t('场景', 'Scenes'), {
          aliases: ['scene'],
          children: [
            hiddenPage('admin.call_center.scene.add', 'callCenter/scene/add', ADD),
            hiddenPage('admin.call_center.scene.edit', 'callCenter/scene/edit/:id', EDIT),
          ],
        }),
        page('admin.call_center.call_number', 'callCenter/number', t('号码', 'Numbers'), { aliases: ['number'] }),
        page('admin.call_center.call_task', 'callCenter/task', t('外呼任务', 'Call tasks'), {
          aliases: ['task'],
          children: [
            hiddenPage('admin.call_center.call_task.add', 'callCenter/task/add', ADD),
            hiddenPage('admin.call_center.call_task.edit', 'callCenter/task/edit/:id', EDIT),
          ],
        }),
        page('admin.call_center.log', 'callCenter/logs', t('通话记录', 'Call logs'), {
          aliases: ['logs'],
          children: [hiddenPage('admin.call_center.log.detail', 'callCenter/logs/detail/:id', DETAIL)],
        }),
        page('admin.call_center.voice', 'callCenter/voice', t('音色库', 'Voice library'), {
          aliases: ['voice'],
          children: [
            hiddenPage('admin.call_center.voice.add', 'callCenter/voice/add', ADD),
            hiddenPage('admin.call_center.voice.edit', 'callCenter/voice/edit/:id', EDIT),
          ],
        }),
        page('admin.call_center.ivr', 'callCenter/ivr', t('IVR 配置', 'IVR'), {
          aliases: ['ivr'],
          children: [hiddenPage('admin.call_center.ivr.edit', 'callCenter/ivr/edit', EDIT)],
        }),
      ]),
      menu('voice.customer', t('客户与套餐', 'Customers and plans'), [
        page('voice.customer.list', 'customer/list', t('客户店铺', 'Customer shops')),
        page('voice.customer.plan', 'customer/plan', t('套餐管理', 'Plans')),
        page('voice.customer.plan_order', 'customer/plan_order', t('套餐订单', 'Plan orders')),
        page('voice.customer.customer_list', 'customer/customerList', t('客户列表', 'Customers')),
        page('voice.customer.session_category', 'customer/sessionCategory', t('会话分类', 'Session categories')),
      ]),
      menu('voice.config_center', t('配置中心', 'Config center'), [
        page('admin.config_center.fallback', 'configCenter/fallback', t('兜底配置', 'Fallback')),
      ]),
    ],
  },
  {
    module: 'panda_descendant',
    title: t('实验室', 'Experiment lab'),
    home: page('panda_descendant_home', 'home', t('实验室首页', 'Lab home'), { hidden: true }),
    menus: [
      menu('lab.train', t('训练', 'Training'), [
        page('lab.train.task', 'lab/train', t('实验任务', 'Experiment tasks'), {
          children: [
            hiddenPage('lab.train.task.add', 'lab/train/task/add', ADD),
            hiddenPage('lab.train.task.edit', 'lab/train/task/edit/:id', EDIT),
            hiddenPage('lab.train.task.detail', 'lab/train/task/detail/:id', DETAIL),
          ],
        }),
        page('lab.train.dataset', 'lab/dataSet', t('数据集', 'Datasets'), {
          children: [
            hiddenPage('lab.train.dataset.add', 'lab/dataSet/add', ADD),
            hiddenPage('lab.train.dataset.update', 'lab/dataSet/edit/:id', EDIT),
          ],
        }),
      ]),
      menu('lab.text', t('文本', 'Text'), [
        page('lab.text.content', 'lab/text/content', t('AI 对话管理', 'AI conversations'), {
          children: [
            hiddenPage('lab.text.content.detail', 'lab/text/content/details/:id', DETAIL),
            hiddenPage('lab.text.content.add', 'lab/text/content/add', ADD),
            hiddenPage('lab.text.content.update', 'lab/text/content/edit/:id', EDIT),
          ],
        }),
        page('lab.text.comment', 'lab/text/comment', t('评论管理', 'Comments')),
      ]),
      menu('lab.account', t('账号', 'Accounts'), [
        page('lab.account.role', 'lab/account/role', t('角色', 'Roles')),
        page('lab.account.user', 'lab/account/user', t('用户', 'Users')),
      ]),
    ],
  },
  {
    module: 'admin_center',
    title: t('管理中心', 'Admin center'),
    home: page('admin_center_home', 'home', t('管理中心首页', 'Admin home'), { hidden: true }),
    menus: [
      menu('admin.permission', t('权限中心', 'Auth center'), [
        page('admin.permission.permission', 'authCenter/permissions', t('权限', 'Permissions'), {
          children: [
            button('admin.permission.permission.create', ADD),
            button('admin.permission.permission.update', EDIT),
            button('admin.permission.permission.delete', DELETE),
          ],
        }),
        page('admin.permission.role', 'authCenter/role', t('角色', 'Roles'), {
          children: [
            hiddenPage('admin.permission.role.create', 'authCenter/role/add', t('新增角色', 'Add role')),
            hiddenPage('admin.permission.role.update', 'authCenter/role/edit/:id', t('编辑角色', 'Edit role')),
            hiddenPage('admin.permission.role.detail', 'authCenter/role/detail/:id', t('角色详情', 'Role detail')),
            button('admin.permission.role.delete', DELETE),
          ],
        }),
        page('admin.permission.account', 'authCenter/account', t('账号', 'Accounts'), {
          children: [
            button('admin.permission.account.create', ADD),
            button('admin.permission.account.update', EDIT),
            button('admin.permission.account.delete', DELETE),
            button('admin.permission.account.reset_password', t('重置密码', 'Reset password')),
          ],
        }),
        page('admin.permission.audit_logs', 'authCenter/auditLogs', t('审计日志', 'Audit logs')),
      ]),
      menu('admin.system', t('系统', 'System'), [
        page('admin.job', 'system/jobs', t('后台任务', 'Jobs'), {
          children: [
            hiddenPage('admin.job.detail', 'system/jobs/detail/:id', t('任务详情', 'Job detail')),
            button('admin.job.retry', t('重试', 'Retry')),
            button('admin.job.cancel', t('取消', 'Cancel')),
          ],
        }),
        page('admin.service_token', 'system/service-tokens', t('服务令牌', 'Service tokens'), {
          children: [
            button('admin.service_token.create', t('新建令牌', 'Create token')),
            button('admin.service_token.delete', t('吊销', 'Revoke')),
          ],
        }),
      ]),
    ],
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
export function flattenManifest(manifest: ModuleManifest[] = MANIFEST): FlatManifestEntry[] {
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
export function allPermissionKeys(manifest: ModuleManifest[] = MANIFEST): Set<string> {
  const keys = new Set<string>(manifest.map((m) => m.module));
  for (const e of flattenManifest(manifest)) keys.add(`${e.module}.${e.node.key}`);
  return keys;
}
