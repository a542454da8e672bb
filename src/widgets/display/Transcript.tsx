import { Empty } from 'antd';
import type { DisplayProps } from '../../runtime/registry.js';
import { useRuntime } from '../../runtime/context.js';
import { transcriptLines } from './transcript.js';

/**
 * A conversation as chat bubbles: the assistant (`role` ai / assistant) on the left, the other
 * party on the right, each with its time from the start. `roleLabels` maps a role to an i18n
 * key (e.g. { "ai": "voiceCenter.log.roleAi" }); `aiRoles` names the left-hand roles.
 */
export function Transcript({ value, roleLabels, aiRoles, maxHeight }: DisplayProps) {
  const { env } = useRuntime();
  const lines = transcriptLines(value);
  if (!lines.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  const labels = (roleLabels ?? {}) as Record<string, string>;
  const left = new Set(Array.isArray(aiRoles) ? (aiRoles as string[]) : ['ai', 'assistant', 'bot']);
  return (
    <div className="bo-transcript" style={{ maxHeight: typeof maxHeight === 'number' ? maxHeight : 480, overflow: 'auto', display: 'flex', flexDirection: 'column', gap: 8 }}>
      {lines.map((l, i) => {
        const isLeft = left.has(l.role);
        return (
          <div key={i} data-role={l.role} style={{ display: 'flex', justifyContent: isLeft ? 'flex-start' : 'flex-end' }}>
            <div style={{ maxWidth: '75%' }}>
              <div style={{ fontSize: 12, opacity: 0.65, textAlign: isLeft ? 'left' : 'right' }}>
                {labels[l.role] ? env.t(labels[l.role]) : l.role}
                {l.at ? ` · ${l.at}` : ''}
              </div>
              <div
                style={{
                  padding: '6px 12px',
                  borderRadius: 8,
                  whiteSpace: 'pre-wrap',
                  background: isLeft ? 'rgba(22,119,255,0.08)' : 'rgba(82,196,26,0.12)',
                }}
              >
                {l.content}
              </div>
            </div>
          </div>
        );
      })}
    </div>
  );
}
