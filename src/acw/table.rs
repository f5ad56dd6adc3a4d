//! The seed-002 engine's numbers: the `activation`, `troops`, `formations`,
//! `moving`, `terrain_effects`, `charging`, `melee`, `firing` and
//! `casualties` sections of `tables/rulesets/ohw-acw.yaml`, validated
//! against the same file's battlefield sections into an [`AcwTable`] with
//! every problem located.

use crate::dice::Die;
use crate::ruleset::{BUILTIN, Category, Ruleset, TerrainId, TroopTypeId};
use crate::tables::Character;
use crate::yaml::{Checker, Problems, Source};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// How a unit is drawn up (seed 002).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Formation {
    /// Deployed in line: foot in line, mounted horse in line, guns unlimbered.
    Line,
    /// March column (guns limbered): a third faster, cannot fire or charge.
    Column,
    /// Cavalry on foot: moves and fires as infantry.
    Dismounted,
}

impl Formation {
    /// Every formation, in table order.
    pub const ALL: [Formation; 3] = [Formation::Line, Formation::Column, Formation::Dismounted];

    /// The name used in files.
    pub fn name(self) -> &'static str {
        match self {
            Formation::Line => "line",
            Formation::Column => "column",
            Formation::Dismounted => "dismounted",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Formation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a unit crosses ground: on foot, mounted, or with guns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Infantry, zouaves, dismounted cavalry.
    Foot,
    /// Cavalry in line or column.
    Mounted,
    /// Artillery.
    Guns,
}

impl Mode {
    fn index(self) -> usize {
        self as usize
    }
}

/// The optional rules of seed 002, each switchable.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OptionalRules {
    /// Optional rule #1: a die for the initiative; the loser assigns first.
    pub initiative: bool,
    /// Optional rule #2: one pile of dice, taken in turn.
    pub draft: bool,
    /// Optional rule #3: good commanders add dice; the worst are discarded.
    pub good_commanders: bool,
}

impl OptionalRules {
    /// The names a scenario or a command line uses.
    pub const NAMES: [&'static str; 3] = ["initiative", "draft", "good-commanders"];

    /// Switch the rule called `name` on or off; `Err` names the known rules.
    pub fn set(&mut self, name: &str, on: bool) -> Result<(), String> {
        match name {
            "initiative" => self.initiative = on,
            "draft" => self.draft = on,
            "good-commanders" => self.good_commanders = on,
            _ => {
                let hint = crate::suggest::did_you_mean(name, Self::NAMES.iter().copied());
                return Err(format!("unknown optional rule `{name}`{hint}"));
            }
        }
        Ok(())
    }
}

/// A formation change and what it costs.
#[derive(Debug, Clone, PartialEq)]
pub struct FormationChange {
    /// Troop types it applies to.
    pub troops: Vec<TroopTypeId>,
    /// The two formations, either way round.
    pub between: [Formation; 2],
    /// Inches deducted from the move.
    pub cost: f64,
}

/// One terrain kind's effect on the engine's movement.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TerrainEffect {
    /// Fraction of full speed by [`Mode`]; `None` is impassable.
    pub speed: [Option<f64>; 3],
    /// Entering or leaving costs a formation change (towns).
    pub formation_cost: bool,
    /// Crossable only in march column (fords, bridges).
    pub column_only: bool,
}

/// A range band of a weapon.
#[derive(Debug, Clone, PartialEq)]
pub struct Band {
    /// Its name (`short range`).
    pub label: String,
    /// Farthest distance in the band, inches.
    pub to: f64,
    /// Modifier to the die.
    pub add: i32,
}

/// Who fires, in which formations, at what ranges.
#[derive(Debug, Clone, PartialEq)]
pub struct Weapon {
    /// Troop types that fire this way.
    pub troops: Vec<TroopTypeId>,
    /// Formations they fire in.
    pub formations: Vec<Formation>,
    /// Range bands, nearest first.
    pub bands: Vec<Band>,
}

impl Weapon {
    /// The band a shot at `distance` inches falls in, if in range.
    pub fn band(&self, distance: f64) -> Option<&Band> {
        self.bands.iter().find(|band| distance <= band.to + 1e-9)
    }

