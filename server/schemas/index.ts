/** Server-side schemas: load and validate at start, the store the routes read, dev watch. */
export { loadSchemas, readSchemas, stopSchemaWatch, listJsonFiles, DEFAULT_SCHEMAS_DIR, type LoadOptions } from './loader.js';
export { SchemaStore, getSchemaStore, setSchemaStore, type SchemaSummary } from './store.js';
export { SchemaLoadError, formatProblem, type SchemaProblem } from './problems.js';
export { collectRefs, parseApiRef, type SchemaRefs, type Ref } from './refs.js';
export { canonicalJson, contentHash } from './canonical.js';
export type { ParsedSchema } from './validate.js';
