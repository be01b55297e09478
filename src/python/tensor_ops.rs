//! Tensor op methods: operators, math, reductions, shape ops, in-place variants. Each
//! parses its arguments once and calls the core op; big ops run with the GIL released.

use super::convert::{opt_dtype, py_scalar};
use super::tensor::{operand, shape_args, wrap, PyTensor};
use crate::error::Result as CoreResult;
use crate::backend::UnaryOp;
use crate::ops::{self, BinOp};
use crate::tensor::{Scalar, Tensor};
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

/// Elements above which an op releases the GIL while it runs.
const DETACH_AT: usize = 1 << 15;

/// Run a core op, releasing the GIL when the work is big enough to matter.
pub fn run(py: Python<'_>, work: usize, f: impl FnOnce() -> CoreResult<Tensor> + Send) -> PyResult<Py<PyAny>> {
    let f = || super::errors::guard(f);
    let t = if work >= DETACH_AT { py.detach(f)? } else { f()? };
    wrap(py, t)
}

fn binop(py: Python<'_>, a: &Tensor, other: &Bound<'_, PyAny>, f: fn(&Tensor, &Tensor) -> CoreResult<Tensor>) -> PyResult<Py<PyAny>> {
    if let Ok(b) = other.cast::<PyTensor>() {
        // borrowed: no reference count taken for the common tensor operand
        let b = &b.get().t;
        return run(py, a.numel(), || f(a, b));
    }
    match operand(other)? {
        Some(b) => run(py, a.numel(), || f(a, &b)),
        None => Ok(py.NotImplemented()),
    }
}

/// `a op other` through the core's number path (`ops::number_op`) when `other` is a Python
/// float or int (not a bool, not a NumPy scalar) and the path applies: no tensor is built
/// for the number where no node saves it. `None`: take the general path.
fn number_fast(py: Python<'_>, a: &Tensor, other: &Bound<'_, PyAny>, op: BinOp) -> PyResult<Option<Py<PyAny>>> {
    let number = if other.is_exact_instance_of::<pyo3::types::PyFloat>() {
        other.extract::<f64>().ok().map(Scalar::Float)
    } else if other.is_exact_instance_of::<pyo3::types::PyInt>() {
        other.extract::<i64>().ok().map(Scalar::Int)
    } else {
        None
    };
    let Some(c) = number else { return Ok(None) };
    let r = {
        let f = || super::errors::guard(|| ops::number_op(a, c, op));
        if a.numel() >= DETACH_AT { py.detach(f)? } else { f()? }
    };
    r.map(|t| wrap(py, t)).transpose()
}

/// `binop` for add, sub, mul and div (`op`, computed by `f` in general), with a Python
/// number on the number path (a tensor operand costs two type compares there).
fn arith(py: Python<'_>, a: &Tensor, other: &Bound<'_, PyAny>, f: fn(&Tensor, &Tensor) -> CoreResult<Tensor>, op: BinOp) -> PyResult<Py<PyAny>> {
    if let Some(r) = number_fast(py, a, other, op)? {
        return Ok(r);
    }
    binop(py, a, other, f)
}

fn rbinop(py: Python<'_>, a: &Tensor, other: &Bound<'_, PyAny>, f: fn(&Tensor, &Tensor) -> CoreResult<Tensor>) -> PyResult<Py<PyAny>> {
    match operand(other)? {
        Some(b) => run(py, a.numel(), || f(&b, a)),
        None => Ok(py.NotImplemented()),
    }
}

fn need(other: &Bound<'_, PyAny>) -> PyResult<Tensor> {
    operand(other)?.ok_or_else(|| PyTypeError::new_err(format!("unsupported operand type: '{}'", other.get_type().name().map(|n| n.to_string()).unwrap_or_default())))
}

/// PyTorch's error for an in-place op inside `vmap` that writes a vmapped value into a tensor
/// that is not vmapped.
const VMAP_INPLACE: &str = "vmap: inplace arithmetic(self, *extra_args) is not possible because there exists a Tensor `other` in extra_args that has more elements than `self`. This happened due to `other` being vmapped over but `self` not being vmapped over in a vmap. Please try to use out-of-place operators instead of inplace arithmetic. If said operator is being called inside the PyTorch framework, please file a bug report instead.";

/// `need` for the operand of an in-place method: a vmapped operand (a `func.vmap`
/// BatchedTensor) written into a tensor that is not vmapped is PyTorch's vmap error (the
/// batching rules handle a vmapped `self`; an unbatched one reaches this method).
fn need_inplace(other: &Bound<'_, PyAny>) -> PyResult<Tensor> {
    match operand(other)? {
        Some(t) => Ok(t),
        None if is_batched(other) => Err(PyRuntimeError::new_err(VMAP_INPLACE)),
        None => need(other),
    }
}

fn is_batched(o: &Bound<'_, PyAny>) -> bool {
    o.get_type().name().is_ok_and(|n| n.to_string() == "BatchedTensor")
}

/// `need_inplace` for `add_`/`sub_` (and `+=`/`-=`), where PyTorch's vmap reports the
/// out-of-place result's shape: the batch size in front of the broadcast logical shapes.
fn need_inplace_arith(target: &Tensor, other: &Bound<'_, PyAny>) -> PyResult<Tensor> {
    match operand(other)? {
        Some(t) => Ok(t),
        None if is_batched(other) => {
            let logical: Vec<usize> = other.getattr("shape")?.extract()?;
            let batch: usize = other.getattr("_v")?.getattr("shape")?.get_item(0)?.extract()?;
            let mut full = vec![batch];
            full.extend(crate::shape::broadcast_shapes(&target.shape(), &logical).map(|s| s.to_vec()).unwrap_or(logical));
            Err(PyRuntimeError::new_err(format!("output with shape {} doesn't match the broadcast shape {}",
                crate::shape::fmt_list(&target.shape()), crate::shape::fmt_list(&full))))
        }
        None => need(other),
    }
}

fn floordiv(a: &Tensor, b: &Tensor) -> CoreResult<Tensor> {
    ops::floor_divide(a, b)
}
fn rem(a: &Tensor, b: &Tensor) -> CoreResult<Tensor> {
    ops::remainder(a, b)
}
fn and(a: &Tensor, b: &Tensor) -> CoreResult<Tensor> {
    ops::compare(a, b, BinOp::And)
}
fn or(a: &Tensor, b: &Tensor) -> CoreResult<Tensor> {
    ops::compare(a, b, BinOp::Or)
}
fn xor(a: &Tensor, b: &Tensor) -> CoreResult<Tensor> {
    ops::compare(a, b, BinOp::Xor)
}
fn rdiv(a: &Tensor, b: &Tensor) -> CoreResult<Tensor> {
    // matches torch: `s / x` is `x.reciprocal() * s` (MulBackward0 over ReciprocalBackward0)
    if a.0.is_wrapped_number {
        return ops::mul(&ops::reciprocal(b)?, a);
    }
    ops::div(a, b)
}
fn rsub(a: &Tensor, b: &Tensor) -> CoreResult<Tensor> {
    if a.0.is_wrapped_number {
        return ops::rsub(b, a);
    }
    ops::sub(a, b)
}

/// Write an op's result into `out=` (resizing it if the shape differs) and return `out`.
pub(super) fn into_out(py: Python<'_>, op: &str, r: Tensor, out: &Bound<'_, PyTensor>) -> PyResult<Py<PyAny>> {
    if crate::autograd::forward::tangent(&r).is_some() {
        return Err(pyo3::exceptions::PyNotImplementedError::new_err(format!(
            "Trying to use forward AD with {op}_out that does not support it because it is an out= function")));
    }
    if r.requires_grad() && crate::autograd::is_grad_enabled() {
        return Err(PyRuntimeError::new_err(format!("{op}(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad.")));
    }
    let o = &out.get().t;
    crate::autograd::before_write(o)?;
    if o.shape() == r.shape() {
        let r = if r.dtype() != o.dtype() { ops::cast_raw(&r, o.dtype())? } else { r };
        py.detach(|| ops::write_into(o, &r))?;
        o.bump_version();
    } else {
        if o.numel() > 0 {
            let msg = format!("An output with one or more elements was resized since it had shape {}, which does not match the required output \
                shape {}. This behavior is deprecated, and in a future PyTorch release outputs will not be resized unless they have zero elements. \
                You can explicitly reuse an out tensor t by resizing it, inplace, to zero elements with t.resize_(0).",
                crate::shape::fmt_list(&o.shape()), crate::shape::fmt_list(&r.shape()));
            let cat = py.get_type::<pyo3::exceptions::PyUserWarning>();
            pyo3::PyErr::warn(py, &cat, &std::ffi::CString::new(msg).expect("no NUL in the message"), 1)?;
        }
        let r = ops::cast_raw(&r, o.dtype())?;
        let mut d = o.data().clone();
        let nd = r.data().clone();
        d.storage = nd.storage;
        d.layout = nd.layout;
        o.set_data(d);
    }
    Ok(out.clone().into_any().unbind())
}

/// Run a core op and hand back a new tensor, or write into `out=`.
pub(super) fn run_out(py: Python<'_>, op: &str, work: usize, out: Option<&Bound<'_, PyTensor>>, f: impl FnOnce() -> CoreResult<Tensor> + Send) -> PyResult<Py<PyAny>> {
    match out {
        None => run(py, work, f),
        Some(o) => {
            let f = || super::errors::guard(f);
            let r = if work >= DETACH_AT { py.detach(f)? } else { f()? };
            into_out(py, op, r, o)
        }
    }
}

/// `run_out` for the pointwise ops (TensorIterator's rule): the result's dtype must cast
/// safely into `out`'s (no float into an integer, complex into a real or a number into bool).
pub(super) fn run_out_pointwise(py: Python<'_>, op: &str, work: usize, out: Option<&Bound<'_, PyTensor>>, f: impl FnOnce() -> CoreResult<Tensor> + Send) -> PyResult<Py<PyAny>> {
    let Some(o) = out else { return run(py, work, f) };
    let f = || super::errors::guard(f);
    let r = if work >= DETACH_AT { py.detach(f)? } else { f()? };
    let (from, to) = (r.dtype(), o.get().t.dtype());
    let unsafe_cast = (from.is_complex() && !to.is_complex()) || (from.is_float() && !to.is_float() && !to.is_complex())
        || (from != crate::dtype::DType::Bool && to == crate::dtype::DType::Bool);
    if unsafe_cast {
        return Err(PyRuntimeError::new_err(format!("result type {} can't be cast to the desired output type {}", from.scalar_name(), to.scalar_name())));
    }
    into_out(py, op, r, o)
}

/// `out=` of `a op b` (op one of + - * /; with `alpha`, `a + alpha * b`) written straight into
/// `out`'s buffer when no history or tangent is involved and the fast path applies (see
/// `ops::binary_into_fast`); `None` asks for the general `run_out`.
fn out_fast(py: Python<'_>, a: &Tensor, b: &Tensor, out: Option<&Bound<'_, PyTensor>>, op: BinOp, alpha: Option<f64>) -> PyResult<Option<Py<PyAny>>> {
    let Some(dst) = out else { return Ok(None) };
    let plain = !(crate::autograd::is_grad_enabled() && (a.requires_grad() || b.requires_grad()))
        && crate::autograd::forward::tangent(a).is_none() && crate::autograd::forward::tangent(b).is_none();
    if !plain {
        return Ok(None);
    }
    let d = dst.get().t.clone();
    crate::autograd::before_write(&d)?;
    if py.detach(|| ops::binary_into_fast(&d, a, b, op, alpha))? {
        d.bump_version();
        return Ok(Some(dst.clone().into_any().unbind()));
    }
    Ok(None)
}

