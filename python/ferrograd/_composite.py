"""Functions PyTorch composes from other ops (its ``CompositeImplicitAutograd`` kernels), built
here the same way, so their gradients and ``grad_fn`` names come from the ops they use:
``einsum`` (contractions as ``bmm``, ``ViewBackward0`` like PyTorch's), ``movedim``,
``unflatten``, the ``*stack`` family, ``meshgrid``, ``tensor_split``, ``repeat_interleave``,
``masked_select``, ``nan_to_num`` and ``unique``."""

import math
import warnings

import numpy as np

__all__ = [
    "einsum", "movedim", "moveaxis", "atleast_1d", "atleast_2d", "atleast_3d", "hstack", "vstack",
    "row_stack", "dstack", "column_stack", "meshgrid", "tensor_split", "repeat_interleave", "masked_select",
    "nan_to_num", "unique", "finfo", "iinfo", "tensordot", "take_along_dim", "cartesian_prod", "searchsorted",
    "bucketize", "bincount", "histc",
]


def _torch():
    import ferrograd

    return ferrograd


# ---- einsum -------------------------------------------------------------------------------

def _parse_einsum(equation, operands):
    eq = equation.replace(" ", "")
    lhs, arrow, out = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) < len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    if len(terms) > len(operands):
        raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
    # the ellipsis gets letters of its own (outside a-zA-Z), right-aligned per operand
    ell_dims = 0
    for term, op in zip(terms, operands):
        if "..." in term:
            ell_dims = max(ell_dims, op.dim() - (len(term) - 3))
    ell = [chr(0x100 + k) for k in range(ell_dims)]
    parsed = []
    for k, (term, op) in enumerate(zip(terms, operands)):
        if "..." in term:
            pre, _, post = term.partition("...")
            n = op.dim() - len(pre) - len(post)
            if n < 0:
                raise RuntimeError(f"einsum(): the number of subscripts in the equation ({len(pre) + len(post)}) is more than the number of dimensions ({op.dim()}) for operand {k}")
            letters = list(pre) + ell[ell_dims - n:] + list(post)
        else:
            letters = list(term)
            if len(letters) != op.dim():
                raise RuntimeError(f"einsum(): the number of subscripts in the equation ({len(letters)}) does not match the number of dimensions ({op.dim()}) for operand {k} and no ellipsis was given")
        for c in letters:
            if not (c.isalpha() or ord(c) >= 0x100):
                raise RuntimeError(f"einsum(): invalid subscript given at index {eq.index(c)} in the equation string, subscripts must be in [a-zA-Z]")
        parsed.append(letters)
    if arrow:
        pre, dots, post = out.partition("...")
        out_letters = list(pre) + (ell if dots else []) + list(post)
        seen = set()
        for c in out_letters:
            if c in seen:
                raise RuntimeError(f"einsum(): output subscript {c} appears more than once in the output")
            if not any(c in p for p in parsed):
                raise RuntimeError(f"einsum(): output subscript {c} does not appear in the equation for any input operand")
            seen.add(c)
    else:
        counts = {}
        for p in parsed:
            for c in p:
                counts[c] = counts.get(c, 0) + 1
        out_letters = ell + sorted(c for c, n in counts.items() if n == 1 and ord(c) < 0x100)
    return parsed, out_letters


def _diagonalize(t, letters):
    """Repeated subscripts within one operand: keep the diagonal (``ii->i``)."""
    torch = _torch()
    letters = list(letters)
    while True:
        dup = next((c for c in letters if letters.count(c) > 1), None)
        if dup is None:
            return t, letters
        d1 = letters.index(dup)
        d2 = letters.index(dup, d1 + 1)
        n = t.shape[d1]
        if t.shape[d2] != n:
            raise RuntimeError(f"einsum(): subscript {dup} is repeated for operand but the sizes don't match, {t.shape[d2]} != {n}")
        shape = [1] * t.dim()
        shape[d1], shape[d2] = n, n
        eye = torch.eye(n, dtype=t.dtype, device=t.device).reshape(shape)
        t = (t * eye).sum(d2)
        letters.pop(d2)


def _permute(t, letters, order):
    perm = [letters.index(c) for c in order]
    return t if perm == list(range(len(perm))) else t.permute(*perm)


