//! The journal of a game this node owns among several: every commit carries the fence of this
//! node's ownership (the store refuses it, [`StoreError::Fenced`], once another node has taken
//! the game).

use std::sync::Arc;

use futures_util::FutureExt;
use futures_util::future::BoxFuture;

use super::Cluster;
use crate::game::Journal;
use crate::store::{Commit, Fence, Store, StoreError};

/// Commits under a fence.
pub struct FencedJournal {
    store: Store,
    fence: Fence,
    cluster: Arc<Cluster>,
}

impl FencedJournal {
    /// Commits to `store` under `fence`.
    pub fn new(store: Store, fence: Fence, cluster: Arc<Cluster>) -> FencedJournal {
        FencedJournal {
            store,
            fence,
            cluster,
        }
    }
}

impl Journal for FencedJournal {
    fn commit(&self, mut commit: Commit) -> BoxFuture<'_, Result<(), StoreError>> {
        // Tests alone turn fencing off, to show what it prevents.
        if self.cluster.fencing() {
            commit.fence = Some(self.fence.clone());
        }
        self.store.commit(commit).boxed()
    }
}
