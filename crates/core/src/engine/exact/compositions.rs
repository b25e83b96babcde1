//! The hands a question can reach, and the dealer's odds on the shoe each one leaves, for every up card at once.
//!
//! A hand (or a split hand with more pair cards gone) takes its cards out of the shoe and the dealer draws from what is
//! left. One ending's chance is `orders · Π s_r (s_r − 1) ⋯ / L (L − 1) ⋯` (falling products of the counts left, `e_r`
//! factors for a rank the ending draws `e_r` times, `k` factors of the cards left `L` for its `k` cards). Taking one
//! more card of rank `c` out of the shoe multiplies that numerator by `(s_c − e_c) / s_c`, and leaves every ending that
//! draws no `c` as it was. So the compositions are walked as a tree (cards added in rank order, the way Farmer's
//! analyzer lists hands), each step updating only the endings that draw its card, with the numerators summed by
//! (total, cards drawn): a composition's odds are those sums over the falling products of `L`.

use super::dealer::{self, DealerOdds};
use super::{RANKS, Ranks};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// No such composition (a child past 21 that no split needs).
pub(super) const NONE: u32 = u32::MAX;

/// A composition as one number: 6 bits for each rank but the tens, which take the top 8.
pub(super) fn key(cards: &Ranks) -> u64 {
    cards
        .iter()
        .enumerate()
        .fold(0, |key, (rank, &n)| key | u64::from(n) << (6 * rank))
}

/// A hasher for those numbers (they are not chosen by anyone, so no defence against collisions is needed).
#[derive(Default)]
pub(super) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(self.0 ^ u64::from(byte));
        }
    }

    fn write_u64(&mut self, n: u64) {
        let h = n.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = h ^ (h >> 29);
    }
}

/// Maps keyed by compositions.
pub(super) type KeyMap = HashMap<u64, u32, BuildHasherDefault<KeyHasher>>;

/// The hard total of a composition (every ace one).
pub(super) fn hard(cards: &Ranks) -> u32 {
    cards
        .iter()
        .enumerate()
        .map(|(rank, &n)| u32::from(n) * (rank as u32 + 1))
        .sum()
}

/// Every composition `from + X` with a hard total of 21 or less and at least `least` cards, within `limit`, `X`
/// drawn in rank order from `start` (each composition once).
pub(super) fn grow(from: Ranks, start: usize, least: u8, limit: &Ranks, out: &mut Vec<Ranks>) {
    if from.iter().sum::<u8>() >= least {
        out.push(from);
    }
    let total = hard(&from);
    for rank in start..RANKS {
        if total + rank as u32 + 1 > 21 {
            break;
        }
        if from[rank] < limit[rank] {
            let mut next = from;
            next[rank] += 1;
            grow(next, rank, least, limit, out);
        }
    }
}

/// The compositions and the dealer's odds against each, for some up cards.
pub(super) struct Compositions {
    /// Each composition's cards.
    pub(super) cards: Vec<Ranks>,
    /// Its hard total.
    pub(super) hard: Vec<u8>,
    /// Its total as the rules count it (an ace eleven where that does not bust it).
    pub(super) total: Vec<u8>,
    /// The composition with one more card of each rank, or `NONE`.
    pub(super) child: Vec<[u32; RANKS]>,
    /// For each slot (an up card the odds are for), the odds against each composition, in one run so that the
    /// values for one up card read close together; not a number where the route did not want them for that slot
    /// ([`Route::add_for`]).
    odds: Vec<Vec<DealerOdds>>,
}

impl Compositions {
    /// The odds against composition `i` with `ups[slot]` showing (not a number where they were not wanted).
    pub(super) fn odds(&self, i: u32, slot: usize) -> &DealerOdds {
        &self.odds[slot][i as usize]
    }

    /// Where a composition is, if it was listed.
    pub(super) fn find(&self, cards: &Ranks) -> Option<u32> {
        let mut i = 0;
        for (rank, &n) in cards.iter().enumerate() {
            i = self.more(i, rank, n);
        }
        (i != NONE).then_some(i)
    }

    /// `i` with `n` more cards of `rank`.
    pub(super) fn more(&self, mut i: u32, rank: usize, n: u8) -> u32 {
        for _ in 0..n {
            if i == NONE {
                break;
            }
            i = self.child[i as usize][rank];
        }
        i
    }

