//! Starting a seed-001 game: every unit placed on the table, on ground it
//! may enter, overlapping nobody; the sides the rules name found among the
//! setup's (rulings RV1–RV3, RV11).

use crate::battlefield::geometry::normalise_degrees;
use crate::dice::Roller;
use crate::rv::event::{Event, Formation};
use crate::rv::state::{
    Commander, GameSetup, GameState, MAX_BASES, MAX_UNITS, SetupError, Unit, footprint,
};
use crate::rv::table::{Kind, RvTable};
use std::sync::Arc;

impl GameState {
    /// Start a game: every unit placed on the table, on ground it may
    /// enter, overlapping nobody; the sides the rules name found among the
    /// setup's. No die is rolled at the start of a seed-001 game; the
    /// roller is taken so every engine starts the same way.
    pub fn new(
        setup: GameSetup,
        table: Arc<RvTable>,
        roller: &mut dyn Roller,
    ) -> Result<(GameState, Vec<Event>), SetupError> {
        let _ = roller;
        if setup.battlefield.ruleset.name != table.ruleset {
            return Err(SetupError::WrongRuleset {
                table: setup.battlefield.ruleset.name.clone(),
                rules: table.ruleset.clone(),
            });
        }
        let side_index = |name: &str| {
            setup
                .sides
                .iter()
                .position(|s| s == name)
                .ok_or_else(|| SetupError::UnknownSide(name.to_string()))
        };
        let attacker = side_index(&table.attacker)?;
        let defender = side_index(&table.defender)?;
        let charge_sides = table
            .charge_order
            .iter()
            .map(|name| side_index(name))
            .collect::<Result<Vec<_>, _>>()?;
        let phase_sides = table
            .sequence
            .iter()
            .map(|phase| phase.side.as_deref().map(side_index).transpose())
            .collect::<Result<Vec<_>, _>>()?;
        if setup.units.len() > MAX_UNITS || setup.commanders.len() > MAX_UNITS {
            return Err(SetupError::TooBig(format!(
                "a game may have at most {MAX_UNITS} units and {MAX_UNITS} commanders"
            )));
        }
        if setup.turns == 0 || setup.turns > 1000 {
            return Err(SetupError::TooBig(
                "a game lasts between 1 and 1000 turns".to_string(),
            ));
        }
        let battlefield = setup.battlefield.clone();
        let mut units: Vec<Unit> = Vec::new();
        for unit in &setup.units {
            let bad = |problem: String| SetupError::BadUnit {
                name: unit.name.clone(),
                problem,
            };
            let rules = table
                .troop(unit.troop)
                .ok_or_else(|| bad("is not a troop type that fights under these rules".into()))?;
            if unit.side >= setup.sides.len() {
                return Err(bad("belongs to no side".into()));
            }
            if !(1..=MAX_BASES).contains(&unit.bases) {
                return Err(bad(format!("must have 1 to {MAX_BASES} bases")));
            }
            if !(unit.centre.x.is_finite() && unit.centre.y.is_finite() && unit.facing.is_finite())
            {
                return Err(bad("stands at no number".into()));
            }
            let formation = match (rules.kind, unit.formation) {
                (Kind::Infantry, Formation::OpenOrder) if !rules.open_order => {
                    return Err(bad("may not deploy in open order".into()));
                }
                (Kind::Infantry, formation) => formation,
                _ => Formation::Line,
            };
            let placed = Unit {
                name: unit.name.clone(),
                side: unit.side,
                troop: unit.troop,
                kind: rules.kind,
                bases: unit.bases,
                start_bases: unit.bases,
                centre: unit.centre,
                facing: normalise_degrees(unit.facing),
                formation,
                mounted: rules.kind != Kind::Dragoons || unit.mounted,
                brigade: unit.brigade.clone(),
                removed: None,
                reforming: None,
                moved: false,
                pivoted_only: false,
                changed: false,
                changed_after_move: false,
                about_faced: false,
                fired: false,
                charged: false,
                engaged: false,
                cannon_hits: 0,
            };
            let base = footprint(
                &table,
                &battlefield,
                &placed,
                placed.centre,
                placed.facing,
                placed.formation,
            );
            if !battlefield.base_on_table(&base) {
                return Err(bad("does not stand wholly on the table".into()));
            }
            if battlefield
                .cells_under(&base)
                .iter()
                .any(|&cell| !battlefield.passable(unit.troop, cell))
            {
                return Err(bad("stands on ground it cannot enter".into()));
            }
            for other in &units {
                let theirs = footprint(
                    &table,
                    &battlefield,
                    other,
                    other.centre,
                    other.facing,
                    other.formation,
                );
                if base.overlaps_near(&theirs) {
                    return Err(bad(format!("overlaps `{}`", other.name)));
                }
            }
            units.push(placed);
        }
        let mut commanders = Vec::new();
        for commander in &setup.commanders {
            if commander.side >= setup.sides.len()
                || !battlefield.on_table(commander.at)
                || !(commander.at.x.is_finite() && commander.at.y.is_finite())
            {
                return Err(SetupError::BadUnit {
                    name: commander.name.clone(),
                    problem: "must be a commander of a side standing on the table".into(),
                });
            }
            commanders.push(Commander {
                name: commander.name.clone(),
                side: commander.side,
                at: commander.at,
                overall: commander.overall,
                attached: None,
                lost: false,
                acted: false,
            });
        }
        let mut state = GameState {
            table,
            battlefield,
            sides: setup.sides,
            units,
            commanders,
            turn: 1,
            turns: setup.turns,
            phase_index: 0,
            charge_step: 0,
            pending: None,
            melees: Vec::new(),
            outcome: None,
            charge_sides,
            phase_sides,
            attacker,
            defender,
        };
        let mut events = Vec::new();
        state.begin_phase(None, &mut events);
        Ok((state, events))
    }
}
