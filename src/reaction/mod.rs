//! The Lone Warrior reaction test: a unit's situation and a D6 in, an order
//! and what the unit physically does out, with every factor that made it.
//!
//! Pure: no dice are rolled here. The caller rolls (or forces) the die and
//! passes it in; [`odds`] enumerates the die's faces for exact probabilities.

use crate::error::{Error, Result};
use crate::tables::{
    Character, ClassKind, Column, Condition, FactorId, Formation, Instruction, Order, Tables,
    TroopClass,
};
use serde::Serialize;

/// Everything the reaction test needs to know about a unit this bound.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Situation {
    /// Troop class id or alias (`rangers`, `indians`, …).
    pub class: String,
    /// The ground the unit stands in: open, natural or hard cover, or retreat
    /// when it is routing or withdrawing.
    pub column: Option<Column>,
    /// Whether any enemy is in sight.
    pub enemy_in_sight: bool,
    /// Distance to the nearest enemy in inches, when known.
    pub enemy_distance: Option<f64>,
    /// A general within 3".
    pub general_within_3: bool,
    /// Supporting troops within 6".
    pub support_within_6: bool,
    /// Sees the enemy in retreat.
    pub sees_enemy_retreat: bool,
    /// Lost a melee in the last bound.
    pub lost_melee: bool,
    /// Line infantry in skirmish order.
    pub skirmish_order: bool,
    /// Sees own troops routing (counts only with the optional rule on).
    pub sees_own_rout: bool,
    /// Figures lost in the last bound.
    pub casualties: u32,
    /// Under half strength.
    pub under_half: bool,
    /// Withdrew (or fired and withdrew) in the last bound.
    pub withdrew_last_bound: bool,
    /// The unit's character, for rated classes.
    pub character: Option<Character>,
    /// The unit's formation; the class's usual one when not given.
    pub formation: Option<Formation>,
    /// Disordered.
    pub disordered: bool,
    /// Enemy cavalry in sight.
    pub sees_cavalry: bool,
    /// Approaching the rear of a friendly unit deployed to fire.
    pub friend_firing_ahead: bool,
    /// That friendly unit is fighting a melee.
    pub friend_in_melee: bool,
}

/// Optional rules of the reaction test.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Count the optional "sees own troops routing" factor.
    pub sees_own_rout: bool,
}

/// One line of the test: a factor and its value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Factor {
    /// A stable id: `class`, a factor id, `casualties`, `under-half`, `character`.
    pub id: String,
    /// The line as a player reads it.
    pub label: String,
    /// Its value.
    pub value: i32,
}

/// The outcome of a reaction test, with every reason.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    /// The class id.
    pub class: String,
    /// The class as the chart names it.
    pub class_name: String,
    /// The column the test was read in.
    pub column: Column,
    /// Why the column differs from the ground, if it does.
    pub column_note: Option<String>,
    /// Every factor except the die, in chart order.
    pub factors: Vec<Factor>,
    /// The D6.
    pub die: u8,
    /// Factors plus die.
    pub total: i32,
    /// The order.
    pub order: Order,
    /// The score band in words.
    pub band: String,
    /// What the unit physically does.
    pub instruction: Instruction,
    /// Extra notes from the band whose conditions hold.
    pub notes: Vec<String>,
    /// How far it moves in inches (the normal move of its kind × the instruction's share).
    pub move_inches: f64,
}

/// The modifiers of a test, without the die: each factor, and their sum.
pub fn modifiers(
    tables: &Tables,
    situation: &Situation,
    options: Options,
) -> Result<(Vec<Factor>, i32)> {
    let prepared = Prepared::new(tables, situation)?;
    let factors = prepared.factors(tables, situation, options);
    let sum = factors.iter().map(|factor| factor.value).sum();
    Ok((factors, sum))
}

