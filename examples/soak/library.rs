//! Random play straight on the library: a random choice among
//! `legal_actions` through `apply`, with `rules::invariants::check` after
//! every action, and between them adversarial actions (points far off the
//! table, NaN and infinite coordinates, wild facings, other sides' units,
//! long road paths) that must be refused without changing the state, or
//! accepted and keep the invariants.
//!
//! Pure apart from the panic it may meet: a game is its scenario and seed.

use foe::battlefield::Point;
use foe::dice::Seeded;
use foe::rules::{Action, GameSetup, GameState, GeneralId, RulesTable, UnitId};
use foe::ruleset::Ruleset;
use foe::scenario::Scenario;
use foe::tables::Tables;
use foe::yaml::Source;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use std::sync::Arc;

/// A built-in scenario ready for games.
pub struct Ready {
    /// Its short name.
    pub name: &'static str,
    /// The validated scenario.
    pub scenario: Arc<Scenario>,
    /// Its rules.
    pub rules: Arc<RulesTable>,
    /// What a game starts from.
    pub setup: GameSetup,
}

/// Every built-in scenario the seed-000 engine plays (the registry in
/// `foe::host` says which), loaded once.
pub fn builtins() -> Vec<Ready> {
    foe::scenario::BUILTIN
        .iter()
        .filter_map(|(name, file, text)| {
            let scenario = foe::scenario::load(Source::new(file, text), Ruleset::builtin)
                .unwrap_or_else(|problems| panic!("built-in {name}: {problems:?}"));
            let ruleset = &scenario.battlefield.ruleset;
            if foe::host::engine_for(&ruleset.name) != Some(foe::host::Engine::Awi) {
                return None;
            }
            let rules = RulesTable::builtin(&ruleset.name, ruleset)
                .expect("a rules engine for the built-in rule set")
                .expect("the built-in rules load");
            let setup =
                GameSetup::from_scenario(&scenario).expect("a built-in scenario makes a game");
            Some(Ready {
                name,
                scenario: Arc::new(scenario),
                rules: Arc::new(rules),
                setup,
            })
        })
        .collect()
}

/// What one random game did.
#[derive(Debug, Default, Clone)]
pub struct Played {
    /// Legal actions applied.
    pub actions: u64,
    /// Adversarial actions tried.
    pub adversarial: u64,
    /// Of those, how many the engine accepted.
    pub accepted: u64,
    /// The first broken invariant (or refusal that changed the state), with
    /// the action after which it was found.
    pub violation: Option<String>,
}

/// The parts of a state an action may change, to see that a refusal
/// changed nothing.
fn fingerprint(state: &GameState) -> String {
    format!(
        "{:?}|{:?}|{:?}|{} {} {} {:?} {:?}",
        state.units,
        state.generals,
        state.sides,
        state.turn,
        state.active,
        state.phase_index,
        state.outcome,
        state.charges
    )
}

/// A coordinate: on or near the table, or hostile.
fn coordinate(rng: &mut ChaCha8Rng, size: f64) -> f64 {
    match rng.random_range(0..12) {
        0 => f64::NAN,
        1 => f64::INFINITY,
        2 => f64::NEG_INFINITY,
        3 => 1e308,
        4 => -1e308,
        5 => f64::MIN_POSITIVE,
        6 => -0.0,
        7 => size,
        _ => rng.random_range(-10.0..size + 10.0),
    }
}

fn facing(rng: &mut ChaCha8Rng) -> f64 {
    match rng.random_range(0..6) {
        0 => f64::NAN,
        1 => 1e300,
        2 => -720.5,
        _ => rng.random_range(0.0..360.0),
    }
}

/// An action a player (or a damaged save) might send: any unit or
/// general of the game, any point.
pub fn adversarial(state: &GameState, rng: &mut ChaCha8Rng) -> Action {
    let units = state.units.len().max(1);
    let generals = state.generals.len().max(1);
    let size = state.battlefield.width().max(state.battlefield.height());
    let unit = UnitId(rng.random_range(0..units));
    let other = UnitId(rng.random_range(0..units));
    let point = |rng: &mut ChaCha8Rng| Point::new(coordinate(rng, size), coordinate(rng, size));
    match rng.random_range(0..9) {
        0 => Action::Pivot {
            unit,
            facing: facing(rng),
        },
        1 | 2 => Action::Move {
            unit,
            to: point(rng),
            facing: facing(rng),
        },
        3 => Action::MoveRoad {
            unit,
            path: (0..rng.random_range(0..40)).map(|_| point(rng)).collect(),
            facing: facing(rng),
        },
        4 => Action::Charge {
            unit,
            target: other,
        },
        5 => Action::Fire {
            unit,
            target: other,
            volley: foe::rules::Volley::Single,
        },
        6 => Action::MoveGeneral {
            general: GeneralId(rng.random_range(0..generals)),
            to: point(rng),
        },
        7 => Action::Rally {
            general: GeneralId(rng.random_range(0..generals)),
            units: (0..rng.random_range(0..6))
                .map(|_| UnitId(rng.random_range(0..units)))
                .collect(),
        },
        _ => Action::Enter {
            unit,
            to: point(rng),
            facing: facing(rng),
        },
    }
}

/// Play one random game of `ready` from `seed` to its end (or `max_steps`
/// actions), checking the invariants after every action.
pub fn random_game(ready: &Ready, tables: &Tables, seed: u64, max_steps: u64) -> Played {
    let mut played = Played::default();
    let mut dice = Seeded::new(seed);
    let mut chooser = ChaCha8Rng::seed_from_u64(seed ^ 0x50a4);
    let Ok((mut state, _)) = GameState::new(
        ready.setup.clone(),
        ready.rules.clone(),
        &tables.characters,
        &mut dice,
    ) else {
        played.violation = Some(format!("{}: the game does not start", ready.name));
        return played;
    };
    let at = |step: u64, action: &Action| {
        format!("{} seed {seed} step {step} after {action:?}", ready.name)
    };
    let mut step = 0;
    while !state.is_over() && step < max_steps {
        step += 1;
        if chooser.random_range(0..4) == 0 {
            let action = adversarial(&state, &mut chooser);
            let before = fingerprint(&state);
            played.adversarial += 1;
            match state.apply(&action, &mut dice) {
                Ok(_) => played.accepted += 1,
                Err(refusal) => {
                    if fingerprint(&state) != before {
                        played.violation = Some(format!(
                            "{}: the refusal `{refusal}` changed the state",
                            at(step, &action)
                        ));
                        return played;
                    }
                }
            }
            if let Err(violation) = foe::rules::invariants::check(&state) {
                played.violation = Some(format!(
                    "{} (adversarial, accepted): {violation}",
                    at(step, &action)
                ));
                return played;
            }
            continue;
        }
        let legal = state.legal_actions();
        // End the phase a third of the time so games reach their end.
        let action = if legal.is_empty() || chooser.random_range(0..3) == 0 {
            Action::EndPhase
        } else {
            legal[chooser.random_range(0..legal.len())].clone()
        };
        if let Err(refusal) = state.apply(&action, &mut dice) {
            played.violation = Some(format!(
                "{}: a legal action was refused: {refusal}",
                at(step, &action)
            ));
            return played;
        }
        played.actions += 1;
        if let Err(violation) = foe::rules::invariants::check(&state) {
            played.violation = Some(format!("{} (legal): {violation}", at(step, &action)));
            return played;
        }
    }
    played
}
