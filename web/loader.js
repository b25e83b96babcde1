// Holecard's page: checks for WebGL2, downloads the game and its assets with a real progress bar, lets sound start
// on the first click, key or tap, and steps aside when the game says its table is ready.

const cover = document.getElementById('cover');
const fill = document.getElementById('fill');
const bar = document.getElementById('bar');
const status = document.getElementById('status');

function fail(message) {
  cover.classList.add('failed');
  cover.classList.remove('gone');
  status.textContent = message;
}

const megabytes = (bytes) => (bytes / 1e6).toFixed(1);

// --- WebGL2 -----------------------------------------------------------------------------------------------------
function hasWebGL2() {
  try {
    return !!document.createElement('canvas').getContext('webgl2');
  } catch {
    return false;
  }
}

// --- WebAssembly SIMD -------------------------------------------------------------------------------------------
// The game is built with WebAssembly's vector instructions. This tiny module (one function: i8x16.splat, then
// i8x16.popcnt) validates only where they are supported.
function hasWasmSimd() {
  try {
    return WebAssembly.validate(new Uint8Array([
      0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
    ]));
  } catch {
    return false;
  }
}

// --- Sound --------------------------------------------------------------------------------------------------------
// Browsers start every AudioContext suspended until the page has been clicked, typed into or tapped. The game's
// audio library makes its context at start-up, so the page remembers every context made and resumes them all on
// the first such gesture. The game itself plays nothing before that gesture and starts its loops once after it, so
// no sound is doubled; effects asked for after the gesture wait in the suspended context and play on resuming.
const contexts = new Set();
for (const name of ['AudioContext', 'webkitAudioContext']) {
  const Original = window[name];
  if (typeof Original !== 'function') continue;
  window[name] = new Proxy(Original, {
    construct(target, args, newTarget) {
      const context = Reflect.construct(target, args, newTarget);
      contexts.add(context);
      return context;
    },
  });
}
const gestures = ['pointerdown', 'pointerup', 'keydown', 'touchend', 'click'];
// Every gesture checks again: a context can be suspended later too (a phone's browser does so in the background).
function resumeSound() {
  for (const context of contexts) {
    if (context.state === 'suspended') context.resume().catch(() => {});
  }
}
for (const type of gestures) document.addEventListener(type, resumeSound, true);

// --- Download progress ----------------------------------------------------------------------------------------
// The page carries this build's facts (written by web/pack.mjs): the module's and its glue's names and the size of
// the module and of every asset the game loads before its table (the sounds come after), so the bar shows the bytes
// actually received out of everything the game will load before its table appears. (A compressed transfer is
// counted as the bytes it unpacks to, as the sizes are.)
let expected = 0;
let received = 0;
let drawing = false;
// Bytes are counted as they arrive; the bar is redrawn at most once a frame, not for each of the hundreds of pieces
// the download arrives in.
function progress(bytes) {
  received += bytes;
  if (drawing) return;
  drawing = true;
  requestAnimationFrame(() => {
    drawing = false;
    const share = expected > 0 ? Math.min(1, received / expected) : 0;
    fill.style.width = `${(share * 100).toFixed(1)}%`;
    bar.setAttribute('aria-valuenow', String(Math.round(share * 100)));
    status.textContent = expected > 0
      ? `Bringing out the cards… ${megabytes(received)} of ${megabytes(expected)} MB`
      : `Bringing out the cards… ${megabytes(received)} MB`;
  });
}

