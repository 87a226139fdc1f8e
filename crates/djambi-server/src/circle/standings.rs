//! What a circle's page shows, from its members, its games and their places: the standings,
//! the head-to-head grid, the ratings over time and the games list. Pure.

use std::collections::{BTreeMap, HashMap};

use uuid::Uuid;

use super::places::{End, GamePlaces};
use super::rating::{Ratings, anchor, rate};
use super::{CircleGameRow, CircleRow, MemberRow};
use crate::clock::rfc3339;
use crate::protocol::circle::{
    CircleGame, CircleSeat, CircleView, HeadToHead, RatingPoint, Standing,
};
use crate::table::BotLevel;

/// Two decimals, as the API gives ratings and average places.
fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The page of `circle` as `you` reads it.
pub fn view(
    circle: &CircleRow,
    you: Uuid,
    members: &[MemberRow],
    games: &[CircleGameRow],
    places: &[GamePlaces],
) -> CircleView {
    let ratings = rate(places);
    let by_game: HashMap<Uuid, &GamePlaces> = places.iter().map(|p| (p.game, p)).collect();
    let anchors = djambi_engine::Level::ALL
        .iter()
        .map(|l| (l.name().to_string(), round2(anchor(*l).mu)))
        .collect();
    CircleView {
        id: circle.id,
        name: circle.name.clone(),
        creator: circle.creator,
        you,
        members: standings(members, places, &ratings),
        games: games.iter().map(|g| game(g, by_game.get(&g.id))).collect(),
        head_to_head: head_to_head(places),
        history: ratings
            .history
            .iter()
            .map(|p| RatingPoint {
                game: p.game,
                finished: rfc3339(p.finished_at),
                ratings: p
                    .after
                    .iter()
                    .map(|(m, r)| (*m, round2(r.conservative())))
                    .collect(),
            })
            .collect(),
        anchors,
    }
}

/// Every member, best conservative rating first (then more games, then name).
pub fn standings(members: &[MemberRow], places: &[GamePlaces], ratings: &Ratings) -> Vec<Standing> {
    let mut out: Vec<Standing> = members
        .iter()
        .map(|m| {
            let rated = places.iter().filter(|g| g.rated).filter_map(|g| {
                g.seats
                    .iter()
                    .find(|s| s.member == Some(m.id))
                    .map(|s| (g, s))
            });
            let (mut wins, mut draws, mut sum, mut n, mut last) = (0, 0, 0u32, 0u32, None);
            for (g, s) in rated {
                wins += u32::from(s.end == End::Won);
                draws += u32::from(s.end == End::Drew);
                sum += u32::from(s.place);
                n += 1;
                last = last.max(Some(g.finished_at));
            }
            let rating = ratings.of(m.id);
            Standing {
                id: m.id,
                name: m.name.clone(),
                status: m.status.as_str(),
                rating: round2(rating.rating.conservative()),
                mu: round2(rating.rating.mu),
                sigma: round2(rating.rating.sigma),
                provisional: rating.provisional(),
                games: n,
                wins,
                draws,
                average_place: (n > 0).then(|| round2(f64::from(sum) / f64::from(n))),
                last_played: last.map(rfc3339),
            }
        })
        .collect();
    out.sort_by(|a, b| {
        b.rating
            .total_cmp(&a.rating)
            .then(b.games.cmp(&a.games))
            .then_with(|| a.name.cmp(&b.name))
            .then(a.id.cmp(&b.id))
    });
    out
}

/// For each pair of members who played a rated game together (`a` < `b` by id): how often
/// each finished ahead of the other; a shared place counts for neither.
pub fn head_to_head(places: &[GamePlaces]) -> Vec<HeadToHead> {
    let mut pairs: BTreeMap<(Uuid, Uuid), HeadToHead> = BTreeMap::new();
    for g in places.iter().filter(|g| g.rated) {
        let seats: Vec<(Uuid, u8)> = g
            .seats
            .iter()
            .filter_map(|s| s.member.map(|m| (m, s.place)))
            .collect();
        for (i, &(x, px)) in seats.iter().enumerate() {
            for &(y, py) in &seats[i + 1..] {
                let ((a, pa), (b, pb)) = if x < y {
                    ((x, px), (y, py))
                } else {
                    ((y, py), (x, px))
                };
                let pair = pairs.entry((a, b)).or_insert(HeadToHead {
                    a,
                    b,
                    ahead: 0,
                    behind: 0,
                    games: 0,
                });
                pair.games += 1;
                pair.ahead += u32::from(pa < pb);
                pair.behind += u32::from(pa > pb);
            }
        }
    }
    pairs.into_values().collect()
}

