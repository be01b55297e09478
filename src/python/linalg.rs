//! Bindings of `torch.linalg`'s decompositions and solvers (`ferrograd._C._linalg_*`):
//! argument translation only; `ops::linalg` holds the semantics.

use super::tensor::{wrap, PyTensor};
use super::tensor_ops::run;
use crate::ops::linalg as la;
use crate::tensor::Tensor;
use pyo3::prelude::*;

type T<'a> = PyRef<'a, PyTensor>;

fn pair(py: Python<'_>, f: impl FnOnce() -> crate::Result<(Tensor, Tensor)> + Send) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
    let (a, b) = py.detach(|| super::errors::guard(f))?;
    Ok((wrap(py, a)?, wrap(py, b)?))
}

#[pyfunction]
#[pyo3(signature = (a, check_errors, name))]
fn _linalg_inv_ex(py: Python<'_>, a: T<'_>, check_errors: bool, name: String) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
    let a = a.t.clone();
    pair(py, || la::inv_ex(&a, check_errors, &name))
}

#[pyfunction]
fn _linalg_matrix_exp(py: Python<'_>, a: T<'_>) -> PyResult<Py<PyAny>> {
    let a = a.t.clone();
    run(py, a.numel(), || la::matrix_exp(&a))
}

#[pyfunction]
fn _pdist(py: Python<'_>, x: T<'_>, p: f64) -> PyResult<Py<PyAny>> {
    let x = x.t.clone();
    run(py, x.numel(), || la::pdist(&x, p))
}

#[pyfunction]
fn _linalg_det(py: Python<'_>, a: T<'_>, name: String) -> PyResult<Py<PyAny>> {
    let a = a.t.clone();
    run(py, a.numel(), || la::det(&a, &name))
}

#[pyfunction]
fn _linalg_slogdet(py: Python<'_>, a: T<'_>, name: String) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
    let a = a.t.clone();
    pair(py, || la::slogdet(&a, &name))
}

#[pyfunction]
fn _logdet(py: Python<'_>, a: T<'_>) -> PyResult<Py<PyAny>> {
    let a = a.t.clone();
    run(py, a.numel(), || la::logdet(&a))
}

#[pyfunction]
fn _linalg_solve(py: Python<'_>, a: T<'_>, b: T<'_>, left: bool) -> PyResult<Py<PyAny>> {
    let (a, b) = (a.t.clone(), b.t.clone());
    run(py, a.numel() + b.numel(), || la::solve(&a, &b, left))
}

#[pyfunction]
fn _linalg_solve_triangular(py: Python<'_>, a: T<'_>, b: T<'_>, upper: bool, left: bool, unitriangular: bool) -> PyResult<Py<PyAny>> {
    let (a, b) = (a.t.clone(), b.t.clone());
    run(py, a.numel() + b.numel(), || la::solve_triangular(&a, &b, upper, left, unitriangular))
}

/// `legacy`: the deprecated `torch.cholesky` (CholeskyBackward0).
#[pyfunction]
fn _linalg_cholesky_ex(py: Python<'_>, a: T<'_>, upper: bool, check_errors: bool, name: String, legacy: bool) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
    let a = a.t.clone();
    let node = if legacy { "CholeskyBackward0" } else { "LinalgCholeskyExBackward0" };
    pair(py, || la::cholesky_ex(&a, upper, check_errors, &name, node))
}

#[pyfunction]
fn _cholesky_solve(py: Python<'_>, b: T<'_>, l: T<'_>, upper: bool) -> PyResult<Py<PyAny>> {
    let (b, l) = (b.t.clone(), l.t.clone());
    run(py, b.numel() + l.numel(), || la::cholesky_solve(&b, &l, upper))
}

#[pyfunction]
fn _cholesky_inverse(py: Python<'_>, l: T<'_>, upper: bool) -> PyResult<Py<PyAny>> {
    let l = l.t.clone();
    run(py, l.numel(), || la::cholesky_inverse(&l, upper))
}

#[pyfunction]
fn _linalg_qr(py: Python<'_>, a: T<'_>, mode: String) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
    let a = a.t.clone();
    pair(py, || la::qr(&a, &mode))
}

#[pyfunction]
fn _linalg_eigh(py: Python<'_>, a: T<'_>, upper: bool, vectors: bool, name: String) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
    let a = a.t.clone();
    pair(py, || la::eigh(&a, upper, vectors, &name))
}

#[pyfunction]
fn _linalg_svd(py: Python<'_>, a: T<'_>, full_matrices: bool, vectors: bool, name: String) -> PyResult<(Py<PyAny>, Py<PyAny>, Py<PyAny>)> {
    let a = a.t.clone();
    let (u, s, v) = py.detach(|| super::errors::guard(|| la::svd(&a, full_matrices, vectors, &name)))?;
    Ok((wrap(py, u)?, wrap(py, s)?, wrap(py, v)?))
}

#[pyfunction]
#[pyo3(signature = (a, atol, rtol, hermitian))]
fn _linalg_pinv(py: Python<'_>, a: T<'_>, atol: Option<f64>, rtol: Option<f64>, hermitian: bool) -> PyResult<Py<PyAny>> {
    let a = a.t.clone();
    run(py, a.numel(), || la::pinv(&a, atol, rtol, hermitian))
}

#[pyfunction]
fn _cdist(py: Python<'_>, x1: T<'_>, x2: T<'_>, p: f64) -> PyResult<Py<PyAny>> {
    let (x1, x2) = (x1.t.clone(), x2.t.clone());
    run(py, x1.numel() * x2.numel(), || la::cdist(&x1, &x2, p))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_linalg_inv_ex, m)?)?;
    m.add_function(wrap_pyfunction!(_linalg_det, m)?)?;
    m.add_function(wrap_pyfunction!(_linalg_matrix_exp, m)?)?;
    m.add_function(wrap_pyfunction!(_pdist, m)?)?;
    m.add_function(wrap_pyfunction!(_linalg_slogdet, m)?)?;
    m.add_function(wrap_pyfunction!(_logdet, m)?)?;
    m.add_function(wrap_pyfunction!(_linalg_solve, m)?)?;
    m.add_function(wrap_pyfunction!(_linalg_solve_triangular, m)?)?;
    m.add_function(wrap_pyfunction!(_linalg_cholesky_ex, m)?)?;
    m.add_function(wrap_pyfunction!(_cholesky_solve, m)?)?;
    m.add_function(wrap_pyfunction!(_cholesky_inverse, m)?)?;
    m.add_function(wrap_pyfunction!(_linalg_qr, m)?)?;
    m.add_function(wrap_pyfunction!(_linalg_eigh, m)?)?;
    m.add_function(wrap_pyfunction!(_linalg_svd, m)?)?;
    m.add_function(wrap_pyfunction!(_linalg_pinv, m)?)?;
    m.add_function(wrap_pyfunction!(_cdist, m)?)?;
    Ok(())
}
