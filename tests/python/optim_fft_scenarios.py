"""Adafactor, SparseAdam, ``optim.swa_utils`` (AveragedModel, SWALR, update_bn, the averaging
functions) and ``torch.fft`` (every transform with ``n``/``s``, ``dim``, ``norm``; dtypes;
errors; the gradients of real-valued losses). Run with ``torch`` bound to PyTorch
(tools/record_optim_fft_goldens.py records fixtures/optim_fft.json) or to ferrograd
(test_optim_fft.py compares)."""

import math
import warnings


def _num(v):
    return v if v == v else "nan"


def _v(t):
    t = t.detach()
    if t.is_complex():
        return [_num(p) for z in t.resolve_conj().flatten().tolist() for p in (z.real, z.imag)]
    return [_num(v) for v in t.double().flatten().tolist()]


def _t(t):
    return {"v": _v(t), "shape": list(t.shape), "dtype": str(t.dtype).split(".")[-1]}


def _j(obj):
    """A JSON-able form of results holding tensors, dicts, tuples."""
    if hasattr(obj, "grad_fn") and hasattr(obj, "dtype"):
        return _t(obj)
    if isinstance(obj, dict):
        return {str(k): _j(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_j(v) for v in obj]
    if isinstance(obj, float) and obj != obj:
        return "nan"
    return obj


def _caught(f):
    try:
        return f()
    except Exception as e:  # noqa: BLE001 - PyTorch's error is the result
        return {"error": [type(e).__name__, str(e)]}


def _data(torch, shape, seed=0, dtype=None):
    """Deterministic, irregular values (no RNG) of the given shape."""
    n = 1
    for s in shape:
        n *= s
    i = torch.arange(n, dtype=torch.float64)
    x = torch.sin(i * (0.37 + 0.11 * seed) + 0.3 * seed + 0.1) * 1.7 + torch.cos(i * 1.93 + seed) * 0.6
    return x.reshape(shape).to(dtype or torch.float32)


def _cdata(torch, shape, seed=0, dtype=None):
    real = torch.float64 if dtype == torch.complex128 else torch.float32
    return torch.complex(_data(torch, shape, seed, real), _data(torch, shape, seed + 7, real))


# --- optimizers ------------------------------------------------------------------------------


def _adafactor_run(torch, steps=5, dtype=None, **kw):
    dtype = dtype or torch.float32
    w = _data(torch, (3, 4), 1, dtype).requires_grad_()
    b = _data(torch, (4,), 2, dtype).requires_grad_()
    t = _data(torch, (2, 3, 4), 3, dtype).requires_grad_()
    x = _data(torch, (6, 3), 4, dtype)
    opt = torch.optim.Adafactor([w, b, t], **kw)
    losses = []
    for k in range(steps):
        opt.zero_grad()
        y = x @ w + b
        loss = (y * y).mean() + (t * t * (k + 1)).sum() * 0.1 + (t[0] * y[:3, :] ).sum() * 0.05
        loss.backward()
        opt.step()
        losses.append(loss.item())
    sd = opt.state_dict()
    return {"params": [_v(w), _v(b), _v(t)], "losses": losses, "state": _j(sd["state"]),
            "groups": _j(sd["param_groups"])}


def _adafactor_groups(torch):
    a = _data(torch, (3, 5), 5).requires_grad_()
    b = _data(torch, (5,), 6).requires_grad_()
    opt = torch.optim.Adafactor([{"params": [a]}, {"params": [b], "lr": 0.05, "weight_decay": 0.1}],
                                eps=(1e-20, 1e-2), d=1.5)
    for k in range(4):
        opt.zero_grad()
        ((a.sum(0) * b).sum() ** 2 + (a ** 3).sum() * (k + 1)).backward()
        opt.step()
    return {"a": _v(a), "b": _v(b), "repr": repr(opt), "state_keys": [sorted(s) for s in opt.state.values()]}


def _adafactor_closure(torch):
    w = _data(torch, (4, 2), 8).requires_grad_()
    opt = torch.optim.Adafactor([w], lr=0.1)

    def closure():
        opt.zero_grad()
        loss = (w.sum(1) ** 2).sum()
        loss.backward()
        return loss

    losses = [opt.step(closure).item() for _ in range(3)]
    return {"w": _v(w), "losses": losses}


def _adafactor_load(torch):
    w = _data(torch, (3, 3), 9).requires_grad_()
    opt = torch.optim.Adafactor([w])
    (w ** 2).sum().backward()
    opt.step()
    w2 = w.detach().clone().requires_grad_()
    opt2 = torch.optim.Adafactor([w2])
    opt2.load_state_dict(opt.state_dict())
    for o, p in ((opt, w), (opt2, w2)):
        o.zero_grad()
        (p ** 3).sum().backward()
        o.step()
    return [_v(w), _v(w2), _j(opt2.state_dict()["state"])]


def _adafactor_errors(torch):
    p = [torch.zeros(2, requires_grad=True)]
    cases = {
        "lr": lambda: torch.optim.Adafactor(p, lr=-1.0),
        "lr_tensor": lambda: torch.optim.Adafactor(p, lr=torch.tensor([0.1, 0.2])),
        "beta2_decay": lambda: torch.optim.Adafactor(p, beta2_decay=0.5),
        "eps1": lambda: torch.optim.Adafactor(p, eps=(-1.0, 1e-3)),
        "eps2": lambda: torch.optim.Adafactor(p, eps=(None, -1e-3)),
        "d": lambda: torch.optim.Adafactor(p, d=0.5),
        "wd": lambda: torch.optim.Adafactor(p, weight_decay=-0.1),
        "empty": lambda: torch.optim.Adafactor([]),
        "defaults": lambda: _j(torch.optim.Adafactor(p).defaults),
        "module": lambda: torch.optim.Adafactor.__module__,
    }

    def complex_param():
        c = torch.zeros(2, dtype=torch.complex64, requires_grad=True)
        opt = torch.optim.Adafactor([c])
        c.grad = torch.ones(2, dtype=torch.complex64)
        opt.step()
    cases["complex"] = complex_param
    return {k: _caught(f) for k, f in cases.items()}


def _sparse_adam(torch):
    p = [torch.zeros(2, requires_grad=True)]
    cases = {
        "lr": lambda: torch.optim.SparseAdam(p, lr=0.0),
        "eps": lambda: torch.optim.SparseAdam(p, eps=0.0),
        "beta0": lambda: torch.optim.SparseAdam(p, betas=(1.0, 0.9)),
        "beta1": lambda: torch.optim.SparseAdam(p, betas=(0.9, -0.1)),
        "complex": lambda: torch.optim.SparseAdam([torch.zeros(2), torch.zeros(1, dtype=torch.complex64)]),
        "defaults": lambda: _j(torch.optim.SparseAdam(p).defaults),
        "no_grad_step": lambda: torch.optim.SparseAdam(p).step(),
    }

    def dense():
        w = torch.ones(3, requires_grad=True)
        opt = torch.optim.SparseAdam([w])
        (w * 2).sum().backward()
        opt.step()
    cases["dense"] = dense
    return {k: _caught(f) for k, f in cases.items()}


# --- swa_utils -------------------------------------------------------------------------------


def _model(torch, seed=0):
    nn = torch.nn
    m = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2))
    with torch.no_grad():
        for k, p in enumerate(m.parameters()):
            p.copy_(_data(torch, tuple(p.shape), seed + k))
    return m


