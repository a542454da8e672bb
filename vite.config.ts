import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** A module id inside one of these node_modules packages (or antd / Formily component folders). */
const inPackages = (...groups: Array<string | string[]>) => {
  const names = groups.flat();
  const re = new RegExp(`[\\\\/]node_modules[\\\\/](?:${names.map((n) => n.replace(/[/]/g, '[\\\\/]')).join('|')})[\\\\/]`);
  return (id: string) => re.test(id);
};
const antd = (...dirs: string[]) => dirs.map((d) => `antd/es/${d}`);

/** antd Form itself (rc-field-form's store and fields, the async validator, the grid of its items) */
const formGroup = inPackages(antd('form', 'grid', 'row', 'col'), 'rc-field-form', '@rc-component/async-validator');
/** what antd Input takes from antd's form folder: its contexts and the variant hook, no store */
const formContexts = /[\\/]antd[\\/]es[\\/]form[\\/](context|hooks[\\/]useVariants)\.js$|[\\/]rc-field-form[\\/]es[\\/](FormContext|FieldContext)\.js$/;
/** helpers in those folders that other components use too (Table, Radio, Layout: breakpoints, name paths) */
const formShared = /[\\/]antd[\\/]es[\\/](form[\\/]util|grid[\\/]hooks)[\\/.]/;
/** antd Input / Password (without TextArea / Search / Group / OTP, which the sign-in form does not use) */
const inputGroup = inPackages(antd('input'), 'rc-input');
const inputExtras = /[\\/]antd[\\/]es[\\/]input[\\/](index|TextArea|Search|Group|OTP)\b/;
/** antd Tooltip and the popup machinery under it (menus, selects, tooltips; not the sign-in page) */
const popupGroup = inPackages(antd('tooltip'), '@rc-component/trigger', '@rc-component/portal', 'rc-tooltip', 'rc-resize-observer', 'resize-observer-polyfill');

/**
 * Chunks: rolldown splits per route and per lazy widget on its own, which leaves dozens of
 * small shared chunks; the groups below gather the libraries that travel together, so a route
 * loads a few files (gzip works better on fewer, larger files) and later routes reuse them.
 */
const chunkGroups = [
  // what every route runs first (React, router, i18n, antd's core, the shell's own code)
  { name: 'vendor', test: /[\\/]node_modules[\\/]/, tags: ['$initial' as const], priority: 10 },
  { name: 'shell', tags: ['$initial' as const], priority: 9 },
  // antd Input / Password and the form contexts Input reads: the sign-in form and most pages
  { name: 'antd-input', test: (id: string) => (inputGroup(id) && !inputExtras.test(id)) || formContexts.test(id), priority: 8 },
  // antd Form (the sign-in form draws its own items: only forms drawn with antd Form load it)
  {
    name: 'antd-form',
    test: (id: string) => formGroup(id) && !formContexts.test(id) && !formShared.test(id),
    priority: 6,
    // its helpers shared with other components (breakpoints, icons, name paths) stay outside
    includeDependenciesRecursively: false,
  },
  // Tooltip and the popup trigger (filter forms' hints, menus, selects)
  { name: 'antd-popup', test: popupGroup, priority: 7 },
  // the main layout's menus and header controls
  {
    name: 'layout-lib',
    test: inPackages(...antd('menu', 'layout', 'dropdown', 'avatar', 'switch', 'popover'), 'rc-menu', 'rc-overflow', 'rc-dropdown', 'rc-switch'),
    priority: 5,
  },
];

/**
 * Imports inside antd that pull a whole component in for one small helper, pointed at what they
 * use (the helper's own code, unchanged):
 * - the form contexts every input reads import rc-field-form's barrel for its FormProvider alone,
 *   and Radio.Group (Table's selection column) imports form/hooks/useForm for toNamePathStr: both
 *   brought antd Form's store, fields and async validator to pages that draw no antd Form;
 * - Button's theme tokens import the color picker's presets panel for isBright: that brought antd
 *   Collapse (which the presets panel draws) into the chunk every route loads;
 * - Table's column filter menu (a Tree, a Menu, checkboxes, a search box) is drawn only for a
 *   column with `filters`, which no console list has: it loads when such a column first draws
 *   (its title shows meanwhile), instead of with every table;
 * - Formily's core imports its validator (rules, formats, messages in every language) for
 *   `validate`, which is asynchronous anyway: a list page's filter form never validates, so the
 *   core gets the two small parsing helpers as they are and a `validate` that loads the real
 *   validator on its first call (language and registrations made before are replayed on it);
 * - antd Table's selection column imports rc-tree's util for two array helpers (arrAdd, arrDel),
 *   and that file imports rc-tree's TreeNode component, drawn by no table: the helpers alone.
 */
