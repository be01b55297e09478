//! The backend seam: one small, closed set of operations every device implements
//! ([`BackendStorage`]), and the one place that dispatches on the device
//! (`match storage { Cpu => cpu kernels, Cuda => cuda kernels }`) after checking that the
//! operands share a device. `ops/` calls only these functions; it never sees a buffer.
//!
//! Every function here works on raw data: no autograd, no dtype promotion (the caller in
//! `ops/` has already decided the dtype and the broadcast layouts).

mod ops;
pub use ops::{Attention, BinaryOp, Conv2d, ConvWindow, GridMode, GridPadding, GridPass, GridSampler, Pool2d, PoolWindows, ReduceOp, ScanOp, UnaryKind, UnaryOp};

/// Dense linear algebra on host f64 matrices (LU, triangular solves, Cholesky, QR, eigh,
/// SVD). Every device uses these: `ops::linalg` copies a CUDA tensor's matrices to the host
/// (the CUDA backend has no solver yet) and reaches the kernels only through here, so a
/// device solver can take over behind this seam.
pub mod host_linalg {
    pub use crate::cpu::linalg::{cholesky, eigh, lu, lu_det, lu_solve, distance_operand, p_distance_row, qr, svd, transposed, tri_solve};
}

use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::shape::Layout;
use crate::storage::{CpuStorage, Storage};
use crate::tensor::{Scalar, Tensor};

/// What every device's storage implements. Layouts address elements of `self`; results are
/// fresh contiguous buffers on the same device unless said otherwise.
pub trait BackendStorage: Sized {
    fn device(&self) -> Device;
    fn dtype(&self) -> DType;
    /// `op(x)` elementwise.
    fn unary(&self, l: &Layout, op: UnaryOp) -> Result<Self>;
    /// `a op b` elementwise; both layouts have the result's (broadcast) shape and both
    /// operands the same dtype.
    fn binary(&self, la: &Layout, rhs: &Self, lb: &Layout, op: BinaryOp) -> Result<Self>;
    /// `cond ? a : b` with `self` the bool condition; all layouts of the result's shape.
    fn where_cond(&self, lc: &Layout, a: &Self, la: &Layout, b: &Self, lb: &Layout) -> Result<Self>;
    /// A contiguous copy of the elements of `l` converted to `dtype`.
    fn cast(&self, l: &Layout, dtype: DType) -> Result<Self>;
    /// Write `src` (read through `sl`, same dtype, same shape as `dl`) into `self` at `dl`.
    fn copy_strided(&mut self, dl: &Layout, src: &Self, sl: &Layout) -> Result<()>;
    /// Reduce each row of `row` elements of the contiguous `l` into `out_dtype`.
    fn reduce(&self, l: &Layout, row: usize, op: ReduceOp, out_dtype: DType) -> Result<Self>;
    /// `op` (sum, max or min) over the leading rows of the contiguous `l` seen as
    /// `numel / inner` rows of `inner` (`out[j] = Σ_i x[i, j]`: the bias gradient of a batch,
    /// a column maximum), in the input's dtype (sums: float dtypes), without first transposing
    /// the reduced dims last; `None` where the backend has no such kernel (the caller then
    /// transposes and reduces rows).
    fn reduce_leading(&self, _l: &Layout, _inner: usize, _op: ReduceOp) -> Result<Option<Self>> {
        Ok(None)
    }
    /// A zero tensor of `base_numel` elements with the contiguous `self` (`src`, laid out
    /// as `dst`'s shape) added at the positions of the strided layout `dst` (overlapping
    /// windows accumulate, in row-major order): col2im and `as_strided_scatter`. `None` where
    /// the backend has no kernel for it (the caller scatters through an offsets tensor).
    fn scatter_add_strided(&self, _src: &Layout, _dst: &Layout, _base_numel: usize) -> Result<Option<Self>> {
        Ok(None)
    }
    /// Layer norm of each row of `r` elements of the contiguous `l`, with the per-column
    /// affine `w`/`b` (contiguous, `r` elements): (output, each row's mean, each row's
    /// 1/sqrt(var + eps)). `None` where the backend has no kernel.
    #[allow(clippy::type_complexity)]
    fn layer_norm_rows(&self, _l: &Layout, _r: usize, _w: Option<(&Self, &Layout)>, _b: Option<(&Self, &Layout)>, _eps: f64) -> Result<Option<(Self, Self, Self)>> {
        Ok(None)
    }
    /// The layer norm's (input, weight, bias) gradients given `self` = the output gradient
    /// (contiguous, `l`), the input `x` and weight `w`; weight and bias gradients only when
    /// asked for. `None` where the backend has no kernel.
    #[allow(clippy::too_many_arguments, clippy::type_complexity)]
    fn layer_norm_rows_backward(&self, _l: &Layout, _x: (&Self, &Layout), _r: usize, _w: Option<(&Self, &Layout)>, _eps: f64,
                                _want_w: bool, _want_b: bool) -> Result<Option<(Self, Option<Self>, Option<Self>)>> {
        Ok(None)
    }
    /// The batch norm's (input, weight, bias) gradients given `self` = the output gradient
    /// (contiguous (n, c, s)), the input, the per-channel mean and invstd of the forward and
    /// the weight (all contiguous); each only when asked for. `None` where the backend has
    /// no kernel.
    #[allow(clippy::too_many_arguments, clippy::type_complexity)]
    fn batch_norm_backward(&self, _l: &Layout, _x: (&Self, &Layout), _mean: (&Self, &Layout), _invstd: (&Self, &Layout),
                           _w: Option<(&Self, &Layout)>, _ncs: (usize, usize, usize), _training: bool, _want: [bool; 3])
                           -> Result<Option<(Option<Self>, Option<Self>, Option<Self>)>> {
        Ok(None)
    }
    /// Per-channel mean and biased variance of the contiguous `l` seen as (n, c, s), each
    /// `c` elements in `self`'s dtype (sums in f64). `None` where the backend has no kernel.
    fn channel_stats(&self, _l: &Layout, _ncs: (usize, usize, usize)) -> Result<Option<(Self, Self)>> {
        Ok(None)
    }
    /// `x * alpha[ch] + beta[ch]` of the contiguous `l` seen as (n, c, s), `alpha`/`beta`
    /// contiguous of `c` elements (the batch norm's normalisation and affine in one pass).
    /// `None` where the backend has no kernel.
    fn channel_affine(&self, _l: &Layout, _ncs: (usize, usize, usize), _alpha: (&Self, &Layout), _beta: (&Self, &Layout)) -> Result<Option<Self>> {
        Ok(None)
    }
    /// One LSTM cell step from the contiguous input-side gates `self` (`l`, (batch, 4·hidden)),
    /// the recurrent product `hw` (same shape) and the cell state `c` (batch, hidden): gates
    /// = self + hw split into (i, f, g, o), i/f/o through sigmoid and g through tanh, c' =
    /// f·c + i·g, h' = o·tanh(c'). Returns [h', c', i, f, g, o, tanh(c')], each (batch,
    /// hidden). `None` where the backend has no kernel.
    fn lstm_cell(&self, _l: &Layout, _hw: (&Self, &Layout), _c: (&Self, &Layout), _bh: (usize, usize)) -> Result<Option<Vec<Self>>> {
        Ok(None)
    }
    /// Rows `rows` (each `inner` elements) of the contiguous `l`, stacked, each row's
    /// elements in the order `within`: an embedding lookup / `index_select` on dim 0, a flip
    /// or a roll. `None` where the backend has no kernel.
    fn gather_rows(&self, _l: &Layout, _rows: &[usize], _inner: usize, _within: RowOrder) -> Result<Option<Self>> {
        Ok(None)
    }
    /// The minimum and maximum of the contiguous int64 `l` (None when it is empty or the
    /// backend has no kernel): an index's bounds check without a host copy.
    fn int_range(&self, _l: &Layout) -> Result<Option<(i64, i64)>> {
        Ok(None)
    }
    /// The row-major positions of the non-zero elements of the contiguous `l` (NaN counts as
    /// non-zero), in order. `None` where the backend has no kernel.
    fn nonzero_positions(&self, _l: &Layout) -> Result<Option<Vec<usize>>> {
        Ok(None)
    }
    /// `gather` along `d`: `out[p] = self[p with its coordinate d replaced by index[p]]` over
    /// the index's shape `ishape`, for a contiguous `self` (`l`) and a contiguous int64
    /// `index` (`il`) whose values the caller has bounds-checked (the CPU kernel checks them
    /// again as it reads them, failing with PyTorch's error, and its callers rely on that).
    /// `None` where the backend has no kernel.
    fn gather_dim(&self, _l: &Layout, _index: (&Self, &Layout), _ishape: &[usize], _d: usize) -> Result<Option<Self>> {
        Ok(None)
    }
    /// Zeros of `base_rows` rows of `inner` elements with row `k` of the contiguous `self`
    /// (`l`) added into row `rows[k]` (in order): the embedding backward. `None` where the
    /// backend has no kernel.
    fn index_add_rows(&self, _l: &Layout, _rows: &[usize], _inner: usize, _base_rows: usize) -> Result<Option<Self>> {
        Ok(None)
    }
    /// Row `k` of the contiguous `src` (`sl`) added, in place and in order, into the row of
    /// `inner` elements starting at element `at + rows[k] * inner` of this storage (every
    /// such row inside it, checked). Ok(false) where the backend has no kernel (nothing
    /// written).
    fn add_rows_into(&mut self, _at: usize, _rows: &[usize], _inner: usize, _src: &Self, _sl: &Layout) -> Result<bool> {
        Ok(false)
    }
    /// One pass of grid sampling over contiguous operands: `self` (`l`) is the input for the
    /// forward pass and the output gradient otherwise, `rest` the others in `cpu::grid`'s
    /// order, `want` the outputs asked for. Backends without a kernel run it on the host.
    fn grid_sampler(&self, l: &Layout, rest: &[Option<(&Self, &Layout)>], pass: GridPass, spec: &GridSampler, want: &[bool]) -> Result<Vec<Option<Self>>> {
        let host = self.to_host()?;
        let rest_h = rest.iter().map(|o| o.map(|(s, _)| s.to_host()).transpose()).collect::<Result<Vec<_>>>()?;
        let rest_r: Vec<Option<(&CpuStorage, &Layout)>> = rest_h.iter().zip(rest).map(|(h, o)| h.as_ref().zip(o.map(|(_, l)| l))).collect();
        let out = host.grid_sampler(l, &rest_r, pass, spec, want)?;
        out.into_iter().map(|o| o.map(|h| Self::from_host(self.device(), &h)).transpose()).collect()
    }
    /// `lerp(self, end, w)` of two contiguous operands of one shape and a number weight, as
    /// ATen's kernel computes it: `fma(c, end - self, base)` per element, `(c, base)` =
    /// `(w, self)` for `|w| < 0.5`, else `(w - 1, end)`. `None` where the backend has no
    /// kernel (the caller composes it).
    /// clamp's backward: `self` (the gradient) where `lo <= x <= hi`, else 0, over two
    /// layouts of one shape and one float dtype (a NaN `x` passes nothing). `None` where the
    /// backend has no kernel. (Not a `BinaryOp`: the bounds would make every op 24 bytes, which
    /// cost ~7% of the per-op overhead.)
    fn clamp_backward(&self, _l: &Layout, _x: (&Self, &Layout), _lo: f64, _hi: f64) -> Result<Option<Self>> {
        Ok(None)
    }
    /// Softmax (`log`: log-softmax) of the contiguous `l` seen as (outer, dim, inner) along
    /// its middle dim, with PyTorch's rounding for a dim other than the last. `None` where the
    /// backend has no kernel (the caller moves the dim last).
    fn softmax_mid(&self, _l: &Layout, _dims: [usize; 3], _log: bool) -> Result<Option<Self>> {
        Ok(None)
    }
    /// `self + v * a * b` (`div`: `self + v * a / b`) in one pass for three contiguous
    /// tensors of one shape and dtype (ATen's rounding: `v * a`, then `* b` or `/ b`, then
    /// the sum). `None` where the backend has no kernel.
    fn addc(&self, _l: &Layout, _a: (&Self, &Layout), _b: (&Self, &Layout), _v: f64, _div: bool) -> Result<Option<Self>> {
        Ok(None)
    }
    /// `addc` in place: `self += v * a * b` (`div`: `/ b`) over the contiguous `l`, with
    /// operands of its shape and dtype in other storages. Ok(false) where the backend has no
    /// kernel (nothing written).
    fn addc_into(&mut self, _l: &Layout, _a: (&Self, &Layout), _b: (&Self, &Layout), _v: f64, _div: bool) -> Result<bool> {
        Ok(false)
    }
    fn lerp_scalar(&self, _l: &Layout, _end: (&Self, &Layout), _w: f64) -> Result<Option<Self>> {
        Ok(None)
    }
    /// Max pooling of the contiguous (planes, h, w) `l` with `pool` into (planes, out[0],
    /// out[1]): the values and the int64 in-plane index of each (the first maximum, NaN
    /// winning). `None` where the backend has no kernel.
    fn max_pool2d(&self, _l: &Layout, _planes: usize, _hw: [usize; 2], _pool: &Pool2d, _out: [usize; 2]) -> Result<Option<(Self, Self)>> {
        Ok(None)
    }
    /// Max pooling's input gradient: zeros of (planes, hw) with `self` (the contiguous
    /// (planes, l) output gradient) added at the int64 in-plane indices `ind`. `None` where
    /// the backend has no kernel.
    fn max_pool2d_backward(&self, _l: &Layout, _ind: (&Self, &Layout), _planes: usize, _hw: usize, _out_l: usize) -> Result<Option<Self>> {
        Ok(None)
    }
    /// Max pooling of the contiguous (planes, d, h, w) `self` over `w`'s windows: (values,
    /// int64 in-plane indices) as `max_pool2d`. `None` where the backend has no kernel.
    fn max_pool_windows(&self, _l: &Layout, _planes: usize, _w: &PoolWindows) -> Result<Option<(Self, Self)>> {
        Ok(None)
    }
    /// Average pooling of the contiguous (planes, d, h, w) `self` over `w`'s (shared,
    /// undilated) windows, output `o` divided by `divs[o]`; with `backward`, `self` is the
    /// (planes, positions) output gradient and the result the input gradient. `None` where
    /// the backend has no kernel.
    fn avg_pool_windows(&self, _l: &Layout, _planes: usize, _w: &PoolWindows, _divs: &[f64], _backward: bool) -> Result<Option<Self>> {
        Ok(None)
    }
    /// The columns of the contiguous (n, c, h, w) image `l` for the window `win`:
    /// (c·kh·kw, n·oh·ow) with the batch inside, else (n, c·kh·kw, oh·ow); padding reads as
    /// `fill`. `None` where the backend has no kernel.
    fn im2col(&self, _l: &Layout, _nchw: [usize; 4], _win: &ConvWindow, _batch_inner: bool, _fill: f64) -> Result<Option<Self>> {
        Ok(None)
    }
    /// The adjoint of `im2col`: zeros of (n, c, h, w) with the contiguous columns `self`
    /// (`l`) added at their input positions. `None` where the backend has no kernel.
    fn col2im(&self, _l: &Layout, _nchw: [usize; 4], _win: &ConvWindow, _batch_inner: bool) -> Result<Option<Self>> {
        Ok(None)
    }
    /// The convolution `conv` of the contiguous image `self` (`l`) with the contiguous
    /// weight `w` and bias `b`, (n, oc, oh, ow) contiguous. `None` where the backend has no
    /// kernel.
    fn conv2d(&self, _l: &Layout, _w: (&Self, &Layout), _b: Option<(&Self, &Layout)>, _conv: &Conv2d) -> Result<Option<Self>> {
        Ok(None)
    }
    /// The convolution's input and weight gradients given `self` = the contiguous output
    /// gradient (`l`), the input `x` and weight `w` (contiguous); each only when asked for.
    /// `None` where the backend has no kernel.
    #[allow(clippy::type_complexity)]
    fn conv2d_backward(&self, _l: &Layout, _x: (&Self, &Layout), _w: (&Self, &Layout), _conv: &Conv2d, _want: [bool; 2]) -> Result<Option<(Option<Self>, Option<Self>)>> {
        Ok(None)
    }
    /// Scaled dot-product attention `spec` of the contiguous query `self` (`l`, (b, h, l, e))
    /// with the contiguous key and value ((b, hk, s, e)) and an additive mask read through
    /// its (b, h, l, s) layout (broadcast strides allowed): the output (b, h, l, e) and each
    /// query's logsumexp (b, h, l); a query with every key masked gets zeros and 0. `None`
    /// where the backend has no kernel.
    fn attention(&self, _l: &Layout, _k: (&Self, &Layout), _v: (&Self, &Layout), _mask: Option<(&Self, &Layout)>, _spec: &Attention)
                 -> Result<Option<(Self, Self)>> {
        Ok(None)
    }
    /// The attention's (query, key, value) gradients given `self` = the contiguous output
    /// gradient (`l`) and the forward's contiguous `[query, key, value, output, logsumexp]`
    /// and mask; each only when asked for. `None` where the backend has no kernel.
    #[allow(clippy::type_complexity)]
    fn attention_backward(&self, _l: &Layout, _saved: [(&Self, &Layout); 5], _mask: Option<(&Self, &Layout)>, _spec: &Attention, _want: [bool; 3])
                          -> Result<Option<(Option<Self>, Option<Self>, Option<Self>)>> {
        Ok(None)
    }
    /// Max or min of each row with the index of its first occurrence (int64).
    fn arg_reduce(&self, l: &Layout, row: usize, is_max: bool) -> Result<(Self, Self)>;
    /// A row-wise scan of the contiguous `l` (same shape out).
    fn scan(&self, l: &Layout, row: usize, op: ScanOp) -> Result<Self>;
    /// The int64 permutation sorting each row of the contiguous `l` (stable, NaN largest).
    fn argsort_rows(&self, l: &Layout, row: usize, descending: bool) -> Result<Self>;
    /// The int64 indices (rows × k, row-major) of the `k` largest or smallest of each row
    /// of the contiguous `l`, in torch's CPU order (ties as libstdc++'s selection leaves them).
    fn topk_rows(&self, l: &Layout, row: usize, k: usize, largest: bool, sorted: bool) -> Result<Self>;
    /// Batched `(b, m, k) @ (b, k, n)` over 3-d layouts with any strides.
    fn matmul(&self, la: &Layout, rhs: &Self, lb: &Layout) -> Result<Self>;
    /// The elements at logical (row-major) positions `offsets` of `l`; `offsets` is a dense
    /// int64 buffer on this device (so index arithmetic can stay on the device).
    fn take(&self, l: &Layout, offsets: &Self) -> Result<Self>;
    /// `self[offsets[i]] (+)= src[i]` into a contiguous `self` (`offsets` a dense int64
    /// buffer on this device); duplicates accumulate when `accumulate`, else one write wins.
    fn put(&mut self, offsets: &Self, src: &Self, accumulate: bool) -> Result<()>;
    /// `self[offsets[i]] = op(self[offsets[i]], src[i])` in index order (scatter_reduce).
    fn put_reduce(&mut self, offsets: &Self, src: &Self, op: PutReduce) -> Result<()>;
    /// `n` copies of `v` as `dtype` on `device`.
    fn full(device: Device, dtype: DType, n: usize, v: Scalar) -> Result<Self>;
    /// The whole buffer copied to the host.
    fn to_host(&self) -> Result<CpuStorage>;
    /// A host buffer copied onto `device`.
    fn from_host(device: Device, src: &CpuStorage) -> Result<Self>;
}

