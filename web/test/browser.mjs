// The browser test: serves the built folder (web/dist, or the first argument) on 127.0.0.1, opens it in Debian's
// Chromium through playwright-core (WebGL2 in software: SwiftShader), and plays the first round of `?seed=7` by
// clicking like a player: the Title's "Sit down", the $25 chip, Deal, then Stand on every turn until the hands are
// paid. It fails on any page error or Rust panic, checks the round the game logged against the native game's
// (tests/fixtures/seed-7-first-round.txt), taps through the same round on a phone-sized touch screen (and deals it
// once more with the advisor on, whose slices of work must each fit in a frame's 16 ms), checks that
// the game plays and says so when localStorage is refused, that a browser without WebGL2 or WebAssembly SIMD gets a
// message instead of a blank page, that a second visit plays with the server stopped and the network cut (the
// service worker's cache), times navigation → first table frame, and saves
// screenshots in web/test-output/. Nothing on the page is there for the test: it reads the console and the
// performance marks the page's loading screen uses.
import { launch, serve, webglRenderer } from './serve.mjs';
import { Table, countFrames, framesStandingStill, phonePage, root, shots, sleep } from './page.mjs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const dist = path.resolve(process.argv[2] ?? path.join(root, 'web/dist'));
// The HUD's buttons are found by their labels in the game's layout reports (`?layout`: src/game/pages/layout.rs),
// which also say where they are: no coordinates read off a screenshot.
const CHIP_25 = /^\$25(\n\[\d\])?$/;

// The round the page logged must be, line for line, the one the native game plays with the same seed and intents.
function sameAsNative(table) {
  const expected = fs.readFileSync(path.join(root, 'tests/fixtures/seed-7-first-round.txt'), 'utf8')
    .trimEnd().split('\n');
  const played = table.lines.slice(table.lines.indexOf('— Round 1 —'));
  const differ = expected.findIndex((line, i) => played[i] !== line);
  if (differ >= 0) {
    throw new Error(`${table.name}: the browser's round differs from the native game's at line ${differ + 1}:\n`
      + `  native:  ${expected[differ]}\n  browser: ${played[differ]}\nbrowser's round:\n${played.join('\n')}`);
  }
  return `${expected.length} lines, identical`;
}

