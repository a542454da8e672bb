import type { RuntimeEnv } from '../runtime/env.js';

/** Says a page reloads by itself (`refreshWhile` is live): a small dot and a word, no antd. */
export function LiveMark({ env, live }: { env: RuntimeEnv; live: boolean }) {
  if (!live) return null;
  return (
    <span data-testid="live-mark" title={env.t('runtime.list.liveTip')} style={{ fontSize: 12, opacity: 0.7, whiteSpace: 'nowrap', alignSelf: 'center' }}>
      <span aria-hidden style={{ color: '#52c41a', marginRight: 4 }}>●</span>
      {env.t('runtime.list.live')}
    </span>
  );
}
