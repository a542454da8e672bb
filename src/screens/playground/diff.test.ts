import { describe, expect, it } from 'vitest';
import { diffKnowledge } from './diff.js';
import { parseSse } from './stream.js';

const c = (source_type: string, source_id: number, score = 1) => ({ source_type, source_id, title: `${source_type} ${source_id}`, score });

describe('diffKnowledge', () => {
  it('splits citations into only-A, only-B and both (same type and id), keeping each side’s score', () => {
    const d = diffKnowledge([c('policy', 1, 0.9), c('policy', 2), c('doc', 1)], [c('policy', 1, 0.4), c('doc', 2)]);
    expect(d.onlyA.map((x) => x.title)).toEqual(['policy 2', 'doc 1']);
    expect(d.onlyB.map((x) => x.title)).toEqual(['doc 2']);
    expect(d.both).toEqual([{ a: c('policy', 1, 0.9), b: c('policy', 1, 0.4) }]);
  });
});

describe('parseSse', () => {
  it('returns whole messages and keeps a partial one for the next read', () => {
    const { events, rest } = parseSse('event: start\ndata: {"responder":"model"}\n\nevent: delta\ndata: {"text":"Hel"}\n\nevent: del');
    expect(events).toEqual([
      { event: 'start', data: { responder: 'model' } },
      { event: 'delta', data: { text: 'Hel' } },
    ]);
    expect(rest).toBe('event: del');
    expect(parseSse(rest + 'ta\ndata: {"text":"lo"}\n\n').events).toEqual([{ event: 'delta', data: { text: 'lo' } }]);
  });
});
