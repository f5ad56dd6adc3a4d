//! Seed 000's rules in words, for `help fire`, `help charge`, `help
//! melee`, `help move`, `help rally` and `help rout` at the prompt: every
//! number printed from the rule set's data, so a house-ruled file is
//! described as played. The rulings that apply are named as
//! `docs/rulings.md` heads them. Pure: strings out.

use crate::battlefield::geometry::trim;
use crate::rules::{Modifier, Operation, Role, RulesTable, Situation, Ties, TroopSet, Volley};
use crate::ruleset::{Category, Movement, Ruleset};
use std::fmt::Write;

/// The rules topics `help` knows, with the other words that name them.
pub const TOPICS: &[(&str, &[&str])] = &[
    ("fire", &["shoot", "shooting", "musket", "artillery"]),
    ("charge", &["charges", "charging"]),
    ("melee", &["melees"]),
    ("move", &["moving", "movement", "moves"]),
    ("rally", &["rallying", "rallies"]),
    ("rout", &["routs", "resolve", "army-resolve"]),
];

/// The topic a word names (`shooting` is `fire`), if any.
pub fn topic(word: &str) -> Option<&'static str> {
    let word = word.to_lowercase();
    TOPICS
        .iter()
        .find(|(topic, others)| *topic == word || others.contains(&word.as_str()))
        .map(|(topic, _)| *topic)
}

/// The rules of one topic, from the rule set's data (empty for a word
/// that names none).
pub fn rules(topic: &str, rules: &RulesTable, ruleset: &Ruleset) -> String {
    match topic {
        "fire" => fire(rules),
        "charge" => charge(rules, ruleset),
        "melee" => melee(rules, ruleset),
        "move" => moving(rules, ruleset),
        "rally" => rally(rules, ruleset),
        "rout" => rout(rules),
        _ => String::new(),
    }
}

fn set(set: &TroopSet) -> String {
    set.names.join(", ")
}

fn step(modifier: &Modifier) -> String {
    let mut when: Vec<String> = Vec::new();
    if let Some(unit) = &modifier.unit {
        when.push(set(unit));
    }
    if let Some(opponent) = &modifier.opponent {
        when.push(format!("against {}", set(opponent)));
    }
    if let Some(role) = modifier.role {
        when.push(
            match role {
                Role::Charger => "the charger",
                Role::Defender => "the defender",
            }
            .to_string(),
        );
    }
    if let Some(situation) = modifier.when {
        when.push(
            match situation {
                Situation::TargetInCover => "cover lies between the target and the shooter",
                Situation::TargetInWoodsOrBuildings => "the target is in woods or buildings",
                Situation::FlankOrRearAttack => {
                    "the charge began in the target's flank or rear arc"
                }
                Situation::DefenderInCoverOrUphill => {
                    "cover lies between the defender and the charger, or the defender is on higher ground"
                }
                Situation::DoubleVolley => "a double volley: `fire UNIT at TARGET double`",
                Situation::HastyVolley => "a hasty volley: `fire UNIT at TARGET hasty`",
            }
            .to_string(),
        );
    }
    let operation = match modifier.operation {
        Operation::Add(n) => format!("{n:+}"),
        Operation::Multiply(n) => format!("x{n}"),
    };
    if when.is_empty() {
        format!("    {operation:>3}  {}", modifier.label)
    } else {
        format!(
            "    {operation:>3}  {} ({})",
            modifier.label,
            when.join("; ")
        )
    }
}

