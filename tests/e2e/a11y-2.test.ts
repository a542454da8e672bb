/** Accessibility walk, shard 2 of 3 (tests/e2e/a11y-walk.ts). */
import { a11yWalk } from './a11y-walk.js';

a11yWalk(1, 3);