    /// Lists `needed` (with every composition on the way to each, in rank order) and works out the dealer's odds
    /// against each on `shoe` less the composition and the up card, for each of `ups`. Where there are threads, the
    /// up cards are shared out between two walks of the same tree.
    pub(super) fn new(
        h17: bool,
        shoe: &Ranks,
        ups: &[usize],
        needed: &[Ranks],
        threads: usize,
    ) -> Compositions {
        Compositions::along(Route::new(needed), h17, shoe, ups, threads)
    }

    /// The compositions of `route`, with the dealer's odds against each for the up cards that want them (the others'
    /// odds there are not a number).
    pub(super) fn along(
        route: Route,
        h17: bool,
        shoe: &Ranks,
        ups: &[usize],
        threads: usize,
    ) -> Compositions {
        let plan = Plan::along(route, h17, shoe, ups);
        let shares = share_out(&plan.work, ups.len().min(threads));
        let walks: Vec<Found> = if shares.len() > 1 {
            std::thread::scope(|scope| {
                let handles: Vec<_> = shares
                    .iter()
                    .enumerate()
                    .map(|(n, share)| {
                        let plan = &plan;
                        scope.spawn(move || plan.walk(share, n == 0))
                    })
                    .collect();
                handles.into_iter().map(joined).collect()
            })
        } else {
            shares.iter().map(|share| plan.walk(share, true)).collect()
        };
        plan.assemble(walks, &shares)
    }
}

/// The work of [`Compositions::new`] laid out: the compositions on the way to those needed, each up card's endings,
/// and the tables the walks look up. Each walk of the tree for some of the up cards is a piece that can run apart
/// (on another thread, or a frame apart in the browser); [`Plan::assemble`] puts the pieces together.
pub(super) struct Plan {
    on_the_way: KeyMap,
    slots: Vec<Slot>,
    tables: Tables,
    /// Each slot's share of the walks' work: its endings times the compositions it is walked to.
    work: Vec<u64>,
}

/// A [`Route`]'s entry for a composition holds the ranks the walk goes on by from it (a bit each) below this bit, and
/// from it up the slots (places in the up cards) whose odds are wanted at it or past it.
const SLOT_SHIFT: u32 = 16;
/// The ranks of an entry.
const ONWARDS: u32 = (1 << SLOT_SHIFT) - 1;
/// Every slot, shifted down.
const EVERY_SLOT: u32 = u32::MAX >> SLOT_SHIFT;

/// The compositions on the way to those needed, each with the ranks the walk goes on by from it and the slots that
/// want it, and the most cards any holds: the first half of a [`Plan`], a piece of its own for a caller working in
/// short pieces.
pub(super) struct Route {
    on_the_way: KeyMap,
    deepest: usize,
}

impl Route {
    /// The way to `needed`, the dealer's odds against each wanted for every up card.
    pub(super) fn new(needed: &[Ranks]) -> Route {
        let mut route = Route {
            on_the_way: KeyMap::with_capacity_and_hasher(needed.len(), Default::default()),
            deepest: 0,
        };
        route
            .on_the_way
            .insert(key(&[0; RANKS]), EVERY_SLOT << SLOT_SHIFT);
        for cards in needed {
            route.add(cards, EVERY_SLOT);
        }
        route
    }

    /// Adds the way to `needed` for the up card at `slot` alone: the walk steps the other up cards' odds past none of
    /// them that no other needs.
    pub(super) fn add_for(&mut self, slot: usize, needed: &[Ranks]) {
        for cards in needed {
            self.add(cards, 1 << slot);
        }
    }

    /// Adds `cards` and the compositions on the way to it (in rank order), for `slots`. A composition the slots
    /// already want has every one on the way to it wanted by them as well, so the way up stops there.
    fn add(&mut self, cards: &Ranks, slots: u32) {
        let wanted = slots << SLOT_SHIFT;
        let mut cards = *cards;
        let entry = self.on_the_way.entry(key(&cards)).or_insert(0);
        if *entry & wanted == wanted {
            return;
        }
        *entry |= wanted;
        self.deepest = self
            .deepest
            .max(cards.iter().map(|&n| usize::from(n)).sum());
        while let Some(rank) = (0..RANKS).rev().find(|&rank| cards[rank] > 0) {
            cards[rank] -= 1;
            let entry = self.on_the_way.entry(key(&cards)).or_insert(0);
            let known = *entry & wanted == wanted;
            *entry |= wanted | 1 << rank;
            if known {
                break;
            }
        }
    }
}

