//! The game's sounds, synthesized from nothing but code.
//!
//! Every sound is built from FunDSP oscillators, noise generators, filters and reverb, shaped by
//! hand-written envelopes, and written as 16-bit PCM WAV through hound. No recordings are used.
//!
//! Why synthesize instead of shipping recordings: the files are reproducible (the same bytes on
//! every run, so `--check` can compare them with the committed copies), they carry no licence
//! baggage, and a sound can be retuned by editing a number.
//!
//! Determinism: every noise generator gets a fixed seed, every oscillator a fixed start phase,
//! and the "human" variation (click timing, chip pitch, which vowel a murmuring voice says) comes
//! from a small SplitMix64 generator with fixed seeds. Nothing reads the clock or the OS entropy.
//! Sample values are rounded to 16 bits at the very end, which also absorbs last-bit differences
//! in `sin`/`exp` between platforms' maths libraries (a difference could only show if it pushed a
//! value across a rounding boundary).
//!
//! Two families:
//! - Effects: mono 44.1 kHz, start on their very first samples (a sound must land in the same
//!   frame as the card or chip that triggers it), end with a short fade so nothing clicks, and are
//!   normalised to -3 dBFS peak so they all sit at one loudness before the game's mixer.
//! - Loops: mono 22.05 kHz (they are long and are downloaded by the web build, and neither a
//!   distant crowd nor a soft lounge band needs content above 11 kHz). They are built to be
//!   exactly periodic rather than cut and crossfaded: every event is added modulo the loop length
//!   (a note ringing past the end carries on at the start), and every filter or reverb runs over
//!   two periods of its periodic input and keeps the second, by which time its state is what it
//!   would be after an endless run. The last sample therefore flows into the first like any other
//!   pair of neighbours.

use std::f32::consts::{PI, TAU};
use std::io::Cursor;

use fundsp::prelude32::{self as fs, An, AudioNode, U1};

/// One sound the game ships.
pub struct Sound {
    /// File stem: "shuffle" → assets/sounds/shuffle.wav
    pub name: &'static str,
    /// True for seamless loops (ambience, music).
    pub looped: bool,
    pub sample_rate: u32,
    /// 1 or 2.
    pub channels: u16,
    /// Interleaved if stereo, in [-1, 1].
    pub samples: Vec<f32>,
}

/// Measurements used by the tool's `--check` and by tests.
pub struct Stats {
    /// Length in seconds.
    pub seconds: f32,
    /// Largest absolute sample value (1.0 is full scale).
    pub peak: f32,
    /// Time before the first sample whose magnitude exceeds [`SILENCE_THRESHOLD`] (-60 dBFS).
    pub leading_silence_ms: f32,
    /// Loops only: how much the wrap from the last sample to the first stands out from the rest
    /// of the loop. See [`seam_score`]. Around 1 means "like any other pair of neighbours"; a plain
    /// cut through a sound scores in the tens.
    pub seam: Option<f32>,
}

/// -60 dBFS: a sample above this is audible content, for the leading-silence measurement.
pub const SILENCE_THRESHOLD: f32 = 0.001;

/// Effects are short and wide-band: full CD rate keeps the clicks and clacks crisp.
const EFFECT_RATE: u32 = 44_100;
/// Loops are long and dark: half rate halves the download.
const LOOP_RATE: u32 = 22_050;
/// -3 dBFS: every effect peaks here, leaving headroom for the mixer to stack a few.
const EFFECT_PEAK: f32 = 0.708;
/// -6 dBFS: beds sit under the effects.
const LOOP_PEAK: f32 = 0.5;

/// Every sound, synthesized deterministically (same bytes every run, every machine: fixed seeds,
/// no time/entropy).
pub fn sounds() -> Vec<Sound> {
    vec![
        effect("shuffle", shuffle()),
        effect("card-slide", card_slide()),
        effect("card-flip", card_flip()),
        effect("chip", chip()),
        effect("chip-stack", chip_stack()),
        effect("button", button()),
        effect("win", win()),
        effect("blackjack", blackjack()),
        effect("lose", lose()),
        effect("push", push()),
        effect("dealer-bust", dealer_bust()),
        effect("your-turn", your_turn()),
        looped("ambience", ambience()),
        looped("music", music()),
    ]
}

