//! `foe react`: one unit's reaction test at the table.

use super::Context;
use crate::dice::Die;
use crate::error::{Error, Result};
use crate::reaction::{self, Options, Situation};
use crate::render::text;
use crate::tables::{Character, Column, Formation};

/// Arguments of `foe react`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Example (the seed's worked example, 3rd bound: rangers in the open, enemy within 6\", two casualties):
  foe react --class rangers --terrain open --enemy-distance 5 --casualties 2 --die 3

    Rangers in open ground                   0
    Enemy within 6\"                          -1
    2 figures lost last bound                -2
    Die                                      +3
    TOTAL                                    0: Fire and withdraw
    -> Fire a single volley at -1, then withdraw at half speed to the nearest cover. [...]")]
pub struct Args {
    /// Troop class: british-regulars, troupes-de-la-marine, rangers, canadian-militia (indians), provincial-militia, light-infantry, local-militia, light-cavalry, artillery; or a troop type of a built-in battle (continentals, militia, zouaves, ...), read as its rule set reads it.
    #[arg(long, value_name = "CLASS")]
    pub class: String,
    /// The ground the unit is in: open, natural, hard, or retreat (routing or withdrawing); or the ground in words, read by the ohw-awi rule set's terrain (woods, forest, town, building, fence, wall, hill, marsh, road…).
    #[arg(long, value_name = "GROUND", default_value = "open")]
    pub terrain: String,
    /// Distance to the nearest enemy in inches (6 or less: "enemy within 6"; over 15: "enemy over 15").
    #[arg(long, value_name = "INCHES", allow_negative_numbers = true)]
    pub enemy_distance: Option<f64>,
    /// No enemy is in sight.
    #[arg(long)]
    pub no_enemy_in_sight: bool,
    /// A general is within 3".
    #[arg(long)]
    pub general_within_3: bool,
    /// Supporting troops are within 6".
    #[arg(long)]
    pub support_within_6: bool,
    /// The unit sees the enemy in retreat.
    #[arg(long)]
    pub sees_enemy_retreat: bool,
    /// The unit lost a melee in the last bound.
    #[arg(long)]
    pub lost_melee: bool,
    /// Line infantry in skirmish order.
    #[arg(long)]
    pub skirmish_order: bool,
    /// Figures lost in the last bound.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    pub casualties: i64,
    /// The unit is under half strength.
    #[arg(long)]
    pub under_half: bool,
    /// The unit withdrew in the last bound (cover disregarded; a second withdrawal routs).
    #[arg(long)]
    pub withdrew_last_bound: bool,
    /// The unit's character (militia and provincial classes): rash, brave, average, cautious, timid.
    #[arg(long, value_name = "C")]
    pub character: Option<String>,
    /// The unit's formation: line, column, skirmish, close-order, mounted, dismounted, limbered, unlimbered.
    #[arg(long, value_name = "F")]
    pub formation: Option<String>,
    /// The unit is disordered.
    #[arg(long)]
    pub disordered: bool,
    /// Enemy cavalry is in sight.
    #[arg(long)]
    pub sees_cavalry: bool,
    /// The unit is approaching the rear of a friend deployed to fire.
    #[arg(long)]
    pub friend_firing_ahead: bool,
    /// ... and that friend is fighting a melee.
    #[arg(long)]
    pub friend_in_melee: bool,
    /// The unit sees its own troops routing (switches on the seed's optional -2 factor).
    #[arg(long)]
    pub sees_own_rout: bool,
    /// Use this D6 instead of rolling.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub die: Option<i64>,
    /// Seed for the roll, to repeat it exactly.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Show the exact chance of each order over the D6.
    #[arg(long)]
    pub odds: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

impl Args {
    /// The situation the arguments describe, for the reaction class
    /// `class` (`--class` as [`class`] reads it). A ground word is read in
    /// the rule set under `tables_dir` (`--tables`) when the player has one
    /// there ([`ground`]).
    pub fn situation(
        &self,
        class: String,
        tables_dir: Option<&std::path::Path>,
    ) -> Result<Situation> {
        if self.casualties < 0 {
            return Err(Error::Invalid(format!(
                "--casualties must be 0 or more figures, not {}",
                self.casualties
            )));
        }
        let Ok(casualties) = u32::try_from(self.casualties) else {
            return Err(Error::Invalid(format!(
                "--casualties must be at most {} figures, not {}",
                u32::MAX,
                self.casualties
            )));
        };
        Ok(Situation {
            class,
            column: Some(ground(&self.terrain, tables_dir)?.0),
            enemy_in_sight: !self.no_enemy_in_sight,
            enemy_distance: self.enemy_distance,
            general_within_3: self.general_within_3,
            support_within_6: self.support_within_6,
            sees_enemy_retreat: self.sees_enemy_retreat,
            lost_melee: self.lost_melee,
            skirmish_order: self.skirmish_order,
            sees_own_rout: self.sees_own_rout,
            casualties,
            under_half: self.under_half,
            withdrew_last_bound: self.withdrew_last_bound,
            character: self
                .character
                .as_deref()
                .map(str::parse::<Character>)
                .transpose()?,
            formation: self
                .formation
                .as_deref()
                .map(str::parse::<Formation>)
                .transpose()?,
            disordered: self.disordered,
            sees_cavalry: self.sees_cavalry,
            friend_firing_ahead: self.friend_firing_ahead,
            friend_in_melee: self.friend_in_melee,
        })
    }
}

/// The rule set whose terrain kinds give `--terrain` its words.
const GROUND_RULESET: &str = "ohw-awi";

/// Everyday words for the rule set's terrain kinds.
const GROUND_SYNONYMS: [(&str, &str); 13] = [
    ("wood", "woods"),
    ("forest", "woods"),
    ("trees", "woods"),
    ("building", "town"),
    ("buildings", "town"),
    ("house", "town"),
    ("houses", "town"),
    ("village", "town"),
    ("hills", "hill"),
    ("fences", "fence"),
    ("walls", "wall"),
    ("swamp", "marsh"),
    ("stream", "river"),
];

/// How a `--terrain` word was read when it was not a column's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroundWord {
    /// The word given.
    pub word: String,
    /// The rule set's terrain kind it names.
    pub kind: String,
    /// The column that kind stands for.
    pub column: Column,
}