/// Take the reaction test with the given D6.
pub fn test(tables: &Tables, situation: &Situation, options: Options, die: u8) -> Result<Outcome> {
    if !(1..=6).contains(&die) {
        return Err(Error::Invalid(format!(
            "die must be a D6 roll from 1 to 6, not {die}"
        )));
    }
    let prepared = Prepared::new(tables, situation)?;
    let factors = prepared.factors(tables, situation, options);
    let total = factors.iter().map(|factor| factor.value).sum::<i32>() + i32::from(die);
    let band = tables.reaction.band(total);
    let order = if band.rout_if_withdrew_last_bound && situation.withdrew_last_bound {
        Order::Rout
    } else {
        band.order
    };
    let holds = |conditions: &[Condition]| {
        conditions
            .iter()
            .all(|condition| prepared.holds(*condition, tables, situation))
    };
    let order_text = tables.orders.get(order);
    let instruction = order_text
        .variants
        .iter()
        .find(|variant| holds(&variant.when))
        .map_or_else(
            || order_text.default_instruction(),
            |variant| variant.instruction(),
        );
    let notes = if instruction.fire == crate::tables::Fire::None {
        Vec::new()
    } else {
        band.notes
            .iter()
            .filter(|note| holds(&note.when))
            .map(|note| note.does.clone())
            .collect()
    };
    let move_inches = instruction.moves.fraction() * tables.orders.normal_move(prepared.class.kind);
    Ok(Outcome {
        class: prepared.class_id.to_string(),
        class_name: prepared.class.name.clone(),
        column: prepared.column,
        column_note: prepared.column_note,
        factors,
        die,
        total,
        order,
        band: band.text.clone(),
        instruction,
        notes,
        move_inches,
    })
}

/// The exact probability of each order over the D6 (orders that cannot
/// happen are left out), boldest first.
pub fn odds(tables: &Tables, situation: &Situation, options: Options) -> Result<Vec<(Order, f64)>> {
    let mut odds: Vec<(Order, f64)> = Vec::new();
    for (face, probability) in crate::dice::Die::D6.outcomes() {
        let outcome = test(tables, situation, options, face)?;
        match odds.iter_mut().find(|(order, _)| *order == outcome.order) {
            Some((_, total)) => *total += probability,
            None => odds.push((outcome.order, probability)),
        }
    }
    odds.sort_by_key(|(order, _)| *order);
    Ok(odds)
}

/// A situation checked against the tables.
struct Prepared<'t> {
    class_id: &'t str,
    class: &'t TroopClass,
    column: Column,
    column_note: Option<String>,
    formation: Formation,
}

