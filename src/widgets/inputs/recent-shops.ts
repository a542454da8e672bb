/**
 * The shops a person picked lately, newest first, kept in this browser (localStorage, at most
 * 8): every shop picker lists them first (issue 26: five look-alike shops for "花间" and
 * nothing to tell them apart). Nothing leaves the browser.
 */
const KEY = 'bo.recentShops';
const MAX = 8;

function store(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function recentShopIds(): number[] {
  try {
    const v = JSON.parse(store()?.getItem(KEY) ?? '[]') as unknown;
    return Array.isArray(v) ? v.filter((x): x is number => Number.isInteger(x)).slice(0, MAX) : [];
  } catch {
    return [];
  }
}

export function rememberShop(id: unknown): void {
  const n = Number(id);
  if (!Number.isInteger(n) || n <= 0) return;
  try {
    store()?.setItem(KEY, JSON.stringify([n, ...recentShopIds().filter((x) => x !== n)].slice(0, MAX)));
  } catch {
    /* storage full or blocked: the picker keeps its plain order */
  }
}

/** the items of recently used shops first (in the order they were used), then the rest as given */
export function rankRecent<T>(items: readonly T[], idOf: (item: T) => unknown, recent: readonly number[] = recentShopIds()): { items: T[]; recent: Set<number> } {
  const rank = new Map(recent.map((id, i) => [id, i]));
  const first = items.filter((x) => rank.has(Number(idOf(x)))).sort((a, b) => rank.get(Number(idOf(a)))! - rank.get(Number(idOf(b)))!);
  const rest = items.filter((x) => !rank.has(Number(idOf(x))));
  return { items: [...first, ...rest], recent: new Set(first.map((x) => Number(idOf(x)))) };
}
