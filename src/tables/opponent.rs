//! `tables/opponent.yaml`: the numbers of the opponent's house mapping onto
//! each rule set's rules (seed 000's hits as figures, ruling O3; seed 001's
//! bases as figures, HO3; turning to face, HO4) and the optional plan rules
//! of every rule set (rulings PL1…, HO5, HO8–HO12), each a house rule that
//! can be switched off, by one name under every rule set.

use crate::yaml::{Problem, Source};
use serde::Deserialize;

/// The kind of plan a rule serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlanKind {
    /// An army that must take something or break someone.
    Attack,
    /// An army holding positions.
    Defend,
    /// Any army with a plan (attack or defend; not a free one).
    Any,
}

/// `tables/opponent.yaml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpponentRules {
    /// Ruling O3: the share (percent) of its figures a unit has lost when
    /// its hits reach its rout threshold.
    pub figures_lost_at_rout_threshold: u32,
    /// Ruling HO3: the figures a seed-001 base counts for in the reaction
    /// test (2, as shipped, when a tables folder written before the field
    /// leaves it out).
    #[serde(default = "two_figures")]
    pub rv_figures_per_base: u32,
    /// Ruling HO4: a seed-001 or seed-002 unit whose nearest enemy is more
    /// than this many degrees off its front turns to face it (45, as
    /// shipped, when a tables folder written before the field leaves it
    /// out).
    #[serde(default = "half_a_right_angle")]
    pub turn_to_face_degrees: f64,
    /// The optional plan rules.
    pub rules: PlanRules,
}

/// The shipped `rv_figures_per_base`, for tables folders written before it.
fn two_figures() -> u32 {
    2
}

/// The shipped `turn_to_face_degrees`, for tables folders written before
/// it.
fn half_a_right_angle() -> f64 {
    45.0
}

/// The optional rules that give an army a plan.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct PlanRules {
    /// PL2: advances go towards the objective, through whoever is in the way.
    pub advance_on_objective: AdvanceOnObjective,
    /// PL3: attackers standing out of reach move up to musket range.
    pub close_to_range: CloseToRange,
    /// PL4: a general with nothing to do rides with the attack.
    pub general_leads: GeneralLeads,
    /// PL5: a standing line does not advance of its own accord.
    pub hold_the_line: HoldTheLine,
    /// PL6: a fallen line withdraws to the next.
    pub fall_back: FallBack,
    /// PL7: a line whose front has fallen advances to meet the enemy.
    pub counter_attack: CounterAttack,
    /// PL8: fire goes to the enemy nearest to breaking.
    pub focus_fire: Switch,
    /// PL9: an attacker's cavalry waits for an enemy to waver.
    pub cavalry_reserve: CavalryReserve,
    /// PL11: an attacker told to advance, or standing with no shot,
    /// charges an enemy in reach that shows signs of disorder.
    pub press_home: PressHome,
    /// PL13: a charger that no charge reaches halts beyond musket range.
    #[serde(default = "stand_off_shipped")]
    pub stand_off: StandOff,
    /// PL12: fire goes to the objective's units in reach first.
    pub fire_on_objective: Switch,
    /// HO12 (seed 002): a unit that cannot fire for want of sight or arc
    /// shifts or turns to where it can.
    #[serde(default = "find_a_shot_shipped")]
    pub find_a_shot: Switch,
}

/// The shipped `find-a-shot`, for tables folders written before it.
fn find_a_shot_shipped() -> Switch {
    Switch {
        on: true,
        plan: PlanKind::Any,
    }
}

/// PL9, `cavalry-reserve`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CavalryReserve {
    /// Switched on.
    pub on: bool,
    /// The plan it serves.
    pub plan: PlanKind,
    /// How far behind the centre of the front line it waits, inches.
    pub behind: f64,
}

/// A rule with no numbers of its own.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Switch {
    /// Switched on.
    pub on: bool,
    /// The plan it serves.
    pub plan: PlanKind,
}

/// PL2, `advance-on-objective`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdvanceOnObjective {
    /// Switched on.
    pub on: bool,
    /// The plan it serves.
    pub plan: PlanKind,
    /// An enemy in the frontal arc within this many inches is in the way.
    pub in_the_way: f64,
}