    /// The longest range.
    pub fn range(&self) -> f64 {
        self.bands.last().map_or(0.0, |band| band.to)
    }
}

/// The seed-002 rules as numbers.
#[derive(Debug, Clone, PartialEq)]
pub struct AcwTable {
    /// The activation die.
    pub activation_die: Die,
    /// The die for re-rolling equal activation dice.
    pub roll_off_die: Die,
    /// The initiative die (optional rule #1).
    pub initiative_die: Die,
    /// The optional rules' defaults.
    pub optional: OptionalRules,
    /// Characters that make a general a good commander (optional rule #3).
    pub good_characters: Vec<Character>,
    /// Extra dice per good commander.
    pub extra_dice: u32,
    /// Moves by troop type and formation (`None`: the formation is not open to it).
    pub moves: Vec<[Option<f64>; 3]>,
    /// Formation changes and their costs.
    pub changes: Vec<FormationChange>,
    /// A non-charge move ends at least this far from every enemy.
    pub keep_clear: f64,
    /// Inches between the points a path's ground is read at.
    pub step: f64,
    /// Movement effects by terrain kind.
    pub terrain: Vec<TerrainEffect>,
    /// Troop types that never charge.
    pub never_charge: Vec<TroopTypeId>,
    /// Troop types that, mounted, may charge any unit.
    pub any_target: Vec<TroopTypeId>,
    /// Strength points of advantage that let foot charge frontally.
    pub strength_advantage: u32,
    /// Targets in these formations are destroyed on contact.
    pub destroyed_formations: Vec<Formation>,
    /// Targets of these troop types are destroyed on contact.
    pub destroyed_troops: Vec<TroopTypeId>,
    /// The melee die.
    pub melee_die: Die,
    /// The charging bonus.
    pub charging: i32,
    /// Melee modifiers by troop type (zouaves).
    pub melee_by_troop: Vec<(TroopTypeId, i32)>,
    /// The dismounted cavalry modifier.
    pub dismounted: i32,
    /// Strength advantage bands: (more than, add), largest first.
    pub outnumbered: Vec<(u32, i32)>,
    /// Terrain kinds that halve melee hits on a defender in them.
    pub halve_in: Vec<TerrainId>,
    /// The halving divisor.
    pub divisor: i32,
    /// The flank or rear multiplier.
    pub flank_or_rear: i32,
    /// Retreat of a repulsed mounted charger, inches.
    pub retreat_mounted: f64,
    /// Retreat of any other repulsed charger, inches.
    pub retreat_other: f64,
    /// Hits each unit takes when a retreat passes through it.
    pub retreat_through: u32,
    /// The firing die.
    pub fire_die: Die,
    /// Who fires and how far.
    pub weapons: Vec<Weapon>,
    /// Range of a unit firing within cover.
    pub within_cover_range: f64,
    /// Most cover between a unit and open ground for it to be on the edge.
    pub cover_edge: f64,
    /// Terrain kinds that halve fire on a target in them.
    pub cover: Vec<TerrainId>,
    /// The cover divisor.
    pub cover_divisor: i32,
    /// Strength modifiers: (hits at least, add), first that applies.
    pub strength: Vec<(u32, i32)>,
    /// Whether fire at a charger adds the difference of the dice.
    pub charger_die_difference: bool,
    /// Hits at which a unit is removed.
    pub removed_at: u32,
}

impl AcwTable {
    /// The seed-002 sections of `ruleset`'s own file (the one its
    /// battlefield sections were read from: built in, or a player's under
    /// `--tables`).
    pub fn of(ruleset: &Ruleset) -> Result<AcwTable, Problems> {
        AcwTable::parse(ruleset.source(), ruleset)
    }

    /// The engine sections of the built-in rule set `ohw-acw`, checked
    /// against `ruleset` (its battlefield sections).
    pub fn builtin(ruleset: &Ruleset) -> Result<AcwTable, Problems> {
        let (_, file, text) = BUILTIN
            .iter()
            .find(|(name, _, _)| *name == "ohw-acw")
            .expect("ohw-acw is built in");
        AcwTable::parse(Source::new(file, text), ruleset)
    }

    /// The move of `troop` in `formation`, if that formation is open to it.
    pub fn move_of(&self, troop: TroopTypeId, formation: Formation) -> Option<f64> {
        self.moves.get(troop.0).and_then(|m| m[formation.index()])
    }