/// Dims argument: an int, a sequence of ints, or None.
pub fn dims_arg(o: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Vec<i64>>> {
    match o {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => {
            if let Ok(i) = o.extract::<i64>() {
                return Ok(Some(vec![i]));
            }
            Ok(Some(o.extract::<Vec<i64>>()?))
        }
    }
}

/// Clamp bounds given as tensors (a non-0-dim or requires-grad tensor): the tensor overload.
fn tensor_bounds(min: Option<&Bound<'_, PyAny>>, max: Option<&Bound<'_, PyAny>>) -> Option<(Option<Tensor>, Option<Tensor>)> {
    let t = |o: Option<&Bound<'_, PyAny>>| o.and_then(|o| o.cast::<PyTensor>().ok()).map(|t| t.get().t.clone());
    let (lo, hi) = (t(min), t(max));
    (lo.is_some() || hi.is_some()).then_some((lo, hi))
}

fn scalar_opt(o: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Scalar>> {
    match o {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => match py_scalar(o) {
            Some(s) => Ok(Some(s)),
            None => {
                let t = o.cast::<PyTensor>().map_err(|_| PyTypeError::new_err("clamp(): min/max must be numbers"))?;
                Ok(Some(t.get().t.item()?))
            }
        },
    }
}

fn return_pair(py: Python<'_>, kind: &str, a: Tensor, b: Tensor) -> PyResult<Py<PyAny>> {
    let h = py.import("ferrograd._helpers")?.getattr("_return_type")?;
    Ok(h.call1((kind, wrap(py, a)?, wrap(py, b)?))?.unbind())
}

macro_rules! unary_methods {
    ($($(#[doc = $doc:literal])* $name:ident => $f:expr),* $(,)?) => {
        #[pymethods]
        impl PyTensor {
            $(
                $(#[doc = $doc])*
                #[pyo3(signature = (*, out=None))]
                fn $name(&self, py: Python<'_>, out: Option<&Bound<'_, PyTensor>>) -> PyResult<Py<PyAny>> {
                    let t = &self.t;
                    if let Some(dst) = out {
                        if !(crate::autograd::is_grad_enabled() && t.requires_grad()) && crate::autograd::forward::tangent(t).is_none() {
                            let d = dst.get().t.clone();
                            crate::autograd::before_write(&d)?;
                            if py.detach(|| unary_kernel(stringify!($name)).map_or(Ok(false), |op| ops::unary_into_fast(&d, t, op)))? {
                                d.bump_version();
                                return Ok(dst.clone().into_any().unbind());
                            }
                        }
                    }
                    run_out_pointwise(py, stringify!($name), t.numel(), out, || ($f)(t))
                }
            )*
        }
    };
}

/// The backend op behind a unary method whose float32 `out=` writes straight into the
/// destination: the methods that, on a float32 tensor, are exactly that op.
fn unary_kernel(name: &str) -> Option<crate::backend::UnaryOp> {
    use crate::backend::UnaryOp;
    Some(match name {
        "exp" => UnaryOp::Exp,
        "log" => UnaryOp::Log,
        "log2" => UnaryOp::Log2,
        "log10" => UnaryOp::Log10,
        "log1p" => UnaryOp::Log1p,
        "exp2" => UnaryOp::Exp2,
        "expm1" => UnaryOp::Expm1,
        "tanh" => UnaryOp::Tanh,
        "sigmoid" => UnaryOp::Sigmoid,
        "sqrt" => UnaryOp::Sqrt,
        "rsqrt" => UnaryOp::Rsqrt,
        "reciprocal" => UnaryOp::Reciprocal,
        "sin" => UnaryOp::Sin,
        "cos" => UnaryOp::Cos,
        "tan" => UnaryOp::Tan,
        "asin" => UnaryOp::Asin,
        "acos" => UnaryOp::Acos,
        "atan" => UnaryOp::Atan,
        "sinh" => UnaryOp::Sinh,
        "cosh" => UnaryOp::Cosh,
        "asinh" => UnaryOp::Asinh,
        "acosh" => UnaryOp::Acosh,
        "atanh" => UnaryOp::Atanh,
        "erfc" => UnaryOp::Erfc,
        "sinc" => UnaryOp::Sinc,
        "lgamma" => UnaryOp::Lgamma,
        "digamma" => UnaryOp::Digamma,
        _ => return None,
    })
}

unary_methods! {
    #[doc = "The exponential of the elements."]
    exp => ops::exp,
    #[doc = "The natural logarithm of the elements."]
    log => ops::log,
    #[doc = "The square root of the elements."]
    sqrt => ops::sqrt,
    #[doc = "The reciprocal of the square root of the elements."]
    rsqrt => ops::rsqrt,
    #[doc = "The sine of the elements."]
    sin => ops::sin,
    #[doc = "The cosine of the elements."]
    cos => ops::cos,
    #[doc = "The hyperbolic tangent of the elements."]
    tanh => ops::tanh,
    #[doc = "The logistic sigmoid ``1 / (1 + exp(-x))`` of the elements."]
    sigmoid => ops::sigmoid,
    #[doc = "Rectified linear unit ``max(0, x)`` element-wise."]
    relu => ops::relu,
    #[doc = "Computes the absolute value of each element."]
    abs => ops::abs,
    #[doc = "Returns the negative of the elements."]
    neg => ops::neg,
    #[doc = "Alias for ``neg``."]
    negative => ops::neg,
    #[doc = "The reciprocal ``1 / x`` of the elements."]
    reciprocal => ops::reciprocal,
    #[doc = "The signs (-1, 0, 1) of the elements."]
    sign => ops::sign,
    #[doc = "The complex conjugate (a real tensor is returned as is)."]
    conj => ops::complex::conj,
    #[doc = "The complex conjugate, computed (ferrograd's ``conj`` is never lazy)."]
    conj_physical => ops::complex::conj,
    #[doc = "The tensor itself: ferrograd has no lazy conjugate bit to resolve."]
    resolve_conj => |t: &crate::Tensor| Ok::<_, crate::Error>(t.clone()),
    #[doc = "The tensor itself: ferrograd has no lazy negation bit to resolve."]
    resolve_neg => |t: &crate::Tensor| Ok::<_, crate::Error>(t.clone()),
    #[doc = "The argument (phase) of the elements: ``atan2(imag, real)``; 0 or pi for real tensors."]
    angle => ops::complex::angle,
    #[doc = "``z / |z|`` for complex tensors (0 at 0); ``sign`` for real ones."]
    sgn => ops::complex::sgn,
    #[doc = "The floor of the elements (the largest integer less than or equal to each)."]
    floor => |t| ops::rounding(t, "floor"),
    #[doc = "The ceiling of the elements (the smallest integer greater than or equal to each)."]
    ceil => |t| ops::rounding(t, "ceil"),
    #[doc = "The elements rounded towards zero."]
    trunc => |t| ops::rounding(t, "trunc"),
    #[doc = "``log(1 + x)`` of the elements, accurate near 0."]
    log1p => |t| ops::unary_extra(t, "log1p"),
    #[doc = "``exp(x) - 1`` of the elements, accurate near 0."]
    expm1 => |t| ops::unary_extra(t, "expm1"),
    #[doc = "The complementary error function ``1 - erf(x)`` of the elements (accurate where erf is near 1)."]
    erfc => |t| ops::unary_extra(t, "erfc"),
    #[doc = "The normalised sinc ``sin(pi x) / (pi x)`` of the elements (1 at 0)."]
    sinc => |t| ops::unary_extra(t, "sinc"),
    #[doc = "The fractional parts ``x - trunc(x)`` of the elements (floating tensors only)."]
    frac => |t| ops::unary_extra(t, "frac"),
    #[doc = "The elements converted from degrees to radians."]
    deg2rad => |t| ops::unary_extra(t, "deg2rad"),
    #[doc = "The elements converted from radians to degrees."]
    rad2deg => |t| ops::unary_extra(t, "rad2deg"),
    #[doc = "The logarithm to the base 2 of the elements."]
    log2 => |t| ops::unary_extra(t, "log2"),
    #[doc = "``2 ** x`` of the elements."]
    exp2 => |t| ops::unary_extra(t, "exp2"),
    #[doc = "The logarithm to the base 10 of the elements."]
    log10 => |t| ops::unary_extra(t, "log10"),
    #[doc = "The tangent of the elements."]
    tan => |t| ops::unary_extra(t, "tan"),
    #[doc = "The arctangent of the elements."]
    atan => |t| ops::unary_extra(t, "atan"),
    #[doc = "The inverse hyperbolic sine of the elements."]
    asinh => |t| ops::unary_extra(t, "asinh"),
    #[doc = "The inverse hyperbolic cosine of the elements (NaN below 1)."]
    acosh => |t| ops::unary_extra(t, "acosh"),
    #[doc = "The inverse hyperbolic tangent of the elements (±inf at ±1, NaN beyond)."]
    atanh => |t| ops::unary_extra(t, "atanh"),
    #[doc = "``ln |Γ(x)|`` of the elements."]
    lgamma => |t| ops::unary_extra(t, "lgamma"),
    #[doc = "The digamma function ``ψ(x) = d/dx ln Γ(x)`` of the elements."]
    digamma => |t| ops::unary_extra(t, "digamma"),
    #[doc = "The arcsine of the elements."]
    asin => |t| ops::unary_extra(t, "asin"),
    #[doc = "The arccosine of the elements."]
    acos => |t| ops::unary_extra(t, "acos"),
    #[doc = "The hyperbolic sine of the elements."]
    sinh => |t| ops::unary_extra(t, "sinh"),
    #[doc = "The hyperbolic cosine of the elements."]
    cosh => |t| ops::unary_extra(t, "cosh"),
    #[doc = "The error function of the elements."]
    erf => ops::nn_layers::erf,
    #[doc = "The inverse error function of the elements (±inf at ±1, NaN beyond)."]
    erfinv => ops::nn_layers::erfinv,
    #[doc = "The square of the elements."]
    square => |t| ops::unary_extra(t, "square"),
    #[doc = "Element-wise logical NOT, as a bool tensor."]
    logical_not => ops::logical_not,
    #[doc = "Which elements are NaN, as a bool tensor."]
    isnan => |t| ops::float_test(t, "isnan"),
    #[doc = "Which elements are positive or negative infinity, as a bool tensor."]
    isinf => |t| ops::float_test(t, "isinf"),
    #[doc = "Which elements are finite (not NaN nor infinite), as a bool tensor."]
    isfinite => |t| ops::float_test(t, "isfinite"),
    #[doc = "Transpose a tensor of at most 2 dimensions (0-d and 1-d tensors are returned as is)."]
    t => ops::t,
}

macro_rules! binary_methods {
    ($($(#[doc = $doc:literal])* $name:ident => $f:expr),* $(,)?) => {
        #[pymethods]
        impl PyTensor {
            $(
                $(#[doc = $doc])*
                #[pyo3(signature = (other, *, out=None))]
                fn $name(&self, py: Python<'_>, other: &Bound<'_, PyAny>, out: Option<&Bound<'_, PyTensor>>) -> PyResult<Py<PyAny>> {
                    let t = &self.t;
                    let fast_op = match stringify!($name) {
                        "mul" | "multiply" => Some(BinOp::Mul),
                        "true_divide" => Some(BinOp::Div),
                        _ => None,
                    };
                    if let (Some(op), None) = (fast_op, out) {
                        if let Some(r) = number_fast(py, t, other, op)? {
                            return Ok(r);
                        }
                    }
                    let o = need(other)?;
                    if let Some(op) = fast_op {
                        if let Some(r) = out_fast(py, t, &o, out, op, None)? {
                            return Ok(r);
                        }
                    }
                    run_out_pointwise(py, stringify!($name), t.numel(), out, || ($f)(t, &o))
                }
            )*
        }
    };
}

binary_methods! {
    #[doc = "Multiplies ``self`` by ``other`` element-wise."]
    mul => ops::mul,
    #[doc = "Alias for ``mul``."]
    multiply => ops::mul,
    #[doc = "Alias for ``div`` with ``rounding_mode=None``."]
    true_divide => ops::div,
    #[doc = "Element-wise ``self == other`` as a bool tensor."]
    eq => |a, b| ops::compare(a, b, BinOp::Eq),
    #[doc = "Element-wise ``self != other`` as a bool tensor."]
    ne => |a, b| ops::compare(a, b, BinOp::Ne),
    #[doc = "Element-wise ``self < other`` as a bool tensor."]
    lt => |a, b| ops::compare(a, b, BinOp::Lt),
    #[doc = "Element-wise ``self <= other`` as a bool tensor."]
    le => |a, b| ops::compare(a, b, BinOp::Le),
    #[doc = "Element-wise ``self > other`` as a bool tensor."]
    gt => |a, b| ops::compare(a, b, BinOp::Gt),
    #[doc = "Element-wise ``self >= other`` as a bool tensor."]
    ge => |a, b| ops::compare(a, b, BinOp::Ge),
    #[doc = "Divides and rounds the result down (``torch.div(a, b, rounding_mode=\"floor\")``)."]
    floor_divide => floordiv,
    #[doc = "Python's modulus: the remainder has the sign of the divisor."]
    remainder => rem,
    #[doc = "C's ``fmod``: the remainder has the sign of the dividend."]
    fmod => ops::fmod,
    #[doc = "The magnitudes of ``self`` with the signs of ``other`` (integers give floats)."]
    copysign => ops::copysign,
    #[doc = "Bitwise AND of integer or bool tensors."]
    bitwise_and => and,
    #[doc = "Bitwise OR of integer or bool tensors."]
    bitwise_or => or,
    #[doc = "Bitwise XOR of integer or bool tensors."]
    bitwise_xor => xor,
}

/// `t.conj()` of a complex tensor object (a real one is returned as it is).
fn conj_of(py: Python<'_>, t: Py<PyAny>) -> PyResult<Py<PyAny>> {
    let b = t.bind(py).cast::<PyTensor>()?;
    if !b.get().t.dtype().is_complex() {
        return Ok(t);
    }
    let c = ops::complex::conj(&b.get().t)?;
    wrap(py, c)
}

fn user_warning(py: Python<'_>, msg: &str) -> PyResult<()> {
    let c = std::ffi::CString::new(msg).expect("no NUL");
    PyErr::warn(py, &py.get_type::<pyo3::exceptions::PyUserWarning>(), &c, 1)
}

impl PyTensor {
    /// `mT` / `mH`: the last two dims swapped (0-dim: itself, with torch's deprecation warning).
    fn matrix_transpose(slf: &Bound<'_, Self>, attr: &str, zero_dim_hint: &str) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        let t = &slf.get().t;
        match t.dim() {
            0 => {
                user_warning(py, &format!("Tensor.{attr} is deprecated on 0-D tensors. {zero_dim_hint}"))?;
                Ok(slf.clone().into_any().unbind())
            }
            1 => Err(PyRuntimeError::new_err(format!("tensor.{attr} is only supported on matrices or batches of matrices. Got 1-D tensor."))),
            _ => wrap(py, ops::transpose(t, -2, -1)?),
        }
    }
}

/// torch's text for an argument that must be a tensor: `maximum(): argument 'other'
/// (position 1) must be Tensor, not int` (non-builtin types by their qualified name).
pub(crate) fn not_tensor(fname: &str, arg: &str, pos: usize, v: &Bound<'_, PyAny>) -> PyErr {
    let ty = v.get_type();
    let name = ty.name().map(|n| n.to_string()).unwrap_or_default();
    let module = ty.module().map(|m| m.to_string()).unwrap_or_default();
    let shown = if module.is_empty() || module == "builtins" { name } else { format!("{module}.{name}") };
    PyTypeError::new_err(format!("{fname}(): argument '{arg}' (position {pos}) must be Tensor, not {shown}"))
}

/// Binary methods whose second operand must be a tensor (torch takes no number there).
macro_rules! tensor_binary_methods {
    ($($(#[doc = $doc:literal])* $name:ident($arg:literal) => $f:expr),* $(,)?) => {
        #[pymethods]
        impl PyTensor {
            $(
                $(#[doc = $doc])*
                #[pyo3(signature = (other, *, out=None))]
                fn $name(&self, py: Python<'_>, other: &Bound<'_, PyAny>, out: Option<&Bound<'_, PyTensor>>) -> PyResult<Py<PyAny>> {
                    let t = &self.t;
                    let o = match other.cast::<PyTensor>() {
                        Ok(o) => o.get().t.clone(),
                        Err(_) => return Err(not_tensor(stringify!($name), $arg, 1, other)),
                    };
                    run_out_pointwise(py, stringify!($name), t.numel(), out, || ($f)(t, &o))
                }
            )*
        }
    };
}

tensor_binary_methods! {
    #[doc = "Element-wise logical AND (zero is ``False``), as a bool tensor."]
    logical_and("other") => |a: &Tensor, b: &Tensor| ops::logical(a, b, BinOp::And),
    #[doc = "Element-wise logical OR, as a bool tensor."]
    logical_or("other") => |a: &Tensor, b: &Tensor| ops::logical(a, b, BinOp::Or),
    #[doc = "Element-wise logical XOR, as a bool tensor."]
    logical_xor("other") => |a: &Tensor, b: &Tensor| ops::logical(a, b, BinOp::Xor),
    #[doc = "Element-wise arctangent of ``self / other`` with the quadrant taken into account."]
    atan2("other") => ops::atan2,
    #[doc = "Alias for ``atan2``."]
    arctan2("other") => ops::atan2,
    #[doc = "``sqrt(self ** 2 + other ** 2)`` element-wise, without intermediate overflow."]
    hypot("other") => ops::hypot,
    #[doc = "``log(exp(self) + exp(other))`` element-wise, computed stably."]
    logaddexp("other") => |a: &Tensor, b: &Tensor| ops::logaddexp(a, b, false),
    #[doc = "``log2(2 ** self + 2 ** other)`` element-wise, computed stably."]
    logaddexp2("other") => |a: &Tensor, b: &Tensor| ops::logaddexp(a, b, true),
    #[doc = "The next floating-point value after each element of ``self`` towards ``other``."]
    nextafter("other") => ops::nextafter,
    #[doc = "The Heaviside step function: 0 below 0, 1 above, ``values`` where ``self`` is 0."]
    heaviside("values") => ops::heaviside,
    #[doc = "The element-wise maximum of ``self`` and ``other`` (NaN propagates)."]
    maximum("other") => ops::maximum,
    #[doc = "The element-wise minimum of ``self`` and ``other`` (NaN propagates)."]
    minimum("other") => ops::minimum,
    #[doc = "Matrix product with PyTorch's rules for 1-d, 2-d and batched (broadcast) operands."]
    matmul("other") => |a: &Tensor, b: &Tensor| crate::autocast::lower2(a, b, ops::matmul),
    #[doc = "Matrix product of two 2-d tensors (no broadcasting)."]
    mm("mat2") => |a: &Tensor, b: &Tensor| crate::autocast::lower2(a, b, ops::mm),
    #[doc = "Batched matrix product of two 3-d tensors with the same batch size."]
    bmm("mat2") => |a: &Tensor, b: &Tensor| crate::autocast::lower2(a, b, ops::bmm),
    #[doc = "Matrix-vector product."]
    mv("vec") => |a: &Tensor, b: &Tensor| crate::autocast::lower2(a, b, ops::mv),
    #[doc = "Dot product of two 1-d tensors."]
    dot("tensor") => |a: &Tensor, b: &Tensor| crate::autocast::lower2(a, b, ops::dot),
    #[doc = "The Kronecker product of ``self`` and ``other`` (the block tensor of ``self[i] * other``)."]
    kron("other") => ops::nn_layers::kron,
}

macro_rules! inplace_binary {
    ($($(#[doc = $doc:literal])* $name:ident => $f:expr),* $(,)?) => {
        #[pymethods]
        impl PyTensor {
            $(
                $(#[doc = $doc])*
                fn $name<'py>(slf: &Bound<'py, Self>, other: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
                    let o = need_inplace(other)?;
                    let t = &slf.get().t;
                    ops::assert_no_partial_overlap(t, &o)?;
                    ops::inplace(t, |inp| ($f)(inp, &o))?;
                    Ok(slf.clone())
                }
            )*
        }
    };
}

inplace_binary! {
    #[doc = "In-place version of ``pow``."]
    pow_ => ops::pow,
}

#[pymethods]
impl PyTensor {
    /// Copy the elements of ``other`` (broadcastable, any dtype) into ``self``; returns ``self``.
    #[pyo3(signature = (other, non_blocking=false))]
    fn copy_<'py>(slf: &Bound<'py, Self>, other: &Bound<'py, PyAny>, non_blocking: bool) -> PyResult<Bound<'py, Self>> {
        // (every copy here completes before returning: `non_blocking` only permits overlap)
        let _ = non_blocking;
        let o = need_inplace(other)?;
        let t = &slf.get().t;
        ops::assert_no_partial_overlap(t, &o)?;
        ops::copy_(t, &o)?;
        Ok(slf.clone())
    }
    /// In-place version of ``relu``.
    fn relu_<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, Self>> {
        let t = &slf.get().t;
        ops::check_relu_dtype(t)?;
        ops::inplace_unary(t, UnaryOp::Relu, ops::relu)?;
        Ok(slf.clone())
    }
}

macro_rules! inplace_unary {
    ($($(#[doc = $doc:literal])* $name:ident => $f:expr, $op:expr),* $(,)?) => {
        #[pymethods]
        impl PyTensor {
            $(
                $(#[doc = $doc])*
                fn $name<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, Self>> {
                    let t = &slf.get().t;
                    ops::inplace_unary(t, $op, |inp| ($f)(inp))?;
                    Ok(slf.clone())
                }
            )*
        }
    };
}

inplace_unary! {
    #[doc = "In-place version of ``exp``."]
    exp_ => ops::exp, UnaryOp::Exp,
    #[doc = "In-place version of ``log``."]
    log_ => ops::log, UnaryOp::Log,
    #[doc = "In-place version of ``sqrt``."]
    sqrt_ => ops::sqrt, UnaryOp::Sqrt,
    #[doc = "In-place version of ``neg``."]
    neg_ => ops::neg, UnaryOp::Neg,
    #[doc = "In-place version of ``abs``."]
    abs_ => ops::abs_for_inplace, UnaryOp::Abs,
    #[doc = "In-place version of ``sigmoid``."]
    sigmoid_ => ops::sigmoid, UnaryOp::Sigmoid,
    #[doc = "In-place version of ``tanh``."]
    tanh_ => ops::tanh, UnaryOp::Tanh,
    #[doc = "In-place version of ``sin``."]
    sin_ => ops::sin, UnaryOp::Sin,
    #[doc = "In-place version of ``cos``."]
    cos_ => ops::cos, UnaryOp::Cos,
    #[doc = "In-place version of ``reciprocal``."]
    reciprocal_ => ops::reciprocal, UnaryOp::Reciprocal,
    #[doc = "In-place version of ``floor``."]
    floor_ => |t| ops::rounding(t, "floor"), UnaryOp::Floor,
}

#[pymethods]
impl PyTensor {
    fn __add__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> { arith(py, &self.t, o, ops::add, BinOp::Add) }
    // matches torch: `s + x` is `x.add(s)`, so the tensor's edge comes first
    fn __radd__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> { arith(py, &self.t, o, ops::add, BinOp::Add) }
    fn __sub__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> { arith(py, &self.t, o, ops::sub, BinOp::Sub) }
    fn __rsub__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> { rbinop(py, &self.t, o, rsub) }
    fn __mul__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> { arith(py, &self.t, o, ops::mul, BinOp::Mul) }
    fn __rmul__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> { arith(py, &self.t, o, ops::mul, BinOp::Mul) }
    fn __truediv__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> { arith(py, &self.t, o, ops::div, BinOp::Div) }
    fn __rtruediv__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> { rbinop(py, &self.t, o, rdiv) }
    fn __floordiv__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> { binop(py, &self.t, o, floordiv) }
    fn __rfloordiv__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> { rbinop(py, &self.t, o, floordiv) }
    fn __mod__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> { binop(py, &self.t, o, rem) }
    fn __rmod__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> { rbinop(py, &self.t, o, rem) }
    fn __matmul__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        match o.cast::<PyTensor>() { Ok(b) => { let b = b.get().t.clone(); let a = &self.t; Ok(py.detach(|| crate::autocast::lower2(a, &b, ops::matmul)).map_err(PyErr::from).and_then(|t| wrap(py, t))?) } Err(_) => Ok(py.NotImplemented()) }
    }
    fn __rmatmul__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        match o.cast::<PyTensor>() { Ok(b) => { let b = b.get().t.clone(); wrap(py, crate::autocast::lower2(&b, &self.t, ops::matmul)?) } Err(_) => Ok(py.NotImplemented()) }
    }
    fn __and__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> { binop(py, &self.t, o, and) }
    fn __rand__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> { rbinop(py, &self.t, o, and) }
    fn __or__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> { binop(py, &self.t, o, or) }
    fn __ror__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> { rbinop(py, &self.t, o, or) }
    fn __xor__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> { binop(py, &self.t, o, xor) }
    fn __rxor__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> { rbinop(py, &self.t, o, xor) }
    fn __neg__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> { wrap(py, ops::neg(&self.t)?) }
    fn __pos__(slf: Py<Self>) -> Py<Self> { slf }
    fn __abs__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> { wrap(py, ops::abs(&self.t)?) }
    fn __invert__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        if self.t.dtype().is_float() || self.t.dtype().is_complex() {
            return Err(PyTypeError::new_err("~ (operator.invert) is only implemented on integer and Boolean-type tensors"));
        }
        wrap(py, ops::bitwise_not(&self.t)?)
    }
    fn __pow__(&self, py: Python<'_>, other: &Bound<'_, PyAny>, modulo: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
        let _ = modulo;
        binop(py, &self.t, other, ops::pow)
    }
    fn __rpow__(&self, py: Python<'_>, other: &Bound<'_, PyAny>, modulo: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
        let _ = modulo;
        rbinop(py, &self.t, other, ops::pow)
    }
    fn __richcmp__(&self, py: Python<'_>, other: &Bound<'_, PyAny>, op: pyo3::basic::CompareOp) -> PyResult<Py<PyAny>> {
        use pyo3::basic::CompareOp::*;
        let Some(b) = operand(other)? else { return Ok(py.NotImplemented()) };
        let k = match op { Lt => BinOp::Lt, Le => BinOp::Le, Eq => BinOp::Eq, Ne => BinOp::Ne, Gt => BinOp::Gt, Ge => BinOp::Ge };
        wrap(py, ops::compare(&self.t, &b, k)?)
    }
    fn __iadd__(&self, other: &Bound<'_, PyAny>) -> PyResult<()> {
        let o = need_inplace_arith(&self.t, other)?;
        Ok(ops::inplace_binary(&self.t, &o, BinOp::Add, ops::add)?)
    }
    /// In-place version of ``mul``.
    fn mul_<'py>(slf: &Bound<'py, Self>, other: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        let o = need_inplace(other)?;
        ops::inplace_binary(&slf.get().t, &o, BinOp::Mul, ops::mul)?;
        Ok(slf.clone())
    }
    fn __imul__(&self, other: &Bound<'_, PyAny>) -> PyResult<()> {
        let o = need_inplace(other)?;
        Ok(ops::inplace_binary(&self.t, &o, BinOp::Mul, ops::mul)?)
    }
    fn __itruediv__(&self, other: &Bound<'_, PyAny>) -> PyResult<()> {
        let o = need_inplace(other)?;
        Ok(ops::inplace_binary(&self.t, &o, BinOp::Div, ops::div)?)
    }
    fn __isub__(&self, other: &Bound<'_, PyAny>) -> PyResult<()> {
        let o = need_inplace_arith(&self.t, other)?;
        // torch refuses the in-place write (a leaf, a view of one) before the bool operands
        ops::check_inplace(&self.t)?;
        ops::sub_check(&self.t, &o)?;
        Ok(ops::inplace_binary(&self.t, &o, BinOp::Sub, ops::sub)?)
    }

    /// Adds ``other``, scaled by ``alpha``, to ``self`` (broadcasting, type promotion).
    #[pyo3(signature = (other, alpha=None, *, out=None))]
    fn add(&self, py: Python<'_>, other: &Bound<'_, PyAny>, alpha: Option<&Bound<'_, PyAny>>, out: Option<&Bound<'_, PyTensor>>) -> PyResult<Py<PyAny>> {
        if alpha.is_none() && out.is_none() {
            if let Some(r) = number_fast(py, &self.t, other, BinOp::Add)? {
                return Ok(r);
            }
        }
        let o = need(other)?;
        let a = alpha.and_then(py_scalar).unwrap_or(Scalar::Int(1));
        let t = &self.t;
        if out.is_some() && !matches!(a, Scalar::Bool(_)) {
            ops::alpha_check(t, &o, a)?;
            let al = (a.as_f64() != 1.0).then(|| a.as_f64());
            if let Some(r) = out_fast(py, t, &o, out, BinOp::Add, al)? {
                return Ok(r);
            }
        }
        run_out_pointwise(py, "add", t.numel(), out, || ops::add_scaled(t, &o, a))
    }
    /// Subtracts ``other``, scaled by ``alpha``, from ``self``.
    #[pyo3(signature = (other, alpha=None, *, out=None))]
    fn sub(&self, py: Python<'_>, other: &Bound<'_, PyAny>, alpha: Option<&Bound<'_, PyAny>>, out: Option<&Bound<'_, PyTensor>>) -> PyResult<Py<PyAny>> {
        if alpha.is_none() && out.is_none() {
            if let Some(r) = number_fast(py, &self.t, other, BinOp::Sub)? {
                return Ok(r);
            }
        }
        let o = need(other)?;
        let a = alpha.and_then(py_scalar).unwrap_or(Scalar::Int(1));
        let t = &self.t;
        if out.is_some() && !matches!(a, Scalar::Bool(_)) && t.dtype() != crate::dtype::DType::Bool && o.dtype() != crate::dtype::DType::Bool {
            ops::alpha_check(t, &o, a)?;
            let r = if a.as_f64() == 1.0 { out_fast(py, t, &o, out, BinOp::Sub, None)? } else { out_fast(py, t, &o, out, BinOp::Add, Some(-a.as_f64()))? };
            if let Some(r) = r {
                return Ok(r);
            }
        }
        run_out_pointwise(py, "sub", t.numel(), out, || ops::sub_scaled(t, &o, a))
    }
    /// Divides ``self`` by ``other`` element-wise; ``rounding_mode`` is ``None`` (true
    /// division), ``"trunc"`` or ``"floor"``.
    #[pyo3(signature = (other, *, out=None, **kwargs))]
    fn div(&self, py: Python<'_>, other: &Bound<'_, PyAny>, out: Option<&Bound<'_, PyTensor>>, kwargs: Option<&Bound<'_, pyo3::types::PyDict>>) -> PyResult<Py<PyAny>> {
        if out.is_none() && kwargs.is_none() {
            if let Some(r) = number_fast(py, &self.t, other, BinOp::Div)? {
                return Ok(r);
            }
        }
        let o = need(other)?;
        let t = &self.t;
        let mode = match kwargs {
            None => None,
            Some(kw) => {
                for (k, v) in kw.iter() {
                    let k: String = k.extract()?;
                    if k != "rounding_mode" {
                        let tn = |o: &Bound<'_, PyAny>| o.get_type().name().map(|n| n.to_string()).unwrap_or_default();
                        return Err(PyTypeError::new_err(format!("div() received an invalid combination of arguments - got ({}, {}={}), but expected one of:\n * (Tensor other)\n * (Tensor other, *, str rounding_mode)\n * (Number other, *, str rounding_mode)\n", tn(other), k, tn(&v))));
                    }
                }
                kw.get_item("rounding_mode")?.map(|m| if m.is_none() { Ok(None) } else { m.extract::<String>().map(Some) }).transpose()?
            }
        };
        if matches!(mode, None | Some(None)) {
            if let Some(r) = out_fast(py, t, &o, out, BinOp::Div, None)? {
                return Ok(r);
            }
        }
        match mode {
            None => run_out_pointwise(py, "div", t.numel(), out, || ops::div(t, &o)),
            Some(None) => run_out_pointwise(py, "div", t.numel(), out, || ops::div_named(t, &o, "DivBackward2")),
            Some(Some(m)) if m == "floor" || m == "trunc" => run_out_pointwise(py, "div", t.numel(), out, || ops::div_rounding(t, &o, &m)),
            Some(Some(m)) => Err(PyRuntimeError::new_err(format!("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{m}'"))),
        }
    }
    /// Alias for ``div``.
    #[pyo3(signature = (other, *, out=None, **kwargs))]
    fn divide(&self, py: Python<'_>, other: &Bound<'_, PyAny>, out: Option<&Bound<'_, PyTensor>>, kwargs: Option<&Bound<'_, pyo3::types::PyDict>>) -> PyResult<Py<PyAny>> {
        self.div(py, other, out, kwargs)
    }
    /// Takes the power of each element with ``exponent`` (a number or a broadcastable tensor).
    #[pyo3(signature = (exponent, *, out=None))]
    fn pow(&self, py: Python<'_>, exponent: &Bound<'_, PyAny>, out: Option<&Bound<'_, PyTensor>>) -> PyResult<Py<PyAny>> {
        let o = need(exponent)?;
        let t = &self.t;
        run_out_pointwise(py, "pow", t.numel(), out, || ops::pow(t, &o))
    }
    /// In-place version of ``add``.
    #[pyo3(signature = (other, alpha=None))]
    fn add_<'py>(slf: &Bound<'py, Self>, other: &Bound<'py, PyAny>, alpha: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, Self>> {
        let o = need_inplace_arith(&slf.get().t, other)?;
        let a = alpha.and_then(py_scalar).unwrap_or(Scalar::Int(1));
        if a.as_f64() == 1.0 {
            ops::inplace_binary(&slf.get().t, &o, BinOp::Add, ops::add)?;
        } else {
            ops::inplace_add_scaled(&slf.get().t, &o, a, false)?;
        }
        Ok(slf.clone())
    }
    /// In-place version of ``sub``.
    #[pyo3(signature = (other, alpha=None))]
    fn sub_<'py>(slf: &Bound<'py, Self>, other: &Bound<'py, PyAny>, alpha: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, Self>> {
        let o = need_inplace_arith(&slf.get().t, other)?;
        let a = alpha.and_then(py_scalar).unwrap_or(Scalar::Int(1));
        ops::check_inplace(&slf.get().t)?;
        ops::sub_check(&slf.get().t, &o)?;
        if a.as_f64() == 1.0 {
            ops::inplace_binary(&slf.get().t, &o, BinOp::Sub, ops::sub)?;
        } else {
            ops::inplace_add_scaled(&slf.get().t, &o, a, true)?;
        }
        Ok(slf.clone())
    }
    /// In-place version of ``div``.
    fn div_<'py>(slf: &Bound<'py, Self>, other: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        let o = need_inplace(other)?;
        ops::inplace_binary(&slf.get().t, &o, BinOp::Div, ops::div)?;
        Ok(slf.clone())
    }
    /// Fill the tensor with ``value``, in place.
    fn fill_<'py>(slf: &Bound<'py, Self>, value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        ops::fill_(&slf.get().t, &need(value)?)?;
        Ok(slf.clone())
    }
    /// Fill the tensor with zeros, in place.
    fn zero_<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, Self>> {
        ops::zero_(&slf.get().t)?;
        Ok(slf.clone())
    }
    /// Clamp all elements into the range ``[min, max]`` (numbers or broadcastable tensors).
    #[pyo3(signature = (min=None, max=None))]
    fn clamp(&self, py: Python<'_>, min: Option<&Bound<'_, PyAny>>, max: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
        let t = &self.t;
        if let Some((lo, hi)) = tensor_bounds(min, max) {
            return run(py, t.numel(), || ops::clamp_tensor(t, lo.as_ref(), hi.as_ref()));
        }
        let (lo, hi) = (scalar_opt(min)?, scalar_opt(max)?);
        run(py, t.numel(), || ops::clamp(t, lo, hi))
    }
    /// Alias for ``clamp``.
    #[pyo3(signature = (min=None, max=None))]
    fn clip(&self, py: Python<'_>, min: Option<&Bound<'_, PyAny>>, max: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
        self.clamp(py, min, max)
    }
    /// ``clamp(min=min)``.
    fn clamp_min(&self, py: Python<'_>, min: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let t = &self.t;
        match scalar_opt(Some(min))? {
            Some(lo) if min.cast::<PyTensor>().is_err() => run(py, t.numel(), || ops::clamp_min(t, lo)),
            _ => self.clamp(py, Some(min), None),
        }
    }
    /// ``clamp(max=max)``.
    fn clamp_max(&self, py: Python<'_>, max: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let t = &self.t;
        match scalar_opt(Some(max))? {
            Some(hi) if max.cast::<PyTensor>().is_err() => run(py, t.numel(), || ops::clamp_max(t, hi)),
            _ => self.clamp(py, None, Some(max)),
        }
    }
    /// In-place version of ``clamp_min``.
    fn clamp_min_<'py>(slf: &Bound<'py, Self>, min: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        match scalar_opt(Some(min))? {
            Some(lo) if min.cast::<PyTensor>().is_err() => {
                ops::clamp_min_(&slf.get().t, lo)?;
                Ok(slf.clone())
            }
            _ => Self::clamp_(slf, Some(min), None),
        }
    }
    /// In-place version of ``clamp_max``.
    fn clamp_max_<'py>(slf: &Bound<'py, Self>, max: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        match scalar_opt(Some(max))? {
            Some(hi) if max.cast::<PyTensor>().is_err() => {
                ops::clamp_max_(&slf.get().t, hi)?;
                Ok(slf.clone())
            }
            _ => Self::clamp_(slf, None, Some(max)),
        }
    }
    /// In-place version of ``clip`` (``clamp_``).
    #[pyo3(signature = (min=None, max=None))]
    fn clip_<'py>(slf: &Bound<'py, Self>, min: Option<&Bound<'py, PyAny>>, max: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, Self>> {
        Self::clamp_(slf, min, max)
    }
    /// In-place version of ``clamp``.
    #[pyo3(signature = (min=None, max=None))]
    fn clamp_<'py>(slf: &Bound<'py, Self>, min: Option<&Bound<'py, PyAny>>, max: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, Self>> {
        if let Some((lo, hi)) = tensor_bounds(min, max) {
            ops::inplace(&slf.get().t, |inp| ops::clamp_tensor(inp, lo.as_ref(), hi.as_ref()))?;
            return Ok(slf.clone());
        }
        let (lo, hi) = (scalar_opt(min)?, scalar_opt(max)?);
        ops::clamp_(&slf.get().t, lo, hi)?;
        Ok(slf.clone())
    }

    // ---- reductions ----
    /// The sum of all elements, or over the dimension(s) ``dim`` (kept as size 1 with
    /// ``keepdim=True``). Integer and bool inputs sum as int64 unless ``dtype`` is given.
    #[pyo3(signature = (dim=None, keepdim=false, *, dtype=None))]
    fn sum(&self, py: Python<'_>, dim: Option<&Bound<'_, PyAny>>, keepdim: bool, dtype: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
        let d = dims_arg(dim)?;
        let dt = opt_dtype(dtype)?;
        let t = &self.t;
        run(py, t.numel(), || match d {
            None => ops::sum(t, dt),
            Some(d) => ops::sum_dim_list(t, &d, keepdim, dt),
        })
    }
    /// The sum of all elements, or over ``dim``, treating NaNs as zero.
    #[pyo3(signature = (dim=None, keepdim=false, *, dtype=None))]
    fn nansum(&self, py: Python<'_>, dim: Option<&Bound<'_, PyAny>>, keepdim: bool, dtype: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
        let d = dims_arg(dim)?;
        let dt = opt_dtype(dtype)?;
        let t = &self.t;
        run(py, t.numel(), || match d {
            None => ops::nansum(t, None, keepdim, dt),
            Some(d) => ops::nansum(t, Some(&ops::reduce_dims(&d, t.dim())?), keepdim, dt),
        })
    }
    /// The mean of all elements, or over the dimension(s) ``dim`` (floating-point inputs).
    #[pyo3(signature = (dim=None, keepdim=false, *, dtype=None))]
    fn mean(&self, py: Python<'_>, dim: Option<&Bound<'_, PyAny>>, keepdim: bool, dtype: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
        let d = dims_arg(dim)?;
        let dt = opt_dtype(dtype)?;
        let t = &self.t;
        run(py, t.numel(), || match d {
            None => ops::mean(t, None, false, dt),
            Some(d) => ops::mean_dim_list(t, &d, keepdim, dt),
        })
    }
    /// The product of all elements, or over dimension ``dim``.
    #[pyo3(signature = (dim=None, keepdim=false, *, dtype=None))]
    fn prod(&self, py: Python<'_>, dim: Option<i64>, keepdim: bool, dtype: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
        let dt = opt_dtype(dtype)?;
        let t = match dt { Some(d) => ops::to_dtype(&self.t, d)?, None => self.t.clone() };
        let d = match dim { Some(d) => Some(crate::shape::wrap_dim(d, t.dim())?), None => None };
        wrap(py, ops::prod(&t, d, keepdim)?)
    }
    /// ``max()``: the maximum of all elements. ``max(dim, keepdim=False)``: a named tuple
    /// ``(values, indices)`` of the maxima over ``dim``. ``max(other)``: ``maximum``.
    #[pyo3(signature = (dim=None, keepdim=false))]
    fn max(&self, py: Python<'_>, dim: Option<&Bound<'_, PyAny>>, keepdim: bool) -> PyResult<Py<PyAny>> {
        self.minmax(py, dim, keepdim, true)
    }
    /// ``min()``: the minimum of all elements. ``min(dim, keepdim=False)``: a named tuple
    /// ``(values, indices)`` of the minima over ``dim``. ``min(other)``: ``minimum``.
    #[pyo3(signature = (dim=None, keepdim=false))]
    fn min(&self, py: Python<'_>, dim: Option<&Bound<'_, PyAny>>, keepdim: bool) -> PyResult<Py<PyAny>> {
        self.minmax(py, dim, keepdim, false)
    }
    /// The maximum over the dimension(s) ``dim`` (gradient split evenly among ties).
    #[pyo3(signature = (dim=None, keepdim=false))]
    fn amax(&self, py: Python<'_>, dim: Option<&Bound<'_, PyAny>>, keepdim: bool) -> PyResult<Py<PyAny>> {
        let raw = dims_arg(dim)?.unwrap_or_default();
        wrap(py, ops::amax_dims(&self.t, &raw, keepdim, true)?)
    }
    /// The elements rounded to the nearest integer (half to even), or to ``decimals`` places.
    #[pyo3(signature = (*, decimals=None, out=None))]
    fn round(&self, py: Python<'_>, decimals: Option<i64>, out: Option<&Bound<'_, PyTensor>>) -> PyResult<Py<PyAny>> {
        let t = &self.t;
        match decimals {
            Some(d) => run_out(py, "round", t.numel(), out, || ops::round_decimals(t, d)),
            None => run_out(py, "round", t.numel(), out, || ops::rounding(t, "round")),
        }
    }
    /// The minimum over the dimension(s) ``dim`` (gradient split evenly among ties).
    #[pyo3(signature = (dim=None, keepdim=false))]
    fn amin(&self, py: Python<'_>, dim: Option<&Bound<'_, PyAny>>, keepdim: bool) -> PyResult<Py<PyAny>> {
        let raw = dims_arg(dim)?.unwrap_or_default();
        wrap(py, ops::amax_dims(&self.t, &raw, keepdim, false)?)
    }
    /// The index of the (first) maximum, of the flattened tensor or over ``dim``.
    #[pyo3(signature = (dim=None, keepdim=false))]
    fn argmax(&self, py: Python<'_>, dim: Option<i64>, keepdim: bool) -> PyResult<Py<PyAny>> {
        wrap(py, ops::argmax(&self.t, dim, keepdim, true)?)
    }
    /// The index of the (first) minimum, of the flattened tensor or over ``dim``.
    #[pyo3(signature = (dim=None, keepdim=false))]
    fn argmin(&self, py: Python<'_>, dim: Option<i64>, keepdim: bool) -> PyResult<Py<PyAny>> {
        wrap(py, ops::argmax(&self.t, dim, keepdim, false)?)
    }
    /// The ``p``-norm (default 2, ``"fro"``, ``inf``) of the tensor or over ``dim``.
    #[pyo3(signature = (p=None, dim=None, keepdim=false, dtype=None))]
    fn norm(&self, py: Python<'_>, p: Option<&Bound<'_, PyAny>>, dim: Option<&Bound<'_, PyAny>>, keepdim: bool, dtype: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
        // torch.norm's p defaults to "fro"
        let fro = pyo3::types::PyString::new(py, "fro");
        let p = match p { Some(p) if !p.is_none() => p.clone(), _ => fro.into_any() };
        let pv = match Some(&p) {
            None => 2.0,
            Some(p) => match p.extract::<String>() {
                Ok(s) => {
                    // torch.norm: 'fro' with no dim, one dim or two is the vector 2-norm; any
                    // other string p goes to linalg.matrix_norm, which checks dtype, then dims
                    let raw = dims_arg(dim)?;
                    let n = raw.as_ref().map_or(0, |d| d.len());
                    if s == "fro" && n <= 2 {
                        2.0
                    } else {
                        if !self.t.dtype().is_float() {
                            return Err(PyRuntimeError::new_err(format!("linalg.matrix_norm: Expected a floating point or complex tensor as input. Got {}", self.t.dtype().scalar_name())));
                        }
                        let ds: Vec<i64> = raw.unwrap_or_else(|| (0..self.t.dim() as i64).collect());
                        if ds.len() != 2 {
                            return Err(PyRuntimeError::new_err(format!("linalg.matrix_norm: dim must be a 2-tuple. Got {}", ds.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(" "))));
                        }
                        if s == "fro" {
                            2.0
                        } else if s == "nuc" {
                            // the sum of the singular values: linalg.matrix_norm's
                            let kw = pyo3::types::PyDict::new(py);
                            kw.set_item("dim", ds)?;
                            kw.set_item("keepdim", keepdim)?;
                            if let Some(d) = dtype { kw.set_item("dtype", d)?; }
                            let a = wrap(py, self.t.clone())?;
                            return Ok(py.import("ferrograd.linalg")?.getattr("matrix_norm")?.call((a, "nuc"), Some(&kw))?.unbind());
                        } else {
                            return Err(PyRuntimeError::new_err(format!("linalg.matrix_norm: Order {} not supported.", s)));
                        }
                    }
                }
                Err(_) => p.extract::<f64>()?,
            },
        };
        // dtype=: the input is cast before the norm is taken (a floating dtype only)
        let cast = match dtype {
            Some(d) if !d.is_none() => {
                let d = super::tensor::dtype_arg(d)?;
                if !d.is_float() {
                    return Err(PyRuntimeError::new_err(format!("linalg.vector_norm: dtype should be floating point or complex, but got {}", d.scalar_name())));
                }
                Some(ops::to_dtype(&self.t, d)?)
            }
            _ => None,
        };
        let t = cast.as_ref().unwrap_or(&self.t);
        ops::check_norm_dtype(t)?;
        let dims = match dims_arg(dim)? { Some(d) => ops::reduce_dims(&d, t.dim())?, None => vec![] };
        run(py, t.numel(), || ops::norm(t, pv, &dims, keepdim))
    }
    /// Whether all elements (or all over ``dim``) are non-zero, as a bool tensor.
    #[pyo3(signature = (dim=None, keepdim=false))]
    fn all(&self, py: Python<'_>, dim: Option<i64>, keepdim: bool) -> PyResult<Py<PyAny>> {
        wrap(py, ops::all_any(&self.t, dim, keepdim, true)?)
    }
    /// Whether any element (or any over ``dim``) is non-zero, as a bool tensor.
    #[pyo3(signature = (dim=None, keepdim=false))]
    fn any(&self, py: Python<'_>, dim: Option<i64>, keepdim: bool) -> PyResult<Py<PyAny>> {
        wrap(py, ops::all_any(&self.t, dim, keepdim, false)?)
    }
    /// The variance over ``dim`` (all elements by default), with Bessel's correction
    /// unless ``unbiased=False`` or ``correction=`` says otherwise.
    #[pyo3(signature = (dim=None, unbiased=None, keepdim=false, *, correction=None))]
    fn var(&self, py: Python<'_>, dim: Option<&Bound<'_, PyAny>>, unbiased: Option<&Bound<'_, PyAny>>, keepdim: bool, correction: Option<f64>) -> PyResult<Py<PyAny>> {
        let (dims, c) = var_args(&self.t, dim, unbiased, correction)?;
        dof_warning(py, "var", &self.t, dims.as_deref(), c)?;
        wrap(py, ops::var(&self.t, dims.as_deref(), c, keepdim)?)
    }
    /// The standard deviation over ``dim``; see ``var``.
    #[pyo3(signature = (dim=None, unbiased=None, keepdim=false, *, correction=None))]
    fn std(&self, py: Python<'_>, dim: Option<&Bound<'_, PyAny>>, unbiased: Option<&Bound<'_, PyAny>>, keepdim: bool, correction: Option<f64>) -> PyResult<Py<PyAny>> {
        let (dims, c) = var_args(&self.t, dim, unbiased, correction)?;
        dof_warning(py, "std", &self.t, dims.as_deref(), c)?;
        wrap(py, ops::std(&self.t, dims.as_deref(), c, keepdim)?)
    }
    /// ``log(sum(exp(x)))`` over ``dim``, computed stably.
    #[pyo3(signature = (dim, keepdim=false))]
    fn logsumexp(&self, py: Python<'_>, dim: &Bound<'_, PyAny>, keepdim: bool) -> PyResult<Py<PyAny>> {
        let d = dims_arg(Some(dim))?.unwrap_or_default();
        wrap(py, ops::logsumexp(&self.t, &ops::reduce_dims(&d, self.t.dim())?, keepdim)?)
    }
    /// The cumulative sum of the elements along ``dim``.
    #[pyo3(signature = (dim, *, dtype=None))]
    fn cumsum(&self, py: Python<'_>, dim: i64, dtype: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
        let dt = opt_dtype(dtype)?;
        ops::check_grad_dtype(&self.t, dt)?;
        let t = match dt { Some(d) => ops::to_dtype(&self.t, d)?, None => self.t.clone() };
        wrap(py, ops::cumsum(&t, dim)?)
    }
    /// Reverse the order of elements along the given dimensions (copies the data).
    #[pyo3(signature = (*dims))]
    fn flip(&self, py: Python<'_>, dims: &Bound<'_, PyTuple>) -> PyResult<Py<PyAny>> {
        if dims.is_empty() {
            return Err(PyTypeError::new_err("flip() missing 1 required positional arguments: \"dims\""));
        }
        wrap(py, ops::flip(&self.t, &shape_args(dims)?)?)
    }
    /// Repeat the tensor along each dimension (copies the data).
    #[pyo3(signature = (*sizes))]
    fn repeat(&self, py: Python<'_>, sizes: &Bound<'_, PyTuple>) -> PyResult<Py<PyAny>> {
        if sizes.is_empty() {
            return Err(PyTypeError::new_err("repeat() missing 1 required positional arguments: \"repeats\""));
        }
        wrap(py, ops::repeat(&self.t, &shape_args(sizes)?)?)
    }
    /// ``exp(x) / sum(exp(x))`` along ``dim``.
    #[pyo3(signature = (dim, dtype=None))]
    fn softmax(&self, py: Python<'_>, dim: i64, dtype: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
        let t = match opt_dtype(dtype)? { Some(d) => ops::to_dtype(&self.t, d)?, None => self.t.clone() };
        run(py, t.numel(), || ops::softmax(&t, dim))
    }
    /// ``log(softmax(x))`` along ``dim``, computed stably.
    #[pyo3(signature = (dim, dtype=None))]
    fn log_softmax(&self, py: Python<'_>, dim: i64, dtype: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
        let t = match opt_dtype(dtype)? { Some(d) => ops::to_dtype(&self.t, d)?, None => self.t.clone() };
        run(py, t.numel(), || ops::log_softmax(&t, dim))
    }

    // ---- shape ----
    /// A view with the same data and a different shape (``-1`` infers one dimension), or
    /// the same bytes read as ``dtype`` (same element size only). The tensor must be
    /// compatible with the shape (contiguous enough); see ``reshape``.
    #[pyo3(signature = (*shape))]
    fn view(&self, py: Python<'_>, shape: &Bound<'_, PyTuple>) -> PyResult<Py<PyAny>> {
        if shape.is_empty() {
            return Err(PyTypeError::new_err("view() received an invalid combination of arguments - got (), but expected one of:\n * (torch.dtype dtype)\n * (tuple of ints size)\n"));
        }
        if shape.len() == 1 {
            if let Ok(d) = shape.get_item(0)?.cast::<super::tensor::PyDType>() {
                if d.get().d == self.t.dtype() { return wrap(py, ops::view(&self.t, &self.t.shape().iter().map(|&x| x as i64).collect::<Vec<_>>())?); }
                return Err(PyRuntimeError::new_err("view(dtype) with a different element size is not supported"));
            }
        }
        wrap(py, ops::view(&self.t, &shape_args(shape)?)?)
    }
    /// A tensor with the same data and the given shape: a view when possible, else a copy.
    #[pyo3(signature = (*shape))]
    fn reshape(&self, py: Python<'_>, shape: &Bound<'_, PyTuple>) -> PyResult<Py<PyAny>> {
        if shape.is_empty() {
            return Err(PyTypeError::new_err("reshape() missing 1 required positional arguments: \"shape\""));
        }
        wrap(py, ops::reshape(&self.t, &shape_args(shape)?)?)
    }
    /// ``self.view(other.size())``.
    fn view_as(&self, py: Python<'_>, other: PyRef<'_, PyTensor>) -> PyResult<Py<PyAny>> {
        wrap(py, ops::view(&self.t, &other.t.shape().iter().map(|&d| d as i64).collect::<Vec<_>>())?)
    }
    /// ``self.reshape(other.size())``.
    fn reshape_as(&self, py: Python<'_>, other: PyRef<'_, PyTensor>) -> PyResult<Py<PyAny>> {
        wrap(py, ops::reshape(&self.t, &other.t.shape().iter().map(|&d| d as i64).collect::<Vec<_>>())?)
    }
    /// A view with dimensions ``dim0`` and ``dim1`` swapped.
    fn transpose(&self, py: Python<'_>, dim0: i64, dim1: i64) -> PyResult<Py<PyAny>> {
        wrap(py, ops::transpose(&self.t, dim0, dim1)?)
    }
    /// Alias for ``transpose``.
    fn swapaxes(&self, py: Python<'_>, dim0: i64, dim1: i64) -> PyResult<Py<PyAny>> {
        self.transpose(py, dim0, dim1)
    }
    /// In-place version of ``t``.
    fn t_<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, Self>> {
        ops::t_(&slf.get().t)?;
        Ok(slf.clone())
    }
    /// In-place version of ``transpose``.
    fn transpose_<'py>(slf: &Bound<'py, Self>, dim0: i64, dim1: i64) -> PyResult<Bound<'py, Self>> {
        ops::transpose_(&slf.get().t, dim0, dim1)?;
        Ok(slf.clone())
    }
    /// In-place version of ``squeeze``.
    #[pyo3(signature = (dim=None))]
    fn squeeze_<'py>(slf: &Bound<'py, Self>, dim: Option<i64>) -> PyResult<Bound<'py, Self>> {
        ops::squeeze_(&slf.get().t, dim)?;
        Ok(slf.clone())
    }
    /// In-place version of ``unsqueeze``.
    fn unsqueeze_<'py>(slf: &Bound<'py, Self>, dim: i64) -> PyResult<Bound<'py, Self>> {
        ops::unsqueeze_(&slf.get().t, dim)?;
        Ok(slf.clone())
    }
    #[getter]
    fn _base(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let b = self.t.meta().view_base.clone();
        super::tensor::wrap_opt(py, b)
    }
    /// The tensor with its dimensions reversed (for 2-D, the transpose).
    #[getter(T)]
    fn big_t(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let nd = self.t.dim() as i64;
        if nd == 0 {
            user_warning(py, "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases.")?;
        } else if nd != 2 {
            user_warning(py, "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it will throw an error in a future release. Consider `x.mT` to transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor.")?;
        }
        let dims: Vec<i64> = (0..nd).rev().collect();
        wrap(py, ops::permute(&self.t, &dims)?)
    }
    /// The last two dimensions transposed (a batch of matrix transposes).
    #[getter(mT)]
    fn m_t(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        Self::matrix_transpose(slf, "mT", "This function is the identity in these cases.")
    }
    /// The conjugate transpose of the last two dimensions (for real tensors, ``mT``).
    #[getter(mH)]
    fn m_h(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        let t = Self::matrix_transpose(slf, "mH", "Consider using x.conj().")?;
        conj_of(slf.py(), t)
    }
    /// The conjugate transpose of a 2-d tensor (for real tensors, ``T``).
    #[getter(H)]
    fn big_h(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        let t = &slf.get().t;
        match t.dim() {
            0 => {
                user_warning(py, "Tensor.H is deprecated on 0-D tensors. Consider using x.conj().")?;
                Ok(slf.clone().into_any().unbind())
            }
            2 => conj_of(py, wrap(py, ops::transpose(t, 0, 1)?)?),
            n => Err(PyRuntimeError::new_err(format!("tensor.H is only supported on matrices (2-D tensors). Got {}-D tensor.{}", n,
                if n > 2 { " For batches of matrices, consider using tensor.mH" } else { "" }))),
        }
    }
    /// A view with the dimensions permuted.
    #[pyo3(signature = (*dims))]
    fn permute(&self, py: Python<'_>, dims: &Bound<'_, PyTuple>) -> PyResult<Py<PyAny>> {
        if dims.is_empty() {
            return Err(PyTypeError::new_err("permute() missing 1 required positional arguments: \"dims\""));
        }
        wrap(py, ops::permute(&self.t, &shape_args(dims)?)?)
    }
    /// A view with the dimensions of size 1 removed (all, or those in ``dim``).
    #[pyo3(signature = (dim=None))]
    fn squeeze(&self, py: Python<'_>, dim: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
        match dim {
            None => wrap(py, ops::squeeze(&self.t, None)?),
            Some(d) if d.is_none() => wrap(py, ops::squeeze(&self.t, None)?),
            Some(d) => match d.extract::<i64>() {
                Ok(i) => wrap(py, ops::squeeze(&self.t, Some(i))?),
                Err(_) => wrap(py, ops::squeeze_dims(&self.t, &d.extract::<Vec<i64>>()?)?),
            },
        }
    }
    /// A view with a dimension of size 1 inserted at ``dim``.
    fn unsqueeze(&self, py: Python<'_>, dim: i64) -> PyResult<Py<PyAny>> {
        wrap(py, ops::unsqueeze(&self.t, dim)?)
    }
    /// A view with singleton dimensions expanded to a larger size (``-1`` keeps a size);
    /// no memory is copied.
    #[pyo3(signature = (*sizes))]
    fn expand(&self, py: Python<'_>, sizes: &Bound<'_, PyTuple>) -> PyResult<Py<PyAny>> {
        if sizes.is_empty() {
            return Err(PyTypeError::new_err("expand() missing 1 required positional arguments: \"size\""));
        }
        wrap(py, ops::expand(&self.t, &shape_args(sizes)?)?)
    }
    /// ``self.expand(other.size())``.
    fn expand_as(&self, py: Python<'_>, other: PyRef<'_, PyTensor>) -> PyResult<Py<PyAny>> {
        wrap(py, ops::expand(&self.t, &other.t.shape().iter().map(|&d| d as i64).collect::<Vec<_>>())?)
    }
    /// A view of ``length`` elements of dimension ``dim`` starting at ``start``.
    fn narrow(&self, py: Python<'_>, dim: i64, start: i64, length: i64) -> PyResult<Py<PyAny>> {
        wrap(py, ops::narrow(&self.t, dim, start, length)?)
    }
    /// A view of the slice ``index`` along ``dim`` (that dimension removed).
    fn select(&self, py: Python<'_>, dim: i64, index: i64) -> PyResult<Py<PyAny>> {
        wrap(py, ops::select(&self.t, dim, index)?)
    }
    /// Flatten dimensions ``start_dim`` to ``end_dim`` into one (a view when possible).
    #[pyo3(signature = (start_dim=0, end_dim=-1))]
    fn flatten(&self, py: Python<'_>, start_dim: i64, end_dim: i64) -> PyResult<Py<PyAny>> {
        wrap(py, ops::flatten(&self.t, start_dim, end_dim)?)
    }
    /// All slices along ``dim``, as a tuple of views.
    #[pyo3(signature = (dim=0))]
    fn unbind(&self, py: Python<'_>, dim: i64) -> PyResult<Py<PyTuple>> {
        let parts = ops::unbind(&self.t, dim)?;
        let objs: Vec<Py<PyAny>> = parts.into_iter().map(|p| wrap(py, p)).collect::<PyResult<_>>()?;
        Ok(PyTuple::new(py, objs)?.unbind())
    }
    /// Split into chunks of ``split_size`` elements (or of the given sizes) along ``dim``; views.
    #[pyo3(signature = (split_size, dim=0))]
    fn split(&self, py: Python<'_>, split_size: &Bound<'_, PyAny>, dim: i64) -> PyResult<Py<PyTuple>> {
        let parts = match split_size.extract::<usize>() {
            Ok(n) => ops::split(&self.t, n, dim)?,
            Err(_) => match split_size.extract::<Vec<i64>>() {
                Ok(sizes) => ops::split_with_sizes(&self.t, &sizes, dim)?,
                Err(_) => return Err(PyTypeError::new_err(format!("split(): argument 'split_size' must be int or list of ints, not {}", split_size.get_type().name()?))),
            },
        };
        let objs: Vec<Py<PyAny>> = parts.into_iter().map(|p| wrap(py, p)).collect::<PyResult<_>>()?;
        Ok(PyTuple::new(py, objs)?.unbind())
    }
    /// Split into ``chunks`` views of (nearly) equal size along ``dim``.
    #[pyo3(signature = (chunks, dim=0))]
    fn chunk(&self, py: Python<'_>, chunks: i64, dim: i64) -> PyResult<Py<PyTuple>> {
        let parts = ops::chunk(&self.t, chunks, dim)?;
        let objs: Vec<Py<PyAny>> = parts.into_iter().map(|p| wrap(py, p)).collect::<PyResult<_>>()?;
        Ok(PyTuple::new(py, objs)?.unbind())
    }
    /// Gather values along ``dim`` at the positions in ``index`` (int64).
    fn gather(&self, py: Python<'_>, dim: i64, index: PyRef<'_, PyTensor>) -> PyResult<Py<PyAny>> {
        wrap(py, ops::gather(&self.t, dim, &index.t)?)
    }
    /// ``self`` with ``src`` added at the positions ``index`` names along ``dim``.
    fn scatter_add(
        &self,
        py: Python<'_>,
        dim: i64,
        index: PyRef<'_, PyTensor>,
        src: PyRef<'_, PyTensor>,
    ) -> PyResult<Py<PyAny>> {
        wrap(py, ops::scatter_add(&self.t, dim, &index.t, &src.t)?)
    }
    /// In-place version of ``scatter_add``.
    fn scatter_add_<'py>(
        slf: &Bound<'py, Self>,
        dim: i64,
        index: PyRef<'py, PyTensor>,
        src: PyRef<'py, PyTensor>,
    ) -> PyResult<Bound<'py, Self>> {
        let (i, s) = (index.t.clone(), src.t.clone());
        ops::inplace_put(&slf.get().t, &[&s], |inp| ops::scatter_add(inp, dim, &i, &s))?;
        Ok(slf.clone())
    }
    /// ``self`` with ``src`` (a tensor) or ``value`` (a number) written at the positions
    /// ``index`` names along ``dim``; ``reduce="add"`` adds instead.
    #[pyo3(signature = (dim, index, src=None, value=None, *, reduce=None))]
    fn scatter(
        &self,
        py: Python<'_>,
        dim: i64,
        index: PyRef<'_, PyTensor>,
        src: Option<&Bound<'_, PyAny>>,
        value: Option<&Bound<'_, PyAny>>,
        reduce: Option<&str>,
    ) -> PyResult<Py<PyAny>> {
        let (what, add) = scatter_args(src, value, reduce)?;
        wrap(py, scatter_apply(&self.t, dim, &index.t, &what, add)?)
    }
    /// In-place version of ``scatter``.
    #[pyo3(signature = (dim, index, src=None, value=None, *, reduce=None))]
    fn scatter_<'py>(
        slf: &Bound<'py, Self>,
        dim: i64,
        index: PyRef<'py, PyTensor>,
        src: Option<&Bound<'py, PyAny>>,
        value: Option<&Bound<'py, PyAny>>,
        reduce: Option<&str>,
    ) -> PyResult<Bound<'py, Self>> {
        let (what, add) = scatter_args(src, value, reduce)?;
        let i = index.t.clone();
        let others: Vec<&Tensor> = match &what { ScatterSrc::Tensor(t) => vec![t], ScatterSrc::Value(_) => vec![] };
        ops::inplace_put(&slf.get().t, &others, |inp| scatter_apply(inp, dim, &i, &what, add))?;
        Ok(slf.clone())
    }
    /// A view of the windows of ``size`` elements every ``step`` along ``dimension``.
    fn unfold(&self, py: Python<'_>, dimension: i64, size: i64, step: i64) -> PyResult<Py<PyAny>> {
        wrap(py, ops::unfold(&self.t, dimension, size, step)?)
    }
    /// ``self`` with ``src``'s values combined by ``reduce``.
    #[pyo3(signature = (dim, index, src, reduce, *, include_self=true))]
    fn scatter_reduce(
        &self,
        py: Python<'_>,
        dim: i64,
        index: PyRef<'_, PyTensor>,
        src: PyRef<'_, PyTensor>,
        reduce: &str,
        include_self: bool,
    ) -> PyResult<Py<PyAny>> {
        let r = ops::ScatterReduce::parse(reduce)?;
        wrap(py, ops::scatter_reduce(&self.t, dim, &index.t, &src.t, r, include_self)?)
    }
    /// In-place version of ``scatter_reduce``.
    #[pyo3(signature = (dim, index, src, reduce, *, include_self=true))]
    fn scatter_reduce_<'py>(
        slf: &Bound<'py, Self>,
        dim: i64,
        index: PyRef<'py, PyTensor>,
        src: PyRef<'py, PyTensor>,
        reduce: &str,
        include_self: bool,
    ) -> PyResult<Bound<'py, Self>> {
        let r = ops::ScatterReduce::parse(reduce)?;
        let (i, s) = (index.t.clone(), src.t.clone());
        ops::inplace(&slf.get().t, |inp| ops::scatter_reduce(inp, dim, &i, &s, r, include_self))?;
        Ok(slf.clone())
    }
    /// ``self`` with ``alpha * source`` added at the rows ``index`` names along ``dim``.
    #[pyo3(signature = (dim, index, source, *, alpha=None))]
    fn index_add(
        &self,
        py: Python<'_>,
        dim: i64,
        index: PyRef<'_, PyTensor>,
        source: PyRef<'_, PyTensor>,
        alpha: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let a = alpha
            .map(|a| {
                py_scalar(a)
                    .ok_or_else(|| PyTypeError::new_err("index_add(): alpha must be a number"))
            })
            .transpose()?
            .unwrap_or(Scalar::Int(1));
        wrap(py, ops::index_add(&self.t, dim, &index.t, &source.t, a)?)
    }
    /// In-place version of ``index_add``.
    #[pyo3(signature = (dim, index, source, *, alpha=None))]
    fn index_add_<'py>(
        slf: &Bound<'py, Self>,
        dim: i64,
        index: PyRef<'py, PyTensor>,
        source: PyRef<'py, PyTensor>,
        alpha: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, Self>> {
        let a = alpha
            .map(|a| {
                py_scalar(a)
                    .ok_or_else(|| PyTypeError::new_err("index_add_(): alpha must be a number"))
            })
            .transpose()?
            .unwrap_or(Scalar::Int(1));
        let (i, s) = (index.t.clone(), source.t.clone());
        ops::inplace_put(&slf.get().t, &[&s], |inp| ops::index_add(inp, dim, &i, &s, a))?;
        Ok(slf.clone())
    }
    /// ``self`` with its slices at ``index`` along ``dim`` replaced by ``source``'s.
    fn index_copy(&self, py: Python<'_>, dim: i64, index: PyRef<'_, PyTensor>, source: PyRef<'_, PyTensor>) -> PyResult<Py<PyAny>> {
        wrap(py, ops::index_copy(&self.t, dim, &index.t, &source.t)?)
    }
    /// In-place version of ``index_copy``.
    fn index_copy_<'py>(slf: &Bound<'py, Self>, dim: i64, index: PyRef<'py, PyTensor>, source: PyRef<'py, PyTensor>) -> PyResult<Bound<'py, Self>> {
        let (i, s) = (index.t.clone(), source.t.clone());
        ops::inplace_put(&slf.get().t, &[&s], |inp| ops::index_copy(inp, dim, &i, &s))?;
        Ok(slf.clone())
    }
    /// ``self`` with its slices at ``index`` along ``dim`` set to ``value`` (a number or a
    /// 0-dim tensor).
    fn index_fill(&self, py: Python<'_>, dim: i64, index: PyRef<'_, PyTensor>, value: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let is_t = value.cast::<PyTensor>().is_ok();
        wrap(py, ops::index_fill(&self.t, dim, &index.t, &need(value)?, is_t)?)
    }
    /// In-place version of ``index_fill``.
    fn index_fill_<'py>(slf: &Bound<'py, Self>, dim: i64, index: PyRef<'py, PyTensor>, value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        let is_t = value.cast::<PyTensor>().is_ok();
        let (i, v) = (index.t.clone(), need(value)?);
        ops::inplace_put(&slf.get().t, &[&v], |inp| ops::index_fill(inp, dim, &i, &v, is_t))?;
        Ok(slf.clone())
    }
    /// ``self`` with the places where ``mask`` is true filled from ``source`` in row-major order.
    fn masked_scatter(&self, py: Python<'_>, mask: PyRef<'_, PyTensor>, source: PyRef<'_, PyTensor>) -> PyResult<Py<PyAny>> {
        wrap(py, ops::masked_scatter_outplace(&self.t, &mask.t, &source.t)?)
    }
    /// In-place version of ``masked_scatter``.
    fn masked_scatter_<'py>(slf: &Bound<'py, Self>, mask: PyRef<'py, PyTensor>, source: PyRef<'py, PyTensor>) -> PyResult<Bound<'py, Self>> {
        let (m, s) = (mask.t.clone(), source.t.clone());
        ops::inplace(&slf.get().t, |inp| ops::masked_scatter(inp, &m, &s))?;
        Ok(slf.clone())
    }
    /// The elements at the flat indices ``index`` (as if ``self`` were 1-d), shaped like ``index``.
    fn take(&self, py: Python<'_>, index: PyRef<'_, PyTensor>) -> PyResult<Py<PyAny>> {
        wrap(py, ops::take_flat(&self.t, &index.t)?)
    }
    /// ``self`` with ``source`` written (or added, ``accumulate=True``) at the flat indices ``index``.
    #[pyo3(signature = (index, source, accumulate=false))]
    fn put(&self, py: Python<'_>, index: PyRef<'_, PyTensor>, source: PyRef<'_, PyTensor>, accumulate: bool) -> PyResult<Py<PyAny>> {
        wrap(py, ops::put_flat(&self.t, &index.t, &source.t, accumulate)?)
    }
    /// In-place version of ``put``.
    #[pyo3(signature = (index, source, accumulate=false))]
    fn put_<'py>(slf: &Bound<'py, Self>, index: PyRef<'py, PyTensor>, source: PyRef<'py, PyTensor>, accumulate: bool) -> PyResult<Bound<'py, Self>> {
        let (i, s) = (index.t.clone(), source.t.clone());
        ops::put_flat_(&slf.get().t, &i, &s, accumulate)?;
        Ok(slf.clone())
    }
    /// The diagonal ``offset`` of dims ``dim1``, ``dim2`` as the last dim of a view.
    #[pyo3(signature = (offset=0, dim1=0, dim2=1))]
    fn diagonal(&self, py: Python<'_>, offset: i64, dim1: i64, dim2: i64) -> PyResult<Py<PyAny>> {
        wrap(py, ops::diagonal(&self.t, offset, dim1, dim2)?)
    }
    /// Zeros with the last dim on the diagonal ``offset`` of two new dims ``dim1``, ``dim2``.
    #[pyo3(signature = (offset=0, dim1=-2, dim2=-1), text_signature = "($self, offset=0, dim1=-2, dim2=-1)")]
    fn diag_embed(&self, py: Python<'_>, offset: i64, dim1: i64, dim2: i64) -> PyResult<Py<PyAny>> {
        wrap(py, ops::diag_embed(&self.t, offset, dim1, dim2)?)
    }
    /// A vector onto the diagonal of a square matrix, or a matrix's diagonal (a copy).
    #[pyo3(signature = (diagonal=0))]
    fn diag(&self, py: Python<'_>, diagonal: i64) -> PyResult<Py<PyAny>> {
        wrap(py, ops::diag(&self.t, diagonal)?)
    }
    /// The sum of a matrix's diagonal.
    fn trace(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        wrap(py, ops::trace(&self.t)?)
    }
    /// The lower triangle of the last two dims (``j - i <= diagonal``), the rest zero.
    #[pyo3(signature = (diagonal=0))]
    fn tril(&self, py: Python<'_>, diagonal: i64) -> PyResult<Py<PyAny>> {
        wrap(py, ops::tril(&self.t, diagonal, false)?)
    }
    /// The upper triangle of the last two dims (``j - i >= diagonal``), the rest zero.
    #[pyo3(signature = (diagonal=0))]
    fn triu(&self, py: Python<'_>, diagonal: i64) -> PyResult<Py<PyAny>> {
        wrap(py, ops::tril(&self.t, diagonal, true)?)
    }
    /// In-place version of ``tril``.
    #[pyo3(signature = (diagonal=0))]
    fn tril_<'py>(slf: &Bound<'py, Self>, diagonal: i64) -> PyResult<Bound<'py, Self>> {
        ops::inplace(&slf.get().t, |inp| ops::tril(inp, diagonal, false))?;
        Ok(slf.clone())
    }
    /// In-place version of ``triu``.
    #[pyo3(signature = (diagonal=0))]
    fn triu_<'py>(slf: &Bound<'py, Self>, diagonal: i64) -> PyResult<Bound<'py, Self>> {
        ops::inplace(&slf.get().t, |inp| ops::tril(inp, diagonal, true))?;
        Ok(slf.clone())
    }
    /// Shift the elements along ``dims`` by ``shifts``, wrapping around (the flattened
    /// tensor without ``dims``).
    #[pyo3(signature = (shifts, dims=None))]
    fn roll(
        &self,
        py: Python<'_>,
        shifts: &Bound<'_, PyAny>,
        dims: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let ints = |o: &Bound<'_, PyAny>| -> PyResult<Vec<i64>> {
            o.extract::<i64>()
                .map(|v| vec![v])
                .or_else(|_| o.extract::<Vec<i64>>())
        };
        let d = match dims {
            Some(d) if !d.is_none() => ints(d)?,
            _ => vec![],
        };
        wrap(py, ops::roll(&self.t, &ints(shifts)?, &d)?)
    }
    /// The entries at ``index`` (a 1-d int64 tensor) along ``dim``.
    fn index_select(&self, py: Python<'_>, dim: i64, index: PyRef<'_, PyTensor>) -> PyResult<Py<PyAny>> {
        wrap(py, ops::index_select(&self.t, dim, &index.t)?)
    }
    /// Fill the elements where ``mask`` (bool, broadcastable) is ``True`` with ``value``.
    fn masked_fill(&self, py: Python<'_>, mask: PyRef<'_, PyTensor>, value: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let v = need(value)?;
        wrap(py, ops::masked_fill(&self.t, &mask.t, &v)?)
    }
    /// Writes ``values`` at ``indices`` (a tuple of index tensors, as ``x[indices] = values``),
    /// or adds them there with ``accumulate=True``.
    #[pyo3(signature = (indices, values, accumulate=false))]
    fn index_put_<'py>(slf: &Bound<'py, Self>, indices: &Bound<'py, PyAny>, values: PyRef<'py, PyTensor>, accumulate: bool) -> PyResult<Bound<'py, Self>> {
        let idx = index_put_indices("index_put_", indices)?;
        let v = values.t.clone();
        ops::index_put_(&slf.get().t, &idx, &v, accumulate)?;
        Ok(slf.clone())
    }
    /// Out-of-place version of ``index_put_``.
    #[pyo3(signature = (indices, values, accumulate=false))]
    fn index_put(&self, py: Python<'_>, indices: &Bound<'_, PyAny>, values: PyRef<'_, PyTensor>, accumulate: bool) -> PyResult<Py<PyAny>> {
        let idx = index_put_indices("index_put", indices)?;
        wrap(py, ops::index_put(&self.t, &idx, &values.t, accumulate)?)
    }
    /// In-place version of ``masked_fill``.
    fn masked_fill_<'py>(slf: &Bound<'py, Self>, mask: PyRef<'py, PyTensor>, value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        let v = need(value)?;
        ops::masked_fill_(&slf.get().t, &mask.t, &v)?;
        Ok(slf.clone())
    }
    /// The implementation of ``where`` (not in-place, despite its name).
    fn where_(&self, py: Python<'_>, condition: PyRef<'_, PyTensor>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let o = need(other)?;
        wrap(py, ops::where_(&condition.t, &self.t, &o)?)
    }
    /// The indices of the non-zero elements: one row per element (shape ``(n, dim)``), or
    /// with ``as_tuple=True`` one 1-d tensor per dimension (as ``torch.where(x)``).
    #[pyo3(signature = (*, as_tuple=false))]
    fn nonzero(&self, py: Python<'_>, as_tuple: bool) -> PyResult<Py<PyAny>> {
        if as_tuple {
            let cols = ops::nonzero_tuple(&self.t)?;
            let objs: Vec<Py<PyAny>> = cols.into_iter().map(|c| wrap(py, c)).collect::<PyResult<_>>()?;
            return Ok(PyTuple::new(py, objs)?.into_any().unbind());
        }
        wrap(py, ops::nonzero(&self.t)?)
    }
    /// ``True`` if both tensors have the same size and elements.
    fn equal(&self, other: PyRef<'_, PyTensor>) -> PyResult<bool> {
        if self.t.shape() != other.t.shape() {
            return Ok(false);
        }
        Ok(ops::all_any(&ops::compare(&self.t, &other.t, BinOp::Eq)?, None, false, true)?.item()?.as_f64() != 0.0)
    }
    /// ``True`` if ``|self - other| <= atol + rtol * |other|`` for all elements.
    #[pyo3(signature = (other, rtol=1e-5, atol=1e-8, equal_nan=false))]
    fn allclose(&self, other: PyRef<'_, PyTensor>, rtol: f64, atol: f64, equal_nan: bool) -> PyResult<bool> {
        Ok(ops::allclose(&self.t, &other.t, rtol, atol, equal_nan)?)
    }
    /// Element-wise ``allclose``, as a bool tensor.
    #[pyo3(signature = (other, rtol=1e-5, atol=1e-8, equal_nan=false))]
    fn isclose(&self, py: Python<'_>, other: PyRef<'_, PyTensor>, rtol: f64, atol: f64, equal_nan: bool) -> PyResult<Py<PyAny>> {
        wrap(py, ops::isclose(&self.t, &other.t, rtol, atol, equal_nan)?)
    }
    /// Sort the elements along ``dim``; a named tuple ``(values, indices)``.
    #[pyo3(signature = (dim=-1, descending=false, *, stable=None))]
    fn sort(&self, py: Python<'_>, dim: i64, descending: bool, stable: Option<bool>) -> PyResult<Py<PyAny>> {
        // the core sort is always stable, which satisfies both settings; torch's overload
        // that takes `stable` records SortBackward1
        let (v, i) = ops::sort_as(&self.t, dim, descending, if stable.is_some() { "SortBackward1" } else { "SortBackward0" })?;
        return_pair(py, "sort", v, i)
    }
    /// ``median()``: the lower median of all elements (NaN if any is NaN).
    /// ``median(dim, keepdim=False)``: a named tuple ``(values, indices)`` along ``dim``.
    #[pyo3(signature = (dim=None, keepdim=false))]
    fn median(&self, py: Python<'_>, dim: Option<i64>, keepdim: bool) -> PyResult<Py<PyAny>> {
        match dim {
            None => wrap(py, ops::sort::median_all(&self.t, false)?),
            Some(d) => {
                let (v, i) = ops::sort::median_dim(&self.t, d, keepdim, false)?;
                return_pair(py, "median", v, i)
            }
        }
    }
    /// ``median`` that ignores NaNs (NaN only where every element is NaN).
    #[pyo3(signature = (dim=None, keepdim=false))]
    fn nanmedian(&self, py: Python<'_>, dim: Option<i64>, keepdim: bool) -> PyResult<Py<PyAny>> {
        match dim {
            None => wrap(py, ops::sort::median_all(&self.t, true)?),
            Some(d) => {
                let (v, i) = ops::sort::median_dim(&self.t, d, keepdim, true)?;
                return_pair(py, "nanmedian", v, i)
            }
        }
    }
    /// The ``k``-th smallest element along ``dim``; a named tuple ``(values, indices)``.
    #[pyo3(signature = (k, dim=-1, keepdim=false))]
    fn kthvalue(&self, py: Python<'_>, k: i64, dim: i64, keepdim: bool) -> PyResult<Py<PyAny>> {
        let (v, i) = ops::sort::kthvalue(&self.t, k, dim, keepdim)?;
        return_pair(py, "kthvalue", v, i)
    }
    /// The running maximum along ``dim`` and where it was reached; a named tuple ``(values, indices)``.
    fn cummax(&self, py: Python<'_>, dim: i64) -> PyResult<Py<PyAny>> {
        let (v, i) = ops::sort::cummax(&self.t, dim, true)?;
        return_pair(py, "cummax", v, i)
    }
    /// The running minimum along ``dim`` and where it was reached; a named tuple ``(values, indices)``.
    fn cummin(&self, py: Python<'_>, dim: i64) -> PyResult<Py<PyAny>> {
        let (v, i) = ops::sort::cummax(&self.t, dim, false)?;
        return_pair(py, "cummin", v, i)
    }
    /// ``log(cumsum(exp(self)))`` along ``dim``, without overflow.
    fn logcumsumexp(&self, py: Python<'_>, dim: i64) -> PyResult<Py<PyAny>> {
        wrap(py, ops::reduce::logcumsumexp(&self.t, dim)?)
    }
    /// The minimum and maximum (over ``dim``, or all elements); a named tuple ``(min, max)``.
    #[pyo3(signature = (*, dim=None, keepdim=false))]
    fn aminmax(&self, py: Python<'_>, dim: Option<i64>, keepdim: bool) -> PyResult<Py<PyAny>> {
        let (lo, hi) = ops::reduce::aminmax(&self.t, dim, keepdim)?;
        return_pair(py, "aminmax", lo, hi)
    }
    /// The ``k`` largest (or smallest) elements along ``dim``; a named tuple ``(values, indices)``.
    #[pyo3(signature = (k, dim=-1, largest=true, sorted=true))]
    fn topk(&self, py: Python<'_>, k: usize, dim: i64, largest: bool, sorted: bool) -> PyResult<Py<PyAny>> {
        let (v, i) = ops::topk(&self.t, k, dim, largest, sorted)?;
        return_pair(py, "topk", v, i)
    }
    fn _to_dtype(&self, py: Python<'_>, dtype: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let d = super::tensor::dtype_arg(dtype)?;
        wrap(py, ops::to_dtype(&self.t, d)?)
    }
    /// Fill with numbers sampled from the continuous uniform distribution on ``[a, b)``.
    #[pyo3(signature = (a=0.0, b=1.0, *, generator=None))]
    fn uniform_<'py>(slf: &Bound<'py, Self>, a: f64, b: f64, generator: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, Self>> {
        ops::uniform_(&slf.get().t, a, b, super::random::gen_arg(generator)?.as_ref())?;
        Ok(slf.clone())
    }
    /// Fill with numbers sampled from the normal distribution ``N(mean, std**2)``.
    #[pyo3(signature = (mean=0.0, std=1.0, *, generator=None))]
    fn normal_<'py>(slf: &Bound<'py, Self>, mean: f64, std: f64, generator: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, Self>> {
        ops::normal_(&slf.get().t, mean, std, super::random::gen_arg(generator)?.as_ref())?;
        Ok(slf.clone())
    }
    /// ``random_()``, ``random_(to)``, ``random_(from, to)``: fill with integers sampled
    /// uniformly from ``[from, to - 1]`` (by default the range of the dtype's mantissa or values).
    #[pyo3(signature = (*args, generator=None, **kw))]
    fn random_<'py>(slf: &Bound<'py, Self>, args: &Bound<'py, PyTuple>, generator: Option<&Bound<'py, PyAny>>, kw: Option<&Bound<'py, PyDict>>) -> PyResult<Bound<'py, Self>> {
        // `to` given as None (`random_(from, None)`) differs from `to` left out (`random_(to)`)
        let mut from_ = args.get_item(0).ok();
        let mut to = args.get_item(1).ok();
        if args.len() > 2 {
            return Err(PyTypeError::new_err(format!("random_() takes from 0 to 2 positional arguments but {} were given", args.len())));
        }
        if let Some(d) = kw {
            for (k, v) in d.iter() {
                match k.extract::<String>()?.as_str() {
                    "from" if from_.is_none() => from_ = Some(v),
                    "to" if to.is_none() => to = Some(v),
                    k => return Err(PyTypeError::new_err(format!("random_() got an unexpected keyword argument '{k}'"))),
                }
            }
        }
        let int = |o: &Bound<'py, PyAny>| -> PyResult<i64> { o.extract() };
        let g = super::random::gen_arg(generator)?;
        match (from_, to) {
            (None, None) => ops::random_(&slf.get().t, None, g.as_ref())?,
            (Some(hi), None) | (None, Some(hi)) => ops::random_to_(&slf.get().t, int(&hi)?, g.as_ref())?,
            (Some(lo), Some(hi)) => ops::random_(&slf.get().t, Some((int(&lo)?, if hi.is_none() { None } else { Some(int(&hi)?) })), g.as_ref())?,
        }
        Ok(slf.clone())
    }
    /// Fill with draws from Bernoulli(``p``), in place.
    #[pyo3(signature = (p=None, *, generator=None))]
    fn bernoulli_<'py>(slf: &Bound<'py, Self>, p: Option<&Bound<'py, PyAny>>, generator: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, Self>> {
        let g = super::random::gen_arg(generator)?;
        match p {
            Some(p) if p.cast::<PyTensor>().is_ok() => ops::bernoulli_tensor_(&slf.get().t, &p.cast::<PyTensor>()?.get().t, g.as_ref())?,
            Some(p) if !p.is_none() => ops::bernoulli_scalar_(&slf.get().t, p.extract()?, g.as_ref())?,
            _ => ops::bernoulli_scalar_(&slf.get().t, 0.5, g.as_ref())?,
        }
        Ok(slf.clone())
    }
    /// Draw binary random numbers (0 or 1) with probabilities ``self`` (or ``p``).
    #[pyo3(signature = (p=None, *, generator=None))]
    fn bernoulli(&self, py: Python<'_>, p: Option<&Bound<'_, PyAny>>, generator: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
        let g = super::random::gen_arg(generator)?;
        let t = &self.t;
        let r = match p {
            Some(p) if !p.is_none() => {
                let o = crate::tensor::zeros_on(&t.shape(), t.dtype(), t.device())?;
                match p.cast::<PyTensor>() {
                    Ok(pt) => ops::bernoulli_tensor_(&o, &pt.get().t, g.as_ref())?,
                    Err(_) => ops::bernoulli_scalar_(&o, p.extract()?, g.as_ref())?,
                }
                o
            }
            _ => ops::bernoulli(t, g.as_ref())?,
        };
        wrap(py, r)
    }
    /// Fill with numbers drawn from the exponential distribution with rate ``lambd``.
    #[pyo3(signature = (lambd=1.0, *, generator=None))]
    fn exponential_<'py>(slf: &Bound<'py, Self>, lambd: f64, generator: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, Self>> {
        ops::exponential_(&slf.get().t, lambd, super::random::gen_arg(generator)?.as_ref())?;
        Ok(slf.clone())
    }
    /// Fill with numbers drawn from the Cauchy distribution with ``median`` and scale ``sigma``.
    #[pyo3(signature = (median=0.0, sigma=1.0, *, generator=None))]
    fn cauchy_<'py>(slf: &Bound<'py, Self>, median: f64, sigma: f64, generator: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, Self>> {
        ops::cauchy_(&slf.get().t, median, sigma, super::random::gen_arg(generator)?.as_ref())?;
        Ok(slf.clone())
    }
    /// Fill with numbers drawn from the log-normal distribution whose logarithm has ``mean``
    /// and standard deviation ``std``.
    #[pyo3(signature = (mean=1.0, std=2.0, *, generator=None))]
    fn log_normal_<'py>(slf: &Bound<'py, Self>, mean: f64, std: f64, generator: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, Self>> {
        ops::log_normal_(&slf.get().t, mean, std, super::random::gen_arg(generator)?.as_ref())?;
        Ok(slf.clone())
    }
    /// Fill with the number of Bernoulli(``p``) trials up to the first success (1, 2, ...).
    #[pyo3(signature = (p, *, generator=None))]
    fn geometric_<'py>(slf: &Bound<'py, Self>, p: f64, generator: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, Self>> {
        ops::geometric_(&slf.get().t, p, super::random::gen_arg(generator)?.as_ref())?;
        Ok(slf.clone())
    }
    /// Indices sampled from the multinomial distribution given by the rows of ``self``.
    #[pyo3(signature = (num_samples, replacement=false, *, generator=None))]
    fn multinomial(&self, py: Python<'_>, num_samples: i64, replacement: bool, generator: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
        wrap(py, ops::multinomial(&self.t, num_samples, replacement, super::random::gen_arg(generator)?.as_ref())?)
    }
}