/// 16-bit PCM WAV bytes of a sound, so the tool can both write and compare with the committed file.
pub fn wav_bytes(sound: &Sound) -> Result<Vec<u8>, String> {
    let spec = hound::WavSpec {
        channels: sound.channels,
        sample_rate: sound.sample_rate,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut bytes = Vec::new();
    let mut writer = hound::WavWriter::new(Cursor::new(&mut bytes), spec)
        .map_err(|e| format!("{}: {e}", sound.name))?;
    for &x in &sound.samples {
        writer
            .write_sample(to_i16(x))
            .map_err(|e| format!("{}: {e}", sound.name))?;
    }
    writer
        .finalize()
        .map_err(|e| format!("{}: {e}", sound.name))?;
    Ok(bytes)
}

/// Measurements used by the tool's `--check` and by tests.
pub fn stats(sound: &Sound) -> Stats {
    let channels = usize::from(sound.channels.max(1));
    let frames = sound.samples.len() / channels;
    let rate = sound.sample_rate as f32;
    let peak = sound.samples.iter().fold(0.0f32, |m, x| m.max(x.abs()));
    let first_loud = sound
        .samples
        .iter()
        .position(|x| x.abs() > SILENCE_THRESHOLD)
        .map_or(frames, |i| i / channels);
    let seam = sound.looped.then(|| {
        (0..channels)
            .map(|c| {
                let channel: Vec<f32> = sound
                    .samples
                    .iter()
                    .skip(c)
                    .step_by(channels)
                    .copied()
                    .collect();
                seam_score(&channel)
            })
            .fold(0.0, f32::max)
    });
    Stats {
        seconds: frames as f32 / rate,
        peak,
        leading_silence_ms: first_loud as f32 * 1000.0 / rate,
        seam,
    }
}

/// How much the loop point of a mono loop stands out from its surroundings.
///
/// The measure is a prediction test. We fit a 32nd-order linear predictor to the whole loop
/// (autocorrelation method, taken cyclically) and predict every sample from the 32 before it,
/// wrapping round the end. Wherever the sound carries on the way it was going, the prediction
/// error is small; a step, a kink or a sudden change of texture is exactly what such a predictor
/// cannot foresee. The score is the RMS error over the 32 samples just after the wrap (the ones
/// predicted from both sides of it) divided by the RMS error over the 512 samples on either side.
///
/// A loop that really is periodic scores about 1: its wrap is just another stretch of the sound.
/// A plain cut through a bed like the ambience scores about 10 to 60, as the cut throws in a step the
/// size of the signal itself where the predictor expected a continuation. One blind spot: a note
/// onset is also unpredictable, so on a musical loop a cut can hide among the onsets (the music
/// is periodic by construction instead, and its test checks that too).
pub fn seam_score(x: &[f32]) -> f32 {
    const ORDER: usize = 32;
    const CONTEXT: usize = 512;
    let n = x.len();
    if n < 64 * ORDER {
        return f32::INFINITY;
    }
    let at = |i: isize| f64::from(x[i.rem_euclid(n as isize) as usize]);
    // Cyclic autocorrelation.
    let r: Vec<f64> = (0..=ORDER)
        .map(|lag| {
            (0..n)
                .map(|i| at(i as isize) * at((i + lag) as isize))
                .sum()
        })
        .collect();
    if r[0] <= 0.0 {
        return 0.0;
    }
    // Levinson-Durbin, with a touch of white-noise regularisation so silence-like stretches
    // cannot make the recursion unstable.
    let mut a = [0.0f64; ORDER + 1];
    let mut error = r[0] * (1.0 + 1e-9);
    for m in 1..=ORDER {
        let acc: f64 = r[m] - (1..m).map(|k| a[k] * r[m - k]).sum::<f64>();
        let reflection = acc / error;
        let previous = a;
        a[m] = reflection;
        for k in 1..m {
            a[k] = previous[k] - reflection * previous[m - k];
        }
        error *= 1.0 - reflection * reflection;
    }
    let residual = |i: usize| {
        let predicted: f64 = (1..=ORDER)
            .map(|k| a[k] * at(i as isize - k as isize))
            .sum();
        (at(i as isize) - predicted).abs()
    };
    // The samples predicted across the wrap, against the neighbourhood on both sides.
    let rms = |range: std::ops::Range<isize>| {
        let len = range.len() as f64;
        (range
            .map(|i| residual(i.rem_euclid(n as isize) as usize).powi(2))
            .sum::<f64>()
            / len)
            .sqrt()
    };
    let seam = rms(0..ORDER as isize);
    let context =
        0.5 * (rms(-(CONTEXT as isize)..0) + rms(ORDER as isize..(ORDER + CONTEXT) as isize));
    if context > 0.0 {
        (seam / context) as f32
    } else if seam > 0.0 {
        f32::INFINITY
    } else {
        0.0
    }
}

fn effect(name: &'static str, samples: Vec<f32>) -> Sound {
    Sound {
        name,
        looped: false,
        sample_rate: EFFECT_RATE,
        channels: 1,
        samples: finish_effect(samples),
    }
}

fn looped(name: &'static str, samples: Vec<f32>) -> Sound {
    Sound {
        name,
        looped: true,
        sample_rate: LOOP_RATE,
        channels: 1,
        samples: normalise(samples, LOOP_PEAK),
    }
}

fn to_i16(x: f32) -> i16 {
    (x.clamp(-1.0, 1.0) * 32767.0).round() as i16
}

// ---------------------------------------------------------------------------------------------
// Building blocks
// ---------------------------------------------------------------------------------------------

/// SplitMix64: tiny, well mixed, and the same everywhere. Used for the choices a human would
/// vary from one card or chip to the next.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[(self.next_u64() % items.len() as u64) as usize]
    }
}

fn frames(rate: u32, seconds: f32) -> usize {
    (seconds * rate as f32).round() as usize
}

/// Equal-tempered frequency of a MIDI note number (69 = A4 = 440 Hz).
fn midi(note: i32) -> f32 {
    440.0 * 2f32.powf((note - 69) as f32 / 12.0)
}

/// Seeded white noise in [-1, 1].
fn noise(rate: u32, n: usize, seed: u64) -> Vec<f32> {
    let mut node = fs::noise().seed(seed);
    node.set_sample_rate(f64::from(rate));
    (0..n).map(|_| node.get_mono()).collect()
}

/// Runs a one-in, one-out FunDSP filter over a buffer.
fn filter<X: AudioNode<Inputs = U1, Outputs = U1>>(
    mut node: An<X>,
    rate: u32,
    input: &[f32],
) -> Vec<f32> {
    node.set_sample_rate(f64::from(rate));
    node.reset();
    input.iter().map(|&x| node.filter_mono(x)).collect()
}

/// Runs a filter over a periodic signal so that the result is periodic too: two periods go in,
/// the second comes out, by which time the filter has forgotten that it started from rest.
fn periodic<X: AudioNode<Inputs = U1, Outputs = U1>>(
    node: An<X>,
    rate: u32,
    input: &[f32],
) -> Vec<f32> {
    let twice = [input, input].concat();
    filter(node, rate, &twice).split_off(input.len())
}

/// FunDSP's 32-line FDN reverb, mono in and out (the two outputs averaged). With `loop_input` the
/// input is treated as one period of a loop, as in [`periodic`].
fn reverb(input: &[f32], rate: u32, room: f32, time: f32, wet: f32, loop_input: bool) -> Vec<f32> {
    let mut node = fs::reverb_stereo(room, time, 0.6);
    node.set_sample_rate(f64::from(rate));
    node.reset();
    if loop_input {
        for &x in input {
            node.filter_stereo(x, x);
        }
    }
    input
        .iter()
        .map(|&x| {
            let (l, r) = node.filter_stereo(x, x);
            x + wet * 0.5 * (l + r)
        })
        .collect()
}

/// An exponentially decaying sine partial that starts at phase zero (so at zero amplitude, with
/// no step), with a raised-cosine attack of `attack` seconds.
fn partial(rate: u32, n: usize, freq: f32, amp: f32, attack: f32, tau: f32) -> Vec<f32> {
    let mut osc = fs::sine_hz(freq).phase(0.0);
    osc.set_sample_rate(f64::from(rate));
    let dt = 1.0 / rate as f32;
    (0..n)
        .map(|i| {
            let t = i as f32 * dt;
            amp * rise(t, attack) * (-t / tau).exp() * osc.get_mono()
        })
        .collect()
}

/// A sine whose frequency follows `freq(t)`, driven through FunDSP's `sine()` frequency input.
fn glide(rate: u32, n: usize, freq: impl Fn(f32) -> f32) -> Vec<f32> {
    let mut osc = fs::sine().phase(0.0);
    osc.set_sample_rate(f64::from(rate));
    let dt = 1.0 / rate as f32;
    (0..n)
        .map(|i| osc.tick(&[freq(i as f32 * dt)].into())[0])
        .collect()
}

/// 0 → 1 over `attack` seconds along a raised cosine; 1 afterwards.
fn rise(t: f32, attack: f32) -> f32 {
    if attack <= 0.0 || t >= attack {
        1.0
    } else {
        0.5 - 0.5 * (PI * t / attack).cos()
    }
}

/// A noise burst with an instant start and exponential decay: the excitation of a click.
fn burst(rate: u32, seconds: f32, tau: f32, seed: u64) -> Vec<f32> {
    let dt = 1.0 / rate as f32;
    noise(rate, frames(rate, seconds), seed)
        .into_iter()
        .enumerate()
        .map(|(i, x)| x * (-(i as f32 * dt) / tau).exp())
        .collect()
}

