/** Header module switcher: only the modules the user can access; goes to the module's first open page. */
import { Menu } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useRoutes } from '../routes/pages.js';
import { sessionStore } from '../session/store.js';
import type { Locale } from '../settings/store.js';
import { accessibleModules, moduleEntryPath } from '../../runtime/route-config.js';

export function ModuleSwitcher({ active }: { active: string | null }) {
  const navigate = useNavigate();
  const access = sessionStore.use((s) => s.access);
  const locale = useTranslation().i18n.language as Locale; // the language on screen
  const modules = accessibleModules(useRoutes(), access);
  return (
    <Menu
      mode="horizontal"
      data-testid="module-switcher"
      selectedKeys={active ? [active] : []}
      style={{ flex: 1, minWidth: 0, borderBottom: 'none', background: 'transparent' }}
      items={modules.map((m) => ({ key: m.module, label: <span data-testid={`module-${m.module}`}>{m.title[locale]}</span> }))}
      onClick={({ key }) => {
        const m = modules.find((x) => x.module === key);
        const to = m && moduleEntryPath(m, access);
        if (to) navigate(to);
      }}
    />
  );
}
