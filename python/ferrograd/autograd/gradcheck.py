"""Finite-difference gradient checks (``gradcheck``, ``gradgradcheck``)."""

from . import grad as _grad


class GradcheckError(RuntimeError):
    pass


def _as_tuple(x):
    from .. import Tensor

    return (x,) if isinstance(x, Tensor) else tuple(x)


def _numerical_jacobian(fn, inputs, eps):
    """d out_flat / d in_flat for each differentiable input, by central differences."""
    jacs = []
    if True:
        for x in inputs:
            if not (hasattr(x, "requires_grad") and x.requires_grad):
                jacs.append(None)
                continue
            flat = x.data.view(-1)
            cols = []
            for i in range(flat.numel()):
                orig = flat[i].item()
                flat[i] = orig + eps
                plus = [o.detach().reshape(-1).clone() for o in _as_tuple(fn(*inputs))]
                flat[i] = orig - eps
                minus = [o.detach().reshape(-1).clone() for o in _as_tuple(fn(*inputs))]
                flat[i] = orig
                cols.append([((p - m) / (2 * eps)).tolist() for p, m in zip(plus, minus)])
            jacs.append(cols)
    return jacs


def _analytical_jacobian(fn, inputs):
    outs = _as_tuple(fn(*inputs))
    diff = [x for x in inputs if hasattr(x, "requires_grad") and x.requires_grad]
    rows = []  # rows[o][k] = grads w.r.t. each diff input for output element k
    for o in outs:
        flat = o.reshape(-1)
        per = []
        for k in range(flat.numel()):
            if not flat.requires_grad:
                per.append([None] * len(diff))
                continue
            gs = _grad(flat[k], diff, retain_graph=True, allow_unused=True)
            per.append([None if g is None else g.reshape(-1).tolist() for g in gs])
        rows.append(per)
    return rows, diff


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, nondet_tol=0.0,
              check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True,
              fast_mode=False, masked=None):
    """Compare analytical gradients with finite differences; True when they agree (else a
    GradcheckError naming the output and input, with both Jacobians, as PyTorch's)."""
    import warnings

    from .. import Tensor, float64, complex128, tensor

    inputs = _as_tuple(inputs)
    for idx, x in enumerate(inputs):
        if isinstance(x, Tensor) and x.requires_grad and x.dtype not in (float64, complex128):
            warnings.warn(f"Input #{idx} requires gradient and is not a double precision floating point or complex. "
                          "This check will likely fail if all the inputs are not of double precision floating point or "
                          "complex. ", stacklevel=2)
    outs = _as_tuple(func(*inputs))
    numerical = _numerical_jacobian(func, inputs, eps)
    analytical, diff = _analytical_jacobian(func, inputs)
    # per (output o, differentiable input j): Jacobians of shape (input numel, output numel)
    for o, out in enumerate(outs):
        di = 0
        for j, x in enumerate(inputs):
            if numerical[j] is None:
                continue
            num = [[col[o][k] for k in range(out.numel())] for col in numerical[j]]
            ana = [[0.0 if analytical[o][k][di] is None else analytical[o][k][di][i] for k in range(out.numel())]
                   for i in range(len(numerical[j]))]
            di += 1
            if all(abs(a - n) <= atol + rtol * abs(n) for ra, rn in zip(ana, num) for a, n in zip(ra, rn)):
                continue
            if not raise_exception:
                return False
            shape = (len(num), out.numel())
            nt = tensor(num, dtype=out.dtype).reshape(shape)
            at = tensor(ana, dtype=out.dtype).reshape(shape)
            raise GradcheckError(f"Jacobian mismatch for output {o} with respect to input {j},\n"
                                 f"numerical:{nt}\nanalytical:{at}\n")
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3, gen_non_contig_grad_outputs=False,
                  raise_exception=True, nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False,
                  check_batched_grad=False, check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False, masked=False):
    """Check second derivatives: gradcheck of the map (inputs, v) -> vᵀ J."""
    from .. import manual_seed, randn

    inputs = _as_tuple(inputs)
    outs = _as_tuple(func(*inputs))
    if grad_outputs is None:
        manual_seed(0)
        grad_outputs = tuple(randn(*o.shape, dtype=o.dtype, device=o.device).requires_grad_(True) for o in outs)
    else:
        grad_outputs = _as_tuple(grad_outputs)
    n = len(inputs)
    diff_idx = [i for i, x in enumerate(inputs) if hasattr(x, "requires_grad") and x.requires_grad]

    def new_func(*args):
        xs, vs = args[:n], args[n:]
        outputs = _as_tuple(func(*xs))
        gs = _grad(outputs, [xs[i] for i in diff_idx], vs, create_graph=True, allow_unused=True, materialize_grads=True)
        return gs

    return gradcheck(new_func, inputs + tuple(grad_outputs), eps=eps, atol=atol, rtol=rtol, raise_exception=raise_exception)


# ---- PyTorch's deprecated Jacobian helpers (kept public for old test code) ---------------

