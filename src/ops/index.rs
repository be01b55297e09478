//! Advanced indexing with integer and boolean tensors: gather by flat offsets (`take`) and
//! its adjoint, scatter-add (`put_add`); `index_put` for `x[idx] = v`; `nonzero`, `gather`.

use super::sum_to;
use crate::autograd::{record, Save};
use crate::backend;
use crate::dtype::DType;
use crate::error::Result;
use crate::shape::{contiguous_strides, walk1};
use crate::tensor::Tensor;
use crate::{bail, ensure};

/// Elements of `x` at flat (row-major logical) `offsets` (an int64 tensor on x's device),
/// shaped `shape`. Differentiable.
pub fn take(x: &Tensor, offsets: &Tensor, shape: &[usize]) -> Result<Tensor> {
    take_named(x, offsets, shape, "IndexBackward0")
}

/// `take` recorded under the name of the op that selects (GatherBackward0, SortBackward0, ...).
pub fn take_named(x: &Tensor, offsets: &Tensor, shape: &[usize], name: &'static str) -> Result<Tensor> {
    take_in_order(x, offsets, shape, name, None, &[])
}

/// `take_named` whose node also holds `keep` (shown by its `_saved_*` attributes).
pub fn take_keeping(x: &Tensor, offsets: &Tensor, shape: &[usize], name: &'static str, keep: &[&Tensor]) -> Result<Tensor> {
    take_in_order(x, offsets, shape, name, None, keep)
}

/// `take_named` whose result is laid out in `order` (outermost dim first) when given.
/// (`keep`: tensors the node holds only so its `_saved_*` attributes can show them.)
fn take_in_order(x: &Tensor, offsets: &Tensor, shape: &[usize], name: &'static str, order: Option<Vec<usize>>, keep: &[&Tensor]) -> Result<Tensor> {
    let out = backend::take(x, offsets, shape)?;
    let out = match order { Some(o) => backend::relayout(&out, &o)?, None => out };
    let xs = x.shape();
    let offs = offsets.clone();
    let save: Vec<Save<'_>> = keep.iter().map(|t| Save::In(t)).collect();
    record(name, &[x], &[&out], &save, move |_, g, _| Ok(vec![Some(put_add(&g[0], &offs, &xs)?)]))?;
    Ok(out)
}

/// Rows `rows` of `x` viewed as rows of `inner` elements (in bounds: the callers check),
/// stacked into `shape`, as one copy a row where the backend has a row gather (contiguous x);
/// None otherwise. Recorded as `take_in_order` records (the gradient scattered back at the
/// rows' offsets, built only if a backward runs).
fn take_rows(x: &Tensor, rows: Vec<usize>, inner: usize, shape: &[usize], name: &'static str, prof: &'static str, keep: &[&Tensor]) -> Result<Option<Tensor>> {
    let Some(out) = backend::gather_rows(x, &rows, inner, shape, prof)? else { return Ok(None) };
    let xs = x.shape();
    let save: Vec<Save<'_>> = keep.iter().map(|t| Save::In(t)).collect();
    record(name, &[x], &[&out], &save, move |_, g, _| {
        let offs: Vec<usize> = rows.iter().flat_map(|&r| r * inner..(r + 1) * inner).collect();
        Ok(vec![Some(put_add(&g[0], &backend::offsets_tensor(&offs, g[0].device())?, &xs)?)])
    })?;
    Ok(Some(out))
}

/// `index_select(x, dim, index)`: the slices of `x` at `index` (a vector or scalar of int64
/// or int32) along `dim` (IndexSelectBackward0), with ATen's checks in ATen's order.
pub fn index_select(x: &Tensor, dim: i64, index: &Tensor) -> Result<Tensor> {
    let d = crate::shape::wrap_dim(dim, x.dim())?;
    let n = index.numel();
    ensure!(index.dim() <= 1, Index, "index_select(): Index is supposed to be a vector");
    ensure!(!(x.dim() == 0 && n != 1), Runtime, "index_select(): Index to scalar can have only 1 value, got {} value(s)", n);
    ensure!(matches!(index.dtype(), DType::Int64 | DType::Int32), Runtime, "index_select(): Expected dtype int32 or int64 for index");
    let shape = x.shape();
    let size = if x.dim() == 0 { 1 } else { shape[d] as i64 };
    let idx = index.to_i64_vec()?;
    if x.dim() > 1 && n > 0 && x.numel() == 0 {
        ensure!(size > 0, Runtime, "index_select(): self indexing axis dim should be positive");
        ensure!(idx.iter().all(|&i| i >= -size && i < size), Index, "index out of range in self");
    } else if x.dim() > 1 && x.numel() > 0 && d != 0 {
        if let Some(&bad) = idx.iter().find(|&&i| i < 0 || i >= size) {
            bail!(Runtime, "INDICES element is out of DATA bounds, id={} axis_dim={}", bad, size);
        }
    } else {
        ensure!(idx.iter().all(|&i| i >= 0 && i < size), Index, "index out of range in self");
    }
    if x.dim() == 0 {
        return take_named(x, &backend::offsets_tensor(&[0], x.device())?, &[], "IndexSelectBackward0");
    }
    let cs = contiguous_strides(&shape);
    let (outer, inner): (usize, usize) = (shape[..d].iter().product(), shape[d + 1..].iter().product());
    let mut out_shape = shape.clone();
    out_shape[d] = n;
    let annotate = |out: &Tensor| {
        crate::autograd::Node::annotate(out, &[("dim", crate::autograd::SavedValue::Int64(dim)),
            ("self_sym_sizes", crate::autograd::SavedValue::Ints(shape.iter().map(|&v| v as i64).collect()))], &[(0, "index")]);
    };
    // whole rows of `inner` elements: one copy each (a minibatch `x[perm[:b]]`, 16x faster)
    let sd = shape[d];
    let rows: Vec<usize> = (0..outer).flat_map(|o| idx.iter().map(move |&i| o * sd + (if i < 0 { i + size } else { i }) as usize)).collect();
    if let Some(out) = take_rows(x, rows, inner, &out_shape, "IndexSelectBackward0", "aten::index_select", &[index])? {
        annotate(&out);
        return Ok(out);
    }
    let mut offsets = Vec::with_capacity(outer * n * inner);
    for o in 0..outer {
        for &i in &idx {
            let i = if i < 0 { i + size } else { i } as usize;
            let base = o * shape[d] * cs[d] + i * cs[d];
            offsets.extend(base..base + inner);
        }
    }
    let out = take_in_order(x, &backend::offsets_tensor(&offsets, x.device())?, &out_shape, "IndexSelectBackward0", None, &[index])?;
    annotate(&out);
    Ok(out)
}

/// Zeros of `shape` with `g`'s elements added at flat `offsets`. Differentiable.
pub fn put_add(g: &Tensor, offsets: &Tensor, shape: &[usize]) -> Result<Tensor> {
    let zeros = crate::tensor::zeros_on(shape, g.dtype(), g.device())?;
    let out = backend::put(&zeros, offsets, g, true)?;
    let gs = g.shape();
    let offs = offsets.clone();
    record("IndexPutBackward0", &[g], &[&out], &[], move |_, gg, _| Ok(vec![Some(take(&gg[0], &offs, &gs)?)]))?;
    Ok(out)
}

/// Storage offset of every element of `l`, in row-major logical order.
pub fn storage_offsets(l: &crate::shape::Layout) -> Vec<usize> {
    let mut v = Vec::with_capacity(l.numel());
    walk1(l, |o| v.push(o));
    v
}

/// Turn boolean masks into integer indices (one per masked dim), checking shapes.
fn expand_masks(x_shape: &[usize], indices: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
    let mut out = Vec::new();
    let mut dim = 0;
    for idx in indices {
        // a uint8 index is a mask, as in torch (which deprecates it in favour of bool)
        let byte_mask = match idx {
            Some(t) if t.dtype() == DType::UInt8 => Some(crate::ops::cast_raw(t, DType::Bool)?),
            _ => None,
        };
        let idx = if byte_mask.is_some() { &byte_mask } else { idx };
        match idx {
            Some(t) if t.dtype() == DType::Bool => {
                let ms = t.shape();
                for (k, &s) in ms.iter().enumerate() {
                    let have = x_shape.get(dim + k).copied().unwrap_or(0);
                    if s != have {
                        bail!(Index, "The shape of the mask {} at index {} does not match the shape of the indexed tensor {} at index {}",
                            crate::shape::fmt_list(&ms), k, crate::shape::fmt_list(x_shape), dim + k);
                    }
                }
                if ms.is_empty() {
                    bail!(NotImplemented, "indexing with a 0-dim boolean mask is not supported");
                }
                for c in nonzero_cols(t)? {
                    out.push(Some(c));
                }
                dim += ms.len();
            }
            Some(t) => {
                ensure!(matches!(t.dtype(), DType::Int64 | DType::Int32), Index, "tensors used as indices must be long, int, byte or bool tensors");
                out.push(Some(t.clone()));
                dim += 1;
            }
            None => {
                out.push(None);
                dim += 1;
            }
        }
    }
    Ok(out)
}

/// An index tensor built on the host, moved to the device of the tensor it indexes.
fn on_device(t: Tensor, device: crate::Device) -> Result<Tensor> {
    if device == crate::Device::Cpu {
        return Ok(t);
    }
    crate::backend::to_device(&t, device)
}

