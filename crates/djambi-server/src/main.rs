//! `djambi-server`: configuration → tracing → store → migrations → serve; or, with a
//! subcommand, an administrator's task on the database (`djambi-server circles recompute`).

use std::time::Duration;

use clap::Parser;
use djambi_server::{AppState, CirclesCommand, Command, Config, LogFormat, serve};
use tracing_subscriber::EnvFilter;

/// mimalloc instead of the system allocator: many small, short-lived allocations per socket
/// and per event, and a smaller footprint per idle socket (BENCHMARKS.md, "Capacity").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let config = Config::parse();
    if config.healthcheck {
        // The container's healthcheck: no logs, no database, one request.
        let target = djambi_server::net::probe::local_target(config.bind);
        return match djambi_server::net::probe::ready(target, Duration::from_secs(3)) {
            Ok(()) => std::process::ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("djambi-server --healthcheck: {e}");
                std::process::ExitCode::FAILURE
            }
        };
    }
    init_tracing(&config);
    if let Err(why) = config.check() {
        tracing::error!("{why}");
        eprintln!("djambi-server: {why}");
        return std::process::ExitCode::from(2);
    }
    if let Some(Command::Circles(command)) = &config.command {
        return circles(&config, command).await;
    }
    let bind = config.bind;
    let reachable = config.reachable().announcement(&config);
    let state = match AppState::new(config).await {
        Ok(state) => state,
        Err(e) => {
            tracing::error!(error = %e, "could not start");
            eprintln!("djambi-server: could not start: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let listener = match tokio::net::TcpListener::bind(bind).await {
        Ok(listener) => listener,
        Err(e) => {
            tracing::error!(error = %e, %bind, "could not listen");
            return std::process::ExitCode::FAILURE;
        }
    };
    tracing::info!("{reachable}");
    match serve(listener, state, shutdown_signal()).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!(error = %e, "server failed");
            std::process::ExitCode::FAILURE
        }
    }
}

/// `djambi-server circles recompute`: the circles' places and standings from the logs, each
/// difference printed; exit status 0 when nothing differs, 3 when something does.
async fn circles(config: &Config, command: &CirclesCommand) -> std::process::ExitCode {
    let CirclesCommand::Recompute { circle, repair } = command;
    let metrics = std::sync::Arc::new(djambi_server::metrics::Metrics::default());
    let options = config.store.options(None);
    let store =
        match djambi_server::store::Store::connect(&config.store.database_url, &options, metrics)
            .await
        {
            Ok(store) => store,
            Err(e) => {
                eprintln!("djambi-server: {e}");
                return std::process::ExitCode::FAILURE;
            }
        };
    let report = match store.migrate().await {
        Ok(()) => djambi_server::circle::recompute::recompute(&store, *circle, *repair).await,
        Err(e) => Err(e),
    };
    store.close().await;
    let report = match report {
        Ok(report) => report,
        Err(e) => {
            eprintln!("djambi-server: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    for line in &report.differences {
        println!("{line}");
    }
    if report.pending > 0 {
        println!(
            "{} finished game(s) not read since they ended: their places are computed on the next read{}",
            report.pending,
            if *repair { " (stored now)" } else { "" }
        );
    }
    println!(
        "{} circle(s), {} finished game(s) recomputed from their logs: {}{}",
        report.circles,
        report.games,
        if report.differences.is_empty() {
            "places and standings are as stored and served".to_string()
        } else {
            format!("{} difference(s)", report.differences.len())
        },
        if *repair {
            format!("; {} game(s) repaired", report.repaired)
        } else {
            String::new()
        }
    );
    if report.differences.is_empty() {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::from(3)
    }
}

/// Logs go to stdout, coloured only on a terminal. Nothing logged carries a seat token: tokens
/// travel in request bodies and `hello` messages, which are never logged.
fn init_tracing(config: &Config) {
    use std::io::IsTerminal;
    // tungstenite logs whole frames at trace level, `hello` and its seat token included: keep it
    // at warn, whatever the configured filter says.
    let filter = EnvFilter::try_new(&config.log)
        .unwrap_or_else(|_| EnvFilter::new("info"))
        .add_directive("tungstenite=warn".parse().expect("a valid directive"))
        .add_directive("tokio_tungstenite=warn".parse().expect("a valid directive"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stdout().is_terminal());
    match config.log_format {
        LogFormat::Text => builder.init(),
        LogFormat::Json => builder.json().flatten_event(true).init(),
    }
}

/// SIGINT (Ctrl-C) or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => tracing::info!("SIGINT received"),
        _ = terminate => tracing::info!("SIGTERM received"),
    }
}
