//! The experiments on `hard`: each one file of this folder, plugged into the engine's search
//! through its one extension point, an [`IterationHook`] called after each completed iteration
//! (`djambi_engine::search::hook`), and registered here, in [`ALL`], under the name the arena
//! knows it by (`--a hard-stop`). Dropping an experiment is deleting its file and its lines
//! here; the engine does not change. `tests/module_layers.rs` checks that each file is one
//! experiment, registered once, that no other module names it, and that none names another.
//!
//! What each experiment found is in `docs/lab/` (`docs/lab/README.md` lists the records, those
//! of the experiments deleted since included).

use djambi_engine::search::IterationHook;

mod hard_stop;

/// An experiment the arena can seat: `hard` with a hook.
pub struct Experiment {
    /// Its name in the arena (`--a NAME`), its file's name with `-` for `_`.
    pub name: &'static str,
    /// What it changes in `hard`, in one line.
    pub summary: &'static str,
    /// A fresh hook for one engine seat.
    pub hook: fn() -> Box<dyn IterationHook>,
}

/// Every experiment, by name. An experiment's file gives its `NAME`, `SUMMARY` and `hook`.
pub const ALL: &[Experiment] = &[Experiment {
    name: hard_stop::NAME,
    summary: hard_stop::SUMMARY,
    hook: hard_stop::hook,
}];