/// Adds `src` into `dst` starting at `start`, dropping what falls past the end.
fn mix(dst: &mut [f32], start: usize, src: &[f32], gain: f32) {
    for (d, s) in dst.iter_mut().skip(start).zip(src) {
        *d += gain * s;
    }
}

/// Adds `src` into the loop `dst` starting at `start`, wrapping past the end to the beginning.
fn mix_wrapped(dst: &mut [f32], start: usize, src: &[f32], gain: f32) {
    let n = dst.len();
    for (i, s) in src.iter().enumerate() {
        dst[(start + i) % n] += gain * s;
    }
}

/// Root-mean-square level of a buffer.
fn rms(x: &[f32]) -> f32 {
    (x.iter().map(|v| v * v).sum::<f32>() / x.len().max(1) as f32).sqrt()
}

/// Scales a buffer so that its peak is `peak`.
fn normalise(mut x: Vec<f32>, peak: f32) -> Vec<f32> {
    let max = x.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    if max > 0.0 {
        let gain = peak / max;
        x.iter_mut().for_each(|v| *v *= gain);
    }
    x
}

/// The common end of every effect: DC removed, a 0.3 ms fade-in (so even a sound that starts on a
/// noise sample starts from zero), a raised-cosine fade-out over the last 15 % (at most 40 ms) so
/// nothing is cut off with a click, and the -3 dBFS peak.
fn finish_effect(x: Vec<f32>) -> Vec<f32> {
    let mut x = filter(fs::dcblock_hz(12.0), EFFECT_RATE, &x);
    let n = x.len();
    let fade_in = frames(EFFECT_RATE, 0.0003);
    let fade_out = (n * 15 / 100).min(frames(EFFECT_RATE, 0.04));
    for (i, v) in x.iter_mut().take(fade_in).enumerate() {
        *v *= rise(i as f32, fade_in as f32);
    }
    for (i, v) in x.iter_mut().rev().take(fade_out).enumerate() {
        // Reaches exactly zero on the last sample.
        *v *= rise(i as f32, (fade_out - 1) as f32);
    }
    normalise(x, EFFECT_PEAK)
}

// ---------------------------------------------------------------------------------------------
// Card sounds
// ---------------------------------------------------------------------------------------------

/// One card edge flicking off the thumb: a millisecond of noise rung through a band-pass at the
/// pitch of stiff card (2–5 kHz). Different centres keep a run of them from sounding like a
/// machine gun.
fn card_click(rate: u32, centre: f32, tau: f32, seed: u64) -> Vec<f32> {
    let excite = burst(rate, 0.008, tau, seed);
    let ring = filter(fs::bandpass_hz(centre, 1.6), rate, &excite);
    let body = filter(fs::lowpass_hz(900.0, 0.7), rate, &excite);
    ring.iter().zip(&body).map(|(r, b)| r + 0.25 * b).collect()
}

/// A riffle shuffle, about 1.2 s. Two half-decks are released edge by edge: clicks that start
/// about 30 ms apart and accelerate to under 10 ms as the thumbs speed up, over a soft paper
/// rustle. Then the bridge: the cards are arched and let cascade back into one deck, a dense
/// "brrr" of lower, overlapping flutters under a short whoosh.
fn shuffle() -> Vec<f32> {
    let rate = EFFECT_RATE;
    let total = 1.2;
    let riffle_end = 0.80;
    let bridge = (0.83, 1.14);
    let mut out = vec![0.0; frames(rate, total)];
    let mut rng = Rng(0x5348_5546);

    // The riffle. The first click sits on sample 0: the sound starts with the gesture.
    let mut t = 0.0f32;
    let mut seed = 100;
    while t < riffle_end {
        let progress = t / riffle_end;
        let centre = rng.range(2200.0, 4800.0);
        let gain = rng.range(0.55, 1.0) * (0.7 + 0.3 * progress);
        let click = card_click(rate, centre, rng.range(0.0004, 0.0008), seed);
        mix(&mut out, frames(rate, t), &click, gain);
        seed += 1;
        let gap = 0.030 * (0.008f32 / 0.030).powf(progress);
        t += gap * rng.range(0.75, 1.25);
    }
    // Paper rustle under the riffle, following its density.
    let n_riffle = frames(rate, riffle_end + 0.05);
    let rustle = filter(
        fs::bandpass_hz(1600.0, 0.7),
        rate,
        &filter(fs::pinkpass(), rate, &noise(rate, n_riffle, 7)),
    );
    let dt = 1.0 / rate as f32;
    for (i, r) in rustle.iter().enumerate() {
        let t = i as f32 * dt;
        let env =
            rise(t, 0.01) * (0.4 + 0.6 * t / riffle_end).min(1.0) * fade_out(t, riffle_end, 0.05);
        out[i] += 0.6 * env * r;
    }

    // The bridge: flutters every 3–4.5 ms, softer and darker, swelling and dying away.
    let (b0, b1) = bridge;
    let mut t = b0;
    while t < b1 {
        let u = (t - b0) / (b1 - b0);
        let swell = (PI * u).sin().powf(0.6);
        let click = card_click(rate, rng.range(1300.0, 2800.0), 0.0007, seed);
        mix(
            &mut out,
            frames(rate, t),
            &click,
            0.8 * swell * rng.range(0.6, 1.0),
        );
        seed += 1;
        t += rng.range(0.003, 0.0045);
    }
    let n_bridge = frames(rate, b1 - b0 + 0.04);
    let whoosh = filter(fs::lowpass_hz(2200.0, 0.6), rate, &noise(rate, n_bridge, 8));
    for (i, w) in whoosh.iter().enumerate() {
        let u = i as f32 / n_bridge as f32;
        out[frames(rate, b0) + i] += 0.2 * (PI * u).sin().powi(2) * w;
    }
    out
}

/// 1 until `end - width`, then a raised-cosine fall to 0 at `end`.
fn fade_out(t: f32, end: f32, width: f32) -> f32 {
    if t <= end - width {
        1.0
    } else if t >= end {
        0.0
    } else {
        0.5 + 0.5 * (PI * (t - (end - width)) / width).cos()
    }
}

/// A card slid across felt, 0.25 s: pink noise through a band-pass whose centre rises as the card
/// speeds up (friction gets brighter with speed), with a little slow flutter in the level so it
/// reads as fabric rather than hiss. It starts audibly (the finger is already pushing) and glides
/// out.
fn card_slide() -> Vec<f32> {
    let rate = EFFECT_RATE;
    let n = frames(rate, 0.25);
    let dt = 1.0 / rate as f32;
    let pink = filter(fs::pinkpass(), rate, &noise(rate, n, 21));
    let flutter = filter(fs::lowpass_hz(25.0, 0.7), rate, &noise(rate, n, 22));
    let mut band = fs::bandpass();
    band.set_sample_rate(f64::from(rate));
    let fibres = filter(fs::highpass_hz(5500.0, 0.7), rate, &noise(rate, n, 23));
    (0..n)
        .map(|i| {
            let t = i as f32 * dt;
            let u = t / 0.25;
            let centre = 900.0 + 1700.0 * (u * 1.6).min(1.0);
            let x = band.tick(&[pink[i], centre, 0.8].into())[0];
            let env = (0.35 + 0.65 * rise(t, 0.03)) * (1.0 - u).powf(1.5);
            env * (1.0 + 3.0 * flutter[i]) * (x + 0.08 * fibres[i])
        })
        .collect()
}

