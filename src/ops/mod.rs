//! Op families, forward and backward side by side. Shared here: dtype dispatch macros,
//! casting, reducing a broadcast gradient back to an input's shape, and the in-place
//! machinery (version bumps, leaf checks, CopySlices).

pub mod binary;
pub mod complex;
pub mod grid;
pub mod index;
pub mod indexing;
pub mod linalg;
pub mod matmul;
pub mod nn;
pub mod nn_layers;
pub mod random;
pub mod reduce;
pub mod shape;
pub mod sort;
pub mod ternary;
pub mod unary;

pub use binary::*;
pub use grid::grid_sample;
pub use index::*;
pub use indexing::*;
pub use matmul::*;
pub use nn::*;
pub use nn_layers::*;
pub use random::*;
pub use reduce::*;
pub use shape::*;
pub use sort::*;
pub use ternary::*;
pub use unary::*;

use crate::autograd::{is_grad_enabled, is_inference_mode, needs_history, record, record_with};
use crate::backend;
use crate::dtype::{Category, DType};
use crate::error::Result;
use crate::shape::Layout;
use crate::tensor::Tensor;
use crate::{bail, ensure};

/// `float_types!(dtype, T => body)`: run body with `T` bound to the float element type.
#[macro_export]
macro_rules! float_types {
    ($dt:expr, $T:ident => $body:expr) => {
        match $dt {
            $crate::dtype::DType::Float32 => { type $T = f32; $body }
            $crate::dtype::DType::Float64 => { type $T = f64; $body }
            $crate::dtype::DType::Float16 => { type $T = half::f16; $body }
            $crate::dtype::DType::BFloat16 => { type $T = half::bf16; $body }
            d => panic!("invariant: float dtype expected, got {:?}", d),
        }
    };
}

/// `num_types!(dtype, T => body)`: every dtype but bool.
#[macro_export]
macro_rules! num_types {
    ($dt:expr, $T:ident => $body:expr) => {
        match $dt {
            $crate::dtype::DType::UInt8 => { type $T = u8; $body }
            $crate::dtype::DType::Int8 => { type $T = i8; $body }
            $crate::dtype::DType::Int16 => { type $T = i16; $body }
            $crate::dtype::DType::Int32 => { type $T = i32; $body }
            $crate::dtype::DType::Int64 => { type $T = i64; $body }
            $crate::dtype::DType::Float32 => { type $T = f32; $body }
            $crate::dtype::DType::Float64 => { type $T = f64; $body }
            $crate::dtype::DType::Float16 => { type $T = half::f16; $body }
            $crate::dtype::DType::BFloat16 => { type $T = half::bf16; $body }
            $crate::dtype::DType::Bool => panic!("invariant: numeric dtype expected"),
            // complex tensors reach kernels as their real views (`ops::complex`)
            d @ ($crate::dtype::DType::Complex64 | $crate::dtype::DType::Complex128) => panic!("invariant: real dtype expected, got {:?}", d),
        }
    };
}

/// `int_types!(dtype, T => body)`: the integral dtypes.
#[macro_export]
macro_rules! int_types {
    ($dt:expr, $T:ident => $body:expr) => {
        match $dt {
            $crate::dtype::DType::UInt8 => { type $T = u8; $body }
            $crate::dtype::DType::Int8 => { type $T = i8; $body }
            $crate::dtype::DType::Int16 => { type $T = i16; $body }
            $crate::dtype::DType::Int32 => { type $T = i32; $body }
            $crate::dtype::DType::Int64 => { type $T = i64; $body }
            d => panic!("invariant: integral dtype expected, got {:?}", d),
        }
    };
}

