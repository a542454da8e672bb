import { describe, expect, it } from 'vitest';
import { allPermissionKeys } from '../../src/contract/permission-manifest.js';
import { diskPermissionTree } from '../schemas/permission-tree.js';
import { routes } from './index.js';

describe('business routes', () => {
  it('every route names known permission keys and a unique method + path', () => {
    const keys = allPermissionKeys(diskPermissionTree());
    const seen = new Set<string>();
    for (const r of routes) {
      const id = `${r.method} ${r.path}`;
      expect(seen.has(id), id).toBe(false);
      seen.add(id);
      const a = r.access as { permission: string | string[] };
      for (const k of [a.permission].flat()) expect(keys.has(k), `${id}: ${k}`).toBe(true);
    }
  });

  it('covers every call of spec section 7 it owns', () => {
    const paths = new Set(routes.map((r) => `${r.method} ${r.path}`));
    const spec = [
      'GET shop-list', 'POST policy/copy', 'GET users', 'GET plan/list', 'GET plan/config', 'POST plan/create', 'POST plan/update',
      'GET plan-order/list', 'POST plan-order/create', 'GET plan-order/log-info', 'POST plan-order/update', 'GET plan-order/detail',
      'GET user/info', 'GET user/search-by-id', 'GET user/shop-mail-list',
      'GET notification/target-types', 'GET notification/list', 'POST notification/add', 'POST notification/update', 'POST notification/delete', 'POST notification/push',
      'POST learn-material/export', 'GET learn-material/list', 'GET learn-material/info', 'POST learn-knowledge/create', 'POST learn-knowledge/to-policy',
      'POST learn-material/remark', 'POST learn-material/ticket-learn', 'POST learn-material/update-ticket-learn', 'GET shop/policy/list',
      'GET shop/mail-account/list', 'POST shop/learn-policy/update', 'GET shop/learn-policy/list', 'GET shop/learn-policy-product/list',
      'POST shop/learn-policy-product/update', 'POST shop/policy/create', 'POST shop/policy/update', 'POST shop/policy/delete',
      'GET learn-doc/list', 'POST learn-doc/create', 'POST learn-doc/delete', 'POST learn-doc/learn', 'POST learn-doc/get-content',
      'GET shop-product-desc/list', 'POST shop-product-desc/edit', 'POST shop-product-desc/reidentify',
      'GET chat/assistant/list', 'GET chat/assistant/info', 'POST chat/assistant/create', 'POST chat/assistant/update', 'POST chat/assistant/delete', 'POST chat/assistant/copy',
      'GET shop/douyin-shop-policy-product/list', 'POST shop/douyin-shop-policy-product/create', 'POST shop/douyin-shop-policy-product/update',
      'POST shop/douyin-shop-policy-product/import-product', 'POST shop/douyin-shop-policy-product/update-remark', 'POST shop/douyin-shop-policy-product/check-product-exists',
      'GET shop/list', 'GET order/list', 'GET customer/list',
    ];
    for (const p of spec) expect(paths.has(p), p).toBe(true);
  });
});
