//! Shape and view ops: view/reshape, transpose/permute, squeeze/unsqueeze, expand,
//! slicing and select, contiguous/clone, cat/stack. Views share storage and version counter.

use super::{as_strided_scatter, sum_to};
use crate::autograd::{record, SavedValue};
use crate::error::Result;
use crate::shape::{fmt_list, infer_shape, view_strides, wrap_dim, Dims, Layout};
use crate::tensor::Tensor;
use crate::{bail, ensure};

/// A tensor sharing `x`'s storage and version counter, with another layout.
pub fn make_view(x: &Tensor, layout: Layout) -> Tensor {
    let mut d = x.data().clone();
    d.layout = layout;
    // a view of an inference tensor is an inference tensor, whatever the current mode
    let v = Tensor::build_with(d, false, x.0.is_inference || crate::autograd::is_inference_mode());
    let (base, creation) = {
        let m = x.meta();
        (m.view_base.clone().unwrap_or_else(|| x.clone()), m.view_creation)
    };
    let version = x.version();
    v.mark_grad();
    let mut m = v.meta();
    m.view_base = Some(base);
    m.view_version = version;
    m.view_creation = creation;
    drop(m);
    crate::autograd::forward::view_tangent(x, &v);
    v
}

fn i64s(s: &[usize]) -> Vec<i64> {
    s.iter().map(|&d| d as i64).collect()
}