/// `all_types!(dtype, T => body)`: every dtype.
#[macro_export]
macro_rules! all_types {
    ($dt:expr, $T:ident => $body:expr) => {
        match $dt {
            $crate::dtype::DType::Bool => { type $T = bool; $body }
            $crate::dtype::DType::UInt8 => { type $T = u8; $body }
            $crate::dtype::DType::Int8 => { type $T = i8; $body }
            $crate::dtype::DType::Int16 => { type $T = i16; $body }
            $crate::dtype::DType::Int32 => { type $T = i32; $body }
            $crate::dtype::DType::Int64 => { type $T = i64; $body }
            $crate::dtype::DType::Float32 => { type $T = f32; $body }
            $crate::dtype::DType::Float64 => { type $T = f64; $body }
            $crate::dtype::DType::Float16 => { type $T = half::f16; $body }
            $crate::dtype::DType::BFloat16 => { type $T = half::bf16; $body }
            // complex tensors reach kernels as their real views (`ops::complex`)
            d @ ($crate::dtype::DType::Complex64 | $crate::dtype::DType::Complex128) => panic!("invariant: real dtype expected, got {:?}", d),
        }
    };
}

impl Tensor {
    /// A contiguous copy with no history (shares nothing with `self`).
    pub fn detach_copy(&self) -> Result<Tensor> {
        cast_raw(self, self.dtype())
    }
    /// `self` detached if nothing else holds it and it owns a dense buffer, else a copy
    /// (PyTorch steals a gradient that no one else references). A view whose base nothing
    /// else holds (a backward formula's reshape of its fresh result) owns its buffer too: it
    /// is taken as a plain tensor on the same buffer.
    /// Whether writing into this tensor in place is invisible to everyone else: the only
    /// handle (no other clone, no view or base on its buffer) on a dense buffer of its own,
    /// with no history.
    pub(crate) fn is_sole_owner(&self) -> bool {
        if std::sync::Arc::strong_count(&self.0) != 1 || self.requires_grad() || self.meta().view_base.is_some() {
            return false;
        }
        let d = self.data();
        d.layout.offset == 0 && d.layout.is_contiguous() && std::sync::Arc::strong_count(&d.storage) == 1
            && d.storage.data.read().len() == d.layout.numel()
    }

    pub fn detach_copy_if_shared(&self) -> Result<Tensor> {
        if std::sync::Arc::strong_count(&self.0) != 1 || self.requires_grad() {
            return self.detach_copy();
        }
        // 1 when the only other holder of the buffer is a base that only this view keeps
        let base_refs = match &self.meta().view_base {
            None => Some(0),
            Some(b) if std::sync::Arc::strong_count(&b.0) == 1 && std::sync::Arc::ptr_eq(&b.data().storage, &self.data().storage) => Some(1),
            Some(_) => None,
        };
        let d = self.data();
        let dense = d.layout.offset == 0 && d.layout.is_contiguous()
            && d.storage.data.read().len() == d.layout.numel();
        let owned = base_refs.filter(|&k| std::sync::Arc::strong_count(&d.storage) == 1 + k);
        drop(d);
        match owned {
            Some(0) if dense => Ok(self.clone()),
            Some(_) if dense => Ok(self.detach()),
            _ => self.detach_copy(),
        }
    }
}

/// A contiguous copy converted to `dtype`, without autograd.
pub fn cast_raw(t: &Tensor, dtype: DType) -> Result<Tensor> {
    backend::cast(t, dtype)
}

/// `t.to(dtype)`, differentiable (ToCopyBackward0). Returns `t` itself when nothing changes.
pub fn to_dtype(t: &Tensor, dtype: DType) -> Result<Tensor> {
    if t.dtype() == dtype {
        return Ok(t.clone());
    }
    let out = backend::discarding_imag(|| backend::cast_preserving(t, dtype))?;
    if dtype.is_float() || dtype.is_complex() {
        let src = t.dtype();
        record("ToCopyBackward0", &[t], &[&out], &[], move |_, g, _| Ok(vec![Some(to_dtype(&g[0], src)?)]))?;
    }
    Ok(out)
}

