//! `djambi-server`: configuration → tracing → store → migrations → serve.

use std::time::Duration;

use clap::Parser;
use djambi_server::{AppState, Config, LogFormat, serve};
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
