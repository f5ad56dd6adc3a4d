//! Save files at the edge, for `foe play` and `foe companion` (and every
//! other file foe writes): atomic writes that only ever replace a regular
//! file, and the autosave folders in which every game keeps its own file.
//!
//! An atomic write puts the text in a temporary file of foe's naming
//! (`.NAME.PID.tmp`) in the target's folder, flushes it to the disk,
//! renames it over the target and flushes the folder, so after a crash the
//! target is the old file or the new one, never half of either, and the
//! rename itself survives a power cut. A target that exists and is not a
//! regular file (a device such as `/dev/null`, a FIFO, a folder, a link to
//! one of those) is refused and left as it is: renaming over it would
//! replace the device with a plain file. Temporary files left by a foe that
//! died mid-write are removed the next time that file is written.
//!
//! A game holds a [`Lock`] on its save for as long as it runs, so a second
//! foe on the same save (two `--resume` of one game, or one `--autosave
//! FILE`) is refused in one line instead of writing over the first one's
//! acknowledged actions. The lock is the system's advisory lock (`flock`)
//! on `.NAME.lock` beside the save: the kernel lets go of it when the
//! process ends, however it ends, so a killed foe never leaves a save
//! locked; the file is removed when the game ends.

use crate::error::{Error, Result};
use crate::save::{Utc, autosave_name};
use std::io::Write;
use std::path::{Path, PathBuf};

/// foe's data folder: `$FOE_DATA_DIR`, else `$XDG_DATA_HOME/foe`, else
/// `~/.local/share/foe`.
pub fn data_dir() -> Option<PathBuf> {
    let non_empty = |name: &str| std::env::var_os(name).filter(|value| !value.is_empty());
    if let Some(dir) = non_empty("FOE_DATA_DIR") {
        return Some(PathBuf::from(dir));
    }
    if let Some(dir) = non_empty("XDG_DATA_HOME") {
        return Some(PathBuf::from(dir).join("foe"));
    }
    non_empty("HOME").map(|home| PathBuf::from(home).join(".local/share/foe"))
}

/// Write `text` to `path` atomically, refusing a target that is not a
/// regular file. A symbolic link to a regular file is followed: the file it
/// names is replaced and the link kept.
pub fn write_atomically(path: &Path, text: &str) -> Result<()> {
    let target = regular_target(path)?;
    let io = |source| Error::Io {
        action: "write",
        path: path.into(),
        source,
    };
    let dir = match target.parent().filter(|dir| !dir.as_os_str().is_empty()) {
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(io)?;
            dir.to_path_buf()
        }
        None => PathBuf::from("."),
    };
    let file_name = target
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| "save".into());
    remove_stale_temps(&dir, &file_name);
    let temp = dir.join(temp_name(&file_name, std::process::id()));
    let result = (|| {
        let mut file = create_new(&temp)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
        drop(file);
        // Checked again just before the rename: never rename over a device
        // or a FIFO that appeared while the text was written.
        if let Some(kind) = not_regular(&target)? {
            return Err(std::io::Error::other(format!(
                "it is {kind} now, not a regular file"
            )));
        }
        std::fs::rename(&temp, &target)?;
        sync_dir(&dir)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result.map_err(io)
}

/// Refuse a path that exists and is not a regular file, with a one-line
/// message; a new file or a regular one is fine. (`--autosave` is checked
/// with this before a game starts.)
pub fn check_writable(path: &Path) -> Result<()> {
    regular_target(path).map(|_| ())
}

/// The file a write to `path` replaces: `path` itself, or the regular file
/// a symbolic link names.
fn regular_target(path: &Path) -> Result<PathBuf> {
    let refuse = |kind: &str| {
        Error::Invalid(format!(
            "`{}` is {kind}, not a regular file: foe writes saves only to regular files, and leaves it as it is",
            path.display()
        ))
    };
    let io = |source| Error::Io {
        action: "write",
        path: path.into(),
        source,
    };
    match std::fs::symlink_metadata(path) {
        // Nothing there yet: a folder on the way that cannot be made is
        // reported when the write tries.
        Err(error)
            if matches!(
                error.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            Ok(path.to_path_buf())
        }
        Err(error) => Err(io(error)),
        Ok(meta) if meta.file_type().is_symlink() => match std::fs::metadata(path) {
            Ok(followed) if followed.is_file() => std::fs::canonicalize(path).map_err(io),
            Ok(followed) => Err(refuse(&format!(
                "a link to {}",
                kind_of(&followed.file_type())
            ))),
            Err(_) => Err(refuse("a link to nothing")),
        },
        Ok(meta) if meta.is_file() => Ok(path.to_path_buf()),
        Ok(meta) => Err(refuse(kind_of(&meta.file_type()))),
    }
}

/// What a path is, when it exists and is not a regular file (links followed).
fn not_regular(path: &Path) -> std::io::Result<Option<&'static str>> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => Ok(None),
        Ok(meta) => Ok(Some(kind_of(&meta.file_type()))),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(error),
    }
}

