// Packs the browser build (scripts/build-web's last stage): node web/pack.mjs OUT CACHE
// OUT holds wasm-bindgen's glue (holecard.js) and the optimised module (holecard_bg.wasm). This names every file a
// browser may keep by a hash of its contents, writes the page and the service worker that know those names, and
// writes a Brotli'd and a gzipped copy beside every file that compresses:
//   holecard_bg.<hash>.wasm, holecard.<hash>.js, loader.<hash>.js   the module, its glue, the page's loader
//   assets/<hash>/...                                                the assets, under one folder named by all of them
//   index.html                                                       the page: the names, and the sizes the loading
//                                                                    bar counts against, written into it
//   sw.js                                                            the service worker: this build's files, cached
//   manifest.webmanifest                                             what a browser installs the game as
//   X.br, X.gz                                                       beside each file X that gets 5% smaller or more
// A hash is the first 12 hex digits of SHA-256. A new build is new names, so a browser may keep each named file for
// good (holecard-server sends them with `immutable`) and is never served an old one. Brotli at its best setting
// takes half a minute on the module: compressed copies are kept under CACHE, named by the hash of what they hold.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const [out, cache] = process.argv.slice(2);
if (!out || !cache) {
  console.error('usage: node web/pack.mjs OUT CACHE');
  process.exit(2);
}
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sha = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');
const hash = (bytes) => sha(bytes).slice(0, 12);
const posix = (p) => p.split(path.sep).join('/');

// Renames OUT/name to OUT/stem.<hash>.ext and returns the new name.
function named(name) {
  const bytes = fs.readFileSync(path.join(out, name));
  const dot = name.indexOf('.');
  const renamed = `${name.slice(0, dot)}.${hash(bytes)}${name.slice(dot)}`;
  fs.renameSync(path.join(out, name), path.join(out, renamed));
  return renamed;
}