/// Apply `$body` to the storage of whichever device `$s` lives on, rewrapping the result.
macro_rules! on_device {
    ($s:expr, $v:ident => $body:expr) => {
        match $s {
            Storage::Cpu($v) => Storage::Cpu($body?),
            Storage::Cuda($v) => Storage::Cuda($body?),
        }
    };
}

/// A kernel entry refuses complex data: complex ops are composed from their parts' real ops
/// in `ops::complex`, which never hands a complex tensor to a kernel.
fn real_only(op: &str, d: &crate::tensor::TensorData) -> Result<()> {
    if d.dtype.is_complex() {
        return Err(crate::ops::complex::unsupported(op, d.dtype));
    }
    Ok(())
}

/// A history-free real tensor over complex `t`'s storage read through `real_layout(l)` (`l`
/// a layout of `t`'s storage in complex elements): what data movement of a complex tensor
/// does on its (re, im) pairs.
fn real_alias(t: &Tensor, l: &Layout) -> Tensor {
    let d = t.data();
    Tensor::from_parts(d.storage.clone(), crate::ops::complex::real_layout(l), d.dtype.to_real())
}

/// The complex tensor over the real tensor `r` whose last dim holds (re, im) pairs.
fn complex_of(r: Tensor) -> Result<Tensor> {
    let d = r.data();
    let n = d.layout.ndim();
    let layout = Layout { shape: d.layout.shape[..n - 1].into(), strides: d.layout.strides[..n - 1].iter().map(|s| s / 2).collect(), offset: d.layout.offset / 2 };
    let dtype = d.dtype.to_complex().ok_or_else(|| Error::Internal("complex_of: a real float tensor expected".into()))?;
    Ok(Tensor::from_parts(d.storage.clone(), layout, dtype))
}

/// `cast`/`cast_layout` where the source or the target is complex.
fn complex_cast(t: &Tensor, l: &Layout, dtype: DType) -> Result<Tensor> {
    let src = t.dtype();
    match (src.is_complex(), dtype.is_complex()) {
        (true, true) => complex_of(cast_layout(&real_alias(t, l), &crate::ops::complex::real_layout(l), dtype.to_real())?),
        // the real parts, where the caller asked for them (`ops::to_dtype`, `copy_`: PyTorch's
        // copy warns about the dropped imaginary parts; the bindings do); an op that is not
        // written for complex inputs and casts them is refused instead
        // a complex value is true where it is nonzero (either part)
        (true, false) if dtype == DType::Bool => {
            let (re, im) = (cast_layout(&part_alias(t, l, 0), &part_layout(l, 0), DType::Bool)?, cast_layout(&part_alias(t, l, 1), &part_layout(l, 1), DType::Bool)?);
            let (lr, li) = (re.layout(), im.layout());
            binary(&re, &lr, &im, &li, BinaryOp::Or)
        }
        (true, false) if DISCARD_IMAG.with(|c| c.get()) => cast_layout(&part_alias(t, l, 0), &part_layout(l, 0), dtype),
        (true, false) => Err(Error::NotImplemented(format!("this operation does not support complex tensors ('{}' input)", src.scalar_name()))),
        (false, _) => {
            let re = cast_layout(t, l, dtype.to_real())?;
            let out = full(&l.shape, Scalar::Int(0), dtype, re.device())?;
            let ol = out.layout();
            copy_into(&part_alias(&out, &ol, 0), &re, &re.layout())?;
            Ok(out)
        }
    }
}

