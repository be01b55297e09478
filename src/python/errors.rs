//! Error mapping: each core `Error` variant becomes the Python exception PyTorch raises.

use crate::error::Error;
use pyo3::exceptions::{PyAssertionError, PyIndexError, PyNotImplementedError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::PyErr;

impl From<Error> for PyErr {
    fn from(e: Error) -> PyErr {
        match e {
            Error::Runtime(m) => PyRuntimeError::new_err(m),
            Error::Index(m) => PyIndexError::new_err(m),
            Error::Type(m) => PyTypeError::new_err(m),
            Error::Value(m) => PyValueError::new_err(m),
            Error::NotImplemented(m) => PyNotImplementedError::new_err(m),
            e @ Error::Unsupported { .. } => PyNotImplementedError::new_err(e.to_string()),
            e @ Error::CudaNotCompiled => PyAssertionError::new_err(e.to_string()),
            e @ Error::OutOfMemory { .. } => subclass("ferrograd.cuda", "OutOfMemoryError", e.to_string()),
            Error::LinAlg(m) => subclass("ferrograd.linalg", "LinAlgError", m),
            e @ (Error::DeviceMismatch { .. }
            | Error::ShapeMismatch { .. }
            | Error::NoCudaDriver
            | Error::InvalidDevice { .. }
            | Error::Cuda(_)
            | Error::HostOutOfMemory { .. }
            | Error::SizeOverflow { .. }
            | Error::Internal(_)) => {
                PyRuntimeError::new_err(e.to_string())
            }
            Error::Python(e) => e,
        }
    }
}

/// A Python exception carried through the Rust engine, re-raised unchanged later.
pub fn from_py(e: PyErr) -> Error {
    Error::Python(e)
}

/// A `RuntimeError` subclass defined in Python: `torch.cuda.OutOfMemoryError` (in
/// `ferrograd.cuda`), `torch.linalg.LinAlgError` (in `ferrograd.linalg`).
fn subclass(module: &str, name: &str, msg: String) -> PyErr {
    Python::attach(|py| {
        match py.import(module).and_then(|m| m.getattr(name)) {
            Ok(cls) => PyErr::from_type(cls.cast_into().map_err(PyErr::from).unwrap_or_else(|_| py.get_type::<PyRuntimeError>()), msg),
            Err(_) => PyRuntimeError::new_err(msg),
        }
    })
}

/// Run core code so that a Rust panic becomes `Error::Internal` (a `RuntimeError`) instead of
/// PyO3's `PanicException`, which `except Exception` does not catch.
pub fn guard<R>(f: impl FnOnce() -> crate::Result<R>) -> crate::Result<R> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|p| {
        let msg = p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned()).unwrap_or_else(|| "a panic".into());
        Err(Error::Internal(msg))
    })
}