impl Plan {
    #[cfg(test)]
    fn new(h17: bool, shoe: &Ranks, ups: &[usize], needed: &[Ranks]) -> Plan {
        Plan::along(Route::new(needed), h17, shoe, ups)
    }

    /// The plan for `route`: each up card's endings, and the tables the walks look up.
    pub(super) fn along(route: Route, h17: bool, shoe: &Ranks, ups: &[usize]) -> Plan {
        let slots: Vec<Slot> = ups.iter().map(|&up| Slot::new(h17, shoe, up)).collect();
        let mut walked = vec![0u64; slots.len()];
        for &entry in route.on_the_way.values() {
            for (slot, walked) in walked.iter_mut().enumerate() {
                *walked += u64::from(entry >> (SLOT_SHIFT + slot as u32) & 1);
            }
        }
        Plan {
            on_the_way: route.on_the_way,
            work: slots
                .iter()
                .zip(walked)
                .map(|(slot, walked)| slot.endings.len() as u64 * walked)
                .collect(),
            slots,
            tables: Tables::new(shoe, route.deepest),
        }
    }

    /// One walk of the tree, for the up cards at `share` (places in `ups`); the first (`list`) also lists the
    /// compositions.
    pub(super) fn walk(&self, share: &[usize], list: bool) -> Found {
        let mut walk = Walk::new(self, share, list);
        while !walk.go_on(self, u64::MAX) {}
        walk.found()
    }

    /// A walk not yet taken, to be taken a few steps at a time ([`Walk::go_on`]).
    pub(super) fn start_walk(&self, share: &[usize], list: bool) -> Walk {
        Walk::new(self, share, list)
    }

    /// The compositions from the walks of `shares` (the first one listing them), every up card in one share.
    pub(super) fn assemble(&self, mut walks: Vec<Found>, shares: &[Vec<usize>]) -> Compositions {
        let mut odds = vec![Vec::new(); self.slots.len()];
        for (walk, share) in walks.iter_mut().zip(shares) {
            for (place, &slot) in share.iter().enumerate() {
                odds[slot] = std::mem::take(&mut walk.odds[place]);
            }
        }
        let first = walks.swap_remove(0);
        let n = first.cards.len();
        // The tree's links, then every other: `cards + c` for c below the last rank is (parent + c) + last rank, a link
        // of a composition with one card fewer and then a link of the tree.
        let mut child = vec![[NONE; RANKS]; n];
        for (i, &(parent, rank)) in first.parent.iter().enumerate().skip(1) {
            child[parent as usize][usize::from(rank)] = i as u32;
        }
        let mut by_size: Vec<u32> = (1..n as u32).collect();
        by_size.sort_by_key(|&i| first.cards[i as usize].iter().sum::<u8>());
        for i in by_size {
            let (parent, last) = first.parent[i as usize];
            for rank in 0..usize::from(last) {
                let beside = child[parent as usize][rank];
                if beside != NONE {
                    child[i as usize][rank] = child[beside as usize][usize::from(last)];
                }
            }
        }
        Compositions {
            hard: first
                .cards
                .iter()
                .map(|cards| hard(cards).min(255) as u8)
                .collect(),
            total: first
                .cards
                .iter()
                .map(|cards| dealer::total(cards).0)
                .collect(),
            cards: first.cards,
            child,
            odds,
        }
    }
}

/// How many threads a whole table uses unless told: two where there are threads (more gain little: the work is a few
/// tens of milliseconds), one in the browser.
pub fn threads() -> usize {
    if cfg!(target_arch = "wasm32") {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(2))
    }
}

/// A scoped thread's result; its panic goes on in the thread that joins it.
pub(super) fn joined<T>(handle: std::thread::ScopedJoinHandle<'_, T>) -> T {
    handle
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e))
}

/// The slots shared out into `ways` lists of about equal `work`.
fn share_out(work: &[u64], ways: usize) -> Vec<Vec<usize>> {
    let ways = ways.max(1);
    let mut order: Vec<usize> = (0..work.len()).collect();
    order.sort_by_key(|&s| std::cmp::Reverse(work[s]));
    let mut shares = vec![(0u64, Vec::new()); ways];
    for s in order {
        if let Some(least) = shares.iter_mut().min_by_key(|(done, _)| *done) {
            least.0 += work[s];
            least.1.push(s);
        }
    }
    shares
        .into_iter()
        .map(|(_, mut share)| {
            share.sort_unstable();
            share
        })
        .filter(|share| !share.is_empty())
        .collect()
}