def _sum_out(t, letters, drop):
    dims = [k for k, c in enumerate(letters) if c in drop]
    if not dims:
        return t, letters
    return t.sum(dims), [c for c in letters if c not in drop]


def _contract(a, la, b, lb, keep):
    torch = _torch()
    a, la = _sum_out(a, la, {c for c in la if c not in lb and c not in keep})
    b, lb = _sum_out(b, lb, {c for c in lb if c not in la and c not in keep})
    batch = [c for c in la if c in lb and c in keep]
    summed = [c for c in la if c in lb and c not in keep]
    a_only = [c for c in la if c not in lb]
    b_only = [c for c in lb if c not in la]
    size = {}
    for t, ls in ((a, la), (b, lb)):
        for c, n in zip(ls, t.shape):
            if size.get(c, 1) not in (1, n) and n != 1:
                raise RuntimeError(f"einsum(): operands do not broadcast with remapped shapes (original->remapped): subscript {c} has sizes {size[c]} and {n}")
            size[c] = max(size.get(c, 1), n)
    if not summed:
        # an outer product over the batch: broadcasting multiply (MulBackward0, as PyTorch)
        a = _permute(a, la, batch + a_only).reshape([a.shape[la.index(c)] for c in batch + a_only] + [1] * len(b_only))
        b = _permute(b, lb, batch + b_only).reshape([b.shape[lb.index(c)] for c in batch] + [1] * len(a_only) + [b.shape[lb.index(c)] for c in b_only])
        return a * b, batch + a_only + b_only
    a = _permute(a, la, batch + a_only + summed)
    b = _permute(b, lb, batch + summed + b_only)
    bshape = [size[c] for c in batch]
    a = a.expand(*(bshape + list(a.shape[len(batch):])))
    b = b.expand(*(bshape + list(b.shape[len(batch):])))
    nb = math.prod(bshape)
    na = math.prod(size[c] for c in a_only)
    nk = math.prod(size[c] for c in summed)
    nbo = math.prod(size[c] for c in b_only)
    prod = torch.bmm(a.reshape(nb, na, nk), b.reshape(nb, nk, nbo))
    return prod.reshape(bshape + [size[c] for c in a_only] + [size[c] for c in b_only]), batch + a_only + b_only


def _einsum_subscript(n):
    if n is Ellipsis:
        return "..."
    if 0 <= n < 26:
        return chr(ord("A") + n)
    if 26 <= n < 52:
        return chr(ord("a") + n - 26)
    raise ValueError("einsum(): subscript in subscript list is not within the valid range [0, 52)")


def einsum(*args):
    """``torch.einsum``: sums of products over the subscripts of ``equation`` (explicit ``->``
    or implicit output, ``...`` broadcasting, repeated subscripts for diagonals), contracted
    pairwise left to right with ``bmm``. Also the sublist form
    ``einsum(a, [0, 1], b, [1, 2], [0, 2])`` (subscripts 0-51, ``...`` as Ellipsis)."""
    from . import Tensor

    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, "
                         "or at least one operand and its subscripts list")
    if isinstance(args[0], Tensor):
        equation = ",".join("".join(_einsum_subscript(s) for s in sub) for sub in args[1::2])
        if len(args) % 2 == 1:
            equation += "->" + "".join(_einsum_subscript(s) for s in args[-1])
            operands = args[:-1:2]
        else:
            operands = args[::2]
    else:
        equation, operands = args[0], args[1:]
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not operands:
        raise RuntimeError("einsum(): must provide at least one operand")
    parsed, out = _parse_einsum(equation, operands)
    terms = []
    seen = {}
    for k, (t, ls) in enumerate(zip(operands, parsed)):
        t, ls = _diagonalize(t, ls)
        # ATen's check, operand by operand: a subscript's sizes broadcast (1 or equal)
        for c, n in zip(ls, t.shape):
            if ord(c) >= 0x100:
                continue
            if seen.get(c, 1) == 1:
                seen[c] = n
            elif n != 1 and n != seen[c]:
                raise RuntimeError(f"einsum(): subscript {c} has size {n} for operand {k} which does not broadcast with "
                                   f"previously seen size {seen[c]}")
        terms.append((t, ls))
    # a subscript of size 1 in one operand broadcasts to its size elsewhere
    for k, (t, ls) in enumerate(terms):
        full = [seen[c] if n == 1 and ord(c) < 0x100 and seen.get(c, 1) != 1 else n for c, n in zip(ls, t.shape)]
        if full != list(t.shape):
            terms[k] = (t.expand(full), ls)
    # subscripts used by no later operand and not in the output are summed as early as possible
    cur, lc = terms[0]
    later = set(out).union(*[set(ls) for _, ls in terms[1:]])
    cur, lc = _sum_out(cur, lc, {c for c in lc if c not in later})
    for k in range(1, len(terms)):
        t, lt = terms[k]
        keep = set(out).union(*[set(ls) for _, ls in terms[k + 1:]])
        cur, lc = _contract(cur, lc, t, lt, keep)
    cur, lc = _sum_out(cur, lc, {c for c in lc if c not in out})
    return _permute(cur, lc, out)


