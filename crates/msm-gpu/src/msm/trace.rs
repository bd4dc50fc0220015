//! A host-side timeline of one MSM: when each upload call, submit and wait began and ended on the
//! caller's clock. GPU timestamps say how long the kernels ran; in a browser most of an MSM's time
//! can be elsewhere (writeBuffer copying the input through the page's channel to the GPU process,
//! map round trips), and only the host's clock sees that.

/// One interval of the host's work or waiting, in seconds from the MSM's start.
#[derive(Clone, Debug, PartialEq)]
pub struct HostSpan {
    /// What the host did: e.g. `write_buffer points_in`, `submit batch 0`, `read-back: map wait`.
    pub what: String,
    /// Seconds from the MSM's start.
    pub start: f64,
    /// Seconds from the MSM's start.
    pub end: f64,
}

/// Collects [`HostSpan`]s when on; when off, neither reads the clock nor allocates.
pub(super) struct Trace<'a> {
    now: &'a dyn Fn() -> f64,
    origin: f64,
    spans: Option<Vec<HostSpan>>,
}

impl<'a> Trace<'a> {
    /// A trace whose times count from `origin` (a reading of `now`).
    pub(super) fn new(now: &'a dyn Fn() -> f64, origin: f64, on: bool) -> Self {
        Self {
            now,
            origin,
            spans: on.then(Vec::new),
        }
    }

    /// The clock, for the start of a span (0 when off: the clock is not read).
    pub(super) fn start(&self) -> f64 {
        if self.spans.is_some() {
            (self.now)()
        } else {
            0.0
        }
    }

    /// Records `what` from `start` (from [`Trace::start`]) to now. `what` is built only when on.
    pub(super) fn end(&mut self, start: f64, what: impl FnOnce() -> String) {
        if let Some(spans) = &mut self.spans {
            let end = (self.now)();
            spans.push(HostSpan {
                what: what(),
                start: start - self.origin,
                end: end - self.origin,
            });
        }
    }

    /// The spans so far, in the order they ended (empty when off).
    pub(super) fn spans(&mut self) -> Vec<HostSpan> {
        self.spans.as_mut().map(std::mem::take).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn records_relative_times_only_when_on() {
        let t = Cell::new(10.0);
        let now = || {
            t.set(t.get() + 1.0);
            t.get()
        };
        let mut on = Trace::new(&now, 10.0, true);
        let s = on.start();
        on.end(s, || "a".into());
        assert_eq!(
            on.spans(),
            vec![HostSpan {
                what: "a".into(),
                start: 1.0,
                end: 2.0
            }]
        );
        let before = t.get();
        let mut off = Trace::new(&now, 0.0, false);
        let s = off.start();
        off.end(s, || unreachable!("not built when off"));
        assert!(off.spans().is_empty());
        assert_eq!(t.get(), before, "the clock is not read when off");
    }
}