thread_local! {
    static DISCARD_IMAG: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Run `f` with casts from complex to real dtypes allowed (they keep the real parts).
pub fn discarding_imag<R>(f: impl FnOnce() -> Result<R>) -> Result<R> {
    let prev = DISCARD_IMAG.with(|c| c.replace(true));
    let r = f();
    DISCARD_IMAG.with(|c| c.set(prev));
    r
}

/// The layout of part `k` (0 real, 1 imaginary) of the complex layout `l`, in real elements.
fn part_layout(l: &Layout, k: usize) -> Layout {
    Layout { shape: l.shape.clone(), strides: l.strides.iter().map(|s| s * 2).collect(), offset: 2 * l.offset + k }
}

/// A history-free real tensor over part `k` of complex `t`'s storage read through `l`.
fn part_alias(t: &Tensor, l: &Layout, k: usize) -> Tensor {
    let d = t.data();
    Tensor::from_parts(d.storage.clone(), part_layout(l, k), d.dtype.to_real())
}

/// The device all `ts` share, or PyTorch's mixed-device error.
pub fn common_device(op: &'static str, ts: &[&Tensor]) -> Result<Device> {
    let first = ts.first().map(|t| t.device()).unwrap_or(Device::Cpu);
    for t in &ts[1..] {
        let d = t.device();
        if d != first {
            // a CPU 0-dim tensor may join a CUDA op (as a scalar), like torch
            if d.is_cpu() && t.dim() == 0 || first.is_cpu() && ts[0].dim() == 0 {
                continue;
            }
            let (a, b) = if first.is_cpu() { (d, first) } else { (first, d) };
            return Err(Error::DeviceMismatch { op, first: a, second: b });
        }
    }
    Ok(first)
}

fn mismatch(op: &'static str, a: Device, b: Device) -> Error {
    let (x, y) = if a.is_cpu() { (b, a) } else { (a, b) };
    Error::DeviceMismatch { op, first: x, second: y }
}

/// `t` as a storage on `device` (itself when it is already there).
fn on(t: &Tensor, device: Device) -> Result<Tensor> {
    if t.device() == device { Ok(t.clone()) } else { to_device(t, device) }
}

/// The order of an elementwise result's dims in memory (outermost first), as torch's
/// TensorIterator chooses it from the operands' strides (`reorder_dimensions`): results of
/// ops on transposed or permuted operands keep their layout. `None` for row-major.
/// All layouts have the result's (broadcast) shape; the first operand decides first.
pub fn output_order(ls: &[&Layout]) -> Option<Vec<usize>> {
    let shape = &ls.first()?.shape;
    let nd = shape.len();
    if nd <= 1 || ls.iter().all(|l| l.is_contiguous()) {
        return None;
    }
    // torch's perm_: index 0 is the innermost dim; an insertion sort whose comparison may be
    // undecided (broadcast dims, equal strides of size-1 dims)
    let mut perm: Vec<usize> = (0..nd).rev().collect();
    let should_swap = |d0: usize, d1: usize| -> i32 {
        for l in ls {
            let (s0, s1) = (l.strides[d0], l.strides[d1]);
            if s0 == 0 || s1 == 0 {
                continue;
            }
            if s0 < s1 {
                return -1;
            }
            if s0 > s1 {
                return 1;
            }
            if shape[d0] > shape[d1] {
                return 1;
            }
        }
        0
    };
    for i in 1..nd {
        let mut dim1 = i;
        for dim0 in (0..i).rev() {
            match should_swap(perm[dim0], perm[dim1]) {
                c if c > 0 => {
                    perm.swap(dim0, dim1);
                    dim1 = dim0;
                }
                c if c < 0 => break,
                _ => {}
            }
        }
    }
    perm.reverse();
    (!perm.iter().enumerate().all(|(i, &d)| i == d)).then_some(perm)
}

/// `l` with its dims taken in `order`.
fn permuted(l: &Layout, order: &[usize]) -> Layout {
    Layout { shape: order.iter().map(|&d| l.shape[d]).collect(), strides: order.iter().map(|&d| l.strides[d]).collect(), offset: l.offset }
}

/// A tensor of `shape` over a fresh buffer written in `order` (outermost dim first).
fn in_order(out: Storage, shape: &[usize], order: &[usize]) -> Tensor {
    let pshape: Vec<usize> = order.iter().map(|&d| shape[d]).collect();
    let cs = crate::shape::contiguous_strides(&pshape);
    let mut strides = vec![0usize; shape.len()];
    for (k, &d) in order.iter().enumerate() {
        strides[d] = cs[k];
    }
    let dtype = out.dtype();
    Tensor::from_parts(crate::storage::StorageCell::new(out), Layout { shape: shape.into(), strides: strides.into(), offset: 0 }, dtype)
}

/// `op(x)` elementwise into a new tensor laid out like `x` (row-major unless `x` is
/// permuted, see `output_order`).
pub fn unary(x: &Tensor, op: UnaryOp) -> Result<Tensor> {
    let _prof = crate::profiler::scope_shapes(|| format!("aten::{}", op.name()).into(), crate::profiler::EventKind::Op, || vec![x.shape().to_vec()]);
    let d = x.data();
    real_only(op.name(), &d)?;
    let s = d.storage.data.read();
    if let Some(order) = output_order(&[&d.layout]) {
        let out = on_device!(&*s, v => v.unary(&permuted(&d.layout, &order), op));
        return Ok(in_order(out, &d.layout.shape, &order));
    }
    let out = on_device!(&*s, v => v.unary(&d.layout, op));
    Ok(Tensor::from_storage_on(out, &d.layout.shape))
}

/// A copy of the row-major result `t` laid out in `order` (outermost dim first): how a
/// kernel that computes row-major gives torch's TensorIterator layout.
pub fn relayout(t: &Tensor, order: &[usize]) -> Result<Tensor> {
    if t.dtype().is_complex() {
        let mut o = order.to_vec();
        o.push(o.len());
        return complex_of(relayout(&real_alias(t, &t.layout()), &o)?);
    }
    let d = t.data();
    let s = d.storage.data.read();
    let out = on_device!(&*s, v => v.cast(&permuted(&d.layout, order), d.dtype));
    Ok(in_order(out, &d.layout.shape, order))
}

/// `t` (row-major, `like`'s shape) laid out as an elementwise op over `like` would lay it out.
pub fn relayout_like(t: &Tensor, like: &Layout) -> Result<Tensor> {
    match output_order(&[like]) {
        Some(order) => relayout(t, &order),
        None => Ok(t.clone()),
    }
}

/// A copy of `t` converted to `dtype` laid out as torch's `clone()` / `.to()` lay it out
/// (`preserve_format`: a permuted `t` keeps its dim order).
pub fn cast_preserving(t: &Tensor, dtype: DType) -> Result<Tensor> {
    let d = t.data();
    if d.dtype.is_complex() || dtype.is_complex() {
        drop(d);
        return cast(t, dtype);
    }
    let Some(order) = output_order(&[&d.layout]) else {
        drop(d);
        return cast(t, dtype);
    };
    let s = d.storage.data.read();
    let out = on_device!(&*s, v => v.cast(&permuted(&d.layout, &order), dtype));
    Ok(in_order(out, &d.layout.shape, &order))
}

/// `a op b` over broadcast layouts `la`, `lb` (operands of one dtype).
pub fn binary(a: &Tensor, la: &Layout, b: &Tensor, lb: &Layout, op: BinaryOp) -> Result<Tensor> {
    let _prof = crate::profiler::scope_shapes(|| format!("aten::{}", op.name()).into(), crate::profiler::EventKind::Op, || vec![a.shape().to_vec(), b.shape().to_vec()]);
    let (da, db) = (a.data(), b.data());
    real_only(op.name(), &da)?;
    real_only(op.name(), &db)?;
    binary_locked(&da, la, &db, lb, op)
}

/// `a op c` for a contiguous float32/float64 CPU tensor `a` and a Python number `c` (read as
/// `a`'s dtype, as TensorIterator reads a CPU scalar): one pass into a fresh buffer, with no
/// 0-dim tensor cast and no broadcast layout. `None` elsewhere (the general path applies).
pub fn binary_scalar(a: &Tensor, c: f64, op: BinaryOp) -> Result<Option<Tensor>> {
    let d = a.data();
    if !matches!(d.dtype, DType::Float32 | DType::Float64) || !d.layout.is_contiguous() {
        return Ok(None);
    }
    let s = d.storage.data.read();
    let Storage::Cpu(x) = &*s else { return Ok(None) };
    let _prof = crate::profiler::scope(|| format!("aten::{}", op.name()).into(), crate::profiler::EventKind::Op);
    let n = d.layout.numel();
    let mut out = match d.dtype {
        DType::Float32 => <f32 as crate::storage::StorageElem>::wrap(crate::cpu::alloc::take::<f32>(n)?),
        _ => <f64 as crate::storage::StorageElem>::wrap(crate::cpu::alloc::take::<f64>(n)?),
    };
    crate::cpu::elementwise::binary_into(&mut out, 0..n, Some((x, &d.layout)), crate::cpu::elementwise::Rhs::Scalar(c), op, None);
    Ok(Some(Tensor::from_storage_on(Storage::Cpu(out), &d.layout.shape)))
}

/// `a + alpha * b` over broadcast layouts `la`, `lb` of float32/float64 CPU operands of one
/// dtype, one fused multiply-add per element (ATen's add kernel with `alpha`: the vector
/// body computes `fmadd(other, alpha, self)`), the result laid out as `binary`'s. `None`
/// where there is no such kernel (other dtypes and devices): the caller composes.
pub fn add_scaled(a: &Tensor, la: &Layout, b: &Tensor, lb: &Layout, alpha: f64) -> Result<Option<Tensor>> {
    let (da, db) = (a.data(), b.data());
    if da.dtype != db.dtype || !matches!(da.dtype, DType::Float32 | DType::Float64) {
        return Ok(None);
    }
    let _prof = crate::profiler::scope_shapes(|| "aten::add".into(), crate::profiler::EventKind::Op, || vec![la.shape.to_vec(), lb.shape.to_vec()]);
    let sa = da.storage.data.read();
    let sb_guard;
    let sb: &Storage = if std::sync::Arc::ptr_eq(&da.storage, &db.storage) { &sa } else { sb_guard = db.storage.data.read(); &sb_guard };
    let (Storage::Cpu(x), Storage::Cpu(y)) = (&*sa, sb) else { return Ok(None) };
    in_output_order(la, lb, |pa, pb| {
        let n = pa.numel();
        let mut out = match da.dtype {
            DType::Float32 => <f32 as crate::storage::StorageElem>::wrap(crate::cpu::alloc::take::<f32>(n)?),
            _ => <f64 as crate::storage::StorageElem>::wrap(crate::cpu::alloc::take::<f64>(n)?),
        };
        use crate::cpu::elementwise::{binary_into as into, Rhs};
        into(&mut out, 0..n, Some((x, pa)), Rhs::Tensor(y, pb), BinaryOp::Add, Some(alpha));
        Ok(Storage::Cpu(out))
    })
    .map(Some)
}

/// Run `f` (a kernel writing a contiguous result) on two operands' broadcast layouts permuted
/// to the output's memory order (`output_order`, TensorIterator's), and lay its result out in
/// the logical shape again.
fn in_output_order(la: &Layout, lb: &Layout, f: impl FnOnce(&Layout, &Layout) -> Result<Storage>) -> Result<Tensor> {
    let order = output_order(&[la, lb]);
    Ok(match order {
        Some(o) => in_order(f(&permuted(la, &o), &permuted(lb, &o))?, &la.shape, &o),
        None => Tensor::from_storage_on(f(la, lb)?, &la.shape),
    })
}

/// `op` of two real tensors of one shape, dtype and device, read in place through their data
/// (the caller holds both read guards).
pub fn binary_same(da: &crate::tensor::TensorData, db: &crate::tensor::TensorData, op: BinaryOp) -> Result<Tensor> {
    let _prof = crate::profiler::scope_shapes(|| format!("aten::{}", op.name()).into(), crate::profiler::EventKind::Op, || vec![da.layout.shape.to_vec(), db.layout.shape.to_vec()]);
    binary_locked(da, &da.layout, db, &db.layout, op)
}

fn binary_locked(da: &crate::tensor::TensorData, la: &Layout, db: &crate::tensor::TensorData, lb: &Layout, op: BinaryOp) -> Result<Tensor> {
    let sa = da.storage.data.read();
    let sb_guard;
    let sb: &Storage = if std::sync::Arc::ptr_eq(&da.storage, &db.storage) { &sa } else { sb_guard = db.storage.data.read(); &sb_guard };
    in_output_order(la, lb, |pa, pb| {
        Ok(match (&*sa, sb) {
            (Storage::Cpu(x), Storage::Cpu(y)) => Storage::Cpu(x.binary(pa, y, pb, op)?),
            (Storage::Cuda(x), Storage::Cuda(y)) if x.device() == y.device() => Storage::Cuda(x.binary(pa, y, pb, op)?),
            (x, y) => return Err(mismatch(op.name(), x.device(), y.device())),
        })
    })
}

/// `cond ? a : b` over broadcast layouts (a and b of one dtype, cond bool).
pub fn where_cond(c: &Tensor, lc: &Layout, a: &Tensor, la: &Layout, b: &Tensor, lb: &Layout) -> Result<Tensor> {
    let _prof = crate::profiler::scope(|| "aten::where".into(), crate::profiler::EventKind::Op);
    let dev = common_device("where", &[c, a, b])?;
    if a.dtype().is_complex() {
        // both operands' (re, im) pairs, the condition read once per pair
        let r = where_cond(c, &crate::ops::complex::pair_layout(lc), &real_alias(a, la), &crate::ops::complex::real_layout(la),
                           &real_alias(b, lb), &crate::ops::complex::real_layout(lb))?;
        return complex_of(crate::ops::contiguous(&r)?);
    }
    let (c, a, b) = (on(c, dev)?, on(a, dev)?, on(b, dev)?);
    let (dc, da, db) = (c.data(), a.data(), b.data());
    let (sc, sa, sb) = (dc.storage.data.read(), da.storage.data.read(), db.storage.data.read());
    // torch's where iterates (condition, self, other): the condition's layout decides first
    let order = output_order(&[lc, la, lb]);
    let (pc, pa, pb) = match &order {
        Some(o) => (permuted(lc, o), permuted(la, o), permuted(lb, o)),
        None => (lc.clone(), la.clone(), lb.clone()),
    };
    let out = match (&*sc, &*sa, &*sb) {
        (Storage::Cpu(x), Storage::Cpu(y), Storage::Cpu(z)) => Storage::Cpu(x.where_cond(&pc, y, &pa, z, &pb)?),
        (Storage::Cuda(x), Storage::Cuda(y), Storage::Cuda(z)) => Storage::Cuda(x.where_cond(&pc, y, &pa, z, &pb)?),
        (x, y, _) => return Err(mismatch("where", x.device(), y.device())),
    };
    Ok(match order {
        Some(o) => in_order(out, &la.shape, &o),
        None => Tensor::from_storage_on(out, &la.shape),
    })
}

/// A contiguous copy of `t` read through `l` (a broadcast of its layout), cast to `dtype`.
pub fn cast_layout(t: &Tensor, l: &Layout, dtype: DType) -> Result<Tensor> {
    let d = t.data();
    if d.dtype.is_complex() || dtype.is_complex() {
        drop(d);
        return complex_cast(t, l, dtype);
    }
    let s = d.storage.data.read();
    let out = on_device!(&*s, v => v.cast(l, dtype));
    Ok(Tensor::from_storage_on(out, &l.shape))
}

/// A contiguous copy of `t` cast to `dtype`.
pub fn cast(t: &Tensor, dtype: DType) -> Result<Tensor> {
    let _prof = crate::profiler::scope(|| "aten::copy_".into(), crate::profiler::EventKind::Op);
    let d = t.data();
    if d.dtype.is_complex() || dtype.is_complex() {
        let l = d.layout.clone();
        drop(d);
        return complex_cast(t, &l, dtype);
    }
    let s = d.storage.data.read();
    let out = on_device!(&*s, v => v.cast(&d.layout, dtype));
    Ok(Tensor::from_storage_on(out, &d.layout.shape))
}

/// Write `src` read through `sl` (shape of `dst`'s layout, any dtype) into `dst`'s storage.
pub fn copy_into(dst: &Tensor, src: &Tensor, sl: &Layout) -> Result<()> {
    let _prof = crate::profiler::scope(|| "aten::copy_".into(), crate::profiler::EventKind::Op);
    let (dd, ds) = (dst.data(), src.data());
    let dl = dd.layout.clone();
    if dd.dtype.is_complex() {
        drop((dd, ds));
        // pairs onto pairs: a real source first becomes complex (zero imaginary parts)
        let (src, sl) = if src.dtype() == dst.dtype() {
            (src.clone(), sl.clone())
        } else {
            let c = cast_layout(src, sl, dst.dtype())?;
            let l = c.layout();
            (c, l)
        };
        return copy_into(&real_alias(dst, &dl), &real_alias(&src, &sl), &crate::ops::complex::real_layout(&sl));
    }
    if ds.dtype.is_complex() {
        drop(ds);
        drop(dd);
        // the real parts
        let re = discarding_imag(|| cast_layout(src, sl, dst.dtype()))?;
        return copy_into(dst, &re, &re.layout());
    }
    // a source that shares the destination's storage (or needs a cast or another device) is
    // first made into a separate contiguous buffer
    let same = std::sync::Arc::ptr_eq(&dd.storage, &ds.storage);
    if same || ds.dtype != dd.dtype || ds.storage.device() != dd.storage.device() {
        drop(ds);
        let tmp = on(&cast_layout(src, sl, dd.dtype)?, dd.storage.device())?;
        let td = tmp.data();
        let st = td.storage.data.read();
        let mut dt = dd.storage.data.write();
        return copy_storage(&mut dt, &dl, &st, &td.layout);
    }
    let st = ds.storage.data.read();
    let mut dt = dd.storage.data.write();
    copy_storage(&mut dt, &dl, &st, sl)
}

fn copy_storage(dst: &mut Storage, dl: &Layout, src: &Storage, sl: &Layout) -> Result<()> {
    match (dst, src) {
        (Storage::Cpu(d), Storage::Cpu(s)) => d.copy_strided(dl, s, sl),
        (Storage::Cuda(d), Storage::Cuda(s)) => d.copy_strided(dl, s, sl),
        (d, s) => Err(mismatch("copy_", d.device(), s.device())),
    }
}

/// Reduce rows of the contiguous `x` (its last `row` elements form a row) into `shape`.
pub fn reduce(x: &Tensor, row: usize, op: ReduceOp, out_dtype: DType, shape: &[usize]) -> Result<Tensor> {
    let _prof = crate::profiler::scope(|| format!("aten::{}", op.name()).into(), crate::profiler::EventKind::Op);
    let d = x.data();
    real_only(op.name(), &d)?;
    let s = d.storage.data.read();
    let out = on_device!(&*s, v => v.reduce(&d.layout, row, op, out_dtype));
    Ok(Tensor::from_storage_on(out, shape))
}

/// `x`'s storage read through the contiguous `l` (its layout with the dims in memory order)
/// reduced with `op` over its leading rows into `inner` columns, or None where the backend
/// has no kernel for it (see `BackendStorage::reduce_leading`).
pub fn reduce_leading(x: &Tensor, l: &Layout, inner: usize, op: ReduceOp, shape: &[usize]) -> Result<Option<Tensor>> {
    let d = x.data();
    if d.dtype.is_complex() {
        return Ok(None);
    }
    let s = d.storage.data.read();
    let out = match &*s {
        Storage::Cpu(c) => c.reduce_leading(l, inner, op)?.map(Storage::Cpu),
        Storage::Cuda(c) => c.reduce_leading(l, inner, op)?.map(Storage::Cuda),
    };
    let Some(out) = out else { return Ok(None) };
    let _prof = crate::profiler::scope(|| format!("aten::{}", op.name()).into(), crate::profiler::EventKind::Op);
    Ok(Some(Tensor::from_storage_on(out, shape)))
}

/// `g` added into zeros of `base_shape` at the positions of `dst` (see
/// `BackendStorage::scatter_add_strided`), or None where the backend has no kernel.
pub fn scatter_add_strided(g: &Tensor, dst: &Layout, base_shape: &[usize]) -> Result<Option<Tensor>> {
    let d = g.data();
    if d.dtype.is_complex() {
        return Ok(None);
    }
    if !d.layout.is_contiguous() || d.layout.shape != dst.shape {
        return Ok(None);
    }
    let n = crate::shape::numel_checked(base_shape)?;
    let s = d.storage.data.read();
    let out = match &*s {
        Storage::Cpu(c) => c.scatter_add_strided(&d.layout, dst, n)?.map(Storage::Cpu),
        Storage::Cuda(c) => c.scatter_add_strided(&d.layout, dst, n)?.map(Storage::Cuda),
    };
    let Some(out) = out else { return Ok(None) };
    let _prof = crate::profiler::scope(|| "aten::as_strided_scatter".into(), crate::profiler::EventKind::Op);
    Ok(Some(Tensor::from_storage_on(out, base_shape)))
}

/// The columns of the (n, c, h, w) image `x` (see `BackendStorage::im2col`), shaped
/// (c·kh·kw, n·oh·ow) or (n, c·kh·kw, oh·ow); `None` where `x` is not contiguous, not real,
/// or the backend has no kernel.
pub fn im2col(x: &Tensor, nchw: [usize; 4], win: &ConvWindow, batch_inner: bool, fill: f64) -> Result<Option<Tensor>> {
    let d = x.data();
    if d.dtype.is_complex() || !d.layout.is_contiguous() || d.layout.numel() != nchw.iter().product::<usize>() {
        return Ok(None);
    }
    let s = d.storage.data.read();
    let out = match &*s {
        Storage::Cpu(c) => c.im2col(&d.layout, nchw, win, batch_inner, fill)?.map(Storage::Cpu),
        Storage::Cuda(c) => c.im2col(&d.layout, nchw, win, batch_inner, fill)?.map(Storage::Cuda),
    };
    let Some(out) = out else { return Ok(None) };
    let _prof = crate::profiler::scope(|| "aten::im2col".into(), crate::profiler::EventKind::Op);
    let [n, c, _, _] = nchw;
    let (k, l) = (c * win.kernel[0] * win.kernel[1], win.out[0] * win.out[1]);
    let shape: &[usize] = if batch_inner { &[k, n * l] } else { &[n, k, l] };
    Ok(Some(Tensor::from_storage_on(out, shape)))
}

/// The adjoint of `im2col`: the columns `cols` summed back into a (n, c, h, w) image; `None`
/// where `cols` is not contiguous, not real, or the backend has no kernel.
pub fn col2im(cols: &Tensor, nchw: [usize; 4], win: &ConvWindow, batch_inner: bool) -> Result<Option<Tensor>> {
    let d = cols.data();
    let [n, c, _, _] = nchw;
    let want = n * c * win.kernel[0] * win.kernel[1] * win.out[0] * win.out[1];
    if d.dtype.is_complex() || !d.layout.is_contiguous() || d.layout.numel() != want {
        return Ok(None);
    }
    let s = d.storage.data.read();
    let out = match &*s {
        Storage::Cpu(c) => c.col2im(&d.layout, nchw, win, batch_inner)?.map(Storage::Cpu),
        Storage::Cuda(c) => c.col2im(&d.layout, nchw, win, batch_inner)?.map(Storage::Cuda),
    };
    let Some(out) = out else { return Ok(None) };
    let _prof = crate::profiler::scope(|| "aten::col2im".into(), crate::profiler::EventKind::Op);
    Ok(Some(Tensor::from_storage_on(out, &nchw)))
}

/// The convolution `conv` of `x` with `w` and `b` (see `BackendStorage::conv2d`), shaped
/// (n, oc, oh, ow); `None` where an operand is not contiguous, the dtypes or devices differ,
/// or the backend has no kernel.
pub fn conv2d(x: &Tensor, w: &Tensor, b: Option<&Tensor>, conv: &Conv2d) -> Result<Option<Tensor>> {
    if x.dtype().is_complex() {
        return Ok(None);
    }
    let ts: Vec<&Tensor> = [Some(x), Some(w), b].into_iter().flatten().collect();
    if ts.iter().any(|t| !t.is_contiguous() || t.device() != x.device() || t.dtype() != x.dtype()) {
        return Ok(None);
    }
    let out = with_storages(&ts, |v| {
        let bv = b.map(|_| v[2]);
        Ok(match (v[0].0, v[1].0) {
            (Storage::Cpu(xs), Storage::Cpu(ws)) => xs.conv2d(v[0].1, (ws, v[1].1), cpu_of(bv), conv)?.map(Storage::Cpu),
            (Storage::Cuda(xs), Storage::Cuda(ws)) => xs.conv2d(v[0].1, (ws, v[1].1), cuda_of(bv), conv)?.map(Storage::Cuda),
            _ => None,
        })
    })?;
    let Some(out) = out else { return Ok(None) };
    let _prof = crate::profiler::scope(|| "aten::convolution".into(), crate::profiler::EventKind::Op);
    let [n, _, _, _] = conv.nchw;
    Ok(Some(Tensor::from_storage_on(out, &[n, conv.oc, conv.win.out[0], conv.win.out[1]])))
}

/// The convolution's (input, weight) gradients given the output gradient `g` (see
/// `BackendStorage::conv2d_backward`), shaped (n, c, h, w) and (oc, c/groups, kh, kw); `None`
/// where an operand is not contiguous, the dtypes or devices differ, or the backend has no
/// kernel.
pub fn conv2d_backward(g: &Tensor, x: &Tensor, w: &Tensor, conv: &Conv2d, want: [bool; 2]) -> Result<Option<(Option<Tensor>, Option<Tensor>)>> {
    if x.dtype().is_complex() {
        return Ok(None);
    }
    let ts = [g, x, w];
    if ts.iter().any(|t| !t.is_contiguous() || t.device() != x.device() || t.dtype() != x.dtype()) {
        return Ok(None);
    }
    let res = with_storages(&ts, |v| {
        Ok(match (v[0].0, v[1].0, v[2].0) {
            (Storage::Cpu(gs), Storage::Cpu(xs), Storage::Cpu(ws)) => gs
                .conv2d_backward(v[0].1, (xs, v[1].1), (ws, v[2].1), conv, want)?
                .map(|(a, b)| (a.map(Storage::Cpu), b.map(Storage::Cpu))),
            (Storage::Cuda(gs), Storage::Cuda(xs), Storage::Cuda(ws)) => gs
                .conv2d_backward(v[0].1, (xs, v[1].1), (ws, v[2].1), conv, want)?
                .map(|(a, b)| (a.map(Storage::Cuda), b.map(Storage::Cuda))),
            _ => None,
        })
    })?;
    let Some((gx, gw)) = res else { return Ok(None) };
    let _prof = crate::profiler::scope(|| "aten::convolution_backward".into(), crate::profiler::EventKind::Op);
    let [_, c, h, wd] = conv.nchw;
    let ws = [conv.oc, c / conv.groups, conv.win.kernel[0], conv.win.kernel[1]];
    Ok(Some((gx.map(|s| Tensor::from_storage_on(s, &[conv.nchw[0], c, h, wd])), gw.map(|s| Tensor::from_storage_on(s, &ws)))))
}

/// Per-channel (mean, biased variance) of `x` seen as (n, c, s) (see
/// `BackendStorage::channel_stats`), each shaped (c,); `None` where `x` is not contiguous,
/// not real, or the backend has no kernel.
pub fn channel_stats(x: &Tensor, ncs: (usize, usize, usize)) -> Result<Option<(Tensor, Tensor)>> {
    let d = x.data();
    if d.dtype.is_complex() || !d.layout.is_contiguous() || d.layout.numel() != ncs.0 * ncs.1 * ncs.2 {
        return Ok(None);
    }
    let s = d.storage.data.read();
    let r = match &*s {
        Storage::Cpu(c) => c.channel_stats(&d.layout, ncs)?.map(|(m, v)| (Storage::Cpu(m), Storage::Cpu(v))),
        Storage::Cuda(c) => c.channel_stats(&d.layout, ncs)?.map(|(m, v)| (Storage::Cuda(m), Storage::Cuda(v))),
    };
    let Some((m, v)) = r else { return Ok(None) };
    let _prof = crate::profiler::scope(|| "aten::batch_norm_stats".into(), crate::profiler::EventKind::Op);
    Ok(Some((Tensor::from_storage_on(m, &[ncs.1]), Tensor::from_storage_on(v, &[ncs.1]))))
}

/// `x * alpha[ch] + beta[ch]` over `x` seen as (n, c, s) (see `BackendStorage::channel_affine`),
/// shaped as `x`; `None` where an operand is not contiguous, the dtypes or devices differ,
/// or the backend has no kernel.
pub fn channel_affine(x: &Tensor, ncs: (usize, usize, usize), alpha: &Tensor, beta: &Tensor) -> Result<Option<Tensor>> {
    if x.dtype().is_complex() || x.numel() != ncs.0 * ncs.1 * ncs.2 || alpha.numel() != ncs.1 || beta.numel() != ncs.1 {
        return Ok(None);
    }
    let ts = [x, alpha, beta];
    if ts.iter().any(|t| !t.is_contiguous() || t.device() != x.device() || t.dtype() != x.dtype()) {
        return Ok(None);
    }
    let out = with_storages(&ts, |v| {
        Ok(match (v[0].0, v[1].0, v[2].0) {
            (Storage::Cpu(xs), Storage::Cpu(a), Storage::Cpu(b)) => xs.channel_affine(v[0].1, ncs, (a, v[1].1), (b, v[2].1))?.map(Storage::Cpu),
            (Storage::Cuda(xs), Storage::Cuda(a), Storage::Cuda(b)) => xs.channel_affine(v[0].1, ncs, (a, v[1].1), (b, v[2].1))?.map(Storage::Cuda),
            _ => None,
        })
    })?;
    let Some(out) = out else { return Ok(None) };
    let _prof = crate::profiler::scope(|| "aten::batch_norm_elemt".into(), crate::profiler::EventKind::Op);
    Ok(Some(Tensor::from_storage_on(out, &x.shape())))
}

/// One LSTM cell step (see `BackendStorage::lstm_cell`): [h', c', i, f, g, o, tanh(c')],
/// each (batch, hidden); `None` where an operand is not contiguous or of another shape,
/// the dtypes or devices differ, or the backend has no kernel.
pub fn lstm_cell(ig: &Tensor, hw: &Tensor, c: &Tensor) -> Result<Option<Vec<Tensor>>> {
    let (ws, cs) = (ig.shape(), c.shape());
    if ws.len() != 2 || cs.len() != 2 || hw.shape() != ws || ws[0] != cs[0] || ws[1] != 4 * cs[1] || ig.dtype().is_complex() {
        return Ok(None);
    }
    let ts = [ig, hw, c];
    if ts.iter().any(|t| !t.is_contiguous() || t.device() != ig.device() || t.dtype() != ig.dtype()) {
        return Ok(None);
    }
    let bh = (cs[0], cs[1]);
    let out = with_storages(&ts, |v| {
        Ok(match (v[0].0, v[1].0, v[2].0) {
            (Storage::Cpu(a), Storage::Cpu(b), Storage::Cpu(c)) => a.lstm_cell(v[0].1, (b, v[1].1), (c, v[2].1), bh)?.map(|o| o.into_iter().map(Storage::Cpu).collect::<Vec<_>>()),
            (Storage::Cuda(a), Storage::Cuda(b), Storage::Cuda(c)) => a.lstm_cell(v[0].1, (b, v[1].1), (c, v[2].1), bh)?.map(|o| o.into_iter().map(Storage::Cuda).collect::<Vec<_>>()),
            _ => None,
        })
    })?;
    let Some(out) = out else { return Ok(None) };
    let _prof = crate::profiler::scope(|| "aten::_lstm_cell".into(), crate::profiler::EventKind::Op);
    Ok(Some(out.into_iter().map(|s| Tensor::from_storage_on(s, &cs)).collect()))
}

/// Read-locks the storages of `ts` (each once, however many tensors share it) and calls `f`
/// with each tensor's storage and layout, in order.
fn with_storages<R>(ts: &[&Tensor], f: impl FnOnce(&[(&Storage, &Layout)]) -> Result<R>) -> Result<R> {
    let datas: Vec<_> = ts.iter().map(|t| t.data()).collect();
    let mut guards: Vec<(usize, parking_lot::RwLockReadGuard<'_, Storage>)> = Vec::new();
    for (i, d) in datas.iter().enumerate() {
        if !guards.iter().any(|(j, _)| std::sync::Arc::ptr_eq(&datas[*j].storage, &d.storage)) {
            guards.push((i, d.storage.data.read()));
        }
    }
    let views: Vec<(&Storage, &Layout)> = datas.iter().map(|d| {
        let g = guards.iter().find(|(j, _)| std::sync::Arc::ptr_eq(&datas[*j].storage, &d.storage)).map(|(_, g)| &**g);
        (g.expect("invariant: every storage was locked above"), &d.layout)
    }).collect();
    f(&views)
}

fn cpu_of<'a>(o: Option<(&'a Storage, &'a Layout)>) -> Option<(&'a CpuStorage, &'a Layout)> {
    o.and_then(|(s, l)| match s { Storage::Cpu(c) => Some((c, l)), _ => None })
}

fn cuda_of<'a>(o: Option<(&'a Storage, &'a Layout)>) -> Option<(&'a crate::storage::CudaStorage, &'a Layout)> {
    o.and_then(|(s, l)| match s { Storage::Cuda(c) => Some((c, l)), _ => None })
}

