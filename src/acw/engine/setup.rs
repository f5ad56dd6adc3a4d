//! Starting a seed-002 game: the units placed and checked, the optional
//! rules taken from the scenario or the caller, and the first turn's
//! activation dice thrown (rulings AC2, AC3, AC13).

use crate::acw::event::Event;
use crate::acw::state::{GameSetup, GameState, Outcome, Phase, SetupError, Side, Unit};
use crate::acw::table::{AcwTable, Formation};
use crate::dice::Roller;
use crate::scenario::Condition;
use std::sync::Arc;

impl GameState {
    /// Validate `setup` and start the game: turn 1's dice are rolled (and
    /// the initiative, if that rule is on), so the events are the first of
    /// the record.
    pub fn new(
        setup: GameSetup,
        table: Arc<AcwTable>,
        roller: &mut dyn Roller,
    ) -> Result<(GameState, Vec<Event>), SetupError> {
        if setup.forces.len() != 2 {
            return Err(SetupError::Sides(setup.forces.len()));
        }
        if setup.first > 1 {
            return Err(SetupError::NoSuchSide(setup.first));
        }
        if setup.turns == 0 {
            return Err(SetupError::NoTurns);
        }
        for victory in &setup.victory {
            let side = match &victory.when {
                Condition::RoutFraction { side, .. }
                | Condition::RoutOrExit { side, .. }
                | Condition::HoldArea { side, .. } => *side,
            };
            for index in [victory.winner, side] {
                if index > 1 {
                    return Err(SetupError::NoSuchSide(index));
                }
            }
        }
        let battlefield = setup.battlefield.clone();
        let mut units: Vec<Unit> = Vec::new();
        let mut sides = Vec::new();
        for (side_index, force) in setup.forces.iter().enumerate() {
            sides.push(Side {
                name: force.name.clone(),
                edge: force.edge,
                extra_dice: force.extra_dice.min(100),
            });
            for unit in &force.units {
                let bad = |problem: &str| SetupError::BadUnit {
                    name: unit.name.clone(),
                    problem: problem.to_string(),
                };
                let Some(troop) = battlefield.ruleset.troop_types.get(unit.troop.0) else {
                    return Err(bad("has a troop type this rule set does not have"));
                };
                if table.move_of(unit.troop, Formation::Line).is_none() {
                    return Err(bad("is of a troop type with no moves in this rule set"));
                }
                if table.move_of(unit.troop, unit.formation).is_none() {
                    return Err(bad(&format!(
                        "cannot be drawn up in {} (seed 002 formations)",
                        unit.formation
                    )));
                }
                if !battlefield.base_on_table(&unit.base) {
                    return Err(bad("is off the table"));
                }
                if let Some(other) = units.iter().find(|u| u.base.overlaps(&unit.base)) {
                    return Err(bad(&format!("overlaps `{}`", other.name)));
                }
                let placed = Unit {
                    name: unit.name.clone(),
                    side: side_index,
                    troop: unit.troop,
                    category: troop.category,
                    base: unit.base,
                    formation: unit.formation,
                    hits: 0,
                    die: None,
                    tie_rolls: Vec::new(),
                    activated: false,
                    removed: false,
                    reaction_class: unit
                        .reaction_class
                        .clone()
                        .or_else(|| troop.reaction_class.clone()),
                };
                units.push(placed);
            }
        }
        let mut state = GameState {
            table,
            battlefield,
            sides,
            units,
            optional: setup.optional,
            victory: setup.victory,
            first: setup.first,
            turns: setup.turns,
            turn: 0,
            phase: Phase::Activating,
            pools: [Vec::new(), Vec::new()],
            pile: Vec::new(),
            outcome: Outcome::Playing,
        };
        for index in 0..state.units.len() {
            let unit = &state.units[index];
            if !state.base_ground_ok(&unit.base, unit.mode(), unit.formation) {
                return Err(SetupError::BadUnit {
                    name: unit.name.clone(),
                    problem: "stands on ground it may not enter".to_string(),
                });
            }
        }
        let mut events = Vec::new();
        state.begin_turn(roller, &mut events);
        Ok((state, events))
    }
}