/// Ratios and falling products the walk looks up instead of dividing.
struct Tables {
    /// `ratios[s][e]`: (s − e) / s, what taking one card of a rank with `s` left does to an ending drawing `e` of it.
    ratios: Vec<[f64; 16]>,
    /// `inverse_falling[d][k]`: 1 / L (L − 1) ⋯ (k factors) where L is the shoe less the up card less `d` cards.
    inverse_falling: Vec<[f64; 16]>,
}

impl Tables {
    fn new(shoe: &Ranks, deepest: usize) -> Tables {
        let most = shoe.iter().copied().max().unwrap_or(0);
        let ratios = (0..=most)
            .map(|left| {
                std::array::from_fn(|e| {
                    if left == 0 {
                        0.0
                    } else {
                        (f64::from(left) - e as f64).max(0.0) / f64::from(left)
                    }
                })
            })
            .collect();
        let shoe_left: u32 = shoe
            .iter()
            .map(|&n| u32::from(n))
            .sum::<u32>()
            .saturating_sub(1);
        let inverse_falling = (0..=deepest)
            .map(|drawn| {
                let left = f64::from(shoe_left) - drawn as f64;
                let mut inverse = [0.0; 16];
                let mut falling = 1.0;
                for (k, slot) in inverse.iter_mut().enumerate() {
                    if falling > 0.0 {
                        *slot = 1.0 / falling;
                    }
                    let n = left - k as f64;
                    falling = if n > 0.0 { falling * n } else { 0.0 };
                }
                inverse
            })
            .collect();
        Tables {
            ratios,
            inverse_falling,
        }
    }
}

/// One up card's endings, and how the walk updates them.
struct Slot {
    up: usize,
    /// The shoe less the up card.
    base: Ranks,
    base_left: u32,
    endings: &'static [dealer::Ending],
    /// Each ending's (total, cards drawn) group.
    group_of: Vec<u32>,
    /// The groups: the total's index (0 for 17) and the cards drawn.
    groups: Vec<(usize, u8)>,
    /// For each rank, the endings that draw it (this slot's index, and how many of it), by group.
    drawing: [Vec<(u32, u8)>; RANKS],
    /// For each rank, the runs of `drawing` in one group: (group, end of the run).
    runs: [Vec<(u32, u32)>; RANKS],
}

impl Slot {
    fn new(h17: bool, shoe: &Ranks, up: usize) -> Slot {
        let mut base = *shoe;
        base[up] = base[up].saturating_sub(1);
        let endings = dealer::endings_from(h17, up);
        let mut groups: Vec<(usize, u8)> = Vec::new();
        let mut group_of = Vec::with_capacity(endings.len());
        let mut drawing: [Vec<(u32, u8)>; RANKS] = Default::default();
        for (i, ending) in endings.iter().enumerate() {
            let group = (usize::from(ending.total - 17), ending.drawn);
            let g = match groups.iter().position(|&g| g == group) {
                Some(g) => g,
                None => {
                    groups.push(group);
                    groups.len() - 1
                }
            };
            group_of.push(g as u32);
            for (list, &n) in drawing.iter_mut().zip(&ending.cards) {
                if n > 0 {
                    list.push((i as u32, n));
                }
            }
        }
        let runs = std::array::from_fn(|rank| {
            drawing[rank].sort_by_key(|&(i, _)| (group_of[i as usize], i));
            let mut runs: Vec<(u32, u32)> = Vec::new();
            for (n, &(i, _)) in drawing[rank].iter().enumerate() {
                let group = group_of[i as usize];
                match runs.last_mut() {
                    Some((last, end)) if *last == group => *end = n as u32 + 1,
                    _ => runs.push((group, n as u32 + 1)),
                }
            }
            runs
        });
        Slot {
            up,
            base,
            base_left: base.iter().map(|&n| u32::from(n)).sum(),
            endings,
            group_of,
            groups,
            runs,
            drawing,
        }
    }
}