const server = await serve(dist);
const base = `http://127.0.0.1:${server.address().port}`;
const browser = await launch();
const report = {};
try {
  // 1. Navigation → first table frame, in a fresh profile (nothing cached), opening straight onto the table.
  {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    // The test's own look at the first table frame (not the page's): the canvas keeps what it last showed
    // (preserveDrawingBuffer), and in the browser frame where the page marks the table on screen (before the game
    // draws its next one) the test copies it out. The HUD must be in it: the chip rack in the band along the bottom
    // of the window (its white $1 chip) gives the only near-white pixels of the window's lowest quarter (the felt is
    // framed above the band).
    await context.addInitScript(() => {
      const getContext = HTMLCanvasElement.prototype.getContext;
      HTMLCanvasElement.prototype.getContext = function (kind, options) {
        const keep = kind === 'webgl2' ? { ...options, preserveDrawingBuffer: true } : options;
        return getContext.call(this, kind, keep);
      };
      window.addEventListener('holecard-table', () => requestAnimationFrame(() => {
        const canvas = document.getElementById('holecard');
        const copy = document.createElement('canvas');
        copy.width = canvas.width;
        copy.height = canvas.height;
        const pen = copy.getContext('2d');
        pen.drawImage(canvas, 0, 0);
        const top = Math.floor(copy.height * 0.75);
        const band = pen.getImageData(0, top, copy.width, copy.height - top).data;
        let bright = 0;
        for (let i = 0; i < band.length; i += 4) {
          if (band[i] > 200 && band[i + 1] > 200 && band[i + 2] > 200) bright += 1;
        }
        window.__testFirstTableFrame = { bright, png: copy.toDataURL('image/png') };
      }));
    });
    const page = await context.newPage();
    const table = new Table(page, 'first frame');
    await page.goto(`${base}/?seed=7&start=table`);
    await sleep(150);
    await table.shot('loading');
    report.readyMs = Math.round(await table.mark('holecard-ready'));
    report.webgl = await webglRenderer(page);
    // The game's own mark comes as it draws its first table frame; the table is on screen once the page has shown
    // that frame.
    report.tableDrawnMs = Math.round(await table.mark('holecard-table'));
    report.firstTableFrameMs = Math.round(await table.mark('holecard-table-shown'));
    await table.until('the copy of the first table frame', () => table.read('!!window.__testFirstTableFrame'));
    const first = await table.read('window.__testFirstTableFrame');
    fs.writeFileSync(path.join(shots, 'first-table-frame-as-shown.png'), Buffer.from(first.png.split(',')[1], 'base64'));
    report.firstTableFrameHudPixels = first.bright;
    if (first.bright < 500) {
      throw new Error(`the first table frame shown has ${first.bright} near-white pixels in the lowest quarter, where the `
        + 'HUD\'s chip rack is (about 3,900 when it is there): see first-table-frame-as-shown.png');
    }
    await sleep(1000);
    await table.shot('first-table-frame');
    table.check();
    await context.close();
  }

  // 1b. The loading bar shows real progress: on a connection throttled to 40 Mbit/s the download takes seconds,
  // and part-way through the bar stands between empty and full.
  {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    const table = new Table(page, 'throttled');
    const cdp = await table.cdp;
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false, latency: 20, downloadThroughput: 40e6 / 8, uploadThroughput: 10e6 / 8,
    });
    await page.goto(`${base}/?seed=7&layout`);
    await sleep(2000);
    const shown = Number(await table.read("document.getElementById('bar').getAttribute('aria-valuenow')"));
    const words = await table.read("document.getElementById('status').textContent");
    await table.shot('loading-throttled');
    if (!(shown > 0 && shown < 100)) throw new Error(`the loading bar stood at ${shown}% two seconds in: ${words}`);
    report.loadingBarAt2s = `${shown}% (${words})`;
    await table.mark('holecard-ready', 120_000);
    table.check();
    await context.close();
  }

  // 2. A round played with the mouse at 1280×720; the hand history must be the native game's.
  {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    // The test's own watch on audio (not the page's): every AudioContext made. Chromium starts them suspended until
    // the page's first user gesture; the page must have them running after the first click. And what the game
    // sends to the speakers: whatever is connected to a context's output is also connected to an analyser, whose
    // loudest sample (read four times a second, each read covering the last 0.7 s) must be silence before the
    // first click and sound after it.
    await context.addInitScript(() => {
      const made = [];
      window.__testAudioContexts = made;
      const Original = window.AudioContext;
      window.AudioContext = new Proxy(Original, {
        construct(target, args, newTarget) {
          const c = Reflect.construct(target, args, newTarget);
          made.push(c);
          return c;
        },
      });
      const taps = new Map();
      const connect = AudioNode.prototype.connect;
      AudioNode.prototype.connect = function (destination, ...rest) {
        const connected = connect.call(this, destination, ...rest);
        if (destination instanceof AudioDestinationNode) {
          let tap = taps.get(destination.context);
          if (!tap) {
            tap = destination.context.createAnalyser();
            tap.fftSize = 32768;
            taps.set(destination.context, tap);
          }
          connect.call(this, tap);
        }
        return connected;
      };
      const samples = new Float32Array(32768);
      window.__testAudioTaps = () => taps.size;
      window.__testAudioPeak = 0;
      setInterval(() => {
        for (const tap of taps.values()) {
          tap.getFloatTimeDomainData(samples);
          for (const sample of samples) window.__testAudioPeak = Math.max(window.__testAudioPeak, Math.abs(sample));
        }
      }, 250);
    });
    // The frames the game draws.
    await countFrames(context);
    const page = await context.newPage();
    const table = new Table(page, 'mouse');
    await page.goto(`${base}/?seed=7&layout`);
    await table.mark('holecard-ready');
    // A page standing still draws nothing (a phone's battery pays for every frame): the Title, left alone for six
    // seconds once up, draws at most the frame its five-second wait allows, and one more.
    const framesDrawn = () => table.read('window.__testFramesDrawn');
    await table.settledLayout('the Title');
    // Its sounds load in the background first, a frame at a time; then it waits for the player.
    const stillFrames = await framesStandingStill(table, 'the Title', 6000);
    report.framesDrawnStandingStill = `${stillFrames} in 6 s on the Title`;
    if (stillFrames > 2) throw new Error(`the Title, standing still, drew ${stillFrames} frames in 6 s`);
    const audioStates = () => table.read('window.__testAudioContexts.map((c) => c.state)');
    report.audioBeforeClick = await audioStates();
    if (!report.audioBeforeClick.length) throw new Error('the game made no AudioContext');
    if (report.audioBeforeClick.includes('running')) {
      throw new Error(`sound was running before any gesture: ${report.audioBeforeClick}`);
    }
    await sleep(1000);
    const audioPeak = async () => Number((await table.read('window.__testAudioPeak')).toFixed(4));
    report.audioPeakBeforeClick = await audioPeak();
    // The game's output is connected (so the silence is the suspended context's, not a missing connection).
    if (!(await table.read('window.__testAudioTaps()'))) throw new Error('nothing was connected to a sound output');
    if (report.audioPeakBeforeClick !== 0) {
      throw new Error(`the game was heard before any gesture: peak ${report.audioPeakBeforeClick}`);
    }
    const roundFrom = await framesDrawn();
    await table.playFirstRound(false, '');
    // ...and every frame while the cards move (the deal, the dealer's turn, the payouts).
    const roundFrames = (await framesDrawn()) - roundFrom;
    report.framesDrawnInTheRound = roundFrames;
    if (roundFrames < 60) throw new Error(`the first round drew only ${roundFrames} frames`);
    report.audioAfterRound = await audioStates();
    if (report.audioAfterRound.some((state) => state !== 'running')) {
      throw new Error(`the audio did not resume after the first click: ${report.audioAfterRound}`);
    }
    report.audioPeakDuringRound = await audioPeak();
    if (!(report.audioPeakDuringRound > 0.01)) {
      throw new Error(`nothing was heard during the round: peak ${report.audioPeakDuringRound}`);
    }
    // Past full scale the speakers clip.
    if (report.audioPeakDuringRound >= 1) {
      throw new Error(`the mix clipped during the round: loudest sample ${report.audioPeakDuringRound}`);
    }
    report.sameRoundAsNative = sameAsNative(table);
    // Every command the table accepted is journaled in localStorage: a JSON line per frame that had some, each with
    // the sitting sealed after them (no generator, no face-down card).
    const journal = await table.read("localStorage.getItem('holecard/sitting.journal') ?? ''");
    const entries = journal.split('\n').filter(Boolean).map((line) => JSON.parse(line));
    const accepted = entries.map((e) => e.sitting.accepted);
    if (!entries.length || accepted.some((n, i) => i > 0 && n <= accepted[i - 1])) {
      throw new Error(`the journal in localStorage is not a growing list of entries: ${accepted}`);
    }
    // The bet, the deal and the player's decision at least.
    if (accepted[accepted.length - 1] < 3) throw new Error(`the journal holds only ${accepted} commands`);
    report.journalInLocalStorage = `holecard/sitting.journal, ${entries.length} entries, ${accepted.at(-1)} commands`;
    // The round is in the history kept in localStorage, with its deal for a replay, the same round as natively.
    const history = JSON.parse(await table.read("localStorage.getItem('holecard/history.json') ?? 'null'"));
    const first = history?.hands?.[0];
    if (!first || first.round !== 1 || !Array.isArray(first.deal) || first.deal.length < 4) {
      throw new Error(`the round is not in the history in localStorage: ${JSON.stringify(history)?.slice(0, 200)}`);
    }
    const journaledHands = entries.flatMap((e) => e.hands);
    if (!journaledHands.some((h) => h.round === 1 && h.net === first.net)) {
      throw new Error('the round\'s hand is not in the journal beside the history');
    }
    report.historyInLocalStorage = `holecard/history.json, ${history.hands.length} hand(s), round 1 net ${first.net}`;
    await context.close();
  }

  // 3. The same round played by tapping a phone's touch screen, held upright.
  {
    const phone = await launch(['--force-device-scale-factor=3']);
    try {
      const { context, page } = await phonePage(phone);
      const table = new Table(page, 'phone');
      // Fast pace: software WebGL draws 3.2 times the pixels of the 1280×720 runs here, a few frames a second. The
      // pace changes no card (the native round is played at instant pace).
      await page.goto(`${base}/?seed=7&speed=fast&layout`);
      // A few frames a second at this size: the round gets longer to settle.
      await table.playFirstRound(true, 'phone-', 300_000);
      report.phoneTouch = sameAsNative(table);
      await context.close();
    } finally {
      await phone.close();
    }
  }

  // 3b. The advisor on the phone: `?advisor` opens with it on; at the first decision each button carries its play's
  // exact value, and the game logs the advice with the time the exact engine took in WebAssembly on this page.
  {
    const phone = await launch(['--force-device-scale-factor=3']);
    try {
      const { context, page } = await phonePage(phone);
      const table = new Table(page, 'phone advisor');
      await page.goto(`${base}/?seed=7&speed=fast&advisor&layout`);
      await table.mark('holecard-ready');
      await sleep(500);
      await table.tap(/^Play( with your \S+)?$/, true);
      await table.mark('holecard-table');
      await sleep(1500);
      await table.tap(CHIP_25, true);
      await table.until('the deal', async () => {
        if (table.lines.includes('— Round 1 —')) return true;
        await table.tapIfShown(/^Deal\b/, true);
        return table.lines.includes('— Round 1 —');
      });
      const advised = () => table.logs.find((l) => l.file.startsWith('src/game/model/advisor.rs'));
      await table.until("the advisor's answer", () => !!advised(), 180_000);
      // The buttons take a few frames (a few a second at this size in software WebGL) to show the values.
      await sleep(4000);
      await table.shot('phone-advisor');
      const line = advised().text;
      // In the browser the question is cut in slices a frame apart: none may take a frame's 16 ms.
      const slice = line.match(/the largest ([\d.]+) ms/);
      if (!slice || !/best \w+/.test(line)) throw new Error(`the advisor said: ${line}`);
      if (!(Number(slice[1]) < 16)) throw new Error(`a slice of the advisor's took ${slice[1]} ms on the page: ${line}`);
      report.phoneAdvisor = line;
      table.check();
      await context.close();
    } finally {
      await phone.close();
    }
  }

  // 3c. Flash cards by touch: the Trainer (`?start=practice`, opening on its first step) deals basic-strategy flash
  // cards from the table's chart at its second; five are answered by tapping the first answer button (Hit, always
  // offered) and then Next, which stands in the same place (a miss shows the chart under them). Each answer is
  // logged, and the record in localStorage holds all five, cell by cell.
  {
    const phone = await launch(['--force-device-scale-factor=3']);
    try {
      const { context, page } = await phonePage(phone);
      const table = new Table(page, 'phone practice');
      await page.goto(`${base}/?seed=7&start=practice&layout`);
      await table.mark('holecard-ready');
      await table.tapUntil('2 Flash cards', true, /^Step 2 of \d+:/);
      const answers = () => table.logs.filter((l) => l.file.startsWith('src/game/pages/practice.rs'));
      for (let n = 1; n <= 5; n++) {
        await table.until(`flash card ${n} answered by touch`, async () => {
          if (answers().length >= n) return true;
          await table.tap(/^Hit\b/, true);
          return answers().length >= n;
        }, 120_000);
        await sleep(800);
        if (n === 1) await table.shot('phone-practice');
        // A tap (down and up in the same instant) can be lost while the page draws in software; tapped again then.
        await table.tapAway(/^Next\b/, true);
        await sleep(800);
      }
      const said = answers().map((l) => l.text);
      if (!said.every((t) => /^flash card \S+ v \S: hit \((right|wrong), the chart plays \w+\)$/.test(t))) {
        throw new Error(`the practice page said: ${said.join(' | ')}`);
      }
      const kept = await page.evaluate(() => localStorage.getItem('holecard/practice.ron'));
      const sum = (word) => [...(kept ?? '').matchAll(new RegExp(`${word}: (\\d+)`, 'g'))]
        .reduce((total, m) => total + Number(m[1]), 0);
      if (sum('right') + sum('wrong') !== 5) {
        throw new Error(`localStorage's practice record holds ${sum('right') + sum('wrong')} answers, not 5: ${kept}`);
      }
      await table.tap('Your record', true);
      await sleep(1500);
      await table.shot('phone-practice-progress');
      report.phonePractice = `${said.length} flash cards by touch (${said.filter((t) => t.includes('(right')).length} right), kept in localStorage`;
      table.check();
      await context.close();
    } finally {
      await phone.close();
    }
  }

  // 4. localStorage refused: the game still opens and says progress won't be kept.
  {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    await context.addInitScript(() => {
      Object.defineProperty(window, 'localStorage', {
        get() { throw new DOMException('The user denied storage', 'SecurityError'); },
      });
    });
    const page = await context.newPage();
    const table = new Table(page, 'no storage');
    const warnings = [];
    page.on('console', (m) => { if (/won't be kept/.test(m.text())) warnings.push(m.text()); });
    await page.goto(`${base}/?seed=7&layout`);
    await table.mark('holecard-ready');
    await sleep(800);
    await table.shot('no-storage-title');
    if (!warnings.length) throw new Error('with localStorage refused, the game did not say progress won\'t be kept');
    table.check();
    report.withoutStorage = 'plays, says progress won\'t be kept';
    await context.close();
  }

  // 4c. `?autoplay`: the AI plays the player's seat, and its hands go into the history in localStorage, as the native
  // game keeps them; no sitting is kept (it is not the player's).
  {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    const table = new Table(page, 'autoplay');
    await page.goto(`${base}/?seed=7&speed=fast&autoplay&start=table`);
    await table.mark('holecard-table', 120_000);
    await table.until('three rounds played by the AI', () => table.lines.includes('— Round 4 —'), 240_000);
    let yours = [];
    await table.until('the AI\'s hands in the history', async () => {
      const kept = JSON.parse(await table.read("localStorage.getItem('holecard/history.json') ?? 'null'"));
      yours = (kept?.hands ?? []).filter((h) => h.yours);
      return new Set(yours.map((h) => h.round)).size >= 3;
    }, 20_000);
    const sitting = await table.read("localStorage.getItem('holecard/sitting.ron') ?? localStorage.getItem('holecard/sitting.journal')");
    if (sitting) throw new Error(`?autoplay kept a sitting for the AI's seat: ${sitting.slice(0, 120)}`);
    table.check();
    report.autoplayKeepsHands = `${yours.length} hands of ${new Set(yours.map((h) => h.round)).size} rounds in the history, no sitting`;
    await context.close();
  }

  // 4b. Two tabs of the page share one localStorage; one keeps. The first holds the Web Lock; the second plays, keeps
  // nothing and says so; once the first tab closes, the second keeps again when reloaded.
  {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const first = await context.newPage();
    const firstTable = new Table(first, 'first tab');
    await first.goto(`${base}/?seed=7`);
    await firstTable.mark('holecard-ready');
    const second = await context.newPage();
    const secondTable = new Table(second, 'second tab');
    const warnings = [];
    second.on('console', (m) => { if (/another tab/.test(m.text())) warnings.push(m.text()); });
    await second.goto(`${base}/?seed=7`);
    await secondTable.mark('holecard-ready');
    await sleep(800);
    await secondTable.shot('second-tab-title');
    const keeps = [await firstTable.read('window.holecardKeeps'), await secondTable.read('window.holecardKeeps')];
    if (keeps[0] !== true || keeps[1] !== false) {
      throw new Error(`the first tab should keep and the second not; holecardKeeps: ${JSON.stringify(keeps)}`);
    }
    if (!warnings.length) throw new Error('the second tab did not say another tab keeps the progress');
    firstTable.check();
    await first.close();
    warnings.length = 0;
    await second.reload();
    await secondTable.mark('holecard-ready');
    await sleep(300);
    if ((await secondTable.read('window.holecardKeeps')) !== true || warnings.length) {
      throw new Error(`with the first tab closed, the reloaded second tab should keep (warnings: ${warnings})`);
    }
    secondTable.check();
    report.twoTabs = 'the first keeps; the second keeps nothing and says so, and keeps once the first has closed';
    await context.close();
  }

  // 5. A browser the game cannot run in says why instead of showing a blank page, and the game is not downloaded:
  // no WebGL2 (the canvas refuses the context), or no WebAssembly SIMD (the page's check module does not validate).
  report.refused = [];
  for (const [lacking, withhold, expected] of [
    ['WebGL2', () => {
      const getContext = HTMLCanvasElement.prototype.getContext;
      HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
        return kind === 'webgl2' ? null : getContext.call(this, kind, ...rest);
      };
    }, /needs WebGL2/],
    ['SIMD', () => { WebAssembly.validate = () => false; }, /needs WebAssembly SIMD/],
  ]) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    await context.addInitScript(withhold);
    const page = await context.newPage();
    const requested = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(`${base}/?seed=7&layout`);
    await page.waitForFunction(() => document.getElementById('cover').classList.contains('failed'), null,
      { timeout: 20_000 });
    const words = await page.evaluate(() => document.getElementById('status').textContent);
    await page.screenshot({ path: `${shots}/without-${lacking}.png` });
    if (!expected.test(words)) throw new Error(`without ${lacking} the page said: ${words}`);
    if (requested.some((url) => url.endsWith('.wasm'))) throw new Error(`without ${lacking} the game was downloaded`);
    report.refused.push(`without ${lacking}: "${words.slice(0, 40)}…"`);
    await context.close();
  }

  // 6. Kept for offline play: the first visit registers the service worker, which caches every file of this build.
  // A new build then comes out (the same files under another build's service worker): the next visit installs it,
  // and its cache replaces the old one. Then the server is stopped and the browser cut off (Playwright's offline
  // mode): a visit starts from the cache and plays the same first round, with nothing asked of the network failing.
  {
    const newer = fs.mkdtempSync(path.join(os.tmpdir(), 'holecard-newer-build-'));
    for (const name of fs.readdirSync(dist)) {
      if (name !== 'sw.js' && name !== 'index.html') fs.symlinkSync(path.join(dist, name), path.join(newer, name));
    }
    const worker = fs.readFileSync(path.join(dist, 'sw.js'), 'utf8');
    const build = worker.match(/^const BUILD = "(\w+)";$/m)?.[1];
    if (!build) throw new Error('sw.js names no build');
    fs.writeFileSync(path.join(newer, 'sw.js'), worker.replace(`"${build}"`, '"newer"'));
    fs.writeFileSync(path.join(newer, 'index.html'), fs.readFileSync(path.join(dist, 'index.html'), 'utf8')
      .replace(`"build":"${build}"`, '"build":"newer"'));
    fs.writeFileSync(path.join(newer, 'elsewhere.html'), '<!doctype html><link rel="icon" href="data:,"><title>Elsewhere</title><p>Not the game.</p>');
    let serving = dist;
    const own = await serve(() => serving);
    const at = `http://127.0.0.1:${own.address().port}`;
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const cached = (page) => page.evaluate(async () => {
      const names = await caches.keys();
      const files = await Promise.all(names.map(async (name) => (await (await caches.open(name)).keys()).length));
      return names.map((name, i) => `${name}: ${files[i]} files`);
    });
    // A visit plays the page's build to the table. On the first, the page registers the worker, which caches the
    // build. On a new build's, the page itself comes from the network (its build is the new one) and the player
    // then leaves for another page of the site: Chromium holds a worker's update back while a page of its scope has
    // no idle time, which the game in software WebGL never has (web/test/sw-idle.mjs; measured in CI from over a
    // minute to over four), and lets it finish within seconds once the page is left.
    const visitOnce = async (name, build, leave) => {
      const page = await context.newPage();
      const visit = new Table(page, name);
      await page.goto(`${at}/?seed=7&layout`);
      await visit.mark('holecard-ready');
      const shown = await visit.read('JSON.parse(document.getElementById("holecard-build").textContent).build');
      if (shown !== build) throw new Error(`${name}: the page is build ${shown}, not ${build}`);
      visit.check();
      const left = Date.now();
      if (leave) await page.goto(`${at}/elsewhere.html`);
      let kept = [];
      await visit.until(`holecard-${build} to be the only cache`, async () => {
        kept = await cached(page);
        return kept.length === 1 && kept[0].startsWith(`holecard-${build}:`)
          && (await visit.read('!!navigator.serviceWorker.controller'));
      }, 60_000);
      await page.evaluate(() => localStorage.clear());
      await page.close();
      return `${kept[0]} (${Date.now() - left} ms${leave ? ' after leaving the game' : ' after the table'})`;
    };
    const firstCache = await visitOnce('first visit', build, false);
    serving = newer;
    const newerCache = await visitOnce('a newer build', 'newer', true);
    report.serviceWorker = `${firstCache}, replaced by ${newerCache}`;
    own.closeAllConnections();
    await new Promise((done) => own.close(done));
    await context.setOffline(true);
    const page = await context.newPage();
    const table = new Table(page, 'offline');
    const failed = [];
    page.on('requestfailed', (request) => failed.push(`${request.url()}: ${request.failure()?.errorText}`));
    await page.goto(`${at}/?seed=7&layout`);
    report.offlineReadyMs = Math.round(await table.mark('holecard-ready'));
    await table.playFirstRound(false, 'offline-');
    if (failed.length) throw new Error(`offline, these requests failed:\n${failed.join('\n')}`);
    report.offline = `server stopped and browser offline: ${sameAsNative(table)}`;
    await context.close();
    fs.rmSync(newer, { recursive: true, force: true });
  }
} finally {
  await browser.close();
  server.close();
}
console.log(JSON.stringify(report));