    /// The cost of changing `troop` from `from` to `to` (`None`: not allowed).
    pub fn change_cost(&self, troop: TroopTypeId, from: Formation, to: Formation) -> Option<f64> {
        self.changes
            .iter()
            .find(|change| {
                change.troops.contains(&troop)
                    && (change.between == [from, to] || change.between == [to, from])
            })
            .map(|change| change.cost)
    }

    /// The line/column change cost of `troop` (the cost of interpenetrating
    /// and of entering or leaving a town), 0 if it has none.
    pub fn line_column_cost(&self, troop: TroopTypeId) -> f64 {
        self.change_cost(troop, Formation::Line, Formation::Column)
            .unwrap_or(0.0)
    }

    /// The speed of `mode` in terrain `kind` (`None`: impassable).
    pub fn speed(&self, kind: TerrainId, mode: Mode) -> Option<f64> {
        self.terrain.get(kind.0).and_then(|t| t.speed[mode.index()])
    }

    /// The weapon `troop` fires in `formation`, if any.
    pub fn weapon(&self, troop: TroopTypeId, formation: Formation) -> Option<&Weapon> {
        self.weapons
            .iter()
            .find(|w| w.troops.contains(&troop) && w.formations.contains(&formation))
    }

    /// Parse and validate the engine sections, reporting every problem.
    pub fn parse(source: Source<'_>, ruleset: &Ruleset) -> Result<AcwTable, Problems> {
        let raw: RawAcw = source.parse()?;
        let mut checker = Checker::new(source);
        let mut names = Names {
            ruleset,
            checker: &mut checker,
        };

        let activation = &raw.activation;
        for (path, die) in [
            ("activation.die", activation.die),
            ("activation.roll_off_die", activation.roll_off_die),
            ("activation.initiative_die", activation.initiative_die),
        ] {
            if die == Die::D100 {
                names
                    .checker
                    .report(path, "activation dice are six-sided: `d6` or `average`");
            }
        }
        if activation.good_commanders.extra_dice > 6 {
            names.checker.report(
                "activation.good_commanders.extra_dice",
                "at most 6 extra dice per commander",
            );
        }

        // Moves per troop type and formation.
        let mut moves = vec![[None; 3]; ruleset.troop_types.len()];
        for (name, by_formation) in &raw.troops {
            let path = format!("troops.{name}");
            let Some(troop) = names.troop(&path, name) else {
                continue;
            };
            for (formation_name, inches) in by_formation {
                let entry = format!("{path}.{formation_name}");
                let Some(formation) = names.formation(&entry, formation_name) else {
                    continue;
                };
                names.inches(&entry, *inches);
                moves[troop.0][formation.index()] = Some(*inches);
            }
            if moves[troop.0][Formation::Line.index()].is_none() {
                names
                    .checker
                    .report(&path, format!("troop type `{name}` needs a `line` move"));
            }
        }
        for (index, troop) in ruleset.troop_types.iter().enumerate() {
            if troop.category != Category::General && moves[index] == [None; 3] {
                names.checker.report(
                    "troops",
                    format!("troop type `{}` has no moves", troop.name),
                );
            }
        }

        let mut changes = Vec::new();
        for (index, change) in raw.formations.changes.iter().enumerate() {
            let path = format!("formations.changes[{index}]");
            let troops = names.troops(&format!("{path}.troops"), &change.troops);
            let a = names.formation(&format!("{path}.between[0]"), &change.between[0]);
            let b = names.formation(&format!("{path}.between[1]"), &change.between[1]);
            if a.is_some() && a == b {
                names
                    .checker
                    .report(&format!("{path}.between"), "a change needs two formations");
            }
            names.inches_or_zero(&format!("{path}.cost"), change.cost);
            if let (Some(a), Some(b)) = (a, b) {
                changes.push(FormationChange {
                    troops,
                    between: [a, b],
                    cost: change.cost,
                });
            }
        }

        if raw.moving.interpenetration != "line-column-cost" {
            names.checker.report(
                "moving.interpenetration",
                "the only interpenetration cost is `line-column-cost` (seed 002: a formation change)",
            );
        }
        names.inches_or_zero("moving.keep_clear", raw.moving.keep_clear);
        if !(raw.moving.step >= 0.05 && raw.moving.step <= 1.0) {
            names
                .checker
                .report("moving.step", "the step must be 0.05 to 1 inch");
        }

        let mut terrain = vec![
            TerrainEffect {
                speed: [None; 3],
                formation_cost: false,
                column_only: false,
            };
            ruleset.terrain.len()
        ];
        let mut seen = vec![false; ruleset.terrain.len()];
        for (name, effect) in &raw.terrain_effects {
            let path = format!("terrain_effects.{name}");
            let Some(kind) = names.terrain(&path, name) else {
                continue;
            };
            seen[kind.0] = true;
            let mut speed = [None; 3];
            for (mode, raw_speed) in [
                (Mode::Foot, &effect.foot),
                (Mode::Mounted, &effect.mounted),
                (Mode::Guns, &effect.guns),
            ] {
                let entry = format!("{path}.{}", ["foot", "mounted", "guns"][mode.index()]);
                speed[mode.index()] = match raw_speed {
                    RawSpeed::Speed(s) if *s > 0.0 && *s <= 10.0 => Some(*s),
                    RawSpeed::Speed(_) => {
                        names.checker.report(
                            &entry,
                            "speed must be above 0 and at most 10 (write `impassable` for none)",
                        );
                        None
                    }
                    RawSpeed::Word(w) if w == "impassable" => None,
                    RawSpeed::Word(w) => {
                        names.checker.report(
                            &entry,
                            format!(
                                "expected a fraction of full speed or `impassable`, found `{w}`"
                            ),
                        );
                        None
                    }
                };
            }
            terrain[kind.0] = TerrainEffect {
                speed,
                formation_cost: effect.formation_cost,
                column_only: effect.column_only,
            };
        }
        for (index, kind) in ruleset.terrain.iter().enumerate() {
            if !seen[index] {
                names.checker.report(
                    "terrain_effects",
                    format!("terrain kind `{}` has no effect listed", kind.name),
                );
            }
        }

        let charging = &raw.charging;
        let never_charge = names.troops("charging.never", &charging.never);
        let any_target = names.troops("charging.any_target", &charging.any_target);
        if charging.strength_advantage > 1000 {
            names
                .checker
                .report("charging.strength_advantage", "at most 1000 points");
        }
        let destroyed_formations = charging
            .destroyed_on_contact
            .formations
            .iter()
            .enumerate()
            .filter_map(|(i, f)| {
                names.formation(&format!("charging.destroyed_on_contact.formations[{i}]"), f)
            })
            .collect();
        let destroyed_troops = names.troops(
            "charging.destroyed_on_contact.troops",
            &charging.destroyed_on_contact.troops,
        );

        let melee = &raw.melee;
        let mut melee_by_troop = Vec::new();
        for (name, add) in &melee.by_troop {
            if let Some(troop) = names.troop(&format!("melee.by_troop.{name}"), name) {
                names.modifier(&format!("melee.by_troop.{name}"), *add);
                melee_by_troop.push((troop, *add));
            }
        }
        names.modifier("melee.charging", melee.charging);
        names.modifier("melee.dismounted", melee.dismounted);
        let mut outnumbered = Vec::new();
        for (index, band) in melee.outnumbered.iter().enumerate() {
            let path = format!("melee.outnumbered[{index}]");
            names.modifier(&format!("{path}.add"), band.add);
            if outnumbered
                .last()
                .is_some_and(|(over, _): &(u32, i32)| band.more_than >= *over)
            {
                names.checker.report(
                    &format!("{path}.more_than"),
                    "bands are listed largest advantage first",
                );
            }
            outnumbered.push((band.more_than, band.add));
        }
        let halve_in = names.terrains("melee.halve_in", &melee.halve_in);
        for (path, value) in [
            ("melee.divisor", melee.divisor),
            ("melee.flank_or_rear", melee.flank_or_rear),
        ] {
            if !(1..=10).contains(&value) {
                names.checker.report(path, "must be 1 to 10");
            }
        }
        names.inches("melee.retreat.mounted", melee.retreat.mounted);
        names.inches("melee.retreat.other", melee.retreat.other);
        if melee.retreat_through > 15 {
            names
                .checker
                .report("melee.retreat_through", "at most 15 hits");
        }

        let firing = &raw.firing;
        let mut weapons = Vec::new();
        for (index, weapon) in firing.weapons.iter().enumerate() {
            let path = format!("firing.weapons[{index}]");
            let troops = names.troops(&format!("{path}.troops"), &weapon.troops);
            let formations = weapon
                .formations
                .iter()
                .enumerate()
                .filter_map(|(i, f)| names.formation(&format!("{path}.formations[{i}]"), f))
                .collect();
            let mut bands: Vec<Band> = Vec::new();
            for (band_index, band) in weapon.bands.iter().enumerate() {
                let band_path = format!("{path}.bands[{band_index}]");
                names.inches(&format!("{band_path}.to"), band.to);
                names.modifier(&format!("{band_path}.add"), band.add);
                if bands.last().is_some_and(|last| band.to <= last.to) {
                    names.checker.report(
                        &format!("{band_path}.to"),
                        "bands are listed nearest first, each reaching farther",
                    );
                }
                bands.push(Band {
                    label: band.label.clone(),
                    to: band.to,
                    add: band.add,
                });
            }
            if bands.is_empty() {
                names
                    .checker
                    .report(&format!("{path}.bands"), "a weapon needs a range band");
            }
            weapons.push(Weapon {
                troops,
                formations,
                bands,
            });
        }
        names.inches("firing.within_cover_range", firing.within_cover_range);
        names.inches_or_zero("firing.cover_edge", firing.cover_edge);
        let cover = names.terrains("firing.cover", &firing.cover);
        if !(1..=10).contains(&firing.cover_divisor) {
            names
                .checker
                .report("firing.cover_divisor", "must be 1 to 10");
        }
        let mut strength = Vec::new();
        for (index, band) in firing.strength.iter().enumerate() {
            names.modifier(&format!("firing.strength[{index}].add"), band.add);
            strength.push((band.hits_at_least, band.add));
        }
        if !(1..=1000).contains(&raw.casualties.removed_at) {
            names
                .checker
                .report("casualties.removed_at", "must be 1 to 1000 hits");
        }

        let table = AcwTable {
            activation_die: activation.die,
            roll_off_die: activation.roll_off_die,
            initiative_die: activation.initiative_die,
            optional: OptionalRules {
                initiative: activation.optional.initiative,
                draft: activation.optional.draft,
                good_commanders: activation.optional.good_commanders,
            },
            good_characters: activation.good_commanders.characters.clone(),
            extra_dice: activation.good_commanders.extra_dice,
            moves,
            changes,
            keep_clear: raw.moving.keep_clear,
            step: raw.moving.step,
            terrain,
            never_charge,
            any_target,
            strength_advantage: charging.strength_advantage,
            destroyed_formations,
            destroyed_troops,
            melee_die: melee.die,
            charging: melee.charging,
            melee_by_troop,
            dismounted: melee.dismounted,
            outnumbered,
            halve_in,
            divisor: melee.divisor,
            flank_or_rear: melee.flank_or_rear,
            retreat_mounted: melee.retreat.mounted,
            retreat_other: melee.retreat.other,
            retreat_through: melee.retreat_through,
            fire_die: firing.die,
            weapons,
            within_cover_range: firing.within_cover_range,
            cover_edge: firing.cover_edge,
            cover,
            cover_divisor: firing.cover_divisor,
            strength,
            charger_die_difference: firing.charger_die_difference,
            removed_at: raw.casualties.removed_at,
        };
        checker.finish(table)
    }
}

