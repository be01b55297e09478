//! The Rust face of `Tensor`: operators (`&a * &b`), methods that mirror PyTorch's
//! (`a.matmul(&b)?`, `y.sum(None)?`, `y.backward()?`), backward options, and `Display`
//! that prints as PyTorch does.
//!
//! ```
//! use ferrograd::{Tensor, BackwardOptions};
//! let x = Tensor::from_vec(vec![1.0f32, 2.0, 3.0], &[3])?.requires_grad_(true)?;
//! let y = ((&x * &x)? + &x)?.sum(None)?;
//! y.backward()?;
//! assert_eq!(x.grad().unwrap().to_vec::<f32>()?, vec![3.0, 5.0, 7.0]);
//! assert_eq!(format!("{}", x.grad().unwrap()), "tensor([3., 5., 7.])");
//! let z = (&x * &x)?.sum(None)?;
//! z.backward_with(BackwardOptions::new().retain_graph(true))?;
//! # Ok::<(), ferrograd::Error>(())
//! ```

use super::{Scalar, Tensor};
use crate::dtype::DType;
use crate::error::Result;
use crate::ops;

/// Options of `backward` beyond the defaults: a builder (`BackwardOptions::new().retain_graph(true)`).
#[derive(Default, Clone)]
pub struct BackwardOptions {
    gradient: Option<Tensor>,
    retain_graph: bool,
    create_graph: bool,
    inputs: Option<Vec<Tensor>>,
}

impl BackwardOptions {
    pub fn new() -> Self {
        Self::default()
    }
    /// The gradient of the output (required for non-scalar outputs).
    pub fn gradient(mut self, g: Tensor) -> Self {
        self.gradient = Some(g);
        self
    }
    /// Keep the graph's saved tensors for another backward.
    pub fn retain_graph(mut self, keep: bool) -> Self {
        self.retain_graph = keep;
        self
    }
    /// Record the backward pass itself (for higher-order gradients); implies `retain_graph`.
    pub fn create_graph(mut self, create: bool) -> Self {
        self.create_graph = create;
        self
    }
    /// Accumulate only into these leaves.
    pub fn inputs(mut self, inputs: Vec<Tensor>) -> Self {
        self.inputs = Some(inputs);
        self
    }
}

impl Tensor {
    /// `x.requires_grad_(flag)`, returning `x` for chaining.
    pub fn requires_grad_(self, flag: bool) -> Result<Tensor> {
        self.set_requires_grad(flag)?;
        Ok(self)
    }
    /// `y.backward()` for a scalar `y`.
    pub fn backward(&self) -> Result<()> {
        self.backward_with(BackwardOptions::default())
    }
    /// `y.backward(gradient, retain_graph, create_graph, inputs)`.
    pub fn backward_with(&self, o: BackwardOptions) -> Result<()> {
        let g = match o.gradient {
            Some(g) => g,
            None => {
                crate::ensure!(self.numel() == 1, Runtime, "grad can be implicitly created only for scalar outputs");
                crate::ensure!(!self.dtype().is_complex(), Runtime, "grad can be implicitly created only for real scalar outputs but got torch.{}", self.dtype().name());
                crate::tensor::full_on(&self.shape(), Scalar::Int(1), self.dtype(), self.device())?
            }
        };
        crate::autograd::backward(crate::autograd::BackwardRequest {
            outputs: vec![self.clone()],
            grad_outputs: vec![g],
            keep_graph: o.retain_graph || o.create_graph,
            create_graph: o.create_graph,
            inputs: o.inputs,
            accumulate: true,
        })
    }
    pub fn add(&self, o: &Tensor) -> Result<Tensor> {
        ops::add(self, o)
    }
    pub fn sub(&self, o: &Tensor) -> Result<Tensor> {
        ops::sub(self, o)
    }
    pub fn mul(&self, o: &Tensor) -> Result<Tensor> {
        ops::mul(self, o)
    }
    pub fn div(&self, o: &Tensor) -> Result<Tensor> {
        ops::div(self, o)
    }
    /// `self * s` for a Python-style scalar (keeps the tensor's dtype where torch does).
    pub fn mul_scalar(&self, s: impl Into<Scalar>) -> Result<Tensor> {
        ops::mul(self, &Tensor::wrapped_scalar(s.into()))
    }
    /// `self + s` for a scalar.
    pub fn add_scalar(&self, s: impl Into<Scalar>) -> Result<Tensor> {
        ops::add(self, &Tensor::wrapped_scalar(s.into()))
    }
    pub fn pow(&self, p: impl Into<Scalar>) -> Result<Tensor> {
        ops::pow_scalar(self, p.into())
    }
    pub fn matmul(&self, o: &Tensor) -> Result<Tensor> {
        ops::matmul(self, o)
    }
    pub fn exp(&self) -> Result<Tensor> {
        ops::exp(self)
    }
    pub fn log(&self) -> Result<Tensor> {
        ops::log(self)
    }
    pub fn tanh(&self) -> Result<Tensor> {
        ops::tanh(self)
    }
    pub fn sigmoid(&self) -> Result<Tensor> {
        ops::sigmoid(self)
    }
    pub fn relu(&self) -> Result<Tensor> {
        ops::relu(self)
    }
    /// Sum over `dims` (all when `None`), dropping them.
    pub fn sum(&self, dims: Option<&[usize]>) -> Result<Tensor> {
        match dims {
            None => ops::sum(self, None),
            Some(d) => ops::sum_dims(self, d, false, None),
        }
    }
    /// Mean over `dims` (all when `None`), dropping them.
    pub fn mean(&self, dims: Option<&[usize]>) -> Result<Tensor> {
        ops::mean(self, dims, false, None)
    }
    pub fn reshape(&self, shape: &[i64]) -> Result<Tensor> {
        ops::reshape(self, shape)
    }
    /// Transpose of a matrix.
    pub fn t(&self) -> Result<Tensor> {
        ops::t(self)
    }
    pub fn log_softmax(&self, dim: i64) -> Result<Tensor> {
        ops::log_softmax(self, dim)
    }
    pub fn softmax(&self, dim: i64) -> Result<Tensor> {
        ops::softmax(self, dim)
    }
    /// `self.to(dtype)` (differentiable).
    pub fn to_dtype(&self, dtype: DType) -> Result<Tensor> {
        ops::to_dtype(self, dtype)
    }
    /// A copy on `device` (differentiable only within one device for now).
    pub fn to_device(&self, device: crate::Device) -> Result<Tensor> {
        if self.device() == device {
            return Ok(self.clone());
        }
        crate::backend::to_device(self, device)
    }
}

