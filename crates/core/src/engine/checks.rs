//! What the rules allow, worked out from what anyone at the table can see.
//!
//! The engine's [`Table`](super::Table) and a seat's [`TableView`](super::TableView) answer "may this seat do that
//! now?" with this one set of checks, so the buttons a player is shown and the commands the host accepts cannot
//! disagree. Nothing here needs a secret: the shoe's order, the generator and the hole card play no part in what
//! is allowed, only how many cards are left.

use super::card::Card;
use super::command::{Action, Actions, Command, CommandError, Phase, SeatId};
use super::money::Cents;
use super::play;
use super::rules::Rules;
use super::seat::{Hand, HandState, MAX_SEATS, Seat};
use super::side::SideBet;

/// The public state of a table: the rules, the seats and their hands, the phase, the house's tray and the number of
/// cards that can still be dealt. The provided methods are the table's checks and the questions asked of it.
pub trait TableState {
    /// The table's rules.
    fn rules(&self) -> &Rules;
    /// Where the round is.
    fn phase(&self) -> Phase;
    /// The seats, first base first.
    fn seats(&self) -> &[Seat; MAX_SEATS];
    /// This round's hands in playing order (seat by seat from first base, left to right within a seat).
    fn hands(&self) -> &[Hand];
    /// Chips in the house's tray.
    fn house(&self) -> Cents;
    /// Cards that could still be dealt this round: the shoe, plus the discards it would be refilled from.
    fn cards_available(&self) -> usize;
    /// The dealer's upcard, once dealt.
    fn upcard(&self) -> Option<Card>;

    /// The seat and hand whose turn it is, if a hand is to act.
    fn hand_in_turn(&self) -> Option<(SeatId, u8)> {
        match self.phase() {
            Phase::PlayerTurn { hand } => Some(spot_of(self.hands(), usize::from(hand))),
            _ => None,
        }
    }

    /// The seat that must decide now: the owner of the hand in turn, or the first seat still answering an offer.
    fn seat_to_act(&self) -> Option<SeatId> {
        match self.phase() {
            Phase::PlayerTurn { .. } => self.hand_in_turn().map(|(seat, _)| seat),
            Phase::Insurance | Phase::EarlySurrender => self
                .seats()
                .iter()
                .position(|s| s.deciding)
                .map(|seat| seat as SeatId),
            Phase::Betting => None,
        }
    }

    /// The hand `seat` decides now, with its number among the seat's hands (0 on an offer, which is about the first).
    fn deciding_hand(&self, seat: SeatId) -> Option<(u8, &Hand)> {
        if self.seat_to_act() != Some(seat) {
            return None;
        }
        match self.phase() {
            Phase::PlayerTurn { .. } => {
                let (_, number) = self.hand_in_turn()?;
                Some((number, &self.hands()[self.hand_index(seat, number)?]))
            }
            Phase::Insurance | Phase::EarlySurrender => Some((0, self.seat_hands(seat).next()?)),
            Phase::Betting => None,
        }
    }

    /// Index into [`TableState::hands`] of a seat's hand number `hand`.
    fn hand_index(&self, seat: SeatId, hand: u8) -> Option<usize> {
        hand_index(self.hands(), seat, hand)
    }

    /// The seat's hands this round.
    fn seat_hands(&self, seat: SeatId) -> impl Iterator<Item = &Hand> {
        self.hands().iter().filter(move |h| h.seat == seat)
    }

    /// The most insurance a seat may take now: half its bet, rounded down to the cent.
    fn max_insurance(&self, seat: SeatId) -> Cents {
        self.seat_hands(seat)
            .next()
            .map_or(Cents::ZERO, |h| h.wager.half())
    }

    /// Chips on the felt: bet circles, hands and insurance.
    fn on_felt(&self) -> Cents {
        let bets: Cents = self.seats().iter().map(Seat::on_felt).sum();
        bets + self.hands().iter().map(Hand::on_felt).sum()
    }

