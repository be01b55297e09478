"""torch.special (every function, float64 and float32, across small / large / negative / zero /
inf / NaN inputs, gradients and double gradients of the differentiable ones, errors) and
torch.testing (assert_close's verdicts and exact messages, make_tensor's seeded values,
assert_allclose). Run with ``torch`` bound to PyTorch (tools/record_special_testing_goldens.py
records fixtures/special_testing.json) or to ferrograd (test_special_testing.py compares).

Keys starting with ``f32_`` hold float32 results (compared at float32 precision)."""

import warnings

INF = float("inf")
NAN = float("nan")
XS = [-800.0, -60.0, -27.0, -26.0, -10.5, -6.2, -5.5, -3.0, -2.5, -2.09, -1.2, -1.0, -0.7, -0.3, -1e-6, -0.0, 0.0,
      1e-300, 1e-9, 1e-5, 0.2, 0.5, 0.9, 1.0, 1.5, 2.0, 2.09, 2.5, 3.7, 5.0, 5.01, 7.99, 8.0, 8.01, 8.5, 12.0, 20.0,
      26.0, 30.0, 51.0, 104.0, 200.0, 700.0, 710.0, 1e8, 1e20, INF, -INF, NAN]
# float32: without the arguments where PyTorch's float32 arithmetic (trig of huge arguments, the
# trigamma reflection near a pole) is itself off by more than float32 precision
XS32 = [v for v in XS if v == v and -50 < v < 1e7] + [INF, -INF, NAN]
PS = [0.0, 1e-300, 1e-100, 1e-20, 1e-14, 1e-5, 0.01, 0.1, 0.13, 0.14, 0.3, 0.5, 0.7, 0.86, 0.87, 0.9, 0.99, 0.999999,
      1.0 - 1e-15, 1.0, 1.5, -0.1, NAN]
UNARY = ["entr", "erfcx", "ndtr", "log_ndtr", "i0", "i0e", "i1", "i1e", "airy_ai", "bessel_j0", "bessel_j1",
         "bessel_y0", "bessel_y1", "modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0",
         "modified_bessel_k1", "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "spherical_bessel_j0",
         "erfc", "sinc", "erf", "expit", "gammaln", "digamma", "psi", "log1p", "expm1", "exp2"]
POLYS = ["chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w",
         "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
         "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he", "laguerre_polynomial_l",
         "legendre_polynomial_p"]
DIFF_UNARY = {"entr": [0.3, 1.0, 2.5], "erfcx": [-2.0, -0.5, 0.0, 0.7, 3.0, 60.0], "ndtr": [-3.0, 0.0, 1.2],
              "log_ndtr": [-30.0, -3.0, -0.5, 0.0, 2.0, 9.0], "ndtri": [0.001, 0.2, 0.5, 0.9],
              "i0": [-9.0, -1.0, 0.0, 0.5, 3.0, 10.0], "i0e": [-9.0, -1.0, 0.5, 3.0, 10.0],
              "i1": [-9.0, -1.0, 0.0, 1e-20, 0.5, 3.0, 10.0], "i1e": [-9.0, -1.0, 0.0, 0.5, 3.0, 10.0]}


def _v(t):
    return [v if v == v else "nan" for v in t.detach().double().flatten().tolist()]


def _caught(f):
    try:
        return f()
    except Exception as e:  # noqa: BLE001 - PyTorch's error is the result
        return {"error": [type(e).__name__, str(e)]}


def _res(r):
    if not hasattr(r, "grad_fn"):
        return r if not isinstance(r, tuple) else list(r)
    return {"value": _v(r), "shape": list(r.shape), "dtype": str(r.dtype).split(".")[-1],
            "requires_grad": r.requires_grad}


