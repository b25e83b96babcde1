// The layout walk: every page and state of the game a player meets without a casino — the Title, Tables, Strategy,
// Practice and each drill, Progress, Statistics, the hand history, a replay, Settings, and at the table the betting,
// a decision, with the advisor, with the count, the coach's stop, the round log and the pause menu, then the Title
// with the sitting kept and its Start afresh (asked, then forgotten) — on a phone held
// upright (390×844 CSS pixels, three device pixels each, a touch screen with a phone's user agent) and at 1280×720,
// in Debian's Chromium. Each state is read from the game's own layout report (`?layout`, src/game/pages/layout.rs:
// what egui laid out, measured by the theme's rules) and must have no fault: no words under 13 px, no target under
// 44×44 on the phone, nothing over anything, no words cut off at a side of their view, no decoration over a widget,
// no area off the screen. It also checks, on
// the phone, that a tap on each drill's answer field focuses an input of the page (so the phone's keyboard opens, as a
// number pad), that the digits typed arrive, that Enter on the phone's keyboard answers (and the keyboard shuts), and
// that the coach's stop holds against two quick taps. Screenshots of every state go to web/test-output/layout-*.png.
import { launch, serve, webglRenderer } from './serve.mjs';
import {
  PHONE_AGENT, Table, countFrames, focused, framesStandingStill, lookAt, phonePage, root, sleep,
} from './page.mjs';
import path from 'node:path';

const dist = path.resolve(process.argv[2] ?? path.join(root, 'web/dist'));

const server = await serve(dist);
const base = `http://127.0.0.1:${server.address().port}`;
const report = { states: {} };
const faults = [];

// Looks at one state (page.mjs's lookAt: its screenshot web/test-output/layout-SIZE-STATE.png) and keeps its faults.
async function look(table, size, state) {
  const { laid, summary, faults: found } = await lookAt(table, `layout-${size}-${state}`);
  report.states[`${size} ${state}`] = summary;
  for (const fault of found) faults.push(`${size} ${state}: ${fault}`);
  return laid;
}

// The advisor, the coach and the count: toggles beside the table on a desktop, in the menu on a phone.
async function toggle(table, name, touch) {
  const phone = table.layout?.shape?.startsWith('Phone');
  if (phone) await table.tap(/^Menu\b/, touch);
  await table.tap(new RegExp(`^${name}\\b`), touch);
  if (phone) await table.tapAway(/^Resume\b/, touch);
}

