// Bytes over the wire for a player's first and second visit: node web/test/wire.mjs [folder]
// holecard-server (HOLECARD_SERVER_BIN, else the debug build scripts/test makes) serves the built folder (default
// web/dist) on 127.0.0.1, behind a relay that counts every byte it sends the browser (headers included). Chromium
// opens `?seed=7` in a fresh profile and waits for the Title, then for the service worker to have cached the build:
// that is the first visit. A second page then opens in the same profile: that is the second visit. Prints both, and
// which files the first visit got compressed.
import net from 'node:net';
import path from 'node:path';
import { casino, freePort, launch } from './serve.mjs';
import { Table, root, sleep } from './page.mjs';

const dist = path.resolve(process.argv[2] ?? path.join(root, 'web/dist'));
const server = await casino(dist);
let sent = 0;
const relay = net.createServer((browserSide) => {
  const serverSide = net.connect(server.port, '127.0.0.1');
  serverSide.on('data', (chunk) => { sent += chunk.length; });
  browserSide.pipe(serverSide);
  serverSide.pipe(browserSide);
  const end = () => { browserSide.destroy(); serverSide.destroy(); };
  browserSide.on('error', end);
  serverSide.on('error', end);
  browserSide.on('close', end);
  serverSide.on('close', end);
});
const port = await freePort();
await new Promise((done) => relay.listen(port, '127.0.0.1', done));
const base = `http://127.0.0.1:${port}`;
const browser = await launch();
const report = {};
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const first = await context.newPage();
  const encodings = {};
  first.on('response', async (response) => {
    const name = new URL(response.url()).pathname.split('/').pop() || 'index.html';
    const encoding = (await response.allHeaders())['content-encoding'];
    if (encoding) encodings[encoding] = [...(encodings[encoding] ?? []), name];
  });
  const visit = new Table(first, 'first visit');
  await first.goto(`${base}/?seed=7`);
  await visit.mark('holecard-ready', 120_000);
  await visit.until('the service worker to take the page over',
    () => visit.read('!!navigator.serviceWorker.controller'), 120_000);
  // The sounds come two frames after the first screen; give them and any last request a moment.
  await sleep(3000);
  report.firstVisitBytes = sent;
  report.compressed = Object.fromEntries(Object.entries(encodings).map(([k, names]) => [k, names.length]));
  report.compressedModule = Object.entries(encodings).find(([, names]) => names.some((n) => n.endsWith('.wasm')))?.[0]
    ?? 'none';
  visit.check();
  await first.close();
  sent = 0;
  const second = await context.newPage();
  const again = new Table(second, 'second visit');
  await second.goto(`${base}/?seed=7`);
  await again.mark('holecard-ready', 120_000);
  await sleep(3000);
  report.secondVisitBytes = sent;
  again.check();
  await context.close();
} finally {
  await browser.close();
  relay.close();
  server.stop();
}
console.log(JSON.stringify(report));
