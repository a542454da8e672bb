/** Schema cache by hash: memory first, then localStorage (survives reloads). */
import type { LoadedSchema } from './types.js';

const PREFIX = 'bo.schema.';

export interface SchemaCache {
  get(id: string, hash: string): LoadedSchema | undefined;
  set(entry: LoadedSchema): void;
  drop(id: string): void;
  /** nothing cached yet, in memory or storage (a first visit) */
  isEmpty(): boolean;
}

export function createSchemaCache(storage: Storage | null): SchemaCache {
  const memory = new Map<string, LoadedSchema>();
  return {
    get(id, hash) {
      const m = memory.get(id);
      if (m?.hash === hash) return m;
      if (!storage) return undefined;
      try {
        const raw = storage.getItem(PREFIX + id);
        if (!raw) return undefined;
        const stored = JSON.parse(raw) as LoadedSchema;
        if (stored.hash !== hash) return undefined;
        memory.set(id, stored);
        return stored;
      } catch {
        return undefined;
      }
    },
    set(entry) {
      memory.set(entry.id, entry);
      try {
        storage?.setItem(PREFIX + entry.id, JSON.stringify(entry));
      } catch {
        /* storage full or disabled: memory only */
      }
    },
    isEmpty() {
      if (memory.size) return false;
      try {
        for (let i = 0; i < (storage?.length ?? 0); i++) if (storage!.key(i)?.startsWith(PREFIX)) return false;
      } catch {
        /* storage disabled: memory only */
      }
      return true;
    },
    drop(id) {
      memory.delete(id);
      try {
        storage?.removeItem(PREFIX + id);
      } catch {
        /* ignore */
      }
    },
  };
}
