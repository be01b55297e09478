//! nn layers and losses with their own backward nodes (PyTorch's grad_fn names):
//! convolution (im2col + matmul), pooling, normalisation, embedding, activations, losses.
//!
//! Forwards are computed with grad mode off from core ops (so no intermediate history);
//! each op then records ONE node whose backward formula is written with differentiable
//! ops, so double backward works. Nothing here touches a buffer: windows are strided views
//! and scatters through `backend`.

use super::{
    add, as_strided_scatter, as_strided_view, binary_raw, cast_raw, compare, contiguous, div, exp, expand, log,
    matmul, mean, mul, neg, permute, put_add, reshape, sigmoid, sqrt, sub, sum, sum_dims, sum_to, t, tanh,
    transpose, where_, write_into, BinOp,
};
use crate::autograd::{record, record_ew, record_jvp, Node, Save, SavedValue};
use crate::backend;
use crate::dtype::DType;
use crate::error::Result;
use crate::shape::{contiguous_strides, Dims, Layout};
use crate::tensor::{Scalar, Tensor};
use crate::{bail, ensure};

fn sc(v: f64) -> Tensor {
    Tensor::wrapped_scalar(Scalar::Float(v))
}
fn sci(v: i64) -> Tensor {
    Tensor::wrapped_scalar(Scalar::Int(v))
}
fn no_grad<T>(f: impl FnOnce() -> Result<T>) -> Result<T> {
    let _g = crate::autograd::raw_mode();
    f()
}
fn i64s(v: &[usize]) -> Vec<i64> {
    v.iter().map(|&d| d as i64).collect()
}
fn rs(x: &Tensor, shape: &[usize]) -> Result<Tensor> {
    reshape(x, &i64s(shape))
}
fn cmp(x: &Tensor, v: f64, op: BinOp) -> Result<Tensor> {
    compare(x, &sc(v), op)
}
/// `cond ? a : b` for a bool `cond`.
fn sel(cond: &Tensor, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    where_(cond, a, b)
}
/// `t` as a fresh dense tensor of its own (not a view of anything), so the node recorded on
/// it is the whole story (an in-place op on a layer's output must not rebase onto a base).
pub(super) fn fresh(t: &Tensor) -> Result<Tensor> {
    let is_view = t.meta().view_base.is_some();
    let d = t.data();
    let dense = d.layout.offset == 0 && d.layout.is_contiguous() && d.storage.data.read().len() == d.layout.numel();
    drop(d);
    if dense && !is_view { Ok(t.clone()) } else { cast_raw(t, t.dtype()) }
}

fn lay(shape: &[usize], strides: &[usize], offset: usize) -> Layout {
    Layout { shape: Dims::from_slice(shape), strides: Dims::from_slice(strides), offset }
}
fn host(v: Vec<i64>, device: crate::Device) -> Result<Tensor> {
    let n = v.len();
    let t = crate::tensor::from_i64s(&v, &[n], DType::Int64)?;
    if t.device() == device { Ok(t) } else { backend::to_device(&t, device) }
}
fn hostf(v: &[f64], shape: &[usize], dtype: DType, device: crate::Device) -> Result<Tensor> {
    let t = crate::tensor::from_f64s(v, shape, dtype)?;
    if t.device() == device { Ok(t) } else { backend::to_device(&t, device) }
}

// ---------------------------------------------------------------------------------------
// windows: im2col / col2im
// ---------------------------------------------------------------------------------------

/// A 2-d sliding window: kernel, stride, dilation and padding (top, bottom, left, right;
/// a negative pad crops).
#[derive(Clone, Copy, Debug)]
pub struct Window2d {
    pub kernel: [usize; 2],
    pub stride: [usize; 2],
    pub dilation: [usize; 2],
    pub pad: [i64; 4],
}

impl Window2d {
    /// `_saved_kernel_size`, `_saved_dilation`, `_saved_padding`, `_saved_stride` of the
    /// unfold / fold nodes (the padding symmetric, as `F.unfold` takes it).
    fn fields(&self) -> Vec<(&'static str, SavedValue)> {
        let ints = |v: [usize; 2]| SavedValue::Ints(v.iter().map(|&e| e as i64).collect());
        vec![("kernel_size", ints(self.kernel)), ("dilation", ints(self.dilation)),
             ("padding", SavedValue::Ints(vec![self.pad[0], self.pad[2]])), ("stride", ints(self.stride))]
    }
    fn padded(&self, h: usize, w: usize) -> (i64, i64) {
        (h as i64 + self.pad[0] + self.pad[1], w as i64 + self.pad[2] + self.pad[3])
    }
    fn extent(&self) -> (i64, i64) {
        ((self.dilation[0] * (self.kernel[0] - 1) + 1) as i64, (self.dilation[1] * (self.kernel[1] - 1) + 1) as i64)
    }
    /// Number of window positions along each dim (None when the window does not fit).
    pub fn out_size(&self, h: usize, w: usize) -> Option<[usize; 2]> {
        let (hp, wp) = self.padded(h, w);
        let (eh, ew) = self.extent();
        if hp < eh || wp < ew || self.stride.contains(&0) || self.kernel.contains(&0) {
            return None;
        }
        Some([((hp - eh) / self.stride[0] as i64 + 1) as usize, ((wp - ew) / self.stride[1] as i64 + 1) as usize])
    }
    fn ksize(&self) -> usize {
        self.kernel[0] * self.kernel[1]
    }
    /// The backend's description of this window with `out` positions.
    fn conv_window(&self, out: [usize; 2]) -> backend::ConvWindow {
        backend::ConvWindow { kernel: self.kernel, stride: self.stride, dilation: self.dilation, pad: self.pad, out }
    }
}

/// `x` (n, c, h, w) placed into a (n, c, hp, wp) buffer at (top, left) (negative crops),
/// the rest `fill`. No autograd.
fn place(x: &Tensor, hp: usize, wp: usize, top: i64, left: i64, fill: f64) -> Result<Tensor> {
    let s = x.shape();
    let (n, c, h, w) = (s[0], s[1], s[2] as i64, s[3] as i64);
    let out = crate::tensor::full_on(&[n, c, hp, wp], Scalar::Float(fill), x.dtype(), x.device())?;
    // overlap in destination coordinates
    let (d0, d1) = (top.max(0), (top + h).min(hp as i64));
    let (e0, e1) = (left.max(0), (left + w).min(wp as i64));
    if d1 > d0 && e1 > e0 && n > 0 && c > 0 {
        let ds = contiguous_strides(&[n, c, hp, wp]);
        let dst = as_strided_view(&out, &lay(&[n, c, (d1 - d0) as usize, (e1 - e0) as usize], &ds, (d0 as usize) * wp + e0 as usize));
        let xl = x.layout();
        let src = as_strided_view(x, &lay(&[n, c, (d1 - d0) as usize, (e1 - e0) as usize], &xl.strides,
            xl.offset + ((d0 - top) as usize) * xl.strides[2] + ((e0 - left) as usize) * xl.strides[3]));
        write_into(&dst, &src)?;
    }
    Ok(out)
}

/// The window view of a padded (n, c, hp, wp) buffer: shape and strides of its
/// (n, c, kh, kw, oh, ow) elements, or, with the batch inside, of (c, kh, kw, n, oh, ow).
fn window_layout(n: usize, c: usize, [hp, wp]: [usize; 2], [oh, ow]: [usize; 2], win: &Window2d, batch_inner: bool) -> ([usize; 6], [usize; 6]) {
    let [kh, kw] = win.kernel;
    let (sn, sc, sk, sl) = (c * hp * wp, hp * wp, [win.dilation[0] * wp, win.dilation[1]], [win.stride[0] * wp, win.stride[1]]);
    if batch_inner {
        ([c, kh, kw, n, oh, ow], [sc, sk[0], sk[1], sn, sl[0], sl[1]])
    } else {
        ([n, c, kh, kw, oh, ow], [sn, sc, sk[0], sk[1], sl[0], sl[1]])
    }
}

/// Columns of `x` (n, c, h, w), padding filled with `fill`: (n, c*kh*kw, oh*ow), or with the
/// batch inside (`batch_inner`), (c*kh*kw, n*oh*ow). No autograd.
fn im2col_into_columns(x: &Tensor, win: &Window2d, fill: f64, batch_inner: bool) -> Result<(Tensor, [usize; 2])> {
    let s = x.shape();
    let (n, c, h, w) = (s[0], s[1], s[2], s[3]);
    let [oh, ow] = win.out_size(h, w).ok_or_else(|| crate::error::Error::Runtime("im2col: window larger than the padded input".into()))?;
    let cw = win.conv_window([oh, ow]);
    if let Some(cols) = backend::im2col(x, [n, c, h, w], &cw, batch_inner, fill)? {
        return Ok((cols, [oh, ow]));
    }
    let (hp, wp) = win.padded(h, w);
    let (hp, wp) = (hp as usize, wp as usize);
    let src = if win.pad == [0; 4] && x.is_contiguous() {
        x.clone()
    } else if win.pad == [0; 4] {
        cast_raw(x, x.dtype())?
    } else {
        place(x, hp, wp, win.pad[0], win.pad[2], fill)?
    };
    let (shape, strides) = window_layout(n, c, [hp, wp], [oh, ow], win, batch_inner);
    let view = as_strided_view(&src, &lay(&shape, &strides, src.layout().offset));
    // copied by rows of ow
    let cols = cast_raw(&view, x.dtype())?;
    let k = c * win.ksize();
    let out: &[usize] = if batch_inner { &[k, n * oh * ow] } else { &[n, k, oh * ow] };
    Ok((as_strided_view(&cols, &Layout::contiguous(out)), [oh, ow]))
}

/// Columns of `x` (n, c, h, w): (n, c*kh*kw, oh*ow), padding filled with `fill`. No autograd.
fn im2col_raw(x: &Tensor, win: &Window2d, fill: f64) -> Result<(Tensor, [usize; 2])> {
    im2col_into_columns(x, win, fill, false)
}

/// Elements of the columns up to which a convolution runs on batch-inner columns (32 MiB
/// of float32).
const BATCH_INNER_COLS: usize = 8 << 20;

/// Columns of `x` (n, c, h, w) with the batch inside: (c*kh*kw, n*oh*ow), so that a
/// convolution over the whole batch is one matrix product per group (K = c*kh*kw against
/// N = n*oh*ow) instead of one small product per sample. No autograd.
fn im2col_batch_inner(x: &Tensor, win: &Window2d) -> Result<Tensor> {
    Ok(im2col_into_columns(x, win, 0.0, true)?.0)
}

/// The adjoint of `im2col_into_columns`: columns (n, c*kh*kw, L), or with the batch inside
/// (c*kh*kw, n*L), summed back into (n, c, h, w). No autograd.
fn columns_into_image(cols: &Tensor, n: usize, c: usize, hw: [usize; 2], win: &Window2d, batch_inner: bool) -> Result<Tensor> {
    let [h, w] = hw;
    let [oh, ow] = win.out_size(h, w).ok_or_else(|| crate::error::Error::Runtime("col2im: window larger than the padded output".into()))?;
    let cols = contiguous(cols)?;
    if let Some(img) = backend::col2im(&cols, [n, c, h, w], &win.conv_window([oh, ow]), batch_inner)? {
        return Ok(img);
    }
    let (hp, wp) = win.padded(h, w);
    let (hp, wp) = (hp as usize, wp as usize);
    let (shape, strides) = window_layout(n, c, [hp, wp], [oh, ow], win, batch_inner);
    let g = rs(&cols, &shape)?;
    let full = as_strided_scatter(&g, &lay(&shape, &strides, 0), &[n, c, hp, wp])?;
    if win.pad == [0; 4] {
        return Ok(full);
    }
    place(&full, h, w, -win.pad[0], -win.pad[2], 0.0)
}

/// The adjoint of `im2col_batch_inner`: columns (c*kh*kw, n*L) summed into (n, c, h, w).
/// No autograd.
fn col2im_batch_inner(cols: &Tensor, n: usize, hw: [usize; 2], win: &Window2d) -> Result<Tensor> {
    columns_into_image(cols, n, cols.shape()[0] / win.ksize(), hw, win, true)
}

/// The adjoint of `im2col_raw`: columns (n, c*kh*kw, L) summed back into (n, c, h, w).
fn col2im_raw(cols: &Tensor, hw: [usize; 2], win: &Window2d) -> Result<Tensor> {
    let s = cols.shape();
    columns_into_image(cols, s[0], s[1] / win.ksize(), hw, win, false)
}

/// `F.unfold` on (n, c, h, w): Im2ColBackward0.
pub fn im2col(x: &Tensor, win: Window2d) -> Result<Tensor> {
    let s = x.shape();
    let hw = [s[2], s[3]];
    let out = no_grad(|| im2col_raw(x, &win, 0.0))?.0;
    record("Im2ColBackward0", &[x], &[&out], &[], move |_, g, _| Ok(vec![Some(col2im(&g[0], hw, win)?)]))?;
    Node::annotate_with(&out, &[], || {
        let mut v = win.fields();
        v.push(("self_sym_argsize_minus_2", SavedValue::Int(hw[0] as i64)));
        v.push(("self_sym_argsize_minus_1", SavedValue::Int(hw[1] as i64)));
        v
    });
    Ok(out)
}