/// `t.to(device)`, differentiable (ToCopyBackward0: the gradient goes back to `t`'s device).
pub fn to_device(t: &Tensor, device: crate::Device) -> Result<Tensor> {
    let out = backend::to_device(t, device)?;
    let src = t.device();
    record("ToCopyBackward0", &[t], &[&out], &[], move |_, g, _| Ok(vec![Some(to_device(&g[0], src)?)]))?;
    Ok(out)
}

/// Floating inputs stay; integers and bools become the default float (for exp, div, ...).
pub fn float_input(t: &Tensor) -> Result<Tensor> {
    let dt = t.dtype();
    if dt.is_float() || dt.is_complex() {
        Ok(t.clone())
    } else {
        backend::cast_preserving(t, crate::dtype::default_float())
    }
}

/// The shape an input's gradient is summed back to, kept only when the input was broadcast:
/// an input of the output's shape (the common case) takes its gradient as it comes, and the
/// recorded formula holds no copy of a shape.
pub struct SumTo(Option<Box<[usize]>>);

impl SumTo {
    /// For the two operands of a broadcasting binary op (an input whose shape is the
    /// broadcast shape needs no reduction).
    pub fn pair(a: &Tensor, b: &Tensor) -> (SumTo, SumTo) {
        let (da, db) = (a.data(), b.data());
        let (sa, sb) = (&da.layout.shape, &db.layout.shape);
        if sa == sb {
            return (SumTo(None), SumTo(None));
        }
        let one = |s: &crate::shape::Dims| {
            // the broadcast shape has max(len) dims; an operand of fewer dims, or with a size-1
            // dim where the other's is not 1, is reduced
            let full = s.len() >= sa.len().max(sb.len());
            let other = if std::ptr::eq(s, sa) { sb } else { sa };
            let off = s.len().saturating_sub(other.len());
            let keeps = full && s.iter().skip(off).zip(other.iter().skip(other.len().saturating_sub(s.len()))).all(|(&x, &y)| x != 1 || y == 1);
            SumTo(if keeps { None } else { Some(s.as_slice().into()) })
        };
        (one(sa), one(sb))
    }
    /// `g` (of the output's shape) summed back to the input's shape.
    pub fn apply(&self, g: &Tensor) -> Result<Tensor> {
        match &self.0 {
            None => Ok(g.clone()),
            Some(s) => sum_to(g, s),
        }
    }
}

/// Sum a gradient of a broadcast result back to `shape` (the one shared reduction helper).
pub fn sum_to(g: &Tensor, shape: &[usize]) -> Result<Tensor> {
    let gs = g.shape();
    if &gs[..] == shape {
        return Ok(g.clone());
    }
    ensure!(gs.len() >= shape.len(), Runtime, "sum_to: cannot reduce {:?} to {:?}", gs, shape);
    let lead = gs.len() - shape.len();
    let mut dims: Vec<usize> = (0..lead).collect();
    for (i, &s) in shape.iter().enumerate() {
        if s == 1 && gs[lead + i] != 1 {
            dims.push(lead + i);
        } else if s != gs[lead + i] {
            bail!(Runtime, "sum_to: cannot reduce {:?} to {:?}", gs, shape);
        }
    }
    let r = if dims.is_empty() { g.clone() } else { reduce::sum_dims(g, &dims, true, None)? };
    reshape(&r, &shape.iter().map(|&d| d as i64).collect::<Vec<_>>())
}

/// The dtype an in-place result may be written as (PyTorch refuses float into int).
fn check_inplace_cast(result: DType, target: DType) -> Result<()> {
    let rank = |c: Category| c as u8;
    if rank(result.category()) > rank(target.category()) {
        bail!(Runtime, "result type {} can't be cast to the desired output type {}", result.scalar_name(), target.scalar_name());
    }
    Ok(())
}

/// The checks every in-place op makes before writing.
pub fn check_inplace(target: &Tensor) -> Result<()> {
    check_inplace_with(target, false)
}

/// `check_inplace` for the writes torch allows into self-overlapping memory (fills).
pub fn check_inplace_overlapping(target: &Tensor) -> Result<()> {
    check_inplace_with(target, true)
}