/// A card turned over, 0.15 s: the crisp snap of the edge leaving the finger (a short bright
/// click), the air of the face flapping over, and the soft tap of the card landing on felt.
fn card_flip() -> Vec<f32> {
    let rate = EFFECT_RATE;
    let n = frames(rate, 0.15);
    let dt = 1.0 / rate as f32;
    let mut out = vec![0.0; n];

    let snap_excite = burst(rate, 0.01, 0.0004, 31);
    let snap = filter(fs::highpass_hz(1200.0, 0.7), rate, &snap_excite);
    let snap_ring = filter(fs::bandpass_hz(3300.0, 4.0), rate, &snap_excite);
    mix(&mut out, 0, &snap, 0.8);
    mix(&mut out, 0, &snap_ring, 1.2);

    let air = filter(
        fs::bandpass_hz(1900.0, 0.9),
        rate,
        &filter(fs::pinkpass(), rate, &noise(rate, frames(rate, 0.08), 32)),
    );
    let air: Vec<f32> = air
        .iter()
        .enumerate()
        .map(|(i, x)| {
            let t = i as f32 * dt;
            x * (-((t - 0.03) / 0.016).powi(2)).exp()
        })
        .collect();
    mix(&mut out, 0, &air, 1.4);

    let land = frames(rate, 0.064);
    let tap = filter(
        fs::lowpass_hz(1800.0, 0.7),
        rate,
        &burst(rate, 0.02, 0.001, 33),
    );
    mix(&mut out, land, &tap, 0.5);
    let thud = partial(rate, frames(rate, 0.06), 190.0, 0.25, 0.001, 0.012);
    mix(&mut out, land, &thud, 1.0);
    out
}

// ---------------------------------------------------------------------------------------------
// Chips
// ---------------------------------------------------------------------------------------------

/// One clay chip striking another, about 0.13 s. Clay composite chips ring briefly at a handful
/// of inharmonic modes between 2 and 7 kHz; the ear hears that cluster as the "clack". A
/// half-millisecond noise tick gives the contact, a faint low thump the felt underneath, and a
/// second, weaker contact 2.5 ms later the chip settling flat. `pitch` scales the modes (chips
/// vary), `seed` picks the noise.
fn clack(rate: u32, pitch: f32, seed: u64) -> Vec<f32> {
    const MODES: [(f32, f32, f32); 6] = [
        (1250.0, 0.25, 0.010),
        (2350.0, 1.00, 0.018),
        (3650.0, 0.80, 0.012),
        (5100.0, 0.50, 0.008),
        (6900.0, 0.28, 0.005),
        (8200.0, 0.12, 0.003),
    ];
    let n = frames(rate, 0.13);
    let mut one = vec![0.0; n];
    for &(freq, amp, tau) in &MODES {
        mix(
            &mut one,
            0,
            &partial(rate, n, freq * pitch, amp, 0.0002, tau),
            1.0,
        );
    }
    let tick = filter(
        fs::highpass_hz(2000.0, 0.7),
        rate,
        &burst(rate, 0.004, 0.0005, seed),
    );
    mix(&mut one, 0, &tick, 0.9);
    mix(
        &mut one,
        0,
        &partial(rate, n, 260.0, 0.2, 0.0005, 0.008),
        1.0,
    );

    let mut out = one.clone();
    mix(&mut out, frames(rate, 0.0025), &one, 0.4);
    out
}

/// A single chip set down, 0.15 s.
fn chip() -> Vec<f32> {
    let mut out = vec![0.0; frames(EFFECT_RATE, 0.15)];
    mix(&mut out, 0, &clack(EFFECT_RATE, 1.0, 41), 1.0);
    out
}

/// Chips clacking onto a stack, 0.5 s: six clacks at slightly uneven intervals, each chip a touch
/// different in pitch and force, the last followed by two tiny rattles as the stack settles.
fn chip_stack() -> Vec<f32> {
    let rate = EFFECT_RATE;
    let mut out = vec![0.0; frames(rate, 0.5)];
    let mut rng = Rng(0xC41F);
    let hits = [
        (0.000, 1.00),
        (0.066, 0.80),
        (0.127, 0.92),
        (0.196, 0.74),
        (0.259, 0.86),
        (0.331, 0.66),
        (0.345, 0.22),
        (0.356, 0.12),
    ];
    for (k, &(t, gain)) in hits.iter().enumerate() {
        let pitch = rng.range(0.95, 1.05);
        mix(
            &mut out,
            frames(rate, t),
            &clack(rate, pitch, 50 + k as u64),
            gain,
        );
    }
    out
}

/// A soft UI tick, 0.08 s: a small wooden-sounding "tock" (1.5 kHz with a fainter octave, both
/// dying within a few milliseconds) rounded off by a low-pass so it never pokes out.
fn button() -> Vec<f32> {
    let rate = EFFECT_RATE;
    let n = frames(rate, 0.08);
    let mut out = partial(rate, n, 1500.0, 1.0, 0.0005, 0.007);
    mix(
        &mut out,
        0,
        &partial(rate, n, 3020.0, 0.3, 0.0005, 0.003),
        1.0,
    );
    mix(
        &mut out,
        0,
        &partial(rate, n, 620.0, 0.25, 0.0008, 0.009),
        1.0,
    );
    let tick = filter(
        fs::lowpass_hz(4000.0, 0.7),
        rate,
        &burst(rate, 0.003, 0.0003, 61),
    );
    mix(&mut out, 0, &tick, 0.2);
    filter(fs::lowpass_hz(5000.0, 0.7), rate, &out)
}

// ---------------------------------------------------------------------------------------------
// Result chimes
// ---------------------------------------------------------------------------------------------

/// A struck bar, vibraphone-like: a fundamental with a slightly detuned twin (a slow, warm
/// beating), the bar's tuned 4th partial, a soft octave, and a brief high strike partial that
/// gives the mallet its tick. `bright` scales the upper partials.
fn chime(rate: u32, freq: f32, seconds: f32, tau: f32, bright: f32) -> Vec<f32> {
    let n = frames(rate, seconds);
    let mut out = partial(rate, n, freq, 0.8, 0.002, tau);
    mix(
        &mut out,
        0,
        &partial(rate, n, freq * 1.0018, 0.2, 0.002, tau),
        1.0,
    );
    mix(
        &mut out,
        0,
        &partial(rate, n, freq * 2.0, 0.12 * bright, 0.002, tau * 0.5),
        1.0,
    );
    mix(
        &mut out,
        0,
        &partial(rate, n, freq * 4.0, 0.2 * bright, 0.001, tau * 0.25),
        1.0,
    );
    mix(
        &mut out,
        0,
        &partial(rate, n, freq * 9.2, 0.05 * bright, 0.0005, 0.012),
        1.0,
    );
    out
}

