"""torch.distributions beyond the basics: Independent, (LowRank)MultivariateNormal,
TransformedDistribution and transforms, Exponential, Laplace, LogNormal, Gumbel, Cauchy,
HalfNormal, StudentT, OneHotCategorical, Binomial, Multinomial, Geometric, Poisson, the relaxed
distributions, Gamma, Chi2, Beta, Dirichlet, MixtureSameFamily and kl_divergence between them.
Values, gradients, shapes, reprs, validation errors; samples where the random streams match
PyTorch's, statistics of many samples where ferrograd samples with its own kernels. Run with
``torch`` bound to PyTorch (tools/record_distributions_more_goldens.py records
fixtures/distributions_more.json) or to ferrograd (test_distributions_more.py compares)."""

import math


def _v(t):
    if isinstance(t, (int, float)):
        return float(t) if t == t else "nan"
    return [v if v == v else "nan" for v in t.detach().double().flatten().tolist()]


def _caught(f):
    try:
        return f()
    except Exception as e:  # noqa: BLE001 - PyTorch's error is the result
        return {"error": [type(e).__name__, str(e).replace("ferrograd", "torch")]}


def _close(a, b, tol):
    """Whether a statistic is within ``tol`` (absolute) of its expected value, elementwise."""
    a = a if isinstance(a, list) else _v(a)
    b = b if isinstance(b, list) else _v(b)
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def _common(d, torch, value=None):
    """Shapes, repr, support, has_rsample and the moments PyTorch defines for ``d``."""
    out = {"repr": repr(d), "batch": list(d.batch_shape), "event": list(d.event_shape),
           "has_rsample": bool(d.has_rsample)}
    out["support"] = _caught(lambda: repr(d.support))
    for name in ("mean", "mode", "variance", "stddev"):
        out[name] = _caught(lambda: _v(getattr(d, name)))
    out["entropy"] = _caught(lambda: _v(d.entropy()))
    if value is not None:
        out["lp"] = _caught(lambda: _v(d.log_prob(value)))
        out["cdf"] = _caught(lambda: _v(d.cdf(value)))
    return out


