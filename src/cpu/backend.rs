//! The CPU side of the backend contract: `BackendStorage` for `CpuStorage`, delegating to
//! the kernels of this folder.

use super::{elementwise, index, reduce, MatmulArgs};
use crate::backend::{BackendStorage, BinaryOp, Conv2d, ConvWindow, PutReduce, ReduceOp, ScanOp, UnaryOp};
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::shape::{walk2, Layout};
use crate::storage::{CpuStorage, StorageElem};
use crate::tensor::Scalar;
use crate::{all_types, bail, num_types};

impl BackendStorage for CpuStorage {
    fn device(&self) -> Device {
        Device::Cpu
    }
    fn dtype(&self) -> DType {
        CpuStorage::dtype(self)
    }
    fn unary(&self, l: &Layout, op: UnaryOp) -> Result<Self> {
        elementwise::unary(self, l, op)
    }
    fn binary(&self, la: &Layout, rhs: &Self, lb: &Layout, op: BinaryOp) -> Result<Self> {
        elementwise::binary(self, la, rhs, lb, op)
    }
    fn where_cond(&self, lc: &Layout, a: &Self, la: &Layout, b: &Self, lb: &Layout) -> Result<Self> {
        elementwise::where_cond(self, lc, a, la, b, lb)
    }
    fn cast(&self, l: &Layout, dtype: DType) -> Result<Self> {
        super::contiguous_cast(self, l, dtype)
    }
    fn copy_strided(&mut self, dl: &Layout, src: &Self, sl: &Layout) -> Result<()> {
        if src.dtype() != CpuStorage::dtype(self) {
            bail!(Runtime, "invariant: strided copy within one dtype");
        }
        all_types!(src.dtype(), T => {
            let s = T::get(src);
            let d = T::get_mut(self);
            if let (Some(rd), Some(rs)) = (dl.contiguous_range(), sl.contiguous_range()) {
                super::par_zip1(&mut d[rd], &s[rs], |o, x| o.copy_from_slice(x));
            } else if !super::copy_rows_between(d, dl, s, sl) {
                walk2(dl, sl, |od, os| d[od] = s[os]);
            }
        });
        Ok(())
    }
    fn reduce(&self, l: &Layout, row: usize, op: ReduceOp, out_dtype: DType) -> Result<Self> {
        reduce::reduce(self, l, row, op, out_dtype)
    }
    fn reduce_leading(&self, l: &Layout, inner: usize, op: ReduceOp) -> Result<Option<Self>> {
        reduce::reduce_leading(self, l, inner, op)
    }
    fn layer_norm_rows(&self, l: &Layout, r: usize, w: Option<(&Self, &Layout)>, b: Option<(&Self, &Layout)>, eps: f64) -> Result<Option<(Self, Self, Self)>> {
        let n = l.numel();
        macro_rules! go {
            ($T:ty) => {{
                let wv = w.map(|(s, wl)| &<$T>::get(s)[wl.offset..wl.offset + r]);
                let bv = b.map(|(s, bl)| &<$T>::get(s)[bl.offset..bl.offset + r]);
                let (y, m, v) = super::norm::layer_norm(&<$T>::get(self)[l.offset..l.offset + n], r, wv, bv, eps)?;
                Some((<$T>::wrap(y), <$T>::wrap(m), <$T>::wrap(v)))
            }};
        }
        Ok(match CpuStorage::dtype(self) {
            DType::Float32 => go!(f32),
            DType::Float64 => go!(f64),
            _ => None,
        })
    }
    fn layer_norm_rows_backward(&self, l: &Layout, x: (&Self, &Layout), r: usize, w: Option<(&Self, &Layout)>, eps: f64,
                                want_w: bool, want_b: bool) -> Result<Option<(Self, Option<Self>, Option<Self>)>> {
        let n = l.numel();
        macro_rules! go {
            ($T:ty) => {{
                let wv = w.map(|(s, wl)| &<$T>::get(s)[wl.offset..wl.offset + r]);
                let xv = &<$T>::get(x.0)[x.1.offset..x.1.offset + n];
                let (gx, gw, gb) = super::norm::layer_norm_backward(&<$T>::get(self)[l.offset..l.offset + n], xv, r, wv, eps, want_w, want_b)?;
                Some((<$T>::wrap(gx), gw.map(<$T>::wrap), gb.map(<$T>::wrap)))
            }};
        }
        Ok(match (CpuStorage::dtype(self), CpuStorage::dtype(x.0)) {
            (DType::Float32, DType::Float32) => go!(f32),
            (DType::Float64, DType::Float64) => go!(f64),
            _ => None,
        })
    }
    fn batch_norm_backward(&self, l: &Layout, x: (&Self, &Layout), mean: (&Self, &Layout), invstd: (&Self, &Layout),
                           w: Option<(&Self, &Layout)>, ncs: (usize, usize, usize), training: bool, want: [bool; 3])
                           -> Result<Option<(Option<Self>, Option<Self>, Option<Self>)>> {
        let (n, c, s) = ncs;
        let len = n * c * s;
        macro_rules! go {
            ($T:ty) => {{
                let (gx, gw, gb) = super::norm::batch_norm_backward(
                    part::<$T>((self, l), len), part::<$T>(x, len), part::<$T>(mean, c), part::<$T>(invstd, c),
                    w.map(|wv| part::<$T>(wv, c)), ncs, training,
                    want[0], want[1], want[2])?;
                Some((gx.map(<$T>::wrap), gw.map(<$T>::wrap), gb.map(<$T>::wrap)))
            }};
        }
        Ok(match (CpuStorage::dtype(self), CpuStorage::dtype(x.0)) {
            (DType::Float32, DType::Float32) => go!(f32),
            (DType::Float64, DType::Float64) => go!(f64),
            _ => None,
        })
    }
    fn channel_stats(&self, l: &Layout, ncs: (usize, usize, usize)) -> Result<Option<(Self, Self)>> {
        let len = ncs.0 * ncs.1 * ncs.2;
        macro_rules! go {
            ($T:ty) => {{
                let (m, v) = super::norm::channel_stats(part::<$T>((self, l), len), ncs);
                let cast = |v: Vec<f64>| -> Vec<$T> { v.into_iter().map(<$T as crate::dtype::Elem>::from_f64).collect() };
                Some((<$T>::wrap(cast(m)), <$T>::wrap(cast(v))))
            }};
        }
        Ok(match CpuStorage::dtype(self) {
            DType::Float32 => go!(f32),
            DType::Float64 => go!(f64),
            _ => None,
        })
    }
    fn channel_affine(&self, l: &Layout, ncs: (usize, usize, usize), alpha: (&Self, &Layout), beta: (&Self, &Layout)) -> Result<Option<Self>> {
        let len = ncs.0 * ncs.1 * ncs.2;
        macro_rules! go {
            ($T:ty) => {{
                Some(<$T>::wrap(super::norm::channel_affine(part::<$T>((self, l), len), ncs, part::<$T>(alpha, ncs.1), part::<$T>(beta, ncs.1))?))
            }};
        }
        Ok(match CpuStorage::dtype(self) {
            DType::Float32 => go!(f32),
            DType::Float64 => go!(f64),
            _ => None,
        })
    }
    fn lstm_cell(&self, l: &Layout, hw: (&Self, &Layout), c: (&Self, &Layout), (b, h): (usize, usize)) -> Result<Option<Vec<Self>>> {
        Ok(match CpuStorage::dtype(self) {
            DType::Float32 => {
                let out = super::rnn::lstm_cell_f32(part::<f32>((self, l), b * 4 * h), part::<f32>(hw, b * 4 * h), part::<f32>(c, b * h), h)?;
                Some(out.into_iter().map(f32::wrap).collect())
            }
            _ => None,
        })
    }
    fn attention(&self, l: &Layout, k: (&Self, &Layout), v: (&Self, &Layout), mask: Option<(&Self, &Layout)>, spec: &crate::backend::Attention)
                 -> Result<Option<(Self, Self)>> {
        let kv = spec.b * spec.hk * spec.s * spec.e;
        macro_rules! go {
            ($T:ty) => {{
                let m = mask.map(|(s, ml)| attention_mask::<$T>(s, ml));
                let (o, lse) = super::attention::forward(part::<$T>((self, l), l.numel()), part::<$T>(k, kv), part::<$T>(v, kv), m, spec)?;
                Some((<$T>::wrap(o), <$T>::wrap(lse)))
            }};
        }
        Ok(match CpuStorage::dtype(self) {
            DType::Float32 => go!(f32),
            DType::Float64 => go!(f64),
            _ => None,
        })
    }
    fn attention_backward(&self, l: &Layout, saved: [(&Self, &Layout); 5], mask: Option<(&Self, &Layout)>, spec: &crate::backend::Attention, want: [bool; 3])
                          -> Result<Option<(Option<Self>, Option<Self>, Option<Self>)>> {
        macro_rules! go {
            ($T:ty) => {{
                let m = mask.map(|(s, ml)| attention_mask::<$T>(s, ml));
                let [q, k, v, o, lse] = saved.map(|(s, sl)| part::<$T>((s, sl), sl.numel()));
                let (dq, dk, dv) = super::attention::backward(part::<$T>((self, l), l.numel()), [q, k, v, o, lse], m, spec, want)?;
                Some((dq.map(<$T>::wrap), dk.map(<$T>::wrap), dv.map(<$T>::wrap)))
            }};
        }
        Ok(match CpuStorage::dtype(self) {
            DType::Float32 => go!(f32),
            DType::Float64 => go!(f64),
            _ => None,
        })
    }
    fn grid_sampler(&self, l: &Layout, rest: &[Option<(&Self, &Layout)>], pass: crate::backend::GridPass, spec: &crate::backend::GridSampler, want: &[bool]) -> Result<Vec<Option<Self>>> {
        macro_rules! go {
            ($T:ty) => {{
                let mut ops: Vec<Option<&[$T]>> = vec![Some(&<$T>::get(self)[l.offset..l.offset + l.numel()])];
                for o in rest {
                    ops.push(match o {
                        Some((s, sl)) if CpuStorage::dtype(*s) == CpuStorage::dtype(self) => Some(&<$T>::get(s)[sl.offset..sl.offset + sl.numel()]),
                        Some(_) => crate::bail!(Runtime, "invariant: grid_sampler's operands share a dtype"),
                        None => None,
                    });
                }
                super::grid::grid_sampler(pass, spec, &ops, want)?.into_iter().map(|o| o.map(<$T>::wrap)).collect()
            }};
        }
        Ok(match CpuStorage::dtype(self) {
            DType::Float32 => go!(f32),
            DType::Float64 => go!(f64),
            d => crate::bail!(NotImplemented, "\"grid_sampler_cpu\" not implemented for '{}'", d.scalar_name()),
        })
    }
    fn clamp_backward(&self, l: &Layout, x: (&Self, &Layout), lo: f64, hi: f64) -> Result<Option<Self>> {
        elementwise::clamp_backward(self, l, x.0, x.1, lo, hi).map(Some)
    }
    fn softmax_mid(&self, l: &Layout, dims: [usize; 3], log: bool) -> Result<Option<Self>> {
        let dt = CpuStorage::dtype(self);
        if dt.is_half() && !log {
            // ATen's reduced-precision kernel in float32 (widened here, rounded back once),
            // its columns split over the threads with grain 0
            let round = super::half_rounding(dt);
            let wide = super::contiguous_cast(self, l, DType::Float32)?;
            let x = f32::get(&wide);
            let mut out = super::alloc::take::<f32>(x.len())?;
            let parts = super::math::aten_parts(dims[0] * dims[2], 0, crate::runtime::num_threads());
            let o = super::team::SendPtr(out.as_mut_ptr());
            super::team::run(parts.len(), &|p| {
                // SAFETY: `out` holds outer·dim·inner elements and outlives `run`; the parts
                // are disjoint column ranges, so no element is written by two parts.
                unsafe { super::math::softmax_mid_f32(x, o.get(), dims, parts[p].clone(), Some(round)) }
            });
            let out = f32::wrap(out);
            return Ok(Some(super::contiguous_cast(&out, &Layout::contiguous(&l.shape), dt)?));
        }
        if dt != DType::Float32 {
            return Ok(None);
        }
        let n = l.numel();
        let x = &f32::get(self)[l.offset..l.offset + n];
        let mut out = super::alloc::take::<f32>(n)?;
        if log {
            // ATen's chunks of columns (128 KiB of a chunk's rows); every task's values are
            // the same whichever thread runs it
            let w = super::math::aten_lanes();
            let chunk = (131_072 / dims[1].max(1) / 4).max(w) / w * w;
            let tasks = dims[0] * dims[2].div_ceil(chunk);
            let per = tasks.div_ceil(crate::runtime::num_threads().max(1));
            let o = super::team::SendPtr(out.as_mut_ptr());
            super::team::run(tasks.div_ceil(per.max(1)), &|p| {
                // SAFETY: `out` holds outer·dim·inner elements and outlives `run`; the task
                // ranges are disjoint, and so are their columns.
                unsafe { super::math::log_softmax_mid_f32(x, o.get(), dims, chunk, p * per..((p + 1) * per).min(tasks)) }
            });
            return Ok(Some(f32::wrap(out)));
        }
        // ATen's split of the columns over its threads (where a part starts decides which
        // columns take the vector path), the parts run on the team
        let grain = (32768 / dims[1].max(1)).max(1);
        let parts = super::math::aten_parts(dims[0] * dims[2], grain, crate::runtime::num_threads());
        let o = super::team::SendPtr(out.as_mut_ptr());
        super::team::run(parts.len(), &|p| {
            // SAFETY: `out` holds outer·dim·inner elements and outlives `run`; the parts are
            // disjoint column ranges, so no element is written by two parts.
            unsafe { super::math::softmax_mid_f32(x, o.get(), dims, parts[p].clone(), None) }
        });
        Ok(Some(f32::wrap(out)))
    }
    fn addc(&self, l: &Layout, a: (&Self, &Layout), b: (&Self, &Layout), v: f64, div: bool) -> Result<Option<Self>> {
        let n = l.numel();
        macro_rules! go {
            ($T:ty, $v:expr) => {{
                fn part<'a>(st: &'a CpuStorage, l: &Layout, n: usize) -> &'a [$T] { &<$T>::get(st)[l.offset..l.offset + n] }
                Some(<$T>::wrap(super::addc(part(self, l, n), part(a.0, a.1, n), part(b.0, b.1, n), $v, div)?))
            }};
        }
        Ok(match (CpuStorage::dtype(self), CpuStorage::dtype(a.0), CpuStorage::dtype(b.0)) {
            (DType::Float32, DType::Float32, DType::Float32) => go!(f32, v as f32),
            (DType::Float64, DType::Float64, DType::Float64) => go!(f64, v),
            _ => None,
        })
    }
    fn addc_into(&mut self, l: &Layout, a: (&Self, &Layout), b: (&Self, &Layout), v: f64, div: bool) -> Result<bool> {
        let n = l.numel();
        macro_rules! go {
            ($T:ty, $v:expr) => {{
                let (pa, pb) = (&<$T>::get(a.0)[a.1.offset..a.1.offset + n], &<$T>::get(b.0)[b.1.offset..b.1.offset + n]);
                super::addc_into(&mut <$T>::get_mut(self)[l.offset..l.offset + n], pa, pb, $v, div);
                true
            }};
        }
        Ok(match (CpuStorage::dtype(self), CpuStorage::dtype(a.0), CpuStorage::dtype(b.0)) {
            (DType::Float32, DType::Float32, DType::Float32) => go!(f32, v as f32),
            (DType::Float64, DType::Float64, DType::Float64) => go!(f64, v),
            _ => false,
        })
    }
    fn lerp_scalar(&self, l: &Layout, end: (&Self, &Layout), w: f64) -> Result<Option<Self>> {
        if CpuStorage::dtype(self) != DType::Float32 || CpuStorage::dtype(end.0) != DType::Float32 {
            return Ok(None);
        }
        let n = l.numel();
        let a = &f32::get(self)[l.offset..l.offset + n];
        let e = &f32::get(end.0)[end.1.offset..end.1.offset + n];
        let mut out = super::alloc::take::<f32>(n)?;
        super::par_zip2(&mut out, a, e, |o, a, e| super::math::lerp_f32(a, e, w as f32, o));
        Ok(Some(f32::wrap(out)))
    }
    fn max_pool2d(&self, l: &Layout, planes: usize, hw: [usize; 2], pool: &crate::backend::Pool2d, out: [usize; 2]) -> Result<Option<(Self, Self)>> {
        let n = planes * hw[0] * hw[1];
        macro_rules! go {
            ($T:ty) => {{
                let (v, i) = super::pool::max_pool2d(&<$T>::get(self)[l.offset..l.offset + n], planes, hw, pool, out)?;
                Some((<$T>::wrap(v), i64::wrap(i)))
            }};
        }
        Ok(match CpuStorage::dtype(self) {
            DType::Float32 => go!(f32),
            DType::Float64 => go!(f64),
            _ => None,
        })
    }
    fn max_pool2d_backward(&self, l: &Layout, ind: (&Self, &Layout), planes: usize, hw: usize, out_l: usize) -> Result<Option<Self>> {
        let n = planes * out_l;
        if CpuStorage::dtype(ind.0) != DType::Int64 {
            return Ok(None);
        }
        let iv = &i64::get(ind.0)[ind.1.offset..ind.1.offset + n];
        Ok(match CpuStorage::dtype(self) {
            DType::Float32 => Some(f32::wrap(super::pool::max_pool2d_backward(&f32::get(self)[l.offset..l.offset + n], iv, planes, hw, out_l)?)),
            DType::Float64 => Some(f64::wrap(super::pool::max_pool2d_backward(&f64::get(self)[l.offset..l.offset + n], iv, planes, hw, out_l)?)),
            _ => None,
        })
    }
    fn max_pool_windows(&self, l: &Layout, planes: usize, w: &crate::backend::PoolWindows) -> Result<Option<(Self, Self)>> {
        let n = planes * w.plane();
        macro_rules! go {
            ($T:ty) => {{
                let (v, i) = super::pool::max_pool_windows(&<$T>::get(self)[l.offset..l.offset + n], planes, w)?;
                Some((<$T>::wrap(v), i64::wrap(i)))
            }};
        }
        // every real dtype: a comparison scan (the pad value of an empty window is never
        // reached: each window of a valid pooling has a tap inside the input)
        Ok(match CpuStorage::dtype(self) {
            DType::Float32 => go!(f32),
            DType::Float64 => go!(f64),
            DType::Float16 => go!(half::f16),
            DType::BFloat16 => go!(half::bf16),
            DType::Int64 => go!(i64),
            DType::Int32 => go!(i32),
            DType::Int16 => go!(i16),
            DType::Int8 => go!(i8),
            DType::UInt8 => go!(u8),
            _ => None,
        })
    }
    fn avg_pool_windows(&self, l: &Layout, planes: usize, w: &crate::backend::PoolWindows, divs: &[f64], backward: bool) -> Result<Option<Self>> {
        let n = planes * if backward { w.positions() } else { w.plane() };
        macro_rules! go {
            ($T:ty) => {{
                let x = &<$T>::get(self)[l.offset..l.offset + n];
                Some(<$T>::wrap(if backward { super::pool::avg_pool_windows_backward(x, planes, w, divs)? } else { super::pool::avg_pool_windows(x, planes, w, divs)? }))
            }};
        }
        Ok(match CpuStorage::dtype(self) {
            DType::Float32 => go!(f32),
            DType::Float64 => go!(f64),
            DType::Int64 if !backward => go!(i64),
            _ => None,
        })
    }
    fn gather_rows(&self, l: &Layout, rows: &[usize], inner: usize, within: crate::backend::RowOrder) -> Result<Option<Self>> {
        if CpuStorage::dtype(self).is_complex() {
            return Ok(None);
        }
        Ok(Some(all_types!(CpuStorage::dtype(self), T => T::wrap(super::gather_rows(&T::get(self)[l.offset..], rows, inner, within)?))))
    }
    fn int_range(&self, l: &Layout) -> Result<Option<(i64, i64)>> {
        let CpuStorage::I64(v) = self else { return Ok(None) };
        let v = &v[l.offset..l.offset + l.numel()];
        if v.is_empty() {
            return Ok(None);
        }
        // eight lanes of min/max (vectorised: 64-bit compares need more than the baseline
        // target's SSE2, hence `simd`), then the lanes
        let (lo, hi) = super::math::simd(|| {
            let (mut lo, mut hi) = ([i64::MAX; 8], [i64::MIN; 8]);
            for c in v.chunks_exact(8) {
                for k in 0..8 {
                    lo[k] = lo[k].min(c[k]);
                    hi[k] = hi[k].max(c[k]);
                }
            }
            (lo, hi)
        });
        let tail = v.chunks_exact(8).remainder();
        let lo = tail.iter().chain(lo.iter()).copied().min().unwrap_or(i64::MAX);
        let hi = tail.iter().chain(hi.iter()).copied().max().unwrap_or(i64::MIN);
        Ok(Some((lo, hi)))
    }
    fn nonzero_positions(&self, l: &Layout) -> Result<Option<Vec<usize>>> {
        if CpuStorage::dtype(self).is_complex() {
            return Ok(None);
        }
        Ok(Some(all_types!(CpuStorage::dtype(self), T => {
            let v = &T::get(self)[l.offset..l.offset + l.numel()];
            let zero = T::default();
            // count first (a vector loop), then one exact allocation
            let n = v.iter().filter(|&&x| x != zero).count();
            let mut out = Vec::new();
            out.try_reserve_exact(n + 1).map_err(|_| Error::Runtime(format!("DefaultCPUAllocator: can't allocate memory: you tried to allocate {} bytes.", (n + 1) * 8)))?;
            out.resize(n + 1, 0);
            // branch-free compaction (a half-full mask mispredicts every other branch): every
            // position is written, the cursor moves past the non-zero ones; the one slot of
            // slack takes the write after the last hit
            let mut w = 0;
            for (i, &x) in v.iter().enumerate() {
                out[w] = i;
                w += (x != zero) as usize;
            }
            out.truncate(n);
            out
        })))
    }
    fn gather_dim(&self, l: &Layout, index: (&Self, &Layout), ishape: &[usize], d: usize) -> Result<Option<Self>> {
        let CpuStorage::I64(iv) = index.0 else { return Ok(None) };
        let idx = &iv[index.1.offset..index.1.offset + index.1.numel()];
        Ok(match CpuStorage::dtype(self) {
            DType::Float32 => Some(f32::wrap(super::gather_dim(&f32::get(self)[l.offset..], &l.shape, idx, ishape, d)?)),
            DType::Float64 => Some(f64::wrap(super::gather_dim(&f64::get(self)[l.offset..], &l.shape, idx, ishape, d)?)),
            DType::Int64 => Some(i64::wrap(super::gather_dim(&i64::get(self)[l.offset..], &l.shape, idx, ishape, d)?)),
            _ => None,
        })
    }
    fn index_add_rows(&self, l: &Layout, rows: &[usize], inner: usize, base_rows: usize) -> Result<Option<Self>> {
        Ok(match CpuStorage::dtype(self) {
            DType::Float32 => Some(f32::wrap(super::index_add_rows(&f32::get(self)[l.offset..], rows, inner, base_rows)?)),
            DType::Float64 => Some(f64::wrap(super::index_add_rows(&f64::get(self)[l.offset..], rows, inner, base_rows)?)),
            _ => None,
        })
    }
    fn add_rows_into(&mut self, at: usize, rows: &[usize], inner: usize, src: &Self, sl: &Layout) -> Result<bool> {
        macro_rules! go {
            ($T:ty) => {{
                let len = <$T>::get(self).len();
                if rows.iter().any(|&r| at + (r + 1) * inner > len) || sl.offset + rows.len() * inner > <$T>::get(src).len() {
                    return Err(Error::Runtime("invariant: index_add_ rows outside the tensor".into()));
                }
                let s = &<$T>::get(src)[sl.offset..sl.offset + rows.len() * inner];
                let d = <$T>::get_mut(self);
                if inner == 1 {
                    // single elements: one add each, no row slices
                    let d = &mut d[at..];
                    for (&r, &v) in rows.iter().zip(s) {
                        d[r] += v;
                    }
                    return Ok(true);
                }
                super::math::simd(|| {
                    for (&r, sr) in rows.iter().zip(s.chunks_exact(inner.max(1))) {
                        for (o, &v) in d[at + r * inner..at + (r + 1) * inner].iter_mut().zip(sr) {
                            *o += v;
                        }
                    }
                });
                Ok(true)
            }};
        }
        if inner == 0 {
            return Ok(true);
        }
        match CpuStorage::dtype(self) {
            DType::Float32 => go!(f32),
            DType::Float64 => go!(f64),
            _ => Ok(false),
        }
    }
    fn scatter_add_strided(&self, src: &Layout, dst: &Layout, base_numel: usize) -> Result<Option<Self>> {
        Ok(match CpuStorage::dtype(self) {
            DType::Float32 => Some(f32::wrap(super::scatter_add_rows(&f32::get(self)[src.offset..], dst, base_numel)?)),
            DType::Float64 => Some(f64::wrap(super::scatter_add_rows(&f64::get(self)[src.offset..], dst, base_numel)?)),
            _ => None,
        })
    }
    fn im2col(&self, l: &Layout, nchw: [usize; 4], win: &ConvWindow, batch_inner: bool, fill: f64) -> Result<Option<Self>> {
        let x = l.offset..l.offset + l.numel();
        Ok(match CpuStorage::dtype(self) {
            DType::Float32 => Some(f32::wrap(super::conv::im2col(&f32::get(self)[x], nchw, win, batch_inner, fill as f32)?)),
            DType::Float64 => Some(f64::wrap(super::conv::im2col(&f64::get(self)[x], nchw, win, batch_inner, fill)?)),
            _ => None,
        })
    }
    fn col2im(&self, l: &Layout, nchw: [usize; 4], win: &ConvWindow, batch_inner: bool) -> Result<Option<Self>> {
        let x = l.offset..l.offset + l.numel();
        Ok(match CpuStorage::dtype(self) {
            DType::Float32 => Some(f32::wrap(super::conv::col2im(&f32::get(self)[x], nchw, win, batch_inner)?)),
            DType::Float64 => Some(f64::wrap(super::conv::col2im(&f64::get(self)[x], nchw, win, batch_inner)?)),
            _ => None,
        })
    }
    fn conv2d(&self, l: &Layout, w: (&Self, &Layout), b: Option<(&Self, &Layout)>, conv: &Conv2d) -> Result<Option<Self>> {
        let [n, c, h, wd] = conv.nchw;
        let wn = conv.oc * (c / conv.groups) * conv.win.kernel[0] * conv.win.kernel[1];
        macro_rules! go {
            ($T:ty) => {{
                let out = super::conv::conv2d(part::<$T>((self, l), n * c * h * wd), part::<$T>(w, wn), b.map(|bv| part::<$T>(bv, conv.oc)), conv)?;
                Some(<$T>::wrap(out))
            }};
        }
        Ok(match CpuStorage::dtype(self) {
            DType::Float32 => go!(f32),
            DType::Float64 => go!(f64),
            _ => None,
        })
    }
    fn conv2d_backward(&self, l: &Layout, x: (&Self, &Layout), w: (&Self, &Layout), conv: &Conv2d, want: [bool; 2]) -> Result<Option<(Option<Self>, Option<Self>)>> {
        let [n, c, h, wd] = conv.nchw;
        let wn = conv.oc * (c / conv.groups) * conv.win.kernel[0] * conv.win.kernel[1];
        let gn = n * conv.oc * conv.win.out[0] * conv.win.out[1];
        macro_rules! go {
            ($T:ty) => {{
                let (gx, gw) = super::conv::conv2d_backward(part::<$T>((self, l), gn), part::<$T>(x, n * c * h * wd), part::<$T>(w, wn), conv, want)?;
                Some((gx.map(<$T>::wrap), gw.map(<$T>::wrap)))
            }};
        }
        Ok(match CpuStorage::dtype(self) {
            DType::Float32 => go!(f32),
            DType::Float64 => go!(f64),
            _ => None,
        })
    }
    fn arg_reduce(&self, l: &Layout, row: usize, is_max: bool) -> Result<(Self, Self)> {
        reduce::arg_reduce(self, l, row, is_max)
    }
    fn scan(&self, l: &Layout, row: usize, op: ScanOp) -> Result<Self> {
        reduce::scan(self, l, row, op)
    }
    fn argsort_rows(&self, l: &Layout, row: usize, descending: bool) -> Result<Self> {
        reduce::argsort_rows(self, l, row, descending)
    }
    fn topk_rows(&self, l: &Layout, row: usize, k: usize, largest: bool, sorted: bool) -> Result<Self> {
        reduce::topk_rows(self, l, row, k, largest, sorted)
    }
    fn matmul(&self, la: &Layout, rhs: &Self, lb: &Layout) -> Result<Self> {
        let (bs, m, k, n) = (la.shape[0], la.shape[1], la.shape[2], lb.shape[2]);
        let dt = CpuStorage::dtype(self);
        if dt == DType::Bool {
            return Err(Error::Unsupported { op: "mm", dtype: dt, device: Device::Cpu });
        }
        let args = MatmulArgs { m, k, n, a_rs: la.strides[1] as isize, a_cs: la.strides[2] as isize, b_rs: lb.strides[1] as isize, b_cs: lb.strides[2] as isize };
        Ok(num_types!(dt, T => {
            let (x, y) = (T::get(self), T::get(rhs));
            // every element is written by the product (`read_dst` off); zeros only for k = 0
            let total = crate::shape::numel_checked(&[bs, m, n])?;
            let mut c = if k > 0 { super::alloc::take::<T>(total)? } else { super::alloc::try_zeroed::<T>(total)? };
            if k > 0 {
                super::gemm_batch(&args, bs, x, la.offset, la.strides[0], y, lb.offset, lb.strides[0], &mut c);
            }
            T::wrap(c)
        }))
    }
    fn take(&self, l: &Layout, offsets: &Self) -> Result<Self> {
        index::take(self, l, offsets)
    }
    fn put(&mut self, offsets: &Self, src: &Self, accumulate: bool) -> Result<()> {
        index::put(self, offsets, src, accumulate)
    }
    fn put_reduce(&mut self, offsets: &Self, src: &Self, op: PutReduce) -> Result<()> {
        index::put_reduce(self, offsets, src, op)
    }
    fn full(_device: Device, dtype: DType, n: usize, v: Scalar) -> Result<Self> {
        CpuStorage::filled(dtype, n, v)
    }
    fn to_host(&self) -> Result<CpuStorage> {
        Ok(self.clone_buffer())
    }
    fn from_host(_device: Device, src: &CpuStorage) -> Result<Self> {
        Ok(src.clone_buffer())
    }
}

/// The `k` elements of a contiguous operand from its layout's offset.
/// An attention mask read through its (b, h, l, s) layout.
fn attention_mask<'a, T: StorageElem>(s: &'a CpuStorage, l: &Layout) -> super::attention::Mask<'a, T> {
    let st = &l.strides;
    super::attention::Mask { data: T::get(s), offset: l.offset, strides: [st[0] as isize, st[1] as isize, st[2] as isize, st[3] as isize] }
}

fn part<'a, T: StorageElem>((s, l): (&'a CpuStorage, &Layout), k: usize) -> &'a [T] {
    &T::get(s)[l.offset..l.offset + k]
}
