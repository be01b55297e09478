"""Scenarios for torch.func, forward-mode AD and checkpointing, run with a torch-like module.

tools/record_func_goldens.py runs them with PyTorch and stores the results in
fixtures/func.json; tests/python/test_func_forward_ad_checkpoint.py runs them with ferrograd
and compares.  Each scenario returns plain Python data (lists, floats, strings, bools)."""

import warnings


def V(t):
    return t.detach().tolist()


def err(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the type and message are the result
        return {"type": type(e).__name__, "msg": str(e)}
    return None


def err_type(fn):
    e = err(fn)
    return e and e["type"]


# ---- torch.func ------------------------------------------------------------------------

def grad_nested_closure(torch):
    func = torch.func
    x0 = torch.tensor([0.5, -1.5, 2.0])

    def outer(w):
        return func.grad(lambda x: (x.sin() * w).sum())(x0).pow(2).sum() * w.sum()

    w = torch.tensor([1.0, 2.0, -0.5])
    g = func.grad(outer)(w)
    third = func.grad(lambda x: func.grad(lambda y: func.grad(lambda z: z.pow(4).sum())(y).sum())(x).sum())(x0)
    return {"outer": V(g), "third": V(third), "req": [g.requires_grad, third.requires_grad]}


def grad_argnums_and_errors(torch):
    func = torch.func

    def f(a, b):
        return (a * b.exp()).sum()

    a = torch.tensor([1.0, 2.0])
    b = torch.tensor([0.5, -0.5])
    return {
        "neg": V(func.grad(f, argnums=-1)(a, b)),
        "both": [V(t) for t in func.grad(f, argnums=(1, 0))(a, b)],
        "out_of_range": err(lambda: func.grad(f, argnums=2)(a, b)),
        "dup": err(lambda: func.grad(f, argnums=(0, 0))(a, b)),
        "empty": err(lambda: func.grad(f, argnums=())(a, b)),
        "float": err(lambda: func.grad(f, argnums=0.5)(a, b)),
        "not_tensor_out": err(lambda: func.grad(lambda x: 3.0)(a)),
        "has_aux_bad": err(lambda: func.grad(lambda x: x.sum(), has_aux=True)(a)),
        "not_tensor_in": err(lambda: func.grad(lambda x: x)(3.0)),
    }


def grad_pytree_and_flags(torch):
    func = torch.func

    def f(p, x):
        return ((x @ p["w"] + p["b"]) ** 2).mean(), {"n": x.shape[0] * torch.ones(())}

    p = {"w": torch.tensor([[1.0], [-1.0]]), "b": torch.tensor([0.25])}
    x = torch.tensor([[1.0, 2.0], [0.5, 0.0], [-1.0, 3.0]])
    (g, (val, aux)) = func.grad_and_value(f, has_aux=True)(p, x)
    with torch.no_grad():
        g_nograd = func.grad(lambda t: (t ** 2).sum())(x)
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    g_tracked = func.grad(lambda t: (t ** 3).sum())(w)
    g_tracked.sum().backward()
    return {"keys": list(g.keys()), "w": V(g["w"]), "b": V(g["b"]), "val": V(val), "aux": V(aux["n"]),
            "flags": [g["w"].requires_grad, val.requires_grad, aux["n"].requires_grad],
            "no_grad_ctx": V(g_nograd), "tracked_req": g_tracked.requires_grad, "w_grad": V(w.grad)}


def vjp_scenarios(torch):
    func = torch.func

    def f(x):
        return {"a": x.exp(), "b": (x[:2] * x[1:]).sum()}, x.mean()

    x = torch.tensor([0.1, -0.4, 1.0])
    out, fn, aux = func.vjp(f, x, has_aux=True)
    (gx,) = fn({"a": torch.tensor([1.0, 0.0, 2.0]), "b": torch.tensor(3.0)})
    _, fn2 = func.vjp(lambda a, b: a * b, torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))
    ga, gb = fn2(torch.tensor([1.0, -1.0]))
    return {"a": V(out["a"]), "b": V(out["b"]), "aux": V(aux), "gx": V(gx), "ga": V(ga), "gb": V(gb),
            "bad_structure": err_type(lambda: fn(torch.ones(3))),
            "int_out": err(lambda: func.vjp(lambda t: t.argmax(), x)),
            "has_aux_bad": err(lambda: func.vjp(lambda t: t * 2, x, has_aux=True))}