/// `check_inplace`; `allow_overlap` for the writes torch lets into a tensor whose elements
/// share memory (fills, `copy_`/setitem, `masked_fill_`: every alias gets the same value).
fn check_inplace_with(target: &Tensor, allow_overlap: bool) -> Result<()> {
    if target.0.is_inference && !is_inference_mode() {
        bail!(Runtime, "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details.");
    }
    if is_grad_enabled() && target.requires_grad() && target.is_leaf() {
        bail!(Runtime, "a leaf Variable that requires grad is being used in an in-place operation.");
    }
    if is_grad_enabled() && target.meta().view_creation == crate::tensor::VIEW_MULTI_OUTPUT && target.requires_grad() {
        let (nr, name) = (target.output_nr(), target.grad_fn().map(|n| n.name.to_string()).unwrap_or_default());
        let short = name.trim_end_matches(|c: char| c.is_ascii_digit()).trim_end_matches("Backward");
        bail!(Runtime, "Output {} of {} is a view and is being modified inplace. This view is the output of a function that returns multiple views. Such functions do not allow the output views to be modified inplace. You should replace the inplace operation by an out-of-place one.", nr, short);
    }
    if is_grad_enabled() {
        // (the base is taken out first: the meta lock must not be held while asking the target)
        let view_base = target.meta().view_base.clone();
        if let Some(base) = view_base {
            if base.dtype() != target.dtype() && (base.requires_grad() || target.requires_grad()) {
                // a real/imag view of a complex tensor (or the reverse): its history cannot be
                // replayed on the base across dtypes
                bail!(NotImplemented, "in-place writes to a real or imaginary view of a complex tensor that requires grad (or to a complex view of a real one) are not supported by ferrograd yet; write out of place (e.g. torch.complex(re, im))");
            }
            if base.requires_grad() && base.is_leaf() {
                bail!(Runtime, "a view of a leaf Variable that requires grad is being used in an in-place operation.");
            }
        }
    }
    if !allow_overlap {
        let d = target.data();
        if d.layout.shape.iter().zip(&d.layout.strides).any(|(&n, &s)| n > 1 && s == 0) {
            bail!(Runtime, "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.");
        }
    }
    crate::autograd::before_write(target)
}

/// ATen's `assert_no_partial_overlap(dst, src)` (TensorIterator's memory-overlap check): an
/// in-place write may not read a tensor that shares some, but not all, of the written
/// memory. Only layouts without gaps or repeats are compared (ATen's "too hard" otherwise).
pub fn assert_no_partial_overlap(dst: &Tensor, src: &Tensor) -> Result<()> {
    if dst.same(src) || dst.dtype() != src.dtype() || !dst.shares_storage(src) {
        return Ok(());
    }
    let (a, b) = (dst.layout(), src.layout());
    let span = |l: &crate::shape::Layout| -> Option<(usize, usize)> {
        let n = l.numel();
        if n == 0 {
            return None;
        }
        // dense: the dims of more than one element, by stride, tile exactly n elements
        let mut dims: Vec<(usize, i64)> = l.shape.iter().zip(&l.strides).filter(|(&s, _)| s > 1).map(|(&s, &st)| (s, st as i64)).collect();
        dims.sort_by_key(|&(_, st)| st);
        let mut expect = 1i64;
        for (s, st) in dims {
            if st != expect {
                return None;
            }
            expect *= s as i64;
        }
        Some((l.offset, l.offset + n))
    };
    if let (Some((a0, a1)), Some((b0, b1))) = (span(&a), span(&b)) {
        ensure!(!(a0 < b1 && b0 < a1) || (a0 == b0 && a1 == b1), Runtime,
            "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.");
    }
    Ok(())
}

