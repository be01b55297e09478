"""torch.distributions families beyond distributions_more: Weibull, Pareto, HalfCauchy,
InverseGamma, Kumaraswamy, FisherSnedecor, GeneralizedPareto, ContinuousBernoulli, VonMises,
NegativeBinomial, LogisticNormal, LKJCholesky, Wishart, the ``biject_to``/``transform_to``
registries and the KL divergences PyTorch registers for these families. Moments, entropy,
log_prob and its gradients, cdf/icdf, seeded samples (every family here draws PyTorch's random
stream), rsample gradients, expand, validation errors, reprs, warnings. Run with ``torch`` bound
to PyTorch (tools/record_distributions_extra_goldens.py records
fixtures/distributions_extra.json) or to ferrograd (test_distributions_extra.py compares)."""

import math
import warnings


def _v(t):
    if isinstance(t, (int, float)):
        return float(t) if t == t else "nan"
    return [v if v == v else "nan" for v in t.detach().double().flatten().tolist()]


def _caught(f):
    try:
        return f()
    except Exception as e:  # noqa: BLE001 - PyTorch's error is the result
        return {"error": [type(e).__name__, str(e).replace("ferrograd", "torch")]}


def _warned(f):
    """``[f(), the messages of the warnings it raised]``."""
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        r = f()
    return [r, [str(w.message) for w in ws]]


def _plain(r):
    """A scenario result JSON can hold: tensors as values, other objects as their repr."""
    if r is None or isinstance(r, (bool, int, float, str)):
        return r
    if hasattr(r, "detach"):
        return _v(r)
    return repr(r)