def jvp_scenarios(torch):
    func = torch.func

    def f(x, y):
        return (x * y).tanh(), x.sum() * y

    x = torch.tensor([0.3, -0.7])
    y = torch.tensor([1.5, 2.0])
    out, tan = func.jvp(f, (x, y), (torch.tensor([1.0, 0.0]), torch.tensor([0.5, -1.0])))
    o2, t2, aux = func.jvp(lambda v: (v.exp(), v.sum()), (x,), (torch.ones(2),), has_aux=True)
    const_out, const_t = func.jvp(lambda v: torch.ones(2), (x,), (torch.ones(2),))
    return {"out": [V(t) for t in out], "tan": [V(t) for t in tan], "o2": V(o2), "t2": V(t2),
            "aux": V(aux), "const_t": V(const_t),
            "primals_not_tuple": err(lambda: func.jvp(f, x, (y,))),
            "strict_independent": err(lambda: func.jvp(lambda v: torch.ones(2), (x,), (torch.ones(2),), strict=True)),
            "strict_ok": V(func.jvp(lambda v: v * 3, (x,), (torch.ones(2),), strict=True)[1]),
            "tangent_shape": err_type(lambda: func.jvp(lambda v: v, (x,), (torch.ones(3),)))}


def jacobian_scenarios(torch):
    func = torch.func

    def f(a, b):
        return (a.unsqueeze(1) * b).sin(), (a * a).sum()

    a = torch.tensor([0.5, 1.0])
    b = torch.tensor([2.0, -1.0, 0.25])
    jr = func.jacrev(f, argnums=(0, 1))(a, b)
    jf = func.jacfwd(f, argnums=(0, 1))(a, b)
    ja, aux = func.jacrev(lambda t: (t.exp(), t.sum()), has_aux=True)(a)
    jfa, auxf = func.jacfwd(lambda t: (t.exp(), t.sum()), has_aux=True)(a)
    M = torch.tensor([[1.0, 2.0], [0.5, -1.0]])
    hm = func.hessian(lambda m: ((m @ m) * torch.eye(2)).sum() + m.pow(3).sum())(M)
    hd = func.hessian(lambda x, y: (x * y.exp()).sum(), argnums=1)(a, torch.tensor([0.1, 0.2]))
    return {"jr": [[V(t) for t in row] for row in jr], "jf": [[V(t) for t in row] for row in jf],
            "shapes": [[list(t.shape) for t in row] for row in jr],
            "ja": V(ja), "aux": V(aux), "jfa": V(jfa), "auxf": V(auxf),
            "hm_shape": list(hm.shape), "hm": V(hm), "hd": V(hd),
            "chunk0": err(lambda: func.jacrev(f, chunk_size=0)),
            "flags": [jr[0][0].requires_grad, hm.requires_grad]}


