//! Which of the plan rules of `tables/opponent.yaml` the opponent of seeds
//! 001 and 002 follows, and the `--rule` switches a game's rule set takes
//! (rulings HO5 and HO8–HO12).
//!
//! Every departure from seed 004 is a named rule with a switch, one
//! vocabulary for every rule set: `--rule press-home=off` turns off the
//! same rule at Guilford and at Henry House Hill. The file gives each
//! rule's setting and numbers; which rules a rule set's opponent follows is
//! its adapter's ([`crate::host::Engine::plan_rules`]). A switch that the
//! game's rule set does not follow would change nothing, so it is refused.

use crate::host::Engine;
use crate::tables::{PlanRules, Tables};

/// The plan rules the opponent of seeds 001 and 002 follows, by the names
/// `tables/opponent.yaml` gives them, in that file's order.
pub const RULE_NAMES: [&str; 6] = [
    "advance-on-objective",
    "close-to-range",
    "general-leads",
    "press-home",
    "hold-the-line",
    "find-a-shot",
];

/// Which rules are on for a game: on in the tables (the file, less those
/// switched off by `--rule`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RulesOn {
    /// HO5.
    pub close_to_range: bool,
    /// HO8.
    pub advance_on_objective: bool,
    /// HO9.
    pub hold_the_line: bool,
    /// HO10.
    pub press_home: bool,
    /// HO11.
    pub general_leads: bool,
    /// HO12.
    pub find_a_shot: bool,
}

impl RulesOn {
    /// Every rule off: pure Lone Warrior.
    pub fn none() -> RulesOn {
        RulesOn::default()
    }

    /// The rules on in `rules` (a game's tables, `--rule` applied).
    pub fn of(rules: &PlanRules) -> RulesOn {
        let mut on = RulesOn::none();
        for name in RULE_NAMES {
            on.set(name, rules.is_on(name) == Some(true));
        }
        on
    }

    /// Switch the rule named `name` (one of [`RULE_NAMES`]); `false` for
    /// a name this opponent does not follow.
    pub fn set(&mut self, name: &str, on: bool) -> bool {
        let switch = match name {
            "close-to-range" => &mut self.close_to_range,
            "advance-on-objective" => &mut self.advance_on_objective,
            "hold-the-line" => &mut self.hold_the_line,
            "press-home" => &mut self.press_home,
            "general-leads" => &mut self.general_leads,
            "find-a-shot" => &mut self.find_a_shot,
            _ => return false,
        };
        *switch = on;
        true
    }
}

/// Whether every plan rule switched in `tables` (`--rule`) is one the
/// opponent of `engine` follows ([`Engine::plan_rules`]): a switch it does
/// not follow would change nothing, so it is an error naming the rules it
/// does follow. Every rule off (`all=off`, pure Lone Warrior) is always
/// taken.
pub fn check_switches(tables: &Tables, engine: Engine, ruleset: &str) -> Result<(), String> {
    let rules = &tables.opponent.rules;
    // Switched from the shipped tables: a rule the shipped tables leave off
    // was not switched off by the player, and one switched on was.
    let (switched_off, switched_on) = PlanRules::changed_from_shipped(&rules.off());
    // Every rule that ships on is off: `all=off`, pure Lone Warrior.
    let shipped_on = PlanRules::shipped()
        .list()
        .iter()
        .filter(|(_, on, _)| *on)
        .count();
    let every_rule_off = switched_off.len() == shipped_on;
    let followed = engine.plan_rules();
    let not_followed = |setting: &str, alone: &str| {
        format!(
            "--rule {alone}={setting}: the opponent of rule set `{ruleset}` ({}) does not follow `{alone}`; it follows {} (or all)",
            engine.seed(),
            followed.join(", ")
        )
    };
    if let Some(alone) = switched_on
        .iter()
        .find(|name| !followed.contains(&name.as_str()))
    {
        return Err(not_followed("on", alone));
    }
    if every_rule_off {
        // `all=off`, pure Lone Warrior, is always taken.
        return Ok(());
    }
    match switched_off
        .iter()
        .find(|name| !followed.contains(&name.as_str()))
    {
        None => Ok(()),
        Some(alone) => Err(not_followed("off", alone)),
    }
}
