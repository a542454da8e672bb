/**
 * The IVR menu tree (one config row): what the caller hears and which key does what.
 *
 *   { welcome, timeout_seconds, children: [{ key, label, action, prompt?, target?, children? }] }
 *
 * `key` is one phone key (0–9, *, #), unique among siblings; `action` is play (read `prompt`),
 * transfer (to the phone number `target`), submenu (`children`, at least one), ai (hand over to
 * the AI assistant) or hangup. At most 4 levels, 12 options per level.
 */
export const IVR_ACTIONS = ['play', 'transfer', 'submenu', 'ai', 'hangup'] as const;
export const IVR_MAX_DEPTH = 4;
export const IVR_MAX_OPTIONS = 12;
const KEY = /^[0-9*#]$/;
export const PHONE = /^\+?[0-9][0-9 -]{4,30}$/;

export interface IvrNode {
  key: string;
  label: string;
  action: (typeof IVR_ACTIONS)[number];
  prompt?: string;
  target?: string;
  children?: IvrNode[];
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown, max: number) => typeof v === 'string' && v.length <= max;

/** Problems of a menu as `path: reason` lines (empty = valid). */
export function ivrProblems(menu: unknown): string[] {
  const out: string[] = [];
  if (!isObj(menu)) return ['menu: must be an object'];
  for (const k of Object.keys(menu)) if (!['welcome', 'timeout_seconds', 'children'].includes(k)) out.push(`${k}: unknown property`);
  if (!str(menu.welcome, 1000)) out.push('welcome: must be text of at most 1000 characters');
  const t = menu.timeout_seconds;
  if (typeof t !== 'number' || !Number.isInteger(t) || t < 1 || t > 60) out.push('timeout_seconds: must be a whole number of seconds from 1 to 60');
  nodes(menu.children, 'children', 1, out);
  return out;
}

function nodes(list: unknown, at: string, depth: number, out: string[]) {
  if (!Array.isArray(list)) {
    out.push(`${at}: must be a list`);
    return;
  }
  if (depth > IVR_MAX_DEPTH) out.push(`${at}: menus nest at most ${IVR_MAX_DEPTH} levels`);
  if (list.length > IVR_MAX_OPTIONS) out.push(`${at}: at most ${IVR_MAX_OPTIONS} options`);
  const seen = new Set<string>();
  list.forEach((n, i) => {
    const p = `${at}[${i}]`;
    if (!isObj(n)) {
      out.push(`${p}: must be an object`);
      return;
    }
    for (const k of Object.keys(n)) if (!['key', 'label', 'action', 'prompt', 'target', 'children'].includes(k)) out.push(`${p}.${k}: unknown property`);
    if (typeof n.key !== 'string' || !KEY.test(n.key)) out.push(`${p}.key: must be one phone key (0-9, *, #)`);
    else if (seen.has(n.key)) out.push(`${p}.key: key ${n.key} is used twice`);
    else seen.add(n.key);
    if (typeof n.label !== 'string' || !n.label.trim() || n.label.length > 50) out.push(`${p}.label: must be text of 1 to 50 characters`);
    if (!IVR_ACTIONS.includes(n.action as IvrNode['action'])) out.push(`${p}.action: must be one of ${IVR_ACTIONS.join(', ')}`);
    if (n.prompt !== undefined && !str(n.prompt, 1000)) out.push(`${p}.prompt: must be text of at most 1000 characters`);
    if (n.action === 'play' && (typeof n.prompt !== 'string' || !n.prompt.trim())) out.push(`${p}.prompt: a play option needs a prompt`);
    if (n.action === 'transfer' && (typeof n.target !== 'string' || !PHONE.test(n.target))) out.push(`${p}.target: a transfer option needs a phone number`);
    if (n.action === 'submenu') {
      if (!Array.isArray(n.children) || n.children.length === 0) out.push(`${p}.children: a submenu needs at least one option`);
      else nodes(n.children, `${p}.children`, depth + 1, out);
    } else if (n.children !== undefined) out.push(`${p}.children: only a submenu has children`);
  });
}