# ---- shapes -------------------------------------------------------------------------------

def _dims(x, n):
    if isinstance(x, int):
        x = [x]
    return [d % n if n else d for d in x]


def movedim(input, source, destination):
    """``torch.movedim``: the dims ``source`` moved to ``destination``, the rest in order (a
    permuted view)."""
    n = input.dim()
    src, dst = _dims(source, n), _dims(destination, n)
    if len(src) != len(dst):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({list(source) if not isinstance(source, int) else [source]} dims) should contain the same number of dims as destination ({list(destination) if not isinstance(destination, int) else [destination]} dims)")
    if len(set(src)) != len(src):
        raise RuntimeError(f"movedim: repeated dim in `source` ({list(source)})")
    if len(set(dst)) != len(dst):
        raise RuntimeError(f"movedim: repeated dim in `destination` ({list(destination)})")
    order = [None] * n
    for s, d in zip(src, dst):
        order[d] = s
    rest = iter(d for d in range(n) if d not in src)
    order = [o if o is not None else next(rest) for o in order]
    return input if order == list(range(n)) else input.permute(*order)


moveaxis = movedim


def _unflatten(self, dim, sizes):
    """``Tensor.unflatten``: ``dim`` expanded into ``sizes`` (one may be -1), as a view."""
    n = self.dim()
    d = dim % n if n else 0
    sizes = list(sizes)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    if sizes.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = math.prod(s for s in sizes if s != -1)
    if -1 in sizes:
        sizes[sizes.index(-1)] = self.shape[d] // known if known else 0
    if math.prod(sizes) != self.shape[d]:
        raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim {dim} ({self.shape[d]}) in the input tensor")
    return self.reshape(list(self.shape[:d]) + sizes + list(self.shape[d + 1:]))


def atleast_1d(*tensors):
    """Each tensor with at least one dim (0-d ones as one-element vectors)."""
    ts = tensors[0] if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)) else tensors
    out = [t.reshape(1) if t.dim() == 0 else t for t in ts]
    return out[0] if len(tensors) == 1 and not isinstance(tensors[0], (list, tuple)) else tuple(out)


def atleast_2d(*tensors):
    """Each tensor with at least two dims (vectors as one row)."""
    ts = tensors[0] if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)) else tensors
    out = [t.reshape(1, 1) if t.dim() == 0 else t.unsqueeze(0) if t.dim() == 1 else t for t in ts]
    return out[0] if len(tensors) == 1 and not isinstance(tensors[0], (list, tuple)) else tuple(out)


def atleast_3d(*tensors):
    """Each tensor with at least three dims (as NumPy's ``atleast_3d``)."""
    ts = tensors[0] if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)) else tensors

    def one(t):
        if t.dim() == 0:
            return t.reshape(1, 1, 1)
        if t.dim() == 1:
            return t.unsqueeze(0).unsqueeze(-1)
        if t.dim() == 2:
            return t.unsqueeze(-1)
        return t
    out = [one(t) for t in ts]
    return out[0] if len(tensors) == 1 and not isinstance(tensors[0], (list, tuple)) else tuple(out)


def _cat(ts, dim, out):
    cat = _torch().cat
    return cat(ts, dim) if out is None else cat(ts, dim, out=out)


def _check_list(name, tensors):
    if not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{name}(): argument 'tensors' must be tuple of Tensors, not {type(tensors).__name__}")
    if not tensors:
        raise RuntimeError(f"{name} expects a non-empty TensorList")