/// Scaled dot-product attention (see `BackendStorage::attention`): (output, logsumexp), or
/// None where the backend has no kernel (or query, key and value are not contiguous, or an
/// operand differs in device or dtype). `mask` is (b, h, l, s), broadcast strides allowed.
pub fn attention(q: &Tensor, k: &Tensor, v: &Tensor, mask: Option<&Tensor>, spec: &Attention) -> Result<Option<(Tensor, Tensor)>> {
    let ts: Vec<&Tensor> = [Some(q), Some(k), Some(v), mask].into_iter().flatten().collect();
    let Attention { b, h, hk, l, s, e, .. } = *spec;
    let dims_ok = b * h * hk * l * s * e > 0 && h % hk == 0 && q.shape()[..] == [b, h, l, e] && k.shape()[..] == [b, hk, s, e] && v.shape()[..] == [b, hk, s, e]
        && mask.is_none_or(|m| m.shape()[..] == [b, h, l, s]);
    if !dims_ok || q.dtype().is_complex() || [q, k, v].iter().any(|t| !t.is_contiguous())
        || ts.iter().any(|t| t.device() != q.device() || t.dtype() != q.dtype()) {
        return Ok(None);
    }
    let out = with_storages(&ts, |st| {
        let m = mask.map(|_| st[3]);
        Ok(match (st[0].0, st[1].0, st[2].0) {
            (Storage::Cpu(a), Storage::Cpu(b), Storage::Cpu(c)) => a.attention(st[0].1, (b, st[1].1), (c, st[2].1), cpu_of(m), spec)?
                .map(|(o, l)| (Storage::Cpu(o), Storage::Cpu(l))),
            (Storage::Cuda(a), Storage::Cuda(b), Storage::Cuda(c)) => a.attention(st[0].1, (b, st[1].1), (c, st[2].1), cuda_of(m), spec)?
                .map(|(o, l)| (Storage::Cuda(o), Storage::Cuda(l))),
            _ => None,
        })
    })?;
    let Some((o, lse)) = out else { return Ok(None) };
    let _prof = crate::profiler::scope(|| "aten::_scaled_dot_product_flash_attention_for_cpu".into(), crate::profiler::EventKind::Op);
    Ok(Some((Tensor::from_storage_on(o, &q.shape()), Tensor::from_storage_on(lse, &[spec.b, spec.h, spec.l]))))
}

