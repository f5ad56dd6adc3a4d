//! A seed-001 or seed-002 game as a [`Scene`], so the renderer's SVG code
//! ([`crate::render::svg::svg`]) draws it as it draws seed 000's: the
//! table, each unit as its footprint (seed 001: its bases in line, column
//! or open order) under its map label (`B3`, as `status` and the text map
//! name it), seed 001's commanders as generals, a bar of what each unit has lost
//! (seed 001: bases; seed 002: hits), and the last phase's moves, shots
//! and retreats as arrows. Pure: it reads the game, never the runner.

use super::scene::{
    ArrowKind, Damage, Scene, SceneArrow, SceneGeneral, SceneSide, SceneUnit, general_label,
    placement,
};
use crate::battlefield::{Base, Point};
use crate::host::position::{EventFacts, Losses, Trace};
use crate::host::{Event, Game, UnitView};
use crate::scenario::Scenario;

/// The scene of `game` now, titled `title`, with `recent` (the events of
/// the game so far, oldest first) giving the last phase's arrows.
pub fn scene<'a>(game: &'a Game, scenario: &Scenario, title: &str, recent: &[Event]) -> Scene<'a> {
    let field = game.battlefield();
    let units = game.units();
    let labels = game.labels(scenario);
    let sides = game
        .sides()
        .into_iter()
        .enumerate()
        .map(|(side, name)| SceneSide {
            edge: scenario
                .sides
                .get(side)
                .map_or(crate::battlefield::Edge::South, |s| s.edge),
            units: units
                .iter()
                .zip(&labels)
                .filter(|(unit, _)| unit.side == side)
                .map(|(unit, label)| scene_unit(game, unit, label))
                .collect(),
            generals: generals(game, side, &name),
            reserves: Vec::new(),
            name,
        })
        .collect();
    let caption = match game.verdict() {
        Some(verdict) => format!(
            "after turn {} of {}: the game is over ({verdict})",
            game.turn().min(game.turns()),
            game.turns()
        ),
        None => format!("turn {} of {}: {}", game.turn(), game.turns(), game.phase()),
    };
    Scene {
        title: title.to_string(),
        battlefield: field,
        caption: Some(caption),
        sides,
        arrows: arrows(game, recent),
        damage: match game.losses() {
            Losses::Bases => Damage::BasesLost,
            Losses::Hits => Damage::Hits,
        },
        areas: super::scene::areas(scenario),
    }
}

fn scene_unit(game: &Game, unit: &UnitView, label: &str) -> SceneUnit {
    let rules = &game.battlefield().ruleset;
    let standing = game.standing(unit.index);
    let troop = rules.troop(standing.troop);
    let note = if unit.removed {
        "out of play".to_string()
    } else {
        let damage = match game.losses() {
            Losses::Bases => Damage::BasesLost,
            Losses::Hits => Damage::Hits,
        };
        format!(
            "{}, {}",
            placement(&standing.footprint),
            damage.count(standing.lost)
        )
    };
    let mut state: Vec<String> = unit.formation.iter().cloned().collect();
    state.extend(standing.notes);
    if unit.in_cover {
        state.push("in cover".to_string());
    }
    SceneUnit {
        label: label.to_string(),
        name: unit.name.clone(),
        troop: troop.name.clone(),
        category: troop.category,
        hits: standing.lost,
        rout_at: (standing.out_at > 0).then_some(standing.out_at),
        base: (!unit.removed).then_some(standing.footprint),
        note,
        state: (!state.is_empty()).then(|| state.join(", ")),
    }
}

/// A side's commanders on the table, where they stand (seed 001's).
fn generals(game: &Game, side: usize, side_name: &str) -> Vec<SceneGeneral> {
    game.figures(side)
        .into_iter()
        .enumerate()
        .map(|(index, figure)| SceneGeneral {
            label: general_label(side_name, index),
            name: figure.name,
            base: figure.at.map(|at| Base::new(at, 0.0, 1.0, 1.0)),
        })
        .collect()
}

/// The last phase's moves, shots and retreats: the events since the
/// phase before this one began (seed 001), or since this turn began (seed
/// 002, whose turn is one phase of activations).
fn arrows(game: &Game, recent: &[Event]) -> Vec<SceneArrow> {
    let units = game.units();
    let facts: Vec<EventFacts> = recent.iter().map(|event| game.event_facts(event)).collect();
    let began: Vec<usize> = facts
        .iter()
        .enumerate()
        .filter(|(_, facts)| facts.phase_began)
        .map(|(index, _)| index)
        .collect();
    let back = game.arrow_phases().max(1);
    let from = began
        .len()
        .checked_sub(back)
        .map_or_else(|| began.first().copied().unwrap_or(0), |at| began[at]);
    let side = |unit: usize| units.get(unit).map_or(0, |u| u.side);
    let centre = |unit: usize| units.get(unit).map_or(Point::new(0.0, 0.0), |u| u.position);
    let arrow = |kind, unit: usize, from: Point, to: Point| SceneArrow {
        kind,
        side: side(unit),
        from,
        to,
    };
    facts[from..]
        .iter()
        .filter_map(|facts| match facts.trace? {
            Trace::Moved { unit, from, to } => Some(arrow(ArrowKind::Move, unit, from, to)),
            Trace::Retreated { unit, from, to } => Some(arrow(ArrowKind::Retreat, unit, from, to)),
            Trace::Fired { unit, target } => {
                Some(arrow(ArrowKind::Fire, unit, centre(unit), centre(target)))
            }
            Trace::Charged { unit, target } => {
                Some(arrow(ArrowKind::Charge, unit, centre(unit), centre(target)))
            }
        })
        .filter(|arrow| arrow.from.distance(arrow.to) > 1e-6)
        .collect()
}