def _evolve(torch, model, k):
    """One 'training step': move the weights and run a batch (BN statistics change)."""
    with torch.no_grad():
        for j, p in enumerate(model.parameters()):
            p.add_(_data(torch, tuple(p.shape), 10 + j + k) * 0.3)
    model.train()
    model(_data(torch, (5, 3), 20 + k))


def _averaged(torch, make, steps=4):
    model = _model(torch)
    avg = make(model)
    out = {"n0": avg.n_averaged.item()}
    for k in range(steps):
        _evolve(torch, model, k)
        avg.update_parameters(model)
    out["n"] = avg.n_averaged.item()
    out["state"] = _j(dict(avg.state_dict()))
    avg.eval()
    out["forward"] = _v(avg(_data(torch, (2, 3), 30)))
    return out


def _swa_cases(torch):
    su = torch.optim.swa_utils
    out = {}
    out["swa"] = _caught(lambda: _averaged(torch, lambda m: su.AveragedModel(m)))
    out["swa_buffers"] = _caught(lambda: _averaged(torch, lambda m: su.AveragedModel(m, use_buffers=True)))
    out["ema_multi"] = _caught(lambda: _averaged(
        torch, lambda m: su.AveragedModel(m, multi_avg_fn=su.get_ema_multi_avg_fn(0.9))))
    out["ema_multi_buffers"] = _caught(lambda: _averaged(
        torch, lambda m: su.AveragedModel(m, multi_avg_fn=su.get_ema_multi_avg_fn(0.75), use_buffers=True)))
    out["ema_avg_fn"] = _caught(lambda: _averaged(
        torch, lambda m: su.AveragedModel(m, avg_fn=su.get_ema_avg_fn(0.8))))
    out["swa_avg_fn"] = _caught(lambda: _averaged(
        torch, lambda m: su.AveragedModel(m, avg_fn=su.get_swa_avg_fn(), use_buffers=True)))
    out["swa_multi"] = _caught(lambda: _averaged(
        torch, lambda m: su.AveragedModel(m, multi_avg_fn=su.get_swa_multi_avg_fn())))
    out["custom_avg_fn"] = _caught(lambda: _averaged(
        torch, lambda m: su.AveragedModel(m, avg_fn=lambda a, p, n: a * 0.5 + p * 0.5 + n)))
    out["both_fns"] = _caught(lambda: su.AveragedModel(_model(torch), avg_fn=su.get_swa_avg_fn(),
                                                       multi_avg_fn=su.get_swa_multi_avg_fn()))
    out["ema_decay"] = _caught(lambda: su.get_ema_multi_avg_fn(1.5))
    out["ema_avg_decay"] = _caught(lambda: su.get_ema_avg_fn(-0.1))
    out["repr"] = repr(su.AveragedModel(torch.nn.Linear(2, 1)))
    out["n_averaged"] = _caught(lambda: [str(su.AveragedModel(torch.nn.Linear(2, 1)).n_averaged.dtype),
                                         [k for k, _ in su.AveragedModel(torch.nn.Linear(2, 1)).named_buffers()],
                                         len(list(su.AveragedModel(torch.nn.Linear(2, 1)).parameters()))])

    def ema_fns_direct():
        a = [_data(torch, (3,), 1), torch.tensor([4, 8])]
        b = [_data(torch, (3,), 2), torch.tensor([10, 2])]
        su.get_ema_multi_avg_fn(0.5)(a[:1], b[:1], None)
        su.get_ema_multi_avg_fn(0.5)(a[1:], b[1:], None)
        su.get_swa_multi_avg_fn()(a[:1], b[:1], torch.tensor(2))
        su.get_swa_multi_avg_fn()(a[:1], b[:1], 3)
        r = su.get_ema_avg_fn(0.25)(a[0], b[0], 1)
        s = su.get_swa_avg_fn()(a[0], b[0], torch.tensor(1))
        return [_j(a), _j(r), _j(s)]
    out["fns_direct"] = _caught(ema_fns_direct)
    out["swa_multi_int_tensor"] = _caught(
        lambda: su.get_swa_multi_avg_fn()([torch.tensor([4, 8])], [torch.tensor([10, 2])], torch.tensor(1)))

    def bn_only():
        m = torch.nn.BatchNorm1d(2)
        avg = su.AveragedModel(m, use_buffers=True)
        for k in range(3):
            m.train()
            m(torch.arange(6.0).reshape(3, 2) * (k + 1))
            avg.update_parameters(m)
        return _j(dict(avg.state_dict()))
    out["bn_int_buffer"] = _caught(bn_only)
    out["swa_multi_int"] = _caught(lambda: su.get_swa_multi_avg_fn()([torch.tensor([4, 8])], [torch.tensor([10, 2])], 1))

    def grad_after():
        m = torch.nn.Linear(2, 1)
        avg = su.AveragedModel(m)
        avg.update_parameters(m)
        y = avg(torch.ones(1, 2)).sum()
        y.backward()
        return [p.grad is not None for p in avg.parameters()] + [p.requires_grad for p in avg.parameters()]
    out["grad_after"] = _caught(grad_after)
    return out


