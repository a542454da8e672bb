/**
 * Plugs the safe evaluator into Formily's schema compiler, so `{{ }}` in Formily schemas
 * (x-reactions, x-visible, …) never reaches Formily's default `new Function` compiler.
 * Formily wraps reaction `run` code as `function(){…}`: that form is refused (and the
 * meta-schema has no `run`).
 */
import { Schema } from '@formily/json-schema';
import { evaluate, type Scope } from './evaluate.js';
import { trace } from './trace.js';

let installed = false;

export function safeCompile(expression: string, scope: Scope): unknown {
  if (/^\s*function\s*\(/.test(expression)) {
    trace({ expression, error: 'function bodies are not allowed' });
    return undefined;
  }
  try {
    const value = evaluate(expression, scope ?? {});
    trace({ expression, value });
    return value;
  } catch (e) {
    trace({ expression, error: e instanceof Error ? e.message : String(e) });
    return undefined;
  }
}

export function installSafeCompiler(): void {
  if (installed) return;
  installed = true;
  Schema.registerCompiler((expression: string, scope: Scope) => safeCompile(expression, scope));
}
