//! The one error type of the crate; each variant names the Python exception it becomes.
//!
//! `Display` is PyTorch's own text, because user code matches on it.

/// An error from a tensor operation or from the autograd engine.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Becomes `RuntimeError` (shape mismatches, autograd misuse, dtype errors).
    #[error("{0}")]
    Runtime(String),
    /// Becomes `IndexError` (dimension or index out of range).
    #[error("{0}")]
    Index(String),
    /// Becomes `TypeError`.
    #[error("{0}")]
    Type(String),
    /// Becomes `ValueError`.
    #[error("{0}")]
    Value(String),
    /// Becomes `NotImplementedError`.
    #[error("{0}")]
    NotImplemented(String),
    /// An exception raised by user Python code (a hook, a custom Function); re-raised unchanged.
    #[cfg(feature = "python")]
    #[error("{0}")]
    Python(pyo3::PyErr),
}

/// The crate's result type.
pub type Result<T> = std::result::Result<T, Error>;

/// Return early with an error: `bail!(Runtime, "text {}", x)`.
#[macro_export]
macro_rules! bail {
    ($kind:ident, $($arg:tt)*) => {
        return Err($crate::error::Error::$kind(format!($($arg)*)))
    };
}

/// Return early with an error unless a condition holds.
#[macro_export]
macro_rules! ensure {
    ($cond:expr, $kind:ident, $($arg:tt)*) => {
        if !$cond { $crate::bail!($kind, $($arg)*); }
    };
}

impl Error {
    /// A `RuntimeError` with the given text.
    pub fn runtime(msg: impl Into<String>) -> Self {
        Error::Runtime(msg.into())
    }
}