def _update_bn(torch):
    su = torch.optim.swa_utils
    out = {}
    model = _model(torch)
    bn = model[1]
    bn.momentum = 0.3
    model.eval()
    loader = [_data(torch, (4, 3), 40 + k) for k in range(3)]
    su.update_bn(loader, model)
    out["tensor_batches"] = [_v(bn.running_mean), _v(bn.running_var), bn.num_batches_tracked.item(),
                             bn.momentum, model.training]
    loader2 = [(_data(torch, (2, 3), 50 + k), torch.zeros(2)) for k in range(2)] + [[_data(torch, (3, 3), 60)]]
    model.train()
    su.update_bn(loader2, model)
    out["tuple_batches"] = [_v(bn.running_mean), _v(bn.running_var), bn.num_batches_tracked.item(),
                            bn.momentum, model.training]
    lin = torch.nn.Linear(3, 2)
    out["no_bn"] = _caught(lambda: su.update_bn([None], lin))
    m2 = torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3), torch.nn.BatchNorm2d(2))
    with torch.no_grad():
        m2[0].weight.copy_(_data(torch, (2, 1, 3, 3), 3))
        m2[0].bias.zero_()
    su.update_bn([_data(torch, (2, 1, 5, 5), 70)], m2, device="cpu")
    out["bn2d"] = [_v(m2[1].running_mean), _v(m2[1].running_var)]
    return out


def _swalr_run(torch, n_steps=9, groups=1, **kw):
    params = [torch.zeros(2, requires_grad=True) for _ in range(groups)]
    opt = torch.optim.SGD([{"params": [p], "lr": 0.5 + 0.25 * i} for i, p in enumerate(params)], lr=0.5)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        sched = torch.optim.swa_utils.SWALR(opt, **kw)
        lrs = [sched.get_last_lr()]
        for _ in range(n_steps):
            opt.step()
            sched.step()
            lrs.append(sched.get_last_lr())
    return {"lrs": lrs, "swa_lr": [g["swa_lr"] for g in opt.param_groups],
            "warnings": [str(x.message) for x in w]}


