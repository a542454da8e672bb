/** Accessibility walk, shard 3 of 3 (tests/e2e/a11y-walk.ts). */
import { a11yWalk } from './a11y-walk.js';

a11yWalk(2, 3);
