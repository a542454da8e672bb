/**
 * The bench pages' in-memory API serves its schemas the way the real server does: only after
 * they passed the meta-schema check, naming that check's fingerprint (so the runtime skips
 * repeating it, as it does against the real server). This is that check, run in Node before
 * the pages are measured; a bench schema the language refuses stops the run, naming the pointer.
 */
import { validate_form, validate_list } from '../../src/contract/generated/validators.js';
import { formSchema, listSchema } from './src/bench-schemas.js';

export function checkBenchSchemas(): void {
  const problems: string[] = [];
  for (const [name, validate, doc] of [
    ['list', validate_list, listSchema],
    ['form', validate_form, formSchema()],
  ] as const) {
    if (!validate(doc)) for (const e of validate.errors ?? []) problems.push(`bench ${name} schema ${e.instancePath || '/'}: ${e.message ?? e.keyword}`);
  }
  if (problems.length) throw new Error(`bench schemas fail the meta-schema check:\n${problems.join('\n')}`);
}
