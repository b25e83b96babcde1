// The online browser test: the casino server (the `holecard-server` binary scripts/test builds, with a fresh SQLite
// ledger) serves the browser build on 127.0.0.1, and three pages in one Chromium play at one table like people do:
// Ann and Bob register on the login page by typing and clicking, sit down at the lobby's first table, bet (the chip
// key and Enter) and play (S to stand, N to decline an offer), Ann with the advisor on (it must answer her decision);
// Cleo plays as a guest and watches; Dee, on a phone (390×844 CSS px, ×3, touch), registers by tapping the login
// page's fields and typing on the phone's keyboard, watches, and chats from the chat's sheet. It checks that the
// three pages see the same round (the round log's lines, the dealer's cards and everyone's hands, in the same
// order), that a chat line typed in Ann's page reaches Bob's and Cleo's as text, and that Bob's page, reloaded
// mid-round, gets its seat and its chips back. It saves each page's screenshots and one of the three side by side
// in web/test-output/online-*.png. The login page, the lobby and the table with its chat pass the game's layout
// check (`?layout`: words of 13 px at least, targets of 44×44 on a phone, nothing over anything, nothing off the
// screen) on Ann's page at 1280×720 and on Dee's phone. Then the round is watched again from its link: Eve opens
// `/hand/TABLE/1` on a desktop and must see it told line for line as Cleo watched it live, the kept round showing the
// dealer's second card face down until it was turned; Fay opens it on a phone (its end under the layout check) and
// watches it again. It fails on any page error, Rust panic or error logged.
import { casino, launch } from './serve.mjs';
import { PHONE_AGENT, Table, lookAt, phonePage, root, shots, sleep } from './page.mjs';
import fs from 'node:fs';
import path from 'node:path';

const dist = path.resolve(process.argv[2] ?? path.join(root, 'web/dist'));

// The login page's and the lobby's widgets are found by their labels in the game's layout reports (`?layout`:
// src/game/pages/layout.rs), which say where they are.

// Time for three software-drawn pages to follow the table; companions act at a pace people can watch. The deal comes
// as soon as Ann and Bob have bet; the betting clock only deals without someone silent, and between their sitting
// down and betting the pages type, chat and pass the layout check, which took over a minute in CI once (the clock
// dealt round 1 without them): ten minutes keeps the clock out of the test.
const server = await casino(dist, ['--seed', '7', '--bet-seconds', '600', '--turn-seconds', '60', '--companion-ms', '300']);
const base = server.base;

