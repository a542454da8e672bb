import { describe, expect, it } from 'vitest';
import { transcriptLines } from './transcript.js';

describe('transcriptLines', () => {
  it('reads a message list with times from the call start', () => {
    expect(
      transcriptLines([
        { role: 'ai', content: 'Hello', offset_ms: 0 },
        { role: 'customer', content: 'Hi', offset_ms: 65400 },
      ]),
    ).toEqual([
      { role: 'ai', content: 'Hello', at: '0:00' },
      { role: 'customer', content: 'Hi', at: '1:05' },
    ]);
  });
  it('reads JSON text, other field names, and plain text', () => {
    expect(transcriptLines('[{"speaker":"bot","text":"x"}]')).toEqual([{ role: 'bot', content: 'x', at: '' }]);
    expect(transcriptLines('just words')).toEqual([{ role: '', content: 'just words', at: '' }]);
    expect(transcriptLines(null)).toEqual([]);
    expect(transcriptLines([null, 3])).toEqual([]);
  });
});
