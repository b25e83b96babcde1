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

export class Table {
  constructor(page, name) {
    this.page = page;
    this.cdp = page.context().newCDPSession(page);
    this.name = name;
    this.lines = [];
    // Every line the game logged, with the file it came from (the online client's welcome, seat and chat lines).
    this.logs = [];
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

  async press(at, touch) {
    if (touch) await this.page.touchscreen.tap(at.x, at.y);
    else await this.page.mouse.click(at.x, at.y);
    await sleep(250);
  }

  // Sits down, bets $25, deals, and stands on every turn until the player's hands are paid, within `settleMs` of
  // the deal.
  async playFirstRound(at, touch, prefix, settleMs = 120_000) {
    await this.mark('holecard-ready');
    await sleep(500);
    await this.shot(`${prefix}title`);
    await this.press(at.sitDown, touch);
    await this.mark('holecard-table');
    await sleep(1500);
    await this.shot(`${prefix}betting`);
    await this.press(at.chip25, touch);
    await this.shot(`${prefix}bet-placed`);
    // The dealer deals once every companion's bet is down; until then Deal is refused and clicked again.
    await this.until('the deal', async () => {
      if (this.lines.includes('— Round 1 —')) return true;
      await this.press(at.deal, touch);
      return this.lines.includes('— Round 1 —');
    });
    await this.shot(`${prefix}dealt`);
    // Stand whenever the player is asked to act; a press the game has not answered in 2 s is pressed again (the
    // button appears once the cards have landed, which may be after the turn is announced).
    let shots = 0;
    let pressedAt = 0;
    const count = (pattern) => this.lines.filter((l) => pattern.test(l)).length;
    const paid = /^You( \(hand \d\))? (win|lose|push|take even money)|^You('s| \(hand \d\)'s) blackjack pays/;
    await this.until('the round to be settled', async () => {
      const asked = count(/^You( \(hand \d\))? to act\.$/);
      const stood = count(/^You( \(hand \d\))? stand\.$/);
      if (asked > stood && Date.now() - pressedAt > 2000) {
        if (shots < asked) {
          shots = asked;
          await sleep(400);
          await this.shot(`${prefix}your-turn-${asked}`);
        }
        await this.press(at.stand, touch);
        pressedAt = Date.now();
      }
      return this.lines.some((l) => paid.test(l));
    }, settleMs);
    await sleep(2500);
    await this.shot(`${prefix}settled`);
    this.check();
  }
}