fn kind_of(file_type: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() {
        "a folder"
    } else if file_type.is_symlink() {
        "a symbolic link"
    } else {
        "not a file"
    }
}

fn temp_name(file_name: &str, pid: u32) -> String {
    format!(".{file_name}.{pid}.tmp")
}

/// Create the temporary file, never following a link planted in its place.
/// A file of the same name is a leftover of a foe that had this process id.
fn create_new(temp: &Path) -> std::io::Result<std::fs::File> {
    let open = || {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(temp)
    };
    match open() {
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {
            std::fs::remove_file(temp)?;
            open()
        }
        other => other,
    }
}

/// Make a rename in `dir` durable. Some file systems cannot flush a folder;
/// they say so, and the write has still happened.
fn sync_dir(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        match std::fs::File::open(dir).and_then(|folder| folder.sync_all()) {
            Err(error)
                if matches!(
                    error.kind(),
                    std::io::ErrorKind::InvalidInput | std::io::ErrorKind::Unsupported
                ) =>
            {
                Ok(())
            }
            other => other,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

/// Remove `.NAME.PID.tmp` files of this target left by a foe that died
/// mid-write: those of a process that is no longer running (where the
/// system lists processes in /proc), else those over an hour old.
fn remove_stale_temps(dir: &Path, file_name: &str) {
    let prefix = format!(".{file_name}.");
    let own = std::process::id();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let proc_listed = Path::new("/proc/self").exists();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name
            .strip_prefix(&prefix)
            .and_then(|rest| rest.strip_suffix(".tmp"))
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(meta) = entry.metadata() else {
            continue;
        };
        if pid == own || !meta.is_file() {
            continue;
        }
        let stale = if proc_listed {
            !Path::new("/proc").join(pid.to_string()).exists()
        } else {
            meta.modified()
                .ok()
                .and_then(|time| time.elapsed().ok())
                .is_some_and(|age| age.as_secs() > 3600)
        };
        if stale {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// The hash of the tables a run plays by when `--tables DIR` changes any
/// of them (none: the built-in ones): every file of `DIR` that foe reads
/// in place of a built-in one (the Lone Warrior tables, `rulesets/NAME.yaml`)
/// and whose text differs from it, by name. Saves record it, so a game is
/// never resumed under other tables unseen.
pub fn tables_hash(dir: Option<&Path>) -> Result<Option<String>> {
    let Some(dir) = dir else {
        return Ok(None);
    };
    let rulesets = crate::ruleset::BUILTIN
        .iter()
        .map(|(name, _, text)| (format!("rulesets/{name}.yaml"), *text));
    let tables = crate::tables::EMBEDDED
        .iter()
        .map(|(file, text)| (file.to_string(), *text));
    let mut hash = crate::save::Fnv::new();
    let mut changed = false;
    for (file, built_in) in tables.chain(rulesets) {
        let path = dir.join(&file);
        if !path.is_file() {
            continue;
        }
        let text = super::read_text(&path)?;
        if text != built_in {
            changed = true;
            hash.text(&file).text(&text);
        }
    }
    Ok(changed.then(|| hash.hex()))
}

/// A game's hold on its save file: while it lives, no other foe can take
/// one on the same file ([`lock`]).
#[derive(Debug)]
pub struct Lock {
    /// Held open: the lock lasts as long as the file does.
    _file: std::fs::File,
    path: PathBuf,
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Removed while still held: a foe that opened it meanwhile finds,
        // once it holds it, that the name is gone, and takes a new one.
        // The lock itself goes when the file is closed, just after this.
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Whether the lock was taken.
enum Taken {
    Yes,
    /// Another process holds it.
    Busy,
    /// The system or file system has no such locks.
    Unsupported,
}

/// Take the system's exclusive advisory lock on `file` without waiting.
#[cfg(unix)]
fn try_lock(file: &std::fs::File) -> std::io::Result<Taken> {
    use std::os::unix::io::AsRawFd;
    // SAFETY: flock only reads the descriptor, which `file` keeps open for
    // the length of the call.
    let result = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    if result == 0 {
        return Ok(Taken::Yes);
    }
    let error = std::io::Error::last_os_error();
    match error.raw_os_error() {
        Some(code) if code == libc::EWOULDBLOCK || code == libc::EAGAIN => Ok(Taken::Busy),
        Some(code) if code == libc::ENOLCK || code == libc::EOPNOTSUPP || code == libc::EINVAL => {
            Ok(Taken::Unsupported)
        }
        _ => Err(error),
    }
}

#[cfg(not(unix))]
fn try_lock(_file: &std::fs::File) -> std::io::Result<Taken> {
    Ok(Taken::Unsupported)
}

/// The lock file of a save: `.NAME.lock` beside the file it names (links
/// followed, so two names for one save share a lock).
fn lock_path(save: &Path) -> PathBuf {
    let target = std::fs::canonicalize(save).unwrap_or_else(|_| save.to_path_buf());
    let name = target
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| "save".into());
    let dir = target
        .parent()
        .filter(|dir| !dir.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    dir.join(format!(".{name}.lock"))
}

/// Take the lock on the save at `save`, refusing in one line when another
/// foe holds it. `None` where no lock can be made (a read-only folder, in
/// which no save can be written either, or a file system without locks).
pub fn lock(save: &Path) -> Result<Option<Lock>> {
    let path = lock_path(save);
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    for _ in 0..10 {
        let file = match std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
        {
            Ok(file) => file,
            // No lock file can be made where no save can be written either
            // (a read-only folder, a file in the folder's place): the game
            // goes on and its autosave warns, as without a lock.
            Err(_) => return Ok(None),
        };
        match try_lock(&file) {
            Ok(Taken::Yes) => {}
            Ok(Taken::Busy) => {
                let holder = std::fs::read_to_string(&path).unwrap_or_default();
                let holder = holder.trim();
                let by = if holder.chars().all(|c| c.is_ascii_digit()) && !holder.is_empty() {
                    format!("another foe (process {holder})")
                } else {
                    "another foe".to_string()
                };
                return Err(Error::Invalid(format!(
                    "`{}` is in use by {by}: one game, one foe; finish it there first",
                    save.display()
                )));
            }
            Ok(Taken::Unsupported) | Err(_) => return Ok(None),
        }
        if same_file(&file, &path) {
            let mut file = file;
            let _ = file.set_len(0);
            let _ = write!(file, "{}", std::process::id());
            return Ok(Some(Lock { _file: file, path }));
        }
        // The holder before us removed it as we opened it: try the new one.
    }
    Err(Error::Invalid(format!(
        "`{}`: could not take its lock file `{}`",
        save.display(),
        path.display()
    )))
}

/// Whether the open `file` is still the one named `path`.
fn same_file(file: &std::fs::File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::metadata(path)) {
            (Ok(open), Ok(named)) => open.dev() == named.dev() && open.ino() == named.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        true
    }
}

/// Seconds since 1970, from the clock.
pub fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_secs())
}

/// A folder of autosaves, one file a game, named by what the game is and
/// when it began; plus the single autosave file of older foes, still found.
pub struct Slots {
    /// The folder.
    pub dir: PathBuf,
    /// The one autosave file older foes kept, listed with the others.
    legacy: Option<PathBuf>,
}

/// A saved game found in a folder.
pub struct Saved {
    /// Its file.
    pub path: PathBuf,
    /// Its name: the file name without `.json`.
    pub name: String,
    /// When it was last written.
    pub modified: std::time::SystemTime,
}

impl Slots {
    /// `foe play`'s autosaves: `play-saves/` in foe's data folder.
    pub fn play() -> Option<Slots> {
        data_dir().map(|dir| Slots {
            dir: dir.join("play-saves"),
            legacy: Some(dir.join("play-autosave.json")),
        })
    }

    /// The companion's autosaves: `companion-saves/` in foe's data folder.
    pub fn companion() -> Option<Slots> {
        data_dir().map(|dir| Slots {
            dir: dir.join("companion-saves"),
            legacy: Some(dir.join("autosave.json")),
        })
    }

    /// A new file for a game of `what` begun at `started`, taken by no
    /// other game.
    pub fn new_path(&self, what: &str, started: u64) -> PathBuf {
        let name = autosave_name(what, started);
        let stem = name.trim_end_matches(".json");
        let mut path = self.dir.join(&name);
        let mut count = 2;
        while path.exists() {
            path = self.dir.join(format!("{stem}-{count}.json"));
            count += 1;
        }
        path
    }

    /// The saved games, newest first.
    pub fn list(&self) -> Vec<Saved> {
        let mut found = Vec::new();
        let mut consider = |path: PathBuf| {
            let Ok(meta) = std::fs::metadata(&path) else {
                return;
            };
            if !meta.is_file() {
                return;
            }
            let modified = meta.modified().unwrap_or(std::time::UNIX_EPOCH);
            let name = path
                .file_stem()
                .map(|stem| stem.to_string_lossy().into_owned())
                .unwrap_or_default();
            found.push(Saved {
                path,
                name,
                modified,
            });
        };
        if let Ok(entries) = std::fs::read_dir(&self.dir) {
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.ends_with(".json") && !name.starts_with('.') {
                    consider(entry.path());
                }
            }
        }
        if let Some(legacy) = &self.legacy {
            consider(legacy.clone());
        }
        found.sort_by(|a, b| b.modified.cmp(&a.modified).then(b.name.cmp(&a.name)));
        found
    }

    /// The save to resume: the newest (`None`), a file given by its path,
    /// or the newest whose name begins with `name`.
    pub fn find(&self, name: Option<&str>, command: &str) -> Result<PathBuf> {
        let saved = self.list();
        let Some(name) = name else {
            return saved.first().map(|save| save.path.clone()).ok_or_else(|| {
                Error::Invalid(format!(
                    "no saved game to resume in `{}`; start one with `{command}`",
                    self.dir.display()
                ))
            });
        };
        if Path::new(name).is_file() {
            return Ok(PathBuf::from(name));
        }
        let wanted = name.trim_end_matches(".json");
        saved
            .iter()
            .find(|save| save.name == wanted)
            .or_else(|| saved.iter().find(|save| save.name.starts_with(wanted)))
            .map(|save| save.path.clone())
            .ok_or_else(|| {
                Error::Invalid(format!(
                    "no saved game `{name}` in `{}`; `{command} --resume list` lists them",
                    self.dir.display()
                ))
            })
    }

    /// The saved games as lines: name, what `describe` says, when saved.
    pub fn listing(&self, describe: impl Fn(&Path) -> String, command: &str) -> String {
        let saved = self.list();
        if saved.is_empty() {
            return format!("No saved games in `{}`.\n", self.dir.display());
        }
        let width = saved.iter().map(|save| save.name.len()).max().unwrap_or(0);
        let mut out = format!("Saved games in `{}`, newest first:\n", self.dir.display());
        for save in &saved {
            out.push_str(&format!(
                "  {:width$}  {}; saved {}\n",
                save.name,
                describe(&save.path),
                Utc::from_unix(
                    save.modified
                        .duration_since(std::time::UNIX_EPOCH)
                        .map_or(0, |since| since.as_secs())
                )
                .shown(),
            ));
        }
        out.push_str(&format!(
            "`{command} --resume NAME` continues one (the beginning of its name will do).\n"
        ));
        out
    }
}

/// Move an existing regular file aside to `NAME.previous.json` before a new
/// game takes its name; returns where it went.
pub fn set_aside(path: &Path) -> Option<PathBuf> {
    if !std::fs::symlink_metadata(path).is_ok_and(|meta| meta.is_file()) {
        return None;
    }
    let previous = path.with_extension("previous.json");
    std::fs::rename(path, &previous).ok().map(|()| previous)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_write_replaces_a_regular_file_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("save.json");
        write_atomically(&path, "one").unwrap();
        write_atomically(&path, "two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect();
        assert_eq!(names, ["save.json"]);
    }

    #[test]
    fn a_link_to_a_regular_file_is_followed_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.json");
        let link = dir.path().join("link.json");
        std::fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_atomically(&link, "new").unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
    }

    #[test]
    fn a_folder_or_a_link_to_a_device_is_refused_and_left_as_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("folder");
        std::fs::create_dir(&folder).unwrap();
        let error = write_atomically(&folder, "x").unwrap_err().to_string();
        assert!(error.ends_with("is a folder, not a regular file: foe writes saves only to regular files, and leaves it as it is"), "{error}");
        assert!(folder.is_dir());
        let link = dir.path().join("null.json");
        std::os::unix::fs::symlink("/dev/null", &link).unwrap();
        let error = write_atomically(&link, "x").unwrap_err().to_string();
        assert!(error.contains("is a link to a character device"), "{error}");
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        // Only the refusal is checked against the real device.
        let error = check_writable(Path::new("/dev/null"))
            .unwrap_err()
            .to_string();
        assert!(error.contains("is a character device"), "{error}");
    }

    #[test]
    fn temporary_files_of_dead_writers_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("save.json");
        // No process has id 4294967295 (above any pid limit).
        let stale = dir.path().join(temp_name("save.json", u32::MAX));
        let someone_elses = dir.path().join(".other.json.4294967295.tmp");
        std::fs::write(&stale, "half").unwrap();
        std::fs::write(&someone_elses, "half").unwrap();
        write_atomically(&path, "whole").unwrap();
        assert!(!stale.exists());
        assert!(someone_elses.exists(), "only this target's temporaries");
    }

    #[test]
    fn new_games_take_new_files_and_the_newest_is_found_first() {
        let dir = tempfile::tempdir().unwrap();
        let slots = Slots {
            dir: dir.path().join("saves"),
            legacy: Some(dir.path().join("old.json")),
        };
        let first = slots.new_path("Guilford", 1_748_786_702);
        write_atomically(&first, "{}").unwrap();
        let second = slots.new_path("Guilford", 1_748_786_702);
        assert_ne!(first, second);
        assert!(second.ends_with("guilford-2025-06-01-140502-2.json"));
        write_atomically(&second, "{}").unwrap();
        let older = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
        std::fs::File::options()
            .write(true)
            .open(&first)
            .unwrap()
            .set_modified(older)
            .unwrap();
        assert_eq!(slots.find(None, "foe play").unwrap(), second);
        assert_eq!(
            slots
                .find(Some("guilford-2025-06-01-140502"), "foe play")
                .unwrap(),
            first
        );
        assert_eq!(slots.find(Some("guil"), "foe play").unwrap(), second);
        let error = slots.find(Some("monon"), "foe play").unwrap_err();
        assert!(error.to_string().starts_with("no saved game `monon` in"));
    }
}