/// Name the node's saved fields (`_saved_dim`, `_saved_self_sym_sizes`, ...) as
/// derivatives.yaml does; nothing happens when `out` has no node.
/// `values` runs only when there is a node (views are hot: no allocation without grad).
#[inline]
fn fields(out: &Tensor, values: impl FnOnce() -> Vec<(&'static str, SavedValue)>) {
    if out.has_grad_fn() {
        crate::autograd::Node::annotate(out, &values(), &[]);
    }
}

/// `_saved_self_sym_sizes` of a node over `x`.
fn sizes(shape: &[usize]) -> SavedValue {
    SavedValue::Ints(i64s(shape))
}

/// `view(shape)`: no copy; fails when the strides do not allow it.
pub fn view(x: &Tensor, shape: &[i64]) -> Result<Tensor> {
    view_named(x, shape, "ViewBackward0")
}

fn view_named(x: &Tensor, shape: &[i64], name: &'static str) -> Result<Tensor> {
    let l = x.layout();
    let new_shape = infer_shape(shape, l.numel())?;
    let Some(strides) = view_strides(&l, &new_shape) else {
        bail!(Runtime, "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.");
    };
    let out = make_view(x, Layout { shape: new_shape, strides, offset: l.offset });
    let in_shape = i64s(&l.shape);
    record(name, &[x], &[&out], &[], move |_, g, _| Ok(vec![Some(reshape(&g[0], &in_shape)?)]))?;
    fields(&out, || vec![("self_sym_sizes", sizes(&l.shape))]);
    Ok(out)
}

/// `alias(x)`: a view of all of `x` (AliasBackward0).
pub fn alias(x: &Tensor) -> Result<Tensor> {
    let out = make_view(x, x.layout());
    record("AliasBackward0", &[x], &[&out], &[], |_, g, _| Ok(vec![Some(g[0].clone())]))?;
    Ok(out)
}

/// `reshape(shape)` as torch does it: a contiguous tensor is viewed (ViewBackward0); another
/// that the strides allow is aliased (ReshapeAliasBackward0); else a contiguous clone is
/// reinterpreted (`_unsafe_view`, UnsafeViewBackward0, over CloneBackward0).
pub fn reshape(x: &Tensor, shape: &[i64]) -> Result<Tensor> {
    let l = x.layout();
    let new_shape = infer_shape(shape, l.numel())?;
    if l.is_contiguous() {
        return view(x, shape);
    }
    if view_strides(&l, &new_shape).is_some() {
        return view_named(x, shape, "ReshapeAliasBackward0");
    }
    unsafe_view(&clone_contiguous(x)?, shape)
}

/// `_unsafe_view(shape)` of a contiguous tensor: the same storage under a new shape, not
/// tracked as a view (its input is a fresh intermediate no one else writes).
pub fn unsafe_view(x: &Tensor, shape: &[i64]) -> Result<Tensor> {
    let l = x.layout();
    if !l.is_contiguous() {
        // as ATen's `_unsafe_view`: a view where the strides allow one, its error otherwise
        // (the contiguous strides below would read the wrong elements)
        return view(x, shape);
    }
    let new_shape = infer_shape(shape, l.numel())?;
    let mut d = x.data().clone();
    d.layout = Layout { strides: crate::shape::contiguous_strides(&new_shape), shape: new_shape, offset: l.offset };
    let out = Tensor::build_with(d, false, x.0.is_inference || crate::autograd::is_inference_mode());
    let in_shape = i64s(&l.shape);
    record("UnsafeViewBackward0", &[x], &[&out], &[], move |_, g, _| Ok(vec![Some(reshape(&g[0], &in_shape)?)]))?;
    fields(&out, || vec![("self_sym_sizes", sizes(&l.shape))]);
    Ok(out)
}

/// Layout of a transpose of dims a and b.
pub fn layout_transpose(l: &Layout, a: usize, b: usize) -> Layout {
    let mut n = l.clone();
    n.shape.swap(a, b);
    n.strides.swap(a, b);
    n
}

/// `transpose(d0, d1)`.
pub fn transpose(x: &Tensor, d0: i64, d1: i64) -> Result<Tensor> {
    let nd = x.dim();
    let (a, b) = (wrap_dim(d0, nd)?, wrap_dim(d1, nd)?);
    let out = make_view(x, if nd == 0 { x.layout() } else { layout_transpose(&x.layout(), a, b) });
    record("TransposeBackward0", &[x], &[&out], &[], move |_, g, _| Ok(vec![Some(transpose(&g[0], a as i64, b as i64)?)]))?;
    fields(&out, || vec![("dim0", SavedValue::Int64(d0)), ("dim1", SavedValue::Int64(d1))]);
    Ok(out)
}

/// `t()`: transpose of a matrix (vectors and scalars unchanged).
pub fn t(x: &Tensor) -> Result<Tensor> {
    let nd = x.dim();
    ensure!(nd <= 2, Runtime, "t() expects a tensor with <= 2 dimensions, but self is {}D", nd);
    let l = x.layout();
    let nl = if nd == 2 { layout_transpose(&l, 0, 1) } else { l };
    let out = make_view(x, nl);
    record("TBackward0", &[x], &[&out], &[], |_, g, _| Ok(vec![Some(t(&g[0])?)]))?;
    Ok(out)
}

/// `t_()`: transpose in place (changes the layout; TBackward1).
pub fn t_(x: &Tensor) -> Result<()> {
    let nd = x.dim();
    ensure!(nd <= 2, Runtime, "t_() expects a tensor with <= 2 dimensions, but self is {}D", nd);
    let l = x.layout();
    let nl = if nd == 2 { layout_transpose(&l, 0, 1) } else { l };
    relayout_inplace(x, nl, "TBackward1", |g| t(g))
}

/// `transpose_(d0, d1)` (TransposeBackward1).
pub fn transpose_(x: &Tensor, d0: i64, d1: i64) -> Result<()> {
    let nd = x.dim();
    let (a, b) = (wrap_dim(d0, nd)?, wrap_dim(d1, nd)?);
    let nl = layout_transpose(&x.layout(), a, b);
    relayout_inplace(x, nl, "TransposeBackward1", move |g| transpose(g, a as i64, b as i64))
}

/// `squeeze_()` / `squeeze_(dim)` (SqueezeBackward3 / SqueezeBackward4).
pub fn squeeze_(x: &Tensor, dim: Option<i64>) -> Result<()> {
    let l = x.layout();
    let nl = layout_squeeze(&l, dim)?;
    let in_shape = i64s(&l.shape);
    let name = if dim.is_none() { "SqueezeBackward3" } else { "SqueezeBackward4" };
    relayout_inplace(x, nl, name, move |g| reshape(g, &in_shape))
}

/// `unsqueeze_(dim)` (UnsqueezeBackward1).
pub fn unsqueeze_(x: &Tensor, dim: i64) -> Result<()> {
    let l = x.layout();
    let nl = layout_unsqueeze(&l, dim)?;
    let in_shape = i64s(&l.shape);
    relayout_inplace(x, nl, "UnsqueezeBackward1", move |g| reshape(g, &in_shape))
}

/// Change a tensor's layout in place (a shape op with a trailing underscore): the version is
/// bumped and, when it requires grad, a node `name` maps the gradient back.
fn relayout_inplace(x: &Tensor, nl: Layout, name: &'static str, back: impl Fn(&Tensor) -> Result<Tensor> + Send + Sync + 'static) -> Result<()> {
    super::check_inplace(x)?;
    let edge = if crate::autograd::needs_record(&[x]) { x.gradient_edge() } else { None };
    let mut d = x.data().clone();
    let old = std::mem::replace(&mut d.layout, nl);
    x.set_data(d);
    x.bump_version();
    crate::autograd::forward::relayout_tangent(x, &old);
    if let Some(e) = edge {
        crate::autograd::record_with([Some(e)].into_iter().collect(), name, &[x], &[], move |_, g, _| Ok(vec![Some(back(&g[0])?)]))?;
    }
    Ok(())
}

/// `permute(dims)`.
pub fn permute(x: &Tensor, dims: &[i64]) -> Result<Tensor> {
    let nd = x.dim();
    ensure!(dims.len() == nd, Runtime, "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = {} is not equal to len(dims) = {}", nd, dims.len());
    let mut order = Vec::with_capacity(nd);
    for &d in dims {
        let w = wrap_dim(d, nd)?;
        ensure!(!order.contains(&w), Runtime, "permute(): duplicate dims are not allowed.");
        order.push(w);
    }
    let l = x.layout();
    let nl = Layout { shape: order.iter().map(|&d| l.shape[d]).collect(), strides: order.iter().map(|&d| l.strides[d]).collect(), offset: l.offset };
    let out = make_view(x, nl);
    let mut inv = vec![0i64; nd];
    for (i, &d) in order.iter().enumerate() {
        inv[d] = i as i64;
    }
    record("PermuteBackward0", &[x], &[&out], &[], move |_, g, _| Ok(vec![Some(permute(&g[0], &inv)?)]))?;
    fields(&out, || vec![("dims", SavedValue::Ints(dims.to_vec()))]);
    Ok(out)
}

/// The layout with size-1 dims removed (all of them, or only `dim`).
fn layout_squeeze(l: &Layout, dim: Option<i64>) -> Result<Layout> {
    let keep: Vec<usize> = match dim {
        None => (0..l.ndim()).filter(|&i| l.shape[i] != 1).collect(),
        Some(d) => {
            let w = wrap_dim(d, l.ndim())?;
            (0..l.ndim()).filter(|&i| i != w || l.shape[i] != 1).collect()
        }
    };
    Ok(Layout { shape: keep.iter().map(|&i| l.shape[i]).collect(), strides: keep.iter().map(|&i| l.strides[i]).collect(), offset: l.offset })
}

/// The layout with a size-1 dim inserted at `dim`.
fn layout_unsqueeze(l: &Layout, dim: i64) -> Result<Layout> {
    let d = wrap_dim(dim, l.ndim() + 1)?;
    let mut nl = l.clone();
    let st = if d < l.ndim() { l.strides[d] * l.shape[d] } else { 1 };
    nl.shape.insert(d, 1);
    nl.strides.insert(d, st);
    Ok(nl)
}

/// `squeeze()` (all size-1 dims, SqueezeBackward0) or `squeeze(dim)` (SqueezeBackward1).
pub fn squeeze(x: &Tensor, dim: Option<i64>) -> Result<Tensor> {
    let l = x.layout();
    let out = make_view(x, layout_squeeze(&l, dim)?);
    let in_shape = i64s(&l.shape);
    let name = if dim.is_none() { "SqueezeBackward0" } else { "SqueezeBackward1" };
    record(name, &[x], &[&out], &[], move |_, g, _| Ok(vec![Some(reshape(&g[0], &in_shape)?)]))?;
    match dim {
        Some(d) => fields(&out, || vec![("dim", SavedValue::Int64(d)), ("self_sym_sizes", sizes(&l.shape))]),
        None => fields(&out, || vec![("self_sym_sizes", sizes(&l.shape))]),
    }
    Ok(out)
}

/// `squeeze(dim)` recorded as `name` (ATen's matmul squeezes in place: SqueezeBackward4).
pub fn squeeze_named(x: &Tensor, dim: i64, name: &'static str) -> Result<Tensor> {
    let l = x.layout();
    let out = make_view(x, layout_squeeze(&l, Some(dim))?);
    let in_shape = i64s(&l.shape);
    record(name, &[x], &[&out], &[], move |_, g, _| Ok(vec![Some(reshape(&g[0], &in_shape)?)]))?;
    Ok(out)
}

/// `squeeze(dims)` with several dims (SqueezeBackward2): each listed size-1 dim goes.
pub fn squeeze_dims(x: &Tensor, dims: &[i64]) -> Result<Tensor> {
    let l = x.layout();
    let mut drop = Vec::new();
    for &d in dims {
        let w = wrap_dim(d, l.ndim())?;
        ensure!(!drop.contains(&w), Runtime, "dim {} appears multiple times in the list of dims", w);
        drop.push(w);
    }
    let keep: Vec<usize> = (0..l.ndim()).filter(|i| !(drop.contains(i) && l.shape[*i] == 1)).collect();
    let nl = Layout { shape: keep.iter().map(|&i| l.shape[i]).collect(), strides: keep.iter().map(|&i| l.strides[i]).collect(), offset: l.offset };
    let out = make_view(x, nl);
    let in_shape = i64s(&l.shape);
    record("SqueezeBackward2", &[x], &[&out], &[], move |_, g, _| Ok(vec![Some(reshape(&g[0], &in_shape)?)]))?;
    fields(&out, || vec![("dim", SavedValue::Ints(dims.to_vec())), ("self_sym_sizes", sizes(&l.shape))]);
    Ok(out)
}

/// `unsqueeze(dim)`.
pub fn unsqueeze(x: &Tensor, dim: i64) -> Result<Tensor> {
    let l = x.layout();
    let out = make_view(x, layout_unsqueeze(&l, dim)?);
    let in_shape = i64s(&l.shape);
    record("UnsqueezeBackward0", &[x], &[&out], &[], move |_, g, _| Ok(vec![Some(reshape(&g[0], &in_shape)?)]))?;
    fields(&out, || vec![("dim", SavedValue::Int64(dim))]);
    Ok(out)
}

/// `expand(sizes)` with -1 for "keep".
pub fn expand(x: &Tensor, sizes: &[i64]) -> Result<Tensor> {
    let l = x.layout();
    ensure!(sizes.len() >= l.ndim(), Runtime, "expand(torch.{}{{{}}}, size={}): the number of sizes provided ({}) must be greater or equal to the number of dimensions in the tensor ({})",
        x.dtype().legacy_name(), fmt_list(&l.shape), fmt_list(&sizes.iter().map(|&s| s.max(0) as usize).collect::<Vec<_>>()), sizes.len(), l.ndim());
    let lead = sizes.len() - l.ndim();
    if let Some(i) = sizes[..lead].iter().position(|&s| s == -1) {
        bail!(Runtime, "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension {}", i);
    }
    let target: Dims = sizes.iter().enumerate().map(|(i, &s)| if s == -1 && i >= lead { l.shape[i - lead] } else { s.max(0) as usize }).collect();
    let nl = if target == l.shape { l.clone() } else {
        // torch's message names the last dim (of the target) that cannot grow
        for (i, &s) in l.shape.iter().enumerate().rev() {
            let t = target[lead + i];
            ensure!(s == t || s == 1, Runtime, "The expanded size of the tensor ({}) must match the existing size ({}) at non-singleton dimension {}.  Target sizes: {}.  Tensor sizes: {}",
                t, s, lead + i, fmt_list(&sizes.iter().map(|&v| v.max(0) as usize).collect::<Vec<_>>()), fmt_list(&l.shape));
        }
        l.broadcast_to(&target)?
    };
    let out = make_view(x, nl);
    let in_shape = l.shape.clone();
    record("ExpandBackward0", &[x], &[&out], &[], move |_, g, _| Ok(vec![Some(sum_to(&g[0], &in_shape)?)]))?;
    fields(&out, || vec![("self_sym_sizes", self::sizes(&l.shape))]);
    Ok(out)
}

/// Layout of `x[..., start:end:step, ...]` along `dim` (bounds already clamped).
pub fn layout_slice(l: &Layout, dim: usize, start: usize, end: usize, step: usize) -> Layout {
    let mut n = l.clone();
    let len = if end > start { (end - start).div_ceil(step) } else { 0 };
    n.offset = l.offset + start * l.strides[dim];
    n.shape[dim] = len;
    n.strides[dim] = l.strides[dim] * step;
    n
}

/// Layout of `x.select(dim, index)`.
pub fn layout_select(l: &Layout, dim: usize, index: usize) -> Layout {
    let mut n = l.clone();
    n.offset = l.offset + index * l.strides[dim];
    n.shape.remove(dim);
    n.strides.remove(dim);
    n
}

/// A view node whose backward scatters the gradient into zeros of the input's shape.
fn view_with_scatter(x: &Tensor, name: &'static str, nl: Layout, rel: Layout, values: impl FnOnce() -> Vec<(&'static str, SavedValue)>) -> Result<Tensor> {
    let out = make_view(x, nl);
    let in_shape = x.shape();
    record(name, &[x], &[&out], &[], move |_, g, _| Ok(vec![Some(as_strided_scatter(&g[0], &rel, &in_shape)?)]))?;
    fields(&out, || {
        let mut v = values();
        v.push(("self_sym_sizes", sizes(&x.shape())));
        v
    });
    Ok(out)
}

