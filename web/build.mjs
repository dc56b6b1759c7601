// Builds the web application (web/src) into dist/web: one minified ES module bundle and its CSS, named by content
// hash, and the index.html that loads them. Run by `npm run build`; tests call buildWeb() themselves.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { constants, gzip } from 'node:zlib';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
export const WEB_OUT_DIR = join(root, 'dist', 'web');

/** The tab's icon: a gauge in the accent colour (no /favicon.ico request, no 404). */
const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1d4ed8"/><path d="M7 22a9 9 0 0 1 18 0" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round"/><path d="M16 22l5-7" stroke="#fff" stroke-width="3" stroke-linecap="round"/></svg>
`;

/**
 * The page. `shared`: the chunks the entry imports, preloaded beside it (not found only once it has arrived).
 * `preload`: the chunks behind sign-in that its first page needs, written as a comment that the server turns into
 * modulepreload links for a signed-in browser (src/web/web.routes.ts), so they load beside the first one instead of
 * after it.
 */
const page = (script, style, icon, shared, preload) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>basewatch</title>
  <meta name="basewatch-session" content="none">
  <meta name="basewatch-upstream" content="airtable">
  <meta name="theme-color" content="#1d4ed8">
  <meta name="description" content="basewatch: usage, audit log and webhooks of your Airtable bases">
  <link rel="icon" type="image/svg+xml" href="/assets/${icon}">
  <link rel="stylesheet" href="/assets/${style}">
  <script type="module" src="/assets/${script}"></script>
  ${shared.map((chunk) => `<link rel="modulepreload" href="/assets/${chunk}">`).join('')}
  <!--signed-in ${preload.map((chunk) => `<link rel="modulepreload" href="/assets/${chunk}">`).join('')} signed-in-->
</head>
<body>
  <div id="app"></div>
  <noscript>basewatch's web application needs JavaScript.</noscript>
</body>
</html>
`;

/**
 * `shared`: the chunks the entry imports. `preload`: the signed-in chunk and the chunks it imports, less those:
 * what a signed-in visit needs before its first page shows. The other pages' chunk and uPlot's load when wanted.
 */
function chunksToPreload(outputs, script) {
  const files = Object.keys(outputs);
  const start = files.find((file) => outputs[file].entryPoint?.endsWith('web/src/signed-in.tsx'));
  const imported = (file, into = new Set()) => {
    for (const { path, kind } of outputs[file].imports) {
      const next = files.find((other) => other === path || basename(other) === basename(path));
      if (kind === 'import-statement' && next && !into.has(next)) imported(next, into.add(next));
    }
    return into;
  };
  const entryFile = files.find((file) => basename(file) === script);
  const shared = imported(entryFile);
  const signedIn = start ? [start, ...imported(start)] : [];
  return {
    shared: [...shared].map((file) => basename(file)),
    preload: signedIn.filter((file) => !shared.has(file)).map((file) => basename(file)),
  };
}

export async function buildWeb({ outDir = WEB_OUT_DIR } = {}) {
  const assets = join(outDir, 'assets');
  // Nothing is removed first and index.html is replaced whole: two builds of the same source at once (test files
  // run in parallel) write the same hashed files and never leave a page that names a missing one.
  await mkdir(assets, { recursive: true });
  const result = await esbuild.build({
    entryPoints: [join(root, 'web', 'src', 'main.tsx')],
    outdir: assets,
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    // The signed-in part (the GraphQL client, the pages) is a chunk of its own: the sign-in page needs none of it. The
    // less visited pages (web/src/more-pages.ts) and uPlot are chunks of their own too, loaded when first wanted.
    splitting: true,
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['chrome120', 'firefox120', 'safari17'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((file) => basename(file));
  const entry = Object.entries(result.metafile.outputs).find(([file, output]) => output.entryPoint && file.endsWith('.js'));
  const script = entry && basename(entry[0]);
  const style = outputs.find((file) => file.endsWith('.css'));
  const { shared, preload } = chunksToPreload(result.metafile.outputs, script);
  if (!script || !style || outputs.filter((file) => file.endsWith('.css')).length !== 1) {
    throw new Error(`web build: expected an entry .js and one .css output, got ${outputs.join(', ')}`);
  }
  // Compressed once here, at the best level, so the server sends them as they are (see src/web/web.routes.ts).
  for (const file of outputs) {
    const bytes = await readFile(join(assets, file));
    await writeFile(join(assets, `${file}.gz`), await promisify(gzip)(bytes, { level: constants.Z_BEST_COMPRESSION }));
  }
  const icon = `favicon-${createHash('sha256').update(FAVICON).digest('hex').slice(0, 8)}.svg`;
  await writeFile(join(assets, icon), FAVICON);
  outputs.push(icon);
  const staging = join(outDir, `index.${process.pid}.${Date.now()}.html`);
  await writeFile(staging, page(script, style, icon, shared, preload));
  await rename(staging, join(outDir, 'index.html'));
  for (const file of await readdir(assets)) {
    if (!outputs.includes(file.replace(/\.gz$/, ''))) await rm(join(assets, file), { force: true });
  }
  return { outDir, script, style, chunks: preload };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { outDir, script } = await buildWeb();
  console.log(`web application built into ${outDir} (${script})`);
}