def vmap_scenarios(torch):
    func = torch.func
    A = torch.arange(12.).reshape(3, 2, 2)
    v = torch.tensor([[1.0, 2.0], [0.0, -1.0], [3.0, 0.5]])

    def f(pair, scale):
        m, vec = pair
        return {"mv": m @ vec * scale, "tr": (m * torch.eye(2)).sum()}

    out = func.vmap(f, in_dims=((0, 0), None))((A, v), 2.0)
    neg = func.vmap(lambda r: r * 2, in_dims=-1)(torch.arange(6.).reshape(2, 3))
    two_out = func.vmap(lambda r: (r, r.sum()), out_dims=(1, 0))(v)
    unbatched = func.vmap(lambda r, c: (r * 2, c), in_dims=(0, None), out_dims=(0, None))(v, torch.ones(2))
    nested3 = func.vmap(func.vmap(func.vmap(lambda s: s * s)))(A)
    kw = func.vmap(lambda r, *, k: r * k)(v, k=torch.tensor(3.0))
    dict_in = func.vmap(lambda d: d["x"] + d["y"], in_dims=({"x": 0, "y": None},))(
        {"x": v, "y": torch.tensor([10.0, 20.0])})
    return {
        "mv": V(out["mv"]), "tr": V(out["tr"]), "neg": V(neg), "two_out": [V(t) for t in two_out],
        "two_shapes": [list(t.shape) for t in two_out], "unbatched": [V(t) for t in unbatched],
        "nested3": V(nested3), "kw": V(kw), "dict_in": V(dict_in),
        "size": err(lambda: func.vmap(lambda a, b: a + b)(v, torch.ones(2, 2))),
        "range": err(lambda: func.vmap(lambda a: a, in_dims=2)(v)),
        "bad_in_dims_type": err(lambda: func.vmap(lambda a: a, in_dims=[0])(v)),
        "non_tensor": err(lambda: func.vmap(lambda a, s: a * s)(v, 2.0)),
        "no_inputs": err(lambda: func.vmap(lambda: 1)()),
        "none_only": err(lambda: func.vmap(lambda a: a, in_dims=None)(v)),
        "python_out": err(lambda: func.vmap(lambda a: 1.0)(v)),
        "bad_randomness": err(lambda: func.vmap(lambda a: a, randomness="sometimes")),
        "chunk0": err(lambda: func.vmap(lambda a: a, chunk_size=0)),
        "bad_out_dims": err(lambda: func.vmap(lambda a: a, out_dims="x")(v)),
        "random_error": err(lambda: func.vmap(lambda a: a + torch.rand(2))(v)),
    }


def vmap_randomness(torch):
    func = torch.func
    v = torch.zeros(3, 4)
    torch.manual_seed(7)
    same = func.vmap(lambda a: a + torch.rand(4), randomness="same")(v)
    after_same = torch.rand(1)
    torch.manual_seed(7)
    diff = func.vmap(lambda a: a + torch.rand(4), randomness="different")(v)
    return {"same": V(same), "after_same": V(after_same), "different": V(diff)}


