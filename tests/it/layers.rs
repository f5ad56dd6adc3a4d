//! The library's top-level modules form layers: no module reaches, through
//! any chain of `crate::` paths, back to itself. Read from the source text,
//! test code left out (files and inline modules under `#[cfg(test)]`).
//!
//! When this fails it names the modules in the cycle and, for each arrow,
//! the files that draw it: move the shared thing down to the lower module,
//! or hand it over as a value, rather than importing upwards.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Arrows between top-level modules: from → to → the files that draw them.
type Arrows = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

#[test]
fn top_level_modules_have_no_import_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let report = cycles_report(&arrows(&src), "");
    assert!(report.is_empty(), "{report}");
}

/// Every cycle among the arrows' modules (named with `prefix`), with the
/// files that draw each arrow of it; empty when there is none.
fn cycles_report(arrows: &Arrows, prefix: &str) -> String {
    let mut report = String::new();
    for cycle in strongly_connected(arrows)
        .into_iter()
        .filter(|component| component.len() > 1)
    {
        let names: Vec<String> = cycle.iter().map(|name| format!("{prefix}{name}")).collect();
        report.push_str(&format!("cycle among {}:\n", names.join(", ")));
        for from in &cycle {
            for to in &cycle {
                if let Some(files) = arrows.get(from).and_then(|targets| targets.get(to)) {
                    let files: Vec<&str> = files.iter().map(String::as_str).collect();
                    report.push_str(&format!("  {from} -> {to}: {}\n", files.join(", ")));
                }
            }
        }
    }
    report
}

/// The same for the command line's own modules (`cli::play`,
/// `cli::simulate`, ...): the play and simulate edges share what they
/// share through a lower module, and none calls back up into another.
#[test]
fn command_line_modules_have_no_import_cycle() {
    let cli = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli");
    let arrows = cli_arrows(&cli);
    let report = cycles_report(&arrows, "cli::");
    assert!(report.is_empty(), "{report}");
    // The reader is not blind: the play edge does reach its lower module.
    assert!(
        arrows
            .get("play")
            .is_some_and(|targets| targets.contains_key("start")),
        "{arrows:?}"
    );
}

/// Arrows between the command line's modules, read from `super::NAME`
/// (`super::super::NAME` one folder down) and `crate::cli::NAME`; the
/// folder's own `mod.rs`, which declares and dispatches to them all, is
/// left out.
fn cli_arrows(cli: &Path) -> Arrows {
    let modules = top_level_modules(cli);
    let test_files = test_only_files(cli);
    let mut arrows = Arrows::new();
    for file in rust_files(cli) {
        let relative = file.strip_prefix(cli).unwrap();
        if test_files.contains(&file) || relative == Path::new("mod.rs") {
            continue;
        }
        let parts: Vec<String> = relative
            .components()
            .map(|part| part.as_os_str().to_string_lossy().to_string())
            .collect();
        let module = parts[0].trim_end_matches(".rs").to_string();
        let deep = parts.len() > 1 && parts[parts.len() - 1] != "mod.rs";
        let mut text = strip_test_code(&std::fs::read_to_string(&file).unwrap());
        text = text
            .replace("crate::cli::", "\u{1}")
            .replace("crate::", "top::");
        text = if deep {
            text.replace("super::super::", "\u{1}")
                .replace("super::", "own::")
        } else {
            text.replace("super::", "\u{1}")
        };
        for named in modules_named(&text.replace('\u{1}', "crate::")) {
            if named != module && modules.contains(&named) {
                arrows
                    .entry(module.clone())
                    .or_default()
                    .entry(named)
                    .or_default()
                    .insert(relative.display().to_string());
            }
        }
    }
    arrows
}

