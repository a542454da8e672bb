import { describe, expect, it } from 'vitest';
import { deriveManifest, pageMenuDecl, treeTranslate, type PageMenuDecl } from './page-menu.js';
import { MANIFEST, allPermissionKeys, flattenManifest } from './permission-manifest.js';

const t = treeTranslate({ 'zh-CN': { text: { rc: { title: '退款码' } } }, 'en-US': { text: { rc: { title: 'Refund codes' } } } });
const doc = (over: Record<string, unknown> = {}) => ({
  kind: 'list',
  module: 'intelligent_text',
  routes: ['/intelligent_text/dataCenter/refundCode'],
  permission: 'intelligent_text.text.data_center.refund_code',
  title: 'text.rc.title',
  menu: { group: 'text.data_center', order: 25, icon: 'StopOutlined' },
  ...over,
});
const decl = (over: Partial<PageMenuDecl> = {}): PageMenuDecl => ({ ...pageMenuDecl('a.json', doc(), t).decl!, ...over });

describe('menu pages derived from page schemas', () => {
  it('reads route, key, group, order, icon and both titles from a schema', () => {
    expect(pageMenuDecl('a.json', doc(), t)).toEqual({
      decl: {
        file: 'a.json',
        module: 'intelligent_text',
        key: 'text.data_center.refund_code',
        route: 'dataCenter/refundCode',
        group: 'text.data_center',
        order: 25,
        icon: 'StopOutlined',
        title: { 'zh-CN': '退款码', 'en-US': 'Refund codes' },
      },
      problems: [],
    });
    expect(pageMenuDecl('a.json', doc({ menu: undefined }), t).decl).toBeNull();
  });

  it('puts the page under its group in order, with its pageChildren, as a page permission', () => {
    const { manifest, problems } = deriveManifest(MANIFEST, [decl()]);
    expect(problems.filter((p) => !p.reason.includes('pageChildren'))).toEqual([]);
    const e = flattenManifest(manifest).find((x) => x.node.key === 'text.data_center.refund_code')!;
    expect(e).toMatchObject({ module: 'intelligent_text', parent: 'text.data_center', path: '/intelligent_text/dataCenter/refundCode' });
    expect(e.node.type).toBe(2);
    expect(allPermissionKeys(manifest).has('intelligent_text.text.data_center.refund_code')).toBe(true);
    const withKids = deriveManifest(MANIFEST, [decl({ key: 'text.shop.plan', route: 'shop/plan', group: 'text.shop' })]).manifest;
    expect(flattenManifest(withKids).filter((x) => x.parent === 'text.shop.plan').map((x) => x.node.key)).toEqual(['text.shop.plan.create', 'text.shop.plan.update']);
    // the page sorts by order among the manifest's own entries (playground: 20, the hidden trace page: 90)
    const sm = deriveManifest(MANIFEST, [decl({ key: 'text.script_manage.x', route: 'scriptManage/x', group: 'text.script_manage', order: 5 })]).manifest;
    expect(sm[0].menus[0].children!.map((c) => c.key)).toEqual(['text.script_manage.x', 'text.script_manage.playground', 'text.script_manage.trace']);
  });

  it('refuses an unknown group or icon, a route or key declared twice, and pageChildren without a page', () => {
    const reasons = (decls: PageMenuDecl[]) => deriveManifest(MANIFEST, decls).problems.map((p) => `${p.file}#${p.pointer}: ${p.reason}`);
    expect(reasons([decl({ group: 'text.nope' })]).some((r) => r.startsWith('a.json#/menu/group: unknown menu group "text.nope"'))).toBe(true);
    expect(reasons([decl(), decl({ file: 'b.json', key: 'text.other' })]).some((r) => r.startsWith('b.json#/routes/0: route "/intelligent_text/dataCenter/refundCode" is declared by two pages (also by a.json)'))).toBe(true);
    expect(reasons([decl({ route: 'session/chat' })]).some((r) => r.includes('declared by two pages (also by src/contract/permission-manifest.ts)'))).toBe(true);
    expect(reasons([decl({ key: 'text.session.chat' })]).some((r) => r.includes('page key "intelligent_text.text.session.chat" is declared twice'))).toBe(true);
    expect(reasons([]).some((r) => r.startsWith('src/contract/permission-manifest.ts#/intelligent_text.text.shop.plan: pageChildren'))).toBe(true);
    expect(pageMenuDecl('a.json', doc({ menu: { group: 'text.data_center', order: 1, icon: 'NopeOutlined' } }), t).problems.map((p) => p.reason)).toEqual([
      'unknown menu icon "NopeOutlined" (not in src/contract/menu-icons.ts)',
    ]);
  });
});
