//! The batching writer ("group commit"): one task takes the pending commands of every game and
//! commits them in one transaction, so a hundred games moving at once cost a few fsyncs, not a
//! hundred. Each command's caller is answered only after the transaction holding it committed.
//! If a batch fails, its commands are retried one transaction each, so one bad command cannot
//! fail the others.

use std::sync::Arc;

use sqlx::AnyPool;
use tokio::sync::{mpsc, oneshot};

use super::{Commit, StoreError, sql};
use crate::metrics::Metrics;

/// One command's writes and where to answer.
pub struct WriteJob {
    /// The writes.
    pub commit: Commit,
    /// Answered after the commit (or the failure).
    pub reply: oneshot::Sender<Result<(), StoreError>>,
}

/// What the writer is sent.
// `Stop` is sent once per process; boxing every job to shrink it would cost an allocation each.
#[allow(clippy::large_enum_variant)]
pub enum WriterMsg {
    /// Commit this.
    Job(WriteJob),
    /// Finish what came before, answer, and stop.
    Stop(oneshot::Sender<()>),
}

/// The writer task: runs until stopped or until every sender is gone.
pub(super) async fn run(
    pool: AnyPool,
    mut rx: mpsc::Receiver<WriterMsg>,
    batch: usize,
    metrics: Arc<Metrics>,
) {
    let mut jobs: Vec<WriteJob> = Vec::with_capacity(batch);
    let mut stop = None;
    while stop.is_none() {
        match rx.recv().await {
            None => break,
            Some(WriterMsg::Stop(done)) => stop = Some(done),
            Some(WriterMsg::Job(job)) => jobs.push(job),
        }
        // Take whatever else is already waiting, up to the batch size.
        while jobs.len() < batch && stop.is_none() {
            match rx.try_recv() {
                Ok(WriterMsg::Job(job)) => jobs.push(job),
                Ok(WriterMsg::Stop(done)) => stop = Some(done),
                Err(_) => break,
            }
        }
        if !jobs.is_empty() {
            commit_batch(&pool, &mut jobs, &metrics).await;
        }
    }
    rx.close();
    if let Some(done) = stop {
        let _ = done.send(());
    }
}

async fn commit_batch(pool: &AnyPool, jobs: &mut Vec<WriteJob>, metrics: &Metrics) {
    let commits: Vec<&Commit> = jobs.iter().map(|j| &j.commit).collect();
    match write(pool, &commits).await {
        Ok(()) => {
            metrics.db_transactions.inc();
            for job in jobs.drain(..) {
                let _ = job.reply.send(Ok(()));
            }
        }
        Err(e) if jobs.len() == 1 => {
            metrics.db_errors.inc();
            tracing::error!(error = %e, game = %jobs[0].commit.game, "commit failed");
            if let Some(job) = jobs.pop() {
                let _ = job.reply.send(Err(e));
            }
        }
        Err(e) => {
            tracing::warn!(error = %e, size = jobs.len(), "batch commit failed; retrying one by one");
            for job in jobs.drain(..) {
                let result = write(pool, &[&job.commit]).await;
                match &result {
                    Ok(()) => {
                        metrics.db_transactions.inc();
                    }
                    Err(e) => {
                        metrics.db_errors.inc();
                        tracing::error!(error = %e, game = %job.commit.game, "commit failed");
                    }
                }
                let _ = job.reply.send(result);
            }
        }
    }
}

async fn write(pool: &AnyPool, commits: &[&Commit]) -> Result<(), StoreError> {
    let mut tx = pool.begin().await?;
    sql::write_batch(&mut tx, commits).await?;
    tx.commit().await?;
    Ok(())
}
