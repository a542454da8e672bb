/**
 * Parses expressions with jsep (no eval): member access, literals, arithmetic, comparison,
 * logical, ternary, arrays, plus object literals `{ a: 1, 'b': x }` (a small plugin here).
 * Parsed trees are cached by source text.
 */
import jsep from 'jsep';

export type Node = jsep.Expression;

export interface PropertyNode {
  type: 'Property';
  key: Node;
  value: Node;
  computed: boolean;
}
export interface ObjectNode {
  type: 'ObjectExpression';
  properties: PropertyNode[];
}

const OCURLY = 123;
const CCURLY = 125;
const COLON = 58;
const COMMA = 44;

let installed = false;
function install(): void {
  if (installed) return;
  installed = true;
  jsep.hooks.add('gobble-token', function gobbleObject(this: jsep.HookScope, env: { node?: Node }) {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- jsep hands its parser scope as `this`; the helpers below read it
    const scope = this;
    const at = (): number => scope.code;
    if (at() !== OCURLY) return;
    this.index++;
    const properties: PropertyNode[] = [];
    for (;;) {
      this.gobbleSpaces();
      if (at() === CCURLY) {
        this.index++;
        break;
      }
      const key = this.gobbleToken();
      if (!key || (key.type !== 'Identifier' && key.type !== 'Literal')) this.throwError('Expected object key');
      this.gobbleSpaces();
      if (at() !== COLON) this.throwError('Expected :');
      this.index++;
      const value = this.gobbleExpression();
      if (!value) this.throwError('Expected value');
      properties.push({ type: 'Property', key, value, computed: false });
      this.gobbleSpaces();
      if (at() === COMMA) this.index++;
      else if (at() !== CCURLY) this.throwError('Expected , or }');
    }
    env.node = { type: 'ObjectExpression', properties } as unknown as Node;
  });
  // `=` and friends are not operators here; jsep does not add them by default.
}

const cache = new Map<string, Node>();
const CACHE_LIMIT = 1000;

export function parseExpression(source: string): Node {
  install();
  const hit = cache.get(source);
  if (hit) return hit;
  const node = jsep(source);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(source, node);
  return node;
}
