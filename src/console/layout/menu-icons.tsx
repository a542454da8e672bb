/**
 * One icon per menu group and page of the manifest (keys of src/contract/permission-manifest.ts,
 * which stays free of React so the server can read it). The collapsed side menu shows only these
 * icons, with the title as tooltip; an entry without its own icon gets the group / page fallback.
 *
 * The expanded menu shows the titles without icons, so the icons (≈60, ≈11 KiB gzip) are a chunk
 * of their own (menu-icon-set.tsx), loaded once the menu is collapsed (or at start when it was
 * left collapsed): a page with the expanded menu never downloads them. Until the chunk arrives an
 * icon holds its place (an empty 1em box with antd's icon class).
 */
import { useEffect, useState, type ComponentType } from 'react';
import { settingsStore } from '../settings/store.js';

type IconSet = typeof import('./menu-icon-set.js');
let loaded: IconSet | null = null;
let pending: Promise<IconSet> | null = null;
const loadIcons = () =>
  (pending ??= import('./menu-icon-set.js').then(
    (m) => (loaded = m),
    (e: unknown) => {
      pending = null; // retried by the next icon that draws
      throw e;
    },
  ));

type IconProps = { 'aria-hidden'?: boolean | 'true' | 'false' };
const components = new Map<string, ComponentType<IconProps>>();

/** The icon of `key` in the icon set (or a fallback): draws nothing in the expanded menu. */
function menuIconOf(key: string, fallback: 'group' | 'page'): ComponentType<IconProps> {
  const id = `${key}|${fallback}`;
  let c = components.get(id);
  if (c) return c;
  function MenuIcon(props: IconProps) {
    const collapsed = settingsStore.use((s) => s.collapsed);
    const [, setReady] = useState(loaded !== null);
    useEffect(() => {
      if (!collapsed || loaded) return;
      let live = true;
      loadIcons().then(
        () => live && setReady(true),
        () => undefined,
      );
      return () => {
        live = false;
      };
    }, [collapsed]);
    if (!collapsed) return null;
    if (!loaded) return <span role="img" className="anticon" style={{ width: '1em', height: '1em' }} {...props} />;
    const named = key.startsWith('name:') ? loaded.ICONS_BY_NAME[key.slice('name:'.length)] : undefined;
    const Icon = loaded.ICONS[key] ?? named ?? (fallback === 'group' ? loaded.GROUP_FALLBACK : loaded.PAGE_FALLBACK);
    return <Icon {...props} />;
  }
  MenuIcon.displayName = `MenuIcon(${key})`;
  c = MenuIcon;
  components.set(id, c);
  return c;
}

