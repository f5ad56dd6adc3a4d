//! The seed-001 engine's numbers: the `turn`, `troops`, `moves`, `fire`,
//! `charging`, `morale`, `fighting`, `commanders` and `victory` sections of
//! `tables/rulesets/ruinous-victory.yaml`, validated into an [`RvTable`]
//! with every problem located.
//!
//! Nothing the seed gives as a number lives in code: a player can house-rule
//! an allowance, a to-hit number or a modifier by editing the file.

use crate::ruleset::{BUILTIN, Ruleset, TerrainId, TroopTypeId};
use crate::yaml::{Checker, Problems, Source};
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The most dice, bases or inches any number in the table may be: far
/// above anything the seed uses, low enough that no sum overflows.
const MAX_NUMBER: u32 = 100;

/// What kind of phase a step of the turn sequence is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PhaseKind {
    /// One side's units and commanders move.
    Move,
    /// One side's units shoot.
    Shoot,
    /// Both sides declare charges, in `charge_order`.
    Charge,
    /// Every melee the charges made is fought (a procedure: it runs by
    /// itself and the turn ends).
    Melee,
}

impl PhaseKind {
    /// The name used in files.
    pub fn name(self) -> &'static str {
        match self {
            PhaseKind::Move => "move",
            PhaseKind::Shoot => "shoot",
            PhaseKind::Charge => "charge",
            PhaseKind::Melee => "melee",
        }
    }
}

impl fmt::Display for PhaseKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One step of the turn sequence as the file gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhaseRule {
    /// Which kind of phase.
    pub kind: PhaseKind,
    /// The side that acts (by scenario side name), for move and shoot.
    pub side: Option<String>,
}

/// What a troop type is to the seed-001 rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Foot in line or column (or open order, where allowed).
    Infantry,
    /// Horse, always in line, mounted or dismounted.
    Dragoons,
    /// A gun: no formation.
    Cannon,
}

/// A row of the shooting chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FireClass {
    /// Infantry and dismounted dragoons.
    Musket,
    /// The Virginia Rifles.
    Rifle,
    /// Cannon.
    Cannon,
}

impl FireClass {
    fn index(self) -> usize {
        self as usize
    }
}

/// The seed-001 rules for one troop type.
#[derive(Debug, Clone, PartialEq)]
pub struct TroopRules {
    /// Infantry, dragoons or cannon.
    pub kind: Kind,
    /// Its row of the shooting chart.
    pub fire: FireClass,
    /// Whether it may deploy in open order.
    pub open_order: bool,
    /// American militia: removed on a failed morale check or a lost melee.
    pub militia: bool,
    /// Morale die modifier (added to the roll: + is worse).
    pub morale: i32,
    /// Melee die modifier.
    pub melee: i32,
    /// Further melee modifier while mounted (dragoons).
    pub melee_mounted: i32,
}

/// The validated seed-001 rules.
#[derive(Debug, Clone, PartialEq)]
pub struct RvTable {
    /// The rule set (battlefield sections) the table was read against: a
    /// game's table must be built from the same one.
    pub ruleset: String,
    /// The turn sequence.
    pub sequence: Vec<PhaseRule>,
    /// Side names in the order they charge.
    pub charge_order: Vec<String>,
    /// Game turns (house rule).
    pub game_length: u32,
    /// Rules per troop type, by [`TroopTypeId`]; `None` for troop types
    /// that are not units (the commander's stand).
    pub troops: Vec<Option<TroopRules>>,
    /// Infantry in line, inches.
    pub move_line: f64,
    /// Infantry in column, inches.
    pub move_column: f64,
    /// Infantry in open order, inches.
    pub move_open_order: f64,
    /// Mounted dragoons, inches.
    pub move_mounted: f64,
    /// Dismounted dragoons, inches.
    pub move_dismounted: f64,
    /// Cannon, inches.
    pub move_cannon: f64,
    /// Fraction of the allowance when moving backwards.
    pub backwards: f64,
    /// No move but a charge may come nearer than this to an enemy, inches.
    pub keep_away: f64,
    /// Gap between stands in open order, in stand widths.
    pub open_order_gap: f64,
    /// Dice per base shooting.
    pub dice_per_base: u32,
    /// Dice per cannon.
    pub dice_per_cannon: u32,
    /// The range bands, inches, nearest first: the first is only used at
    /// chargers.
    pub bands: Vec<f64>,
    /// Least roll to hit by fire class and band (`None`: cannot hit).
    pub to_hit: [Vec<Option<u8>>; 3],
    /// Hits in one turn that remove a cannon's base.
    pub cannon_hits_per_base: u32,
    /// A line of fire may not pass nearer than this to a friendly unit.
    pub narrow_gap: f64,
    /// Charge reach of infantry, inches.
    pub charge_infantry: f64,
    /// Charge reach of mounted dragoons, inches.
    pub charge_mounted: f64,
    /// Charge reach of dismounted dragoons, inches.
    pub charge_dismounted: f64,
    /// How far a charged unit that fails its morale retreats.
    pub charge_retreat: f64,
    /// Bases an attached commander adds for morale.
    pub commander_bases: u32,
    /// Highest roll at which a cannon passes morale.
    pub cannon_pass: u8,
    /// Melee modifier for more stands than the opponent.
    pub more_stands: i32,
    /// Melee modifier for hitting the flank or rear.
    pub flank_or_rear: i32,
    /// Melee modifier for an attached commander.
    pub commander_melee: i32,
    /// Melee modifier for a defender in woods.
    pub defending_woods: i32,
    /// Terrain kinds that count as woods.
    pub woods: Vec<TerrainId>,
    /// How far a melee's loser retreats.
    pub melee_retreat: f64,
    /// Turns a melee's loser spends reforming.
    pub reform_turns: u32,
    /// How far a commander moves.
    pub commander_move: f64,
    /// The roll (or above) at which an exposed commander is lost.
    pub commander_lost_on: u8,
    /// The side that must drive the other from the field.
    pub attacker: String,
    /// The side to be driven.
    pub defender: String,
    /// A side is broken when fewer than this percent of its units are left.
    pub broken_below_percent: u32,
}