/// A game of the list, with its places once it is over.
fn game(g: &CircleGameRow, places: Option<&&GamePlaces>) -> CircleGame {
    let place_of = |p| places.and_then(|pl| pl.seats.iter().find(|s| s.seat == p));
    CircleGame {
        id: g.id,
        status: g.status,
        finished: places.map(|p| rfc3339(p.finished_at)),
        rated: places.is_some_and(|p| p.rated),
        places: places
            .map(|p| p.seats.iter().map(|s| (s.seat, s.place)).collect())
            .unwrap_or_default(),
        seats: g
            .seats
            .iter()
            .map(|s| CircleSeat {
                player: s.player,
                name: s.name.clone(),
                claimed: s.claimed,
                member: s.member,
                bot: s.bot.map(BotLevel),
                end: place_of(s.player).map(|p| p.end.as_str()),
            })
            .collect(),
        created_at: rfc3339(g.created_at),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circle::places::SeatPlace;
    use crate::circle::{MemberStatus, rating::PROVISIONAL_GAMES};
    use djambi_core::Army::*;

    fn m(i: u128) -> Uuid {
        Uuid::from_u128(i)
    }

    fn member(i: u128, name: &str) -> MemberRow {
        MemberRow {
            id: m(i),
            name: name.into(),
            status: MemberStatus::Member,
            joined_at: 0,
        }
    }

    fn game(id: u128, at: i64, seats: &[(u128, u8, End)]) -> GamePlaces {
        GamePlaces {
            game: Uuid::from_u128(100 + id),
            finished_at: at,
            rated: true,
            seats: seats
                .iter()
                .zip([Red, Blue, Yellow, Green])
                .map(|(&(member, place, end), seat)| SeatPlace {
                    seat,
                    place,
                    member: Some(m(member)),
                    bot: None,
                    end,
                })
                .collect(),
        }
    }

    #[test]
    fn standings_count_games_wins_draws_and_places() {
        let members = [member(1, "Ann"), member(2, "Bea"), member(3, "Cid")];
        let places = [
            game(
                1,
                10,
                &[(1, 1, End::Won), (2, 2, End::Out), (3, 3, End::Out)],
            ),
            game(
                2,
                20,
                &[(1, 1, End::Drew), (2, 1, End::Drew), (3, 3, End::Out)],
            ),
        ];
        let s = standings(&members, &places, &rate(&places));
        let ann = s.iter().find(|x| x.name == "Ann").unwrap();
        assert_eq!((ann.games, ann.wins, ann.draws), (2, 1, 1));
        assert_eq!(ann.average_place, Some(1.0));
        assert!(ann.provisional && ann.games < PROVISIONAL_GAMES);
        let cid = s.iter().find(|x| x.name == "Cid").unwrap();
        assert_eq!(cid.average_place, Some(3.0));
        assert_eq!(s[0].name, "Ann", "best first");
        assert_eq!(s[2].name, "Cid");
        assert!(s.windows(2).all(|w| w[0].rating >= w[1].rating));
    }

    #[test]
    fn head_to_head_counts_each_pair_in_the_games_both_played() {
        let places = [
            game(
                1,
                10,
                &[(1, 1, End::Won), (2, 2, End::Out), (3, 3, End::Out)],
            ),
            game(
                2,
                20,
                &[(2, 1, End::Drew), (1, 1, End::Drew), (3, 3, End::Out)],
            ),
            game(3, 30, &[(3, 1, End::Won), (2, 2, End::Out)]),
        ];
        let h = head_to_head(&places);
        let pair = |a, b| h.iter().find(|x| x.a == m(a) && x.b == m(b)).unwrap();
        assert_eq!(
            (pair(1, 2).ahead, pair(1, 2).behind, pair(1, 2).games),
            (1, 0, 2)
        );
        assert_eq!(
            (pair(1, 3).ahead, pair(1, 3).behind, pair(1, 3).games),
            (2, 0, 2)
        );
        assert_eq!(
            (pair(2, 3).ahead, pair(2, 3).behind, pair(2, 3).games),
            (2, 1, 3)
        );
        assert_eq!(h.len(), 3);
    }
}