/// `F.fold` of (n, c*kh*kw, L) into (n, c, h, w): Col2ImBackward0.
pub fn col2im(cols: &Tensor, hw: [usize; 2], win: Window2d) -> Result<Tensor> {
    let s = cols.shape();
    ensure!(s.len() == 3, Runtime, "Expected 3D (unbatched) or 4D (batched) input to fold, but got input of dimension {}", s.len());
    ensure!(s[1] % win.ksize() == 0, Runtime,
        "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got input.size(1)={} and kernel_size=({}, {})",
        s[1], win.kernel[0], win.kernel[1]);
    let ob = win.out_size(hw[0], hw[1]).unwrap_or([0, 0]);
    ensure!(ob[0] * ob[1] == s[2] && ob[0] > 0, Runtime,
        "Given output_size=({}, {}), kernel_size=({}, {}), dilation=({}, {}), padding=({}, {}), stride=({}, {}), expected size of input's dimension 2 to match the calculated number of sliding blocks {} * {} = {}, but got input.size(2)={}.",
        hw[0], hw[1], win.kernel[0], win.kernel[1], win.dilation[0], win.dilation[1], win.pad[0], win.pad[2], win.stride[0], win.stride[1], ob[0], ob[1], ob[0] * ob[1], s[2]);
    let out = no_grad(|| col2im_raw(cols, hw, &win))?;
    record("Col2ImBackward0", &[cols], &[&out], &[], move |_, g, _| Ok(vec![Some(im2col(&g[0], win)?)]))?;
    Node::annotate_with(&out, &[], || win.fields());
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// convolution
// ---------------------------------------------------------------------------------------

/// Options of a convolution over 1 or 2 spatial dims (1-d ones are lifted to height 1).
#[derive(Clone, Debug)]
pub struct ConvOpts {
    pub stride: Vec<usize>,
    /// (before, after) per spatial dim
    pub padding: Vec<(i64, i64)>,
    pub dilation: Vec<usize>,
    pub groups: usize,
    pub transposed: bool,
    pub output_padding: Vec<usize>,
}

fn lift2(v: &[usize], one: usize) -> [usize; 2] {
    if v.len() == 1 { [one, v[0]] } else { [v[0], v[1]] }
}

/// `conv1d/conv2d/conv_transpose1d/conv_transpose2d` (ConvolutionBackward0, with
/// derivatives.yaml's saved fields: input, weight, stride, padding, dilation, transposed,
/// output_padding, groups, bias_sym_sizes_opt).
pub fn convolution(x: &Tensor, w: &Tensor, b: Option<&Tensor>, o: &ConvOpts) -> Result<Tensor> {
    let out = convolution_impl(x, w, b, o)?;
    if out.grad_fn().is_some_and(|n| n.name == "ConvolutionBackward0") {
        let ints = |v: &[usize]| SavedValue::Ints(v.iter().map(|&d| d as i64).collect());
        let sd = o.stride.len();
        let op = if o.output_padding.is_empty() { vec![0; sd] } else { o.output_padding.clone() };
        crate::autograd::Node::annotate(&out, &[
            ("stride", ints(&o.stride)),
            ("padding", SavedValue::Ints(o.padding.iter().map(|p| p.0).collect())),
            ("dilation", ints(&o.dilation)),
            ("transposed", SavedValue::Bool(o.transposed)),
            ("output_padding", ints(&op)),
            ("groups", SavedValue::Int(o.groups as i64)),
            ("bias_sym_sizes_opt", b.map_or(SavedValue::Ints(vec![0]), |b| ints(&b.shape()))),
        ], &[(0, "input"), (1, "weight")]);
    }
    Ok(out)
}

fn convolution_impl(x: &Tensor, w: &Tensor, b: Option<&Tensor>, o: &ConvOpts) -> Result<Tensor> {
    let xs = x.shape();
    let ws = w.shape();
    let sd = ws.len().saturating_sub(2);
    ensure!(sd == 1 || sd == 2, NotImplemented, "only 1-d and 2-d convolutions are supported");
    ensure!(xs.len() == sd + 2, Runtime,
        "Expected {}D (unbatched) or {}D (batched) input to conv{}d, but got input of size: {}", sd + 1, sd + 2, sd, crate::shape::fmt_list(&xs));
    // ATen's order: the bias's dtype first (convolution's check), then the kernel's
    if let Some(b) = b {
        ensure!(b.dtype() == x.dtype(), Runtime, "Input type ({}) and bias type ({}) should be the same", x.dtype().c_name(), b.dtype().c_name());
    }
    ensure!(x.dtype() == w.dtype(), Runtime, "expected scalar type {} but found {}", x.dtype().scalar_name(), w.dtype().scalar_name());
    ensure!(x.dtype().is_float(), NotImplemented, "\"slow_conv2d_cpu\" not implemented for '{}'", x.dtype().scalar_name());
    let g = o.groups;
    ensure!(g > 0, Runtime, "non-positive groups is not supported");
    let lift = |t: &Tensor, s: &[usize]| -> Result<Tensor> {
        if sd == 1 { let mut v = s[..2].to_vec(); v.push(1); v.push(s[2]); rs(t, &v) } else { Ok(t.clone()) }
    };
    let (n, c) = (xs[0], xs[1]);
    let [h, wd] = lift2(&xs[2..], 1);
    let [kh, kw] = lift2(&ws[2..], 1);
    let stride = lift2(&o.stride, 1);
    let dil = lift2(&o.dilation, 1);
    let pads: [(i64, i64); 2] = if o.padding.len() == 1 { [(0, 0), o.padding[0]] } else { [o.padding[0], o.padding[1]] };
    let win = Window2d { kernel: [kh, kw], stride, dilation: dil, pad: [pads[0].0, pads[0].1, pads[1].0, pads[1].1] };
    let fmtw = crate::shape::fmt_list(&ws);
    let fmtx = crate::shape::fmt_list(&xs);
    if let Some(b) = b {
        let oc = if o.transposed { ws[1] * g } else { ws[0] };
        ensure!(b.dim() == 1 && b.shape()[0] == oc, Runtime,
            "Given weight of size {}, expected bias to be 1-dimensional with {} elements, but got bias of size {} instead", fmtw, oc, crate::shape::fmt_list(&b.shape()));
    }
    if !o.transposed {
        let (oc, cg) = (ws[0], ws[1]);
        ensure!(oc % g == 0, Runtime, "Given groups={}, expected weight to be divisible by {} at dimension 0, but got weight of size {} instead", g, g, fmtw);
        ensure!(c == cg * g, Runtime, "Given groups={}, weight of size {}, expected input{} to have {} channels, but got {} channels instead", g, fmtw, fmtx, cg * g, c);
        let Some([oh, ow]) = win.out_size(h, wd) else {
            let (hp, wp) = win.padded(h, wd);
            let (eh, ew) = win.extent();
            if sd == 1 {
                bail!(Runtime, "Calculated padded input size per channel: ({}). Kernel size: ({}). Kernel size can't be greater than actual input size", wp, ew);
            }
            bail!(Runtime, "Calculated padded input size per channel: ({} x {}). Kernel size: ({} x {}). Kernel size can't be greater than actual input size", hp, wp, eh, ew);
        };
        let (og, kk) = (oc / g, cg * kh * kw);
        let l = oh * ow;
        let out_shape: Vec<usize> = if sd == 1 { vec![n, oc, ow] } else { vec![n, oc, oh, ow] };
        // With columns of moderate size (the products per sample are small: L = oh·ow of a
        // few hundred), one product per group over the whole batch: W (og, kk) by the
        // columns (kk, n·L), then the (oc, n, L) result, bias added, moved to (n, oc, L).
        // Larger planes (L from 1024) keep one product per sample: those run at the GEMM's
        // speed already, and the batch-inner result's move to (n, oc, L) would cost more than
        // it saves; so do very large columns, where a product with N in the tens of
        // thousands and K in the hundreds runs slower than per sample.
        let batch_inner = l < 1024 && g * kk * n * l <= BATCH_INNER_COLS;
        // the backend's fused kernel where it has one (CPU: per-sample columns in L2, one
        // product per sample and group straight into the output, the bias stored first)
        let cv = backend::Conv2d { nchw: [n, c, h, wd], oc, groups: g, win: win.conv_window([oh, ow]) };
        let out = no_grad(|| {
            let x4 = contiguous(&lift(x, &xs)?)?;
            let bc = match b { Some(b) => Some(contiguous(b)?), None => None };
            if let Some(y) = backend::conv2d(&x4, &contiguous(w)?, bc.as_ref(), &cv)? {
                // not a view of the kernel's result (`fresh` would copy a view)
                return super::shape::unsafe_view(&y, &i64s(&out_shape));
            }
            if !batch_inner {
                let (cols, _) = im2col_raw(&lift(x, &xs)?, &win, 0.0)?;
                let cols = rs(&cols, &[n, g, kk, l])?;
                let wm = rs(&contiguous(w)?, &[g, og, kk])?;
                let y = rs(&matmul(&wm, &cols)?, &out_shape)?;
                return match b {
                    Some(b) => { let mut bs = vec![1usize; out_shape.len()]; bs[1] = oc; add(&y, &rs(b, &bs)?) }
                    None => Ok(y),
                };
            }
            let cols = rs(&im2col_batch_inner(&lift(x, &xs)?, &win)?, &[g, kk, n * l])?;
            let wm = rs(&contiguous(w)?, &[g, og, kk])?;
            let y = rs(&matmul(&wm, &cols)?, &[oc, n, l])?;
            let y = match b {
                Some(b) => add(&y, &rs(b, &[oc, 1, 1])?)?,
                None => y,
            };
            rs(&contiguous(&permute(&y, &[1, 0, 2])?)?, &out_shape)
        })?;
        let out = fresh(&out)?;
        let mut ins: Vec<&Tensor> = vec![x, w];
        if let Some(b) = b { ins.push(b); }
        let has_b = b.is_some();
        let (xs2, ws2) = (xs.clone(), ws.clone());
        // dx = col2im(Wᵀ g), dW = sum_n g colsᵀ, db = sum g over (n, spatial)
        record("ConvolutionBackward0", &ins, &[&out], &[Save::In(x), Save::In(w)], move |s, gr, need| {
            if !crate::autograd::is_grad_enabled() && (need[0] || need[1]) {
                // first order: the backend's fused kernel where it has one
                let x4 = contiguous(&rs(&s.get(0)?, &[n, c, h, wd])?)?;
                let g4 = contiguous(&rs(&gr[0], &[n, oc, oh, ow])?)?;
                if let Some((gx, gw)) = backend::conv2d_backward(&g4, &x4, &contiguous(&s.get(1)?)?, &cv, [need[0], need[1]])? {
                    let re = |t: Tensor, shape: &[usize]| super::shape::unsafe_view(&t, &i64s(shape));
                    let mut v = vec![gx.map(|t| re(t, &xs2)).transpose()?, gw.map(|t| re(t, &ws2)).transpose()?];
                    if has_b {
                        let dims: Vec<usize> = (0..gr[0].dim()).filter(|&d| d != 1).collect();
                        v.push(if need[2] { Some(sum_dims(&gr[0], &dims, false, None)?) } else { None });
                    }
                    return Ok(v);
                }
            }
            if batch_inner && !crate::autograd::is_grad_enabled() {
                // first order: whole-batch products on batch-inner columns, as the forward
                let gt = rs(&contiguous(&permute(&rs(&gr[0], &[n, oc, l])?, &[1, 0, 2])?)?, &[g, og, n * l])?;
                let gx = if need[0] {
                    let wt = transpose(&rs(&s.get(1)?, &[g, og, kk])?, 1, 2)?;
                    let cols = rs(&matmul(&wt, &gt)?, &[g * kk, n * l])?;
                    Some(rs(&col2im_batch_inner(&cols, n, [h, wd], &win)?, &xs2)?)
                } else { None };
                let gw = if need[1] {
                    let x4 = s.get(0)?;
                    let x4 = if sd == 1 { rs(&x4, &[n, c, 1, wd])? } else { x4 };
                    let cols = rs(&im2col_batch_inner(&x4, &win)?, &[g, kk, n * l])?;
                    Some(rs(&matmul(&gt, &transpose(&cols, 1, 2)?)?, &ws2)?)
                } else { None };
                let mut v = vec![gx, gw];
                if has_b {
                    v.push(if need[2] { Some(rs(&sum_dims(&gt, &[2], false, None)?, &[oc])?) } else { None });
                }
                return Ok(v);
            }
            let gv = rs(&gr[0], &[n, g, og, l])?;
            let gx = if need[0] {
                let wt = transpose(&rs(&s.get(1)?, &[g, og, kk])?, 1, 2)?;
                let cols = rs(&matmul(&wt, &gv)?, &[n, g * kk, l])?;
                Some(rs(&col2im(&cols, [h, wd], win)?, &xs2)?)
            } else { None };
            let gw = if need[1] {
                let x4 = s.get(0)?;
                let x4 = if sd == 1 { rs(&x4, &[n, c, 1, wd])? } else { x4 };
                let cols = rs(&im2col(&x4, win)?, &[n, g, kk, l])?;
                let p = sum_dims(&matmul(&gv, &transpose(&cols, 2, 3)?)?, &[0], false, None)?;
                Some(rs(&p, &ws2)?)
            } else { None };
            let mut v = vec![gx, gw];
            if has_b {
                let dims: Vec<usize> = (0..gr[0].dim()).filter(|&d| d != 1).collect();
                v.push(if need[2] { Some(sum_dims(&gr[0], &dims, false, None)?) } else { None });
            }
            Ok(v)
        })?;
        Ok(out)
    } else {
        // weight (cin, cout/g, kh, kw)
        let (cin, cog) = (ws[0], ws[1]);
        ensure!(c == cin, Runtime, "Given transposed=1, weight of size {}, expected input{} to have {} channels, but got {} channels instead", fmtw, fmtx, cin, c);
        ensure!(cin % g == 0, Runtime, "Given groups={}, expected weight to be divisible by {} at dimension 0, but got weight of size {} instead", g, g, fmtw);
        let op = lift2(&o.output_padding, 0);
        for i in 0..2 {
            ensure!(op[i] < stride[i] || op[i] < dil[i], Runtime,
                "output padding must be smaller than either stride or dilation, but got output_padding_height: {} output_padding_width: {} stride_height: {} stride_width: {} dilation_height: {} dilation_width: {}",
                op[0], op[1], stride[0], stride[1], dil[0], dil[1]);
        }
        let oh = (h as i64 - 1) * stride[0] as i64 - win.pad[0] - win.pad[1] + (dil[0] * (kh - 1)) as i64 + op[0] as i64 + 1;
        let ow = (wd as i64 - 1) * stride[1] as i64 - win.pad[2] - win.pad[3] + (dil[1] * (kw - 1)) as i64 + op[1] as i64 + 1;
        ensure!(oh > 0 && ow > 0, Runtime, "Given input size per channel: ({} x {}). Calculated output size per channel: ({} x {}). Output size is too small", h, wd, oh, ow);
        let (oh, ow) = (oh as usize, ow as usize);
        let mut twin = win;
        twin.pad[1] -= op[0] as i64;
        twin.pad[3] -= op[1] as i64;
        let (cig, kk) = (cin / g, cog * kh * kw);
        let l = h * wd;
        let oc = cog * g;
        let out_shape: Vec<usize> = if sd == 1 { vec![n, oc, ow] } else { vec![n, oc, oh, ow] };
        let out = no_grad(|| {
            let xv = rs(x, &[n, g, cig, l])?;
            let wt = transpose(&rs(&contiguous(w)?, &[g, cig, kk])?, 1, 2)?;
            let cols = rs(&matmul(&wt, &xv)?, &[n, g * kk, l])?;
            let y = rs(&col2im_raw(&cols, [oh, ow], &twin)?, &out_shape)?;
            match b {
                Some(b) => { let mut bs = vec![1usize; out_shape.len()]; bs[1] = oc; add(&y, &rs(b, &bs)?) }
                None => Ok(y),
            }
        })?;
        let out = fresh(&out)?;
        let mut ins: Vec<&Tensor> = vec![x, w];
        if let Some(b) = b { ins.push(b); }
        let has_b = b.is_some();
        let (xs2, ws2) = (xs.clone(), ws.clone());
        // the adjoint of the forward: dx = W im2col(g), dW = sum_n x im2col(g)ᵀ
        record("ConvolutionBackward0", &ins, &[&out], &[Save::In(x), Save::In(w)], move |s, gr, need| {
            let g4 = rs(&gr[0], &[n, oc, oh, ow])?;
            let cols = rs(&im2col(&g4, twin)?, &[n, g, kk, l])?;
            let gx = if need[0] {
                let wm = rs(&s.get(1)?, &[g, cig, kk])?;
                Some(rs(&matmul(&wm, &cols)?, &xs2)?)
            } else { None };
            let gw = if need[1] {
                let xv = rs(&s.get(0)?, &[n, g, cig, l])?;
                let p = sum_dims(&matmul(&xv, &transpose(&cols, 2, 3)?)?, &[0], false, None)?;
                Some(rs(&p, &ws2)?)
            } else { None };
            let mut v = vec![gx, gw];
            if has_b {
                let dims: Vec<usize> = (0..gr[0].dim()).filter(|&d| d != 1).collect();
                v.push(if need[2] { Some(sum_dims(&gr[0], &dims, false, None)?) } else { None });
            }
            Ok(v)
        })?;
        Ok(out)
    }
}

// ---------------------------------------------------------------------------------------
// pooling
// ---------------------------------------------------------------------------------------

fn pool_out(inp: usize, k: usize, pad: usize, stride: usize, dil: usize, ceil: bool) -> i64 {
    let (inp, k, pad, stride, dil) = (inp as i64, k as i64, pad as i64, stride as i64, dil as i64);
    let num = inp + 2 * pad - dil * (k - 1) - 1 + if ceil { stride - 1 } else { 0 };
    let mut out = num.div_euclid(stride) + 1;
    if ceil && (out - 1) * stride >= inp + pad {
        out -= 1;
    }
    out
}

fn pool_check(x: &Tensor, name: &str, k: [usize; 2], s: [usize; 2], p: [usize; 2], d: [usize; 2], ceil: bool) -> Result<(usize, usize, usize, usize, [usize; 2])> {
    let xs = x.shape();
    ensure!(xs.len() == 3 || xs.len() == 4, Runtime, "non-empty 3D or 4D (batch mode) tensor expected for input");
    ensure!(k[0] > 0 && k[1] > 0, Runtime, "kernel size should be greater than zero, but got kH: {} kW: {}", k[0], k[1]);
    ensure!(s[0] > 0 && s[1] > 0, Runtime, "stride should be greater than zero, but got dH: {} dW: {}", s[0], s[1]);
    ensure!(d[0] > 0 && d[1] > 0, Runtime, "dilation should be greater than zero, but got dilationH: {} dilationW: {}", d[0], d[1]);
    for i in 0..2 {
        if p[i] > ((k[i] - 1) * d[i] + 1) / 2 {
            if name == "avg" {
                bail!(Runtime, "pad should be at most half of effective kernel size, but got pad={}, kernel_size={} and dilation={}", p[i], k[i], d[i]);
            }
            bail!(Runtime, "pad should be at most half of effective kernel size, but got pad={}, kernel_size={} and dilation={}", p[i], k[i], d[i]);
        }
    }
    let (nb, c, h, w) = if xs.len() == 4 { (xs[0], xs[1], xs[2], xs[3]) } else { (1, xs[0], xs[1], xs[2]) };
    let oh = pool_out(h, k[0], p[0], s[0], d[0], ceil);
    let ow = pool_out(w, k[1], p[1], s[1], d[1], ceil);
    if oh < 1 || ow < 1 {
        bail!(Runtime, "Given input size: ({}x{}x{}). Calculated output size: ({}x{}x{}). Output size is too small", c, h, w, c, oh, ow);
    }
    Ok((nb, c, h, w, [oh as usize, ow as usize]))
}

/// The window over (n*c, 1, h, w) reaching exactly `out` positions.
fn pool_window(h: usize, w: usize, k: [usize; 2], s: [usize; 2], p: [usize; 2], d: [usize; 2], out: [usize; 2]) -> Window2d {
    let need = |o: usize, i: usize| ((o - 1) * s[i] + d[i] * (k[i] - 1) + 1) as i64;
    let bottom = need(out[0], 0) - h as i64 - p[0] as i64;
    let right = need(out[1], 1) - w as i64 - p[1] as i64;
    Window2d { kernel: k, stride: s, dilation: d, pad: [p[0] as i64, bottom, p[1] as i64, right] }
}

/// `max_pool2d_with_indices` (MaxPool2DWithIndicesBackward0): (values, flat int64 indices).
/// A stride of None is the kernel size (ATen's empty `stride`, kept so in `_saved_stride`).
pub fn max_pool2d(x: &Tensor, k: [usize; 2], stride: Option<[usize; 2]>, p: [usize; 2], d: [usize; 2], ceil: bool) -> Result<(Tensor, Tensor)> {
    let s = stride.unwrap_or(k);
    let (nb, c, h, w, [oh, ow]) = pool_check(x, "max", k, s, p, d, ceil)?;
    let xs = x.shape();
    let win = pool_window(h, w, k, s, p, d, [oh, ow]);
    let (kk, l, nc) = (win.ksize(), oh * ow, nb * c);
    let mut oshape: Vec<usize> = xs[..xs.len() - 2].to_vec();
    oshape.push(oh);
    oshape.push(ow);
    let pool = backend::Pool2d { kernel: k, stride: s, pad: p, dilation: d };
    // one pass over the input where the backend has a pooling kernel; else the windows as
    // im2col columns and their max
    let fast = no_grad(|| backend::max_pool2d(&contiguous(&x.detach())?, nc, [h, w], &pool, [oh, ow], &oshape))?;
    let (out, idx) = if let Some(r) = fast { r } else { no_grad(|| {
        let (cols, _) = im2col_raw(&rs(x, &[nc, 1, h, w])?, &win, f64::NEG_INFINITY)?;
        let (vals, arg) = super::max_dim(&cols, 1, false, true)?; // (nc, l)
        // flat input index of every (window element, position)
        let mut table = Vec::with_capacity(kk * l);
        for j in 0..kk {
            let (ki, kj) = (j / k[1], j % k[1]);
            for o in 0..l {
                let (oi, oj) = (o / ow, o % ow);
                let hh = (oi * s[0] + ki * d[0]) as i64 - p[0] as i64;
                let ww = (oj * s[1] + kj * d[1]) as i64 - p[1] as i64;
                table.push(if hh >= 0 && ww >= 0 && (hh as usize) < h && (ww as usize) < w { hh * w as i64 + ww } else { -1 });
            }
        }
        let table = host(table, x.device())?;
        let pos = host((0..l as i64).collect(), x.device())?;
        let offs = binary_raw(&binary_raw(&arg, &sci(l as i64), BinOp::Mul)?, &pos, BinOp::Add)?;
        let idx = backend::take(&table, &offs, &[nc, l])?;
        Ok((rs(&vals, &oshape)?, rs(&idx, &oshape)?))
    })? };
    let out = fresh(&out)?;
    record_index_pool("MaxPool2DWithIndicesBackward0", x, &out, &idx, nc, h * w)?;
    Node::annotate_with(&out, &[(1, "result1")], || pool_fields(k, stride, p, Some(d), ceil));
    Ok((out, idx))
}

/// The `_saved_*` numbers of a 2-d pooling node (the stride as given: empty for None).
fn pool_fields<const N: usize>(k: [usize; N], stride: Option<[usize; N]>, p: [usize; N], d: Option<[usize; N]>, ceil: bool) -> Vec<(&'static str, SavedValue)> {
    let ints = |v: [usize; N]| SavedValue::Ints(v.iter().map(|&e| e as i64).collect());
    let mut v = vec![("kernel_size", ints(k)), ("stride", stride.map_or(SavedValue::Ints(Vec::new()), ints)), ("padding", ints(p)), ("ceil_mode", SavedValue::Bool(ceil))];
    if let Some(d) = d {
        v.push(("dilation", ints(d)));
    }
    v
}

/// `avg_pool2d` (AvgPool2DBackward0).
#[allow(clippy::too_many_arguments)]
pub fn avg_pool2d(x: &Tensor, k: [usize; 2], stride: Option<[usize; 2]>, p: [usize; 2], ceil: bool, count_include_pad: bool, divisor_override: Option<i64>) -> Result<Tensor> {
    let s = stride.unwrap_or(k);
    let (nb, c, h, w, [oh, ow]) = pool_check(x, "avg", k, s, p, [1, 1], ceil)?;
    if let Some(dv) = divisor_override {
        ensure!(dv != 0, Runtime, "divisor must be not zero");
    }
    let xs = x.shape();
    let win = pool_window(h, w, k, s, p, [1, 1], [oh, ow]);
    let (kk, l, nc) = (win.ksize(), oh * ow, nb * c);
    let mut oshape: Vec<usize> = xs[..xs.len() - 2].to_vec();
    oshape.push(oh);
    oshape.push(ow);
    let mut divs = Vec::with_capacity(l);
    for oi in 0..oh {
        for oj in 0..ow {
            let hs = (oi * s[0]) as i64 - p[0] as i64;
            let ws = (oj * s[1]) as i64 - p[1] as i64;
            let he = (hs + k[0] as i64).min((h + p[0]) as i64);
            let we = (ws + k[1] as i64).min((w + p[1]) as i64);
            let pool = (he - hs) * (we - ws);
            let (hs2, ws2, he2, we2) = (hs.max(0), ws.max(0), he.min(h as i64), we.min(w as i64));
            let dv = match divisor_override {
                Some(d) => d,
                None if count_include_pad => pool,
                None => (he2 - hs2) * (we2 - ws2),
            };
            divs.push(dv as f64);
        }
    }
    let div_t = hostf(&divs, &[1, 1, l], x.dtype(), x.device())?;
    let out = no_grad(|| {
        let (cols, _) = im2col_raw(&rs(x, &[nc, 1, h, w])?, &win, 0.0)?;
        let sm = sum_dims(&cols, &[1], true, None)?;
        rs(&div(&sm, &div_t)?, &oshape)
    })?;
    let out = fresh(&out)?;
    let xs2 = xs.clone();
    // dx: g / divisor spread back over each window
    record("AvgPool2DBackward0", &[x], &[&out], &[Save::In(x)], move |_, g, _| {
        let gg = div(&rs(&g[0], &[nc, 1, l])?, &div_t)?;
        let gg = expand(&gg, &[nc as i64, kk as i64, l as i64])?;
        Ok(vec![Some(rs(&col2im(&gg, [h, w], win)?, &xs2)?)])
    })?;
    Node::annotate_with(&out, &[], || {
        let mut v = pool_fields(k, stride, p, None, ceil);
        v.push(("count_include_pad", SavedValue::Bool(count_include_pad)));
        v.push(("divisor_override", divisor_override.map_or(SavedValue::None, SavedValue::Int)));
        v
    });
    Ok(out)
}

/// Records `name` for a max-type pooling of `x` (planes of `plane` elements) whose output
/// `out` took each value from the in-plane index `idx` (derivatives.yaml saves self and the
/// indices, result1): dx is the output gradient added at those indices.
fn record_index_pool(name: &'static str, x: &Tensor, out: &Tensor, idx: &Tensor, planes: usize, plane: usize) -> Result<()> {
    let ind = idx.clone();
    let xs = x.shape();
    let l = out.numel() / planes.max(1);
    record(name, &[x], &[out], &[Save::In(x), Save::In(idx)], move |_, g, _| {
        if !crate::autograd::needs_record(&[&g[0]]) {
            // the backend's scatter-add kernel (the put below is the differentiable form)
            let gc = contiguous(&g[0])?;
            if let Some(gx) = backend::max_pool2d_backward(&gc, &contiguous(&ind)?, planes, plane, &xs)? {
                return Ok(vec![Some(gx)]);
            }
        }
        let rows = rs(&host((0..planes as i64).map(|r| r * plane as i64).collect(), ind.device())?, &[planes, 1])?;
        let offs = rs(&binary_raw(&rs(&ind, &[planes, l])?, &rows, BinOp::Add)?, &[planes * l])?;
        let gx = put_add(&rs(&contiguous(&g[0])?, &[planes * l])?, &offs, &[planes * plane])?;
        Ok(vec![Some(rs(&gx, &xs)?)])
    })
}

/// Checks a 3-d pooling (PyTorch's messages) of a 4-d or 5-d `x`: (planes, input size,
/// output size) over the last three dims.
fn pool3d_geometry(x: &Tensor, k: [usize; 3], s: [usize; 3], p: [usize; 3], d: [usize; 3], ceil: bool) -> Result<(usize, [usize; 3], [usize; 3])> {
    let xs = x.shape();
    let n = xs.len();
    ensure!((n == 4 || n == 5) && xs[1..].iter().all(|&v| v > 0), Runtime, "non-empty 4D or 5D (batch mode) tensor expected for input");
    ensure!(k.iter().all(|&v| v > 0), Runtime, "kernel size should be greater than zero, but got kT: {} kH: {} kW: {}", k[0], k[1], k[2]);
    ensure!(s.iter().all(|&v| v > 0), Runtime, "stride should be greater than zero, but got dT: {} dH: {} dW: {}", s[0], s[1], s[2]);
    ensure!(d.iter().all(|&v| v > 0), Runtime, "dilation should be greater than zero, but got dilationT: {} dilationH: {} dilationW: {}", d[0], d[1], d[2]);
    for i in 0..3 {
        ensure!(p[i] <= ((k[i] - 1) * d[i] + 1) / 2, Runtime, "pad should be at most half of effective kernel size, but got pad={}, kernel_size={} and dilation={}", p[i], k[i], d[i]);
    }
    let size = [xs[n - 3], xs[n - 2], xs[n - 1]];
    let o: Vec<i64> = (0..3).map(|i| pool_out(size[i], k[i], p[i], s[i], d[i], ceil)).collect();
    if o.iter().any(|&v| v < 1) {
        let c = xs[n - 4];
        bail!(Runtime, "Given input size: ({}x{}x{}x{}). Calculated output size: ({}x{}x{}x{}). Output size is too small", c, size[0], size[1], size[2], c, o[0], o[1], o[2]);
    }
    Ok((xs[..n - 3].iter().product(), size, [o[0] as usize, o[1] as usize, o[2] as usize]))
}

/// Every tap of every window of plane `p` as a flat in-plane index, `w.plane()` (one past
/// the plane: the pad slot) where the tap falls outside: (positions × taps) in order.
fn window_table(w: &backend::PoolWindows, p: usize) -> Vec<i64> {
    let n_in = w.plane() as i64;
    let [kd, kh, kw] = w.kernel;
    let tap = |a: usize, o: usize, t: usize| {
        let s = if w.per_plane { w.starts[a][p * w.out[a] + o] } else { w.starts[a][o] };
        let v = s + (t * w.dilation[a]) as i64;
        (v >= 0 && v < w.size[a] as i64).then_some(v)
    };
    let mut v = Vec::with_capacity(w.positions() * kd * kh * kw);
    for a in 0..w.out[0] {
        for b in 0..w.out[1] {
            for c in 0..w.out[2] {
                for i in 0..kd {
                    for j in 0..kh {
                        for k in 0..kw {
                            v.push(match (tap(0, a, i), tap(1, b, j), tap(2, c, k)) {
                                (Some(t), Some(h), Some(x)) => (t * w.size[1] as i64 + h) * w.size[2] as i64 + x,
                                _ => n_in,
                            });
                        }
                    }
                }
            }
        }
    }
    v
}

/// The offsets into (planes, plane + 1) (each plane padded by one slot) of every window tap:
/// (planes, positions, taps).
fn window_offsets(w: &backend::PoolWindows, planes: usize) -> Vec<i64> {
    let stride = (w.plane() + 1) as i64;
    let shared = (!w.per_plane).then(|| window_table(w, 0));
    let mut offs = Vec::new();
    for p in 0..planes {
        let own;
        let t = match &shared {
            Some(t) => t,
            None => {
                own = window_table(w, p);
                &own
            }
        };
        offs.extend(t.iter().map(|&i| p as i64 * stride + i));
    }
    offs
}

/// Max pooling of `x` ((planes, d, h, w) contiguous elements) over `w`'s windows: (values,
/// in-plane indices) shaped `oshape` — the backend's kernel, or the windows gathered from a
/// -inf-padded copy and their first maximum (any device and dtype).
fn max_pool_over(x: &Tensor, planes: usize, w: &backend::PoolWindows, oshape: &[usize]) -> Result<(Tensor, Tensor)> {
    no_grad(|| {
        let xc = contiguous(&x.detach())?;
        if let Some(r) = backend::max_pool_windows(&xc, planes, w, oshape)? {
            return Ok(r);
        }
        let (n_in, l) = (w.plane(), w.positions());
        let taps: usize = w.kernel.iter().product();
        let padded = pad_raw(&rs(&xc, &[planes, n_in])?, &[(0, 1)], f64::NEG_INFINITY)?;
        let offs = window_offsets(w, planes);
        let win = backend::take(&padded, &host(offs.clone(), x.device())?, &[planes, l, taps])?;
        let (v, arg) = super::max_dim(&win, 2, false, true)?;
        // the chosen tap's offset, less its plane's start: the in-plane index
        let pos = host((0..(planes * l) as i64).map(|o| o * taps as i64).collect(), x.device())?;
        let at = backend::take(&host(offs, x.device())?, &binary_raw(&rs(&arg, &[planes * l])?, &pos, BinOp::Add)?, &[planes, l])?;
        let starts = rs(&host((0..planes as i64).map(|p| p * (n_in + 1) as i64).collect(), x.device())?, &[planes, 1])?;
        let idx = binary_raw(&at, &starts, BinOp::Sub)?;
        Ok((rs(&v, oshape)?, rs(&idx, oshape)?))
    })
}

/// `max_pool3d_with_indices` (MaxPool3DWithIndicesBackward0) of a 4-d or 5-d `x`: (values,
/// int64 indices flat over each (d, h, w) plane). A stride of None is the kernel size (kept
/// empty in `_saved_stride`, as ATen).
pub fn max_pool3d(x: &Tensor, k: [usize; 3], stride: Option<[usize; 3]>, p: [usize; 3], d: [usize; 3], ceil: bool) -> Result<(Tensor, Tensor)> {
    let s = stride.unwrap_or(k);
    let (planes, size, out) = pool3d_geometry(x, k, s, p, d, ceil)?;
    ensure!(!x.dtype().is_complex() && x.dtype() != DType::Bool, NotImplemented, "\"max_pool3d\" not implemented for '{}'", x.dtype().scalar_name());
    let xs = x.shape();
    let mut oshape = xs[..xs.len() - 3].to_vec();
    oshape.extend(out);
    let w = backend::PoolWindows::regular(size, out, k, s, p, d);
    let (vals, idx) = max_pool_over(x, planes, &w, &oshape)?;
    let vals = fresh(&vals)?;
    record_index_pool("MaxPool3DWithIndicesBackward0", x, &vals, &idx, planes, w.plane())?;
    Node::annotate_with(&vals, &[(1, "result1")], || pool_fields(k, stride, p, Some(d), ceil));
    Ok((vals, idx))
}

/// Average pooling's divisor of each output position (ATen's rule: the window clipped to the
/// padded input, or to the input without `count_include_pad`, or the override).
fn avg_divisors(w: &backend::PoolWindows, p: [usize; 3], count_include_pad: bool, divisor_override: Option<i64>) -> Vec<f64> {
    let extent = |a: usize, o: usize| {
        let s = w.starts[a][o];
        let e = (s + w.kernel[a] as i64).min((w.size[a] + p[a]) as i64);
        let (s2, e2) = (s.max(0), e.min(w.size[a] as i64));
        (e - s, e2 - s2)
    };
    let mut v = Vec::with_capacity(w.positions());
    for a in 0..w.out[0] {
        for b in 0..w.out[1] {
            for c in 0..w.out[2] {
                let (pa, ca) = extent(0, a);
                let (pb, cb) = extent(1, b);
                let (pc, cc) = extent(2, c);
                v.push(match divisor_override {
                    Some(d) => d as f64,
                    None if count_include_pad => (pa * pb * pc) as f64,
                    None => (ca * cb * cc) as f64,
                });
            }
        }
    }
    v
}

/// The input gradient of an average pooling from its output gradient `g`: the backend's
/// kernel when no graph is recorded, else `g / divisor` put back over the windows
/// (differentiable in `g`).
fn avg_pool_grad(g: &Tensor, planes: usize, w: &backend::PoolWindows, divs: &[f64], xs: &[usize]) -> Result<Tensor> {
    if !crate::autograd::needs_record(&[g]) {
        if let Some(gx) = backend::avg_pool_windows(&contiguous(g)?, planes, w, divs, true, xs)? {
            return Ok(gx);
        }
    }
    let (n_in, l) = (w.plane(), w.positions());
    let taps: usize = w.kernel.iter().product();
    let dv = hostf(divs, &[1, l, 1], g.dtype(), g.device())?;
    let each = expand(&div(&rs(g, &[planes, l, 1])?, &dv)?, &[planes as i64, l as i64, taps as i64])?;
    let offs = host(window_offsets(w, planes), g.device())?;
    let gx = put_add(&rs(&contiguous(&each)?, &[planes * l * taps])?, &offs, &[planes * (n_in + 1)])?;
    let gx = super::narrow(&rs(&gx, &[planes, n_in + 1])?, 1, 0, n_in as i64)?;
    rs(&contiguous(&gx)?, xs)
}

/// `avg_pool3d` (AvgPool3DBackward0) of a 4-d or 5-d `x`.
#[allow(clippy::too_many_arguments)]
pub fn avg_pool3d(x: &Tensor, k: [usize; 3], stride: Option<[usize; 3]>, p: [usize; 3], ceil: bool, count_include_pad: bool, divisor_override: Option<i64>) -> Result<Tensor> {
    let s = stride.unwrap_or(k);
    let (planes, size, out) = pool3d_geometry(x, k, s, p, [1, 1, 1], ceil)?;
    if let Some(dv) = divisor_override {
        ensure!(dv != 0, Runtime, "divisor must be not zero");
    }
    // ATen's kernel: float32, float64 and int64 (integer sums divided towards zero)
    ensure!(matches!(x.dtype(), DType::Float32 | DType::Float64 | DType::Int64), NotImplemented, "\"avg_pool3d_out_frame\" not implemented for '{}'", x.dtype().scalar_name());
    let xs = x.shape();
    let mut oshape = xs[..xs.len() - 3].to_vec();
    oshape.extend(out);
    let w = backend::PoolWindows::regular(size, out, k, s, p, [1, 1, 1]);
    let divs = avg_divisors(&w, p, count_include_pad, divisor_override);
    let y = no_grad(|| {
        let xc = contiguous(&x.detach())?;
        if let Some(y) = backend::avg_pool_windows(&xc, planes, &w, &divs, false, &oshape)? {
            return Ok(y);
        }
        let (n_in, l) = (w.plane(), w.positions());
        let taps: usize = k.iter().product();
        let padded = pad_raw(&rs(&xc, &[planes, n_in])?, &[(0, 1)], 0.0)?;
        let win = backend::take(&padded, &host(window_offsets(&w, planes), x.device())?, &[planes, l, taps])?;
        let sm = sum_dims(&win, &[2], false, None)?;
        let dv = hostf(&divs, &[1, l], x.dtype(), x.device())?;
        rs(&if x.dtype().is_float() { div(&sm, &dv)? } else { super::div_trunc(&sm, &dv)? }, &oshape)
    })?;
    let y = fresh(&y)?;
    let xs2 = xs.clone();
    // dx: g / divisor spread over each window
    record("AvgPool3DBackward0", &[x], &[&y], &[Save::In(x)], move |_, g, _| Ok(vec![Some(avg_pool_grad(&g[0], planes, &w, &divs, &xs2)?)]))?;
    Node::annotate_with(&y, &[], || {
        let mut v = pool_fields(k, stride, p, None, ceil);
        v.push(("count_include_pad", SavedValue::Bool(count_include_pad)));
        v.push(("divisor_override", divisor_override.map_or(SavedValue::None, SavedValue::Int)));
        v
    });
    Ok(y)
}

/// ATen's `generate_intervals`: the window starts of fractional pooling along one dim from
/// the plane's sample `u` in [0, 1), computed in float32 for float32 input (rounding after
/// each operation, as ATen's `scalar_t` arithmetic) and in double otherwise.
fn fractional_starts(u: f64, size: usize, out: usize, k: usize, single: bool) -> Vec<i64> {
    let mut v = vec![0i64; out];
    if out > 1 {
        if single {
            let (u, alpha) = (u as f32, (size - k) as f32 / (out - 1) as f32);
            for (i, s) in v.iter_mut().enumerate().take(out - 1) {
                *s = ((i as f32 + u) * alpha) as i64 - (u * alpha) as i64;
            }
        } else {
            let alpha = (size - k) as f64 / (out - 1) as f64;
            for (i, s) in v.iter_mut().enumerate().take(out - 1) {
                *s = ((i as f64 + u) * alpha) as i64 - (u * alpha) as i64;
            }
        }
    }
    if out > 0 {
        v[out - 1] = (size - k) as i64;
    }
    v
}

/// `fractional_max_pool2d` / `3d` (FractionalMaxPool2DBackward0 / 3D) of `x` ((C, *spatial)
/// or (N, C, *spatial), `kernel.len()` = 2 or 3 spatial dims) with the planes' samples
/// (N, C, dims) in [0, 1): (values, int64 indices flat over each plane).
pub fn fractional_max_pool(x: &Tensor, kernel: &[usize], out: &[usize], samples: &Tensor) -> Result<(Tensor, Tensor)> {
    let nd = kernel.len();
    ensure!((nd == 2 || nd == 3) && out.len() == nd, Runtime, "fractional_max_pool: kernel_size and output_size must have 2 or 3 entries each");
    // ATen's messages name the 3-d kernel `fractional_max_pool3d_out`
    let name = if nd == 2 { "fractional_max_pool2d" } else { "fractional_max_pool3d_out" };
    let xs = x.shape();
    ensure!(xs.len() == nd + 1 || xs.len() == nd + 2, Runtime, "{}(): Expected {}D or {}D tensor, but got: {}", name, nd + 1, nd + 2, crate::shape::fmt_list(&xs));
    ensure!(xs[1..].iter().all(|&v| v > 0), Runtime, "{}(): Expected input to have non-zero size for non-batch dimensions, but got{} with dimension {} being empty.", name,
        crate::shape::fmt_list(&xs), xs[1..].iter().position(|&v| v == 0).map_or(0, |i| i + 1));
    ensure!(!x.dtype().is_complex() && x.dtype() != DType::Bool, NotImplemented, "\"{}\" not implemented for '{}'", name, x.dtype().scalar_name());
    let sp = &xs[xs.len() - nd..];
    let words = ["time", "height", "width"];
    for a in 0..nd {
        // ATen: the 2-d windows may reach the last element, the 3-d ones stop before it
        ensure!(if nd == 2 { out[a] + kernel[a] - 1 <= sp[a] } else { out[a] + kernel[a] - 1 < sp[a] }, Runtime, "{}(): pool {} {} too large relative to input {} {}", name, words[3 - nd + a], kernel[a], words[3 - nd + a], sp[a]);
    }
    let (n, c) = if xs.len() == nd + 2 { (xs[0], xs[1]) } else { (1, xs[0]) };
    let planes = n * c;
    // ATen's checks (a larger first dim is allowed: the leading rows are used)
    let ss = samples.shape();
    ensure!(samples.dtype() == x.dtype(), Runtime, "Expect _random_samples to have the same dtype as input");
    ensure!(ss.len() == 3, Runtime, "Expect _random_samples to have 3 dimensions, got {}", ss.len());
    ensure!(ss[0] >= n, Runtime, "Expect _random_samples.size(0) no less then input batch size.");
    ensure!(ss[1] == c, Runtime, "Expect _random_samples.size(1) equals to input channel size.");
    ensure!(ss[2] == nd, Runtime, "Expect _random_samples.size(2) equals to {}; got {}.", nd, ss[2]);
    let u = samples.to_f64_vec()?;
    let single = x.dtype() == DType::Float32;
    // as (planes, d, h, w): a 2-d pooling is depth 1; ATen's 2-d sample 0 is the width's
    let (size, outs, ks) = if nd == 3 { ([sp[0], sp[1], sp[2]], [out[0], out[1], out[2]], [kernel[0], kernel[1], kernel[2]]) }
                           else { ([1, sp[0], sp[1]], [1, out[0], out[1]], [1, kernel[0], kernel[1]]) };
    let sample_of = |a: usize| if nd == 3 { a } else { 2 - a };
    let starts: [Vec<i64>; 3] = std::array::from_fn(|a| {
        if nd == 2 && a == 0 {
            return vec![0; planes];
        }
        (0..planes).flat_map(|p| fractional_starts(u[p * nd + sample_of(a)], size[a], outs[a], ks[a], single)).collect()
    });
    let w = backend::PoolWindows { size, out: outs, kernel: ks, dilation: [1, 1, 1], starts, per_plane: true };
    let mut oshape = xs[..xs.len() - nd].to_vec();
    oshape.extend_from_slice(out);
    let (vals, idx) = max_pool_over(x, planes, &w, &oshape)?;
    let vals = fresh(&vals)?;
    record_index_pool(if nd == 2 { "FractionalMaxPool2DBackward0" } else { "FractionalMaxPool3DBackward0" }, x, &vals, &idx, planes, w.plane())?;
    let ints = |v: &[usize]| SavedValue::Ints(v.iter().map(|&e| e as i64).collect());
    let (kf, of) = (ints(kernel), ints(out));
    Node::annotate_with(&vals, &[(1, "result1")], move || vec![("kernel_size", kf), ("output_size", of)]);
    Ok((vals, idx))
}

fn adaptive_ranges(inp: usize, out: usize) -> Vec<(usize, usize)> {
    (0..out).map(|i| ((i * inp) / out, ((i + 1) * inp).div_ceil(out))).collect()
}

/// `adaptive_avg_pool2d` (AdaptiveAvgPool2DBackward0): out = (Ih x Iwᵀ) / counts.
pub fn adaptive_avg_pool2d(x: &Tensor, out: [usize; 2]) -> Result<Tensor> {
    let xs = x.shape();
    ensure!(xs.len() == 3 || xs.len() == 4, Runtime, "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {}", crate::shape::fmt_list(&xs));
    for (i, &d) in xs.iter().enumerate().skip(1) {
        ensure!(d > 0, Runtime, "adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes {} with dimension {} being empty", crate::shape::fmt_list(&xs), i);
    }
    ensure!(x.dtype().is_float(), NotImplemented, "\"adaptive_avg_pool2d\" not implemented for '{}'", x.dtype().scalar_name());
    let nd = xs.len();
    let (h, w) = (xs[nd - 2], xs[nd - 1]);
    let (rh, rw) = (adaptive_ranges(h, out[0]), adaptive_ranges(w, out[1]));
    let ind = |r: &[(usize, usize)], n: usize| {
        let mut v = vec![0.0; r.len() * n];
        for (i, &(a, b)) in r.iter().enumerate() {
            for j in a..b { v[i * n + j] = 1.0; }
        }
        v
    };
    let dt = x.dtype();
    let ih = hostf(&ind(&rh, h), &[out[0], h], dt, x.device())?;
    let iwt = t(&hostf(&ind(&rw, w), &[out[1], w], dt, x.device())?)?;
    let cnt: Vec<f64> = rh.iter().flat_map(|&(a, b)| rw.iter().map(move |&(c, d)| ((b - a) * (d - c)) as f64)).collect();
    let cnt = hostf(&cnt, &[out[0], out[1]], dt, x.device())?;
    let y = no_grad(|| div(&matmul(&matmul(&ih, x)?, &iwt)?, &cnt))?;
    let y = fresh(&y)?;
    record("AdaptiveAvgPool2DBackward0", &[x], &[&y], &[Save::In(x)], move |_, g, _| {
        let gg = div(&g[0], &cnt)?;
        Ok(vec![Some(matmul(&matmul(&t(&ih)?, &gg)?, &t(&iwt)?)?)])
    })?;
    Ok(y)
}

// ---------------------------------------------------------------------------------------
// normalisation
// ---------------------------------------------------------------------------------------

/// (x - mean) and 1/sqrt(var + eps) over `dims` (keepdim), with differentiable ops.
fn stats(x: &Tensor, dims: &[usize], eps: f64) -> Result<(Tensor, Tensor)> {
    let m = mean(x, Some(dims), true, None)?;
    let xc = sub(x, &m)?;
    let var = mean(&mul(&xc, &xc)?, Some(dims), true, None)?;
    let rstd = div(&sc(1.0), &sqrt(&add(&var, &sc(eps))?)?)?;
    Ok((xc, rstd))
}

/// The input gradient of `xhat = (x - mean) * rstd` over `dims`, given `gxhat`.
fn norm_backward(x: &Tensor, gxhat: &Tensor, dims: &[usize], eps: f64) -> Result<Tensor> {
    let (xc, rstd) = stats(x, dims, eps)?;
    let xhat = mul(&xc, &rstd)?;
    let m1 = mean(gxhat, Some(dims), true, None)?;
    let m2 = mean(&mul(gxhat, &xhat)?, Some(dims), true, None)?;
    mul(&rstd, &sub(&sub(gxhat, &m1)?, &mul(&xhat, &m2)?)?)
}

fn channel_shape(nd: usize, c: usize) -> Vec<usize> {
    let mut v = vec![1; nd];
    if nd > 1 { v[1] = c; } else { v[0] = c; }
    v
}

/// `batch_norm` (NativeBatchNormBackward0); updates the running stats in place in training.
#[allow(clippy::too_many_arguments)]
pub fn batch_norm(x: &Tensor, w: Option<&Tensor>, b: Option<&Tensor>, rm: Option<&Tensor>, rv: Option<&Tensor>, training: bool, momentum: f64, eps: f64) -> Result<Tensor> {
    let xs = x.shape();
    ensure!(xs.len() >= 2, Runtime, "batch_norm: expected input of at least 2 dimensions, got {}", xs.len());
    let c = xs[1];
    let nd = xs.len();
    let dims: Vec<usize> = (0..nd).filter(|&d| d != 1).collect();
    let cs = channel_shape(nd, c);
    for (nm, t) in [("running_mean", rm), ("running_var", rv), ("weight", w), ("bias", b)] {
        if let Some(t) = t {
            ensure!(t.numel() == c, Runtime, "{} should contain {} elements not {}", nm, c, t.numel());
        }
    }
    let count = x.numel() / c.max(1);
    let ncs = (xs[0], c, count / xs[0].max(1));
    // float16/bfloat16: statistics and output in float32, rounded once (ATen's kernels)
    let half = x.dtype().is_half();
    // a float32 statistic rounded to the input's dtype and back (the value ATen computes with)
    let xdt = x.dtype();
    let round_half = |t: &Tensor| -> Result<Tensor> { cast_raw(&cast_raw(t, xdt)?, DType::Float32) };
    let wide = |t: Option<&Tensor>| -> Result<Option<Tensor>> {
        t.map(|t| no_grad(|| if half { super::cast_raw(&t.detach(), DType::Float32) } else { Ok(t.detach()) })).transpose()
    };
    let (x_in, w_in, b_in) = (x, w, b);
    let (xw, ww, bw) = (wide(Some(x))?.expect("x"), wide(w)?, wide(b)?);
    let (x, w, b) = (&xw, ww.as_ref(), bw.as_ref());
    let (mean_t, invstd) = if training {
        no_grad(|| {
            // the backend's per-channel statistics where it has them (one kernel, no
            // centred copy), else mean and variance by tensor ops
            let fused = if x.numel() > 0 { backend::channel_stats(&contiguous(x)?, ncs)? } else { None };
            let (m, var) = match fused {
                Some((m, v)) => (rs(&m, &cs)?, rs(&v, &cs)?),
                None => {
                    let m = mean(x, Some(&dims), true, None)?;
                    let xc = sub(x, &m)?;
                    let var = mean(&mul(&xc, &xc)?, Some(&dims), true, None)?;
                    (m, var)
                }
            };
            // ATen keeps a half input's batch mean and variance in its dtype
            let (m, var) = if half { (round_half(&m)?, round_half(&var)?) } else { (m, var) };
            if let Some(rm) = rm {
                let nv = add(&mul(&rs(&m, &[c])?, &sc(momentum))?, &mul(&wide(Some(rm))?.expect("rm"), &sc(1.0 - momentum))?)?;
                write_into(rm, &nv)?;
                rm.bump_version();
            }
            if let Some(rv) = rv {
                let unb = mul(&rs(&var, &[c])?, &sc(count as f64 / (count as f64 - 1.0).max(0.0)))?;
                let nv = add(&mul(&unb, &sc(momentum))?, &mul(&wide(Some(rv))?.expect("rv"), &sc(1.0 - momentum))?)?;
                write_into(rv, &nv)?;
                rv.bump_version();
            }
            let invstd = div(&sc(1.0), &sqrt(&add(&var, &sc(eps))?)?)?;
            Ok((m, if half { round_half(&invstd)? } else { invstd }))
        })?
    } else {
        let (Some(rm), Some(rv)) = (rm, rv) else {
            bail!(Runtime, "running_mean and running_var must be defined in evaluation mode");
        };
        let (rm, rv) = (wide(Some(rm))?.expect("rm"), wide(Some(rv))?.expect("rv"));
        no_grad(|| {
            let invstd = div(&sc(1.0), &sqrt(&add(&rs(&rv, &cs)?, &sc(eps))?)?)?;
            Ok((rs(&rm, &cs)?, if half { round_half(&invstd)? } else { invstd }))
        })?
    };
    // y = x * alpha + beta with alpha = invstd * w, beta = b - mean * alpha (torch's CPU order)
    let out = no_grad(|| {
        let alpha = match w { Some(w) => mul(&invstd, &rs(w, &cs)?)?, None => invstd.clone() };
        let beta = match b { Some(b) => sub(&rs(b, &cs)?, &mul(&mean_t, &alpha)?)?, None => neg(&mul(&mean_t, &alpha)?)? };
        if alpha.dtype() == x.dtype() && beta.dtype() == x.dtype() {
            if let Some(y) = backend::channel_affine(&contiguous(x)?, ncs, &contiguous(&alpha)?, &contiguous(&beta)?)? {
                return Ok(y);
            }
        }
        add(&mul(x, &alpha)?, &beta)
    })?;
    let (x, w, b) = (x_in, w_in, b_in);
    let (out, mean_t, invstd) = if half {
        (cast_raw(&out, x.dtype())?, cast_raw(&mean_t, x.dtype())?, cast_raw(&invstd, x.dtype())?)
    } else { (out, mean_t, invstd) };
    let out = fresh(&out)?;
    let mut ins: Vec<&Tensor> = vec![x];
    let mut save = vec![Save::In(x)];
    let has_w = w.is_some();
    if let Some(w) = w { ins.push(w); save.push(Save::In(w)); }
    let has_b = b.is_some();
    if let Some(b) = b { ins.push(b); }
    let (mean_c, invstd_c) = (mean_t.detach(), invstd.detach());
    // derivatives.yaml's other saved fields, for `_saved_*` and the saved-tensor hooks:
    // running_mean, running_var, result1 (the batch mean), result2 (the inverse standard
    // deviation; both empty in evaluation mode); the formulas below do not read them
    let mut names: Vec<(usize, &'static str)> = vec![(0, "input")];
    let mut values = vec![("eps", SavedValue::Float(eps)), ("training", SavedValue::Bool(training))];
    let stats_saved = if crate::autograd::needs_record(&ins) {
        match w { Some(_) => names.push((1, "weight")), None => values.push(("weight", SavedValue::None)) }
        for (nm, t) in [("running_mean", rm), ("running_var", rv)] {
            match t {
                Some(t) => { names.push((save.len(), nm)); save.push(Save::In(t)); }
                None => values.push((nm, SavedValue::None)),
            }
        }
        Some(if training {
            (rs(&mean_c, &[c])?, rs(&invstd_c, &[c])?)
        } else {
            let e = crate::tensor::zeros_on(&[0], x.dtype(), x.device())?;
            (e.clone(), e)
        })
    } else { None };
    if let Some((r1, r2)) = &stats_saved {
        names.push((save.len(), "result1"));
        names.push((save.len() + 1, "result2"));
        save.push(Save::In(r1));
        save.push(Save::In(r2));
    }
    let spatial = count / xs[0].max(1);
    record("NativeBatchNormBackward0", &ins, &[&out], &save, move |s, g, need| {
        let x = s.get(0)?;
        let wt = if has_w { Some(s.get(1)?) } else { None };
        let mut hist: Vec<&Tensor> = vec![&g[0], &x];
        if let Some(w) = &wt { hist.push(w); }
        // first-order backward: the fused kernel; under create_graph the formulas below
        if !crate::autograd::needs_history(&hist) {
            let g0 = contiguous(&g[0])?;
            let want = [need[0], has_w && need[1], has_b && need[need.len() - 1]];
            if let Some((gx, gw, gb)) = backend::batch_norm_backward(&g0, &x, &mean_c, &invstd_c, wt.as_ref(), (xs[0], c, spatial), training, want)? {
                let mut v = vec![gx];
                if has_w { v.push(gw); }
                if has_b { v.push(gb); }
                return Ok(v);
            }
        }
        let w = if has_w { Some(rs(&s.get(1)?, &cs)?) } else { None };
        let gxhat = match &w { Some(w) => mul(&g[0], w)?, None => g[0].clone() };
        let gx = if need[0] {
            Some(if training { norm_backward(&x, &gxhat, &dims, eps)? } else { mul(&gxhat, &invstd_c)? })
        } else { None };
        let mut v = vec![gx];
        if has_w {
            v.push(if need[1] {
                let xhat = if training { let (xc, r) = stats(&x, &dims, eps)?; mul(&xc, &r)? } else { mul(&sub(&x, &mean_c)?, &invstd_c)? };
                Some(rs(&sum_dims(&mul(&g[0], &xhat)?, &dims, false, None)?, &[c])?)
            } else { None });
        }
        if has_b {
            let i = v.len();
            v.push(if need[i] { Some(sum_dims(&g[0], &dims, false, None)?) } else { None });
        }
        Ok(v)
    })?;
    if stats_saved.is_some() {
        Node::annotate(&out, &values, &names);
    }
    Ok(out)
}

/// Layer norm's backward as ATen's kernel computes a float16/bfloat16 row (in float32, with
/// the saved statistics): per row `ds = Σ dy·γ·x`, `db = Σ dy·γ`, `b = (db·μ - ds)·σ⁻³/n`,
/// `c = -b·μ - db·σ⁻¹/n`, `dx = σ⁻¹·dy·γ + b·x + c`; `dγ = Σ_rows dy·(x - μ)·σ⁻¹`,
/// `dβ = Σ_rows dy`. `g`, `x`: (rows, n); `mean`, `rstd`: (rows, 1); `w`: (1, n).
fn half_layer_norm_backward(g: &Tensor, x: &Tensor, mean_s: &Tensor, rstd_s: &Tensor, w: Option<&Tensor>) -> Result<(Tensor, Option<Tensor>, Option<Tensor>)> {
    let n = x.shape()[1] as f64;
    let dyg = match w { Some(w) => mul(g, w)?, None => g.clone() };
    let ds = sum_dims(&mul(&dyg, x)?, &[1], true, None)?;
    let db = sum_dims(&dyg, &[1], true, None)?;
    let a3 = mul(&mul(rstd_s, rstd_s)?, rstd_s)?;
    let bb = mul(&mul(&sub(&mul(&db, mean_s)?, &ds)?, &a3)?, &sc(1.0 / n))?;
    let cc = sub(&neg(&mul(&bb, mean_s)?)?, &mul(&mul(&db, rstd_s)?, &sc(1.0 / n))?)?;
    let gx = add(&add(&mul(rstd_s, &dyg)?, &mul(&bb, x)?)?, &cc)?;
    let gw = sum_dims(&mul(&mul(g, &sub(x, mean_s)?)?, rstd_s)?, &[0], false, None)?;
    let gb = sum_dims(g, &[0], false, None)?;
    Ok((gx, Some(gw), Some(gb)))
}

/// Shared by layer_norm and group_norm: rows of `rows` (m, r) normalised, then an affine
/// transform with `w`/`b` broadcast as `aff_shape`; the weight gradient sums over `wdims`.
/// Each row's mean and 1/sqrt(var + eps) are saved as `result1`/`result2`, shaped
/// `stat_shape` (PyTorch's `_saved_result1`/`_saved_result2`).
#[allow(clippy::too_many_arguments)]
fn row_norm(name: &'static str, x: &Tensor, rows: [usize; 2], w: Option<&Tensor>, b: Option<&Tensor>, aff_shape: Vec<usize>, wdims: Vec<usize>, eps: f64, stat_shape: &[usize]) -> Result<Tensor> {
    let xs = x.shape();
    // layer norm (the affine per column of the rows): the backend's fused kernels if it has them
    let fused = name == "NativeLayerNormBackward0";
    // float16/bfloat16 run in float32 and round once (ATen's kernels); the statistics are kept
    // in the parameters' float32 where they are float32 (PyTorch's mixed type), else rounded
    let half = x.dtype().is_half();
    let stat_dtype = if half && [w, b].iter().flatten().any(|p| p.dtype() == DType::Float32) { DType::Float32 } else { x.dtype() };
    let widen = |t: Option<&Tensor>| -> Result<Option<Tensor>> { t.map(|t| no_grad(|| widen_half(&t.detach()))).transpose() };
    let (xw, ww, bw) = if half { (widen(Some(x))?.expect("x"), widen(w)?, widen(b)?) } else { (x.clone(), w.cloned(), b.cloned()) };
    let (x_f, w_f, b_f) = (&xw, ww.as_ref(), bw.as_ref());
    let kernel = if fused { no_grad(|| backend::layer_norm_rows(x_f, rows[1], w_f, b_f, eps))? } else { None };
    let (out, mean_r, rstd_r) = if let Some(k) = kernel { Ok(k) } else { no_grad(|| {
        let (x, w, b) = (x_f, w_f, b_f);
        let x2 = rs(x, &rows)?;
        let mean_r = mean(&x2, Some(&[1]), true, None)?;
        let xc = sub(&x2, &mean_r)?;
        let var = mean(&mul(&xc, &xc)?, Some(&[1]), true, None)?;
        let rstd = div(&sc(1.0), &sqrt(&add(&var, &sc(eps))?)?)?;
        let y = rs(&mul(&xc, &rstd)?, &xs)?;
        let y = match w { Some(w) => mul(&y, &rs(w, &aff_shape)?)?, None => y };
        let y = match b { Some(b) => add(&y, &rs(b, &aff_shape)?)?, None => y };
        Ok((y, mean_r, rstd))
    }) }?;
    let (out, mean_r, rstd_r) = if half {
        (cast_raw(&out, x.dtype())?, cast_raw(&mean_r, stat_dtype)?, cast_raw(&rstd_r, stat_dtype)?)
    } else { (out, mean_r, rstd_r) };
    let out = fresh(&out)?;
    let mut ins: Vec<&Tensor> = vec![x];
    let mut save = vec![Save::In(x)];
    let has_w = w.is_some();
    if let Some(w) = w { ins.push(w); save.push(Save::In(w)); }
    let has_b = b.is_some();
    // layer norm saves the bias (derivatives.yaml), group norm does not; neither formula reads it
    if let Some(b) = b { ins.push(b); if fused { save.push(Save::In(b)); } }
    let stats_saved = if crate::autograd::needs_record(&ins) { Some((rs(&mean_r, stat_shape)?, rs(&rstd_r, stat_shape)?)) } else { None };
    let stat_slot = save.len();
    if let Some((r1, r2)) = &stats_saved {
        save.push(Save::In(r1));
        save.push(Save::In(r2));
    }
    let wshape = w.map(|w| w.shape());
    let bshape = b.map(|b| b.shape());
    let bdt = b.map(|b| b.dtype());
    record(name, &ins, &[&out], &save, move |s, g, need| {
        let x = s.get(0)?;
        if fused {
            let wt = if has_w { Some(s.get(1)?) } else { None };
            let want_w = has_w && need[1];
            let want_b = has_b && need[need.len() - 1];
            let mut hist: Vec<&Tensor> = vec![&g[0], &x];
            if let Some(w) = &wt { hist.push(w); }
            // first-order backward: the fused kernel; under create_graph the formulas below
            if !crate::autograd::needs_history(&hist) {
                let g0 = contiguous(&g[0])?;
                let grads = if x.dtype().is_half() {
                    // ATen's reduced-precision kernel: float32 arithmetic on the saved (rounded)
                    // statistics, each gradient rounded once
                    let f = |t: &Tensor| cast_raw(t, DType::Float32);
                    let (mean_s, rstd_s) = (f(&rs(&s.get(stat_slot)?, &[rows[0], 1])?)?, f(&rs(&s.get(stat_slot + 1)?, &[rows[0], 1])?)?);
                    let wf = wt.as_ref().map(|w| f(&rs(w, &[1, rows[1]])?)).transpose()?;
                    Some(half_layer_norm_backward(&f(&rs(&g0, &rows)?)?, &f(&rs(&x, &rows)?)?, &mean_s, &rstd_s, wf.as_ref())?)
                } else {
                    backend::layer_norm_rows_backward(&g0, &x, rows[1], wt.as_ref(), eps, want_w, want_b)?
                };
                if let Some((gx, gw, gb)) = grads {
                    let to = |t: Tensor, d: DType| if t.dtype() == d { Ok(t) } else { cast_raw(&t, d) };
                    // already x's shape: kept as it is (a view would make AccumulateGrad copy it)
                    let gx = to(gx, x.dtype())?;
                    let gx = if gx.shape()[..] == xs[..] { gx } else { rs(&gx, &xs)? };
                    let gw = match (gw, &wt) { (Some(t), Some(w)) if want_w => Some(to(t, w.dtype())?), _ => None };
                    let gb = match (gb, &bdt) { (Some(t), Some(d)) if want_b => Some(to(t, *d)?), _ => None };
                    let mut v = vec![need[0].then_some(gx)];
                    let shaped = |t: Tensor, sh: &[usize]| if t.shape()[..] == sh[..] { Ok(t) } else { rs(&t, sh) };
                    if has_w { v.push(match (gw, &wshape) { (Some(t), Some(ws)) => Some(shaped(t, ws)?), _ => None }); }
                    if has_b { v.push(match (gb, &bshape) { (Some(t), Some(bs)) => Some(shaped(t, bs)?), _ => None }); }
                    return Ok(v);
                }
            }
        }
        let gxhat = if has_w { mul(&g[0], &rs(&s.get(1)?, &aff_shape)?)? } else { g[0].clone() };
        let gx = if need[0] {
            Some(rs(&norm_backward(&rs(&x, &rows)?, &rs(&gxhat, &rows)?, &[1], eps)?, &xs)?)
        } else { None };
        let mut v = vec![gx];
        if has_w {
            v.push(if need[1] {
                let x2 = rs(&x, &rows)?;
                let (xc, r) = stats(&x2, &[1], eps)?;
                let xhat = rs(&mul(&xc, &r)?, &xs)?;
                let p = mul(&g[0], &xhat)?;
                let p = if wdims.is_empty() { p } else { sum_dims(&p, &wdims, false, None)? };
                Some(rs(&p, wshape.as_ref().unwrap())?)
            } else { None });
        }
        if has_b {
            let i = v.len();
            v.push(if need[i] {
                let p = if wdims.is_empty() { g[0].clone() } else { sum_dims(&g[0], &wdims, false, None)? };
                Some(rs(&p, bshape.as_ref().unwrap())?)
            } else { None });
        }
        Ok(v)
    })?;
    Node::annotate_with(&out, &[(stat_slot, "result1"), (stat_slot + 1, "result2")], Vec::new);
    Ok(out)
}

/// `layer_norm` over the trailing `normalized_shape` dims (NativeLayerNormBackward0).
pub fn layer_norm(x: &Tensor, normalized_shape: &[usize], w: Option<&Tensor>, b: Option<&Tensor>, eps: f64) -> Result<Tensor> {
    let xs = x.shape();
    let k = normalized_shape.len();
    let bad = || crate::error::Error::Runtime(format!("Given normalized_shape={}, expected input with shape [*, {}], but got input of size{}",
        crate::shape::fmt_list(normalized_shape), normalized_shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", "), crate::shape::fmt_list(&xs)));
    ensure!(k >= 1, Runtime, "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but got normalized_shape = []");
    if xs.len() < k || xs[xs.len() - k..] != *normalized_shape {
        return Err(bad());
    }
    for (nm, t) in [("weight", w), ("bias", b)] {
        if let Some(t) = t {
            ensure!(t.shape()[..] == *normalized_shape, Runtime, "Expected {} to be of same shape as normalized_shape, but got {} of shape {} and normalized_shape = {}",
                nm, nm, crate::shape::fmt_list(&t.shape()), crate::shape::fmt_list(normalized_shape));
        }
    }
    let r: usize = normalized_shape.iter().product();
    let m = x.numel() / r.max(1);
    let nd = xs.len();
    let mut aff = vec![1; nd - k];
    aff.extend_from_slice(normalized_shape);
    let wdims: Vec<usize> = (0..nd - k).collect();
    let mut stat_shape = xs[..nd - k].to_vec();
    stat_shape.resize(nd, 1);
    let out = row_norm("NativeLayerNormBackward0", x, [m, r], w, b, aff, wdims, eps, &stat_shape)?;
    if out.grad_fn().is_some_and(|n| n.name == "NativeLayerNormBackward0") {
        // derivatives.yaml's names: input, weight, bias (None when absent), normalized_shape
        let mut values = vec![("normalized_shape", SavedValue::Ints(normalized_shape.iter().map(|&d| d as i64).collect()))];
        let mut tensors = vec![(0, "input")];
        match w { Some(_) => tensors.push((1, "weight")), None => values.push(("weight", SavedValue::None)) }
        match b { Some(_) => tensors.push((1 + w.is_some() as usize, "bias")), None => values.push(("bias", SavedValue::None)) }
        crate::autograd::Node::annotate(&out, &values, &tensors);
    }
    Ok(out)
}

/// `group_norm` (NativeGroupNormBackward0).
pub fn group_norm(x: &Tensor, groups: usize, w: Option<&Tensor>, b: Option<&Tensor>, eps: f64) -> Result<Tensor> {
    let xs = x.shape();
    ensure!(xs.len() >= 2, Runtime, "Expected at least 2 dimensions for input tensor but received {}", xs.len());
    let (n, c) = (xs[0], xs[1]);
    ensure!(groups > 0 && c % groups == 0, Runtime, "Expected number of channels in input to be divisible by num_groups, but got input of shape {} and num_groups={}", crate::shape::fmt_list(&xs), groups);
    for (nm, t) in [("weight", w), ("bias", b)] {
        if let Some(t) = t {
            ensure!(t.dim() == 1 && t.numel() == c, Runtime, "Expected {} to be a vector of size equal to the number of channels in input, but got {} of shape {} and input of shape {}",
                nm, nm, crate::shape::fmt_list(&t.shape()), crate::shape::fmt_list(&xs));
        }
    }
    let m = n * groups;
    let r = x.numel() / m.max(1);
    let nd = xs.len();
    let aff = channel_shape(nd, c);
    let wdims: Vec<usize> = (0..nd).filter(|&d| d != 1).collect();
    let out = row_norm("NativeGroupNormBackward0", x, [m, r], w, b, aff, wdims, eps, &[n, groups])?;
    // derivatives.yaml's names: input, weight (None when absent), N, C, HxW, group, eps
    Node::annotate_with(&out, if w.is_some() { &[(0, "input"), (1, "weight")] } else { &[(0, "input")] }, || {
        let mut v = vec![("N", SavedValue::Int(n as i64)), ("C", SavedValue::Int(c as i64)), ("HxW", SavedValue::Int((r / (c / groups).max(1)) as i64)),
                         ("group", SavedValue::Int(groups as i64)), ("eps", SavedValue::Float(eps))];
        if w.is_none() { v.push(("weight", SavedValue::None)); }
        v
    });
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// embedding
// ---------------------------------------------------------------------------------------

/// `embedding(weight, indices)` (EmbeddingBackward0).
pub fn embedding(w: &Tensor, idx: &Tensor, padding_idx: Option<i64>, scale_grad_by_freq: bool) -> Result<Tensor> {
    ensure!(matches!(idx.dtype(), DType::Int64 | DType::Int32), Runtime,
        "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got {} instead (while checking arguments for embedding)",
        if idx.dtype() == DType::Bool { "CPUBoolType".to_string() } else { format!("torch.{}", idx.dtype().legacy_name()) });
    ensure!(w.dim() == 2, Runtime, "'weight' must be 2-D");
    let ws = w.shape();
    let (v, d) = (ws[0], ws[1]);
    let iv = idx.to_i64_vec()?;
    for &i in &iv {
        ensure!(i >= 0 && (i as usize) < v, Index, "index out of range in self");
    }
    let rows: std::sync::Arc<Vec<usize>> = std::sync::Arc::new(iv.iter().map(|&i| i as usize).collect());
    let mut oshape: Vec<usize> = idx.shape().to_vec();
    oshape.push(d);
    // a row gather where the backend has one; else a take through element offsets
    let offsets = || -> Result<Tensor> {
        let mut offs = Vec::with_capacity(iv.len() * d);
        for &i in &iv {
            for j in 0..d { offs.push(i * d as i64 + j as i64); }
        }
        host(offs, w.device())
    };
    let out = match backend::gather_rows(w, &rows, d, &oshape, "aten::index_select")? {
        Some(o) => o,
        None => backend::take(w, &offsets()?, &oshape)?,
    };
    let offs = std::sync::OnceLock::<Tensor>::new();
    let wdev = w.device();
    // per-row scale of the gradient: 0 at padding_idx, 1/count with scale_grad_by_freq
    let mut counts = std::collections::HashMap::new();
    if scale_grad_by_freq {
        for &i in &iv { *counts.entry(i).or_insert(0usize) += 1; }
    }
    let scale: Vec<f64> = iv.iter().map(|&i| {
        if Some(i) == padding_idx || (padding_idx.map(|p| p < 0 && p + v as i64 == i).unwrap_or(false)) { 0.0 }
        else if scale_grad_by_freq { 1.0 / counts[&i] as f64 } else { 1.0 }
    }).collect();
    let trivial = scale.iter().all(|&s| s == 1.0);
    let m = iv.len();
    let scale = hostf(&scale, &[m, 1], w.dtype(), w.device())?;
    let iv = std::sync::Arc::new(iv);
    // saved as derivatives.yaml does: the indices (the formula keeps its own row list)
    record("EmbeddingBackward0", &[w], &[&out], &[Save::In(idx)], move |_, g, _| {
        let g2 = rs(&g[0], &[m, d])?;
        let g2 = contiguous(&if trivial { g2 } else { mul(&g2, &scale)? })?;
        if !crate::autograd::needs_history(&[&g2]) {
            if let Some(r) = backend::index_add_rows(&g2, &rows, d, &[v, d])? {
                return Ok(vec![Some(r)]);
            }
        }
        // differentiable (double backward) or no row kernel: a put through element offsets
        let offs = match offs.get() {
            Some(o) => o.clone(),
            None => {
                let mut o = Vec::with_capacity(iv.len() * d);
                for &i in iv.iter() {
                    for j in 0..d { o.push(i * d as i64 + j as i64); }
                }
                let t = host(o, wdev)?;
                let _ = offs.set(t.clone());
                t
            }
        };
        Ok(vec![Some(rs(&put_add(&rs(&g2, &[m * d])?, &offs, &[v * d])?, &[v, d])?)])
    })?;
    Node::annotate_with(&out, &[(0, "indices")], || vec![
        ("weight_sym_argsize_0", SavedValue::Int(v as i64)),
        ("padding_idx", SavedValue::Int64(padding_idx.map_or(-1, |p| if p < 0 { p + v as i64 } else { p }))),
        ("scale_grad_by_freq", SavedValue::Bool(scale_grad_by_freq)),
        ("sparse", SavedValue::Bool(false)),
    ]);
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// activations
// ---------------------------------------------------------------------------------------

/// An activation's values with no history: its CPU kernel (one pass), or on CUDA, where the
/// fused op has no kernel, the composite.
fn act_values(x: &Tensor, op: crate::backend::UnaryOp, composite: impl FnOnce() -> Result<Tensor>) -> Result<Tensor> {
    if x.is_cuda() {
        no_grad(composite)
    } else {
        no_grad(|| backend::unary(x, op))
    }
}

/// softplus's values with no history (`act_values`).
fn softplus_values(x: &Tensor, beta: f64, threshold: f64) -> Result<Tensor> {
    act_values(x, crate::backend::UnaryOp::Softplus(beta, threshold), || softplus_raw(x, beta, threshold))
}

fn softplus_raw(x: &Tensor, beta: f64, threshold: f64) -> Result<Tensor> {
    let xb = mul(x, &sc(beta))?;
    let soft = div(&super::unary_extra(&exp(&xb)?, "log1p")?, &sc(beta))?;
    sel(&cmp(&xb, threshold, BinOp::Gt)?, x, &soft)
}

/// `erf(x)` (ErfBackward0: 2/sqrt(pi) exp(-x^2) g).
pub fn erf(x: &Tensor) -> Result<Tensor> {
    let out = backend::unary(&super::float_input(x)?, crate::backend::UnaryOp::Erf)?;
    record_ew("ErfBackward0", x, &out, &[Save::In(x)], |s, g, _| {
        let x = s.get(0)?;
        Ok(vec![Some(mul(&g[0], &mul(&exp(&neg(&mul(&x, &x)?)?)?, &sc(std::f64::consts::FRAC_2_SQRT_PI))?)?)])
    })?;
    Ok(out)
}

/// `erfinv(x)` (ErfinvBackward0: √π/2 · exp(erfinv(x)²) g).
pub fn erfinv(x: &Tensor) -> Result<Tensor> {
    let out = backend::unary(&super::float_input(x)?, crate::backend::UnaryOp::Erfinv)?;
    record_ew("ErfinvBackward0", x, &out, &[Save::In(x)], |s, g, _| {
        let e = erfinv(&s.get(0)?)?;
        Ok(vec![Some(mul(&g[0], &mul(&exp(&mul(&e, &e)?)?, &sc(0.5 * std::f64::consts::PI.sqrt()))?)?)])
    })?;
    Ok(out)
}

/// `logit(x, eps)`: `log(z / (1 - z))` with `z = clamp(x, eps, 1 - eps)` when `eps` is given
/// (and not negative). LogitBackward0: `g / (x (1 - x))`, zero outside `[eps, 1 - eps]`
/// (NaN outside `[0, 1]` without eps).
pub fn logit(x: &Tensor, eps: Option<f64>) -> Result<Tensor> {
    let xf = super::float_input(x)?;
    let eps = eps.filter(|e| *e >= 0.0);
    let out = no_grad(|| {
        let z = match eps {
            Some(e) => super::clamp(&xf, Some(Scalar::Float(e)), Some(Scalar::Float(1.0 - e)))?,
            None => xf.clone(),
        };
        log(&div(&z, &super::rsub(&z, &sc(1.0))?)?)
    })?;
    let out = fresh(&out)?;
    record_ew("LogitBackward0", x, &out, &[Save::In(x)], move |s, g, _| {
        let x = s.get(0)?;
        let d = div(&g[0], &mul(&x, &super::rsub(&x, &sc(1.0))?)?)?;
        Ok(vec![Some(match eps {
            Some(e) => {
                let outside = super::logical(&compare(&x, &sc(e), BinOp::Lt)?, &compare(&x, &sc(1.0 - e), BinOp::Gt)?, BinOp::Or)?;
                where_(&outside, &sc(0.0), &d)?
            }
            // without eps, outside [0, 1] the derivative is NaN (as PyTorch's logit_backward)
            None => {
                let outside = super::logical(&compare(&x, &sc(0.0), BinOp::Lt)?, &compare(&x, &sc(1.0), BinOp::Gt)?, BinOp::Or)?;
                where_(&outside, &sc(f64::NAN), &d)?
            }
        })])
    })?;
    if let Some(e) = eps {
        crate::autograd::Node::annotate(&out, &[("eps", crate::autograd::SavedValue::Float(e))], &[]);
    }
    Ok(out)
}

/// `xlogy(a, b)`: `a · log(b)`, 0 where `a` is 0 (unless `b` is NaN), in the promoted float
/// dtype. XlogyBackward0 (1 with a number for `a`, 2 with a number for `b`):
/// `d/da = xlogy(g, b)` (0 where a == 0 and b <= 0), `d/db = g · a / b`.
pub fn xlogy(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let ct = super::compute_dtype(a, b, BinOp::Add);
    let ft = if ct.is_float() { ct } else { crate::dtype::default_float() };
    let (af, bf) = (cast_raw(a, ft)?, cast_raw(b, ft)?);
    let out = no_grad(|| xlogy_raw(&af, &bf))?;
    let out = fresh(&out)?;
    let name = if a.0.is_wrapped_number { "XlogyBackward1" } else if b.0.is_wrapped_number { "XlogyBackward2" } else { "XlogyBackward0" };
    let (sa, sb) = (a.shape(), b.shape());
    record(name, &[a, b], &[&out], &[Save::In(a), Save::In(b)], move |s, g, n| {
        let (at, bt) = (s.get(0)?, s.get(1)?);
        // derivatives.yaml: xlogy(grad, other), 0 where self == 0 and other <= 0
        let ga = if n[0] {
            let both = binary_raw(&compare(&at, &sc(0.0), BinOp::Eq)?, &compare(&bt, &sc(0.0), BinOp::Le)?, BinOp::And)?;
            Some(sum_to(&super::masked_fill(&xlogy(&g[0], &bt)?, &both, &sc(0.0))?, &sa)?)
        } else { None };
        let gb = if n.len() > 1 && n[1] { Some(sum_to(&div(&mul(&g[0], &at)?, &bt)?, &sb)?) } else { None };
        Ok(vec![ga, gb])
    })?;
    Ok(out)
}

/// The values of `xlogy` for operands of one float dtype (no history).
fn xlogy_raw(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let prod = mul(a, &log(b)?)?;
    let zero = where_(&compare(a, &sc(0.0), BinOp::Eq)?, &sc(0.0), &prod)?;
    where_(&super::float_test(b, "isnan")?, &sc(f64::NAN), &zero)
}

/// `kron(a, b)`, composed as ATen composes it: each operand viewed with its dims interleaved
/// with ones (`_unsafe_view`), one broadcast product, viewed back as the block matrix
/// (UnsafeViewBackward0 over MulBackward0).
pub fn kron(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (sa, sb) = (a.shape(), b.shape());
    let nd = sa.len().max(sb.len());
    let (pa, pb) = (nd - sa.len(), nd - sb.len());
    let (mut ra, mut rb, mut rr) = (Vec::with_capacity(2 * nd), Vec::with_capacity(2 * nd), Vec::with_capacity(nd));
    for i in 0..nd {
        let da = if i >= pa { sa[i - pa] as i64 } else { 1 };
        let db = if i >= pb { sb[i - pb] as i64 } else { 1 };
        ra.extend([da, 1]);
        rb.extend([1, db]);
        rr.push(da * db);
    }
    // the product takes the operands' dim order (as TensorIterator's), so it can be
    // non-contiguous too
    let prod = mul(&super::unsafe_view(a, &ra)?, &super::unsafe_view(b, &rb)?)?;
    super::unsafe_view(&prod, &rr)
}

/// `linalg.cross(a, b, dim)` (LinalgCrossBackward0): the cross product of the 3-vectors
/// along `dim`, the other dims broadcast; PyTorch's checks in its order (same number of
/// dims, length 3 at `dim`, broadcastable, one dtype, not bool).
pub fn linalg_cross(a: &Tensor, b: &Tensor, dim: i64) -> Result<Tensor> {
    ensure!(a.dim() == b.dim(), Runtime, "linalg.cross: inputs must have the same number of dimensions.");
    let d = crate::shape::wrap_dim(dim, a.dim())?;
    let (sa, sb) = (a.shape(), b.shape());
    ensure!(sa[d] == 3 && sb[d] == 3, Runtime, "linalg.cross: inputs dimension {} must have length 3. Got {} and {}", dim, sa[d], sb[d]);
    crate::shape::broadcast_shapes(&sa, &sb)?;
    ensure!(a.dtype() == b.dtype(), Runtime, "expected scalar type {} but found {}", a.dtype().scalar_name(), b.dtype().scalar_name());
    ensure!(a.dtype() != DType::Bool, NotImplemented, "\"cross\" not implemented for 'Bool'");
    let out = no_grad(|| cross_raw(a, b, d))?;
    let out = fresh(&out)?;
    // d a = cross(b, g), d b = cross(g, a), each summed back to its operand's shape;
    // forward mode: cross(t_a, b) + cross(a, t_b)
    record_jvp("LinalgCrossBackward0", &[a, b], &[&out], &[Save::In(a), Save::In(b)], move |s, g, n| {
        let ga = if n[0] { Some(sum_to(&linalg_cross(&s.get(1)?, &g[0], dim)?, &sa)?) } else { None };
        let gb = if n.len() > 1 && n[1] { Some(sum_to(&linalg_cross(&g[0], &s.get(0)?, dim)?, &sb)?) } else { None };
        Ok(vec![ga, gb])
    },
        |tg| crate::autograd::forward::linear(2, tg, |i, ti| if i == 0 { linalg_cross(ti, b, dim) } else { linalg_cross(a, ti, dim) }))?;
    crate::autograd::Node::annotate(&out, &[("dim", crate::autograd::SavedValue::Int(dim))], &[(0, "self"), (1, "other")]);
    Ok(out)
}

/// `torch.cross(a, b, dim)`: `linalg_cross` along `dim`, or where it is `None` along the
/// first dim of `a` of length 3 (PyTorch's deprecated default; the caller warns).
pub fn cross(a: &Tensor, b: &Tensor, dim: Option<i64>) -> Result<Tensor> {
    let dim = match dim {
        Some(d) => d,
        None => match a.shape().iter().position(|&n| n == 3) {
            Some(d) => d as i64,
            None => bail!(Runtime, "no dimension of size 3 in input"),
        },
    };
    linalg_cross(a, b, dim)
}

/// The cross product's values along dim `d` (no history): (a1 b2 - a2 b1, a2 b0 - a0 b2,
/// a0 b1 - a1 b0), broadcast.
fn cross_raw(a: &Tensor, b: &Tensor, d: usize) -> Result<Tensor> {
    let at = |t: &Tensor, i: i64| super::narrow(t, d as i64, i, 1);
    let (a0, a1, a2) = (at(a, 0)?, at(a, 1)?, at(a, 2)?);
    let (b0, b1, b2) = (at(b, 0)?, at(b, 1)?, at(b, 2)?);
    let c0 = sub(&mul(&a1, &b2)?, &mul(&a2, &b1)?)?;
    let c1 = sub(&mul(&a2, &b0)?, &mul(&a0, &b2)?)?;
    let c2 = sub(&mul(&a0, &b1)?, &mul(&a1, &b0)?)?;
    super::cat(&[c0, c1, c2], d as i64)
}

fn erf_t(x: &Tensor) -> Result<Tensor> {
    erf(x)
}

/// Elementwise activations with their own nodes: `kind` names the function, `a`/`b` its
/// parameters (slope, alpha, beta/threshold, min/max, lambda...).
pub fn activation(x: &Tensor, kind: &str, a: f64, b: f64) -> Result<Tensor> {
    activation_impl(x, kind, a, b, false)
}

/// The in-place form (`F.leaky_relu(x, inplace=True)`, ...): the op runs on a snapshot and
/// the result is written into `x` (the core's in-place machinery); torch's result-based
/// nodes keep their "...Backward1" names.
pub fn activation_(x: &Tensor, kind: &str, a: f64, b: f64) -> Result<()> {
    if kind == "relu" {
        super::check_relu_dtype(x)?;
        return super::inplace_unary(x, crate::backend::UnaryOp::Relu, |inp| activation_impl(inp, kind, a, b, true));
    }
    super::inplace(x, |inp| activation_impl(inp, kind, a, b, true))
}

/// An activation's backward `bw(x, g)` (linear in `g`).
type ActBw = std::sync::Arc<dyn Fn(&Tensor, &Tensor) -> Result<Tensor> + Send + Sync>;

/// The x-derivative of an activation's backward, for the backward's own node.
#[derive(Clone)]
enum ActD2 {
    /// piecewise linear: the backward is a select of `g`, its x-derivative is zero
    Zero,
    /// `f''(x)`: d/dx of `g f'(x)` is `g f''(x)`
    F(std::sync::Arc<dyn Fn(&Tensor) -> Result<Tensor> + Send + Sync>),
    /// PyTorch has no formula: its NotImplemented node and message (the aten op's name)
    Missing(&'static str),
}

fn d2(f: impl Fn(&Tensor) -> Result<Tensor> + Send + Sync + 'static) -> ActD2 {
    ActD2::F(std::sync::Arc::new(f))
}

/// `bw(x, g)` as an op of its own, as PyTorch records an activation's backward under
/// `create_graph` (`LeakyReluBackwardBackward0`, ...): its output requires grad when `g` or
/// `x` does, even where it is constant in `x`. d/dg = the same backward of `gg` (it is linear
/// in `g`); d/dx = gg g f''(x).
fn act_backward(name: &'static str, g: &Tensor, x: &Tensor, bw: ActBw, dd: ActD2) -> Result<Tensor> {
    let out = no_grad(|| bw(&x.detach(), &g.detach()))?;
    let out = fresh(&out)?;
    let xmeta = crate::autograd::InputMeta::of(x);
    let node = if matches!(dd, ActD2::Missing(_)) { "torch::autograd::NotImplemented" } else { name };
    record(node, &[g, x], &[&out], &[Save::In(g), Save::In(x)], move |s, gg, n| {
        if let ActD2::Missing(op) = &dd {
            bail!(Runtime, "derivative for {} is not implemented", op);
        }
        let (gt, xt) = (s.get(0)?, s.get(1)?);
        let dg = if n[0] { Some(act_backward(name, &gg[0], &xt, bw.clone(), dd.clone())?) } else { None };
        let dx = if n[1] {
            Some(match &dd {
                ActD2::F(f) => mul(&mul(&gg[0], &gt)?, &f(&xt)?)?,
                _ => xmeta.zeros()?,
            })
        } else { None };
        Ok(vec![dg, dx])
    })?;
    crate::autograd::Node::annotate(&out, &[], &[(0, "grad_output"), (1, "self")]);
    Ok(out)
}

/// An activation's backward `g f'(x)` (GELU, SiLU) as one backend kernel (ATen's), where `g` and `x` agree in
/// shape and dtype; None sends the caller to the composite.
fn act_backward_fused(g: &Tensor, x: &Tensor, op: BinOp) -> Result<Option<Tensor>> {
    // (CPU kernels only: on CUDA the composite keeps the work on the device)
    if g.shape() != x.shape() || g.dtype() != x.dtype() || x.is_cuda() {
        return Ok(None);
    }
    backend::binary(g, &g.layout(), x, &x.layout(), op).map(Some)
}

/// A float16/bfloat16 tensor in float32 (ATen's activation kernels compute in float and round
/// once); others as they are.
fn widen_half(t: &Tensor) -> Result<Tensor> {
    if t.dtype().is_half() { super::to_dtype(t, DType::Float32) } else { Ok(t.clone()) }
}

fn activation_impl(x_in: &Tensor, kind: &str, a: f64, b: f64, in_place: bool) -> Result<Tensor> {
    use std::sync::Arc;
    ensure!(x_in.dtype().is_float(), NotImplemented, "\"{}\" not implemented for '{}'", kind, x_in.dtype().scalar_name());
    // the forward and backward formulas below run in float32 for a half input
    let x = &if x_in.dtype().is_half() { no_grad(|| widen_half(&x_in.detach()))? } else { x_in.clone() };
    // (grad_fn name, forward, backward d/dx given (x, g), the backward's node: its name and
    // the x-derivative; None where PyTorch's backward is a composite of ordinary ops)
    let (name, out, bw, dnode): (&'static str, Tensor, ActBw, Option<(&'static str, ActD2)>) = match kind {
        "leaky_relu" => {
            // one CPU kernel each way (the composites stay on CUDA): the backward multiplies
            // by the slope factor, `g · 1` and `g · a` as the select of `g` and `g · a` gives
            let o = act_values(x, crate::backend::UnaryOp::LeakyRelu(a), || sel(&cmp(x, 0.0, BinOp::Gt)?, x, &mul(x, &sc(a))?))?;
            ("LeakyReluBackward0", o, Arc::new(move |x, g| if x.is_cuda() {
                sel(&cmp(x, 0.0, BinOp::Gt)?, g, &mul(g, &sc(a))?)
            } else {
                mul(g, &no_grad(|| backend::unary(x, crate::backend::UnaryOp::LeakyReluSlope(a)))?)
            }), Some(("LeakyReluBackwardBackward0", ActD2::Zero)))
        }
        // elu(alpha=a, scale=b) with input_scale 1 (elu, selu); celu: input_scale 1/alpha
        "elu" | "celu" => {
            let is = if kind == "celu" { 1.0 / a } else { 1.0 };
            let (alpha, scale) = (a, if kind == "celu" { 1.0 } else { b });
            let o = act_values(x, crate::backend::UnaryOp::Elu(alpha * scale, scale, is), || {
                let negp = mul(&super::unary_extra(&mul(x, &sc(is))?, "expm1")?, &sc(alpha * scale))?;
                sel(&cmp(x, 0.0, BinOp::Gt)?, &mul(x, &sc(scale))?, &negp)
            })?;
            let name = if kind == "celu" { "CeluBackward0" } else { "EluBackward0" };
            // f'' = alpha scale is² exp(is x) for x <= 0, 0 above
            let second = d2(move |x| sel(&cmp(x, 0.0, BinOp::Gt)?, &sc(0.0), &mul(&exp(&mul(x, &sc(is))?)?, &sc(alpha * scale * is * is))?));
            (name, o, Arc::new(move |x, g| {
                let negd = mul(g, &mul(&exp(&mul(x, &sc(is))?)?, &sc(alpha * scale * is))?)?;
                sel(&cmp(x, 0.0, BinOp::Gt)?, &mul(g, &sc(scale))?, &negd)
            }), Some(("EluBackwardBackward0", second)))
        }
        "gelu" => {
            let o = no_grad(|| if x.is_cuda() {
                // (no CUDA kernel for the fused op yet: the composite stays on the device)
                mul(&mul(x, &sc(0.5))?, &add(&erf_t(&mul(x, &sc(std::f64::consts::FRAC_1_SQRT_2))?)?, &sc(1.0))?)
            } else {
                backend::unary(x, crate::backend::UnaryOp::Gelu)
            })?;
            let pdf = |x: &Tensor| -> Result<Tensor> {
                mul(&exp(&mul(&mul(x, x)?, &sc(-0.5))?)?, &sc(0.5 * std::f64::consts::FRAC_2_SQRT_PI * std::f64::consts::FRAC_1_SQRT_2))
            };
            // f' = Φ(x) + x φ(x); f'' = φ(x) (2 - x²)
            let second = d2(move |x| mul(&pdf(x)?, &super::rsub(&mul(x, x)?, &sc(2.0))?));
            ("GeluBackward0", o, Arc::new(move |x, g| {
                if let Some(r) = act_backward_fused(g, x, BinOp::GeluBackward)? {
                    return Ok(r);
                }
                let cdf = mul(&add(&erf_t(&mul(x, &sc(std::f64::consts::FRAC_1_SQRT_2))?)?, &sc(1.0))?, &sc(0.5))?;
                mul(g, &add(&cdf, &mul(x, &pdf(x)?)?)?)
            }), Some(("GeluBackwardBackward0", second)))
        }
        "gelu_tanh" => {
            let k0 = (2.0 / std::f64::consts::PI).sqrt();
            let c = 0.044715;
            let inner = move |x: &Tensor| -> Result<Tensor> { mul(&add(x, &mul(&mul(&mul(x, x)?, x)?, &sc(c))?)?, &sc(k0)) };
            // u = k0 (x + c x³), u' = k0 (1 + 3c x²)
            let du = move |x: &Tensor| -> Result<Tensor> { mul(&add(&mul(&mul(x, x)?, &sc(3.0 * c))?, &sc(1.0))?, &sc(k0)) };
            let o = no_grad(|| if x.is_cuda() {
                mul(&mul(x, &sc(0.5))?, &add(&tanh(&inner(x)?)?, &sc(1.0))?)
            } else {
                backend::unary(x, crate::backend::UnaryOp::GeluTanh)
            })?;
            // f'' = (1 - th²) (u' + x/2 (u'' - 2 th u'²)) with u'' = 6 k0 c x
            let second = d2(move |x| {
                let th = tanh(&inner(x)?)?;
                let sech2 = super::rsub(&mul(&th, &th)?, &sc(1.0))?;
                let dux = du(x)?;
                let ddu = mul(x, &sc(6.0 * k0 * c))?;
                let bracket = sub(&ddu, &mul(&mul(&th, &mul(&dux, &dux)?)?, &sc(2.0))?)?;
                mul(&sech2, &add(&dux, &mul(&mul(x, &sc(0.5))?, &bracket)?)?)
            });
            ("GeluBackward0", o, Arc::new(move |x, g| {
                if let Some(r) = act_backward_fused(g, x, BinOp::GeluTanhBackward)? {
                    return Ok(r);
                }
                let th = tanh(&inner(x)?)?;
                let left = mul(&add(&th, &sc(1.0))?, &sc(0.5))?;
                let right = mul(&mul(&mul(x, &sc(0.5))?, &super::rsub(&mul(&th, &th)?, &sc(1.0))?)?, &du(x)?)?;
                mul(g, &add(&left, &right)?)
            }), Some(("GeluBackwardBackward0", second)))
        }
        "silu" => {
            let o = no_grad(|| if x.is_cuda() { mul(x, &sigmoid(x)?) } else { backend::unary(x, crate::backend::UnaryOp::Silu) })?;
            ("SiluBackward0", o, Arc::new(|x, g| {
                // one kernel unless the gradient is itself being differentiated (PyTorch's
                // double backward goes through the composite's ops)
                if !crate::autograd::needs_record(&[g, x]) {
                    if let Some(r) = act_backward_fused(g, x, BinOp::SiluBackward)? {
                        return Ok(r);
                    }
                }
                let s = sigmoid(x)?;
                mul(g, &mul(&s, &add(&mul(x, &super::rsub(&s, &sc(1.0))?)?, &sc(1.0))?)?)
            }), None)
        }
        "mish" => {
            let o = no_grad(|| mul(x, &tanh(&softplus_values(x, 1.0, 20.0)?)?))?;
            ("MishBackward0", o, Arc::new(|x, g| {
                let tsp = tanh(&softplus_raw(x, 1.0, 20.0)?)?;
                let d = add(&tsp, &mul(&mul(x, &sigmoid(x)?)?, &super::rsub(&mul(&tsp, &tsp)?, &sc(1.0))?)?)?;
                mul(g, &d)
            }), None)
        }
        "softplus" => {
            let o = softplus_values(x, a, b)?;
            // f' = σ(βx) below the threshold (1 above); f'' = β σ(βx) (1 - σ(βx)) below, 0 above
            let second = d2(move |x| {
                let s = sigmoid(&mul(x, &sc(a))?)?;
                let v = mul(&mul(&s, &super::rsub(&s, &sc(1.0))?)?, &sc(a))?;
                sel(&cmp(&mul(x, &sc(a))?, b, BinOp::Gt)?, &sc(0.0), &v)
            });
            ("SoftplusBackward0", o, Arc::new(move |x, g| {
                let z = exp(&mul(x, &sc(a))?)?;
                sel(&cmp(&mul(x, &sc(a))?, b, BinOp::Gt)?, g, &div(&mul(g, &z)?, &add(&z, &sc(1.0))?)?)
            }), Some(("SoftplusBackwardBackward0", second)))
        }
        "hardtanh" => {
            let o = no_grad(|| super::clamp(x, Some(Scalar::Float(a)), Some(Scalar::Float(b))))?;
            ("HardtanhBackward0", o, Arc::new(move |x, g| {
                let inside = binary_raw(&cmp(x, a, BinOp::Gt)?, &cmp(x, b, BinOp::Lt)?, BinOp::And)?;
                sel(&inside, g, &sc(0.0))
            }), Some(("HardtanhBackwardBackward0", ActD2::Zero)))
        }
        "hardsigmoid" => {
            let o = act_values(x, crate::backend::UnaryOp::Hardsigmoid, || {
                super::clamp(&add(&div(x, &sc(6.0))?, &sc(0.5))?, Some(Scalar::Float(0.0)), Some(Scalar::Float(1.0)))
            })?;
            ("HardsigmoidBackward0", o, Arc::new(|x, g| {
                let inside = binary_raw(&cmp(x, -3.0, BinOp::Gt)?, &cmp(x, 3.0, BinOp::Lt)?, BinOp::And)?;
                sel(&inside, &div(g, &sc(6.0))?, &sc(0.0))
            }), Some(("HardsigmoidBackwardBackward0", ActD2::Missing("aten::hardsigmoid_backward"))))
        }
        "hardswish" => {
            let o = act_values(x, crate::backend::UnaryOp::Hardswish, || {
                div(&mul(x, &super::clamp(&add(x, &sc(3.0))?, Some(Scalar::Float(0.0)), Some(Scalar::Float(6.0)))?)?, &sc(6.0))
            })?;
            // f'' = 1/3 on (-3, 3), 0 outside
            let second = d2(|x| {
                let inside = binary_raw(&cmp(x, -3.0, BinOp::Gt)?, &cmp(x, 3.0, BinOp::Lt)?, BinOp::And)?;
                sel(&inside, &sc(1.0 / 3.0), &sc(0.0))
            });
            ("HardswishBackward0", o, Arc::new(|x, g| {
                let mid = mul(g, &add(&div(x, &sc(3.0))?, &sc(0.5))?)?;
                sel(&cmp(x, -3.0, BinOp::Le)?, &sc(0.0), &sel(&cmp(x, 3.0, BinOp::Lt)?, &mid, g)?)
            }), Some(("HardswishBackwardBackward0", second)))
        }
        "logsigmoid" => {
            // min(x, 0) - log1p(exp(-|x|))
            let o = no_grad(|| sub(&super::clamp(x, None, Some(Scalar::Float(0.0)))?, &super::unary_extra(&exp(&neg(&super::abs(x)?)?)?, "log1p")?))?;
            // f' = σ(-x); f'' = -σ(x) σ(-x)
            let second = d2(|x| neg(&mul(&sigmoid(x)?, &sigmoid(&neg(x)?)?)?));
            ("LogSigmoidBackward0", o, Arc::new(|x, g| mul(g, &sigmoid(&neg(x)?)?)),
             Some(("LogSigmoidBackwardBackward0", second)))
        }
        "softshrink" => {
            let o = no_grad(|| {
                let up = sel(&cmp(x, a, BinOp::Gt)?, &sub(x, &sc(a))?, &sc(0.0))?;
                sel(&cmp(x, -a, BinOp::Lt)?, &add(x, &sc(a))?, &up)
            })?;
            ("SoftshrinkBackward0", o, Arc::new(move |x, g| {
                let out = binary_raw(&cmp(x, a, BinOp::Gt)?, &cmp(x, -a, BinOp::Lt)?, BinOp::Or)?;
                sel(&out, g, &sc(0.0))
            }), Some(("SoftshrinkBackwardBackward0", ActD2::Zero)))
        }
        "hardshrink" => {
            let mask = move |x: &Tensor| -> Result<Tensor> { binary_raw(&cmp(x, a, BinOp::Gt)?, &cmp(x, -a, BinOp::Lt)?, BinOp::Or) };
            let o = no_grad(|| sel(&mask(x)?, x, &sc(0.0)))?;
            ("HardshrinkBackward0", o, Arc::new(move |x, g| sel(&mask(x)?, g, &sc(0.0))),
             Some(("HardshrinkBackwardBackward0", ActD2::Zero)))
        }
        "threshold" => {
            let o = no_grad(|| sel(&cmp(x, a, BinOp::Gt)?, x, &sc(b)))?;
            ("ThresholdBackward0", o, Arc::new(move |x, g| sel(&cmp(x, a, BinOp::Gt)?, g, &sc(0.0))),
             Some(("ThresholdBackwardBackward0", ActD2::Zero)))
        }
        _ => bail!(NotImplemented, "activation {} is not implemented", kind),
    };
    let x = x_in;
    let bw: ActBw = if x.dtype().is_half() {
        Arc::new(move |x, g| super::to_dtype(&bw(&widen_half(x)?, &widen_half(g)?)?, g.dtype()))
    } else { bw };
    let out = fresh(&out)?;
    let out = if out.dtype() != x.dtype() { cast_raw(&out, x.dtype())? } else { out };
    let name = if in_place {
        match name {
            "LeakyReluBackward0" => "LeakyReluBackward1",
            "EluBackward0" => "EluBackward1",
            "CeluBackward0" => "CeluBackward1",
            "ThresholdBackward0" => "ThresholdBackward1",
            n => n,
        }
    } else { name };
    record_ew(name, x, &out, &[Save::In(x)], move |s, g, _| {
        let x = s.get(0)?;
        Ok(vec![Some(match &dnode {
            Some((dname, dd)) => act_backward(dname, &g[0], &x, bw.clone(), dd.clone())?,
            None => bw(&x, &g[0])?,
        })])
    })?;
    if out.grad_fn().is_some() {
        // derivatives.yaml's scalar arguments (numbers that are whole show as ints, as the
        // defaults PyTorch passes do)
        let num = |v: f64| if v.fract() == 0.0 && v.abs() < 1e15 { SavedValue::Int(v as i64) } else { SavedValue::Float(v) };
        let fields: Vec<(&'static str, SavedValue)> = match kind {
            "leaky_relu" => vec![("negative_slope", SavedValue::Float(a))],
            "elu" => vec![("alpha", SavedValue::Float(a)), ("scale", num(b)), ("input_scale", SavedValue::Int(1))],
            "celu" => vec![("alpha", SavedValue::Float(a))],
            "gelu" => vec![("approximate", SavedValue::Str("none"))],
            "gelu_tanh" => vec![("approximate", SavedValue::Str("tanh"))],
            "softplus" => vec![("beta", num(a)), ("threshold", num(b))],
            "hardtanh" => vec![("min_val", SavedValue::Float(a)), ("max_val", SavedValue::Float(b))],
            "softshrink" | "hardshrink" => vec![("lambd", SavedValue::Float(a))],
            "threshold" => vec![("threshold", num(a))],
            _ => vec![],
        };
        if !fields.is_empty() {
            crate::autograd::Node::annotate(&out, &fields, &[]);
        }
    }
    Ok(out)
}

/// `prelu(x, weight)` (PreluKernelBackward0): weight per channel (dim 1) or a single value.
pub fn prelu(x: &Tensor, w: &Tensor) -> Result<Tensor> {
    let xs = x.shape();
    let wn = w.numel();
    ensure!(w.dim() <= 1, Runtime, "prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {}", w.dim());
    if wn != 1 {
        ensure!(xs.len() >= 2, Runtime, "Not allow zero-dim input tensor.");
        ensure!(xs[1] == wn, Runtime, "Mismatch of parameter numbers and input channel size. Found parameter numbers = {} and channel size = {}.", wn, xs[1]);
    }
    let wshape: Vec<usize> = if wn == 1 { vec![1; xs.len()] } else { channel_shape(xs.len(), wn) };
    // as ATen's prelu: the weight viewed (ViewBackward0) to broadcast over an input of more
    // than one dim, then the kernel on (input, that view), which it saves
    let wv = if xs.len() > 1 { rs(w, &wshape)? } else { w.clone() };
    let out = no_grad(|| sel(&cmp(x, 0.0, BinOp::Gt)?, x, &mul(x, &wv)?))?;
    let out = fresh(&out)?;
    let wvshape = wv.shape();
    record("PreluKernelBackward0", &[x, &wv], &[&out], &[Save::In(x), Save::In(&wv)], move |s, g, need| {
        let (x, w) = (s.get(0)?, s.get(1)?);
        let pos = cmp(&x, 0.0, BinOp::Gt)?;
        let gx = if need[0] { Some(sel(&pos, &g[0], &mul(&g[0], &w)?)?) } else { None };
        let gw = if need[1] {
            let p = sel(&pos, &sc(0.0), &mul(&g[0], &x)?)?;
            Some(sum_to(&p, &wvshape)?)
        } else { None };
        Ok(vec![gx, gw])
    })?;
    Node::annotate_with(&out, &[(1, "weight")], Vec::new);
    Ok(out)
}

/// `scaled_dot_product_attention` as PyTorch's CPU flash kernel computes it
/// (ScaledDotProductFlashAttentionForCpuBackward0): `softmax(q kᵀ · scale + mask) v` over
/// (B, H, L, E) queries and (B, Hk, S, E) keys and values, Hk dividing H (grouped-query
/// attention: each key head serves H / Hk query heads). `mask` is additive (a float mask,
/// -inf where a bool mask was False) and broadcasts to (B, H, L, S); `causal` keeps
/// position j ≤ i. A row with every position masked gives zeros (and a logsumexp of 0).
/// Saved: query, key, value, output, logsumexp (B, H, L), attn_mask, dropout_p (0),
/// is_causal, scale (as given). The caller picks this path where PyTorch does (4-D, equal
/// head dims, no dropout, a mask that does not require grad).
pub fn sdpa_flash(q: &Tensor, k: &Tensor, v: &Tensor, mask: Option<&Tensor>, causal: bool, scale: Option<f64>) -> Result<Tensor> {
    let (qs, ks) = (q.shape(), k.shape());
    ensure!(q.dim() == 4 && k.dim() == 4 && v.dim() == 4, Runtime, "sdpa_flash: expected 4-D query, key and value");
    let (b, h, l, e) = (qs[0], qs[1], qs[2], qs[3]);
    let (hk, s_len) = (ks[1], ks[2]);
    ensure!(hk > 0 && h % hk == 0 && v.shape()[1] == hk && v.shape()[2] == s_len, Runtime, "sdpa_flash: key and value heads must divide the query heads");
    let g = h / hk;
    let scl = scale.unwrap_or(1.0 / (e as f64).sqrt());
    let i = |v: &[usize]| v.iter().map(|&d| d as i64).collect::<Vec<i64>>();
    // the mask padded to 4-D (detached, in the query's dtype)
    let mask4: Option<Tensor> = mask.map(|m| no_grad(|| {
        let m = if m.dtype() == q.dtype() { m.detach() } else { cast_raw(&m.detach(), q.dtype())? };
        let mut ms: Vec<usize> = vec![1; 4usize.saturating_sub(m.dim())];
        ms.extend(m.shape().iter().copied());
        reshape(&m, &i(&ms))
    })).transpose()?;
    // the fused kernel's operands: the mask broadcast to (B, H, L, S) (None: it does not
    // broadcast, and the composed path reports that)
    let spec = backend::Attention { b, h, hk, l, s: s_len, e, scale: scl, causal };
    let mask_full = match &mask4 { Some(m) => expand(m, &i(&[b, h, l, s_len])).ok(), None => None };
    let fused = if mask.is_none() || mask_full.is_some() {
        no_grad(|| backend::attention(&contiguous(q)?, &contiguous(k)?, &contiguous(v)?, mask_full.as_ref(), &spec))?
    } else {
        None
    };
    // the composed path: (B, Hk, G, L, E) queries against (B, Hk, 1, S, E) keys and values,
    // its mask built on first use
    let q5shape = i(&[b, hk, g, l, e]);
    let mask5_cell: std::sync::Arc<std::sync::OnceLock<Option<Tensor>>> = Default::default();
    let (dt, dev) = (q.dtype(), q.device());
    let mask5 = move || -> Result<Option<Tensor>> {
        if let Some(m) = mask5_cell.get() {
            return Ok(m.clone());
        }
        let causal_mask = || -> Result<Tensor> {
            let cols: Vec<f64> = (0..l).flat_map(|r| (0..s_len).map(move |c| if c <= r { 0.0 } else { f64::NEG_INFINITY })).collect();
            hostf(&cols, &[l, s_len], dt, dev)
        };
        let m5 = match &mask4 {
            Some(m4) => {
                let ms = m4.shape();
                let m5 = if ms[1] == 1 { super::unsqueeze(m4, 2)? } else { reshape(&expand(m4, &i(&[ms[0], h, ms[2], ms[3]]))?, &i(&[ms[0], hk, g, ms[2], ms[3]]))? };
                // both given: PyTorch's CPU kernel applies the two
                Some(if causal { no_grad(|| add(&m5, &causal_mask()?))? } else { m5 })
            }
            None if causal => Some(causal_mask()?),
            None => None,
        };
        Ok(mask5_cell.get_or_init(|| m5).clone())
    };
    // scores → (probabilities, zero on fully masked rows; each row's max score when asked for)
    let has_mask = mask.is_some();
    let masked = has_mask || causal;
    let probs = move |q: &Tensor, k: &Tensor, want_max: bool| -> Result<(Tensor, Option<Tensor>)> {
        let s = matmul(&reshape(q, &q5shape)?, &transpose(&super::unsqueeze(k, 2)?, -2, -1)?)?.mul_scalar(scl)?;
        let s = match mask5()? { Some(m) => add(&s, &m)?, None => s };
        let p = super::softmax(&s, -1)?;
        if !masked && !want_max {
            return Ok((p, None));
        }
        let m = super::amax(&s, &[4], true, true)?;
        let p = if masked { where_(&super::float_test(&m, "isinf")?, &sc(0.0), &p)? } else { p };
        Ok((p, Some(m)))
    };
    let (out, lse) = match fused {
        Some((o, lse)) => (o, lse),
        None => no_grad(|| {
            let (p, m) = probs(q, k, true)?;
            let m = m.expect("asked for");
            // logsumexp = max + ln Σ exp(s - max) = max - ln(max p) (the largest p is 1 / Σ);
            // 0 on a fully masked row, as PyTorch's kernel leaves it
            let lse = sub(&m, &log(&super::amax(&p, &[4], true, true)?)?)?;
            let lse = where_(&super::float_test(&m, "isinf")?, &sc(0.0), &lse)?;
            Ok((reshape(&matmul(&p, &super::unsqueeze(v, 2)?)?, &i(&[b, h, l, e]))?, reshape(&lse, &i(&[b, h, l]))?))
        })?,
    };
    // both are reshaped views of this function's own dense results: an alias without the
    // view base is as fresh, and no copy
    let (out, lse) = (out.detach(), lse.detach());
    let mut save = vec![Save::In(q), Save::In(k), Save::In(v), Save::Out(0), Save::In(&lse)];
    if let Some(m) = mask { save.push(Save::In(m)); }
    let d5 = i(&[b, hk, g, l, e]);
    record("ScaledDotProductFlashAttentionForCpuBackward0", &[q, k, v], &[&out], &save, move |sv, gr, need| {
        let (q, k, v, o) = (sv.get(0)?, sv.get(1)?, sv.get(2)?, sv.get(3)?);
        if !crate::autograd::is_grad_enabled() && (mask_full.is_some() || !has_mask) {
            // first order: the backend's fused kernel where it has one
            let c = |t: &Tensor| contiguous(t);
            let lse = sv.get(4)?;
            let saved = [&c(&q)?, &c(&k)?, &c(&v)?, &c(&o)?, &c(&lse)?];
            if let Some((dq, dk, dv)) = backend::attention_backward(&c(&gr[0])?, saved, mask_full.as_ref(), &spec, [need[0], need[1], need[2]])? {
                return Ok(vec![dq, dk, dv]);
            }
        }
        let (p, _) = probs(&q, &k, false)?;
        let go = reshape(&gr[0], &d5)?;
        // dV = Pᵀ dO, dS = P ∘ (dO Vᵀ - rowsum(dO ∘ O)), dQ = dS K · scale, dK = dSᵀ Q · scale
        // (the G query heads of a key head summed; with one, a view drops the axis)
        let heads_sum = |t: Tensor| -> Result<Tensor> { if g == 1 { super::squeeze(&t, Some(2)) } else { sum_dims(&t, &[2], false, None) } };
        let dv = if need[2] { Some(heads_sum(matmul(&transpose(&p, -2, -1)?, &go)?)?) } else { None };
        let (dq, dk) = if need[0] || need[1] {
            let dp = matmul(&go, &transpose(&super::unsqueeze(&v, 2)?, -2, -1)?)?;
            let delta = sum_dims(&mul(&go, &reshape(&o, &d5)?)?, &[4], true, None)?;
            let ds = mul(&p, &sub(&dp, &delta)?)?.mul_scalar(scl)?;
            let dq = if need[0] { Some(reshape(&matmul(&ds, &super::unsqueeze(&k, 2)?)?, &i(&[b, h, l, e]))?) } else { None };
            let dk = if need[1] { Some(heads_sum(matmul(&transpose(&ds, -2, -1)?, &reshape(&q, &d5)?)?)?) } else { None };
            (dq, dk)
        } else { (None, None) };
        Ok(vec![dq, dk, dv])
    })?;
    let named: &[(usize, &'static str)] = &[(0, "query"), (1, "key"), (2, "value"), (3, "output"), (4, "logsumexp"), (5, "attn_mask")];
    Node::annotate_with(&out, &named[..if mask.is_some() { 6 } else { 5 }], || {
        let mut vals = vec![("dropout_p", SavedValue::Float(0.0)), ("is_causal", SavedValue::Bool(causal)),
                            ("scale", scale.map_or(SavedValue::None, SavedValue::Float))];
        if mask.is_none() { vals.push(("attn_mask", SavedValue::None)); }
        vals
    });
    Ok(out)
}

/// `pixel_shuffle(x, r)`: (*, C·r², H, W) → (*, C, H·r, W·r) (PixelShuffleBackward0), or
/// with `down` `pixel_unshuffle(x, r)`: (*, C, H·r, W·r) → (*, C·r², H, W)
/// (PixelUnshuffleBackward0); each one's gradient is the other applied to `g`. The shape
/// checks are the caller's.
pub fn pixel_shuffle(x: &Tensor, r: usize, down: bool) -> Result<Tensor> {
    let xs = x.shape();
    let n = xs.len() - 3;
    let (c, h, w) = (xs[n], xs[n + 1], xs[n + 2]);
    let lead: Vec<i64> = xs[..n].iter().map(|&d| d as i64).collect();
    let with = |tail: &[usize]| -> Vec<i64> { lead.iter().copied().chain(tail.iter().map(|&d| d as i64)).collect() };
    let mut perm: Vec<i64> = (0..n as i64).collect();
    let n1 = n as i64;
    let out = no_grad(|| {
        let (split, order, joined) = if down {
            (with(&[c, h / r, r, w / r, r]), [n1, n1 + 2, n1 + 4, n1 + 1, n1 + 3], with(&[c * r * r, h / r, w / r]))
        } else {
            (with(&[c / (r * r), r, r, h, w]), [n1, n1 + 3, n1 + 1, n1 + 4, n1 + 2], with(&[c / (r * r), h * r, w * r]))
        };
        perm.extend(order);
        let y = permute(&reshape(x, &split)?, &perm)?;
        cast_raw(&y, y.dtype()).and_then(|y| reshape(&y, &joined))
    })?;
    let out = fresh(&out)?;
    let name = if down { "PixelUnshuffleBackward0" } else { "PixelShuffleBackward0" };
    record(name, &[x], &[&out], &[], move |_, g, _| Ok(vec![Some(pixel_shuffle(&g[0], r, !down)?)]))?;
    Node::annotate_with(&out, &[], || vec![(if down { "downscale_factor" } else { "upscale_factor" }, SavedValue::Int(r as i64))]);
    Ok(out)
}

/// `glu(x, dim)` = a * sigmoid(b) over the two halves (GluBackward0).
pub fn glu(x: &Tensor, dim: i64) -> Result<Tensor> {
    ensure!(x.dim() > 0, Runtime, "glu does not support scalars because halving size must be even");
    let d = crate::shape::wrap_dim(dim, x.dim())?;
    let n = x.shape()[d];
    ensure!(n % 2 == 0, Runtime, "Halving dimension must be even, but dimension {} is size {}", d, n);
    let half = (n / 2) as i64;
    let parts = move |x: &Tensor| -> Result<(Tensor, Tensor)> { Ok((super::narrow(x, d as i64, 0, half)?, super::narrow(x, d as i64, half, half)?)) };
    let out = no_grad(|| { let (a, b) = parts(x)?; mul(&a, &sigmoid(&b)?) })?;
    let out = fresh(&out)?;
    record("GluBackward0", &[x], &[&out], &[Save::In(x)], move |s, g, _| {
        let (a, b) = parts(&s.get(0)?)?;
        let sb = sigmoid(&b)?;
        let ga = mul(&g[0], &sb)?;
        let gb = mul(&mul(&mul(&g[0], &a)?, &sb)?, &super::rsub(&sb, &sc(1.0))?)?;
        Ok(vec![Some(super::cat(&[ga, gb], d as i64)?)])
    })?;
    crate::autograd::Node::annotate(&out, &[("dim", SavedValue::Int64(dim))], &[]);
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// losses
// ---------------------------------------------------------------------------------------

fn reduce_loss(l: &Tensor, red: i64) -> Result<Tensor> {
    match red {
        0 => Ok(l.clone()),
        1 => mean(l, None, false, None),
        _ => sum(l, None),
    }
}

/// The gradient of each element of an unreduced loss of `shape`.
fn loss_grad(g: &Tensor, red: i64, shape: &[usize]) -> Result<Tensor> {
    let n: usize = shape.iter().product();
    match red {
        0 => Ok(g.clone()),
        1 => expand(&div(g, &sc(n as f64))?, &i64s(shape)),
        _ => expand(g, &i64s(shape)),
    }
}

fn same_shape(x: &Tensor, y: &Tensor) -> Result<()> {
    ensure!(x.shape() == y.shape(), Runtime, "The size of tensor a ({}) must match the size of tensor b ({})",
        x.shape().last().copied().unwrap_or(1), y.shape().last().copied().unwrap_or(1));
    Ok(())
}

/// `mse_loss`, `smooth_l1_loss` (a = beta), `huber_loss` (a = delta) on same-shaped
/// input and target; `red` 0 none, 1 mean, 2 sum.
pub fn pointwise_loss(kind: &str, x: &Tensor, y: &Tensor, red: i64, a: f64) -> Result<Tensor> {
    same_shape(x, y)?;
    ensure!(x.dtype().is_float(), NotImplemented, "\"{}\" not implemented for '{}'", kind, x.dtype().scalar_name());
    let k = kind.to_string();
    let elem = move |x: &Tensor, y: &Tensor| -> Result<Tensor> {
        if k == "mse" && x.device().is_cpu() && y.device().is_cpu() && x.dtype() == y.dtype() {
            // one pass of (x - y)², as ATen's mse kernel (the same two roundings)
            let (lx, ly) = (x.layout(), y.layout());
            return backend::binary(x, &lx, y, &ly, BinOp::SquaredDiff);
        }
        let d = sub(x, y)?;
        match k.as_str() {
            "mse" => mul(&d, &d),
            "soft_margin" => super::unary_extra(&exp(&neg(&mul(x, y)?)?)?, "log1p"),
            "smooth_l1" => {
                let z = super::abs(&d)?;
                sel(&cmp(&z, a, BinOp::Lt)?, &div(&mul(&mul(&z, &z)?, &sc(0.5))?, &sc(a))?, &sub(&z, &sc(0.5 * a))?)
            }
            _ => {
                let z = super::abs(&d)?;
                sel(&cmp(&z, a, BinOp::Lt)?, &mul(&mul(&z, &z)?, &sc(0.5))?, &mul(&sub(&z, &sc(0.5 * a))?, &sc(a))?)
            }
        }
    };
    let name: &'static str = match kind {
        "mse" => "MseLossBackward0",
        "smooth_l1" => "SmoothL1LossBackward0",
        "huber" => "HuberLossBackward0",
        "soft_margin" => "SoftMarginLossBackward0",
        _ => bail!(NotImplemented, "loss {} is not implemented", kind),
    };
    let out = no_grad(|| reduce_loss(&elem(x, y)?, red))?;
    let out = fresh(&out)?;
    let shape = x.shape();
    let k = kind.to_string();
    record(name, &[x, y], &[&out], &[Save::In(x), Save::In(y)], move |s, g, need| {
        let (x, y) = (s.get(0)?, s.get(1)?);
        if k == "soft_margin" {
            let ge = loss_grad(&g[0], red, &shape)?;
            // d/dx log1p(exp(-y x)) = -y z / (1 + z) with z = exp(-y x); d/dy likewise with x
            let z = exp(&neg(&mul(&x, &y)?)?)?;
            let f = div(&z, &add(&z, &sc(1.0))?)?;
            let gx = if need[0] { Some(mul(&neg(&mul(&y, &f)?)?, &ge)?) } else { None };
            let gy = if need[1] { Some(mul(&neg(&mul(&x, &f)?)?, &ge)?) } else { None };
            return Ok(vec![gx, gy]);
        }
        // the derivative is odd in x - y: the target's gradient is the same op with the two swapped
        let gx = if need[0] { Some(loss_backward(&k, &g[0], &x, &y, red, a)?) } else { None };
        let gy = if need[1] { Some(loss_backward(&k, &g[0], &y, &x, red, a)?) } else { None };
        Ok(vec![gx, gy])
    })?;
    // derivatives.yaml's names: the reduction enum and the scalar parameter
    let mut fields = vec![("reduction", SavedValue::Int(red))];
    match kind {
        "smooth_l1" => fields.push(("beta", SavedValue::Float(a))),
        "huber" => fields.push(("delta", SavedValue::Float(a))),
        _ => {}
    }
    crate::autograd::Node::annotate(&out, &fields, &[(1, "target")]);
    Ok(out)
}

/// `l'(x - y)` of mse (`2d`), smooth L1 (`clamp(d / beta, -1, 1)`) and Huber
/// (`clamp(d, -delta, delta)`) losses, and its derivative `l''(x - y)`.
fn loss_slope(kind: &str, d: &Tensor, a: f64, second: bool) -> Result<Tensor> {
    // strictly inside: at |d| = a the second derivative is 0, as PyTorch's
    let inside = || binary_raw(&cmp(d, -a, BinOp::Gt)?, &cmp(d, a, BinOp::Lt)?, BinOp::And);
    match (kind, second) {
        ("mse", false) => mul(d, &sc(2.0)),
        ("mse", true) => Ok(sc(2.0)),
        ("smooth_l1", false) => sel(&cmp(d, -a, BinOp::Lt)?, &sc(-1.0), &sel(&cmp(d, a, BinOp::Gt)?, &sc(1.0), &div(d, &sc(a))?)?),
        ("smooth_l1", true) => sel(&inside()?, &sc(1.0 / a), &sc(0.0)),
        (_, false) => sel(&cmp(d, -a, BinOp::Lt)?, &sc(-a), &sel(&cmp(d, a, BinOp::Gt)?, &sc(a), d)?),
        (_, true) => sel(&inside()?, &sc(1.0), &sc(0.0)),
    }
}

/// A pointwise loss's backward `l'(x - y) * g` (g expanded by the reduction) as an op of its
/// own (`MseLossBackwardBackward0`, `SmoothL1LossBackwardBackward0`,
/// `HuberLossBackwardBackward0` under `create_graph`): d/dg = `gg l'(x - y)` reduced like the
/// loss; d/dx = gg g l''(x - y) = -d/dy.
fn loss_backward(kind: &str, g: &Tensor, x: &Tensor, y: &Tensor, red: i64, a: f64) -> Result<Tensor> {
    let shape = x.shape();
    let out = no_grad(|| mul(&loss_slope(kind, &sub(&x.detach(), &y.detach())?, a, false)?, &loss_grad(&g.detach(), red, &shape)?))?;
    let out = fresh(&out)?;
    let name: &'static str = match kind {
        "mse" => "MseLossBackwardBackward0",
        "smooth_l1" => "SmoothL1LossBackwardBackward0",
        _ => "HuberLossBackwardBackward0",
    };
    let k = kind.to_string();
    let gshape = g.shape();
    record(name, &[g, x, y], &[&out], &[Save::In(g), Save::In(x), Save::In(y)], move |s, gg, n| {
        let (gt, xt, yt) = (s.get(0)?, s.get(1)?, s.get(2)?);
        let d = sub(&xt, &yt)?;
        let dg = if n[0] {
            let p = mul(&gg[0], &loss_slope(&k, &d, a, false)?)?;
            Some(match red {
                0 => p,
                1 => rs(&div(&sum(&p, None)?, &sc(shape.iter().product::<usize>() as f64))?, &gshape)?,
                _ => rs(&sum(&p, None)?, &gshape)?,
            })
        } else { None };
        let dx = if n[1] || n[2] {
            Some(mul(&mul(&gg[0], &loss_grad(&gt, red, &shape)?)?, &loss_slope(&k, &d, a, true)?)?)
        } else { None };
        let dy = match (&dx, n[2]) {
            (Some(v), true) => Some(neg(v)?),
            _ => None,
        };
        Ok(vec![dg, if n[1] { dx } else { None }, dy])
    })?;
    crate::autograd::Node::annotate(&out, &[], &[(0, "grad_output"), (1, "self"), (2, "target")]);
    Ok(out)
}

/// `binary_cross_entropy(p, y, weight)` (BinaryCrossEntropyBackward0).
pub fn binary_cross_entropy(x: &Tensor, y: &Tensor, w: Option<&Tensor>, red: i64) -> Result<Tensor> {
    crate::autograd::check_no_requires_grad(w, "weight", "binary_cross_entropy")?;
    same_shape(x, y)?;
    // ATen's TensorIterator: input and target of one dtype
    ensure!(y.dtype() == x.dtype(), Runtime, "Found dtype {} but expected {}", y.dtype().scalar_name(), x.dtype().scalar_name());
    let bad = no_grad(|| {
        let lo = cmp(x, 0.0, BinOp::Lt)?;
        let hi = cmp(x, 1.0, BinOp::Gt)?;
        super::all_any(&binary_raw(&lo, &hi, BinOp::Or)?, None, false, false)
    })?;
    ensure!(!bad.to_f64_vec()?.first().map(|&v| v != 0.0).unwrap_or(false), Runtime, "all elements of input should be between 0 and 1");
    let clog = |t: &Tensor| -> Result<Tensor> { super::clamp(&log(t)?, Some(Scalar::Float(-100.0)), None) };
    let wv = w.map(|w| w.detach());
    let out = no_grad(|| {
        // (y - 1) * max(log(1 - x), -100) - y * max(log(x), -100)
        let l = sub(&mul(&sub(y, &sc(1.0))?, &clog(&super::rsub(x, &sc(1.0))?)?)?, &mul(y, &clog(x)?)?)?;
        let l = match &wv { Some(w) => mul(&l, w)?, None => l };
        reduce_loss(&l, red)
    })?;
    let out = fresh(&out)?;
    let shape = x.shape();
    record("BinaryCrossEntropyBackward0", &[x, y], &[&out], &[Save::In(x), Save::In(y)], move |s, g, need| {
        let (x, y) = (s.get(0)?, s.get(1)?);
        // torch: (d * grad [* weight]) / numel for the mean (DivBackward1 under create_graph)
        let ge = loss_grad(&g[0], if red == 1 { 2 } else { red }, &shape)?;
        let ge = match &wv { Some(w) => mul(&ge, w)?, None => ge };
        let n = shape.iter().product::<usize>() as f64;
        let finish = |t: Tensor| -> Result<Tensor> { if red == 1 { nn_div_scalar(&t, n) } else { Ok(t) } };
        let gx = if need[0] {
            let den = super::clamp(&mul(&super::rsub(&x, &sc(1.0))?, &x)?, Some(Scalar::Float(1e-12)), None)?;
            Some(finish(div(&mul(&ge, &sub(&x, &y)?)?, &den)?)?)
        } else { None };
        let gy = if need[1] {
            Some(finish(mul(&ge, &sub(&clog(&super::rsub(&x, &sc(1.0))?)?, &clog(&x)?)?)?)?)
        } else { None };
        Ok(vec![gx, gy])
    })?;
    let values: Vec<(&'static str, SavedValue)> = if w.is_some() { vec![("reduction", SavedValue::Int(red))] } else { vec![("reduction", SavedValue::Int(red)), ("weight", SavedValue::None)] };
    crate::autograd::Node::annotate(&out, &values, &[(1, "target")]);
    Ok(out)
}

/// `binary_cross_entropy_with_logits(z, y, weight, pos_weight)`
/// (BinaryCrossEntropyWithLogitsBackward0).
pub fn binary_cross_entropy_with_logits(x: &Tensor, y: &Tensor, w: Option<&Tensor>, pw: Option<&Tensor>, red: i64) -> Result<Tensor> {
    crate::autograd::check_no_requires_grad(w, "weight", "binary_cross_entropy_with_logits")?;
    crate::autograd::check_no_requires_grad(pw, "pos_weight", "binary_cross_entropy_with_logits")?;
    same_shape(x, y)?;
    // ATen's composition computes `1 - target` into target's dtype first
    ensure!(y.dtype() != DType::Bool, Runtime,
        "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.");
    ensure!(y.dtype().is_float() || y.dtype().is_complex(), Runtime, "result type {} can't be cast to the desired output type {}",
        if x.dtype().is_float() { x.dtype() } else { DType::Float32 }.scalar_name(), y.dtype().scalar_name());
    let wv = w.map(|w| w.detach());
    let pwv = pw.map(|w| w.detach());
    let logsig = |x: &Tensor| -> Result<Tensor> {
        sub(&super::clamp(x, None, Some(Scalar::Float(0.0)))?, &super::unary_extra(&exp(&neg(&super::abs(x)?)?)?, "log1p")?)
    };
    let out = no_grad(|| {
        let ls = logsig(x)?;
        let ls = match &pwv { Some(p) => mul(&ls, &add(&mul(&sub(p, &sc(1.0))?, y)?, &sc(1.0))?)?, None => ls };
        let l = sub(&mul(&super::rsub(y, &sc(1.0))?, x)?, &ls)?;
        let l = match &wv { Some(w) => mul(&l, w)?, None => l };
        reduce_loss(&l, red)
    })?;
    let out = fresh(&out)?;
    let shape = x.shape();
    // saved as derivatives.yaml does: self, target, weight, pos_weight (the formula reads the
    // first two; the weights are kept detached in it)
    let mut save = vec![Save::In(x), Save::In(y)];
    let mut names: Vec<(usize, &'static str)> = vec![(1, "target")];
    let mut values = vec![("reduction", SavedValue::Int(red))];
    for (nm, t) in [("weight", w), ("pos_weight", pw)] {
        match t {
            Some(t) => { names.push((save.len(), nm)); save.push(Save::In(t)); }
            None => values.push((nm, SavedValue::None)),
        }
    }
    record("BinaryCrossEntropyWithLogitsBackward0", &[x, y], &[&out], &save, move |s, g, need| {
        let (x, y) = (s.get(0)?, s.get(1)?);
        // torch: (d * grad [* weight]) / numel for the mean (DivBackward1 under create_graph)
        let ge = loss_grad(&g[0], if red == 1 { 2 } else { red }, &shape)?;
        let ge = match &wv { Some(w) => mul(&ge, w)?, None => ge };
        let n = shape.iter().product::<usize>() as f64;
        let finish = |t: Tensor| -> Result<Tensor> { if red == 1 { nn_div_scalar(&t, n) } else { Ok(t) } };
        let gx = if need[0] {
            let d = match &pwv {
                Some(p) => { let tt = mul(p, &y)?; sub(&mul(&sub(&add(&tt, &sc(1.0))?, &y)?, &sigmoid(&x)?)?, &tt)? }
                None => sub(&sigmoid(&x)?, &y)?,
            };
            Some(finish(mul(&d, &ge)?)?)
        } else { None };
        let gy = if need[1] {
            let d = match &pwv {
                Some(p) => sub(&neg(&x)?, &mul(&sub(p, &sc(1.0))?, &logsig(&x)?)?)?,
                None => neg(&x)?,
            };
            Some(finish(mul(&d, &ge)?)?)
        } else { None };
        Ok(vec![gx, gy])
    })?;
    if out.has_grad_fn() {
        Node::annotate(&out, &values, &names);
    }
    Ok(out)
}

/// `nll_loss` on (C), (N, C) or (N, C, H, W) log-probabilities (NllLossBackward0 /
/// NllLoss2DBackward0).
pub fn nll_loss(x: &Tensor, target: &Tensor, w: Option<&Tensor>, red: i64, ignore_index: i64) -> Result<Tensor> {
    crate::autograd::check_no_requires_grad(w, "weight", if x.dim() > 2 { "nll_loss2d_forward" } else { "nll_loss_forward" })?;
    let xs = x.shape();
    let ts = target.shape();
    let nd = xs.len();
    ensure!(nd >= 1, Runtime, "input tensor should be 1D or 2D");
    let c = if nd == 1 { xs[0] } else { xs[1] };
    if nd <= 2 {
        ensure!(ts.len() <= 1, Runtime, "0D or 1D target tensor expected, multi-target not supported");
        let nb = if nd == 1 { 1 } else { xs[0] };
        let tb = if ts.is_empty() { 1 } else { ts[0] };
        ensure!(nd == 1 && ts.is_empty() || nd == 2 && tb == nb, Value, "Expected input batch_size ({}) to match target batch_size ({}).", if nd == 1 { 1 } else { nb }, tb);
    } else {
        ensure!(nd == 4, Runtime, "only 4-d inputs go to nll_loss2d");
        ensure!(ts.len() == 3, Runtime, "only batches of spatial targets supported (3D tensors) but got targets of dimension: {}", ts.len());
        ensure!(ts[0] == xs[0] && ts[1] == xs[2] && ts[2] == xs[3], Runtime,
            "size mismatch (got input: {} , target: {}", crate::shape::fmt_list(&xs), crate::shape::fmt_list(&ts));
    }
    if let Some(w) = w {
        ensure!(w.numel() == c, Runtime, "weight tensor should be defined either for all {} classes or no classes but got weight tensor of shape: {}", c, crate::shape::fmt_list(&w.shape()));
    }
    // the kernel's dtype check comes after the shape checks, as in ATen
    ensure!(matches!(target.dtype(), DType::Int64 | DType::UInt8), Runtime, "expected target dtype to be Long or Byte, but got {}", target.dtype().scalar_name());
    let tv = target.to_i64_vec()?;
    let wv = match w { Some(w) => w.to_f64_vec()?, None => vec![1.0; c] };
    let m = tv.len();
    let mut offs = Vec::with_capacity(m);
    let mut coef = Vec::with_capacity(m);
    for (i, &ti) in tv.iter().enumerate() {
        if ti == ignore_index {
            offs.push((i * c) as i64);
            coef.push(0.0);
        } else {
            ensure!(ti >= 0 && (ti as usize) < c, Index, "Target {} is out of bounds.", ti);
            offs.push((i * c) as i64 + ti);
            coef.push(wv[ti as usize]);
        }
    }
    let total: f64 = coef.iter().sum();
    let dt = x.dtype();
    // class dim last, flattened to (m, c)
    let perm: Vec<i64> = if nd == 4 { vec![0, 2, 3, 1] } else { (0..nd as i64).collect() };
    let to_rows = move |x: &Tensor| -> Result<Tensor> {
        if nd == 4 { rs(&permute(x, &perm)?, &[m * c]) } else { rs(x, &[m * c]) }
    };
    let offs = host(offs, x.device())?;
    let coef = hostf(&coef, &[m], dt, x.device())?;
    let total_t = hostf(&[total], &[], dt, x.device())?;
    let tshape = ts.clone();
    let out = no_grad(|| {
        let picked = backend::take(&contiguous(&to_rows(x)?)?, &offs, &[m])?;
        let l = neg(&mul(&picked, &coef)?)?;
        match red {
            0 => rs(&l, &tshape),
            1 => div(&sum(&l, None)?, &total_t),
            _ => sum(&l, None),
        }
    })?;
    let out = fresh(&out)?;
    let name = if nd == 4 { "NllLoss2DBackward0" } else { "NllLossBackward0" };
    let xs2 = xs.clone();
    let total_saved = total_t.clone();
    let mut save = vec![Save::In(x), Save::In(target), Save::In(&total_saved)];
    if let Some(w) = w {
        save.push(Save::In(w));
    }
    record(name, &[x], &[&out], &save, move |_, g, _| {
        let ge = match red {
            0 => rs(&g[0], &[m])?,
            1 => expand(&div(&g[0], &total_t)?, &[m as i64])?,
            _ => expand(&g[0], &[m as i64])?,
        };
        let vals = neg(&mul(&ge, &coef)?)?;
        let flat = put_add(&contiguous(&vals)?, &offs, &[m * c])?;
        let gx = if nd == 4 {
            permute(&rs(&flat, &[xs2[0], xs2[2], xs2[3], c])?, &[0, 3, 1, 2])?
        } else {
            rs(&flat, &xs2)?
        };
        Ok(vec![Some(gx)])
    })?;
    let mut values = vec![("ignore_index", SavedValue::Int64(ignore_index)), ("reduction", SavedValue::Int(red))];
    let mut tensors = vec![(0, "self"), (1, "target"), (2, "total_weight")];
    if w.is_some() {
        tensors.push((3, "weight"));
    } else {
        values.push(("weight", SavedValue::None));
    }
    crate::autograd::Node::annotate(&out, &values, &tensors);
    Ok(out)
}

/// `x / s` for a scalar `s` as ATen's compositions call it (DivBackward1).
pub fn nn_div_scalar(x: &Tensor, s: f64) -> Result<Tensor> {
    let out = no_grad(|| div(x, &sc(s)))?;
    let out = fresh(&out)?;
    record("DivBackward1", &[x], &[&out], &[], move |_, g, _| Ok(vec![Some(div(&g[0], &sc(s))?)]))?;
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// padding and resampling
// ---------------------------------------------------------------------------------------

/// `x` placed into a tensor whose last `pads.len()` dims grow by (before, after) each
/// (negative crops), the rest `value`. No autograd.
fn pad_raw(x: &Tensor, pads: &[(i64, i64)], value: f64) -> Result<Tensor> {
    let xs = x.shape();
    let nd = xs.len();
    let k = pads.len();
    let mut os: Vec<usize> = xs.to_vec();
    for (i, &(lo, hi)) in pads.iter().enumerate() {
        let d = nd - k + i;
        let n = xs[d] as i64 + lo + hi;
        ensure!(n >= 0, Runtime, "The input size {}, plus negative padding {} and {} resulted in a negative output size, which is invalid. Check dimension {} of your input.", xs[d], lo, hi, d);
        os[d] = n as usize;
    }
    let out = crate::tensor::full_on(&os, Scalar::Float(value), x.dtype(), x.device())?;
    if out.numel() == 0 {
        return Ok(out);
    }
    let ostr = contiguous_strides(&os);
    let xl = x.layout();
    let mut shape = xs.to_vec();
    let (mut doff, mut soff) = (0usize, xl.offset);
    for (i, &(lo, _)) in pads.iter().enumerate() {
        let d = nd - k + i;
        let dst0 = lo.max(0) as usize;
        let src0 = (-lo).max(0) as usize;
        let len = (xs[d] as i64 - src0 as i64).min(os[d] as i64 - dst0 as i64).max(0) as usize;
        shape[d] = len;
        doff += dst0 * ostr[d];
        soff += src0 * xl.strides[d];
    }
    if shape.iter().product::<usize>() > 0 {
        let dst = as_strided_view(&out, &lay(&shape, &ostr, doff));
        let src = as_strided_view(x, &lay(&shape, &xl.strides, soff));
        write_into(&dst, &src)?;
    }
    Ok(out)
}

/// `F.pad(x, pads, mode="constant", value)` (ConstantPadNdBackward0); `pads` per trailing
/// dim, outermost first.
pub fn constant_pad(x: &Tensor, pads: &[(i64, i64)], value: f64) -> Result<Tensor> {
    ensure!(pads.len() <= x.dim(), Runtime, "Length of pad should be no more than twice the number of dimensions of the input. Pad length is {} while the input has {} dimensions.", pads.len() * 2, x.dim());
    let out = pad_raw(x, pads, value)?;
    let neg: Vec<(i64, i64)> = pads.iter().map(|&(a, b)| (-a, -b)).collect();
    record("ConstantPadNdBackward0", &[x], &[&out], &[], move |_, g, _| Ok(vec![Some(constant_pad(&g[0], &neg, 0.0)?)]))?;
    // `_saved_pad` as F.pad takes it: (left, right) of the last dim first
    Node::annotate_with(&out, &[], || vec![("pad", SavedValue::Ints(pads.iter().rev().flat_map(|&(a, b)| [a, b]).collect()))]);
    Ok(out)
}

/// `F.pad` in reflect or replicate mode over the last `pads.len()` dims (1 or 2):
/// a gather through an index map (backward: scatter-add). ReflectionPad{1,2}DBackward0 /
/// ReplicationPad{1,2}DBackward0.
pub fn index_pad(x: &Tensor, pads: &[(i64, i64)], reflect: bool) -> Result<Tensor> {
    let xs = x.shape();
    let nd = xs.len();
    let k = pads.len();
    ensure!((1..=3).contains(&k) && k <= nd, NotImplemented, "only 1-d, 2-d and 3-d reflect/replicate padding is supported");
    let mut os: Vec<usize> = xs.to_vec();
    let mut maps: Vec<Vec<usize>> = Vec::new();
    for (i, &(lo, hi)) in pads.iter().enumerate() {
        let d = nd - k + i;
        let n = xs[d] as i64;
        if reflect {
            ensure!(lo < n && hi < n, Runtime, "Argument #4: Padding size should be less than the corresponding input dimension, but got: padding ({}, {}) at dimension {} of input {}", lo, hi, d, crate::shape::fmt_list(&xs));
        } else {
            ensure!(n > 0, Runtime, "input tensor must have a non-empty dimension {} to be padded", d);
        }
        let on = n + lo + hi;
        ensure!(on > 0, Runtime, "input (H: {}, W: {}) is too small. Calculated output H: {} W: {}", xs[nd - k], xs[nd - 1], on, on);
        os[d] = on as usize;
        maps.push((0..on).map(|o| {
            let mut j = o - lo;
            if reflect {
                if j < 0 { j = -j; }
                if j >= n { j = 2 * (n - 1) - j; }
            } else {
                j = j.clamp(0, n - 1);
            }
            j as usize
        }).collect());
    }
    let lead: usize = xs[..nd - k].iter().product();
    let inner: usize = xs[nd - k..].iter().product();
    let mut offs = Vec::with_capacity(lead * os[nd - k..].iter().product::<usize>());
    // the padded dims' source offsets, outermost first (strides of the contiguous input)
    let strides = crate::shape::contiguous_strides(&xs[nd - k..]);
    let mut base: Vec<usize> = vec![0];
    for (map, &st) in maps.iter().zip(&strides) {
        base = base.iter().flat_map(|&o| map.iter().map(move |&j| o + j * st)).collect();
    }
    for b in 0..lead {
        offs.extend(base.iter().map(|&o| (b * inner + o) as i64));
    }
    let offs = host(offs, x.device())?;
    let out = backend::take(x, &offs, &os)?;
    let name = match (reflect, k) {
        (true, 1) => "ReflectionPad1DBackward0",
        (true, 2) => "ReflectionPad2DBackward0",
        (true, _) => "ReflectionPad3DBackward0",
        (false, 1) => "ReplicationPad1DBackward0",
        (false, 2) => "ReplicationPad2DBackward0",
        (false, _) => "ReplicationPad3DBackward0",
    };
    let n_in = x.numel();
    record(name, &[x], &[&out], &[Save::In(x)], move |_, g, _| {
        Ok(vec![Some(rs(&put_add(&rs(&contiguous(&g[0])?, &[g[0].numel()])?, &offs, &[n_in])?, &xs)?)])
    })?;
    Node::annotate_with(&out, &[], || vec![("padding", SavedValue::Ints(pads.iter().rev().flat_map(|&(a, b)| [a, b]).collect()))]);
    Ok(out)
}

/// Separable resampling of the last one, two or three dims by weight matrices (out, in):
/// `y = Mh x Mwᵀ`, then `Md` along the depth dim (interpolate's nearest / nearest-exact /
/// linear / bilinear / bicubic / trilinear forms, antialiased or not), recorded as `name`,
/// with the node's `_saved_output_size`, `_saved_scales*` (the scale factors as given, None
/// for a size) and, for the interpolating modes, `_saved_align_corners`.
#[allow(clippy::too_many_arguments)]
pub fn resample(x: &Tensor, md: Option<&Tensor>, mh: Option<&Tensor>, mw: &Tensor, name: &str, output_size: &[usize], scales: &[Option<f64>],
                align_corners: Option<bool>) -> Result<Tensor> {
    const NODES: [&str; 13] = [
        "UpsampleNearest1DBackward0", "UpsampleNearest2DBackward0", "UpsampleNearest3DBackward0",
        "UpsampleNearestExact1DBackward0", "UpsampleNearestExact2DBackward0", "UpsampleNearestExact3DBackward0",
        "UpsampleLinear1DBackward0", "UpsampleBilinear2DBackward0", "UpsampleTrilinear3DBackward0",
        "UpsampleBicubic2DBackward0", "UpsampleBilinear2DAaBackward0", "UpsampleBicubic2DAaBackward0",
        "UpsampleLanczos2DAaBackward0",
    ];
    let Some(&name) = NODES.iter().find(|&&n| n == name) else { bail!(NotImplemented, "resample: unknown node {}", name) };
    ensure!(md.is_none() || (mh.is_some() && x.dim() == 5), Runtime, "resample: a depth matrix needs 5-d input and a height matrix");
    let md = md.map(|m| m.detach());
    let mh = mh.map(|m| m.detach());
    let mwt = t(&mw.detach())?;
    // along the depth dim (-3) of a 5-d tensor: (N, C, D, H·W) with `m` (out, in) on the left
    let depth = |m: &Tensor, v: &Tensor| -> Result<Tensor> {
        let s = v.shape();
        let flat = reshape(&contiguous(v)?, &[s[0] as i64, s[1] as i64, s[2] as i64, (s[3] * s[4]) as i64])?;
        let r = matmul(m, &flat)?;
        reshape(&r, &[s[0] as i64, s[1] as i64, m.shape()[0] as i64, s[3] as i64, s[4] as i64])
    };
    let out = no_grad(|| {
        let y = matmul(x, &mwt)?;
        let y = match &mh { Some(m) => matmul(m, &y)?, None => y };
        match &md { Some(m) => depth(m, &y), None => Ok(y) }
    })?;
    let out = fresh(&out)?;
    record(name, &[x], &[&out], &[], move |_, g, _| {
        let gg = match &md { Some(m) => depth(&t(m)?, &g[0])?, None => g[0].clone() };
        let gg = match &mh { Some(m) => matmul(&t(m)?, &gg)?, None => gg };
        Ok(vec![Some(matmul(&gg, &t(&mwt)?)?)])
    })?;
    Node::annotate_with(&out, &[], || {
        let scale = |s: Option<f64>| s.map_or(SavedValue::None, SavedValue::Float);
        let mut v = vec![("output_size", SavedValue::Ints(output_size.iter().map(|&d| d as i64).collect())),
                         ("self_sym_sizes", SavedValue::Ints(x.shape().iter().map(|&d| d as i64).collect()))];
        match scales {
            [s] => v.push(("scales", scale(*s))),
            [h, w] => { v.push(("scales_h", scale(*h))); v.push(("scales_w", scale(*w))); }
            [d, h, w] => { v.push(("scales_d", scale(*d))); v.push(("scales_h", scale(*h))); v.push(("scales_w", scale(*w))); }
            _ => {}
        }
        if let Some(a) = align_corners { v.push(("align_corners", SavedValue::Bool(a))); }
        v
    });
    Ok(out)
}

/// `adaptive_max_pool2d` (AdaptiveMaxPool2DBackward0): (values, flat int64 indices). Each
/// output cell's window (torch's floor/ceil ranges) is gathered into a row padded with -inf
/// up to the largest window, then reduced.
pub fn adaptive_max_pool2d(x: &Tensor, out: [usize; 2]) -> Result<(Tensor, Tensor)> {
    let xs = x.shape();
    ensure!(xs.len() == 3 || xs.len() == 4, Runtime, "adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: {}", crate::shape::fmt_list(&xs));
    for (i, &d) in xs.iter().enumerate().skip(1) {
        ensure!(d > 0, Runtime, "adaptive_max_pool2d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes {} with dimension {} being empty", crate::shape::fmt_list(&xs), i);
    }
    ensure!(x.dtype().is_float(), NotImplemented, "\"adaptive_max_pool2d\" not implemented for '{}'", x.dtype().scalar_name());
    let nd = xs.len();
    let (h, w) = (xs[nd - 2], xs[nd - 1]);
    let nc: usize = xs[..nd - 2].iter().product();
    let (rh, rw) = (adaptive_ranges(h, out[0]), adaptive_ranges(w, out[1]));
    let kmax = rh.iter().map(|&(a, b)| b - a).max().unwrap_or(0) * rw.iter().map(|&(a, b)| b - a).max().unwrap_or(0);
    let l = out[0] * out[1];
    let hw = h * w;
    // per (cell, slot): the flat input index, or hw (the -inf pad) past the window's end
    let mut table = Vec::with_capacity(l * kmax);
    for &(h0, h1) in &rh {
        for &(w0, w1) in &rw {
            let mut v: Vec<i64> = Vec::with_capacity(kmax);
            for i in h0..h1 {
                for j in w0..w1 { v.push((i * w + j) as i64); }
            }
            v.resize(kmax, hw as i64);
            table.extend(v);
        }
    }
    let mut oshape: Vec<usize> = xs[..nd - 2].to_vec();
    oshape.push(out[0]);
    oshape.push(out[1]);
    let (vals, idx) = no_grad(|| {
        let padded = pad_raw(&rs(x, &[nc, hw])?, &[(0, 1)], f64::NEG_INFINITY)?; // (nc, hw + 1)
        let mut offs = Vec::with_capacity(nc * l * kmax);
        for r in 0..nc {
            for &t in &table { offs.push((r * (hw + 1)) as i64 + t); }
        }
        let win = backend::take(&padded, &host(offs, x.device())?, &[nc, l, kmax])?;
        let (v, arg) = super::max_dim(&win, 2, false, true)?; // (nc, l)
        let tab = host(table.clone(), x.device())?;
        let pos = host((0..l as i64).map(|o| o * kmax as i64).collect(), x.device())?;
        let idx = backend::take(&tab, &binary_raw(&arg, &pos, BinOp::Add)?, &[nc, l])?;
        Ok((rs(&v, &oshape)?, rs(&idx, &oshape)?))
    })?;
    let vals = fresh(&vals)?;
    record_index_pool("AdaptiveMaxPool2DBackward0", x, &vals, &idx, nc, hw)?;
    Node::annotate_with(&vals, &[(1, "result1")], Vec::new);
    Ok((vals, idx))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(shape: &[usize], phase: f64) -> Tensor {
        let n: usize = shape.iter().product();
        let v: Vec<f64> = (0..n).map(|i| (0.7 * i as f64 + phase).sin()).collect();
        crate::tensor::from_f64s(&v, shape, DType::Float64).unwrap()
    }

    fn dot(a: &Tensor, b: &Tensor) -> f64 {
        a.to_f64_vec().unwrap().iter().zip(b.to_f64_vec().unwrap()).map(|(x, y)| x * y).sum()
    }

    #[test]
    fn col2im_is_the_adjoint_of_im2col() {
        let win = Window2d { kernel: [2, 3], stride: [2, 1], dilation: [1, 2], pad: [1, 2, 0, 1] };
        let x = t(&[2, 3, 5, 6], 0.1);
        let cols = im2col(&x, win).unwrap();
        let c = t(&cols.shape(), 0.9);
        let back = col2im(&c, [5, 6], win).unwrap();
        assert!((dot(&cols, &c) - dot(&x, &back)).abs() < 1e-9);
    }

    #[test]
    fn conv2d_matches_a_direct_loop() {
        let (x, w, b) = (t(&[2, 4, 5, 4], 0.3), t(&[6, 2, 3, 2], 1.1), t(&[6], 2.0));
        let o = ConvOpts { stride: vec![2, 1], padding: vec![(1, 1), (0, 2)], dilation: vec![1, 2], groups: 2, transposed: false, output_padding: vec![0, 0] };
        let y = convolution(&x, &w, Some(&b), &o).unwrap();
        let (xv, wv, bv, yv) = (x.to_f64_vec().unwrap(), w.to_f64_vec().unwrap(), b.to_f64_vec().unwrap(), y.to_f64_vec().unwrap());
        let ys = y.shape();
        let (oh, ow) = (ys[2], ys[3]);
        for n in 0..2 {
            for oc in 0..6 {
                let g = oc / 3;
                for i in 0..oh {
                    for j in 0..ow {
                        let mut acc = bv[oc];
                        for ci in 0..2 {
                            for ki in 0..3 {
                                for kj in 0..2 {
                                    let (h, v) = ((i * 2 + ki) as i64 - 1, (j + kj * 2) as i64);
                                    if h >= 0 && h < 5 && v < 4 {
                                        let c = g * 2 + ci;
                                        acc += xv[((n * 4 + c) * 5 + h as usize) * 4 + v as usize] * wv[((oc * 2 + ci) * 3 + ki) * 2 + kj];
                                    }
                                }
                            }
                        }
                        let got = yv[((n * 6 + oc) * oh + i) * ow + j];
                        assert!((got - acc).abs() < 1e-9, "({n},{oc},{i},{j}): {got} vs {acc}");
                    }
                }
            }
        }
    }

    #[test]
    fn max_pool_indices_point_at_the_maxima() {
        let x = t(&[1, 2, 5, 6], 0.4);
        let (v, idx) = max_pool2d(&x, [3, 2], Some([2, 2]), [1, 1], [1, 1], true).unwrap();
        let xv = x.to_f64_vec().unwrap();
        for (k, (val, i)) in v.to_f64_vec().unwrap().iter().zip(idx.to_i64_vec().unwrap()).enumerate() {
            let plane = k / (v.shape()[2] * v.shape()[3]);
            assert_eq!(*val, xv[plane * 30 + i as usize]);
        }
    }
}
