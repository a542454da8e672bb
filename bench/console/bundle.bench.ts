import type { Suite } from '../lib/result.js';
export const bundleSuite: Suite = { id: 'bundle', title: 'Bundle', run: async () => [] };