impl RvTable {
    /// The seed-001 sections of `ruleset`'s own file (the one its
    /// battlefield sections were read from: built in, or a player's under
    /// `--tables`).
    pub fn of(ruleset: &Ruleset) -> Result<RvTable, Problems> {
        RvTable::parse(ruleset.source(), ruleset)
    }

    /// The seed-001 table of the built-in rule set `name`, read against its
    /// battlefield sections.
    pub fn builtin(name: &str, ruleset: &Ruleset) -> Option<Result<RvTable, Problems>> {
        BUILTIN
            .iter()
            .find(|(builtin, _, _)| *builtin == name)
            .map(|(_, file, text)| RvTable::parse(Source::new(file, text), ruleset))
    }

    /// The rules of a troop type, if it is a unit.
    pub fn troop(&self, troop: TroopTypeId) -> Option<&TroopRules> {
        self.troops.get(troop.0).and_then(Option::as_ref)
    }

    /// The least roll to hit for `class` in band `band` (an index into
    /// [`RvTable::bands`]).
    pub fn needed(&self, class: FireClass, band: usize) -> Option<u8> {
        self.to_hit[class.index()].get(band).copied().flatten()
    }

    /// Parse and validate the engine's sections, reporting every problem at
    /// once. Troop and terrain names are checked against `ruleset`.
    pub fn parse(source: Source<'_>, ruleset: &Ruleset) -> Result<RvTable, Problems> {
        let raw: RawRv = source.parse()?;
        let mut checker = Checker::new(source);

        let mut sequence = Vec::new();
        for (index, phase) in raw.turn.sequence.iter().enumerate() {
            let path = format!("turn.sequence[{index}]");
            let needs_side = matches!(phase.phase, PhaseKind::Move | PhaseKind::Shoot);
            if needs_side != phase.side.is_some() {
                checker.report(
                    &path,
                    if needs_side {
                        "a move or shoot phase names the side that acts"
                    } else {
                        "charge and melee phases belong to both sides: give no side"
                    },
                );
            }
            sequence.push(PhaseRule {
                kind: phase.phase,
                side: phase.side.clone(),
            });
        }
        if sequence.is_empty() {
            checker.report("turn.sequence", "a turn needs at least one phase");
        }
        if sequence.iter().any(|p| p.kind == PhaseKind::Melee)
            && sequence.last().map(|p| p.kind) != Some(PhaseKind::Melee)
        {
            checker.report(
                "turn.sequence",
                "the melee phase ends the turn: list it last",
            );
        }
        if sequence.iter().all(|p| p.kind == PhaseKind::Melee) {
            checker.report("turn.sequence", "a turn needs a phase in which a side acts");
        }
        if !(1..=1000).contains(&raw.turn.game_length) {
            checker.report("turn.game_length", "must be between 1 and 1000 turns");
        }

        let mut troops = vec![None; ruleset.troop_types.len()];
        for (name, rules) in &raw.troops {
            let path = format!("troops.{name}");
            match ruleset.troop_type(name) {
                Some(id) => {
                    for (field, value) in [
                        ("morale", rules.morale),
                        ("melee", rules.melee),
                        ("melee_mounted", rules.melee_mounted),
                    ] {
                        modifier(&mut checker, &format!("{path}.{field}"), value);
                    }
                    troops[id.0] = Some(TroopRules {
                        kind: rules.kind,
                        fire: rules.fire,
                        open_order: rules.open_order,
                        militia: rules.militia,
                        morale: rules.morale,
                        melee: rules.melee,
                        melee_mounted: rules.melee_mounted,
                    });
                }
                None => {
                    let hint = crate::suggest::did_you_mean(
                        name,
                        ruleset.troop_types.iter().map(|t| t.name.as_str()),
                    );
                    checker.report(&path, format!("unknown troop type `{name}`{hint}"));
                }
            }
        }

        let m = &raw.moves;
        for (field, value) in [
            ("line", m.line),
            ("column", m.column),
            ("open_order", m.open_order),
            ("mounted", m.mounted),
            ("dismounted", m.dismounted),
            ("cannon", m.cannon),
            ("keep_away", m.keep_away),
            ("open_order_gap", m.open_order_gap),
        ] {
            inches(&mut checker, &format!("moves.{field}"), value);
        }
        if !(m.backwards > 0.0 && m.backwards <= 1.0) {
            checker.report(
                "moves.backwards",
                "must be a fraction above 0 and at most 1",
            );
        }

        let f = &raw.fire;
        for (field, value) in [
            ("dice_per_base", f.dice_per_base),
            ("dice_per_cannon", f.dice_per_cannon),
            ("cannon_hits_per_base", f.cannon_hits_per_base),
        ] {
            if !(1..=MAX_NUMBER).contains(&value) {
                checker.report(
                    &format!("fire.{field}"),
                    format!("must be between 1 and {MAX_NUMBER}"),
                );
            }
        }
        if f.bands.is_empty() {
            checker.report("fire.bands", "give at least one range band");
        }
        for (index, band) in f.bands.iter().enumerate() {
            inches(&mut checker, &format!("fire.bands[{index}]"), *band);
            if index > 0 && f.bands[index - 1] >= *band {
                checker.report(
                    &format!("fire.bands[{index}]"),
                    "bands run from nearest to farthest",
                );
            }
        }
        inches(&mut checker, "fire.narrow_gap", f.narrow_gap);
        let mut to_hit: [Vec<Option<u8>>; 3] = Default::default();
        for (class, name) in [
            (FireClass::Musket, "musket"),
            (FireClass::Rifle, "rifle"),
            (FireClass::Cannon, "cannon"),
        ] {
            let path = format!("fire.to_hit.{name}");
            let Some(row) = f.to_hit.get(name) else {
                checker.report("fire.to_hit", format!("no row for `{name}`"));
                continue;
            };
            if row.len() != f.bands.len() {
                checker.report(&path, "give one entry per range band");
            }
            for (index, entry) in row.iter().enumerate() {
                to_hit[class.index()].push(match entry {
                    RawHit::Roll(roll) if (1..=6).contains(roll) => Some(*roll),
                    RawHit::Word(word) if word == "none" => None,
                    _ => {
                        checker.report(
                            &format!("{path}[{index}]"),
                            "expected the least roll that hits, 1 to 6, or `none`",
                        );
                        None
                    }
                });
            }
        }
        for name in f.to_hit.keys() {
            if !["musket", "rifle", "cannon"].contains(&name.as_str()) {
                checker.report(
                    &format!("fire.to_hit.{name}"),
                    format!("unknown shooting row `{name}`; the rows are musket, rifle and cannon"),
                );
            }
        }

        let c = &raw.charging;
        for (field, value) in [
            ("infantry", c.infantry),
            ("mounted", c.mounted),
            ("dismounted", c.dismounted),
            ("retreat", c.retreat),
        ] {
            inches(&mut checker, &format!("charging.{field}"), value);
        }
        if raw.morale.commander_bases > MAX_NUMBER {
            checker.report(
                "morale.commander_bases",
                format!("must be at most {MAX_NUMBER}"),
            );
        }
        if !(1..=6).contains(&raw.morale.cannon_pass) {
            checker.report("morale.cannon_pass", "must be a roll from 1 to 6");
        }

        let g = &raw.fighting;
        for (field, value) in [
            ("more_stands", g.more_stands),
            ("flank_or_rear", g.flank_or_rear),
            ("commander", g.commander),
            ("defending_woods", g.defending_woods),
        ] {
            modifier(&mut checker, &format!("fighting.{field}"), value);
        }
        inches(&mut checker, "fighting.retreat", g.retreat);
        if g.reform_turns > MAX_NUMBER {
            checker.report(
                "fighting.reform_turns",
                format!("must be at most {MAX_NUMBER}"),
            );
        }
        let mut woods = Vec::new();
        for (index, name) in g.woods.iter().enumerate() {
            match ruleset.terrain_kind(name) {
                Some(id) => woods.push(id),
                None => {
                    let hint = crate::suggest::did_you_mean(
                        name,
                        ruleset.terrain.iter().map(|t| t.name.as_str()),
                    );
                    checker.report(
                        &format!("fighting.woods[{index}]"),
                        format!("unknown terrain kind `{name}`{hint}"),
                    );
                }
            }
        }
        inches(&mut checker, "commanders.move", raw.commanders.r#move);
        if !(1..=6).contains(&raw.commanders.lost_on) {
            checker.report("commanders.lost_on", "must be a roll from 1 to 6");
        }
        if raw.victory.broken_below_percent > 100 {
            checker.report(
                "victory.broken_below_percent",
                "must be a percentage, 0 to 100",
            );
        }
        if raw.victory.attacker == raw.victory.defender {
            checker.report(
                "victory.defender",
                "the attacker and defender are different sides",
            );
        }

        let table = RvTable {
            ruleset: ruleset.name.clone(),
            sequence,
            charge_order: raw.turn.charge_order,
            game_length: raw.turn.game_length,
            troops,
            move_line: m.line,
            move_column: m.column,
            move_open_order: m.open_order,
            move_mounted: m.mounted,
            move_dismounted: m.dismounted,
            move_cannon: m.cannon,
            backwards: m.backwards,
            keep_away: m.keep_away,
            open_order_gap: m.open_order_gap,
            dice_per_base: f.dice_per_base,
            dice_per_cannon: f.dice_per_cannon,
            bands: f.bands.clone(),
            to_hit,
            cannon_hits_per_base: f.cannon_hits_per_base,
            narrow_gap: f.narrow_gap,
            charge_infantry: c.infantry,
            charge_mounted: c.mounted,
            charge_dismounted: c.dismounted,
            charge_retreat: c.retreat,
            commander_bases: raw.morale.commander_bases,
            cannon_pass: raw.morale.cannon_pass,
            more_stands: g.more_stands,
            flank_or_rear: g.flank_or_rear,
            commander_melee: g.commander,
            defending_woods: g.defending_woods,
            woods,
            melee_retreat: g.retreat,
            reform_turns: g.reform_turns,
            commander_move: raw.commanders.r#move,
            commander_lost_on: raw.commanders.lost_on,
            attacker: raw.victory.attacker,
            defender: raw.victory.defender,
            broken_below_percent: raw.victory.broken_below_percent,
        };
        checker.finish(table)
    }
}

fn inches(checker: &mut Checker<'_>, path: &str, value: f64) {
    if !(value >= 0.0 && value <= f64::from(MAX_NUMBER)) {
        checker.report(path, format!("must be 0 to {MAX_NUMBER} inches"));
    }
}

fn modifier(checker: &mut Checker<'_>, path: &str, value: i32) {
    if !(-6..=6).contains(&value) {
        checker.report(path, "a die modifier must be between -6 and +6");
    }
}

#[derive(Debug, Deserialize)]
struct RawRv {
    turn: RawTurn,
    troops: IndexMap<String, RawTroop>,
    moves: RawMoves,
    fire: RawFire,
    charging: RawCharging,
    morale: RawMorale,
    fighting: RawFighting,
    commanders: RawCommanders,
    victory: RawVictory,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTurn {
    sequence: Vec<RawPhase>,
    charge_order: Vec<String>,
    game_length: u32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPhase {
    phase: PhaseKind,
    #[serde(default)]
    side: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTroop {
    kind: Kind,
    fire: FireClass,
    #[serde(default)]
    open_order: bool,
    #[serde(default)]
    militia: bool,
    morale: i32,
    melee: i32,
    #[serde(default)]
    melee_mounted: i32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMoves {
    line: f64,
    column: f64,
    open_order: f64,
    mounted: f64,
    dismounted: f64,
    cannon: f64,
    backwards: f64,
    keep_away: f64,
    open_order_gap: f64,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum RawHit {
    Roll(u8),
    Word(String),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFire {
    dice_per_base: u32,
    dice_per_cannon: u32,
    bands: Vec<f64>,
    to_hit: IndexMap<String, Vec<RawHit>>,
    cannon_hits_per_base: u32,
    narrow_gap: f64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCharging {
    infantry: f64,
    mounted: f64,
    dismounted: f64,
    retreat: f64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMorale {
    commander_bases: u32,
    cannon_pass: u8,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFighting {
    more_stands: i32,
    flank_or_rear: i32,
    commander: i32,
    defending_woods: i32,
    woods: Vec<String>,
    retreat: f64,
    reform_turns: u32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCommanders {
    r#move: f64,
    lost_on: u8,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVictory {
    attacker: String,
    defender: String,
    broken_below_percent: u32,
}