/// One step of the walk for one up card: the endings that draw the card taken take its ratio and their groups' sums
/// change by as much; with `undo`, the old numerators are kept there to put back, and without it (a step to a
/// composition the walk does not go on from) only the sums change.
fn step(
    numerators: &mut [f64],
    undo: Option<&mut Vec<f64>>,
    sums: &mut [f64],
    drawing: &[(u32, u8)],
    runs: &[(u32, u32)],
    ratio: &[f64; 16],
) {
    let keep = undo.is_some();
    if let Some(undo) = undo {
        undo.extend(
            drawing
                .iter()
                .map(|&(ending, _)| numerators[ending as usize]),
        );
    }
    let mut start = 0;
    for &(group, end) in runs {
        // Four sums side by side, so the additions need not wait on each other.
        let mut delta = [0.0f64; 4];
        let run = &drawing[start..end as usize];
        let mut chunks = run.chunks_exact(4);
        for chunk in &mut chunks {
            for (lane, &(ending, e)) in chunk.iter().enumerate() {
                let at = ending as usize;
                let old = numerators[at];
                let new = old * ratio[usize::from(e) & 15];
                if keep {
                    numerators[at] = new;
                }
                delta[lane] += new - old;
            }
        }
        for &(ending, e) in chunks.remainder() {
            let at = ending as usize;
            let old = numerators[at];
            let new = old * ratio[usize::from(e) & 15];
            if keep {
                numerators[at] = new;
            }
            delta[0] += new - old;
        }
        sums[group as usize] += (delta[0] + delta[1]) + (delta[2] + delta[3]);
        start = end as usize;
    }
}

/// One walk of the tree for some of the slots, which can stop after any step and go on later: each ending's
/// numerator for the composition it is at, the groups' sums at each depth, the compositions still to go on from, and
/// what it found.
pub(super) struct Walk {
    /// The slots walked (places in the plan's).
    share: Vec<usize>,
    /// Where each slot's endings and groups start in `numerators` and the sums.
    ending_base: Vec<usize>,
    group_base: Vec<usize>,
    numerators: Vec<f64>,
    sums: Vec<Vec<f64>>,
    undo: Vec<f64>,
    cards: Ranks,
    /// The compositions the walk is in, the root first.
    stack: Vec<Frame>,
    /// The compositions in the order visited (listed by the first walk only).
    list: bool,
    found: Found,
    /// How many compositions the walk has found.
    count: u32,
    /// Every slot of the walk (a bit each).
    all: u32,
}

/// The odds the walk records for a slot that does not want them.
const NOT_WANTED: DealerOdds = DealerOdds {
    on: [f64::NAN; 5],
    bust: f64::NAN,
    blackjack: f64::NAN,
};

/// A composition the walk goes on from.
struct Frame {
    /// Its place in the list, and its number of cards.
    here: u32,
    depth: usize,
    /// The ranks it goes on by that are still to be walked (a bit each).
    onwards: u32,
    /// The walk's slots whose shoes hold it and that want it or something past it (a bit each).
    valid: u32,
    /// The step that made it, to take back when it is done: the rank, where its undo starts, the slots it stepped.
    made: Option<(usize, usize, u32)>,
}

/// What a walk found: the compositions and their parents (if it listed them) and the odds for its slots against each.
pub(super) struct Found {
    cards: Vec<Ranks>,
    /// Each composition's parent in the tree and the rank that made it (listed by the first walk only).
    parent: Vec<(u32, u8)>,
    /// The odds found, a list for each of the walk's slots.
    odds: Vec<Vec<DealerOdds>>,
}

impl Walk {
    fn new(plan: &Plan, share: &[usize], list: bool) -> Walk {
        let mut ending_base = Vec::new();
        let mut group_base = Vec::new();
        let mut numerators = Vec::new();
        let mut first_sums = Vec::new();
        for &s in share {
            let slot = &plan.slots[s];
            ending_base.push(numerators.len());
            group_base.push(first_sums.len());
            let base = first_sums.len();
            first_sums.resize(base + slot.groups.len(), 0.0);
            for (ending, &group) in slot.endings.iter().zip(&slot.group_of) {
                let mut q = ending.orders;
                for rank in 0..RANKS {
                    for k in 0..ending.cards[rank] {
                        q *= f64::from(slot.base[rank].saturating_sub(k));
                    }
                }
                numerators.push(q);
                first_sums[base + group as usize] += q;
            }
        }
        let listed = plan.on_the_way.len();
        let mut walk = Walk {
            share: share.to_vec(),
            ending_base,
            group_base,
            numerators,
            sums: vec![first_sums],
            undo: Vec::new(),
            cards: [0; RANKS],
            stack: Vec::new(),
            list,
            found: Found {
                cards: Vec::with_capacity(if list { listed } else { 0 }),
                parent: Vec::with_capacity(if list { listed } else { 0 }),
                odds: vec![Vec::with_capacity(listed); share.len()],
            },
            count: 0,
            all: (1u32 << share.len()) - 1,
        };
        let all = walk.all;
        let here = walk.record(plan, 0, all, all, (NONE, 0));
        walk.stack.push(Frame {
            here,
            depth: 0,
            onwards: plan.on_the_way.get(&key(&[0; RANKS])).copied().unwrap_or(0) & ONWARDS,
            valid: all,
            made: None,
        });
        walk
    }