/// The coordinates of the row-major `positions` (ascending) in `shape`: dim k's coordinates
/// at `[k·n, (k+1)·n)`. Rows are walked with an odometer, so no division per position.
fn coords_of(positions: &[usize], shape: &[usize]) -> Vec<i64> {
    let (n, nd) = (positions.len(), shape.len());
    let mut out = vec![0i64; n * nd];
    let Some(last) = nd.checked_sub(1) else { return out };
    let row = shape[last].max(1);
    let mut ctr = vec![0usize; last];
    let (mut row_start, mut row_end) = (0usize, row);
    for (w, &p) in positions.iter().enumerate() {
        while p >= row_end {
            // next row: the odometer over the outer dims
            for k in (0..last).rev() {
                ctr[k] += 1;
                if ctr[k] < shape[k] {
                    break;
                }
                ctr[k] = 0;
            }
            row_start = row_end;
            row_end += row;
        }
        for (k, &c) in ctr.iter().enumerate() {
            out[k * n + w] = c as i64;
        }
        out[last * n + w] = (p - row_start) as i64;
    }
    out
}

fn nonzero_cols(mask: &Tensor) -> Result<Vec<Tensor>> {
    if mask.dtype().is_complex() {
        return nonzero_cols(&super::cast_raw(mask, DType::Bool)?);
    }
    let shape = mask.shape();
    if let Some(pos) = backend::nonzero_positions(mask)? {
        let n = pos.len();
        let coords = coords_of(&pos, &shape);
        return (0..shape.len()).map(|k| Tensor::from_vec(coords[k * n..(k + 1) * n].to_vec(), &[n])).collect();
    }
    // floats compare as floats: NaN and -0.0 are judged as torch does (NaN is non-zero)
    let hits: Vec<usize> = if mask.dtype().is_float() {
        mask.to_f64_vec()?.iter().enumerate().filter(|(_, &v)| v != 0.0).map(|(i, _)| i).collect()
    } else {
        mask.to_i64_vec()?.iter().enumerate().filter(|(_, &v)| v != 0).map(|(i, _)| i).collect()
    };
    let strides = contiguous_strides(&shape);
    (0..shape.len())
        .map(|k| Tensor::from_vec(hits.iter().map(|&i| ((i / strides[k]) % shape[k]) as i64).collect::<Vec<_>>(), &[hits.len()]))
        .collect()
}

/// `nonzero(x)`: an (n, ndim) int64 tensor of the indices of non-zero elements, laid out
/// column by column as torch's (strides (1, n)); a 0-dim `x` counts as one element with no
/// dims (shape (1, 0) when non-zero).
pub fn nonzero(x: &Tensor) -> Result<Tensor> {
    if x.dim() > 0 {
        if let Some(pos) = backend::nonzero_positions(x)? {
            let (n, nd) = (pos.len(), x.dim());
            let t = on_device(Tensor::from_vec(coords_of(&pos, &x.shape()), &[nd, n])?, x.device())?;
            return Ok(super::as_strided_view(&t, &crate::shape::Layout { shape: vec![n, nd].into(), strides: vec![1, n.max(1)].into(), offset: 0 }));
        }
    }
    let cols = nonzero_cols(x)?;
    let n = if x.dim() == 0 { nonzero_scalar(x)? as usize } else { cols.first().map_or(0, |c| c.numel()) };
    let nd = cols.len();
    let mut v = Vec::with_capacity(n * nd);
    for c in &cols {
        v.extend(c.to_i64_vec()?);
    }
    let t = on_device(Tensor::from_vec(v, &[nd, n])?, x.device())?;
    Ok(super::as_strided_view(&t, &crate::shape::Layout { shape: vec![n, nd].into(), strides: vec![1, n.max(1)].into(), offset: 0 }))
}

fn nonzero_scalar(x: &Tensor) -> Result<bool> {
    Ok(if x.dtype().is_float() { x.item()?.as_f64() != 0.0 } else { x.to_i64_vec()?[0] != 0 })
}

/// `nonzero(x, as_tuple=True)` / `where(x)`: one int64 vector of indices per dim (a 0-dim
/// `x` as a one-element vector).
pub fn nonzero_tuple(x: &Tensor) -> Result<Vec<Tensor>> {
    if x.dim() == 0 {
        let hit = nonzero_scalar(x)?;
        return Ok(vec![on_device(Tensor::from_vec(if hit { vec![0i64] } else { vec![] }, &[hit as usize])?, x.device())?]);
    }
    nonzero_cols(x)?.into_iter().map(|c| on_device(c, x.device())).collect()
}

/// Flat offsets and result shape of `x[indices]` (PyTorch's advanced-indexing rules: the
/// broadcast index shape replaces the indexed dims where they are adjacent, else goes first).
pub fn index_offsets(x_shape: &[usize], indices: &[Option<Tensor>]) -> Result<(Vec<usize>, Vec<usize>)> {
    let (offsets, shape, _) = index_offsets_src(x_shape, indices)?;
    Ok((offsets, shape))
}

/// `index_offsets` with, for each result dim, the dim of `x` it walks (None for the dims of
/// the broadcast index).
fn index_offsets_src(x_shape: &[usize], indices: &[Option<Tensor>]) -> Result<(Vec<usize>, Vec<usize>, Vec<Option<usize>>)> {
    let indices = expand_masks(x_shape, indices)?;
    ensure!(indices.len() <= x_shape.len(), Index, "too many indices for tensor of dimension {}", x_shape.len());
    let cs = contiguous_strides(x_shape);
    let dims: Vec<usize> = indices.iter().enumerate().filter(|(_, i)| i.is_some()).map(|(d, _)| d).collect();
    let mut bshape: Vec<usize> = Vec::new();
    for i in indices.iter().flatten() {
        bshape = match crate::shape::broadcast_shapes(&bshape, &i.shape()) {
            Ok(s) => s.to_vec(),
            Err(_) => {
                let shapes: Vec<String> = indices.iter().flatten().map(|t| crate::shape::fmt_list(&t.shape())).collect();
                bail!(Index, "shape mismatch: indexing tensors could not be broadcast together with shapes {}", shapes.join(", "));
            }
        };
    }
    let bn: usize = bshape.iter().product();
    // broadcast index values, bounds-checked
    let mut vals: Vec<Vec<usize>> = Vec::new();
    // (PyTorch's message numbers an index by its place among the index tensors, not by the
    // dimension it indexes)
    for (k, (&d, t)) in dims.iter().zip(indices.iter().flatten()).enumerate() {
        let l = t.layout().broadcast_to(&bshape)?;
        let raw: Vec<i64> = super::as_strided_view(t, &l).to_i64_vec()?;
        let n = x_shape[d] as i64;
        let mut v = Vec::with_capacity(bn);
        for i in raw {
            if n == 0 {
                bail!(Index, "index is out of bounds for dimension with size 0");
            }
            if i < -n || i >= n {
                bail!(Index, "index {} is out of bounds for dimension {} with size {}", i, k, n);
            }
            v.push((if i < 0 { i + n } else { i }) as usize);
        }
        vals.push(v);
    }
    let rest: Vec<usize> = (0..x_shape.len()).filter(|d| !dims.contains(d)).collect();
    let adjacent = dims.windows(2).all(|w| w[1] == w[0] + 1);
    let first = dims.first().copied().unwrap_or(0);
    let (before, after): (Vec<usize>, Vec<usize>) = if adjacent {
        (rest.iter().copied().filter(|&d| d < first).collect(), rest.iter().copied().filter(|&d| d > first).collect())
    } else {
        (Vec::new(), rest.clone())
    };
    let mut out_shape: Vec<usize> = before.iter().map(|&d| x_shape[d]).collect();
    out_shape.extend(&bshape);
    out_shape.extend(after.iter().map(|&d| x_shape[d]));
    let mut src: Vec<Option<usize>> = before.iter().map(|&d| Some(d)).collect();
    src.extend(std::iter::repeat_n(None, bshape.len()));
    src.extend(after.iter().map(|&d| Some(d)));
    let bsz: usize = before.iter().map(|&d| x_shape[d]).product();
    let asz: usize = after.iter().map(|&d| x_shape[d]).product();
    if bsz == 1 && asz == 1 && vals.len() == 1 {
        // one index tensor covering every other dim's single position (`x[idx]` of a vector,
        // `x.view(-1)[idx] = v`): the offsets are its values, scaled
        let step = cs[dims[0]];
        let mut offsets = vals.pop().unwrap_or_default();
        if step != 1 {
            offsets.iter_mut().for_each(|o| *o *= step);
        }
        return Ok((offsets, out_shape, src));
    }
    let total: usize = out_shape.iter().product();
    let mut offsets = Vec::with_capacity(total);
    let sub = |dimset: &[usize], mut flat: usize| -> usize {
        let mut off = 0;
        for &d in dimset.iter().rev() {
            off += (flat % x_shape[d]) * cs[d];
            flat /= x_shape[d];
        }
        off
    };
    for bi in 0..bsz {
        let ob = sub(&before, bi);
        for j in 0..bn {
            let oj: usize = dims.iter().zip(&vals).map(|(&d, v)| v[j] * cs[d]).sum();
            for ai in 0..asz {
                offsets.push(ob + oj + sub(&after, ai));
            }
        }
    }
    Ok((offsets, out_shape, src))
}

