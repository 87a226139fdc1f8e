//! The circle's ratings: Weng-Lin (the Bradley-Terry multi-team form of the `skillratings`
//! crate, every player a team of one, ranked by their places), recomputed from scratch as a
//! pure function of the circle's rated games in finishing order (docs/CIRCLES.md, "Ratings").
//!
//! Bots are rated as anchors: each level has a fixed rating from the level ladder
//! (BENCHMARKS.md, "Level ladder"), which takes part in each game's update of the others and
//! never moves itself. Guests (an ordinary invite link) take no part.

use std::collections::HashMap;

use djambi_engine::Level;
use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};
use uuid::Uuid;

use super::places::GamePlaces;

/// A newcomer's mean: where `medium` stands (the middle of the ladder).
pub const START_MU: f64 = 25.0;
/// A newcomer's uncertainty (Weng-Lin's usual prior, a third of the mean).
pub const START_SIGMA: f64 = 25.0 / 3.0;
/// The uncertainty of a bot's anchor: it is known, not guessed.
pub const ANCHOR_SIGMA: f64 = 1.0;
/// Rated games before a member's rating stops being provisional.
pub const PROVISIONAL_GAMES: u32 = 5;

/// The level ladder's Elo, measured (BENCHMARKS.md, "Level ladder", run 1): each level against
/// three copies of the one below.
const LADDER_ELO: [(Level, f64); 5] = [
    (Level::Random, 0.0),
    (Level::Beginner, 283.0),
    (Level::Easy, 421.0),
    (Level::Medium, 790.0),
    (Level::Hard, 914.0),
];

/// μ per Elo point. Elo's expectation is 1 / (1 + 10^(−D/400)) = 1 / (1 + e^(−D ln10 / 400)),
/// Weng-Lin's (Bradley-Terry) 1 / (1 + e^(−Δμ / c)) with c = √(2β² + σ₁² + σ₂²), which is √2·β
/// between well-known players: so Δμ = D · ln10 / 400 · √2 · β (β = 25/6), about 0.0339.
fn mu_per_elo() -> f64 {
    std::f64::consts::LN_10 / 400.0 * std::f64::consts::SQRT_2 * WengLinConfig::new().beta
}

/// A bot's fixed rating: `medium` at a newcomer's mean, the other levels at their ladder's
/// distance from it (random −1.8, beginner 7.8, easy 12.5, medium 25.0, hard 29.2).
pub fn anchor(level: Level) -> Rating {
    let elo = |l: Level| {
        LADDER_ELO
            .iter()
            .find(|(x, _)| *x == l)
            .map_or(0.0, |(_, e)| *e)
    };
    Rating {
        mu: START_MU + (elo(level) - elo(Level::Medium)) * mu_per_elo(),
        sigma: ANCHOR_SIGMA,
    }
}

/// A rating: mean and uncertainty.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// μ.
    pub mu: f64,
    /// σ.
    pub sigma: f64,
}

impl Rating {
    /// A newcomer's.
    pub const START: Rating = Rating {
        mu: START_MU,
        sigma: START_SIGMA,
    };

    /// The rating shown: μ − 2σ, a value the player is very likely above (about 97.7 % under
    /// a normal belief), so a newcomer starts low (8.3) and climbs as their σ shrinks.
    pub fn conservative(self) -> f64 {
        self.mu - 2.0 * self.sigma
    }

    fn weng_lin(self) -> WengLinRating {
        WengLinRating {
            rating: self.mu,
            uncertainty: self.sigma,
        }
    }
}

/// A member's rating and how many rated games made it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MemberRating {
    /// The rating.
    pub rating: Rating,
    /// Rated games played.
    pub games: u32,
}

impl MemberRating {
    /// Fewer than [`PROVISIONAL_GAMES`] rated games.
    pub fn provisional(&self) -> bool {
        self.games < PROVISIONAL_GAMES
    }
}

impl Default for MemberRating {
    fn default() -> MemberRating {
        MemberRating {
            rating: Rating::START,
            games: 0,
        }
    }
}

/// The ratings after one rated game: its members' ratings after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// The game.
    pub game: Uuid,
    /// When it finished (ms).
    pub finished_at: i64,
    /// Each of its members' ratings after it.
    pub after: Vec<(Uuid, Rating)>,
}

/// Every member's rating, and their history.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ratings {
    /// Each member who played a rated game.
    pub members: HashMap<Uuid, MemberRating>,
    /// The rated games in finishing order, each with its members' ratings after it.
    pub history: Vec<Point>,
}

impl Ratings {
    /// A member's rating (a newcomer's when they have played no rated game).
    pub fn of(&self, member: Uuid) -> MemberRating {
        self.members.get(&member).copied().unwrap_or_default()
    }
}

/// The finishing order: by the time of the event that ended each game, then by id.
pub fn finishing_order<'a>(games: impl IntoIterator<Item = &'a GamePlaces>) -> Vec<&'a GamePlaces> {
    let mut games: Vec<&GamePlaces> = games.into_iter().collect();
    games.sort_by_key(|a| (a.finished_at, a.game));
    games
}