/// A muted, rounded tone: sine with a little second and third harmonic, its pitch following
/// `freq(t)`, under a low-pass. For the sounds that should not sparkle.
fn soft_tone(rate: u32, n: usize, freq: impl Fn(f32) -> f32 + Copy, tau: f32) -> Vec<f32> {
    let dt = 1.0 / rate as f32;
    let h1 = glide(rate, n, freq);
    let h2 = glide(rate, n, move |t| 2.0 * freq(t));
    let h3 = glide(rate, n, move |t| 3.0 * freq(t));
    let raw: Vec<f32> = (0..n)
        .map(|i| {
            let t = i as f32 * dt;
            rise(t, 0.005) * (-t / tau).exp() * (h1[i] + 0.3 * h2[i] + 0.08 * h3[i])
        })
        .collect();
    filter(fs::lowpass_hz(1100.0, 0.6), rate, &raw)
}

/// Win, 0.7 s: a rising major triad (E5, G5, C6) struck in quick succession, the top note left to
/// ring, with a little room around it.
fn win() -> Vec<f32> {
    let rate = EFFECT_RATE;
    let mut out = vec![0.0; frames(rate, 0.7)];
    for (k, &(note, t)) in [(76, 0.0), (79, 0.085), (84, 0.17)].iter().enumerate() {
        let tau = if k == 2 { 0.34 } else { 0.26 };
        mix(
            &mut out,
            frames(rate, t),
            &chime(rate, midi(note), 0.7, tau, 1.0),
            1.0,
        );
    }
    reverb(&out, rate, 10.0, 0.9, 0.18, false)
}

/// Blackjack, 1.2 s: a fast, bright two-octave C major arpeggio running up into a ringing chord,
/// sprinkled with a few high glints, and a bigger room than the plain win.
fn blackjack() -> Vec<f32> {
    let rate = EFFECT_RATE;
    let mut out = vec![0.0; frames(rate, 1.2)];
    let run = [72, 76, 79, 84, 88, 91];
    for (k, &note) in run.iter().enumerate() {
        let t = 0.06 * k as f32;
        mix(
            &mut out,
            frames(rate, t),
            &chime(rate, midi(note), 1.2, 0.22, 1.3),
            0.8,
        );
    }
    for &note in &[84, 88, 91, 96] {
        mix(
            &mut out,
            frames(rate, 0.40),
            &chime(rate, midi(note), 0.8, 0.42, 1.2),
            0.5,
        );
    }
    let mut rng = Rng(0xB1AC);
    for _ in 0..7 {
        let t = rng.range(0.42, 0.85);
        let glint = partial(
            rate,
            frames(rate, 0.15),
            rng.range(3500.0, 6000.0),
            0.12,
            0.001,
            0.03,
        );
        mix(&mut out, frames(rate, t), &glint, 1.0);
    }
    reverb(&out, rate, 14.0, 1.2, 0.25, false)
}

/// Lose, 0.6 s: two low, muted notes stepping down a major third (C4 to A-flat 3), the second
/// sagging slightly in pitch like a sigh. Low-passed so it disappoints without grating.
fn lose() -> Vec<f32> {
    let rate = EFFECT_RATE;
    let mut out = vec![0.0; frames(rate, 0.6)];
    let first = soft_tone(rate, frames(rate, 0.4), |_| midi(60), 0.16);
    mix(&mut out, 0, &first, 1.0);
    let (f2, sag) = (midi(56), 0.97);
    let second = soft_tone(
        rate,
        frames(rate, 0.42),
        move |t| f2 * (1.0 + (sag - 1.0) * (t / 0.4).min(1.0)),
        0.2,
    );
    mix(&mut out, frames(rate, 0.18), &second, 1.0);
    out
}

/// Push, 0.5 s: the same soft G4 twice, neither up nor down: nothing won, nothing lost.
fn push() -> Vec<f32> {
    let rate = EFFECT_RATE;
    let mut out = vec![0.0; frames(rate, 0.5)];
    for &(t, gain) in &[(0.0, 1.0), (0.17, 0.85)] {
        let tone = soft_tone(rate, frames(rate, 0.33), |_| midi(67), 0.11);
        mix(&mut out, frames(rate, t), &tone, gain);
    }
    out
}

/// Dealer bust, 0.8 s: a cartoonish "womp" sliding down an octave (the dealer's hand collapsing),
/// answered by a bright upward fourth (the player's reward).
fn dealer_bust() -> Vec<f32> {
    let rate = EFFECT_RATE;
    let mut out = vec![0.0; frames(rate, 0.8)];
    let womp_n = frames(rate, 0.34);
    let womp = soft_tone(
        rate,
        womp_n,
        |t| midi(74) * 0.5f32.powf((t / 0.3).min(1.0)) * (1.0 + 0.012 * (TAU * 7.0 * t).sin()),
        0.5,
    );
    let dt = 1.0 / rate as f32;
    let womp: Vec<f32> = womp
        .iter()
        .enumerate()
        .map(|(i, x)| x * fade_out(i as f32 * dt, 0.34, 0.08))
        .collect();
    mix(&mut out, 0, &womp, 1.1);
    mix(
        &mut out,
        frames(rate, 0.35),
        &chime(rate, midi(74), 0.45, 0.2, 1.0),
        0.55,
    );
    mix(
        &mut out,
        frames(rate, 0.45),
        &chime(rate, midi(79), 0.35, 0.24, 1.0),
        0.6,
    );
    reverb(&out, rate, 10.0, 0.7, 0.12, false)
}

/// Your turn, 0.4 s: a gentle up-a-fourth doorbell (A5 then D6) with the brightness turned down.
fn your_turn() -> Vec<f32> {
    let rate = EFFECT_RATE;
    let mut out = vec![0.0; frames(rate, 0.4)];
    mix(&mut out, 0, &chime(rate, midi(81), 0.4, 0.12, 0.45), 1.0);
    mix(
        &mut out,
        frames(rate, 0.11),
        &chime(rate, midi(86), 0.29, 0.15, 0.45),
        0.9,
    );
    out
}

// ---------------------------------------------------------------------------------------------
// Loops
// ---------------------------------------------------------------------------------------------

/// Vowel formant pairs (F1, F2 in Hz) for the murmuring voices: a, i, e, ɛ, u, o, ʌ.
const VOWELS: [(f32, f32); 7] = [
    (730.0, 1090.0),
    (270.0, 2290.0),
    (530.0, 1840.0),
    (660.0, 1720.0),
    (300.0, 870.0),
    (570.0, 840.0),
    (440.0, 1020.0),
];