def _swalr_cases(torch):
    su = torch.optim.swa_utils
    out = {
        "cos": _caught(lambda: _swalr_run(torch, swa_lr=0.05)),
        "linear": _caught(lambda: _swalr_run(torch, swa_lr=0.05, anneal_epochs=4, anneal_strategy="linear")),
        "zero_epochs": _caught(lambda: _swalr_run(torch, swa_lr=0.1, anneal_epochs=0)),
        "one_epoch": _caught(lambda: _swalr_run(torch, swa_lr=0.1, anneal_epochs=1, anneal_strategy="linear")),
        "groups": _caught(lambda: _swalr_run(torch, groups=2, swa_lr=[0.01, 0.2], anneal_epochs=3)),
        "groups_scalar": _caught(lambda: _swalr_run(torch, groups=2, swa_lr=0.3, anneal_epochs=2)),
    }
    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    out["bad_strategy"] = _caught(lambda: su.SWALR(opt, swa_lr=0.1, anneal_strategy="exp"))
    out["bad_epochs"] = _caught(lambda: su.SWALR(opt, swa_lr=0.1, anneal_epochs=-1))
    out["float_epochs"] = _caught(lambda: su.SWALR(opt, swa_lr=0.1, anneal_epochs=2.0))
    out["bad_len"] = _caught(lambda: su.SWALR(opt, swa_lr=[0.1, 0.2]))
    out["not_opt"] = _caught(lambda: su.SWALR(None, swa_lr=0.1))

    def get_lr_warning():
        o = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        s = su.SWALR(o, swa_lr=0.2, anneal_epochs=3)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            v = s.get_lr()
        return [v, [str(x.message) for x in w]]
    out["get_lr_warning"] = _caught(get_lr_warning)

    def state():
        o = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        s = su.SWALR(o, swa_lr=0.2, anneal_epochs=5, anneal_strategy="linear")
        o.step()
        s.step()
        sd = s.state_dict()
        keys = sorted(sd)
        o2 = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        s2 = su.SWALR(o2, swa_lr=0.7, anneal_epochs=2, anneal_strategy="cos")
        s2.load_state_dict(sd)
        o2.step()
        s2.step()
        o.step()
        s.step()
        return [keys, sd["_anneal_strategy"], sd["anneal_epochs"], s2.get_last_lr(), s.get_last_lr(),
                s2.anneal_func(0.5)]
    out["state_dict"] = _caught(state)

    def with_other():
        o = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        s1 = torch.optim.lr_scheduler.MultiplicativeLR(o, lr_lambda=lambda e: 0.9)
        s2 = su.SWALR(o, anneal_strategy="linear", anneal_epochs=3, swa_lr=0.05)
        lrs = []
        for i in range(8):
            o.step()
            (s2 if i > 3 else s1).step()
            lrs.append(o.param_groups[0]["lr"])
        return lrs
    out["with_multiplicative"] = _caught(with_other)
    return out


# --- fft -------------------------------------------------------------------------------------