def _special(torch, out):
    S = torch.special
    for dt in ("float64", "float32"):
        pre = "" if dt == "float64" else "f32_"
        dtype = getattr(torch, dt)
        x = torch.tensor(XS if dt == "float64" else XS32, dtype=dtype)
        for name in UNARY:
            out[f"{pre}{name}"] = _caught(lambda name=name: _res(getattr(S, name)(x)))
        p = torch.tensor(PS, dtype=dtype)
        out[f"{pre}ndtri"] = _caught(lambda: _res(S.ndtri(p)))
        # float32 trigamma at its poles (negative integers) is float32 sin's rounding of pi * x
        xp = x if dt == "float64" else torch.tensor([v for v in XS32 if not (-1e9 < v < 0 and v == int(v))], dtype=dtype)
        for n in (0, 1, 2, 3, 4, 7):
            out[f"{pre}polygamma_{n}"] = _caught(lambda n=n: _res(S.polygamma(n, xp)))
        q = torch.tensor([-20.5, -2.5, -2.0, -1.0, -0.5, 0.0, 1e-5, 0.5, 1.0, 2.0, 3.3, 9.0, 12.5, 100.0, 1e6,
                          INF, NAN], dtype=dtype)
        for s in (0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 7.5, 30.0, 300.0):
            out[f"{pre}zeta_{s}"] = _caught(lambda s=s: _res(S.zeta(torch.full_like(q, s), q)))
        a = torch.tensor([0.0, 1e-3, 0.1, 0.5, 1.0, 2.5, 10.0, 25.0, 30.0, 150.0, 250.0, 1000.0, 1e5, INF, NAN],
                         dtype=dtype)
        for xv in (0.0, 1e-4, 0.4, 0.6, 1.0, 1.05, 2.9, 9.0, 24.0, 28.0, 160.0, 240.0, 1010.0, 1e5, INF, NAN):
            xt = torch.full_like(a, xv)
            out[f"{pre}gammainc_{xv}"] = _caught(lambda xt=xt: _res(S.gammainc(a, xt)))
            out[f"{pre}gammaincc_{xv}"] = _caught(lambda xt=xt: _res(S.gammaincc(a, xt)))
        px = torch.tensor([-2.0, -1.0, -0.999, -0.7, -0.2, 0.0, 0.2, 0.5, 0.75, 0.999, 1.0, 1.001, 3.0],
                          dtype=dtype)
        for n in (-1, 0, 1, 2, 3, 5, 6, 7, 8, 9, 12, 25, 60) if dt == "float64" else (-1, 0, 1, 2, 3, 5, 7, 9, 12):
            for name in POLYS:
                out[f"{pre}{name}_{n}"] = _caught(lambda name=name, n=n: _res(getattr(S, name)(px, n)))
        nt = torch.tensor([0.0, 1.0, 2.7, 5.0, 9.0, 15.0, -3.0], dtype=dtype)
        for name in POLYS:
            out[f"{pre}{name}_ntensor"] = _caught(lambda name=name: _res(getattr(S, name)(torch.full_like(nt, 0.3), nt)))
        out[f"{pre}hermite_h_limit"] = _res(S.hermite_polynomial_h(torch.tensor([0.1, 0.5], dtype=dtype), 200))
        out[f"{pre}hermite_he_limit"] = _res(S.hermite_polynomial_he(torch.tensor([0.1, 0.5], dtype=dtype), 200))
        y = torch.tensor([-2.0, -1.0, -0.5, 0.0, 0.5, 3.0, INF, NAN], dtype=dtype)
        for xv in (0.0, -1.5, 2.0, INF, NAN):
            out[f"{pre}xlog1py_{xv}"] = _res(S.xlog1py(torch.full_like(y, xv), y))
        mx = torch.tensor([0.6, 1.0, 1.7, 2.5, 10.0, 100.0], dtype=dtype)
        for pp in (1, 2, 3, 5):
            out[f"{pre}multigammaln_{pp}"] = _res(S.multigammaln(mx, pp))
            out[f"{pre}mvlgamma_{pp}"] = _res(torch.mvlgamma(mx, pp))
        out[f"{pre}torch_i0"] = _res(torch.i0(x))
        out[f"{pre}torch_polygamma"] = _res(torch.polygamma(3, x))
        out[f"{pre}tensor_i0"] = _res(x.i0())
        out[f"{pre}tensor_polygamma"] = _res(x.polygamma(2))
    # dtype promotion, integer inputs, scalar operands, shapes
    ii = torch.tensor([[0, 1, 2], [3, 4, 5]])
    for name in ("i0", "entr", "ndtri", "bessel_j0", "erfcx", "log_ndtr", "i1e", "modified_bessel_k1"):
        out[f"f32_int_{name}"] = _caught(lambda name=name: _res(getattr(S, name)(ii)))
    out["f32_int_polygamma"] = _res(S.polygamma(2, ii + 1))
    out["f32_int_multigammaln"] = _res(S.multigammaln(ii + 2, 2))
    out["f32_zeta_scalar_x"] = _res(S.zeta(2, torch.tensor([1.0, 2.0])))
    out["f32_zeta_scalar_q"] = _res(S.zeta(torch.tensor([2.0, 3.0]), 2.0))
    out["zeta_mixed"] = _res(S.zeta(torch.tensor([2.0]), torch.tensor([3.0], dtype=torch.float64)))
    out["f32_zeta_broadcast"] = _res(S.zeta(torch.tensor([[2.0], [3.0]]), torch.tensor([1.0, 2.0, 4.0])))
    out["f32_xlog1py_scalar"] = _res(S.xlog1py(2, torch.tensor([1, 2])))
    out["f32_xlog1py_scalar_other"] = _res(S.xlog1py(torch.tensor([1.0, 2.0]), 3.0))
    out["f32_cheb_scalar_x"] = _res(S.chebyshev_polynomial_t(0.5, torch.tensor([3, 4])))
    out["f32_cheb_int"] = _res(S.chebyshev_polynomial_t(torch.tensor([1, 2]), torch.tensor([3, 4])))
    out["f32_legendre_bcast"] = _res(S.legendre_polynomial_p(torch.tensor([[0.1], [0.4]]), torch.tensor([1, 2, 3])))
    out["f32_empty"] = _res(S.i0e(torch.zeros(0, 3)))
    out["f32_scalar0d"] = _res(S.bessel_y1(torch.tensor(2.5)))
    # errors
    errors = {
        "polygamma_neg": lambda: torch.polygamma(-1, torch.tensor([1.0])),
        "mvlgamma_p0": lambda: torch.mvlgamma(torch.tensor([3.0]), 0),
        "mvlgamma_bool": lambda: S.multigammaln(torch.tensor([True]), 1),
        "gammainc_float": lambda: S.gammainc(torch.tensor([1.0]), 2.0),
        "gammaincc_float": lambda: S.gammaincc(1.0, torch.tensor([1.0])),
        "i0_float": lambda: S.i0(1.5),
        "torch_i0_float": lambda: torch.i0(1.5),
        "i0_complex": lambda: S.i0e(torch.tensor([1 + 1j])),
        "bessel_complex": lambda: S.bessel_j0(torch.tensor([1 + 1j])),
    }
    for k, f in errors.items():
        out[f"err_{k}"] = _caught(lambda f=f: _res(f()))
    _grads(torch, out)