def _common(d, value=None):
    """Shapes, repr, support, has_rsample, moments, entropy, log_prob/cdf at ``value``."""
    out = {"repr": repr(d), "batch": list(d.batch_shape), "event": list(d.event_shape),
           "has_rsample": bool(d.has_rsample), "has_enum": bool(d.has_enumerate_support)}
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
    C = D.constraints
    out = {}

    def fam(make, value, seed, params, probs=(0.1, 0.5, 0.9), nsample=3):
        """Everything about the family ``make(*params)`` (parameters requiring grad)."""
        def f():
            torch.manual_seed(seed)
            ps = [p.clone().requires_grad_() for p in params]
            d = make(*ps)
            o = _common(d, value)
            o["sample"] = _caught(lambda: _v(d.sample((nsample,))))
            o["sshape"] = _caught(lambda: list(d.sample((2, 1)).shape))
            if d.has_rsample:
                r = d.rsample((2,))
                o["rsample"] = _v(r)
                o["rgrad"] = [_v(y) for y in torch.autograd.grad(r.sum(), ps, retain_graph=True, allow_unused=True)]
                o["rgrad_fn"] = type(r.grad_fn).__name__ if r.grad_fn is not None else None
            else:
                o["rsample_err"] = _caught(lambda: d.rsample())
            lp = d.log_prob(value)
            o["lp_grad_fn"] = type(lp.grad_fn).__name__ if lp.grad_fn is not None else None
            o["lpgrad"] = [_v(y) if y is not None else None
                           for y in torch.autograd.grad(lp.sum(), ps, allow_unused=True, retain_graph=True)]
            o["icdf"] = _caught(lambda: _v(d.icdf(torch.tensor(list(probs)))))
            o["ent_grad"] = _caught(lambda: [_v(y) if y is not None else None for y in
                                             torch.autograd.grad(d.entropy().sum(), ps, allow_unused=True)])
            e = d.expand((2,) + tuple(d.batch_shape))
            o["exp"] = [_caught(lambda: repr(e)), list(e.batch_shape), list(e.event_shape),
                        _caught(lambda: _v(e.log_prob(value))), _caught(lambda: list(e.sample().shape)),
                        _caught(lambda: _v(e.mean)), type(e).__name__]
            o["perplexity"] = _caught(lambda: _v(d.perplexity()))
            o["arg_constraints"] = _caught(lambda: {k: repr(c) for k, c in d.arg_constraints.items()})
            return o
        return _caught(f)

    v3 = torch.tensor([0.5, 1.5, 3.0])
    out["weibull"] = fam(lambda s, c: D.Weibull(s, c), v3, 1,
                         [torch.tensor([1.0, 2.0, 0.5]), torch.tensor([0.5, 1.5, 3.0])])
    out["pareto"] = fam(lambda s, a: D.Pareto(s, a), torch.tensor([1.5, 2.5, 3.0]), 2,
                        [torch.tensor([1.0, 2.0, 0.5]), torch.tensor([0.5, 2.5, 3.0])])
    out["halfcauchy"] = fam(lambda s: D.HalfCauchy(s), v3, 3, [torch.tensor([1.0, 0.5, 2.0])])
    out["inversegamma"] = fam(lambda a, b: D.InverseGamma(a, b), v3, 4,
                              [torch.tensor([0.5, 2.5, 5.0]), torch.tensor([1.0, 2.0, 0.5])])
    out["kumaraswamy"] = fam(lambda a, b: D.Kumaraswamy(a, b), torch.tensor([0.1, 0.5, 0.95]), 5,
                             [torch.tensor([0.5, 2.0, 5.0]), torch.tensor([1.5, 2.0, 0.5])])
    out["fisher"] = fam(lambda a, b: D.FisherSnedecor(a, b), v3, 6,
                        [torch.tensor([1.0, 3.0, 7.5]), torch.tensor([2.0, 4.5, 10.0])])
    out["genpareto"] = fam(lambda l, s, c: D.GeneralizedPareto(l, s, c), torch.tensor([0.5, 1.5, 1.0]), 7,
                           [torch.tensor([0.0, 1.0, -0.5]), torch.tensor([1.0, 2.0, 0.5]),
                            torch.tensor([0.0, 0.3, -0.2])])
    out["genpareto_heavy"] = fam(lambda l, s, c: D.GeneralizedPareto(l, s, c), torch.tensor([0.5, 1.5]), 8,
                                 [torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]), torch.tensor([0.7, 1.5])],
                                 probs=(0.2, 0.7))
    out["contbern"] = fam(lambda p: D.ContinuousBernoulli(p), torch.tensor([0.2, 0.5, 0.9, 0.0]), 9,
                          [torch.tensor([0.2, 0.5, 0.8, 0.9995])], probs=(0.1, 0.5, 0.9, 0.3))
    out["contbern_logits"] = fam(lambda lg: D.ContinuousBernoulli(logits=lg), torch.tensor([0.2, 0.5, 1.0]), 10,
                                 [torch.tensor([-2.0, 0.001, 3.0])])
    out["vonmises"] = fam(lambda l, c: D.VonMises(l, c), torch.tensor([0.5, -2.0, 3.0, 10.0]), 11,
                          [torch.tensor([0.0, 1.0, -2.0, 3.0]), torch.tensor([0.5, 2.0, 10.0, 1e-6])], nsample=5)
    out["negbin"] = fam(lambda n, p: D.NegativeBinomial(n, p), torch.tensor([0.0, 3.0, 10.0]), 12,
                        [torch.tensor([1.0, 5.0, 2.5]), torch.tensor([0.2, 0.5, 0.9])])
    out["negbin_logits"] = fam(lambda n, lg: D.NegativeBinomial(n, logits=lg), torch.tensor([0.0, 3.0, 7.0]), 13,
                               [torch.tensor([3.0, 0.5, 10.0]), torch.tensor([-1.0, 0.0, 2.0])])
    out["logisticnormal"] = fam(lambda l, s: D.LogisticNormal(l, s), torch.tensor([[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]]), 14,
                                [torch.tensor([[0.0, 1.0], [0.5, -0.5]]), torch.tensor([[1.0, 0.5], [2.0, 1.0]])])

    # samples' statistics of the rejection sampler (and that the stream stays PyTorch's)
    def vonmises_stats():
        torch.manual_seed(15)
        d = D.VonMises(torch.tensor([0.5, -3.0, 2.0]), torch.tensor([0.1, 4.0, 50.0]))
        s = d.sample((2000,))
        circ_mean = torch.atan2(s.sin().mean(0), s.cos().mean(0))
        return {"shape": list(s.shape), "in_range": bool(((s >= -math.pi) & (s < math.pi)).all()),
                "head": _v(s[:3]), "circ_mean": _v(circ_mean[1:]), "dtype": str(s.dtype),
                "next": _v(torch.rand(2)),
                "f64": _v(D.VonMises(torch.tensor([0.0], dtype=torch.float64), torch.tensor([3.0], dtype=torch.float64))
                          .sample((4,))),
                "scalar": [repr(D.VonMises(0.0, 1.0)), list(D.VonMises(0.0, 1.0).sample().shape)]}
    out["vonmises_stats"] = _caught(vonmises_stats)

    def negbin_stats():
        torch.manual_seed(16)
        d = D.NegativeBinomial(torch.tensor([2.0, 20.0]), torch.tensor([0.3, 0.6]))
        s = d.sample((4000,))
        return {"head": _v(s[:4]), "mean": _v(s.mean(0)), "var": _v(s.var(0)), "dmean": _v(d.mean),
                "dvar": _v(d.variance), "param_shape": list(d.param_shape), "probs": _v(d.probs), "logits": _v(d.logits),
                "lp_zero": _v(D.NegativeBinomial(torch.tensor([0.0]), torch.tensor([0.5])).log_prob(torch.tensor([0.0])))}
    out["negbin_stats"] = _caught(negbin_stats)

    def fisher_stats():
        torch.manual_seed(17)
        d = D.FisherSnedecor(torch.tensor([5.0, 20.0]), torch.tensor([10.0, 30.0]))
        s = d.rsample((3000,))
        return {"head": _v(s[:3]), "mean": _v(s.mean(0)), "dmean": _v(d.mean), "dmode": _v(d.mode),
                "dvar": _v(d.variance),
                "nan_moments": [_v(D.FisherSnedecor(torch.tensor([1.0, 3.0]), torch.tensor([2.0, 4.0])).mean),
                                _v(D.FisherSnedecor(torch.tensor([1.0, 3.0]), torch.tensor([2.0, 4.0])).mode),
                                _v(D.FisherSnedecor(torch.tensor([1.0, 3.0]), torch.tensor([2.0, 4.0])).variance)],
                "scalar": [repr(D.FisherSnedecor(2.0, 3.0)), list(D.FisherSnedecor(2.0, 3.0).batch_shape)]}
    out["fisher_stats"] = _caught(fisher_stats)

    def contbern_more():
        d = D.ContinuousBernoulli(torch.tensor([0.3, 0.4995, 0.7]))
        o = {"logits": _v(d.logits), "probs": _v(d.probs), "param_shape": list(d.param_shape),
             "log_norm": _v(d._cont_bern_log_norm()),
             "cdf_edges": _v(d.cdf(torch.tensor([0.0, 1.0, 0.25]))),
             "expfam_entropy": _v(D.ExponentialFamily.entropy(d)),
             "lims": _v(D.ContinuousBernoulli(torch.tensor([0.45, 0.55]), lims=(0.4, 0.6)).mean),
             "scalar": [repr(D.ContinuousBernoulli(0.3)), list(D.ContinuousBernoulli(0.3).batch_shape),
                        repr(D.ContinuousBernoulli(logits=0.3))],
             "logit_ent": _v(D.ContinuousBernoulli(logits=torch.tensor([-1.0, 0.0005, 2.0])).entropy()),
             "clamped": _v(D.ContinuousBernoulli(torch.tensor([0.0, 1.0]), validate_args=False).probs)}
        torch.manual_seed(18)
        o["sample"] = _v(d.sample((2,)))
        return o
    out["contbern_more"] = _caught(contbern_more)

    def genpareto_more():
        d = D.GeneralizedPareto(torch.tensor([0.0, 1.0, 0.0]), torch.tensor([1.0, 2.0, 1.0]),
                                torch.tensor([-0.5, 0.0, 0.5]))
        x = torch.tensor([0.5, 2.0, 3.0])
        return {"lsf": _v(d.log_survival_function(x)), "lcdf": _v(d.log_cdf(x)), "cdf": _v(d.cdf(x)),
                "support": [_v(d.support.lower_bound), _v(d.support.upper_bound)],
                "check": _v(d.support.check(torch.tensor([2.5, 0.5, -1.0]))),
                "outside": _caught(lambda: d.log_prob(torch.tensor([2.5, 2.0, 3.0]))),
                "scalar": [repr(D.GeneralizedPareto(0.0, 1.0, 0.2)), list(D.GeneralizedPareto(0.0, 1.0, 0.2).batch_shape),
                           _v(D.GeneralizedPareto(0.0, 1.0, 0.2).entropy())]}
    out["genpareto_more"] = _caught(genpareto_more)

    def transformed_more():
        o = {}
        w = D.Weibull(torch.tensor([1.0, 2.0]), torch.tensor([0.5, 3.0]))
        o["weibull"] = [repr(w.base_dist), [repr(t) for t in w.transforms], _v(w.concentration_reciprocal),
                        _v(w.icdf(torch.tensor([0.3, 0.6]))), _v(w.cdf(torch.tensor([0.3, 0.6])))]
        p = D.Pareto(torch.tensor([1.0, 2.0]), torch.tensor([0.5, 3.0]))
        o["pareto"] = [repr(p.support), _v(p.support.lower_bound), _v(p.mean), _v(p.variance),
                       _caught(lambda: p.log_prob(torch.tensor([0.5, 3.0]))),
                       _v(p.expand((3, 2)).support.lower_bound)]
        ig = D.InverseGamma(torch.tensor([0.5, 1.5, 3.0]), torch.tensor([1.0, 1.0, 2.0]))
        o["invgamma"] = [_v(ig.mean), _v(ig.variance), _v(ig.concentration), _v(ig.rate),
                         repr(ig.transforms[0]), _v(ig.cdf(torch.tensor([0.5, 1.0, 2.0])))]
        ln = D.LogisticNormal(torch.tensor([0.0, 0.5, -1.0]), torch.tensor([1.0, 2.0, 0.5]))
        o["logisticnormal"] = [repr(ln), list(ln.batch_shape), list(ln.event_shape), _v(ln.loc), _v(ln.scale),
                               repr(ln.base_dist), _v(ln.log_prob(torch.tensor([0.1, 0.2, 0.3, 0.4])))]
        lns = D.LogisticNormal(0.0, 1.0)
        torch.manual_seed(19)
        o["logisticnormal_scalar"] = [list(lns.batch_shape), list(lns.event_shape), _v(lns.sample((2,)))]
        k = D.Kumaraswamy(torch.tensor([0.5, 2.0]), torch.tensor([0.5, 3.0]))
        o["kumaraswamy"] = [_v(k.mode), [repr(t) for t in k.transforms], repr(k.base_dist)]
        hc = D.HalfCauchy(torch.tensor([1.0, 2.0]), validate_args=False)
        o["halfcauchy"] = [_v(hc.log_prob(torch.tensor([-1.0, 1.0]))), _v(hc.mean), list(D.HalfCauchy(1.0).mean.shape)]
        o["scalars"] = {}
        torch.manual_seed(20)
        for k_, d in {"weibull": D.Weibull(1.0, 2.0), "pareto": D.Pareto(1.0, 2.0), "halfcauchy": D.HalfCauchy(2.0),
                      "invgamma": D.InverseGamma(2.0, 3.0), "kuma": D.Kumaraswamy(2.0, 3.0)}.items():
            o["scalars"][k_] = [repr(d), list(d.batch_shape), _v(d.sample((2,))), _v(d.log_prob(torch.tensor(1.5 if k_ != "kuma" else 0.5)))]
        return o
    out["transformed_more"] = _caught(transformed_more)

    # ---- LKJCholesky
    def lkj(dim, conc, seed):
        def f():
            torch.manual_seed(seed)
            c = conc.clone().requires_grad_()
            d = D.LKJCholesky(dim, c)
            s = d.sample((2,))
            lp = d.log_prob(s)
            g, = torch.autograd.grad(lp.sum(), c)
            o = _common(d)
            o.update({"sample": _v(s), "sshape": list(s.shape), "lp": _v(lp), "grad": _v(g),
                      "valid": _v(C.corr_cholesky.check(s)),
                      "lp_id": _v(d.log_prob(torch.eye(dim))),
                      "exp": [list(d.expand((2,) + tuple(d.batch_shape)).batch_shape),
                              list(d.expand((2,) + tuple(d.batch_shape)).sample().shape)],
                      "beta": [_v(d._beta.concentration1), _v(d._beta.concentration0)],
                      "next": _v(torch.rand(2))})
            return o
        return _caught(f)
    out["lkj3"] = lkj(3, torch.tensor(0.5), 21)
    out["lkj_batch"] = lkj(4, torch.tensor([1.0, 2.5]), 22)
    out["lkj2"] = lkj(2, torch.tensor([0.3, 1.0, 5.0]), 23)
    out["lkj_scalar"] = _caught(lambda: [repr(D.LKJCholesky(3)), repr(D.LKJCholesky(3, 2.0)),
                                         list(D.LKJCholesky(3, 2.0).batch_shape)])

    # ---- Wishart
    S = torch.tensor([[2.0, 0.5, 0.1], [0.5, 1.0, -0.3], [0.1, -0.3, 1.5]])
    X = torch.tensor([[1.5, 0.2, 0.0], [0.2, 2.0, 0.4], [0.0, 0.4, 1.0]])

    def wishart(kind, df, seed):
        def f():
            torch.manual_seed(seed)
            dfv = df.clone().requires_grad_() if isinstance(df, torch.Tensor) else df
            if kind == "covariance_matrix":
                p = S.clone().requires_grad_()
            elif kind == "precision_matrix":
                p = torch.linalg.inv(S).requires_grad_()
            else:
                p = torch.linalg.cholesky(S).requires_grad_()
            d = D.Wishart(dfv, **{kind: p})
            r, ws = _warned(lambda: d.rsample((2,)))
            lp = d.log_prob(X)
            ent = d.entropy()
            params = [p] + ([dfv] if isinstance(dfv, torch.Tensor) else [])
            g = torch.autograd.grad(lp.sum() + ent.sum(), params)
            # PyTorch's retry loop writes into the boolean mask its index_put saved: backward fails
            o = _common(d)
            o["rgrad"] = _caught(lambda: [_v(y) for y in torch.autograd.grad(r.sum(), params)])
            o.update({"rsample": _v(r), "warnings": ws, "lp": _v(lp), "grad": [_v(y) for y in g],
                      "rgrad_fn": type(r.grad_fn).__name__, "scale_tril": _v(d.scale_tril),
                      "cov": _v(d.covariance_matrix), "prec": _v(d.precision_matrix),
                      "sample": _warned(lambda: _v(d.sample()))})
            e = d.expand((2,) + tuple(d.batch_shape))
            o["exp"] = [repr(e), list(e.batch_shape), _v(e.log_prob(X)), list(_warned(lambda: e.sample())[0].shape)]
            o["next"] = _v(torch.rand(2))
            return o
        return _caught(f)
    out["wishart_cov"] = wishart("covariance_matrix", torch.tensor(5.0), 24)
    out["wishart_prec"] = wishart("precision_matrix", torch.tensor([4.0, 6.5]), 25)
    out["wishart_tril"] = wishart("scale_tril", 3.5, 26)

    def wishart_more():
        o = {}
        o["low_df"] = _warned(lambda: repr(D.Wishart(torch.tensor(2.5), covariance_matrix=S)))
        d = D.Wishart(torch.tensor([4.0, 8.0]), scale_tril=torch.linalg.cholesky(S))
        o["mode"] = _v(d.mode)
        o["mode_nan"] = _v(D.Wishart(torch.tensor(3.5), covariance_matrix=S).mode)
        torch.manual_seed(27)
        s, ws = _warned(lambda: d.sample((3, 2)))
        o["sample_shape"] = [list(s.shape), ws, _v(C.positive_definite.check(s))]
        torch.manual_seed(28)
        big = D.Wishart(torch.tensor(6.0), covariance_matrix=S)
        bs = _warned(lambda: big.sample((2000,)))[0]
        o["stats"] = [_v(bs.mean(0)), _v(big.mean)]
        o["expfam_entropy"] = _v(D.ExponentialFamily.entropy(d))
        o["mvdigamma_err"] = _caught(lambda: D.wishart._mvdigamma(torch.tensor([0.5]), 3))
        return o
    out["wishart_more"] = _caught(wishart_more)

    def wishart_grad_shapes():
        o = {}
        for batch_df in (torch.tensor([4.0, 5.0]), torch.tensor(4.5)):
            for shape in [(), (3,), (2, 2)]:
                torch.manual_seed(30)
                Sg = S.clone().requires_grad_()
                d = D.Wishart(batch_df, covariance_matrix=Sg)
                r, ws = _warned(lambda: d.rsample(shape))
                o[f"{list(batch_df.shape)}{list(shape)}"] = [
                    list(r.shape), _v(r), ws, type(r.grad_fn).__name__,
                    _caught(lambda: [_v(y) for y in torch.autograd.grad(r.sum(), Sg)])]
        torch.manual_seed(31)
        o["max_try_0"] = _v(_warned(lambda: D.Wishart(torch.tensor(4.0), covariance_matrix=S).rsample(
            (2,), max_try_correction=0))[0])
        return o
    out["wishart_grad_shapes"] = _caught(wishart_grad_shapes)

    # ---- validation errors
    for name, f in {
        "weibull_scale": lambda: D.Weibull(torch.tensor([-1.0]), torch.tensor([1.0])),
        "weibull_conc": lambda: D.Weibull(torch.tensor([1.0]), torch.tensor([0.0])),
        "weibull_value": lambda: D.Weibull(torch.tensor([1.0]), torch.tensor([1.0])).log_prob(torch.tensor([-1.0])),
        "pareto_alpha": lambda: D.Pareto(torch.tensor([1.0]), torch.tensor([-1.0])),
        "pareto_value": lambda: D.Pareto(torch.tensor([2.0]), torch.tensor([1.0])).log_prob(torch.tensor([1.0])),
        "halfcauchy_scale": lambda: D.HalfCauchy(torch.tensor([0.0])),
        "halfcauchy_value": lambda: D.HalfCauchy(torch.tensor([1.0])).log_prob(torch.tensor([-1.0])),
        "invgamma_conc": lambda: D.InverseGamma(torch.tensor([-1.0]), torch.tensor([1.0])),
        "invgamma_value": lambda: D.InverseGamma(torch.tensor([1.0]), torch.tensor([1.0])).log_prob(torch.tensor([0.0])),
        "kuma_conc": lambda: D.Kumaraswamy(torch.tensor([1.0]), torch.tensor([-1.0])),
        "kuma_value": lambda: D.Kumaraswamy(torch.tensor([1.0]), torch.tensor([1.0])).log_prob(torch.tensor([1.5])),
        "fisher_df": lambda: D.FisherSnedecor(torch.tensor([0.0]), torch.tensor([1.0])),
        "fisher_value": lambda: D.FisherSnedecor(torch.tensor([1.0]), torch.tensor([1.0])).log_prob(torch.tensor([-1.0])),
        "genpareto_scale": lambda: D.GeneralizedPareto(torch.tensor([0.0]), torch.tensor([-1.0]), torch.tensor([0.0])),
        "genpareto_value": lambda: D.GeneralizedPareto(torch.tensor([0.0]), torch.tensor([1.0]),
                                                       torch.tensor([0.0])).log_prob(torch.tensor([-1.0])),
        "contbern_both": lambda: D.ContinuousBernoulli(probs=torch.tensor([0.5]), logits=torch.tensor([0.0])),
        "contbern_none": lambda: D.ContinuousBernoulli(),
        "contbern_probs": lambda: D.ContinuousBernoulli(torch.tensor([1.5])),
        "contbern_probs_explicit": lambda: D.ContinuousBernoulli(torch.tensor([1.5]), validate_args=True),
        "contbern_value": lambda: D.ContinuousBernoulli(torch.tensor([0.3])).log_prob(torch.tensor([1.5])),
        "vonmises_conc": lambda: D.VonMises(torch.tensor([0.0]), torch.tensor([-1.0])),
        "vonmises_loc": lambda: D.VonMises(torch.tensor([float("nan")]), torch.tensor([1.0])),
        "vonmises_cdf": lambda: D.VonMises(torch.tensor([0.0]), torch.tensor([1.0])).cdf(torch.tensor([0.0])),
        "vonmises_entropy": lambda: D.VonMises(torch.tensor([0.0]), torch.tensor([1.0])).entropy(),
        "negbin_both": lambda: D.NegativeBinomial(3, probs=torch.tensor([0.5]), logits=torch.tensor([0.0])),
        "negbin_count": lambda: D.NegativeBinomial(torch.tensor([-1.0]), torch.tensor([0.5])),
        "negbin_probs": lambda: D.NegativeBinomial(torch.tensor([1.0]), torch.tensor([1.0])),
        "negbin_value": lambda: D.NegativeBinomial(torch.tensor([1.0]), torch.tensor([0.5])).log_prob(torch.tensor([1.5])),
        "negbin_rsample": lambda: D.NegativeBinomial(torch.tensor([1.0]), torch.tensor([0.5])).rsample(),
        "logisticnormal_scale": lambda: D.LogisticNormal(torch.tensor([0.0, 0.0]), torch.tensor([1.0, -1.0])),
        "logisticnormal_value": lambda: D.LogisticNormal(torch.tensor([0.0, 0.0]),
                                                         torch.tensor([1.0, 1.0])).log_prob(torch.tensor([0.5, 0.6, 0.2])),
        "lkj_dim": lambda: D.LKJCholesky(1, 1.0),
        "lkj_conc": lambda: D.LKJCholesky(3, torch.tensor([-1.0])),
        "lkj_value": lambda: D.LKJCholesky(2, 1.0).log_prob(torch.tensor([[1.0, 0.0], [0.5, 0.5]])),
        "lkj_mean": lambda: D.LKJCholesky(2, 1.0).mean,
        "wishart_none": lambda: D.Wishart(torch.tensor(3.0)),
        "wishart_two": lambda: D.Wishart(torch.tensor(3.0), covariance_matrix=S, scale_tril=S),
        "wishart_1d": lambda: D.Wishart(torch.tensor(3.0), covariance_matrix=torch.ones(3)),
        "wishart_df": lambda: D.Wishart(torch.tensor(1.5), covariance_matrix=S),
        "wishart_df_num": lambda: D.Wishart(2, covariance_matrix=S),
        "wishart_not_pd": lambda: D.Wishart(torch.tensor(4.0), covariance_matrix=torch.tensor([[1.0, 2.0], [2.0, 1.0]])),
        "wishart_tril": lambda: D.Wishart(torch.tensor(4.0), scale_tril=torch.tensor([[1.0, 0.5], [0.0, 1.0]])),
        "wishart_value": lambda: D.Wishart(torch.tensor(4.0), covariance_matrix=S).log_prob(-X),
    }.items():
        out["err_" + name] = _caught(lambda: _plain(f()))

    # ---- biject_to / transform_to
    def registry():
        o = {}
        x = torch.tensor([[-1.0, 0.0, 0.5], [2.0, -0.5, 1.0]])
        cons = {"real": C.real, "positive": C.positive, "nonnegative": C.nonnegative, "gt": C.greater_than(1.5),
                "gte": C.greater_than_eq(-2.0), "lt": C.less_than(3.0), "unit": C.unit_interval,
                "interval": C.interval(-1.0, 2.0), "half_open": C.half_open_interval(0.0, 1.0),
                "interval_t": C.interval(torch.tensor([0.0, 1.0, 2.0]), torch.tensor([1.0, 3.0, 2.5])),
                "real_vector": C.real_vector, "indep_pos": C.independent(C.positive, 1),
                "simplex": C.simplex,
                "cat": C.cat([C.positive, C.real, C.unit_interval], 1, [1, 1, 1]),
                "stack": C.stack([C.positive, C.real], 0)}
        for k, c in cons.items():
            r = {}
            for reg_name, reg in (("biject", D.biject_to), ("transform", D.transform_to)):
                def one():
                    tr = reg(c)
                    y = tr(x)
                    res = {"repr": repr(tr), "type": type(tr).__name__, "y": _v(y), "yshape": list(y.shape),
                           "in": _v(c.check(y)), "bijective": bool(tr.bijective),
                           "event_dim": tr.codomain.event_dim}
                    res["inv"] = _caught(lambda: _v(tr.inv(y)))
                    res["ladj"] = _caught(lambda: _v(tr.log_abs_det_jacobian(x, y)))
                    return res
                r[reg_name] = _caught(one)
            o[k] = r
        m = torch.tensor([[0.5, 2.0], [-1.0, 0.1]])
        for k, c in {"lower_cholesky": C.lower_cholesky, "pd": C.positive_definite, "psd": C.positive_semidefinite}.items():
            o[k] = {"biject": _caught(lambda: repr(D.biject_to(c))),
                    "transform": _caught(lambda: [repr(D.transform_to(c)), _v(D.transform_to(c)(m)),
                                                  _v(c.check(D.transform_to(c)(m)))])}
        cv = torch.tensor([[0.3, -0.5, 1.2], [2.0, 0.0, -1.0]])
        cc = D.biject_to(C.corr_cholesky)
        cy = cc(cv)
        o["corr_cholesky"] = [repr(cc), _v(cy), _v(C.corr_cholesky.check(cy)), _v(cc.inv(cy)),
                              _v(cc.log_abs_det_jacobian(cv, cy)), repr(D.transform_to(C.corr_cholesky))]
        sv = torch.tensor([0.3, -0.5, 1.2])
        o["simplex_biject"] = [_v(D.biject_to(C.simplex)(sv)), _v(D.biject_to(C.simplex).inv(D.biject_to(C.simplex)(sv))),
                               _v(D.transform_to(C.simplex)(sv))]
        # distributions' supports and parameter constraints
        dists = {"weibull": D.Weibull(torch.tensor([1.0]), torch.tensor([2.0])),
                 "beta": D.Beta(torch.tensor([1.0]), torch.tensor([2.0])),
                 "pareto": D.Pareto(torch.tensor([1.0, 2.0]), torch.tensor([2.0, 3.0])),
                 "genpareto": D.GeneralizedPareto(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]), torch.tensor([-0.5, 0.5])),
                 "dirichlet": D.Dirichlet(torch.tensor([1.0, 2.0, 3.0])),
                 "lkj": D.LKJCholesky(3, 1.0), "uniform": D.Uniform(torch.tensor([0.0, 1.0]), torch.tensor([2.0, 4.0]))}
        sup = {}
        for k, d in dists.items():
            def one():
                tr = D.biject_to(d.support)
                shape = tuple(d.batch_shape) + tuple(tr.inverse_shape(d.event_shape))
                u = torch.linspace(-1.5, 1.5, math.prod(shape)).reshape(shape)
                y = tr(u)
                return [repr(tr), _v(y), _v(d.support.check(y)), _v(tr.inv(y)), _v(d.log_prob(y))]
            sup[k] = _caught(one)
        o["supports"] = sup
        o["params"] = {k: repr(D.transform_to(c)) for k, c in D.Wishart.arg_constraints.fget(
            D.Wishart(torch.tensor(4.0), covariance_matrix=S)).items()}
        o["params_gamma"] = {k: repr(D.biject_to(c)) for k, c in D.Gamma.arg_constraints.items()}
        o["missing"] = _caught(lambda: D.biject_to(C.lower_cholesky))
        o["missing2"] = _caught(lambda: D.biject_to(C.boolean))
        o["missing3"] = _caught(lambda: D.transform_to(C.nonnegative_integer))
        o["dependent"] = _caught(lambda: D.biject_to(C.dependent))
        o["bad_register"] = _caught(lambda: D.biject_to.register(3, lambda c: None))
        reg = torch.distributions.constraint_registry.ConstraintRegistry()

        class MyConstraint(C.Constraint):
            def check(self, value):
                return value > 5

        reg.register(MyConstraint, lambda c: T.AffineTransform(5.0, 1.0))

        @reg.register(C.positive)
        def _pos(c):
            return T.SoftplusTransform()
        o["custom"] = [repr(reg(MyConstraint())), repr(reg(C.positive)), repr(reg(C.greater_than(2.0))),
                       _caught(lambda: reg(C.real)), type(reg).__name__,
                       sorted(torch.distributions.constraint_registry.__all__)]
        o["same"] = [D.biject_to is torch.distributions.constraint_registry.biject_to,
                     D.transform_to is torch.distributions.constraint_registry.transform_to]
        return o
    out["registry"] = _caught(registry)

    # ---- kl_divergence
    def kl():
        a = torch.tensor([0.5, 2.0, 3.0])
        b = torch.tensor([1.5, 0.7, 2.5])
        N = D.Normal(torch.tensor([0.0, 1.0, 0.5]), a)
        cb_p = D.ContinuousBernoulli(torch.tensor([0.2, 0.5, 0.8]))
        cb_q = D.ContinuousBernoulli(logits=torch.tensor([1.0, -0.5, 0.0]))
        par_p = D.Pareto(torch.tensor([1.0, 2.0, 0.5]), torch.tensor([0.8, 2.5, 3.0]))
        par_q = D.Pareto(torch.tensor([0.5, 2.5, 0.5]), torch.tensor([1.5, 1.0, 4.0]))
        U = D.Uniform(torch.tensor([0.2, 0.0, 1.0]), torch.tensor([0.7, 1.0, 3.0]))
        pairs = {
            "cb_cb": (cb_p, cb_q), "cb_exp": (cb_p, D.Exponential(a)), "cb_normal": (cb_p, N),
            "cb_unif": (cb_p, D.Uniform(torch.tensor([0.0, -1.0, 0.1]), torch.tensor([1.0, 2.0, 0.9]))),
            "cb_pareto": (cb_p, par_q), "beta_cb": (D.Beta(a, b), cb_q), "unif_cb": (U, cb_q),
            "unif_cb_in": (D.Uniform(torch.tensor([0.2, 0.1, 0.3]), torch.tensor([0.7, 0.9, 0.4])), cb_q),
            "pareto_pareto": (par_p, par_q), "pareto_exp": (par_p, D.Exponential(b)), "pareto_gamma": (par_p, D.Gamma(a, b)),
            "pareto_normal": (par_p, N), "pareto_beta": (par_p, D.Beta(a, b)), "pareto_cb": (par_p, cb_q),
            "pareto_unif": (par_p, U), "unif_pareto": (D.Uniform(torch.tensor([1.0, 3.0, 0.2]), torch.tensor([2.0, 4.0, 1.0])), par_q),
            "beta_pareto": (D.Beta(a, b), par_q), "exp_pareto": (D.Exponential(a), par_q), "exp_cb": (D.Exponential(a), cb_q),
            "gamma_pareto": (D.Gamma(a, b), par_q), "gamma_cb": (D.Gamma(a, b), cb_q),
            "gumbel_pareto": (D.Gumbel(a, b), par_q), "gumbel_cb": (D.Gumbel(a, b), cb_q),
            "laplace_pareto": (D.Laplace(a, b), par_q), "laplace_cb": (D.Laplace(a, b), cb_q),
            "normal_pareto": (N, par_q), "normal_cb": (N, cb_q),
            "weibull_weibull": (D.Weibull(a, b), D.Weibull(a, b)),
            "weibull_weibull_diff": (D.Weibull(a, b), D.Weibull(b, a)),
            "halfcauchy": (D.HalfCauchy(a), D.HalfCauchy(b)),
            "invgamma": (D.InverseGamma(a, b), D.InverseGamma(b, a)),
            "logisticnormal": (D.LogisticNormal(torch.zeros(2), a[:2]), D.LogisticNormal(torch.ones(2), b[:2])),
            "kuma_kuma": (D.Kumaraswamy(a, b), D.Kumaraswamy(a, b)),
            "wishart": (D.Wishart(torch.tensor([4.0, 6.0]), covariance_matrix=S),
                        D.Wishart(torch.tensor([5.0, 3.5]), scale_tril=torch.linalg.cholesky(X))),
            "vonmises": (D.VonMises(a, b), D.VonMises(b, a)),
            "negbin": (D.NegativeBinomial(a, torch.tensor([0.2, 0.5, 0.3])), D.NegativeBinomial(b, torch.tensor([0.2, 0.5, 0.3]))),
            "fisher": (D.FisherSnedecor(a, b), D.FisherSnedecor(b, a)),
            "genpareto": (D.GeneralizedPareto(a, b, a), D.GeneralizedPareto(a, b, b)),
            "lkj": (D.LKJCholesky(3, 1.0), D.LKJCholesky(3, 2.0)),
        }
        o = {k: _caught(lambda: _v(D.kl_divergence(p, q))) for k, (p, q) in pairs.items()}
        cp = torch.tensor([0.2, 0.7], requires_grad=True)
        ql = torch.tensor([0.5, -1.0], requires_grad=True)
        o["cb_grad"] = [_v(y) for y in torch.autograd.grad(
            D.kl_divergence(D.ContinuousBernoulli(cp), D.ContinuousBernoulli(logits=ql)).sum(), (cp, ql))]
        sa = torch.tensor([1.0, 2.0], requires_grad=True)
        al = torch.tensor([3.0, 4.0], requires_grad=True)
        o["pareto_grad"] = [_v(y) for y in torch.autograd.grad(
            D.kl_divergence(D.Pareto(sa, al), D.Pareto(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 2.0]))).sum(), (sa, al))]
        return o
    out["kl"] = _caught(kl)

    # ---- float64 parameters keep their dtype
    def float64():
        o = {}
        p64 = torch.tensor([0.5, 2.0], dtype=torch.float64)
        v64 = torch.tensor([0.3, 0.6], dtype=torch.float64)
        torch.manual_seed(29)
        for k, d in {"weibull": D.Weibull(p64, p64 + 1), "kuma": D.Kumaraswamy(p64, p64 + 1),
                     "contbern": D.ContinuousBernoulli(v64), "genpareto": D.GeneralizedPareto(p64 - 1, p64, p64 - 0.5),
                     "fisher": D.FisherSnedecor(p64, p64 + 1), "vonmises": D.VonMises(p64, p64),
                     "negbin": D.NegativeBinomial(p64, v64), "pareto": D.Pareto(p64, p64),
                     "invgamma": D.InverseGamma(p64, p64), "halfcauchy": D.HalfCauchy(p64),
                     "lkj": D.LKJCholesky(2, p64)}.items():
            s = d.sample((2,))
            o[k] = [str(s.dtype), _v(s), _caught(lambda: [str(d.log_prob(s).dtype), _v(d.log_prob(s))])]
        return o
    out["float64"] = _caught(float64)
    return out