async function walk(table, size, touch) {
  await table.mark('holecard-ready', 120_000);
  report[`${size} WebGL2`] = await webglRenderer(table.page);
  // The first start offers How to play, once: its page, the table's rules in words and no keys on a touch screen.
  await table.widget('Not now');
  await look(table, size, 'title');
  await table.tap('How to play', touch);
  await table.until('How to play', () => table.layout?.widgets.some((w) => /^Finish closer to 21/.test(w.label)));
  await look(table, size, 'how-to-play');
  // (Which controls it tells, touch or keys, for every shape and table: the native walk in src/game/pages/layout.rs;
  // the report holds only what is on the screen, the page's top.)
  await table.tap(/^Back\b/, touch);
  // Offered once: back on the Title it is a button among the pages.
  await table.until('the offer made once', () => table.layout?.widgets.some((w) => w.label === 'How to play')
    && !table.layout.widgets.some((w) => w.label === 'Not now'));
  for (const [button, state] of [['Tables', 'tables'], ['Strategy', 'strategy'], ['Settings', 'settings']]) {
    await table.tap(button, touch);
    await look(table, size, state);
    if (state === 'tables') {
      // A table's shorthand opens, a tap away, what each of its words means.
      await table.tap(/^What these mean$/, touch);
      const explained = (words) => table.layout?.widgets.some((w) => w.role === 'Label' && words.test(w.label));
      await table.until('the shorthand explained', () => explained(/decks of 52 cards/) && explained(/^S17$/));
      await look(table, size, 'tables-glossary');
    }
    await table.tap(/^Back\b/, touch);
  }
  // The trainer's path: every step, then the record.
  await table.tap('Trainer', touch);
  const steps = ['1 Chart', '2 Flash cards', '3 Card values', '4 Pairs', '5 A deck', '6 Tray', '7 True count',
    '8 Index plays', '9 At the table', 'Your record'];
  for (const step of steps) {
    await table.tap(step, touch);
    await look(table, size, `trainer-${step.toLowerCase().replace(/^\d /, '').replace(/ /g, '-')}`);
  }
  await table.tap(/^Back\b/, touch);

  // The table: betting, then a decision, with the advisor, the count, the coach's stop, the log, the pause menu.
  await table.tap(/^Play( with your \S+)?$/, touch);
  await table.mark('holecard-table');
  await sleep(1500);
  await look(table, size, 'table-betting');
  await table.tap(/^\$25(\n\[\d\])?$/, touch);
  await table.until('the deal', async () => {
    if (table.lines.includes('— Round 1 —')) return true;
    await table.tapIfShown(/^Deal\b/, touch);
    return table.lines.includes('— Round 1 —');
  });
  await table.widget(/^Stand\b/, { timeout: 120_000 });
  await look(table, size, 'table-deciding');
  await toggle(table, 'Advisor', touch);
  await table.until("the advisor's values on the buttons", () => table.layout?.widgets
    .some((w) => /^Stand\b[\s\S]*\$/.test(w.label)), 120_000);
  await look(table, size, 'table-advisor');
  await toggle(table, 'Count', touch);
  await look(table, size, 'table-count');
  // The coach: seed 7's first hand is a hard 10 against a king, which the chart hits. Standing is stopped, and a
  // second tap at once — where Stand was — does not pass the stop.
  await toggle(table, 'Coach', touch);
  const stand = await table.widget(/^Stand\b/);
  const at = { x: stand.x + stand.w / 2, y: stand.y + stand.h / 2 };
  if (touch) {
    await table.page.touchscreen.tap(at.x, at.y);
    await sleep(120);
    await table.page.touchscreen.tap(at.x, at.y);
  } else {
    await table.page.mouse.click(at.x, at.y);
    await sleep(120);
    await table.page.mouse.click(at.x, at.y);
  }
  await table.until("the coach's stop", () => table.layout?.widgets
    .some((w) => w.label === 'The coach stops this play'), 30_000);
  await sleep(1500);
  if (table.lines.some((l) => /^You stand on /.test(l))) {
    throw new Error(`${size}: two quick taps on Stand passed the coach's stop`);
  }
  // The second tap is the game's to judge by its own clock: where a frame drawn in software stalls past the stop's
  // guard (0.6 s) before the tap is read, it answers the stop; it lands on Choose again, which plays nothing.
  if (table.layout?.widgets.some((w) => w.label === 'Choose again')) {
    report[`${size} coach`] = 'two quick taps on Stand: stopped, and held';
    await look(table, size, 'table-coach-stop');
    await table.tapAway('Choose again', touch);
  } else {
    report[`${size} coach`] = 'two quick taps on Stand: stopped; the second, read after the guard, chose again';
  }
  await table.tap(/^Log\b/, touch);
  await look(table, size, 'table-round-log');
  if (touch) await table.tapAway('Close', touch);
  else await table.tap(/^Log\b/, touch);
  await table.tap(/^Menu\b/, touch);
  await look(table, size, 'table-pause-menu');
  // How to play from the pause menu, at this table.
  await table.tap('How to play', touch);
  await table.until('How to play in the pause menu', () => table.layout?.widgets
    .some((w) => /^Finish closer to 21/.test(w.label)));
  // The window takes its height in its first frames: a tap before then lands where Back was.
  await table.settledLayout('How to play in the pause menu', 800, 15_000);
  await look(table, size, 'table-how-to-play');
  // A tap read in a frame a phone's page stalls in is lost (CI of f3b5498): tapped again while Back is there.
  await table.tapAway(/^Back\b/, touch);
  await table.tapAway(/^Resume\b/, touch);
  // The round played out (Stand whenever asked), then the Title's Statistics, the hand history and a replay.
  const paid = /^You( \(hand \d\))? (win|lose|push|take even money)|^Your blackjack pays|^You( \(hand \d\))? (bust|give up)/;
  await table.until('the round to be settled', async () => {
    if (table.lines.some((l) => paid.test(l))) return true;
    await table.tapIfShown(/^Stand\b/, touch);
    return table.lines.some((l) => paid.test(l));
  }, 180_000);
  await sleep(2000);
  await table.tap(/^Menu\b/, touch);
  await table.tap('Leave table', touch);
  // The Title lays itself out again once it has the sitting kept (Resume above Play): a tap before that lands on the
  // button that was there.
  await table.widget('Start afresh');
  await table.settledLayout('the Title', 1000, 15_000);
  await table.tap('Statistics', touch);
  await look(table, size, 'statistics');
  await table.reach('Hand history', touch);
  await look(table, size, 'hands');
  await table.reach('Replay', touch);
  await table.mark('holecard-table');
  await sleep(1500);
  await look(table, size, 'replay');
  await table.widget('Hand history', { timeout: 120_000 });
  await look(table, size, 'replay-over');
  await table.tap('Hand history', touch);
  await table.widget('Replay');
  // The Title with a sitting kept: Resume, and Start afresh, which asks first and then forgets it.
  for (let i = 0; i < 3 && !table.layout?.widgets.some((w) => w.label === 'Start afresh'); i++) {
    await table.tap(/^Back\b/, touch);
    await table.settledLayout('the page Back opened', 800, 15_000);
  }
  await look(table, size, 'title-sitting-kept');
  await table.tap('Start afresh', touch);
  await look(table, size, 'title-start-afresh');
  await table.tap('Forget it', touch);
  // The frame that forgets it still drew Resume above the new Play: the frame after has Play alone.
  const forgotten = () => table.layout?.widgets.some((w) => w.label === 'Play')
    && !table.layout.widgets.some((w) => /^(Resume|Start afresh)$/.test(w.label));
  await table.until('the sitting forgotten', forgotten, 15_000).catch(() => {
    throw new Error(`${size}: the sitting was not forgotten`);
  });
  report[`${size} afresh`] = 'Start afresh asked, then forgot the sitting: Play starts a new one';
  table.check();
}

