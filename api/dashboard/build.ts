/**
 * The dashboard's assets (docs/dashboard.md), built by this process when it starts serving the API: esbuild bundles
 * api/dashboard/app (TypeScript and JSX for Preact, with the TypeScript client and socket.io-client) into one minified
 * script and one style sheet, in memory, in well under a second. There is no build command to run and nothing to fetch:
 * everything comes from this installation's node_modules.
 *
 * Each asset is named by its content's hash (`main-3f2a….js`), so browsers may keep it for a year; the page that names
 * them is never cached. Both are compressed once here (Brotli and gzip) and sent as the browser accepts.
 */
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';
import { build } from 'esbuild';

export type Asset = { name: string; type: string; body: Buffer; gzip: Buffer; brotli: Buffer; etag: string };
/**
 * `script` is the entry; `preload` the chunks it imports at once (named in the page, so they load beside it); the
 * other chunks are imported when a page needs them (the file editor and its highlighter: docs/dashboard.md).
 */
export type DashboardAssets = { script: Asset; style: Asset; preload: Asset[]; chunks: Asset[]; byName: Map<string, Asset> };

const ENTRY = fileURLToPath(new URL('./app/main.tsx', import.meta.url));

function asset(stem: string, extension: string, type: string, body: Buffer, name?: string): Asset {
  const hash = createHash('sha256').update(body).digest('hex');
  return {
    name: name ?? `${stem}-${hash.slice(0, 16)}.${extension}`,
    type,
    body,
    gzip: gzipSync(body, { level: 9 }),
    brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    etag: `"${hash}"`,
  };
}

async function buildDashboard(): Promise<DashboardAssets> {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['chrome111', 'firefox115', 'safari16.4'],
    platform: 'browser',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    write: false,
    outdir: 'out',
    // Pages loaded on demand (`import()`) become chunks named by esbuild's hash of their content and imports.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    metafile: true,
    legalComments: 'none',
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const output = (name: string) => {
    const file = result.outputFiles.find((candidate) => candidate.path.endsWith(`/${name}`));
    if (!file) throw new Error(`the dashboard build made no ${name} file`);
    return Buffer.from(file.contents);
  };
  const javascript = 'text/javascript; charset=utf-8';
  const script = asset('main', 'js', javascript, output('main.js'));
  const style = asset('main', 'css', 'text/css; charset=utf-8', output('main.css'));
  const chunks = result.outputFiles
    .filter((file) => /\/chunk-[A-Z0-9]+\.js$/.test(file.path))
    .map((file) => asset('chunk', 'js', javascript, Buffer.from(file.contents), file.path.split('/').at(-1)!));
  const entry = Object.entries(result.metafile.outputs).find(([path]) => path.endsWith('/main.js'))?.[1];
  const statics = new Set((entry?.imports ?? []).filter((item) => item.kind === 'import-statement').map((item) => item.path.split('/').at(-1)!));
  const preload = chunks.filter((chunk) => statics.has(chunk.name));
  return { script, style, preload, chunks, byName: new Map([script, style, ...chunks].map((item) => [item.name, item])) };
}

let built: Promise<DashboardAssets> | undefined;

/** The assets of this process, built once (the first call starts the build). */
export function dashboardAssets(): Promise<DashboardAssets> {
  built ??= buildDashboard().catch((error: unknown) => {
    built = undefined; // the next request tries again
    throw error;
  });
  return built;
}