/// The attention's (query, key, value) gradients from the output gradient `g` and the
/// forward's `[query, key, value, output, logsumexp]` (see `BackendStorage::
/// attention_backward`), or None where the backend has no kernel.
#[allow(clippy::type_complexity)]
pub fn attention_backward(g: &Tensor, saved: [&Tensor; 5], mask: Option<&Tensor>, spec: &Attention, want: [bool; 3])
    -> Result<Option<(Option<Tensor>, Option<Tensor>, Option<Tensor>)>> {
    let mut ts: Vec<&Tensor> = vec![g];
    ts.extend(saved);
    ts.extend(mask);
    if g.dtype().is_complex() || ts[..6].iter().any(|t| !t.is_contiguous())
        || ts.iter().any(|t| t.device() != g.device() || t.dtype() != g.dtype()) {
        return Ok(None);
    }
    let res = with_storages(&ts, |st| {
        let m = mask.map(|_| st[6]);
        let host: Vec<&CpuStorage> = st[..6].iter().filter_map(|(s, _)| match s { Storage::Cpu(c) => Some(c), _ => None }).collect();
        if let [g, q, k, v, o, lse] = host[..] {
            return Ok(g.attention_backward(st[0].1, [(q, st[1].1), (k, st[2].1), (v, st[3].1), (o, st[4].1), (lse, st[5].1)], cpu_of(m), spec, want)?
                .map(|(a, b, c)| (a.map(Storage::Cpu), b.map(Storage::Cpu), c.map(Storage::Cpu))));
        }
        let dev: Vec<&crate::storage::CudaStorage> = st[..6].iter().filter_map(|(s, _)| match s { Storage::Cuda(c) => Some(c), _ => None }).collect();
        if let [g, q, k, v, o, lse] = dev[..] {
            return Ok(g.attention_backward(st[0].1, [(q, st[1].1), (k, st[2].1), (v, st[3].1), (o, st[4].1), (lse, st[5].1)], cuda_of(m), spec, want)?
                .map(|(a, b, c)| (a.map(Storage::Cuda), b.map(Storage::Cuda), c.map(Storage::Cuda))));
        }
        Ok(None)
    })?;
    let Some((dq, dk, dv)) = res else { return Ok(None) };
    let _prof = crate::profiler::scope(|| "aten::_scaled_dot_product_flash_attention_for_cpu_backward".into(), crate::profiler::EventKind::Op);
    let (qs, ks) = (saved[0].shape(), saved[1].shape());
    Ok(Some((dq.map(|s| Tensor::from_storage_on(s, &qs)), dk.map(|s| Tensor::from_storage_on(s, &ks)), dv.map(|s| Tensor::from_storage_on(s, &ks)))))
}

/// `layer_norm` of the rows of `r` elements of `x` with per-column `w`/`b`, or None where
/// the backend has no kernel (or an operand is not contiguous, or they differ in device or
/// dtype).
pub fn layer_norm_rows(x: &Tensor, r: usize, w: Option<&Tensor>, b: Option<&Tensor>, eps: f64) -> Result<Option<(Tensor, Tensor, Tensor)>> {
    if x.dtype().is_complex() {
        return Ok(None);
    }
    let ts: Vec<&Tensor> = [Some(x), w, b].into_iter().flatten().collect();
    if ts.iter().any(|t| !t.is_contiguous() || t.device() != x.device() || t.dtype() != x.dtype()) {
        return Ok(None);
    }
    let out = with_storages(&ts, |v| {
        let (xs, xl) = v[0];
        let wv = w.map(|_| v[1]);
        let bv = b.map(|_| v[ts.len() - 1]);
        Ok(match xs {
            Storage::Cpu(c) => {
                c.layer_norm_rows(xl, r, cpu_of(wv), cpu_of(bv), eps)?.map(|(y, m, v)| (Storage::Cpu(y), Storage::Cpu(m), Storage::Cpu(v)))
            }
            Storage::Cuda(c) => {
                c.layer_norm_rows(xl, r, cuda_of(wv), cuda_of(bv), eps)?.map(|(y, m, v)| (Storage::Cuda(y), Storage::Cuda(m), Storage::Cuda(v)))
            }
        })
    })?;
    let Some(out) = out else { return Ok(None) };
    let _prof = crate::profiler::scope(|| "aten::native_layer_norm".into(), crate::profiler::EventKind::Op);
    let rows = if r == 0 { 0 } else { x.numel() / r };
    let (y, m, v) = out;
    Ok(Some((Tensor::from_storage_on(y, &x.shape()), Tensor::from_storage_on(m, &[rows]), Tensor::from_storage_on(v, &[rows]))))
}

/// The layer norm's (input, weight, bias) gradients from the output gradient `g` (see
/// `BackendStorage::layer_norm_rows_backward`), or None where the backend has no kernel.
#[allow(clippy::type_complexity)]
pub fn layer_norm_rows_backward(g: &Tensor, x: &Tensor, r: usize, w: Option<&Tensor>, eps: f64, want_w: bool, want_b: bool)
    -> Result<Option<(Tensor, Option<Tensor>, Option<Tensor>)>> {
    if x.dtype().is_complex() {
        return Ok(None);
    }
    let ts: Vec<&Tensor> = [Some(g), Some(x), w].into_iter().flatten().collect();
    if ts.iter().any(|t| !t.is_contiguous() || t.device() != x.device() || t.dtype() != x.dtype()) {
        return Ok(None);
    }
    let res = with_storages(&ts, |v| {
        let wv = w.map(|_| v[2]);
        Ok(match (v[0].0, v[1].0) {
            (Storage::Cpu(gs), Storage::Cpu(xs)) => {
                gs.layer_norm_rows_backward(v[0].1, (xs, v[1].1), r, cpu_of(wv), eps, want_w, want_b)?
                    .map(|(a, b, c)| (Storage::Cpu(a), b.map(Storage::Cpu), c.map(Storage::Cpu)))
            }
            (Storage::Cuda(gs), Storage::Cuda(xs)) => {
                gs.layer_norm_rows_backward(v[0].1, (xs, v[1].1), r, cuda_of(wv), eps, want_w, want_b)?
                    .map(|(a, b, c)| (Storage::Cuda(a), b.map(Storage::Cuda), c.map(Storage::Cuda)))
            }
            _ => None,
        })
    })?;
    let Some((gx, gw, gb)) = res else { return Ok(None) };
    let _prof = crate::profiler::scope(|| "aten::native_layer_norm_backward".into(), crate::profiler::EventKind::Op);
    let xs = x.shape();
    Ok(Some((Tensor::from_storage_on(gx, &xs), gw.map(|s| Tensor::from_storage_on(s, &[r])), gb.map(|s| Tensor::from_storage_on(s, &[r])))))
}

/// The batch norm's gradients from the output gradient `g` (see
/// `BackendStorage::batch_norm_backward`), or None where the backend has no kernel.
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub fn batch_norm_backward(g: &Tensor, x: &Tensor, mean: &Tensor, invstd: &Tensor, w: Option<&Tensor>, ncs: (usize, usize, usize),
                           training: bool, want: [bool; 3]) -> Result<Option<(Option<Tensor>, Option<Tensor>, Option<Tensor>)>> {
    if x.dtype().is_complex() {
        return Ok(None);
    }
    let ts: Vec<&Tensor> = [Some(g), Some(x), Some(mean), Some(invstd), w].into_iter().flatten().collect();
    if ts.iter().any(|t| !t.is_contiguous() || t.device() != x.device() || t.dtype() != x.dtype()) {
        return Ok(None);
    }
    let res = with_storages(&ts, |v| {
        let wv = w.map(|_| v[4]);
        Ok(match (v[0].0, v[1].0, v[2].0, v[3].0) {
            (Storage::Cpu(gs), Storage::Cpu(xs), Storage::Cpu(ms), Storage::Cpu(is)) => gs
                .batch_norm_backward(v[0].1, (xs, v[1].1), (ms, v[2].1), (is, v[3].1), cpu_of(wv), ncs, training, want)?
                .map(|(a, b, c)| (a.map(Storage::Cpu), b.map(Storage::Cpu), c.map(Storage::Cpu))),
            (Storage::Cuda(gs), Storage::Cuda(xs), Storage::Cuda(ms), Storage::Cuda(is)) => gs
                .batch_norm_backward(v[0].1, (xs, v[1].1), (ms, v[2].1), (is, v[3].1), cuda_of(wv), ncs, training, want)?
                .map(|(a, b, c)| (a.map(Storage::Cuda), b.map(Storage::Cuda), c.map(Storage::Cuda))),
            _ => None,
        })
    })?;
    let Some((gx, gw, gb)) = res else { return Ok(None) };
    let _prof = crate::profiler::scope(|| "aten::native_batch_norm_backward".into(), crate::profiler::EventKind::Op);
    let c = ncs.1;
    Ok(Some((gx.map(|s| Tensor::from_storage_on(s, &x.shape())), gw.map(|s| Tensor::from_storage_on(s, &[c])),
             gb.map(|s| Tensor::from_storage_on(s, &[c])))))
}