/// The reaction-chart column of a `--terrain` word: a column's own name (or
/// a unique prefix of it), or ground in words, which the rule set's terrain
/// kinds map to a column (`woods` is natural cover, `fence` hard cover).
/// Every kind has exactly one column, so a word is never ambiguous. The
/// rule set is the player's `rulesets/ohw-awi.yaml` under `tables_dir`
/// (`--tables`) when there is one, else the built-in one.
pub fn ground(
    word: &str,
    tables_dir: Option<&std::path::Path>,
) -> Result<(Column, Option<GroundWord>)> {
    if let Ok(column) = word.parse::<Column>() {
        return Ok((column, None));
    }
    let file = format!("rulesets/{GROUND_RULESET}.yaml");
    let ruleset = match super::table_override(tables_dir, &file)? {
        Some((shown_as, text)) => {
            crate::ruleset::Ruleset::parse(crate::yaml::Source::new(&shown_as, &text))?
        }
        None => crate::ruleset::Ruleset::builtin(GROUND_RULESET)
            .and_then(std::result::Result::ok)
            .ok_or_else(|| {
                Error::Invalid(format!(
                    "the built-in rule set `{GROUND_RULESET}` is missing"
                ))
            })?,
    };
    let lower = word.to_lowercase();
    let kind_name = GROUND_SYNONYMS
        .iter()
        .find(|(synonym, _)| *synonym == lower)
        .map_or(lower.as_str(), |(_, kind)| kind);
    match ruleset.terrain_kind(kind_name) {
        Some(kind) => {
            let kind = ruleset.kind(kind);
            Ok((
                kind.column,
                Some(GroundWord {
                    word: word.to_string(),
                    kind: kind.name.clone(),
                    column: kind.column,
                }),
            ))
        }
        None => {
            let mut valid: Vec<&str> = Column::ALL.iter().map(|column| column.id()).collect();
            valid.extend(ruleset.terrain.iter().map(|kind| kind.name.as_str()));
            let mut seen = std::collections::HashSet::new();
            valid.retain(|name| seen.insert(*name));
            valid.extend(GROUND_SYNONYMS.iter().map(|(synonym, _)| *synonym));
            Err(Error::unknown("terrain", word, valid))
        }
    }
}

pub use crate::reaction::ClassWord;

