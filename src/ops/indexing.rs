//! `x[key]` and `x[key] = value` with PyTorch's rules: basic items (ints, slices, `None`,
//! `...`) become views, tensor items advanced indexing (`IndexBackward0`), writes go through
//! the in-place machinery (`CopySlices` on views, `IndexPutBackward0`). Also the constant
//! fills `zero_` (ZeroBackward0) and `fill_` (FillBackward2).

use super::{copy_from, index, inplace_overlapping, select, slice, unsqueeze};
use crate::autograd::record;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::tensor::Tensor;

/// One item of an indexing key.
#[derive(Clone, Debug)]
pub enum TensorIndex {
    /// `x[i]`: selects (drops) a dim.
    Int(i64),
    /// `x[start:stop:step]`.
    Slice { start: Option<i64>, stop: Option<i64>, step: i64 },
    /// `x[None]`: a new dim of size 1.
    NewAxis,
    /// `x[...]`: as many full slices as needed.
    Ellipsis,
    /// Advanced indexing by an integer or boolean tensor.
    Tensor(Tensor),
}

impl TensorIndex {
    /// Dims of the indexed tensor this item consumes.
    fn consumes(&self) -> usize {
        match self {
            TensorIndex::Int(_) | TensorIndex::Slice { .. } => 1,
            // a 0-dim bool adds a dim instead (x[True] is x[None])
            TensorIndex::Tensor(t) if t.dtype() == DType::Bool => t.dim(),
            TensorIndex::Tensor(_) => 1,
            TensorIndex::NewAxis | TensorIndex::Ellipsis => 0,
        }
    }
}

/// Bounds of integer items against the dims they index, before any view is made. PyTorch
/// names the item's position in the key as its "dimension" in the message.
fn check_ints(x: &Tensor, items: &[TensorIndex]) -> Result<()> {
    let shape = x.shape();
    let mut d = 0usize;
    for (pos, it) in items.iter().enumerate() {
        match it {
            TensorIndex::Int(i) => {
                if let Some(&n) = shape.get(d) {
                    let n = n as i64;
                    if *i < -n || *i >= n {
                        return Err(Error::Index(format!("index {} is out of bounds for dimension {} with size {}", i, pos, n)));
                    }
                }
                d += 1;
            }
            TensorIndex::Slice { step, .. } => {
                // the key is read left to right: a bad step is reported before later items
                if *step <= 0 {
                    return Err(Error::Value("step must be greater than zero".into()));
                }
                d += 1
            }
            TensorIndex::Tensor(_) => d += it.consumes(),
            TensorIndex::Ellipsis => return Ok(()),
            TensorIndex::NewAxis => {}
        }
    }
    Ok(())
}

/// Apply the basic part of a key as views; return the view and the advanced indices
/// positioned against its dims (empty when there are none).
///
/// With `skip_full` (a tuple key, as torch's `applySlicing`), a slice `0:stop:1` with `stop`
/// past the end is no op at all, as in torch (`x[:, :]` is AliasBackward0, `x[0, :]` Select).
fn apply_basic(x: &Tensor, items: &[TensorIndex], skip_full: bool) -> Result<(Tensor, Vec<Option<Tensor>>)> {
    check_ints(x, items)?;
    let consumed: usize = items.iter().map(TensorIndex::consumes).sum();
    let nd = x.dim();
    if consumed > nd {
        if nd == 0 {
            return Err(Error::Index("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ to convert a 0-dim tensor to a number".into()));
        }
        return Err(Error::Index(format!("too many indices for tensor of dimension {}", nd)));
    }
    // several ellipses are allowed, as in torch: each skips the dims the other items leave
    let mut cur = x.clone();
    let mut dim: i64 = 0;
    let mut adv: Vec<Option<Tensor>> = Vec::new();
    let mut any_adv = false;
    let mut view_made = false;
    for (pos, it) in items.iter().enumerate() {
        match it {
            TensorIndex::Int(i) => {
                if let Some(&n) = cur.shape().get(dim as usize) {
                    let n = n as i64;
                    if *i < -n || *i >= n {
                        // torch names the item's position in the key
                        return Err(Error::Index(format!("index {} is out of bounds for dimension {} with size {}", i, pos, n)));
                    }
                }
                cur = select(&cur, dim, *i)?;
                view_made = true;
            }
            TensorIndex::Slice { start, stop, step } => {
                let len = cur.shape().get(dim as usize).copied().unwrap_or(0) as i64;
                let full = start.unwrap_or(0) == 0 && *step == 1 && stop.is_none_or(|e| e >= len);
                if !(skip_full && full) {
                    cur = slice(&cur, dim, *start, *stop, *step)?;
                    view_made = true;
                }
                adv.push(None);
                dim += 1;
            }
            TensorIndex::NewAxis => {
                cur = unsqueeze(&cur, dim)?;
                view_made = true;
                adv.push(None);
                dim += 1;
            }
            TensorIndex::Ellipsis => {
                let skip = nd - consumed;
                adv.extend(std::iter::repeat_n(None, skip));
                dim += skip as i64;
            }
            TensorIndex::Tensor(t) => {
                if t.dtype() == DType::Bool && t.dim() == 0 {
                    // x[True] adds a dim of size 1 (x[False] one of size 0)
                    cur = unsqueeze(&cur, dim)?;
                    let keep = t.item()?.as_f64() != 0.0;
                    adv.push(Some(crate::backend::to_device(&Tensor::from_vec(vec![keep], &[1])?, cur.device())?));
                    any_adv = true;
                    dim += 1;
                    continue;
                }
                let k = it.consumes();
                adv.push(Some(t.clone()));
                any_adv = true;
                dim += k as i64;
            }
        }
    }
    if !view_made && !any_adv {
        // `x[...]` / `x[()]`: an alias of x
        cur = super::alias(&cur)?;
    }
    if !any_adv {
        adv.clear();
    }
    Ok((cur, adv))
}

