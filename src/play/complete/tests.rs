use super::*;
use crate::play::tests::start;

/// The choices shown at the end of `line` in Guilford, turn 1, the British
/// to move: where the word starts, then each choice as the list shows it.
fn check(line: &str, expected: &str) {
    let game = start("guilford", 1781, vec![0]);
    let vocabulary = Vocabulary::of(&game.scenario, game.state());
    let (start, choices) = complete(&vocabulary, line, line.len());
    let shown: Vec<String> = choices
        .iter()
        .map(|choice| choice.display.clone())
        .collect();
    assert_eq!(
        format!("{start}: {}", shown.join(" | ")),
        expected,
        "{line:?}"
    );
}

#[test]
fn commands_first() {
    check(
        "",
        "0: move | pivot | charge | fire | rally | general | route | end | map | status | log | what | why | victory | save | load | undo | rewind | history | help | quit | exit",
    );
    check("r", "0: rally | route | rewind");
    check("sh", "0: shoot");
    check("xyz", "0: ");
}

#[test]
fn own_units_to_move_and_fire_with_enemy_units_to_fire_at() {
    check(
        "move ",
        "5: B1 (Royal Artillery) | B2 (Guards Grenadiers) | B3 (33rd Foot) | B4 (23rd Foot) | B5 (71st Foot) | B6 (Light Infantry) | B7 (Tarleton's Legion)",
    );
    check("move gu", "5: B2 (Guards Grenadiers)");
    check(
        "fire b",
        "5: B1 (Royal Artillery) | B2 (Guards Grenadiers) | B3 (33rd Foot) | B4 (23rd Foot) | B5 (71st Foot) | B6 (Light Infantry) | B7 (Tarleton's Legion)",
    );
    check(
        "fire B1 ",
        "8: A1 (Campbell's Riflemen) | A2 (Butler's Militia) | A3 (Singleton's Gun) | A4 (Eaton's Militia) | A5 (Lynch's Riflemen) | A6 (Stevens' Militia) | A7 (Finley's Gun) | A8 (Lawson's Militia) | A9 (Kirkwood's Riflemen) | A10 (1st Maryland) | A11 (4th Virginia) | A12 (Washington's Dragoons)",
    );
    check(
        "shoot b1 a1",
        "9: A1 (Campbell's Riflemen) | A10 (1st Maryland) | A11 (4th Virginia) | A12 (Washington's Dragoons)",
    );
    check(
        "charge b2 mil",
        "10: A2 (Butler's Militia) | A4 (Eaton's Militia) | A6 (Stevens' Militia) | A8 (Lawson's Militia)",
    );
    check(
        "what ",
        "5: A1 (Campbell's Riflemen) | A2 (Butler's Militia) | A3 (Singleton's Gun) | A4 (Eaton's Militia) | A5 (Lynch's Riflemen) | A6 (Stevens' Militia) | A7 (Finley's Gun) | A8 (Lawson's Militia) | A9 (Kirkwood's Riflemen) | A10 (1st Maryland) | A11 (4th Virginia) | A12 (Washington's Dragoons)",
    );
    check(
        "rally ",
        "6: BG1 (Cornwallis) | B1 (Royal Artillery) | B2 (Guards Grenadiers) | B3 (33rd Foot) | B4 (23rd Foot) | B5 (71st Foot) | B6 (Light Infantry) | B7 (Tarleton's Legion)",
    );
}

#[test]
fn then_the_words_of_a_move_or_a_facing() {
    check("move b3 ", "8: to | forward | back | towards | road | ?");
    check("move b3 f", "8: forward");
    check("move b3 forward ", "16: max");
    check(
        "move b3 towards ",
        "16: A1 (Campbell's Riflemen) | A2 (Butler's Militia) | A3 (Singleton's Gun) | A4 (Eaton's Militia) | A5 (Lynch's Riflemen) | A6 (Stevens' Militia) | A7 (Finley's Gun) | A8 (Lawson's Militia) | A9 (Kirkwood's Riflemen) | A10 (1st Maryland) | A11 (4th Virginia) | A12 (Washington's Dragoons) | B1 (Royal Artillery) | B2 (Guards Grenadiers) | B3 (33rd Foot) | B4 (23rd Foot) | B5 (71st Foot) | B6 (Light Infantry) | B7 (Tarleton's Legion)",
    );
    check("move b3 towards a5 ", "19: max");
    check("move b3 to 40,9 ", "16: facing");
    check(
        "move b3 to 40,9 facing ",
        "23: n | ne | e | se | s | sw | w | nw",
    );
    check(
        "pivot b3 ",
        "9: n | ne | e | se | s | sw | w | nw | towards",
    );
    check("pivot b3 s", "9: se | s | sw");
    check("end ", "4: turn");
    check("help r", "5: rally | rout | route | rewind");
    check(
        "status a1",
        "7: A1 (Campbell's Riflemen) | A10 (1st Maryland) | A11 (4th Virginia) | A12 (Washington's Dragoons)",
    );
}

#[test]
fn the_cursor_inside_the_line_completes_the_word_before_it() {
    let game = start("guilford", 1781, vec![0]);
    let vocabulary = Vocabulary::of(&game.scenario, game.state());
    let (start, choices) = complete(&vocabulary, "fire b1 a3", 6);
    assert_eq!(start, 5);
    assert_eq!(choices[0].replacement, "B1");
    // A name typed completes as the word that names the unit, else its label.
    let (_, choices) = complete(&vocabulary, "move gua", 8);
    assert_eq!(choices[0].replacement, "Guards");
    let (_, choices) = complete(&vocabulary, "fire b1 lyn", 11);
    assert_eq!(choices[0].replacement, "Lynch's");
    let (_, choices) = complete(&vocabulary, "charge b2 mil", 13);
    assert_eq!(choices[0].replacement, "A2");
    // And what it put there is read as that unit for the next word.
    let (_, choices) = complete(&vocabulary, "fire Royal ", 11);
    assert_eq!(choices[0].replacement, "A1");
    // A cursor past the end or inside a character is no panic.
    let _ = complete(&vocabulary, "fire é", 6);
    let _ = complete(&vocabulary, "fire", 40);
}

#[test]
fn help_completes_every_rule_it_knows() {
    for (topic, _) in crate::render::help::TOPICS {
        assert!(HELP_WORDS.contains(&topic), "{topic}");
    }
}

/// A space of several bytes (an ideographic space) before the cursor is a
/// word's end, not a panic.
#[test]
fn a_wide_space_ends_a_word() {
    let game = start("guilford", 1781, vec![0]);
    let vocabulary = Vocabulary::of(&game.scenario, game.state());
    let line = "fire\u{3000}b1\u{3000}";
    for cursor in 0..=line.len() {
        let (start, _) = complete(&vocabulary, line, cursor);
        assert!(line.is_char_boundary(start), "at {cursor}");
    }
    assert_eq!(complete(&vocabulary, line, line.len()).0, line.len());
}
