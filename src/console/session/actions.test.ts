import { afterEach, describe, expect, it } from 'vitest';
import { MANIFEST, type ModuleManifest } from '../../contract/permission-manifest.js';
import type { HttpPort } from '../../runtime/env.js';
import { getPermissionTree, setLiveTexts, setPermissionTree } from '../../runtime/permission-tree.js';
import { refreshLiveTree } from './actions.js';
import { sessionStore, setSignedIn } from './store.js';

/** A fake port answering the two calls of refreshLiveTree from mutable replies, counting calls. */
function port(replies: { permissions: unknown[]; tree: ModuleManifest[]; texts?: Record<string, Record<string, unknown>> }) {
  const calls: string[] = [];
  const http = {
    get: async (path: string) => {
      calls.push(path);
      return { modules: replies.tree, ...(replies.texts ? { texts: replies.texts } : {}) };
    },
    post: async (path: string) => {
      calls.push(path);
      return { permissions: replies.permissions, roles: [] };
    },
  } as unknown as HttpPort;
  return { http, calls };
}

const user = { id: 1, email: 'ops@example.com', name: 'Ops', roles: [] };
const perm = (key: string) => ({ id: 1, pid: 0, module: 'intelligent_text', permission_key: key });

afterEach(() => {
  setPermissionTree(MANIFEST);
  setLiveTexts(undefined);
});

describe('refreshLiveTree (a page added under the dev watch shows on returning to the tab)', () => {
  it('asks nothing when the server runs without the dev watch', async () => {
    setSignedIn(user, [], []);
    const { http, calls } = port({ permissions: [], tree: [...MANIFEST] });
    await refreshLiveTree(http);
    expect(calls).toEqual([]);
  });

  it('takes a new tree and new grants, and redraws nothing when neither changed', async () => {
    setSignedIn(user, [perm('text.shop.list')], []);
    setLiveTexts({ 'zh-CN': {} });
    const added = structuredClone(MANIFEST) as ModuleManifest[];
    added[0].menus[0].children!.push({ key: 'text.model_calls', type: 'page', title: { 'zh-CN': '模型调用记录', 'en-US': 'Model calls' }, route: '/intelligent_text/model-calls' } as never);
    const replies = { permissions: [perm('text.shop.list'), perm('text.model_calls')], tree: added, texts: { 'zh-CN': {} } };
    const { http, calls } = port(replies);

    await refreshLiveTree(http);
    expect(calls.sort()).toEqual(['account/role-permissions', 'schema/permission-tree']);
    expect(JSON.stringify(getPermissionTree())).toBe(JSON.stringify(added));
    expect(sessionStore.get().access.keys.has('intelligent_text.text.model_calls')).toBe(true);

    // the same replies again: neither the tree nor the session store changes
    const tree = getPermissionTree();
    let notified = 0;
    const off = sessionStore.subscribe(() => notified++);
    await refreshLiveTree(http);
    off();
    expect(getPermissionTree()).toBe(tree);
    expect(notified).toBe(0);
  });
});
