/** jsdom lacks a few browser APIs antd uses; tests import this once. */
if (typeof window !== 'undefined') {
  if (!window.matchMedia) {
    window.matchMedia = (query: string) =>
      ({
        matches: false,
        media: query,
        onchange: null,
        addListener: () => undefined,
        removeListener: () => undefined,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        dispatchEvent: () => false,
      }) as MediaQueryList;
  }
  if (!('ResizeObserver' in window)) {
    (window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
      observe() {}
      unobserve() {}
      disconnect() {}
    };
  }
  const proto = window.HTMLElement.prototype as unknown as { scrollTo?: () => void };
  proto.scrollTo ??= () => undefined;
  const style = window.getComputedStyle;
  window.getComputedStyle = (elt: Element, pseudo?: string | null) => style(elt, pseudo ?? undefined);
}
export {};
