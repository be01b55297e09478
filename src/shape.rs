//! Layout (shape, strides, offset), broadcasting, dimension wrapping and strided walks.

use crate::error::Result;
use crate::{bail, ensure};
use smallvec::SmallVec;

/// Dimensions (sizes or strides), inline up to 6.
pub type Dims = SmallVec<[usize; 6]>;

/// Where a tensor's elements sit in its storage.
#[derive(Debug, PartialEq, Eq)]
pub struct Layout {
    pub shape: Dims,
    pub strides: Dims,
    pub offset: usize,
}

// By hand: `SmallVec`'s own `clone` collects through an iterator; these are plain copies.
impl Clone for Layout {
    fn clone(&self) -> Layout {
        Layout { shape: Dims::from_slice(&self.shape), strides: Dims::from_slice(&self.strides), offset: self.offset }
    }
}

/// Row-major strides of a shape.
pub fn contiguous_strides(shape: &[usize]) -> Dims {
    let mut strides: Dims = Dims::from_slice(shape);
    let mut acc = 1usize;
    for (st, &d) in strides.iter_mut().zip(shape).rev() {
        *st = acc;
        acc *= d.max(1);
    }
    strides
}

impl Layout {
    pub fn contiguous(shape: &[usize]) -> Layout {
        Layout { shape: Dims::from_slice(shape), strides: contiguous_strides(shape), offset: 0 }
    }
    pub fn numel(&self) -> usize {
        self.shape.iter().product()
    }
    pub fn ndim(&self) -> usize {
        self.shape.len()
    }
    /// True when the elements are densely packed in row-major order (PyTorch's rule: size-1
    /// dims may have any stride).
    pub fn is_contiguous(&self) -> bool {
        // as torch: a tensor with no elements is contiguous whatever its strides
        if self.shape.contains(&0) {
            return true;
        }
        let mut expected = 1usize;
        for i in (0..self.shape.len()).rev() {
            if self.shape[i] == 1 {
                continue;
            }
            if self.strides[i] != expected {
                return false;
            }
            expected *= self.shape[i];
        }
        true
    }
    /// The storage range `[offset, offset+numel)` when contiguous (`0..0` for no elements,
    /// whose offset may lie past the end of its storage).
    pub fn contiguous_range(&self) -> Option<std::ops::Range<usize>> {
        let n = self.numel();
        if n == 0 {
            return Some(0..0);
        }
        self.is_contiguous().then(|| self.offset..self.offset + n)
    }
    /// Strides to view this layout with a broadcast shape (stride 0 on expanded dims).
    pub fn broadcast_to(&self, shape: &[usize]) -> Result<Layout> {
        let nd = shape.len();
        ensure!(nd >= self.ndim(), Runtime, "cannot broadcast {:?} to {:?}", self.shape, shape);
        let mut strides: Dims = SmallVec::from_elem(0, nd);
        let lead = nd - self.ndim();
        for i in 0..self.ndim() {
            let (s, t) = (self.shape[i], shape[lead + i]);
            if s == t {
                strides[lead + i] = self.strides[i];
            } else if s == 1 {
                strides[lead + i] = 0;
            } else {
                bail!(
                    Runtime,
                    "The expanded size of the tensor ({}) must match the existing size ({}) at non-singleton dimension {}.  Target sizes: {}.  Tensor sizes: {}",
                    t, s, lead + i, fmt_list(shape), fmt_list(&self.shape)
                );
            }
        }
        Ok(Layout { shape: shape.into(), strides, offset: self.offset })
    }
}

/// The element count of `shape`, or the overflow error when it (or its size in bytes at
/// up to 8 bytes an element) does not fit in an address.
pub fn numel_checked(shape: &[usize]) -> Result<usize> {
    let n = shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d));
    match n {
        Some(n) if n.checked_mul(8).is_some_and(|b| b <= isize::MAX as usize) => Ok(n),
        _ => Err(crate::error::Error::SizeOverflow { sizes: shape.to_vec() }),
    }
}

/// `[2, 3]` as PyTorch prints sizes in messages.
pub fn fmt_list(v: &[usize]) -> String {
    let parts: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    format!("[{}]", parts.join(", "))
}

