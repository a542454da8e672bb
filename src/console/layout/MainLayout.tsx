/**
 * The main layout: collapsible side menu for the current module, header with the module
 * switcher, language switch, dark mode, theme colour and user menu; the page below, inside
 * the error boundary and the 加载中... fallback. The menus' titles come with the permission tree;
 * a page's own texts load with the page (i18n.ts).
 */
import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Button, Layout, Menu, Space, Tag, theme } from 'antd';
import type { ItemType } from 'antd/es/menu/interface.js';
import { Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { ErrorBoundary } from '../../screens/ErrorBoundary.js';
import { Loading } from '../../screens/Loading.js';
import { accessibleModules, findRoute } from '../../runtime/route-config.js';
import { loadedLocale } from '../i18n.js';
import { useRoutes } from '../routes/pages.js';
import { sessionStore } from '../session/store.js';
import { settingsStore, type Locale } from '../settings/store.js';
import { LanguageSwitch } from './LanguageSwitch.js';
import { followDayjsLocale } from './dayjs-locale.js';
import { buildMenu, selectedMenu, type MenuNode } from './menu.js';
import { loadMenuIcons, menuIcon } from './menu-icons.js';
import { ModuleSwitcher } from './ModuleSwitcher.js';
import { DarkModeSwitch, ThemeColorPicker } from './ThemeControls.js';
import { UserMenu } from './UserMenu.js';

/**
 * Menu items with their icons (the collapsed menu shows only the icon, the title as tooltip);
 * `group` is the top-level group the nodes are in (their icons come with its set: menu-icons.tsx).
 */
const toItems = (module: string, nodes: MenuNode[], group?: string): ItemType[] =>
  nodes.map((n) => {
    const Icon = menuIcon(module, group, n.entry, Boolean(n.children), n.icon);
    const icon = <Icon aria-hidden />;
    return n.children
      ? { key: n.key, icon, label: n.label, children: toItems(module, n.children, group ?? n.key) }
      : { key: n.key, icon, label: <span data-testid={`menu-item-${n.key}`}>{n.label}</span> };
  });

export default function MainLayout() {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const access = sessionStore.use((s) => s.access);
  const menuModule = sessionStore.use((s) => s.menuModule);
  const config = sessionStore.use((s) => s.config);
  const collapsed = settingsStore.use((s) => s.collapsed);
  // the language on screen (a newly chosen one shows once its texts are loaded, menus included)
  const locale = i18n.language as Locale;
  // dates below format in the language on screen
  followDayjsLocale(loadedLocale(locale)?.dayjsLocale ?? 'zh-cn');

  const routes = useRoutes();
  const modules = accessibleModules(routes, access);
  const current = modules.find((m) => m.module === menuModule) ?? modules[0];
  const items = useMemo(() => (current ? toItems(current.module, buildMenu(current, access, locale)) : []), [current, access, locale]);
  const match = findRoute(routes, pathname);
  const selection = current ? selectedMenu(current, match?.entry.path) : { open: [] };
  // the icons of the module's top level and of the current page's group start loading now, beside
  // the page's own chunks; another group's load when it opens (menu-icons.tsx)
  if (current) void loadMenuIcons(current.module, selection.open[0]).catch(() => undefined);
  const [openKeys, setOpenKeys] = useState<string[]>(selection.open);
  const openKey = selection.open.join('|');
  useEffect(() => {
    // keep the group of the current page open when the route changes
    if (openKey) setOpenKeys((prev) => [...new Set([...prev, ...openKey.split('|')])]);
  }, [openKey]);

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider
        collapsible
        collapsed={collapsed}
        trigger={null}
        // English menu labels run about a third longer than Chinese ones ("Shops and customers")
        width={locale === 'en-US' ? 256 : 220}
        theme="light"
        style={{ borderRight: `1px solid ${token.colorBorderSecondary}`, position: 'sticky', top: 0, height: '100vh', overflow: 'auto' }}
      >
        <div className="console-brand" title={t('shell.app.title')} style={{ color: token.colorLink }} onClick={() => navigate('/home')}>
          {collapsed ? t('shell.app.short') : t('shell.app.title')}
        </div>
        <Menu
          mode="inline"
          data-testid="side-menu"
          items={items}
          selectedKeys={selection.selected ? [selection.selected] : []}
          openKeys={collapsed ? undefined : openKeys}
          onOpenChange={setOpenKeys}
          onClick={({ key }) => navigate(key)}
          style={{ borderInlineEnd: 'none' }}
        />
      </Layout.Sider>
      <Layout>
        <Layout.Header
          style={{
            display: 'flex',
            alignItems: 'center',
            gap: 8,
            padding: '0 16px',
            background: token.colorBgContainer,
            borderBottom: `1px solid ${token.colorBorderSecondary}`,
          }}
        >
          <Button
            type="text"
            icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
            aria-label={collapsed ? t('shell.header.expand') : t('shell.header.collapse')}
            onClick={() => settingsStore.set({ collapsed: !collapsed })}
            data-testid="collapse-toggle"
          />
          <ModuleSwitcher active={current?.module ?? null} />
          {config?.demo ? (
            <Tag color="gold" data-testid="demo-tag">
              {t('shell.app.demo')}
            </Tag>
          ) : null}
          <Space size={4}>
            <LanguageSwitch />
            <ThemeColorPicker />
            <DarkModeSwitch />
            <UserMenu />
          </Space>
        </Layout.Header>
        <Layout.Content style={{ margin: 16 }}>
          <div style={{ padding: 24, minHeight: 360, background: token.colorBgContainer, borderRadius: token.borderRadiusLG }}>
            <ErrorBoundary key={pathname}>
              <Suspense fallback={<Loading />}>
                <Outlet />
              </Suspense>
            </ErrorBoundary>
          </div>
        </Layout.Content>
        <Layout.Footer style={{ textAlign: 'center', padding: '8px 16px' }}>
          <span style={{ color: token.colorTextSecondary }} data-testid="app-footer">
            {config?.version ? t('shell.app.footer', { name: t('shell.app.title'), version: config.version }) : t('shell.app.title')}
          </span>
        </Layout.Footer>
      </Layout>
    </Layout>
  );
}