fn var_args(t: &Tensor, dim: Option<&Bound<'_, PyAny>>, unbiased: Option<&Bound<'_, PyAny>>, correction: Option<f64>) -> PyResult<(Option<Vec<usize>>, f64)> {
    // torch refuses the dtype before it looks at the dims
    ops::check_var_dtype(t)?;
    // torch.var(x, False) passes `unbiased` positionally where dim would be
    let (dim, unbiased) = match dim {
        Some(d) if d.is_instance_of::<pyo3::types::PyBool>() => (None, Some(d.clone())),
        _ => (dim.cloned(), unbiased.cloned()),
    };
    let c = match (correction, unbiased) {
        (Some(c), _) => c,
        (None, Some(u)) => if u.is_truthy()? { 1.0 } else { 0.0 },
        (None, None) => 1.0,
    };
    let dims = match dims_arg(dim.as_ref())? { Some(d) => Some(ops::reduce_dims(&d, t.dim())?), None => None };
    Ok((dims, c))
}

/// ATen's warning when a variance has no degrees of freedom left (`correction` at least the
/// number of elements reduced into each output).
pub(crate) fn dof_warning(py: Python<'_>, name: &str, t: &Tensor, dims: Option<&[usize]>, correction: f64) -> PyResult<()> {
    let shape = t.shape();
    let n: usize = match dims {
        Some(d) if !d.is_empty() => d.iter().map(|&i| shape[i]).product(),
        _ => shape.iter().product(),
    };
    if n as f64 - correction <= 0.0 {
        // attributed past the library's Python wrappers to the caller, as PyTorch's C++ warning
        py.import("ferrograd._warn")?.getattr("warn_native")?.call1((format!("{name}(): degrees of freedom is <= 0. Correction should be strictly less than the reduction factor (input numel divided by output numel). (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/ReduceOps.cpp:1861.)"),))?;
    }
    Ok(())
}

