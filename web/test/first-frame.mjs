// Times the browser game's start: node web/test/first-frame.mjs [--second-visit] [folder ...] [loads]
// Serves each built folder (default web/dist) on 127.0.0.1, opens `?seed=7&start=table` at 1280×720 in a fresh
// browser context each time (nothing cached) and reads the page's performance marks: the game's loading done
// (holecard-ready), the game drawing its table (holecard-table) and the table on screen (holecard-table-shown).
// Prints one line a load, then the median and range of each mark for each folder. Given several folders (builds to
// compare), it loads them in turn, reversing the order every round (A B, B A, ...), so a machine whose speed drifts
// during the run favours none of them, and gives each one's median table-on-screen as a ratio to the first's:
//   node web/test/first-frame.mjs web/bare-dist web/dist 12     the game against the bare app (scripts/build-web --bare)
// With --second-visit each load is a return visit: the fresh context first opens the page and waits until its
// service worker has cached the build, then the timed page opens in the same context, from that cache.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, serve } from './serve.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const secondVisit = process.argv.includes('--second-visit');
const args = process.argv.slice(2).filter((a) => a !== '--second-visit');
const counts = args.filter((a) => /^\d+$/.test(a));
const folders = args.filter((a) => !/^\d+$/.test(a)).map((a) => path.resolve(a));
if (folders.length === 0) folders.push(path.join(root, 'web/dist'));
const loads = Number(counts[0] ?? 12);
const MARKS = { ready: 'holecard-ready', tableDrawn: 'holecard-table', tableShown: 'holecard-table-shown' };

const servers = await Promise.all(folders.map((folder) => serve(folder)));
const browser = await launch();
const times = folders.map(() => Object.fromEntries(Object.keys(MARKS).map((key) => [key, []])));
try {
  for (let load = 1; load <= loads; load++) {
    const order = folders.map((_, i) => i);
    if (load % 2 === 0) order.reverse();
    for (const i of order) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
      const url = `http://127.0.0.1:${servers[i].address().port}/?seed=7&start=table`;
      if (secondVisit) {
        const first = await context.newPage();
        await first.goto(url);
        await first.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 120_000 });
        await first.close();
      }
      const page = await context.newPage();
      await page.goto(url);
      await page.waitForFunction((name) => performance.getEntriesByName(name).length > 0, MARKS.tableShown,
        { timeout: 120_000 });
      const marks = await page.evaluate((names) => Object.fromEntries(Object.entries(names).map(
        ([key, name]) => [key, Math.round(performance.getEntriesByName(name)[0].startTime)])), MARKS);
      for (const key of Object.keys(MARKS)) times[i][key].push(marks[key]);
      console.log(`load ${load}${folders.length > 1 ? ` of ${folders[i]}` : ''}: ${JSON.stringify(marks)}`);
      await context.close();
    }
  }
} finally {
  await browser.close();
  for (const server of servers) server.close();
}
// The middle of values already in order.
const median = (sorted) => {
  const middle = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(middle)] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const medians = [];
folders.forEach((folder, i) => {
  if (folders.length > 1) console.log(folder);
  for (const [key, values] of Object.entries(times[i])) {
    const sorted = [...values].sort((a, b) => a - b);
    console.log(`${key}: median ${median(sorted)} ms, ${sorted[0]}–${sorted.at(-1)} ms over ${sorted.length} loads`);
    if (key === 'tableShown') medians.push(median(sorted));
  }
});
folders.slice(1).forEach((folder, i) => {
  console.log(`table on screen, ${folder} to ${folders[0]}: ${(medians[i + 1] / medians[0]).toFixed(3)}`);
});
