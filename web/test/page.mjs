// What the browser tests share: a page of the game, read through its console (the round log and the game's other
// log lines) and the performance marks its loading screen sets, clicked and typed at like a player, and screenshots.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '../..');
export const shots = path.join(root, 'web/test-output');
fs.mkdirSync(shots, { recursive: true });

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A widget of a layout report that can be tapped and is labelled `label` (a string, whole, or a RegExp).
const labelled = (w, label) => w.target && (label instanceof RegExp ? label.test(w.label) : w.label === label);

export class Table {
  constructor(page, name) {
    this.page = page;
    this.cdp = page.context().newCDPSession(page);
    this.name = name;
    this.lines = [];
    // Every line the game logged, with the file it came from (the online client's welcome, seat and chat lines).
    this.logs = [];
    // The layout the game last reported (with `?layout`, src/game/pages/layout.rs): the layout check's faults and
    // every widget shown with its label and rectangle in CSS pixels, and how many reports came.
    this.layout = null;
    this.layouts = 0;
    this.failures = [];
    page.on('console', (message) => {
      const text = message.text();
      // Bevy's log in the browser (tracing-wasm): "%cLEVEL%c file:line%cmessage". The round log is what
      // src/game/model/table/mod.rs logs; an ERROR from anywhere fails the test.
      // message.text() runs the format string and its three CSS arguments together; the styles are dropped.
      const log = text
        .replace(/ color: [^;]+; background: #444 color: gray; font-style: italic color: inherit$/, '')
        .match(/^%c(\w+)%c (\S*)%c([\s\S]*)$/);
      if (log && log[2].startsWith('src/game/model/table/mod.rs')) this.lines.push(log[3].trim());
      if (log && log[2].startsWith('src/game/pages/layout.rs')) {
        try {
          this.layout = JSON.parse(log[3].trim());
          this.layouts += 1;
        } catch (e) {
          this.failures.push(`an unreadable layout report: ${e}`);
        }
        return;
      }
      if (log) this.logs.push({ file: log[2], text: log[3].trim() });
      if (log && log[1] === 'ERROR') this.failures.push(`error logged: ${log[2]} ${log[3]}`);
      if (/panicked at|RuntimeError|unreachable executed/.test(text)) this.failures.push(`console: ${text}`);
      if (message.type() === 'error' && !/Using exceptions for control flow/.test(text)) {
        this.failures.push(`console error: ${text}`);
      }
    });
    page.on('pageerror', (error) => {
      if (!/Using exceptions for control flow/.test(String(error))) this.failures.push(`page error: ${error}`);
    });
  }

  // Reads the page without touching it: unlike page.evaluate, this is not a user gesture, so it does not wake
  // the page's audio (Chromium resumes a waiting AudioContext on any gesture).
  async read(expression) {
    const { result, exceptionDetails } = await (await this.cdp).send('Runtime.evaluate', {
      expression, returnByValue: true, userGesture: false, awaitPromise: false,
    });
    if (exceptionDetails) throw new Error(`${this.name}: ${expression}: ${exceptionDetails.text}`);
    return result.value;
  }

  check() {
    if (this.failures.length) throw new Error(`${this.name}:\n${this.failures.join('\n')}`);
  }

  async until(what, test, timeout = 60_000) {
    const start = Date.now();
    while (Date.now() - start < timeout) {
      this.check();
      // The page's own failure message (the game could not start, or stopped) fails the test at once.
      // (A page of the site that is not the game's has no cover.)
      const failed = await this.read("document.getElementById('cover')?.classList.contains('failed') "
        + "? document.getElementById('status').textContent : ''");
      if (failed) {
        await this.shot(`failed-${what.replace(/\W+/g, '-')}`);
        throw new Error(`${this.name}: the page says: ${failed}`);
      }
      if (await test()) return;
      await sleep(100);
    }
    await this.shot(`timeout-${what.replace(/\W+/g, '-')}`);
    throw new Error(`${this.name}: timed out waiting for ${what}; round log so far:\n${this.lines.join('\n')}`);
  }

  async mark(name, timeout = 60_000) {
    const entry = `performance.getEntriesByName(${JSON.stringify(name)})`;
    await this.until(`the page's "${name}" mark`, () => this.read(`${entry}.length > 0`), timeout);
    return this.read(`${entry}[0].startTime`);
  }

  async line(pattern, timeout = 60_000) {
    await this.until(`a round log line matching ${pattern}`, () => this.lines.some((l) => pattern.test(l)), timeout);
  }

  async shot(name) {
    await this.page.screenshot({ path: path.join(shots, `${name}.png`) });
  }

  // The widget of the latest layout report whose label is `label` (a string, whole, or a RegExp), of `role` when
  // given, waiting for it to be laid out; its rectangle in CSS pixels.
  async widget(label, { role, timeout = 60_000 } = {}) {
    const fits = (w) => labelled(w, label) && (!role || w.role === role);
    let found;
    await this.until(`a widget ${label}${role ? ` (${role})` : ''}`, () => {
      found = this.layout?.widgets.find(fits);
      return Boolean(found);
    }, timeout);
    return found;
  }

  // Taps (or clicks) the middle of the widget labelled `label` (see widget()).
  async tap(label, touch, options) {
    const w = await this.widget(label, options);
    await this.press({ x: w.x + w.w / 2, y: w.y + w.h / 2 }, touch);
    return w;
  }

  // Scrolls the page down until the widget labelled `label` is shown (the wheel, or on a touch screen a drag of
  // the page upwards, as a thumb does), a few times at most; then taps it.
  async reach(label, touch) {
    await this.scrollTo(label, touch);
    return this.tap(label, touch);
  }

  // Scrolls the page down (or `up`) until the widget labelled `label` is shown, a few times at most.
  async scrollTo(label, touch, up = false) {
    const shown = () => this.layout?.widgets.some((w) => labelled(w, label));
    const [width, height] = this.layout?.screen ?? [1280, 720];
    for (let i = 0; i < 12 && !shown(); i++) {
      if (touch) {
        const cdp = await this.cdp;
        const x = width / 2;
        const point = (y) => ({ touchPoints: [{ x, y }] });
        const from = up ? 0.35 : 0.75;
        const by = up ? 0.05 : -0.05;
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', ...point(height * from) });
        for (let step = 1; step <= 8; step++) {
          await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', ...point(height * (from + step * by)) });
          await sleep(30);
        }
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      } else {
        await this.page.mouse.move(width / 2, height / 2);
        await this.page.mouse.wheel(0, up ? -300 : 300);
      }
      await sleep(700);
    }
  }

  // Taps the widget labelled `label` until the page has moved on (the widget gone from the layout report), at most
  // `tries` times: a phone's page drawn in software can stall, and a tap read in such a frame may be lost.
  async tapAway(label, touch, tries = 3) {
    const shown = () => this.layout?.widgets.some((w) => labelled(w, label));
    for (let i = 0; i < tries; i++) {
      if (i > 0 && !shown()) return;
      await this.tap(label, touch);
      const start = Date.now();
      while (Date.now() - start < 8000) {
        if (!shown()) return;
        await sleep(200);
      }
    }
    throw new Error(`${this.name}: ${label} was still on the screen after ${tries} taps`);
  }

  // Taps `label` until words matching `shown` are on the screen (a tap lost in a stalled frame is tapped again),
  // `tries` times at most: for a tap that opens something, like a trainer step.
  async tapUntil(label, touch, shown, tries = 3) {
    const on = () => this.layout?.widgets.some((w) => shown.test(w.label));
    for (let i = 0; i < tries; i++) {
      if (i === 0 || !on()) await this.tap(label, touch);
      const start = Date.now();
      while (Date.now() - start < 8000) {
        if (on()) return;
        await sleep(200);
      }
    }
    throw new Error(`${this.name}: ${shown} did not come after ${tries} taps on ${label}`);
  }

  // Taps the text field labelled `label` (`options` as for `widget`) and waits up to `within` ms (0: reads once,
  // after the tap's pause) for an input of the page to have the keyboard's focus, as a phone's keyboard needs; gives
  // that focus ([id, tag, inputmode]), or fails saying what had it instead.
  async tapField(label, options, within = 0) {
    await this.tap(label, true, options);
    const start = Date.now();
    let focus = await focused(this);
    while (focus[1] !== 'INPUT' && Date.now() - start < within) {
      this.check();
      await sleep(200);
      focus = await focused(this);
    }
    if (focus[1] !== 'INPUT') {
      throw new Error(`${this.name}: a tap on ${label} focused ${focus.join(' ')}, not an input`);
    }
    return focus;
  }

  // Taps the widget labelled `label` if the latest layout report shows it now; says whether it did.
  async tapIfShown(label, touch) {
    const w = this.layout?.widgets.find((w) => labelled(w, label));
    if (!w) return false;
    await this.press({ x: w.x + w.w / 2, y: w.y + w.h / 2 }, touch);
    return true;
  }

  // Waits until the layout report has stood still for `quietMs` (a page settled: no widget moving or changing), and
  // returns it.
  async settledLayout(what, quietMs = 1200, timeout = 60_000) {
    let seen = -1;
    let since = Date.now();
    await this.until(`the layout of ${what} to settle`, () => {
      if (this.layouts !== seen) {
        seen = this.layouts;
        since = Date.now();
      }
      return this.layout !== null && Date.now() - since >= quietMs;
    }, timeout);
    return this.layout;
  }

  async press(at, touch) {
    if (touch) await this.page.touchscreen.tap(at.x, at.y);
    else await this.page.mouse.click(at.x, at.y);
    await sleep(250);
  }

  // Sits down (the Title's Play), bets $25, deals, and stands on every turn until the player's hands are paid,
  // within `settleMs` of the deal. The buttons are found by their labels in the game's layout reports: the page must
  // be opened with `?layout`.
  async playFirstRound(touch, prefix, settleMs = 120_000) {
    await this.mark('holecard-ready');
    await sleep(500);
    await this.shot(`${prefix}title`);
    await this.tap(/^Play( with your \S+)?$/, touch);
    await this.mark('holecard-table');
    await sleep(1500);
    await this.shot(`${prefix}betting`);
    await this.tap(/^\$25(\n\[\d\])?$/, touch);
    await this.shot(`${prefix}bet-placed`);
    // The dealer deals once every companion's bet is down; until then Deal is refused and tapped again.
    await this.until('the deal', async () => {
      if (this.lines.includes('— Round 1 —')) return true;
      await this.tapIfShown(/^Deal\b/, touch);
      return this.lines.includes('— Round 1 —');
    });
    await this.shot(`${prefix}dealt`);
    // Stand whenever the player is asked to act; a press the game has not answered in 2 s is pressed again (the
    // button appears once the cards have landed, which may be after the turn is announced).
    let shots = 0;
    let pressedAt = 0;
    const count = (pattern) => this.lines.filter((l) => pattern.test(l)).length;
    const paid = /^You( \(hand \d\))? (win|lose|push|take even money)|^Your blackjack pays/;
    await this.until('the round to be settled', async () => {
      const asked = count(/^Your turn( \(hand \d\))?\.$/);
      const stood = count(/^You( \(hand \d\))? stand on /);
      if (asked > stood && Date.now() - pressedAt > 2000) {
        if (shots < asked) {
          shots = asked;
          await sleep(400);
          await this.shot(`${prefix}your-turn-${asked}`);
        }
        await this.tap(/^Stand\b/, touch);
        pressedAt = Date.now();
      }
      return this.lines.some((l) => paid.test(l));
    }, settleMs);
    await sleep(2500);
    await this.shot(`${prefix}settled`);
    this.check();
  }
}

// A phone's user agent: a page must take the browser for a phone's (bevy_egui opens the phone's keyboard only then).
export const PHONE_AGENT = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) '
  + 'Chrome/131.0.0.0 Mobile Safari/537.36';