impl PyTensor {
    fn minmax(&self, py: Python<'_>, dim: Option<&Bound<'_, PyAny>>, keepdim: bool, is_max: bool) -> PyResult<Py<PyAny>> {
        match dim {
            None => wrap(py, ops::max_all(&self.t, is_max)?),
            Some(d) if d.is_none() => wrap(py, ops::max_all(&self.t, is_max)?),
            Some(d) => {
                if let Ok(other) = d.cast::<PyTensor>() {
                    let o = other.get().t.clone();
                    return wrap(py, if is_max { ops::maximum(&self.t, &o)? } else { ops::minimum(&self.t, &o)? });
                }
                let d: i64 = d.extract()?;
                let (v, i) = ops::max_dim(&self.t, d, keepdim, is_max)?;
                return_pair(py, if is_max { "max" } else { "min" }, v, i)
            }
        }
    }
}

/// The index tensors of `index_put(_)`: a tuple or list of tensors (None skips a dim); a bool
/// mask stands for the long indices of its set elements, one per dim it covers.
fn index_put_indices(fname: &str, indices: &Bound<'_, PyAny>) -> PyResult<Vec<Option<Tensor>>> {
    if indices.cast::<PyTensor>().is_ok() || !(indices.is_instance_of::<pyo3::types::PyTuple>() || indices.is_instance_of::<pyo3::types::PyList>()) {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "{fname}(): argument 'indices' (position 1) must be tuple of Tensors, not {}", indices.get_type().name()?)));
    }
    let mut out = Vec::new();
    for item in indices.try_iter()? {
        let item = item?;
        if item.is_none() {
            out.push(None);
            continue;
        }
        let t = item.cast::<PyTensor>().map_err(|_| pyo3::exceptions::PyTypeError::new_err(format!(
            "{fname}(): argument 'indices' (position 1) must be tuple of Tensors, not {}", indices.get_type().name().map(|n| n.to_string()).unwrap_or_default())))?.get().t.clone();
        match t.dtype() {
            crate::DType::Bool | crate::DType::UInt8 => {
                for col in ops::nonzero_tuple(&t)? {
                    out.push(Some(col));
                }
            }
            d if d.is_float() => return Err(pyo3::exceptions::PyIndexError::new_err("tensors used as indices must be long, int, byte or bool tensors")),
            _ => out.push(Some(t)),
        }
    }
    Ok(out)
}