    /// One seat's chips on the felt: its bet circle, its side bets, its hands still in play and its insurance.
    fn seat_on_felt(&self, seat: SeatId) -> Cents {
        let s = &self.seats()[usize::from(seat)];
        s.on_felt() + self.seat_hands(seat).map(Hand::on_felt).sum()
    }

    /// Every chip at the table: bankrolls, the house's tray and the felt.
    fn chips_total(&self) -> Cents {
        self.seats().iter().map(|s| s.bankroll).sum::<Cents>() + self.house() + self.on_felt()
    }

    /// What `seat` may do now. Empty when it has nothing to decide.
    fn legal_actions(&self, seat: SeatId) -> Actions {
        const HAND: [Action; 5] = [
            Action::Hit,
            Action::Stand,
            Action::Double,
            Action::Split,
            Action::Surrender,
        ];
        const SURRENDER: [Action; 2] = [Action::Surrender, Action::DeclineSurrender];
        const INSURANCE: [Action; 4] = [
            Action::TakeInsurance,
            Action::DeclineInsurance,
            Action::TakeEvenMoney,
            Action::DeclineEvenMoney,
        ];
        let offer = |candidates: &[Action]| {
            // A seat short of half its bet may still insure for what it has.
            let bankroll = self
                .seats()
                .get(usize::from(seat))
                .map_or(Cents::ZERO, |s| s.bankroll);
            let insurance = self.max_insurance(seat).min(bankroll);
            candidates
                .iter()
                .copied()
                .filter(|a| self.check(a.command(seat, insurance)).is_ok())
                .collect()
        };
        match self.phase() {
            Phase::Betting => Actions::NONE,
            Phase::EarlySurrender => offer(&SURRENDER),
            Phase::Insurance => offer(&INSURANCE),
            Phase::PlayerTurn { .. } => match in_turn(self, seat) {
                Ok(hand) => HAND
                    .into_iter()
                    .filter(|&a| check_hand_action(self, hand, a).is_ok())
                    .collect(),
                Err(_) => Actions::NONE,
            },
        }
    }

    /// True when the hand in turn belongs to `seat` and may take `action` now (cheaper than
    /// [`TableState::legal_actions`] when only one action matters).
    #[inline]
    fn allows(&self, seat: SeatId, action: Action) -> bool {
        in_turn(self, seat).is_ok_and(|hand| check_hand_action(self, hand, action).is_ok())
    }

    /// Checks a command against the table without changing anything: `Ok` when the table would accept it.
    fn check(&self, command: Command) -> Result<(), CommandError> {
        if let Some(seat) = command.seat()
            && usize::from(seat) >= MAX_SEATS
        {
            return Err(CommandError::NoSuchSeat(seat));
        }
        let seats = self.seats();
        match command {
            Command::Join { seat, buy_in } => {
                between_rounds(self.phase())?;
                if seats[usize::from(seat)].occupied {
                    return Err(CommandError::SeatTaken(seat));
                }
                positive(buy_in)?;
                within_ceiling(buy_in)
            }
            Command::Rebuy { seat, amount } => {
                between_rounds(self.phase())?;
                occupied(seats, seat)?;
                positive(amount)?;
                within_ceiling(amount)?;
                within_ceiling(seats[usize::from(seat)].bankroll + amount)
            }
            Command::Leave { seat } => {
                between_rounds(self.phase())?;
                occupied(seats, seat)
            }
            Command::Bet { seat, amount } => check_bet(self, seat, amount),
            Command::SideBet { seat, bet, amount } => check_side_bet(self, seat, bet, amount),
            Command::Deal => check_deal(self),
            Command::TakeInsurance { seat, amount } => {
                let hand = offer(self, seat, Phase::Insurance)?;
                if even_money_offered(self.rules(), hand) {
                    return Err(not_allowed(
                        seat,
                        "take insurance",
                        "a blackjack is offered even money instead",
                    ));
                }
                positive(amount)?;
                let max = hand.wager.half();
                if amount > max {
                    return Err(CommandError::InsuranceOverHalf { amount, max });
                }
                afford(seats, seat, amount)
            }
            Command::DeclineInsurance { seat } => {
                let hand = offer(self, seat, Phase::Insurance)?;
                if even_money_offered(self.rules(), hand) {
                    return Err(not_allowed(
                        seat,
                        "decline insurance",
                        "the offer is even money",
                    ));
                }
                Ok(())
            }
            Command::TakeEvenMoney { seat } | Command::DeclineEvenMoney { seat } => {
                let hand = offer(self, seat, Phase::Insurance)?;
                if !even_money_offered(self.rules(), hand) {
                    return Err(not_allowed(
                        seat,
                        "answer even money",
                        "even money is only for a blackjack",
                    ));
                }
                Ok(())
            }
            Command::DeclineSurrender { seat } => {
                offer(self, seat, Phase::EarlySurrender).map(|_| ())
            }
            Command::Surrender { seat } if self.phase() == Phase::EarlySurrender => {
                offer(self, seat, Phase::EarlySurrender).map(|_| ())
            }
            Command::Hit { seat }
            | Command::Stand { seat }
            | Command::Double { seat }
            | Command::Split { seat }
            | Command::Surrender { seat } => {
                let hand = in_turn(self, seat)?;
                let action = command.action().unwrap_or(Action::Stand);
                check_hand_action(self, hand, action)
            }
        }
    }
}

