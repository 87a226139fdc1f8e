//! The players of the arena, by name: the engine's levels, the opponents that are not the
//! engine (`maxn2`, `referee`, `mcts`), and the experiments on `hard` (`experiments/`).

use std::fmt;
use std::str::FromStr;

use djambi_engine::Level;

use crate::experiments;

/// A player in the arena.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Agent {
    /// The engine at a level.
    Level(Level),
    /// The Max-N-2 material baseline ([`crate::maxn`]).
    MaxN2,
    /// The outside referee's Max-N-2 player ([`crate::referee`]).
    Referee,
    /// Monte-Carlo Tree Search with progressive bias ([`crate::mcts`]), on the node budget
    /// ([`MCTS_NODES`](crate::arena::MCTS_NODES) when the match gives only a move time).
    Mcts,
    /// `hard` with an experiment's hook: [`experiments::ALL`]`[i]`.
    Experiment(usize),
}

/// The agents that are neither a level nor an experiment, by name.
const NAMED: [(&str, Agent); 3] = [
    ("maxn2", Agent::MaxN2),
    ("referee", Agent::Referee),
    ("mcts", Agent::Mcts),
];

impl Agent {
    /// Every name the arena accepts, levels first.
    pub fn names() -> Vec<&'static str> {
        let levels = Level::ALL.iter().map(|l| l.name());
        let named = NAMED.iter().map(|(name, _)| *name);
        let tried = experiments::ALL.iter().map(|e| e.name);
        levels.chain(named).chain(tried).collect()
    }

    /// The level an engine seat thinks at (an experiment is `hard` with its hook), or `None`
    /// for the agents that are not the engine.
    pub fn engine_level(self) -> Option<Level> {
        match self {
            Agent::Level(level) => Some(level),
            Agent::Experiment(_) => Some(Level::Hard),
            Agent::MaxN2 | Agent::Referee | Agent::Mcts => None,
        }
    }
}

impl fmt::Display for Agent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Agent::Level(l) => l.fmt(f),
            Agent::Experiment(i) => f.write_str(experiments::ALL[*i].name),
            other => {
                let (name, _) = NAMED
                    .iter()
                    .find(|(_, a)| a == other)
                    .expect("every other agent is named");
                f.write_str(name)
            }
        }
    }
}

impl FromStr for Agent {
    type Err = String;

    /// A level's name, `maxn2`, `referee`, `mcts`, or an experiment's name ([`Agent::names`]).
    fn from_str(s: &str) -> Result<Agent, String> {
        if let Some((_, agent)) = NAMED.iter().find(|(name, _)| *name == s) {
            return Ok(*agent);
        }
        if let Some(i) = experiments::ALL.iter().position(|e| e.name == s) {
            return Ok(Agent::Experiment(i));
        }
        s.parse().map(Agent::Level).map_err(|_| {
            let names = Agent::names();
            let (last, rest) = names.split_last().expect("agents");
            format!(
                "unknown agent {s:?} (expected {} or {last})",
                rest.join(", ")
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_parses_and_prints_back() {
        for name in Agent::names() {
            let agent: Agent = name.parse().unwrap();
            assert_eq!(agent.to_string(), name);
        }
        assert_eq!("maxn2".parse::<Agent>(), Ok(Agent::MaxN2));
        assert_eq!("hard".parse::<Agent>(), Ok(Agent::Level(Level::Hard)));
        assert_eq!(
            "hard-stop".parse::<Agent>().unwrap().engine_level(),
            Some(Level::Hard)
        );
        let err = "hard-lmr".parse::<Agent>().unwrap_err();
        assert!(
            err.contains("referee") && err.contains("hard-stop"),
            "{err}"
        );
    }
}
