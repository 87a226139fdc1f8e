//! Armies and players (R2.1), roles, pieces and the content of a square.

use std::fmt;

/// One of the four armies, by colour (R2.1). A player is named by its own army's colour.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Army {
    /// Red, `r`.
    Red = 0,
    /// Blue, `b`.
    Blue = 1,
    /// Yellow, `y`.
    Yellow = 2,
    /// Green, `g`.
    Green = 3,
}

/// A player is named by the colour of its own army (R2.3).
pub type Player = Army;

impl Army {
    /// The four armies in base order (R8.1): red, blue, yellow, green.
    pub const ALL: [Army; 4] = [Army::Red, Army::Blue, Army::Yellow, Army::Green];

    /// The army with index 0–3 (base order).
    pub const fn from_index(i: usize) -> Army {
        Army::ALL[i & 3]
    }

    /// The index of this army in base order.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The army's letter: `r`, `b`, `y` or `g`.
    pub const fn char(self) -> char {
        match self {
            Army::Red => 'r',
            Army::Blue => 'b',
            Army::Yellow => 'y',
            Army::Green => 'g',
        }
    }

    /// The army with this letter (lower-case only, as in DPN).
    pub const fn from_char(c: char) -> Option<Army> {
        match c {
            'r' => Some(Army::Red),
            'b' => Some(Army::Blue),
            'y' => Some(Army::Yellow),
            'g' => Some(Army::Green),
            _ => None,
        }
    }

    /// The army's name in English, capitalised (`Red`).
    pub const fn name(self) -> &'static str {
        match self {
            Army::Red => "Red",
            Army::Blue => "Blue",
            Army::Yellow => "Yellow",
            Army::Green => "Green",
        }
    }

    /// The next army in base order, wrapping from green to red.
    pub const fn next(self) -> Army {
        Army::from_index(self.index() + 1)
    }
}

impl fmt::Display for Army {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

impl serde::Serialize for Army {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut buf = [0u8; 4];
        s.serialize_str(self.char().encode_utf8(&mut buf))
    }
}

impl<'de> serde::Deserialize<'de> for Army {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Army, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        let mut chars = s.chars();
        match (chars.next().and_then(Army::from_char), chars.next()) {
            (Some(a), None) => Ok(a),
            _ => Err(serde::de::Error::custom(format!(
                "not a player (r, b, y or g): {s:?}"
            ))),
        }
    }
}

/// A set of armies (or players), as a 4-bit mask in base order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ArmySet(u8);

impl ArmySet {
    /// The empty set.
    pub const EMPTY: ArmySet = ArmySet(0);

    /// The set holding only `a`.
    pub const fn single(a: Army) -> ArmySet {
        ArmySet(1 << a as u8)
    }

    /// Whether `a` is in the set.
    pub const fn contains(self, a: Army) -> bool {
        self.0 & (1 << a as u8) != 0
    }

    /// The set with `a` added.
    pub const fn with(self, a: Army) -> ArmySet {
        ArmySet(self.0 | 1 << a as u8)
    }

    /// The set without `a`.
    pub const fn without(self, a: Army) -> ArmySet {
        ArmySet(self.0 & !(1 << a as u8))
    }

    /// The number of armies in the set.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every army of `other` is in `self`.
    pub const fn is_superset(self, other: ArmySet) -> bool {
        self.0 & other.0 == other.0
    }

    /// The armies of the set, in base order.
    pub fn iter(self) -> impl Iterator<Item = Army> {
        Army::ALL.into_iter().filter(move |a| self.contains(*a))
    }
}

impl FromIterator<Army> for ArmySet {
    fn from_iter<I: IntoIterator<Item = Army>>(iter: I) -> ArmySet {
        iter.into_iter().fold(ArmySet::EMPTY, ArmySet::with)
    }
}

impl fmt::Debug for ArmySet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for ArmySet {
    /// The letters in base order (`by`), or `-` for the empty set (as DPN's `passed` field).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        self.iter().try_for_each(|a| write!(f, "{a}"))
    }
}

impl serde::Serialize for ArmySet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// Reads what [`ArmySet`]'s `Serialize` writes: a list of players (`["r", "y"]`), in any order,
/// each at most once.
impl<'de> serde::Deserialize<'de> for ArmySet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ArmySet, D::Error> {
        let armies = <Vec<Army>>::deserialize(d)?;
        let set: ArmySet = armies.iter().copied().collect();
        if set.len() != armies.len() {
            return Err(serde::de::Error::custom("a player is listed twice"));
        }
        Ok(set)
    }
}

/// The role of a piece (R2.1).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Role {
    /// The Chief, `C` (R4.1).
    Chief = 0,
    /// The Assassin, `A` (R4.3).
    Assassin = 1,
    /// The Reporter, `R` (R4.4).
    Reporter = 2,
    /// The Diplomat, `D` (the rulebook's "Provocateur", R5.1).
    Diplomat = 3,
    /// The Necromobile, `N` (R5.2).
    Necromobile = 4,
    /// A Militant, `M` (R4.2).
    Militant = 5,
}

impl Role {
    /// All six roles.
    pub const ALL: [Role; 6] = [
        Role::Chief,
        Role::Assassin,
        Role::Reporter,
        Role::Diplomat,
        Role::Necromobile,
        Role::Militant,
    ];

    /// The role's DPN letter: `C A R D N M`.
    pub const fn char(self) -> char {
        match self {
            Role::Chief => 'C',
            Role::Assassin => 'A',
            Role::Reporter => 'R',
            Role::Diplomat => 'D',
            Role::Necromobile => 'N',
            Role::Militant => 'M',
        }
    }