/// Write raw data of `src` (broadcast to `dst`'s shape, cast) into `dst`'s storage.
pub fn write_into(dst: &Tensor, src: &Tensor) -> Result<()> {
    let dl = dst.layout();
    let sl = src.layout().broadcast_to(&dl.shape).map_err(|_| {
        crate::error::Error::Runtime(format!(
            "output with shape {} doesn't match the broadcast shape {}",
            crate::shape::fmt_list(&dl.shape),
            crate::shape::fmt_list(&crate::shape::broadcast_shapes(&dl.shape, &src.shape()).unwrap_or_else(|_| src.shape()))
        ))
    })?;
    backend::copy_into(dst, src, &sl)
}

/// Run an in-place op: `compute(input)` gives the new value of `target` out of place (with
/// history when recording); it is written into `target`'s storage, the version is bumped,
/// and the history is rebased onto `target` (or onto its base through CopySlices).
pub fn inplace(target: &Tensor, compute: impl FnOnce(&Tensor) -> Result<Tensor>) -> Result<()> {
    inplace_with(target, false, compute)
}

/// An in-place unary op, `target = op(target)`: straight through the buffer when no history
/// is recorded and the backend can (a contiguous float CPU tensor: one pass, no new tensor),
/// else `general` (the out-of-place op) on the in-place path.
pub fn inplace_unary(target: &Tensor, op: crate::backend::UnaryOp, general: impl FnOnce(&Tensor) -> Result<Tensor>) -> Result<()> {
    if !crate::autograd::needs_history(&[target]) {
        check_inplace(target)?;
        if backend::unary_inplace(target, op)? {
            target.bump_version();
            return Ok(());
        }
    }
    inplace(target, general)
}

/// `inplace` for a write torch allows into self-overlapping memory (see `check_inplace_with`).
pub fn inplace_overlapping(target: &Tensor, compute: impl FnOnce(&Tensor) -> Result<Tensor>) -> Result<()> {
    inplace_with(target, true, compute)
}

fn inplace_with(target: &Tensor, allow_overlap: bool, compute: impl FnOnce(&Tensor) -> Result<Tensor>) -> Result<()> {
    check_inplace_with(target, allow_overlap)?;
    let recording = is_grad_enabled();
    // When recording, the op sees a snapshot: it may save its input, which the write below
    // would otherwise corrupt (PyTorch clones `self` for the same reason).
    let input = if recording && target.requires_grad() {
        let snap = target.detach_copy()?;
        if let Some(e) = target.gradient_edge() {
            snap.set_grad_fn(Some(e.node), e.input_nr);
        }
        crate::autograd::forward::share(target, &snap);
        snap
    } else {
        target.clone()
    };
    let result = {
        let _in_place = crate::autograd::InPlaceGuard::new();
        compute(&input)?
    };
    ensure!(result.shape() == target.shape() || crate::shape::broadcast_shapes(&target.shape(), &result.shape()).map(|s| s == target.shape()).unwrap_or(false),
        Runtime, "output with shape {} doesn't match the broadcast shape {}", crate::shape::fmt_list(&target.shape()),
        crate::shape::fmt_list(&crate::shape::broadcast_shapes(&target.shape(), &result.shape()).unwrap_or_else(|_| result.shape())));
    check_inplace_cast(result.dtype(), target.dtype())?;
    write_into(target, &result)?;
    target.bump_version();
    if recording && result.requires_grad() {
        rebase_history(target, &result)?;
    }
    crate::autograd::forward::inplace_update(target, &result)
}