impl<'t> Prepared<'t> {
    fn new(tables: &'t Tables, situation: &Situation) -> Result<Prepared<'t>> {
        let (class_id, class) = tables.reaction.class(&situation.class)?;
        let ground = situation.column.unwrap_or(Column::Open);
        // "The cover is disregarded if troops withdrew in the last bound."
        let (column, column_note) = if situation.withdrew_last_bound && ground != Column::Retreat {
            (
                Column::Retreat,
                Some(format!(
                    "withdrew last bound: {} disregarded",
                    ground.title()
                )),
            )
        } else {
            (ground, None)
        };
        if situation.skirmish_order && class.kind != ClassKind::Line {
            return Err(Error::Invalid(format!(
                "the skirmish-order factor is for line infantry; {class_id} are {} troops",
                class.kind.id()
            )));
        }
        if situation.character.is_some() && !class.rated {
            return Err(Error::Invalid(format!(
                "{class_id} have no character rating; only militia and provincial classes are rated"
            )));
        }
        let formation = situation
            .formation
            .unwrap_or(Formation::default_for(class.kind));
        if !formation.fits(class.kind) {
            return Err(Error::Invalid(format!(
                "{class_id} cannot be in {formation} formation"
            )));
        }
        if let Some(distance) = situation.enemy_distance
            && !(distance.is_finite() && distance >= 0.0)
        {
            return Err(Error::Invalid(format!(
                "enemy distance must be zero or more inches, not {distance}"
            )));
        }
        Ok(Prepared {
            class_id,
            class,
            column,
            column_note,
            formation,
        })
    }

    fn factors(&self, tables: &Tables, situation: &Situation, options: Options) -> Vec<Factor> {
        let chart = &tables.reaction;
        let mut factors = vec![Factor {
            id: "class".into(),
            label: format!("{} in {}", self.class.name, self.column.title()),
            value: self.class.value(self.column),
        }];
        let distance = situation.enemy_distance;
        let applies = |id: FactorId| match id {
            FactorId::NoEnemyInSight => !situation.enemy_in_sight,
            FactorId::GeneralWithin3 => situation.general_within_3,
            FactorId::EnemyWithin6 => distance.is_some_and(|d| d <= chart.distances.enemy_within),
            FactorId::EnemyOver15 => distance.is_some_and(|d| d > chart.distances.enemy_over),
            FactorId::SkirmishOrder => situation.skirmish_order,
            FactorId::SeesEnemyRetreat => situation.sees_enemy_retreat,
            FactorId::SupportWithin6 => situation.support_within_6,
            FactorId::LostMelee => situation.lost_melee,
            FactorId::SeesOwnRout => situation.sees_own_rout && options.sees_own_rout,
        };
        for id in FactorId::ALL {
            if applies(id) {
                let row = chart.factor(id);
                factors.push(Factor {
                    id: id.id().into(),
                    label: row.name.clone(),
                    value: row.value(self.column),
                });
            }
        }
        if situation.casualties > 0 {
            let lost = i32::try_from(situation.casualties).unwrap_or(i32::MAX / 2);
            factors.push(Factor {
                id: "casualties".into(),
                label: format!(
                    "{lost} figure{} lost last bound",
                    if lost == 1 { "" } else { "s" }
                ),
                value: lost.saturating_mul(chart.casualties.per_figure_lost),
            });
        }
        if situation.under_half {
            factors.push(Factor {
                id: "under-half".into(),
                label: "Under half strength".into(),
                value: chart.casualties.under_half_strength,
            });
        }
        if let Some(character) = situation.character {
            factors.push(Factor {
                id: "character".into(),
                label: format!("{character} character"),
                value: tables.characters.unit_factor(character),
            });
        }
        factors
    }

    fn holds(&self, condition: Condition, tables: &Tables, situation: &Situation) -> bool {
        let distance = situation.enemy_distance;
        let kind = self.class.kind;
        match condition {
            Condition::InSight => situation.enemy_in_sight,
            Condition::OutOfSight => !situation.enemy_in_sight,
            Condition::OutOfRange => {
                situation.enemy_in_sight && distance.is_some_and(|d| d > tables.orders.musket_range)
            }
            Condition::EnemyWithin6 => {
                distance.is_some_and(|d| d <= tables.reaction.distances.enemy_within)
            }
            Condition::InColumn => self.formation == Formation::Column,
            Condition::InLine => self.formation == Formation::Line,
            Condition::Skirmish => self.formation == Formation::Skirmish,
            Condition::CloseOrder => {
                matches!(kind, ClassKind::Line | ClassKind::Light)
                    && matches!(
                        self.formation,
                        Formation::Line | Formation::Column | Formation::CloseOrder
                    )
            }
            Condition::Mounted => {
                self.formation == Formation::Mounted || self.formation == Formation::Column
            }
            Condition::Dismounted => self.formation == Formation::Dismounted,
            Condition::Limbered => self.formation == Formation::Limbered,
            Condition::Unlimbered => self.formation == Formation::Unlimbered,
            Condition::Disordered => situation.disordered,
            Condition::OpenGround => self.column == Column::Open,
            Condition::HardCover => self.column == Column::Hard,
            Condition::Line => kind == ClassKind::Line,
            Condition::Light => kind == ClassKind::Light,
            Condition::Cavalry => kind == ClassKind::Cavalry,
            Condition::Artillery => kind == ClassKind::Artillery,
            Condition::SeesCavalry => situation.sees_cavalry,
            Condition::FriendFiringAhead => situation.friend_firing_ahead,
            Condition::FriendInMelee => situation.friend_in_melee,
        }
    }
}

#[cfg(test)]
mod tests;