/// `x[:, start:end:step]` along `dim` with Python slice semantics (clamped bounds).
pub fn slice(x: &Tensor, dim: i64, start: Option<i64>, end: Option<i64>, step: i64) -> Result<Tensor> {
    ensure!(step > 0, Value, "step must be greater than zero");
    let l = x.layout();
    let d = wrap_dim(dim, l.ndim())?;
    let n = l.shape[d] as i64;
    let norm = |v: i64| if v < 0 { (v + n).max(0) } else { v.min(n) };
    let s = norm(start.unwrap_or(0)) as usize;
    let e = norm(end.unwrap_or(n)).max(s as i64) as usize;
    let nl = layout_slice(&l, d, s, e, step as usize);
    let rel = layout_slice(&Layout::contiguous(&l.shape), d, s, e, step as usize);
    let f = [("dim", SavedValue::Int64(dim)), ("start", SavedValue::Int(start.unwrap_or(0))), ("end", SavedValue::Int(end.unwrap_or(i64::MAX))), ("step", SavedValue::Int(step))];
    view_with_scatter(x, "SliceBackward0", nl, rel, || f.to_vec())
}

/// `narrow(dim, start, length)`.
pub fn narrow(x: &Tensor, dim: i64, start: i64, length: i64) -> Result<Tensor> {
    let l = x.layout();
    ensure!(l.ndim() > 0, Runtime, "narrow() cannot be applied to a 0-dim tensor.");
    let d = wrap_dim(dim, l.ndim())?;
    let n = l.shape[d] as i64;
    let s = if start < 0 { start + n } else { start };
    ensure!(s >= 0 && length >= 0 && s + length <= n, Runtime, "start ({}) + length ({}) exceeds dimension size ({}).", s, length, n);
    slice(x, d as i64, Some(s), Some(s + length), 1)
}

/// `x.select(dim, index)` / `x[i]`.
pub fn select(x: &Tensor, dim: i64, index: i64) -> Result<Tensor> {
    let l = x.layout();
    ensure!(l.ndim() > 0, Index, "select() cannot be applied to a 0-dim tensor.");
    let d = wrap_dim(dim, l.ndim())?;
    let n = l.shape[d] as i64;
    if index < -n || index >= n {
        bail!(Index, "select(): index {} out of range for tensor of size {} at dimension {}", index, fmt_list(&l.shape), d);
    }
    let i = if index < 0 { index + n } else { index } as usize;
    let nl = layout_select(&l, d, i);
    let rel = layout_select(&Layout::contiguous(&l.shape), d, i);
    view_with_scatter(x, "SelectBackward0", nl, rel, || vec![("dim", SavedValue::Int64(dim)), ("index", SavedValue::Int(index))])
}

/// `clone()`, differentiable (CloneBackward0): a copy laid out as torch's `preserve_format`
/// lays it out (a permuted `x` keeps its dim order).
pub fn clone(x: &Tensor) -> Result<Tensor> {
    let out = crate::backend::cast_preserving(x, x.dtype())?;
    record("CloneBackward0", &[x], &[&out], &[], |_, g, _| Ok(vec![Some(g[0].clone())]))?;
    Ok(out)
}

/// A row-major copy, differentiable (CloneBackward0, as torch's `clone(contiguous_format)`).
pub fn clone_contiguous(x: &Tensor) -> Result<Tensor> {
    let out = super::cast_raw(x, x.dtype())?;
    record("CloneBackward0", &[x], &[&out], &[], |_, g, _| Ok(vec![Some(g[0].clone())]))?;
    Ok(out)
}

/// A memory format (`torch.contiguous_format`, `preserve_format`, `channels_last`,
/// `channels_last_3d`): the order of a dense tensor's dims in memory.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MemoryFormat {
    Contiguous,
    Preserve,
    ChannelsLast,
    ChannelsLast3d,
}

impl MemoryFormat {
    /// The dims outermost first (None: row-major), checking the rank channels-last needs.
    fn order(self, ndim: usize) -> Result<Option<Vec<usize>>> {
        Ok(match self {
            MemoryFormat::ChannelsLast => {
                ensure!(ndim == 4, Runtime, "required rank 4 tensor to use channels_last format");
                Some(vec![0, 2, 3, 1])
            }
            MemoryFormat::ChannelsLast3d => {
                ensure!(ndim == 5, Runtime, "required rank 5 tensor to use channels_last_3d format");
                Some(vec![0, 2, 3, 4, 1])
            }
            _ => None,
        })
    }
}