    /// Walks on until about `budget` endings have been updated (a step is never cut), or to the end: true once the
    /// walk is done.
    pub(super) fn go_on(&mut self, plan: &Plan, budget: u64) -> bool {
        let mut work = 0u64;
        while let Some(frame) = self.stack.last_mut() {
            if frame.onwards == 0 {
                if let Some((rank, mark, stepped)) = frame.made {
                    self.put_back(plan, rank, mark, stepped);
                }
                self.stack.pop();
                continue;
            }
            if work >= budget {
                return false;
            }
            let rank = frame.onwards.trailing_zeros() as usize;
            frame.onwards &= frame.onwards - 1;
            let (here, depth, valid) = (frame.here, frame.depth, frame.valid);
            work += self.step_to(plan, here, depth, valid, rank);
        }
        true
    }

    /// What the walk found (all of it once it is done).
    pub(super) fn found(self) -> Found {
        self.found
    }

    /// Steps from the composition at `depth` (the walk's `cards`, found as `here`) to the one with a card of `rank`
    /// more, and records it; if the walk goes on from it, it becomes the walk's top composition. Returns how many
    /// endings it updated.
    fn step_to(&mut self, plan: &Plan, here: u32, depth: usize, valid: u32, rank: usize) -> u64 {
        let mut next = self.cards;
        next[rank] += 1;
        let entry = plan.on_the_way.get(&key(&next)).copied().unwrap_or(0);
        let further = entry & ONWARDS;
        let goes_on = further != 0;
        // The walk's slots that want these odds or odds past them: the others are stepped no further.
        let wanted = self.share_bits(entry >> SLOT_SHIFT);
        let valid = valid & wanted;
        if self.sums.len() <= depth + 1 {
            self.sums.push(Vec::new());
        }
        let (done, rest) = self.sums.split_at_mut(depth + 1);
        let sums = &mut rest[0];
        sums.clone_from(&done[depth]);
        let mark = self.undo.len();
        let mut still = valid;
        let mut stepped = 0u32;
        // The visit itself (the lookup, the sums copied, the record), counted where no slot is stepped too: a walk
        // for one up card passes many compositions it steps nothing at.
        let mut work = 50u64;
        for (s, &slot) in self.share.iter().enumerate() {
            if valid & (1 << s) == 0 {
                continue;
            }
            let slot = &plan.slots[slot];
            let left = i32::from(slot.base[rank]) - i32::from(self.cards[rank]);
            if left <= 0 {
                still &= !(1 << s);
                continue;
            }
            stepped |= 1 << s;
            // The endings updated, and the composition's odds and sums (about a hundred endings' worth).
            work += (slot.drawing[rank].len() + slot.groups.len() + 100) as u64;
            step(
                &mut self.numerators[self.ending_base[s]..],
                goes_on.then_some(&mut self.undo),
                &mut sums[self.group_base[s]..],
                &slot.drawing[rank],
                &slot.runs[rank],
                &plan.tables.ratios[left as usize],
            );
        }
        self.cards[rank] += 1;
        let child = self.record(plan, depth + 1, still, wanted, (here, rank as u8));
        if goes_on {
            self.stack.push(Frame {
                here: child,
                depth: depth + 1,
                onwards: further,
                valid: still,
                made: Some((rank, mark, stepped)),
            });
        } else {
            self.cards[rank] -= 1;
        }
        work
    }

    /// Takes back the step of `rank` that stepped the slots in `stepped`, its old numerators kept from `mark`.
    fn put_back(&mut self, plan: &Plan, rank: usize, mark: usize, stepped: u32) {
        let mut at_undo = mark;
        for (s, &slot) in self.share.iter().enumerate() {
            if stepped & (1 << s) == 0 {
                continue;
            }
            let base = self.ending_base[s];
            for &(ending, _) in &plan.slots[slot].drawing[rank] {
                self.numerators[base + ending as usize] = self.undo[at_undo];
                at_undo += 1;
            }
        }
        self.undo.truncate(mark);
        self.cards[rank] -= 1;
    }