/// Index into `hands` of a seat's hand number `hand`.
pub(super) fn hand_index(hands: &[Hand], seat: SeatId, hand: u8) -> Option<usize> {
    let first = hands.iter().position(|h| h.seat == seat)?;
    let index = first + usize::from(hand);
    hands.get(index).filter(|h| h.seat == seat).map(|_| index)
}

/// (seat, hand number within the seat) of the hand at `index`.
pub(super) fn spot_of(hands: &[Hand], index: usize) -> (SeatId, u8) {
    let seat = hands[index].seat;
    let number = hands[..index]
        .iter()
        .rev()
        .take_while(|h| h.seat == seat)
        .count();
    (seat, number as u8)
}

/// Index of the seat's first hand (0 when it has none).
pub(super) fn first_hand(hands: &[Hand], seat: SeatId) -> usize {
    hands.iter().position(|h| h.seat == seat).unwrap_or(0)
}

/// Which seats an offer goes to: those whose first hand (never a split one) is `Playing` for early surrender, or
/// `Playing` or a `Natural` for insurance and even money. The table marks them as deciding when it makes the offer;
/// a view marks the same seats when it hears of it.
pub(super) fn offer_takers(hands: &[Hand], offer: Phase) -> [bool; MAX_SEATS] {
    let mut takers = [false; MAX_SEATS];
    for hand in hands {
        let wanted = match offer {
            Phase::EarlySurrender => hand.state == HandState::Playing,
            _ => matches!(hand.state, HandState::Playing | HandState::Natural),
        };
        if !hand.from_split && wanted {
            takers[usize::from(hand.seat)] = true;
        }
    }
    takers
}

/// Marks the seats an offer goes to as owing a decision (see [`offer_takers`]). True if any does.
pub(super) fn open_offer(seats: &mut [Seat; MAX_SEATS], hands: &[Hand], offer: Phase) -> bool {
    let takers = offer_takers(hands, offer);
    for (seat, taker) in seats.iter_mut().zip(takers) {
        seat.deciding |= taker;
    }
    takers.contains(&true)
}

/// A round begins: every seat with a bet gets one empty hand, and the bet becomes its wager.
pub(super) fn open_hands(seats: &mut [Seat; MAX_SEATS], hands: &mut impl Extend<Hand>) {
    for (seat, s) in seats.iter_mut().enumerate() {
        if s.bet.is_positive() {
            s.side_in_play = std::mem::take(&mut s.side);
            hands.extend([Hand {
                seat: seat as SeatId,
                cards: Default::default(),
                wager: std::mem::take(&mut s.bet),
                doubled: false,
                from_split: false,
                split_aces: false,
                state: HandState::Playing,
            }]);
        }
    }
}

