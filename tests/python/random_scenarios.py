"""Scenarios over torch's random streams and the small integer dtypes, written against a
library parameter (`lib` is torch when recording goldens, ferrograd when testing)."""


def _v(t):
    return t.tolist()


def streams(lib):
    out = {}
    lib.manual_seed(0)
    out["rand"] = [_v(lib.rand(n)) for n in (1, 5, 16, 21)]
    out["rand64"] = _v(lib.rand(7, dtype=lib.float64))
    lib.manual_seed(1)
    out["randn"] = [_v(lib.randn(n)) for n in (3, 5, 16, 17, 33)]
    out["randn64"] = [_v(lib.randn(n, dtype=lib.float64)) for n in (3, 20)]
    lib.manual_seed(2)
    out["randint"] = [_v(lib.randint(10, (7,))), _v(lib.randint(-5, 5, (3, 4))), _v(lib.randint(0, 2**40, (3,)))]
    out["randperm"] = [_v(lib.randperm(n)) for n in (1, 2, 10, 40)]
    x = lib.empty(3, 5).t()
    x.uniform_(-2, 3)
    out["transposed_uniform"] = _v(x)
    y = lib.empty(4, 6)[:, ::2]
    y.normal_(1.0, 2.0)
    out["strided_normal"] = _v(y)
    lib.manual_seed(3)
    out["random_int64"] = _v(lib.empty(4, dtype=lib.int64).random_())
    out["random_int32"] = _v(lib.empty(4, dtype=lib.int32).random_())
    out["random_float"] = _v(lib.empty(4).random_(100))
    out["random_from_to"] = _v(lib.empty(5, dtype=lib.int64).random_(-3, 3))
    out["bernoulli_p"] = _v(lib.bernoulli(lib.tensor([0.2, 0.8, 0.5, 0.5, 1.0, 0.0])))
    out["bernoulli_scalar"] = _v(lib.empty(25).bernoulli_(0.4))
    out["exponential"] = _v(lib.empty(20).exponential_(0.5))
    out["multinomial_repl"] = _v(lib.multinomial(lib.tensor([[1.0, 0.0, 3.0], [2.0, 2.0, 2.0]]), 5, True))
    out["multinomial"] = _v(lib.multinomial(lib.tensor([1.0, 5.0, 2.0, 0.5, 3.0]), 4))
    out["normal_tensors"] = _v(lib.normal(lib.tensor([0.0, 5.0, -5.0]), lib.tensor([1.0, 0.5, 2.0])))
    out["normal_scalars"] = _v(lib.normal(2.0, 3.0, (4,)))
    return out


def generators(lib):
    g = lib.Generator().manual_seed(123)
    a = _v(lib.rand(4, generator=g))
    state = g.get_state()
    b = _v(lib.randn(5, generator=g))
    g.set_state(state)
    c = _v(lib.randn(5, generator=g))
    lib.manual_seed(5)
    s = lib.get_rng_state()
    d = _v(lib.rand(3))
    lib.set_rng_state(s)
    e = _v(lib.rand(3))
    neg = lib.Generator().manual_seed(-5)
    return {"a": a, "b": b, "same": b == c, "d": d, "same_global": d == e,
            "state": [str(state.dtype), list(state.shape)], "initial": g.initial_seed(),
            "neg_seed": neg.initial_seed(), "neg_draw": _v(lib.rand(2, generator=neg)),
            "default_initial": lib.Generator().initial_seed(),
            "perm": _v(lib.randperm(9, generator=lib.Generator().manual_seed(4))),
            "int_gen": _v(lib.randint(0, 100, (5,), generator=lib.Generator().manual_seed(6)))}