/// `x[indices]` for tensor indices (IndexBackward0). The result is laid out as torch's index
/// kernel lays it out: a TensorIterator over `x` restrided to the result (stride 0 on the
/// index dims) and the index (row-major over its own dims).
pub fn index(x: &Tensor, indices: &[Option<Tensor>]) -> Result<Tensor> {
    let annotate = |out: &Tensor| {
        crate::autograd::Node::annotate(out, &[("self_sym_sizes", crate::autograd::SavedValue::Ints(x.shape().iter().map(|&d| d as i64).collect()))], &[]);
    };
    // one integer index on the first dim (`x[idx]`, a minibatch `x[perm[:b]]`): whole rows
    if let [Some(t), rest @ ..] = indices {
        if matches!(t.dtype(), DType::Int64 | DType::Int32) && rest.iter().all(Option::is_none) && x.dim() >= indices.len().max(1) {
            let xs = x.shape();
            let n = xs[0] as i64;
            let mut rows = Vec::with_capacity(t.numel());
            for i in t.to_i64_vec()? {
                if n == 0 {
                    bail!(Index, "index is out of bounds for dimension with size 0");
                }
                if i < -n || i >= n {
                    bail!(Index, "index {} is out of bounds for dimension 0 with size {}", i, n);
                }
                rows.push((if i < 0 { i + n } else { i }) as usize);
            }
            let mut shape = t.shape().to_vec();
            shape.extend(&xs[1..]);
            if let Some(out) = take_rows(x, rows, xs[1..].iter().product(), &shape, "IndexBackward0", "aten::index", &[])? {
                annotate(&out);
                return Ok(out);
            }
        }
    }
    // one bool mask over the leading dims (`x[x > 0]`, `x[keep]`): the rows it selects
    if let [Some(m)] = indices {
        let (xs, ms) = (x.shape(), m.shape());
        if m.dtype() == DType::Bool && !ms.is_empty() && ms.len() <= xs.len() && ms[..] == xs[..ms.len()] {
            if let Some(rows) = backend::nonzero_positions(m)? {
                let mut shape = vec![rows.len()];
                shape.extend(&xs[ms.len()..]);
                if let Some(out) = take_rows(x, rows, xs[ms.len()..].iter().product(), &shape, "IndexBackward0", "aten::index", &[])? {
                    annotate(&out);
                    return Ok(out);
                }
            }
        }
    }
    let (offsets, shape, src) = index_offsets_src(&x.shape(), indices)?;
    let xl = x.layout();
    let order = if xl.is_contiguous() { None } else {
        let bshape: Vec<usize> = shape.iter().zip(&src).filter(|(_, s)| s.is_none()).map(|(n, _)| *n).collect();
        let bstrides = contiguous_strides(&bshape);
        let mut k = 0;
        let (mut sx, mut si) = (Vec::with_capacity(shape.len()), Vec::with_capacity(shape.len()));
        for s in &src {
            match s {
                Some(d) => { sx.push(xl.strides[*d]); si.push(0); }
                None => { sx.push(0); si.push(bstrides[k]); k += 1; }
            }
        }
        let lx = crate::shape::Layout { shape: shape.clone().into(), strides: sx.into(), offset: 0 };
        let li = crate::shape::Layout { shape: shape.clone().into(), strides: si.into(), offset: 0 };
        backend::output_order(&[&lx, &li])
    };
    let out = take_in_order(x, &backend::offsets_tensor(&offsets, x.device())?, &shape, "IndexBackward0", order, &[])?;
    annotate(&out);
    Ok(out)
}

thread_local! {
    /// The tensor (its `TensorImpl`) whose next `put_maybe_direct` may write straight into
    /// its storage: armed by `inplace_put` around one in-place scatter-like op.
    static DIRECT: std::cell::Cell<*const crate::tensor::TensorImpl> = const { std::cell::Cell::new(std::ptr::null()) };
}

/// Whether `inplace_put` armed a direct write for `x`.
fn is_direct(x: &Tensor) -> bool {
    DIRECT.with(|d| std::ptr::eq(d.get(), std::sync::Arc::as_ptr(&x.0)))
}

/// `backend::put` of `src` at `offsets` of `x`, or, where `inplace_put` armed it for `x`
/// (nothing recorded, `x` contiguous), the same write straight into `x`'s storage, `x`
/// itself returned.
fn put_maybe_direct(x: &Tensor, offsets: &Tensor, src: &Tensor, accumulate: bool) -> Result<Tensor> {
    if is_direct(x) {
        DIRECT.with(|d| d.set(std::ptr::null()));
        let l = x.layout();
        if l.is_contiguous() && !x.dtype().is_complex() {
            let offs = if l.offset == 0 { offsets.clone() } else {
                super::binary_raw(offsets, &Tensor::wrapped_scalar(crate::Scalar::Int(l.offset as i64)), super::BinOp::Add)?
            };
            if backend::put_in_place(x, &offs, src, accumulate)? {
                return Ok(x.clone());
            }
        }
    }
    backend::put(x, offsets, src, accumulate)
}

/// An in-place scatter-like op (`compute`: the out-of-place op, which writes its input with
/// one `put_maybe_direct`) on `target`, `others` its tensor operands: where nothing is
/// recorded the write goes straight into target's storage (scatter_, scatter_add_,
/// index_add_, index_copy_, index_fill_ of a few places in a large tensor copied all of it
/// twice), else the out-of-place op on the in-place path.
pub fn inplace_put(target: &Tensor, others: &[&Tensor], compute: impl FnOnce(&Tensor) -> Result<Tensor>) -> Result<()> {
    inplace_put_with(target, others, false, compute)
}

/// `inplace_put` for the writes PyTorch allows into self-overlapping memory (`index_put_`,
/// as `inplace_overlapping`).
fn inplace_put_with(target: &Tensor, others: &[&Tensor], overlap: bool, compute: impl FnOnce(&Tensor) -> Result<Tensor>) -> Result<()> {
    let general = |t: &Tensor, f: Box<dyn FnOnce(&Tensor) -> Result<Tensor> + '_>| if overlap { super::inplace_overlapping(t, f) } else { super::inplace(t, f) };
    let mut all = vec![target];
    all.extend_from_slice(others);
    if !crate::autograd::needs_history(&all) {
        if overlap { super::check_inplace_overlapping(target)? } else { super::check_inplace(target)? }
        /// Disarms on every way out (a panic in `compute` included), so that no later put
        /// on this tensor, or on another at its address, is taken for this one.
        struct Disarm;
        impl Drop for Disarm {
            fn drop(&mut self) {
                DIRECT.with(|d| d.set(std::ptr::null()));
            }
        }
        DIRECT.with(|d| d.set(std::sync::Arc::as_ptr(&target.0)));
        let out = {
            let _disarm = Disarm;
            compute(target)?
        };
        if out.same(target) {
            target.bump_version();
            return Ok(());
        }
        // written into a copy after all (a strided target): the ordinary in-place write
        return general(target, Box::new(move |_| Ok(out)));
    }
    general(target, Box::new(compute))
}

/// `x.index_put_(indices, values, accumulate)` (and `x[idx] = v`) through `inplace_put`: a
/// 100K-element write into an 8 MB tensor copied the tensor twice (1.9 ms → 0.45).
pub fn index_put_(x: &Tensor, indices: &[Option<Tensor>], values: &Tensor, accumulate: bool) -> Result<()> {
    inplace_put_with(x, &[values], true, |inp| index_put(inp, indices, values, accumulate))
}

/// `x.put_(index, source, accumulate)` through `inplace_put`.
pub fn put_flat_(x: &Tensor, index: &Tensor, source: &Tensor, accumulate: bool) -> Result<()> {
    inplace_put(x, &[source], |inp| put_flat(inp, index, source, accumulate))
}

/// `x.index_put(indices, values, accumulate)` out of place (for `x[idx] = v`).
pub fn index_put(x: &Tensor, indices: &[Option<Tensor>], values: &Tensor, accumulate: bool) -> Result<Tensor> {
    let (offsets, shape) = index_offsets(&x.shape(), indices)?;
    let offsets = backend::offsets_tensor(&offsets, x.device())?;
    let dt = x.dtype();
    let vals = values.layout().broadcast_to(&shape).map_err(|_| {
        crate::error::Error::Runtime(format!("shape mismatch: value tensor of shape {} cannot be broadcast to indexing result of shape {}",
            crate::shape::fmt_list(&values.shape()), crate::shape::fmt_list(&shape)))
    })?;
    let src = backend::cast_layout(values, &vals, dt)?;
    let out = put_maybe_direct(x, &offsets, &src, accumulate)?;
    let vshape = values.shape();
    let offs = offsets.clone();
    // d/dx: g with the written places zeroed (unless accumulating); d/dv: g at those places.
    // The index tensors are saved as PyTorch saves them (the formula reads the offsets): an
    // in-place change to one before the backward is the version error PyTorch raises.
    let saved: Vec<Save> = indices.iter().flatten().map(Save::In).collect();
    let n_saved = saved.len();
    record("IndexPutBackward0", &[x, values], &[&out], &saved, move |s, g, n| {
        for i in 0..n_saved {
            s.get(i)?;
        }
        let gx = if n[0] {
            if accumulate { Some(g[0].clone()) } else {
                let ones = crate::tensor::full_on(&[offs.numel()], crate::Scalar::Int(1), g[0].dtype(), g[0].device())?;
                let hit = put_add(&ones, &offs, &g[0].shape())?;
                let written = super::binary_raw(&hit, &Tensor::wrapped_scalar(crate::Scalar::Int(0)), super::BinOp::Ne)?;
                // zeroed (as torch's index_put of zeros), so an infinite gradient gives 0, not NaN
                Some(super::where_(&written, &Tensor::wrapped_scalar(crate::Scalar::Int(0)), &g[0])?)
            }
        } else { None };
        let gv = if n[1] { Some(sum_to(&take(&g[0], &offs, &shape)?, &vshape)?) } else { None };
        Ok(vec![gx, gv])
    })?;
    Ok(out)
}

/// Scatter `g` (a reduction result along `dim`) back to `shape` at `ind` (for max/min):
/// the offsets are computed with tensor ops on `ind`'s device, so the backward reads nothing
/// back to the host.
pub fn scatter_along(g: &Tensor, ind: &Tensor, shape: &[usize], dim: usize) -> Result<Tensor> {
    let offsets = along_offsets(ind, shape, dim)?;
    put_add(&super::contiguous(g)?, &offsets, shape)
}

