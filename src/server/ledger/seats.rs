//! Seats and settlement: an account's chips brought to a table and back, a table's house and rounds, a round settled
//! in one transaction, a reset of an account out of chips, and what a restart finds of all this.

use super::{Entry, LedgerError, Store, add_entry, now_ms};
use crate::engine::Cents;
use crate::host::record::{RoundRecord, cards_text, decisions_text};
use sqlx::Row;
use std::time::Duration;

/// How often an account may reset its bankroll.
pub const RESET_EVERY: Duration = Duration::from_secs(3_600);

/// Who played a settled round at a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Player {
    /// An account, by key, with its chips at the table after the round.
    Account {
        /// The account's key.
        key: String,
        /// Its chips after the round, as the table has them (the ledger must agree).
        chips_after: Cents,
    },
    /// A guest (their chips are not kept).
    Guest,
    /// One of the table's companions.
    Companion,
}

/// A round to settle: the record of its hands, who sat where, and the house's side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settlement {
    /// The table.
    pub table: String,
    /// Its rules' shorthand.
    pub rules: String,
    /// The round, over the table's whole life.
    pub round: u64,
    /// What happened.
    pub record: RoundRecord,
    /// Who played each seat that played.
    pub players: Vec<(crate::engine::SeatId, Player)>,
    /// What the house gained.
    pub house_net: Cents,
}

/// What a restart found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recovery {
    /// Rounds dealt and never settled (table, round): their bets were never taken, so they are refunded.
    pub refunded: Vec<(String, u64)>,
    /// Accounts that were seated when the server stopped with no chips, or where their seat is not known: they are up,
    /// their chips their bankroll again.
    pub unseated: u64,
    /// Accounts that were seated with chips when the server stopped, by table: their seats wait for them to come back.
    pub seated: Vec<(String, Reseat)>,
}

/// What settling a round did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settled {
    /// It was settled now (false: it had been settled before, and nothing changed).
    pub fresh: bool,
    /// The accounts whose line the ledger could not take as the table had it (kept in `disputes`): the table stands
    /// them up, and they sit again with the ledger's chips.
    pub disputed: Vec<String>,
}

/// An account seated at a table when its server stopped: the table seats it again and holds the seat for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reseat {
    pub key: String,
    pub name: String,
    pub chips: Cents,
    pub seat: u8,
}

impl Store {
    /// After a start, for the tables this server opens (other servers sharing the ledger keep theirs): their rounds
    /// left unsettled are refunded — their bets were never taken, so the accounts already hold them — and the
    /// accounts seated at them with chips are returned to be seated again in their seats (the others are up).
    pub async fn recover(&self, tables: &[String]) -> Result<Recovery, LedgerError> {
        let mut recovery = Recovery::default();
        let mut tx = self.pool.begin().await?;
        for table in tables {
            let open =
                sqlx::query("SELECT round FROM open_rounds WHERE table_id = $1 ORDER BY round")
                    .bind(table)
                    .fetch_all(&mut *tx)
                    .await?;
            for row in open {
                let round: i64 = row.try_get(0)?;
                recovery.refunded.push((table.clone(), round as u64));
                // Its number is not dealt again: the table counts on from the last round it dealt, refunded or not.
                sqlx::query(
                    "UPDATE houses SET last_round = CASE WHEN $2 > last_round THEN $2 ELSE last_round END \
                     WHERE table_id = $1",
                )
                .bind(table)
                .bind(round)
                .execute(&mut *tx)
                .await?;
            }
            sqlx::query("DELETE FROM open_rounds WHERE table_id = $1")
                .bind(table)
                .execute(&mut *tx)
                .await?;
            let seated = sqlx::query(
                "SELECT name_key, name, chips, seat FROM accounts WHERE seated_at = $1 AND seat IS NOT NULL \
                 AND chips > 0",
            )
            .bind(table)
            .fetch_all(&mut *tx)
            .await
            ?;
            for row in seated {
                let seat: i64 = row.try_get(3)?;
                let reseat = Reseat {
                    key: row.try_get(0)?,
                    name: row.try_get(1)?,
                    chips: Cents(row.try_get(2)?),
                    seat: u8::try_from(seat)
                        .map_err(|_| LedgerError::Corrupt(format!("a seat numbered {seat}")))?,
                };
                recovery.seated.push((table.clone(), reseat));
            }
            recovery.unseated += sqlx::query(
                "UPDATE accounts SET seated_at = NULL, seat = NULL WHERE seated_at = $1 AND (seat IS NULL OR chips <= 0)",
            )
            .bind(table)
            .execute(&mut *tx)
            .await
            ?
            .rows_affected();
        }
        sqlx::query("DELETE FROM sessions WHERE expires_ms < $1")
            .bind(now_ms())
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(recovery)
    }