def vmap_random_rules(torch):
    """vmap's rules for random ops: every randomness mode, batched and unbatched operands, sizes
    above the generator's vectorised thresholds, nesting, chunks, modules with dropout."""
    func = torch.func
    F = torch.nn.functional
    res = {}

    def run(name, f, *args, in_dims=0, chunk_size=None, modes=("different", "same", "error")):
        for rnd in modes:
            torch.manual_seed(3)
            try:
                out = func.vmap(f, in_dims=in_dims, randomness=rnd, chunk_size=chunk_size)(*args)
                res[f"{name}_{rnd}"] = {"out": V(out.float()), "after": V(torch.rand(2))}
            except Exception as e:  # noqa: BLE001 - the type and message are the result
                res[f"{name}_{rnd}"] = {"type": type(e).__name__, "msg": str(e)}

    x = torch.zeros(4, 6)
    big = torch.zeros(3, 40)
    run("rand", lambda a: a + torch.rand(6), x)
    run("rand_size_kw", lambda a: a + torch.randn(size=(2, 3)).flatten(), x)
    run("randn_big", lambda a: a + torch.randn(40), big)
    run("rand_like", lambda a: torch.rand_like(a), big)
    run("randn_like_unbatched", lambda a, b: a + torch.randn_like(b), big, torch.zeros(40), in_dims=(0, None))
    run("randint", lambda a: a + torch.randint(3, 9, (6,)), x)
    run("randint_high", lambda a: a + torch.randint(5, size=(6,)), x)
    run("randint_like", lambda a: torch.randint_like(a, 10), x)
    run("randperm", lambda a: a + torch.randperm(6), x)
    run("normal_float", lambda a: a + torch.normal(2.0, 3.0, (6,)), x)
    run("normal_mean_tensor", lambda a: torch.normal(a, 0.5), x)
    run("normal_std_tensor_unbatched", lambda a, s: a + torch.normal(1.0, s), x, torch.ones(6), in_dims=(0, None))
    run("uniform_", lambda a: a.clone().uniform_(-2, 2), big)
    run("normal_method", lambda a: a.clone().normal_(1.0, 2.0), big)
    run("exponential_", lambda a: a.clone().exponential_(2.0), x)
    run("random_", lambda a: a.clone().random_(0, 7), x)
    run("bernoulli_float", lambda a: a.clone().bernoulli_(0.3), big)
    run("uniform_unbatched", lambda a: a + torch.empty(6).uniform_(), x)
    run("bernoulli", lambda a: torch.bernoulli(a + 0.4), big)
    run("bernoulli_method_p", lambda a: (a + 0.5).bernoulli(0.25), x)
    run("bernoulli_unbatched", lambda a, p: a + torch.bernoulli(p), x, torch.full((6,), 0.5), in_dims=(0, None))
    run("multinomial", lambda a: torch.multinomial(a + 1, 3), x)
    run("multinomial_2d", lambda a: torch.multinomial(a.reshape(2, 3) + 1, 2, replacement=True), x)
    run("multinomial_unbatched", lambda a, p: torch.multinomial(p, 4) + a[:4].long(), x, torch.ones(6), in_dims=(0, None))
    run("dropout", lambda a: F.dropout(a + 1, 0.5), big)
    run("dropout_unbatched", lambda a, b: a + F.dropout(b, 0.3), big, torch.ones(40), in_dims=(0, None))
    run("dropout_eval", lambda a: F.dropout(a + 1, 0.5, training=False), x)
    run("dropout2d", lambda a: F.dropout2d(a + 1, 0.5), torch.zeros(3, 2, 4, 5))
    run("nn_init_unbatched", lambda a: a + torch.nn.init.normal_(torch.empty(6)), x)
    run("chunks", lambda a: a + torch.rand(40), big, chunk_size=2, modes=("different", "same"))
    run("nested", lambda a: func.vmap(lambda b: b + torch.rand(5), randomness="different")(a),
        torch.zeros(2, 3, 5), modes=("different", "same"))
    run("nested_same_inside", lambda a: func.vmap(lambda b: b + torch.rand(5), randomness="same")(a),
        torch.zeros(2, 3, 5), modes=("different", "same", "error"))
    run("nested_randperm", lambda a: func.vmap(lambda b: b + torch.randperm(4), randomness="different")(a),
        torch.zeros(2, 3, 4), modes=("different",))

    torch.manual_seed(0)
    models = [torch.nn.Sequential(torch.nn.Linear(5, 8), torch.nn.Dropout(0.4), torch.nn.Linear(8, 2))
              for _ in range(3)]
    params, buffers = func.stack_module_state(models)
    base = models[0]

    def fmodel(p, b, inp):
        return func.functional_call(base, (p, b), (inp,))

    data = torch.randn(4, 5)
    torch.manual_seed(11)
    res["ensemble_dropout"] = V(func.vmap(fmodel, in_dims=(0, 0, None), randomness="different")(params, buffers, data))
    torch.manual_seed(11)
    res["ensemble_dropout_same"] = V(func.vmap(fmodel, in_dims=(0, 0, None), randomness="same")(params, buffers, data))
    torch.manual_seed(5)
    w = torch.randn(6)

    def loss(w, xi):
        return (F.dropout(xi * w, 0.5) ** 2).sum()

    torch.manual_seed(12)
    res["per_example_grad_dropout"] = V(func.vmap(func.grad(loss), in_dims=(None, 0), randomness="different")(w, torch.ones(4, 6)))
    return res