// Every file under a folder, as paths relative to it, in a fixed order.
function walk(dir, under = '') {
  return fs.readdirSync(path.join(dir, under), { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => {
      const relative = path.join(under, entry.name);
      return entry.isDirectory() ? walk(dir, relative) : [relative];
    });
}

// --- The module, its glue and the loader ------------------------------------------------------------------------
const wasm = named('holecard_bg.wasm');
const glue = named('holecard.js');
fs.copyFileSync(path.join(root, 'web/loader.js'), path.join(out, 'loader.js'));
const loader = named('loader.js');

// --- The assets, under a folder named by all of them -------------------------------------------------------------
const assetsDir = path.join(root, 'assets');
const assetFiles = walk(assetsDir);
const assetsHash = hash(assetFiles.map((file) =>
  `${posix(file)}\0${sha(fs.readFileSync(path.join(assetsDir, file)))}\n`).join(''));
const assetsFolder = `assets/${assetsHash}`;
for (const file of assetFiles) {
  const to = path.join(out, assetsFolder, file);
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(path.join(assetsDir, file), to);
}
const assetUrls = assetFiles.map((file) => `${assetsFolder}/${posix(file)}`);
// What the game loads before its table, for the loading bar: the pictures and fonts (the sounds are asked for after
// the first screen, src/game/felt/audio.rs).
const preloaded = Object.fromEntries(assetFiles
  .filter((file) => /\.(png|ttf)$/.test(file))
  .map((file) => [`${assetsFolder}/${posix(file)}`, fs.statSync(path.join(assetsDir, file)).size]));

// --- The web app manifest ----------------------------------------------------------------------------------------
const icons = assetUrls.filter((url) => /\/icons\/icon-\d+\.png$/.test(url)).map((url) => {
  const size = url.match(/icon-(\d+)\.png$/)[1];
  return { src: `./${url}`, sizes: `${size}x${size}`, type: 'image/png', purpose: 'any maskable' };
});
fs.writeFileSync(path.join(out, 'manifest.webmanifest'), `${JSON.stringify({
  name: 'Holecard — casino blackjack',
  short_name: 'Holecard',
  description: 'Casino blackjack at a felt table, with AI companions, real rules and sound.',
  start_url: './',
  scope: './',
  display: 'fullscreen',
  orientation: 'any',
  background_color: '#102a1c',
  theme_color: '#102a1c',
  icons,
}, null, 1)}\n`);

// --- The page ----------------------------------------------------------------------------------------------------
const build = hash([wasm, glue, loader, assetsFolder].join('\n'));
const facts = { build, wasm, glue, wasmBytes: fs.statSync(path.join(out, wasm)).size, assets: preloaded };
let page = fs.readFileSync(path.join(root, 'web/index.html'), 'utf8');
const swap = (from, to) => {
  if (!page.includes(from)) throw new Error(`web/index.html has no ${from}`);
  page = page.replace(from, to);
};
swap('<html lang="en">', `<html lang="en" data-assets="${assetsFolder}">`);
swap('<script type="module" src="./loader.js"></script>',
  `<script id="holecard-build" type="application/json">${JSON.stringify(facts)}</script>\n`
  + `  <script type="module" src="./${loader}"></script>`);
fs.writeFileSync(path.join(out, 'index.html'), page);

// --- The service worker ------------------------------------------------------------------------------------------
const cached = ['./', `./${loader}`, `./${glue}`, `./${wasm}`, './manifest.webmanifest',
  ...assetUrls.map((url) => `./${url}`)];
let worker = fs.readFileSync(path.join(root, 'web/sw.js'), 'utf8');
for (const [token, value] of [['"__BUILD__"', JSON.stringify(build)], ['["__FILES__"]', JSON.stringify(cached)]]) {
  if (!worker.includes(token)) throw new Error(`web/sw.js has no ${token}`);
  worker = worker.replace(token, value);
}
fs.writeFileSync(path.join(out, 'sw.js'), worker);

// --- Compressed copies -------------------------------------------------------------------------------------------
const compressible = /\.(html|js|mjs|wasm|json|webmanifest|ttf|otf|wav|txt|svg|css)$/;
const brotli = (bytes) => zlib.brotliCompressSync(bytes, { params: {
  [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
  [zlib.constants.BROTLI_PARAM_LGWIN]: 24,
  [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
} });
// gzip without a name or time in its header, so the same file always gives the same bytes.
const gzip = (bytes) => zlib.gzipSync(bytes, { level: 9 });
fs.mkdirSync(cache, { recursive: true });
const sizes = {};
for (const file of walk(out)) {
  if (!compressible.test(file)) continue;
  const bytes = fs.readFileSync(path.join(out, file));
  const key = sha(bytes);
  sizes[posix(file)] = { raw: bytes.length };
  for (const [ext, squeeze] of [['br', brotli], ['gz', gzip]]) {
    const kept = path.join(cache, `${key}.${ext}`);
    let squeezed;
    if (fs.existsSync(kept)) {
      squeezed = fs.readFileSync(kept);
      const now = new Date();
      fs.utimesSync(kept, now, now);
    } else {
      squeezed = squeeze(bytes);
      fs.writeFileSync(`${kept}.part`, squeezed);
      fs.renameSync(`${kept}.part`, kept);
    }
    sizes[posix(file)][ext] = squeezed.length;
    if (squeezed.length <= bytes.length * 0.95) fs.writeFileSync(path.join(out, `${file}.${ext}`), squeezed);
  }
}
// The cache keeps what this build and the last few used: copies untouched for a week are deleted.
const week = Date.now() - 7 * 24 * 3600 * 1000;
for (const file of fs.readdirSync(cache)) {
  const at = path.join(cache, file);
  if (fs.statSync(at).mtimeMs < week) fs.rmSync(at, { force: true });
}

const line = (name) => {
  const s = sizes[name];
  return `${name}: ${s.raw} bytes, gzip -9 ${s.gz}, brotli -q 11 ${s.br}`;
};
console.log(line(wasm));
console.log(line(glue));
console.log(`assets in ${assetsFolder}/ (${assetFiles.length} files); build ${build}`);