/// The reaction class `word` names: a class of the chart (or an alias), or
/// else a troop type of a shipped rule set (`continentals`, `militia`),
/// read through its `reaction_class` as the digital table reads it (the
/// rule set under `--tables` when there is one). An unknown word is an
/// error naming the nearest of them all. The lookup is
/// [`crate::reaction::class_word`], the companion's too.
pub fn class(
    word: &str,
    tables: &crate::tables::Tables,
    tables_dir: Option<&std::path::Path>,
) -> Result<(String, Option<ClassWord>)> {
    if let Ok((id, _)) = tables.reaction.class(word) {
        return Ok((id.to_string(), None));
    }
    let mut rulesets = Vec::new();
    for name in crate::reaction::CLASS_RULESETS {
        let file = format!("rulesets/{name}.yaml");
        let ruleset = match super::table_override(tables_dir, &file)? {
            Some((shown_as, text)) => {
                crate::ruleset::Ruleset::parse(crate::yaml::Source::new(&shown_as, &text))?
            }
            None => match crate::ruleset::Ruleset::builtin(name) {
                Some(Ok(ruleset)) => ruleset,
                _ => continue,
            },
        };
        rulesets.push((name, ruleset));
    }
    crate::reaction::class_word(
        tables,
        rulesets.iter().map(|(name, ruleset)| (*name, ruleset)),
        word,
    )
}

/// Check a forced die is a legal face.
pub fn forced(die: Option<i64>, kind: Die, flag: &str) -> Result<Option<u8>> {
    match die {
        None => Ok(None),
        Some(value) => match u8::try_from(value) {
            Ok(face) if kind.is_face(face) => Ok(Some(face)),
            _ => Err(Error::Invalid(format!(
                "{flag} must be {}, not {value}",
                kind.faces_hint()
            ))),
        },
    }
}

/// Run `foe react`.
pub fn run(args: &Args, context: &mut Context<'_>) -> Result<()> {
    let tables = context.tables()?;
    let tables_dir = context.tables_dir.clone();
    let (class_id, class_word) = class(&args.class, &tables, tables_dir.as_deref())?;
    let situation = args.situation(class_id, tables_dir.as_deref())?;
    let options = Options {
        sees_own_rout: args.sees_own_rout,
    };
    // Validate the situation before asking the player for a die.
    reaction::modifiers(&tables, &situation, options)?;
    let forced_die = forced(args.die, Die::D6, "--die")?;
    let mut dice = context.dice(args.seed);
    let die = match forced_die {
        Some(die) => die,
        None => dice.roll(Die::D6, &format!("{} reaction test", args.class))?,
    };
    let outcome = reaction::test(&tables, &situation, options, die)?;
    let odds = if args.odds {
        Some(reaction::odds(&tables, &situation, options)?)
    } else {
        None
    };
    let rolled = forced_die.is_none() && !context.asks();
    if args.json {
        let mut value =
            serde_json::to_value(&outcome).map_err(|e| Error::Invalid(e.to_string()))?;
        if let Some(odds) = &odds {
            let map: serde_json::Map<String, serde_json::Value> = odds
                .iter()
                .map(|(order, p)| (order.id().to_string(), serde_json::json!(p)))
                .collect();
            value["odds"] = serde_json::Value::Object(map);
        }
        if let (_, Some(read)) = ground(&args.terrain, tables_dir.as_deref())? {
            value["terrain"] = serde_json::json!({
                "word": read.word,
                "kind": read.kind,
                "column": read.column.id(),
            });
        }
        if rolled {
            value["seed"] = serde_json::json!(dice.seed);
        }
        return context.print(&format!(
            "{}\n",
            serde_json::to_string_pretty(&value).unwrap_or_default()
        ));
    }
    let mut out = String::new();
    if let Some(read) = &class_word {
        out.push_str(&format!(
            "  ({}: a troop type of the {} rule set, which tests as {})\n",
            read.word, read.ruleset, read.class
        ));
    }
    if let (_, Some(read)) = ground(&args.terrain, tables_dir.as_deref())? {
        let kind = if read.word.eq_ignore_ascii_case(&read.kind) {
            String::new()
        } else {
            format!("{}, ", read.kind)
        };
        out.push_str(&format!(
            "  ({}: {kind}{} in the {GROUND_RULESET} rule set)\n",
            read.word,
            read.column.title()
        ));
    }
    out.push_str(&text::reaction(&outcome));
    if let Some(odds) = &odds {
        out.push_str(&text::odds(odds));
    }
    if rolled {
        out.push_str(&format!(
            "  (rolled with seed {}; --seed {} repeats it)\n",
            dice.seed, dice.seed
        ));
    }
    context.print(&out)
}
