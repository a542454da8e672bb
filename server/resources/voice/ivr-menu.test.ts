import { describe, expect, it } from 'vitest';
import { ivrProblems } from './ivr-menu.js';

const good = {
  welcome: 'Welcome',
  timeout_seconds: 10,
  children: [
    { key: '1', label: 'Orders', action: 'submenu', children: [{ key: '1', label: 'Track', action: 'ai' }] },
    { key: '0', label: 'Agent', action: 'transfer', target: '+1 415 555 0100' },
    { key: '#', label: 'Hours', action: 'play', prompt: 'We are open 9 to 6.' },
  ],
};

describe('ivrProblems', () => {
  it('accepts a valid tree', () => {
    expect(ivrProblems(good)).toEqual([]);
    expect(ivrProblems({ welcome: '', timeout_seconds: 5, children: [] })).toEqual([]);
  });
  it('names the path of each problem', () => {
    const bad = {
      welcome: 'x',
      timeout_seconds: 0,
      children: [
        { key: '1', label: 'A', action: 'transfer' },
        { key: '1', label: '', action: 'submenu', children: [] },
        { key: '55', label: 'C', action: 'dance', extra: 1 },
        { key: '2', label: 'D', action: 'play', children: [] },
      ],
    };
    expect(ivrProblems(bad)).toEqual([
      'timeout_seconds: must be a whole number of seconds from 1 to 60',
      'children[0].target: a transfer option needs a phone number',
      'children[1].key: key 1 is used twice',
      'children[1].label: must be text of 1 to 50 characters',
      'children[1].children: a submenu needs at least one option',
      'children[2].extra: unknown property',
      'children[2].key: must be one phone key (0-9, *, #)',
      'children[2].action: must be one of play, transfer, submenu, ai, hangup',
      'children[3].prompt: a play option needs a prompt',
      'children[3].children: only a submenu has children',
    ]);
  });
  it('limits the depth', () => {
    let node: Record<string, unknown> = { key: '1', label: 'leaf', action: 'hangup' };
    for (let i = 0; i < 4; i++) node = { key: '1', label: `l${i}`, action: 'submenu', children: [node] };
    expect(ivrProblems({ welcome: '', timeout_seconds: 5, children: [node] })).toContain(
      'children[0].children[0].children[0].children[0].children: menus nest at most 4 levels',
    );
    expect(ivrProblems('x')).toEqual(['menu: must be an object']);
  });
});
