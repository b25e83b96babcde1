// What the browser test and the first-frame timing share: a static server for the built folder, and Debian's
// Chromium launched headless with the flags the issue names (WebGL2 in software: SwiftShader).
import { chromium } from 'playwright-core';
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.wasm': 'application/wasm',
  '.json': 'application/json', '.png': 'image/png', '.wav': 'audio/wav', '.ogg': 'audio/ogg', '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
};

// A plain static server, like `python3 -m http.server`: files with their length and type, 404 otherwise.
export function serve(dir) {
  const server = http.createServer((request, response) => {
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

export const FLAGS = ['--no-sandbox', '--disable-gpu', '--enable-unsafe-swiftshader', '--use-angle=swiftshader',
  '--disable-background-networking', '--disable-component-update', '--no-first-run'];
export const launch = (extra = []) => chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, args: [...FLAGS, ...extra],
});
