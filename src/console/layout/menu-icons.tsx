/**
 * One icon per menu group and page: a schema page names its own (`menu.icon`); groups and bespoke
 * screens have theirs by manifest key (MENU_ICONS, menu-icon-keys.ts; src/contract/permission-manifest.ts
 * stays free of React so the server can read it). The side menu shows them expanded and collapsed
 * (collapsed: only the icon, the title as tooltip); an entry without an icon gets the group / page
 * fallback.
 *
 * The side menu draws one module at a time, so the icons come one chunk per module
 * (menu-icon-modules/, generated from the schemas by scripts/menu-icons.ts: the text module's menu
 * draws about a third of the 64); a module the generated map does not know gets the whole set
 * (menu-icon-set.tsx). The layout starts its module's chunk while it renders, beside the page's own
 * chunks, so it never waits for the page and the page never waits for it. Until it arrives an icon
 * holds its place (an empty 1em box with antd's icon class), so the menu does not move when they draw.
 */
import { useEffect, useState, type ComponentType } from 'react';
import { MENU_ICONS } from './menu-icon-keys.js';
import { MODULE_ICON_SETS, type MenuIconSet } from './menu-icon-modules/index.js';

export { MENU_ICONS };

const loaded = new Map<string, MenuIconSet>();
const pending = new Map<string, Promise<MenuIconSet>>();

/** The whole set, as a module's set (for a module the generated map does not name). */
const wholeSet = (): Promise<MenuIconSet> =>
  import('./menu-icon-set.js').then((m) => ({ ...m.ICONS_BY_NAME, GROUP_FALLBACK: m.GROUP_FALLBACK, PAGE_FALLBACK: m.PAGE_FALLBACK }));

/** Starts (once) loading the icons of a module's side menu; the layout calls it as it renders. */
export function loadMenuIcons(module: string): Promise<MenuIconSet> {
  let p = pending.get(module);
  if (!p) {
    p = (MODULE_ICON_SETS[module] ?? wholeSet)().then(
      (set) => (loaded.set(module, set), set),
      (e: unknown) => {
        pending.delete(module); // retried by the next icon that draws
        throw e;
      },
    );
    pending.set(module, p);
  }
  return p;
}

type IconProps = { 'aria-hidden'?: boolean | 'true' | 'false' };
const components = new Map<string, ComponentType<IconProps>>();

/** The icon named `key` (an antd icon name, or a fallback) of a module's menu, expanded and collapsed. */
function menuIconOf(module: string, key: string, fallback: 'group' | 'page'): ComponentType<IconProps> {
  const id = `${module}|${key}|${fallback}`;
  let c = components.get(id);
  if (c) return c;
  function MenuIcon(props: IconProps) {
    const set = loaded.get(module);
    const [, setReady] = useState(set !== undefined);
    useEffect(() => {
      if (loaded.has(module)) return;
      let live = true;
      loadMenuIcons(module).then(
        () => live && setReady(true),
        () => undefined,
      );
      return () => {
        live = false;
      };
    }, []);
    if (!set) return <span role="img" className="anticon" style={{ width: '1em', height: '1em' }} {...props} />;
    const Icon = set[key] ?? (fallback === 'group' ? set.GROUP_FALLBACK : set.PAGE_FALLBACK);
    return <Icon {...props} />;
  }
  MenuIcon.displayName = `MenuIcon(${key})`;
  c = MenuIcon;
  components.set(id, c);
  return c;
}

/**
 * The icon of a menu entry of `module` (a group when it has no route): the one its schema names
 * (`menu.icon`, one of src/contract/menu-icons.ts), else the manifest's for a group or bespoke
 * screen, else the fallback.
 */
export function menuIcon(module: string, key: string, isGroup: boolean, name?: string): ComponentType<IconProps> {
  return menuIconOf(module, name ?? MENU_ICONS[key] ?? '', isGroup ? 'group' : 'page');
}
