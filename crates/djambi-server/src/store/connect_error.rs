//! Why the database could not be opened, said so that whoever runs the server knows what to do
//! (create the database, the role, fix the password, start Postgres) — never the driver's raw
//! text, which names the source line of the Postgres function that failed.

use super::StoreError;

/// The parts of a `postgres://USER:PASSWORD@HOST:PORT/NAME?…` URL a message names (never the
/// password).
struct Target {
    user: String,
    host: String,
    name: String,
}

impl Target {
    fn of(url: &str) -> Target {
        let rest = url.split_once("://").map_or(url, |(_, r)| r);
        let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
        let (userinfo, host) = authority.rsplit_once('@').unwrap_or(("", authority));
        let user = userinfo.split(':').next().unwrap_or("");
        let name = path.split('?').next().unwrap_or("");
        Target {
            user: if user.is_empty() {
                "(the default)"
            } else {
                user
            }
            .to_string(),
            host: if host.is_empty() { "localhost" } else { host }.to_string(),
            name: if name.is_empty() { user } else { name }.to_string(),
        }
    }
}

/// The error of opening the database at `url`, explained when it is a common mistake.
pub(super) fn explain(error: sqlx::Error, url: &str) -> StoreError {
    if !url.starts_with("postgres") {
        return StoreError::Db(error);
    }
    let t = Target::of(url);
    let help = "see docs/SELF_HOSTING.md, \"Postgres without Docker\"";
    let message = match &error {
        sqlx::Error::Database(db) => match db.code().as_deref() {
            Some("3D000") => format!(
                "the database \"{}\" does not exist on {}: create it (as the postgres user: \
                 createdb -O {} {}) or set DATABASE_URL to an existing one; {help}",
                t.name, t.host, t.user, t.name
            ),
            Some("28P01") => format!(
                "Postgres on {} refused the password of the role \"{}\": check the password in \
                 DATABASE_URL; {help}",
                t.host, t.user
            ),
            Some("28000") => format!(
                "Postgres on {} does not let the role \"{}\" in (no such role, or pg_hba.conf \
                 refuses it): create it (as the postgres user: createuser -P {}); {help}",
                t.host, t.user, t.user
            ),
            _ => return StoreError::Db(error),
        },
        sqlx::Error::Io(_) | sqlx::Error::PoolTimedOut => format!(
            "cannot reach Postgres at {}: is it running and listening there? ({error}); {help}",
            t.host
        ),
        _ => return StoreError::Db(error),
    };
    StoreError::Unusable(message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_is_read_without_its_password() {
        let t = Target::of("postgres://djambi:s3cret@db.example:5432/games?sslmode=require");
        assert_eq!(
            (t.user.as_str(), t.host.as_str(), t.name.as_str()),
            ("djambi", "db.example:5432", "games")
        );
        let t = Target::of("postgres://postgres@127.0.0.1/");
        assert_eq!(t.name, "postgres");
    }
}