// ---- lerp, addcmul, addcdiv, cumprod, addmm, addmv, baddbmm -----------------------------

/// `lerp`'s weight: a tensor (LerpBackward1) or a number (LerpBackward0).
enum LerpWeight {
    Tensor(Tensor),
    Number(Scalar),
}

fn type_label(o: &Bound<'_, PyAny>) -> String {
    if o.cast::<PyTensor>().is_ok() {
        return "Tensor".into();
    }
    o.get_type().name().map(|n| n.to_string()).unwrap_or_default()
}

/// torch's "invalid combination" TypeError for `lerp(end, weight)` (the method's signatures).
fn lerp_args(fname: &str, end: &Bound<'_, PyAny>, weight: &Bound<'_, PyAny>) -> PyResult<(Tensor, LerpWeight)> {
    let e = end.cast::<PyTensor>().ok().map(|t| t.get().t.clone());
    let w = match weight.cast::<PyTensor>() {
        Ok(t) => Some(LerpWeight::Tensor(t.get().t.clone())),
        Err(_) => py_scalar(weight).map(LerpWeight::Number),
    };
    if let (Some(e), Some(w)) = (e, w) {
        return Ok((e, w));
    }
    let (te, tw) = (type_label(end), type_label(weight));
    // torch marks the first argument that fails a signature and every one after it
    let mark = |ok: bool, s: &str| if ok { s.to_string() } else { format!("!{s}!") };
    let end_ok = te == "Tensor";
    let tensor_w = format!("({}, {})", mark(end_ok, &te), mark(end_ok && tw == "Tensor", &tw));
    let number_w = format!("({}, {})", mark(end_ok, &te), mark(end_ok && py_scalar(weight).is_some(), &tw));
    Err(PyTypeError::new_err(format!(
        "{fname}() received an invalid combination of arguments - got ({te}, {tw}), but expected one of:\n * (Tensor end, Tensor weight)\n      didn't match because some of the arguments have invalid types: {tensor_w}\n * (Tensor end, Number weight)\n      didn't match because some of the arguments have invalid types: {number_w}\n"
    )))
}