/// Flat offsets `base + ind * stride[dim]`, where `base` walks every position with `dim`
/// fixed at 0 (data-independent, built on the host) and `ind` holds the chosen index.
pub(crate) fn along_offsets(ind: &Tensor, shape: &[usize], dim: usize) -> Result<Tensor> {
    let cs = contiguous_strides(shape);
    let mut kshape: Vec<usize> = shape.to_vec();
    if !shape.is_empty() {
        kshape[dim] = 1;
    }
    let n: usize = kshape.iter().product();
    let mut base = Vec::with_capacity(n);
    for flat in 0..n {
        let mut f = flat;
        let mut off = 0;
        for d in (0..kshape.len()).rev() {
            let c = f % kshape[d];
            f /= kshape[d];
            if d != dim {
                off += c * cs[d];
            }
        }
        base.push(off);
    }
    let base = backend::offsets_tensor(&base, ind.device())?;
    let stride = if shape.is_empty() { 0 } else { cs[dim] as i64 };
    let ind = super::reshape(&super::to_dtype(&ind.detach(), DType::Int64)?, &[-1])?;
    let scaled = super::binary_raw(&ind, &Tensor::wrapped_scalar(crate::Scalar::Int(stride)), super::BinOp::Mul)?;
    super::binary_raw(&base, &scaled, super::BinOp::Add)
}

/// `gather(x, dim, index)` (GatherBackward0).
pub fn gather(x: &Tensor, dim: i64, index: &Tensor) -> Result<Tensor> {
    gather_named(x, dim, index, "GatherBackward0")
}

/// The flat offset in a contiguous x (strides `cs`) of each element `gather` along `d` reads:
/// the index (shape `walk`, values checked) walked as an odometer, no division per element.
fn gather_offsets(idx: &[i64], walk: &[usize], cs: &[usize], d: usize) -> Vec<usize> {
    let mut offsets = Vec::with_capacity(idx.len());
    // `base` is the offset of the index position's coordinates other than `d`
    let mut ctr = vec![0usize; walk.len()];
    let mut base = 0usize;
    for &iv in idx {
        offsets.push(base + iv as usize * cs[d]);
        for k in (0..walk.len()).rev() {
            ctr[k] += 1;
            if ctr[k] < walk[k] {
                if k != d {
                    base += cs[k];
                }
                break;
            }
            if k != d {
                base -= (walk[k] - 1) * cs[k];
            }
            ctr[k] = 0;
        }
    }
    offsets
}

/// `gather` recorded as `name` (sort and topk select their values this way).
pub fn gather_named(x: &Tensor, dim: i64, index: &Tensor, name: &'static str) -> Result<Tensor> {
    if x.dim() == 0 {
        // a 0-dim input gathers as a one-element vector: offsets 0
        crate::shape::wrap_dim(dim, 0)?;
        ensure!(matches!(index.dtype(), DType::Int64 | DType::Int32), Runtime, "gather(): Expected dtype int32/int64 for index");
        ensure!(index.dim() <= 1, Runtime, "Index tensor must have the same number of dimensions as input tensor");
        let idx = index.to_i64_vec()?;
        ensure!(idx.iter().all(|&i| i == 0), Runtime, "index {} is out of bounds for dimension 0 with size 1", idx.iter().find(|&&i| i != 0).copied().unwrap_or(0));
        return take_named(x, &backend::offsets_tensor(&vec![0; idx.len()], x.device())?, &index.shape(), name);
    }
    let shape = x.shape();
    let d = crate::shape::wrap_dim(dim, shape.len())?;
    let ishape = index.shape();
    ensure!(matches!(index.dtype(), DType::Int64 | DType::Int32), Runtime, "gather(): Expected dtype int32/int64 for index");
    // a 0-dim index counts as one dimension of size 1 (PyTorch's ensure_nonempty_dim)
    ensure!(ishape.len().max(1) == shape.len().max(1), Runtime, "Index tensor must have the same number of dimensions as input tensor");
    for k in 0..ishape.len().min(shape.len()) {
        if k != d && ishape[k] > shape[k] {
            bail!(Runtime, "Size does not match at dimension {} expected index {} to be no larger than self {} apart from dimension {}",
                k, crate::shape::fmt_list(&ishape), crate::shape::fmt_list(&shape), d);
        }
    }
    let cs = contiguous_strides(&shape);
    let walk: &[usize] = if ishape.is_empty() { &[1] } else { &ishape };
    // the index shows as `_saved_index` (gather) or `_saved_indices` (sort, topk)
    let gather = name == "GatherBackward0";
    // (gather also saves `self`, as derivatives.yaml does)
    let keep: Vec<&Tensor> = if gather { vec![index, x] } else if matches!(name, "SortBackward0" | "TopkBackward0") { vec![index] } else { vec![] };
    if !keep.is_empty() {
        // the index's bounds from one min/max pass, no host copy (the CPU kernel checks each
        // value as it reads it, with PyTorch's error: no pass of its own); the backward reads
        // the saved index (version-checked) for its offsets
        let in_bounds = if x.device().is_cpu() && index.dtype() == DType::Int64 {
            true
        } else {
            backend::int_range(index)?.is_some_and(|(lo, hi)| lo >= 0 && (hi as u64) < shape[d] as u64)
        };
        {
            if in_bounds {
                if let Some(out) = backend::gather_dim(x, index, d)? {
                    let (xs, walk, cs) = (shape.clone(), walk.to_vec(), cs.clone());
                    let save: Vec<Save<'_>> = keep.iter().map(|t| Save::In(t)).collect();
                    record(name, &[x], &[&out], &save, move |s, g, _| {
                        let offs = gather_offsets(&s.get(0)?.to_i64_vec()?, &walk, &cs, d);
                        Ok(vec![Some(put_add(&g[0], &backend::offsets_tensor(&offs, g[0].device())?, &xs)?)])
                    })?;
                    if gather {
                        crate::autograd::Node::annotate(&out, &[("dim", crate::autograd::SavedValue::Int64(dim)), ("sparse_grad", crate::autograd::SavedValue::Bool(false))], &[(0, "index")]);
                    } else {
                        crate::autograd::Node::annotate(&out, &[], &[(0, "indices")]);
                    }
                    return Ok(out);
                }
            }
        }
    }
    let idx = index.to_i64_vec()?;
    if let Some(&bad) = idx.iter().find(|&&iv| iv < 0 || iv as usize >= shape[d]) {
        bail!(Runtime, "index {} is out of bounds for dimension {} with size {}", bad, d, shape[d]);
    }
    let out = match backend::gather_dim(x, index, d)? {
        Some(out) => {
            // one pass in the backend; the offsets only if a backward runs
            let (xs, walk, cs) = (shape.clone(), walk.to_vec(), cs.clone());
            let save: Vec<Save<'_>> = keep.iter().map(|t| Save::In(t)).collect();
            record(name, &[x], &[&out], &save, move |_, g, _| {
                let offs = gather_offsets(&idx, &walk, &cs, d);
                Ok(vec![Some(put_add(&g[0], &backend::offsets_tensor(&offs, g[0].device())?, &xs)?)])
            })?;
            out
        }
        None => {
            let offsets = gather_offsets(&idx, walk, &cs, d);
            let order = if index.is_contiguous() { None } else { backend::output_order(&[&index.layout()]) };
            take_in_order(x, &backend::offsets_tensor(&offsets, x.device())?, &ishape, name, order, &keep)?
        }
    };
    if gather {
        crate::autograd::Node::annotate(&out, &[("dim", crate::autograd::SavedValue::Int64(dim)), ("sparse_grad", crate::autograd::SavedValue::Bool(false))], &[(0, "index")]);
    } else if !keep.is_empty() {
        crate::autograd::Node::annotate(&out, &[], &[(0, "indices")]);
    }
    Ok(out)
}

/// The flat offsets, into a contiguous tensor of `shape`, of every position of `index`
/// (its other coordinates as they are, `dim`'s from the index value): what scatter writes.
/// Checks PyTorch's shape rules against `self_shape` and `src_shape` and every index value.
fn scatter_offsets(
    op: &str,
    shape: &[usize],
    dim: usize,
    index: &Tensor,
    src_shape: Option<&[usize]>,
) -> Result<Tensor> {
    ensure!(
        matches!(index.dtype(), DType::Int64 | DType::Int32),
        Runtime,
        "{}(): Expected dtype int32/int64 for index",
        op
    );
    let ishape = index.shape();
    ensure!(
        ishape.len().max(1) == shape.len().max(1),
        Runtime,
        "Index tensor must have the same number of dimensions as self tensor"
    );
    let too_big = (0..ishape.len().min(shape.len())).any(|d| d != dim && ishape[d] > shape[d])
        || src_shape.is_some_and(|s| (0..ishape.len().min(s.len())).any(|d| ishape[d] > s[d]));
    if too_big {
        let src = src_shape
            .map(|s| {
                format!(
                    " and to be no larger size than src {}",
                    crate::shape::fmt_list(s)
                )
            })
            .unwrap_or_default();
        bail!(
            Runtime,
            "Expected index {} to be no larger than self {} apart from dimension {}{}",
            crate::shape::fmt_list(&ishape),
            crate::shape::fmt_list(shape),
            dim,
            src
        );
    }
    let idx = index.to_i64_vec()?;
    let size = shape.get(dim).copied().unwrap_or(1) as i64;
    let cs = contiguous_strides(shape);
    // each position's offset in self: its coordinates but along `dim`, where the index value
    // goes. The index's dims of more than one position (size, step in self) are walked as rows
    // of the innermost one under an odometer over the rest (no division per element); each
    // value is checked as it is read (the first bad one in order is PyTorch's message).
    // (A 0-d self has no strides: its one element is at 0.)
    let along = cs.get(dim).copied().unwrap_or(0);
    let walk: Vec<(usize, usize)> = (0..ishape.len())
        .filter(|&d| ishape[d] > 1)
        .map(|d| (ishape[d], if d == dim { 0 } else { cs.get(d).copied().unwrap_or(0) }))
        .collect();
    let (row, row_step) = walk.last().copied().unwrap_or((1, 0));
    let outer = &walk[..walk.len().saturating_sub(1)];
    let mut coord = vec![0usize; outer.len()];
    let mut base = 0usize;
    let mut offsets = Vec::with_capacity(idx.len());
    for r in idx.chunks_exact(row) {
        for (j, &v) in r.iter().enumerate() {
            if v < 0 || v >= size {
                bail!(Runtime, "index {} is out of bounds for dimension {} with size {}", v, dim, size);
            }
            offsets.push(base + j * row_step + v as usize * along);
        }
        let mut d = outer.len();
        while d > 0 {
            d -= 1;
            coord[d] += 1;
            base += outer[d].1;
            if coord[d] < outer[d].0 {
                break;
            }
            base -= outer[d].1 * outer[d].0;
            coord[d] = 0;
        }
    }
    backend::offsets_tensor(&offsets, index.device())
}