/// Nothing above the engines names one engine's variant (`Game::Rv`,
/// `Action::Acw`, `Engine::Awi`, …) but the registry (`host/mod.rs`) and
/// the adapters (`host/engines/`). A new file that names one fails, by
/// name.
#[test]
fn nothing_above_the_engines_names_an_engine_but_its_adapters() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let test_files = test_only_files(&src);
    let mut named = Vec::new();
    for file in rust_files(&src) {
        let relative = file.strip_prefix(&src).unwrap().display().to_string();
        let below = ["rules/", "rv/", "acw/", "host/engines/"];
        if test_files.contains(&file)
            || below.iter().any(|dir| relative.starts_with(dir))
            || relative == "host/mod.rs"
        {
            continue;
        }
        let text = strip_test_code(&std::fs::read_to_string(&file).unwrap());
        for kind in ["Game", "Action", "Event", "Refusal", "Engine"] {
            for variant in ["Awi", "Rv", "Acw"] {
                let name = format!("{kind}::{variant}");
                let at_word_end = text.match_indices(&name).any(|(at, _)| {
                    let after = text[at + name.len()..].chars().next();
                    let before = text[..at].chars().next_back();
                    !after.is_some_and(char::is_alphanumeric)
                        && !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                });
                if at_word_end {
                    named.push(format!("{relative}: {name}"));
                }
            }
        }
    }
    assert!(
        named.is_empty(),
        "named outside the adapters:\n{}",
        named.join("\n")
    );
}

#[test]
fn the_reader_sees_through_grouped_paths_and_skips_test_code() {
    let text = "use crate::{dice::Roller, tables::{Tables, Column}};\n\
                fn f() { crate::render::text::inches(1.0); } // crate::play in a comment\n\
                #[cfg(test)]\nmod tests {\n    use crate::simulate;\n}\n";
    let named = modules_named(&strip_test_code(text));
    let expected: BTreeSet<String> = ["dice", "tables", "render"]
        .into_iter()
        .map(String::from)
        .collect();
    assert_eq!(named, expected);
}

#[test]
fn a_cycle_is_found_and_a_chain_is_not() {
    let mut arrows = Arrows::new();
    let mut arrow = |from: &str, to: &str| {
        arrows
            .entry(from.into())
            .or_default()
            .entry(to.into())
            .or_default()
            .insert("x.rs".into());
    };
    arrow("a", "b");
    arrow("b", "c");
    arrow("c", "a");
    arrow("c", "d");
    let components = strongly_connected(&arrows);
    let big: Vec<_> = components.iter().filter(|c| c.len() > 1).collect();
    assert_eq!(big.len(), 1);
    assert_eq!(big[0].len(), 3);
    let report = cycles_report(&arrows, "cli::");
    assert!(
        report.starts_with("cycle among cli::a, cli::b, cli::c:\n"),
        "{report}"
    );
    assert!(report.contains("  c -> a: x.rs\n"), "{report}");
}

/// Every arrow `crate::to` drawn by non-test code of a top-level module.
fn arrows(src: &Path) -> Arrows {
    let tops = top_level_modules(src);
    let test_files = test_only_files(src);
    let mut arrows = Arrows::new();
    for file in rust_files(src) {
        if test_files.contains(&file) {
            continue;
        }
        let relative = file.strip_prefix(src).unwrap();
        let top = relative
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if !tops.contains(&top) {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for named in modules_named(&strip_test_code(&text)) {
            if named != top && tops.contains(&named) {
                arrows
                    .entry(top.clone())
                    .or_default()
                    .entry(named)
                    .or_default()
                    .insert(relative.display().to_string());
            }
        }
    }
    arrows
}

/// The library's top-level modules: `src/NAME.rs` and `src/NAME/`.
fn top_level_modules(src: &Path) -> BTreeSet<String> {
    std::fs::read_dir(src)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter_map(|path| {
            let name = path.file_name()?.to_string_lossy().to_string();
            if path.is_dir() {
                Some(name)
            } else {
                name.strip_suffix(".rs").map(String::from)
            }
        })
        .filter(|name| name != "lib" && name != "main")
        .collect()
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
    files
}

/// Files (and folders) that a parent declares under `#[cfg(test)]`:
/// `#[cfg(test)] mod tests;` and the like.
fn test_only_files(src: &Path) -> BTreeSet<PathBuf> {
    let mut test_files = BTreeSet::new();
    for file in rust_files(src) {
        let text = std::fs::read_to_string(&file).unwrap();
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        for pair in lines.windows(2) {
            if !pair[0].starts_with("#[cfg(test)]") {
                continue;
            }
            let Some(name) = declared_module(pair[1]) else {
                continue;
            };
            // A module declared in `foo.rs` or `foo/mod.rs` lives in `foo/`;
            // one declared in `lib.rs` or `mod.rs` lives beside it.
            let stem = file.file_stem().unwrap().to_string_lossy();
            let folder = if stem == "mod" || stem == "lib" {
                file.parent().unwrap().to_path_buf()
            } else {
                file.with_extension("")
            };
            let as_file = folder.join(format!("{name}.rs"));
            let as_folder = folder.join(&name);
            test_files.insert(as_file);
            if as_folder.is_dir() {
                test_files.extend(rust_files(&as_folder));
            }
        }
    }
    test_files
}

/// `NAME` of a line `mod NAME;` (with any visibility).
fn declared_module(line: &str) -> Option<String> {
    let rest = line.strip_suffix(';')?;
    let rest = rest.rsplit_once("mod ")?.1;
    let name = rest.trim();
    name.chars()
        .all(|c| c.is_alphanumeric() || c == '_')
        .then(|| name.to_string())
}

/// The text without comments and without inline `#[cfg(test)]` modules.
fn strip_test_code(text: &str) -> String {
    let mut kept = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim();
        if trimmed.starts_with("#[cfg(test)]")
            && lines
                .peek()
                .is_some_and(|next| next.contains("mod ") && next.trim_end().ends_with('{'))
        {
            // Skip the module: count braces until it closes.
            let mut depth = 0i32;
            for inner in lines.by_ref() {
                depth += inner.matches('{').count() as i32;
                depth -= inner.matches('}').count() as i32;
                if depth <= 0 && inner.contains('}') {
                    break;
                }
            }
            continue;
        }
        let code = match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        };
        kept.push_str(code);
        kept.push('\n');
    }
    kept
}