/// Name lookups that report what they cannot find.
struct Names<'a, 'b> {
    ruleset: &'a Ruleset,
    checker: &'a mut Checker<'b>,
}

impl Names<'_, '_> {
    fn troop(&mut self, path: &str, name: &str) -> Option<TroopTypeId> {
        let found = self.ruleset.troop_type(name);
        if found.is_none() {
            let hint = crate::suggest::did_you_mean(
                name,
                self.ruleset.troop_types.iter().map(|t| t.name.as_str()),
            );
            self.checker
                .report(path, format!("unknown troop type `{name}`{hint}"));
        }
        found
    }

    fn troops(&mut self, path: &str, names: &[String]) -> Vec<TroopTypeId> {
        names
            .iter()
            .enumerate()
            .filter_map(|(i, name)| self.troop(&format!("{path}[{i}]"), name))
            .collect()
    }

    fn terrain(&mut self, path: &str, name: &str) -> Option<TerrainId> {
        let found = self.ruleset.terrain_kind(name);
        if found.is_none() {
            let hint = crate::suggest::did_you_mean(
                name,
                self.ruleset.terrain.iter().map(|t| t.name.as_str()),
            );
            self.checker
                .report(path, format!("unknown terrain kind `{name}`{hint}"));
        }
        found
    }

