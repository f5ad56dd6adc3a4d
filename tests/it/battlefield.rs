//! `foe check`, `foe map` and `foe route`: scenarios validated, drawn and
//! routed as a player would ask for them.

use crate::support::foe;
use std::path::Path;

const SCENARIOS: [&str; 5] = [
    "guilford",
    "guilford-rv",
    "learning",
    "monongahela",
    "stress",
];

/// Compare with a golden file; `FOE_BLESS=1` rewrites it (deliberately).
#[track_caller]
fn golden(actual: &str, file: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/it/data/battlefield")
        .join(file);
    if std::env::var_os("FOE_BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        actual,
        expected,
        "\n--- got ---\n{actual}\n--- want ({}) ---\n{expected}",
        path.display()
    );
}

#[test]
fn every_shipped_scenario_passes_check() {
    for name in SCENARIOS {
        let run = foe(&["check", name]);
        assert_eq!(run.status, 0, "{name}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stdout.starts_with(&format!("{name}: ok - ")),
            "{}",
            run.stdout
        );
    }
}

#[test]
fn every_shipped_scenario_can_be_checked_by_path_too() {
    for name in SCENARIOS {
        let path = format!("{}/scenarios/{name}.yaml", env!("CARGO_MANIFEST_DIR"));
        let run = foe(&["check", &path]);
        assert_eq!(run.status, 0, "{name}: {}", run.stderr);
    }
}

#[test]
fn check_summarises_guilford() {
    foe(&["check", "guilford"]).prints(
        "guilford: ok - Guilford Courthouse, 15 March 1781\n  48\" x 48\" table, 7 terrain features, 15 turns, americans move first\n  british: 7 units, 1 general\n  americans: 12 units, 1 general\n",
    );
}

#[test]
fn unknown_names_are_all_reported_with_hints() {
    let run = foe(&["check", "tests/it/data/battlefield/unknown-names.yaml"]);
    assert_eq!(run.status, 1);
    golden(&run.stdout, "unknown-names.expected");
    assert_eq!(
        run.stderr,
        "error: `tests/it/data/battlefield/unknown-names.yaml` has 13 problems\n"
    );
}

#[test]
fn bad_placements_are_all_reported() {
    let run = foe(&["check", "tests/it/data/battlefield/bad-placement.yaml"]);
    assert_eq!(run.status, 1);
    golden(&run.stdout, "bad-placement.expected");
}

#[test]
fn a_malformed_file_is_refused_with_its_location() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.yaml");
    std::fs::write(&path, "name: x\ntitle: [unclosed\n").unwrap();
    let run = foe(&["check", path.to_str().unwrap()]);
    assert_eq!(run.status, 1);
    assert!(run.stdout.contains("broken.yaml:"), "{}", run.stdout);
    let bomb = "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n";
    std::fs::write(&path, bomb).unwrap();
    assert_eq!(foe(&["check", path.to_str().unwrap()]).status, 1);
}

#[test]
fn unknown_scenarios_get_a_suggestion() {
    foe(&["check", "guilfrod"]).fails_with(
        1,
        "error: unknown scenario `guilfrod`; did you mean `guilford`?",
    );
    foe(&["check", "missing.yaml"])
        .status
        .eq(&1)
        .then_some(())
        .expect("missing file fails");
}

#[test]
fn every_shipped_scenario_renders() {
    for name in SCENARIOS {
        let run = foe(&["map", name]);
        assert_eq!(run.status, 0, "{name}: {}", run.stderr);
        assert!(
            !run.stdout.contains('\x1b'),
            "no colour when not a terminal"
        );
        let map_lines: Vec<&str> = run.stdout.lines().take_while(|l| !l.is_empty()).collect();
        assert!(
            map_lines.iter().all(|l| l.chars().count() <= 80),
            "{name} is wider than 80 columns"
        );
        let dir = tempfile::tempdir().unwrap();
        let svg = dir.path().join("map.svg");
        let run = foe(&["map", name, "--svg", svg.to_str().unwrap()]);
        assert_eq!(run.status, 0, "{name}: {}", run.stderr);
        let text = std::fs::read_to_string(&svg).unwrap();
        assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"));
    }
}

#[test]
fn the_guilford_map_shows_terrain_units_and_coordinates() {
    let run = foe(&["map", "guilford"]);
    golden(&run.stdout, "guilford-map.expected");
    let wide = foe(&["map", "guilford", "--width", "120"]);
    assert!(wide.stdout.lines().any(|l| l.chars().count() == 120));
    foe(&["map", "guilford", "--width", "5"])
        .fails_with(1, "error: --width must be between 20 and 1000 columns");
}

#[test]
fn route_shows_legs_moves_and_the_map() {
    let run = foe(&["route", "guilford", "--unit", "Tarleton", "--to", "23.8,28"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with("Tarleton's Legion (cavalry, 12\" a move) from 28,2 to 23.8,28\n"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("along the road"), "{}", run.stdout);
    assert!(run.stdout.contains('X'), "the destination is marked");
}

#[test]
fn route_refuses_what_cannot_be_done() {
    foe(&["route", "guilford", "--unit", "Tarleton", "--to", "24,28"]).fails_with(
        1,
        "error: 24,28 is woods, which Tarleton's Legion (cavalry) cannot enter",
    );
    foe(&["route", "guilford", "--unit", "Tarleton", "--to", "99,1"])
        .fails_with(1, "error: 99,1 is off the 48\" x 48\" table");
    foe(&[
        "route",
        "guilford",
        "--unit",
        "Tarleton's Legon",
        "--to",
        "1,1",
    ])
    .fails_with(
        1,
        "error: unknown unit `Tarleton's Legon`; did you mean `Tarleton's Legion`?",
    );
    foe(&["route", "guilford", "--unit", "Tarleton", "--to", "here"]).fails_with(
        1,
        "error: --to `here` is not a point; write X,Y in inches, e.g. --to 24,30",
    );
}
