//! The `foe` binary: a thin shell around [`foe::cli::run`].

// mimalloc: a simulation allocates small records by the million, and its
// allocator serves them markedly faster than the system's (the self-play
// benchmark, `benches/selfplay.rs`). The library leaves the choice to its binaries.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let status = foe::cli::run(std::env::args_os(), &mut stdout.lock(), &mut stderr.lock());
    std::process::exit(status);
}