/// One phrase of an unintelligible distant voice: a buzzy glottal source (band-limited saw plus a
/// little breath) with a wandering pitch, through two band-passes that glide between random
/// vowels at syllable rate, with a syllabic level.
fn phrase(rate: u32, seconds: f32, pitch: f32, rng: &mut Rng, seed: u64) -> Vec<f32> {
    let n = frames(rate, seconds);
    let dt = 1.0 / rate as f32;
    // Syllables: each a vowel target and a level.
    let mut syllables = Vec::new();
    let mut t = 0.0;
    while t < seconds + 0.3 {
        let len = rng.range(0.12, 0.26);
        syllables.push((t, len, *rng.pick(&VOWELS), rng.range(0.4, 1.0)));
        t += len;
    }
    let breath = noise(rate, n, seed);
    let mut saw = fs::saw().phase(0.0);
    saw.set_sample_rate(f64::from(rate));
    let (mut f1, mut f2) = (fs::bandpass(), fs::bandpass());
    f1.set_sample_rate(f64::from(rate));
    f2.set_sample_rate(f64::from(rate));
    let drift = rng.range(0.0, TAU);
    let mut k = 0;
    (0..n)
        .map(|i| {
            let t = i as f32 * dt;
            while k + 1 < syllables.len() && syllables[k + 1].0 <= t {
                k += 1;
            }
            let (start, len, (a1, a2), level) = syllables[k];
            let (_, _, (b1, b2), _) = syllables[(k + 1).min(syllables.len() - 1)];
            let u = ((t - start) / len).clamp(0.0, 1.0);
            // Hold the vowel for most of the syllable, then glide to the next one.
            let glide = if u > 0.6 { rise(u - 0.6, 0.4) } else { 0.0 };
            let form1 = a1 + (b1 - a1) * glide;
            let form2 = a2 + (b2 - a2) * glide;
            let f0 =
                pitch * (1.0 - 0.08 * t / seconds) * (1.0 + 0.05 * (TAU * 0.9 * t + drift).sin());
            let source = 0.8 * saw.tick(&[f0].into())[0] + 0.25 * breath[i];
            let voiced = f1.tick(&[source, form1, 5.0].into())[0]
                + 0.6 * f2.tick(&[source, form2, 7.0].into())[0];
            let syllable = (PI * u).sin().powf(0.7);
            let edges = rise(t, 0.05) * fade_out(t, seconds, 0.08);
            voiced * level * (0.25 + 0.75 * syllable) * edges
        })
        .collect()
}

/// A periodic smooth random curve: `knots` random values in [lo, hi] spread evenly around the
/// loop and joined by cosine interpolation, the last knot joining back to the first.
fn smooth_loop(n: usize, knots: usize, lo: f32, hi: f32, rng: &mut Rng) -> Vec<f32> {
    let values: Vec<f32> = (0..knots).map(|_| rng.range(lo, hi)).collect();
    (0..n)
        .map(|i| {
            let pos = i as f32 * knots as f32 / n as f32;
            let k = pos.floor() as usize % knots;
            let u = pos - pos.floor();
            let w = 0.5 - 0.5 * (PI * u).cos();
            values[k] * (1.0 - w) + values[(k + 1) % knots] * w
        })
        .collect()
}

/// The casino floor, a 12 s loop at 22.05 kHz, peaking at -6 dBFS.
///
/// A dozen distant voices talk in phrases of one to three seconds with pauses between, each with
/// its own pitch, distance and vowels; their sum swells and ebbs on a slow random curve, passes a
/// gentle low-pass (distance swallows consonants) and a large, dark reverb (a big room). Beneath
/// it a quiet pink-noise room tone. Three times per loop a slot machine somewhere pays out: a
/// short run of high pentatonic dings, heard mostly through the reverb.
///
/// Periodic by construction: phrases and dings are added modulo the loop length and the filters
/// and reverb see two periods (see the module notes).
fn ambience() -> Vec<f32> {
    let rate = LOOP_RATE;
    let seconds = 12.0;
    let n = frames(rate, seconds);
    let mut rng = Rng(0xA3B1_E4CE);

    let mut voices = vec![0.0; n];
    let mut seed = 1000;
    for _ in 0..12 {
        let pitch = rng.range(95.0, 230.0);
        let distance = rng.range(0.35, 1.0);
        let mut t = rng.range(0.0, 3.0);
        let start = t;
        while t < start + seconds - 1.0 {
            let len = rng.range(0.9, 2.8);
            let words = phrase(rate, len, pitch * rng.range(0.95, 1.05), &mut rng, seed);
            mix_wrapped(&mut voices, frames(rate, t), &words, distance);
            seed += 1;
            t += len + rng.range(0.4, 2.0);
        }
    }
    let swell = smooth_loop(n, 9, 0.65, 1.15, &mut rng);
    voices.iter_mut().zip(&swell).for_each(|(v, s)| *v *= s);
    let voices = periodic(fs::lowpass_hz(1700.0, 0.6), rate, &voices);
    let voices = periodic(fs::highpass_hz(120.0, 0.6), rate, &voices);

    // Slot machines: dry level low, most of their presence comes from the reverb send.
    let mut slots = vec![0.0; n];
    const PENTATONIC: [i32; 6] = [84, 86, 88, 91, 93, 96];
    for &(t, notes) in &[(1.9, 6), (6.6, 4), (10.4, 8)] {
        for k in 0..notes {
            let note = *rng.pick(&PENTATONIC);
            let ding = chime(rate, midi(note), 0.5, 0.16, 0.8);
            mix_wrapped(&mut slots, frames(rate, t + 0.075 * k as f32), &ding, 0.35);
        }
    }

    let room = periodic(
        fs::lowpass_hz(900.0, 0.6),
        rate,
        &periodic(fs::pinkpass(), rate, &noise(rate, n, 1)),
    );

    // Measure the voices and room so the balance does not depend on how loud the synthesis came out.
    let (voice_rms, room_rms, slot_peak) = (
        rms(&voices),
        rms(&room),
        slots.iter().fold(0.0f32, |m, v| m.max(v.abs())),
    );
    let dry: Vec<f32> = (0..n)
        .map(|i| voices[i] / voice_rms + 0.35 * room[i] / room_rms + 0.8 * slots[i] / slot_peak)
        .collect();
    let wet = reverb(&dry, rate, 20.0, 1.8, 0.8, true);
    // Keep the low rumble of the reverb out of small speakers.
    periodic(fs::highpass_hz(60.0, 0.7), rate, &wet)
}

