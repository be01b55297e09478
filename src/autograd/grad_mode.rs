//! Thread-local grad modes: `no_grad`, `enable_grad`, `inference_mode`.

use std::cell::Cell;

thread_local! {
    static GRAD_ENABLED: Cell<bool> = const { Cell::new(true) };
    static INFERENCE: Cell<bool> = const { Cell::new(false) };
}

/// Whether ops record autograd history on this thread.
pub fn is_grad_enabled() -> bool {
    GRAD_ENABLED.with(|g| g.get())
}

/// Set grad mode on this thread; returns the previous value.
pub fn set_grad_enabled(on: bool) -> bool {
    GRAD_ENABLED.with(|g| g.replace(on))
}

pub fn is_inference_mode() -> bool {
    INFERENCE.with(|g| g.get())
}

/// Set inference mode on this thread; returns the previous value.
pub fn set_inference_mode(on: bool) -> bool {
    INFERENCE.with(|g| g.replace(on))
}

/// Restores the previous grad mode when dropped.
pub struct GradModeGuard(bool);

impl GradModeGuard {
    pub fn new(on: bool) -> Self {
        GradModeGuard(set_grad_enabled(on))
    }
}

impl Drop for GradModeGuard {
    fn drop(&mut self) {
        set_grad_enabled(self.0);
    }
}

static ANOMALY: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Anomaly mode: when on with `check_nan`, the engine names the first node whose backward
/// produced NaN/Inf.
pub fn set_anomaly(enabled: bool, check_nan: bool) {
    ANOMALY.store(u8::from(enabled) | (u8::from(check_nan) << 1), std::sync::atomic::Ordering::Relaxed);
}

/// (enabled, check_nan).
pub fn anomaly() -> (bool, bool) {
    let v = ANOMALY.load(std::sync::atomic::Ordering::Relaxed);
    (v & 1 != 0, v & 2 != 0)
}

/// Grad mode off and forward-AD tangents suspended until dropped: an op computing its value
/// with other ops before recording its own node (and its own tangent).
pub struct RawGuard(#[allow(dead_code)] GradModeGuard, #[allow(dead_code)] super::forward::SuspendGuard);

/// Enter raw mode (see `RawGuard`).
pub fn raw_mode() -> RawGuard {
    RawGuard(GradModeGuard::new(false), super::forward::SuspendGuard::new(true))
}