fn fire(rules: &RulesTable) -> String {
    let mut out = String::from(
        "Shooting, in your shooting phase: a unit that moved or pivoted this turn may not shoot, and each unit shoots once.\n",
    );
    let _ = writeln!(
        out,
        "  The target must be in the frontal arc, in sight, and have no other unit of yours within {}\".",
        trim(rules.friendly_clearance)
    );
    let musket = &rules.musket;
    let _ = writeln!(
        out,
        "  Muskets ({}): range {}\" base edge to base edge; roll the {}, then in this order:",
        set(&musket.shooters),
        trim(musket.range),
        rules.shooting_die
    );
    for modifier in &musket.modifiers {
        let _ = writeln!(out, "{}", step(modifier));
    }
    for (word, volley) in [("double", Volley::Double), ("hasty", Volley::Hasty)] {
        if let Some(rule) = rules.volley(volley) {
            let _ = writeln!(
                out,
                "  A {word} volley, either side's: by {}, at a target within {}\".",
                set(&rule.shooters),
                trim(rule.within)
            );
        }
    }
    let gun = &rules.artillery;
    let _ = writeln!(
        out,
        "  Artillery ({}): roll the {}, less one for every range band of {}\" to the target (at least 1), longest shot {}\"; then:",
        set(&gun.shooters),
        rules.shooting_die,
        trim(gun.bound),
        trim(gun.max_range)
    );
    for modifier in &gun.modifiers {
        let _ = writeln!(out, "{}", step(modifier));
    }
    out.push_str("  The score is the hits (below 0: none).\n");
    out.push_str("  Rulings (docs/rulings.md): Measuring, Shooting.\n");
    out
}

fn charge(rules: &RulesTable, ruleset: &Ruleset) -> String {
    let mut out = String::from(
        "Charges, in your movement phase (the charge is the unit's move): `charge UNIT TARGET`.\n",
    );
    let _ = writeln!(
        out,
        "  The charger pivots to face the target (at most {}°) and goes straight at it until the bases touch, within its move: {}.",
        trim(rules.charge_max_pivot),
        allowances(ruleset)
    );
    let _ = writeln!(
        out,
        "  Road bonus: {}. Charges need no line of sight; no moving through other units.",
        if rules.charge_road_bonus {
            "yes"
        } else {
            "none"
        }
    );
    out.push_str("  Who may charge what (the first line naming the charger's troop type, else its category):\n");
    for (charger, targets) in &rules.may_charge {
        let targets = set(targets);
        let _ = writeln!(
            out,
            "    {} -> {}",
            set(charger),
            if targets.is_empty() {
                "nothing"
            } else {
                &targets
            }
        );
    }
    out.push_str("  The melee is fought in the melee phase: `help melee`.\n");
    out.push_str("  Rulings (docs/rulings.md): Charges, Contact is a charge.\n");
    out
}

fn melee(rules: &RulesTable, ruleset: &Ruleset) -> String {
    let mut out = String::from(
        "Melee, fought by itself in the melee phase after every charge of the turn.\n",
    );
    let _ = writeln!(
        out,
        "  Each side rolls the {}, then in this order:",
        rules.melee_die
    );
    for modifier in &rules.melee_steps {
        let _ = writeln!(out, "{}", step(modifier));
    }
    out.push_str(
        "  Each side's score is the hits it deals (below 0: none); both take their hits.\n",
    );
    let _ = writeln!(
        out,
        "  Who retreats: the unit with more total hits; on equal totals {}.",
        match rules.ties {
            Ties::ChargerRetreats => "the charger is repulsed and retreats (ruling)",
            Ties::NobodyRetreats => "nobody retreats",
        }
    );
    let _ = writeln!(
        out,
        "  A retreat is directly away from the adversary's centre, a full move ({}), terrain costs, no road bonus;",
        allowances(ruleset)
    );
    out.push_str("  then the unit faces directly away (keeping its facing if turning would overlap a unit).\n");
    out.push_str("  It stops short at ground it cannot enter or another unit; off the table it is driven off.\n");
    out.push_str("  The winner stays where it is.\n");
    out.push_str("  Rulings (docs/rulings.md): Melee, Retreats.\n");
    out
}

