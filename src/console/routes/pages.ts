/**
 * Which component renders a manifest page: module homes get the bespoke module home; pages
 * listed in BESPOKE_PAGES (by flattened key) get their hand-written screen; every other page
 * is a schema page rendered by the runtime.
 */
import { lazy, useMemo } from 'react';
import { withTexts } from '../i18n-instance.js';
import { SchemaPageHost } from '../pages/SchemaPageHost.js';
import { buildRouteConfig, type ModuleRoutes, type PageComponent, type PageResolver } from '../../runtime/route-config.js';
import { usePermissionTree } from '../../runtime/permission-tree.js';

const ModuleHome = lazy(() => import('../../screens/ModuleHome.js'));

/** Hand-written screens by flattened key (the keys are BESPOKE_PAGE_KEYS of src/contract; a test keeps both lists equal). */
export const BESPOKE_PAGES: Record<string, PageComponent> = {
  // each with the namespaces its code names, the schema runtime's widgets' (`runtime`) included
  // (a schema it embeds brings its own: i18n.ts)
  'intelligent_text.text.session.chat': lazy(withTexts(['session', 'runtime'], () => import('../../screens/sessions/ChatSessions.js'))),
  'intelligent_text.text.session.mail': lazy(withTexts(['session', 'runtime'], () => import('../../screens/sessions/MailSessions.js'))),
  'intelligent_text.text.session.voice': lazy(withTexts(['session', 'runtime'], () => import('../../screens/sessions/VoiceSessions.js'))),
  'intelligent_text.text.script_manage.playground': lazy(withTexts(['config', 'runtime'], () => import('../../screens/playground/Playground.js'))),
  'intelligent_text.text.script_manage.trace': lazy(withTexts(['trace', 'text', 'runtime'], () => import('../../screens/trace/TracePage.js'))),
};

export const resolvePage: PageResolver = (module, node) => {
  if (node.route === 'home') return ModuleHome;
  return BESPOKE_PAGES[`${module}.${node.key}`] ?? SchemaPageHost;
};

/** The routes with their page components, from the permission tree the server derived (rebuilt when it changes). */
export function useRoutes(): ModuleRoutes[] {
  const tree = usePermissionTree();
  return useMemo(() => buildRouteConfig(resolvePage, tree), [tree]);
}
