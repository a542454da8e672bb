/**
 * Readable theme colours. The nine theme colours of the spec (default #1677ff) are kept as the
 * user's choice, but antd draws text in the primary colour (the brand, the selected menu entry,
 * links) and white text on it (primary buttons): at #1677ff both fall short of WCAG AA (4.0:1
 * against 4.5:1), and the lighter choices (cyan, green, gold) much more. The colour handed to
 * antd is the chosen hue darkened just enough for 4.5:1 against white in the light theme; in the
 * dark theme antd's dark algorithm derives its own shades from it.
 */

const channel = (v: number) => {
  const c = v / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};

const rgb = (hex: string): [number, number, number] => {
  const h = hex.replace('#', '');
  const full = h.length === 3 ? [...h].map((x) => x + x).join('') : h;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
};

const toHex = (c: [number, number, number]) => `#${c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

/** WCAG relative luminance of a #rrggbb colour. */
export function luminance(hex: string): number {
  const [r, g, b] = rgb(hex).map(channel);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two colours (1 … 21). */
export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

const mix = (c: [number, number, number], to: number, k: number) => toHex(c.map((v) => v + (to - v) * k) as [number, number, number]);

/** `hex` darkened in small steps (toward black, hue kept) until it reaches `ratio` against white. */
export function readableOnWhite(hex: string, ratio = 4.6): string {
  return readableOn(hex, '#ffffff', ratio);
}

/** `hex` moved in small steps toward black (light `bg`) or white (dark `bg`) until it reaches `ratio` against `bg`. */
export function readableOn(hex: string, bg: string, ratio: number): string {
  const base = rgb(hex);
  const to = luminance(bg) > 0.18 ? 0 : 255;
  for (let k = 0; k <= 1.0001; k += 0.02) {
    const c = mix(base, to, k);
    if (contrast(c, bg) >= ratio) return c;
  }
  return to ? '#ffffff' : '#000000';
}

/** The primary colour handed to antd for the chosen theme colour. */
export function primaryFor(chosen: string, dark: boolean): string {
  return dark ? chosen : readableOnWhite(chosen, LIGHT_RATIO);
}

/**
 * Text on the tinted backgrounds (a selected menu entry, a tag) is a little darker than white
 * behind it: aim above 4.5:1 against white so it still passes there.
 */
const LIGHT_RATIO = 5.1;
/** the dark theme's selected-entry background for the default blue (antd's colorPrimaryBg) */
const DARK_SELECTED_BG = '#15325b';
const DARK_BG = '#141414';

/** antd theme tokens that keep text readable (WCAG AA) for the chosen colour and mode. */
export function readableTokens(chosen: string, dark: boolean) {
  if (!dark) {
    const primary = primaryFor(chosen, false);
    return {
      token: {
        colorPrimary: primary,
        colorInfo: primary,
        colorLink: primary,
        colorError: readableOnWhite('#ff4d4f', LIGHT_RATIO),
        colorWarning: readableOnWhite('#faad14', LIGHT_RATIO),
        colorSuccess: readableOnWhite('#52c41a', LIGHT_RATIO),
        // the tints behind status tags and alerts stay antd's light ones (a darker seed would
        // derive greyish tints and take the contrast back)
        colorErrorBg: '#fff2f0',
        colorErrorBorder: '#ffccc7',
        colorWarningBg: '#fffbe6',
        colorWarningBorder: '#ffe58f',
        colorSuccessBg: '#f6ffed',
        colorSuccessBorder: '#b7eb8f',
        // antd's 0.45 black (#8c8c8c, 3.4:1) for descriptions, hints and secondary text
        colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
      },
      components: {},
    };
  }
  // dark: buttons keep antd's shade of the colour (white text on it passes); text drawn in the
  // colour (links, the brand, the selected menu entry) gets a lighter shade that passes on the
  // dark backgrounds
  const text = readableOn(readableOn(chosen, DARK_BG, 4.6), DARK_SELECTED_BG, 4.6);
  return {
    // colorError: antd derives #dc4446 from the default red (4.3:1 on the dark background)
    token: { colorPrimary: chosen, colorLink: text, colorError: '#ff7875', colorTextTertiary: 'rgba(255, 255, 255, 0.62)' },
    components: { Menu: { itemSelectedColor: text, subMenuItemSelectedColor: text, horizontalItemSelectedColor: text }, Tabs: { itemSelectedColor: text } },
  };
}
