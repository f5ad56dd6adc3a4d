//! The carrying-out of an order as candidate actions under seeds 001 and
//! 002, as under seed 000 (`crate::host::opponent::awi::act::candidates`): each plan
//! rule that can take a hand in what a unit does, and the order's own
//! instruction ([`ORDER`]), is a candidate that says whether it applies to
//! the unit here and, when it does, what the unit does and why. Each
//! engine's module lists its candidates in one fixed order over a context
//! worked out once beforehand; the first that applies decides, and what
//! the unit did names it ([`super::Did::by`]), which `why UNIT` shows.
//!
//! Pure: a candidate reads the game and the opponent, and never acts.

use super::Opponent;

#[cfg(doc)]
use super::ORDER;

/// What a candidate makes of the unit, tried in its context.
pub(super) enum Tried<T> {
    /// It does not apply here: the next candidate is tried.
    Passes,
    /// It applies, and the unit does this.
    Acts(T),
    /// It applies, and the unit does nothing on it now: no candidate after
    /// it is tried.
    Stands,
}

impl<T> Tried<T> {
    /// A candidate that applies: what it found to do, or nothing.
    pub(super) fn applies(found: Option<T>) -> Tried<T> {
        found.map_or(Tried::Stands, Tried::Acts)
    }

    /// A candidate that applies only if it found something to do.
    pub(super) fn acts_if(found: Option<T>) -> Tried<T> {
        found.map_or(Tried::Passes, Tried::Acts)
    }
}

/// A candidate's trial over the context `C`.
pub(super) type Trial<C, T> = fn(&mut Opponent, &C) -> Tried<T>;

/// One candidate: whom it speaks for, and its trial.
pub(super) struct Candidate<C, T> {
    /// A plan rule's name (`tables/opponent.yaml`), or [`ORDER`] for the
    /// order's own instruction.
    pub(super) name: &'static str,
    /// Its trial.
    pub(super) trial: Trial<C, T>,
}

/// A candidate named `name`, tried by `trial`.
pub(super) const fn candidate<C, T>(name: &'static str, trial: Trial<C, T>) -> Candidate<C, T> {
    Candidate { name, trial }
}

/// The first of `candidates` that applies in `context`, in order: its name
/// and what the unit does on it (`None`: it stands). `None` when none
/// applies.
pub(super) fn first<C, T>(
    opponent: &mut Opponent,
    context: &C,
    candidates: &[Candidate<C, T>],
) -> Option<(&'static str, Option<T>)> {
    candidates
        .iter()
        .find_map(|candidate| match (candidate.trial)(opponent, context) {
            Tried::Passes => None,
            Tried::Acts(found) => Some((candidate.name, Some(found))),
            Tried::Stands => Some((candidate.name, None)),
        })
}