fn lerp_core(t: &Tensor, e: &Tensor, w: &LerpWeight) -> CoreResult<Tensor> {
    match w {
        LerpWeight::Tensor(w) => ops::lerp_tensor(t, e, w),
        LerpWeight::Number(s) => ops::lerp_scalar(t, e, *s),
    }
}

/// A tensor argument of a method, with torch's TypeError otherwise.
fn tensor_arg(fname: &str, arg: &str, pos: usize, v: &Bound<'_, PyAny>) -> PyResult<Tensor> {
    match v.cast::<PyTensor>() {
        Ok(t) => Ok(t.get().t.clone()),
        Err(_) => Err(not_tensor(fname, arg, pos, v)),
    }
}

/// An int argument of a method (a Python int, not a bool or float), with torch's TypeError.
fn int_arg(fname: &str, arg: &str, pos: usize, v: &Bound<'_, PyAny>) -> PyResult<i64> {
    if !v.is_instance_of::<pyo3::types::PyBool>() {
        if let Ok(i) = v.extract::<i64>() {
            return Ok(i);
        }
    }
    let tn = v.get_type().name().map(|n| n.to_string()).unwrap_or_default();
    Err(PyTypeError::new_err(format!("{fname}(): argument '{arg}' (position {pos}) must be int, not {tn}")))
}