// One state of a page under the game's layout check (`?layout`): waits for its layout to settle (or takes the latest
// after 15 s: a page working something out keeps changing), saves its screenshot as `${name}.png` and says what it
// measured, with its faults (no words under 13 px, no target under 44×44 on a phone, nothing over anything, no
// decoration over a widget, nothing off the screen).
export async function lookAt(table, name) {
  let laid;
  try {
    laid = await table.settledLayout(name, 1200, 15_000);
  } catch {
    laid = table.layout;
  }
  if (!laid) throw new Error(`${name}: no layout report`);
  await table.shot(name);
  const summary = `${laid.widgets.length} widgets, smallest words ${Number(laid.smallest_words).toFixed(1)} px, `
    + `${laid.faults.length} faults`;
  console.log(`${name}: ${summary}`);
  for (const fault of laid.faults) console.log(`  ${fault}`);
  return { laid, summary, faults: laid.faults };
}

// What has the page's keyboard focus: [id, tag, inputmode].
export async function focused(table) {
  return table.read("[document.activeElement?.id ?? '', document.activeElement?.tagName ?? '', "
    + "document.activeElement?.getAttribute('inputmode') ?? '']");
}

// A page in a phone-sized window: 390×844 CSS pixels, three device pixels to each, a touch screen. The browser it
// runs in must be launched with --force-device-scale-factor=3. (Not Playwright's deviceScaleFactor: Chromium's
// device emulation reports a canvas's device-pixel-content-box in CSS pixels — a 100-pixel-wide box measured 100
// device pixels at an emulated ratio of 3 — so the game would size itself for a window a third as wide as the
// screen, which no real phone does.) `userAgent`: a phone's, where the page must take the browser for a phone's
// (bevy_egui opens the phone's keyboard only then).
export async function phonePage(browser, userAgent) {
  const context = await browser.newContext({ viewport: null, hasTouch: true, ...(userAgent ? { userAgent } : {}) });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const { windowId } = await cdp.send('Browser.getWindowForTarget');
  const inner = async () => (await cdp.send('Runtime.evaluate', {
    expression: '[innerWidth, innerHeight, devicePixelRatio]', returnByValue: true,
  })).result.value;
  // The window's frame takes some of its size, and a resize lands a moment after it is asked for (seconds, on a
  // machine busy drawing another page in software): size the window, wait for the page to see the same size three
  // times over, grow the window from the size it has by what is missing; again, for ten seconds at most.
  const settled = async () => {
    let last = await inner();
    let same = 0;
    for (let i = 0; i < 30 && same < 2; i++) {
      await sleep(100);
      const now = await inner();
      same = now.join() === last.join() ? same + 1 : 0;
      last = now;
    }
    return last;
  };
  const bounds = async () => {
    const { bounds: { width, height } } = await cdp.send('Browser.getWindowBounds', { windowId });
    return { width, height };
  };
  let asked = { width: 390, height: 844 };
  let size = [];
  const tried = [];
  const until = Date.now() + 10_000;
  while (Date.now() < until) {
    await cdp.send('Browser.setWindowBounds', { windowId, bounds: asked });
    size = await settled();
    const has = await bounds();
    tried.push(`${asked.width}×${asked.height} asked, ${has.width}×${has.height} given, ${size.join('×')} inside`);
    if (size.join() === '390,844,3') return { context, page };
    asked = { width: has.width + 390 - size[0], height: has.height + 844 - size[1] };
  }
  throw new Error(`the phone window is ${size.join(', ')}, not 390, 844, 3 (${tried.join('; ')})`);
}