/// Each category's move allowance, as `infantry 6", cavalry 12"`.
fn allowances(ruleset: &Ruleset) -> String {
    Category::ALL
        .iter()
        .filter(|category| **category != Category::General)
        .map(|category| {
            format!(
                "{} {}\"",
                category,
                trim(ruleset.move_inches[category.index()])
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn moving(rules: &RulesTable, ruleset: &Ruleset) -> String {
    let mut out = String::from(
        "Moving, in your movement phase: `move UNIT forward N|max`, `back N|max`, `towards UNIT|X,Y [N|max]`, `to X,Y [facing F]`, `road to X,Y`; `pivot UNIT F`.\n",
    );
    let _ = writeln!(out, "  Allowances: {}.", allowances(ruleset));
    let _ = writeln!(
        out,
        "  General: {}\". Roads: +{}\" when the whole move stays on the road. Uphill: {} speed.",
        trim(ruleset.move_inches[Category::General.index()]),
        trim(ruleset.road_bonus),
        speed(ruleset.uphill_speed)
    );
    let mut slow: Vec<String> = Vec::new();
    for kind in &ruleset.terrain {
        let mut said: Vec<String> = Vec::new();
        for category in Category::ALL {
            match kind.movement[category.index()] {
                Movement::Speed(speed) if (speed - 1.0).abs() > 1e-9 => {
                    said.push(format!("{category} {}", self::speed(speed)));
                }
                Movement::Impassable => said.push(format!("{category} cannot enter")),
                Movement::Speed(_) => {}
            }
        }
        if !said.is_empty() {
            slow.push(format!("{}: {}", kind.name, said.join(", ")));
        }
    }
    if !slow.is_empty() {
        let _ = writeln!(out, "  Terrain: {}.", slow.join("; "));
    }
    let _ = writeln!(
        out,
        "  Within {}\" of an enemy a unit may only advance directly towards or retire directly away from one (within {}° of the line).",
        trim(rules.enemy_presence),
        trim(rules.directly_within)
    );
    let _ = writeln!(
        out,
        "  A move that is not a charge must end at least {}\" from every enemy; no moving through units or off the table.",
        trim(rules.keep_clear)
    );
    out.push_str("  A pivot comes before the move, once; `max` goes as far as all this allows.\n");
    out.push_str("  Rulings (docs/rulings.md): Moving, Enemy presence, Contact is a charge.\n");
    out
}

fn speed(speed: f64) -> String {
    if (speed - 0.5).abs() < 1e-9 {
        "half".to_string()
    } else {
        format!("{}x", trim(speed))
    }
}

fn rally(rules: &RulesTable, ruleset: &Ruleset) -> String {
    let mut out = String::from(
        "Rallying, in your rallying phase: `rally [GENERAL] UNIT [UNIT...]`, most urgent first.\n",
    );
    let _ = writeln!(
        out,
        "  One attempt per general a turn, from his budget; units within {}\" of him (base to base).",
        trim(rules.rally_range)
    );
    let _ = writeln!(
        out,
        "  Roll the {}: that many hits come off the units in your order, each up to its maximum; unused points are lost.",
        rules.rally_die
    );
    let maxima: Vec<String> = ruleset
        .troop_types
        .iter()
        .zip(&rules.rally_max)
        .filter(|(troop, _)| troop.category != Category::General)
        .map(|(troop, max)| {
            if *max == 0 {
                format!("{} cannot be rallied", troop.name)
            } else {
                format!("{} {max}", troop.name)
            }
        })
        .collect();
    let _ = writeln!(out, "  Most hits one rally removes: {}.", maxima.join(", "));
    out.push_str("  `status` shows each general's rallies left.\n");
    out.push_str("  Rulings (docs/rulings.md): Rallying, Rally budget.\n");
    out
}

fn rout(rules: &RulesTable) -> String {
    let mut out = String::from("Rout, by itself in each rout phase (either side's).\n");
    let thresholds: Vec<String> = Category::ALL
        .iter()
        .filter_map(|category| {
            rules
                .rout_threshold(*category)
                .map(|n| format!("{category} at {n} hits"))
        })
        .collect();
    let _ = writeln!(
        out,
        "  Units rout and leave the table: {}.",
        thresholds.join(", ")
    );
    let _ = writeln!(
        out,
        "  Army resolve: a side that has lost more than {}% of its units (routed or driven off) takes {} hits on every remaining unit, once a game.",
        trim(rules.resolve_lost_more_than * 100.0),
        rules.resolve_hits
    );
    out.push_str("  Rulings (docs/rulings.md): Rout and army resolve.\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Seeded;
    use crate::rules::fixture::builtin_state;

    fn guilford() -> crate::rules::GameState {
        builtin_state("guilford", &mut Seeded::new(3))
    }

    #[test]
    fn the_shooting_rules_are_read_from_the_rule_set() {
        let state = guilford();
        assert_eq!(
            rules("fire", &state.rules, &state.battlefield.ruleset),
            "\
Shooting, in your shooting phase: a unit that moved or pivoted this turn may not shoot, and each unit shoots once.
  The target must be in the frontal arc, in sight, and have no other unit of yours within 3\".
  Muskets (infantry, skirmisher, cavalry): range 6\" base edge to base edge; roll the average die, then in this order:
     -1  skirmishers shooting (skirmisher)
     +1  British regulars or Continentals (british-regulars, continentals)
     +2  British grenadiers (grenadiers)
     -1  target in cover (cover lies between the target and the shooter)
     -1  volley before withdrawing (a hasty volley: `fire UNIT at TARGET hasty`)
     x2  double volley (a double volley: `fire UNIT at TARGET double`)
  A double volley, either side's: by infantry, at a target within 6\".
  A hasty volley, either side's: by infantry, skirmisher, cavalry, at a target within 6\".
  Artillery (artillery): roll the average die, less one for every range band of 6\" to the target (at least 1), longest shot 24\"; then:
     -1  target in woods or buildings (the target is in woods or buildings)
  The score is the hits (below 0: none).
  Rulings (docs/rulings.md): Measuring, Shooting.
"
        );
    }

    #[test]
    fn house_ruled_numbers_are_printed_as_played() {
        let state = guilford();
        let ruleset = &state.battlefield.ruleset;
        let mut house = (*state.rules).clone();
        house.musket.range = 8.0;
        house.friendly_clearance = 2.0;
        house.ties = Ties::NobodyRetreats;
        house.rally_range = 9.0;
        house.resolve_hits = 3;
        house.enemy_presence = 5.0;
        let fire = rules("fire", &house, ruleset);
        assert!(fire.contains("range 8\" base edge"), "{fire}");
        assert!(fire.contains("within 2\"."), "{fire}");
        let melee = rules("melee", &house, ruleset);
        assert!(
            melee.contains("on equal totals nobody retreats."),
            "{melee}"
        );
        let rally = rules("rally", &house, ruleset);
        assert!(rally.contains("units within 9\" of him"), "{rally}");
        let rout = rules("rout", &house, ruleset);
        assert!(
            rout.contains("takes 3 hits on every remaining unit"),
            "{rout}"
        );
        let moving = rules("move", &house, ruleset);
        assert!(moving.contains("Within 5\" of an enemy"), "{moving}");
    }

    #[test]
    fn a_topic_is_named_by_its_word_or_another() {
        assert_eq!(topic("shooting"), Some("fire"));
        assert_eq!(topic("Rout"), Some("rout"));
        assert_eq!(topic("route"), None);
        let state = guilford();
        assert_eq!(
            rules("rout", &state.rules, &state.battlefield.ruleset),
            "\
Rout, by itself in each rout phase (either side's).
  Units rout and leave the table: infantry at 13 hits, skirmisher at 13 hits, cavalry at 9 hits, artillery at 9 hits.
  Army resolve: a side that has lost more than 50% of its units (routed or driven off) takes 2 hits on every remaining unit, once a game.
  Rulings (docs/rulings.md): Rout and army resolve.
"
        );
        let moving = rules("move", &state.rules, &state.battlefield.ruleset);
        assert!(
            moving
                .contains("Allowances: infantry 6\", skirmisher 6\", cavalry 12\", artillery 6\"."),
            "{moving}"
        );
    }
}