/// A keyword number argument (`value=`, `beta=`, `alpha=`), `default` when absent.
fn number_arg(fname: &str, arg: &str, v: Option<&Bound<'_, PyAny>>, default: Scalar) -> PyResult<Scalar> {
    match v {
        None => Ok(default),
        Some(v) => py_scalar(v).ok_or_else(|| {
            let tn = v.get_type().name().map(|n| n.to_string()).unwrap_or_default();
            PyTypeError::new_err(format!("{fname}(): argument '{arg}' must be Number, not {tn}"))
        }),
    }
}

/// The shape `addmm`/`addmv`/`baddbmm` produce from well-formed operands (None when the
/// operands are malformed: the op itself reports that).
fn product_shape(kind: &str, a: &Tensor, b: &Tensor) -> Option<Vec<usize>> {
    let (sa, sb) = (a.shape(), b.shape());
    match kind {
        "addmm" if a.dim() == 2 && b.dim() == 2 => Some(vec![sa[0], sb[1]]),
        "addmv" if a.dim() == 2 && b.dim() == 1 => Some(vec![sa[0]]),
        "baddbmm" if a.dim() == 3 && b.dim() == 3 => Some(vec![sa[0], sa[1], sb[2]]),
        _ => None,
    }
}

type BetaAlphaOp = fn(&Tensor, &Tensor, &Tensor, Scalar, Scalar) -> CoreResult<Tensor>;

fn beta_alpha_op(kind: &str) -> BetaAlphaOp {
    match kind {
        "addmm" => ops::addmm,
        "addmv" => ops::addmv,
        _ => ops::baddbmm,
    }
}

impl PyTensor {
    /// `addmm` / `addmv` / `baddbmm` (and their in-place forms when `target`).
    #[allow(clippy::too_many_arguments)]
    fn beta_alpha(&self, py: Python<'_>, kind: &str, names: (&str, &str), a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>, beta: Option<&Bound<'_, PyAny>>, alpha: Option<&Bound<'_, PyAny>>, out: Option<&Bound<'_, PyTensor>>, inplace: bool) -> PyResult<Option<Py<PyAny>>> {
        let fname = if inplace { format!("{kind}_") } else { kind.to_string() };
        let a = tensor_arg(&fname, names.0, 1, a)?;
        let b = tensor_arg(&fname, names.1, 2, b)?;
        let beta = number_arg(&fname, "beta", beta, Scalar::Int(1))?;
        let alpha = number_arg(&fname, "alpha", alpha, Scalar::Int(1))?;
        let f = beta_alpha_op(kind);
        let t = &self.t;
        if inplace {
            if let Some(s) = product_shape(kind, &a, &b) {
                ops::check_inplace_shape(t, &s)?;
            }
            ops::inplace(t, |inp| f(inp, &a, &b, beta, alpha))?;
            return Ok(None);
        }
        let work = a.numel() * b.shape().last().copied().unwrap_or(1);
        if crate::autocast::active() {
            // lower-precision ops under autocast: every floating operand cast
            let (t, a, b) = (crate::autocast::lower(t)?, crate::autocast::lower(&a)?, crate::autocast::lower(&b)?);
            return run_out(py, kind, work, out, || f(&t, &a, &b, beta, alpha)).map(Some);
        }
        run_out(py, kind, work, out, || f(t, &a, &b, beta, alpha)).map(Some)
    }
}

#[pymethods]
impl PyTensor {
    /// Linear interpolation ``self + weight * (end - self)``; ``weight`` is a number or a
    /// broadcastable tensor.
    #[pyo3(signature = (end, weight, *, out=None))]
    fn lerp(&self, py: Python<'_>, end: &Bound<'_, PyAny>, weight: &Bound<'_, PyAny>, out: Option<&Bound<'_, PyTensor>>) -> PyResult<Py<PyAny>> {
        let (e, w) = lerp_args("lerp", end, weight)?;
        let t = &self.t;
        run_out(py, "lerp", t.numel(), out, || lerp_core(t, &e, &w))
    }
    /// In-place version of ``lerp``.
    fn lerp_<'py>(slf: &Bound<'py, Self>, end: &Bound<'py, PyAny>, weight: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        let (e, w) = lerp_args("lerp_", end, weight)?;
        ops::inplace(&slf.get().t, |inp| lerp_core(inp, &e, &w))?;
        Ok(slf.clone())
    }
    /// ``self + value * tensor1 * tensor2`` element-wise (broadcasting, type promotion).
    #[pyo3(signature = (tensor1, tensor2, *, value=None, out=None))]
    fn addcmul(&self, py: Python<'_>, tensor1: &Bound<'_, PyAny>, tensor2: &Bound<'_, PyAny>, value: Option<&Bound<'_, PyAny>>, out: Option<&Bound<'_, PyTensor>>) -> PyResult<Py<PyAny>> {
        let (a, b) = (tensor_arg("addcmul", "tensor1", 1, tensor1)?, tensor_arg("addcmul", "tensor2", 2, tensor2)?);
        let v = number_arg("addcmul", "value", value, Scalar::Int(1))?;
        let t = &self.t;
        run_out(py, "addcmul", t.numel(), out, || ops::addcmul(t, &a, &b, v))
    }
    /// In-place version of ``addcmul``.
    #[pyo3(signature = (tensor1, tensor2, *, value=None))]
    fn addcmul_<'py>(slf: &Bound<'py, Self>, tensor1: &Bound<'py, PyAny>, tensor2: &Bound<'py, PyAny>, value: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, Self>> {
        let (a, b) = (tensor_arg("addcmul_", "tensor1", 1, tensor1)?, tensor_arg("addcmul_", "tensor2", 2, tensor2)?);
        let v = number_arg("addcmul_", "value", value, Scalar::Int(1))?;
        ops::addc_(&slf.get().t, &a, &b, v, false)?;
        Ok(slf.clone())
    }
    /// ``self + value * tensor1 / tensor2`` element-wise (broadcasting, type promotion).
    #[pyo3(signature = (tensor1, tensor2, *, value=None, out=None))]
    fn addcdiv(&self, py: Python<'_>, tensor1: &Bound<'_, PyAny>, tensor2: &Bound<'_, PyAny>, value: Option<&Bound<'_, PyAny>>, out: Option<&Bound<'_, PyTensor>>) -> PyResult<Py<PyAny>> {
        let (a, b) = (tensor_arg("addcdiv", "tensor1", 1, tensor1)?, tensor_arg("addcdiv", "tensor2", 2, tensor2)?);
        let v = number_arg("addcdiv", "value", value, Scalar::Int(1))?;
        let t = &self.t;
        run_out(py, "addcdiv", t.numel(), out, || ops::addcdiv(t, &a, &b, v))
    }
    /// In-place version of ``addcdiv``.
    #[pyo3(signature = (tensor1, tensor2, *, value=None))]
    fn addcdiv_<'py>(slf: &Bound<'py, Self>, tensor1: &Bound<'py, PyAny>, tensor2: &Bound<'py, PyAny>, value: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, Self>> {
        let (a, b) = (tensor_arg("addcdiv_", "tensor1", 1, tensor1)?, tensor_arg("addcdiv_", "tensor2", 2, tensor2)?);
        let v = number_arg("addcdiv_", "value", value, Scalar::Int(1))?;
        ops::addc_(&slf.get().t, &a, &b, v, true)?;
        Ok(slf.clone())
    }
    /// The cumulative product of the elements along ``dim``.
    #[pyo3(signature = (dim, *, dtype=None, out=None))]
    fn cumprod(&self, py: Python<'_>, dim: &Bound<'_, PyAny>, dtype: Option<&Bound<'_, PyAny>>, out: Option<&Bound<'_, PyTensor>>) -> PyResult<Py<PyAny>> {
        let dim = int_arg("cumprod", "dim", 1, dim)?;
        let dt = opt_dtype(dtype)?;
        ops::check_grad_dtype(&self.t, dt)?;
        let t = match dt { Some(d) => ops::to_dtype(&self.t, d)?, None => self.t.clone() };
        run_out(py, "cumprod", t.numel(), out, || ops::cumprod(&t, dim))
    }
    /// In-place version of ``cumprod``.
    #[pyo3(signature = (dim, *, dtype=None))]
    fn cumprod_<'py>(slf: &Bound<'py, Self>, dim: &Bound<'py, PyAny>, dtype: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, Self>> {
        let dim = int_arg("cumprod_", "dim", 1, dim)?;
        let t = &slf.get().t;
        if let Some(d) = opt_dtype(dtype)? {
            if d != t.dtype() {
                return Err(PyRuntimeError::new_err(format!("Bad in-place call: input tensor dtype {} and output tensor dtype {} should match", t.dtype().cpp_type_name(), d.cpp_type_name())));
            }
        }
        ops::inplace(t, |inp| ops::cumprod(inp, dim))?;
        Ok(slf.clone())
    }
    /// ``beta * self + alpha * (mat1 @ mat2)`` for matrices ``mat1``, ``mat2``; ``self``
    /// broadcasts to the product's shape.
    #[pyo3(signature = (mat1, mat2, *, beta=None, alpha=None, out=None))]
    fn addmm(&self, py: Python<'_>, mat1: &Bound<'_, PyAny>, mat2: &Bound<'_, PyAny>, beta: Option<&Bound<'_, PyAny>>, alpha: Option<&Bound<'_, PyAny>>, out: Option<&Bound<'_, PyTensor>>) -> PyResult<Py<PyAny>> {
        Ok(self.beta_alpha(py, "addmm", ("mat1", "mat2"), mat1, mat2, beta, alpha, out, false)?.expect("a result"))
    }
    /// In-place version of ``addmm``.
    #[pyo3(signature = (mat1, mat2, *, beta=None, alpha=None))]
    fn addmm_<'py>(slf: &Bound<'py, Self>, mat1: &Bound<'py, PyAny>, mat2: &Bound<'py, PyAny>, beta: Option<&Bound<'py, PyAny>>, alpha: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, Self>> {
        slf.get().beta_alpha(slf.py(), "addmm", ("mat1", "mat2"), mat1, mat2, beta, alpha, None, true)?;
        Ok(slf.clone())
    }
    /// ``beta * self + alpha * (mat @ vec)`` for a matrix ``mat`` and a vector ``vec``.
    #[pyo3(signature = (mat, vec, *, beta=None, alpha=None, out=None))]
    fn addmv(&self, py: Python<'_>, mat: &Bound<'_, PyAny>, vec: &Bound<'_, PyAny>, beta: Option<&Bound<'_, PyAny>>, alpha: Option<&Bound<'_, PyAny>>, out: Option<&Bound<'_, PyTensor>>) -> PyResult<Py<PyAny>> {
        Ok(self.beta_alpha(py, "addmv", ("mat", "vec"), mat, vec, beta, alpha, out, false)?.expect("a result"))
    }
    /// In-place version of ``addmv``.
    #[pyo3(signature = (mat, vec, *, beta=None, alpha=None))]
    fn addmv_<'py>(slf: &Bound<'py, Self>, mat: &Bound<'py, PyAny>, vec: &Bound<'py, PyAny>, beta: Option<&Bound<'py, PyAny>>, alpha: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, Self>> {
        slf.get().beta_alpha(slf.py(), "addmv", ("mat", "vec"), mat, vec, beta, alpha, None, true)?;
        Ok(slf.clone())
    }
    /// ``beta * self + alpha * (batch1 @ batch2)`` for 3-d ``batch1``, ``batch2`` (one matrix
    /// product per batch); ``self`` broadcasts to the product's shape.
    #[pyo3(signature = (batch1, batch2, *, beta=None, alpha=None, out=None))]
    fn baddbmm(&self, py: Python<'_>, batch1: &Bound<'_, PyAny>, batch2: &Bound<'_, PyAny>, beta: Option<&Bound<'_, PyAny>>, alpha: Option<&Bound<'_, PyAny>>, out: Option<&Bound<'_, PyTensor>>) -> PyResult<Py<PyAny>> {
        Ok(self.beta_alpha(py, "baddbmm", ("batch1", "batch2"), batch1, batch2, beta, alpha, out, false)?.expect("a result"))
    }
    /// In-place version of ``baddbmm``.
    #[pyo3(signature = (batch1, batch2, *, beta=None, alpha=None))]
    fn baddbmm_<'py>(slf: &Bound<'py, Self>, batch1: &Bound<'py, PyAny>, batch2: &Bound<'py, PyAny>, beta: Option<&Bound<'py, PyAny>>, alpha: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, Self>> {
        slf.get().beta_alpha(slf.py(), "baddbmm", ("batch1", "batch2"), batch1, batch2, beta, alpha, None, true)?;
        Ok(slf.clone())
    }
}

