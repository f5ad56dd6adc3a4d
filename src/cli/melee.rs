//! `foe melee`: the Lone Warrior figure melee: one side's round, or a whole
//! melee between two sides, round by round with the morale checks.

use super::Context;
use super::react::{forced, ground};
use crate::dice::Die;
use crate::error::{Error, Result};
use crate::melee::{self, Combatant, DieFor, End, Melee, Roll, Side};
use crate::reaction::Factor;
use crate::render::text;
use crate::tables::{Character, Tables};
use std::collections::VecDeque;
use std::fmt::Write as _;

/// Arguments of `foe melee`.
#[derive(Debug, Clone, clap::Args)]
#[command(after_help = "\
Each side of a melee counts its figures within 1/4\", adds its factors and rolls a D6.
Give one side for its casualties, or both (--against-...) to fight the melee out:
after each round both sides check morale (their class's reaction test); if both
hold they fight again.

Examples:
  foe melee --factor 13 --die 5
  foe melee --figures 8 --troop rangers --situation charging --die 5

    8 figures within 1/4\"                    +8
    Rangers                                  +3
    Charging (first round only)              +2
    Factor                                   +13
    Die                                      5
    -> 3 casualties (figures)

  foe melee --figures 8 --troop rangers --situation charging \\
            --against-figures 8 --against-troop line-infantry --die 5,1,6,6,6,6,6,6")]
pub struct Args {
    /// The total melee factor, if already worked out (one side only).
    #[arg(long, value_name = "F", allow_negative_numbers = true, conflicts_with_all = ["figures", "troop", "situation", "against_figures"])]
    pub factor: Option<i32>,
    /// Figures within 1/4" of the enemy.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub figures: Option<i64>,
    /// Troop type (its id or its name): light-cavalry, grenadiers, light-infantry, rangers, line-infantry, troupes-de-la-marine, red-indians, canadian-militia, provincial-militia, riflemen, local-militia.
    #[arg(long, value_name = "TYPE")]
    pub troop: Option<String>,
    /// A situation that applies (repeatable): flank-or-rear, defending-hard-cover, charging, routing-or-withdrawing.
    #[arg(long, value_name = "S")]
    pub situation: Vec<String>,
    /// For the morale check: the ground the side fights on (open, natural, hard, retreat, or in words: woods, fence…).
    #[arg(long, value_name = "GROUND")]
    pub ground: Option<String>,
    /// For the morale check: a general within 3".
    #[arg(long)]
    pub general_within_3: bool,
    /// For the morale check: supporting troops within 6".
    #[arg(long)]
    pub support_within_6: bool,
    /// For the morale check: the unit's character (militia and provincials): rash, brave, average, cautious, timid.
    #[arg(long, value_name = "C")]
    pub character: Option<String>,
    /// For the morale check: the unit's full strength in figures (under half strength is -6); the figures it starts with if not given.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub strength: Option<i64>,
    /// The other side's figures within 1/4": fight a whole melee.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub against_figures: Option<i64>,
    /// The other side's troop type.
    #[arg(long, value_name = "TYPE")]
    pub against_troop: Option<String>,
    /// A situation of the other side (repeatable).
    #[arg(long, value_name = "S")]
    pub against_situation: Vec<String>,
    /// The ground the other side fights on.
    #[arg(long, value_name = "GROUND")]
    pub against_ground: Option<String>,
    /// The other side has a general within 3".
    #[arg(long)]
    pub against_general_within_3: bool,
    /// The other side has supporting troops within 6".
    #[arg(long)]
    pub against_support_within_6: bool,
    /// The other side's character.
    #[arg(long, value_name = "C")]
    pub against_character: Option<String>,
    /// The other side's full strength in figures.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub against_strength: Option<i64>,
    /// Use these D6 instead of rolling (repeatable, or comma-separated). A whole melee takes them in order, each round: the first side's casualties, the other's, the first side's morale, the other's; rolls the rest.
    #[arg(
        long,
        value_name = "N",
        allow_negative_numbers = true,
        value_delimiter = ','
    )]
    pub die: Vec<i64>,
    /// Seed for the roll.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Show the exact chance of each number of casualties over the D6 (one side only).
    #[arg(long)]
    pub odds: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