// A response whose body counts its bytes into the bar as whoever reads it reads it.
function counted(response) {
  if (!response.ok || !response.body) return response;
  const reader = response.body.getReader();
  const body = new ReadableStream({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        controller.close();
        return;
      }
      progress(value.byteLength);
      controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

// Bevy fetches its assets with window.fetch; those under assets/ are counted. (Fetching them early, while the game
// compiles, was tried and measured: with one thread for the page and the game, the first table frame came later.)
const pageFetch = window.fetch.bind(window);
window.fetch = async (input, init) => {
  const response = await pageFetch(input, init);
  const url = typeof input === 'string' ? input : input?.url ?? String(input);
  return url.includes('assets/') ? counted(response) : response;
};

// --- Ready ------------------------------------------------------------------------------------------------------
// The game marks `holecard-ready` when its own loading is done and `holecard-table` on its first table frame.
// Until then the canvas is hidden: the page does not show (nor make the browser copy out) frames under its cover,
// and the game draws no more of them than its warm-up needs.
window.addEventListener('holecard-ready', () => {
  fill.style.width = '100%';
  cover.classList.add('gone');
  const canvas = document.getElementById('holecard');
  canvas.classList.add('shown');
  canvas.focus();
});

// `holecard-table` is sent as the game draws its first table frame (the HUD included); the table is on screen once
// the page has shown that frame, which is when the browser next asks for a frame. The page marks that moment
// `holecard-table-shown` (where WebGL runs in software, the page can show a frame most of a second after it is drawn).
window.addEventListener('holecard-table', () => {
  requestAnimationFrame(() => performance.mark('holecard-table-shown'));
});

// --- Offline ----------------------------------------------------------------------------------------------------
// Once the table is up, the service worker (sw.js) is registered: it caches this build's files in the background, so
// the next visit starts from them and plays with no network. Not sooner: the first visit's download and start-up
// come first. A browser without service workers (or a page not served over https or from this machine) plays on.
// A visit the worker already has asks it whether it has changed instead, and again every ten minutes while the page
// is open: a new build's worker then installs, caches the new build and removes the old.
// Chromium may hold a check back for minutes while the page's main thread has no idle time, which a game drawn in
// software WebGL never has (web/test/sw-idle.mjs measures it; leaving the page lets it finish within seconds). That
// costs nothing but the offline copy's freshness: the page is always asked of the network first and names the new
// build's files, which the old worker does not keep and leaves to the network, so the player plays the new build.
async function keepForOffline() {
  if (!('serviceWorker' in navigator)) return;
  try {
    const registration = await navigator.serviceWorker.getRegistration('./');
    if (!registration) {
      await navigator.serviceWorker.register('./sw.js', { updateViaCache: 'none' });
      return;
    }
    const check = () => registration.update().catch((error) => {
      console.warn(`holecard: could not ask whether the game has a new build: ${error}`);
    });
    check();
    setInterval(check, 600_000);
  } catch (error) {
    console.warn(`holecard: the game will not be kept for playing offline: ${error}`);
  }
}
window.addEventListener('holecard-ready', () => setTimeout(keepForOffline, 1000), { once: true });

// The game could not start (a bad address option, say): it says why.
window.addEventListener('holecard-failed', (event) => fail(`The game could not start: ${event.detail}`));

// winit leaves its start-up by throwing this on purpose; it is not a failure.
const notAFailure = (message) => message.includes('Using exceptions for control flow');

window.addEventListener('error', (event) => {
  const message = String(event.message || event.error || 'unknown error');
  // Only the game's own scripts stop the game (an extension's error does not).
  if (notAFailure(message) || (event.filename && !event.filename.startsWith(location.origin))) return;
  fail(`The game stopped: ${message}. Reload the page to sit down again.`);
});
window.addEventListener('unhandledrejection', (event) => {
  if (notAFailure(String(event.reason))) return;
  fail(`The game could not start: ${event.reason}. Reload the page to try again.`);
});

// --- One keeper ---------------------------------------------------------------------------------------------------
// Tabs of this page share one localStorage: two playing at once would each write the journal and the history, and
// rounds would be kept twice with different cards. The first tab takes the Web Lock `holecard-data` and holds it
// until it closes; a tab that finds it taken plays but keeps nothing, and says so on its Title
// (`holecardKeeps = false`, read by the game's store). A browser without Web Locks keeps as before.
function takeTheKeeping() {
  if (!navigator.locks?.request) return Promise.resolve(true);
  return new Promise((resolve) => {
    navigator.locks
      .request('holecard-data', { ifAvailable: true }, (lock) => {
        resolve(lock !== null);
        // Held while the tab is open: this promise never settles.
        return lock === null ? undefined : new Promise(() => {});
      })
      .catch((error) => {
        console.warn(`holecard: could not ask which tab keeps the progress: ${error}`);
        resolve(true);
      });
  });
}

async function start() {
  if (!hasWebGL2()) {
    fail('Holecard needs WebGL2, which this browser has turned off or does not have. '
      + 'Try a current Firefox, Chrome, Edge or Safari with hardware acceleration on.');
    return;
  }
  if (!hasWasmSimd()) {
    fail('Holecard needs WebAssembly SIMD, which this browser does not have. '
      + 'Try a current Firefox, Chrome, Edge or Safari (16.4 or later).');
    return;
  }
  let facts;
  try {
    facts = JSON.parse(document.getElementById('holecard-build').textContent);
  } catch {
    fail('This page was not built by scripts/build-web: it does not say which game files to load.');
    return;
  }
  window.holecardKeeps = await takeTheKeeping();
  expected = facts.wasmBytes + Object.values(facts.assets).reduce((sum, size) => sum + size, 0);
  progress(0);
  const { default: init } = await import(`./${facts.glue}`);
  const wasm = await pageFetch(`./${facts.wasm}`);
  if (!wasm.ok) {
    fail(`Could not download the game (${facts.wasm}: HTTP ${wasm.status}).`);
    return;
  }
  await init({ module_or_path: counted(wasm) });
}

start().catch((error) => {
  const message = String(error?.message ?? error);
  if (!notAFailure(message)) fail(`The game could not start: ${message}`);
});