/// Dense strides for `shape` with the dims laid out in `order` (outermost first).
fn strides_in_order(shape: &[usize], order: &[usize]) -> Vec<usize> {
    let mut st = vec![0; shape.len()];
    let mut acc = 1;
    for &d in order.iter().rev() {
        st[d] = acc;
        acc *= shape[d].max(1);
    }
    st
}

/// `is_contiguous(memory_format)`: dense in that format's dim order (dims of size 1 may
/// carry any stride; the channels-last formats need rank 4 / 5, else false).
pub fn is_contiguous_as(x: &Tensor, mf: MemoryFormat) -> bool {
    let order = match mf {
        MemoryFormat::ChannelsLast if x.dim() == 4 => vec![0, 2, 3, 1],
        MemoryFormat::ChannelsLast3d if x.dim() == 5 => vec![0, 2, 3, 4, 1],
        MemoryFormat::ChannelsLast | MemoryFormat::ChannelsLast3d => return false,
        _ => return x.is_contiguous(),
    };
    let (shape, l) = (x.shape(), x.layout());
    let want = strides_in_order(&shape, &order);
    shape.iter().zip(l.strides.iter()).zip(&want).all(|((&n, &s), &w)| n <= 1 || s == w)
}

/// `clone(memory_format=...)` (CloneBackward0): `preserve_format` keeps a permuted `x`'s
/// dim order, `contiguous_format` is row-major, the channels-last formats put the channel dim
/// innermost.
pub fn clone_as(x: &Tensor, mf: MemoryFormat) -> Result<Tensor> {
    let Some(order) = mf.order(x.dim())? else {
        return if mf == MemoryFormat::Preserve { clone(x) } else { clone_contiguous(x) };
    };
    let dense = {
        let _g = crate::autograd::raw_mode();
        let p = permute(x, &order.iter().map(|&d| d as i64).collect::<Vec<_>>())?;
        super::cast_raw(&p, x.dtype())?
    };
    let storage = dense.data().storage.clone();
    let shape = x.shape();
    let strides = strides_in_order(&shape, &order);
    let out = Tensor::from_parts(storage, Layout { shape: crate::shape::Dims::from_slice(&shape), strides: crate::shape::Dims::from_slice(&strides), offset: 0 }, x.dtype());
    record("CloneBackward0", &[x], &[&out], &[], |_, g, _| Ok(vec![Some(g[0].clone())]))?;
    Ok(out)
}

/// `contiguous(memory_format=...)`: `x` itself when already dense in that format, else a
/// clone laid out so.
pub fn contiguous_as(x: &Tensor, mf: MemoryFormat) -> Result<Tensor> {
    match mf {
        MemoryFormat::Contiguous | MemoryFormat::Preserve => contiguous(x),
        _ if is_contiguous_as(x, mf) => Ok(x.clone()),
        _ => clone_as(x, mf),
    }
}

/// `contiguous()`: `x` itself when already contiguous, else a row-major clone.
pub fn contiguous(x: &Tensor) -> Result<Tensor> {
    if x.is_contiguous() {
        return Ok(x.clone());
    }
    clone_contiguous(x)
}

/// `flatten(start, end)`.
pub fn flatten(x: &Tensor, start: i64, end: i64) -> Result<Tensor> {
    let shape = x.shape();
    if shape.is_empty() {
        return reshape(x, &[1]);
    }
    let (s, e) = (wrap_dim(start, shape.len())?, wrap_dim(end, shape.len())?);
    ensure!(s <= e, Runtime, "flatten() has invalid args: start_dim cannot come after end_dim");
    if s == e {
        // matches torch: nothing to merge, the input itself
        return Ok(x.clone());
    }
    let mut ns: Vec<i64> = shape[..s].iter().map(|&d| d as i64).collect();
    ns.push(shape[s..=e].iter().product::<usize>() as i64);
    ns.extend(shape[e + 1..].iter().map(|&d| d as i64));
    reshape(x, &ns)
}

/// `cat(tensors, dim)`.
pub fn cat(ts: &[Tensor], dim: i64) -> Result<Tensor> {
    ensure!(!ts.is_empty(), Value, "torch.cat(): expected a non-empty list of Tensors");
    // matches torch: 1-D empty tensors are skipped
    let parts: Vec<&Tensor> = ts.iter().filter(|t| !(t.dim() == 1 && t.numel() == 0)).collect();
    let parts: Vec<&Tensor> = if parts.is_empty() { vec![&ts[0]] } else { parts };
    let first = parts[0].shape();
    ensure!(!first.is_empty(), Runtime, "zero-dimensional tensor (at position 0) cannot be concatenated");
    let d = wrap_dim(dim, first.len())?;
    let dt = parts.iter().skip(1).fold(parts[0].dtype(), |a, t| crate::dtype::DType::promote(a, t.dtype()));
    let mut total = 0;
    for (i, t) in parts.iter().enumerate() {
        let s = t.shape();
        ensure!(s.len() == first.len(), Runtime, "Tensors must have same number of dimensions: got {} and {}", first.len(), s.len());
        for k in 0..s.len() {
            if k != d && s[k] != first[k] {
                bail!(Runtime, "Sizes of tensors must match except in dimension {}. Expected size {} but got size {} for tensor number {} in the list.", d, first[k], s[k], i);
            }
        }
        total += s[d];
    }
    let mut shape = first.clone();
    shape[d] = total;
    // every element is written below: no zeroing pass
    let out = crate::tensor::scratch_on(&shape, dt, parts[0].device())?;
    let mut at = 0;
    let mut sizes = Vec::new();
    {
        for t in &parts {
            let s = t.shape()[d];
            let region = super::as_strided_view(&out, &layout_slice(&out.layout(), d, at, at + s, 1));
            super::write_into(&region, t)?;
            sizes.push((at, s));
            at += s;
        }
    }
    let inputs: Vec<&Tensor> = parts.clone();
    let zeros_like: Vec<(Vec<usize>, crate::dtype::DType)> = parts.iter().map(|t| (t.shape().to_vec(), t.dtype())).collect();
    let device = parts[0].device();
    crate::autograd::record_jvp("CatBackward0", &inputs, &[&out], &[], move |_, g, n| {
        let mut r = Vec::new();
        for (i, &(a, s)) in sizes.iter().enumerate() {
            r.push(if n[i] { Some(narrow(&g[0], d as i64, a as i64, s as i64)?) } else { None });
        }
        Ok(r)
    },
        // JVP: the tangents concatenated (zeros for inputs without one)
        |t| {
            let parts = zeros_like.iter().enumerate()
                .map(|(i, (s, dt))| t.get(i).cloned().map_or_else(|| crate::tensor::zeros_on(s, *dt, device), Ok))
                .collect::<Result<Vec<_>>>()?;
            Ok(vec![Some(cat(&parts, d as i64)?)])
        })?;
    fields(&out, || vec![("dim", SavedValue::Int64(dim))]);
    Ok(out)
}