    /// The walk's slots (a bit each) of the plan's `slots` (a bit each).
    fn share_bits(&self, slots: u32) -> u32 {
        if slots == EVERY_SLOT {
            return self.all;
        }
        self.share
            .iter()
            .enumerate()
            .fold(0, |bits, (s, &slot)| bits | (slots >> slot & 1) << s)
    }

    /// Records the composition the walk is at, with the sums at `depth`: the odds of the `valid` slots, nothing for a
    /// slot that wants them but whose shoe cannot hold the composition, and not a number for a slot that does not
    /// want them.
    fn record(
        &mut self,
        plan: &Plan,
        depth: usize,
        valid: u32,
        wanted: u32,
        parent: (u32, u8),
    ) -> u32 {
        let here = self.count;
        self.count += 1;
        if self.list {
            self.found.cards.push(self.cards);
            self.found.parent.push(parent);
        }
        let drawn: u32 = self.cards.iter().map(|&n| u32::from(n)).sum();
        for s in 0..self.share.len() {
            let odds = if valid & (1 << s) != 0 {
                self.odds_for(plan, s, &self.sums[depth], drawn)
            } else if wanted & (1 << s) != 0 {
                DealerOdds::default()
            } else {
                NOT_WANTED
            };
            self.found.odds[s].push(odds);
        }
        here
    }

