// Measures how long Chromium takes to install a service worker's new version for a page of its scope, on a plain page
// whose main thread has idle time and on one that has none (each frame busy for 30 ms, as the game's frames are in
// software WebGL): asked by the page with registration.update() three seconds after it opened, and (busy page only)
// left to the check Chromium makes on its own after a navigation. Plain pages and a tiny worker, nothing of the
// game's. `node web/test/sw-idle.mjs` prints milliseconds from opening the page to the new version active. Run by
// hand (the last case waits up to three minutes); on 2026-11-25 (Chromium 156, 2 cores) it printed
// {"idle":3298,"busy":4356,"busy, navigation only":"not within 180 s"}: why web/loader.js asks for a check itself and
// why the browser test's new-build visit leaves the game's page before it waits for the new build.
import { launch, serve } from './serve.mjs';
import { sleep } from './page.mjs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'holecard-sw-idle-'));
const worker = (version) => `self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', () => {});
self.addEventListener('message', (event) => event.ports[0].postMessage('${version}'));`;
const page = (busy) => `<!doctype html><title>${busy ? 'busy' : 'idle'}</title><script>
${busy ? `function frame() { const start = performance.now(); while (performance.now() - start < ${busy}) {}
  requestAnimationFrame(frame); }
requestAnimationFrame(frame);` : ''}
</script>`;
fs.writeFileSync(path.join(folder, 'idle.html'), page(0));
fs.writeFileSync(path.join(folder, 'busy.html'), page(30));
const server = await serve(folder);
const at = `http://127.0.0.1:${server.address().port}`;
const browser = await launch();
const result = {};
try {
  for (const [name, kind, ask] of [['idle', 'idle', true], ['busy', 'busy', true], ['busy, navigation only', 'busy', false]]) {
    const context = await browser.newContext();
    fs.writeFileSync(path.join(folder, 'sw.js'), worker('one'));
    const first = await context.newPage();
    await first.goto(`${at}/idle.html`);
    await first.evaluate(async () => {
      await navigator.serviceWorker.register('./sw.js', { updateViaCache: 'none' });
      await navigator.serviceWorker.ready;
    });
    await first.close();
    fs.writeFileSync(path.join(folder, 'sw.js'), worker('two'));
    const visit = await context.newPage();
    const start = Date.now();
    await visit.goto(`${at}/${kind}.html`);
    await sleep(3000);
    if (ask) await visit.evaluate(() => navigator.serviceWorker.getRegistration('./').then((r) => { r.update(); }));
    let installed = false;
    while (!installed && Date.now() - start < 180_000) {
      await sleep(250);
      // The active worker's version, asked of the worker itself.
      installed = await visit.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration('./');
        if (!registration?.active || registration.active.state !== 'activated') return false;
        const channel = new MessageChannel();
        const answer = new Promise((done) => { channel.port1.onmessage = (event) => done(event.data); });
        registration.active.postMessage('version', [channel.port2]);
        return (await Promise.race([answer, new Promise((done) => setTimeout(done, 1000))])) === 'two';
      });
    }
    result[name] = installed ? Date.now() - start : 'not within 180 s';
    await context.close();
  }
} finally {
  await browser.close();
  server.close();
  fs.rmSync(folder, { recursive: true, force: true });
}
console.log(JSON.stringify(result));