/// The ratings of a circle from its games' places: the rated ones, in finishing order, each
/// one Weng-Lin update of its members (and its bots as fixed anchors) ranked by place.
pub fn rate<'a>(games: impl IntoIterator<Item = &'a GamePlaces>) -> Ratings {
    let config = WengLinConfig::new();
    let mut ratings = Ratings::default();
    for game in finishing_order(games).into_iter().filter(|g| g.rated) {
        // Members and bots take part; guests do not.
        let players: Vec<(Option<Uuid>, Rating, u8)> = game
            .seats
            .iter()
            .filter_map(|s| match (s.member, s.bot) {
                (Some(m), _) => Some((Some(m), ratings.of(m).rating, s.place)),
                (None, Some(bot)) => Some((None, anchor(bot.0), s.place)),
                (None, None) => None,
            })
            .collect();
        if players.iter().filter(|(m, _, _)| m.is_some()).count() < 2 {
            continue;
        }
        let teams: Vec<[WengLinRating; 1]> =
            players.iter().map(|(_, r, _)| [r.weng_lin()]).collect();
        let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
            .iter()
            .zip(&players)
            .map(|(team, (_, _, place))| (&team[..], MultiTeamOutcome::new(usize::from(*place))))
            .collect();
        let after = weng_lin_multi_team(&ranked, &config);
        let mut point = Point {
            game: game.game,
            finished_at: game.finished_at,
            after: Vec::new(),
        };
        for ((member, _, _), new) in players.iter().zip(after) {
            // Anchors never move.
            let Some(member) = member else { continue };
            let rating = Rating {
                mu: new[0].rating,
                sigma: new[0].uncertainty,
            };
            let entry = ratings.members.entry(*member).or_default();
            entry.rating = rating;
            entry.games += 1;
            point.after.push((*member, rating));
        }
        ratings.history.push(point);
    }
    ratings
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circle::places::{End, SeatPlace};
    use crate::table::BotLevel;
    use djambi_core::Army::*;

    fn m(i: u128) -> Uuid {
        Uuid::from_u128(i)
    }

    /// A rated game finished at `at` with these (member or bot, place) seats.
    fn game(id: u128, at: i64, seats: &[(Option<u128>, Option<Level>, u8)]) -> GamePlaces {
        let members = seats.iter().filter(|s| s.0.is_some()).count();
        GamePlaces {
            game: Uuid::from_u128(1000 + id),
            finished_at: at,
            rated: members >= 2,
            seats: seats
                .iter()
                .zip([Red, Blue, Yellow, Green])
                .map(|((member, bot, place), seat)| SeatPlace {
                    seat,
                    place: *place,
                    member: member.map(m),
                    bot: bot.map(BotLevel),
                    end: if *place == 1 { End::Won } else { End::Out },
                })
                .collect(),
        }
    }

    #[test]
    fn the_anchors_follow_the_ladder() {
        let mus: Vec<f64> = LADDER_ELO.iter().map(|(l, _)| anchor(*l).mu).collect();
        assert!(mus.windows(2).all(|w| w[0] < w[1]), "{mus:?}");
        assert!((anchor(Level::Medium).mu - START_MU).abs() < 1e-9);
        assert!((anchor(Level::Easy).mu - 12.48).abs() < 0.05, "{mus:?}");
        assert!((anchor(Level::Hard).mu - 29.2).abs() < 0.05, "{mus:?}");
    }

    #[test]
    fn winners_climb_losers_fall_and_bots_stay() {
        let g = game(
            1,
            10,
            &[
                (Some(1), None, 1),
                (Some(2), None, 4),
                (None, Some(Level::Easy), 2),
                (None, Some(Level::Hard), 3),
            ],
        );
        let r = rate([&g]);
        assert!(r.of(m(1)).rating.mu > START_MU);
        assert!(r.of(m(2)).rating.mu < START_MU);
        assert!(r.of(m(1)).rating.sigma < START_SIGMA);
        assert_eq!(r.of(m(1)).games, 1);
        assert!(r.of(m(1)).provisional());
        assert_eq!(r.members.len(), 2, "bots are anchors, not members");
        assert_eq!(r.history.len(), 1);
        assert_eq!(r.history[0].after.len(), 2);
    }

    #[test]
    fn a_shared_place_moves_equal_players_alike() {
        let g = game(
            1,
            10,
            &[(Some(1), None, 1), (Some(2), None, 1), (Some(3), None, 3)],
        );
        let r = rate([&g]);
        assert!((r.of(m(1)).rating.mu - r.of(m(2)).rating.mu).abs() < 1e-9);
        assert!(r.of(m(3)).rating.mu < START_MU);
    }

    #[test]
    fn ratings_are_a_function_of_the_games_in_finishing_order() {
        let a = game(1, 10, &[(Some(1), None, 1), (Some(2), None, 2)]);
        let b = game(2, 20, &[(Some(2), None, 1), (Some(1), None, 2)]);
        let unrated = game(3, 15, &[(Some(1), None, 1), (None, Some(Level::Hard), 2)]);
        // Given in any order, the same ratings: they are sorted by finishing time first.
        let one = rate([&a, &unrated, &b]);
        let two = rate([&b, &a, &unrated]);
        assert_eq!(one, two);
        assert_eq!(one.history.len(), 2, "a game with one member is not rated");
        // The order matters: the later game weighs on the final ratings differently.
        let swapped = rate([
            &GamePlaces {
                finished_at: 30,
                ..a.clone()
            },
            &b,
        ]);
        assert_ne!(one.of(m(1)).rating, swapped.of(m(1)).rating);
    }

    #[test]
    fn guests_take_no_part() {
        let with_guest = game(
            1,
            10,
            &[(Some(1), None, 2), (Some(2), None, 3), (None, None, 1)],
        );
        let without = game(1, 10, &[(Some(1), None, 1), (Some(2), None, 2)]);
        assert_eq!(rate([&with_guest]), rate([&without]));
    }

    #[test]
    fn the_conservative_rating_is_mu_minus_two_sigma() {
        assert!((Rating::START.conservative() - (25.0 - 50.0 / 3.0)).abs() < 1e-9);
    }
}