/** Keys that have an icon of their own, each with the icon's name (distinct per group: menu.test.ts). */
export const MENU_ICONS: Record<string, string> = {
  'text.script_manage': 'FormOutlined',
  'text.script_manage.task_list': 'CheckSquareOutlined',
  'text.script_manage.playground': 'ExperimentOutlined',
  'text.script_manage.rating_task_list': 'StarOutlined',
  'text.shop': 'ShopOutlined',
  'text.shop.list': 'BankOutlined',
  'text.shop.plan': 'GiftOutlined',
  'text.shop.plan_order': 'ProfileOutlined',
  'text.shop.customer_list': 'ContactsOutlined',
  'text.shop.sync_log': 'SyncOutlined',
  'text.order': 'ShoppingCartOutlined',
  'text.order.shopify': 'FileSearchOutlined',
  'text.session': 'MessageOutlined',
  'text.session.chat': 'CommentOutlined',
  'text.session.mail': 'MailOutlined',
  'text.session.voice': 'SoundOutlined',
  'text.session.mark': 'HighlightOutlined',
  'text.session.feedback': 'LikeOutlined',
  'text.merchant_notice': 'NotificationOutlined',
  'text.merchant_notice.notice_list': 'BellOutlined',
  'text.merchant_notice.template': 'SnippetsOutlined',
  'text.operations_tools': 'ToolOutlined',
  'text.operations_tools.image_extraction': 'FileImageOutlined',
  'text.operations_tools.file_upload': 'CloudUploadOutlined',
  'text.operations_tools.policy_import': 'ImportOutlined',
  'text.data_center': 'DatabaseOutlined',
  'text.data_center.data_set': 'FolderOpenOutlined',
  'text.data_center.exit_code': 'StopOutlined',
  'text.data_center.rating_data_set': 'TrophyOutlined',
  'text.learn': 'ReadOutlined',
  'text.learn.prompt_management': 'BulbOutlined',
  'text.learn.material': 'BookOutlined',
  'text.learn.todo_preview': 'ScheduleOutlined',
  'text.learn.policy_management': 'SafetyCertificateOutlined',
  'text.learn.store_policy': 'SolutionOutlined',
  'text.learn.auto_learn_policy': 'ThunderboltOutlined',
  'text.learn.auto_learn_product': 'ShoppingOutlined',
  'text.learn.product_knowledge': 'TagsOutlined',
  'text.learn.doc_manage': 'FileTextOutlined',
  'text.learn.picture_analyze': 'PictureOutlined',
  'admin.learn_center.text_assistant': 'RobotOutlined',
  'admin.config_center': 'SettingOutlined',
  'admin.config_center.fallback': 'AlertOutlined',
  'admin.config_center.model_strategy': 'BranchesOutlined',
  'admin.config_center.auto_learn': 'ThunderboltOutlined',
  'admin.config_center.auto_learn_shop': 'ShopOutlined',
  'admin.config_center.diver_data': 'SwapOutlined',
  'admin.config_center.model_services_config': 'CloudServerOutlined',
  'admin.call_center': 'PhoneOutlined',
  'admin.call_center.scene': 'DeploymentUnitOutlined',
  'admin.call_center.call_number': 'IdcardOutlined',
  'admin.call_center.call_task': 'OrderedListOutlined',
  'admin.call_center.log': 'ClockCircleOutlined',
  'admin.call_center.voice': 'AudioOutlined',
  'admin.call_center.ivr': 'NodeIndexOutlined',
  'voice.customer': 'CustomerServiceOutlined',
  'voice.customer.list': 'ShopOutlined',
  'voice.customer.plan': 'GiftOutlined',
  'voice.customer.plan_order': 'ProfileOutlined',
  'voice.customer.customer_list': 'ContactsOutlined',
  'voice.customer.session_category': 'TagsOutlined',
  'voice.config_center': 'SettingOutlined',
  'lab.train': 'ExperimentOutlined',
  'lab.train.task': 'UnorderedListOutlined',
  'lab.train.dataset': 'DatabaseOutlined',
  'lab.text': 'MessageOutlined',
  'lab.text.content': 'RobotOutlined',
  'lab.text.comment': 'CommentOutlined',
  'lab.account': 'TeamOutlined',
  'lab.account.role': 'UserSwitchOutlined',
  'lab.account.user': 'UserOutlined',
  'admin.permission': 'LockOutlined',
  'admin.permission.permission': 'KeyOutlined',
  'admin.permission.role': 'UserSwitchOutlined',
  'admin.permission.account': 'UserOutlined',
  'admin.permission.audit_logs': 'AuditOutlined',
  'admin.system': 'SettingOutlined',
  'admin.job': 'BarsOutlined',
  'admin.service_token': 'ApiOutlined',
};

/**
 * The icon of a manifest entry (a group when it has no route): its own by key, else the icon its
 * schema names (`menu.icon`, one of src/contract/menu-icons.ts), else the fallback.
 */
export function menuIcon(key: string, isGroup: boolean, name?: string): ComponentType<IconProps> {
  return menuIconOf(MENU_ICONS[key] ? key : name ? `name:${name}` : '', isGroup ? 'group' : 'page');
}
