import fs from 'node:fs';
import path from 'node:path';

/**
 * Bench pages (bench/console/pages/*.html). A page that needs a product part not yet in the
 * tree says so with `<meta name="bench-needs" content="src/widgets/index.ts">`; the build
 * leaves it out and the figure is reported as not measured, naming the missing file.
 */
export function pageNeeds(htmlFile: string): string[] {
  const html = fs.readFileSync(htmlFile, 'utf8');
  const m = /<meta name="bench-needs" content="([^"]*)"/.exec(html);
  return m ? m[1].split(',').map((s) => s.trim()).filter(Boolean) : [];
}

export function missingNeeds(root: string, htmlFile: string): string[] {
  return pageNeeds(htmlFile).filter((p) => !fs.existsSync(path.join(root, p)));
}

/** Pages whose needs are all present. */
export function buildablePages(root: string, pagesDir: string): string[] {
  return fs
    .readdirSync(pagesDir)
    .filter((f) => f.endsWith('.html'))
    .map((f) => path.join(pagesDir, f))
    .filter((f) => missingNeeds(root, f).length === 0);
}