/// A lounge loop at 90 BPM: six bars, exactly 16 s at 22.05 kHz (one beat is exactly 14 700
/// samples), peaking at -6 dBFS.
///
/// Harmony, in C: | Cmaj9 | Am9 | Dm9 | G13 | Em9 A7(b13) | Dm9 G13 | and back to Cmaj9, so the
/// last bar's dominant resolves into the first. The electric piano is two-operator FM (a sine
/// modulating a sine at the same frequency, the modulation depth falling after the strike: the
/// Rhodes "bark" softening into a bell-like tone), in rootless voicings that move by step. The bass
/// walks quarter notes with chromatic approaches into each chord, built additively (a few
/// harmonics, the upper ones dying first, and a felt thump). Brushes: taps on every beat and the
/// swung "and" of two and four, longer swishes on the backbeat.
///
/// Periodic by construction: every note is added modulo the loop length (the last chord rings on
/// into the first bar), and the final reverb sees two periods.
fn music() -> Vec<f32> {
    let rate = LOOP_RATE;
    let beat = 60.0 / 90.0;
    let bars = 6;
    let n = frames(rate, beat * 4.0 * bars as f32);
    let mut ep = vec![0.0; n];
    let mut bass = vec![0.0; n];
    let mut brush = vec![0.0; n];
    let mut rng = Rng(0x10_0A6E);

    // (start beat, length in beats, voicing as MIDI notes)
    const CMAJ9: [i32; 4] = [52, 55, 59, 62];
    const AM9: [i32; 4] = [48, 52, 55, 59];
    const DM9: [i32; 4] = [48, 52, 53, 57];
    const G13: [i32; 4] = [47, 52, 53, 57];
    const EM9: [i32; 4] = [50, 54, 55, 59];
    const A7B13: [i32; 4] = [49, 53, 55, 59];
    let chords: [(f32, f32, [i32; 4]); 8] = [
        (0.0, 4.0, CMAJ9),
        (4.0, 4.0, AM9),
        (8.0, 4.0, DM9),
        (12.0, 4.0, G13),
        (16.0, 2.0, EM9),
        (18.0, 2.0, A7B13),
        (20.0, 2.0, DM9),
        (22.0, 2.0, G13),
    ];
    for &(start, len, voicing) in &chords {
        // Comping: the chord on its downbeat, and for whole-bar chords again on the swung "and"
        // of two, softer and shorter.
        let mut hits = vec![(start, len.min(1.6), 0.85)];
        if len >= 4.0 {
            hits.push((start + 1.0 + 2.0 / 3.0, 1.3, 0.6));
        }
        for (t, hold, velocity) in hits {
            for (k, &note) in voicing.iter().enumerate() {
                // A slight roll from the bottom up, as a hand never lands perfectly flat.
                let at = t * beat + 0.008 * k as f32 + rng.range(0.0, 0.004);
                let v = velocity * rng.range(0.85, 1.0);
                let tone = e_piano(rate, midi(note), hold * beat, v);
                mix_wrapped(&mut ep, frames(rate, at), &tone, 1.0);
            }
        }
    }

    // Walking bass, one note per beat.
    const WALK: [i32; 24] = [
        36, 40, 43, 44, // Cmaj9, approaching A from a half step below
        33, 36, 40, 39, // Am9, approaching D from above
        38, 41, 45, 44, // Dm9, approaching G from above
        31, 35, 38, 41, // G13, stepping down into E
        40, 43, 33, 37, // Em9, A7
        38, 41, 31, 35, // Dm9, G13, leading up into C
    ];
    for (k, &note) in WALK.iter().enumerate() {
        let accent = if k % 2 == 0 { 1.0 } else { 0.85 };
        let tone = upright(
            rate,
            midi(note),
            0.9 * beat,
            accent * rng.range(0.9, 1.0),
            2000 + k as u64,
        );
        mix_wrapped(&mut bass, frames(rate, k as f32 * beat), &tone, 1.0);
    }

    // Brushes.
    for b in 0..bars * 4 {
        let t = b as f32 * beat;
        let backbeat = b % 2 == 1;
        let seed = 3000 + b as u64 * 4;
        if backbeat {
            mix_wrapped(
                &mut brush,
                frames(rate, t),
                &brush_hit(rate, 0.22, 0.07, seed),
                1.0,
            );
            let and = t + beat * 2.0 / 3.0;
            mix_wrapped(
                &mut brush,
                frames(rate, and),
                &brush_hit(rate, 0.08, 0.02, seed + 1),
                0.5,
            );
        } else {
            mix_wrapped(
                &mut brush,
                frames(rate, t),
                &brush_hit(rate, 0.1, 0.025, seed),
                0.6,
            );
        }
    }

    let ep = periodic(fs::lowpass_hz(3200.0, 0.6), rate, &ep);
    let bass = periodic(fs::lowpass_hz(900.0, 0.6), rate, &bass);
    // Balance the stems by their measured loudness: piano in front, bass just under it, brushes
    // a soft texture behind.
    let (ep_rms, bass_rms, brush_rms) = (rms(&ep), rms(&bass), rms(&brush));
    let dry: Vec<f32> = (0..n)
        .map(|i| ep[i] / ep_rms + 0.8 * bass[i] / bass_rms + 0.22 * brush[i] / brush_rms)
        .collect();
    let wet = reverb(&dry, rate, 12.0, 1.3, 0.2, true);
    periodic(fs::dcblock_hz(15.0), rate, &wet)
}

/// One electric-piano note: two-operator FM at 1:1, modulation index falling from about 1.6 to
/// 0.2 (scaled by velocity, so soft notes are rounder), amplitude decaying over about a second and
/// released with a 90 ms fade after `hold` seconds.
fn e_piano(rate: u32, freq: f32, hold: f32, velocity: f32) -> Vec<f32> {
    let release = 0.09;
    let n = frames(rate, hold + release);
    let dt = 1.0 / rate as f32;
    let mut modulator = fs::sine_hz(freq).phase(0.0);
    modulator.set_sample_rate(f64::from(rate));
    let mut carrier = fs::sine().phase(0.0);
    carrier.set_sample_rate(f64::from(rate));
    (0..n)
        .map(|i| {
            let t = i as f32 * dt;
            let index = 0.2 + 1.4 * velocity * (-t / 0.18).exp();
            let m = modulator.get_mono();
            let x = carrier.tick(&[freq * (1.0 + index * m)].into())[0];
            let env = rise(t, 0.003) * (-t / 1.1).exp() * fade_out(t, hold + release, release);
            velocity * env * x
        })
        .collect()
}

/// One upright-bass note: fundamental plus three harmonics that die progressively faster (the
/// bright pluck fades into a round tone), a short low noise thump for the finger on the string,
/// and a 50 ms release after `hold` seconds.
fn upright(rate: u32, freq: f32, hold: f32, velocity: f32, seed: u64) -> Vec<f32> {
    let release = 0.05;
    let n = frames(rate, hold + release);
    let dt = 1.0 / rate as f32;
    let mut x = vec![0.0; n];
    for &(h, amp, tau) in &[
        (1.0, 1.0, 0.6),
        (2.0, 0.5, 0.3),
        (3.0, 0.18, 0.14),
        (4.0, 0.07, 0.08),
    ] {
        mix(&mut x, 0, &partial(rate, n, freq * h, amp, 0.006, tau), 1.0);
    }
    let thump = filter(
        fs::lowpass_hz(350.0, 0.7),
        rate,
        &burst(rate, 0.04, 0.006, seed),
    );
    mix(&mut x, 0, &thump, 0.6);
    x.iter()
        .enumerate()
        .map(|(i, v)| velocity * v * fade_out(i as f32 * dt, hold + release, release))
        .collect()
}