def hstack(tensors, *, out=None):
    """The tensors concatenated column-wise (along dim 1; vectors along dim 0)."""
    _check_list("hstack", tensors)
    ts = atleast_1d(list(tensors))
    return _cat(ts, 0 if ts[0].dim() == 1 else 1, out)


def vstack(tensors, *, out=None):
    """The tensors concatenated row-wise (vectors as rows)."""
    _check_list("vstack", tensors)
    ts = atleast_2d(list(tensors))
    return _cat(ts, 0, out)


row_stack = vstack


def dstack(tensors, *, out=None):
    """The tensors concatenated depth-wise (along dim 2, after ``atleast_3d``)."""
    _check_list("dstack", tensors)
    ts = atleast_3d(list(tensors))
    return _cat(ts, 2, out)


def column_stack(tensors, *, out=None):
    """Vectors as columns (and matrices as they are) concatenated along dim 1."""
    _check_list("column_stack", tensors)
    ts = [t.reshape(t.numel(), 1) if t.dim() <= 1 else t for t in tensors]
    return _cat(ts, 1, out)


_meshgrid_warned = False


def meshgrid(*tensors, indexing=None):
    """``torch.meshgrid``: every 0-d/1-d input expanded over the grid of all of them (views);
    ``indexing="xy"`` swaps the first two grid dims."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        global _meshgrid_warned
        from . import _extras

        if not _meshgrid_warned or _extras.is_warn_always_enabled():
            # once per process (ATen's TORCH_WARN_ONCE)
            _meshgrid_warned = True
            warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.",
                          UserWarning, stacklevel=2)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    for t in tensors:
        if t.dim() > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {t}")
    ts = [t.reshape(-1) for t in tensors]
    swap = indexing == "xy" and len(ts) >= 2
    if swap:
        ts[0], ts[1] = ts[1], ts[0]
    shape = [t.numel() for t in ts]
    out = []
    for k, t in enumerate(ts):
        view = [1] * len(ts)
        view[k] = -1
        out.append(t.reshape(view).expand(*shape))
    if swap:
        # the grid of (b, a, ...): the outputs in the inputs' order
        out[0], out[1] = out[1], out[0]
    return tuple(out)


def tensor_split(input, indices_or_sections, dim=0):
    """``torch.tensor_split``: ``n`` near-equal parts (the first ``size % n`` one longer) or
    the pieces between the given indices, as views."""
    n = input.shape[dim]
    if isinstance(indices_or_sections, int) or (hasattr(indices_or_sections, "dim") and indices_or_sections.dim() == 0):
        s = int(indices_or_sections)
        if s <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {s}")
        q, r = divmod(n, s)
        bounds, start = [], 0
        for k in range(s):
            size = q + (1 if k < r else 0)
            bounds.append((start, start + size))
            start += size
    else:
        idx = [int(i) for i in (indices_or_sections.tolist() if hasattr(indices_or_sections, "tolist") else indices_or_sections)]
        points = [0] + [min(max(i if i >= 0 else i + n, 0), n) for i in idx] + [n]
        bounds = [(points[k], max(points[k], points[k + 1])) for k in range(len(points) - 1)]
    return tuple(input.narrow(dim, a, b - a) for a, b in bounds)


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """``torch.repeat_interleave``: each element (or slice along ``dim``) repeated ``repeats``
    times (a number, or one count per element)."""
    torch = _torch()
    if repeats is None:
        # repeat_interleave(repeats): indices 0.. repeated by the counts
        counts = [int(c) for c in input.tolist()]
        return torch.tensor([k for k, c in enumerate(counts) for _ in range(c)], dtype=torch.int64, device=input.device)
    x = input.reshape(-1) if dim is None else input
    d = 0 if dim is None else dim % max(x.dim(), 1)
    if isinstance(repeats, int) or (hasattr(repeats, "dim") and repeats.numel() == 1):
        r = int(repeats)
        if r < 0:
            raise RuntimeError("repeats can not be negative")
        shape = list(x.shape)
        expanded = x.unsqueeze(d + 1).expand(*(shape[:d + 1] + [r] + shape[d + 1:]))
        return expanded.reshape(shape[:d] + [shape[d] * r] + shape[d + 1:])
    counts = [int(c) for c in (repeats.tolist() if hasattr(repeats, "tolist") else repeats)]
    if len(counts) != x.shape[d]:
        raise RuntimeError(f"repeats must have the same size as input along dim, but got repeats.size(0) = {len(counts)} "
                           f"and input.size(0) = {x.shape[d]}")
    if any(c < 0 for c in counts):
        raise RuntimeError("repeats can not be negative")
    index = torch.tensor([k for k, c in enumerate(counts) for _ in range(c)], dtype=torch.int64, device=x.device)
    return x.index_select(d, index)


def masked_select(input, mask):
    """``torch.masked_select``: the elements where ``mask`` (broadcast with ``input``) is True,
    as a 1-d tensor."""
    if mask.dtype != _torch().bool:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    a, m = _torch().broadcast_tensors(input, mask)
    return a[m]


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    """``torch.nan_to_num``: NaN, +inf and -inf replaced (by 0 and the dtype's largest and
    lowest finite values unless given)."""
    torch = _torch()
    if not input.is_floating_point() and not input.is_complex():
        return input.clone()
    args = (float(nan), None if posinf is None else float(posinf), None if neginf is None else float(neginf))
    if input.is_complex():
        # each part on its own, as ATen's complex kernel
        return torch.complex(torch._C._nan_to_num(input.real, *args), torch._C._nan_to_num(input.imag, *args))
    return torch._C._nan_to_num(input, *args)


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """``torch.unique``: the distinct elements (or slices along ``dim``), sorted, with the
    inverse indices and counts on request."""
    torch = _torch()
    x = input.detach()
    host = x.cpu()
    if host.dtype in (torch.float16, torch.bfloat16):
        host = host.float()
    arr = host.numpy()
    if dim is None and arr.dtype.kind in "iub" and arr.size:
        # integers over a range not much wider than their count (labels, token ids): one
        # counting pass, no sort (100K labels in [0, 10): 4.7 -> ~0.3 ms)
        lo, hi = int(arr.min()), int(arr.max())
        if hi - lo <= 4 * arr.size + 1024:
            shifted = (arr.reshape(-1).astype(np.int64) - lo) if lo else arr.reshape(-1).astype(np.int64, copy=False)
            hist = np.bincount(shifted, minlength=hi - lo + 1)
            present = np.flatnonzero(hist)
            vals = (present + lo).astype(arr.dtype)
            counts = hist[present]
            inv = None
            if return_inverse:
                slot = np.empty(hi - lo + 1, np.int64)
                slot[present] = np.arange(present.size)
                inv = slot[shifted].reshape(arr.shape)
            return _unique_result(torch, input, vals, inv, counts, return_inverse, return_counts)
    res = np.unique(arr, return_inverse=return_inverse, return_counts=True, axis=dim)
    vals, counts = res[0], res[-1]
    inv = res[1] if return_inverse else None
    if dim is None and inv is not None:
        inv = inv.reshape(arr.shape)
    return _unique_result(torch, input, vals, inv, counts, return_inverse, return_counts)


def _unique_result(torch, input, vals, inv, counts, return_inverse, return_counts):
    out = torch.tensor(vals, device=input.device).to(input.dtype)
    extras = []
    if return_inverse:
        extras.append(torch.tensor(inv.astype(np.int64), device=input.device))
    if return_counts:
        extras.append(torch.tensor(counts.astype(np.int64), device=input.device))
    return (out, *extras) if extras else out


# ---- products and lookups ------------------------------------------------------------------

def tensordot(a, b, dims=2, out=None):
    """``torch.tensordot``: the sum over the last ``dims`` dims of ``a`` and the first of ``b``
    (or the listed pairs), as one matrix product (``ViewBackward0``, as PyTorch)."""
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        # as PyTorch's: a's dims counted from the end (its error names dim -1)
        da, db = list(range(-dims, 0)), list(range(dims))
    else:
        da, db = ([dims[0]] if isinstance(dims[0], int) else list(dims[0])), ([dims[1]] if isinstance(dims[1], int) else list(dims[1]))
        if hasattr(dims[0], "tolist"):
            da, db = list(dims[0].tolist()), list(dims[1].tolist())
    if len(da) != len(db):
        raise RuntimeError("both dimension lists should have same length")
    for x, y in zip(da, db):
        if a.shape[x] != b.shape[y]:
            raise RuntimeError(f"contracted dimensions need to match, but first has size {a.shape[x]} in dim {x} and second has size {b.shape[y]} in dim {y}")
    da = [d % a.dim() for d in da]
    db = [d % b.dim() for d in db]
    fa = [d for d in range(a.dim()) if d not in da]
    fb = [d for d in range(b.dim()) if d not in db]
    pa = a.permute(*(fa + da)) if fa + da != list(range(a.dim())) else a
    pb = b.permute(*(db + fb)) if db + fb != list(range(b.dim())) else b
    k = math.prod(a.shape[d] for d in da)
    r = pa.reshape(math.prod(a.shape[d] for d in fa), k).mm(pb.reshape(k, math.prod(b.shape[d] for d in fb)))
    r = r.reshape([a.shape[d] for d in fa] + [b.shape[d] for d in fb])
    if out is not None:
        out.copy_(r)
        return out
    return r


def take_along_dim(input, indices, dim=None):
    """``torch.take_along_dim``: ``gather`` along ``dim`` with ``indices`` broadcast against
    ``input`` (on the flattened input without ``dim``)."""
    torch = _torch()
    if dim is None:
        return input.reshape(-1).gather(0, indices.reshape(-1))
    if input.dim() != indices.dim():
        raise RuntimeError("torch.take_along_dim(): input and indices should have the same number of dimensions, "
                           f"but got {input.dim()} dimensions for input, and {indices.dim()} dimensions for indices")
    d = dim % input.dim()
    shape_i, shape_x = list(indices.shape), list(input.shape)
    shape_i[d], shape_x[d] = 1, 1
    common = [max(p, q) for p, q in zip(shape_i, shape_x)]
    idx_shape, x_shape = list(common), list(common)
    idx_shape[d], x_shape[d] = indices.shape[d], input.shape[d]
    return torch.gather(input.expand(*x_shape), d, indices.expand(*idx_shape))


def cartesian_prod(*tensors):
    """``torch.cartesian_prod``: every combination of the inputs' elements, one per row."""
    torch = _torch()
    if len(tensors) == 1:
        return tensors[0]
    grids = meshgrid(*tensors, indexing="ij")
    return torch.stack([g.reshape(-1) for g in grids], 1)