def run(torch):
    D = torch.distributions
    T = D.transforms
    out = {}

    # ---- Independent
    def independent():
        torch.manual_seed(0)
        loc = torch.tensor([[0.0, 1.0, -1.0], [0.5, 0.0, 2.0]], requires_grad=True)
        scale = torch.tensor([[1.0, 0.5, 2.0], [1.5, 1.0, 0.25]], requires_grad=True)
        d = D.Independent(D.Normal(loc, scale), 1)
        x = torch.tensor([[0.1, 0.2, 0.3], [-1.0, 0.0, 1.0]])
        r = d.rsample((2,))
        lp = d.log_prob(x)
        g = torch.autograd.grad(lp.sum() + r.sum() + d.entropy().sum(), (loc, scale))
        e = d.expand((4, 2))
        o = _common(d, torch)
        o.update({"rsample": _v(r), "lp": _v(lp), "grad": [_v(y) for y in g], "exp_batch": list(e.batch_shape),
                  "exp_lp": _v(e.log_prob(x)), "sample": _v(d.sample()), "has_enum": d.has_enumerate_support,
                  "ind2": _v(D.Independent(D.Normal(loc, scale), 2).log_prob(x)),
                  "enum": _caught(lambda: d.enumerate_support())})
        return o
    out["independent"] = _caught(independent)
    out["independent_too_many"] = _caught(lambda: D.Independent(D.Normal(torch.zeros(3), torch.ones(3)), 2))
    out["independent_bad_value"] = _caught(
        lambda: D.Independent(D.Normal(torch.zeros(2, 3), torch.ones(2, 3)), 1).log_prob(torch.zeros(2, 4)))
    out["independent_bern_enum"] = _caught(
        lambda: _v(D.Independent(D.Bernoulli(torch.tensor([[0.2, 0.7]])), 0).enumerate_support()))

    # ---- MultivariateNormal
    cov = torch.tensor([[2.0, 0.5, 0.1], [0.5, 1.0, -0.3], [0.1, -0.3, 1.5]])
    xs = torch.tensor([[0.3, -0.2, 1.0], [1.0, 1.0, 1.0], [-2.0, 0.5, 0.0]])

    def mvn(kind):
        torch.manual_seed(1)
        loc = torch.tensor([0.5, -1.0, 0.0], requires_grad=True)
        if kind == "covariance_matrix":
            p = cov.clone().requires_grad_()
        elif kind == "precision_matrix":
            p = torch.linalg.inv(cov).requires_grad_()
        else:
            p = torch.linalg.cholesky(cov).requires_grad_()
        d = D.MultivariateNormal(loc, **{kind: p})
        r = d.rsample((2,))
        lp = d.log_prob(xs)
        ent = d.entropy()
        g = torch.autograd.grad(lp.sum() + r.sum() + ent, (loc, p))
        o = _common(d, torch)
        o.update({"rsample": _v(r), "lp": _v(lp), "grad": [_v(y) for y in g], "scale_tril": _v(d.scale_tril),
                  "cov": _v(d.covariance_matrix), "prec": _v(d.precision_matrix), "sample": _v(d.sample((3,))),
                  "sshape": list(d.sample((4, 2)).shape)})
        return o
    for kind in ("covariance_matrix", "precision_matrix", "scale_tril"):
        out["mvn_" + kind] = _caught(lambda: mvn(kind))

    def mvn_batched():
        torch.manual_seed(2)
        L = torch.stack([torch.linalg.cholesky(cov), torch.linalg.cholesky(cov * 2 + torch.eye(3))])
        d = D.MultivariateNormal(torch.tensor([0.0, 1.0, 2.0]), scale_tril=L)
        v = torch.arange(24.0).reshape(4, 2, 3) / 10
        e = d.expand((5, 2))
        return {"batch": list(d.batch_shape), "lp": _v(d.log_prob(v)), "ent": _v(d.entropy()),
                "rsample": _v(d.rsample()), "exp_batch": list(e.batch_shape), "exp_lp": _v(e.log_prob(v[0])),
                "exp_cov_shape": list(e.covariance_matrix.shape), "var": _v(d.variance),
                "lp_bcast": _v(D.MultivariateNormal(torch.zeros(2, 1, 3), cov).log_prob(v.reshape(4, 2, 1, 3)))}
    out["mvn_batched"] = _caught(mvn_batched)
    for name, f in {
        "mvn_0d": lambda: D.MultivariateNormal(torch.tensor(0.0), cov),
        "mvn_none": lambda: D.MultivariateNormal(torch.zeros(3)),
        "mvn_two": lambda: D.MultivariateNormal(torch.zeros(3), cov, scale_tril=cov),
        "mvn_cov_1d": lambda: D.MultivariateNormal(torch.zeros(3), torch.ones(3)),
        "mvn_tril_1d": lambda: D.MultivariateNormal(torch.zeros(3), scale_tril=torch.ones(3)),
        "mvn_prec_1d": lambda: D.MultivariateNormal(torch.zeros(3), precision_matrix=torch.ones(3)),
        "mvn_not_pd": lambda: D.MultivariateNormal(torch.zeros(2), torch.tensor([[1.0, 2.0], [2.0, 1.0]])),
        "mvn_not_sym": lambda: D.MultivariateNormal(torch.zeros(2), torch.tensor([[1.0, 0.5], [0.0, 1.0]])),
        "mvn_bad_tril": lambda: D.MultivariateNormal(torch.zeros(2), scale_tril=torch.tensor([[1.0, 0.0], [0.5, -1.0]])),
        "mvn_upper_tril": lambda: D.MultivariateNormal(torch.zeros(2), scale_tril=torch.tensor([[1.0, 0.3], [0.0, 1.0]])),
        "mvn_bad_value": lambda: D.MultivariateNormal(torch.zeros(3), cov).log_prob(torch.zeros(2)),
        "mvn_nan_loc": lambda: D.MultivariateNormal(torch.tensor([0.0, float("nan"), 0.0]), cov),
    }.items():
        out[name] = _caught(f)

    # ---- LowRankMultivariateNormal
    W = torch.tensor([[1.0, 0.5], [0.0, -1.0], [0.3, 0.2]])
    Dg = torch.tensor([0.5, 1.0, 2.0])

    def lowrank():
        torch.manual_seed(3)
        loc = torch.tensor([0.0, 1.0, -1.0], requires_grad=True)
        w = W.clone().requires_grad_()
        dg = Dg.clone().requires_grad_()
        d = D.LowRankMultivariateNormal(loc, w, dg)
        r = d.rsample((2,))
        lp = d.log_prob(xs)
        g = torch.autograd.grad(lp.sum() + r.sum() + d.entropy(), (loc, w, dg))
        o = _common(d, torch)
        o.update({"rsample": _v(r), "lp": _v(lp), "grad": [_v(y) for y in g], "cov": _v(d.covariance_matrix),
                  "prec": _v(d.precision_matrix), "scale_tril": _v(d.scale_tril),
                  "exp_batch": list(d.expand((2,)).batch_shape), "exp_lp": _v(d.expand((2,)).log_prob(xs[:2]))})
        return o
    out["lowrank"] = _caught(lowrank)
    for name, f in {
        "lowrank_0d": lambda: D.LowRankMultivariateNormal(torch.tensor(0.0), W, Dg),
        "lowrank_w1d": lambda: D.LowRankMultivariateNormal(torch.zeros(3), torch.ones(3), Dg),
        "lowrank_wshape": lambda: D.LowRankMultivariateNormal(torch.zeros(3), torch.ones(2, 2), Dg),
        "lowrank_dshape": lambda: D.LowRankMultivariateNormal(torch.zeros(3), W, torch.ones(2)),
        "lowrank_dneg": lambda: D.LowRankMultivariateNormal(torch.zeros(3), W, torch.tensor([1.0, -1.0, 1.0])),
    }.items():
        out[name] = _caught(f)

    def kl_mvn():
        p = D.MultivariateNormal(torch.tensor([0.0, 1.0, 0.5]), cov)
        q = D.MultivariateNormal(torch.tensor([1.0, 0.0, 0.0]), scale_tril=torch.linalg.cholesky(cov + torch.eye(3)))
        lp = D.LowRankMultivariateNormal(torch.tensor([0.0, 1.0, 0.5]), W, Dg)
        lq = D.LowRankMultivariateNormal(torch.tensor([0.2, 0.0, 0.0]), W * 0.5, Dg + 1)
        return {"mvn_mvn": _v(D.kl_divergence(p, q)), "lr_lr": _v(D.kl_divergence(lp, lq)),
                "mvn_lr": _v(D.kl_divergence(p, lq)), "lr_mvn": _v(D.kl_divergence(lp, q)),
                "shape_err": _caught(lambda: D.kl_divergence(p, D.MultivariateNormal(torch.zeros(2), torch.eye(2))))}
    out["kl_mvn"] = _caught(kl_mvn)

    # ---- univariate continuous families whose samples follow PyTorch's streams
    def uni(make, value, seed, params, cdf=True, icdf=True):
        def f():
            torch.manual_seed(seed)
            ps = [p.clone().requires_grad_() for p in params]
            d = make(*ps)
            o = _common(d, torch, value if cdf else None)
            if not cdf:
                o["lp"] = _caught(lambda: _v(d.log_prob(value)))
            o["sample"] = _caught(lambda: _v(d.sample((3,))))
            if d.has_rsample:
                r = d.rsample((2,))
                o["rsample"] = _v(r)
                o["rgrad"] = [_v(y) for y in torch.autograd.grad(r.sum(), ps, retain_graph=True)]
            lp = d.log_prob(value)
            o["lpgrad"] = [_v(y) for y in torch.autograd.grad(lp.sum(), ps)]
            if icdf:
                o["icdf"] = _caught(lambda: _v(d.icdf(torch.tensor([0.1, 0.5, 0.9]))))
            o["exp"] = _caught(lambda: [list(d.expand((2, 3)).batch_shape), _v(d.expand((2, 3)).log_prob(value))])
            return o
        return _caught(f)

    v3 = torch.tensor([0.5, 1.5, 3.0])
    out["exponential"] = uni(lambda r: D.Exponential(r), v3, 10, [torch.tensor([0.5, 1.0, 2.0])])
    out["laplace"] = uni(lambda l, s: D.Laplace(l, s), torch.tensor([0.5, -1.5, 3.0]), 11,
                         [torch.tensor([0.0, 1.0, 2.0]), torch.tensor([1.0, 0.5, 2.0])])
    out["lognormal"] = uni(lambda l, s: D.LogNormal(l, s), v3, 12,
                           [torch.tensor([0.0, 0.5, -0.5]), torch.tensor([1.0, 0.5, 0.25])])
    out["gumbel"] = uni(lambda l, s: D.Gumbel(l, s), torch.tensor([0.5, -1.5, 3.0]), 13,
                        [torch.tensor([0.0, 1.0, 2.0]), torch.tensor([1.0, 0.5, 2.0])])
    out["cauchy"] = uni(lambda l, s: D.Cauchy(l, s), torch.tensor([0.5, -1.5, 3.0]), 14,
                        [torch.tensor([0.0, 1.0, 2.0]), torch.tensor([1.0, 0.5, 2.0])])
    out["halfnormal"] = uni(lambda s: D.HalfNormal(s), v3, 15, [torch.tensor([1.0, 0.5, 2.0])])
    out["studentt"] = uni(lambda df, l, s: D.StudentT(df, l, s), torch.tensor([0.5, -1.5, 3.0]), 16,
                          [torch.tensor([0.5, 1.5, 4.0]), torch.tensor([0.0, 1.0, 2.0]), torch.tensor([1.0, 0.5, 2.0])],
                          cdf=False, icdf=False)
    out["gamma"] = uni(lambda a, b: D.Gamma(a, b), v3, 17, [torch.tensor([0.5, 2.0, 5.0]), torch.tensor([1.0, 2.0, 0.5])],
                       icdf=False)
    out["chi2"] = uni(lambda df: D.Chi2(df), v3, 18, [torch.tensor([1.0, 3.0, 7.5])], icdf=False)
    out["beta"] = uni(lambda a, b: D.Beta(a, b), torch.tensor([0.1, 0.5, 0.95]), 19,
                      [torch.tensor([0.5, 2.0, 5.0]), torch.tensor([1.5, 2.0, 0.5])], cdf=False, icdf=False)
    # samples of the families ferrograd samples with its own kernels are not compared
    for name in ("studentt", "gamma", "chi2", "beta"):
        if isinstance(out[name], dict):
            for k in ("sample", "rsample", "rgrad"):
                out[name].pop(k, None)

    def scalars():
        torch.manual_seed(20)
        ds = {"exp": D.Exponential(2.0), "lap": D.Laplace(0.0, 2.0), "logn": D.LogNormal(0.0, 1.0),
              "gum": D.Gumbel(1.0, 2.0), "cau": D.Cauchy(0.0, 1.0), "half": D.HalfNormal(2.0),
              "gam": D.Gamma(2.0, 3.0), "chi": D.Chi2(4.0), "beta": D.Beta(2.0, 3.0), "geo": D.Geometric(0.3),
              "poi": D.Poisson(3.0), "st": D.StudentT(3.0)}
        return {k: [repr(d), list(d.batch_shape), list(d.sample((2,)).shape), _v(d.log_prob(torch.tensor(1.0)))]
                for k, d in ds.items()}
    out["scalars"] = _caught(scalars)

    def halfnormal_outside():
        d = D.HalfNormal(torch.tensor([1.0, 2.0]), validate_args=False)
        return _v(d.log_prob(torch.tensor([-1.0, 1.0])))
    out["halfnormal_outside"] = _caught(halfnormal_outside)

    # ---- validation errors
    for name, f in {
        "exp_rate": lambda: D.Exponential(torch.tensor([-1.0])),
        "exp_value": lambda: D.Exponential(torch.tensor([1.0])).log_prob(torch.tensor([-1.0])),
        "laplace_scale": lambda: D.Laplace(torch.tensor([0.0]), torch.tensor([0.0])),
        "lognormal_value": lambda: D.LogNormal(0.0, 1.0).log_prob(torch.tensor([-1.0])),
        "lognormal_scale": lambda: D.LogNormal(0.0, -1.0),
        "gumbel_scale": lambda: D.Gumbel(torch.tensor([0.0]), torch.tensor([-2.0])),
        "cauchy_loc": lambda: D.Cauchy(torch.tensor([float("nan")]), torch.tensor([1.0])),
        "halfnormal_value": lambda: D.HalfNormal(torch.tensor([1.0])).log_prob(torch.tensor([-1.0])),
        "studentt_df": lambda: D.StudentT(torch.tensor([0.0])),
        "gamma_conc": lambda: D.Gamma(torch.tensor([-1.0]), torch.tensor([1.0])),
        "gamma_value": lambda: D.Gamma(torch.tensor([1.0]), torch.tensor([1.0])).log_prob(torch.tensor([-1.0])),
        "chi2_df": lambda: D.Chi2(torch.tensor([-1.0])),
        "beta_conc": lambda: D.Beta(torch.tensor([1.0]), torch.tensor([0.0])),
        "beta_value": lambda: D.Beta(torch.tensor([1.0]), torch.tensor([2.0])).log_prob(torch.tensor([1.5])),
        "dirichlet_0d": lambda: D.Dirichlet(torch.tensor(1.0)),
        "dirichlet_conc": lambda: D.Dirichlet(torch.tensor([1.0, -1.0])),
        "dirichlet_value": lambda: D.Dirichlet(torch.tensor([1.0, 2.0])).log_prob(torch.tensor([0.5, 0.6])),
        "poisson_rate": lambda: D.Poisson(torch.tensor([-1.0])),
        "poisson_value": lambda: D.Poisson(torch.tensor([1.0])).log_prob(torch.tensor([1.5])),
        "geometric_both": lambda: D.Geometric(probs=torch.tensor([0.5]), logits=torch.tensor([0.0])),
        "geometric_zero": lambda: D.Geometric(torch.tensor([0.0, 0.5])),
        "geometric_big": lambda: D.Geometric(torch.tensor([1.5])),
        "binomial_none": lambda: D.Binomial(10),
        "binomial_count": lambda: D.Binomial(torch.tensor([2.5]), torch.tensor([0.5])),
        "binomial_value": lambda: D.Binomial(5, torch.tensor([0.5])).log_prob(torch.tensor([6.0])),
        "binomial_inhomog": lambda: D.Binomial(torch.tensor([2.0, 3.0]), torch.tensor([0.5, 0.5])).entropy(),
        "multinomial_count": lambda: D.Multinomial(torch.tensor(3), torch.tensor([0.5, 0.5])),
        "multinomial_value": lambda: D.Multinomial(3, torch.tensor([0.5, 0.5])).log_prob(torch.tensor([2.0, 2.0])),
        "onehot_value": lambda: D.OneHotCategorical(torch.tensor([0.5, 0.5])).log_prob(torch.tensor([1.0, 1.0])),
        "onehot_none": lambda: D.OneHotCategorical(),
        "relaxed_both": lambda: D.RelaxedBernoulli(torch.tensor(1.0), probs=torch.tensor([0.5]), logits=torch.tensor([0.0])),
        "transformed_bad": lambda: D.TransformedDistribution(D.Normal(0.0, 1.0), "exp"),
        "transformed_badlist": lambda: D.TransformedDistribution(D.Normal(0.0, 1.0), [T.ExpTransform(), 3]),
        "transformed_dim": lambda: D.TransformedDistribution(D.Normal(0.0, 1.0), T.StickBreakingTransform()),
        "broadcast_bad": lambda: D.Exponential("a"),
    }.items():
        out[name] = _caught(f)

    # ---- transforms
    def transforms():
        x = torch.tensor([[-1.0, 0.0, 0.5], [2.0, -0.5, 1.0]])
        ts = {"exp": T.ExpTransform(), "affine": T.AffineTransform(1.0, -2.0),
              "affine_t": T.AffineTransform(torch.tensor([0.0, 1.0, 2.0]), torch.tensor([1.0, 2.0, 3.0]), event_dim=1),
              "sigmoid": T.SigmoidTransform(), "tanh": T.TanhTransform(), "softplus": T.SoftplusTransform(),
              "power": T.PowerTransform(torch.tensor(2.0)), "abs": T.AbsTransform(),
              "compose": T.ComposeTransform([T.AffineTransform(0.5, 2.0), T.ExpTransform()]),
              "exp_inv": T.ExpTransform().inv, "indep": T.IndependentTransform(T.ExpTransform(), 1),
              "stick": T.StickBreakingTransform(), "softmax": T.SoftmaxTransform(),
              "reshape": T.ReshapeTransform((3,), (3, 1))}
        o = {}
        for k, tr in ts.items():
            xi = x.abs() + 0.1 if k in ("power",) else x
            y = tr(xi)
            r = {"repr": repr(tr), "y": _v(y), "yshape": list(y.shape), "domain": repr(tr.domain),
                 "codomain": repr(tr.codomain), "bijective": bool(tr.bijective)}
            r["inv"] = _caught(lambda: _v(tr.inv(y)))
            r["ladj"] = _caught(lambda: _v(tr.log_abs_det_jacobian(xi, y)))
            r["sign"] = _caught(lambda: _v(tr.sign) if not isinstance(tr.sign, int) else tr.sign)
            r["event_dim"] = _caught(lambda: tr.event_dim)
            r["fshape"] = _caught(lambda: list(tr.forward_shape(torch.Size([2, 3]))))
            r["ishape"] = _caught(lambda: list(tr.inverse_shape(torch.Size([2, 3]))))
            o[k] = r
        lc = T.LowerCholeskyTransform()
        m = torch.tensor([[0.5, 2.0], [-1.0, 0.1]])
        o["lower_chol"] = [_v(lc(m)), _v(lc.inv(lc(m))), repr(lc.codomain)]
        pd = T.PositiveDefiniteTransform()
        o["posdef"] = [_v(pd(m)), _v(pd.inv(pd(m)))]
        cc = T.CorrCholeskyTransform()
        cv = torch.tensor([0.3, -0.5, 1.2])
        cy = cc(cv)
        o["corr_chol"] = [_v(cy), _v(cc.inv(cy)), _v(cc.log_abs_det_jacobian(cv, cy)), list(cc.forward_shape((2, 3)))]
        o["eq"] = [T.ExpTransform() == T.ExpTransform(), T.AffineTransform(1.0, 2.0) == T.AffineTransform(1.0, 2.0),
                   T.AffineTransform(1.0, 2.0) == T.AffineTransform(1.0, 3.0), T.ExpTransform().inv == T.ExpTransform().inv,
                   T.ComposeTransform([T.ExpTransform()]) == T.ComposeTransform([T.ExpTransform()]),
                   T.ExpTransform() != T.SigmoidTransform()]
        c = T.ComposeTransform([T.ExpTransform(), T.AffineTransform(0.0, 3.0)])
        o["compose_inv"] = [repr(c.inv), _v(c.inv(torch.tensor([3.0, 6.0]))), c.sign]
        cached = T.ExpTransform().with_cache(1)
        xx = torch.tensor([1.0, 2.0])
        yy = cached(xx)
        o["cache"] = [cached(xx) is yy, cached.inv(yy) is xx, _caught(lambda: T.Transform(cache_size=2))]
        o["identity"] = [repr(T.identity_transform), _v(T.identity_transform(xx))]
        o["event_dim_err"] = _caught(lambda: T.StickBreakingTransform().event_dim)
        o["reshape_err"] = _caught(lambda: T.ReshapeTransform((2, 3), (5,)))
        o["with_cache_err"] = _caught(lambda: T.PowerTransform(torch.tensor(2.0)).with_cache(1).__class__.__name__)
        o["hash"] = _caught(lambda: hash(T.ExpTransform()))
        return o
    out["transforms"] = _caught(transforms)

    def transformed():
        torch.manual_seed(21)
        loc = torch.tensor([0.0, 1.0], requires_grad=True)
        d = D.TransformedDistribution(D.Normal(loc, torch.tensor([1.0, 0.5])),
                                      [T.AffineTransform(1.0, -2.0), T.TanhTransform()])
        v = torch.tensor([0.2, -0.7])
        r = d.rsample((3,))
        lp = d.log_prob(v)
        g, = torch.autograd.grad(lp.sum() + r.sum(), loc)
        o = _common(d, torch)
        o.update({"rsample": _v(r), "sample": _v(d.sample()), "lp": _v(lp), "grad": _v(g), "cdf": _v(d.cdf(v)),
                  "icdf": _v(d.icdf(torch.tensor([0.25, 0.75]))), "exp_batch": list(d.expand((3, 2)).batch_shape)})
        sb = D.TransformedDistribution(D.Normal(torch.zeros(2), torch.ones(2)), T.StickBreakingTransform())
        o["stick"] = [list(sb.batch_shape), list(sb.event_shape), repr(sb.support), _v(sb.log_prob(torch.tensor([0.2, 0.3, 0.5])))]
        ind = D.TransformedDistribution(D.Normal(torch.zeros(2, 3), torch.ones(2, 3)), T.IndependentTransform(T.ExpTransform(), 1))
        o["indep"] = [list(ind.batch_shape), list(ind.event_shape), repr(ind.base_dist), _v(ind.log_prob(torch.ones(2, 3)))]
        o["bad_value"] = _caught(lambda: d.log_prob(torch.tensor([2.0, 0.0])))
        return o
    out["transformed"] = _caught(transformed)

    # ---- discrete families
    probs = torch.tensor([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]])

    def onehot():
        torch.manual_seed(22)
        p = probs.clone().requires_grad_()
        d = D.OneHotCategorical(p)
        s = d.sample((2,))
        v = torch.tensor([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])
        lp = d.log_prob(v)
        g, = torch.autograd.grad(lp.sum() + d.entropy().sum(), p)
        st = D.OneHotCategoricalStraightThrough(logits=torch.tensor([0.0, 1.0, -1.0], requires_grad=True))
        rs = st.rsample((2,))
        sg, = torch.autograd.grad((rs * torch.tensor([1.0, 2.0, 3.0])).sum(), st.logits)
        o = _common(d, torch)
        o.update({"sample": _v(s), "lp": _v(lp), "grad": _v(g), "enum": _v(d.enumerate_support()),
                  "enum_shape": list(d.enumerate_support(False).shape), "probs": _v(d.probs), "logits": _v(d.logits),
                  "st": [_v(rs), _v(sg), st.has_rsample], "exp": list(d.expand((4, 2)).sample().shape)})
        return o
    out["onehot"] = _caught(onehot)

    def binomial():
        p = torch.tensor([0.2, 0.5, 0.9], requires_grad=True)
        d = D.Binomial(10, p)
        v = torch.tensor([3.0, 5.0, 10.0])
        lp = d.log_prob(v)
        g, = torch.autograd.grad(lp.sum(), p)
        dl = D.Binomial(torch.tensor([5.0, 20.0]), logits=torch.tensor([-1.0, 2.0]))
        o = _common(d, torch)
        o.update({"lp": _v(lp), "grad": _v(g), "enum": _v(d.enumerate_support()), "logits": _v(d.logits),
                  "dl": [repr(dl), _v(dl.log_prob(torch.tensor([2.0, 15.0]))), _v(dl.mean), _v(dl.mode), repr(dl.support)],
                  "exp": list(d.expand((2, 3)).batch_shape)})
        torch.manual_seed(23)
        big = D.Binomial(torch.tensor([5.0, 40.0, 1000.0, 0.0, 7.0]), torch.tensor([0.3, 0.6, 0.02, 0.5, 1.0]))
        s = big.sample((4000,))
        o["stats"] = [list(s.shape), bool((s == s.round()).all()), _close(s.mean(0), big.mean, 0.15 * 1 + 0.05),
                      _close(s.var(0), big.variance, 0.1 * 25), bool((s[:, 3] == 0).all()), bool((s[:, 4] == 7).all())]
        return o
    out["binomial"] = _caught(binomial)

    def multinomial():
        torch.manual_seed(24)
        p = probs.clone().requires_grad_()
        d = D.Multinomial(5, p)
        s = d.sample((3,))
        v = torch.tensor([[1.0, 1.0, 3.0], [5.0, 0.0, 0.0]])
        lp = d.log_prob(v)
        g, = torch.autograd.grad(lp.sum(), p)
        o = _common(d, torch)
        o.update({"sample": _v(s), "sshape": list(s.shape), "lp": _v(lp), "grad": _v(g),
                  "exp": list(d.expand((4, 2)).batch_shape),
                  "lp_zero": _v(D.Multinomial(2, torch.tensor([0.0, 1.0])).log_prob(torch.tensor([0.0, 2.0])))})
        return o
    out["multinomial"] = _caught(multinomial)

    def geometric():
        torch.manual_seed(25)
        p = torch.tensor([0.2, 0.5, 1.0], requires_grad=True)
        d = D.Geometric(p)
        v = torch.tensor([3.0, 0.0, 0.0])
        lp = d.log_prob(v)
        g, = torch.autograd.grad(lp.sum(), p)
        o = _common(D.Geometric(torch.tensor([0.2, 0.5, 0.9])), torch)
        o.update({"sample": _v(d.sample((4,))), "lp": _v(lp), "grad": _v(g),
                  "logits_d": _v(D.Geometric(logits=torch.tensor([0.0, -2.0])).probs),
                  "exp": list(d.expand((2, 3)).batch_shape)})
        return o
    out["geometric"] = _caught(geometric)

    def poisson():
        r = torch.tensor([0.5, 3.0, 25.0, 0.0], requires_grad=True)
        d = D.Poisson(r)
        v = torch.tensor([1.0, 2.0, 20.0, 0.0])
        lp = d.log_prob(v)
        g, = torch.autograd.grad(lp.sum(), r)
        o = _common(D.Poisson(torch.tensor([0.5, 3.0, 25.0])), torch)
        o.update({"lp": _v(lp), "grad": _v(g), "exp": list(d.expand((2, 4)).batch_shape)})
        torch.manual_seed(26)
        s = d.sample((4000,))
        o["stats"] = [list(s.shape), bool((s == s.round()).all()), _close(s.mean(0), r, 0.3),
                      _close(s.var(0), r, 2.5), bool((s[:, 3] == 0).all())]
        return o
    out["poisson"] = _caught(poisson)

    def relaxed():
        torch.manual_seed(27)
        temp = torch.tensor(0.5)
        p = torch.tensor([0.2, 0.7], requires_grad=True)
        rb = D.RelaxedBernoulli(temp, probs=p)
        r = rb.rsample((3,))
        lp = rb.log_prob(torch.tensor([0.3, 0.9]))
        g, = torch.autograd.grad(r.sum() + lp.sum(), p)
        lg = torch.tensor([[0.0, 1.0, -1.0]], requires_grad=True)
        rc = D.RelaxedOneHotCategorical(torch.tensor(2.0), logits=lg)
        rr = rc.rsample((2,))
        lpc = rc.log_prob(torch.tensor([[0.2, 0.5, 0.3]]))
        gc, = torch.autograd.grad((rr * torch.tensor([1.0, 2.0, 3.0])).sum() + lpc.sum(), lg)
        return {"rb": [repr(rb), _v(r), _v(lp), _v(g), repr(rb.support), list(rb.batch_shape), _v(rb.temperature),
                       _v(rb.logits), _v(rb.sample())],
                "rc": [repr(rc), _v(rr), _v(lpc), _v(gc), repr(rc.support), list(rc.batch_shape), list(rc.event_shape),
                       _v(rc.probs)],
                "rb_exp": list(rb.expand((2, 2)).batch_shape), "rc_exp": list(rc.expand((3,)).batch_shape)}
    out["relaxed"] = _caught(relaxed)

    # ---- Gamma family statistics (ferrograd's own samplers)
    def gamma_stats():
        torch.manual_seed(28)
        conc = torch.tensor([0.3, 1.0, 4.0, 20.0], requires_grad=True)
        rate = torch.tensor([1.0, 2.0, 0.5, 4.0], requires_grad=True)
        d = D.Gamma(conc, rate)
        s = d.rsample((4000,))
        ga, gb = torch.autograd.grad(s.mean(0).sum(), (conc, rate))
        # E[dX/da] = 1/b and E[dX/db] = -a/b² (the gradients of the mean)
        return [list(s.shape), bool((s > 0).all()), _close(s.mean(0), d.mean, 0.35), _close(s.var(0) / d.variance, [1.0] * 4, 0.2),
                _close(ga, 1 / rate, 0.1), _close(gb / (-conc / rate**2), [1.0] * 4, 0.1)]
    out["gamma_stats"] = _caught(gamma_stats)

    def gamma_grad_kernel():
        a = torch.tensor([0.3, 0.3, 1.0, 2.5, 2.5, 9.0, 9.0, 9.0, 50.0, 50.0, 4.0])
        x = torch.tensor([0.1, 1.5, 0.5, 0.9, 4.0, 8.5, 3.0, 15.0, 48.0, 60.0, 0.79])
        if hasattr(torch, "_standard_gamma_grad"):
            return _v(torch._standard_gamma_grad(a, x))
        from ferrograd.distributions._samplers import _standard_gamma_grad
        return _v(_standard_gamma_grad(a, x))
    out["gamma_grad_kernel"] = _caught(gamma_grad_kernel)

    def dirichlet():
        c = torch.tensor([[0.5, 1.0, 2.0], [3.0, 3.0, 0.8]], requires_grad=True)
        d = D.Dirichlet(c)
        v = torch.tensor([[0.2, 0.3, 0.5], [0.1, 0.6, 0.3]])
        lp = d.log_prob(v)
        g, = torch.autograd.grad(lp.sum() + d.entropy().sum(), c)
        o = _common(d, torch)
        o.update({"lp": _v(lp), "grad": _v(g), "exp": list(d.expand((4, 2)).batch_shape),
                  "mode_small": _v(D.Dirichlet(torch.tensor([0.5, 0.2, 0.9])).mode)})
        torch.manual_seed(29)
        cc = torch.tensor([0.5, 2.0, 4.0], requires_grad=True)
        s = D.Dirichlet(cc).rsample((4000,))
        gg, = torch.autograd.grad(s[:, 0].mean(), cc)
        mean = cc / cc.sum()
        want, = torch.autograd.grad(mean[0], cc)
        o["stats"] = [list(s.shape), _close(s.sum(-1), [1.0] * 4000, 1e-5), _close(s.mean(0), mean, 0.02),
                      _close(gg, want, 0.02)]
        bs = D.Beta(torch.tensor([2.0, 0.5]), torch.tensor([3.0, 0.5])).sample((4000,))
        o["beta_stats"] = [list(bs.shape), _close(bs.mean(0), [0.4, 0.5], 0.03), bool(((bs > 0) & (bs < 1)).all())]
        return o
    out["dirichlet"] = _caught(dirichlet)

    def studentt_stats():
        torch.manual_seed(30)
        d = D.StudentT(torch.tensor([5.0, 30.0]), torch.tensor([1.0, -1.0]), torch.tensor([2.0, 0.5]))
        s = d.sample((4000,))
        return [list(s.shape), _close(s.mean(0), d.mean, 0.15), _close(s.var(0) / d.variance, [1.0, 1.0], 0.3)]
    out["studentt_stats"] = _caught(studentt_stats)

    # ---- MixtureSameFamily
    def mixture():
        torch.manual_seed(31)
        lg = torch.tensor([[0.0, 1.0, -1.0], [0.5, 0.5, 0.0]], requires_grad=True)
        loc = torch.tensor([[-2.0, 0.0, 3.0], [1.0, 2.0, 3.0]], requires_grad=True)
        m = D.MixtureSameFamily(D.Categorical(logits=lg), D.Normal(loc, torch.tensor([[1.0, 0.5, 2.0], [1.0, 1.0, 1.0]])))
        v = torch.tensor([0.5, 1.5])
        lp = m.log_prob(v)
        g = torch.autograd.grad(lp.sum(), (lg, loc))
        o = {"repr": repr(m), "batch": list(m.batch_shape), "event": list(m.event_shape), "lp": _v(lp),
             "grad": [_v(y) for y in g], "mean": _v(m.mean), "var": _v(m.variance), "cdf": _v(m.cdf(v)),
             "sample": _v(m.sample((3,))), "support": repr(m.support), "exp": list(m.expand((4, 2)).batch_shape)}
        mv = D.MixtureSameFamily(D.Categorical(torch.tensor([0.3, 0.7])),
                                 D.Independent(D.Normal(torch.zeros(2, 3), torch.ones(2, 3) * torch.tensor([[1.0], [2.0]])), 1))
        o["mv"] = [list(mv.batch_shape), list(mv.event_shape), _v(mv.log_prob(torch.ones(4, 3))), _v(mv.mean), _v(mv.variance),
                   list(mv.sample((5,)).shape)]
        o["bad_mix"] = _caught(lambda: D.MixtureSameFamily(D.Normal(0.0, 1.0), D.Normal(torch.zeros(3), torch.ones(3))))
        o["bad_comp"] = _caught(lambda: D.MixtureSameFamily(D.Categorical(torch.ones(3)), "x"))
        o["bad_k"] = _caught(lambda: D.MixtureSameFamily(D.Categorical(torch.ones(2)), D.Normal(torch.zeros(3), torch.ones(3))))
        o["bad_batch"] = _caught(lambda: D.MixtureSameFamily(D.Categorical(torch.ones(2, 3)),
                                                             D.Normal(torch.zeros(4, 3), torch.ones(4, 3))))
        return o
    out["mixture"] = _caught(mixture)

    # ---- kl_divergence
    def kl():
        a = torch.tensor([0.5, 2.0])
        b = torch.tensor([1.5, 0.7])
        N = D.Normal(torch.tensor([0.0, 1.0]), a)
        pairs = {
            "exp_exp": (D.Exponential(a), D.Exponential(b)),
            "gamma_gamma": (D.Gamma(a, b), D.Gamma(b, a)),
            "beta_beta": (D.Beta(a, b), D.Beta(b, a)),
            "dir_dir": (D.Dirichlet(torch.tensor([[1.0, 2.0, 3.0]])), D.Dirichlet(torch.tensor([[0.5, 0.5, 4.0]]))),
            "ind_ind": (D.Independent(N, 1), D.Independent(D.Normal(torch.zeros(2), b), 1)),
            "onehot": (D.OneHotCategorical(probs), D.OneHotCategorical(logits=torch.tensor([0.0, 1.0, -1.0]))),
            "lap_lap": (D.Laplace(torch.tensor([0.0, 1.0]), a), D.Laplace(torch.tensor([1.0, 1.0]), b)),
            "poi_poi": (D.Poisson(a), D.Poisson(b)),
            "bern_bern": (D.Bernoulli(torch.tensor([0.2, 0.9])), D.Bernoulli(torch.tensor([0.5, 0.4]))),
            "cat_cat": (D.Categorical(probs), D.Categorical(torch.tensor([0.2, 0.3, 0.5]))),
            "binom": (D.Binomial(10, torch.tensor([0.2, 0.6])), D.Binomial(torch.tensor([10.0, 5.0]), torch.tensor([0.5, 0.5]))),
            "geo_geo": (D.Geometric(torch.tensor([0.2, 0.6])), D.Geometric(torch.tensor([0.5, 0.1]))),
            "gum_gum": (D.Gumbel(torch.tensor([0.0, 1.0]), a), D.Gumbel(torch.tensor([1.0, 0.0]), b)),
            "half_half": (D.HalfNormal(a), D.HalfNormal(b)),
            "cau_cau": (D.Cauchy(torch.tensor([0.0, 1.0]), a), D.Cauchy(torch.tensor([1.0, 0.0]), b)),
            "logn_logn": (D.LogNormal(torch.tensor([0.0, 1.0]), a), D.LogNormal(torch.tensor([1.0, 0.0]), b)),
            "exp_gamma": (D.Exponential(a), D.Gamma(b, a)),
            "exp_normal": (D.Exponential(a), N),
            "exp_gumbel": (D.Exponential(a), D.Gumbel(torch.tensor([0.0, 1.0]), b)),
            "gamma_exp": (D.Gamma(a, b), D.Exponential(a)),
            "gamma_normal": (D.Gamma(a, b), N),
            "gamma_gumbel": (D.Gamma(a, b), D.Gumbel(torch.tensor([0.0, 1.0]), b)),
            "beta_normal": (D.Beta(a, b), N),
            "beta_exp": (D.Beta(a, b), D.Exponential(a)),
            "beta_gamma": (D.Beta(a, b), D.Gamma(a, b)),
            "beta_unif": (D.Beta(a, b), D.Uniform(torch.tensor([0.0, -1.0]), torch.tensor([1.0, 0.5]))),
            "normal_lap": (N, D.Laplace(torch.tensor([1.0, 0.0]), b)),
            "normal_gum": (N, D.Gumbel(torch.tensor([1.0, 0.0]), b)),
            "normal_exp": (N, D.Exponential(a)),
            "lap_normal": (D.Laplace(torch.tensor([0.0, 1.0]), a), N),
            "gum_normal": (D.Gumbel(torch.tensor([0.0, 1.0]), a), N),
            "unif_normal": (D.Uniform(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 3.0])), N),
            "unif_gamma": (D.Uniform(torch.tensor([0.5, -1.0]), torch.tensor([1.0, 3.0])), D.Gamma(a, b)),
            "unif_exp": (D.Uniform(torch.tensor([0.5, -1.0]), torch.tensor([1.0, 3.0])), D.Exponential(a)),
            "unif_beta": (D.Uniform(torch.tensor([0.2, 0.0]), torch.tensor([0.7, 1.5])), D.Beta(a, b)),
            "unif_gum": (D.Uniform(torch.tensor([0.2, 0.0]), torch.tensor([0.7, 1.5])), D.Gumbel(torch.tensor([0.0, 1.0]), b)),
            "bern_poi": (D.Bernoulli(torch.tensor([0.2, 0.9])), D.Poisson(a)),
            "poi_bern": (D.Poisson(a), D.Bernoulli(torch.tensor([0.2, 0.9]))),
            "normal_gamma": (N, D.Gamma(a, b)),
            "gamma_unif": (D.Gamma(a, b), D.Uniform(0.0, 1.0)),
            "transformed_transformed": (D.TransformedDistribution(N, T.ExpTransform()),
                                        D.TransformedDistribution(D.Normal(0.0, 1.0), T.ExpTransform())),
        }
        o = {k: _caught(lambda: _v(D.kl_divergence(p, q))) for k, (p, q) in pairs.items()}
        o["expfam_cross"] = _caught(lambda: D.kl_divergence(D.Bernoulli(torch.tensor([0.5])), D.Normal(0.0, 1.0)))
        o["binom_more"] = _caught(lambda: D.kl_divergence(D.Binomial(3, torch.tensor([0.5])), D.Binomial(5, torch.tensor([0.5]))))
        o["ind_ndims"] = _caught(lambda: D.kl_divergence(D.Independent(D.Normal(torch.zeros(2, 2), torch.ones(2, 2)), 1),
                                                         D.Independent(D.Normal(torch.zeros(2, 2), torch.ones(2, 2)), 2)))
        o["missing"] = _caught(lambda: D.kl_divergence(D.Cauchy(0.0, 1.0), D.Normal(0.0, 1.0)))
        gp, gq = torch.tensor([2.0], requires_grad=True), torch.tensor([3.0], requires_grad=True)
        o["grad"] = [_v(y) for y in torch.autograd.grad(D.kl_divergence(D.Gamma(gp, gq), D.Gamma(gq, gp)).sum(), (gp, gq))]
        return o
    out["kl"] = _caught(kl)

    # ---- ExponentialFamily entropy (autograd Bregman) and constraints
    def expfam():
        ds = {"bern": D.Bernoulli(torch.tensor([0.3])),
              "normal": D.Normal(torch.tensor([0.0]), torch.tensor([2.0]))}
        return {k: _v(D.ExponentialFamily.entropy(d)) for k, d in ds.items()}
    out["expfam"] = _caught(expfam)

    def constraints():
        C = D.constraints
        m = torch.tensor([[[2.0, 0.5], [0.5, 1.0]], [[1.0, 2.0], [2.0, 1.0]]])
        return {"pd": _v(C.positive_definite.check(m)), "psd": _v(C.positive_semidefinite.check(m)),
                "sym": _v(C.symmetric.check(m)), "sq": _v(C.square.check(torch.zeros(2, 3))),
                "lc": _v(C.lower_cholesky.check(torch.tensor([[1.0, 0.0], [2.0, 0.5]]))),
                "lt": _v(C.lower_triangular.check(torch.tensor([[1.0, 1.0], [2.0, 0.5]]))),
                "oh": _v(C.one_hot.check(torch.tensor([[0.0, 1.0], [1.0, 1.0]]))),
                "nni": _v(C.nonnegative_integer.check(torch.tensor([0.0, 1.5, -1.0, 3.0]))),
                "pi": _v(C.positive_integer.check(torch.tensor([0.0, 1.0, 2.0]))),
                "hoi": _v(C.half_open_interval(0.0, 1.0).check(torch.tensor([0.0, 1.0, 0.5]))),
                "gte": _v(C.greater_than_eq(1.0).check(torch.tensor([0.5, 1.0]))),
                "mult": _v(C.multinomial(3).check(torch.tensor([[1.0, 2.0], [2.0, 2.0]]))),
                "cat": _v(C.cat([C.positive, C.real], 0, [1, 2]).check(torch.tensor([-1.0, -2.0, 3.0]))),
                "stack": _v(C.stack([C.positive, C.real], 0).check(torch.tensor([[-1.0, 1.0], [-2.0, 3.0]]))),
                "cc": _v(C.corr_cholesky.check(torch.tensor([[1.0, 0.0], [0.6, 0.8]]))),
                "reprs": [repr(c) for c in (C.positive_definite, C.lower_cholesky, C.one_hot, C.nonnegative_integer,
                                            C.half_open_interval(0, 1), C.greater_than_eq(2), C.independent(C.real, 2),
                                            C.dependent, C.multinomial(3), C.corr_cholesky, C.positive_integer,
                                            C.real_vector, C.simplex, C.symmetric)],
                "event_dims": [C.positive_definite.event_dim, C.one_hot.event_dim, C.independent(C.positive, 2).event_dim,
                               C.cat([C.real, C.real_vector]).event_dim, C.stack([C.real, C.real], -1).event_dim],
                "discrete": [C.one_hot.is_discrete, C.nonnegative_integer.is_discrete, C.real.is_discrete,
                             C.dependent(is_discrete=True).is_discrete],
                "is_dep": [C.is_dependent(C.dependent), C.is_dependent(C.real),
                           C.is_dependent(D.Uniform.support), C.is_dependent(D.Binomial.support)],
                "dep_err": _caught(lambda: C.dependent.event_dim),
                "dep_check": _caught(lambda: C.dependent.check(torch.zeros(1))),
                "ind_err": _caught(lambda: C.independent(C.real, 2).check(torch.zeros(3)))}
    out["constraints"] = _caught(constraints)

    def expand_errors():
        class MyNormal(D.Normal):
            def __init__(self, loc):
                super().__init__(loc, 1.0)
        return [_caught(lambda: MyNormal(torch.zeros(2)).expand((3, 2))),
                _caught(lambda: list(D.Normal(torch.zeros(2), torch.ones(2)).expand((3, 2)).sample().shape)),
                _caught(lambda: D.Distribution().expand((2,)))]
    out["expand_errors"] = _caught(expand_errors)
    return out