macro_rules! scalar_from {
    ($($t:ty => $v:ident($conv:expr)),*) => {
        $(impl From<$t> for Scalar {
            fn from(v: $t) -> Self {
                Scalar::$v($conv(v))
            }
        })*
    };
}
scalar_from!(f64 => Float(|v| v), f32 => Float(|v: f32| v as f64), i64 => Int(|v| v), i32 => Int(|v: i32| v as i64), bool => Bool(|v| v));

macro_rules! bin_op {
    ($trait:ident, $method:ident, $f:path) => {
        impl std::ops::$trait<&Tensor> for &Tensor {
            type Output = Result<Tensor>;
            fn $method(self, rhs: &Tensor) -> Result<Tensor> {
                $f(self, rhs)
            }
        }
        impl std::ops::$trait<Tensor> for Tensor {
            type Output = Result<Tensor>;
            fn $method(self, rhs: Tensor) -> Result<Tensor> {
                $f(&self, &rhs)
            }
        }
        impl std::ops::$trait<&Tensor> for Tensor {
            type Output = Result<Tensor>;
            fn $method(self, rhs: &Tensor) -> Result<Tensor> {
                $f(&self, rhs)
            }
        }
        impl std::ops::$trait<f64> for &Tensor {
            type Output = Result<Tensor>;
            fn $method(self, rhs: f64) -> Result<Tensor> {
                $f(self, &Tensor::wrapped_scalar(Scalar::Float(rhs)))
            }
        }
    };
}
bin_op!(Add, add, ops::add);
bin_op!(Sub, sub, ops::sub);
bin_op!(Mul, mul, ops::mul);
bin_op!(Div, div, ops::div);

impl std::ops::Neg for &Tensor {
    type Output = Result<Tensor>;
    fn neg(self) -> Result<Tensor> {
        ops::neg(self)
    }
}

// ---- printing, as PyTorch's `_tensor_str.py` (precision 4, linewidth 80, 1000 elements) ----

const PRECISION: usize = 4;
const LINEWIDTH: usize = 80;
const THRESHOLD: usize = 1000;
const EDGEITEMS: usize = 3;

/// How every element of one tensor is written (chosen from all the values, as torch does).
enum Style {
    Int,
    Bool,
    /// Floats with integral values: `1.`
    IntFloat,
    Fixed,
    Sci,
}

fn style_of(dtype: DType, vals: &[f64]) -> Style {
    if dtype == DType::Bool {
        return Style::Bool;
    }
    if !dtype.is_float() {
        return Style::Int;
    }
    let finite: Vec<f64> = vals.iter().copied().filter(|v| v.is_finite() && *v != 0.0).map(f64::abs).collect();
    if finite.is_empty() {
        return Style::IntFloat;
    }
    let (mn, mx) = finite.iter().fold((f64::INFINITY, 0f64), |(a, b), &v| (a.min(v), b.max(v)));
    let int_mode = vals.iter().filter(|v| v.is_finite()).all(|v| v.fract() == 0.0);
    if int_mode {
        if mx / mn > 1000.0 || mx > 1e8 { Style::Sci } else { Style::IntFloat }
    } else if mx / mn > 1000.0 || mx > 1e8 || mn < 1e-4 {
        Style::Sci
    } else {
        Style::Fixed
    }
}

