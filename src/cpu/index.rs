//! Gather and scatter by logical offsets: `take` (indexing, flip, gather) and `put`
//! (index_put, and scatter-add for their gradients).

use crate::error::Result;
use crate::shape::Layout;
use crate::backend::PutReduce;
use crate::storage::{CpuStorage, StorageElem};
use crate::{all_types, bail};

/// Storage offset of the element at row-major logical position `flat` of `l`.
#[inline]
fn storage_offset(l: &Layout, mut flat: usize) -> usize {
    let mut off = l.offset;
    for d in (0..l.ndim()).rev() {
        let n = l.shape[d];
        if n == 0 {
            return off;
        }
        off += (flat % n) * l.strides[d];
        flat /= n;
    }
    off
}

/// Offsets as indices below `n`, or PyTorch's out-of-range error.
fn checked(offsets: &CpuStorage, n: usize) -> Result<&[i64]> {
    let CpuStorage::I64(o) = offsets else { bail!(Runtime, "invariant: int64 offsets") };
    // one branch-free (vectorised) pass; the first bad offset is looked for only if one is
    // (a negative offset is a huge unsigned one)
    let any_bad = super::math::simd(|| o.iter().fold(false, |acc, &v| acc | (v as u64 >= n as u64)));
    if any_bad {
        if let Some(&bad) = o.iter().find(|&&o| o < 0 || o as usize >= n) {
            bail!(Index, "index {} is out of bounds for size {}", bad, n);
        }
    }
    Ok(o)
}

/// The elements of `l` at logical positions `offsets` (int64).
pub fn take(s: &CpuStorage, l: &Layout, offsets: &CpuStorage) -> Result<CpuStorage> {
    let offsets = checked(offsets, l.numel())?;
    let contiguous = l.is_contiguous();
    Ok(all_types!(s.dtype(), T => {
        let b = T::get(s);
        // the output from the buffer cache (a fresh block faults its pages in one by one)
        let mut out = super::alloc::take::<T>(offsets.len())?;
        if contiguous {
            let b = &b[l.offset..];
            for (d, &o) in out.iter_mut().zip(offsets) {
                *d = b[o as usize];
            }
        } else {
            for (d, &o) in out.iter_mut().zip(offsets) {
                *d = b[storage_offset(l, o as usize)];
            }
        }
        T::wrap(out)
    }))
}

/// `dst[offsets[i]] (+)= src[i]` into the contiguous `dst`.
pub fn put(dst: &mut CpuStorage, offsets: &CpuStorage, src: &CpuStorage, accumulate: bool) -> Result<()> {
    combine_into(dst, offsets, src, accumulate.then_some(PutReduce::Add))
}

/// `dst[offsets[i]] = op(dst[offsets[i]], src[i])` into the contiguous `dst`, in index order
/// (scatter_reduce's kernel). Max and min propagate NaN from either side, as PyTorch's.
pub fn put_reduce(dst: &mut CpuStorage, offsets: &CpuStorage, src: &CpuStorage, op: PutReduce) -> Result<()> {
    combine_into(dst, offsets, src, Some(op))
}

/// The loop of `put` and `put_reduce`: each `src[i]` written at `offsets[i]` (`op` None), or
/// combined with the value there by `op`, in index order.
fn combine_into(dst: &mut CpuStorage, offsets: &CpuStorage, src: &CpuStorage, op: Option<PutReduce>) -> Result<()> {
    let offsets = checked(offsets, dst.len())?;
    if src.len() < offsets.len() {
        bail!(Runtime, "invariant: put source shorter than its offsets");
    }
    match (dst, src) {
        (CpuStorage::Bool(d), CpuStorage::Bool(s)) => {
            for (i, &o) in offsets.iter().enumerate() {
                let o = o as usize;
                d[o] = match op {
                    None => s[i],
                    Some(PutReduce::Add | PutReduce::Max) => d[o] | s[i],
                    Some(PutReduce::Mul | PutReduce::Min) => d[o] & s[i],
                };
            }
        }
        (d, s) => crate::num_types!(d.dtype(), T => {
            let s = T::get(s);
            let d = T::get_mut(d);
            // NaN is the one value not equal to itself
            #[allow(clippy::eq_op)]
            let nan = |v: T| v != v;
            let s = &s[..offsets.len()];
            if op.is_none() {
                // a plain write, the loop on its own (no combine per element)
                for (&o, &v) in offsets.iter().zip(s) {
                    // SAFETY: `checked` found every offset in 0..d.len() (d is the storage
                    // it was checked against: `dst`, of `dst.len()` elements).
                    unsafe { *d.get_unchecked_mut(o as usize) = v };
                }
                return Ok(());
            }
            for (i, &o) in offsets.iter().enumerate() {
                let (o, v) = (o as usize, s[i]);
                let cur = d[o];
                d[o] = match op {
                    None => v,
                    Some(PutReduce::Add) => cur + v,
                    Some(PutReduce::Mul) => cur * v,
                    Some(PutReduce::Max) => if nan(v) || cur < v { v } else { cur },
                    Some(PutReduce::Min) => if nan(v) || cur > v { v } else { cur },
                };
            }
        }),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn take_through_strides() {
        let s = f32::wrap(vec![0., 1., 2., 3., 4., 5.]);
        // the transpose of a 2x3 matrix
        let l = Layout { shape: [3usize, 2].into_iter().collect(), strides: [1usize, 3].into_iter().collect(), offset: 0 };
        let t = take(&s, &l, &i64::wrap(vec![0, 1, 2, 5])).unwrap();
        assert!(take(&s, &l, &i64::wrap(vec![6])).is_err(), "out of range is an error, not a read");
        assert!(take(&s, &l, &i64::wrap(vec![-1])).is_err());
        assert_eq!(f32::get(&t), &[0., 3., 1., 5.]);
    }
    #[test]
    fn put_accumulates_duplicates() {
        let mut d = f64::wrap(vec![0.0; 3]);
        put(&mut d, &i64::wrap(vec![1, 1, 2]), &f64::wrap(vec![1.0, 2.0, 3.0]), true).unwrap();
        assert_eq!(f64::get(&d), &[0.0, 3.0, 3.0]);
    }
    #[test]
    fn put_reduce_combines_in_order_and_propagates_nan() {
        let src = f32::wrap(vec![2.0, 5.0, f32::NAN, 4.0]);
        let offs = i64::wrap(vec![0, 0, 1, 2]);
        let mut d = f32::wrap(vec![3.0, 1.0, 7.0]);
        put_reduce(&mut d, &offs, &src, PutReduce::Max).unwrap();
        let r = f32::get(&d);
        assert_eq!((r[0], r[2]), (5.0, 7.0));
        assert!(r[1].is_nan());
        let mut d = i64::wrap(vec![3, 1, 7]);
        put_reduce(&mut d, &offs, &i64::wrap(vec![2, 5, -1, 4]), PutReduce::Mul).unwrap();
        assert_eq!(i64::get(&d), &[30, -1, 28]);
        let mut d = f32::wrap(vec![0.0; 3]);
        put_reduce(&mut d, &offs, &src, PutReduce::Min).unwrap();
        assert_eq!(f32::get(&d)[0], 0.0);
        assert!(put_reduce(&mut d, &i64::wrap(vec![3]), &src, PutReduce::Add).is_err());
    }
}
