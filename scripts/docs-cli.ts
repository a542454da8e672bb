/**
 * The route reference of docs/business-api.md, from the RouteDefs themselves
 * (scripts/lib/route-reference.ts):
 *
 *   npx tsx scripts/docs-cli.ts            prints the table
 *   npx tsx scripts/docs-cli.ts --write    rewrites the file's "## Route reference" section
 *   npx tsx scripts/docs-cli.ts --check    exits 1 when the file is out of date (tests/api/openapi.test.ts checks the same)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { routes } from '../server/resources/index.js';
import { BUSINESS_API_DOC, routeReference, withReference } from './lib/route-reference.js';

const table = routeReference(routes);
const mode = process.argv[2];
if (mode === '--write' || mode === '--check') {
  const doc = readFileSync(BUSINESS_API_DOC, 'utf8');
  const next = withReference(doc, table);
  if (mode === '--write') {
    writeFileSync(BUSINESS_API_DOC, next);
    console.log(`${BUSINESS_API_DOC}: route reference written (${routes.length} routes)`);
  } else if (next !== doc) {
    console.error(`${BUSINESS_API_DOC}: the route reference is out of date: run npx tsx scripts/docs-cli.ts --write`);
    process.exit(1);
  }
} else {
  console.log(table);
}