def vmap_of_transforms(torch):
    """grad/vjp/jvp/jacrev/jacfwd/hessian inside vmap (batched and unbatched inputs,
    cotangents and tangents, nesting, aux outputs)."""
    func = torch.func
    torch.manual_seed(0)
    x = torch.randn(4, 3)
    w = torch.randn(3)

    def f(a):
        return (a.sin() * a).sum(0, keepdim=True) * a.cos()

    def g(a, ww):
        return (a * ww).tanh()

    outs = {
        "jacrev": func.vmap(func.jacrev(f))(x),
        "jacrev_argnums": func.vmap(func.jacrev(g, argnums=(0, 1)), in_dims=(0, None))(x, w),
        "jacfwd": func.vmap(func.jacfwd(f))(x),
        "jacfwd_argnums": func.vmap(func.jacfwd(g, argnums=1), in_dims=(0, None))(x, w),
        "hessian": func.vmap(func.hessian(lambda a: (a.sin() * a).sum()))(x),
        "vjp": func.vmap(lambda a, v: func.vjp(f, a)[1](v)[0])(x, torch.ones(4, 3)),
        "vjp_unbatched_cotangent": func.vmap(lambda a: func.vjp(f, a)[1](torch.ones(3))[0])(x),
        "vjp_two": func.vmap(lambda a: func.vjp(g, a, w)[1](a.exp()))(x),
        "jvp": func.vmap(lambda a, t: func.jvp(f, (a,), (t,))[1])(x, x.cos()),
        "jvp_unbatched_tangent": func.vmap(lambda a: func.jvp(f, (a,), (torch.ones(3),)))(x),
        "jvp_unbatched_primal": func.vmap(lambda a: func.jvp(lambda ww: g(a, ww), (w,), (torch.ones(3),))[1])(x),
        "grad_of_jacrev": func.vmap(func.grad(lambda a: func.jacrev(f)(a).sum()))(x),
        "jacrev_of_grad": func.vmap(func.jacrev(func.grad(lambda a: (a ** 3).sum())))(x),
        "nested_vmap_jacrev": func.vmap(func.vmap(func.jacrev(lambda a: a.exp() * 2)))(x.reshape(2, 2, 3)),
        "jacrev_unbatched_input": func.vmap(lambda a: func.jacrev(lambda ww: g(a, ww))(w))(x),
        "jacrev_aux": func.vmap(func.jacrev(lambda a: (a.exp(), a.sum()), has_aux=True))(x),
        "jacrev_scalar_out": func.vmap(func.jacrev(lambda a: (a * a).sum()))(x),
        "jacrev_empty": func.vmap(func.jacrev(lambda a: a[:0] * 2))(x),
    }

    def plain(t):
        if isinstance(t, (tuple, list)):
            return [plain(e) for e in t]
        return {"shape": list(t.shape), "value": V(t), "req": t.requires_grad}

    return {k: plain(v) for k, v in outs.items()}


def functional_call_scenarios(torch):
    func = torch.func
    nn = torch.nn

    class Tied(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = nn.Linear(2, 2, bias=False)
            self.b = nn.Linear(2, 2, bias=False)
            self.b.weight = self.a.weight
            self.register_buffer("shift", torch.tensor([1.0, -1.0]))

        def forward(self, x, scale=1.0):
            return self.b(self.a(x)) * scale + self.shift

    m = Tied()
    x = torch.tensor([[1.0, 2.0]])
    W = torch.tensor([[0.0, 1.0], [1.0, 0.0]])
    out = func.functional_call(m, {"a.weight": W}, (x,), {"scale": 2.0})
    out2 = func.functional_call(m, ({"a.weight": W}, {"shift": torch.zeros(2)}), x)
    untied = func.functional_call(m, {"a.weight": W}, (x,), tie_weights=False)
    g = func.grad(lambda p: func.functional_call(m, p, (x,), tie_weights=False).sum())(
        {"a.weight": W, "b.weight": W * 2})
    tied_two = err(lambda: func.functional_call(m, {"a.weight": W, "b.weight": W * 2}, (x,)))
    return {"out": V(out), "out2": V(out2), "untied_shape": list(untied.shape),
            "g_keys": sorted(g.keys()), "g_a": V(g["a.weight"]), "g_b": V(g["b.weight"]),
            "weight_restored": m.a.weight is m.b.weight and m.a.weight.shape[0] == 2,
            "buffer_restored": V(m.shift), "tied_two": tied_two,
            "dup": err(lambda: func.functional_call(m, ({"shift": W}, {"shift": W}), (x,))),
            "strict_missing": err_type(lambda: func.functional_call(m, {"shift": torch.zeros(2)}, (x,), strict=True))}


# ---- forward AD ------------------------------------------------------------------------

def forward_ad_scenarios(torch):
    fwAD = torch.autograd.forward_ad
    F = torch.nn.functional
    x = torch.tensor([[0.5, -1.0], [2.0, 0.25]])
    tx = torch.tensor([[1.0, 0.5], [-1.0, 2.0]])
    W = torch.tensor([[1.0, -0.5], [0.25, 2.0], [0.0, 1.0]])
    outside = fwAD.unpack_dual(x)
    with fwAD.dual_level() as level:
        d = fwAD.make_dual(x, tx)
        h = F.linear(d, W).tanh()
        y = (h ** 2).sum(1).log()
        t_y = fwAD.unpack_dual(y).tangent
        t_h = fwAD.unpack_dual(h).tangent
        unrelated = fwAD.unpack_dual(W * 2).tangent is None
        bad_tangent_dtype = err(lambda: fwAD.make_dual(x, torch.ones(2, 2, dtype=torch.int64)))
    with fwAD.dual_level():
        d2 = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))
        second = fwAD.unpack_dual(d2.exp()).tangent
    with fwAD.dual_level():
        base = torch.tensor([1.0, 2.0])
        user = torch.tensor([1.0, 1.0], requires_grad=True)
        uses_base = (user * base).sum()
        d3 = fwAD.make_dual(base, torch.tensor([1.0, -1.0]))
        uses_base.backward()
        d3.mul_(3.0)
        alias = [V(base), V(fwAD.unpack_dual(d3).tangent), V(user.grad)]
    return {"level": level, "outside": [V(outside.primal), outside.tangent is None], "alias": alias,
            "t_y": V(t_y), "t_h": V(t_h), "unrelated": unrelated, "bad_tangent_dtype": bad_tangent_dtype,
            "second_level": V(second), "exit_bad": err(lambda: fwAD.exit_dual_level(level=3))}


