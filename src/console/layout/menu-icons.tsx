/**
 * One icon per menu group and page: a schema page names its own (`menu.icon`); groups and bespoke
 * screens have theirs here by manifest key (src/contract/permission-manifest.ts stays free of
 * React so the server can read it). The side menu shows them expanded and collapsed (collapsed:
 * only the icon, the title as tooltip); an entry without an icon gets the group / page fallback.
 *
 * The icons (≈60, ≈11 KiB gzip) are a chunk of their own (menu-icon-set.tsx) holding only the
 * names a schema or this file uses (menu.test.ts fails on an unused one): its download starts
 * when the layout's code runs, beside the page's own chunks, so it never waits for the page and
 * the page never waits for it. Until it arrives an icon holds its place (an empty 1em box with
 * antd's icon class), so the menu does not move when they draw.
 */
import { useEffect, useState, type ComponentType } from 'react';

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
// started with the layout's code, not with the first icon's effect (one round trip earlier)
if (typeof window !== 'undefined') loadIcons().catch(() => undefined);

type IconProps = { 'aria-hidden'?: boolean | 'true' | 'false' };
const components = new Map<string, ComponentType<IconProps>>();

/** The icon named `key` (an antd icon name, or a fallback), in the expanded and the collapsed menu. */
function menuIconOf(key: string, fallback: 'group' | 'page'): ComponentType<IconProps> {
  const id = `${key}|${fallback}`;
  let c = components.get(id);
  if (c) return c;
  function MenuIcon(props: IconProps) {
    const [, setReady] = useState(loaded !== null);
    useEffect(() => {
      if (loaded) return;
      let live = true;
      loadIcons().then(
        () => live && setReady(true),
        () => undefined,
      );
      return () => {
        live = false;
      };
    }, []);
    if (!loaded) return <span role="img" className="anticon" style={{ width: '1em', height: '1em' }} {...props} />;
    const Icon = loaded.ICONS_BY_NAME[key] ?? (fallback === 'group' ? loaded.GROUP_FALLBACK : loaded.PAGE_FALLBACK);
    return <Icon {...props} />;
  }
  MenuIcon.displayName = `MenuIcon(${key})`;
  c = MenuIcon;
  components.set(id, c);
  return c;
}

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

/**
 * The icon of a menu entry (a group when it has no route): the one its schema names (`menu.icon`,
 * one of src/contract/menu-icons.ts), else the manifest's for a group or bespoke screen, else the
 * fallback.
 */
export function menuIcon(key: string, isGroup: boolean, name?: string): ComponentType<IconProps> {
  return menuIconOf(name ?? MENU_ICONS[key] ?? '', isGroup ? 'group' : 'page');
}