def _fft_values(torch):
    fft = torch.fft
    x = _data(torch, (3, 8), 1)
    xo = _data(torch, (2, 7), 2)
    x64 = _data(torch, (2, 6), 3, torch.float64)
    c = _cdata(torch, (3, 8), 4)
    c64 = _cdata(torch, (2, 5), 5, torch.complex128)
    x3 = _data(torch, (2, 4, 6), 6)
    c3 = _cdata(torch, (2, 4, 5), 7)
    big = _data(torch, (2, 60), 8)
    prime = _data(torch, (1, 37), 9)
    bluestein = _data(torch, (1, 263), 10)
    pow2 = _data(torch, (1, 128), 11)
    cases = {}
    for norm in (None, "backward", "ortho", "forward"):
        sfx = "" if norm is None else "_" + norm
        cases["fft" + sfx] = lambda norm=norm: fft.fft(x, norm=norm)
        cases["ifft" + sfx] = lambda norm=norm: fft.ifft(c, norm=norm)
        cases["rfft" + sfx] = lambda norm=norm: fft.rfft(xo, norm=norm)
        cases["irfft" + sfx] = lambda norm=norm: fft.irfft(c, norm=norm)
        cases["hfft" + sfx] = lambda norm=norm: fft.hfft(c, norm=norm)
        cases["ihfft" + sfx] = lambda norm=norm: fft.ihfft(xo, norm=norm)
        cases["fft2" + sfx] = lambda norm=norm: fft.fft2(x3, norm=norm)
        cases["ifftn" + sfx] = lambda norm=norm: fft.ifftn(c3, norm=norm)
        cases["rfftn" + sfx] = lambda norm=norm: fft.rfftn(x3, norm=norm)
        cases["irfftn" + sfx] = lambda norm=norm: fft.irfftn(c3, norm=norm)
        cases["hfft2" + sfx] = lambda norm=norm: fft.hfft2(c3, norm=norm)
        cases["ihfft2" + sfx] = lambda norm=norm: fft.ihfft2(x3, norm=norm)
    cases.update({
        "fft_n_pad": lambda: fft.fft(x, n=11), "fft_n_trim": lambda: fft.fft(x, n=5),
        "fft_dim0": lambda: fft.fft(x, dim=0), "fft_c": lambda: fft.fft(c, n=6, dim=1),
        "fft_f64": lambda: fft.fft(x64), "fft_c128": lambda: fft.fft(c64, norm="ortho"),
        "fft_int": lambda: fft.fft(torch.tensor([1, 2, 3, 4])), "fft_bool": lambda: fft.fft(torch.tensor([True, False, True])),
        "ifft_real": lambda: fft.ifft(x), "ifft_n": lambda: fft.ifft(c, n=12, dim=-1, norm="forward"),
        "rfft_n_odd": lambda: fft.rfft(x, n=9), "rfft_n_small": lambda: fft.rfft(x, n=3, dim=1),
        "rfft_dim0": lambda: fft.rfft(x, dim=0), "rfft_f64": lambda: fft.rfft(x64),
        "irfft_n_odd": lambda: fft.irfft(c, n=9), "irfft_n_even": lambda: fft.irfft(c, n=20),
        "irfft_n_small": lambda: fft.irfft(c, n=4), "irfft_dim0": lambda: fft.irfft(c, dim=0),
        "irfft_real_in": lambda: fft.irfft(x), "irfft_c128": lambda: fft.irfft(c64, n=7),
        "hfft_n": lambda: fft.hfft(c, n=9, norm="ortho"), "ihfft_n": lambda: fft.ihfft(x, n=10),
        "fft_1pt": lambda: fft.fft(x, n=1), "irfft_1pt": lambda: fft.irfft(c, n=1),
        "fftn_all": lambda: fft.fftn(x3), "fftn_s": lambda: fft.fftn(x3, s=(3, 8)),
        "fftn_s_dim": lambda: fft.fftn(c3, s=(3, -1), dim=(0, 2)), "fftn_dim": lambda: fft.fftn(x3, dim=(2, 0)),
        "fftn_dim_int": lambda: fft.fftn(x3, dim=1), "fftn_s_int": lambda: fft.fftn(x3, s=3),
        "fftn_empty_dim": lambda: fft.fftn(c3, dim=()), "fftn_0d": lambda: fft.fftn(torch.tensor(2.5)),
        "ifft2": lambda: fft.ifft2(c3, s=(5, 4)), "ifftn": lambda: fft.ifftn(x3, dim=(0, 1)),
        "rfft2": lambda: fft.rfft2(x3, s=(3, 7)), "rfftn_dims": lambda: fft.rfftn(x3, dim=(2, 1)),
        "rfftn_one": lambda: fft.rfftn(x3, dim=0),
        "irfft2": lambda: fft.irfft2(c3), "irfft2_s": lambda: fft.irfft2(c3, s=(3, 7)),
        "irfftn_s_neg": lambda: fft.irfftn(c3, s=(-1, -1)), "irfftn_dims": lambda: fft.irfftn(c3, dim=(0, 1)),
        "irfftn_all": lambda: fft.irfftn(c3, s=(2, 4, 9)),
        "hfftn": lambda: fft.hfftn(c3, s=(3, 6)), "ihfftn": lambda: fft.ihfftn(x3, dim=(0, 2)),
        "big": lambda: fft.fft(big), "big_rfft": lambda: fft.rfft(big, norm="ortho"),
        "prime": lambda: fft.fft(prime), "bluestein": lambda: fft.fft(bluestein, norm="ortho"),
        "bluestein_irfft": lambda: fft.irfft(fft.rfft(bluestein)), "pow2": lambda: fft.ifft(fft.fft(pow2)),
        "pow2_rfft": lambda: fft.rfft(pow2, norm="forward"),
        "roundtrip": lambda: fft.irfftn(fft.rfftn(x3), s=x3.shape[-3:]),
    })
    return {k: _caught(lambda f=f: _t(f())) for k, f in cases.items()}


