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
    """Compare analytical gradients with finite differences; True when they agree."""
    inputs = _as_tuple(inputs)
    numerical = _numerical_jacobian(func, inputs, eps)
    analytical, diff = _analytical_jacobian(func, inputs)
    di = 0
    for j, x in enumerate(inputs):
        if numerical[j] is None:
            continue
        for i, col in enumerate(numerical[j]):
            for o, num_vals in enumerate(col):
                for k, nv in enumerate(num_vals):
                    g = analytical[o][k][di]
                    av = 0.0 if g is None else g[i]
                    if abs(av - nv) > atol + rtol * abs(nv):
                        if raise_exception:
                            raise GradcheckError(
                                f"Jacobian mismatch for output {o} with respect to input {j},\n"
                                f"numerical:{nv}\nanalytical:{av}\n")
                        return False
        di += 1
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
        grad_outputs = tuple(randn(*o.shape, dtype=o.dtype).requires_grad_(True) for o in outs)
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