/// `stack(tensors, dim)`.
pub fn stack(ts: &[Tensor], dim: i64) -> Result<Tensor> {
    ensure!(!ts.is_empty(), Runtime, "stack expects a non-empty TensorList");
    let first = ts[0].shape();
    for (i, t) in ts.iter().enumerate().skip(1) {
        if t.shape() != first {
            bail!(Runtime, "stack expects each tensor to be equal size, but got {} at entry 0 and {} at entry {}", fmt_list(&first), fmt_list(&t.shape()), i);
        }
    }
    let d = wrap_dim(dim, first.len() + 1)?;
    let parts: Vec<Tensor> = ts.iter().map(|t| layout_unsqueeze(&t.layout(), d as i64).map(|l| super::as_strided_view(t, &l))).collect::<Result<_>>()?;
    let out = {
        let _g = crate::autograd::raw_mode();
        cat(&parts, d as i64)?
    };
    let refs: Vec<&Tensor> = ts.iter().collect();
    let n = ts.len();
    record("StackBackward0", &refs, &[&out], &[], move |_, g, need| {
        (0..n).map(|i| if need[i] { select(&g[0], d as i64, i as i64).map(Some) } else { Ok(None) }).collect()
    })?;
    fields(&out, || vec![("dim", SavedValue::Int64(dim))]);
    Ok(out)
}

/// Views of `x` with `layouts`, recorded as the outputs of one node `name` (a function
/// returning several views: torch forbids writing them in place); `back` maps the outputs'
/// gradients (zero-filled where none arrived) to `x`'s.
fn multi_view(x: &Tensor, layouts: Vec<Layout>, name: &'static str,
              back: impl Fn(&[Tensor]) -> Result<Tensor> + Send + Sync + 'static) -> Result<Vec<Tensor>> {
    let outs: Vec<Tensor> = layouts.into_iter().map(|l| make_view(x, l)).collect();
    for o in &outs {
        o.meta().view_creation = crate::tensor::VIEW_MULTI_OUTPUT;
    }
    let refs: Vec<&Tensor> = outs.iter().collect();
    record(name, &[x], &refs, &[], move |_, g, _| Ok(vec![Some(back(g)?)]))?;
    Ok(outs)
}

/// `unbind(dim)`: views of every index along `dim` (UnbindBackward0).
pub fn unbind(x: &Tensor, dim: i64) -> Result<Vec<Tensor>> {
    if x.dim() == 0 {
        // the dim is checked as for a vector first, then refused
        let w = wrap_dim(dim, 1)?;
        bail!(Index, "Dimension specified as {} but tensor has no dimensions", w);
    }
    let d = wrap_dim(dim, x.dim())?;
    let l = x.layout();
    let layouts = (0..l.shape[d]).map(|i| layout_select(&l, d, i)).collect();
    multi_view(x, layouts, "UnbindBackward0", move |g| stack(g, d as i64))
}

/// Views of `x` along `d` with the given lengths (which cover the dim).
fn split_views(x: &Tensor, d: usize, lens: &[usize], name: &'static str) -> Result<Vec<Tensor>> {
    let l = x.layout();
    let mut at = 0;
    let mut layouts = Vec::with_capacity(lens.len());
    for &len in lens {
        layouts.push(layout_slice(&l, d, at, at + len, 1));
        at += len;
    }
    multi_view(x, layouts, name, move |g| cat(g, d as i64))
}

/// `split(size, dim)` / `chunk`: narrow views (SplitBackward0).
pub fn split(x: &Tensor, size: usize, dim: i64) -> Result<Vec<Tensor>> {
    ensure!(x.dim() > 0, Runtime, "split expects at least a 1-dimensional tensor");
    let d = wrap_dim(dim, x.dim())?;
    let n = x.shape()[d];
    ensure!(size > 0 || n == 0, Runtime, "split_size can only be 0 if dimension size is 0, but got dimension size of {}", n);
    let size = size.max(1);
    let mut lens = Vec::new();
    let mut at = 0;
    while at < n || (n == 0 && lens.is_empty()) {
        let len = size.min(n - at);
        lens.push(len);
        at += len;
        if n == 0 { break; }
    }
    let outs = split_views(x, d, &lens, "SplitBackward0")?;
    if let Some(o) = outs.first() {
        fields(o, || vec![("dim", SavedValue::Int64(dim)), ("split_size", SavedValue::Int(size as i64)), ("self_sym_sizes", sizes(&x.shape()))]);
    }
    Ok(outs)
}

/// `split(sizes, dim)` with explicit sizes (narrow views that must cover the dim exactly;
/// SplitWithSizesBackward0).
pub fn split_with_sizes(x: &Tensor, sizes: &[i64], dim: i64) -> Result<Vec<Tensor>> {
    ensure!(x.dim() > 0, Runtime, "split expects at least a 1-dimensional tensor");
    let d = wrap_dim(dim, x.dim())?;
    let n = x.shape()[d] as i64;
    let total: i64 = sizes.iter().sum();
    ensure!(sizes.iter().all(|&s| s >= 0), Runtime, "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes={:?}", sizes);
    ensure!(total == n, Runtime, "split_with_sizes expects split_sizes to sum exactly to {} (input tensor's size at dimension {}), but got split_sizes={:?}", n, d, sizes);
    let lens: Vec<usize> = sizes.iter().map(|&s| s as usize).collect();
    let outs = split_views(x, d, &lens, "SplitWithSizesBackward0")?;
    if let Some(o) = outs.first() {
        fields(o, || vec![("dim", SavedValue::Int64(dim)), ("split_sizes", SavedValue::Ints(sizes.to_vec())), ("self_sym_sizes", self::sizes(&x.shape()))]);
    }
    Ok(outs)
}

/// The value `dst` takes in `dst.copy_(src)`: `src` broadcast to `dst`'s shape and cast to its
/// dtype (CopyBackwards: the gradient goes to `src`, none to the old `dst`).
pub fn copy_from(dst: &Tensor, src: &Tensor) -> Result<Tensor> {
    let dt = dst.dtype();
    let l = copy_layout(dst, src)?;
    let out = crate::backend::cast_layout(src, &l, dt)?;
    let out = if out.device() != dst.device() { crate::backend::to_device(&out, dst.device())? } else { out };
    let (ss, sdt) = (src.shape(), src.dtype());
    record("CopyBackwards", &[dst, src], &[&out], &[], move |_, g, n| {
        let gd = if n[0] { Some(crate::tensor::zeros_on(&g[0].shape(), g[0].dtype(), g[0].device())?) } else { None };
        let gs = if n[1] { Some(super::to_dtype(&sum_to(&g[0], &ss)?, sdt)?) } else { None };
        Ok(vec![gd, gs])
    })?;
    Ok(out)
}

/// `src`'s layout broadcast to `dst`'s shape (PyTorch's error where it does not broadcast).
fn copy_layout(dst: &Tensor, src: &Tensor) -> Result<Layout> {
    let shape = dst.shape();
    src.layout().broadcast_to(&shape).map_err(|_| match crate::shape::broadcast_shapes(&shape, &src.shape()) {
        Ok(b) => crate::error::Error::Runtime(format!("output with shape {} doesn't match the broadcast shape {}", fmt_list(&shape), fmt_list(&b))),
        Err(e) => e,
    })
}

/// `dst.copy_(src)`. Without history (neither side requires grad, or grad mode off) the
/// backend's strided copy writes `src` (broadcast, cast) straight into `dst`'s elements: one
/// pass, where the general in-place path first builds the converted copy and then writes
/// it (2x PyTorch's time for a 2 MiB `copy_`).
pub fn copy_(dst: &Tensor, src: &Tensor) -> Result<()> {
    if !crate::autograd::needs_history(&[dst, src]) {
        super::check_inplace(dst)?;
        let l = copy_layout(dst, src)?;
        crate::backend::copy_into(dst, src, &l)?;
        dst.bump_version();
        return Ok(());
    }
    super::inplace(dst, |inp| copy_from(inp, src))
}