/// `x[key]` for a tuple key `x[a, b, ...]`.
pub fn get_index(x: &Tensor, key: &[TensorIndex]) -> Result<Tensor> {
    get_index_with(x, key, true)
}

/// `x[key]`; `tuple` says whether the key was a tuple (Python's `x[a:b]` slices even where
/// the slice covers the dim, `x[a:b,]` does not: torch names the results differently).
pub fn get_index_with(x: &Tensor, key: &[TensorIndex], tuple: bool) -> Result<Tensor> {
    let (view, adv) = apply_basic(x, key, tuple)?;
    if adv.is_empty() {
        return Ok(view);
    }
    index(&view, &adv)
}

/// `x[key] = value` (value broadcast to the indexed shape and cast to x's dtype).
pub fn set_index(x: &Tensor, key: &[TensorIndex], value: &Tensor) -> Result<()> {
    let value = if value.0.is_wrapped_number { super::cast_raw(value, x.dtype())? } else { value.clone() };
    // torch drops the value's leading size-1 dims before copying (`x[0] = t[None]` works)
    let vs = value.shape();
    let lead = vs.iter().take_while(|&&s| s == 1).count();
    let value = if lead > 0 { super::reshape(&value, &vs[lead..].iter().map(|&s| s as i64).collect::<Vec<_>>())? } else { value };
    let (view, adv) = apply_basic(x, key, true)?;
    if adv.is_empty() {
        // torch expands the value to the selection first: its errors are expand's
        let target = view.shape();
        if value.shape() != target {
            let _g = crate::autograd::raw_mode();
            super::expand(&value.detach(), &target.iter().map(|&s| s as i64).collect::<Vec<_>>())?;
        }
        super::assert_no_partial_overlap(&view, &value)?;
        inplace_overlapping(&view, |inp| copy_from(inp, &value))
    } else {
        super::index::index_put_(&view, &adv, &value, false)
    }
}

/// `x.zero_()`: the old value gets no gradient (ZeroBackward0 cuts the history through it).
pub fn zero_(x: &Tensor) -> Result<()> {
    if !crate::autograd::needs_history(&[x]) {
        // no history: the buffer itself (one pass, no new tensor)
        super::check_inplace_overlapping(x)?;
        if crate::backend::fill_inplace(x, crate::tensor::Scalar::Int(0))? {
            x.bump_version();
            return Ok(());
        }
    }
    inplace_overlapping(x, |inp| {
        let out = crate::tensor::zeros_on(&inp.shape(), inp.dtype(), inp.device())?;
        let meta = crate::autograd::InputMeta::of(inp);
        record("ZeroBackward0", &[inp], &[&out], &[], move |_, _, _| Ok(vec![Some(meta.zeros()?)]))?;
        Ok(out)
    })
}

/// `x.fill_(v)` for a scalar or 0-dim tensor `v` (FillBackward2: no gradient to the old
/// value; a `v` that requires grad receives the sum of the gradient).
pub fn fill_(x: &Tensor, v: &Tensor) -> Result<()> {
    if v.dim() != 0 {
        return Err(Error::Runtime(format!("fill_ only supports 0-dimension value tensor but got tensor with {} dimensions.", v.dim())));
    }
    // a Python number must fit the dtype (c10::overflows, as torch checks); a tensor value
    // converts as a cast
    let number = v.0.is_wrapped_number && !v.dtype().is_complex();
    if number {
        let s = v.item()?;
        if x.dtype().overflows(s) {
            return Err(Error::Runtime(format!("value cannot be converted to type {} without overflow", x.dtype().c_name())));
        }
    }
    if (number || v.dtype() == x.dtype()) && !v.dtype().is_complex() && !crate::autograd::needs_history(&[x, v]) {
        // no history: the buffer itself (one pass, no new tensor)
        super::check_inplace_overlapping(x)?;
        if crate::backend::fill_inplace(x, v.item()?)? {
            x.bump_version();
            return Ok(());
        }
    }
    inplace_overlapping(x, |inp| {
        let out = crate::tensor::zeros_on(&inp.shape(), inp.dtype(), inp.device())?;
        super::write_into(&out, v)?;
        if v.requires_grad() {
            return super::add(&out, &super::sub(v, &v.detach())?);
        }
        let meta = crate::autograd::InputMeta::of(inp);
        record("FillBackward2", &[inp], &[&out], &[], move |_, _, _| Ok(vec![Some(meta.zeros()?)]))?;
        Ok(out)
    })
}