/// The file a game's picture of this moment is written to in a folder of
/// pictures, one a phase: `turn-02-british-move.svg` (seed 002:
/// `turn-02-activation.svg`), `turn-12-end.svg` once the game is over;
/// they sort in the order of play.
pub fn turn_file_name(game: &Game) -> String {
    if game.is_over() {
        return format!("turn-{:02}-end.svg", game.turn().min(game.turns()));
    }
    let mut phase = String::new();
    for c in game.phase().chars() {
        if c.is_alphanumeric() {
            phase.push(c.to_ascii_lowercase());
        } else if !phase.ends_with('-') && !phase.is_empty() {
            phase.push('-');
        }
    }
    format!(
        "turn-{:02}-{}.svg",
        game.turn(),
        phase.trim_end_matches('-')
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Seeded;
    use crate::ruleset::Ruleset;
    use crate::tables::Tables;
    use crate::yaml::Source;

    fn start(name: &str) -> (Scenario, Game, Vec<Event>) {
        let (file, text) = crate::scenario::builtin(name).expect("built in");
        let scenario =
            crate::scenario::load(Source::new(file, text), Ruleset::builtin).expect("valid");
        let (game, events) =
            Game::start(&scenario, &Tables::embedded(), &mut Seeded::new(1)).expect("starts");
        (scenario, game, events)
    }

    /// A seed-001 picture has every unit (letter and name), the commanders,
    /// the bases bar, and the move just made as an arrow; seed 002's too.
    #[test]
    fn a_host_game_draws_as_svg_with_its_units_and_last_moves() {
        let (scenario, mut game, mut events) = start("guilford-ruinous");
        let action = crate::host::Action::Rv(crate::rv::Action::Move {
            unit: 0,
            to: Point::new(8.0, 9.0),
        });
        events.extend(
            game.apply(&action, &mut Seeded::new(2))
                .expect("a legal move"),
        );
        let drawn = super::scene(&game, &scenario, "Guilford", &events);
        let scene = &drawn;
        assert_eq!(scene.caption.as_deref(), Some("turn 1 of 12: british move"));
        assert_eq!(scene.sides[0].units[0].label, "B1");
        assert_eq!(scene.sides[1].units[0].label, "A1");
        assert_eq!(scene.sides[0].units[0].rout_at, Some(6));
        assert_eq!(
            scene.sides[0].units[0].state.as_deref(),
            Some("line, 6 of 6 bases")
        );
        assert_eq!(scene.sides[0].generals[0].name, "Cornwallis");
        assert_eq!(scene.arrows.len(), 1);
        assert_eq!(scene.arrows[0].kind, ArrowKind::Move);
        assert_eq!(scene.arrows[0].to, Point::new(8.0, 9.0));
        let picture = crate::render::svg::svg(scene, None);
        assert!(picture.starts_with("<svg"), "{picture}");
        assert!(picture.contains("71st Foot"));
        assert!(picture.contains("Washington's Dragoons"));
        // Seed 001 counts bases lost, in the tooltips and the legend.
        assert!(
            picture.contains("71st Foot (british-line), 0 bases lost, line"),
            "{picture}"
        );
        assert!(picture.contains("bases lost: one cell each"));
        assert!(!picture.contains(" hits"), "{picture}");
        roxmltree::Document::parse(&picture).expect("well-formed XML");
        assert!(picture.contains("General Cornwallis"));
        assert!(picture.contains("class=\"arrow move\""));
        assert_eq!(turn_file_name(&game), "turn-01-british-move.svg");

        let (scenario, game, events) = start("henry-hill");
        let drawn = super::scene(&game, &scenario, "Henry Hill", &events);
        let picture = crate::render::svg::svg(&drawn, None);
        assert!(picture.contains("Jackson's Brigade"));
        assert!(picture.contains("hits: one cell each, full routs"));
        assert!(picture.contains(" 0 hits"));
        roxmltree::Document::parse(&picture).expect("well-formed XML");
        assert!(drawn.sides.iter().all(|side| side.generals.is_empty()));
        assert!(turn_file_name(&game).starts_with("turn-01-"));
    }
}