/// The shipped `disorder_hits`, for tables folders written before it.
fn one_hit() -> u32 {
    1
}

/// PL11, `press-home`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PressHome {
    /// Switched on.
    pub on: bool,
    /// The plan it serves.
    pub plan: PlanKind,
    /// An enemy with at least this many hits shows signs of disorder (1
    /// when a tables folder written before the field leaves it out).
    #[serde(default = "one_hit")]
    pub disorder_hits: u32,
    /// The least chance (percent) of winning the melee a unit presses home
    /// with (50, as shipped, when a tables folder written before the field
    /// leaves it out).
    #[serde(default = "even_odds")]
    pub least_odds: u32,
}

/// The shipped `least_odds`, for tables folders written before it.
fn even_odds() -> u32 {
    50
}

/// PL13, `stand-off`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StandOff {
    /// Switched on.
    pub on: bool,
    /// The plan it serves.
    pub plan: PlanKind,
    /// How far beyond musket range of its target the unit halts, inches.
    pub beyond_range: f64,
}

/// The shipped `stand-off`, for tables folders written before it.
fn stand_off_shipped() -> StandOff {
    StandOff {
        on: true,
        plan: PlanKind::Any,
        beyond_range: 0.5,
    }
}

/// PL3, `close-to-range`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CloseToRange {
    /// Switched on.
    pub on: bool,
    /// The plan it serves.
    pub plan: PlanKind,
    /// How far inside its weapon's range the unit stops, inches.
    pub inside_range: f64,
}

/// PL4, `general-leads`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneralLeads {
    /// Switched on.
    pub on: bool,
    /// The plan it serves.
    pub plan: PlanKind,
    /// How far behind the centre of the front line he rides, inches.
    pub behind: f64,
}

/// PL5, `hold-the-line`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HoldTheLine {
    /// Switched on.
    pub on: bool,
    /// The plan it serves.
    pub plan: PlanKind,
    /// A holding unit charges only an enemy this close, inches.
    pub charge_within: f64,
}

/// PL6, `fall-back`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FallBack {
    /// Switched on.
    pub on: bool,
    /// The plan it serves.
    pub plan: PlanKind,
    /// A line falls when this share (percent) of its units are lost or
    /// have fallen back.
    pub line_falls_at: u32,
}

/// PL7, `counter-attack`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CounterAttack {
    /// Switched on.
    pub on: bool,
    /// The plan it serves.
    pub plan: PlanKind,
    /// The last line goes forward once this share (percent) of the line in
    /// front of it is lost or has fallen back.
    pub front_crumbles_at: u32,
}

/// The names of the plan rules, in file order (for `--rule` and `help`).
pub const RULE_NAMES: [&str; 12] = [
    "advance-on-objective",
    "close-to-range",
    "general-leads",
    "cavalry-reserve",
    "press-home",
    "stand-off",
    "focus-fire",
    "fire-on-objective",
    "hold-the-line",
    "fall-back",
    "counter-attack",
    "find-a-shot",
];

impl PlanRules {
    /// The switch of the rule named `name` (one of [`RULE_NAMES`]).
    fn switch(&mut self, name: &str) -> Option<(&mut bool, PlanKind)> {
        Some(match name {
            "advance-on-objective" => (
                &mut self.advance_on_objective.on,
                self.advance_on_objective.plan,
            ),
            "close-to-range" => (&mut self.close_to_range.on, self.close_to_range.plan),
            "general-leads" => (&mut self.general_leads.on, self.general_leads.plan),
            "hold-the-line" => (&mut self.hold_the_line.on, self.hold_the_line.plan),
            "fall-back" => (&mut self.fall_back.on, self.fall_back.plan),
            "counter-attack" => (&mut self.counter_attack.on, self.counter_attack.plan),
            "focus-fire" => (&mut self.focus_fire.on, self.focus_fire.plan),
            "cavalry-reserve" => (&mut self.cavalry_reserve.on, self.cavalry_reserve.plan),
            "press-home" => (&mut self.press_home.on, self.press_home.plan),
            "stand-off" => (&mut self.stand_off.on, self.stand_off.plan),
            "fire-on-objective" => (&mut self.fire_on_objective.on, self.fire_on_objective.plan),
            "find-a-shot" => (&mut self.find_a_shot.on, self.find_a_shot.plan),
            _ => return None,
        })
    }