/// Rows `rows` of the contiguous 2-d view of `x` (`inner` elements each) as a tensor of
/// `shape`, or None where the backend has no kernel or `x` is not contiguous.
/// Max pooling of the contiguous `x` seen as (planes, h, w): (values, int64 in-plane indices)
/// shaped `shape`, or None where the backend has no kernel.
pub fn max_pool2d(x: &Tensor, planes: usize, hw: [usize; 2], pool: &Pool2d, out: [usize; 2], shape: &[usize]) -> Result<Option<(Tensor, Tensor)>> {
    let d = x.data();
    if d.dtype.is_complex() || !d.layout.is_contiguous() {
        return Ok(None);
    }
    let _prof = crate::profiler::scope(|| "aten::max_pool2d_with_indices".into(), crate::profiler::EventKind::Op);
    let s = d.storage.data.read();
    let r = match &*s {
        Storage::Cpu(c) => c.max_pool2d(&d.layout, planes, hw, pool, out)?.map(|(v, i)| (Storage::Cpu(v), Storage::Cpu(i))),
        Storage::Cuda(c) => c.max_pool2d(&d.layout, planes, hw, pool, out)?.map(|(v, i)| (Storage::Cuda(v), Storage::Cuda(i))),
    };
    let Some((v, i)) = r else { return Ok(None) };
    Ok(Some((Tensor::from_storage_on(v, shape), Tensor::from_storage_on(i, shape))))
}

/// Max pooling of the contiguous `x` seen as (planes, d, h, w) over `w`'s windows: (values,
/// int64 in-plane indices) shaped `shape`, or None where the backend has no kernel.
pub fn max_pool_windows(x: &Tensor, planes: usize, w: &PoolWindows, shape: &[usize]) -> Result<Option<(Tensor, Tensor)>> {
    let d = x.data();
    if d.dtype.is_complex() || !d.layout.is_contiguous() {
        return Ok(None);
    }
    let _prof = crate::profiler::scope(|| "aten::max_pool3d_with_indices".into(), crate::profiler::EventKind::Op);
    let s = d.storage.data.read();
    let r = match &*s {
        Storage::Cpu(c) => c.max_pool_windows(&d.layout, planes, w)?.map(|(v, i)| (Storage::Cpu(v), Storage::Cpu(i))),
        Storage::Cuda(c) => c.max_pool_windows(&d.layout, planes, w)?.map(|(v, i)| (Storage::Cuda(v), Storage::Cuda(i))),
    };
    let Some((v, i)) = r else { return Ok(None) };
    Ok(Some((Tensor::from_storage_on(v, shape), Tensor::from_storage_on(i, shape))))
}

/// Average pooling (or, with `backward`, its input gradient from the output gradient) of
/// the contiguous `x` over `w`'s windows (see `BackendStorage::avg_pool_windows`), shaped
/// `shape`; None where the backend has no kernel.
pub fn avg_pool_windows(x: &Tensor, planes: usize, w: &PoolWindows, divs: &[f64], backward: bool, shape: &[usize]) -> Result<Option<Tensor>> {
    let d = x.data();
    if d.dtype.is_complex() || !d.layout.is_contiguous() {
        return Ok(None);
    }
    let _prof = crate::profiler::scope(|| if backward { "aten::avg_pool3d_backward" } else { "aten::avg_pool3d" }.into(), crate::profiler::EventKind::Op);
    let s = d.storage.data.read();
    let r = match &*s {
        Storage::Cpu(c) => c.avg_pool_windows(&d.layout, planes, w, divs, backward)?.map(Storage::Cpu),
        Storage::Cuda(c) => c.avg_pool_windows(&d.layout, planes, w, divs, backward)?.map(Storage::Cuda),
    };
    Ok(r.map(|o| Tensor::from_storage_on(o, shape)))
}

/// One pass of grid sampling (see `BackendStorage::grid_sampler`): `ops` contiguous on one
/// device in `cpu::grid`'s order (the first present), the outputs shaped by `shapes`.
pub fn grid_sampler(ops: &[Option<&Tensor>], pass: GridPass, spec: &GridSampler, want: &[bool], shapes: &[Vec<usize>]) -> Result<Vec<Option<Tensor>>> {
    let _prof = crate::profiler::scope(|| match pass {
        GridPass::Forward => "aten::grid_sampler",
        _ => "aten::grid_sampler_backward",
    }.into(), crate::profiler::EventKind::Op);
    let ds: Vec<Option<_>> = ops.iter().map(|t| t.map(|t| t.data())).collect();
    let ss: Vec<Option<_>> = ds.iter().map(|d| d.as_ref().map(|d| d.storage.data.read())).collect();
    let first = ss[0].as_ref().expect("grid_sampler's first operand");
    let l0 = &ds[0].as_ref().expect("first operand").layout;
    let out: Vec<Option<Storage>> = match &**first {
        Storage::Cpu(c) => {
            let rest = ss[1..].iter().zip(&ds[1..]).map(|(s, d)| match (s.as_deref(), d) {
                (Some(Storage::Cpu(s)), Some(d)) => Ok(Some((s, &d.layout))),
                (None, _) => Ok(None),
                (Some(s), _) => Err(mismatch("grid_sampler", Device::Cpu, s.device())),
            }).collect::<Result<Vec<_>>>()?;
            c.grid_sampler(l0, &rest, pass, spec, want)?.into_iter().map(|o| o.map(Storage::Cpu)).collect()
        }
        Storage::Cuda(c) => {
            let rest = ss[1..].iter().zip(&ds[1..]).map(|(s, d)| match (s.as_deref(), d) {
                (Some(Storage::Cuda(s)), Some(d)) => Ok(Some((s, &d.layout))),
                (None, _) => Ok(None),
                (Some(s), _) => Err(mismatch("grid_sampler", c.device(), s.device())),
            }).collect::<Result<Vec<_>>>()?;
            c.grid_sampler(l0, &rest, pass, spec, want)?.into_iter().map(|o| o.map(Storage::Cuda)).collect()
        }
    };
    Ok(out.into_iter().zip(shapes).map(|(o, sh)| o.map(|o| Tensor::from_storage_on(o, sh))).collect())
}

/// Max pooling's input gradient (see `BackendStorage::max_pool2d_backward`): `g` and `ind`
/// contiguous (planes, l); None where the backend has no kernel.
/// `lerp(a, e, w)` through the backend's fused kernel (see `BackendStorage::lerp_scalar`):
/// contiguous operands of one shape, dtype and device; `None` where there is no kernel.
/// clamp's backward `g` where `lo <= x <= hi`, else 0, for a gradient and input of one shape
/// and float dtype on one device; None where the backend has no kernel.
pub fn clamp_backward(g: &Tensor, x: &Tensor, lo: f64, hi: f64) -> Result<Option<Tensor>> {
    let (dg, dx) = (g.data(), x.data());
    if dg.dtype != dx.dtype || !dg.dtype.is_float() || dg.layout.shape != dx.layout.shape {
        return Ok(None);
    }
    let _prof = crate::profiler::scope(|| "aten::clamp_backward".into(), crate::profiler::EventKind::Op);
    let sg = dg.storage.data.read();
    let same = std::sync::Arc::ptr_eq(&dg.storage, &dx.storage);
    let sx_guard = (!same).then(|| dx.storage.data.read());
    let sx = sx_guard.as_deref().unwrap_or(&*sg);
    let r = match (&*sg, sx) {
        (Storage::Cpu(a), Storage::Cpu(b)) => a.clamp_backward(&dg.layout, (b, &dx.layout), lo, hi)?.map(Storage::Cpu),
        (Storage::Cuda(a), Storage::Cuda(b)) => a.clamp_backward(&dg.layout, (b, &dx.layout), lo, hi)?.map(Storage::Cuda),
        _ => None,
    };
    Ok(r.map(|o| Tensor::from_storage_on(o, &dg.layout.shape)))
}

/// Softmax (`log`: log-softmax) of the contiguous `x` along dim `d` (not the last) where the
/// backend has the kernel; None elsewhere.
pub fn softmax_mid(x: &Tensor, d: usize, log: bool) -> Result<Option<Tensor>> {
    let dx = x.data();
    if !dx.layout.is_contiguous() || dx.layout.numel() == 0 {
        return Ok(None);
    }
    let shape = &dx.layout.shape;
    let dims = [shape[..d].iter().product(), shape[d], shape[d + 1..].iter().product()];
    let _prof = crate::profiler::scope(|| if log { "aten::_log_softmax" } else { "aten::_softmax" }.into(), crate::profiler::EventKind::Op);
    let s = dx.storage.data.read();
    let r = match &*s {
        Storage::Cpu(c) => c.softmax_mid(&dx.layout, dims, log)?.map(Storage::Cpu),
        Storage::Cuda(c) => c.softmax_mid(&dx.layout, dims, log)?.map(Storage::Cuda),
    };
    Ok(r.map(|o| Tensor::from_storage_on(o, shape)))
}

/// `s + v * a * b` (`div`: `/ b`) in one pass where the backend has the kernel: contiguous
/// operands of one shape and dtype on one device; None elsewhere.
pub fn addc(s: &Tensor, a: &Tensor, b: &Tensor, v: f64, div: bool) -> Result<Option<Tensor>> {
    let (ds, da, db) = (s.data(), a.data(), b.data());
    let same = |d: &crate::tensor::TensorData| d.dtype == ds.dtype && d.layout.is_contiguous() && d.layout.shape == ds.layout.shape;
    if ds.dtype.is_complex() || !ds.layout.is_contiguous() || !same(&da) || !same(&db) {
        return Ok(None);
    }
    let _prof = crate::profiler::scope(|| if div { "aten::addcdiv" } else { "aten::addcmul" }.into(), crate::profiler::EventKind::Op);
    // one read guard per distinct storage (an operand may be passed twice: `addcmul(s, g, g)`)
    let gs = ds.storage.data.read();
    let ga = (!std::sync::Arc::ptr_eq(&da.storage, &ds.storage)).then(|| da.storage.data.read());
    let gb = (!std::sync::Arc::ptr_eq(&db.storage, &ds.storage) && !std::sync::Arc::ptr_eq(&db.storage, &da.storage)).then(|| db.storage.data.read());
    let st_a = ga.as_deref().unwrap_or(&*gs);
    let st_b = match &gb {
        Some(g) => &**g,
        None if std::sync::Arc::ptr_eq(&db.storage, &da.storage) => st_a,
        None => &*gs,
    };
    let r = match (&*gs, st_a, st_b) {
        (Storage::Cpu(x), Storage::Cpu(y), Storage::Cpu(z)) => x.addc(&ds.layout, (y, &da.layout), (z, &db.layout), v, div)?.map(Storage::Cpu),
        (Storage::Cuda(x), Storage::Cuda(y), Storage::Cuda(z)) => x.addc(&ds.layout, (y, &da.layout), (z, &db.layout), v, div)?.map(Storage::Cuda),
        _ => None,
    };
    Ok(r.map(|o| Tensor::from_storage_on(o, &ds.layout.shape)))
}

/// `s += v * a * b` (`div`: `s += v * a / b`) written straight into `s` (`addcmul_` /
/// `addcdiv_` with nothing recorded): for three contiguous tensors of one shape and dtype,
/// `a` and `b` in storages other than `s`'s. Ok(false): the caller takes the general path
/// (nothing written).
pub fn addc_in_place(s: &Tensor, a: &Tensor, b: &Tensor, v: f64, div: bool) -> Result<bool> {
    let (ds, da, db) = (s.data(), a.data(), b.data());
    let same = |d: &crate::tensor::TensorData| d.dtype == ds.dtype && d.layout.is_contiguous() && d.layout.shape == ds.layout.shape;
    if ds.dtype.is_complex() || !ds.layout.is_contiguous() || !same(&da) || !same(&db)
        || std::sync::Arc::ptr_eq(&da.storage, &ds.storage) || std::sync::Arc::ptr_eq(&db.storage, &ds.storage) {
        return Ok(false);
    }
    let _prof = crate::profiler::scope(|| if div { "aten::addcdiv_" } else { "aten::addcmul_" }.into(), crate::profiler::EventKind::Op);
    // one read guard per distinct operand storage (`addcmul_(g, g)` passes one twice)
    let ga = da.storage.data.read();
    let gb = (!std::sync::Arc::ptr_eq(&db.storage, &da.storage)).then(|| db.storage.data.read());
    let st_b = gb.as_deref().unwrap_or(&*ga);
    let mut gs = ds.storage.data.write();
    match (&mut *gs, &*ga, st_b) {
        (Storage::Cpu(x), Storage::Cpu(y), Storage::Cpu(z)) => x.addc_into(&ds.layout, (y, &da.layout), (z, &db.layout), v, div),
        (Storage::Cuda(x), Storage::Cuda(y), Storage::Cuda(z)) => x.addc_into(&ds.layout, (y, &da.layout), (z, &db.layout), v, div),
        _ => Ok(false),
    }
}

pub fn lerp_scalar(a: &Tensor, e: &Tensor, w: f64) -> Result<Option<Tensor>> {
    let (da, de) = (a.data(), e.data());
    if da.dtype != de.dtype || !da.layout.is_contiguous() || !de.layout.is_contiguous() || da.layout.shape != de.layout.shape {
        return Ok(None);
    }
    let _prof = crate::profiler::scope(|| "aten::lerp".into(), crate::profiler::EventKind::Op);
    let (sa, se) = (da.storage.data.read(), de.storage.data.read());
    let r = match (&*sa, &*se) {
        (Storage::Cpu(x), Storage::Cpu(y)) => x.lerp_scalar(&da.layout, (y, &de.layout), w)?.map(Storage::Cpu),
        (Storage::Cuda(x), Storage::Cuda(y)) => x.lerp_scalar(&da.layout, (y, &de.layout), w)?.map(Storage::Cuda),
        _ => None,
    };
    Ok(r.map(|o| Tensor::from_storage_on(o, &da.layout.shape)))
}