def forward_over_reverse_hvp(torch):
    fwAD = torch.autograd.forward_ad

    def f(x):
        return (x.sin() * torch.cat([x[-1:], x[:-1]])).sum() + x.pow(2).prod()

    x = torch.tensor([0.3, -1.2, 0.8])
    v = torch.tensor([1.0, 0.5, -2.0])
    with fwAD.dual_level():
        xd = fwAD.make_dual(x, v).requires_grad_()
        (g,) = torch.autograd.grad(f(xd), xd, create_graph=True)
        hvp = fwAD.unpack_dual(g).tangent
    return {"hvp": V(hvp)}


def custom_function_multi_output(torch):
    fwAD = torch.autograd.forward_ad

    class SinCos(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_forward(x)
            return x.sin(), x.cos()

        @staticmethod
        def jvp(ctx, t):
            (x,) = ctx.saved_tensors
            return x.cos() * t, -x.sin() * t

    x = torch.tensor([0.0, 1.0, 2.0])
    with fwAD.dual_level():
        d = fwAD.make_dual(x, torch.tensor([1.0, 2.0, 3.0]))
        s, c = SinCos.apply(d)
        ts = fwAD.unpack_dual(s * 2).tangent
        tc = fwAD.unpack_dual(c).tangent
        plain = SinCos.apply(torch.tensor([0.5]))
    return {"s": V(ts), "c": V(tc), "plain": [V(t) for t in plain]}


# ---- checkpoint ------------------------------------------------------------------------

def checkpoint_scenarios(torch):
    cp = torch.utils.checkpoint

    def block(x, w, scale=1.0):
        noise = torch.rand(x.shape)
        return ((x @ w).sigmoid() * noise * scale).sum(0)

    res = {}
    for mode in (None, True, False):
        torch.manual_seed(3)
        x = torch.tensor([[0.5, -1.0], [1.5, 2.0]], requires_grad=True)
        w = torch.tensor([[1.0, 0.5], [-0.25, 2.0]], requires_grad=True)
        if mode is None:
            y = block(x, w)
        else:
            y = cp.checkpoint(block, x, w, use_reentrant=mode)
        after = torch.rand(1)
        (y * torch.tensor([1.0, -2.0])).sum().backward()
        res[str(mode)] = {"y": V(y), "x": V(x.grad), "w": V(w.grad), "after": V(after),
                          "rng_after_backward": V(torch.rand(1)),
                          "node": type(y.grad_fn).__name__ if mode else None}
    x = torch.tensor([[0.5, -1.0]], requires_grad=True)
    w = torch.eye(2, requires_grad=True)
    y = cp.checkpoint(block, x, w, use_reentrant=False, scale=3.0)
    (gx,) = torch.autograd.grad(y.sum(), x)
    res["kwargs_grad"] = V(gx)
    res["kwargs_reentrant"] = err(lambda: cp.checkpoint(block, x, w, use_reentrant=True, scale=3.0))
    res["context_fn_reentrant"] = err(lambda: cp.checkpoint(block, x, w, use_reentrant=True,
                                                           context_fn=lambda: (None, None)))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cp.checkpoint(lambda t: t * 2, x)
        cp.checkpoint_sequential([lambda t: t * 2, lambda t: t + 1], 2, x)
    res["warnings"] = [str(c.message) for c in caught]
    return res


def checkpoint_sequential_scenarios(torch):
    nn = torch.nn
    cp = torch.utils.checkpoint
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 2))
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape) * (0.3 + 0.2 * i))
    x = torch.tensor([[1.0, -2.0, 0.5], [0.0, 1.0, 1.5]], requires_grad=True)
    out = {}
    for mode in (True, False):
        for segs in (1, 2, 3):
            x.grad = None
            net.zero_grad()
            y = cp.checkpoint_sequential(net, segs, x, use_reentrant=mode)
            y.pow(2).sum().backward()
            out[f"{mode}_{segs}"] = [V(y), V(x.grad)] + [V(p.grad) for p in net.parameters()]
    out["unexpected_kw"] = err(lambda: cp.checkpoint_sequential(net, 2, x, use_reentrant=True, foo=1))
    return out


