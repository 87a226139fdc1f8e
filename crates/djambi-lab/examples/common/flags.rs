//! Command-line flags shared by the lab's examples (`calibrate`, `eval_fit`), included with
//! `#[path]`: cargo builds only `examples/*.rs` and `examples/*/main.rs` as examples, so this
//! file is a module of each, not an example of its own.

/// The value after `name` on the command line (`--games 200`), or `default` when the flag is
/// absent. A flag without a value, or with one that does not parse, ends the program with a
/// message and exit code 2: a typo must not silently run the default.
pub fn arg<T: std::str::FromStr>(name: &str, default: T) -> T
where
    T::Err: std::fmt::Display,
{
    let args: Vec<String> = std::env::args().collect();
    let Some(i) = args.iter().position(|a| a == name) else {
        return default;
    };
    let Some(value) = args.get(i + 1) else {
        fail(&format!("{name} needs a value"))
    };
    value
        .parse()
        .unwrap_or_else(|e| fail(&format!("{name} {value}: {e}")))
}

fn fail(message: &str) -> ! {
    eprintln!("{message}");
    std::process::exit(2)
}
