"""torch.distributions: Categorical, Normal, Bernoulli, Uniform (samples from seeded streams,
log_prob, entropy, cdf/icdf, mean/mode/variance, enumerate_support, gradients of log_prob
and rsample), kl_divergence, argument and sample validation errors, reprs. Run with
``torch`` bound to PyTorch (tools/record_distributions_goldens.py records
fixtures/distributions.json) or to ferrograd (test_distributions.py compares)."""


def _v(t):
    if isinstance(t, float):
        return t if t == t else "nan"
    return [v if v == v else "nan" for v in t.detach().double().flatten().tolist()]


def _caught(f):
    try:
        return f()
    except Exception as e:  # noqa: BLE001 - PyTorch's error is the result
        return {"error": [type(e).__name__, str(e).replace("ferrograd", "torch")]}


def run(torch):
    D = torch.distributions
    out = {}
    probs = torch.tensor([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]])
    logits = torch.tensor([[1.0, -0.5, 0.25], [0.0, 2.0, -1.0]])

    def cat(kind):
        torch.manual_seed(0)
        p = (probs if kind == "probs" else logits).clone().requires_grad_()
        c = D.Categorical(**{kind: p})
        s = c.sample()
        s23 = c.sample((2, 3))
        lp = c.log_prob(torch.tensor([2, 0]))
        ent = c.entropy()
        g, = torch.autograd.grad(lp.sum() + ent.sum(), p)
        return {"repr": repr(c), "sample": _v(s), "s23": _v(s23), "shape": list(s23.shape), "lp": _v(lp), "ent": _v(ent),
                "grad": _v(g), "mode": _v(c.mode), "mean": _v(c.mean), "support": _v(c.enumerate_support()),
                "probs": _v(c.probs), "logits": _v(c.logits), "batch": list(c.batch_shape), "event": list(c.event_shape),
                "perplexity": _v(c.perplexity())}
    out["cat_probs"] = _caught(lambda: cat("probs"))
    out["cat_logits"] = _caught(lambda: cat("logits"))

    def normal():
        torch.manual_seed(1)
        loc = torch.tensor([0.0, 1.0, -2.0], requires_grad=True)
        scale = torch.tensor([1.0, 0.5, 2.0], requires_grad=True)
        n = D.Normal(loc, scale)
        s = n.sample((4,))
        r = n.rsample((2,))
        lp = n.log_prob(torch.tensor([0.5, 0.5, 0.5]))
        g = torch.autograd.grad(lp.sum() + r.sum() + n.entropy().sum(), (loc, scale))
        return {"repr": repr(n), "sample": _v(s), "rsample": _v(r), "lp": _v(lp), "grad": [_v(x) for x in g],
                "cdf": _v(n.cdf(torch.tensor([0.0, 1.0, 0.0]))), "icdf": _v(n.icdf(torch.tensor([0.1, 0.5, 0.9]))),
                "mean": _v(n.mean), "stddev": _v(n.stddev), "var": _v(n.variance), "ent": _v(n.entropy())}
    out["normal"] = _caught(normal)

    def normal_scalar():
        torch.manual_seed(2)
        n = D.Normal(0.0, 2.0)
        return {"repr": repr(n), "sample": _v(n.sample((3,))), "batch": list(n.batch_shape), "lp": _v(n.log_prob(torch.tensor(1.0)))}
    out["normal_scalar"] = _caught(normal_scalar)

    def bern():
        torch.manual_seed(3)
        p = torch.tensor([0.2, 0.5, 0.9], requires_grad=True)
        b = D.Bernoulli(probs=p)
        s = b.sample((2,))
        lp = b.log_prob(torch.tensor([1.0, 0.0, 1.0]))
        g, = torch.autograd.grad(lp.sum() + b.entropy().sum(), p)
        bl = D.Bernoulli(logits=torch.tensor([0.0, -1.0]))
        return {"repr": repr(b), "sample": _v(s), "lp": _v(lp), "grad": _v(g), "mode": _v(b.mode), "var": _v(b.variance),
                "logits": _v(b.logits), "bl_probs": _v(bl.probs), "bl_sample": _v(bl.sample()), "support": _v(b.enumerate_support())}
    out["bernoulli"] = _caught(bern)

    def unif():
        torch.manual_seed(4)
        lo = torch.tensor([0.0, -1.0], requires_grad=True)
        u = D.Uniform(lo, torch.tensor([1.0, 3.0]))
        r = u.rsample((3,))
        g, = torch.autograd.grad(r.sum(), lo)
        return {"repr": repr(u), "rsample": _v(r), "grad": _v(g), "lp": _v(u.log_prob(torch.tensor([0.5, 2.0]))),
                "cdf": _v(u.cdf(torch.tensor([0.5, 5.0]))), "ent": _v(u.entropy()), "mean": _v(u.mean), "var": _v(u.variance)}
    out["uniform"] = _caught(unif)
    out["kl_normal"] = _caught(lambda: _v(D.kl_divergence(D.Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0])),
                                                          D.Normal(torch.tensor([1.0, 1.0]), torch.tensor([0.5, 2.0])))))
    out["kl_cat"] = _caught(lambda: _v(D.kl_divergence(D.Categorical(probs=probs), D.Categorical(logits=logits))))
    out["kl_cat_zero"] = _caught(lambda: _v(D.kl_divergence(D.Categorical(probs=torch.tensor([0.5, 0.5, 0.0])),
                                                            D.Categorical(probs=torch.tensor([0.0, 0.5, 0.5])))))
    out["kl_bern"] = _caught(lambda: _v(D.kl_divergence(D.Bernoulli(torch.tensor([0.3, 0.0])), D.Bernoulli(torch.tensor([0.6, 0.5])))))
    out["kl_unif"] = _caught(lambda: _v(D.kl_divergence(D.Uniform(0.0, 1.0), D.Uniform(-1.0, 2.0))))
    out["kl_missing"] = _caught(lambda: D.kl_divergence(D.Normal(0.0, 1.0), D.Categorical(probs=probs)))
    # validation
    for name, f in {
        "cat_both": lambda: D.Categorical(probs=probs, logits=logits),
        "cat_none": lambda: D.Categorical(),
        "cat_0d": lambda: D.Categorical(probs=torch.tensor(1.0)),
        "cat_negative": lambda: D.Categorical(probs=torch.tensor([0.5, -0.1, 0.6])),
        "cat_bad_value": lambda: D.Categorical(probs=probs).log_prob(torch.tensor([3, 0])),
        "cat_bad_shape": lambda: D.Categorical(probs=probs).log_prob(torch.tensor([0, 1, 2])),
        "normal_scale": lambda: D.Normal(torch.tensor([0.0]), torch.tensor([-1.0])),
        "normal_nan": lambda: D.Normal(torch.tensor([float("nan")]), torch.tensor([1.0])),
        "normal_not_tensor": lambda: D.Normal(0.0, 1.0).log_prob(0.5),
        "bern_probs": lambda: D.Bernoulli(torch.tensor([1.5])),
        "bern_value": lambda: D.Bernoulli(torch.tensor([0.5])).log_prob(torch.tensor([0.5])),
        "uniform_order": lambda: D.Uniform(1.0, 0.0),
        "no_validate": lambda: repr(D.Normal(torch.tensor([0.0]), torch.tensor([-1.0]), validate_args=False)),
    }.items():
        out[name] = _caught(f)
    return out