def _grad_case(torch, f, vals, double=True):
    x = torch.tensor(vals, dtype=torch.float64, requires_grad=True)
    y = f(x)
    g, = torch.autograd.grad(y.sum(), x, create_graph=double)
    r = {"value": _v(y), "fn": type(y.grad_fn).__name__, "grad": _v(g)}
    if double:
        g2, = torch.autograd.grad(g.sum(), x)
        r["grad2"] = _v(g2)
    return r


def _grads(torch, out):
    S = torch.special
    for name, vals in DIFF_UNARY.items():
        out[f"grad_{name}"] = _caught(lambda name=name, vals=vals: _grad_case(
            torch, getattr(S, name), vals, double=name != "ndtr"))
    for n in (0, 1, 2, 3):
        out[f"grad_polygamma_{n}"] = _caught(lambda n=n: _grad_case(
            torch, lambda x: S.polygamma(n, x), [-1.5, 0.3, 1.0, 2.5, 12.0]))
    out["grad_multigammaln"] = _caught(lambda: _grad_case(torch, lambda x: S.multigammaln(x, 3), [1.2, 2.5, 8.0]))
    out["grad_mvlgamma"] = _caught(lambda: _grad_case(torch, lambda x: torch.mvlgamma(x, 2), [1.2, 2.5, 8.0]))
    out["grad_tensor_polygamma"] = _caught(lambda: _grad_case(torch, lambda x: x.polygamma(1), [0.7, 3.0]))

    def xlog1py_grads():
        x = torch.tensor([0.0, 0.0, 0.0, 2.0, 2.0, 1.5], dtype=torch.float64, requires_grad=True)
        y = torch.tensor([-1.0, NAN, 0.5, -1.0, -2.0, 0.25], dtype=torch.float64, requires_grad=True)
        r = S.xlog1py(x, y)
        gx, gy = torch.autograd.grad(r.sum(), [x, y])
        return {"value": _v(r), "fn": type(r.grad_fn).__name__, "gx": _v(gx), "gy": _v(gy)}
    out["grad_xlog1py"] = _caught(xlog1py_grads)

    def xlog1py_bcast():
        x = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
        y = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
        gx, gy = torch.autograd.grad(S.xlog1py(x, y).sum(), [x, y])
        return [_v(gx), _v(gy)]
    out["grad_xlog1py_bcast"] = _caught(xlog1py_bcast)

    def zeta_q():
        q = torch.tensor([1.5, 2.5, 10.0], dtype=torch.float64, requires_grad=True)
        r = S.zeta(torch.tensor([2.0, 3.0, 4.5], dtype=torch.float64), q)
        g, = torch.autograd.grad(r.sum(), q)
        return {"fn": type(r.grad_fn).__name__, "g": _v(g)}
    out["grad_zeta_q"] = _caught(zeta_q)

    def zeta_x():
        x = torch.tensor([2.0], requires_grad=True)
        r = S.zeta(x, torch.tensor([2.0]))
        r.sum().backward()
    out["grad_zeta_x"] = _caught(zeta_x)
    for name in ("gammainc", "gammaincc"):
        def inc(name=name):
            a = torch.tensor([0.5, 2.0, 30.0], dtype=torch.float64)
            x = torch.tensor([0.3, 2.5, 28.0], dtype=torch.float64, requires_grad=True)
            r = getattr(S, name)(a, x)
            g, = torch.autograd.grad(r.sum(), x)
            return {"fn": type(r.grad_fn).__name__, "g": _v(g)}

        def inc_a(name=name):
            a = torch.tensor([0.5, 2.0], requires_grad=True)
            getattr(S, name)(a, torch.tensor([1.0, 1.0])).sum().backward()
        out[f"grad_{name}"] = _caught(inc)
        out[f"grad_{name}_a"] = _caught(inc_a)
    nograd = torch.tensor([0.5, 1.5], requires_grad=True)
    out["nograd_results"] = [getattr(S, n)(nograd).requires_grad for n in
                             ("bessel_j0", "airy_ai", "modified_bessel_k0", "spherical_bessel_j0")]
    out["nograd_poly"] = S.chebyshev_polynomial_t(nograd, 3).requires_grad
    out["f32_i0_inplace"] = _caught(lambda: _v(torch.tensor([0.5, 2.0]).i0_()))