    /// The role with this DPN letter (upper-case only).
    pub const fn from_char(c: char) -> Option<Role> {
        match c {
            'C' => Some(Role::Chief),
            'A' => Some(Role::Assassin),
            'R' => Some(Role::Reporter),
            'D' => Some(Role::Diplomat),
            'N' => Some(Role::Necromobile),
            'M' => Some(Role::Militant),
            _ => None,
        }
    }

    /// The role's name in English (`Assassin`).
    pub const fn name(self) -> &'static str {
        match self {
            Role::Chief => "Chief",
            Role::Assassin => "Assassin",
            Role::Reporter => "Reporter",
            Role::Diplomat => "Diplomat",
            Role::Necromobile => "Necromobile",
            Role::Militant => "Militant",
        }
    }
}

impl serde::Serialize for Role {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// A living piece: an army and a role.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize)]
pub struct Piece {
    /// The army the piece belongs to (it never changes, R6.3).
    pub army: Army,
    /// The piece's role.
    pub role: Role,
}

impl fmt::Display for Piece {
    /// DPN form: role letter then army letter (`Cr`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.role.char(), self.army.char())
    }
}

/// What a square holds: nothing, a corpse, or a living piece (R2.6).
///
/// Stored in one byte: 0 empty, 1 corpse, `2 + army * 6 + role` for a living piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Cell(u8);

impl Cell {
    /// An empty square.
    pub const EMPTY: Cell = Cell(0);
    /// A corpse (corpses carry no colour, R2.6).
    pub const CORPSE: Cell = Cell(1);

    /// A square holding the living piece `p`.
    pub const fn living(p: Piece) -> Cell {
        Cell(2 + p.army as u8 * 6 + p.role as u8)
    }

    /// The raw encoding (0 empty, 1 corpse, `2 + army * 6 + role`), for lookup tables.
    pub(crate) const fn bits(self) -> u8 {
        self.0
    }

    /// The number of distinct cell values ([`Cell::bits`] is below this).
    pub(crate) const VALUES: usize = 26;

    /// Whether the square is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the square holds a corpse.
    pub const fn is_corpse(self) -> bool {
        self.0 == 1
    }

    /// The living piece on the square, if any.
    pub const fn piece(self) -> Option<Piece> {
        if self.0 < 2 {
            None
        } else {
            let i = self.0 - 2;
            Some(Piece {
                army: Army::from_index((i / 6) as usize),
                role: Role::ALL[(i % 6) as usize],
            })
        }
    }

    /// The army of the living piece on the square, if any.
    pub const fn army(self) -> Option<Army> {
        if self.0 < 2 {
            None
        } else {
            Some(Army::from_index(((self.0 - 2) / 6) as usize))
        }
    }

    /// The role of the living piece on the square, if any.
    pub const fn role(self) -> Option<Role> {
        if self.0 < 2 {
            None
        } else {
            Some(Role::ALL[((self.0 - 2) % 6) as usize])
        }
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.piece() {
            Some(p) => write!(f, "{p}"),
            None if self.is_corpse() => f.write_str("X"),
            None => f.write_str("."),
        }
    }
}

/// Who controls an army (R2.4, R9.4, R11).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Controller {
    /// A living player moves this army.
    Player(Player),
    /// Nobody: the army is orphaned (R9.4).
    Orphaned,
    /// The hostage army of a 3-player game (R11).
    Hostage,
}

impl Controller {
    /// The DPN letter: the player's letter, `-` or `h`.
    pub const fn char(self) -> char {
        match self {
            Controller::Player(p) => p.char(),
            Controller::Orphaned => '-',
            Controller::Hostage => 'h',
        }
    }

    /// The controlling player, if any.
    pub const fn player(self) -> Option<Player> {
        match self {
            Controller::Player(p) => Some(p),
            _ => None,
        }
    }
}

impl serde::Serialize for Controller {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut buf = [0u8; 4];
        s.serialize_str(self.char().encode_utf8(&mut buf))
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn army_sets_read_back_what_they_write() {
        let set: ArmySet = [Army::Red, Army::Green].into_iter().collect();
        let text = serde_json::to_string(&set).unwrap();
        assert_eq!(text, r#"["r","g"]"#);
        assert_eq!(serde_json::from_str::<ArmySet>(&text).unwrap(), set);
        assert_eq!(
            serde_json::from_str::<ArmySet>("[]").unwrap(),
            ArmySet::EMPTY
        );
        for bad in [r#"["r","r"]"#, r#"["x"]"#, r#""rg""#] {
            assert!(serde_json::from_str::<ArmySet>(bad).is_err(), "{bad}");
        }
    }

    use super::*;

    #[test]
    fn cells_round_trip() {
        for army in Army::ALL {
            for role in Role::ALL {
                let p = Piece { army, role };
                let c = Cell::living(p);
                assert_eq!(c.piece(), Some(p));
                assert_eq!(c.army(), Some(army));
                assert_eq!(c.role(), Some(role));
            }
        }
        assert_eq!(Cell::EMPTY.piece(), None);
        assert!(Cell::CORPSE.is_corpse());
    }

    #[test]
    fn r2_1_four_armies_six_roles() {
        assert_eq!(Army::ALL.map(Army::char), ['r', 'b', 'y', 'g']);
        assert_eq!(Role::ALL.map(Role::char), ['C', 'A', 'R', 'D', 'N', 'M']);
    }

    #[test]
    fn army_sets() {
        let s: ArmySet = [Army::Yellow, Army::Blue].into_iter().collect();
        assert_eq!(s.to_string(), "by");
        assert_eq!(ArmySet::EMPTY.to_string(), "-");
        assert_eq!(s.len(), 2);
        assert!(s.without(Army::Blue).contains(Army::Yellow));
    }
}
