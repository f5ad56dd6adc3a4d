//! `foe melee`: Lone Warrior melee casualties for one side.

use super::Context;
use super::react::forced;
use crate::dice::Die;
use crate::error::{Error, Result};
use crate::melee::{self, Side};
use crate::render::text;

/// Arguments of `foe melee`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Each side of a melee counts its figures within 1/4\", adds its factors and rolls a D6.
Run foe melee once for each side.

Examples:
  foe melee --factor 13 --die 5
  foe melee --figures 8 --troop rangers --situation charging --die 5

    8 figures within 1/4\"                    +8
    Rangers                                  +3
    Charging (first round only)              +2
    Factor                                   +13
    Die                                      5
    -> 3 casualties (figures)")]
pub struct Args {
    /// The total melee factor, if already worked out.
    #[arg(long, value_name = "F", allow_negative_numbers = true, conflicts_with_all = ["figures", "troop", "situation"])]
    pub factor: Option<i32>,
    /// Figures within 1/4" of the enemy.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub figures: Option<i64>,
    /// Troop type: light-cavalry, grenadiers, light-infantry, rangers, line-infantry, troupes-de-la-marine, red-indians, canadian-militia, provincial-militia, riflemen, local-militia.
    #[arg(long, value_name = "TYPE")]
    pub troop: Option<String>,
    /// A situation that applies (repeatable): flank-or-rear, defending-hard-cover, charging, routing-or-withdrawing.
    #[arg(long, value_name = "S")]
    pub situation: Vec<String>,
    /// Use this D6 instead of rolling.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub die: Option<i64>,
    /// Seed for the roll.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Show the exact chance of each number of casualties over the D6.
    #[arg(long)]
    pub odds: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Run `foe melee`.
pub fn run(args: &Args, context: &mut Context<'_>) -> Result<()> {
    let tables = context.tables()?;
    let side = match (args.factor, args.figures) {
        (Some(_), _) => None,
        (None, Some(figures)) if figures >= 0 => Some(Side {
            figures: u32::try_from(figures).unwrap_or(u32::MAX),
            troop: args.troop.clone(),
            situations: args.situation.clone(),
        }),
        (None, Some(figures)) => {
            return Err(Error::Invalid(format!(
                "--figures must be 0 or more, not {figures}"
            )));
        }
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
    let forced_die = forced(args.die, Die::D6, "--die")?;
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
