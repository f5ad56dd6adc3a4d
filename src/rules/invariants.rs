//! The rules invariants as a library check: after any action, every unit in
//! play stands on the table, on ground it may enter, overlapping nobody.
//!
//! The tests check them after every action of many random games; a soak
//! runner (or a debug build of anything driving the engine) can call
//! [`check`] the same way. Pure: it reads the state and says what is wrong.

use super::state::GameState;
use crate::battlefield::Point;
use std::fmt;

/// The first invariant a state breaks, naming the units concerned.
#[derive(Debug, Clone, PartialEq)]
pub enum Violation {
    /// A unit in play whose centre is off the table.
    OffTable {
        /// The unit's name.
        unit: String,
    },
    /// A unit in play whose base reaches over the table's edge.
    OverTheEdge {
        /// The unit's name.
        unit: String,
    },
    /// A unit in play on ground its troop type cannot enter.
    Impassable {
        /// The unit's name.
        unit: String,
        /// Where it stands.
        at: Point,
    },
    /// Two units in play whose bases overlap.
    Overlap {
        /// The first unit's name (in the state's order).
        unit: String,
        /// The other's.
        other: String,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::OffTable { unit } => write!(f, "{unit} off the table"),
            Violation::OverTheEdge { unit } => write!(f, "{unit} over the table's edge"),
            Violation::Impassable { unit, at } => {
                write!(f, "{unit} on impassable ground at {at}")
            }
            Violation::Overlap { unit, other } => write!(f, "{unit} overlaps {other}"),
        }
    }
}

impl std::error::Error for Violation {}

/// Check every invariant of `state`; the first one broken, if any.
pub fn check(state: &GameState) -> Result<(), Violation> {
    let field = &state.battlefield;
    let active: Vec<_> = state.units.iter().filter(|u| u.is_active()).collect();
    for (index, unit) in active.iter().enumerate() {
        let Some(cell) = field.grid.cell_at(unit.base.centre) else {
            return Err(Violation::OffTable {
                unit: unit.name.clone(),
            });
        };
        if !field.passable(unit.troop, cell) {
            return Err(Violation::Impassable {
                unit: unit.name.clone(),
                at: unit.base.centre,
            });
        }
        if !field.base_on_table(&unit.base) {
            return Err(Violation::OverTheEdge {
                unit: unit.name.clone(),
            });
        }
        if let Some(other) = active[index + 1..]
            .iter()
            .find(|other| unit.base.overlaps(&other.base))
        {
            return Err(Violation::Overlap {
                unit: unit.name.clone(),
                other: other.name.clone(),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Scripted;

    fn guilford() -> GameState {
        crate::rules::fixture::builtin_state("guilford", &mut Scripted::new([50, 50, 50, 50]))
    }

    #[test]
    fn a_state_breaking_each_invariant_is_named() {
        let state = guilford();
        assert_eq!(check(&state), Ok(()));

        let mut stacked = state.clone();
        let (first, second) = (0, 1);
        stacked.units[second].base = stacked.units[first].base;
        assert_eq!(
            check(&stacked),
            Err(Violation::Overlap {
                unit: state.units[first].name.clone(),
                other: state.units[second].name.clone(),
            })
        );

        let mut off = state.clone();
        off.units[0].base = off.units[0].base.moved_to(Point::new(-30.0, 10.0));
        let name = state.units[0].name.clone();
        assert_eq!(check(&off), Err(Violation::OffTable { unit: name.clone() }));

        let mut edge = state.clone();
        edge.units[0].base = edge.units[0].base.moved_to(Point::new(0.1, 24.0));
        assert_eq!(check(&edge), Err(Violation::OverTheEdge { unit: name }));
        assert!(
            check(&edge)
                .unwrap_err()
                .to_string()
                .ends_with("over the table's edge")
        );
    }
}