def _fft_helpers(torch):
    fft = torch.fft
    x = torch.arange(12.0).reshape(3, 4)
    cases = {
        "fftfreq5": lambda: fft.fftfreq(5), "fftfreq8_d": lambda: fft.fftfreq(8, d=0.1),
        "fftfreq1": lambda: fft.fftfreq(1), "fftfreq0": lambda: fft.fftfreq(0),
        "fftfreq_f64": lambda: fft.fftfreq(7, 2.5, dtype=torch.float64),
        "fftfreq_neg": lambda: fft.fftfreq(-1), "fftfreq_int": lambda: fft.fftfreq(4, dtype=torch.int64),
        "fftfreq_grad": lambda: fft.fftfreq(3, requires_grad=True).requires_grad,
        "rfftfreq5": lambda: fft.rfftfreq(5), "rfftfreq8_d": lambda: fft.rfftfreq(8, d=0.1),
        "rfftfreq1": lambda: fft.rfftfreq(1), "rfftfreq_f64": lambda: fft.rfftfreq(6, dtype=torch.float64),
        "fftshift": lambda: fft.fftshift(x), "fftshift_dim": lambda: fft.fftshift(x, dim=1),
        "fftshift_dims": lambda: fft.fftshift(x, dim=(0, -1)), "fftshift_1d": lambda: fft.fftshift(fft.fftfreq(5)),
        "ifftshift": lambda: fft.ifftshift(x), "ifftshift_1d": lambda: fft.ifftshift(fft.fftshift(fft.fftfreq(7))),
        "ifftshift_dim": lambda: fft.ifftshift(x, dim=0), "fftshift_int": lambda: fft.fftshift(torch.arange(5)),
        "fftshift_bad": lambda: fft.fftshift(x, dim=5),
        "fftshift_c": lambda: fft.fftshift(_cdata(torch, (5,), 1)),
        "fftshift_nodims": lambda: fft.fftshift(x, dim=()),
        "fftfreq_d0": lambda: fft.fftfreq(3, d=0), "rfftfreq0": lambda: fft.rfftfreq(0),
        "fftfreq_d_tensor": lambda: fft.fftfreq(3, d=torch.tensor(2.0)), "fftfreq_d_int": lambda: fft.fftfreq(4, d=3),
        "fftfreq_complex": lambda: fft.fftfreq(3, dtype=torch.complex64),
        "fftfreq_n_float": lambda: fft.fftfreq(2.0),
        "fftfreq_out": lambda: fft.fftfreq(4, out=torch.empty(0, dtype=torch.float64)),
        "fftfreq_out_dtype": lambda: fft.fftfreq(3, dtype=torch.float64, out=torch.empty(0)),
        "fftfreq_out_int": lambda: fft.fftfreq(3, out=torch.empty(0, dtype=torch.int64)),
    }
    return {k: _caught(lambda f=f: (lambda r: _t(r) if hasattr(r, "dtype") else r)(f())) for k, f in cases.items()}


def _fft_errors(torch):
    fft = torch.fft
    x = _data(torch, (4, 6), 1)
    c = _cdata(torch, (4, 6), 2)
    cases = {
        "n0": lambda: fft.fft(x, n=0), "dim": lambda: fft.fft(x, dim=2), "dim_neg": lambda: fft.ifft(c, dim=-3),
        "norm": lambda: fft.fft(x, norm="foo"), "norm_rfftn": lambda: fft.rfftn(x, norm="bar"),
        "rfft_c": lambda: fft.rfft(c), "ihfft_c": lambda: fft.ihfft(c), "rfftn_c": lambda: fft.rfftn(c),
        "rfft2_c": lambda: fft.rfft2(c), "ihfftn_c": lambda: fft.ihfftn(c),
        "irfft1": lambda: fft.irfft(_cdata(torch, (1,), 3)), "irfft_n0": lambda: fft.irfft(c, n=0),
        "hfft_n_neg": lambda: fft.hfft(c, n=-2),
        "fftn_sdim": lambda: fft.fftn(x, s=(2, 3), dim=(0,)), "fftn_s3": lambda: fft.fftn(x, s=(2, 3, 4)),
        "fftn_dup": lambda: fft.fftn(x, dim=(0, 0)), "fftn_dup_neg": lambda: fft.fftn(x, dim=(1, -1)),
        "fftn_s0": lambda: fft.fftn(x, s=(0, 3)), "fftn_neg2": lambda: fft.fftn(c, s=(2, -2)),
        "irfftn_neg2": lambda: fft.irfftn(c, s=(2, -2)),
        "half": lambda: fft.fft(x.half()), "bf16_rfft": lambda: fft.rfft(x.bfloat16()),
        "scalar": lambda: fft.fft(torch.tensor(1.0)), "scalar_rfft": lambda: fft.rfft(torch.tensor(1.0)),
        "irfftn_empty": lambda: fft.irfftn(c, dim=()), "rfftn_empty": lambda: fft.rfftn(x, dim=()),
        "ihfftn_empty": lambda: fft.ihfftn(x, dim=()), "hfftn_empty": lambda: fft.hfftn(c, dim=()),
        "fft2_1d": lambda: fft.fft2(torch.ones(4)), "irfft2_1d": lambda: fft.irfft2(torch.ones(4, dtype=torch.complex64)),
        "fft_dim_tuple": lambda: fft.fft(x, dim=(0,)), "fft_n_float": lambda: fft.fft(x, n=2.5),
        "fftn_dim_big": lambda: fft.fftn(x, dim=(0, 2)),
        "out_real": lambda: fft.fft(x, out=torch.empty(0)), "out_fftn": lambda: fft.fft2(c, out=torch.empty(0)),
        "out_irfft": lambda: fft.irfft(c, out=torch.empty(0, dtype=torch.complex64)),
        "out_hfft": lambda: fft.hfft(c, out=torch.empty(0, dtype=torch.complex64)),
        "out_grad": lambda: fft.fft(c.detach().requires_grad_(), out=torch.empty(0, dtype=torch.complex64)),
        "out_grad_r2c": lambda: fft.rfft(x.detach().requires_grad_(), out=torch.empty(0, dtype=torch.complex64)),
    }
    out = {k: _caught(lambda f=f: _t(f())) for k, f in cases.items()}

    def outs():
        r = []
        for f, o in ((lambda o: fft.fft(x, out=o), torch.empty(0, dtype=torch.complex64)),
                     (lambda o: fft.ifft(c, n=3, out=o), torch.empty(0, dtype=torch.complex128)),
                     (lambda o: fft.rfftn(x, out=o), torch.empty(0, dtype=torch.complex64)),
                     (lambda o: fft.irfft(c, out=o), torch.empty(0, dtype=torch.float64)),
                     (lambda o: fft.ihfft2(x, out=o), torch.empty(0, dtype=torch.complex64))):
            res = f(o)
            r.append([res is o, _t(o)])
        return r
    out["out_ok"] = _caught(outs)
    return out