/// The broadcast shape of two shapes, with PyTorch's error text.
pub fn broadcast_shapes(a: &[usize], b: &[usize]) -> Result<Dims> {
    let nd = a.len().max(b.len());
    let mut out: Dims = SmallVec::from_elem(0, nd);
    // matches torch: report the right-most mismatching dim
    for i in (0..nd).rev() {
        let da = if i + a.len() >= nd { a[i + a.len() - nd] } else { 1 };
        let db = if i + b.len() >= nd { b[i + b.len() - nd] } else { 1 };
        out[i] = if da == db || db == 1 {
            da
        } else if da == 1 {
            db
        } else {
            bail!(
                Runtime,
                "The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton dimension {}",
                da, db, i
            );
        };
    }
    Ok(out)
}

/// Wrap a possibly negative dim into `0..ndim` (a 0-dim tensor accepts -1 and 0).
pub fn wrap_dim(dim: i64, ndim: usize) -> Result<usize> {
    let n = ndim.max(1) as i64;
    if dim < -n || dim >= n {
        bail!(
            Index,
            "Dimension out of range (expected to be in range of [{}, {}], but got {})",
            -n, n - 1, dim
        );
    }
    Ok(if dim < 0 { (dim + n) as usize } else { dim as usize })
}

/// Call `f(offset)` for every element of `layout` in row-major logical order.
#[inline]
pub fn walk1(layout: &Layout, mut f: impl FnMut(usize)) {
    if let Some(r) = layout.contiguous_range() {
        r.for_each(f);
        return;
    }
    let nd = layout.ndim();
    let n = layout.numel();
    if n == 0 {
        return;
    }
    let (inner, istride) = (layout.shape[nd - 1], layout.strides[nd - 1]);
    let mut idx: Dims = SmallVec::from_elem(0, nd);
    let mut base = layout.offset;
    let mut done = 0;
    while done < n {
        let mut off = base;
        for _ in 0..inner {
            f(off);
            off += istride;
        }
        done += inner;
        // advance the outer counters
        let mut d = nd - 1;
        while d > 0 {
            d -= 1;
            idx[d] += 1;
            base += layout.strides[d];
            if idx[d] < layout.shape[d] {
                break;
            }
            base -= layout.strides[d] * layout.shape[d];
            idx[d] = 0;
        }
    }
}

/// Call `f(offset_a, offset_b)` over two layouts of the same shape in row-major order.
#[inline]
pub fn walk2(a: &Layout, b: &Layout, mut f: impl FnMut(usize, usize)) {
    debug_assert_eq!(a.shape, b.shape);
    let nd = a.ndim();
    if a.numel() == 0 {
        return;
    }
    if nd == 0 {
        f(a.offset, b.offset);
        return;
    }
    let inner = a.shape[nd - 1];
    let (sa, sb) = (a.strides[nd - 1], b.strides[nd - 1]);
    walk2_rows(a, b, 0..a.numel() / inner, |ba, bb| {
        let (mut oa, mut ob) = (ba, bb);
        for _ in 0..inner {
            f(oa, ob);
            oa += sa;
            ob += sb;
        }
    });
}

/// Call `f(row_offset_a, row_offset_b)` for the rows `rows` (a row: one index of the leading
/// dims, row-major, of two layouts of the same shape with at least one dim): the first row's
/// index found by division, each next one stepped from the last (an odometer).
#[inline]
pub fn walk2_rows(a: &Layout, b: &Layout, rows: std::ops::Range<usize>, mut f: impl FnMut(usize, usize)) {
    debug_assert_eq!(a.shape, b.shape);
    let lead = a.ndim() - 1;
    let mut idx: Dims = SmallVec::from_elem(0, lead);
    let (mut rem, mut ba, mut bb) = (rows.start, a.offset, b.offset);
    for d in (0..lead).rev() {
        idx[d] = rem % a.shape[d];
        rem /= a.shape[d];
        ba += idx[d] * a.strides[d];
        bb += idx[d] * b.strides[d];
    }
    for _ in rows {
        f(ba, bb);
        let mut d = lead;
        while d > 0 {
            d -= 1;
            idx[d] += 1;
            ba += a.strides[d];
            bb += b.strides[d];
            if idx[d] < a.shape[d] {
                break;
            }
            ba -= a.strides[d] * a.shape[d];
            bb -= b.strides[d] * b.shape[d];
            idx[d] = 0;
        }
    }
}

