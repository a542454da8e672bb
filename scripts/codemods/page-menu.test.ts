import { describe, expect, it } from 'vitest';
import { applyMenu } from './page-menu.js';

const FILE = `{
  "$schema": "../../meta/list.schema.json",
  "id": "x.list",
  "kind": "list",
  "schemaVersion": 1,
  "version": 3,
  "module": "admin_center",
  "routes": ["/admin_center/x"],
  "permission": "admin_center.admin.x",
  "title": "admin.x.title",
  "columns": []
}
`;

describe('page-menu codemod', () => {
  it('adds one menu line after "permission" and raises the version; a second run changes nothing', () => {
    const once = applyMenu(FILE, { group: 'admin.system', order: 30, icon: 'ApiOutlined' })!;
    expect(once).toBe(
      FILE.replace('"version": 3,', '"version": 4,').replace(
        '"permission": "admin_center.admin.x",\n',
        '"permission": "admin_center.admin.x",\n  "menu": { "group": "admin.system", "order": 30, "icon": "ApiOutlined" },\n',
      ),
    );
    expect(JSON.parse(once)).toMatchObject({ version: 4, menu: { group: 'admin.system', order: 30, icon: 'ApiOutlined' } });
    expect(applyMenu(once, { group: 'admin.system', order: 30, icon: 'ApiOutlined' })).toBeNull();
    // a different entry replaces the line (and raises the version again)
    const moved = applyMenu(once, { group: 'admin.system', order: 40 })!;
    expect(JSON.parse(moved)).toMatchObject({ version: 5, menu: { group: 'admin.system', order: 40 } });
    expect(moved.split('\n').length).toBe(once.split('\n').length);
  });
});
