// Times the exact engine's live question in WebAssembly under Node's V8 (Chromium's JavaScript engine): every
// two-card hand against every up card on a full shoe, each question timed alone, after one warm-up pass.
//   node scripts/bench/exact-wasm.mjs MODULE.wasm [DECKS] [H17]
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const [file, decks = '6', h17 = '0'] = process.argv.slice(2);
if (!file) {
    console.error('usage: exact-wasm.mjs MODULE.wasm [DECKS] [H17]');
    process.exit(2);
}
// The library links wasm-bindgen's glue for the game's sake; the engine calls none of it, so each import only says so.
const module = new WebAssembly.Module(readFileSync(file));
const imports = {};
for (const { module: from, name } of WebAssembly.Module.imports(module)) {
    imports[from] ??= {};
    imports[from][name] = () => {
        throw new Error(`the engine called ${from}.${name}`);
    };
}
const instance = new WebAssembly.Instance(module, imports);
const live = instance.exports.live;
const names = ['', 'A', '2', '3', '4', '5', '6', '7', '8', '9', 'T'];
const pass = () => {
    const times = [];
    for (let up = 1; up <= 10; up++) {
        for (let a = 1; a <= 10; a++) {
            for (let b = a; b <= 10; b++) {
                const start = performance.now();
                const value = live(Number(decks), Number(h17), up, a, b);
                const ms = performance.now() - start;
                if (Number.isNaN(value)) {
                    throw new Error(`no answer for ${names[a]},${names[b]} vs ${names[up]}`);
                }
                times.push({ ms, hand: `${names[a]},${names[b]} vs ${names[up]}` });
            }
        }
    }
    return times;
};
pass();
const times = pass().sort((x, y) => x.ms - y.ms);
const all = times.reduce((sum, t) => sum + t.ms, 0);
const worst = times[times.length - 1];
// Each side bet priced on the full shoe: the first call (Buster lists the dealer's busts then) and the median of
// nine after it; and the whole round's value (the next round's, on a full shoe, played as well as can be).
const timed = (f) => {
    const start = performance.now();
    const value = f();
    return { ms: performance.now() - start, value };
};
const side = {};
for (const [bet, name] of ['21+3', 'Perfect Pairs', 'Lucky Ladies', 'Buster Blackjack'].entries()) {
    const first = timed(() => instance.exports.side(bet, Number(decks), Number(h17)));
    if (Number.isNaN(first.value)) {
        throw new Error(`no price for ${name}`);
    }
    const again = Array.from({ length: 9 }, () => timed(() => instance.exports.side(bet, Number(decks), Number(h17))).ms)
        .sort((x, y) => x - y);
    side[name] = { first_ms: +first.ms.toFixed(3), median_ms: +again[4].toFixed(3), value: first.value };
}
// The round under CDZ- alone (the game's question), then under all three post-split strategies.
const round = timed(() => instance.exports.edge(Number(decks), Number(h17), 0));
const roundAll = timed(() => instance.exports.edge(Number(decks), Number(h17), 2));
console.log(JSON.stringify({
    questions: times.length,
    worst_ms: +worst.ms.toFixed(3),
    worst_hand: worst.hand,
    median_ms: +times[times.length >> 1].ms.toFixed(3),
    total_ms: +all.toFixed(1),
    side,
    round_ms: +round.ms.toFixed(1),
    round_value: round.value,
    round_all_ms: +roundAll.ms.toFixed(1),
}));
