//! Error mapping: each core `Error` variant becomes the Python exception PyTorch raises.

use crate::error::Error;
use pyo3::exceptions::{PyIndexError, PyNotImplementedError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::PyErr;

impl From<Error> for PyErr {
    fn from(e: Error) -> PyErr {
        match e {
            Error::Runtime(m) => PyRuntimeError::new_err(m),
            Error::Index(m) => PyIndexError::new_err(m),
            Error::Type(m) => PyTypeError::new_err(m),
            Error::Value(m) => PyValueError::new_err(m),
            Error::NotImplemented(m) => PyNotImplementedError::new_err(m),
            Error::Python(e) => e,
        }
    }
}

/// A Python exception carried through the Rust engine, re-raised unchanged later.
pub fn from_py(e: PyErr) -> Error {
    Error::Python(e)
}