impl Args {
    /// Whether any `--against-…` or morale flag is given: a whole melee.
    fn two_sided(&self) -> bool {
        self.against_figures.is_some()
            || self.against_troop.is_some()
            || !self.against_situation.is_empty()
            || self.against_ground.is_some()
            || self.against_general_within_3
            || self.against_support_within_6
            || self.against_character.is_some()
            || self.against_strength.is_some()
    }
}

/// A count of figures from the command line: 0 up to what a factor can
/// hold.
fn figures(value: i64, flag: &str) -> Result<u32> {
    let most = i64::from(i32::MAX);
    if (0..=most).contains(&value) {
        Ok(u32::try_from(value).unwrap_or(u32::MAX))
    } else {
        Err(Error::Invalid(format!(
            "{flag} must be from 0 to {most} figures, not {value}"
        )))
    }
}

/// One side of a whole melee from its flags (`prefix` is `--` or
/// `--against-`).
#[allow(clippy::too_many_arguments)]
fn combatant(
    prefix: &str,
    figure_count: Option<i64>,
    troop: Option<&String>,
    situations: &[String],
    ground_word: Option<&str>,
    general_within_3: bool,
    support_within_6: bool,
    character: Option<&str>,
    strength: Option<i64>,
    tables_dir: Option<&std::path::Path>,
) -> Result<Combatant> {
    let Some(figure_count) = figure_count else {
        return Err(Error::Invalid(format!(
            "a whole melee needs both sides' figures: give {prefix}figures N"
        )));
    };
    let Some(troop) = troop else {
        return Err(Error::Invalid(format!(
            "a whole melee needs both sides' troop types (the morale check is its class's reaction test): give {prefix}troop TYPE"
        )));
    };
    Ok(Combatant {
        side: Side {
            figures: figures(figure_count, &format!("{prefix}figures"))?,
            troop: Some(troop.clone()),
            situations: situations.to_vec(),
        },
        ground: ground_word
            .map(|word| ground(word, tables_dir).map(|(column, _)| column))
            .transpose()?,
        general_within_3,
        support_within_6,
        character: character.map(str::parse::<Character>).transpose()?,
        strength: strength
            .map(|value| figures(value, &format!("{prefix}strength")))
            .transpose()?,
    })
}

/// Run `foe melee`.
pub fn run(args: &Args, context: &mut Context<'_>) -> Result<()> {
    let tables = context.tables()?;
    // A class word (`foe react --class`) names its melee troop type.
    let mut words = args.clone();
    for troop in [&mut words.troop, &mut words.against_troop] {
        if let Some(word) = troop.as_mut() {
            *word = melee::troop_word(&tables, word)?;
        }
    }
    let args = &words;
    if args.two_sided() {
        return run_whole(args, context, &tables);
    }
    for (given, flag) in [
        (args.ground.is_some(), "--ground"),
        (args.general_within_3, "--general-within-3"),
        (args.support_within_6, "--support-within-6"),
        (args.character.is_some(), "--character"),
        (args.strength.is_some(), "--strength"),
    ] {
        if given {
            return Err(Error::Invalid(format!(
                "{flag} is for the morale check of a whole melee: give the other side too (--against-figures N --against-troop TYPE)"
            )));
        }
    }
    if args.die.len() > 1 {
        return Err(Error::Invalid(format!(
            "one side's round takes one --die, not {}; give the other side (--against-figures, --against-troop) to fight a whole melee",
            args.die.len()
        )));
    }
    let side = match (args.factor, args.figures) {
        (Some(_), _) => None,
        (None, Some(count)) => Some(Side {
            figures: figures(count, "--figures")?,
            troop: args.troop.clone(),
            situations: args.situation.clone(),
        }),
        (None, None) => {
            return Err(Error::Invalid(
                "give --factor F, or --figures N with --troop and --situation".into(),
            ));
        }
    };
    // Check names before asking for a die.
    if let Some(side) = &side {
        melee::side_factor(&tables, side)?;
    }
    let forced_die = forced(args.die.first().copied(), Die::D6, "--die")?;
    let mut dice = context.dice(args.seed);
    let die = match forced_die {
        Some(die) => die,
        None => dice.roll(Die::D6, "melee")?,
    };
    let rolled = forced_die.is_none() && !context.asks();
    let outcome = match &side {
        Some(side) => melee::resolve(&tables, side, die)?,
        None => melee::resolve_factor(&tables, args.factor.unwrap_or_default(), die)?,
    };
    let odds = args.odds.then(|| melee::odds(&tables, outcome.factor));
    if args.json {
        let mut value = serde_json::to_value(&outcome).unwrap_or_default();
        if let Some(odds) = &odds {
            let map: serde_json::Map<String, serde_json::Value> = odds
                .iter()
                .map(|(casualties, faces)| {
                    (
                        casualties.to_string(),
                        serde_json::json!(f64::from(*faces) / 6.0),
                    )
                })
                .collect();
            value["odds"] = serde_json::Value::Object(map);
        }
        if rolled {
            value["seed"] = serde_json::json!(dice.seed);
        }
        return context.print(&format!(
            "{}\n",
            serde_json::to_string_pretty(&value).unwrap_or_default()
        ));
    }
    let mut out = text::melee(&outcome);
    if let Some(odds) = &odds {
        out.push_str(&text::melee_odds(odds));
    }
    if rolled {
        out.push_str(&format!(
            "  (rolled with seed {}; --seed {} repeats it)\n",
            dice.seed, dice.seed
        ));
    }
    context.print(&out)
}