def _scalar_name(dtype):
    """ATen's ScalarType name (``Float``, ``Long``, ...), as its "not implemented for" errors say."""
    name = str(dtype).replace("torch.", "").replace("ferrograd.", "")
    return {"float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16", "bool": "Bool",
            "int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte"}.get(name, name)


def _host(t):
    torch = _torch()
    h = t.detach().cpu()
    return (h.float() if h.dtype in (torch.float16, torch.bfloat16) else h).numpy()


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None):
    """``torch.searchsorted``: where each value would be inserted to keep the (innermost rows
    of) ``sorted_sequence`` sorted (``right``/``side="right"``: after equal values)."""
    torch = _torch()
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
        if right and side == "left":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side of left while right was True")
        right = side == "right"
    seq = _host(sorted_sequence)
    scalar = not hasattr(input, "shape")
    vals = np.asarray(input, dtype=seq.dtype) if scalar else _host(input)
    if sorter is not None:
        seq = np.take_along_axis(seq, _host(sorter), -1)
    how = "right" if right else "left"
    if seq.ndim == 1:
        res = np.searchsorted(seq, vals, side=how)
    else:
        if vals.shape[:-1] != seq.shape[:-1]:
            raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions "
                               "of boundaries tensor and input value tensor must match, but we got boundaries tensor "
                               f"{list(seq.shape)} and input value tensor {list(vals.shape)}")
        res = np.stack([np.searchsorted(s, v, side=how) for s, v in zip(seq.reshape(-1, seq.shape[-1]), vals.reshape(-1, vals.shape[-1]))]).reshape(vals.shape)
    dev = sorted_sequence.device
    return torch.tensor(np.asarray(res), dtype=torch.int32 if out_int32 else torch.int64, device=dev)