/// The top-level modules a text names after `crate::`, grouped paths
/// (`crate::{a::X, b}`) included.
fn modules_named(text: &str) -> BTreeSet<String> {
    let mut named = BTreeSet::new();
    let mut rest = text;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // Each item at the group's first level starts with a module name.
            let mut depth = 1;
            let mut item_start = true;
            let mut word = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                if depth == 0 {
                    break;
                }
                if depth == 1 && item_start && (c.is_alphanumeric() || c == '_') {
                    word.push(c);
                    continue;
                }
                if !word.is_empty() {
                    named.insert(std::mem::take(&mut word));
                    item_start = false;
                }
                if depth == 1 && c == ',' {
                    item_start = true;
                }
            }
            if !word.is_empty() {
                named.insert(word);
            }
        } else {
            let word: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !word.is_empty() {
                named.insert(word);
            }
        }
    }
    named
}

/// Tarjan's strongly connected components of the arrows.
fn strongly_connected(arrows: &Arrows) -> Vec<Vec<String>> {
    struct Walk<'a> {
        arrows: &'a Arrows,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        components: Vec<Vec<String>>,
    }
    fn visit<'a>(walk: &mut Walk<'a>, node: &'a str) {
        let number = walk.index.len();
        walk.index.insert(node, number);
        walk.low.insert(node, number);
        walk.stack.push(node);
        walk.on_stack.insert(node);
        let arrows = walk.arrows;
        for next in arrows
            .get(node)
            .into_iter()
            .flat_map(|targets| targets.keys())
        {
            let next = next.as_str();
            if !walk.index.contains_key(next) {
                visit(walk, next);
                let low = walk.low[node].min(walk.low[next]);
                walk.low.insert(node, low);
            } else if walk.on_stack.contains(next) {
                let low = walk.low[node].min(walk.index[next]);
                walk.low.insert(node, low);
            }
        }
        if walk.low[node] == walk.index[node] {
            let mut component = Vec::new();
            while let Some(member) = walk.stack.pop() {
                walk.on_stack.remove(member);
                component.push(member.to_string());
                if member == node {
                    break;
                }
            }
            component.sort();
            walk.components.push(component);
        }
    }
    let mut walk = Walk {
        arrows,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        components: Vec::new(),
    };
    let nodes: BTreeSet<&str> = arrows
        .iter()
        .flat_map(|(from, targets)| {
            std::iter::once(from.as_str()).chain(targets.keys().map(String::as_str))
        })
        .collect();
    for node in nodes {
        if !walk.index.contains_key(node) {
            visit(&mut walk, node);
        }
    }
    walk.components
}