/// A brush on a snare or ride: high band-passed noise with a quick rise and a decay of `tau`
/// seconds; long ones are the backbeat swish, short ones the taps.
fn brush_hit(rate: u32, seconds: f32, tau: f32, seed: u64) -> Vec<f32> {
    let n = frames(rate, seconds);
    let dt = 1.0 / rate as f32;
    let band = filter(fs::bandpass_hz(6000.0, 0.7), rate, &noise(rate, n, seed));
    band.iter()
        .enumerate()
        .map(|(i, x)| {
            let t = i as f32 * dt;
            x * rise(t, 0.006) * (-t / tau).exp() * fade_out(t, seconds, 0.01)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::OnceLock;

    /// A loop whose [`Stats::seam`] is below this wraps without an audible click.
    const SEAMLESS_BELOW: f32 = 3.0;

    /// Expected length range in seconds for each sound, so a slip in a duration is caught and a
    /// forgotten sound too.
    const EXPECTED: [(&str, f32, f32); 14] = [
        ("shuffle", 1.0, 1.4),
        ("card-slide", 0.2, 0.3),
        ("card-flip", 0.1, 0.2),
        ("chip", 0.1, 0.2),
        ("chip-stack", 0.4, 0.6),
        ("button", 0.05, 0.1),
        ("win", 0.6, 0.8),
        ("blackjack", 1.0, 1.4),
        ("lose", 0.5, 0.7),
        ("push", 0.4, 0.6),
        ("dealer-bust", 0.7, 0.9),
        ("your-turn", 0.3, 0.5),
        ("ambience", 10.0, 14.0),
        ("music", 14.0, 18.0),
    ];

    /// Synthesis is slow in an unoptimised test build, so the tests share one rendering.
    fn all() -> &'static [Sound] {
        static ALL: OnceLock<Vec<Sound>> = OnceLock::new();
        ALL.get_or_init(sounds)
    }

    fn named(name: &str) -> &'static Sound {
        all().iter().find(|s| s.name == name).unwrap()
    }

    #[test]
    fn every_sound_is_present_once_with_a_sensible_length() {
        assert_eq!(all().len(), EXPECTED.len());
        for (name, lo, hi) in EXPECTED {
            let matching = all().iter().filter(|s| s.name == name).count();
            assert_eq!(matching, 1, "{name} present once");
            let seconds = stats(named(name)).seconds;
            assert!((lo..=hi).contains(&seconds), "{name}: {seconds} s");
        }
    }

    #[test]
    fn sounds_are_within_level_and_start_at_once() {
        for sound in all() {
            let s = stats(sound);
            assert_eq!(sound.channels, 1, "{}", sound.name);
            assert!(s.peak <= 0.891, "{} clips: peak {}", sound.name, s.peak);
            assert!(
                s.peak >= 0.4,
                "{} is too quiet: peak {}",
                sound.name,
                s.peak
            );
            assert!(
                sound.samples.iter().all(|x| x.is_finite()),
                "{} has NaN or infinity",
                sound.name
            );
            let mean = sound.samples.iter().sum::<f32>() / sound.samples.len() as f32;
            assert!(mean.abs() < 0.005, "{} has DC offset {mean}", sound.name);
            if sound.looped {
                assert_eq!(sound.sample_rate, LOOP_RATE, "{}", sound.name);
            } else {
                assert_eq!(sound.sample_rate, EFFECT_RATE, "{}", sound.name);
                assert!(
                    s.leading_silence_ms < 5.0,
                    "{} starts late: {} ms",
                    sound.name,
                    s.leading_silence_ms
                );
                let last = *sound.samples.last().unwrap();
                assert!(
                    last.abs() < SILENCE_THRESHOLD,
                    "{} ends on {last}",
                    sound.name
                );
                assert_eq!(s.seam, None);
            }
        }
    }

    #[test]
    fn loops_are_seamless() {
        let loops: Vec<&Sound> = all().iter().filter(|s| s.looped).collect();
        assert_eq!(loops.len(), 2);
        for sound in loops {
            let seam = stats(sound).seam.unwrap();
            assert!(seam < SEAMLESS_BELOW, "{} seam {seam}", sound.name);
            // The simplest check too: the jump from the last sample to the first is no bigger
            // than the steps inside the loop.
            let x = &sound.samples;
            let largest = x
                .windows(2)
                .map(|w| (w[1] - w[0]).abs())
                .fold(0.0, f32::max);
            let wrap = (x[0] - x[x.len() - 1]).abs();
            assert!(
                wrap <= largest,
                "{} wraps with a jump of {wrap}",
                sound.name
            );
        }
    }

    #[test]
    fn a_plain_cut_scores_badly() {
        // The ambience cut short of its period must fail the seam measure, or the measure proves
        // nothing.
        let ambience = &named("ambience").samples;
        for fraction in [0.13, 0.31, 0.5, 0.64, 0.77, 0.9] {
            let cut = (ambience.len() as f32 * fraction) as usize;
            let seam = seam_score(&ambience[..cut]);
            assert!(
                seam > 2.0 * SEAMLESS_BELOW,
                "ambience cut at {fraction}: {seam}"
            );
        }
        // A tone cut mid-cycle fails; the same tone cut after a whole number of cycles passes.
        let tone = |cycles: f32| -> Vec<f32> {
            (0..4096)
                .map(|i| (TAU * cycles * i as f32 / 4096.0).sin() * 0.5)
                .collect()
        };
        assert!(seam_score(&tone(24.37)) > 2.0 * SEAMLESS_BELOW);
        assert!(seam_score(&tone(24.0)) < SEAMLESS_BELOW);
    }

    #[test]
    fn music_is_a_whole_number_of_bars() {
        let bar = LOOP_RATE as usize * 60 / 90 * 4;
        assert_eq!(named("music").samples.len() % bar, 0);
    }

    #[test]
    fn synthesis_is_deterministic() {
        let again = sounds();
        assert_eq!(again.len(), all().len());
        for (x, y) in all().iter().zip(&again) {
            assert_eq!(x.name, y.name);
            assert!(x.samples == y.samples, "{} differs between runs", x.name);
            assert_eq!(wav_bytes(x).unwrap(), wav_bytes(y).unwrap());
        }
    }

    #[test]
    fn wav_round_trips_through_hound() {
        let sound = named("chip");
        let bytes = wav_bytes(sound).unwrap();
        let mut reader = hound::WavReader::new(Cursor::new(bytes)).unwrap();
        assert_eq!(reader.spec().sample_rate, EFFECT_RATE);
        assert_eq!(reader.spec().bits_per_sample, 16);
        assert_eq!(reader.spec().channels, 1);
        let read: Vec<i16> = reader.samples::<i16>().map(Result::unwrap).collect();
        assert_eq!(read.len(), sound.samples.len());
        assert_eq!(read[100], to_i16(sound.samples[100]));
    }
}