pub fn max_pool2d_backward(g: &Tensor, ind: &Tensor, planes: usize, hw: usize, shape: &[usize]) -> Result<Option<Tensor>> {
    let (dg, di) = (g.data(), ind.data());
    if dg.dtype.is_complex() || !dg.layout.is_contiguous() || !di.layout.is_contiguous() || dg.layout.numel() != di.layout.numel() {
        return Ok(None);
    }
    let l = dg.layout.numel() / planes.max(1);
    let _prof = crate::profiler::scope(|| "aten::max_pool2d_with_indices_backward".into(), crate::profiler::EventKind::Op);
    let (sg, si) = (dg.storage.data.read(), di.storage.data.read());
    let r = match (&*sg, &*si) {
        (Storage::Cpu(c), Storage::Cpu(i)) => c.max_pool2d_backward(&dg.layout, (i, &di.layout), planes, hw, l)?.map(Storage::Cpu),
        (Storage::Cuda(c), Storage::Cuda(i)) => c.max_pool2d_backward(&dg.layout, (i, &di.layout), planes, hw, l)?.map(Storage::Cuda),
        _ => None,
    };
    Ok(r.map(|o| Tensor::from_storage_on(o, shape)))
}

/// `gather(x, d, index)` in one pass where the backend has a kernel (contiguous `x` and
/// int64 `index` on one device, the index's values bounds-checked by the caller); else None.
pub fn gather_dim(x: &Tensor, index: &Tensor, d: usize) -> Result<Option<Tensor>> {
    let (dx, di) = (x.data(), index.data());
    if dx.dtype.is_complex() || di.dtype != DType::Int64 || !dx.layout.is_contiguous() || !di.layout.is_contiguous() {
        return Ok(None);
    }
    let ishape: Vec<usize> = di.layout.shape.to_vec();
    let (s, si) = (dx.storage.data.read(), di.storage.data.read());
    let out = match (&*s, &*si) {
        (Storage::Cpu(c), Storage::Cpu(i)) => c.gather_dim(&dx.layout, (i, &di.layout), &ishape, d)?.map(Storage::Cpu),
        (Storage::Cuda(c), Storage::Cuda(i)) => c.gather_dim(&dx.layout, (i, &di.layout), &ishape, d)?.map(Storage::Cuda),
        _ => None,
    };
    let Some(out) = out else { return Ok(None) };
    let _prof = crate::profiler::scope(|| "aten::gather".into(), crate::profiler::EventKind::Op);
    Ok(Some(Tensor::from_storage_on(out, &ishape)))
}

/// The minimum and maximum of a contiguous int64 tensor where the backend has the kernel.
pub fn int_range(x: &Tensor) -> Result<Option<(i64, i64)>> {
    let d = x.data();
    if d.dtype != DType::Int64 || !d.layout.is_contiguous() {
        return Ok(None);
    }
    let s = d.storage.data.read();
    match &*s {
        Storage::Cpu(c) => c.int_range(&d.layout),
        Storage::Cuda(c) => c.int_range(&d.layout),
    }
}

/// The row-major positions of `x`'s non-zero elements (NaN is non-zero) where the backend
/// has the kernel (a contiguous real tensor); None elsewhere.
pub fn nonzero_positions(x: &Tensor) -> Result<Option<Vec<usize>>> {
    let d = x.data();
    if d.dtype.is_complex() || !d.layout.is_contiguous() {
        return Ok(None);
    }
    let s = d.storage.data.read();
    match &*s {
        Storage::Cpu(c) => c.nonzero_positions(&d.layout),
        Storage::Cuda(c) => c.nonzero_positions(&d.layout),
    }
}

/// Rows `rows` of the contiguous `x` (rows of `inner` elements) stacked into `shape`, or None
/// where the backend has no row gather (the profiler names the op `prof`).
pub fn gather_rows(x: &Tensor, rows: &[usize], inner: usize, shape: &[usize], prof: &'static str) -> Result<Option<Tensor>> {
    gather_rows_in(x, rows, inner, RowOrder::Same, shape, prof)
}

/// How a row gather copies each row's elements: in order, reversed (a flip of the last dim),
/// or rotated right by `k` (a roll of the last dim: `out[i] = row[(i - k) mod inner]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowOrder {
    Same,
    Reverse,
    Rotate(usize),
}

/// `gather_rows` with each row's elements in the order `within`.
pub fn gather_rows_in(x: &Tensor, rows: &[usize], inner: usize, within: RowOrder, shape: &[usize], prof: &'static str) -> Result<Option<Tensor>> {
    let d = x.data();
    if d.dtype.is_complex() {
        return Ok(None);
    }
    if !d.layout.is_contiguous() {
        return Ok(None);
    }
    let s = d.storage.data.read();
    let out = match &*s {
        Storage::Cpu(c) => c.gather_rows(&d.layout, rows, inner, within)?.map(Storage::Cpu),
        Storage::Cuda(c) => c.gather_rows(&d.layout, rows, inner, within)?.map(Storage::Cuda),
    };
    let Some(out) = out else { return Ok(None) };
    let _prof = crate::profiler::scope(|| prof.into(), crate::profiler::EventKind::Op);
    Ok(Some(Tensor::from_storage_on(out, shape)))
}

/// Row `k` of the contiguous `src` added into row `rows[k]` of zeros shaped `base_shape`
/// (`inner` elements a row), or None where the backend has no kernel.
pub fn index_add_rows(src: &Tensor, rows: &[usize], inner: usize, base_shape: &[usize]) -> Result<Option<Tensor>> {
    let d = src.data();
    if d.dtype.is_complex() {
        return Ok(None);
    }
    if !d.layout.is_contiguous() {
        return Ok(None);
    }
    let base_rows = if inner == 0 { 0 } else { crate::shape::numel_checked(base_shape)? / inner };
    let s = d.storage.data.read();
    let out = match &*s {
        Storage::Cpu(c) => c.index_add_rows(&d.layout, rows, inner, base_rows)?.map(Storage::Cpu),
        Storage::Cuda(c) => c.index_add_rows(&d.layout, rows, inner, base_rows)?.map(Storage::Cuda),
    };
    let Some(out) = out else { return Ok(None) };
    let _prof = crate::profiler::scope(|| "aten::index_add".into(), crate::profiler::EventKind::Op);
    Ok(Some(Tensor::from_storage_on(out, base_shape)))
}

/// Row `k` of `src` added in place into row `rows[k]` (rows of `inner` elements) of the
/// contiguous `x`, in order: `index_add_` without offsets. Ok(false), nothing written,
/// where it cannot (no kernel, strided or shared operands, another dtype).
pub fn add_rows_in_place(x: &Tensor, rows: &[usize], inner: usize, src: &Tensor) -> Result<bool> {
    if x.dtype() != src.dtype() || x.dtype().is_complex() || x.device() != src.device() {
        return Ok(false);
    }
    let (dx, ds) = (x.data(), src.data());
    if !dx.layout.is_contiguous() || !ds.layout.is_contiguous() || std::sync::Arc::ptr_eq(&dx.storage, &ds.storage) {
        return Ok(false);
    }
    let _prof = crate::profiler::scope(|| "aten::index_add_".into(), crate::profiler::EventKind::Op);
    let ss = ds.storage.data.read();
    let mut st = dx.storage.data.write();
    match (&mut *st, &*ss) {
        (Storage::Cpu(o), Storage::Cpu(s)) => o.add_rows_into(dx.layout.offset, rows, inner, s, &ds.layout),
        (Storage::Cuda(o), Storage::Cuda(s)) => o.add_rows_into(dx.layout.offset, rows, inner, s, &ds.layout),
        _ => Ok(false),
    }
}

/// Max/min of each row of the contiguous `x` with its index: (values, int64 indices).
pub fn arg_reduce(x: &Tensor, row: usize, is_max: bool, shape: &[usize]) -> Result<(Tensor, Tensor)> {
    let _prof = crate::profiler::scope(|| if is_max { "aten::max" } else { "aten::min" }.into(), crate::profiler::EventKind::Op);
    let d = x.data();
    real_only("argmax", &d)?;
    let s = d.storage.data.read();
    let (v, i) = match &*s {
        Storage::Cpu(c) => { let (v, i) = c.arg_reduce(&d.layout, row, is_max)?; (Storage::Cpu(v), Storage::Cpu(i)) }
        Storage::Cuda(c) => { let (v, i) = c.arg_reduce(&d.layout, row, is_max)?; (Storage::Cuda(v), Storage::Cuda(i)) }
    };
    Ok((Tensor::from_storage_on(v, shape), Tensor::from_storage_on(i, shape)))
}

/// A row-wise scan of the contiguous `x` (softmax, cumsum, ...), same shape.
pub fn scan(x: &Tensor, row: usize, op: ScanOp) -> Result<Tensor> {
    let _prof = crate::profiler::scope(|| format!("aten::{}", op.name()).into(), crate::profiler::EventKind::Op);
    let d = x.data();
    real_only("cumsum", &d)?;
    let s = d.storage.data.read();
    let out = on_device!(&*s, v => v.scan(&d.layout, row, op));
    Ok(Tensor::from_storage_on(out, &d.layout.shape))
}

/// The int64 permutation sorting each row of the contiguous `x` (same shape).
pub fn argsort_rows(x: &Tensor, row: usize, descending: bool) -> Result<Tensor> {
    let _prof = crate::profiler::scope(|| "aten::sort".into(), crate::profiler::EventKind::Op);
    let d = x.data();
    real_only("sort", &d)?;
    let s = d.storage.data.read();
    let out = on_device!(&*s, v => v.argsort_rows(&d.layout, row, descending));
    Ok(Tensor::from_storage_on(out, &d.layout.shape))
}

/// `topk` indices of each row of `row` elements of contiguous `x`: a (rows, k) int64 tensor.
pub fn topk_rows(x: &Tensor, row: usize, k: usize, largest: bool, sorted: bool) -> Result<Tensor> {
    let _prof = crate::profiler::scope(|| "aten::topk".into(), crate::profiler::EventKind::Op);
    let d = x.data();
    real_only("topk", &d)?;
    let s = d.storage.data.read();
    let out = on_device!(&*s, v => v.topk_rows(&d.layout, row, k, largest, sorted));
    let rows = d.layout.numel() / row.max(1);
    Ok(Tensor::from_storage_on(out, &[rows, k]))
}

/// Batched matmul of 3-d `a` (b, m, k) and `b` (b, k, n) → contiguous (b, m, n).
pub fn matmul(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let _prof = crate::profiler::scope_shapes(|| "aten::bmm".into(), crate::profiler::EventKind::Op, || vec![a.shape().to_vec(), b.shape().to_vec()]);
    let (da, db) = (a.data(), b.data());
    real_only("bmm", &da)?;
    real_only("bmm", &db)?;
    let shape = [da.layout.shape[0], da.layout.shape[1], db.layout.shape[2]];
    let sa = da.storage.data.read();
    let sb_guard;
    let sb: &Storage = if std::sync::Arc::ptr_eq(&da.storage, &db.storage) { &sa } else { sb_guard = db.storage.data.read(); &sb_guard };
    let out = match (&*sa, sb) {
        (Storage::Cpu(x), Storage::Cpu(y)) => Storage::Cpu(x.matmul(&da.layout, y, &db.layout)?),
        (Storage::Cuda(x), Storage::Cuda(y)) if x.device() == y.device() => Storage::Cuda(x.matmul(&da.layout, y, &db.layout)?),
        (x, y) => return Err(mismatch("mm", x.device(), y.device())),
    };
    Ok(Tensor::from_storage_on(out, &shape))
}

/// Host offsets as a dense int64 tensor on `device` (for `take`/`put`).
pub fn offsets_tensor(offsets: &[usize], device: Device) -> Result<Tensor> {
    // from the buffer cache: a fresh megabyte-sized block costs a page fault per 4 KiB
    let mut v = crate::cpu::alloc::take::<i64>(offsets.len())?;
    for (d, &o) in v.iter_mut().zip(offsets) {
        *d = o as i64;
    }
    let t = Tensor::from_storage(crate::storage::StorageElem::wrap(v), &[offsets.len()]);
    on(&t, device)
}

/// `t` as a dense buffer of its own (contiguous from element 0, nothing else in it).
fn dense(t: &Tensor) -> Result<Tensor> {
    let d = t.data();
    if d.layout.is_contiguous() && d.layout.offset == 0 && d.storage.data.read().len() == d.layout.numel() {
        return Ok(t.clone());
    }
    drop(d);
    cast(t, t.dtype())
}

/// Offsets of complex elements as offsets of their (re, im) pairs in the real view: `2o`,
/// `2o + 1` side by side.
fn pair_offsets(offsets: &Tensor) -> Result<Tensor> {
    let _g = crate::autograd::raw_mode();
    let two = Tensor::wrapped_scalar(Scalar::Int(2));
    let re = crate::ops::mul(offsets, &two)?;
    let im = crate::ops::add(&re, &Tensor::wrapped_scalar(Scalar::Int(1)))?;
    crate::ops::stack(&[re, im], -1)
}

/// The elements of `x` at logical positions `offsets` (an int64 tensor), shaped `shape`.
pub fn take(x: &Tensor, offsets: &Tensor, shape: &[usize]) -> Result<Tensor> {
    if x.dtype().is_complex() {
        let mut pshape = shape.to_vec();
        pshape.push(2);
        return complex_of(take(&real_alias(x, &x.layout()), &pair_offsets(offsets)?, &pshape)?);
    }
    let _prof = crate::profiler::scope(|| "aten::index".into(), crate::profiler::EventKind::Op);
    let offsets = dense(&on(offsets, x.device())?)?;
    let (d, od) = (x.data(), offsets.data());
    let (s, so) = (d.storage.data.read(), od.storage.data.read());
    let out = match (&*s, &*so) {
        (Storage::Cpu(v), Storage::Cpu(o)) => Storage::Cpu(v.take(&d.layout, o)?),
        (Storage::Cuda(v), Storage::Cuda(o)) => Storage::Cuda(v.take(&d.layout, o)?),
        (v, o) => return Err(mismatch("take", v.device(), o.device())),
    };
    Ok(Tensor::from_storage_on(out, shape))
}