def bucketize(input, boundaries, *, out_int32=False, right=False):
    """``torch.bucketize``: the bucket of each value among 1-d ``boundaries``."""
    if boundaries.dim() != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.dim()})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


def bincount(input, weights=None, minlength=0):
    """``torch.bincount``: how often each non-negative integer occurs (summed ``weights``)."""
    return _torch()._C._bincount(input, weights, minlength)


def histc(input, bins=100, min=0, max=0, *, out=None):
    """``torch.histc``: counts in ``bins`` equal bins between ``min`` and ``max`` (the data's
    range when both are 0); values outside are ignored."""
    torch = _torch()
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    if not input.is_floating_point():
        raise RuntimeError(f'"histogram_cpu" not implemented for \'{_scalar_name(input.dtype)}\'')
    x = _host(input).reshape(-1)
    lo, hi = float(min), float(max)
    if lo == hi and x.size:
        lo, hi = float(x.min()), float(x.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if lo > hi:
        raise RuntimeError("max must be larger than min")
    counts, _ = np.histogram(x, bins=bins, range=(lo, hi))
    r = torch.tensor(counts.astype(np.float64), dtype=input.dtype, device=input.device)
    if out is not None:
        out.copy_(r)
        return out
    return r


# ---- dtype limits -------------------------------------------------------------------------

class finfo:
    """``torch.finfo``: the limits of a floating dtype (the default dtype without one)."""

    def __init__(self, type=None):
        torch = _torch()
        dt = torch.get_default_dtype() if type is None else type
        if not (dt.is_floating_point or dt.is_complex):
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle 'torch.finfo'")
        if dt.is_complex:
            dt = {torch.complex64: torch.float32, torch.complex128: torch.float64}[dt]
        if dt == torch.bfloat16:
            self.bits, self.eps, self.max = 16, 0.0078125, 3.3895313892515355e+38
            self.tiny = self.smallest_normal = 1.1754943508222875e-38
            self.resolution = 0.01
        else:
            info = np.finfo({torch.float16: np.float16, torch.float32: np.float32, torch.float64: np.float64}[dt])
            self.bits, self.eps, self.max = int(info.bits), float(info.eps), float(info.max)
            self.tiny = self.smallest_normal = float(info.smallest_normal)
            self.resolution = 10.0 ** -math.floor(-math.log10(self.eps))
        self.min = -self.max
        self.dtype = str(dt).replace("torch.", "")

    def __repr__(self):
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
                f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo:
    """``torch.iinfo``: the limits of an integer dtype."""

    def __init__(self, type):
        torch = _torch()
        if type.is_floating_point or type.is_complex or type == torch.bool:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'")
        info = np.iinfo({torch.uint8: np.uint8, torch.int8: np.int8, torch.int16: np.int16, torch.int32: np.int32,
                         torch.int64: np.int64}[type])
        self.bits, self.min, self.max = int(info.bits), int(info.min), int(info.max)
        self.dtype = str(type).replace("torch.", "")

    def __repr__(self):
        return f"iinfo(min={float(self.min):g}, max={float(self.max):g}, dtype={self.dtype})"


# ---- the Tensor methods of the functions above (``self`` first, as the stubs say) ------------

def _t_movedim(self, source, destination):
    """The dims ``source`` moved to ``destination``, the rest in order (a permuted view)."""
    return movedim(self, source, destination)


def _t_tensor_split(self, indices_or_sections, dim=0):
    """``n`` near-equal parts or the pieces between the given indices, as views."""
    return tensor_split(self, indices_or_sections, dim)


def _t_repeat_interleave(self, repeats=None, dim=None, *, output_size=None):
    """Each element (or slice along ``dim``) repeated ``repeats`` times."""
    return repeat_interleave(self, repeats, dim, output_size=output_size)


def _t_masked_select(self, mask):
    """The elements where ``mask`` (broadcast with ``self``) is True, as a 1-d tensor."""
    return masked_select(self, mask)


def _t_nan_to_num(self, nan=0.0, posinf=None, neginf=None):
    """NaN, +inf and -inf replaced."""
    return nan_to_num(self, nan, posinf, neginf)


def _t_unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct elements (or slices along ``dim``), sorted."""
    return unique(self, sorted, return_inverse, return_counts, dim)


def _t_bincount(self, weights=None, minlength=0):
    """The count (or the summed ``weights``) of each value of this 1-d non-negative int tensor."""
    return bincount(self, weights, minlength)


def _t_histc(self, bins=100, min=0, max=0):
    """A histogram of ``bins`` equal-width bins between ``min`` and ``max``."""
    return histc(self, bins, min, max)


def _t_take_along_dim(self, indices, dim=None):
    """The elements at ``indices`` along ``dim`` (of the flattened tensor when ``dim`` is None)."""
    return take_along_dim(self, indices, dim)