fn fmt_value(v: f64, style: &Style) -> String {
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf".into() } else { "-inf".into() };
    }
    match style {
        Style::Bool => if v != 0.0 { "True".into() } else { "False".into() },
        Style::Int => format!("{}", v as i64),
        Style::IntFloat => format!("{v:.0}."),
        Style::Fixed => format!("{v:.PRECISION$}"),
        Style::Sci => {
            let s = format!("{v:.PRECISION$e}");
            // Rust writes `1.0000e-5`; torch (C printf) writes `1.0000e-05`
            match s.split_once('e') {
                Some((m, e)) => {
                    let (sign, digits) = if let Some(d) = e.strip_prefix('-') { ('-', d) } else { ('+', e) };
                    format!("{m}e{sign}{digits:0>2}")
                }
                None => s,
            }
        }
    }
}

/// The rows of `shape`'s last dim, nested, with summarization ("...") past the threshold.
fn fmt_nested(out: &mut String, vals: &[String], shape: &[usize], width: usize, indent: usize, summarize: bool) {
    let strides: Vec<usize> = (0..shape.len()).map(|i| shape[i + 1..].iter().product()).collect();
    fn go(out: &mut String, vals: &[String], shape: &[usize], strides: &[usize], base: usize, dim: usize, width: usize, indent: usize, summarize: bool) {
        let n = shape[dim];
        let idx: Vec<Option<usize>> = if summarize && n > 2 * EDGEITEMS {
            (0..EDGEITEMS).map(Some).chain(std::iter::once(None)).chain((n - EDGEITEMS..n).map(Some)).collect()
        } else {
            (0..n).map(Some).collect()
        };
        out.push('[');
        if dim + 1 == shape.len() {
            let per_line = ((LINEWIDTH - indent - 1) / (width + 2)).max(1);
            for (k, i) in idx.iter().enumerate() {
                if k > 0 {
                    out.push(',');
                    if k % per_line == 0 {
                        out.push('\n');
                        out.push_str(&" ".repeat(indent + 1));
                    } else {
                        out.push(' ');
                    }
                }
                match i {
                    Some(i) => out.push_str(&format!("{:>width$}", vals[base + i * strides[dim]])),
                    None => out.push_str("..."),
                }
            }
        } else {
            for (k, i) in idx.iter().enumerate() {
                if k > 0 {
                    out.push(',');
                    out.push_str(&"\n".repeat(shape.len() - dim - 1));
                    out.push_str(&" ".repeat(indent + 1));
                }
                match i {
                    Some(i) => go(out, vals, shape, strides, base + i * strides[dim], dim + 1, width, indent + 1, summarize),
                    None => out.push_str("..."),
                }
            }
        }
        out.push(']');
    }
    go(out, vals, shape, &strides, 0, 0, width, indent, summarize);
}

impl std::fmt::Display for Tensor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let vals = self.to_f64_vec().map_err(|_| std::fmt::Error)?;
        let shape = self.shape();
        let dtype = self.dtype();
        let summarize = vals.len() > THRESHOLD;
        // the style is chosen from the elements that are shown
        let style = style_of(dtype, &vals);
        let strs: Vec<String> = vals.iter().map(|&v| fmt_value(v, &style)).collect();
        let width = strs.iter().map(|s| s.len()).max().unwrap_or(0);
        let mut body = String::new();
        if shape.is_empty() {
            body.push_str(&strs[0]);
        } else if vals.is_empty() {
            body.push_str("[]");
        } else {
            fmt_nested(&mut body, &strs, &shape, width, 7, summarize);
        }
        let mut suffix = Vec::new();
        if self.is_cuda() {
            suffix.push(format!("device='{}'", self.device()));
        }
        if vals.is_empty() && shape.len() != 1 {
            suffix.push(format!("size=({})", shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")));
        }
        let default = matches!(dtype, DType::Bool | DType::Int64) || dtype == crate::dtype::default_float();
        if !default {
            suffix.push(format!("dtype=torch.{}", dtype.name()));
        }
        if let Some(n) = self.grad_fn() {
            suffix.push(format!("grad_fn=<{}>", n.name));
        } else if self.requires_grad() {
            suffix.push("requires_grad=True".into());
        }
        write!(f, "tensor({body}")?;
        for s in suffix {
            write!(f, ", {s}")?;
        }
        write!(f, ")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    fn show(v: Vec<f32>, shape: &[usize]) -> String {
        format!("{}", Tensor::from_vec(v, shape).unwrap())
    }
    #[test]
    fn prints_like_torch() {
        assert_eq!(show(vec![1., 2., 3.], &[3]), "tensor([1., 2., 3.])");
        assert_eq!(show(vec![0.1, 0.25], &[2]), "tensor([0.1000, 0.2500])");
        assert_eq!(show(vec![1e-5, 1.0], &[2]), "tensor([1.0000e-05, 1.0000e+00])");
        assert_eq!(show(vec![1., -2., 3., 4.], &[2, 2]), "tensor([[ 1., -2.],\n        [ 3.,  4.]])");
        assert_eq!(format!("{}", Tensor::from_vec(vec![1i64, 20], &[2]).unwrap()), "tensor([ 1, 20])");
        assert_eq!(format!("{}", Tensor::from_vec(vec![1.5f64], &[]).unwrap()), "tensor(1.5000, dtype=torch.float64)");
    }
}
