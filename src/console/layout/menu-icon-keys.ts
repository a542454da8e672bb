/** Plain data (no React), so scripts/menu-icons.ts can read it to generate the per-module icon sets. */
/**
 * Icons of the entries no page schema declares — menu groups and bespoke screens — by manifest
 * key (distinct per module: menu.test.ts). A schema page names its icon in its own `menu.icon`.
 */
export const MENU_ICONS: Record<string, string> = {
  'text.script_manage': 'FormOutlined',
  'text.script_manage.playground': 'ExperimentOutlined',
  'text.shop': 'ShopOutlined',
  'text.order': 'ShoppingCartOutlined',
  'text.session': 'MessageOutlined',
  'text.session.chat': 'CommentOutlined',
  'text.session.mail': 'MailOutlined',
  'text.session.voice': 'SoundOutlined',
  'text.merchant_notice': 'NotificationOutlined',
  'text.operations_tools': 'ToolOutlined',
  'text.data_center': 'DatabaseOutlined',
  'text.learn': 'ReadOutlined',
  'admin.config_center': 'SettingOutlined',
  'admin.config_center.fallback': 'AlertOutlined', // the voice module's form page (the text module's schema names its own)
  'admin.call_center': 'PhoneOutlined',
  'voice.customer': 'CustomerServiceOutlined',
  'voice.config_center': 'SettingOutlined',
  'lab.train': 'ExperimentOutlined',
  'lab.text': 'MessageOutlined',
  'lab.account': 'TeamOutlined',
  'admin.permission': 'LockOutlined',
  'admin.system': 'SettingOutlined',
};