def checkpoint_determinism(torch):
    cp = torch.utils.checkpoint
    res = {}
    for name, other in (("metadata", lambda x: (x[:1] * x[:1]).sum()), ("count", lambda x: x.sum())):
        calls = []

        def f(x):
            calls.append(1)
            return (x * x).sum() if len(calls) == 1 else other(x)

        x = torch.ones(3, requires_grad=True)
        y = cp.checkpoint(f, x, use_reentrant=False)
        e = err(y.backward)
        res[name] = {"type": e["type"], "msg": e["msg"].split("\n\nTip:")[0]}
        calls2 = []

        def g(x):
            calls2.append(1)
            return (x * x).sum() if len(calls2) == 1 else other(x)

        y = cp.checkpoint(g, x, use_reentrant=False, determinism_check="none")
        res[name + "_unchecked"] = err_type(y.backward)
    res["bad_check"] = err(lambda: cp.checkpoint(lambda t: t * 2, x, use_reentrant=False,
                                                 determinism_check="strict"))
    return res


def selective_checkpoint_scenarios(torch):
    """Selective activation checkpointing: the ops the policy sees (as torch.ops overloads),
    what backward gets from the cache, the errors."""
    import functools

    cp = torch.utils.checkpoint
    P = cp.CheckpointPolicy
    res = {}
    seen = []

    def policy(save):
        def fn(ctx, op, *args, **kwargs):
            seen.append([ctx.is_recompute, str(op), list(ctx.op_output.shape)
                         if isinstance(ctx.op_output, torch.Tensor) else None])
            return P.MUST_SAVE if op in save else P.PREFER_RECOMPUTE
        return fn

    def run(name, f, inputs, save, **kw):
        del seen[:]
        ctx_fn = functools.partial(cp.create_selective_checkpoint_contexts, policy(save), **kw)
        try:
            out = cp.checkpoint(f, *inputs, use_reentrant=False, context_fn=ctx_fn)
            out.sum().backward()
            res[name] = {"seen": list(seen), "out": V(out),
                         "grads": [V(t.grad) for t in inputs if t.requires_grad]}
        except Exception as e:  # noqa: BLE001 - the type and message are the result
            res[name] = {"seen": list(seen), "type": type(e).__name__, "msg": str(e)}
        for t in inputs:
            t.grad = None

    aten = torch.ops.aten
    torch.manual_seed(0)
    x = torch.randn(4, 5, requires_grad=True)
    w = torch.randn(5, 3, requires_grad=True)
    run("mm_saved", lambda a, b: (a.mm(b).sin() * 2).relu(), [x, w], [aten.mm.default])
    run("nothing_saved", lambda a, b: (a.mm(b).sin() * 2).relu(), [x, w], [])
    run("views_and_reductions", lambda a, b: (a.t().unsqueeze(0) * 3).sum(1).softmax(-1) @ b.t().exp(),
        [x, w], [aten.exp.default, aten.t.default, aten._softmax.default])
    run("mutated_cache", lambda a, b: a.mm(b).mul_(2).sin(), [x, w], [aten.mm.default])
    run("mutated_cache_allowed", lambda a, b: a.mm(b).mul_(0.5).sin(), [x, w], [aten.mm.default],
        allow_cache_entry_mutation=True)
    scale = [2.0]
    run_state = {}

    def global_state(a):
        y = (a * scale[0]).sin()
        scale[0] = 5.0  # changed before backward recomputes: the cached mul keeps the old value
        return y

    run("global_state_cached", global_state, [x], [aten.mul.Tensor])
    scale[0] = 2.0
    run("global_state_recomputed", global_state, [x], [])
    run_state["unused"] = True

    torch.manual_seed(1)
    mlp = torch.nn.Sequential(torch.nn.Linear(5, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
    inp = torch.randn(3, 5, requires_grad=True)
    torch.manual_seed(2)
    ref = mlp(inp).sum()
    ref.backward()
    ref_grads = [V(p.grad) for p in mlp.parameters()]
    mlp.zero_grad()
    del seen[:]
    torch.manual_seed(2)
    out = cp.checkpoint(mlp, inp, use_reentrant=False, context_fn=functools.partial(
        cp.create_selective_checkpoint_contexts, policy([aten.addmm.default])))
    out.sum().backward()
    res["mlp"] = {"seen": list(seen), "same_grads": [V(p.grad) for p in mlp.parameters()] == ref_grads,
                  "grads": [V(p.grad) for p in mlp.parameters()]}
    # dropout inside (its mask ops do not record history: ferrograd's policy does not see them)
    drop = torch.nn.Sequential(torch.nn.Linear(5, 8), torch.nn.Dropout(0.3), torch.nn.Linear(8, 2))
    torch.manual_seed(4)
    ref = drop(inp).sum()
    ref.backward()
    ref_grads = [V(p.grad) for p in drop.parameters()]
    drop.zero_grad()
    torch.manual_seed(4)
    out = cp.checkpoint(drop, inp, use_reentrant=False, context_fn=functools.partial(
        cp.create_selective_checkpoint_contexts, [aten.addmm.default, aten.mul.Tensor]))
    out.sum().backward()
    res["dropout_grads"] = [[V(p.grad) for p in drop.parameters()], ref_grads]
    res["list_form"] = err(lambda: cp.create_selective_checkpoint_contexts([aten.mm]))
    res["bad_form"] = err(lambda: cp.create_selective_checkpoint_contexts(3))
    res["names"] = [str(aten.mm.default), repr(aten.mm.default), str(aten.add), repr(aten.add),
                    aten.add.Tensor.name(), aten.mm.default.name(), str(aten.mm.default.overloadpacket),
                    aten.mm.default is aten.mm.default, aten.mm.default == aten.mm.default,
                    aten.mm.default in {aten.mm.default}]
    res["bad_overload"] = err(lambda: aten.mm.Tensor)
    return res


SCENARIOS = [grad_nested_closure, grad_argnums_and_errors, grad_pytree_and_flags, vjp_scenarios,
             jvp_scenarios, jacobian_scenarios, vmap_scenarios, vmap_randomness, vmap_random_rules, vmap_of_transforms,
             functional_call_scenarios, forward_ad_scenarios, forward_over_reverse_hvp,
             custom_function_multi_output, checkpoint_scenarios, checkpoint_determinism, checkpoint_sequential_scenarios,
             selective_checkpoint_scenarios]
