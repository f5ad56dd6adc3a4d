//! The SVG map read back with a real XML parser: the title and turn, the
//! grid's ticks, the legend, one label per unit and general with no two
//! labels overlapping, terrain clipped to the table, the last bound's
//! arrows and the hits bars.

use crate::support::foe;
use foe::render::scene::Scene;
use foe::render::svg::{PixelBox, svg};
use foe::ruleset::Ruleset;
use foe::scenario::{self, Scenario};
use foe::yaml::Source;
use roxmltree::{Document, Node};

fn guilford() -> Scenario {
    let (file, text) = scenario::builtin("guilford").expect("built in");
    scenario::load(Source::new(file, text), Ruleset::builtin).expect("valid scenario")
}

fn with_class<'a, 'input>(document: &'a Document<'input>, class: &str) -> Vec<Node<'a, 'input>> {
    document
        .descendants()
        .filter(|node| {
            node.attribute("class")
                .is_some_and(|classes| classes.split(' ').any(|c| c == class))
        })
        .collect()
}

fn number(node: &Node<'_, '_>, name: &str) -> f64 {
    node.attribute(name)
        .and_then(|value| value.parse().ok())
        .unwrap_or_else(|| panic!("`{name}` on {node:?}"))
}

fn text_of(node: &Node<'_, '_>) -> String {
    node.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect()
}

fn label_boxes(document: &Document<'_>) -> Vec<PixelBox> {
    with_class(document, "label-box")
        .iter()
        .map(|rect| PixelBox {
            x: number(rect, "x"),
            y: number(rect, "y"),
            width: number(rect, "width"),
            height: number(rect, "height"),
        })
        .collect()
}

#[track_caller]
fn assert_no_two_overlap(boxes: &[PixelBox]) {
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[i + 1..] {
            assert!(!a.overlaps(b), "labels overlap: {a:?} and {b:?}");
        }
    }
}

fn sorted(mut words: Vec<String>) -> Vec<String> {
    words.sort();
    words
}

#[test]
fn the_guilford_picture_has_its_title_grid_legend_labels_and_clipped_terrain() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("guilford.svg");
    let run = foe(&["map", "guilford", "--svg", path.to_str().unwrap()]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(&path).unwrap();
    let document = Document::parse(&text).expect("well-formed XML");
    let root = document.root_element();
    assert_eq!(root.tag_name().name(), "svg");

    let title = root
        .children()
        .find(|n| n.has_tag_name("title"))
        .expect("a title");
    assert_eq!(text_of(&title), "Guilford Courthouse, 15 March 1781");
    let heading = document
        .descendants()
        .find(|n| n.attribute("id") == Some("title"))
        .unwrap();
    assert_eq!(text_of(&heading), "Guilford Courthouse, 15 March 1781");

    // A tick every inch along both 48" edges, a coordinate every 6".
    assert_eq!(with_class(&document, "tick").len(), 49 + 49);
    let coordinates: Vec<String> = with_class(&document, "tick-label")
        .iter()
        .map(text_of)
        .collect();
    let every_six: Vec<String> = (0..=8).map(|i| (i * 6).to_string()).collect();
    assert_eq!(coordinates, [every_six.clone(), every_six].concat());

    let legend: Vec<String> = with_class(&document, "legend-entry")
        .iter()
        .map(text_of)
        .collect();
    assert_eq!(
        legend,
        [
            "british (south edge)",
            "americans (north edge)",
            "foot (white edge: front)",
            "skirmishers (white edge: front)",
            "horse (white edge: front)",
            "guns (white edge: front)",
            "general",
            "open (open ground)",
            "woods (natural cover)",
            "town (hard cover)",
            "hill (open ground)",
            "road (open ground)",
            "fence (hard cover)",
        ]
    );

    // One label per unit and per general, and generals drawn as generals.
    let labels: Vec<String> = with_class(&document, "unit-label")
        .iter()
        .map(text_of)
        .collect();
    let mut expected: Vec<String> = (1..=7).map(|i| format!("B{i}")).collect();
    expected.extend((1..=12).map(|i| format!("A{i}")));
    expected.extend(["BG1".to_string(), "AG1".to_string()]);
    assert_eq!(sorted(labels), sorted(expected));
    assert_eq!(with_class(&document, "unit").len(), 19);
    assert_eq!(with_class(&document, "general").len(), 2);
    assert_no_two_overlap(&label_boxes(&document));

    // The courthouse hill spills over the north edge: terrain is clipped.
    let terrain = document
        .descendants()
        .find(|n| n.attribute("id") == Some("terrain"))
        .unwrap();
    assert_eq!(terrain.attribute("clip-path"), Some("url(#table-clip)"));
    let clip = document
        .descendants()
        .find(|n| n.has_tag_name("clipPath") && n.attribute("id") == Some("table-clip"))
        .expect("the table's clip path");
    let rect = clip.first_element_child().unwrap();
    assert_eq!(
        (number(&rect, "width"), number(&rect, "height")),
        (48.0 * 14.0, 48.0 * 14.0)
    );
    let hill = terrain
        .children()
        .find(|n| n.has_tag_name("circle"))
        .expect("the hill, drawn inside the clipped group");
    assert!(number(&hill, "cy") - number(&hill, "r") < number(&rect, "y"));
}