/// After an in-place write of `result` into `target`, make autograd see it.
fn rebase_history(target: &Tensor, result: &Tensor) -> Result<()> {
    let result = if result.shape() != target.shape() { expand(result, &target.shape().iter().map(|&d| d as i64).collect::<Vec<_>>())? } else { result.clone() };
    let base = target.meta().view_base.clone();
    match base {
        Some(base) if !base.same(target) => {
            let base_layout = base.layout();
            let view_layout = target.layout();
            let edges = [base.gradient_edge(), result.gradient_edge()].into_iter().collect();
            let (bl, vl) = (base_layout.clone(), view_layout.clone());
            // d base = g with the written region zeroed; d src = g over the region
            record_with(edges, "CopySlices", &[&base], &[], move |_, g, needs| {
                let offs = backend::offsets_tensor(&view_offsets_in_base(&bl, &vl)?, g[0].device())?;
                let gb = if needs[0] {
                    let ones = crate::tensor::full_on(&[offs.numel()], crate::Scalar::Int(1), g[0].dtype(), g[0].device())?;
                    let hit = put_add(&ones, &offs, &g[0].shape())?;
                    let written = binary_raw(&hit, &Tensor::wrapped_scalar(crate::Scalar::Int(0)), BinOp::Ne)?;
                    // zeroed, not multiplied by a mask: an infinite gradient there becomes 0, not NaN
                    Some(where_(&written, &Tensor::wrapped_scalar(crate::Scalar::Int(0)), &g[0])?)
                } else { None };
                let gs = if needs[1] { Some(take(&g[0], &offs, &vl.shape)?) } else { None };
                Ok(vec![gb, gs])
            })?;
            // the view now reads its gradient out of the base's new history
            record_as_strided(&base, target, &view_layout)?;
        }
        _ => {
            let e = result.gradient_edge().expect("invariant: result requires grad");
            target.set_grad_fn(Some(e.node), e.input_nr);
        }
    }
    Ok(())
}

/// Give `view` a fresh history read out of `base`'s current one (AsStridedBackward0), whatever
/// the grad mode (torch regenerates a stale view's grad_fn on access).
pub fn regenerate_view_history(base: &Tensor, view: &Tensor) {
    let Some(edge) = base.gradient_edge() else { return };
    let (bl, vl) = (base.layout(), view.layout());
    let r = crate::autograd::record_with(smallvec::smallvec![Some(edge)], "AsStridedBackward0", &[view], &[], move |_, g, _| {
        Ok(vec![Some(scatter_view_grad(&g[0], &bl, &vl)?)])
    });
    debug_assert!(r.is_ok());
}

/// Record `out = as_strided(base, layout)` (AsStridedBackward0): the gradient scatters back
/// into zeros of the base's shape.
fn record_as_strided(base: &Tensor, out: &Tensor, layout: &Layout) -> Result<()> {
    let (bl, vl) = (base.layout(), layout.clone());
    record("AsStridedBackward0", &[base], &[out], &[], move |_, g, _| Ok(vec![Some(scatter_view_grad(&g[0], &bl, &vl)?)]))
}

/// The gradient of a view (storage layout `vl`) scattered into zeros of its base's shape
/// (storage layout `bl`); overlapping view elements accumulate. Differentiable.
pub(crate) fn scatter_view_grad(g: &Tensor, bl: &Layout, vl: &Layout) -> Result<Tensor> {
    let offs = backend::offsets_tensor(&view_offsets_in_base(bl, vl)?, g.device())?;
    put_add(g, &offs, &bl.shape)
}

/// For every element of a view (row-major), its flat index in its base's logical (row-major)
/// order. The view's layout addresses storage; so does the base's, which need not be
/// contiguous nor start at offset 0 (a detached slice, a column-major result), as long as
/// it does not overlap itself (a tensor written in place never does).
pub fn view_offsets_in_base(bl: &Layout, vl: &Layout) -> Result<Vec<usize>> {
    let view_storage = index::storage_offsets(vl);
    if bl.offset == 0 && bl.is_contiguous() {
        return Ok(view_storage);
    }
    let mut at: std::collections::HashMap<usize, usize> = std::collections::HashMap::with_capacity(bl.numel());
    for (i, o) in index::storage_offsets(bl).into_iter().enumerate() {
        at.insert(o, i);
    }
    view_storage.iter().map(|o| at.get(o).copied().ok_or_else(|| crate::error::Error::Internal(
        "a view reaches outside its base's elements".into()))).collect()
}

/// A tensor viewing `t`'s storage through an explicit layout (no autograd).
pub fn as_strided_view(t: &Tensor, layout: &Layout) -> Tensor {
    let mut d = t.data().clone();
    d.layout = layout.clone();
    crate::tensor::Tensor::build(d, false)
}