    fn terrains(&mut self, path: &str, names: &[String]) -> Vec<TerrainId> {
        names
            .iter()
            .enumerate()
            .filter_map(|(i, name)| self.terrain(&format!("{path}[{i}]"), name))
            .collect()
    }

    fn formation(&mut self, path: &str, name: &str) -> Option<Formation> {
        let found = Formation::ALL.into_iter().find(|f| f.name() == name);
        if found.is_none() {
            let hint = crate::suggest::did_you_mean(name, Formation::ALL.iter().map(|f| f.name()));
            self.checker
                .report(path, format!("unknown formation `{name}`{hint}"));
        }
        found
    }

    fn inches(&mut self, path: &str, value: f64) {
        if !(value > 0.0 && value <= 1000.0) {
            self.checker
                .report(path, "must be a number of inches above 0 and at most 1000");
        }
    }

    fn inches_or_zero(&mut self, path: &str, value: f64) {
        if !(0.0..=1000.0).contains(&value) {
            self.checker
                .report(path, "must be a number of inches from 0 to 1000");
        }
    }

    fn modifier(&mut self, path: &str, value: i32) {
        if !(-100..=100).contains(&value) {
            self.checker.report(path, "a modifier is -100 to 100");
        }
    }
}

#[derive(Debug, Deserialize)]
struct RawAcw {
    activation: RawActivation,
    troops: BTreeMap<String, BTreeMap<String, f64>>,
    formations: RawFormations,
    moving: RawMoving,
    terrain_effects: BTreeMap<String, RawTerrainEffect>,
    charging: RawCharging,
    melee: RawMelee,
    firing: RawFiring,
    casualties: RawCasualties,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawActivation {
    die: Die,
    roll_off_die: Die,
    initiative_die: Die,
    optional: RawOptional,
    good_commanders: RawGoodCommanders,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOptional {
    initiative: bool,
    draft: bool,
    good_commanders: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGoodCommanders {
    characters: Vec<Character>,
    extra_dice: u32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFormations {
    changes: Vec<RawChange>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawChange {
    troops: Vec<String>,
    between: [String; 2],
    cost: f64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMoving {
    interpenetration: String,
    keep_clear: f64,
    step: f64,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum RawSpeed {
    Speed(f64),
    Word(String),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTerrainEffect {
    foot: RawSpeed,
    mounted: RawSpeed,
    guns: RawSpeed,
    #[serde(default)]
    formation_cost: bool,
    #[serde(default)]
    column_only: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCharging {
    never: Vec<String>,
    any_target: Vec<String>,
    strength_advantage: u32,
    destroyed_on_contact: RawDestroyed,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDestroyed {
    formations: Vec<String>,
    troops: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMelee {
    die: Die,
    charging: i32,
    by_troop: BTreeMap<String, i32>,
    dismounted: i32,
    outnumbered: Vec<RawOutnumbered>,
    halve_in: Vec<String>,
    divisor: i32,
    flank_or_rear: i32,
    retreat: RawRetreat,
    retreat_through: u32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOutnumbered {
    more_than: u32,
    add: i32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRetreat {
    mounted: f64,
    other: f64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFiring {
    die: Die,
    weapons: Vec<RawWeapon>,
    within_cover_range: f64,
    cover_edge: f64,
    cover: Vec<String>,
    cover_divisor: i32,
    strength: Vec<RawStrength>,
    charger_die_difference: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWeapon {
    troops: Vec<String>,
    formations: Vec<String>,
    bands: Vec<RawBand>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBand {
    label: String,
    to: f64,
    add: i32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStrength {
    hits_at_least: u32,
    add: i32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCasualties {
    removed_at: u32,
}