    /// Seats the account `key`, welcomed under its sessions' `epoch`, at `table` in `seat`: its chips go in front of
    /// it there. All in the one statement that seats it, so nothing can fall between a check and the write: refused
    /// when it sits at a table already (the refusal names it), when its sessions have ended since it was welcomed
    /// (logged out, a new password), or when another account holds that seat in the ledger.
    pub async fn claim_seat(
        &self,
        key: &str,
        epoch: i64,
        table: &str,
        seat: u8,
    ) -> Result<Cents, LedgerError> {
        let claimed = sqlx::query(
            "UPDATE accounts SET seated_at = $2, seat = $3 \
             WHERE name_key = $1 AND seated_at IS NULL AND sessions_epoch = $4 RETURNING chips",
        )
        .bind(key)
        .bind(table)
        .bind(i64::from(seat))
        .bind(epoch)
        .fetch_optional(&self.pool)
        .await;
        let claimed = match claimed {
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                return Err(LedgerError::SeatTaken(seat));
            }
            claimed => claimed?,
        };
        if let Some(row) = claimed {
            return Ok(Cents(row.try_get::<i64, _>(0)?));
        }
        // Why not, as the ledger has the account now.
        let row = sqlx::query("SELECT seated_at, sessions_epoch FROM accounts WHERE name_key = $1")
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else {
            return Err(LedgerError::NoAccount);
        };
        let (at, now_epoch): (Option<String>, i64) = (row.try_get(0)?, row.try_get(1)?);
        if now_epoch != epoch {
            return Err(LedgerError::SessionEnded);
        }
        Err(LedgerError::SeatedElsewhere(at.unwrap_or_default()))
    }

    /// The account is up from `seat` at `table`: its chips are its bankroll again. (A seating that is no longer that
    /// one, a later one at another seat, is left alone.)
    pub async fn leave_seat(&self, key: &str, table: &str, seat: u8) -> Result<(), LedgerError> {
        sqlx::query(
            "UPDATE accounts SET seated_at = NULL, seat = NULL \
             WHERE name_key = $1 AND seated_at = $2 AND seat = $3",
        )
        .bind(key)
        .bind(table)
        .bind(i64::from(seat))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// A table's house and the number of the last round it dealt before (settled, or refunded after a stop), made
    /// on its first opening.
    pub async fn house(&self, table: &str, start: Cents) -> Result<(Cents, u64), LedgerError> {
        sqlx::query(
            "INSERT INTO houses (table_id, house_start, house_chips, last_round) VALUES ($1, $2, $2, 0) \
             ON CONFLICT (table_id) DO NOTHING",
        )
        .bind(table)
        .bind(start.0)
        .execute(&self.pool)
        .await
        ?;
        let row = sqlx::query("SELECT house_chips, last_round FROM houses WHERE table_id = $1")
            .bind(table)
            .fetch_one(&self.pool)
            .await?;
        let chips: i64 = row.try_get(0)?;
        let last: i64 = row.try_get(1)?;
        Ok((Cents(chips), last as u64))
    }

    /// A round was dealt: until it settles, a restart refunds it.
    pub async fn round_dealt(&self, table: &str, round: u64) -> Result<(), LedgerError> {
        sqlx::query(
            "INSERT INTO open_rounds (table_id, round, started_ms) VALUES ($1, $2, $3) \
             ON CONFLICT (table_id, round) DO NOTHING",
        )
        .bind(table)
        .bind(round as i64)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Settles a round in one transaction. A round settled before changes nothing (`fresh` is false). Every
    /// account's line is taken as what happened at the table: its net is added to the account as the ledger has it
    /// seated there, whatever else another line says, so one account the table and the ledger disagree about never
    /// keeps another's win from being written. Such a line is kept in `disputes` (and the account named in the
    /// answer, for the table to stand up); one the ledger does not have seated there is not added to any account, and
    /// its net is the round's `disputed_net`, so the round still sums to zero.
    pub async fn settle(&self, settlement: &Settlement) -> Result<Settled, LedgerError> {
        let s = settlement;
        let now = now_ms();
        let mut nets = [0i64; 3];
        for (seat, player) in &s.players {
            let net = s.record.seat(*seat).map_or(Cents(0), |r| r.net()).0;
            match player {
                Player::Account { .. } => nets[0] += net,
                Player::Guest => nets[1] += net,
                Player::Companion => nets[2] += net,
            }
        }
        let dealer = cards_text(&s.record.dealer);
        let mut tx = self.pool.begin().await?;
        let fresh = sqlx::query(
            "INSERT INTO rounds (table_id, round, accounts_net, guests_net, companions_net, house_net, dealer, \
             settled_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (table_id, round) DO NOTHING",
        )
        .bind(&s.table)
        .bind(s.round as i64)
        .bind(nets[0])
        .bind(nets[1])
        .bind(nets[2])
        .bind(s.house_net.0)
        .bind(&dealer)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if fresh.rows_affected() == 0 {
            return Ok(Settled::default());
        }
        let mut settled = Settled {
            fresh: true,
            disputed: Vec::new(),
        };
        let mut disputed_net = 0i64;
        for (seat, player) in &s.players {
            let Player::Account { key, chips_after } = player else {
                continue;
            };
            let Some(record) = s.record.seat(*seat) else {
                continue;
            };
            let net = record.net();
            let row = sqlx::query(
                "UPDATE accounts SET chips = chips + $2, \
                 highscore = CASE WHEN chips + $2 > highscore THEN chips + $2 ELSE highscore END \
                 WHERE name_key = $1 AND seated_at = $3 AND seat = $4 RETURNING chips",
            )
            .bind(key)
            .bind(net.0)
            .bind(&s.table)
            .bind(i64::from(*seat))
            .fetch_optional(&mut *tx)
            .await?;
            let chips = match &row {
                Some(row) => Some(Cents(row.try_get::<i64, _>(0)?)),
                None => None,
            };
            if chips != Some(*chips_after) {
                tracing::warn!(
                    "{} round {}: {key} holds {} in the ledger but {chips_after} at the table; \
                     the line is kept as a dispute and the rest of the round settled",
                    s.table,
                    s.round,
                    chips.map_or_else(|| "no seat here".to_string(), |c| c.to_string())
                );
                sqlx::query(
                    "INSERT INTO disputes (table_id, round, name_key, net, table_chips, ledger_chips, at_ms) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7)",
                )
                .bind(&s.table)
                .bind(s.round as i64)
                .bind(key)
                .bind(net.0)
                .bind(chips_after.0)
                .bind(chips.map(|c| c.0))
                .bind(now)
                .execute(&mut *tx)
                .await?;
                settled.disputed.push(key.clone());
            }
            let Some(chips) = chips else {
                // Not seated here as the ledger has it: the net goes to no account.
                disputed_net += net.0;
                continue;
            };
            let entry = Entry {
                kind: "round",
                table: Some(&s.table),
                round: Some(s.round),
                amount: net,
                insurance: record.insurance,
                side_bets: record.side_bets.iter().map(|b| b.net).sum(),
                chips_after: chips,
            };
            add_entry(&mut tx, key, entry, now).await?;
            for side in &record.side_bets {
                sqlx::query(
                    "INSERT INTO side_bets (name_key, table_id, round, seat, bet, stake, won, net) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                )
                .bind(key)
                .bind(&s.table)
                .bind(s.round as i64)
                .bind(i64::from(*seat))
                .bind(side.bet.name())
                .bind(side.stake.0)
                .bind(side.win.map(|w| w.name()))
                .bind(side.net.0)
                .execute(&mut *tx)
                .await?;
            }
            for (i, hand) in record.hands.iter().enumerate() {
                sqlx::query(
                    "INSERT INTO hands (name_key, table_id, round, seat, hand, rules, cards, decisions, dealer, \
                     outcome, wager, net, bankroll_after, played_ms) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
                )
                .bind(key)
                .bind(&s.table)
                .bind(s.round as i64)
                .bind(i64::from(*seat))
                .bind(i as i64)
                .bind(&s.rules)
                .bind(cards_text(&hand.cards))
                .bind(decisions_text(&hand.decisions))
                .bind(&dealer)
                .bind(hand.outcome.map_or("unsettled", |o| o.label()))
                .bind(hand.wager.0)
                .bind(hand.net.0)
                .bind(chips.0)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            }
        }
        if disputed_net != 0 {
            sqlx::query(
                "UPDATE rounds SET accounts_net = accounts_net - $3, disputed_net = $3 \
                 WHERE table_id = $1 AND round = $2",
            )
            .bind(&s.table)
            .bind(s.round as i64)
            .bind(disputed_net)
            .execute(&mut *tx)
            .await?;
        }
        sqlx::query(
            "UPDATE houses SET house_chips = house_chips + $2, \
             last_round = CASE WHEN $3 > last_round THEN $3 ELSE last_round END WHERE table_id = $1",
        )
        .bind(&s.table)
        .bind(s.house_net.0)
        .bind(s.round as i64)
        .execute(&mut *tx)
        .await?;
        sqlx::query("DELETE FROM open_rounds WHERE table_id = $1 AND round = $2")
            .bind(&s.table)
            .bind(s.round as i64)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(settled)
    }

    /// Resets an out-of-chips account to `stake`, at most once an hour: the chips it gets, or why not. `at` is the
    /// seat it sits in (the table then adds the chips to it), or none when it is not seated anywhere; away from the
    /// tables, `epoch` is its sessions' epoch when the connection asking was welcomed. The rules are in the statement
    /// that resets (the chips as read, nothing reset within the hour, the seat, the epoch), so two resets at once, or a
    /// reset racing a sit or a logout, cannot both pass: the one that finds the row changed reads it again and says
    /// why not.
    pub async fn reset(
        &self,
        key: &str,
        at: Option<(&str, u8)>,
        epoch: Option<i64>,
        stake: Cents,
    ) -> Result<Cents, LedgerError> {
        let (table, seat) = at.map_or(("", -1), |(table, seat)| (table, i64::from(seat)));
        for _ in 0..3 {
            let now = now_ms();
            let since = now - RESET_EVERY.as_millis() as i64;
            let mut tx = self.pool.begin().await?;
            let row = sqlx::query(
                "SELECT chips, last_reset_ms, seated_at, seat, sessions_epoch FROM accounts WHERE name_key = $1",
            )
            .bind(key)
            .fetch_optional(&mut *tx)
            .await?;
            let Some(row) = row else {
                return Err(LedgerError::NoAccount);
            };
            let chips = Cents(row.try_get::<i64, _>(0)?);
            let last: Option<i64> = row.try_get(1)?;
            let seated_at: Option<String> = row.try_get(2)?;
            let sat: Option<i64> = row.try_get(3)?;
            let now_epoch: i64 = row.try_get(4)?;
            if epoch.is_some_and(|epoch| epoch != now_epoch) {
                return Err(LedgerError::SessionEnded);
            }
            match (at, &seated_at) {
                (None, Some(_)) => return Err(LedgerError::ChipsAtTable),
                (Some(_), _) if seated_at.as_deref() != Some(table) || sat != Some(seat) => {
                    return Err(LedgerError::NotSeatedHere);
                }
                _ => {}
            }
            if let Some(last) = last.filter(|last| *last > since) {
                let minutes = (last - since).div_euclid(60_000) + 1;
                return Err(LedgerError::ResetTooSoon { minutes });
            }
            let amount = stake - chips;
            if !amount.is_positive() {
                return Err(LedgerError::ChipsLeft);
            }
            let reset = sqlx::query(
                "UPDATE accounts SET chips = $2, last_reset_ms = $3, \
                 highscore = CASE WHEN $2 > highscore THEN $2 ELSE highscore END \
                 WHERE name_key = $1 AND chips = $4 AND (last_reset_ms IS NULL OR last_reset_ms <= $5) \
                 AND sessions_epoch = $6 \
                 AND ((seated_at IS NULL AND $7 = '') OR (seated_at = $7 AND seat = $8))",
            )
            .bind(key)
            .bind(stake.0)
            .bind(now)
            .bind(chips.0)
            .bind(since)
            .bind(now_epoch)
            .bind(table)
            .bind(seat)
            .execute(&mut *tx)
            .await?;
            if reset.rows_affected() == 0 {
                // Changed since it was read: read again, and say why not from what it is now.
                continue;
            }
            let entry = Entry {
                kind: "reset",
                table: at.map(|(table, _)| table),
                round: None,
                amount,
                insurance: Cents(0),
                side_bets: Cents(0),
                chips_after: stake,
            };
            add_entry(&mut tx, key, entry, now).await?;
            tx.commit().await?;
            return Ok(amount);
        }
        Err(LedgerError::Busy)
    }
}
