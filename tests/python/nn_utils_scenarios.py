"""torch.nn.utils beyond clipping and rnn: parametrize (register/remove/cached/transfer,
stacked and tuple-valued parametrizations, the Parametrized<Name> class swap, state_dict
keys), parametrizations (weight_norm, spectral_norm, orthogonal), the hook-based
weight_norm / spectral_norm, prune, fusion, skip_init, stateless.functional_call and the
conv weight memory-format conversion: values, gradients, reprs, parameter names, state_dict
keys, warnings and errors. Parameters are set from ``linspace`` so both libraries start from
the same values; random draws (spectral_norm's u/v, orthogonal's completion, random pruning)
come after ``manual_seed``. Run with ``torch`` bound to PyTorch
(tools/record_nn_utils_goldens.py records fixtures/nn_utils.json) or to ferrograd
(test_nn_utils.py compares)."""

import copy
import importlib
import pickle
import warnings


def _v(t):
    return [v if v == v else "nan" for v in t.detach().double().flatten().tolist()]


def _caught(f):
    try:
        return f()
    except Exception as e:  # noqa: BLE001 - PyTorch's error is the result
        return {"error": [type(e).__name__, str(e)]}


def _res(r):
    if isinstance(r, (tuple, list)):
        return [_res(e) for e in r]
    if not hasattr(r, "grad_fn"):
        return r
    return {"value": _v(r), "shape": list(r.shape), "dtype": str(r.dtype).split(".")[-1]}


def _fill(torch, module, lo=-0.5, hi=0.5):
    with torch.no_grad():
        for k, p in enumerate(module.parameters()):
            p.copy_(torch.linspace(lo, hi, p.numel()).reshape(p.shape) * (1 + 0.1 * k))
    return module


def _grads(torch, module, inputs, out):
    # a weighted sum (plus a square): no cancellation, so both libraries' rounding agrees
    loss = sum((o * torch.linspace(-1.0, 1.0, o.numel()).reshape(o.shape) + 0.1 * o * o).sum() for o in out)
    params = [p for p in module.parameters()] + [i for i in inputs if i.requires_grad]
    gs = torch.autograd.grad(loss, params)
    return [_v(g) for g in gs]


def _describe(torch, m):
    """What a user sees of a (parametrized/pruned) module."""
    return {
        "type": type(m).__name__,
        "repr": repr(m),
        "params": [(n, list(p.shape), p.requires_grad) for n, p in m.named_parameters()],
        "buffers": [(n, list(b.shape)) for n, b in m.named_buffers()],
        "state_dict": list(m.state_dict().keys()),
    }


def _warned(f):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = f()
    return r, [[x.category.__name__, str(x.message)] for x in w]