/// The elements of `src` at the positions of an index of shape `ishape` (src may be larger).
fn src_positions(ishape: &[usize], sshape: &[usize], device: crate::Device) -> Result<Tensor> {
    let scs = contiguous_strides(sshape);
    let n: usize = ishape.iter().product();
    // an odometer over ishape, stepping src's contiguous strides
    let nd = ishape.len();
    let mut coord = vec![0usize; nd];
    let mut base = 0usize;
    let mut offsets = Vec::with_capacity(n);
    for _ in 0..n {
        offsets.push(base);
        let mut d = nd;
        while d > 0 {
            d -= 1;
            coord[d] += 1;
            base += scs[d];
            if coord[d] < ishape[d] {
                break;
            }
            base -= scs[d] * ishape[d];
            coord[d] = 0;
        }
    }
    backend::offsets_tensor(&offsets, device)
}

/// `scatter_add(self, dim, index, src)`: `self` with `src[p]` added at each index position
/// (ScatterAddBackward0: self's gradient passes; src's is the gradient gathered at index).
pub fn scatter_add(x: &Tensor, dim: i64, index: &Tensor, src: &Tensor) -> Result<Tensor> {
    scatter_src(x, dim, index, src, true)
}

/// `scatter(self, dim, index, src)` (ScatterBackward0: self's gradient with the written
/// places zeroed; src's gathered at index).
pub fn scatter(x: &Tensor, dim: i64, index: &Tensor, src: &Tensor) -> Result<Tensor> {
    scatter_src(x, dim, index, src, false)
}

fn scatter_src(x: &Tensor, dim: i64, index: &Tensor, src: &Tensor, add: bool) -> Result<Tensor> {
    let op = if add { "scatter_add" } else { "scatter" };
    ensure!(
        x.dtype() == src.dtype(),
        Runtime,
        "scatter(): Expected self.dtype to be equal to src.dtype"
    );
    let shape = x.shape();
    let d = crate::shape::wrap_dim(dim, shape.len())?;
    let sshape = src.shape();
    let offs = scatter_offsets(op, &shape, d, index, Some(&sshape))?;
    let ishape = index.shape();
    let src_vals = if sshape == ishape {
        src.clone()
    } else {
        backend::take(
            src,
            &src_positions(&ishape, &sshape, src.device())?,
            &ishape,
        )?
    };
    let out = put_maybe_direct(x, &offs, &src_vals, add)?;
    let (idx, sd) = (index.clone(), src.device());
    record(
        if add {
            "ScatterAddBackward0"
        } else {
            "ScatterBackward0"
        },
        &[x, src],
        &[&out],
        &[Save::In(index)],
        move |_, g, n| {
            let gx = if !n[0] {
                None
            } else if add {
                Some(g[0].clone())
            } else {
                Some(scatter_value(&g[0], dim, &idx, crate::Scalar::Int(0))?)
            };
            let gs = if n[1] {
                let got = gather(&g[0], dim, &idx)?;
                Some(if sshape == ishape {
                    got
                } else {
                    put_add(&got, &src_positions(&ishape, &sshape, sd)?, &sshape)?
                })
            } else {
                None
            };
            Ok(vec![gx, gs])
        },
    )?;
    crate::autograd::Node::annotate(&out, &[("dim", crate::autograd::SavedValue::Int64(dim))], &[(0, "index")]);
    Ok(out)
}

/// `scatter(self, dim, index, src, reduce="add" | "multiply")`, PyTorch's deprecated form:
/// the values of scatter_reduce's sum or prod, with no derivative (as PyTorch: backward raises).
pub fn scatter_reduce_legacy(x: &Tensor, dim: i64, index: &Tensor, src: &Tensor, multiply: bool) -> Result<Tensor> {
    let out = {
        let _no_grad = crate::autograd::GradModeGuard::new(false);
        if multiply {
            scatter_reduce(x, dim, index, src, ScatterReduce::Prod, true)?
        } else {
            scatter_add(x, dim, index, src)?
        }
    };
    record("NotImplemented", &[x, src], &[&out], &[], |_, _, _| {
        bail!(Runtime, "derivative for aten::scatter is not implemented")
    })?;
    Ok(out)
}

/// The reductions of `scatter_reduce`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScatterReduce {
    Sum,
    Prod,
    Mean,
    Amax,
    Amin,
}

impl ScatterReduce {
    /// PyTorch's names (`max`/`min` are accepted as `amax`/`amin`, as its parser does).
    pub fn parse(s: &str) -> Result<Self> {
        Ok(match s {
            "sum" => Self::Sum,
            "prod" => Self::Prod,
            "mean" => Self::Mean,
            "amax" | "max" => Self::Amax,
            "amin" | "min" => Self::Amin,
            _ => bail!(Runtime, "reduce argument must be either sum, prod, mean, amax or amin, got {}", s),
        })
    }
}

/// `scatter_reduce(self, dim, index, src, reduce, include_self)`: each `src[p]` combined by
/// `reduce` into `self` at `index[p]` along `dim` (ScatterReduceBackward0). Without
/// `include_self`, the places written start from the reduction's identity instead of `self`;
/// `mean` divides by the number of values combined (floor division for integers).
pub fn scatter_reduce(
    x: &Tensor,
    dim: i64,
    index: &Tensor,
    src: &Tensor,
    reduce: ScatterReduce,
    include_self: bool,
) -> Result<Tensor> {
    ensure!(x.dtype() == src.dtype(), Runtime, "scatter(): Expected self.dtype to be equal to src.dtype");
    ensure!(!x.dtype().is_complex(), Runtime, "scatter_reduce(): complex tensors are not supported");
    ensure!(
        !(x.dtype() == DType::Bool && reduce == ScatterReduce::Mean),
        NotImplemented,
        "\"scatter_gather_tensor_cpu_reduce_mean\" not implemented for 'Bool'"
    );
    let shape = x.shape();
    let d = crate::shape::wrap_dim(dim, shape.len())?;
    let sshape = src.shape();
    let ishape = index.shape();
    let offs = scatter_offsets("scatter", &shape, d, index, Some(&sshape))?;
    let out = {
        let _raw = crate::autograd::raw_mode();
        let src_vals = src_at_index(src, &ishape)?;
        scatter_reduce_raw(x, &offs, &src_vals, reduce, include_self)?
    };
    let idx = index.clone();
    record("ScatterReduceBackward0", &[x, src], &[&out], &[Save::In(x), Save::In(src), Save::Out(0)], move |s, g, n| {
        let (xs, ss, res) = (s.get(0)?, s.get(1)?, s.get(2)?);
        let (gx, gs) = scatter_reduce_backward(&g[0], &xs, dim, &idx, &ss, reduce, include_self, &res)?;
        Ok(vec![if n[0] { Some(gx) } else { None }, if n[1] { Some(gs) } else { None }])
    })?;
    crate::autograd::Node::annotate(
        &out,
        &[("dim", crate::autograd::SavedValue::Int64(dim)), ("include_self", crate::autograd::SavedValue::Bool(include_self))],
        &[(0, "self"), (1, "src"), (2, "result")],
    );
    Ok(out)
}

/// `src`'s elements at the positions of an index of shape `ishape` (all of it when the
/// shapes agree), differentiably.
fn src_at_index(src: &Tensor, ishape: &[usize]) -> Result<Tensor> {
    let sshape = src.shape();
    if sshape.as_slice() == ishape {
        return Ok(src.clone());
    }
    take(src, &src_positions(ishape, &sshape, src.device())?, ishape)
}

/// The forward of scatter_reduce on values (no history).
fn scatter_reduce_raw(x: &Tensor, offs: &Tensor, src_vals: &Tensor, reduce: ScatterReduce, include_self: bool) -> Result<Tensor> {
    use backend::PutReduce;
    let dt = x.dtype();
    let (dev, n) = (x.device(), offs.numel());
    let base = if include_self {
        x.clone()
    } else {
        let init = match reduce {
            ScatterReduce::Sum | ScatterReduce::Mean => crate::Scalar::Int(0),
            ScatterReduce::Prod => crate::Scalar::Int(1),
            ScatterReduce::Amax => dt.int_range().map_or(crate::Scalar::Float(f64::NEG_INFINITY), |(lo, _)| crate::Scalar::Int(lo as i64)),
            ScatterReduce::Amin => dt.int_range().map_or(crate::Scalar::Float(f64::INFINITY), |(_, hi)| crate::Scalar::Int(hi.min(i64::MAX as i128) as i64)),
        };
        let init = if dt == DType::Bool { crate::Scalar::Bool(matches!(reduce, ScatterReduce::Prod | ScatterReduce::Amin)) } else { init };
        backend::put(x, offs, &crate::tensor::full_on(&[n], init, dt, dev)?, false)?
    };
    let op = match reduce {
        ScatterReduce::Sum | ScatterReduce::Mean => PutReduce::Add,
        ScatterReduce::Prod => PutReduce::Mul,
        ScatterReduce::Amax => PutReduce::Max,
        ScatterReduce::Amin => PutReduce::Min,
    };
    let out = backend::put_reduce(&base, offs, src_vals, op)?;
    if reduce != ScatterReduce::Mean {
        return Ok(out);
    }
    // the number of values combined at each place (self counts when included), at least 1
    let shape = x.shape();
    let start = if include_self { 1 } else { 0 };
    let count = crate::tensor::full_on(&shape, crate::Scalar::Int(start), dt, dev)?;
    let count = backend::put(&count, offs, &crate::tensor::full_on(&[n], crate::Scalar::Int(1), dt, dev)?, true)?;
    let zero = super::binary_raw(&count, &Tensor::wrapped_scalar(crate::Scalar::Int(0)), super::BinOp::Eq)?;
    let count = super::where_(&zero, &Tensor::wrapped_scalar(crate::Scalar::Int(1)), &count)?;
    if dt.is_float() {
        super::binary_raw(&out, &count, super::BinOp::Div)
    } else {
        super::binary_raw(&out, &count, super::BinOp::FloorDiv)
    }
}