// Side bets at Atlantic City (21+3 and Perfect Pairs), with the advisor on: each side bet's button says its house
// edge on the seat's shoe; $5 goes on 21+3 from its button, "Your bet" brings the chips back to the circle for $25,
// and the deal puts both down and settles the side bet with the first cards, in words in the round log.
async function sideBets(table, size, touch) {
  await table.mark('holecard-table', 120_000);
  await table.until("the side bets' edges", () => table.layout?.widgets
    .some((w) => /^● 21\+3\nhouse edge \d+\.\d%$/.test(w.label)), 60_000);
  // The next round's exact value, worked out in pieces that fit in a frame, with Hi-Lo's estimate and the bet they suggest.
  await table.until("the next round's value", () => table.layout?.widgets
    .some((w) => /^Next round: house edge \d+\.\d\d% on the cards left .*· bet \$\d+ \(half Kelly\)$/.test(w.label)), 120_000);
  report[`${size} next round`] = table.logs.find((l) => l.text.includes('next round:'))?.text;
  await look(table, size, 'table-side-bets');
  await table.tap(/^● 21\+3\b/, touch);
  await sleep(500);
  await table.tapUntil(/^\$5(\n\[\d\])?$/, touch, /^● 21\+3 \$5/);
  await table.tap(/^Your bet\b/, touch);
  await sleep(500);
  await table.tapUntil(/^\$25(\n\[\d\])?$/, touch, /^Your bet \$25$/);
  await look(table, size, 'table-side-bets-placed');
  await table.until('the deal', async () => {
    if (table.lines.includes('— Round 1 —')) return true;
    await table.tapIfShown(/^Deal\b/, touch);
    return table.lines.includes('— Round 1 —');
  });
  const settled = /^21\+3: .* for you, which pays \$\d+\.$|^You lose \$5 on 21\+3\.$/;
  await table.until('the side bet settled', () => table.lines.some((l) => settled.test(l)), 60_000);
  if (!table.lines.includes('You put $5 on 21+3.')) {
    throw new Error(`${size}: the side bet was not put down:\n${table.lines.join('\n')}`);
  }
  report[`${size} side bets`] = table.lines.find((l) => settled.test(l));
  await look(table, size, 'table-side-bet-settled');
  table.check();
}