/// The seat's hand in an offer phase, if the seat still owes a decision on it.
fn offer<T: TableState + ?Sized>(
    table: &T,
    seat: SeatId,
    phase: Phase,
) -> Result<&Hand, CommandError> {
    if table.phase() != phase {
        return Err(CommandError::WrongPhase {
            phase: table.phase(),
        });
    }
    if !table.seats()[usize::from(seat)].deciding {
        return Err(CommandError::NothingToDecide { seat });
    }
    Ok(&table.hands()[first_hand(table.hands(), seat)])
}

fn even_money_offered(rules: &Rules, hand: &Hand) -> bool {
    rules.even_money && hand.state == HandState::Natural
}

/// The hand in turn, if it is `seat`'s.
fn in_turn<T: TableState + ?Sized>(table: &T, seat: SeatId) -> Result<&Hand, CommandError> {
    match table.phase() {
        Phase::PlayerTurn { hand } => {
            let hand = &table.hands()[usize::from(hand)];
            if hand.seat == seat {
                Ok(hand)
            } else {
                Err(CommandError::NotYourTurn { seat })
            }
        }
        phase => Err(CommandError::WrongPhase { phase }),
    }
}

/// Whether the hand in turn may take `action` (hit, stand, double, split or surrender), and why not.
fn check_hand_action<T: TableState + ?Sized>(
    table: &T,
    hand: &Hand,
    action: Action,
) -> Result<(), CommandError> {
    let rules = table.rules();
    let (verb, refusal, costs_a_bet) = match action {
        Action::Hit => ("hit", play::hit_refusal(rules, hand), false),
        Action::Double => ("double", play::double_refusal(rules, hand), true),
        Action::Split => {
            let seat_hands = table.seat_hands(hand.seat).count();
            ("split", play::split_refusal(rules, hand, seat_hands), true)
        }
        Action::Surrender => {
            return play::surrender_refusal(rules, hand).map_or(Ok(()), |reason| {
                Err(not_allowed(hand.seat, "surrender", reason))
            });
        }
        Action::Stand => return Ok(()),
        _ => {
            return Err(CommandError::WrongPhase {
                phase: table.phase(),
            });
        }
    };
    if let Some(reason) = refusal {
        return Err(not_allowed(hand.seat, verb, reason));
    }
    if costs_a_bet {
        afford(table.seats(), hand.seat, hand.wager)?;
    }
    if table.cards_available() >= 1 {
        Ok(())
    } else {
        Err(CommandError::NoCardsLeft)
    }
}

fn check_bet<T: TableState + ?Sized>(
    table: &T,
    seat: SeatId,
    amount: Cents,
) -> Result<(), CommandError> {
    between_rounds(table.phase())?;
    occupied(table.seats(), seat)?;
    let rules = table.rules();
    whole_chips(rules, amount)?;
    if amount > rules.max_bet {
        return Err(CommandError::BetOverMaximum {
            amount,
            max: rules.max_bet,
        });
    }
    // Refused now, not at the deal: a bet the table cannot deal would otherwise stand in the circle and hold up the
    // deal of every seat (at a shared table, everyone's). Nothing (taking a bet back) is always allowed.
    if amount.is_positive() && amount < rules.min_bet {
        return Err(CommandError::BetUnderMinimum {
            seat,
            amount,
            min: rules.min_bet,
        });
    }
    let s = &table.seats()[usize::from(seat)];
    covered(seat, s, amount - s.bet)
}

/// A stake for a spot: not negative, and whole chips of the table's smallest.
fn whole_chips(rules: &Rules, amount: Cents) -> Result<(), CommandError> {
    if amount < Cents::ZERO {
        return Err(CommandError::NotPositive(amount));
    }
    let unit = rules.bet_unit;
    if amount.0 % unit.0 != 0 {
        return Err(CommandError::NotWholeChips { amount, unit });
    }
    Ok(())
}

/// The seat's bankroll covers `needed` more on a spot.
fn covered(seat: SeatId, s: &Seat, needed: Cents) -> Result<(), CommandError> {
    if needed > s.bankroll {
        return Err(CommandError::NotEnoughChips {
            seat,
            needed,
            bankroll: s.bankroll,
        });
    }
    Ok(())
}