/// FunctionsManual's `scatter_reduce_backward`, in differentiable ops: the gradients of
/// `self` and `src` (shaped as they are) from the output's gradient `g`.
#[allow(clippy::too_many_arguments)]
fn scatter_reduce_backward(
    g: &Tensor,
    x: &Tensor,
    dim: i64,
    index: &Tensor,
    src: &Tensor,
    reduce: ScatterReduce,
    include_self: bool,
    result: &Tensor,
) -> Result<(Tensor, Tensor)> {
    use super::BinOp;
    let num = |v: f64| Tensor::wrapped_scalar(crate::Scalar::Float(v));
    // as PyTorch's formulas: `src` whole, so a src larger than the index fails here (its
    // shapes do not broadcast) or in the engine's shape check (sum, mean), as there
    let ishape = index.shape();
    let srcv = src;
    let eq = |a: &Tensor, b: &Tensor| super::binary_raw(a, b, BinOp::Eq);
    let (gx, gs) = match reduce {
        ScatterReduce::Sum => (g.clone(), gather(g, dim, index)?),
        ScatterReduce::Mean => {
            let ones_src = crate::tensor::full_on(&ishape, crate::Scalar::Int(1), g.dtype(), g.device())?;
            let n0 = crate::tensor::full_on(&g.shape(), crate::Scalar::Int(if include_self { 1 } else { 0 }), g.dtype(), g.device())?;
            let count = scatter_add(&n0, dim, index, &ones_src)?;
            let count = super::where_(&eq(&count, &num(0.0))?, &num(1.0), &count)?;
            let gx = super::div(g, &count)?;
            let gs = super::div(&gather(g, dim, index)?, &gather(&count, dim, index)?)?;
            (gx, gs)
        }
        ScatterReduce::Amax | ScatterReduce::Amin => {
            // the gradient split evenly among the values equal to the result
            let value = gather(result, dim, index)?;
            let self_is = eq(x, result)?;
            let src_is = eq(srcv, &value)?;
            let n_dist = scatter_add(&super::to_dtype(&self_is, g.dtype())?, dim, index, &super::to_dtype(&src_is, g.dtype())?)?;
            let dist = super::div(g, &n_dist)?;
            let gx = super::mul(&super::to_dtype(&self_is, g.dtype())?, &dist)?;
            let gs = super::mul(&super::to_dtype(&src_is, g.dtype())?, &gather(&dist, dim, index)?)?;
            (gx, gs)
        }
        ScatterReduce::Prod => {
            // d(prod)/d(a) = prod / a, computed without dividing by zeros: self's zeros are
            // masked to 1 and the product recomputed; a src value that is the only zero at its
            // place gets the product of the others
            let zero = num(0.0);
            let one = num(1.0);
            let masked_self = super::where_(&eq(x, &zero)?, &one, x)?;
            let masked_self_result = scatter_reduce(&masked_self, dim, index, src, reduce, include_self)?;
            let gx = super::div(&super::mul(g, &masked_self_result)?, &masked_self)?;
            let src_zero = eq(srcv, &zero)?;
            let zx = crate::tensor::zeros_on(&x.shape(), x.dtype(), x.device())?;
            let src_num_zeros = gather(&scatter_add(&zx, dim, index, &super::to_dtype(&src_zero, x.dtype())?)?, dim, index)?;
            let single = super::binary_raw(&src_zero, &eq(&src_num_zeros, &one)?, BinOp::And)?;
            let masked_src = super::where_(&single, &one, srcv)?;
            let masked_src_result = scatter_reduce(x, dim, index, &masked_src, reduce, include_self)?;
            let via_others = gather(&super::mul(g, &masked_src_result)?, dim, index)?;
            let via_result = super::div(&gather(&super::mul(g, result)?, dim, index)?, &super::where_(&src_zero, &one, srcv)?)?;
            (gx, super::where_(&single, &via_others, &via_result)?)
        }
    };
    let gx = if include_self { gx } else { scatter_value(&gx, dim, index, crate::Scalar::Int(0))? };
    Ok((gx, gs))
}

/// `scatter(self, dim, index, value)` for a number (ScatterBackward1).
pub fn scatter_value(x: &Tensor, dim: i64, index: &Tensor, value: crate::Scalar) -> Result<Tensor> {
    let shape = x.shape();
    let d = crate::shape::wrap_dim(dim, shape.len())?;
    let offs = scatter_offsets("scatter", &shape, d, index, None)?;
    let vals = crate::tensor::full_on(&[offs.numel()], value, x.dtype(), x.device())?;
    let out = put_maybe_direct(x, &offs, &vals, false)?;
    let idx = index.clone();
    record("ScatterBackward1", &[x], &[&out], &[], move |_, g, _| {
        Ok(vec![Some(scatter_value(
            &g[0],
            dim,
            &idx,
            crate::Scalar::Int(0),
        )?)])
    })?;
    Ok(out)
}

/// `index_add(self, dim, index, source, alpha)`: `alpha * source[.., i, ..]` added at
/// `self[.., index[i], ..]` (IndexAddBackward0: self's gradient passes; source's is
/// `alpha * grad.index_select(dim, index)`).
pub fn index_add(
    x: &Tensor,
    dim: i64,
    index: &Tensor,
    source: &Tensor,
    alpha: crate::Scalar,
) -> Result<Tensor> {
    ensure!(
        index.dim() <= 1,
        Index,
        "index_add_(): Index is supposed to be a vector"
    );
    ensure!(
        matches!(index.dtype(), DType::Int64 | DType::Int32),
        Runtime,
        "index_add_(): Expected dtype int32/int64 for index but got: {}",
        index.dtype().scalar_name()
    );
    ensure!(
        x.dtype() == source.dtype(),
        Runtime,
        "index_add_(): self ({}) and source ({}) must have the same scalar type",
        x.dtype().scalar_name(),
        source.dtype().scalar_name()
    );
    let shape = x.shape();
    let d = crate::shape::wrap_dim(dim, shape.len())?;
    let sshape = source.shape();
    let idx = index.to_i64_vec()?;
    let n = idx.len();
    let src_dim = if sshape.is_empty() {
        1
    } else {
        sshape[d.min(sshape.len() - 1)]
    };
    ensure!(n == src_dim, Runtime, "index_add_(): Number of indices ({}) should be equal to source.size(dim): ({}), for dim: {}", n, src_dim, d);
    let same_rest =
        sshape.len() == shape.len() && (0..shape.len()).all(|k| k == d || sshape[k] == shape[k]);
    ensure!(same_rest || shape.is_empty(), Runtime, "source tensor shape must match self tensor shape, excluding the specified dimension. Got self.shape = {} source.shape = {}",
        crate::shape::fmt_list(&shape), crate::shape::fmt_list(&sshape));
    let size = shape.get(d).copied().unwrap_or(1) as i64;
    ensure!(
        idx.iter().all(|&i| i >= -size && i < size),
        Index,
        "index out of range in self"
    );
    if same_rest && !shape.is_empty() && is_direct(x) {
        // in place (`inplace_put`): row k of the source added into its row of x, no offsets
        let inner: usize = shape[d + 1..].iter().product();
        let outer: usize = shape[..d].iter().product();
        let mut rows = Vec::with_capacity(outer * n);
        for o in 0..outer {
            rows.extend(idx.iter().map(|&i| o * shape[d] + (if i < 0 { i + size } else { i }) as usize));
        }
        let scaled = if alpha.as_f64() == 1.0 { super::contiguous(&source.detach())? } else {
            super::binary_raw(&source.detach(), &Tensor::wrapped_scalar(alpha), super::BinOp::Mul)?
        };
        if backend::add_rows_in_place(x, &rows, inner, &scaled)? {
            DIRECT.with(|c| c.set(std::ptr::null()));
            return Ok(x.clone());
        }
    }
    let cs = contiguous_strides(&shape);
    let scs = contiguous_strides(&sshape);
    let total: usize = sshape.iter().product();
    let offsets: Vec<usize> = if same_rest && !shape.is_empty() {
        let pos: Vec<usize> = idx.iter().map(|&i| ((i + size) % size.max(1)) as usize).collect();
        dim_positions(&shape, d, &pos, &sshape)
    } else {
        (0..total)
            .map(|p| {
                (0..shape.len())
                    .map(|k| {
                        let c = (p / scs[k]) % sshape[k];
                        if k == d {
                            ((idx[c] + size) % size.max(1)) as usize * cs[k]
                        } else {
                            c * cs[k]
                        }
                    })
                    .sum()
            })
            .collect()
    };
    let offs = backend::offsets_tensor(&offsets, x.device())?;
    let scaled = if alpha.as_f64() == 1.0 {
        source.detach()
    } else {
        super::binary_raw(
            &source.detach(),
            &Tensor::wrapped_scalar(alpha),
            super::BinOp::Mul,
        )?
    };
    let out = put_maybe_direct(x, &offs, &scaled, true)?;
    let index_c = index.clone();
    record(
        "IndexAddBackward0",
        &[x, source],
        &[&out],
        &[],
        move |_, g, n| {
            let gx = if n[0] { Some(g[0].clone()) } else { None };
            let gs = if n[1] {
                let sel = index_select(&g[0], dim, &index_c)?;
                Some(if alpha.as_f64() == 1.0 {
                    sel
                } else {
                    super::mul(&sel, &Tensor::wrapped_scalar(alpha))?
                })
            } else {
                None
            };
            Ok(vec![gx, gs])
        },
    )?;
    Ok(out)
}