_DEPRECATED = ("`{}` was part of PyTorch's private API and not meant to be exposed. We are deprecating "
               "it and it will be removed in a future version of PyTorch. If you have a specific use "
               "for this or feature request for this to be a stable API, please file us an issue at "
               "https://github.com/pytorch/pytorch/issues/new")


def _numerical_columns(fn, x, eps):
    """Central differences of ``fn()`` (a tuple of outputs) perturbing each element of ``x``
    in place: one [x.numel(), out.numel()] Jacobian per output."""
    from .. import float64, no_grad, stack, zeros

    flat = x.data.view(-1)
    cols = []
    with no_grad():
        for i in range(flat.numel()):
            orig = flat[i].item()
            flat[i] = orig + eps
            plus = [o.detach().reshape(-1).clone() for o in fn()]
            flat[i] = orig - eps
            minus = [o.detach().reshape(-1).clone() for o in fn()]
            flat[i] = orig
            cols.append([(p - m) / (2 * eps) for p, m in zip(plus, minus)])
    if not cols:
        outs = [o.reshape(-1) for o in fn()]
        return tuple(zeros(0, o.numel(), dtype=x.dtype if x.is_floating_point() else float64, device=x.device) for o in outs)
    return tuple(stack([c[k] for c in cols]) for k in range(len(cols[0])))


def get_numerical_jacobian(fn, inputs, target=None, eps=1e-3, grad_out=1.0):
    """Deprecated (PyTorch's too): the finite-difference Jacobians of ``fn(inputs)``'s first
    output w.r.t. each input (or each of ``target``) that requires grad, each of shape
    [input.numel(), output.numel()]."""
    import warnings

    from .. import Tensor

    warnings.warn(_DEPRECATED.format("get_numerical_jacobian"), FutureWarning, stacklevel=2)
    if grad_out != 1.0:
        raise ValueError("Expected grad_out to be 1.0. get_numerical_jacobian no longer supports "
                         "values of grad_out != 1.0.")
    inputs = _as_tuple(inputs)
    target = inputs if target is None else _as_tuple(target)
    result = []
    for x in target:
        if isinstance(x, Tensor) and x.requires_grad:
            result.append(_numerical_columns(lambda: _as_tuple(fn(inputs)), x, eps)[0])
    return tuple(result)


def get_numerical_jacobian_wrt_specific_input(fn, input_idx, inputs, outputs, eps, input=None,
                                              is_forward_ad=False):
    """The finite-difference Jacobians of each of ``outputs`` (``fn(*inputs)``) w.r.t.
    ``inputs[input_idx]`` (or ``input``), each of shape [input.numel(), output.numel()]."""
    x = inputs[input_idx] if input is None else input
    if not x.requires_grad:
        raise AssertionError("Expected input to have requires_grad=True")
    return _numerical_columns(lambda: _as_tuple(fn(*inputs)), x, eps)


def get_analytical_jacobian(inputs, output, nondet_tol=0.0, grad_out=1.0):
    """Deprecated (PyTorch's too): ``(jacobians, reentrant, correct_grad_sizes,
    correct_grad_types)``: the backward-mode Jacobian of ``output`` w.r.t. each input that
    requires grad ([input.numel(), output.numel()]), computed twice to check that backward is
    deterministic within ``nondet_tol``."""
    import warnings

    from .. import Tensor, stack, zeros

    warnings.warn(_DEPRECATED.format("get_analytical_jacobian"), FutureWarning, stacklevel=2)
    if grad_out != 1.0:
        raise ValueError("Expected grad_out to be 1.0. get_analytical_jacobian no longer supports "
                         "values of grad_out != 1.0.")
    if output.dtype.is_complex:
        raise ValueError("Expected output to be non-complex. get_analytical_jacobian no longer "
                         "supports functions that return complex outputs.")
    diff = [x for x in _as_tuple(inputs) if isinstance(x, Tensor) and x.requires_grad]
    n = output.numel()

    def jacobians():
        sizes_ok = types_ok = True
        rows = []
        for k in range(n):
            e = zeros(n, dtype=output.dtype, device=output.device)
            e[k] = 1.0
            gs = _grad(output, diff, e.reshape(output.shape), retain_graph=True, allow_unused=True)
            row = []
            for g, x in zip(gs, diff):
                if g is None:
                    g = zeros(x.shape, dtype=x.dtype, device=x.device)
                sizes_ok = sizes_ok and tuple(g.shape) == tuple(x.shape)
                types_ok = types_ok and g.dtype == x.dtype
                row.append(g.reshape(-1))
            rows.append(row)
        jacs = tuple(stack([r[j] for r in rows], 1) if rows else zeros(x.numel(), 0, dtype=x.dtype, device=x.device)
                     for j, x in enumerate(diff))
        return jacs, sizes_ok, types_ok

    first, sizes_ok, types_ok = jacobians()
    second, _, _ = jacobians()
    reentrant = all(bool(((a - b).abs() <= nondet_tol).all()) for a, b in zip(first, second))
    return first, reentrant, sizes_ok, types_ok