def _grad(torch, make, loss, *inputs):
    leaves = [t.detach().clone().requires_grad_() for t in inputs]
    out = make(*leaves)
    value = loss(out)
    grads = torch.autograd.grad(value, leaves)
    return {"loss": value.item(), "grads": [_t(g) for g in grads]}


def _double_backward(torch, x, irfft=False):
    x = x.detach().clone().requires_grad_()
    y = torch.fft.rfft(x, norm="ortho")
    if irfft:
        loss = (torch.fft.irfft(y * y, n=8) ** 2).sum()
    else:
        loss = (y.abs() ** 2 * torch.arange(5.0)).sum() + (y.real ** 3).sum()
    g, = torch.autograd.grad(loss, x, create_graph=True)
    gg, = torch.autograd.grad((g * g).sum(), x)
    return [_v(g), _v(gg)]


def _fft_grads(torch):
    fft = torch.fft
    x = _data(torch, (3, 8), 1)
    xo = _data(torch, (2, 7), 2)
    x3 = _data(torch, (2, 4, 6), 3)
    c = _cdata(torch, (3, 8), 4)
    co = _cdata(torch, (2, 5), 5)
    c3 = _cdata(torch, (2, 4, 5), 6)
    w8 = _data(torch, (8,), 7)
    w5 = _data(torch, (5,), 8)
    w4 = _data(torch, (4,), 9)
    x64 = _data(torch, (2, 10), 10, torch.float64)
    big = _data(torch, (2, 48), 11)
    blue = _data(torch, (1, 263), 12)
    cases = {
        "fft_abs": lambda: _grad(torch, fft.fft, lambda y: y.abs().sum(), x),
        "fft_abs_ortho": lambda: _grad(torch, lambda t: fft.fft(t, norm="ortho"), lambda y: y.abs().sum(), x),
        "fft_c_abs": lambda: _grad(torch, fft.fft, lambda y: y.abs().sum(), c),
        "fft_c_real_w": lambda: _grad(torch, lambda t: fft.fft(t, n=10), lambda y: (y.real * 0.5 - y.imag * 2.0).sum(), c),
        "ifft_c": lambda: _grad(torch, lambda t: fft.ifft(t, norm="forward"), lambda y: (y.abs() ** 2 * w8).sum(), c),
        "ifft_real_in": lambda: _grad(torch, fft.ifft, lambda y: (y.imag * w8).sum(), x),
        "rfft_abs": lambda: _grad(torch, fft.rfft, lambda y: y.abs().sum(), x),
        "rfft_odd": lambda: _grad(torch, fft.rfft, lambda y: (y.real * w4).sum() + (y.imag ** 2).sum(), xo),
        "rfft_view_as_real": lambda: _grad(torch, lambda t: fft.rfft(t, n=9), lambda y: (torch.view_as_real(y) ** 2).sum(), x),
        "irfft_rfft_w": lambda: _grad(torch, lambda t: fft.irfft(fft.rfft(t) * w5), lambda y: y.sum(), x),
        "irfft_rfft_w2": lambda: _grad(torch, lambda t: fft.irfft(fft.rfft(t) * w5), lambda y: (y * w8).sum(), x),
        "irfft_c": lambda: _grad(torch, fft.irfft, lambda y: (y * w8).sum(), co),
        "irfft_c_odd": lambda: _grad(torch, lambda t: fft.irfft(t, n=9), lambda y: (y ** 2).sum(), co),
        "irfft_c_pad": lambda: _grad(torch, lambda t: fft.irfft(t, n=14, norm="ortho"), lambda y: (y ** 3).sum(), co),
        "irfft_c_trim": lambda: _grad(torch, lambda t: fft.irfft(t, n=4), lambda y: (y * torch.arange(4.0)).sum(), co),
        "hfft_c": lambda: _grad(torch, fft.hfft, lambda y: (y * w8).sum(), co),
        "ihfft": lambda: _grad(torch, fft.ihfft, lambda y: (y.imag * w5).sum() + y.real.sum(), x),
        "fft2_abs": lambda: _grad(torch, fft.fft2, lambda y: y.abs().sum(), x3),
        "ifftn_c": lambda: _grad(torch, lambda t: fft.ifftn(t, s=(3, 6)), lambda y: (y.real ** 2).sum(), c3),
        "rfft2_abs": lambda: _grad(torch, fft.rfft2, lambda y: (y.abs() ** 2).sum(), x3),
        "rfftn_w": lambda: _grad(torch, lambda t: fft.rfftn(t, dim=(0, 2)), lambda y: (y.real * 1.5 + y.imag).sum(), x3),
        "irfft2_c": lambda: _grad(torch, fft.irfft2, lambda y: (y * y).sum(), c3),
        "irfftn_c": lambda: _grad(torch, lambda t: fft.irfftn(t, s=(2, 3, 7)), lambda y: (y * torch.arange(42.0).reshape(2, 3, 7)).sum(), c3),
        "irfftn_rfftn": lambda: _grad(torch, lambda t: fft.irfftn(fft.rfftn(t) * 0.5), lambda y: (y ** 2).sum(), x3),
        "hfft2_c": lambda: _grad(torch, fft.hfft2, lambda y: (y * y).sum(), c3),
        "ihfft2": lambda: _grad(torch, fft.ihfft2, lambda y: y.abs().sum(), x3),
        "fft_f64": lambda: _grad(torch, fft.fft, lambda y: y.abs().sum(), x64),
        "rfft_f64": lambda: _grad(torch, lambda t: fft.irfft(fft.rfft(t, norm="ortho") ** 2, norm="ortho"), lambda y: y.sum(), x64),
        "big": lambda: _grad(torch, fft.fft, lambda y: y.abs().sum(), big),
        "big_irfft": lambda: _grad(torch, lambda t: fft.irfft(fft.rfft(t) * fft.rfft(t)), lambda y: y.abs().sum(), big),
        "bluestein": lambda: _grad(torch, fft.rfft, lambda y: y.abs().sum(), blue),
        "double_backward": lambda: _double_backward(torch, x),
        "double_backward_c2r": lambda: _double_backward(torch, x, irfft=True),
        "shift_grad": lambda: _grad(torch, lambda t: fft.fftshift(fft.fft(t), dim=-1), lambda y: (y.real * w8).sum(), x),
    }
    return {k: _caught(f) for k, f in cases.items()}