/// Row-major positions in `shape` of the elements of a `sshape` block whose coordinate along
/// `d` is replaced by `idx[c]` (already in `0..shape[d]`): where `index_copy`/`index_fill`
/// write.
fn dim_positions(shape: &[usize], d: usize, idx: &[usize], sshape: &[usize]) -> Vec<usize> {
    if d < shape.len() && sshape.len() == shape.len() && (0..shape.len()).all(|k| k == d || sshape[k] == shape[k]) && sshape[d] == idx.len() {
        // the block's other dims are x's: (outer, index, inner) runs, no division per element
        let inner: usize = shape[d + 1..].iter().product();
        let outer: usize = shape[..d].iter().product();
        let mut out = Vec::with_capacity(outer * idx.len() * inner);
        for o in 0..outer {
            for &i in idx {
                let base = (o * shape[d] + i) * inner;
                out.extend(base..base + inner);
            }
        }
        return out;
    }
    let cs = contiguous_strides(shape);
    let scs = contiguous_strides(sshape);
    let total: usize = sshape.iter().product();
    (0..total)
        .map(|p| (0..shape.len()).map(|k| {
            let c = (p / scs[k]) % sshape[k];
            if k == d { idx[c] * cs[k] } else { c * cs[k] }
        }).sum())
        .collect()
}

/// `1` everywhere in `shape` but at `offsets` (`0` there), in `dtype`: the mask a gradient is
/// multiplied by where a write replaced the input.
fn kept_mask(shape: &[usize], offsets: &Tensor, dtype: DType, device: crate::Device) -> Result<Tensor> {
    let ones = crate::tensor::full_on(shape, crate::Scalar::Int(1), dtype, device)?;
    let zeros = crate::tensor::zeros_on(&[offsets.numel()], dtype, device)?;
    backend::put(&ones, offsets, &zeros, false)
}

/// `x` with `src` (any shape of `offsets.numel()` elements, cast to x's dtype) written at flat
/// `offsets`: the forward of the write ops below (no history).
fn write_at(x: &Tensor, offsets: &Tensor, src: &Tensor) -> Result<Tensor> {
    let src = if src.dtype() == x.dtype() { src.detach() } else { super::cast_raw(src, x.dtype())? };
    put_maybe_direct(x, offsets, &super::contiguous(&src)?, false)
}

/// `index_copy(x, dim, index, source)`: `x` with its slices at `index` along `dim` replaced
/// by `source`'s (IndexCopyBackward0: x's gradient is zero there, source's is the gradient's
/// slices at `index`).
pub fn index_copy(x: &Tensor, dim: i64, index: &Tensor, source: &Tensor) -> Result<Tensor> {
    let shape = x.shape();
    let d = crate::shape::wrap_dim(dim, shape.len().max(1))?;
    ensure!(index.dim() <= 1, Index, "index_copy_(): Index should have dimension 1 or 0 (got {})", index.dim());
    ensure!(index.dtype() == DType::Int64, Runtime, "index_copy_(): Expected a long tensor for index, but got {}", index.dtype().scalar_name());
    ensure!(x.dtype() == source.dtype(), Runtime, "index_copy_(): self and source expected to have the same dtype, but got (self) {} and (source) {}",
        x.dtype().scalar_name(), source.dtype().scalar_name());
    let idx = index.to_i64_vec()?;
    let (xs, ss): (Vec<usize>, Vec<usize>) = (if shape.is_empty() { vec![1] } else { shape.to_vec() }, if source.dim() == 0 { vec![1] } else { source.shape().to_vec() });
    let src_n = ss.get(d).copied().unwrap_or(1);
    ensure!(idx.len() == src_n, Index, "index_copy_(): Number of indices ({}) should be equal to source.size(dim) ({})", idx.len(), src_n);
    let slice = |s: &[usize]| s.iter().enumerate().filter(|&(k, _)| k != d).map(|(_, v)| v.to_string()).collect::<Vec<_>>().join(", ");
    ensure!(xs.len() == ss.len() && (0..xs.len()).all(|k| k == d || xs[k] == ss[k]), Runtime,
        "index_copy_(): Source/destination tensor must have same slice shapes. Destination slice shape: {} at dimension {} and source slice shape: {} at dimension 0.",
        slice(&xs), d, slice(&ss));
    let size = xs[d];
    let mut pos = Vec::with_capacity(idx.len());
    for &i in &idx {
        ensure!(i >= 0 && (i as usize) < size, Index, "index_copy_(): index {} is out of bounds for dimension {} with size {}", i, d, size);
        pos.push(i as usize);
    }
    let offs = backend::offsets_tensor(&dim_positions(&xs, d, &pos, &ss), x.device())?;
    let out = write_at(x, &offs, source)?;
    let sshape = source.shape();
    record("IndexCopyBackward0", &[x, source], &[&out], &[Save::In(index), Save::In(source)], move |_, g, n| {
        let gx = if n[0] { Some(super::mul(&g[0], &kept_mask(&g[0].shape(), &offs, g[0].dtype(), g[0].device())?)?) } else { None };
        let gs = if n[1] { Some(take(&g[0], &offs, &sshape)?) } else { None };
        Ok(vec![gx, gs])
    })?;
    crate::autograd::Node::annotate(&out, &[("dim", crate::autograd::SavedValue::Int64(dim)), ("source_dim", crate::autograd::SavedValue::Int(source.dim() as i64))], &[(0, "index"), (1, "source")]);
    Ok(out)
}

/// `index_fill(x, dim, index, value)`: the slices of `x` at `index` along `dim` set to `value`
/// (a number, or a 0-dim tensor: `value_is_tensor`). IndexFillBackward0 / IndexFillBackward1
/// (a tensor value gets the sum of the gradient at the filled places).
pub fn index_fill(x: &Tensor, dim: i64, index: &Tensor, value: &Tensor, value_is_tensor: bool) -> Result<Tensor> {
    let shape = x.shape();
    let d = crate::shape::wrap_dim(dim, shape.len().max(1))?;
    ensure!(index.dtype() == DType::Int64, Index, "index_fill_(): Expected dtype int64 for index.");
    ensure!(value.dim() == 0, Runtime, "index_fill_ only supports a 0-dimensional value tensor, but got tensor with {} dimension(s).", value.dim());
    ensure!(index.dim() <= 1, Index, "Index has to be a vector/scalar");
    let xs: Vec<usize> = if shape.is_empty() { vec![1] } else { shape.to_vec() };
    let size = xs[d] as i64;
    let mut pos = Vec::new();
    for i in index.to_i64_vec()? {
        ensure!(i >= -size && i < size, Index, "index {} is out of bounds for dimension {} with size {}", i, d, size);
        pos.push(if i < 0 { i + size } else { i } as usize);
    }
    let mut bshape = xs.clone();
    bshape[d] = pos.len();
    let offs = backend::offsets_tensor(&dim_positions(&xs, d, &pos, &bshape), x.device())?;
    let vals = super::expand(&value.detach(), &[offs.numel() as i64])?;
    let out = write_at(x, &offs, &vals)?;
    let name = if value_is_tensor { "IndexFillBackward1" } else { "IndexFillBackward0" };
    record(name, &[x, value], &[&out], &[Save::In(index)], move |_, g, n| {
        let gx = if n[0] { Some(super::mul(&g[0], &kept_mask(&g[0].shape(), &offs, g[0].dtype(), g[0].device())?)?) } else { None };
        let gv = if n[1] { Some(super::sum(&take(&g[0], &offs, &[offs.numel()])?, None)?) } else { None };
        Ok(vec![gx, gv])
    })?;
    crate::autograd::Node::annotate(&out, &[("dim", crate::autograd::SavedValue::Int64(dim))], &[(0, "index")]);
    Ok(out)
}

/// `masked_scatter(x, mask, source)`: where `mask` (bool, broadcast to x) is true, the next
/// elements of `source` in row-major order (MaskedScatterBackward0).
pub fn masked_scatter(x: &Tensor, mask: &Tensor, source: &Tensor) -> Result<Tensor> {
    ensure!(mask.dtype() == DType::Bool, Runtime, "masked_scatter_ only supports boolean masks, but got mask with dtype {}", mask.dtype().scalar_name());
    ensure!(x.dtype() == source.dtype(), Runtime, "masked_scatter: expected self and source to have same dtypes but got{} and {}", x.dtype().scalar_name(), source.dtype().scalar_name());
    let shape = x.shape();
    let ml = mask.layout().broadcast_to(&shape)?;
    let m = backend::cast_layout(mask, &ml, DType::Bool)?;
    let bits = m.to_vec::<bool>()?;
    let pos: Vec<usize> = bits.iter().enumerate().filter(|(_, &b)| b).map(|(i, _)| i).collect();
    ensure!(pos.len() <= source.numel(), Runtime, "Number of elements of source < number of ones in mask");
    let offs = backend::offsets_tensor(&pos, x.device())?;
    let first = backend::offsets_tensor(&(0..pos.len()).collect::<Vec<_>>(), x.device())?;
    let vals = backend::take(&super::contiguous(&source.detach())?, &first, &[pos.len()])?;
    let out = write_at(x, &offs, &vals)?;
    let sshape = source.shape();
    let sn = source.numel();
    record("MaskedScatterBackward0", &[x, source], &[&out], &[Save::In(&m)], move |_, g, n| {
        let gx = if n[0] { Some(super::mul(&g[0], &kept_mask(&g[0].shape(), &offs, g[0].dtype(), g[0].device())?)?) } else { None };
        let gs = if n[1] {
            let picked = take(&g[0], &offs, &[offs.numel()])?;
            Some(super::reshape(&put_add(&picked, &first, &[sn])?, &sshape.iter().map(|&v| v as i64).collect::<Vec<_>>())?)
        } else { None };
        Ok(vec![gx, gs])
    })?;
    crate::autograd::Node::annotate(&out, &[("source_sym_sizes", crate::autograd::SavedValue::Ints(source.shape().iter().map(|&v| v as i64).collect()))], &[(0, "mask")]);
    Ok(out)
}