def small_ints(lib):
    u = lib.tensor([0, 1, 200, 255], dtype=lib.uint8)
    i8 = lib.tensor([-128, -1, 1, 127], dtype=lib.int8)
    i16 = lib.tensor([-300, 0, 300, 32767], dtype=lib.int16)
    out = {
        "uint8_add": _v(u + 100), "uint8_mul": _v(u * 3), "uint8_neg": _v(-u),
        "int8_add": _v(i8 + 1), "int8_abs": _v(i8.abs()),
        "mixed": [str((u + i8).dtype), _v(u + i8), str((u + i16).dtype), str((i8 * 1.5).dtype)],
        "sum": [_v(u.sum()), str(u.sum().dtype), _v(i16.sum())],
        "floordiv": _v(i16 // 7), "rem": _v(i16 % 7),
        "casts": [_v(i16.to(lib.int8)), _v(lib.tensor([-1.5, 300.7]).to(lib.uint8))],
        "names": [str(u.dtype), str(i8.dtype), str(i16.dtype), u.type(), i8.type(), i16.type()],
        "wrap_neg": _v(lib.tensor([-1], dtype=lib.uint8)),
        "mask": _v(lib.arange(4.0)[lib.tensor([1, 0, 0, 1], dtype=lib.uint8)]),
        "cmp": _v(u > 100),
        "item": u[2].item(),
    }
    errs = {}
    for name, f in [("tensor_uint8", lambda: lib.tensor([300], dtype=lib.uint8)),
                    ("tensor_int32", lambda: lib.tensor([2**31], dtype=lib.int32)),
                    ("tensor_int8_neg", lambda: lib.tensor([-129], dtype=lib.int8)),
                    ("full_int32", lambda: lib.full((2,), 2**40, dtype=lib.int32)),
                    ("full_int16", lambda: lib.full((2,), 1e10, dtype=lib.int16)),
                    ("index_int16", lambda: lib.arange(3.0)[lib.tensor([0], dtype=lib.int16)]),
                    ("rand_int", lambda: lib.rand(2, dtype=lib.int64)),
                    ("randint_empty", lambda: lib.randint(3, 3, (2,)))]:
        try:
            f()
            errs[name] = None
        except Exception as e:  # noqa: BLE001 - the type and message are the golden
            errs[name] = [type(e).__name__, str(e).split("\n")[0]]
    out["errors"] = errs
    return out


def _summary(t):
    """Every 97th value and the float64 sum of a long draw (any misplaced draw shows)."""
    flat = t.reshape(-1)
    return [_v(flat[::97]), flat.double().sum().item(), list(t.shape), str(t.dtype)]


def bulk(lib):
    """Draws long enough to cross the Mersenne Twister's 624-word blocks, in every dtype and
    fill path (the bulk fills must take the same draws in the same order)."""
    out = {}
    lib.manual_seed(11)
    out["randn"] = _summary(lib.randn(5003))
    out["rand"] = _summary(lib.rand(3001))
    out["rand64"] = _summary(lib.rand(1500, dtype=lib.float64))
    out["randn64"] = _summary(lib.randn(999, dtype=lib.float64))
    out["randn_half"] = _summary(lib.randn(37, dtype=lib.float16))
    out["randn_bf16"] = _summary(lib.randn(1000, dtype=lib.bfloat16))
    out["rand_bf16"] = _summary(lib.rand(700, dtype=lib.bfloat16))
    out["normal_half"] = _summary(lib.empty(40, dtype=lib.float16).normal_(2, 3))
    out["uniform"] = _summary(lib.empty(2000).uniform_(-1, 1))
    out["uniform64"] = _summary(lib.empty(700, dtype=lib.float64).uniform_(2, 5))
    # samples that round up to `to` (torch makes them `from`, except in float64)
    for key, t, lo in (("uniform_edge", lib.empty(200000).uniform_(1000, 1001), 1000),
                       ("uniform_edge64", lib.empty(1000, dtype=lib.float64).uniform_(1000, 1001), 1000),
                       ("uniform_edge_bf16", lib.empty(20000, dtype=lib.bfloat16).uniform_(2, 3), 2),
                       ("uniform_edge_half", lib.empty(20000, dtype=lib.float16).uniform_(-1, 1), -1)):
        out[key] = [t.double().sum().item(), int((t == lo).sum().item()), t.max().item()]
    out["normal_t"] = _summary(lib.empty(100, 50).t().normal_(1, 2))
    out["normal_strided"] = _summary(lib.empty(64, 64)[:, ::2].normal_())
    out["randint"] = _summary(lib.randint(0, 7, (4000,)))
    out["randint_wide"] = _summary(lib.randint(-2**40, 2**40, (1000,)).double())
    out["randint32"] = _summary(lib.randint(-100, 100, (900,), dtype=lib.int32))
    out["random_uint8"] = _summary(lib.empty(800, dtype=lib.uint8).random_(0, 256))
    out["random_full64"] = [str(v) for v in lib.empty(700, dtype=lib.int64).random_(-2**63, None)[::50].tolist()]
    out["bernoulli"] = _summary(lib.bernoulli(lib.full((1000,), 0.3)))
    out["bernoulli_t"] = _summary(lib.bernoulli(lib.rand(40, 30).t()))
    out["bernoulli_scalar"] = _summary(lib.empty(1000).bernoulli_(0.7))
    out["exponential"] = _summary(lib.empty(1000).exponential_(2.0))
    out["exponential64"] = _summary(lib.empty(500, dtype=lib.float64).exponential_(0.5))
    out["randperm"] = _summary(lib.randperm(2000))
    out["randn_after"] = _summary(lib.randn(17))
    return out


SCENARIOS = {"streams": streams, "generators": generators, "small_ints": small_ints, "bulk": bulk}
