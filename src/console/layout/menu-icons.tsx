/**
 * One icon per menu group and page: a schema page names its own (`menu.icon`); groups and bespoke
 * screens have theirs by manifest key (MENU_ICONS, menu-icon-keys.ts; src/contract/permission-manifest.ts
 * stays free of React so the server can read it). The side menu shows them expanded and collapsed
 * (collapsed: only the icon, the title as tooltip); an entry without an icon gets the group / page
 * fallback.
 *
 * The side menu draws one module at a time, and of it the top-level entries and the open groups,
 * so the icons come in those pieces (menu-icon-modules/, generated from the schemas by
 * scripts/menu-icons.ts): a module's set (its top-level entries and the fallbacks) and one set per
 * top-level group (what the module's set lacks). The layout starts the module's set and the current
 * page's group while it renders, beside the page's own chunks, so it never waits for the page and the
 * page never waits for it; another group's set loads when that group opens (its entries mount). A
 * module the generated map does not know gets the whole set (menu-icon-set.tsx). Until its set
 * arrives an icon holds its place (an empty 1em box with antd's icon class), so the menu does not
 * move when they draw.
 */
import { useEffect, useState, type ComponentType } from 'react';
import { MENU_ICONS } from './menu-icon-keys.js';
import { MENU_ICON_SETS, type MenuIconSet } from './menu-icon-modules/index.js';

export { MENU_ICONS };

const loaded = new Map<string, MenuIconSet>();
const pending = new Map<string, Promise<MenuIconSet>>();

/** The whole set, as a module's set (for a module the generated map does not name). */
const wholeSet = (): Promise<MenuIconSet> =>
  import('./menu-icon-set.js').then((m) => ({ ...m.ICONS_BY_NAME, GROUP_FALLBACK: m.GROUP_FALLBACK, PAGE_FALLBACK: m.PAGE_FALLBACK }));

/** The set id of a module's top level, or of one of its top-level groups. */
const setId = (module: string, group?: string) => (group ? `${module}/${group}` : module);

function loadSet(id: string, module: string): Promise<MenuIconSet> {
  let p = pending.get(id);
  if (!p) {
    // a known module's group without a set of its own has nothing beyond the module's set
    const load = MENU_ICON_SETS[id] ?? (id !== module && module in MENU_ICON_SETS ? () => Promise.resolve({}) : wholeSet);
    p = load().then(
      (set) => (loaded.set(id, set), set),
      (e: unknown) => {
        pending.delete(id); // retried by the next icon that draws
        throw e;
      },
    );
    pending.set(id, p);
  }
  return p;
}

/**
 * Starts (once) loading the icons of a module's side menu — its top level, and the entries of the
 * top-level `group` when one is named; the layout calls it as it renders.
 */
export function loadMenuIcons(module: string, group?: string): Promise<unknown> {
  const top = loadSet(module, module);
  return group ? Promise.all([top, loadSet(setId(module, group), module)]) : top;
}

type IconProps = { 'aria-hidden'?: boolean | 'true' | 'false' };
const components = new Map<string, ComponentType<IconProps>>();

/** The icon named `key` (an antd icon name, or a fallback) of an entry of a module's menu, inside top-level `group` or not. */
function menuIconOf(module: string, group: string | undefined, key: string, fallback: 'group' | 'page'): ComponentType<IconProps> {
  const id = `${setId(module, group)}|${key}|${fallback}`;
  let c = components.get(id);
  if (c) return c;
  const ready = () => loaded.has(module) && (!group || loaded.has(setId(module, group)));
  function MenuIcon(props: IconProps) {
    const [, setReady] = useState(ready);
    useEffect(() => {
      if (ready()) return;
      let live = true;
      loadMenuIcons(module, group).then(
        () => live && setReady(true),
        () => undefined,
      );
      return () => {
        live = false;
      };
    }, []);
    const top = loaded.get(module);
    const own = group ? loaded.get(setId(module, group)) : top;
    if (!top || !own) return <span role="img" className="anticon" style={{ width: '1em', height: '1em' }} {...props} />;
    const Icon = own[key] ?? top[key] ?? (fallback === 'group' ? top.GROUP_FALLBACK : top.PAGE_FALLBACK);
    return <Icon {...props} />;
  }
  MenuIcon.displayName = `MenuIcon(${key})`;
  c = MenuIcon;
  components.set(id, c);
  return c;
}

/**
 * The icon of a menu entry of `module` (a group when it has no route), inside the top-level group
 * `group` (none for a top-level entry): the one its schema names (`menu.icon`, one of
 * src/contract/menu-icons.ts), else the manifest's for a group or bespoke screen, else the fallback.
 */
export function menuIcon(module: string, group: string | undefined, key: string, isGroup: boolean, name?: string): ComponentType<IconProps> {
  return menuIconOf(module, group, name ?? MENU_ICONS[key] ?? '', isGroup ? 'group' : 'page');
}