/// The out-of-place `masked_scatter`: `x` is first broadcast with `mask` (and copied), as
/// PyTorch's `expand_outplace` + `clone` + `masked_scatter_` (the in-place form needs a mask
/// that broadcasts to `x`).
pub fn masked_scatter_outplace(x: &Tensor, mask: &Tensor, source: &Tensor) -> Result<Tensor> {
    let shape = crate::shape::broadcast_shapes(&x.shape(), &mask.shape())?;
    if shape.as_slice() == x.shape().as_slice() {
        return masked_scatter(x, mask, source);
    }
    let xe = super::contiguous(&super::expand(x, &shape.iter().map(|&d| d as i64).collect::<Vec<_>>())?)?;
    masked_scatter(&xe, mask, source)
}

/// Flat indices of `index` (int64) into `n` elements, negatives wrapped, with torch's range
/// error.
fn flat_positions(index: &Tensor, n: usize, what: &str) -> Result<Vec<usize>> {
    ensure!(index.dtype() == DType::Int64, Runtime, "{}(): Expected a long tensor for index, but got {}", what, index.dtype().scalar_name());
    let n_i = n as i64;
    index.to_i64_vec()?.into_iter().map(|i| {
        ensure!(i >= -n_i && i < n_i, Index, "out of range: tried to access index {} on a tensor of {} elements.", i, n);
        Ok(if i < 0 { i + n_i } else { i } as usize)
    }).collect()
}

/// `take(x, index)`: the elements of `x` (as if flattened) at `index`, shaped like `index`
/// (TakeBackward0).
pub fn take_flat(x: &Tensor, index: &Tensor) -> Result<Tensor> {
    let pos = flat_positions(index, x.numel(), "take")?;
    let out = take_in_order(x, &backend::offsets_tensor(&pos, x.device())?, &index.shape(), "TakeBackward0", None, &[index, x])?;
    crate::autograd::Node::annotate(&out, &[], &[(0, "index"), (1, "self")]);
    Ok(out)
}

/// `put(x, index, source, accumulate)`: `source`'s elements written (or added) at the flat
/// `index` of `x` (PutBackward0).
pub fn put_flat(x: &Tensor, index: &Tensor, source: &Tensor, accumulate: bool) -> Result<Tensor> {
    ensure!(x.dtype() == source.dtype(), Runtime, "put_(): self and source expected to have the same dtype, but got self.dtype = {} and source.dtype = {}",
        x.dtype().scalar_name(), source.dtype().scalar_name());
    ensure!(index.numel() == source.numel(), Index, "put_(): Expected source and index to have the same number of elements, but got source.numel() = {}, index.numel() = {}",
        source.numel(), index.numel());
    let pos = flat_positions(index, x.numel(), "put_")?;
    let offs = backend::offsets_tensor(&pos, x.device())?;
    let src = super::contiguous(&source.detach())?;
    let out = put_maybe_direct(x, &offs, &src, accumulate)?;
    let sshape = source.shape();
    record("PutBackward0", &[x, source], &[&out], &[Save::In(index), Save::In(source)], move |_, g, n| {
        let gx = if !n[0] { None } else if accumulate { Some(g[0].clone()) } else {
            Some(super::mul(&g[0], &kept_mask(&g[0].shape(), &offs, g[0].dtype(), g[0].device())?)?)
        };
        let gs = if n[1] { Some(take(&g[0], &offs, &sshape)?) } else { None };
        Ok(vec![gx, gs])
    })?;
    crate::autograd::Node::annotate(&out, &[("accumulate", crate::autograd::SavedValue::Bool(accumulate))], &[(0, "index"), (1, "source")]);
    Ok(out)
}

/// `select_scatter` / `slice_scatter` / `diagonal_scatter`: `x` with the view `view(x)`
/// replaced by `src` (which must have the view's shape), out of place. The node (`name`)
/// gives x the gradient with the view zeroed and src the gradient's view.
pub fn view_scatter(x: &Tensor, src: &Tensor, name: &'static str, fields: &[(&'static str, crate::autograd::SavedValue)], view: impl Fn(&Tensor) -> Result<Tensor>) -> Result<Tensor> {
    let shape = x.shape();
    let numel = x.numel();
    let positions = {
        let _g = crate::autograd::raw_mode();
        let all = Tensor::from_vec((0..numel as i64).collect::<Vec<i64>>(), &shape)?;
        view(&all)?
    };
    let vshape = positions.shape();
    ensure!(src.shape() == vshape, Runtime, "expected src to have a size equal to the slice of self. src size = {}, slice size = {}",
        crate::shape::fmt_list(&src.shape()), crate::shape::fmt_list(&vshape));
    let pos: Vec<usize> = positions.to_i64_vec()?.into_iter().map(|v| v as usize).collect();
    let offs = backend::offsets_tensor(&pos, x.device())?;
    let out = write_at(x, &offs, src)?;
    record(name, &[x, src], &[&out], &[], move |_, g, n| {
        let gx = if n[0] { Some(super::mul(&g[0], &kept_mask(&g[0].shape(), &offs, g[0].dtype(), g[0].device())?)?) } else { None };
        let gs = if n[1] { Some(take(&g[0], &offs, &vshape)?) } else { None };
        Ok(vec![gx, gs])
    })?;
    crate::autograd::Node::annotate(&out, fields, &[]);
    Ok(out)
}

/// `torch.bincount(input, weights, minlength)`: how often each value of the 1-d non-negative
/// integral `input` occurs (int64), or the sum of its `weights` (float32 weights add in
/// float32, any other dtype in float64, each bin in input order: ATen's loop). PyTorch's
/// checks in its order; an empty input gives `minlength` int64 zeros even with weights. No
/// derivative (PyTorch defines none).
pub fn bincount(input: &Tensor, weights: Option<&Tensor>, minlength: i64) -> Result<Tensor> {
    let dt = input.dtype();
    if !matches!(dt, DType::UInt8 | DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64) {
        bail!(NotImplemented, "\"bincount_cpu\" not implemented for '{}'", dt.scalar_name());
    }
    ensure!(minlength >= 0, Runtime, "minlength should be >= 0");
    let device = input.device();
    if input.dim() == 1 && input.numel() == 0 {
        return crate::tensor::zeros_on(&[minlength as usize], DType::Int64, device);
    }
    const ONLY: &str = "bincount only supports 1-d non-negative integral inputs.";
    ensure!(input.dim() == 1, Runtime, "{ONLY}");
    let x = input.to_i64_vec()?;
    let (lo, hi) = x.iter().fold((i64::MAX, i64::MIN), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    ensure!(lo >= 0, Runtime, "{ONLY}");
    if let Some(w) = weights {
        ensure!(w.dim() == 1 && w.shape()[0] == x.len(), Runtime, "weights should be 1-d and have the same length as input");
    }
    let nbins = (hi as usize + 1).max(minlength as usize);
    let out = match weights {
        None => Tensor::from_vec(count_values(&x, nbins), &[nbins])?,
        Some(w) if w.dtype() == DType::Float32 => {
            let w = w.to_vec::<f32>()?;
            let mut out = vec![0.0f32; nbins];
            for (&v, &w) in x.iter().zip(&w) {
                out[v as usize] += w;
            }
            Tensor::from_vec(out, &[nbins])?
        }
        Some(w) => {
            let w = if w.dtype().is_complex() { super::complex::real(w)? } else { w.clone() };
            let w = w.to_f64_vec()?;
            let mut out = vec![0.0f64; nbins];
            for (&v, &w) in x.iter().zip(&w) {
                out[v as usize] += w;
            }
            Tensor::from_vec(out, &[nbins])?
        }
    };
    if device.is_cpu() { Ok(out) } else { out.to_device(device) }
}

/// The count of each value in `0..nbins` (every value of `x` in that range). Four interleaved
/// count arrays where the bins are few: consecutive equal values then add into different
/// counters instead of each waiting for the last one's store.
fn count_values(x: &[i64], nbins: usize) -> Vec<i64> {
    if nbins > 4096 || x.len() < 1024 {
        let mut c = vec![0i64; nbins];
        for &v in x {
            c[v as usize] += 1;
        }
        return c;
    }
    let mut c = vec![0i64; 4 * nbins];
    let (c0, rest) = c.split_at_mut(nbins);
    let (c1, rest) = rest.split_at_mut(nbins);
    let (c2, c3) = rest.split_at_mut(nbins);
    let quads = x.chunks_exact(4);
    for &v in quads.remainder() {
        c0[v as usize] += 1;
    }
    for q in quads {
        c0[q[0] as usize] += 1;
        c1[q[1] as usize] += 1;
        c2[q[2] as usize] += 1;
        c3[q[3] as usize] += 1;
    }
    (0..nbins).map(|b| c0[b] + c1[b] + c2[b] + c3[b]).collect()
}
