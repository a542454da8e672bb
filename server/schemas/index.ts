/** Server-side schemas: load and validate at start, the store the routes read, dev watch. */
export { loadSchemas, stopSchemaWatch, listJsonFiles, DEFAULT_SCHEMAS_DIR } from './loader.js';
export { getSchemaStore } from './store.js';
export { SchemaLoadError } from './problems.js';
