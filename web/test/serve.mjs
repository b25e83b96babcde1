// What the browser tests and the timings share: a static server for the built folder, the casino server serving it,
// and Debian's Chromium launched headless, WebGL2 drawn in software by Mesa's llvmpipe (or SwiftShader).
import { chromium } from 'playwright-core';
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import os from 'node:os';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.wasm': 'application/wasm',
  '.json': 'application/json', '.png': 'image/png', '.wav': 'audio/wav', '.ogg': 'audio/ogg', '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
};

// A plain static server, like `python3 -m http.server`: files with their length and type, 404 otherwise.
// No compression and no caching headers (holecard-server's are tested in tests/server.rs and measured by wire.mjs).
// `folder` is a path, or a function giving the path to serve from at each request (a test swaps builds so).
export function serve(folder) {
  const server = http.createServer((request, response) => {
    const dir = typeof folder === 'function' ? folder() : folder;
    const wanted = decodeURIComponent(new URL(request.url, 'http://x').pathname);
    const file = path.join(dir, wanted.endsWith('/') ? `${wanted}index.html` : wanted);
    if (!file.startsWith(dir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404).end('not found');
      return;
    }
    const headers = { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
                      'Content-Length': fs.statSync(file).size };
    response.writeHead(200, headers);
    fs.createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// WebGL2 in software, by one of two renderers. `llvmpipe` (the default where Mesa's EGL is installed): ANGLE over
// Mesa's OpenGL ES through EGL, which needs no display; --ignore-gpu-blocklist because Chromium otherwise refuses a
// software GL driver and the page gets no WebGL2. It draws the game's pages 2.7 times as fast as SwiftShader on CI's
// two cores (docs/ci.md: twelve taps between two pages of a phone, 9.1 s against 24.7 s), which made the browser
// tests' minutes the longest part of a CI run. `swiftshader`: Chromium's own software Vulkan, the flags the first
// browser issue named, for a machine without Mesa or to compare (HOLECARD_WEBGL=swiftshader).
const RENDERERS = {
  llvmpipe: ['--use-angle=gl-egl', '--ignore-gpu-blocklist'],
  swiftshader: ['--disable-gpu', '--enable-unsafe-swiftshader', '--use-angle=swiftshader'],
};
const MESA_EGL = '/usr/lib/x86_64-linux-gnu/libEGL_mesa.so.0';
export const RENDERER = process.env.HOLECARD_WEBGL ?? (fs.existsSync(MESA_EGL) ? 'llvmpipe' : 'swiftshader');
if (!RENDERERS[RENDERER]) {
  throw new Error(`HOLECARD_WEBGL=${RENDERER}: the renderers are ${Object.keys(RENDERERS).join(' and ')}`);
}
export const FLAGS = ['--no-sandbox', ...RENDERERS[RENDERER],
  '--disable-background-networking', '--disable-component-update', '--no-first-run'];
export const launch = (extra = []) => chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, args: [...FLAGS, ...extra],
});

// The name of what draws a page's WebGL2, as the page sees it ("ANGLE (Mesa/X.org, llvmpipe …)"): a test prints it,
// and fails when it is not the renderer asked for (a silent fall back to another would change every timing).
export async function webglRenderer(page) {
  const name = await page.evaluate(() => {
    const gl = document.createElement('canvas').getContext('webgl2');
    if (!gl) return 'no WebGL2';
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    return info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
  });
  if (!name.toLowerCase().includes(RENDERER)) {
    throw new Error(`WebGL2 is drawn by "${name}", not ${RENDERER} (HOLECARD_WEBGL)`);
  }
  return name;
}

// The casino server (the `holecard-server` binary scripts/test builds; HOLECARD_SERVER_BIN names another) serving
// the built folder `dist` on a free port of 127.0.0.1, with a fresh SQLite ledger in a folder of its own, `args`
// added to its command line. Resolves once its lobby answers: { base, log(), stop() }.
export async function casino(dist, args = []) {
  const binary = process.env.HOLECARD_SERVER_BIN
    ?? path.join(process.env.CARGO_TARGET_DIR ?? path.join(root, 'target'), 'debug/holecard-server');
  if (!fs.existsSync(binary)) {
    throw new Error(`${binary} is missing: build it with cargo build --no-default-features --features server `
      + '--bin holecard-server (scripts/test does, in its server step)');
  }
  const port = await freePort();
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'holecard-casino-'));
  const server = spawn(binary, [
    '--listen', `127.0.0.1:${port}`, '--web', dist, '--levels', path.join(root, 'levels'),
    '--database', `sqlite://${path.join(data, 'ledger.sqlite')}`, ...args,
  ], { env: { ...process.env, HOLECARD_DATA_DIR: data }, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  server.stderr.on('data', (chunk) => { log = (log + chunk).slice(-4000); });
  const stop = () => {
    server.kill('SIGTERM');
    fs.rmSync(data, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      const tables = await (await fetch(`${base}/api/tables`)).json();
      return { base, port, tables, log: () => log, stop };
    } catch (e) {
      if (i > 300 || server.exitCode !== null) {
        stop();
        throw new Error(`the server did not start: ${e}\n${log}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

// A port of 127.0.0.1 nothing listens on.
export const freePort = () => new Promise((resolve, reject) => {
  const probe = net.createServer();
  probe.once('error', reject);
  probe.listen(0, '127.0.0.1', () => {
    const { port } = probe.address();
    probe.close(() => resolve(port));
  });
});