/// Resolve a requested shape with at most one `-1` against `numel` (view/reshape rule).
pub fn infer_shape(req: &[i64], numel: usize) -> Result<Dims> {
    let mut infer = None;
    let mut known = 1usize;
    for (i, &d) in req.iter().enumerate() {
        if d == -1 {
            ensure!(infer.is_none(), Runtime, "only one dimension can be inferred");
            infer = Some(i);
        } else if d < 0 {
            bail!(Runtime, "invalid shape dimension {}", d);
        } else {
            known *= d as usize;
        }
    }
    let bad = || {
        let parts: Vec<String> = req.iter().map(|x| x.to_string()).collect();
        crate::error::Error::Runtime(format!(
            "shape '[{}]' is invalid for input of size {}",
            parts.join(", "),
            numel
        ))
    };
    let mut out: Dims = req.iter().map(|&d| d.max(0) as usize).collect();
    match infer {
        Some(i) => {
            if known == 0 || numel % known != 0 {
                return Err(bad());
            }
            out[i] = numel / known;
        }
        None if known != numel => return Err(bad()),
        None => {}
    }
    Ok(out)
}

/// Strides for viewing `layout` as `new_shape` without a copy, if possible (PyTorch's
/// `computeStride`).
pub fn view_strides(layout: &Layout, new_shape: &[usize]) -> Option<Dims> {
    let old_shape = &layout.shape;
    let old_strides = &layout.strides;
    let numel = layout.numel();
    if numel == 0 || old_shape.is_empty() {
        return Some(contiguous_strides(new_shape));
    }
    let mut new_strides: Dims = SmallVec::from_elem(0, new_shape.len());
    let mut view_d = new_shape.len() as i64 - 1;
    let mut chunk_base_stride = *old_strides.last().unwrap_or(&1);
    let mut tensor_numel = 1usize;
    let mut view_numel = 1usize;
    for tensor_d in (0..old_shape.len()).rev() {
        tensor_numel *= old_shape[tensor_d];
        if tensor_d == 0
            || (old_shape[tensor_d - 1] != 1
                && old_strides[tensor_d - 1] != tensor_numel * chunk_base_stride)
        {
            while view_d >= 0 && (view_numel < tensor_numel || new_shape[view_d as usize] == 1) {
                new_strides[view_d as usize] = view_numel * chunk_base_stride;
                view_numel *= new_shape[view_d as usize];
                view_d -= 1;
            }
            if view_numel != tensor_numel {
                return None;
            }
            if tensor_d > 0 {
                chunk_base_stride = old_strides[tensor_d - 1];
                tensor_numel = 1;
                view_numel = 1;
            }
        }
    }
    if view_d != -1 {
        return None;
    }
    Some(new_strides)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn strides_and_contiguity() {
        let l = Layout::contiguous(&[2, 3, 4]);
        assert_eq!(&l.strides[..], &[12, 4, 1]);
        assert!(l.is_contiguous());
        let t = Layout { shape: [3, 2].into_iter().collect(), strides: [1, 3].into_iter().collect(), offset: 0 };
        assert!(!t.is_contiguous());
    }
    #[test]
    fn broadcasting() {
        assert_eq!(&broadcast_shapes(&[2, 1], &[3]).unwrap()[..], &[2, 3]);
        assert!(broadcast_shapes(&[2, 3], &[2, 2]).is_err());
    }
    #[test]
    fn walk_transposed() {
        let t = Layout { shape: [3, 2].into_iter().collect(), strides: [1, 3].into_iter().collect(), offset: 0 };
        let mut v = vec![];
        walk1(&t, |o| v.push(o));
        assert_eq!(v, vec![0, 3, 1, 4, 2, 5]);
    }
    #[test]
    fn dim_wrap() {
        assert_eq!(wrap_dim(-1, 2).unwrap(), 1);
        assert!(wrap_dim(2, 2).is_err());
    }
    #[test]
    fn view_of_transpose_fails() {
        let t = Layout { shape: [3, 2].into_iter().collect(), strides: [1, 3].into_iter().collect(), offset: 0 };
        assert!(view_strides(&t, &[6]).is_none());
        assert!(view_strides(&Layout::contiguous(&[2, 3]), &[3, 2]).is_some());
    }
}