/// A contiguous copy of `base` with `src`'s elements written (or added) at `offsets` (an
/// int64 tensor).
pub fn put(base: &Tensor, offsets: &Tensor, src: &Tensor, accumulate: bool) -> Result<Tensor> {
    if base.dtype().is_complex() {
        let src = cast(src, base.dtype())?;
        let r = put(&real_alias(base, &base.layout()), &pair_offsets(offsets)?, &real_alias(&src, &src.layout()), accumulate)?;
        return complex_of(r);
    }
    let _prof = crate::profiler::scope(|| "aten::index_put_".into(), crate::profiler::EventKind::Op);
    put_into_copy("index_put_", base, offsets, src, PutOp::Write { accumulate })
}

/// `src` written (or, `accumulate`, added) at `offsets` of `base`'s own storage, in place:
/// the offsets index the storage itself (the caller adds the layout's offset). Ok(false),
/// nothing written, where `src` or `offsets` share `base`'s storage or `base` is complex
/// (the caller then takes the copying path).
pub fn put_in_place(base: &Tensor, offsets: &Tensor, src: &Tensor, accumulate: bool) -> Result<bool> {
    if base.dtype().is_complex() {
        return Ok(false);
    }
    let dev = common_device("index_put_", &[base, src])?;
    let _prof = crate::profiler::scope(|| "aten::index_put_".into(), crate::profiler::EventKind::Op);
    let src = dense(&on(&cast(src, base.dtype())?, dev)?)?;
    let offsets = dense(&on(offsets, dev)?)?;
    let (db, ds, doff) = (base.data(), src.data(), offsets.data());
    if std::sync::Arc::ptr_eq(&db.storage, &ds.storage) || std::sync::Arc::ptr_eq(&db.storage, &doff.storage) {
        return Ok(false);
    }
    let (ss, so) = (ds.storage.data.read(), doff.storage.data.read());
    let mut st = db.storage.data.write();
    match (&mut *st, &*ss, &*so) {
        (Storage::Cpu(o), Storage::Cpu(s), Storage::Cpu(i)) => o.put(i, s, accumulate)?,
        (Storage::Cuda(o), Storage::Cuda(s), Storage::Cuda(i)) => o.put(i, s, accumulate)?,
        (o, s, _) => return Err(mismatch("index_put_", o.device(), s.device())),
    }
    Ok(true)
}

/// What `put_into_copy` does at each offset.
#[derive(Clone, Copy)]
enum PutOp {
    Write { accumulate: bool },
    Reduce(PutReduce),
}

/// A contiguous copy of `base` with `src` put at `offsets` by `op` on their common device.
fn put_into_copy(name: &'static str, base: &Tensor, offsets: &Tensor, src: &Tensor, op: PutOp) -> Result<Tensor> {
    let dev = common_device(name, &[base, src])?;
    let out = cast(base, base.dtype())?;
    let src = dense(&on(&cast(src, base.dtype())?, dev)?)?;
    let offsets = dense(&on(offsets, dev)?)?;
    {
        let (dout, dsrc, doff) = (out.data(), src.data(), offsets.data());
        let (ss, so) = (dsrc.storage.data.read(), doff.storage.data.read());
        let mut st = dout.storage.data.write();
        match (&mut *st, &*ss, &*so, op) {
            (Storage::Cpu(o), Storage::Cpu(s), Storage::Cpu(i), PutOp::Write { accumulate }) => o.put(i, s, accumulate)?,
            (Storage::Cpu(o), Storage::Cpu(s), Storage::Cpu(i), PutOp::Reduce(r)) => o.put_reduce(i, s, r)?,
            (Storage::Cuda(o), Storage::Cuda(s), Storage::Cuda(i), PutOp::Write { accumulate }) => o.put(i, s, accumulate)?,
            (Storage::Cuda(o), Storage::Cuda(s), Storage::Cuda(i), PutOp::Reduce(r)) => o.put_reduce(i, s, r)?,
            (o, s, _, _) => return Err(mismatch(name, o.device(), s.device())),
        }
    }
    Ok(out)
}

/// How `put_reduce` combines a written value with the one in place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PutReduce {
    Add,
    Mul,
    /// The larger (NaN from either side wins).
    Max,
    /// The smaller (NaN from either side wins).
    Min,
}

/// A contiguous copy of `base` with `src`'s elements combined by `op` into the places at
/// `offsets` (an int64 tensor), in index order. Real dtypes.
pub fn put_reduce(base: &Tensor, offsets: &Tensor, src: &Tensor, op: PutReduce) -> Result<Tensor> {
    let _prof = crate::profiler::scope(|| "aten::scatter_reduce".into(), crate::profiler::EventKind::Op);
    put_into_copy("scatter_reduce", base, offsets, src, PutOp::Reduce(op))
}

/// `n` copies of `v` as a tensor of `shape` on `device`.
pub fn full(shape: &[usize], v: Scalar, dtype: DType, device: Device) -> Result<Tensor> {
    if dtype.is_complex() {
        // (v, 0) pairs: zeros, then the real parts
        let mut pshape = shape.to_vec();
        pshape.push(2);
        let out = complex_of(full(&pshape, Scalar::Int(0), dtype.to_real(), device)?)?;
        if v.as_f64() != 0.0 {
            let ol = out.layout();
            let re = full(shape, v, dtype.to_real(), device)?;
            copy_into(&part_alias(&out, &ol, 0), &re, &re.layout())?;
        }
        return Ok(out);
    }
    let n = crate::shape::numel_checked(shape)?;
    let s = match device {
        Device::Cpu => Storage::Cpu(CpuStorage::full(Device::Cpu, dtype, n, v)?),
        Device::Cuda(_) => Storage::Cuda(crate::storage::CudaStorage::full(device, dtype, n, v)?),
    };
    Ok(Tensor::from_storage_on(s, shape))
}

/// A copy of `t` on `device` (contiguous; `t` itself is never returned).
pub fn to_device(t: &Tensor, device: Device) -> Result<Tensor> {
    if t.dtype().is_complex() {
        return complex_of(to_device(&real_alias(t, &t.layout()), device)?);
    }
    let dense = {
        let d = t.data();
        d.layout.is_contiguous() && d.layout.offset == 0 && d.storage.data.read().len() == d.layout.numel()
    };
    let c = if dense { t.clone() } else { cast(t, t.dtype())? };
    let d = c.data();
    let s = d.storage.data.read();
    let out = match (&*s, device) {
        (Storage::Cpu(h), Device::Cpu) => Storage::Cpu(h.clone_buffer()),
        (Storage::Cpu(h), Device::Cuda(_)) => Storage::Cuda(crate::storage::CudaStorage::from_host(device, h)?),
        (Storage::Cuda(g), Device::Cpu) => Storage::Cpu(g.to_host()?),
        (Storage::Cuda(g), Device::Cuda(_)) => Storage::Cuda(crate::storage::CudaStorage::from_host(device, &g.to_host()?)?),
    };
    Ok(Tensor::from_storage_on(out, &d.layout.shape))
}

/// A CPU buffer holding the elements of `t` in row-major order (a copy for device tensors;
/// for CPU tensors `f` borrows the storage and layout directly).
pub fn with_host<R>(t: &Tensor, f: impl FnOnce(&CpuStorage, &Layout) -> R) -> Result<R> {
    let d = t.data();
    let s = d.storage.data.read();
    match &*s {
        Storage::Cpu(c) => Ok(f(c, &d.layout)),
        Storage::Cuda(c) => {
            let host = c.to_host()?;
            Ok(f(&host, &d.layout))
        }
    }
}

/// `dst = a op b` (op one of + - * /, `b` a tensor or the scalar `b_scalar`) written straight
/// into `dst`'s contiguous buffer with no temporary, when the CPU fast path applies: float
/// dtype equal for all, `dst` of the broadcast shape, `dst` aliasing at most `a` with the same
/// layout. With `alpha` (op `Add`): `a + alpha * b`, fused. False asks the caller for the
/// general path.
pub fn binary_into(dst: &Tensor, a: &Tensor, b: &Tensor, b_scalar: Option<f64>, op: BinaryOp, alpha: Option<f64>) -> Result<bool> {
    let _prof = crate::profiler::scope(|| format!("aten::{}", op.name()).into(), crate::profiler::EventKind::Op);
    use crate::cpu::elementwise::{binary_into as into, Rhs};
    let shape = crate::shape::broadcast_shapes(&a.shape(), &b.shape())?;
    if shape != dst.shape() {
        return Ok(false);
    }
    let (dd, da, db) = (dst.data(), a.data(), b.data());
    if dd.dtype.is_complex() || da.dtype.is_complex() || (b_scalar.is_none() && db.dtype.is_complex()) {
        return Ok(false);
    }
    if !dd.storage.device().is_cpu() || !da.storage.device().is_cpu() || (b_scalar.is_none() && !db.storage.device().is_cpu()) {
        return Ok(false);
    }
    let Some(range) = dd.layout.contiguous_range() else { return Ok(false) };
    let a_alias = std::sync::Arc::ptr_eq(&dd.storage, &da.storage);
    let b_alias = b_scalar.is_none() && std::sync::Arc::ptr_eq(&dd.storage, &db.storage);
    if b_alias || (a_alias && da.layout != dd.layout) {
        return Ok(false);
    }
    let la = da.layout.broadcast_to(&shape)?;
    let lb = if b_scalar.is_some() { la.clone() } else { db.layout.broadcast_to(&shape)? };
    let not_cpu = || Error::Runtime("invariant: CPU storage".into());
    if a_alias {
        let sb_guard;
        let rhs = match b_scalar {
            Some(c) => Rhs::Scalar(c),
            None => {
                sb_guard = db.storage.data.read();
                Rhs::Tensor(sb_guard.as_cpu().ok_or_else(not_cpu)?, &lb)
            }
        };
        let mut st = dd.storage.data.write();
        let d = st.as_cpu_mut().ok_or_else(not_cpu)?;
        into(d, range, None, rhs, op, alpha);
        return Ok(true);
    }
    let sa = da.storage.data.read();
    let sb_guard;
    let rhs = match b_scalar {
        Some(c) => Rhs::Scalar(c),
        None if std::sync::Arc::ptr_eq(&da.storage, &db.storage) => Rhs::Tensor(sa.as_cpu().ok_or_else(not_cpu)?, &lb),
        None => {
            sb_guard = db.storage.data.read();
            Rhs::Tensor(sb_guard.as_cpu().ok_or_else(not_cpu)?, &lb)
        }
    };
    let mut st = dd.storage.data.write();
    let d = st.as_cpu_mut().ok_or_else(not_cpu)?;
    into(d, range, Some((sa.as_cpu().ok_or_else(not_cpu)?, &la)), rhs, op, alpha);
    Ok(true)
}

/// Sets every element of a contiguous real CPU tensor to `v` in place (converted as
/// `CpuStorage::filled` converts); false asks for the general path.
pub fn fill_inplace(t: &Tensor, v: Scalar) -> Result<bool> {
    let d = t.data();
    if d.dtype.is_complex() {
        return Ok(false);
    }
    let Some(range) = d.layout.contiguous_range() else { return Ok(false) };
    let _prof = crate::profiler::scope(|| "aten::fill_".into(), crate::profiler::EventKind::Op);
    let mut st = d.storage.data.write();
    match st.as_cpu_mut() {
        Some(c) => {
            c.fill_range(range, v);
            Ok(true)
        }
        None => Ok(false),
    }
}

/// `t = op(t)` in place for a contiguous float32 / float64 CPU tensor with no history to
/// record (see `cpu::elementwise::unary_inplace`); false asks for the general in-place path.
pub fn unary_inplace(t: &Tensor, op: UnaryOp) -> Result<bool> {
    let d = t.data();
    if !matches!(d.dtype, DType::Float32 | DType::Float64) {
        return Ok(false);
    }
    let Some(range) = d.layout.contiguous_range() else { return Ok(false) };
    let _prof = crate::profiler::scope(|| format!("aten::{}_", op.name()).into(), crate::profiler::EventKind::Op);
    let mut st = d.storage.data.write();
    match st.as_cpu_mut() {
        Some(c) => crate::cpu::elementwise::unary_inplace(c, range, op),
        None => Ok(false),
    }
}

/// `dst = op(x)` straight into a contiguous float32 `dst` (for `out=`) for a float op on the
/// CPU; false asks the caller for the general path.
pub fn unary_into(dst: &Tensor, x: &Tensor, op: UnaryOp) -> Result<bool> {
    let _prof = crate::profiler::scope(|| format!("aten::{}", op.name()).into(), crate::profiler::EventKind::Op);
    if dst.dtype() != DType::Float32 || x.dtype() != DType::Float32 || dst.shape() != x.shape() || dst.shares_storage(x) {
        return Ok(false);
    }
    let (dd, dx) = (dst.data(), x.data());
    let (Some(rd), Some(rx)) = (dd.layout.contiguous_range(), dx.layout.contiguous_range()) else { return Ok(false) };
    let sx = dx.storage.data.read();
    let mut sd = dd.storage.data.write();
    match (sd.as_cpu_mut(), sx.as_cpu()) {
        (Some(d), Some(s)) => Ok(crate::cpu::elementwise::unary_into_f32(d, rd, s, rx, op)),
        _ => Ok(false),
    }
}