// Counts the frames the game draws in `context`'s pages (window.__testFramesDrawn): a task of the page that makes
// WebGL draw calls is one frame drawn. Added before the page opens.
export async function countFrames(context) {
  await context.addInitScript(() => {
    window.__testFramesDrawn = 0;
    let inFrame = false;
    const gl = WebGL2RenderingContext.prototype;
    for (const name of ['drawArrays', 'drawElements', 'drawArraysInstanced', 'drawElementsInstanced',
      'drawRangeElements']) {
      const draw = gl[name];
      gl[name] = function (...args) {
        if (!inFrame) {
          inFrame = true;
          window.__testFramesDrawn += 1;
          setTimeout(() => { inFrame = false; }, 0);
        }
        return draw.apply(this, args);
      };
    }
  });
}

// Waits until `table`'s page has drawn nothing for 1.5 s (at most `timeout`), then counts the frames it draws in
// the next `ms`: what a page left alone costs.
export async function framesStandingStill(table, what, ms, timeout = 30_000) {
  const drawn = () => table.read('window.__testFramesDrawn');
  let [last, lastAt] = [await drawn(), Date.now()];
  await table.until(`${what} to stop drawing`, async () => {
    const now = await drawn();
    if (now !== last) [last, lastAt] = [now, Date.now()];
    return Date.now() - lastAt > 1500;
  }, timeout);
  const from = await drawn();
  await sleep(ms);
  return (await drawn()) - from;
}
