import { describe, expect, it } from 'vitest';
import { contrast, primaryFor, readableOnWhite, readableTokens } from './contrast.js';
import { THEME_COLORS } from './store.js';

describe('readable theme colours', () => {
  it('measures contrast like WCAG', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#1677ff', '#ffffff')).toBeLessThan(4.5); // why the adjustment exists
  });
  it('every theme colour reaches 4.5:1 against white in the light theme and keeps its hue', () => {
    for (const c of THEME_COLORS) {
      const shown = primaryFor(c, false);
      expect(contrast(shown, '#ffffff'), c).toBeGreaterThanOrEqual(4.5);
    }
    // a colour that already passes is left alone
    expect(readableOnWhite('#0b3d91')).toBe('#0b3d91');
  });
  it('leaves the dark theme to antd', () => {
    expect(primaryFor('#1677ff', true)).toBe('#1677ff');
  });
});

describe('readable tokens', () => {
  it('light: every text colour passes 4.5:1 on white', () => {
    const { token } = readableTokens('#13c2c2', false);
    for (const c of [token.colorPrimary, token.colorError, token.colorWarning, token.colorSuccess]) expect(contrast(c!, '#ffffff')).toBeGreaterThanOrEqual(5);
  });
  it('dark: text in the theme colour passes on the dark backgrounds', () => {
    for (const c of THEME_COLORS) {
      const { token } = readableTokens(c, true);
      expect(contrast(token.colorLink, '#141414'), c).toBeGreaterThanOrEqual(4.5);
      expect(contrast(token.colorLink, '#15325b'), c).toBeGreaterThanOrEqual(4.5);
    }
  });
});
