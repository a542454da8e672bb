/**
 * The renderers of the page kinds other than lists — detail, tabs, form page — and the
 * dev-mode inspector are chunks of their own: a list page (the first page most people open)
 * does not load them. `prepareView` starts a kind's chunk while the schema's widgets load
 * (see use-widget-preload.ts), so a page of that kind still renders in one go; `viewOf`
 * answers the loaded component, else a lazy one (a page drawn before its chunk arrived).
 */
import { lazy, type ComponentType } from 'react';
import { loadOnce, type LoadOnce } from '../../runtime/load-once.js';
import type { PageKind } from '../../runtime/types.js';

type LazyKind = Exclude<PageKind, 'list'>;
// the props differ per kind; SchemaView passes the right ones for the kind it picked
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the props differ per kind (above)
type View = ComponentType<any>;

const loaders: Record<LazyKind, LoadOnce<View>> = {
  detail: loadOnce(() => import('../detail/DetailView.js').then((m) => m.DetailView)),
  tabs: loadOnce(() => import('../tabs/TabsView.js').then((m) => m.TabsView)),
  form: loadOnce(() => import('../form/FormPage.js').then((m) => m.FormPage)),
};

const isLazyKind = (kind: string): kind is LazyKind => kind in loaders;

/** Starts loading the renderer of `kind`; undefined when there is nothing to wait for. */
export function prepareView(kind: string): Promise<unknown> | undefined {
  return isLazyKind(kind) && !loaders[kind].peek() ? loaders[kind]() : undefined;
}

const lazyView = (kind: LazyKind): View => lazy(() => loaders[kind]().then((v) => ({ default: v })));
const lazyViews: Record<LazyKind, View> = { detail: lazyView('detail'), tabs: lazyView('tabs'), form: lazyView('form') };

/** The renderer of `kind`: the loaded component, else a lazy one (draw it under a Suspense). */
export const viewOf = (kind: LazyKind): View => loaders[kind].peek() ?? lazyViews[kind];

/** The dev-mode inspector (drawn around every schema page when dev mode is on). */
export const LazyInspector = lazy(() => import('./Inspector.js').then((m) => ({ default: m.Inspector })));

/** The panel naming the problems of a schema that cannot be shown. */
export const LazyErrorPanel = lazy(() => import('./ErrorPanel.js').then((m) => ({ default: m.ErrorPanel })));