    /// Whether the rule named `name` is on, and the plan it serves (`None`
    /// for an unknown name). Read without copying: the opponent asks it for
    /// every unit every bound.
    fn get(&self, name: &str) -> Option<(bool, PlanKind)> {
        Some(match name {
            "advance-on-objective" => {
                (self.advance_on_objective.on, self.advance_on_objective.plan)
            }
            "close-to-range" => (self.close_to_range.on, self.close_to_range.plan),
            "general-leads" => (self.general_leads.on, self.general_leads.plan),
            "hold-the-line" => (self.hold_the_line.on, self.hold_the_line.plan),
            "fall-back" => (self.fall_back.on, self.fall_back.plan),
            "counter-attack" => (self.counter_attack.on, self.counter_attack.plan),
            "focus-fire" => (self.focus_fire.on, self.focus_fire.plan),
            "cavalry-reserve" => (self.cavalry_reserve.on, self.cavalry_reserve.plan),
            "press-home" => (self.press_home.on, self.press_home.plan),
            "stand-off" => (self.stand_off.on, self.stand_off.plan),
            "fire-on-objective" => (self.fire_on_objective.on, self.fire_on_objective.plan),
            "find-a-shot" => (self.find_a_shot.on, self.find_a_shot.plan),
            _ => return None,
        })
    }

    /// The plan the rule named `name` serves (`None` for an unknown name).
    pub fn plan_of(&self, name: &str) -> Option<PlanKind> {
        self.get(name).map(|(_, plan)| plan)
    }

    /// Whether the rule named `name` is on (`None` for an unknown name).
    pub fn is_on(&self, name: &str) -> Option<bool> {
        self.get(name).map(|(on, _)| on)
    }

    /// Every rule with whether it is on and the plan it serves, in file order.
    pub fn list(&self) -> Vec<(&'static str, bool, PlanKind)> {
        RULE_NAMES
            .iter()
            .filter_map(|name| self.get(name).map(|(on, plan)| (*name, on, plan)))
            .collect()
    }

    /// The names of the rules switched off, in file order.
    pub fn off(&self) -> Vec<String> {
        self.list()
            .into_iter()
            .filter(|(_, on, _)| !on)
            .map(|(name, _, _)| name.to_string())
            .collect()
    }

    /// The plan rules as the built-in `tables/opponent.yaml` sets them,
    /// read once a run (every `--rule` check and report compares with
    /// them).
    pub fn shipped() -> &'static PlanRules {
        static SHIPPED: std::sync::OnceLock<PlanRules> = std::sync::OnceLock::new();
        SHIPPED.get_or_init(|| crate::tables::Tables::embedded().opponent.rules)
    }

    /// How the rules off in `off` (a game's or a study's) differ from the
    /// shipped `tables/opponent.yaml`: the rules shipped on that are off,
    /// and the rules shipped off (`cavalry-reserve`, ruling PL9) that are
    /// on. Both empty for a game played by the rules as shipped.
    pub fn changed_from_shipped(off: &[String]) -> (Vec<String>, Vec<String>) {
        let shipped = PlanRules::shipped();
        let mut switched_off = Vec::new();
        let mut switched_on = Vec::new();
        for (name, on, _) in shipped.list() {
            let off_now = off.iter().any(|rule| rule == name);
            if on && off_now {
                switched_off.push(name.to_string());
            } else if !on && !off_now {
                switched_on.push(name.to_string());
            }
        }
        (switched_off, switched_on)
    }

    /// Switch a rule on or off; `all` switches every one. An unknown name
    /// is an error naming the nearest rule.
    pub fn set(&mut self, name: &str, on: bool) -> Result<(), String> {
        if name == "all" {
            for rule in RULE_NAMES {
                if let Some((switch, _)) = self.switch(rule) {
                    *switch = on;
                }
            }
            return Ok(());
        }
        match self.switch(name) {
            Some((switch, _)) => {
                *switch = on;
                Ok(())
            }
            None => {
                let hint = crate::suggest::did_you_mean(name, RULE_NAMES.iter().copied());
                Err(format!(
                    "unknown opponent rule `{name}`{hint} (the rules: {}; or all)",
                    RULE_NAMES.join(", ")
                ))
            }
        }
    }

    /// Set the rules as a save recorded them: every rule on but those named
    /// in `off`. An unknown name is the error, the name itself.
    pub fn restore_off(&mut self, off: &[String]) -> Result<(), String> {
        for rule in RULE_NAMES {
            if let Some((switch, _)) = self.switch(rule) {
                *switch = true;
            }
        }
        for name in off {
            self.set(name, false).map_err(|_| name.clone())?;
        }
        Ok(())
    }

    /// Apply one `NAME=on|off` setting (as `--rule` takes it).
    pub fn apply_setting(&mut self, setting: &str) -> Result<(), String> {
        let Some((name, value)) = setting.split_once('=') else {
            return Err(format!(
                "`--rule {setting}` needs NAME=on or NAME=off (e.g. close-to-range=off)"
            ));
        };
        let on = match value.trim() {
            "on" | "true" | "yes" => true,
            "off" | "false" | "no" => false,
            other => {
                return Err(format!("`--rule {setting}`: `{other}` is not on or off"));
            }
        };
        self.set(name.trim(), on)
    }
}

