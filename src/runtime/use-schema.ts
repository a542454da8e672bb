/** Loads a schema by id through the loader; reloads when its hash changes (dev polling). */
import { useEffect, useState } from 'react';
import { useRuntime } from './context.js';
import { SchemaLoadError, type LoadedSchema, type SchemaProblem } from './types.js';

export type SchemaState =
  | { status: 'loading' }
  | { status: 'ready'; loaded: LoadedSchema }
  | { status: 'error'; problems: SchemaProblem[] };

export function toProblems(id: string, e: unknown): SchemaProblem[] {
  if (e instanceof SchemaLoadError) return e.problems;
  return [{ id, pointer: '/', reason: e instanceof Error ? e.message : String(e) }];
}

export function useSchema(id: string | null): SchemaState {
  const { loader } = useRuntime();
  const [state, setState] = useState<SchemaState>({ status: 'loading' });
  const [version, setVersion] = useState(0);
  useEffect(() => (id ? loader.subscribe((changed) => changed.includes(id) && setVersion((v) => v + 1)) : undefined), [loader, id]);
  useEffect(() => {
    if (!id) return;
    let live = true;
    if (version === 0) setState({ status: 'loading' });
    loader
      .load(id)
      .then((loaded) => live && setState({ status: 'ready', loaded }))
      .catch((e: unknown) => live && setState({ status: 'error', problems: toProblems(id, e) }));
    return () => {
      live = false;
    };
  }, [loader, id, version]);
  return state;
}
