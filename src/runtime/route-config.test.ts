import { describe, expect, it } from 'vitest';
import { flattenManifest } from '../contract/permission-manifest.js';
import { diskPermissionTree } from '../../server/schemas/permission-tree.js';
import { buildRouteConfig, findRoute, firstOpenRoute, flattenRoutes, rootRedirects, routablePaths, type PageProps } from './route-config.js';

const Page = (_: PageProps) => null;
const tree = diskPermissionTree();
const config = buildRouteConfig(() => Page, tree);

describe('route configuration from the manifest', () => {
  it('has a route for every manifest page, with module and permission key module.key', () => {
    const manifestPaths = flattenManifest(tree).filter((e) => e.path).map((e) => e.path);
    const paths = flattenRoutes(config).filter((e) => e.path).map((e) => e.path);
    expect(paths).toEqual(manifestPaths);
    const scene = findRoute(config, '/intelligent_voice/callCenter/scene')!.entry;
    expect(scene).toMatchObject({ module: 'intelligent_voice', permissionKey: 'intelligent_voice.admin.call_center.scene', auth: true, hidden: false });
    expect(scene.page).toBe(Page);
  });

  it('has module homes for all four modules', () => {
    for (const m of ['intelligent_text', 'intelligent_voice', 'panda_descendant', 'admin_center'])
      expect(findRoute(config, `/${m}/home`)?.entry.module).toBe(m);
  });

  it('looks routes up by path, with params and aliases', () => {
    expect(findRoute(config, '/intelligent_text/learn/material/detail/42')).toMatchObject({
      entry: { path: '/intelligent_text/learn/material/detail/:id' },
      params: { id: '42' },
    });
    expect(findRoute(config, '/intelligent_voice/scene')?.entry.path).toBe('/intelligent_voice/callCenter/scene');
    // a static path wins over a param pattern
    expect(findRoute(config, '/intelligent_text/dataCenter/dataSet/add')?.entry.key).toBe('text.data_center.data_set.add');
    expect(findRoute(config, '/nope')).toBeNull();
  });

  it('marks hidden entries and keeps buttons out of the routes', () => {
    expect(findRoute(config, '/intelligent_text/shop/sessionCategory')?.entry.hidden).toBe(true);
    expect(flattenRoutes(config).some((e) => e.key === 'text.shop.list.edit')).toBe(false);
  });

  it('sends module roots to their home and page folders to their first menu page, never shadowing a page', () => {
    const to = new Map(rootRedirects(config).map((r) => [r.from, r.to]));
    for (const m of ['intelligent_text', 'intelligent_voice', 'panda_descendant', 'admin_center']) expect(to.get(`/${m}`)).toBe(`/${m}/home`);
    expect(to.get('/intelligent_text/session')).toMatch(/^\/intelligent_text\/session\/[^:]+$/);
    const pages = new Set(routablePaths(config).map((r) => r.path));
    for (const [from, target] of to) {
      expect(pages.has(from), from).toBe(false);
      expect(pages.has(target), target).toBe(true);
    }
  });

  it('lists each routable path once', () => {
    const paths = routablePaths(config).map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toContain('/intelligent_voice/ivr');
  });

  it('finds the first open route of a module', () => {
    const voice = config.find((m) => m.module === 'intelligent_voice')!;
    expect(firstOpenRoute(voice, (e) => e.key === 'admin.call_center.log')?.path).toBe('/intelligent_voice/callCenter/logs');
    expect(firstOpenRoute(voice, () => true)?.path).toBe('/intelligent_voice/home');
    expect(firstOpenRoute(voice, () => false)).toBeNull();
  });
});
