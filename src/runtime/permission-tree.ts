/**
 * The permission tree the console builds its routes and menus from: the hand-written manifest
 * plus the menu pages the schemas declare, derived by the server from its schema store
 * (`GET schema/permission-tree`, server/routes/schema.ts) — so a page added under the dev watch
 * (SCHEMA_WATCH=1) shows in the menu when the tab regains focus (src/console/session/actions.ts
 * refreshLiveTree), or at the next sign-in or reload, without a rebuild.
 *
 * Until the server's tree arrives (it is asked with the permissions at start-up, before the
 * session is ready) the static manifest stands in: it has the modules, menu groups and bespoke
 * screens, not the schema pages.
 */
import { useSyncExternalStore } from 'react';
import { MANIFEST, type ModuleManifest } from '../contract/permission-manifest.js';
import type { PermissionTreeReply } from '../contract/replies/schema.js';

let tree: readonly ModuleManifest[] = MANIFEST;
const listeners = new Set<() => void>();

export function getPermissionTree(): readonly ModuleManifest[] {
  return tree;
}

export function setPermissionTree(next: readonly ModuleManifest[]): void {
  if (next === tree) return;
  tree = next;
  for (const l of listeners) l();
}

export function subscribePermissionTree(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function usePermissionTree(): readonly ModuleManifest[] {
  return useSyncExternalStore(subscribePermissionTree, getPermissionTree, getPermissionTree);
}

/** Reply of `GET schema/permission-tree` (declared once: src/contract/replies/schema.ts). */
export type { PermissionTreeReply };

let liveTexts: PermissionTreeReply['texts'] = undefined;
const textListeners = new Set<(texts: NonNullable<PermissionTreeReply['texts']>) => void>();

/** The dev watch's locale texts (see PermissionTreeReply.texts); the console merges them into i18n. */
export function setLiveTexts(texts: PermissionTreeReply['texts']): void {
  liveTexts = texts;
  if (texts) for (const l of textListeners) l(texts);
}

/** Whether the server's dev watch sent its texts (the console then refreshes the tree on focus). */
export const hasLiveTexts = (): boolean => liveTexts !== undefined;
export const getLiveTexts = (): PermissionTreeReply['texts'] => liveTexts;

export function onLiveTexts(fn: (texts: NonNullable<PermissionTreeReply['texts']>) => void): () => void {
  textListeners.add(fn);
  if (liveTexts) fn(liveTexts);
  return () => textListeners.delete(fn);
}