    /// Slot `s`'s odds from the group sums, with `drawn` cards gone besides the up card.
    fn odds_for(&self, plan: &Plan, s: usize, sums: &[f64], drawn: u32) -> DealerOdds {
        let slot = &plan.slots[self.share[s]];
        let mut odds = DealerOdds::default();
        let Some(left) = slot.base_left.checked_sub(drawn).filter(|&n| n > 0) else {
            return odds;
        };
        let inverse = &plan.tables.inverse_falling[drawn as usize];
        let sums = &sums[self.group_base[s]..];
        for (&(total, k), &sum) in slot.groups.iter().zip(sums) {
            odds.on[total] += sum * inverse[usize::from(k)];
        }
        let hole = match slot.up {
            0 => Some(9),
            9 => Some(0),
            _ => None,
        };
        if let Some(hole) = hole {
            odds.blackjack = f64::from(slot.base[hole] - self.cards[hole].min(slot.base[hole]))
                / f64::from(left);
        }
        odds.bust = 1.0 - odds.on.iter().sum::<f64>() - odds.blackjack;
        odds
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A shoe of `tens` ten-cards and `shoe`'s other cards, and every hand of two cards or more it can deal.
    fn with_tens(mut shoe: Ranks, tens: u8) -> (Ranks, Vec<Ranks>) {
        shoe[9] = tens;
        let mut needed = Vec::new();
        grow([0; RANKS], 0, 2, &shoe, &mut needed);
        (shoe, needed)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

        /// A walk stopped every few steps and taken up again finds what it finds in one go, to the last bit.
        #[test]
        fn a_walk_in_pieces_is_the_walk_at_once(
            shoe in proptest::array::uniform10(1u8..=12),
            tens in 8u8..=40,
            h17 in any::<bool>(),
            budget in 1u64..=5_000,
        ) {
            let (shoe, needed) = with_tens(shoe, tens);
            let ups: Vec<usize> = (0..RANKS).collect();
            let plan = Plan::new(h17, &shoe, &ups, &needed);
            let share = [1, 4, 9];
            let at_once = plan.walk(&share, true);
            let mut walk = plan.start_walk(&share, true);
            let mut pieces = 1;
            while !walk.go_on(&plan, budget) {
                pieces += 1;
            }
            let pieces_found = walk.found();
            prop_assert!(pieces > 1, "a budget of {budget} stops the walk");
            prop_assert_eq!(&pieces_found.cards, &at_once.cards);
            prop_assert_eq!(&pieces_found.parent, &at_once.parent);
            prop_assert_eq!(&pieces_found.odds, &at_once.odds);
        }

        /// Each composition's odds from the walk's running sums are the odds worked out afresh on its shoe.
        #[test]
        fn the_walks_odds_are_the_dealers_odds_on_each_shoe(
            shoe in proptest::array::uniform10(0u8..=12),
            tens in 8u8..=40,
            h17 in any::<bool>(),
            threads in 1usize..=2,
        ) {
            let (shoe, needed) = with_tens(shoe, tens);
            let ups: Vec<usize> = (0..RANKS).filter(|&up| shoe[up] > 0).collect();
            let hands = Compositions::new(h17, &shoe, &ups, &needed, threads);
            prop_assert!(hands.cards.len() >= needed.len().min(1));
            for (i, cards) in hands.cards.iter().enumerate().step_by(7) {
                prop_assert_eq!(hands.find(cards), Some(i as u32));
                for (slot, &up) in ups.iter().enumerate() {
                    let mut rest = shoe;
                    if rest[up] == 0 || (0..RANKS).any(|r| cards[r] > rest[r] - u8::from(r == up)) {
                        continue;
                    }
                    rest[up] -= 1;
                    for r in 0..RANKS {
                        rest[r] -= cards[r];
                    }
                    if rest.iter().map(|&n| u32::from(n)).sum::<u32>() < 12 {
                        continue;
                    }
                    let walked = hands.odds(i as u32, slot);
                    let fresh = dealer::odds(h17, up, &rest);
                    for (a, b) in walked.on.iter().chain([&walked.bust, &walked.blackjack])
                        .zip(fresh.on.iter().chain([&fresh.bust, &fresh.blackjack]))
                    {
                        prop_assert!((a - b).abs() < 1e-12, "{cards:?} up {up}: {walked:?} against {fresh:?}");
                    }
                }
            }
        }

        /// Compositions wanted for one up card alone get, for it, the odds a walk for every up card finds, to the
        /// last bit, and for an up card that wants neither them nor anything past them, not a number.
        #[test]
        fn odds_wanted_by_one_up_card_are_the_odds_for_every_up_card(
            shoe in proptest::array::uniform10(1u8..=12),
            tens in 8u8..=40,
            h17 in any::<bool>(),
            threads in 1usize..=2,
            picks in proptest::collection::vec(
                (0usize..RANKS, 0usize..RANKS, 1u8..=4, any::<prop::sample::Index>()),
                1..40,
            ),
        ) {
            let (shoe, needed) = with_tens(shoe, tens);
            let ups: Vec<usize> = (0..RANKS).collect();
            // Split hands, as CDZ- wants them: a hand with pair cards gone besides its own, for one up card.
            let mut by_slot = vec![Vec::new(); ups.len()];
            for (slot, pair, gone, at) in picks {
                let mut cards = needed[at.index(needed.len())];
                cards[pair] = (cards[pair] + gone).min(shoe[pair]);
                by_slot[slot].push(cards);
            }
            let mut route = Route::new(&needed);
            for (slot, cards) in by_slot.iter().enumerate() {
                route.add_for(slot, cards);
            }
            let each = Compositions::along(route, h17, &shoe, &ups, threads);
            let every: Vec<Ranks> = needed.iter().chain(by_slot.iter().flatten()).copied().collect();
            let all = Compositions::new(h17, &shoe, &ups, &every, threads);
            prop_assert_eq!(each.cards.len(), all.cards.len());
            for (slot, own) in by_slot.iter().enumerate() {
                // What the slot wants, and every composition on the way to it in rank order.
                let mut wanted = std::collections::HashSet::new();
                for cards in needed.iter().chain(own) {
                    let mut cards = *cards;
                    wanted.insert(cards);
                    while let Some(rank) = (0..RANKS).rev().find(|&rank| cards[rank] > 0) {
                        cards[rank] -= 1;
                        wanted.insert(cards);
                    }
                }
                for (i, cards) in each.cards.iter().enumerate() {
                    let odds = each.odds(i as u32, slot);
                    if wanted.contains(cards) {
                        let at = all.find(cards);
                        prop_assert!(at.is_some(), "{cards:?} is listed by both");
                        let walked = all.odds(at.unwrap_or(NONE), slot);
                        prop_assert_eq!(odds, walked, "{:?} for the up card at {}", cards, slot);
                    } else {
                        prop_assert!(
                            odds.bust.is_nan() && odds.blackjack.is_nan() && odds.on.iter().all(|p| p.is_nan()),
                            "{cards:?} is not wanted for the up card at {slot}: {odds:?}"
                        );
                    }
                }
            }
        }
    }
}
