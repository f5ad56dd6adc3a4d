//! "Did you mean …?": the nearest valid name for a typo.

/// The candidate closest to `input` by edit distance, if it is close enough
/// to be a plausible typo (or `input` is a prefix of exactly one candidate).
pub fn nearest<'a, I>(input: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let input_lower = input.to_lowercase();
    let candidates: Vec<&'a str> = candidates.into_iter().collect();
    let prefixed: Vec<&'a str> = candidates
        .iter()
        .copied()
        .filter(|c| c.to_lowercase().starts_with(&input_lower))
        .collect();
    if prefixed.len() == 1 && !input.is_empty() {
        return prefixed.first().copied();
    }
    candidates
        .into_iter()
        .map(|candidate| {
            (
                strsim::damerau_levenshtein(&input_lower, &candidate.to_lowercase()),
                candidate,
            )
        })
        .filter(|(distance, candidate)| *distance <= (candidate.len() / 3).max(2))
        .min_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1)))
        .map(|(_, candidate)| candidate)
}

/// `, did you mean `x`?` or nothing: the tail of an "unknown name" message.
pub fn did_you_mean<'a, I>(input: &str, candidates: I) -> String
where
    I: IntoIterator<Item = &'a str>,
{
    match nearest(input, candidates) {
        Some(name) => format!("; did you mean `{name}`?"),
        None => String::new(),
    }
}

/// Resolve `input` to exactly one candidate: an exact match (ignoring case),
/// or a unique prefix. `Err` carries the matches when the prefix is ambiguous.
pub fn resolve<'a, I>(input: &str, candidates: I) -> Result<&'a str, Vec<&'a str>>
where
    I: IntoIterator<Item = &'a str>,
{
    let input_lower = input.to_lowercase();
    let candidates: Vec<&'a str> = candidates.into_iter().collect();
    if let Some(exact) = candidates.iter().find(|c| c.to_lowercase() == input_lower) {
        return Ok(exact);
    }
    let prefixed: Vec<&'a str> = candidates
        .into_iter()
        .filter(|c| c.to_lowercase().starts_with(&input_lower))
        .collect();
    if prefixed.len() == 1 && !input.is_empty() {
        Ok(prefixed[0])
    } else {
        Err(prefixed)
    }
}

/// A name with only its letters and digits, in lower case: `1st
/// Maryland` and `1st maryland` are one name, `B3` and `b3` one label.
pub fn normalise(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The line without its parenthesised names: foe prints a unit as `B5
/// (71st Foot)`, and a line copied from it must read back.
pub fn without_parentheses(line: &str) -> String {
    let mut depth = 0usize;
    let mut out = String::with_capacity(line.len());
    for c in line.chars() {
        match c {
            '(' => depth += 1,
            ')' if depth > 0 => {
                depth -= 1;
                out.push(' ');
            }
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// A name spelt as it sounds (`jaxon` for `jackson`): the one spelling
/// nearest `typed` within half its length in edits, when no other is as
/// near. Words of four letters or fewer get no such guess. Looser than
/// [`nearest`]: for a name typed as heard, where a wrong guess costs
/// little.
pub fn sounds_like<'a>(typed: &str, spellings: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    if typed.chars().count() < 5 {
        return None;
    }
    let most = typed.chars().count().div_ceil(2);
    let mut best: Option<(usize, &str)> = None;
    let mut tied = false;
    for spelling in spellings {
        let distance = strsim::damerau_levenshtein(typed, spelling);
        if distance > most {
            continue;
        }
        match best {
            Some((nearest, found)) if distance == nearest && found != spelling => tied = true,
            Some((nearest, _)) if distance >= nearest => {}
            _ => {
                best = Some((distance, spelling));
                tied = false;
            }
        }
    }
    best.filter(|_| !tied).map(|(_, spelling)| spelling)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLASSES: [&str; 4] = [
        "rangers",
        "british-regulars",
        "light-infantry",
        "light-cavalry",
    ];

    #[test]
    fn suggests_the_nearest_name() {
        assert_eq!(nearest("rangrs", CLASSES), Some("rangers"));
        assert_eq!(
            nearest("british-regular", CLASSES),
            Some("british-regulars")
        );
        assert_eq!(nearest("light-cavalery", CLASSES), Some("light-cavalry"));
        assert_eq!(nearest("zulus", CLASSES), None);
        assert_eq!(nearest("brit", CLASSES), Some("british-regulars"));
    }

    #[test]
    fn resolves_exact_names_and_unique_prefixes() {
        assert_eq!(resolve("Rangers", CLASSES), Ok("rangers"));
        assert_eq!(resolve("ran", CLASSES), Ok("rangers"));
        assert_eq!(
            resolve("light", CLASSES),
            Err(vec!["light-infantry", "light-cavalry"])
        );
        assert_eq!(resolve("x", CLASSES), Err(vec![]));
    }

    #[test]
    fn a_name_spelt_as_it_sounds_is_guessed_only_when_one_is_nearest() {
        let names = ["jackson", "jacksons", "brigade", "hampton", "sherman"];
        assert_eq!(sounds_like("jaxon", names.into_iter()), Some("jackson"));
        assert_eq!(sounds_like("zzzzzzz", names.into_iter()), None);
        // Four letters or fewer: no guess.
        assert_eq!(sounds_like("jakc", names.into_iter()), None);
        // Two spellings as near: no guess.
        assert_eq!(
            sounds_like("abcdef", ["abcxyz", "abcuvw"].into_iter()),
            None
        );
    }
}
