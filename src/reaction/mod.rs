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
use std::borrow::Cow;
use std::sync::Arc;

mod class_word;
mod label;

pub use class_word::{CLASS_RULESETS, ClassWord, builtin_class_word, builtin_rulesets, class_word};
pub use label::Label;

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
    /// A stable id: `class`, a factor id, `casualties`, `under-half`,
    /// `character` (or, in a melee, a melee table id).
    pub id: Cow<'static, str>,
    /// The line as a player reads it.
    pub label: Label,
    /// Its value.
    pub value: i32,
}

impl Factor {
    /// Its label, saying in words when a factor that applies is worth
    /// nothing in the unit's `column`: "Supporting troops within 6\"  0"
    /// read as if the support had been ignored, where the chart gives it
    /// only to troops routing or withdrawing.
    pub fn label_in(&self, column: Option<Column>) -> String {
        match column {
            // Only the chart's local factors vary by column.
            Some(column)
                if self.value == 0 && FactorId::ALL.iter().any(|local| local.id() == self.id) =>
            {
                let place = match column {
                    Column::Retreat => "when routing or withdrawing".to_string(),
                    other => format!("in {}", other.title()),
                };
                format!("{} (no effect {place})", self.label)
            }
            _ => self.label.to_string(),
        }
    }
}

/// The outcome of a reaction test, with every reason.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    /// The class id.
    pub class: Arc<str>,
    /// The class as the chart names it.
    pub class_name: Arc<str>,
    /// The column the test was read in.
    pub column: Column,
    /// Why the column differs from the ground, if it does.
    pub column_note: Option<&'static str>,
    /// Every factor except the die, in chart order.
    pub factors: Vec<Factor>,
    /// The D6.
    pub die: u8,
    /// Factors plus die.
    pub total: i32,
    /// The order.
    pub order: Order,
    /// The score band in words.
    pub band: Arc<str>,
    /// What the unit physically does.
    pub instruction: Instruction,
    /// Extra notes from the band whose conditions hold.
    pub notes: Vec<Arc<str>>,
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
    let sum = total_of(&factors, 0);
    Ok((factors, sum))
}

/// The factors' values plus `die`, added without overflow: a sum beyond
/// `i32`'s range stops at its end, so an enormous loss still reads as the
/// lowest total (and the most fearful order), never wrapping round to the
/// boldest.
pub fn total_of(factors: &[Factor], die: i32) -> i32 {
    let sum = factors
        .iter()
        .fold(i64::from(die), |sum, factor| sum + i64::from(factor.value));
    clamp_to_i32(sum)
}

/// `value` clamped to `i32`'s range.
fn clamp_to_i32(value: i64) -> i32 {
    i32::try_from(value).unwrap_or(if value < 0 { i32::MIN } else { i32::MAX })
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
    let total = total_of(&factors, i32::from(die));
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
    let mut instruction = instruction;
    let notes = if instruction.fire == crate::tables::Fire::None {
        Vec::new()
    } else {
        let holding: Vec<_> = band.notes.iter().filter(|note| holds(&note.when)).collect();
        // A note that names a volley (the +3 to +5 band's double volleys)
        // changes what the unit fires.
        if let Some(fire) = holding.iter().find_map(|note| note.fire) {
            instruction.fire = fire;
        }
        holding.iter().map(|note| note.does.clone()).collect()
    };
    let move_inches = instruction.moves.fraction() * tables.orders.normal_move(prepared.class.kind);
    Ok(Outcome {
        class: Arc::clone(prepared.class_id),
        class_name: Arc::clone(&prepared.class.name),
        column: prepared.column,
        column_note: prepared.column_note,
        factors,
        die,
        total,
        order,
        band: Arc::clone(&band.text),
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
    class_id: &'t Arc<str>,
    class: &'t TroopClass,
    column: Column,
    column_note: Option<&'static str>,
    formation: Formation,
}

impl<'t> Prepared<'t> {
    fn new(tables: &'t Tables, situation: &Situation) -> Result<Prepared<'t>> {
        let (class_id, class) = tables.reaction.class_entry(&situation.class)?;
        let ground = situation.column.unwrap_or(Column::Open);
        // "The cover is disregarded if troops withdrew in the last bound."
        let (column, column_note) = if situation.withdrew_last_bound && ground != Column::Retreat {
            (Column::Retreat, Some(disregarded(ground)))
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
                "enemy distance must be zero or more inches, not {}",
                shown(distance)
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
        let local = || FactorId::ALL.into_iter().filter(|id| applies(*id));
        // One allocation, of the exact size: the class line, the local
        // factors, then casualties, strength and character.
        let mut factors = Vec::with_capacity(
            1 + local().count()
                + usize::from(situation.casualties > 0)
                + usize::from(situation.under_half)
                + usize::from(situation.character.is_some()),
        );
        factors.push(Factor {
            id: Cow::Borrowed("class"),
            label: Label::Shared(Arc::clone(self.class.line(self.column))),
            value: self.class.value(self.column),
        });
        for id in local() {
            let row = chart.factor(id);
            factors.push(Factor {
                id: Cow::Borrowed(id.id()),
                label: Label::Shared(Arc::clone(&row.name)),
                value: row.value(self.column),
            });
        }
        if situation.casualties > 0 {
            let lost = situation.casualties;
            factors.push(Factor {
                id: Cow::Borrowed("casualties"),
                label: Label::Owned(format!(
                    "{lost} figure{} lost last bound",
                    if lost == 1 { "" } else { "s" }
                )),
                value: clamp_to_i32(i64::from(lost) * i64::from(chart.casualties.per_figure_lost)),
            });
        }
        if situation.under_half {
            factors.push(Factor {
                id: Cow::Borrowed("under-half"),
                label: Label::Static("Under half strength"),
                value: chart.casualties.under_half_strength,
            });
        }
        if let Some(character) = situation.character {
            factors.push(Factor {
                id: Cow::Borrowed("character"),
                label: Label::Static(character_label(character)),
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
            // Seed 004: the five orders "are basic instructions for troops
            // within musket range"; the alternatives are for troops "not in
            // sight or contact", "out of sight and range" (ruling R17).
            Condition::OutOfSight => {
                !situation.enemy_in_sight
                    && !distance.is_some_and(|d| d <= tables.orders.musket_range)
            }
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

/// The column note when a unit that withdrew last bound is tested in the
/// retreat column: "withdrew last bound: {ground title} disregarded".
fn disregarded(ground: Column) -> &'static str {
    match ground {
        Column::Open => "withdrew last bound: open ground disregarded",
        Column::Natural => "withdrew last bound: natural cover disregarded",
        Column::Hard => "withdrew last bound: hard cover disregarded",
        Column::Retreat => "withdrew last bound: routing or withdrawing disregarded",
    }
}

/// A rated unit's character line: "{character} character".
fn character_label(character: Character) -> &'static str {
    match character {
        Character::Rash => "Rash character",
        Character::Brave => "Brave character",
        Character::Average => "Average character",
        Character::Cautious => "Cautious character",
        Character::Timid => "Timid character",
    }
}

/// A number as a player reads it in a message: plainly, or as `-1e308`
/// when it has more digits than anyone types (a damaged save's `-1e308`
/// printed plainly is 309 digits).
fn shown(value: f64) -> String {
    if value.is_finite() && value.abs() >= 1e9 {
        format!("{value:e}")
    } else {
        format!("{value}")
    }
}

#[cfg(test)]
mod tests;