/// Fight a whole melee: both sides from their flags, the forced dice first,
/// then rolled (or asked for).
fn run_whole(args: &Args, context: &mut Context<'_>, tables: &Tables) -> Result<()> {
    if args.odds {
        return Err(Error::Invalid(
            "--odds is for one side's round; a whole melee prints its rounds".into(),
        ));
    }
    let tables_dir = context.tables_dir.clone();
    let dir = tables_dir.as_deref();
    let sides = [
        combatant(
            "--",
            args.figures,
            args.troop.as_ref(),
            &args.situation,
            args.ground.as_deref(),
            args.general_within_3,
            args.support_within_6,
            args.character.as_deref(),
            args.strength,
            dir,
        )?,
        combatant(
            "--against-",
            args.against_figures,
            args.against_troop.as_ref(),
            &args.against_situation,
            args.against_ground.as_deref(),
            args.against_general_within_3,
            args.against_support_within_6,
            args.against_character.as_deref(),
            args.against_strength,
            dir,
        )?,
    ];
    // Check names before asking for a die.
    melee::check(tables, &sides)?;
    let names = side_names(tables, &sides);
    let mut queue: VecDeque<u8> = VecDeque::with_capacity(args.die.len());
    for value in &args.die {
        queue.extend(forced(Some(*value), Die::D6, "--die")?);
    }
    let mut dice = context.dice(args.seed);
    let mut rolled = false;
    let asks = context.asks();
    let melee = melee::fight(tables, &sides, |for_: DieFor| match queue.pop_front() {
        Some(face) => Ok(face),
        None => {
            rolled |= !asks;
            let what = match for_.roll {
                Roll::Casualties => "casualty",
                Roll::Morale => "morale",
            };
            dice.roll(
                Die::D6,
                &format!("round {}, {what} D6 for {}", for_.round, names[for_.side]),
            )
        }
    })?;
    if args.json {
        let mut value =
            serde_json::to_value(&melee).map_err(|error| Error::Invalid(error.to_string()))?;
        value["names"] = serde_json::json!(names);
        if rolled {
            value["seed"] = serde_json::json!(dice.seed);
        }
        return context.print(&format!(
            "{}\n",
            serde_json::to_string_pretty(&value).unwrap_or_default()
        ));
    }
    let mut out = whole(&melee, &names);
    if !queue.is_empty() {
        let _ = writeln!(
            out,
            "  ({} --die not needed: the melee ended first)",
            queue.len()
        );
    }
    if rolled {
        let _ = writeln!(
            out,
            "  (rolled with seed {}; --seed {} repeats it)",
            dice.seed, dice.seed
        );
    }
    context.print(&out)
}