fn check_side_bet<T: TableState + ?Sized>(
    table: &T,
    seat: SeatId,
    bet: SideBet,
    amount: Cents,
) -> Result<(), CommandError> {
    between_rounds(table.phase())?;
    occupied(table.seats(), seat)?;
    let rules = table.rules();
    if !rules.side_bets.offers(bet) {
        return Err(CommandError::SideBetNotOffered { bet });
    }
    whole_chips(rules, amount)?;
    let max = rules.side_bets.max_bet;
    if amount > max {
        return Err(CommandError::SideBetOverMaximum { amount, max });
    }
    let s = &table.seats()[usize::from(seat)];
    covered(seat, s, amount - s.side.get(bet))
}

/// The most a round can cost the house for each chip bet: every bet split four ways, each doubled and won. A deal
/// is refused when the house's tray does not hold this many times the bets.
pub const MOST_PAID_PER_BET: i64 = 8;

/// The most a seat's bets can cost the house in the round they are dealt: its bet [`MOST_PAID_PER_BET`] times, and
/// each side bet (which plays only beside a bet in the circle) at its table's best pay. Nothing without a bet.
pub fn most_paid(seat: &Seat, side_bets: &super::side::SideBets) -> Cents {
    if !seat.bet.is_positive() {
        return Cents::ZERO;
    }
    let side: i64 = seat
        .side
        .staked()
        .map(|(bet, stake)| stake.0 * i64::from(side_bets.most_pays(bet)))
        .sum();
    Cents(seat.bet.0 * MOST_PAID_PER_BET + side)
}

fn check_deal<T: TableState + ?Sized>(table: &T) -> Result<(), CommandError> {
    between_rounds(table.phase())?;
    let min = table.rules().min_bet;
    let mut total = Cents::ZERO;
    for (seat, s) in table.seats().iter().enumerate() {
        if s.bet.is_positive() && s.bet < min {
            return Err(CommandError::BetUnderMinimum {
                seat: seat as SeatId,
                amount: s.bet,
                min,
            });
        }
        total += s.bet;
    }
    if total == Cents::ZERO {
        return Err(CommandError::NoBets);
    }
    let needed: Cents = table
        .seats()
        .iter()
        .map(|s| most_paid(s, &table.rules().side_bets))
        .sum();
    if needed > table.house() {
        return Err(CommandError::HouseCannotCover {
            needed,
            house: table.house(),
        });
    }
    Ok(())
}

/// Refuses anything but the betting phase.
pub(super) fn between_rounds(phase: Phase) -> Result<(), CommandError> {
    match phase {
        Phase::Betting => Ok(()),
        phase => Err(CommandError::WrongPhase { phase }),
    }
}

fn occupied(seats: &[Seat; MAX_SEATS], seat: SeatId) -> Result<(), CommandError> {
    if seats[usize::from(seat)].occupied {
        Ok(())
    } else {
        Err(CommandError::SeatEmpty(seat))
    }
}

fn afford(seats: &[Seat; MAX_SEATS], seat: SeatId, needed: Cents) -> Result<(), CommandError> {
    let bankroll = seats[usize::from(seat)].bankroll;
    if needed > bankroll {
        Err(CommandError::NotEnoughChips {
            seat,
            needed,
            bankroll,
        })
    } else {
        Ok(())
    }
}

fn within_ceiling(amount: Cents) -> Result<(), CommandError> {
    if amount > Cents::MAX_CHIPS {
        Err(CommandError::OverChipCeiling {
            amount,
            ceiling: Cents::MAX_CHIPS,
        })
    } else {
        Ok(())
    }
}

fn positive(amount: Cents) -> Result<(), CommandError> {
    if amount.is_positive() {
        Ok(())
    } else {
        Err(CommandError::NotPositive(amount))
    }
}

fn not_allowed(seat: SeatId, verb: &'static str, reason: &'static str) -> CommandError {
    CommandError::NotAllowed { seat, verb, reason }
}