const HELPERS: Record<string, string> = {
  // antd/es/form/hooks/useForm.js
  '\0antd-form-name-path-str': "import { toArray } from 'antd/es/form/util.js';\nexport const toNamePathStr = (name) => toArray(name).join('_');\n",
  // antd/es/color-picker/components/ColorPresets.js
  '\0antd-color-is-bright': `import { Color as RcColor } from '@rc-component/color-picker';
export const isBright = (value, bgColorToken) => {
  const { r, g, b, a } = value.toRgb();
  const hsv = new RcColor(value.toRgbString()).onBackground(bgColorToken).toHsv();
  if (a <= 0.5) return hsv.v > 0.5;
  return r * 0.299 + g * 0.587 + b * 0.114 > 192;
};
`,
  // antd/es/table/hooks/useFilter/FilterDropdown.js: flattenKeys, and the menu itself on demand
  '\0antd-table-filter-dropdown': `import * as React from 'react';
export function flattenKeys(filters) {
  let keys = [];
  (filters || []).forEach(({ value, children }) => {
    keys.push(value);
    if (children) keys = [...keys, ...flattenKeys(children)];
  });
  return keys;
}
const Menu = React.lazy(() => import('antd/es/table/hooks/useFilter/FilterDropdown.js'));
export default function FilterDropdown(props) {
  return React.createElement(React.Suspense, { fallback: props.children }, React.createElement(Menu, props));
}
`,
  // rc-tree/es/util.js, as antd/es/table/hooks/useSelection.js uses it
  '\0rc-tree-arr-helpers': `export function arrDel(list, value) {
  if (!list) return [];
  const clone = list.slice();
  const index = clone.indexOf(value);
  if (index >= 0) clone.splice(index, 1);
  return clone;
}
export function arrAdd(list, value) {
  const clone = (list || []).slice();
  if (clone.indexOf(value) === -1) clone.push(value);
  return clone;
}
`,
  // @formily/validator as @formily/core sees it (core's shared/internals, shared/externals, models/Field)
  '\0formily-validator-lazy': `import { isArr, isFn, isStr } from '@formily/shared';
let real = null;
let pending = null;
const calls = [];
const load = () =>
  (pending ??= import('@formily/validator').then((m) => {
    real = m;
    for (const [name, args] of calls.splice(0)) m[name](...args);
    return m;
  }, (e) => { pending = null; throw e; }));
const replayed = (name) => (...args) => {
  if (real) return real[name](...args);
  calls.push([name, args]);
};
export const setValidateLanguage = replayed('setValidateLanguage');
export const registerValidateFormats = replayed('registerValidateFormats');
export const registerValidateLocale = replayed('registerValidateLocale');
export const registerValidateMessageTemplateEngine = replayed('registerValidateMessageTemplateEngine');
export const registerValidateRules = replayed('registerValidateRules');
export const getValidateLocaleIOSCode = (...args) => (real ? real.getValidateLocaleIOSCode(...args) : (load().catch(() => undefined), undefined));
export const getLocaleByPath = (...args) => (real ? real.getLocaleByPath(...args) : (load().catch(() => undefined), undefined));
export const validate = (...args) => (real ? real.validate(...args) : load().then((m) => m.validate(...args)));
export const parseValidatorDescription = (description) => {
  if (!description) return {};
  let rules = {};
  if (isStr(description)) rules.format = description;
  else if (isFn(description)) rules.validator = description;
  else rules = Object.assign(rules, description);
  return rules;
};
export const parseValidatorDescriptions = (validator) => {
  if (!validator) return [];
  const array = isArr(validator) ? validator : [validator];
  return array.map((description) => parseValidatorDescription(description));
};
`,
};
const REDIRECTS: Array<{ importer: RegExp; source: string; to: string }> = [
  { importer: /[\\/]antd[\\/]es[\\/]form[\\/]context\.js$/, source: 'rc-field-form', to: 'rc-field-form/es/FormContext.js' },
  { importer: /[\\/]antd[\\/]es[\\/]radio[\\/]group\.js$/, source: '../form/hooks/useForm', to: '\0antd-form-name-path-str' },
  { importer: /[\\/]antd[\\/]es[\\/]button[\\/]style[\\/]token\.js$/, source: '../../color-picker/components/ColorPresets', to: '\0antd-color-is-bright' },
  { importer: /[\\/]antd[\\/]es[\\/]table[\\/]hooks[\\/]useFilter[\\/]index\.js$/, source: './FilterDropdown', to: '\0antd-table-filter-dropdown' },
  { importer: /[\\/]@formily[\\/]core[\\/]esm[\\/]/, source: '@formily/validator', to: '\0formily-validator-lazy' },
  { importer: /[\\/]antd[\\/]es[\\/]table[\\/]hooks[\\/]useSelection\.js$/, source: 'rc-tree/es/util', to: '\0rc-tree-arr-helpers' },
];
const antdHelpersOnly = {
  name: 'antd-helpers-only',
  enforce: 'pre' as const,
  resolveId(this: { resolve: (s: string, i?: string, o?: { skipSelf: boolean }) => Promise<unknown> }, source: string, importer?: string) {
    const r = importer ? REDIRECTS.find((x) => x.source === source && x.importer.test(importer)) : undefined;
    if (!r) return null;
    return r.to in HELPERS ? r.to : this.resolve(r.to, importer, { skipSelf: true });
  },
  load(id: string) {
    return HELPERS[id] ?? null;
  },
};

