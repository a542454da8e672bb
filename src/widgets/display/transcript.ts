/** Normalises a call transcript (a message list, or its JSON text) for the Transcript widget. */
export interface TranscriptLine {
  role: string;
  content: string;
  /** `m:ss` from the start of the call, or '' */
  at: string;
}

const clock = (ms: unknown): string => {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return '';
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

export function transcriptLines(value: unknown): TranscriptLine[] {
  let v: unknown = value;
  if (typeof value === 'string') {
    try {
      v = JSON.parse(value);
    } catch {
      return value.trim() ? [{ role: '', content: value, at: '' }] : [];
    }
  }
  if (!Array.isArray(v)) return [];
  return v
    .filter((m): m is Record<string, unknown> => typeof m === 'object' && m !== null)
    .map((m) => ({
      role: String(m.role ?? m.speaker ?? ''),
      content: String(m.content ?? m.text ?? ''),
      at: clock(m.offset_ms),
    }));
}