impl OpponentRules {
    pub(super) fn validate(&self, source: Source<'_>) -> Vec<Problem> {
        let mut problems = Vec::new();
        if !(1..=100).contains(&self.figures_lost_at_rout_threshold) {
            problems.push(source.problem(
                "figures_lost_at_rout_threshold",
                "figures_lost_at_rout_threshold is a share in percent, from 1 to 100",
            ));
        }
        if !(1..=1000).contains(&self.rv_figures_per_base) {
            problems.push(source.problem(
                "rv_figures_per_base",
                "rv_figures_per_base is a number of figures, from 1 to 1000",
            ));
        }
        if !(0.0..=180.0).contains(&self.turn_to_face_degrees) {
            problems.push(source.problem(
                "turn_to_face_degrees",
                format!(
                    "{} is not an angle from 0 to 180 degrees",
                    self.turn_to_face_degrees
                ),
            ));
        }
        let rules = &self.rules;
        let inches = [
            (
                "rules.advance-on-objective.in_the_way",
                rules.advance_on_objective.in_the_way,
            ),
            (
                "rules.close-to-range.inside_range",
                rules.close_to_range.inside_range,
            ),
            ("rules.general-leads.behind", rules.general_leads.behind),
            (
                "rules.hold-the-line.charge_within",
                rules.hold_the_line.charge_within,
            ),
            ("rules.cavalry-reserve.behind", rules.cavalry_reserve.behind),
            ("rules.stand-off.beyond_range", rules.stand_off.beyond_range),
        ];
        for (path, value) in inches {
            if !(0.0..=1000.0).contains(&value) {
                problems.push(source.problem(
                    path,
                    format!("{value} is not a distance from 0 to 1000 inches"),
                ));
            }
        }
        if !(1..=100).contains(&rules.counter_attack.front_crumbles_at) {
            problems.push(source.problem(
                "rules.counter-attack.front_crumbles_at",
                "front_crumbles_at is a share in percent, from 1 to 100",
            ));
        }
        if rules.press_home.disorder_hits == 0 {
            problems.push(source.problem(
                "rules.press-home.disorder_hits",
                "disorder_hits is a number of hits, 1 or more (0 would charge fresh troops)",
            ));
        }
        if rules.press_home.least_odds > 100 {
            problems.push(source.problem(
                "rules.press-home.least_odds",
                "least_odds is a chance in percent, from 0 to 100",
            ));
        }
        if !(1..=100).contains(&rules.fall_back.line_falls_at) {
            problems.push(source.problem(
                "rules.fall-back.line_falls_at",
                "line_falls_at is a share in percent, from 1 to 100",
            ));
        }
        for (name, _, plan) in rules.list() {
            let expected = match name {
                "advance-on-objective"
                | "close-to-range"
                | "general-leads"
                | "cavalry-reserve"
                | "press-home"
                | "fire-on-objective" => PlanKind::Attack,
                // A rule may serve both (`any`) or either kind of plan.
                "focus-fire" | "stand-off" => plan,
                "find-a-shot" => PlanKind::Any,
                _ => PlanKind::Defend,
            };
            if plan != expected {
                problems.push(source.problem(
                    &format!("rules.{name}.plan"),
                    format!(
                        "`{name}` serves the {} plan",
                        match expected {
                            PlanKind::Attack => "attack",
                            PlanKind::Defend => "defend",
                            PlanKind::Any => "any",
                        }
                    ),
                ));
            }
        }
        problems
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::Tables;

    #[test]
    fn every_rule_is_on_by_default_and_each_switches_alone() {
        let tables = Tables::embedded();
        for name in RULE_NAMES {
            assert_eq!(tables.opponent.rules.is_on(name), Some(true), "{name}");
            let mut rules = tables.opponent.rules.clone();
            rules.apply_setting(&format!("{name}=off")).unwrap();
            for (other, on, _) in rules.list() {
                assert_eq!(on, other != name, "{name} off: {other}");
            }
        }
    }

    #[test]
    fn rules_are_told_as_switched_from_the_shipped_ones() {
        let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let shipped = Tables::embedded().opponent.rules.off();
        let none: Vec<String> = Vec::new();
        assert_eq!(shipped, none);
        // As shipped: nothing switched.
        assert_eq!(
            PlanRules::changed_from_shipped(&shipped),
            (none.clone(), none.clone())
        );
        // The reserve and press-home off (an old save's list): both
        // switched off, in file order.
        assert_eq!(
            PlanRules::changed_from_shipped(&names(&["press-home", "cavalry-reserve"])),
            (names(&["cavalry-reserve", "press-home"]), none)
        );
    }

    #[test]
    fn a_tables_folder_without_the_newer_numbers_reads_them_as_shipped() {
        let text = include_str!("../../tables/opponent.yaml");
        let old: String = text
            .lines()
            .filter(|line| !line.contains("least_odds:"))
            .collect::<Vec<_>>()
            .join("\n");
        let old = old.split("\n  stand-off:").next().unwrap().to_string()
            + &text[text
                .find("\n  # Attack: fire goes to the enemy in reach")
                .unwrap()..];
        let rules: OpponentRules = serde_yaml::from_str(&old).unwrap();
        let shipped = Tables::embedded().opponent.rules;
        assert_eq!(
            rules.rules.press_home.least_odds,
            shipped.press_home.least_odds
        );
        assert_eq!(rules.rules.stand_off.on, shipped.stand_off.on);
        assert_eq!(
            rules.rules.stand_off.beyond_range,
            shipped.stand_off.beyond_range
        );
    }

    #[test]
    fn odds_above_certainty_and_negative_distances_are_refused() {
        let mut rules = Tables::embedded().opponent;
        rules.rules.press_home.least_odds = 101;
        rules.rules.stand_off.beyond_range = -1.0;
        let source = Source::new("opponent.yaml", include_str!("../../tables/opponent.yaml"));
        let problems: Vec<String> = rules
            .validate(source)
            .iter()
            .map(|problem| problem.to_string())
            .collect();
        assert!(
            problems
                .iter()
                .any(|p| p.contains("least_odds is a chance in percent")),
            "{problems:?}"
        );
        assert!(
            problems
                .iter()
                .any(|p| p.contains("not a distance from 0 to 1000")),
            "{problems:?}"
        );
    }

    #[test]
    fn all_off_is_pure_lone_warrior_and_a_typo_names_the_nearest_rule() {
        let mut rules = Tables::embedded().opponent.rules;
        rules.apply_setting("all=off").unwrap();
        assert!(rules.list().iter().all(|(_, on, _)| !on));
        let error = rules.apply_setting("close-to-rang=off").unwrap_err();
        assert!(error.contains("did you mean `close-to-range`"), "{error}");
        let error = rules.apply_setting("close-to-range").unwrap_err();
        assert!(error.contains("NAME=on or NAME=off"), "{error}");
        let error = rules.apply_setting("close-to-range=maybe").unwrap_err();
        assert!(error.contains("not on or off"), "{error}");
    }
}
