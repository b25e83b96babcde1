//! Numbers as the pages and the round log write them: a count with its noun, a count with its sign.

/// `n` with its noun: "1 discard", "0 discards", "52 discards".
pub fn counted(n: impl Into<u64>, one: &str, many: &str) -> String {
    match n.into() {
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    }
}

/// Names in a sentence: "21+3", "21+3 and Buster", "21+3, Perfect Pairs and Buster".
pub fn listed(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// A count with its sign, to `places` decimals: "+3", "−2", "+1.5" (the minus is [`crate::engine::money::MINUS`]);
/// nothing is signed that shows as zero ("0", "0.0", and "0.0" for -0.04 too).
pub fn signed(value: f64, places: usize) -> String {
    let shown = format!("{:.*}", places, value.abs());
    let zero = shown.chars().all(|c| c == '0' || c == '.');
    let sign = match () {
        _ if zero => "",
        _ if value < 0.0 => crate::engine::money::MINUS,
        _ => "+",
    };
    format!("{sign}{shown}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_listed_with_commas_and_a_last_and() {
        assert_eq!(listed(&[]), "");
        assert_eq!(listed(&["21+3"]), "21+3");
        assert_eq!(listed(&["21+3", "Buster"]), "21+3 and Buster");
        assert_eq!(
            listed(&["21+3", "Perfect Pairs", "Buster"]),
            "21+3, Perfect Pairs and Buster"
        );
    }

    #[test]
    fn a_count_says_its_noun_in_the_singular_only_for_one() {
        assert_eq!(counted(0u32, "discard", "discards"), "0 discards");
        assert_eq!(counted(1u32, "discard", "discards"), "1 discard");
        assert_eq!(counted(52u32, "discard", "discards"), "52 discards");
    }

    #[test]
    fn a_sign_goes_only_on_what_is_not_zero() {
        assert_eq!(signed(0.0, 0), "0");
        assert_eq!(signed(0.0, 1), "0.0");
        assert_eq!(signed(-0.04, 1), "0.0");
        assert_eq!(signed(3.0, 0), "+3");
        assert_eq!(signed(-2.0, 0), "−2");
        assert_eq!(signed(1.25, 2), "+1.25");
        assert_eq!(signed(-0.06, 1), "−0.1");
    }
}
