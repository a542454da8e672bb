import { describe, expect, it } from 'vitest';
import { BESPOKE_PAGE_KEYS } from '../../contract/permission-manifest.js';
import { BESPOKE_PAGES } from './pages.js';

describe('bespoke pages', () => {
  it('the client draws exactly the pages the contract (and schemas:check) call bespoke', () => {
    expect(Object.keys(BESPOKE_PAGES).sort()).toEqual([...BESPOKE_PAGE_KEYS].sort());
  });
});