/// For every element of a contiguous tensor of `shape` (row-major order), the flat offset
/// of the element whose index along each dim `k` is `src(k, i)` (flip and roll gather
/// through these).
fn remapped_offsets(shape: &[usize], src: impl Fn(usize, usize) -> usize) -> Vec<usize> {
    let cs = crate::shape::contiguous_strides(shape);
    let n: usize = shape.iter().product();
    let Some(last) = shape.len().checked_sub(1) else { return vec![0] };
    if n == 0 {
        return Vec::new();
    }
    // the last dim's mapped offsets once, then a row at a time from the outer coordinates (an
    // odometer: no division per element; flip of 1M elements took 20 ms)
    let row: Vec<usize> = (0..shape[last]).map(|i| src(last, i) * cs[last]).collect();
    let mut ctr = vec![0usize; last];
    let mut out = Vec::with_capacity(n);
    loop {
        let base: usize = ctr.iter().enumerate().map(|(k, &c)| src(k, c) * cs[k]).sum();
        out.extend(row.iter().map(|&o| base + o));
        let mut k = last;
        loop {
            if k == 0 {
                return out;
            }
            k -= 1;
            ctr[k] += 1;
            if ctr[k] < shape[k] {
                break;
            }
            ctr[k] = 0;
        }
    }
}

/// `x` (contiguous) copied with each dim `k` in `moved` remapped by `src(k, i)`, as whole
/// rows: the dims after the last moved one are copied as they are, a moved last dim by
/// `last` (a reversal or a rotation of each row). None where the backend has no row gather.
fn remapped_rows(x: &Tensor, l: &Layout, moved: &[bool], src: impl Fn(usize, usize) -> usize, last: crate::backend::RowOrder, prof: &'static str) -> Result<Option<Tensor>> {
    let nd = l.ndim();
    if nd == 0 || !l.is_contiguous() || x.numel() == 0 {
        return Ok(None);
    }
    let (outer, within) = match moved.iter().rposition(|&m| m) {
        Some(t) if t == nd - 1 => (nd - 1, last),
        Some(t) => (t + 1, crate::backend::RowOrder::Same),
        None => (0, crate::backend::RowOrder::Same),
    };
    let inner: usize = l.shape[outer..].iter().product();
    let rows = remapped_offsets(&l.shape[..outer], src);
    crate::backend::gather_rows_in(x, &rows, inner, within, &l.shape, prof)
}

/// `flip(dims)`: a reversed copy along `dims` (FlipBackward0).
pub fn flip(x: &Tensor, dims: &[i64]) -> Result<Tensor> {
    let l = x.layout();
    let mut ds = Vec::new();
    for &d in dims {
        ds.push(wrap_dim(d, l.ndim())?);
    }
    let moved: Vec<bool> = (0..l.ndim()).map(|k| ds.contains(&k)).collect();
    let rev = |k: usize, i: usize| if moved[k] { l.shape[k] - 1 - i } else { i };
    let out = match remapped_rows(x, &l, &moved, rev, crate::backend::RowOrder::Reverse, "aten::flip")? {
        Some(out) => out,
        None => {
            // gather in the order that walks the flipped dims backwards
            let src_offsets = remapped_offsets(&l.shape, rev);
            let out = crate::backend::take(x, &crate::backend::offsets_tensor(&src_offsets, x.device())?, &l.shape)?;
            // laid out like x, as torch's flip (a TensorIterator over x)
            crate::backend::relayout_like(&out, &l)?
        }
    };
    let dims_v: Vec<i64> = dims.to_vec();
    record("FlipBackward0", &[x], &[&out], &[], move |_, g, _| Ok(vec![Some(flip(&g[0], &dims_v)?)]))?;
    fields(&out, || vec![("dims", SavedValue::Ints(dims.to_vec()))]);
    Ok(out)
}

/// `rot90(k, dims)`: rotated by 90° `k` times from `dims[0]` towards `dims[1]`
/// (Rot90Backward0: the gradient rotated back). As PyTorch composes it: a flip and a
/// transposed view for odd `k`, a flip of both dims for `k = 2`, a copy for `k = 0`.
pub fn rot90(x: &Tensor, k: i64, dims: &[i64]) -> Result<Tensor> {
    ensure!(dims.len() == 2, Runtime, "expected total rotation dims == 2, but got dims = {}", dims.len());
    let nd = x.dim();
    ensure!(nd >= 2, Runtime, "expected total dims >= 2, but got total dims = {}", nd);
    let (d0, d1) = (wrap_dim(dims[0], nd)?, wrap_dim(dims[1], nd)?);
    ensure!(d0 != d1, Runtime, "expected rotation dims to be different, but got dim0 = {} and dim1 = {}", dims[0], dims[1]);
    let (a, b) = (d0 as i64, d1 as i64);
    let out = {
        let _g = crate::autograd::raw_mode();
        match k.rem_euclid(4) {
            1 => transpose(&flip(x, &[b])?, a, b)?,
            2 => flip(x, &[a, b])?,
            3 => transpose(&flip(x, &[a])?, a, b)?,
            _ => clone(x)?,
        }
    }
    .detach();
    let dims_v = dims.to_vec();
    record("Rot90Backward0", &[x], &[&out], &[], move |_, g, _| Ok(vec![Some(rot90(&g[0], -k, &dims_v)?)]))?;
    crate::autograd::Node::annotate(
        &out,
        &[("k", crate::autograd::SavedValue::Int64(k)), ("dims", crate::autograd::SavedValue::Ints(dims.to_vec()))],
        &[],
    );
    Ok(out)
}

/// `unfold(dimension, size, step)`: a view of the windows of `size` elements every `step`
/// along `dimension`, each window as a new last dim (UnfoldBackward0: the windows' gradients
/// summed back into place, overlaps accumulating). PyTorch's checks and messages.
pub fn unfold(x: &Tensor, dimension: i64, size: i64, step: i64) -> Result<Tensor> {
    let l = x.layout();
    let nd = l.ndim();
    let d = wrap_dim(dimension, nd.max(1))?;
    let max_size = if nd == 0 { 1 } else { l.shape[d] as i64 };
    ensure!(size <= max_size, Runtime, "maximum size for tensor at dimension {} is {} but size is {}", d, max_size, size);
    ensure!(size >= 0, Runtime, "size is {} but must be >= 0", size);
    ensure!(step > 0, Runtime, "step is {} but must be > 0", step);
    let mut shape: Vec<usize> = l.shape.to_vec();
    let mut strides: Vec<usize> = l.strides.to_vec();
    let inner = if nd == 0 { 1 } else { l.strides[d] };
    if nd > 0 {
        shape[d] = ((max_size - size) / step + 1) as usize;
        strides[d] = step as usize * l.strides[d];
    }
    shape.push(size as usize);
    strides.push(inner);
    let vl = Layout { shape: Dims::from_slice(&shape), strides: Dims::from_slice(&strides), offset: l.offset };
    let out = make_view(x, vl.clone());
    let bl = l.clone();
    record("UnfoldBackward0", &[x], &[&out], &[], move |_, g, _| Ok(vec![Some(super::scatter_view_grad(&g[0], &bl, &vl)?)]))?;
    crate::autograd::Node::annotate(
        &out,
        &[("dimension", crate::autograd::SavedValue::Int64(dimension)), ("size", crate::autograd::SavedValue::Int64(size)),
          ("step", crate::autograd::SavedValue::Int64(step)), ("self_sym_sizes", crate::autograd::SavedValue::Ints(l.shape.iter().map(|&n| n as i64).collect()))],
        &[],
    );
    Ok(out)
}