/// `as_strided` (differentiable): a view of contiguous `t` with `layout`.
pub fn as_strided(t: &Tensor, layout: &Layout) -> Result<Tensor> {
    let out = as_strided_view(t, layout);
    out.mark_grad();
    out.meta().view_base = Some(t.clone());
    record_as_strided(t, &out, layout)?;
    Ok(out)
}

/// `Tensor.as_strided(size, stride, storage_offset)` (AsStridedBackward0): a view of `t`'s
/// storage with that layout (the offset defaults to `t`'s); PyTorch's checks and messages.
pub fn as_strided_user(t: &Tensor, size: &[i64], stride: &[i64], offset: Option<i64>) -> Result<Tensor> {
    crate::ensure!(size.len() == stride.len(), Runtime, "mismatch in length of strides and shape");
    if stride.iter().any(|&s| s < 0) {
        crate::bail!(Runtime, "as_strided: Negative strides are not supported at the moment, got strides: [{}]",
            stride.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", "));
    }
    if let Some(&n) = size.iter().find(|&&n| n < 0) {
        crate::bail!(Runtime, "Trying to create tensor with negative dimension {n}: [{}]", size.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", "));
    }
    let offset = match offset {
        Some(o) => {
            crate::ensure!(o >= 0, Runtime, "Tensor: invalid storage offset {o}");
            o as usize
        }
        None => t.layout().offset,
    };
    let (size, stride): (Vec<usize>, Vec<usize>) = (size.iter().map(|&n| n as usize).collect(), stride.iter().map(|&s| s as usize).collect());
    let itemsize = t.dtype().itemsize();
    let needed = if size.contains(&0) { 0 } else { offset + size.iter().zip(&stride).map(|(n, s)| (n - 1) * s).sum::<usize>() + 1 };
    let have = t.data().storage.data.read().len();
    if needed > have {
        crate::bail!(Runtime, "setStorage: sizes {}, strides {}, storage offset {offset}, and itemsize {itemsize} requiring a storage size of {} are out of bounds for storage of size {}",
            crate::shape::fmt_list(&size), crate::shape::fmt_list(&stride), needed * itemsize, have * itemsize);
    }
    let layout = Layout { shape: crate::shape::Dims::from_slice(&size), strides: crate::shape::Dims::from_slice(&stride), offset };
    let base = t.meta().view_base.clone().unwrap_or_else(|| t.clone());
    let out = as_strided_view(t, &layout);
    out.mark_grad();
    out.meta().view_base = Some(base);
    record_as_strided(t, &out, &layout)?;
    Ok(out)
}

/// Zeros of `base_shape` with `g` added into the region `layout` (overlaps accumulate).
pub fn as_strided_scatter(g: &Tensor, layout: &Layout, base_shape: &[usize]) -> Result<Tensor> {
    if needs_history(&[g]) {
        // differentiable form for double backward: scatter of g is linear, its adjoint is
        // as_strided of the incoming gradient.
        let out = as_strided_scatter_raw(g, layout, base_shape)?;
        let vl = layout.clone();
        record("AsStridedScatterBackward0", &[g], &[&out], &[], move |_, gg, _| Ok(vec![Some(as_strided(&contiguous(&gg[0])?, &vl)?)]))?;
        return Ok(out);
    }
    as_strided_scatter_raw(g, layout, base_shape)
}

fn as_strided_scatter_raw(g: &Tensor, layout: &Layout, base_shape: &[usize]) -> Result<Tensor> {
    if let Some(out) = backend::scatter_add_strided(g, layout, base_shape)? {
        return Ok(out);
    }
    let zeros = crate::tensor::zeros_on(base_shape, g.dtype(), g.device())?;
    let offsets = backend::offsets_tensor(&crate::ops::index::storage_offsets(layout), g.device())?;
    backend::put(&zeros, &offsets, g, true)
}