const report = {};
let browser;
let phone;
const pages = [];
const faults = [];
try {
  report.tables = server.tables.length;
  browser = await launch();
  phone = await launch(['--force-device-scale-factor=3']);
  const open = async (name, options = '') => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    const table = new Table(page, name);
    pages.push(table);
    await page.goto(`${base}/?start=online&layout${options}`);
    await table.mark('holecard-ready');
    await sleep(800);
    return table;
  };
  const logged = (table, pattern) => table.logs.some((l) => pattern.test(l.text));
  const waitLog = (table, pattern, timeout = 60_000) =>
    table.until(`a log line matching ${pattern}`, () => logged(table, pattern), timeout);
  const type = async (table, label, text) => {
    await table.tap(label, false);
    await sleep(200);
    await table.page.keyboard.type(text, { delay: 30 });
    await sleep(200);
  };
  const key = async (table, name) => {
    await table.page.keyboard.press(name);
    await sleep(150);
  };

  // One state of a page under the layout check; its faults fail the test at the end.
  const looked = async (table, name) => {
    const { summary, faults: found } = await lookAt(table, name);
    report[name] = summary;
    faults.push(...found.map((f) => `${name}: ${f}`));
  };

  // Ann and Bob register on the login page; Cleo plays as a guest.
  // Ann plays with the advisor on: at the casino's table it works from the casino's news alone.
  const ann = await open('Ann', '&advisor');
  await looked(ann, 'online-login');
  await type(ann, 'Name', 'Ann');
  await type(ann, 'Password', 'correct horse');
  await ann.tap('Register', false);
  await waitLog(ann, /^welcomed as Ann, an account$/);
  await waitLog(ann, /^the lobby lists \d+ tables$/);
  await sleep(800);
  await looked(ann, 'online-lobby');

  const bob = await open('Bob');
  await type(bob, 'Name', 'Bob');
  await type(bob, 'Password', 'battery staple');
  await bob.tap('Register', false);
  await waitLog(bob, /^welcomed as Bob, an account$/);

  const cleo = await open('Cleo');
  await type(cleo, 'Or play as a guest, named', 'Cleo');
  await cleo.tap('Play as a guest', false);
  await waitLog(cleo, /^welcomed as Cleo, a guest$/);
  await waitLog(cleo, /^the lobby lists \d+ tables$/);
  await sleep(500);

  // Cleo watches the first table; Ann and Bob sit down at it.
  await cleo.tap('Watch', false);
  await waitLog(cleo, /^at \S+, watching$/);

  // Dee, on a phone: a tap on each field gives the page's input the keyboard, and what is typed arrives.
  const dee = await (async () => {
    const { page } = await phonePage(phone, PHONE_AGENT);
    const table = new Table(page, 'Dee');
    pages.push(table);
    await page.goto(`${base}/?start=online&layout`);
    await table.mark('holecard-ready');
    return table;
  })();
  await looked(dee, 'online-phone-login');
  const typeOnPhone = async (label, text) => {
    // The page's input takes the focus within a frame or two of the tap (frames are slow here: four pages draw in
    // software at once).
    await dee.tapField(label, { role: label === 'Password' ? 'PasswordInput' : 'TextInput' }, 10_000);
    await dee.page.keyboard.type(text, { delay: 40 });
    await sleep(300);
  };
  await typeOnPhone('Name', 'Dee');
  await typeOnPhone('Password', 'tall phone booth');
  await dee.tap('Register', true);
  await waitLog(dee, /^welcomed as Dee, an account$/);
  await waitLog(dee, /^the lobby lists \d+ tables$/);
  await looked(dee, 'online-phone-lobby');
  await dee.tap('Watch', true);
  await waitLog(dee, /^at \S+, watching$/);
  await sleep(1500);
  await looked(dee, 'online-phone-table');
  await dee.tap(/^Chat\b/, true);
  await looked(dee, 'online-phone-chat');
  await typeOnPhone('Chat', 'Hello from a phone');
  await dee.tap('Send', true);
  await waitLog(cleo, /^Dee: Hello from a phone$/, 20_000);
  await dee.tap('Close', true);
  report.phone = 'Dee registered, watched and chatted on a phone';
  // Dee's page goes once its part is done: a fourth page drawn in software slows the other three's round by minutes.
  dee.check();
  await dee.page.context().close();
  const seated = /^at (\S+) in seat (\d) with (\$[\d,.]+) and (\$[\d,.]+) on the felt$/;
  await ann.tap('Sit down', false);
  await waitLog(ann, seated);
  const sat = Date.now();
  await sleep(1000);
  await bob.tap('Sit down', false);
  await waitLog(bob, seated);
  const seat = (table) => table.logs.filter((l) => seated.test(l.text)).at(-1).text.match(seated);
  const [, tableId, annSeat] = seat(ann);
  const dollars = (text) => Number(text.replace(/[$,]/g, ''));
  const [, bobTable, bobSeat, bobBankroll, bobFelt] = seat(bob);
  const bobChips = dollars(bobBankroll) + dollars(bobFelt);
  if (bobTable !== tableId) throw new Error(`Ann sat at ${tableId}, Bob at ${bobTable}`);
  report.table = tableId;
  report.seats = { Ann: Number(annSeat), Bob: Number(bobSeat) };
  await sleep(1500);

  // Ann says something (T opens the chat, Enter sends); it reaches the others as text.
  const line = 'Good luck, <b>everyone</b>!';
  await key(ann, 't');
  await sleep(300);
  await ann.page.keyboard.type(line, { delay: 20 });
  await key(ann, 'Enter');
  const heard = new RegExp(`^Ann: ${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  await waitLog(bob, heard, 20_000);
  await waitLog(cleo, heard, 20_000);
  await looked(ann, 'online-chat');
  await key(cleo, 't');
  report.chat = 'Ann → Bob, Cleo';

  // Both bet the rack's third chip (key 3: $25 at the first table, Atlantic City, whose minimum is $15) and put it
  // down (Enter); the dealer deals once both have. Esc closes Ann's chat first (its text field has the keyboard).
  await key(ann, 'Escape');
  for (const table of [ann, bob]) {
    await key(table, '3');
    await key(table, 'Enter');
  }
  for (const table of [ann, bob, cleo]) await table.line(/^— Round 1 —$/, 60_000);
  report.sitToDeal = `${((Date.now() - sat) / 1000).toFixed(1)} s from Ann's sitting down to the deal`;
  const dealtTo = ann.lines.slice(0, ann.lines.indexOf('— Round 1 —'));
  for (const name of ['Ann', 'Bob']) {
    if (!dealtTo.some((l) => l.startsWith(`${name} bets `))) {
      throw new Error(`round 1 was dealt without ${name}'s bet (${report.sitToDeal}):\n${ann.lines.join('\n')}`);
    }
  }
  await sleep(1500);
  await Promise.all([ann.shot('online-ann-dealt'), cleo.shot('online-cleo-dealt')]);

  // Bob's page reloads mid-round: it logs back in with its kept session and gets its seat and chips back.
  const before = bob.logs.length;
  await bob.page.reload();
  await bob.mark('holecard-ready');
  await bob.until('Bob back at his seat', () => bob.logs.slice(before).some((l) => seated.test(l.text)), 60_000);
  const [, backTable, backSeat, backBankroll, backFelt] = seat(bob);
  const backChips = dollars(backBankroll) + dollars(backFelt);
  if (backTable !== tableId || backSeat !== bobSeat || backChips !== bobChips) {
    throw new Error(`after the reload Bob is at ${backTable} seat ${backSeat} with $${backChips} in all, `
      + `not ${tableId} seat ${bobSeat} with $${bobChips}`);
  }
  report.reload = `Bob back in seat ${backSeat} with ${backBankroll} and ${backFelt} on the felt (before: ${bobBankroll} and ${bobFelt})`;
  const bobFrom = bob.lines.length;

  // Each player stands on every turn and declines an insurance or even-money offer (N, then S, every couple of
  // seconds: a key that is not the player's to press does nothing), until both are paid on every page.
  const count = (table, pattern) => table.lines.filter((l) => pattern.test(l)).length;
  const paid = (name) => new RegExp(`^${name}( \\(hand \\d\\))?('s blackjack pays| (wins|loses|pushes|takes even money:|gives up half))`);
  const settled = (table) => ['Ann', 'Bob'].every((name) => count(table, paid(name)) > 0);
  let pressed = 0;
  await ann.until('the round to be played out', async () => {
    if (Date.now() - pressed > 2000) {
      for (const table of [ann, bob]) {
        await key(table, 'n');
        await key(table, 's');
      }
      pressed = Date.now();
    }
    return settled(ann) && settled(cleo) && settled(bob);
  }, 180_000);
  await sleep(4000);

  // Ann's advisor answered her decision (if the cards gave her one: a blackjack is paid without a word).
  const annDecided = ann.lines.some(
    (l) => /^(You|Ann)( \(hand \d\))? (stands?|hits?|doubles?|splits?|surrenders?|takes?|declines?|keeps?)\b/.test(l),
  );
  const advised = ann.logs.find((l) => /^advisor: /.test(l.text));
  if (annDecided && !advised) throw new Error("Ann decided at the casino's table without a word from her advisor");
  report.advisorOnline = advised ? advised.text : 'Ann had no decision this round';

  // The same round on every page: Ann's and Cleo's logs agree line for line from the deal, and Bob's, from his
  // return, is the same story's end.
  const round = (table) => table.lines.slice(table.lines.indexOf('— Round 1 —'));
  const a = round(ann);
  const c = round(cleo);
  const n = Math.min(a.length, c.length);
  const differ = a.slice(0, n).findIndex((l, i) => l !== c[i]);
  if (differ >= 0 || n < 12) {
    throw new Error(`Ann's and Cleo's pages differ at line ${differ + 1} (${n} lines):\n${a.join('\n')}\n---\n${c.join('\n')}`);
  }
  const b = bob.lines.slice(bobFrom);
  const tail = a.slice(a.length - b.length);
  if (b.length < 3 || b.some((l, i) => l !== tail[i])) {
    throw new Error(`Bob's page after the reload does not tell the round's end as Ann's does:\n${b.join('\n')}\n---\n${a.join('\n')}`);
  }
  report.sameRound = `${n} lines alike on Ann's and Cleo's pages, Bob's last ${b.length} too`;
  report.dealer = a.filter((l) => /^Dealer/.test(l));

  await key(bob, 't');
  await sleep(600);
  const pictures = {};
  for (const [table, name] of [[ann, 'ann'], [bob, 'bob'], [cleo, 'cleo']]) {
    const file = path.join(shots, `online-${name}.png`);
    await table.page.screenshot({ path: file });
    pictures[name] = fs.readFileSync(file).toString('base64');
    table.check();
  }
  // The three pages side by side, for the README.
  const board = await (await browser.newContext({ viewport: { width: 1920, height: 400 } })).newPage();
  await board.setContent(`<body style="margin:0;background:#111;display:flex;gap:6px">${
    ['ann', 'bob', 'cleo'].map((n) => `<figure style="margin:0;width:636px;color:#eee;font:14px sans-serif">`
      + `<img style="width:636px" src="data:image/png;base64,${pictures[n]}"><figcaption>${n}</figcaption></figure>`).join('')
  }</body>`);
  await board.screenshot({ path: path.join(shots, 'online-side-by-side.png') });

  // Round 1 watched again from its link, as anyone would open it: on a desktop through `/hand/TABLE/1` (the server
  // sends the page there), on a phone at the page's own address for it. The pages that played go first: software
  // drawing is slow enough with two.
  for (const table of [ann, bob, cleo]) await table.page.context().close();
  const watcher = async (name, page, address) => {
    const table = new Table(page, name);
    pages.push(table);
    const kept = new Promise((resolve) => page.on('response', async (response) => {
      if (new URL(response.url()).pathname.startsWith('/api/hand/')) resolve(await response.json());
    }));
    await page.goto(address);
    await table.mark('holecard-ready');
    await waitLog(table, new RegExp(`^watching round 1 of ${tableId} again$`));
    return { table, kept: await kept };
  };
  const desktop = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const eve = await watcher('Eve', await desktop.newPage(), `${base}/hand/${tableId}/1`);
  if (new URL(eve.table.page.url()).search !== `?hand=${tableId}%2F1`) {
    throw new Error(`the link opened ${eve.table.page.url()}`);
  }
  // What the casino kept shows no face-down card: the dealer's second card comes as "a card face down", and until
  // it is turned the only dealer's card dealt face up is the upcard.
  const news = eve.kept.news.map(([, item]) => JSON.stringify(item));
  const turned = news.findIndex((item) => item.includes('"HoleCardRevealed"'));
  const downAt = news.findIndex((item) => item.includes('"HoleCardDealt"'));
  const upBefore = news.slice(0, turned).filter((item) => item.includes('"Dealt":{"to":"Dealer"')).length;
  if (downAt < 0 || (turned >= 0 && (turned < downAt || upBefore !== 1))) {
    throw new Error(`the kept round shows the dealer's cards so: face down at ${downAt}, turned at ${turned}, `
      + `${upBefore} face up before:\n${news.join('\n')}`);
  }
  await eve.table.line(/^Dealer/, 60_000);
  await eve.table.shot('online-replay-dealt');
  const story = (table) => table.lines.slice(table.lines.indexOf('— Round 1 —'));
  await eve.table.until('the round watched to its end', () => settled(eve.table), 120_000);
  await sleep(3000);
  const again = story(eve.table);
  // The round as Cleo watched it live, line for line (Cleo's log may go on past the round's end).
  if (again.length < 12 || again.some((l, i) => l !== c[i])) {
    throw new Error(`the round watched again is not the one Cleo watched:\n${again.join('\n')}\n---\n${c.join('\n')}`);
  }
  report.watchedAgain = `round 1 from /hand/${tableId}/1: ${again.length} lines, the same as Cleo's; the dealer's `
    + `card face down at news ${downAt}, turned at ${turned}`;
  await eve.table.shot('online-replay-end');
  eve.table.check();
  await eve.table.page.context().close();

  const fay = await watcher('Fay', (await phonePage(phone, PHONE_AGENT)).page, `${base}/?hand=${tableId}%2F1&layout`);
  await fay.table.until('the round watched to its end on a phone', () => settled(fay.table), 120_000);
  await fay.table.widget('Watch again', { timeout: 60_000 });
  await looked(fay.table, 'online-phone-replay');
  await fay.table.tap('Watch again', true);
  await fay.table.until('the round shown again', () => count(fay.table, /^— Round 1 —$/) > 1, 60_000);
  fay.table.check();
  report.phoneReplay = 'Fay watched round 1 on a phone from its link, and again';
  console.log(JSON.stringify(report, null, 2));
  if (faults.length) throw new Error(`layout faults:\n${faults.join('\n')}`);
} catch (error) {
  // What each page logged besides the round (the casino's notices, the client's joins and refusals), and the
  // server's own log, to see why.
  for (const table of pages) {
    console.error(`--- ${table.name}'s other log lines:`);
    for (const line of table.logs.filter((l) => !l.file.startsWith('src/game/model/table/mod.rs'))) {
      console.error(`${line.file} ${line.text}`);
    }
  }
  console.error(`--- the server's log:\n${server.log()}`);
  throw error;
} finally {
  if (browser) await browser.close();
  if (phone) await phone.close();
  server.stop();
}