#[test]
fn a_general_standing_on_a_unit_gets_a_label_of_his_own() {
    // At turn 15 of a tester's game `BG1` was drawn over `B2`: put every
    // general on a unit and every unit in one heap, and still no label
    // covers another.
    let scenario = guilford();
    let heap = scenario.sides[0].units[1].base.unwrap();
    let mut scene = Scene::of_scenario(&scenario);
    for side in &mut scene.sides {
        for general in &mut side.generals {
            general.base = Some(heap);
        }
        for unit in side.units.iter_mut().take(4) {
            unit.base = Some(heap);
        }
    }
    let document_text = svg(&scene, None);
    let document = Document::parse(&document_text).unwrap();
    assert_eq!(with_class(&document, "unit-label").len(), 21);
    assert_no_two_overlap(&label_boxes(&document));
}

const TWO_TURNS: &str = "\
move 23rd forward 6
move guards towards a4
move 33rd forward 6
move 71st forward 6
move b6 forward 6
end
fire b1 a3
end turn
map --svg turn2.svg
quit
";

#[test]
fn a_game_picture_shows_the_turn_the_last_bound_and_the_hits() {
    let dir = tempfile::tempdir().unwrap();
    let run = foe_in(
        dir.path(),
        &["play", "--seed", "1781", "--no-autosave"],
        TWO_TURNS,
    );
    assert!(run.contains("wrote turn2.svg"), "{run}");
    let text = std::fs::read_to_string(dir.path().join("turn2.svg")).unwrap();
    let document = Document::parse(&text).unwrap();
    let title = document
        .root_element()
        .children()
        .find(|n| n.has_tag_name("title"))
        .unwrap();
    assert_eq!(
        text_of(&title),
        "Guilford Courthouse, 15 March 1781: turn 2 of 15: british movement phase"
    );
    let caption = document
        .descendants()
        .find(|n| n.attribute("id") == Some("caption"))
        .unwrap();
    assert_eq!(text_of(&caption), "turn 2 of 15: british movement phase");
    // The Americans' bound: Greene rode, and their guns fired.
    assert!(!with_class(&document, "move").is_empty());
    assert!(!with_class(&document, "shot").is_empty());
    let legend: Vec<String> = with_class(&document, "legend-entry")
        .iter()
        .map(text_of)
        .collect();
    assert!(legend.contains(&"move".to_string()), "{legend:?}");
    assert!(legend.contains(&"shot".to_string()), "{legend:?}");
    // Every unit's hits bar has a cell for each hit it can take before it
    // routs: 13 for foot and skirmishers, 9 for horse and guns.
    for label in with_class(&document, "label") {
        let name = text_of(&label);
        let cells = label
            .descendants()
            .filter(|n| matches!(n.attribute("class"), Some("hit" | "no-hit")))
            .count();
        let expected = match name.as_str() {
            "BG1" | "AG1" => 0,
            "B1" | "B7" | "A3" | "A7" | "A12" => 9,
            _ => 13,
        };
        assert_eq!(cells, expected, "{name}");
    }
    assert_no_two_overlap(&label_boxes(&document));
}

#[test]
fn map_svg_into_a_folder_writes_a_picture_every_phase() {
    let dir = tempfile::tempdir().unwrap();
    let run = foe_in(
        dir.path(),
        &["play", "--seed", "1781", "--no-autosave"],
        "map --svg pictures/\nend turn\nend turn\nquit\n",
    );
    // The player's phases and foe's, each as it comes.
    let wrote: Vec<&str> = run.lines().filter(|l| l.starts_with("wrote")).collect();
    assert_eq!(
        wrote,
        [
            "wrote pictures/turn-01-british-movement.svg",
            "wrote pictures/turn-01-british-shooting.svg",
            "wrote pictures/turn-01-british-rallying.svg",
            "wrote pictures/turn-02-americans-movement.svg",
            "wrote pictures/turn-02-americans-shooting.svg",
            "wrote pictures/turn-02-americans-rallying.svg",
            "wrote pictures/turn-02-british-movement.svg",
            "wrote pictures/turn-02-british-shooting.svg",
            "wrote pictures/turn-02-british-rallying.svg",
            "wrote pictures/turn-03-americans-movement.svg",
            "wrote pictures/turn-03-americans-shooting.svg",
            "wrote pictures/turn-03-americans-rallying.svg",
            "wrote pictures/turn-03-british-movement.svg",
        ]
    );
    let mut files: Vec<String> = std::fs::read_dir(dir.path().join("pictures"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            "turn-01-british-movement.svg",
            "turn-01-british-rallying.svg",
            "turn-01-british-shooting.svg",
            "turn-02-americans-movement.svg",
            "turn-02-americans-rallying.svg",
            "turn-02-americans-shooting.svg",
            "turn-02-british-movement.svg",
            "turn-02-british-rallying.svg",
            "turn-02-british-shooting.svg",
            "turn-03-americans-movement.svg",
            "turn-03-americans-rallying.svg",
            "turn-03-americans-shooting.svg",
            "turn-03-british-movement.svg",
        ]
    );
}

/// Run foe in `dir` with `stdin`; its standard output.
fn foe_in(dir: &std::path::Path, args: &[&str], stdin: &str) -> String {
    let output = assert_cmd::Command::cargo_bin("foe")
        .unwrap()
        .args(args)
        .env_remove("FOE_TABLES")
        .env("NO_COLOR", "1")
        .current_dir(dir)
        .write_stdin(stdin)
        .output()
        .unwrap();
    String::from_utf8_lossy(&output.stdout).into_owned()
}
