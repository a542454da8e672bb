/**
 * Which component renders a manifest page: module homes get the bespoke module home; pages
 * listed in BESPOKE_PAGES (by flattened key) get their hand-written screen; every other page
 * is a schema page rendered by the runtime.
 */
import { lazy, useMemo } from 'react';
import { SchemaPageHost } from '../pages/SchemaPageHost.js';
import { buildRouteConfig, type ModuleRoutes, type PageComponent, type PageResolver } from '../../runtime/route-config.js';
import { usePermissionTree } from '../../runtime/permission-tree.js';

const ModuleHome = lazy(() => import('../../screens/ModuleHome.js'));

/** Hand-written screens by flattened key (the keys are BESPOKE_PAGE_KEYS of src/contract; a test keeps both lists equal). */
export const BESPOKE_PAGES: Record<string, PageComponent> = {
  'intelligent_text.text.session.chat': lazy(() => import('../../screens/sessions/ChatSessions.js')),
  'intelligent_text.text.session.mail': lazy(() => import('../../screens/sessions/MailSessions.js')),
  'intelligent_text.text.session.voice': lazy(() => import('../../screens/sessions/VoiceSessions.js')),
  'intelligent_text.text.script_manage.playground': lazy(() => import('../../screens/playground/Playground.js')),
  'intelligent_text.text.script_manage.trace': lazy(() => import('../../screens/trace/TracePage.js')),
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
