// Times the browser game's start, LOADS times (default 12): node web/test/first-frame.mjs [folder] [loads]
// Serves the built folder (default web/dist) on 127.0.0.1, opens `?seed=7&start=table` at 1280×720 in a fresh
// browser context each time (nothing cached) and reads the page's performance marks: the game's loading done
// (holecard-ready), the game drawing its table (holecard-table) and the table on screen (holecard-table-shown).
// Prints one line a load, then the median and range of each.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, serve } from './serve.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.resolve(process.argv[2] ?? path.join(root, 'web/dist'));
const loads = Number(process.argv[3] ?? 12);
const MARKS = { ready: 'holecard-ready', tableDrawn: 'holecard-table', tableShown: 'holecard-table-shown' };

const server = await serve(dist);
const browser = await launch();
const times = Object.fromEntries(Object.keys(MARKS).map((key) => [key, []]));
try {
  for (let load = 1; load <= loads; load++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${server.address().port}/?seed=7&start=table`);
    await page.waitForFunction((name) => performance.getEntriesByName(name).length > 0, MARKS.tableShown,
      { timeout: 120_000 });
    const marks = await page.evaluate((names) => Object.fromEntries(Object.entries(names).map(
      ([key, name]) => [key, Math.round(performance.getEntriesByName(name)[0].startTime)])), MARKS);
    for (const key of Object.keys(MARKS)) times[key].push(marks[key]);
    console.log(`load ${load}: ${JSON.stringify(marks)}`);
    await context.close();
  }
} finally {
  await browser.close();
  server.close();
}
for (const [key, values] of Object.entries(times)) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  const median = sorted.length % 2 ? sorted[Math.floor(middle)] : (sorted[middle - 1] + sorted[middle]) / 2;
  console.log(`${key}: median ${median} ms, ${sorted[0]}–${sorted.at(-1)} ms over ${sorted.length} loads`);
}
