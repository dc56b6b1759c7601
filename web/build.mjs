// Builds the web application (web/src) into dist/web: one minified ES module bundle and its CSS, named by content
// hash, and the index.html that loads them. Run by `npm run build`; tests call buildWeb() themselves.
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { constants, gzip } from 'node:zlib';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
export const WEB_OUT_DIR = join(root, 'dist', 'web');

const page = (script, style) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>basewatch</title>
  <link rel="stylesheet" href="/assets/${style}">
  <script type="module" src="/assets/${script}"></script>
</head>
<body>
  <div id="app"></div>
  <noscript>basewatch's web application needs JavaScript.</noscript>
</body>
</html>
`;

export async function buildWeb({ outDir = WEB_OUT_DIR } = {}) {
  const assets = join(outDir, 'assets');
  // Nothing is removed first and index.html is replaced whole: two builds of the same source at once (test files
  // run in parallel) write the same hashed files and never leave a page that names a missing one.
  await mkdir(assets, { recursive: true });
  const result = await esbuild.build({
    entryPoints: [join(root, 'web', 'src', 'main.tsx')],
    outdir: assets,
    entryNames: '[name]-[hash]',
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['chrome120', 'firefox120', 'safari17'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    // Apollo Client's React hooks run on Preact through its compat layer.
    alias: { react: 'preact/compat', 'react-dom': 'preact/compat', 'react/jsx-runtime': 'preact/jsx-runtime' },
    define: { 'process.env.NODE_ENV': '"production"', __DEV__: 'false' },
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((file) => basename(file));
  const script = outputs.find((file) => file.endsWith('.js'));
  const style = outputs.find((file) => file.endsWith('.css'));
  if (!script || !style) throw new Error(`web build: expected a .js and a .css output, got ${outputs.join(', ')}`);
  // Compressed once here, at the best level, so the server sends them as they are (see src/web/web.routes.ts).
  for (const file of outputs) {
    const bytes = await readFile(join(assets, file));
    await writeFile(join(assets, `${file}.gz`), await promisify(gzip)(bytes, { level: constants.Z_BEST_COMPRESSION }));
  }
  const staging = join(outDir, `index.${process.pid}.${Date.now()}.html`);
  await writeFile(staging, page(script, style));
  await rename(staging, join(outDir, 'index.html'));
  for (const file of await readdir(assets)) {
    if (!outputs.includes(file.replace(/\.gz$/, ''))) await rm(join(assets, file), { force: true });
  }
  return { outDir, script, style };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { outDir, script } = await buildWeb();
  console.log(`web application built into ${outDir} (${script})`);
}