def _ac(torch, *args, **kwargs):
    try:
        torch.testing.assert_close(*args, **kwargs)
        return "ok"
    except Exception as e:  # noqa: BLE001
        return [type(e).__name__, str(e)]


def _testing(torch, out):
    T = torch.testing
    t = torch.tensor
    cases = {
        "equal": lambda: _ac(torch, t([1.0, 2.0, 3.0]), t([1.0, 2.0, 3.0])),
        "close_f32": lambda: _ac(torch, t([1.0, 2.0, 3.0]), t([1.0, 2.0 + 1e-6, 3.0])),
        "mismatch_f32": lambda: _ac(torch, t([1.0, 2.0, 3.0]), t([1.0, 2.5, 3.0])),
        "mismatch_f64": lambda: _ac(torch, t([1.0, 2.0, 3.0], dtype=torch.float64),
                                    t([1.0, 2.0 + 1e-6, 3.0], dtype=torch.float64)),
        "mismatch_2d": lambda: _ac(torch, torch.arange(12.0).reshape(3, 4), torch.arange(12.0).reshape(3, 4) * 1.1),
        "mismatch_0d": lambda: _ac(torch, t(1.5), t(2.0)),
        "mismatch_int": lambda: _ac(torch, t([1, 2, 3]), t([1, 2, 4])),
        "mismatch_int_zero": lambda: _ac(torch, t([1, 2, 3]), t([0, 2, 3])),
        "mismatch_bool": lambda: _ac(torch, t([True, False]), t([True, True])),
        "shape": lambda: _ac(torch, t([1.0, 2.0]), t([1.0, 2.0, 3.0])),
        "dtype": lambda: _ac(torch, t([1.0, 2.0]), t([1.0, 2.0], dtype=torch.float64)),
        "dtype_unchecked": lambda: _ac(torch, t([1.0, 2.0]), t([1.0, 2.0], dtype=torch.float64), check_dtype=False),
        "dtype_unchecked_int": lambda: _ac(torch, t([1, 2]), t([1.0, 2.5]), check_dtype=False),
        "nan": lambda: _ac(torch, t([1.0, NAN]), t([1.0, NAN])),
        "nan_equal": lambda: _ac(torch, t([1.0, NAN]), t([1.0, NAN]), equal_nan=True),
        "inf": lambda: _ac(torch, t([INF, -INF]), t([INF, -INF])),
        "inf_mismatch": lambda: _ac(torch, t([INF, 1.0]), t([-INF, 1.0])),
        "tolerances": lambda: _ac(torch, t([1.0, 2.0]), t([1.1, 2.0]), rtol=0.2, atol=0.0),
        "tolerances_fail": lambda: _ac(torch, t([1.0, 2.0]), t([1.1, 2.0]), rtol=0.01, atol=0.01),
        "exact": lambda: _ac(torch, t([1.0, 2.0]), t([1.0, 2.0 + 1e-6]), rtol=0, atol=0),
        "only_rtol": lambda: _ac(torch, t([1.0]), t([1.0]), rtol=0.1),
        "only_atol": lambda: _ac(torch, t([1.0]), t([1.0]), atol=0.1),
        "msg_str": lambda: _ac(torch, t([1.0]), t([2.0]), msg="custom"),
        "msg_callable": lambda: _ac(torch, t([1.0, 3.0]), t([2.0, 3.0]), msg=lambda m: "Header\n\n" + m + "\n\nFooter"),
        "msg_seq_callable": lambda: _ac(torch, [t([1.0])], [t([2.0])], msg=lambda m: m.upper()),
        "stride": lambda: _ac(torch, torch.ones(2, 3), torch.ones(3, 2).t(), check_stride=True),
        "stride_unchecked": lambda: _ac(torch, torch.ones(2, 3), torch.ones(3, 2).t()),
        "numbers": lambda: _ac(torch, 1.0, 1.0 + 1e-9),
        "numbers_fail": lambda: _ac(torch, 1.0, 1.1),
        "numbers_zero": lambda: _ac(torch, 0.5, 0.0),
        "int_numbers": lambda: _ac(torch, 2, 3),
        "complex_numbers": lambda: _ac(torch, 1 + 1j, 1 + 1.5j),
        "number_types": lambda: _ac(torch, 1, 1.0, check_dtype=True),
        "number_types_ok": lambda: _ac(torch, 1, 1.0),
        "bools": lambda: _ac(torch, True, False),
        "bools_ok": lambda: _ac(torch, True, True),
        "none": lambda: _ac(torch, None, None),
        "none_mismatch": lambda: _ac(torch, None, 1.0),
        "sequence": lambda: _ac(torch, [t([1.0]), t([2.0])], [t([1.0]), t([2.5])]),
        "sequence_len": lambda: _ac(torch, [1.0, 2.0], [1.0]),
        "nested": lambda: _ac(torch, {"a": [t([1.0]), (2.0, t([3.0, 4.0]))]}, {"a": [t([1.0]), (2.0, t([3.0, 4.5]))]}),
        "mapping_keys": lambda: _ac(torch, {"a": 1.0, "b": 2.0}, {"a": 1.0, "c": 2.0}),
        "mapping_ok": lambda: _ac(torch, {"a": t([1.0]), "b": 2}, {"b": 2, "a": t([1.0])}),
        "tuple_vs_list": lambda: _ac(torch, (1.0, 2.0), [1.0, 2.0]),
        "type_mismatch": lambda: _ac(torch, t([1.0]), 1.0),
        "type_mismatch_str": lambda: _ac(torch, "a", "a"),
        "tensor_vs_list": lambda: _ac(torch, t([1.0, 2.0]), [1.0, 2.0]),
        "parameter": lambda: _ac(torch, torch.nn.Parameter(t([1.0])), t([1.0])),
        "parameter_no_subclass": lambda: _ac(torch, torch.nn.Parameter(t([1.0])), t([1.0]), allow_subclasses=False),
        "requires_grad": lambda: _ac(torch, t([1.0], requires_grad=True), t([1.0])),
        "float16": lambda: _ac(torch, t([1.0, 2.0], dtype=torch.float16), t([1.0, 2.001], dtype=torch.float16)),
        "float16_fail": lambda: _ac(torch, t([1.0, 2.0], dtype=torch.float16), t([1.0, 2.01], dtype=torch.float16)),
        "bfloat16": lambda: _ac(torch, t([1.0, 2.0], dtype=torch.bfloat16), t([1.0, 2.5], dtype=torch.bfloat16)),
        "complex_tensor": lambda: _ac(torch, t([1 + 1j, 2 + 0j]), t([1 + 1j, 2 + 0.5j])),
        "large": lambda: _ac(torch, torch.arange(1000.0).reshape(10, 10, 10),
                             torch.arange(1000.0).reshape(10, 10, 10).clamp(max=995.0)),
        "empty": lambda: _ac(torch, torch.zeros(0, 3), torch.zeros(0, 3)),
        "device_cpu": lambda: _ac(torch, t([1.0]), t([1.0]), check_device=False),
        "layout_off": lambda: _ac(torch, t([1.0]), t([1.0]), check_layout=False),
    }
    for k, f in cases.items():
        out[f"ac_{k}"] = _caught(f)
    try:
        import numpy as np
        out["ac_numpy"] = _ac(torch, np.array([1.0, 2.0]), np.array([1.0, 2.5]))
        out["ac_numpy_ok"] = _ac(torch, np.array([1.0, 2.0]), np.array([1.0, 2.0]))
        out["ac_numpy_scalar"] = _ac(torch, np.float32(1.5), 1.5)
        out["ac_numpy_scalar_fail"] = _ac(torch, np.float64(1.5), np.float64(1.6))
        out["ac_numpy_bool"] = _ac(torch, np.bool_(True), False)
        out["ac_numpy_vs_tensor"] = _ac(torch, np.array([1.0]), t([1.0]))
    except ImportError:  # pragma: no cover
        pass

    # assert_allclose (deprecated)
    def allclose(*args, **kwargs):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                T.assert_allclose(*args, **kwargs)
                r = "ok"
            except Exception as e:  # noqa: BLE001
                r = [type(e).__name__, str(e)]
        return [r, [(x.category.__name__, str(x.message)) for x in w]]
    out["allclose_ok"] = allclose(t([1.0, 2.0]), t([1.0, 2.00005]))
    out["allclose_fail"] = allclose(t([1.0, 2.0]), t([1.0, 2.01]))
    out["allclose_list"] = allclose([1.0, 2.0], [1.0, 2.0])
    out["allclose_nan"] = allclose(t([NAN]), t([NAN]))
    out["allclose_msg"] = allclose(t([1.0]), t([2.0]), msg="boom")
    out["allclose_dtype"] = allclose(t([1.0]), t([1.0], dtype=torch.float64))
    out["allclose_scalar_expected"] = allclose(t([1.5, 1.5]), 1.5)

    # make_tensor
    def mk(*shape, **kw):
        torch.manual_seed(kw.pop("seed", 0))
        r = T.make_tensor(*shape, **kw)
        return {"v": _v(r) if not r.dtype.is_complex else [str(z) for z in r.flatten().tolist()],
                "shape": list(r.shape), "dtype": str(r.dtype), "stride": list(r.stride()),
                "contig": r.is_contiguous(), "rg": r.requires_grad}
    mcases = {
        "f32": lambda: mk(3, 4, dtype=torch.float32, device="cpu"),
        "f64": lambda: mk((2, 5), dtype=torch.float64, device="cpu", seed=3),
        "f16": lambda: mk([4], dtype=torch.float16, device="cpu"),
        "bf16": lambda: mk(4, dtype=torch.bfloat16, device="cpu"),
        "c64": lambda: mk(3, dtype=torch.complex64, device="cpu"),
        "c128": lambda: mk(2, 2, dtype=torch.complex128, device="cpu", low=-1, high=1),
        "i64": lambda: mk(10, dtype=torch.int64, device="cpu"),
        "i32": lambda: mk(10, dtype=torch.int32, device="cpu", low=-100, high=100),
        "i8": lambda: mk(10, dtype=torch.int8, device="cpu", low=-1000, high=1000),
        "u8": lambda: mk(10, dtype=torch.uint8, device="cpu"),
        "i16": lambda: mk(6, dtype=torch.int16, device="cpu", low=2.5, high=7.2),
        "bool": lambda: mk(10, dtype=torch.bool, device="cpu"),
        "lowhigh": lambda: mk(6, dtype=torch.float32, device="cpu", low=0.5, high=0.75),
        "low_only": lambda: mk(6, dtype=torch.float32, device="cpu", low=5),
        "huge_range": lambda: mk(4, dtype=torch.float32, device="cpu", low=-1e39, high=1e39),
        "f16_huge": lambda: mk(4, dtype=torch.float16, device="cpu", low=-1e6, high=1e6),
        "requires_grad": lambda: mk(2, dtype=torch.float32, device="cpu", requires_grad=True),
        "noncontig": lambda: mk(3, 4, dtype=torch.float32, device="cpu", noncontiguous=True),
        "noncontig_1": lambda: mk(1, dtype=torch.float32, device="cpu", noncontiguous=True),
        "noncontig_int": lambda: mk(2, 3, dtype=torch.int64, device="cpu", noncontiguous=True),
        "exclude_zero_int": lambda: mk(30, dtype=torch.int64, device="cpu", low=-2, high=2, exclude_zero=True),
        "exclude_zero_bool": lambda: mk(10, dtype=torch.bool, device="cpu", exclude_zero=True),
        "exclude_zero_float": lambda: mk(4, dtype=torch.float32, device="cpu", exclude_zero=True),
        "channels_last": lambda: mk(2, 3, 4, 5, dtype=torch.float32, device="cpu", memory_format=torch.channels_last),
        "scalar": lambda: mk(dtype=torch.float32, device="cpu"),
        "empty_shape": lambda: mk(0, 3, dtype=torch.float32, device="cpu"),
        "torch_device": lambda: mk(2, dtype=torch.float32, device=torch.device("cpu")),
        "err_lowhigh": lambda: mk(2, dtype=torch.float32, device="cpu", low=3, high=1),
        "err_nan": lambda: mk(2, dtype=torch.float32, device="cpu", low=NAN),
        "err_range": lambda: mk(2, dtype=torch.uint8, device="cpu", low=-10, high=-1),
        "err_grad_int": lambda: mk(2, dtype=torch.int64, device="cpu", requires_grad=True),
        "err_both": lambda: mk(2, 2, dtype=torch.float32, device="cpu", noncontiguous=True,
                               memory_format=torch.contiguous_format),
        "err_int_equal": lambda: mk(2, dtype=torch.int64, device="cpu", low=3, high=3),
    }
    for k, f in mcases.items():
        out[f"mk_{k}"] = _caught(f)

    def low_eq_high():
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            r = mk(3, dtype=torch.float32, device="cpu", low=2.0, high=2.0)
        return [r, [x.category.__name__ for x in w]]
    out["mk_low_eq_high"] = _caught(low_eq_high)
    out["testing_all"] = sorted(n for n in ("assert_close", "make_tensor", "assert_allclose") if hasattr(T, n))


def run(torch):
    out = {}
    _special(torch, out)
    _testing(torch, out)
    return out
