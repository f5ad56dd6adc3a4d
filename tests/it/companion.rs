//! The tabletop companion driven through standard input, as a script: a
//! three-bound battle against a golden transcript, the remembered state,
//! the general, reinforcements, saves and the autosave.

use assert_cmd::Command;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};

/// A companion run in a fresh folder with its own data directory.
struct Table {
    dir: tempfile::TempDir,
}

struct Run {
    stdout: String,
    stderr: String,
    status: i32,
}

impl Table {
    fn new() -> Table {
        Table {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn autosave(&self) -> PathBuf {
        self.path("data/autosave.json")
    }

    /// Run `foe companion ARGS` with `script` on standard input.
    fn play(&self, args: &[&str], script: &str) -> Run {
        let output = Command::cargo_bin("foe")
            .expect("foe binary")
            .arg("companion")
            .args(args)
            .current_dir(self.dir.path())
            .env("FOE_DATA_DIR", self.path("data"))
            .env_remove("FOE_TABLES")
            .env("NO_COLOR", "1")
            .write_stdin(script)
            .output()
            .expect("foe runs");
        Run {
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
            status: output.status.code().unwrap_or(-1),
        }
    }
}

impl Run {
    #[track_caller]
    fn ok(&self) -> &str {
        assert_eq!(
            self.status, 0,
            "stderr: {}\nstdout: {}",
            self.stderr, self.stdout
        );
        &self.stdout
    }
}

/// Compare with a golden file under `tests/it/data/`; `FOE_BLESS=1` rewrites it.
#[track_caller]
fn golden(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/it/data")
        .join(name);
    if std::env::var_os("FOE_BLESS").is_some() {
        std::fs::write(&path, actual).expect("write golden file");
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("no golden file {}; run with FOE_BLESS=1", path.display()));
    if expected != actual {
        let first = expected
            .lines()
            .zip(actual.lines())
            .position(|(want, got)| want != got)
            .unwrap_or(expected.lines().count().min(actual.lines().count()));
        panic!(
            "transcript differs from {} at line {}:\n  want: {:?}\n  got:  {:?}\n(FOE_BLESS=1 rewrites it deliberately)",
            path.display(),
            first + 1,
            expected.lines().nth(first),
            actual.lines().nth(first)
        );
    }
}

/// Three bounds with the player's own dice (`--dice ask`), so every roll is
/// forced and written in the script next to the answer it follows.
const BATTLE: &str = "\
add prov provincial-militia 10 average
add rangers rangers 8
general average Colonel Test
50
reinforcements french
bound
open
yes
4
3
no
no
no
no
1
70
50
50
2
unit rangers natural d=8
4
status
bound
6
open
y
4
0


swamp
n

3
85
unit rangers natural d=5 lost=1
7
3
status
bound
report enemy-attacking
90
unit canadian-militia-1 natural d=5 general
unit canadian-militia-1 natural d=5
5
unit rangers natural d=5
4
history
save battle.json
export battle.md
quit
";

#[test]
fn a_three_bound_battle_with_forced_dice() {
    let table = Table::new();
    let run = table.play(&["--dice", "ask"], BATTLE);
    let transcript = run.ok();
    golden("companion_battle.txt", transcript);

    // Bound 1: the provincials withdraw (-2); the general tests for it (70:
    // D) and calls up Canadian militia (50), who stay encamped (total 4).
    assert!(transcript.contains("TOTAL                                    -2: Withdraw"));
    assert!(transcript.contains("Average general, d100 70: reaction D (61-80)"));
    assert!(transcript.contains(
        "Reinforcements (french table, d100 50): Canadian Militia, called up as canadian-militia-1.\n  roll a d100 for the character of the Canadian Militia: 50\n  canadian-militia-1's character (d100 50): Average."
    ));
    assert!(transcript.contains("  => It stays off table, encamped."));
    // Bound 2: the reserve's test brings it on; the provincials withdrew last
    // bound, so they test in the retreat column and -1 routs them.
    assert!(transcript.contains("  => It enters at the centre of the army's rear table edge"));
    assert!(transcript.contains("(withdrew last bound: open ground disregarded)"));
    assert!(transcript.contains("-1: Rout"));
    assert!(transcript.contains("ROUTED: take it off the table"));
    assert!(transcript.contains("  => He rides to the centre of the rear baseline"));
    // Bound 3: a second E takes the general off for good; he is then not
    // asked about, and an answer naming him is refused.
    assert!(transcript.contains("He rides off the table and will not return"));
    assert!(transcript.contains("! the general has left the table; drop `general`"));
    // The player's bad answers and dice were refused and asked again.
    assert!(transcript.contains("! `swamp` is not yes or no; answer yes or no"));
    assert!(transcript.contains("! `7` is not a D6 roll from 1 to 6"));

    let log = std::fs::read_to_string(table.path("battle.md")).expect("exported log");
    assert!(log.starts_with("# Battle log"));
    assert!(log.contains("## Bound 2"));
    assert!(log.contains("- **prov**: [open seen d=4 lost=0]: die 3, total -1 = Rout"));
}

/// With the player's dice, every roll is asked right before the result it
/// decides, and that result is shown before the next roll: no two dice are
/// asked in a row. Here a general rolled whole (rank, name, character,
/// start) and a withdrawal that makes him call up rated reinforcements.
#[test]
fn each_roll_is_asked_right_before_the_result_it_decides() {
    let script = "add prov provincial-militia 10\n40\nreinforcements british\ngeneral\n5\n7\n20\n90\nbound\nunit prov d=4 lost=3\n1\n90\n50\n95\n6\nquit\n";
    let run = Table::new().play(&["--dice", "ask", "--no-autosave"], script);
    let transcript = run.ok();
    golden("companion_paced.txt", transcript);
    for text in [
        transcript.to_string(),
        Table::new()
            .play(&["--dice", "ask"], BATTLE)
            .ok()
            .to_string(),
    ] {
        let lines: Vec<&str> = text.lines().collect();
        for pair in lines.windows(2) {
            assert!(
                !(pair[0].starts_with("  roll a ") && pair[1].starts_with("  roll a ")),
                "two dice asked in a row:\n{}\n{}",
                pair[0],
                pair[1]
            );
        }
    }
    assert!(transcript.contains(
        "General: Colonel Bouquet, Brave (d100 20)\n  roll a d100 for the general's start position: 90\n  Starts (d100 90)"
    ));
}

#[test]
fn a_saved_game_loads_to_the_same_army() {
    let table = Table::new();
    let played = table.play(&["--dice", "ask"], BATTLE);
    played.ok();
    // A fresh session (foe's own dice now) loads the save and shows the army.
    let loaded = table.play(&["--seed", "1"], "load battle.json\nstatus\nhistory\n");
    let text = loaded.ok();
    assert!(text.contains("Loaded `battle.json`"), "{text}");
    assert!(text.contains("Phase: bound 3 over"), "{text}");
    assert!(
        text.contains("General: Colonel Test, Average (off the table for good)"),
        "{text}"
    );
    assert!(
        text.contains("canadian-militia-1  canadian-militia (Average)"),
        "{text}"
    );
    assert!(
        !text.contains("\nprov "),
        "the routed unit stays gone: {text}"
    );
    // The history replayed from the save is the history that was played.
    let original_history = played.stdout.split("foe> history\n").nth(1).unwrap();
    let original_history = original_history.split("foe> save").next().unwrap();
    let loaded_history = text.split("foe> history\n").nth(1).unwrap();
    assert_eq!(loaded_history, original_history);
}

#[test]
fn the_autosave_is_written_after_every_answered_unit() {
    let table = Table::new();
    let script = "add a rangers 8\nadd b rangers 8\nbound\nunit a d=10\nunit b d=10\n";
    let lines: Vec<&str> = script.lines().collect();
    for (answered, cut) in [(1, 4), (2, 5)] {
        let prefix = lines[..cut].join("\n") + "\n";
        table
            .play(
                &["--seed", "3", "--autosave", "data/autosave.json"],
                &prefix,
            )
            .ok();
        let save = std::fs::read_to_string(table.autosave()).expect("autosave exists");
        let save: serde_json::Value = serde_json::from_str(&save).expect("autosave is JSON");
        let answers = save["actions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|played| played["action"]["do"] == "answer")
            .count();
        assert_eq!(answers, answered);
    }
    // A closed terminal loses nothing: --resume picks the game up mid-bound.
    std::fs::remove_file(table.autosave()).unwrap();
    table
        .play(&["--seed", "3"], &(lines[..4].join("\n") + "\n"))
        .ok();
    let resumed = table.play(&["--resume"], "status\n");
    let text = resumed.ok();
    assert!(
        text.contains("Phase: bound 1, 1 unit still to test"),
        "{text}"
    );
    // No temporary files are left behind by the atomic writes.
    let leftovers: Vec<_> = std::fs::read_dir(table.path("data"))
        .unwrap()
        .filter_map(|entry| entry.ok())
        .filter(|entry| entry.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty());
}

/// The autosaves in the companion's folder.
fn autosaves(table: &Table) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(table.path("data/companion-saves"))
        .map(|entries| {
            entries
                .flatten()
                .map(|entry| entry.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn a_new_game_keeps_its_own_autosave_and_resume_picks_the_newest_or_the_named() {
    let table = Table::new();
    table
        .play(&["--seed", "3", "--army", "french"], "status\n")
        .ok();
    // Saved in the same second, the second game still takes a new file.
    table.play(&["--seed", "3"], "add lone rangers 8\n").ok();
    let saves = autosaves(&table);
    assert_eq!(saves.len(), 2, "{saves:?}");
    assert!(
        saves.iter().any(|name| name.starts_with("french-")),
        "{saves:?}"
    );
    assert!(
        saves.iter().any(|name| name.starts_with("battle-")),
        "{saves:?}"
    );
    // The newest is the lone rangers' game (the French one made older
    // whatever the clock's resolution).
    let older = std::time::SystemTime::now() - std::time::Duration::from_secs(120);
    let french_file = saves
        .iter()
        .find(|name| name.starts_with("french-"))
        .unwrap();
    std::fs::File::options()
        .write(true)
        .open(table.path("data/companion-saves").join(french_file))
        .unwrap()
        .set_modified(older)
        .unwrap();
    let newest = table.play(&["--resume"], "status\n");
    assert!(newest.ok().contains("\nlone "), "{}", newest.stdout);
    // Named by the beginning of its name, the French game comes back whole.
    let french = table.play(&["--resume", "french"], "status\n");
    assert!(french.ok().contains("\nmarine "), "{}", french.stdout);
    let listed = table.play(&["--resume", "list"], "");
    let text = listed.ok();
    assert!(
        text.contains("French and Indians at the Monongahela; bound 0; 5 units"),
        "{text}"
    );
    assert!(text.contains("no army yet; bound 0; 1 units"), "{text}");
}

#[test]
fn an_autosave_that_is_a_device_or_a_fifo_is_refused_and_left_as_it_is() {
    let table = Table::new();
    // Only a refusal is ever checked against the real device.
    let run = table.play(&["--autosave", "/dev/null"], "add a rangers 8\n");
    assert_eq!(run.status, 1, "{}", run.stdout);
    assert_eq!(
        run.stderr,
        "error: `/dev/null` is a character device, not a regular file: foe writes saves only to regular files, and leaves it as it is\n"
    );
    let fifo = table.path("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let run = table.play(&["--seed", "1"], "add a rangers 8\nsave pipe\nquit\n");
    assert!(
        run.ok().contains("! `pipe` is a FIFO, not a regular file"),
        "{}",
        run.stdout
    );
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    );
}

#[test]
fn the_autosave_holds_an_answer_before_its_result_is_printed() {
    let table = Table::new();
    // The autosave cannot be written (its folder is a file): the warning
    // comes when the save is attempted, which must be before the result.
    std::fs::write(table.path("blocker"), "").unwrap();
    let run = table.play(
        &["--seed", "1", "--autosave", "blocker/save.json"],
        "add a rangers 8\n",
    );
    let text = run.ok();
    let warned = text.find("! autosave failed").expect(text);
    let shown = text.find("+ a: Rangers").expect(text);
    assert!(warned < shown, "saved before shown:\n{text}");
}

#[test]
fn a_bad_line_at_a_dice_prompt_is_asked_again() {
    let table = Table::new();
    let mut script = b"add a rangers 8\ngeneral average Test\n\xff\xfe\n".to_vec();
    script.extend(std::iter::repeat_n(b'5', 70_000));
    script.extend(b"\n50\nstatus\n");
    let output = Command::cargo_bin("foe")
        .unwrap()
        .args(["--dice", "ask", "companion", "--no-autosave"])
        .current_dir(table.dir.path())
        .env("FOE_DATA_DIR", table.path("data"))
        .write_stdin(script)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("! that line is not UTF-8 text; it was ignored"),
        "{text}"
    );
    assert!(
        text.contains("! that line is longer than 65536 bytes; it was ignored"),
        "{text}"
    );
    assert!(text.contains("General: Test, Average"), "{text}");
    assert!(
        !text.contains("foe rolled"),
        "the player's roll was used: {text}"
    );
}

#[test]
fn damaged_and_newer_saves_are_refused_and_left_untouched() {
    let table = Table::new();
    table
        .play(&["--seed", "3"], "add a rangers 8\nsave good.json\n")
        .ok();
    let good = std::fs::read_to_string(table.path("good.json")).unwrap();
    let newer = good.replace("\"version\": 3", "\"version\": 99");
    let damaged = &good[..good.len() / 2];
    std::fs::write(table.path("newer.json"), &newer).unwrap();
    std::fs::write(table.path("damaged.json"), damaged).unwrap();

    let run = table.play(
        &["--seed", "3"],
        "add keep rangers 6\nload newer.json\nload damaged.json\nload missing.json\nstatus\n",
    );
    let text = run.ok();
    assert!(text.contains(
        "! cannot load `newer.json`: the save is format version 99, written by a newer foe; this foe reads up to version 3"
    ), "{text}");
    assert!(
        text.contains("! cannot load `damaged.json`: the save is damaged ("),
        "{text}"
    );
    assert!(text.contains("! cannot read `missing.json`"), "{text}");
    assert!(text.contains("\nkeep "), "the game in play is kept: {text}");
    assert_eq!(
        std::fs::read_to_string(table.path("newer.json")).unwrap(),
        newer
    );
    assert_eq!(
        std::fs::read_to_string(table.path("damaged.json")).unwrap(),
        damaged
    );

    // --resume with a damaged autosave stops with a clear message, file untouched.
    std::fs::create_dir_all(table.path("data")).unwrap();
    std::fs::write(table.autosave(), damaged).unwrap();
    // Named: the games above have autosaves of their own, written moments ago.
    let run = table.play(&["--resume", "autosave"], "");
    assert_eq!(run.status, 1);
    assert!(
        run.stderr.starts_with("error: cannot load `"),
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read_to_string(table.autosave()).unwrap(), damaged);
}

/// A refused answer draws none of foe's dice, so a game stopped right after
/// one and resumed rolls what the unbroken game rolls, and what a game
/// without the refused answers rolls. Seed 28: the general's test before
/// the first bound calls up light guns that march on (in column: they come
/// on limbered, and their answer is taken; left in column, every answer
/// for them was refused after drawing its die).
#[test]
fn a_refused_answer_saved_and_resumed_goes_on_with_the_unbroken_games_dice() {
    let setup = "add a rangers 6\ngeneral rash Colonel X\nreinforcements french\nreport enemy-attacking\nbound\nunit a natural\n";
    let refused = "unit light-artillery-1 lost=13\nunit a d=4\n";
    let guns = "unit light-artillery-1 d=5\n";
    let after = "bound\nunit a natural d=5\nunit light-artillery-1 d=5\nstatus\n";
    let from_bound_2 = |text: &str| -> String {
        let start = text
            .find("== Bound 2 ==")
            .unwrap_or_else(|| panic!("no bound 2:\n{text}"));
        text[start..].to_string()
    };
    let unbroken = Table::new()
        .play(&["--seed", "28"], &format!("{setup}{refused}{guns}{after}"))
        .ok()
        .to_string();
    assert!(unbroken.contains("! the unit has only 12 figures, it cannot lose 13"));
    assert!(unbroken.contains("! a has already been tested this bound"));
    let without = Table::new()
        .play(&["--seed", "28"], &format!("{setup}{guns}{after}"))
        .ok()
        .to_string();
    let table = Table::new();
    table
        .play(&["--seed", "28"], &format!("{setup}{refused}{guns}quit\n"))
        .ok();
    let resumed = table.play(&["--resume"], after).ok().to_string();
    assert_eq!(from_bound_2(&resumed), from_bound_2(&unbroken));
    assert_eq!(from_bound_2(&without), from_bound_2(&unbroken));
    assert!(
        unbroken.contains("light-artillery-1  artillery  12/12"),
        "{unbroken}"
    );
}

/// The companion's units take the class words `foe react --class` takes,
/// the built-in battles' troop types among them, with the same
/// did-you-mean, so Guilford's Americans can be run on a table.
#[test]
fn units_take_the_class_words_of_foe_react() {
    let table = Table::new();
    let run = table.play(
        &["--seed", "3", "--no-autosave"],
        "add 1st-md continentals 12\nadd guns artillery 4 limbered\nadd x continentls 12\nquit\n",
    );
    let text = run.ok();
    assert!(
        text.contains("  + 1st-md: continentals (tests as British Regulars), 12 figures, line"),
        "{text}"
    );
    let refused = "unknown troop class `continentls`; did you mean `continentals`?";
    assert!(text.contains(&format!("! {refused}")), "{text}");
    let react = Command::cargo_bin("foe")
        .expect("foe binary")
        .args(["react", "--class", "continentls", "--die", "3"])
        .env_remove("FOE_TABLES")
        .output()
        .expect("foe runs");
    assert!(
        String::from_utf8_lossy(&react.stderr).contains(refused),
        "{}",
        String::from_utf8_lossy(&react.stderr)
    );
}

#[test]
fn the_same_seed_and_answers_give_the_same_battle() {
    let script = "army british\nbound\nunit 44th d=20\nunit 48th d=20 general\nunit rangers natural d=9\nunit virginians d=7 lost=1\nunit 2nd d=7\nunit guns d=12\nbound\n\n\n\n\n\n\n\n\nstatus\n";
    let first = Table::new().play(&["--seed", "42"], script);
    let second = Table::new().play(&["--seed", "42"], script);
    assert_eq!(first.ok(), second.ok());
    let other = Table::new().play(&["--seed", "43"], script);
    assert_ne!(first.stdout, other.ok());
    golden("companion_seeded.txt", &first.stdout);
}

#[test]
fn nothing_the_player_types_loses_the_army() {
    let table = Table::new();
    let junk = "army french\nfoo\nadd\nadd x zulus 5\nadd x rangers many\nadd marine rangers 5\nunit\nunit nobody\nunit marine\nunit marine d=-4\nreport nothing\nmelee\nremove\nload\nsave\ngeneral timid\nbound\nbound\n\u{1b}[A\n?\nnonsense\nquit\n";
    let run = table.play(&["--seed", "5"], junk);
    let text = run.ok();
    for expected in [
        "! unknown command `foo`; `help` lists the commands",
        "! usage: add NAME CLASS FIGURES [FORMATION] [CHARACTER]",
        "! unknown troop class `zulus`",
        "! `many` is not a number of figures",
        "! there is already a unit `marine`; choose another name",
        "! usage: unit NAME [WORDS]; `help unit` lists the words",
        "! unknown unit `nobody`",
        "! no bound is open; type `bound` to begin the next one",
        "! `-4` is not a distance",
        "! unknown trigger `nothing`",
        "! usage: melee NAME",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    // Still the whole army, walking the bound.
    assert!(
        text.contains("marine (Troupes de la Marine, 12/12 figures, column):"),
        "{text}"
    );
}

#[test]
fn an_army_file_with_mistakes_is_refused_with_every_place() {
    let table = Table::new();
    std::fs::write(
        table.path("army.yaml"),
        "name: x\nnation: french\nreinforcements: prussian\nunits:\n  - { name: a, class: rangrs, figures: 6 }\n",
    )
    .unwrap();
    let run = table.play(&["--army", "army.yaml"], "");
    assert_eq!(run.status, 1);
    assert_eq!(
        run.stderr,
        "error: army.yaml:3:1: unknown army `prussian`; expected one of: french, british\n\
         army.yaml:5:16: unknown troop class `rangrs`; did you mean `rangers`?\n"
    );
}