const browser = await launch();
const phone = await launch(['--force-device-scale-factor=3']);
try {
  {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    const table = new Table(page, 'desktop layout');
    await page.goto(`${base}/?seed=7&speed=fast&layout`);
    await walk(table, 'desktop', false);
    await context.close();
  }
  {
    const { context, page } = await phonePage(phone, PHONE_AGENT);
    const table = new Table(page, 'phone layout');
    await page.goto(`${base}/?seed=7&speed=fast&layout`);
    await walk(table, 'phone', true);
    await context.close();
  }
  for (const [size, touch] of [['phone', true], ['desktop', false]]) {
    const { context, page } = touch
      ? await phonePage(phone, PHONE_AGENT)
      : { context: await browser.newContext({ viewport: { width: 1280, height: 720 } }) };
    const tab = page ?? await context.newPage();
    const table = new Table(tab, `${size} side bets`);
    await tab.goto(`${base}/?seed=7&speed=fast&layout&advisor&start=table&level=atlantic-city`);
    await sideBets(table, size, touch);
    await context.close();
  }
  // The trainer's path by touch on the phone: a card's value tapped, a whole deck counted against the clock (a tap a
  // card, then the count typed: a tap on the answer field focuses the page's input, bevy_egui's text agent, which
  // opens the phone's keyboard, asking for the number pad), the decks left judged from the tray, a true count, an
  // index play.
  {
    const { context, page } = await phonePage(phone, PHONE_AGENT);
    await countFrames(context);
    const table = new Table(page, 'phone typing');
    await page.goto(`${base}/?seed=7&start=practice&layout`);
    await table.mark('holecard-ready', 120_000);
    const heard = (start) => () => table.logs.find((l) => l.text.startsWith(start));
    // A first visit opens on the path's first step, the chart.
    await table.widget('Open the chart');
    await table.tapUntil('3 Card values', true, /^Step 3 of \d+:/);
    // The drills lie under the path and the step's heading: scrolled to, as a thumb does.
    await table.reach('0', true);
    const valued = heard('card value: said');
    await table.until('a card valued by touch', () => Boolean(valued()), 20_000);
    if (!/^card value: said 0 \((right|wrong), the count is /.test(valued().text)) {
      throw new Error(`the drill heard: ${valued().text}`);
    }
    report.phoneTrainer = [valued().text];
    await table.scrollTo('5 A deck', true, true);
    await table.tapUntil('5 A deck', true, /^Step 5 of \d+:/);
    await table.reach('a deck', true);
    // The card on show (53 once the deck is through and the count is asked); a card a tap, a lost tap tapped again.
    const onShow = () => {
      const widgets = table.layout?.widgets ?? [];
      if (widgets.some((w) => w.label === 'The running count' && w.target)) return 53;
      const shown = widgets.map((w) => /^Card (\d+) of 52$/.exec(w.label)).find(Boolean);
      return shown ? Number(shown[1]) : 0;
    };
    await table.scrollTo('Next card', true);
    await table.until('the first card', () => onShow() === 1, 30_000);
    for (let taps = 0; onShow() < 53; taps++) {
      if (taps > 150) throw new Error(`150 taps on Next card and the deck is at card ${onShow()}`);
      const at = onShow();
      await table.reach('Next card', true);
      const start = Date.now();
      while (onShow() === at && Date.now() - start < 5000) await sleep(100);
    }
    await table.scrollTo('The running count', true);
    const focus = await table.tapField('The running count', { role: 'TextInput', timeout: 30_000 }, 5_000);
    if (focus[2] !== 'decimal') throw new Error(`the answer field's input asks for ${focus[2] || 'letters'}`);
    // The keyboard open and nothing typed, the page waits like any other (a phone's battery pays for every frame):
    // what is typed wakes it.
    const keyboardFrames = await framesStandingStill(table, 'the page with the keyboard open', 4000);
    report.framesWithTheKeyboardOpen = `${keyboardFrames} in 4 s`;
    if (keyboardFrames > 2) throw new Error(`the page drew ${keyboardFrames} frames in 4 s with the keyboard open`);
    // A whole deck of a balanced count comes to 0.
    await page.keyboard.type('0');
    await sleep(500);
    await page.keyboard.press('Enter');
    const said = heard('count a deck: said');
    await table.until('the deck counted on the phone', () => Boolean(said()), 20_000);
    if (!/^count a deck: said 0 \(right, the count is 0\) in [\d.]+ s, a best$/.test(said().text)) {
      throw new Error(`the drill heard: ${said().text}`);
    }
    // Answered, the field is gone, and the phone's keyboard with it.
    let after = [];
    await table.until('the keyboard shut once answered', async () => {
      after = await focused(table);
      return after[1] !== 'INPUT';
    }, 10_000).catch(() => {
      throw new Error(`the page's input kept the focus after the answer (${after.join(' ')})`);
    });
    report.phoneTyping = `${focus.join(' ')}`;
    report.phoneTrainer.push(said().text);
    await table.widget(/^\d+\.\d s: your best for 52 cards\.$/, { timeout: 10_000 }).catch(() => {});
    await table.shot('layout-phone-trainer-deck-counted');
    // The true-count drill's field the same way, answered with its Check button this time.
    await table.scrollTo('7 True count', true, true);
    await table.tapUntil('7 True count', true, /^Step 7 of \d+:/);
    await table.scrollTo(/^The true count\b/, true);
    const trueFocus = await table.tapField(/^The true count\b/, { role: 'TextInput', timeout: 30_000 }, 5_000);
    if (trueFocus[2] !== 'decimal') throw new Error(`the true count's input asks for ${trueFocus[2] || 'letters'}`);
    await page.keyboard.type('2');
    await sleep(500);
    await table.reach(/^Check\b/, true);
    const told = heard('true count: said');
    await table.until('the true count typed on the phone', () => Boolean(told()), 20_000);
    if (!/^true count: said 2 /.test(told().text)) throw new Error(`the drill heard: ${told().text}`);
    report.phoneTrainer.push(told().text);
    // The discard tray judged from its picture, to the quarter deck.
    await table.scrollTo('6 Tray', true, true);
    await table.tapUntil('6 Tray', true, /^Step 6 of \d+:/);
    await table.reach('To the quarter deck', true);
    await table.scrollTo(/^Decks left in the shoe, to the quarter deck/, true);
    await table.tapField(/^Decks left in the shoe, to the quarter deck/, { role: 'TextInput', timeout: 30_000 }, 5_000);
    await page.keyboard.type('3.75');
    await sleep(500);
    await table.reach(/^Check\b/, true);
    const judged = heard('discard tray: said');
    await table.until('the tray judged on the phone', () => Boolean(judged()), 20_000);
    if (!/^discard tray: said 3.75 /.test(judged().text)) throw new Error(`the drill heard: ${judged().text}`);
    report.phoneTrainer.push(judged().text);
    await table.shot('layout-phone-practice-tray-answered');
    // An index play, once the table's are worked out: either play tapped.
    await table.scrollTo('8 Index plays', true, true);
    await table.tapUntil('8 Index plays', true, /^Step 8 of \d+:/);
    await table.until('the index plays worked out',
      () => !table.layout?.widgets.some((w) => /^Working out/.test(w.label)), 180_000);
    await table.reach(/^(Stand|Hit|Double|Split|Surrender|Insure|No insurance)$/, true);
    const played = heard('index play:');
    await table.until('an index play by touch', () => Boolean(played()), 20_000);
    report.phoneTrainer.push(played().text);
    await table.shot('layout-phone-trainer-index-answered');
    table.check();
    await context.close();
  }
} finally {
  await browser.close();
  await phone.close();
  server.close();
}
console.log(JSON.stringify(report, null, 2));
if (faults.length) {
  console.error(`layout faults:\n${faults.join('\n')}`);
  process.exit(1);
}