def run(torch):
    nn = torch.nn
    P = torch.nn.utils.parametrize
    PZ = torch.nn.utils.parametrizations
    prune = importlib.import_module(torch.__name__ + ".nn.utils.prune")
    out = {}
    x = torch.linspace(-1, 1, 2 * 4).reshape(2, 4)

    class Scale(nn.Module):
        def __init__(self, s):
            super().__init__()
            self.s = s

        def forward(self, X):
            return X * self.s

        def right_inverse(self, A):
            return A / self.s

    class Symmetric(nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).transpose(0, 1)

        def right_inverse(self, A):
            return A.triu()

    class NoInverse(nn.Module):
        def forward(self, X):
            return X + 1.0

    class RankOne(nn.Module):
        def forward(self, a, b):
            return a.unsqueeze(-1) @ b.unsqueeze(-2)

        def right_inverse(self, Z):
            return Z[:, 0].clone(), Z[0, :] / Z[0, 0]

    class Counting(nn.Module):
        def __init__(self):
            super().__init__()
            self.calls = 0

        def forward(self, X):
            self.calls += 1
            return X * 3.0

    # ---- parametrize ------------------------------------------------------------------------
    def basic():
        m = _fill(torch, nn.Linear(4, 3))
        orig = m.weight
        P.register_parametrization(m, "weight", Scale(2.0))
        y = m(x.clone().requires_grad_())
        xi = x.clone().requires_grad_()
        y = m(xi)
        r = _describe(torch, m)
        r.update({
            "weight": _v(m.weight), "original": _v(m.parametrizations.weight.original),
            "same_object": m.parametrizations.weight.original is orig,
            "is_param": isinstance(m.parametrizations.weight.original, nn.Parameter),
            "is_parametrized": [P.is_parametrized(m), P.is_parametrized(m, "weight"), P.is_parametrized(m, "bias")],
            "type_before": P.type_before_parametrizations(m).__name__,
            "isinstance_linear": isinstance(m, nn.Linear),
            "bases": type(m).__bases__[0].__name__,
            "weight_in_params": "weight" in m._parameters,
            "y": _v(y), "grads": _grads(torch, m, [xi], [y]),
            "plist_len": len(m.parametrizations.weight),
            "is_tensor": m.parametrizations.weight.is_tensor, "ntensors": m.parametrizations.weight.ntensors,
            "training": m.parametrizations.weight[0].training,
        })
        return r
    out["param_basic"] = _caught(basic)

    def stacked():
        m = _fill(torch, nn.Linear(4, 4))
        P.register_parametrization(m, "weight", Symmetric())
        P.register_parametrization(m, "weight", Scale(0.5))
        r = _describe(torch, m)
        r["weight"] = _v(m.weight)
        r["original"] = _v(m.parametrizations.weight.original)
        xi = x.clone().requires_grad_()
        y = m(xi)
        r["grads"] = _grads(torch, m, [xi], [y])
        # assignment goes through every right_inverse, last registered first
        A = torch.linspace(-1, 1, 16).reshape(4, 4)
        A = A + A.T
        m.weight = A
        r["after_assign"] = [_v(m.weight), _v(m.parametrizations.weight.original)]
        r["params_after"] = [n for n, _ in m.named_parameters()]
        return r
    out["param_stacked"] = _caught(stacked)

    def tuple_inverse():
        m = _fill(torch, nn.Linear(4, 3), 0.1, 0.9)
        with torch.no_grad():
            m.weight.copy_(torch.linspace(1, 2, 3).unsqueeze(-1) @ torch.linspace(0.5, 1, 4).unsqueeze(0))
        P.register_parametrization(m, "weight", RankOne())
        r = _describe(torch, m)
        pl = m.parametrizations.weight
        r["originals"] = [_v(pl.original0), _v(pl.original1)]
        r["is_tensor"] = [pl.is_tensor, pl.ntensors, hasattr(pl, "original")]
        r["weight"] = _v(m.weight)
        xi = x.clone().requires_grad_()
        y = m(xi)
        r["grads"] = _grads(torch, m, [xi], [y])
        m.weight = torch.linspace(2, 3, 3).unsqueeze(-1) @ torch.linspace(1, 2, 4).unsqueeze(0)
        r["after_assign"] = [_v(pl.original0), _v(pl.original1)]
        r["leave_false"] = _caught(lambda: P.remove_parametrizations(m, "weight", leave_parametrized=False))
        P.remove_parametrizations(m, "weight")
        r["removed"] = _describe(torch, m)
        r["removed_weight"] = [_v(m.weight), isinstance(m.weight, nn.Parameter), m.weight.requires_grad]
        return r
    out["param_tuple"] = _caught(tuple_inverse)

    class Shrink(nn.Module):
        def forward(self, X):
            return X[:, :2]

    def unsafe():
        r = {}
        m = _fill(torch, nn.Linear(4, 3))
        r["safe_shape_err"] = _caught(lambda: P.register_parametrization(m, "weight", Shrink()))
        r["after_err"] = _describe(torch, m)
        r["safe_dtype_err"] = _caught(lambda: P.register_parametrization(m, "weight", _Lambda(nn, lambda X: X.double())))
        P.register_parametrization(m, "weight", Shrink(), unsafe=True)
        r["unsafe"] = [list(m.weight.shape), _v(m.weight), m.parametrizations.weight.unsafe]
        P.register_parametrization(m, "weight", Shrink())  # unsafe already: no check
        r["second"] = [list(m.weight.shape), m.parametrizations.weight.unsafe, len(m.parametrizations.weight)]
        m2 = _fill(torch, nn.Linear(4, 3))
        P.register_parametrization(m2, "weight", Scale(2.0))
        r["stack_shape_err"] = _caught(lambda: P.register_parametrization(m2, "weight", Shrink()))
        r["stack_dtype_err"] = _caught(lambda: P.register_parametrization(m2, "weight", _Lambda(nn, lambda X: X.double())))
        r["stack_nontensor_err"] = _caught(lambda: P.register_parametrization(m2, "weight", _Lambda(nn, lambda X: 3)))
        r["stack_len"] = len(m2.parametrizations.weight)
        return r
    out["param_unsafe"] = _caught(unsafe)

    def errors():
        r = {}
        m = _fill(torch, nn.Linear(4, 3))
        r["no_name"] = _caught(lambda: P.register_parametrization(m, "nope", Scale(2.0)))
        r["remove_unparam"] = _caught(lambda: P.remove_parametrizations(m, "weight"))
        r["bad_inverse"] = _caught(lambda: P.register_parametrization(m, "weight", _Inv(nn, lambda X: 3)))
        r["bad_inverse_elem"] = _caught(lambda: P.register_parametrization(m, "weight", _Inv(nn, lambda X: (X, 3))))
        r["inverse_dtype"] = _caught(lambda: P.register_parametrization(m, "weight", _Inv(nn, lambda X: X.double())))
        r["nontensor_forward"] = _caught(lambda: P.register_parametrization(m, "weight", _Lambda(nn, lambda X: [X])))
        r["still_plain"] = _describe(torch, m)
        P.register_parametrization(m, "weight", NoInverse())
        r["no_inverse_value"] = _v(m.weight)
        r["assign_no_inverse"] = _caught(lambda: setattr(m, "weight", torch.zeros(3, 4)))
        r["assign_param"] = _caught(lambda: setattr(m, "weight", nn.Parameter(torch.zeros(3, 4))))
        r["pickle"] = _caught(lambda: pickle.dumps(m))
        return r
    out["param_errors"] = _caught(errors)

    def remove():
        r = {}
        m = _fill(torch, nn.Linear(4, 3))
        orig = m.weight
        P.register_parametrization(m, "weight", Scale(2.0))
        P.register_parametrization(m, "bias", Scale(3.0))
        r["both"] = _describe(torch, m)
        P.remove_parametrizations(m, "weight")
        r["one_left"] = _describe(torch, m)
        r["weight"] = [_v(m.weight), m.weight is orig, m.weight.requires_grad]
        P.remove_parametrizations(m, "bias", leave_parametrized=False)
        r["none_left"] = _describe(torch, m)
        r["bias"] = _v(m.bias)
        r["has_parametrizations"] = hasattr(m, "parametrizations")
        r["class_is_linear"] = type(m) is nn.Linear
        return r
    out["param_remove"] = _caught(remove)

    def cached():
        m = _fill(torch, nn.Linear(4, 3))
        c = Counting()
        P.register_parametrization(m, "weight", c)
        c.calls = 0
        m.weight
        m.weight
        r = [c.calls]
        with P.cached():
            a = m.weight
            b = m.weight
            with P.cached():
                m.weight
            m.weight
        r += [c.calls, a is b]
        m.weight
        r.append(c.calls)
        return r
    out["param_cached"] = _caught(cached)

    class WithBuffer(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("buf", torch.linspace(0, 1, 5))
            self.w = nn.Parameter(torch.linspace(-1, 1, 5))

        def forward(self, v):
            return v * self.buf + self.w

    def buffer():
        m = WithBuffer()
        P.register_parametrization(m, "buf", Scale(4.0))
        r = _describe(torch, m)
        r["buf"] = _v(m.buf)
        r["original_is_param"] = isinstance(m.parametrizations.buf.original, nn.Parameter)
        r["y"] = _v(m(torch.ones(5)))
        m.eval()
        P.register_parametrization(m, "w", Scale(2.0))
        r["training"] = [m.parametrizations.buf[0].training, m.parametrizations.w[0].training]
        return r
    out["param_buffer"] = _caught(buffer)

    def state_dict_roundtrip():
        m = _fill(torch, nn.Linear(4, 3))
        P.register_parametrization(m, "weight", Scale(2.0))
        m2 = nn.Linear(4, 3)
        P.register_parametrization(m2, "weight", Scale(2.0))
        res = m2.load_state_dict(m.state_dict())
        r = {"load": repr(res), "weight": _v(m2.weight)}
        m3 = nn.Linear(4, 3)
        r["into_plain"] = _caught(lambda: m3.load_state_dict(m.state_dict()))
        return r
    out["param_state_dict"] = _caught(state_dict_roundtrip)

    def transfer():
        m = _fill(torch, nn.Linear(4, 3))
        P.register_parametrization(m, "weight", Scale(2.0))
        P.register_parametrization(m, "weight", Scale(0.5))
        to = nn.Linear(4, 3)
        P.transfer_parametrizations_and_params(m, to)
        r = _describe(torch, to)
        r["weight"] = _v(to.weight)
        r["shared_original"] = to.parametrizations.weight.original is m.parametrizations.weight.original
        m2 = _fill(torch, nn.Linear(4, 3), 0.1, 0.9)
        with torch.no_grad():
            m2.weight.copy_(torch.linspace(1, 2, 3).unsqueeze(-1) @ torch.linspace(0.5, 1, 4).unsqueeze(0))
        P.register_parametrization(m2, "weight", RankOne())

        class Empty(nn.Module):
            pass
        to2 = Empty()
        P.transfer_parametrizations_and_params(m2, to2, "weight")
        r["tuple"] = _describe(torch, to2)
        r["tuple_weight"] = _v(to2.weight)
        r["not_parametrized"] = _describe(torch, P.transfer_parametrizations_and_params(nn.Linear(2, 2), Empty()))
        return r
    out["param_transfer"] = _caught(transfer)

    def deepcopy_():
        m = _fill(torch, nn.Linear(4, 3))
        P.register_parametrization(m, "weight", Scale(2.0))
        c = copy.deepcopy(m)
        with torch.no_grad():
            m.parametrizations.weight.original.add_(1.0)
        return [type(c).__name__, _v(c.weight), _v(m.weight), type(c) is type(m)]
    out["param_deepcopy"] = _caught(deepcopy_)

    # ---- parametrizations ---------------------------------------------------------------------
    for name, mk, dim in [("linear", lambda: nn.Linear(4, 3), 0), ("linear_none", lambda: nn.Linear(4, 3), None),
                          ("linear_dim1", lambda: nn.Linear(4, 3), 1), ("conv1d", lambda: nn.Conv1d(2, 3, 3), 0),
                          ("conv1d_last", lambda: nn.Conv1d(2, 3, 3), 2), ("conv1d_mid", lambda: nn.Conv1d(2, 3, 3), 1),
                          ("conv1d_neg", lambda: nn.Conv1d(2, 3, 3), -2)]:
        def wn(mk=mk, dim=dim):
            m = _fill(torch, mk())
            PZ.weight_norm(m, dim=dim)
            r = _describe(torch, m)
            pl = m.parametrizations.weight
            r["g"] = _res(pl.original0)
            r["v"] = _res(pl.original1)
            r["weight"] = _res(m.weight)
            xi = (x.clone() if isinstance(m, nn.Linear) else torch.linspace(-1, 1, 2 * 2 * 5).reshape(2, 2, 5)).requires_grad_()
            y = m(xi)
            r["grads"] = _grads(torch, m, [xi], [y])
            return r
        out[f"pz_weight_norm_{name}"] = _caught(wn)

    def wn_compat():
        old = _fill(torch, nn.Linear(4, 3))
        _warned(lambda: torch.nn.utils.weight_norm(old))
        with torch.no_grad():
            old.weight_g.mul_(2.0)
        new = PZ.weight_norm(nn.Linear(4, 3))
        res = new.load_state_dict(old.state_dict())
        return {"old_keys": list(old.state_dict().keys()), "load": repr(res), "weight": _v(new.weight),
                "old_weight": _v(old.weight_v * (old.weight_g / old.weight_v.norm(dim=1, keepdim=True)))}
    out["pz_weight_norm_compat"] = _caught(wn_compat)

    def wn_remove():
        m = _fill(torch, nn.Linear(4, 3))
        PZ.weight_norm(m)
        with torch.no_grad():
            m.parametrizations.weight.original0.mul_(3.0)
        P.remove_parametrizations(m, "weight")
        return {"desc": _describe(torch, m), "weight": _v(m.weight),
                "leave_false": _caught(lambda: P.remove_parametrizations(PZ.weight_norm(nn.Linear(2, 2)), "weight", False))}
    out["pz_weight_norm_remove"] = _caught(wn_remove)

    for name, mk, kw in [("linear", lambda: nn.Linear(5, 3), {}), ("linear_3iter", lambda: nn.Linear(5, 3), {"n_power_iterations": 3}),
                         ("conv2d", lambda: nn.Conv2d(2, 3, 2), {}), ("convT2d", lambda: nn.ConvTranspose2d(2, 3, 2), {}),
                         ("conv2d_dim1", lambda: nn.Conv2d(2, 3, 2), {"dim": 1}), ("conv2d_dimneg", lambda: nn.Conv2d(2, 3, 2), {"dim": -1}),
                         ("linear_eps", lambda: nn.Linear(5, 3), {"eps": 1e-3})]:
        def sn(mk=mk, kw=kw):
            m = _fill(torch, mk())
            torch.manual_seed(0)
            PZ.spectral_norm(m, **kw)
            r = _describe(torch, m)
            sn_mod = m.parametrizations.weight[0]
            r["uv"] = [_v(sn_mod._u), _v(sn_mod._v), sn_mod.dim]
            r["weight_1"] = _v(m.weight)
            r["weight_2"] = _v(m.weight)  # another power iteration (training)
            r["uv_2"] = [_v(sn_mod._u), _v(sn_mod._v)]
            xi = (x.clone().reshape(2, 4)[:, :1].expand(2, 5).contiguous() if isinstance(m, nn.Linear)
                  else torch.linspace(-1, 1, 2 * 2 * 3 * 3).reshape(2, 2, 3, 3)).requires_grad_()
            y = m(xi)
            r["y"] = _v(y)
            r["grads"] = _grads(torch, m, [xi], [y])
            m.eval()
            w_eval = m.weight
            r["eval"] = [_v(w_eval), _v(m.weight), _v(sn_mod._u)]
            return r
        out[f"pz_spectral_norm_{name}"] = _caught(sn)

    def sn_misc():
        r = {}
        m = _fill(torch, nn.Linear(4, 3))
        PZ.spectral_norm(m, "bias")
        r["vector"] = [_v(m.bias), [n for n, _ in m.named_buffers()]]
        r["zero_iter"] = _caught(lambda: PZ.spectral_norm(nn.Linear(4, 3), n_power_iterations=0))
        r["bad_dim"] = _caught(lambda: PZ.spectral_norm(nn.Linear(4, 3), dim=2))
        r["bad_dim_neg"] = _caught(lambda: PZ.spectral_norm(nn.Linear(4, 3), dim=-3))
        r["no_name"] = _caught(lambda: PZ.spectral_norm(nn.Linear(4, 3), "nope"))
        torch.manual_seed(1)
        m2 = _fill(torch, nn.Linear(5, 3))
        PZ.spectral_norm(m2)
        m2.weight = torch.linspace(-2, 2, 15).reshape(3, 5)
        r["assign"] = [_v(m2.parametrizations.weight.original), _v(m2.weight)]
        P.remove_parametrizations(m2, "weight")
        r["removed"] = [_describe(torch, m2), _v(m2.weight)]
        return r
    out["pz_spectral_norm_misc"] = _caught(sn_misc)

    for name, mk, kw in [("linear_tall_default", lambda: nn.Linear(3, 5), {}), ("linear_wide_default", lambda: nn.Linear(5, 3), {}),
                         ("square_default", lambda: nn.Linear(4, 4), {}), ("square_cayley", lambda: nn.Linear(4, 4), {"orthogonal_map": "cayley"}),
                         ("square_householder", lambda: nn.Linear(4, 4), {"orthogonal_map": "householder"}),
                         ("tall_cayley", lambda: nn.Linear(3, 5), {"orthogonal_map": "cayley"}),
                         ("tall_matrix_exp", lambda: nn.Linear(3, 5), {"orthogonal_map": "matrix_exp"}),
                         ("square_no_triv", lambda: nn.Linear(4, 4), {"use_trivialization": False}),
                         ("householder_no_triv", lambda: nn.Linear(3, 5), {"orthogonal_map": "householder", "use_trivialization": False}),
                         ("wide_householder_no_triv", lambda: nn.Linear(5, 3), {"orthogonal_map": "householder", "use_trivialization": False}),
                         ("cayley_no_triv", lambda: nn.Linear(3, 5), {"orthogonal_map": "cayley", "use_trivialization": False})]:
        def orth(mk=mk, kw=kw):
            m = _full_rank(torch, _fill(torch, mk()))
            torch.manual_seed(0)
            PZ.orthogonal(m, **kw)
            r = _describe(torch, m)
            o = m.parametrizations.weight[0]
            r["map"] = o.orthogonal_map.name
            r["base"] = _v(o.base) if getattr(o, "base", None) is not None else None
            r["original"] = _v(m.parametrizations.weight.original)
            W = m.weight
            r["weight"] = _v(W)
            n, k = W.shape
            r["gram"] = _v(W.T @ W if n >= k else W @ W.T)
            xi = torch.linspace(-1, 1, 2 * m.in_features).reshape(2, -1).requires_grad_()
            y = m(xi)
            r["grads"] = _grads(torch, m, [xi], [y])
            return r
        out[f"pz_orthogonal_{name}"] = _caught(orth)

    def orth_misc():
        r = {}
        r["vector"] = _caught(lambda: PZ.orthogonal(nn.Linear(4, 3), "bias"))
        r["bad_map"] = _caught(lambda: PZ.orthogonal(nn.Linear(4, 3), orthogonal_map="qr"))
        r["no_name"] = _caught(lambda: PZ.orthogonal(nn.Linear(4, 3), "nope"))
        m = _fill(torch, nn.Linear(4, 4))
        PZ.orthogonal(m)
        Q = torch.eye(4)[[2, 0, 3, 1]]
        m.weight = Q
        r["assign_orth"] = [_v(m.weight), _v(m.parametrizations.weight[0].base), _v(m.parametrizations.weight.original)]
        r["assign_shape"] = _caught(lambda: setattr(m, "weight", torch.eye(3)))
        m2 = _fill(torch, nn.Linear(4, 4))
        PZ.orthogonal(m2, use_trivialization=False)
        r["assign_no_triv"] = _caught(lambda: setattr(m2, "weight", torch.eye(4)))
        # a batch of matrices (buffer of shape (2, 3, 3))
        mb = WithBatch(torch, nn)
        torch.manual_seed(0)
        PZ.orthogonal(mb, "mats")
        r["batch"] = _v(mb.mats)
        r["batch_gram"] = _v(mb.mats.transpose(-2, -1) @ mb.mats)
        return r
    out["pz_orthogonal_misc"] = _caught(orth_misc)

    # ---- hook-based weight_norm / spectral_norm --------------------------------------------
    for name, mk, dim in [("linear", lambda: nn.Linear(4, 3), 0), ("linear_none", lambda: nn.Linear(4, 3), None),
                          ("conv1d_dim2", lambda: nn.Conv1d(2, 3, 3), 2), ("conv1d_dim1", lambda: nn.Conv1d(2, 3, 3), 1)]:
        def old_wn(mk=mk, dim=dim):
            m = _fill(torch, mk())
            _, w = _warned(lambda: torch.nn.utils.weight_norm(m, dim=dim))
            r = _describe(torch, m)
            r["warnings"] = w
            r["g"] = _res(m.weight_g)
            r["v"] = _res(m.weight_v)
            r["weight"] = [_res(m.weight), isinstance(m.weight, nn.Parameter), m.weight.requires_grad]
            r["hooks"] = [type(h).__name__ for h in m._forward_pre_hooks.values()]
            with torch.no_grad():
                m.weight_g.mul_(2.0)
            xi = (x.clone() if isinstance(m, nn.Linear) else torch.linspace(-1, 1, 2 * 2 * 5).reshape(2, 2, 5)).requires_grad_()
            y = m(xi)
            r["y"] = _v(y)
            r["grads"] = _grads(torch, m, [xi], [y])
            r["twice"] = _caught(lambda: torch.nn.utils.weight_norm(m, dim=dim))
            torch.nn.utils.remove_weight_norm(m)
            r["removed"] = [_describe(torch, m), _v(m.weight), isinstance(m.weight, nn.Parameter), len(m._forward_pre_hooks)]
            r["remove_again"] = _caught(lambda: torch.nn.utils.remove_weight_norm(m))
            return r
        out[f"old_weight_norm_{name}"] = _caught(old_wn)

    for name, mk, kw in [("linear", lambda: nn.Linear(5, 3), {}), ("linear_2iter", lambda: nn.Linear(5, 3), {"n_power_iterations": 2}),
                         ("conv2d", lambda: nn.Conv2d(2, 3, 2), {}), ("convT2d", lambda: nn.ConvTranspose2d(2, 3, 2), {}),
                         ("conv2d_dim1", lambda: nn.Conv2d(2, 3, 2), {"dim": 1})]:
        def old_sn(mk=mk, kw=kw):
            m = _fill(torch, mk())
            torch.manual_seed(0)
            torch.nn.utils.spectral_norm(m, **kw)
            r = _describe(torch, m)
            r["uv"] = [_v(m.weight_u), _v(m.weight_v)]
            r["weight_attr"] = [_v(m.weight), isinstance(m.weight, nn.Parameter), "weight" in m.__dict__]
            xi = (x.clone()[:, :1].expand(2, 5).contiguous() if isinstance(m, nn.Linear)
                  else torch.linspace(-1, 1, 2 * 2 * 3 * 3).reshape(2, 2, 3, 3)).requires_grad_()
            y = m(xi)
            r["y"] = _v(y)
            r["grads"] = _grads(torch, m, [xi], [y])
            r["uv_1"] = [_v(m.weight_u), _v(m.weight_v)]
            m(xi)
            r["uv_2"] = [_v(m.weight_u), _v(m.weight)]
            m.eval()
            m(xi)
            r["uv_eval"] = [_v(m.weight_u), _v(m.weight)]
            sd = m.state_dict()
            r["metadata"] = sd._metadata[""].get("spectral_norm")
            r["twice"] = _caught(lambda: torch.nn.utils.spectral_norm(m))
            torch.nn.utils.remove_spectral_norm(m)
            r["removed"] = [_describe(torch, m), _v(m.weight), len(m._forward_pre_hooks), len(m._state_dict_hooks)]
            r["remove_again"] = _caught(lambda: torch.nn.utils.remove_spectral_norm(m))
            r["load_after_remove"] = _caught(lambda: repr(m.load_state_dict(m.state_dict())))
            return r
        out[f"old_spectral_norm_{name}"] = _caught(old_sn)

    def old_sn_misc():
        r = {}
        r["none_param"] = _caught(lambda: torch.nn.utils.spectral_norm(nn.Linear(4, 3, bias=False), "bias"))
        r["zero_iter"] = _caught(lambda: torch.nn.utils.spectral_norm(nn.Linear(4, 3), n_power_iterations=0))
        m = _full_rank(torch, _fill(torch, nn.Linear(3, 5)))
        torch.manual_seed(0)
        torch.nn.utils.spectral_norm(m)
        m2 = nn.Linear(3, 5)
        torch.manual_seed(3)
        torch.nn.utils.spectral_norm(m2)
        r["load"] = repr(m2.load_state_dict(m.state_dict()))
        r["loaded"] = [_v(m2.weight_orig), _v(m2.weight_u), _v(m2.weight_v)]
        # a version-0 checkpoint: weight, weight_orig, weight_u; weight_v is solved for
        sd = {"weight": m.weight.detach() * 1.0, "weight_orig": m.weight_orig.detach() * 1.0,
              "weight_u": m.weight_u * 1.0, "bias": m.bias.detach() * 1.0}
        m3 = nn.Linear(3, 5)
        torch.manual_seed(3)
        torch.nn.utils.spectral_norm(m3)
        r["load_v0"] = _caught(lambda: repr(m3.load_state_dict(sd)))
        r["loaded_v0_v"] = _v(m3.weight_v)
        return r
    out["old_spectral_norm_misc"] = _caught(old_sn_misc)

    out["old_uninitialized"] = [_caught(lambda: torch.nn.utils.weight_norm(nn.LazyLinear(3))),
                                _caught(lambda: torch.nn.utils.spectral_norm(nn.LazyLinear(3)))]

    # ---- prune ----------------------------------------------------------------------------------
    def pmod(lo=-0.37, hi=0.61):
        return _fill(torch, nn.Linear(4, 3), lo, hi)

    def pruned(m, xi=None):
        r = _describe(torch, m)
        r["weight"] = [_v(m.weight), isinstance(m.weight, nn.Parameter)]
        r["mask"] = _v(m.weight_mask) if hasattr(m, "weight_mask") else None
        r["hooks"] = [type(h).__name__ for h in m._forward_pre_hooks.values()]
        r["is_pruned"] = prune.is_pruned(m)
        xi = x.clone().requires_grad_()
        y = m(xi)
        r["grads"] = _grads(torch, m, [xi], [y])
        return r

    cases = {
        "identity": lambda m: prune.identity(m, "weight"),
        "l1_frac": lambda m: prune.l1_unstructured(m, "weight", amount=0.3),
        "l1_int": lambda m: prune.l1_unstructured(m, "weight", amount=5),
        "l1_zero": lambda m: prune.l1_unstructured(m, "weight", amount=0),
        "l1_scores": lambda m: prune.l1_unstructured(m, "weight", 4, importance_scores=torch.linspace(1, 0, 12).reshape(3, 4)),
        "l1_bias": lambda m: prune.l1_unstructured(m, "bias", amount=1),
        "random_unstructured": lambda m: (torch.manual_seed(0), prune.random_unstructured(m, "weight", 0.5)),
        "random_structured": lambda m: (torch.manual_seed(0), prune.random_structured(m, "weight", amount=2, dim=1)),
        "random_structured_rows": lambda m: (torch.manual_seed(1), prune.random_structured(m, "weight", amount=0.34, dim=0)),
        "ln_l2_rows": lambda m: prune.ln_structured(m, "weight", amount=1, n=2, dim=0),
        "ln_l1_cols": lambda m: prune.ln_structured(m, "weight", amount=0.5, n=1, dim=-1),
        "ln_inf": lambda m: prune.ln_structured(m, "weight", amount=2, n=float("inf"), dim=1),
        "ln_scores": lambda m: prune.ln_structured(m, "weight", amount=1, n=2, dim=0,
                                                   importance_scores=torch.linspace(1, 0, 12).reshape(3, 4)),
        "custom": lambda m: prune.custom_from_mask(m, "weight", torch.tensor([[1, 0, 1, 1], [0, 1, 1, 0], [1, 1, 0, 1]])),
        "iterative": lambda m: (prune.l1_unstructured(m, "weight", 3), prune.ln_structured(m, "weight", 1, 2, 0),
                                prune.l1_unstructured(m, "weight", 2)),
        "iterative_structured": lambda m: (prune.ln_structured(m, "weight", 1, 1, 1), prune.random_structured(m, "weight", 1, 1)),
        "iterative_custom": lambda m: (prune.random_unstructured(m, "weight", 2),
                                       prune.custom_from_mask(m, "weight", torch.ones(3, 4).tril())),
    }
    for name, f in cases.items():
        def run_prune(f=f):
            m = pmod()
            torch.manual_seed(0)
            f(m)
            return pruned(m)
        out[f"prune_{name}"] = _caught(run_prune)

    def prune_container():
        m = pmod()
        prune.l1_unstructured(m, "weight", 3)
        prune.ln_structured(m, "weight", 1, 2, 0)
        hook = [h for h in m._forward_pre_hooks.values()][0]
        return {"len": len(hook), "types": [type(h).__name__ for h in hook], "name": hook._tensor_name,
                "getitem": type(hook[0]).__name__,
                "bad_add": _caught(lambda: hook.add_pruning_method(3)),
                "mismatch": _caught(lambda: hook.add_pruning_method(_named(prune.L1Unstructured(1), "bias")))[
                    "error"][0]}
    out["prune_container"] = _caught(prune_container)

    def prune_remove():
        m = pmod()
        w = m.weight
        prune.l1_unstructured(m, "weight", 5)
        prune.remove(m, "weight")
        r = pruned(m)
        r["same_object"] = m.weight is w
        r["again"] = _caught(lambda: prune.remove(m, "weight"))
        return r
    out["prune_remove"] = _caught(prune_remove)

    def prune_global():
        a, b = pmod(), _fill(torch, nn.Linear(3, 2), -0.83, 0.29)
        params = [(a, "weight"), (b, "weight"), (b, "bias")]
        prune.global_unstructured(params, pruning_method=prune.L1Unstructured, amount=0.4)
        r = {"a": pruned(a), "b": [_v(b.weight), _v(b.bias), _v(b.bias_mask), _describe(torch, b)]}
        prune.global_unstructured([(a, "weight")], pruning_method=prune.L1Unstructured, amount=2)
        r["again"] = [_v(a.weight_mask), [type(h).__name__ for h in a._forward_pre_hooks.values()]]
        c = pmod()
        prune.global_unstructured([(c, "weight")], prune.L1Unstructured,
                                  importance_scores={(c, "weight"): torch.linspace(1, 0, 12).reshape(3, 4)}, amount=3)
        r["scores"] = _v(c.weight_mask)
        torch.manual_seed(0)
        d = pmod()
        prune.global_unstructured([(d, "weight"), (d, "bias")], prune.RandomUnstructured, amount=5)
        r["random"] = [_v(d.weight_mask), _v(d.bias_mask)]
        return r
    out["prune_global"] = _caught(prune_global)

    def prune_errors():
        r = {}
        r["amount_big"] = _caught(lambda: prune.l1_unstructured(pmod(), "weight", 1.5))
        r["amount_neg"] = _caught(lambda: prune.l1_unstructured(pmod(), "weight", -1))
        r["amount_type"] = _caught(lambda: prune.l1_unstructured(pmod(), "weight", "a"))
        m = pmod()
        r["amount_too_many"] = _caught(lambda: prune.l1_unstructured(m, "weight", 13))
        r["restored"] = _describe(torch, m)
        r["structured_1d"] = _caught(lambda: prune.ln_structured(pmod(), "bias", 1, 2, 0))
        r["bad_dim"] = _caught(lambda: prune.random_structured(pmod(), "weight", 1, 2))
        r["remove_unpruned"] = _caught(lambda: prune.remove(pmod(), "weight"))
        r["global_structured"] = _caught(lambda: prune.global_unstructured([(pmod(), "weight")], prune.LnStructured,
                                                                            amount=1, n=2, dim=0))
        r["global_not_iterable"] = _caught(lambda: prune.global_unstructured(3, prune.L1Unstructured, amount=1))
        r["global_scores_type"] = _caught(lambda: prune.global_unstructured([(pmod(), "weight")], prune.L1Unstructured,
                                                                             importance_scores=[1], amount=1))
        r["scores_shape"] = _caught(lambda: prune.l1_unstructured(pmod(), "weight", 1, importance_scores=torch.ones(2)))
        r["not_pruned"] = prune.is_pruned(nn.Sequential(nn.Linear(2, 2)))
        seq = nn.Sequential(nn.Linear(2, 2), pmod())
        prune.identity(seq[1], "bias")
        r["nested_pruned"] = prune.is_pruned(seq)
        r["container_no_name"] = _caught(lambda: prune.PruningContainer(prune.L1Unstructured(1), prune.L1Unstructured(2)))[
            "error"][0]
        return r
    out["prune_errors"] = _caught(prune_errors)

    def prune_method_prune():
        t = torch.linspace(-0.37, 0.61, 12).reshape(3, 4)
        r = {"l1": _v(prune.L1Unstructured(amount=3).prune(t)),
             "ln": _v(prune.LnStructured(amount=1, n=1, dim=0).prune(t)),
             "ln_default": _v(prune.LnStructured(amount=0.5, n=2).prune(t, default_mask=torch.ones(3, 4).triu())),
             "scores": _v(prune.L1Unstructured(2).prune(t, importance_scores=torch.linspace(1, 0, 12).reshape(3, 4))),
             "identity": _v(prune.Identity().prune(t)),
             "custom": _v(prune.CustomFromMask(torch.eye(3, 4)).prune(t))}
        torch.manual_seed(0)
        r["random"] = _v(prune.RandomUnstructured(amount=0.5).prune(t))
        r["type"] = [prune.L1Unstructured.PRUNING_TYPE, prune.LnStructured.PRUNING_TYPE, prune.CustomFromMask.PRUNING_TYPE]
        return r
    out["prune_method_prune"] = _caught(prune_method_prune)

    # ---- fusion, skip_init, stateless, memory format -----------------------------------------
    def fuse_conv():
        conv = _fill(torch, nn.Conv2d(2, 3, 2))
        bn = _fill(torch, nn.BatchNorm2d(3), 0.5, 1.5)
        with torch.no_grad():
            bn.running_mean.copy_(torch.linspace(-0.2, 0.3, 3))
            bn.running_var.copy_(torch.linspace(0.5, 2.0, 3))
        r = {"training": _caught(lambda: torch.nn.utils.fuse_conv_bn_eval(conv, bn))}
        conv.eval()
        bn.eval()
        fused = torch.nn.utils.fuse_conv_bn_eval(conv, bn)
        inp = torch.linspace(-1, 1, 2 * 2 * 3 * 3).reshape(2, 2, 3, 3)
        r.update({"fused": _describe(torch, fused), "weight": _v(fused.weight), "bias": _v(fused.bias),
                  "y": _v(fused(inp)), "ref": _v(bn(conv(inp))), "is_copy": fused is not conv,
                  "grad_flags": [fused.weight.requires_grad, fused.bias.requires_grad]})
        conv2 = _fill(torch, nn.Conv2d(2, 3, 2, bias=False)).eval()
        bn2 = nn.BatchNorm2d(3, affine=False).eval()
        f2 = torch.nn.utils.fuse_conv_bn_eval(conv2, bn2)
        r["no_bias_affine"] = [_v(f2.weight), _v(f2.bias), _describe(torch, f2)]
        convt = _fill(torch, nn.ConvTranspose2d(2, 3, 2)).eval()
        ft = torch.nn.utils.fuse_conv_bn_eval(convt, bn, transpose=True)
        r["transpose"] = [_v(ft.weight), _v(ft.bias), _v(ft(inp)), _v(bn(convt(inp)))]
        w, b = torch.nn.utils.fuse_conv_bn_weights(conv.weight, None, bn.running_mean, bn.running_var, 1e-3, None, None)
        r["weights_fn"] = [_v(w), _v(b), type(w).__name__, w.requires_grad, b.requires_grad]
        return r
    out["fuse_conv_bn"] = _caught(fuse_conv)

    def fuse_linear():
        lin = _fill(torch, nn.Linear(4, 3))
        bn = _fill(torch, nn.BatchNorm1d(3), 0.5, 1.5)
        with torch.no_grad():
            bn.running_mean.copy_(torch.linspace(-0.2, 0.3, 3))
            bn.running_var.copy_(torch.linspace(0.5, 2.0, 3))
        r = {"training": _caught(lambda: torch.nn.utils.fuse_linear_bn_eval(lin, bn))}
        lin.eval()
        bn.eval()
        fused = torch.nn.utils.fuse_linear_bn_eval(lin, bn)
        r.update({"weight": _v(fused.weight), "bias": _v(fused.bias), "y": _v(fused(x)), "ref": _v(bn(lin(x))),
                  "repr": repr(fused)})
        r["mismatch"] = _caught(lambda: torch.nn.utils.fuse_linear_bn_eval(lin, nn.BatchNorm1d(4).eval()))
        r["one_feature"] = _v(torch.nn.utils.fuse_linear_bn_eval(lin, nn.BatchNorm1d(1).eval()).bias)
        w, b = torch.nn.utils.fuse_linear_bn_weights(lin.weight, None, bn.running_mean, bn.running_var, 1e-5,
                                                     bn.weight, bn.bias)
        r["weights_fn"] = [_v(w), _v(b), w.requires_grad, b.requires_grad]
        return r
    out["fuse_linear_bn"] = _caught(fuse_linear)

    def skip():
        m = torch.nn.utils.skip_init(nn.Linear, 3, 4, bias=True)
        r = {"desc": _describe(torch, m), "device": str(m.weight.device), "dtype": str(m.weight.dtype).split(".")[-1]}
        m2 = torch.nn.utils.skip_init(nn.Linear, 3, 4, dtype=torch.float64)
        r["double"] = str(m2.weight.dtype).split(".")[-1]
        r["not_module"] = _caught(lambda: torch.nn.utils.skip_init(int))

        class NoDevice(nn.Module):
            def __init__(self, n):
                super().__init__()
        r["no_device"] = _caught(lambda: torch.nn.utils.skip_init(NoDevice, 3))
        return r
    out["skip_init"] = _caught(skip)

    def stateless():
        m = _fill(torch, nn.Linear(4, 3))
        w = torch.linspace(0, 1, 12).reshape(3, 4).requires_grad_()
        y, warned = _warned(lambda: torch.nn.utils.stateless.functional_call(m, {"weight": w}, x))
        r = {"y": _v(y), "warnings": warned, "weight_back": _v(m.weight),
             "grad": _v(torch.autograd.grad(y.sum(), w)[0])}
        y2, _ = _warned(lambda: torch.nn.utils.stateless.functional_call(m, {"weight": w, "bias": torch.zeros(3)}, (x,)))
        r["y2"] = _v(y2)
        r["kwargs"] = _v(_warned(lambda: torch.nn.utils.stateless.functional_call(m, {}, kwargs={"input": x}))[0])
        r["strict"] = _caught(lambda: _warned(lambda: torch.nn.utils.stateless.functional_call(m, {"weight": w}, x, strict=True)))
        tied = nn.Sequential(nn.Linear(4, 4, bias=False), nn.Linear(4, 4, bias=False))
        _fill(torch, tied)
        tied[1].weight = tied[0].weight
        w4 = torch.linspace(-1, 1, 16).reshape(4, 4)
        r["tied"] = _v(_warned(lambda: torch.nn.utils.stateless.functional_call(tied, {"0.weight": w4}, x))[0])
        r["untied"] = _v(_warned(lambda: torch.nn.utils.stateless.functional_call(tied, {"0.weight": w4}, x, tie_weights=False))[0])
        return r
    out["stateless_functional_call"] = _caught(stateless)

    def mem_format():
        seq = nn.Sequential(nn.Conv2d(2, 3, 2), nn.Sequential(nn.ConvTranspose2d(3, 2, 2)), nn.Linear(2, 2))
        r = torch.nn.utils.convert_conv2d_weight_memory_format(seq, torch.channels_last)
        return [r is seq, list(seq[0].weight.stride()), list(seq[1][0].weight.stride()), list(seq[2].weight.stride()),
                seq[0].weight.is_contiguous(memory_format=torch.channels_last),
                isinstance(seq[0].weight, nn.Parameter)]
    out["memory_format"] = _caught(mem_format)

    out["exports"] = {
        "utils": sorted(torch.nn.utils.__all__),
        "parametrize": sorted(P.__all__), "parametrizations": sorted(PZ.__all__),
        "stateless": sorted(torch.nn.utils.stateless.__all__),
        "prune": sorted(n for n in ["identity", "random_unstructured", "l1_unstructured", "random_structured",
                                    "ln_structured", "global_unstructured", "custom_from_mask", "remove", "is_pruned",
                                    "BasePruningMethod", "PruningContainer", "Identity", "RandomUnstructured",
                                    "L1Unstructured", "RandomStructured", "LnStructured", "CustomFromMask"]
                        if hasattr(prune, n)),
        "kinds": [type(torch.nn.utils.weight_norm).__name__, type(torch.nn.utils.spectral_norm).__name__,
                  type(torch.nn.utils.parametrize).__name__],
        "hook_classes": [n for n in ["WeightNorm"] if hasattr(importlib.import_module(torch.__name__ + ".nn.utils.weight_norm"), n)],
    }
    return out


def _full_rank(torch, m):
    # linspace matrices have rank 2: QR / pinverse of them are not well defined
    with torch.no_grad():
        m.weight.add_(torch.eye(*m.weight.shape))
    return m


def _named(method, name):
    method._tensor_name = name
    return method


def _Lambda(nn, f):
    class Lambda(nn.Module):
        def forward(self, X):
            return f(X)
    return Lambda()


def _Inv(nn, f):
    class WithInverse(nn.Module):
        def forward(self, *X):
            return X[0]

        def right_inverse(self, X):
            return f(X)
    return WithInverse()


def WithBatch(torch, nn):
    class Batch(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("mats", torch.linspace(-1, 1, 18).reshape(2, 3, 3) + torch.eye(3))
    return Batch()
