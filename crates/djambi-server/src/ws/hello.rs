//! A connection's first words: it must say `hello` (in time, in the protocol's version), with a
//! seat token (a player: wrong tokens count against the address) or without (a spectator: past
//! the address's budget, told to come back later); then it joins its game, wherever the game
//! runs now.

use std::time::Duration;

use axum::extract::ws::close_code;

use super::socket::Connection;
use crate::game::{JoinError, JoinRequest, Joined};
use crate::protocol::{ClientMessage, ErrorCode, PROTOCOL_VERSION, ServerMessage};

/// How long a client has to say `hello`.
const HELLO_TIMEOUT: Duration = Duration::from_secs(10);

impl Connection {
    /// Waits for `hello` and joins the game; `None` if the connection ends first.
    pub(super) async fn hello(&mut self, conn: u64) -> Option<Joined> {
        let deadline = tokio::time::sleep(HELLO_TIMEOUT);
        tokio::pin!(deadline);
        loop {
            if !self.flush().await {
                return None;
            }
            let closing = self.ctx.closing.clone();
            let frame = tokio::select! {
                _ = closing.cancelled() => {
                    self.close(close_code::RESTART, "server restarting").await;
                    return None;
                }
                _ = &mut deadline => {
                    self.error(None, ErrorCode::HelloFirst, "say hello first").await;
                    self.close(close_code::POLICY, "no hello").await;
                    return None;
                }
                frame = self.next_message() => frame?,
            };
            let message = match frame {
                Ok(message) => message,
                Err(refused) => {
                    self.error(refused.ack, refused.code, refused.message).await;
                    continue;
                }
            };
            let ClientMessage::Hello {
                protocol,
                token,
                since,
                chat_since,
                name,
            } = message
            else {
                if matches!(message, ClientMessage::Ping) {
                    self.send_message(&ServerMessage::Pong {
                        now: crate::clock::now_ms(),
                    })
                    .await;
                } else {
                    self.error(message.ack(), ErrorCode::HelloFirst, "say hello first")
                        .await;
                }
                continue;
            };
            if protocol != Some(PROTOCOL_VERSION) {
                let theirs = protocol.unwrap_or(1);
                self.error(
                    None,
                    ErrorCode::Protocol,
                    format!(
                        "this server speaks protocol {PROTOCOL_VERSION}, not {theirs}: reload the page"
                    ),
                )
                .await;
                self.close(close_code::PROTOCOL, "protocol version").await;
                return None;
            }
            if token.is_some()
                && let Err(wait) = self.ctx.budgets.may_try_token(self.peer.ip)
            {
                self.too_many_wrong_tokens(wait).await;
                return None;
            }
            if let (None, Some(wait)) = (&token, self.peer.over_budget) {
                self.error(
                    None,
                    ErrorCode::RateLimited,
                    format!(
                        "too many connections from your address; try again in {} s",
                        wait.as_secs().max(1)
                    ),
                )
                .await;
                self.close(close_code::AGAIN, "too many connections").await;
                return None;
            }
            let request = JoinRequest {
                token,
                name,
                conn,
                since,
                chat_since,
            };
            let first = self.game.join(request.clone()).await;
            let answer = match first {
                Ok(answer) => Ok(answer),
                // The game's actor stopped in between (a finished game unloaded when idle; with
                // several nodes, its owner stopped or died): find it where it runs now.
                Err(_) => {
                    let found = self
                        .registry
                        .with_game(self.game.id(), |game| {
                            let request = request.clone();
                            async move {
                                let answer = game.join(request).await?;
                                Ok((game, answer))
                            }
                        })
                        .await;
                    match found {
                        Ok((game, answer)) => {
                            self.game = game;
                            Ok(answer)
                        }
                        Err(_) => Err(()),
                    }
                }
            };
            match answer {
                Ok(Ok(joined)) => {
                    let bytes = joined.initial.iter().map(|o| o.text.len()).sum();
                    if !self.afford(joined.viewer.role, bytes).await {
                        self.game.leave(&joined.viewer).await;
                        return None;
                    }
                    return Some(joined);
                }
                Ok(Err(JoinError::BadToken)) => {
                    tracing::debug!(ip = %self.peer.ip, game = %self.game.id(), "hello with a wrong seat token");
                    if let Err(wait) = self.ctx.budgets.wrong_token(self.peer.ip) {
                        self.too_many_wrong_tokens(wait).await;
                        return None;
                    }
                    self.error(
                        None,
                        ErrorCode::BadToken,
                        "this is not a seat token of this game",
                    )
                    .await;
                    self.close(close_code::POLICY, "bad token").await;
                    return None;
                }
                Ok(Err(JoinError::BadName(why))) => {
                    self.error(None, ErrorCode::Malformed, format!("name: {why}"))
                        .await;
                }
                Ok(Err(JoinError::Full)) => {
                    self.error(None, ErrorCode::Full, "this game has too many spectators")
                        .await;
                    self.close(close_code::AGAIN, "game full").await;
                    return None;
                }
                Err(_) => {
                    self.close(close_code::RESTART, "game restarting").await;
                    return None;
                }
            }
        }
    }

    async fn too_many_wrong_tokens(&self, wait: Duration) {
        tracing::debug!(ip = %self.peer.ip, "seat tokens refused: too many wrong ones from this address");
        self.error(
            None,
            ErrorCode::RateLimited,
            format!(
                "too many wrong seat tokens from your address; try again in {} s",
                wait.as_secs().max(1)
            ),
        )
        .await;
        self.close(close_code::POLICY, "too many wrong tokens")
            .await;
    }
}
