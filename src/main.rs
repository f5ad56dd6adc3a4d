//! The `foe` binary: a thin shell around [`foe::cli::run`].

fn main() {
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let status = foe::cli::run(std::env::args_os(), &mut stdout.lock(), &mut stderr.lock());
    std::process::exit(status);
}
