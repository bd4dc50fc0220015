//! Many MSMs in one call ([`GpuMsm::run_batch`]): each with its own points, in host memory or
//! resident on the device, and its own scalars. Today they run one after another on the same
//! device buffers; the signature leaves room for packing them into one pass of each stage.

use super::points::Layout;
use super::resident::Bases;
use super::{GpuMsm, MsmOutput, RunOptions};
use crate::{GpuContext, GpuError};

/// Where one MSM of a batch takes its points from.
#[derive(Debug)]
pub enum Points<'a, L> {
    /// Points in host memory, uploaded for this MSM.
    Host(&'a [L]),
    /// Bases already on the device ([`GpuMsm::upload_bases`]).
    Resident(&'a Bases<L>),
}

impl<L> Clone for Points<'_, L> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<L> Copy for Points<'_, L> {}

/// One MSM of [`GpuMsm::run_batch`]: its points and its scalars.
pub struct BatchMsm<'a, L: Layout> {
    /// The points, in host memory or resident.
    pub points: Points<'a, L>,
    /// One scalar per point.
    pub scalars: &'a [L::Scalar],
}

impl<L: Layout> Clone for BatchMsm<'_, L> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<L: Layout> Copy for BatchMsm<'_, L> {}

impl GpuMsm {
    /// One MSM per entry of `msms`, each with its own points (host or resident, of any size) and
    /// scalars, in order; an error names the MSM it came from ([`GpuError::InBatch`]). They run
    /// one after another on the same device buffers; resident points are not moved again.
    pub async fn run_batch<L: Layout>(
        &self,
        ctx: &GpuContext,
        msms: &[BatchMsm<'_, L>],
        options: &RunOptions,
    ) -> Result<Vec<MsmOutput<L::Output>>, GpuError> {
        let mut out = Vec::with_capacity(msms.len());
        for (i, msm) in msms.iter().enumerate() {
            let one = match msm.points {
                Points::Host(points) => self.run_host(ctx, points, msm.scalars, options).await,
                Points::Resident(bases) => {
                    self.run_resident(ctx, bases, msm.scalars, options).await
                }
            };
            out.push(one.map_err(|e| GpuError::InBatch {
                msm: i,
                error: Box::new(e),
            })?);
        }
        Ok(out)
    }
}
