import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** A module id inside one of these node_modules packages (or antd / Formily component folders). */
const inPackages = (...names: string[]) => {
  const re = new RegExp(`[\\\\/]node_modules[\\\\/](?:${names.map((n) => n.replace(/[/]/g, '[\\\\/]')).join('|')})[\\\\/]`);
  return (id: string) => re.test(id);
};
const antd = (...dirs: string[]) => dirs.map((d) => `antd/es/${d}`);

const formGroup = inPackages(
  ...antd('form', 'input', 'grid', 'row', 'col', 'tooltip'),
  'rc-field-form',
  '@rc-component/async-validator',
  '@rc-component/trigger',
  '@rc-component/portal',
  'rc-input',
  'rc-tooltip',
  'rc-resize-observer',
  'resize-observer-polyfill',
);

/**
 * Chunks: rolldown splits per route and per lazy widget on its own, which leaves dozens of
 * small shared chunks; the groups below gather the libraries that travel together, so a route
 * loads a few files (gzip works better on fewer, larger files) and later routes reuse them.
 */
const chunkGroups = [
  // what every route runs first (React, router, i18n, antd's core, the shell's own code)
  { name: 'vendor', test: /[\\/]node_modules[\\/]/, tags: ['$initial' as const], priority: 10 },
  { name: 'shell', tags: ['$initial' as const], priority: 9 },
  // antd Form / Input / Tooltip: the sign-in form, filter forms, most pages (Input without
  // TextArea / Search / OTP, which the sign-in form does not use)
  {
    name: 'antd-form',
    test: (id: string) => formGroup(id) && !/[\\/]antd[\\/]es[\\/]input[\\/](index|TextArea|Search|Group|OTP)\b/.test(id),
    priority: 8,
  },
  // the main layout's menus and header controls
  {
    name: 'layout-lib',
    test: inPackages(...antd('menu', 'layout', 'dropdown', 'avatar', 'switch', 'popover'), 'rc-menu', 'rc-overflow', 'rc-dropdown', 'rc-switch'),
    priority: 7,
  },
];

/** Client build: dist/; in dev, /api is proxied to the server on 127.0.0.1:8080. */
export default defineConfig({
  plugins: [react()],
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