/// What `scatter` writes: a tensor, or a number.
enum ScatterSrc {
    Tensor(Tensor),
    Value(Scalar),
}

/// `scatter(dim, index, src | value, reduce=)`'s arguments: a tensor `src`, or a number
/// (given as `src` positionally or as `value`); `reduce="add"` is scatter_add, as PyTorch's
/// deprecated form.
fn scatter_args(
    src: Option<&Bound<'_, PyAny>>,
    value: Option<&Bound<'_, PyAny>>,
    reduce: Option<&str>,
) -> PyResult<(ScatterSrc, Option<bool>)> {
    let what = match (src, value) {
        (Some(s), None) | (None, Some(s)) => s,
        _ => return Err(PyTypeError::new_err("scatter() received an invalid combination of arguments - expected (int dim, Tensor index, Tensor src) or (int dim, Tensor index, Number value)")),
    };
    // None: plain scatter; Some(multiply): the deprecated reducing form
    let legacy = match reduce {
        None => None,
        Some("add") => Some(false),
        Some("multiply") => Some(true),
        Some(_) => {
            return Err(PyRuntimeError::new_err(
                "reduce argument must be either add or multiply.",
            ))
        }
    };
    if let Ok(t) = what.cast::<PyTensor>() {
        if legacy.is_some() {
            // ATen's TORCH_WARN_ONCE
            static WARNED: std::sync::Once = std::sync::Once::new();
            let mut r = Ok(());
            WARNED.call_once(|| {
                r = pyo3::PyErr::warn(what.py(), &what.py().get_type::<pyo3::exceptions::PyUserWarning>(),
                    c"The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in a future PyTorch release. Use torch.scatter_reduce instead for more reduction options.", 1);
            });
            r?;
        }
        return Ok((ScatterSrc::Tensor(t.get().t.clone()), legacy));
    }
    let v = py_scalar(what)
        .ok_or_else(|| PyTypeError::new_err("scatter(): src must be a Tensor or a number"))?;
    Ok((ScatterSrc::Value(v), legacy))
}

fn scatter_apply(
    t: &Tensor,
    dim: i64,
    index: &Tensor,
    src: &ScatterSrc,
    legacy: Option<bool>,
) -> CoreResult<Tensor> {
    match (src, legacy) {
        (ScatterSrc::Tensor(s), Some(mul)) => ops::scatter_reduce_legacy(t, dim, index, s, mul),
        (ScatterSrc::Tensor(s), None) => ops::scatter(t, dim, index, s),
        (ScatterSrc::Value(v), Some(mul)) => ops::scatter_reduce_legacy(
            t,
            dim,
            index,
            &crate::tensor::full_on(&index.shape(), *v, t.dtype(), t.device())?,
            mul,
        ),
        (ScatterSrc::Value(v), None) => ops::scatter_value(t, dim, index, *v),
    }
}

#[pymethods]
impl PyTensor {
    /// ``log(p / (1 - p))`` of the elements, with ``p`` clamped to ``[eps, 1 - eps]`` when
    /// ``eps`` is given.
    #[pyo3(signature = (eps=None))]
    fn logit(&self, py: Python<'_>, eps: Option<f64>) -> PyResult<Py<PyAny>> {
        let t = &self.t;
        run(py, t.numel(), || ops::nn_layers::logit(t, eps))
    }

    /// ``self * log(other)``, 0 where ``self`` is 0 (unless ``other`` is NaN).
    fn xlogy(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let (t, o) = (&self.t, need(other)?);
        run(py, t.numel(), || ops::nn_layers::xlogy(t, &o))
    }

    /// The cross product of 3-vectors along ``dim`` (without ``dim``: the first dim of
    /// length 3, with PyTorch's deprecation warning), the other dims broadcast.
    #[pyo3(signature = (other, dim=None))]
    fn cross(&self, py: Python<'_>, other: PyRef<'_, PyTensor>, dim: Option<i64>) -> PyResult<Py<PyAny>> {
        if dim.is_none() {
            static WARNED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
            if !WARNED.swap(true, std::sync::atomic::Ordering::Relaxed) {
                user_warning(py, "Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the dim explicitly or simply use torch.linalg.cross.\nThe default value of dim will change to agree with that of linalg.cross in a future release.")?;
            }
        }
        let (t, o) = (&self.t, other.t.clone());
        run(py, t.numel(), || ops::nn_layers::cross(t, &o, dim))
    }
}

/// `torch.linalg.cross(input, other, *, dim=-1)`.
#[pyfunction]
#[pyo3(signature = (input, other, *, dim=-1))]
pub fn _linalg_cross(py: Python<'_>, input: PyRef<'_, PyTensor>, other: PyRef<'_, PyTensor>, dim: i64) -> PyResult<Py<PyAny>> {
    let (a, b) = (input.t.clone(), other.t.clone());
    run(py, a.numel().max(b.numel()), || ops::nn_layers::linalg_cross(&a, &b, dim))
}

/// `target.<op>_(...)` for an op computed by the Python callable `compute(snapshot)`: the
/// result is written into `target` through the core's in-place path (dtype check, version
/// bump, history rebased onto the op's node, views' CopySlices), so an in-place variant
/// records its op's node (CeilBackward0 for `ceil_`) as PyTorch's does. Returns `target`.
#[pyfunction]
pub fn _inplace_apply<'py>(target: &Bound<'py, PyTensor>, compute: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyTensor>> {
    let py = target.py();
    ops::inplace(&target.get().t, |inp| {
        let arg = wrap(py, inp.clone()).map_err(crate::error::Error::Python)?;
        let r = compute.call1((arg,)).map_err(crate::error::Error::Python)?;
        let t = r.cast::<PyTensor>().map_err(|_| crate::error::Error::Python(PyTypeError::new_err("the in-place computation must return a Tensor")))?;
        Ok(t.get().t.clone())
    })?;
    Ok(target.clone())
}

/// `torch.rot90(input, k, dims)`.
#[pyfunction]
pub fn _rot90(py: Python<'_>, input: PyRef<'_, PyTensor>, k: i64, dims: Vec<i64>) -> PyResult<Py<PyAny>> {
    wrap(py, ops::rot90(&input.t, k, &dims)?)
}

/// ``torch.var_mean`` / ``torch.std_mean`` (``take_sqrt``): the two results of one node.
#[pyfunction]
#[pyo3(signature = (input, take_sqrt, dim=None, unbiased=None, keepdim=false, correction=None))]
pub fn _var_mean(py: Python<'_>, input: &Bound<'_, PyTensor>, take_sqrt: bool, dim: Option<&Bound<'_, PyAny>>, unbiased: Option<&Bound<'_, PyAny>>, keepdim: bool, correction: Option<f64>) -> PyResult<Py<PyAny>> {
    let t = &input.get().t;
    let (dims, c) = var_args(t, dim, unbiased, correction)?;
    dof_warning(py, if take_sqrt { "std_mean" } else { "var_mean" }, t, dims.as_deref(), c)?;
    let (v, m) = ops::var_or_std_mean(t, dims.as_deref(), c, keepdim, take_sqrt)?;
    Ok(pyo3::types::PyTuple::new(py, [wrap(py, v)?, wrap(py, m)?])?.into_any().unbind())
}

/// ``torch.select_scatter(input, src, dim, index)``.
#[pyfunction]
pub fn select_scatter(py: Python<'_>, input: PyRef<'_, PyTensor>, src: PyRef<'_, PyTensor>, dim: i64, index: i64) -> PyResult<Py<PyAny>> {
    use crate::autograd::SavedValue as V;
    let f = [("dim", V::Int64(dim)), ("index", V::Int(index))];
    wrap(py, ops::view_scatter(&input.t, &src.t, "SelectScatterBackward0", &f, |t| ops::select(t, dim, index))?)
}

/// ``torch.slice_scatter(input, src, dim=0, start=None, end=None, step=1)``.
#[pyfunction]
#[pyo3(signature = (input, src, dim=0, start=None, end=None, step=1))]
pub fn slice_scatter(py: Python<'_>, input: PyRef<'_, PyTensor>, src: PyRef<'_, PyTensor>, dim: i64, start: Option<i64>, end: Option<i64>, step: i64) -> PyResult<Py<PyAny>> {
    use crate::autograd::SavedValue as V;
    let opt = |v: Option<i64>| v.map_or(V::None, V::Int);
    let f = [("dim", V::Int64(dim)), ("start", opt(start)), ("end", opt(end)), ("step", V::Int(step))];
    wrap(py, ops::view_scatter(&input.t, &src.t, "SliceScatterBackward0", &f, |t| ops::slice(t, dim, start, end, step))?)
}

/// ``torch.diagonal_scatter(input, src, offset=0, dim1=0, dim2=1)``.
#[pyfunction]
#[pyo3(signature = (input, src, offset=0, dim1=0, dim2=1))]
pub fn diagonal_scatter(py: Python<'_>, input: PyRef<'_, PyTensor>, src: PyRef<'_, PyTensor>, offset: i64, dim1: i64, dim2: i64) -> PyResult<Py<PyAny>> {
    use crate::autograd::SavedValue as V;
    let f = [("offset", V::Int64(offset)), ("dim1", V::Int64(dim1)), ("dim2", V::Int64(dim2))];
    wrap(py, ops::view_scatter(&input.t, &src.t, "DiagonalScatterBackward0", &f, |t| ops::diagonal(t, offset, dim1, dim2))?)
}

/// `torch.xlogy(input, other)`: either operand may be a number (not both).
#[pyfunction]
pub fn _xlogy(py: Python<'_>, input: &Bound<'_, PyAny>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    if input.cast::<PyTensor>().is_err() && other.cast::<PyTensor>().is_err() {
        return Err(PyTypeError::new_err("xlogy() received an invalid combination of arguments - got (a number and a number), but expected a Tensor for at least one of input and other"));
    }
    let (a, b) = (need(input)?, need(other)?);
    let work = a.numel().max(b.numel());
    run(py, work, || ops::nn_layers::xlogy(&a, &b))
}

/// A `torch.memory_format` object (its repr names it), or `default` for None.
pub fn memory_format(obj: Option<&Bound<'_, PyAny>>, fname: &str, default: ops::MemoryFormat) -> PyResult<ops::MemoryFormat> {
    let Some(obj) = obj else { return Ok(default) };
    if obj.is_none() {
        return Ok(default);
    }
    let repr = obj.repr()?.to_string();
    Ok(match repr.as_str() {
        "torch.contiguous_format" => ops::MemoryFormat::Contiguous,
        "torch.preserve_format" => ops::MemoryFormat::Preserve,
        "torch.channels_last" => ops::MemoryFormat::ChannelsLast,
        "torch.channels_last_3d" => ops::MemoryFormat::ChannelsLast3d,
        _ => return Err(PyTypeError::new_err(format!("{fname}(): argument 'memory_format' must be torch.memory_format, not {}", obj.get_type().name()?))),
    })
}

#[pymethods]
impl PyTensor {
    /// A contiguous tensor with the same data: ``self`` if already contiguous (in
    /// ``memory_format``: row-major, or channels-last), else a copy.
    #[pyo3(signature = (memory_format=None))]
    fn contiguous(&self, py: Python<'_>, memory_format: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
        let mf = self::memory_format(memory_format, "contiguous", ops::MemoryFormat::Contiguous)?;
        let t = &self.t;
        run(py, t.numel(), || ops::contiguous_as(t, mf))
    }

    /// A copy of the tensor (differentiable: the gradient flows back to ``self``), laid out
    /// as ``memory_format`` says (by default, the dim order of ``self``).
    #[pyo3(signature = (*, memory_format=None))]
    fn clone(&self, py: Python<'_>, memory_format: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
        let mf = self::memory_format(memory_format, "clone", ops::MemoryFormat::Preserve)?;
        let t = &self.t;
        run(py, t.numel(), || ops::clone_as(t, mf))
    }
}

#[pymethods]
impl PyTensor {
    /// A view of this tensor's storage with the given sizes, strides and storage offset
    /// (by default this tensor's own offset).
    #[pyo3(signature = (size, stride, storage_offset=None))]
    fn as_strided(&self, py: Python<'_>, size: Vec<i64>, stride: Vec<i64>, storage_offset: Option<i64>) -> PyResult<Py<PyAny>> {
        let t = &self.t;
        run(py, 0, || ops::as_strided_user(t, &size, &stride, storage_offset))
    }
}