/**
 * zh-CN's largest namespaces in parts, one chunk per second-level key (`text.shop`, `text.sync`,
 * …), so a page loads the parts its schema names, not the whole file: src/console/i18n.ts asks for
 * `../locales/zh-CN/<ns>.json?parts` (import.meta.glob, eager; the glob names which namespaces)
 * and this plugin answers a map of that namespace's parts, each a `() => import()` of one key's
 * texts. The locale files stay as they are for every other reader. Vitest loads the same plugin
 * (vitest.config.ts).
 */
const LOCALES_ZH = path.join(path.dirname(fileURLToPath(import.meta.url)), 'src/locales/zh-CN');
const PARTS = /[\\/]locales[\\/]zh-CN[\\/](\w+)\.json\?parts$/;
export function localeParts(): Plugin {
  const read = (ns: string) => JSON.parse(readFileSync(path.join(LOCALES_ZH, `${ns}.json`), 'utf8')) as Record<string, unknown>;
  return {
    name: 'zh-locale-parts',
    enforce: 'pre',
    resolveId(source) {
      const ns = PARTS.exec(source)?.[1];
      if (ns) return `\0zh-parts:${ns}`;
      if (source.startsWith('zh-part:')) return `\0${source}`;
      return null;
    },
    load(id) {
      if (id.startsWith('\0zh-parts:')) {
        const ns = id.slice('\0zh-parts:'.length);
        this.addWatchFile(path.join(LOCALES_ZH, `${ns}.json`));
        const parts = Object.keys(read(ns)).map((k) => `  ${JSON.stringify(k)}: () => import(${JSON.stringify(`zh-part:${ns}/${k}`)}).then((m) => m.default),`);
        return `export default {\n${parts.join('\n')}\n};\n`;
      }
      if (id.startsWith('\0zh-part:')) {
        const [ns, key] = id.slice('\0zh-part:'.length).split('/');
        this.addWatchFile(path.join(LOCALES_ZH, `${ns}.json`));
        return `export default ${JSON.stringify(read(ns)[key])};\n`;
      }
      return null;
    },
  };
}

/** Client build: dist/; in dev, /api is proxied to the server on 127.0.0.1:8080. */
export default defineConfig({
  plugins: [react(), antdHelpersOnly, localeParts()],
  server: {
    host: '127.0.0.1',
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    // dist/.vite/manifest.json: which chunks each entry and lazy module pulls in (for reviewers)
    manifest: true,
    // every browser the console supports has <link rel=modulepreload>
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: { codeSplitting: { groups: chunkGroups } },
      // rc-field-form (antd Form's store) declares no `sideEffects`, so the one helper list pages
      // use from antd's form folder (Table → Radio → form/hooks/useForm) kept all of rc-field-form,
      // its fields and its async validator. Its modules only define things.
      treeshake: { moduleSideEffects: [{ test: /[\\/]node_modules[\\/]rc-field-form[\\/]/, sideEffects: false }] },
    },
  },
});