/// The sides as the printout names them: their troop types' names, told
/// apart by (1) and (2) when both are the same.
fn side_names(tables: &Tables, sides: &[Combatant; 2]) -> [String; 2] {
    let name = |combatant: &Combatant| {
        combatant
            .side
            .troop
            .as_deref()
            .and_then(|troop| tables.melee.troop(troop).ok())
            .map_or_else(|| "Side".to_string(), |(_, row)| row.name.clone())
    };
    let names = [name(&sides[0]), name(&sides[1])];
    if names[0] == names[1] {
        [format!("{} (1)", names[0]), format!("{} (2)", names[1])]
    } else {
        names
    }
}

/// `+3`, `0`, `-2`.
fn signed(value: i32) -> String {
    if value > 0 {
        format!("+{value}")
    } else {
        value.to_string()
    }
}

/// `a +1, b -2`: factor lines joined on one line, with a morale check's
/// "last bound" read as the round just fought.
fn joined(factors: &[Factor]) -> String {
    let parts: Vec<String> = factors
        .iter()
        .map(|factor| {
            let label = match &*factor.id {
                "casualties" => {
                    let lost = -i64::from(factor.value);
                    let figures = if lost == 1 { "figure" } else { "figures" };
                    format!("{lost} {figures} lost this round")
                }
                "lost-melee" => "Lost the round".to_string(),
                _ => factor.label.to_string(),
            };
            format!("{label} {}", signed(factor.value))
        })
        .collect();
    parts.join(", ")
}

/// A whole melee as text: each round's strikes (with the figures each
/// leaves the enemy) and morale checks,
/// then how it ended.
fn whole(melee: &Melee, names: &[String; 2]) -> String {
    let width = names
        .iter()
        .map(|name| name.chars().count())
        .max()
        .unwrap_or(0)
        + 1;
    let morale_width = width + " morale".len();
    let mut out = String::new();
    for round in &melee.rounds {
        let _ = writeln!(out, "Round {}", round.number);
        for (index, (name, side)) in names.iter().zip(&round.sides).enumerate() {
            let strikes = &side.strikes;
            let enemy = &round.sides[1 - index];
            let _ = writeln!(
                out,
                "  {:<width$} {} = {}; die {} -> {} casualt{}: {} {} left",
                format!("{name}:"),
                joined(&strikes.factors),
                signed(strikes.factor),
                strikes.die,
                strikes.casualties,
                if strikes.casualties == 1 { "y" } else { "ies" },
                names[1 - index],
                enemy.left
            );
        }
        for (name, side) in names.iter().zip(&round.sides) {
            let (Some(morale), Some(holds)) = (&side.morale, side.holds) else {
                continue;
            };
            let _ = writeln!(
                out,
                "  {:<morale_width$} {}; die {} = {}: {} -> {}",
                format!("{name} morale:"),
                joined(&morale.factors),
                morale.die,
                signed(morale.total),
                morale.order,
                if holds { "holds" } else { "falls back" }
            );
        }
    }
    let rounds = melee.rounds.len();
    let after = format!("after {rounds} round{}", if rounds == 1 { "" } else { "s" });
    let ending = match melee.end {
        End::Broke { side } => format!(
            "{} fail their morale check and fall back: {} win, {after}.",
            names[side],
            names[1 - side]
        ),
        End::BothBroke => {
            format!("Both fail their morale checks and fall back: no winner, {after}.")
        }
        End::WipedOut { side } => format!(
            "{} have no figures left: {} win, {after}.",
            names[side],
            names[1 - side]
        ),
        End::BothWipedOut => format!("Both lose their last figures: no winner, {after}."),
        End::RoundsRanOut { rounds } => format!(
            "Both still hold after {rounds} rounds, the most a melee lasts (house rule): broken off undecided; a new melee next bound."
        ),
    };
    let _ = writeln!(out, "=> {ending}");
    out
}
