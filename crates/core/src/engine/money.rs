//! Money: integer cents, and the one place where a fractional payout is rounded.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Neg, Sub, SubAssign};

/// An amount of money in cents. Signed so that a hand's net result can be negative; chip stacks never are.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Cents(pub i64);

impl Cents {
    /// No money.
    pub const ZERO: Cents = Cents(0);

    /// The most chips one bankroll or the house may hold (2^53 cents, about $90 trillion): with seven seats, the
    /// house and the felt added together, sums stay far inside `i64` and every payout is exact.
    pub const MAX_CHIPS: Cents = Cents(1 << 53);

    /// `units` whole units of the table's currency (dollars, euros…).
    pub const fn units(units: i64) -> Cents {
        Cents(units * 100)
    }

    /// This amount times `num / den`, rounded down to the cent.
    ///
    /// This is the only place a payout is divided. Payouts round toward zero, in the house's favour, as casinos
    /// do; with whole-unit bets 3:2, 6:5 and half-bet amounts are always exact, so rounding only matters for
    /// bets of odd cents.
    pub const fn ratio(self, num: i64, den: i64) -> Cents {
        Cents(self.0 * num / den)
    }

    /// Half this amount, rounded down to the cent (surrender refunds, the insurance limit).
    pub const fn half(self) -> Cents {
        self.ratio(1, 2)
    }

    /// True when the amount is above zero.
    pub const fn is_positive(self) -> bool {
        self.0 > 0
    }
}

impl Add for Cents {
    type Output = Cents;
    fn add(self, rhs: Cents) -> Cents {
        Cents(self.0 + rhs.0)
    }
}

impl Sub for Cents {
    type Output = Cents;
    fn sub(self, rhs: Cents) -> Cents {
        Cents(self.0 - rhs.0)
    }
}

impl Neg for Cents {
    type Output = Cents;
    fn neg(self) -> Cents {
        Cents(-self.0)
    }
}

impl AddAssign for Cents {
    fn add_assign(&mut self, rhs: Cents) {
        self.0 += rhs.0;
    }
}

impl SubAssign for Cents {
    fn sub_assign(&mut self, rhs: Cents) {
        self.0 -= rhs.0;
    }
}

impl Sum for Cents {
    fn sum<I: Iterator<Item = Cents>>(iter: I) -> Cents {
        Cents(iter.map(|c| c.0).sum())
    }
}

impl fmt::Display for Cents {
    /// `$12.50`, `−$3`, `$1,250`: whole amounts without cents, thousands grouped; a loss with the minus sign
    /// (U+2212), as wide as the plus of a gain.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Shown::of(*self).fmt(f)
    }
}

impl Cents {
    /// With its sign when it is a gain too: `+$25`, `−$10`, `$0` (a result, a change).
    pub fn signed(self) -> Shown {
        Shown::of(self).signed()
    }

    /// Always to the cent: `$12.00`, `−$0.40` (a value that is a fraction of a bet).
    pub fn to_the_cent(self) -> Shown {
        Shown::of(self).to_the_cent()
    }

    /// A plain decimal for files (CSV, JSON), read back by programs: `-12.50`, `1250.00`: no symbol, no
    /// separators, always to the cent.
    pub fn decimal(self) -> Shown {
        Shown {
            plain: true,
            ..Shown::of(self).to_the_cent()
        }
    }
}

/// An amount as it is written: every amount of money Holecard shows or writes goes through this one formatter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shown {
    amount: Cents,
    signed: bool,
    to_the_cent: bool,
    plain: bool,
}

impl Shown {
    fn of(amount: Cents) -> Shown {
        Shown {
            amount,
            signed: false,
            to_the_cent: false,
            plain: false,
        }
    }

    /// A `+` before a gain as well as a `-` before a loss.
    pub fn signed(self) -> Shown {
        Shown {
            signed: true,
            ..self
        }
    }

    /// The cents always written, `.00` too.
    pub fn to_the_cent(self) -> Shown {
        Shown {
            to_the_cent: true,
            ..self
        }
    }
}

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = match self.amount.0.signum() {
            // Programs read the plain decimal: their minus is the ASCII one.
            -1 if self.plain => "-",
            -1 => MINUS,
            1 if self.signed => "+",
            _ => "",
        };
        let abs = self.amount.0.unsigned_abs();
        let (units, cents) = (abs / 100, abs % 100);
        if self.plain {
            return write!(f, "{sign}{units}.{cents:02}");
        }
        let grouped = group_thousands(units);
        if cents == 0 && !self.to_the_cent {
            write!(f, "{sign}${grouped}")
        } else {
            write!(f, "{sign}${grouped}.{cents:02}")
        }
    }
}

/// The minus sign every number Holecard shows is written with (U+2212, not the hyphen): as wide as its plus.
pub const MINUS: &str = "\u{2212}";

/// 1234567 → "1,234,567".
pub fn group_thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(ch);
    }
    grouped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_rounds_down_to_the_cent() {
        assert_eq!(Cents(500).ratio(3, 2), Cents(750));
        assert_eq!(Cents(500).ratio(6, 5), Cents(600));
        assert_eq!(Cents(100).ratio(6, 5), Cents(120));
        assert_eq!(Cents(1).ratio(3, 2), Cents(1));
        assert_eq!(Cents(3).ratio(6, 5), Cents(3));
        assert_eq!(Cents(7).half(), Cents(3));
    }

    #[test]
    fn display_groups_thousands_and_shows_cents_only_when_present() {
        assert_eq!(Cents(125_000).to_string(), "$1,250");
        assert_eq!(Cents(1_250).to_string(), "$12.50");
        assert_eq!(Cents(-300).to_string(), "−$3");
        assert_eq!(Cents(100_000_000).to_string(), "$1,000,000");
        assert_eq!(Cents(5).to_string(), "$0.05");
    }

    #[test]
    fn amounts_show_signed_to_the_cent_or_plain_through_one_formatter() {
        assert_eq!(Cents(2_500).signed().to_string(), "+$25");
        assert_eq!(Cents(-1_000).signed().to_string(), "−$10");
        assert_eq!(Cents(0).signed().to_string(), "$0");
        assert_eq!(Cents(125).signed().to_the_cent().to_string(), "+$1.25");
        assert_eq!(Cents(-40).to_the_cent().to_string(), "−$0.40");
        assert_eq!(Cents(0).signed().to_the_cent().to_string(), "$0.00");
        assert_eq!(
            Cents(123_456_700).to_the_cent().to_string(),
            "$1,234,567.00"
        );
        assert_eq!(Cents(-1_250).decimal().to_string(), "-12.50");
        assert_eq!(Cents(123_456_700).decimal().to_string(), "1234567.00");
        assert_eq!(Cents(7).decimal().to_string(), "0.07");
    }
}