def run(torch):
    out = {}
    out["adafactor_default"] = _caught(lambda: _adafactor_run(torch))
    out["adafactor_wd"] = _caught(lambda: _adafactor_run(torch, lr=0.05, weight_decay=0.2))
    out["adafactor_maximize"] = _caught(lambda: _adafactor_run(torch, maximize=True, beta2_decay=-0.5))
    out["adafactor_foreach"] = _caught(lambda: _adafactor_run(torch, foreach=True, weight_decay=0.1))
    out["adafactor_foreach_max"] = _caught(lambda: _adafactor_run(torch, foreach=True, maximize=True, d=2.0))
    out["adafactor_eps1"] = _caught(lambda: _adafactor_run(torch, eps=(1e-10, 1e-4), d=1.0))
    out["adafactor_f64"] = _caught(lambda: _adafactor_run(torch, dtype=torch.float64, lr=0.3))
    out["adafactor_f64_foreach"] = _caught(lambda: _adafactor_run(torch, dtype=torch.float64, foreach=True))
    out["adafactor_lr_tensor"] = _caught(lambda: _adafactor_run(torch, lr=torch.tensor(0.02)))
    out["adafactor_groups"] = _caught(lambda: _adafactor_groups(torch))
    out["adafactor_closure"] = _caught(lambda: _adafactor_closure(torch))
    out["adafactor_load"] = _caught(lambda: _adafactor_load(torch))
    out["adafactor_errors"] = _adafactor_errors(torch)
    out["sparse_adam"] = _sparse_adam(torch)
    out["optim_all"] = [n for n in ("Adafactor", "SparseAdam", "swa_utils") if n in torch.optim.__all__]
    out["swa_all"] = sorted(torch.optim.swa_utils.__all__)
    out["swa"] = _swa_cases(torch)
    out["update_bn"] = _caught(lambda: _update_bn(torch))
    out["swalr"] = _swalr_cases(torch)
    out["fft_values"] = _fft_values(torch)
    out["fft_helpers"] = _fft_helpers(torch)
    out["fft_errors"] = _fft_errors(torch)
    out["fft_grads"] = _fft_grads(torch)
    out["math"] = math.pi > 3
    return out