/// `repeat(sizes)`: tile the tensor (RepeatBackward0: sum over the tiles).
pub fn repeat(x: &Tensor, sizes: &[i64]) -> Result<Tensor> {
    let shape = x.shape();
    ensure!(sizes.len() >= shape.len(), Runtime, "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
    let lead = sizes.len() - shape.len();
    let padded: Vec<usize> = (0..sizes.len()).map(|i| if i < lead { 1 } else { shape[i - lead] }).collect();
    // view as (1, s0, 1, s1, ...) expanded to (r0, s0, r1, s1, ...), then flatten pairs
    let mut inter: Vec<i64> = Vec::new();
    let mut exp_shape: Vec<i64> = Vec::new();
    let mut out_shape: Vec<i64> = Vec::new();
    for (i, &s) in padded.iter().enumerate() {
        ensure!(sizes[i] >= 0, Runtime, "Trying to create tensor with negative dimension {}: {}", sizes[i], crate::shape::fmt_list(&sizes.iter().map(|&x| x.max(0) as usize).collect::<Vec<_>>()));
        ensure!(sizes[i].checked_mul(s as i64).is_some(), Runtime, "IntArrayRef contains an int that cannot be represented as a SymInt: {}", sizes[i].wrapping_mul(s as i64));
        inter.extend([1, s as i64]);
        exp_shape.extend([sizes[i], s as i64]);
        out_shape.push(sizes[i] * s as i64);
    }
    let _g = crate::autograd::raw_mode();
    let base = reshape(&contiguous(x)?, &inter)?;
    let out = reshape(&contiguous(&expand(&base, &exp_shape)?)?, &out_shape)?.detach();
    drop(_g);
    let (sz, pd, orig) = (sizes.to_vec(), padded.clone(), shape.clone());
    record("RepeatBackward0", &[x], &[&out], &[], move |_, g, _| {
        let mut split: Vec<i64> = Vec::new();
        for (i, &s) in pd.iter().enumerate() {
            split.extend([sz[i], s as i64]);
        }
        let r = reshape(&g[0], &split)?;
        let dims: Vec<usize> = (0..pd.len()).map(|i| 2 * i).collect();
        let summed = super::sum_dims(&r, &dims, false, None)?;
        Ok(vec![Some(reshape(&summed, &orig.iter().map(|&d| d as i64).collect::<Vec<_>>())?)])
    })?;
    fields(&out, || vec![("repeats", SavedValue::Ints(sizes.to_vec())), ("self_sym_sizes", self::sizes(&shape))]);
    Ok(out)
}

/// `chunk(chunks, dim)`: `split` into pieces of `ceil(n / chunks)`.
pub fn chunk(x: &Tensor, chunks: i64, dim: i64) -> Result<Vec<Tensor>> {
    ensure!(x.dim() > 0, Runtime, "chunk expects at least a 1-dimensional tensor");
    ensure!(chunks > 0, Runtime, "chunk expects `chunks` to be greater than 0, got: {}", chunks);
    let d = wrap_dim(dim, x.dim())?;
    let n = x.shape()[d];
    if n == 0 {
        // matches torch: an empty dim splits into `chunks` empty pieces
        return split_with_sizes(x, &vec![0; chunks as usize], d as i64);
    }
    split(x, n.div_ceil(chunks as usize), dim)
}

/// `tril(k)` / `triu(k)` (`upper`) of the last two dims: elements with `j - i <= k` (tril)
/// or `j - i >= k` (triu) kept, the rest zero (TrilBackward0 / TriuBackward0: the same mask
/// applied to the gradient).
pub fn tril(x: &Tensor, k: i64, upper: bool) -> Result<Tensor> {
    let name = if upper { "triu" } else { "tril" };
    ensure!(
        x.dim() >= 2,
        Runtime,
        "{}: input tensor must have at least 2 dimensions",
        name
    );
    let shape = x.shape();
    let (r, c) = (shape[shape.len() - 2], shape[shape.len() - 1]);
    let keep: Vec<bool> = (0..r * c)
        .map(|f| {
            let d = (f % c) as i64 - (f / c) as i64;
            if upper {
                d >= k
            } else {
                d <= k
            }
        })
        .collect();
    let mut mask = Tensor::from_vec(keep, &[r, c])?;
    if x.device() != crate::Device::Cpu {
        mask = crate::backend::to_device(&mask, x.device())?;
    }
    let zero = crate::tensor::full_on(&[], crate::Scalar::Int(0), x.dtype(), x.device())?;
    let out = crate::backend::where_cond(
        &mask,
        &mask.layout().broadcast_to(&shape)?,
        x,
        &x.layout(),
        &zero,
        &zero.layout().broadcast_to(&shape)?,
    )?;
    record(
        if upper {
            "TriuBackward0"
        } else {
            "TrilBackward0"
        },
        &[x],
        &[&out],
        &[],
        move |_, g, _| Ok(vec![Some(tril(&g[0], k, upper)?)]),
    )?;
    fields(&out, || vec![("diagonal", SavedValue::Int64(k))]);
    Ok(out)
}

/// `roll(shifts, dims)`: elements shifted along `dims` with wrap-around (RollBackward0: the
/// gradient rolled back); without dims, the flattened tensor is rolled and viewed back.
pub fn roll(x: &Tensor, shifts: &[i64], dims: &[i64]) -> Result<Tensor> {
    ensure!(!shifts.is_empty(), Runtime, "`shifts` required");
    if dims.is_empty() {
        ensure!(
            shifts.len() == 1,
            Runtime,
            "shifts and dimensions must align. shifts: {}, dims:0",
            shifts.len()
        );
        // one RollBackward0 node (dims empty), as ATen's: the flat roll, viewed back
        let shape: Vec<i64> = x.shape().iter().map(|&d| d as i64).collect();
        let out = { let _g = crate::autograd::raw_mode(); super::reshape(&roll(&super::reshape(x, &[-1])?, shifts, &[0])?, &shape)? };
        let out = super::nn_layers::fresh(&out)?;
        let back: Vec<i64> = shifts.iter().map(|s| -s).collect();
        record("RollBackward0", &[x], &[&out], &[], move |_, g, _| Ok(vec![Some(roll(&g[0], &back, &[])?)]))?;
        fields(&out, || vec![("dims", SavedValue::Ints(Vec::new())), ("shifts", SavedValue::Ints(shifts.to_vec()))]);
        return Ok(out);
    }
    ensure!(
        shifts.len() == dims.len(),
        Runtime,
        "shifts and dimensions must align. shifts: {}, dims:{}",
        shifts.len(),
        dims.len()
    );
    let l = x.layout();
    let nd = l.ndim().max(1);
    let mut shift_of = vec![0i64; l.ndim()];
    for (&s, &d) in shifts.iter().zip(dims) {
        let d = wrap_dim(d, nd)?;
        if l.ndim() > 0 {
            shift_of[d] += s;
        }
    }
    // out[i] = x[i - shift] along each rolled dim
    let shift = |k: usize| shift_of[k].rem_euclid(l.shape[k].max(1) as i64) as usize;
    let moved: Vec<bool> = (0..l.ndim()).map(|k| shift(k) != 0).collect();
    let src = |k: usize, i: usize| (i + l.shape[k] - shift(k)) % l.shape[k];
    let last = crate::backend::RowOrder::Rotate(l.ndim().checked_sub(1).map_or(0, shift));
    let out = match remapped_rows(x, &l, &moved, src, last, "aten::roll")? {
        Some(out) => out,
        None => {
            let src_offsets = remapped_offsets(&l.shape, |k, i| (i as i64 - shift_of[k]).rem_euclid(l.shape[k].max(1) as i64) as usize);
            crate::backend::take(x, &crate::backend::offsets_tensor(&src_offsets, x.device())?, &l.shape)?
        }
    };
    let back: Vec<i64> = shifts.iter().map(|s| -s).collect();
    let dims_v = dims.to_vec();
    record("RollBackward0", &[x], &[&out], &[], move |_, g, _| {
        Ok(vec![Some(roll(&g[0], &back, &dims_v)?)])
    })?;
    fields(&out, || vec![("dims", SavedValue::Ints(dims.to_vec())), ("shifts", SavedValue::Ints(shifts.to_vec()))]);
    Ok(out)
}

/// The layout of the diagonal `offset` of dims `d1`, `d2` of `l`: the other dims in order,
/// then the diagonal (stride `s1 + s2`); empty when the offset runs past the matrix.
fn diagonal_layout(l: &Layout, offset: i64, d1: usize, d2: usize) -> Layout {
    let (n1, n2) = (l.shape[d1] as i64, l.shape[d2] as i64);
    let (len, start) = if offset >= 0 {
        ((n2 - offset).min(n1).max(0), offset as usize * l.strides[d2])
    } else {
        ((n1 + offset).min(n2).max(0), (-offset) as usize * l.strides[d1])
    };
    let mut shape: Dims = Dims::new();
    let mut strides: Dims = Dims::new();
    for k in (0..l.ndim()).filter(|&k| k != d1 && k != d2) {
        shape.push(l.shape[k]);
        strides.push(l.strides[k]);
    }
    shape.push(len as usize);
    strides.push(l.strides[d1] + l.strides[d2]);
    Layout { shape, strides, offset: l.offset + if len > 0 { start } else { 0 } }
}

fn diagonal_dims(x: &Tensor, dim1: i64, dim2: i64) -> Result<(usize, usize)> {
    let nd = x.dim();
    let (d1, d2) = (wrap_dim(dim1, nd)?, wrap_dim(dim2, nd)?);
    ensure!(d1 != d2, Runtime, "diagonal dimensions cannot be identical {}, {}", dim1, dim2);
    Ok((d1, d2))
}

/// `diagonal(offset, dim1, dim2)`: a view of the diagonal, last (DiagonalBackward0: the
/// gradient written onto the diagonal of zeros).
pub fn diagonal(x: &Tensor, offset: i64, dim1: i64, dim2: i64) -> Result<Tensor> {
    let (d1, d2) = diagonal_dims(x, dim1, dim2)?;
    let l = x.layout();
    let nl = diagonal_layout(&l, offset, d1, d2);
    let rel = diagonal_layout(&Layout::contiguous(&l.shape), offset, d1, d2);
    view_with_scatter(x, "DiagonalBackward0", nl, rel, || vec![("offset", SavedValue::Int64(offset)), ("dim1", SavedValue::Int64(dim1)), ("dim2", SavedValue::Int64(dim2))])
}

/// `diag_embed(offset, dim1, dim2)`: zeros with `x`'s last dim on the diagonal `offset` of two
/// new dims `dim1`, `dim2` of the result (DiagEmbedBackward0: the gradient's diagonal).
pub fn diag_embed(x: &Tensor, offset: i64, dim1: i64, dim2: i64) -> Result<Tensor> {
    let xs = x.shape();
    let nd = xs.len() + 1;
    let (d1, d2) = (wrap_dim(dim1, nd)?, wrap_dim(dim2, nd)?);
    ensure!(d1 != d2, Runtime, "diagonal dimensions cannot be identical {}, {}", dim1, dim2);
    let n = xs.last().copied().unwrap_or(1) + offset.unsigned_abs() as usize;
    let mut rest = xs[..xs.len().saturating_sub(1)].iter().copied();
    let shape: Vec<usize> = (0..nd).map(|k| if k == d1 || k == d2 { n } else { rest.next().unwrap_or(1) }).collect();
    let diag = diagonal_layout(&Layout::contiguous(&shape), offset, d1, d2);
    let offsets = crate::backend::offsets_tensor(&super::storage_offsets(&diag), x.device())?;
    let zeros = crate::tensor::zeros_on(&shape, x.dtype(), x.device())?;
    let out = crate::backend::put(&zeros, &offsets, &super::contiguous(&x.detach())?, false)?;
    record("DiagEmbedBackward0", &[x], &[&out], &[], move |_, g, _| Ok(vec![Some(diagonal(&g[0], offset, dim1, dim2)?)]))?;
    fields(&out, || vec![("offset", SavedValue::Int64(offset)), ("dim1", SavedValue::Int64(dim1)), ("dim2", SavedValue::Int64(dim2))]);
    Ok(out)
}

/// `diag(x, diagonal)`: a vector onto the diagonal of a square matrix (diag_embed), or a
/// matrix's diagonal as a copy (DiagonalBackward0_copy, as PyTorch's `diagonal_copy`).
pub fn diag(x: &Tensor, offset: i64) -> Result<Tensor> {
    match x.dim() {
        1 => diag_embed(x, offset, -2, -1),
        2 => {
            let l = x.layout();
            let rel = diagonal_layout(&Layout::contiguous(&l.shape), offset, 0, 1);
            let offs = crate::backend::offsets_tensor(&super::storage_offsets(&rel), x.device())?;
            let out = crate::backend::take(x, &offs, &rel.shape)?;
            let shape = l.shape.to_vec();
            record("DiagonalBackward0_copy", &[x], &[&out], &[], move |_, g, _| Ok(vec![Some(super::put_add(&super::contiguous(&g[0])?, &offs, &shape)?)]))?;
            Ok(out)
        }
        d => bail!(Runtime, "diag(): Supports 1D or 2D tensors. Got {}D", d),
    }
}

/// `trace(x)`: the sum of a matrix's diagonal (TraceBackward0: the gradient on the diagonal
/// of zeros).
pub fn trace(x: &Tensor) -> Result<Tensor> {
    ensure!(x.dim() == 2, Runtime, "trace: expected a matrix, but got tensor with dim {}", x.dim());
    let out = {
        let _no_grad = crate::autograd::GradModeGuard::new(false);
        super::sum(&diagonal(x, 0, 0, 1)?, None)?
    };
    let shape = x.shape().to_vec();
    record("TraceBackward0", &[x], &[&out], &[], move |_, g, _| {
        let (r, c) = (shape[0], shape[1]);
        let eye: Vec<f64> = (0..r * c).map(|f| if f / c == f % c { 1.0 } else { 0.0 }).collect();
        let mut eye = super::to_dtype(&Tensor::from_vec(eye, &[r, c])?, g[0].dtype())?;
        if g[0].device() != crate::Device::Cpu {
            eye = crate::backend::to_device(&eye, g[0].device())?;
        }
        Ok(vec![Some(super::mul(&eye, &g[0])?)])
    })?;
    fields(&out, || vec![("self_sym_sizes", self::sizes(&x.shape()))]);
    Ok(out)
}
