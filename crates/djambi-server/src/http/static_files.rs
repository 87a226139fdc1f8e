//! The browser client from `web/`: static files, and `index.html` for the client's own pages
//! (`/`, `/rules`, `/game/{id}`, `/game/{id}/replay`: the client routes by path, so a reload or a
//! shared link of any of them works). Without a `web/` folder every such path is a clean 404.

use std::path::Path;

use axum::Router;
use axum::routing::get_service;
use tower_http::services::{ServeDir, ServeFile};

use crate::AppState;
use crate::error::AppError;

pub(super) fn router(web_dir: &Path) -> Router<AppState> {
    let index = ServeFile::new(web_dir.join("index.html"));
    let files = ServeDir::new(web_dir)
        .append_index_html_on_directories(true)
        .fallback(get_service(tower::service_fn(|_req| async {
            Ok::<_, std::convert::Infallible>(axum::response::IntoResponse::into_response(
                AppError::NotFound("no such page".into()),
            ))
        })));
    Router::new()
        .route_service("/rules", index.clone())
        .route_service("/game/{id}", index.clone())
        .route_service("/game/{id}/replay", index)
        .fallback_service(files)
}
