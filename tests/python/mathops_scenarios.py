"""Elementwise and indexing ops added for real programs: erfc, sinc, frac, deg2rad/rad2deg,
hypot, logaddexp/logaddexp2, copysign, nextafter, heaviside (native, with PyTorch's node
names and dtype errors); nansum, var_mean/std_mean (one node); index_copy, index_fill,
masked_scatter, take, put, select/slice/diagonal_scatter; and the composed functions
(nanmean, float_power, quantile, trapezoid, block_diag, tril_indices, combinations, isin,
torch.<nn op> entry points, ...). Each case gives the value, dtype, node name, gradients (of a
weighted sum, so no cancellation) and the error PyTorch raises for bad input. Run with
``torch`` bound to PyTorch (tools/record_mathops_goldens.py records fixtures/mathops.json)
or to ferrograd (test_mathops.py compares)."""

import numpy as np


def _v(t):
    return [v if v == v else "nan" for v in t.detach().double().flatten().tolist()]


def _caught(f):
    try:
        return f()
    except Exception as e:  # noqa: BLE001 - PyTorch's error is the result
        return {"error": [type(e).__name__, str(e)]}


def _res(torch, r, inputs=()):
    if isinstance(r, (tuple, list)):
        if r and all(hasattr(t, "grad_fn") for t in r):
            out = [_res(torch, t) for t in r]
            floats = [t for t in r if t.is_floating_point() and t.requires_grad]
            if floats and inputs:
                out.append(_grads(torch, floats, inputs))
            return out
        return [_res(torch, t) if hasattr(t, "grad_fn") else t for t in r]
    if not hasattr(r, "grad_fn"):
        return r
    d = {"value": _v(r), "shape": list(r.shape), "dtype": str(r.dtype).split(".")[-1],
         "fn": type(r.grad_fn).__name__ if r.grad_fn is not None else None}
    if inputs and r.requires_grad and r.is_floating_point():
        d["grads"] = _grads(torch, [r], inputs)
    return d


def _grads(torch, outs, inputs):
    loss = sum((o * torch.linspace(-1.0, 1.0, o.numel(), dtype=o.dtype).reshape(o.shape)).sum() for o in outs)
    need = [i for i in inputs if i.requires_grad]
    gs = torch.autograd.grad(loss, need, allow_unused=True)
    return [None if g is None else _v(g) for g in gs]


def _like_strides(torch):
    x = torch.ones(3, 4).t()
    y = torch.ones(2, 3, 4).permute(2, 0, 1)
    out = [list(f(x).stride()) for f in (torch.rand_like, torch.empty_like, torch.zeros_like, torch.ones_like)]
    out.append(list(torch.empty_like(y).stride()))
    out.append(list(torch.zeros_like(x[::2]).stride()))
    torch.manual_seed(0)
    out.append(_v(torch.randn_like(x)))
    torch.manual_seed(0)
    out.append(_v(torch.nn.functional.dropout(torch.ones(3, 4).t(), 0.5)))
    torch.manual_seed(1)
    out.append(_v(torch.nn.functional.dropout(y, 0.3)))
    return out


def _complex_optim(torch):
    out = []
    for name in ("Adam", "AdamW", "RMSprop", "Adagrad", "SGD", "NAdam", "RAdam", "Adamax"):
        p = torch.tensor([1 + 2j, -0.5 + 0.25j]).requires_grad_()
        opt = getattr(torch.optim, name)([p], lr=0.1)
        for _ in range(3):
            opt.zero_grad()
            (p * torch.tensor([0.3 - 1j, 2 + 0.5j])).abs().sum().backward()
            opt.step()
        out.append(_v(torch.view_as_real(p)))
    return out


def _double(t):
    return t * 2


def _scaler(torch):
    torch.manual_seed(0)
    m = torch.nn.Linear(2, 1)
    with torch.no_grad():
        m.weight.copy_(torch.tensor([[0.5, -0.25]]))
        m.bias.fill_(0.1)
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    sc = torch.amp.GradScaler("cpu", init_scale=4.0, growth_interval=2)
    seen = []
    for k, data in enumerate([[1.0, 2.0], [float("inf"), 1.0], [0.5, -1.0], [2.0, 2.0]]):
        opt.zero_grad()
        loss = sc.scale(m(torch.tensor([data])).sum())
        loss.backward()
        sc.unscale_(opt)
        g = _v(m.weight.grad)
        sc.step(opt)
        sc.update()
        seen.append([sc.get_scale(), g, _v(m.weight)])
    errs = []
    opt.zero_grad()
    sc.scale(m(torch.ones(1, 2)).sum()).backward()
    sc.unscale_(opt)
    errs.append(_caught(lambda: sc.unscale_(opt)))
    return [seen, sc.state_dict(), errs, torch.amp.GradScaler("cpu", enabled=False).scale(3.0)]


def run(torch):
    x = torch.tensor([[0.0, 1.5, -2.25, 3.0], [0.5, -0.75, 4.0, -1.0], [2.0, 0.25, -3.5, 1.25]], requires_grad=True)
    y = torch.tensor([[1.0, -2.0, 0.5, 3.0], [-0.5, 0.0, 2.0, -4.0], [1.5, -1.0, 0.75, 2.5]], requires_grad=True)
    xn = torch.tensor([[1.0, float("nan"), 3.0], [float("nan"), 2.0, -1.0]], requires_grad=True)
    i = torch.tensor([1, 2, -3])
    ix = torch.tensor([0, 2])
    h = torch.tensor([0.5, -1.5, 2.0], dtype=torch.float16)
    big = torch.tensor([0.0, 2.0, 5.0, 10.0, 27.0], dtype=torch.float64, requires_grad=True)
    src = torch.tensor([[10.0, 20.0, 30.0, 40.0], [50.0, 60.0, 70.0, 80.0]], requires_grad=True)
    col = torch.tensor([[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]], requires_grad=True)
    v0 = torch.tensor(-5.0, requires_grad=True)
    m = torch.tensor([[True, False, True, False], [False, False, True, True], [True, False, False, False]])
    s12 = torch.arange(12.0, requires_grad=True)

    def r(f, *inputs):
        return lambda: _res(torch, f(), inputs or (x, y))

    cases = {
        # ---- native elementwise
        "erfc": r(lambda: torch.erfc(x)), "erfc_big": r(lambda: big.erfc(), big), "erfc_int": r(lambda: torch.erfc(i)),
        "erfc_half": r(lambda: torch.erfc(h)), "erfc_bool": r(lambda: torch.erfc(torch.tensor(True))),
        "sinc": r(lambda: torch.sinc(x)), "sinc_int": r(lambda: torch.sinc(i)), "sinc_zero": r(lambda: torch.sinc(torch.zeros(3, requires_grad=True))),
        "frac": r(lambda: x.frac()), "frac_int": r(lambda: torch.frac(i)), "frac_bool": r(lambda: torch.frac(torch.tensor([True]))),
        "deg2rad": r(lambda: torch.deg2rad(x)), "rad2deg": r(lambda: x.rad2deg()), "deg2rad_int": r(lambda: torch.deg2rad(i)),
        "rad2deg_u8": r(lambda: torch.rad2deg(torch.tensor([1, 2], dtype=torch.uint8))),
        "hypot": r(lambda: torch.hypot(x, y)), "hypot_bcast": r(lambda: x.hypot(y[0])), "hypot_int": r(lambda: torch.hypot(i, i)),
        "hypot_mixed": r(lambda: torch.hypot(x, i.float().reshape(3, 1))), "hypot_number": r(lambda: torch.hypot(x, 2)),
        "logaddexp": r(lambda: torch.logaddexp(x, y)), "logaddexp2": r(lambda: x.logaddexp2(y)),
        "logaddexp_inf": r(lambda: torch.logaddexp(torch.tensor([float("inf"), -float("inf"), 1.0]), torch.tensor([float("inf"), -float("inf"), -float("inf")]))),
        "logaddexp_int": r(lambda: torch.logaddexp(i, i)), "logaddexp_half": r(lambda: torch.logaddexp(h, h.float())),
        "copysign": r(lambda: torch.copysign(x, y)), "copysign_number": r(lambda: x.copysign(-1)),
        "copysign_int": r(lambda: torch.copysign(i, -i)), "copysign_zero": r(lambda: torch.copysign(torch.tensor([1.0, -0.0, 0.0]), torch.tensor([-0.0, 0.0, -1.0]))),
        "nextafter": r(lambda: torch.nextafter(torch.tensor([0.5, -1.5, 0.0, 1.0]), torch.tensor([1.0, -2.0, -1.0, 1.0]))),
        "nextafter_f64": r(lambda: torch.nextafter(torch.tensor([1.0, 0.0], dtype=torch.float64), torch.tensor([2.0, 1.0], dtype=torch.float64))),
        "nextafter_int": r(lambda: torch.nextafter(i, i)), "nextafter_grad": lambda: _caught(lambda: torch.nextafter(x, y).sum().backward()),
        "nextafter_fn": r(lambda: torch.nextafter(x, y)),
        "heaviside": r(lambda: torch.heaviside(torch.tensor([-1.0, 0.0, 2.0, float("nan")]), torch.tensor([0.5, 0.25, 0.5, 0.5]))),
        "heaviside_int": r(lambda: torch.heaviside(i, torch.tensor([7, 7, 7]))), "heaviside_mixed": r(lambda: torch.heaviside(x, i)),
        "heaviside_number": r(lambda: torch.heaviside(x, 0.5)),
        # ---- reductions
        "nansum": r(lambda: torch.nansum(xn), xn), "nansum_dim": r(lambda: xn.nansum(1), xn), "nansum_keep": r(lambda: torch.nansum(xn, 0, keepdim=True), xn),
        "nansum_int": r(lambda: torch.nansum(i)), "nansum_dtype": r(lambda: torch.nansum(xn, dtype=torch.float64), xn),
        "nanmean": r(lambda: torch.nanmean(xn), xn), "nanmean_dim": r(lambda: xn.nanmean(1, keepdim=True), xn), "nanmean_int": r(lambda: torch.nanmean(i)),
        "var_mean": r(lambda: torch.var_mean(x)), "var_mean_dim": r(lambda: torch.var_mean(x, 1)), "var_mean_keep": r(lambda: torch.var_mean(x, [0], keepdim=True)),
        "var_mean_unbiased": r(lambda: torch.var_mean(x, 0, False)), "var_mean_corr": r(lambda: torch.var_mean(x, dim=1, correction=0)),
        "std_mean": r(lambda: torch.std_mean(x)), "std_mean_dim": r(lambda: torch.std_mean(x, dim=(0, 1))), "std_mean_int": r(lambda: torch.std_mean(i)),
        # ---- writes
        "index_copy": r(lambda: x.index_copy(0, ix, src), x, src), "index_copy_1": r(lambda: x.index_copy(1, ix, col), x, col),
        "index_copy_neg_dim": r(lambda: torch.index_copy(x, -1, ix, col), x, col),
        "index_copy_dtype": r(lambda: x.index_copy(0, ix, src.double())), "index_copy_int_index": r(lambda: x.index_copy(0, ix.int(), src)),
        "index_copy_2d_index": r(lambda: x.index_copy(0, ix.view(2, 1), src)), "index_copy_oob": r(lambda: x.index_copy(0, torch.tensor([5, 0]), src)),
        "index_copy_neg": r(lambda: x.index_copy(0, torch.tensor([-1, 0]), src)), "index_copy_count": r(lambda: x.index_copy(0, ix, torch.ones(3, 4))),
        "index_copy_slice": r(lambda: x.index_copy(0, ix, torch.ones(2, 3))),
        "index_copy_": lambda: _res(torch, x.detach().clone().index_copy_(1, ix, col.detach())),
        "index_fill": r(lambda: x.index_fill(1, ix, -1.0)), "index_fill_tensor": r(lambda: x.index_fill(1, ix, v0), x, v0),
        "index_fill_neg": r(lambda: x.index_fill(1, torch.tensor([-1]), 2)), "index_fill_1d_value": r(lambda: x.index_fill(1, ix, torch.tensor([-2.0]))),
        "index_fill_oob": r(lambda: x.index_fill(1, torch.tensor([7]), 1)), "index_fill_float_index": r(lambda: x.index_fill(1, ix.float(), 1)),
        "index_fill_int": r(lambda: torch.arange(3).index_fill(0, ix, 1.5)), "index_fill_bad_dim": r(lambda: x.index_fill(2, ix, 1)),
        "index_fill_": lambda: _res(torch, x.detach().clone().index_fill_(0, torch.tensor([1]), 9.0)),
        "masked_scatter": r(lambda: x.masked_scatter(m, s12), x, s12), "masked_scatter_bcast": r(lambda: x.masked_scatter(m[0], s12), x, s12),
        "masked_scatter_short": r(lambda: x.masked_scatter(m, torch.arange(3.0))), "masked_scatter_int_mask": r(lambda: x.masked_scatter(m.int(), s12)),
        "masked_scatter_dtype": r(lambda: x.masked_scatter(m, torch.arange(12))),
        "masked_scatter_": lambda: _res(torch, x.detach().clone().masked_scatter_(m, -s12.detach())),
        "take": r(lambda: x.take(torch.tensor([[0, 11], [-1, 3]]))), "take_fn": r(lambda: torch.take(x, torch.tensor([5, 5, 0]))),
        "take_oob": r(lambda: x.take(torch.tensor([12]))), "take_oob_neg": r(lambda: x.take(torch.tensor([-13]))), "take_float": r(lambda: x.take(torch.tensor([1.0]))),
        "put": r(lambda: x.put(torch.tensor([0, 5]), torch.tensor([9.0, 8.0]))), "put_acc": r(lambda: x.put(torch.tensor([0, 0, -1]), y[0, :3], accumulate=True)),
        "put_count": r(lambda: x.put(torch.tensor([0, 1]), torch.tensor([9.0]))), "put_oob": r(lambda: x.put(torch.tensor([20]), torch.tensor([9.0]))),
        "put_": lambda: _res(torch, x.detach().clone().put_(torch.tensor([1, 2]), torch.tensor([-1.0, -2.0]))),
        "select_scatter": r(lambda: torch.select_scatter(x, y[0], 0, 1)), "select_scatter_m": r(lambda: x.select_scatter(y[:, 0], 1, -1)),
        "select_scatter_bad": r(lambda: torch.select_scatter(x, torch.ones(3), 0, 1)), "select_scatter_oob": r(lambda: torch.select_scatter(x, torch.ones(4), 0, 5)),
        "select_scatter_f64": r(lambda: torch.select_scatter(x, torch.ones(4, dtype=torch.float64), 0, 1)),
        "slice_scatter": r(lambda: torch.slice_scatter(x, col, 1, 0, 4, 2), x, col), "slice_scatter_start": r(lambda: torch.slice_scatter(x, y[:1], start=2)),
        "slice_scatter_bad": r(lambda: torch.slice_scatter(x, torch.ones(3, 2), 1)),
        "diagonal_scatter": r(lambda: torch.diagonal_scatter(x, y[0, :3])), "diagonal_scatter_off": r(lambda: x.diagonal_scatter(y[1, :3], 1)),
        "diagonal_scatter_bad": r(lambda: torch.diagonal_scatter(x, torch.ones(2), 1)),
        # ---- composed
        "float_power": r(lambda: torch.float_power(x, 2)), "float_power_t": r(lambda: x.abs().float_power(y)), "float_power_int": r(lambda: torch.float_power(i, 3)),
        "float_power_base": r(lambda: torch.float_power(2, y)), "pow_number_base": r(lambda: torch.pow(2, y)),
        "fix": r(lambda: torch.fix(x)), "fix_m": r(lambda: x.fix()), "arcsin": r(lambda: torch.arcsin(x / 5)), "arctan": r(lambda: x.arctan()),
        "quantile": r(lambda: torch.quantile(x, 0.3)), "quantile_dim": r(lambda: x.quantile(torch.tensor([0.25, 0.5, 0.9]), dim=1)),
        "quantile_keep": r(lambda: torch.quantile(x, 0.5, dim=0, keepdim=True)), "quantile_lower": r(lambda: torch.quantile(x, 0.4, dim=1, interpolation="lower")),
        "quantile_higher": r(lambda: torch.quantile(x, 0.4, dim=1, interpolation="higher")), "quantile_mid": r(lambda: torch.quantile(x, 0.4, dim=1, interpolation="midpoint")),
        "quantile_nearest": r(lambda: torch.quantile(x, 0.4, dim=1, interpolation="nearest")), "quantile_nan": r(lambda: torch.quantile(xn, 0.5, dim=1), xn),
        "nanquantile": r(lambda: torch.nanquantile(xn, 0.5, dim=1), xn), "quantile_bad_q": r(lambda: torch.quantile(x, 1.5)),
        "quantile_bad_interp": r(lambda: torch.quantile(x, 0.5, interpolation="cubic")), "quantile_int": r(lambda: torch.quantile(i, 0.5)),
        "quantile_keep_all": r(lambda: torch.quantile(x, torch.tensor([0.1, 0.7]), keepdim=True)),
        "trapezoid": r(lambda: torch.trapezoid(x)), "trapezoid_dx": r(lambda: torch.trapezoid(x, dx=0.5, dim=0)),
        "trapezoid_x": r(lambda: torch.trapezoid(x, torch.tensor([0.0, 1.0, 3.0, 6.0]))), "trapz": r(lambda: torch.trapz(x, dim=0)),
        "cumulative_trapezoid": r(lambda: torch.cumulative_trapezoid(x)),
        "block_diag": r(lambda: torch.block_diag(x[:2, :2], y[0], torch.tensor(5.0))), "block_diag_int": r(lambda: torch.block_diag(torch.tensor([[1, 2]]), torch.tensor([[3], [4]]))),
        "tril_indices": r(lambda: torch.tril_indices(3, 4)), "triu_indices": r(lambda: torch.triu_indices(4, 3, 1)), "tril_indices_neg": r(lambda: torch.tril_indices(3, 3, -1)),
        "combinations": r(lambda: torch.combinations(torch.tensor([1, 2, 3, 4]))), "combinations_r3": r(lambda: torch.combinations(x[0], 3)),
        "combinations_rep": r(lambda: torch.combinations(torch.tensor([1.0, 2.0, 3.0]), with_replacement=True)),
        "isin": r(lambda: torch.isin(torch.tensor([[1, 2], [3, 4]]), torch.tensor([2, 3]))), "isin_invert": r(lambda: torch.isin(torch.tensor([1, 2, 3]), 2, invert=True)),
        "argwhere": r(lambda: torch.argwhere(m)), "diagflat": r(lambda: torch.diagflat(y[0, :3])), "diagflat_off": r(lambda: x[0, :2].diagflat(-1)),
        "inner": r(lambda: torch.inner(x, y)), "inner_1d": r(lambda: torch.inner(x[0], y[1])), "addr": r(lambda: torch.addr(x[:, :2], y[:, 0], y[0, :2], beta=0.5, alpha=2)),
        "dist": r(lambda: torch.dist(x, y)), "dist_p1": r(lambda: torch.dist(x, y, 1)), "renorm": r(lambda: x.renorm(2, 0, 3.0)),
        "split_with_sizes": r(lambda: torch.split_with_sizes(x, [1, 3], 1)), "split_with_sizes_bad": r(lambda: x.split_with_sizes([1, 1])),
        "hsplit": r(lambda: torch.hsplit(x, 2)), "vsplit": r(lambda: torch.vsplit(x, [1])), "hsplit_bad": r(lambda: torch.hsplit(x, 3)),
        "dsplit_bad": r(lambda: torch.dsplit(x, 2)), "narrow_copy": r(lambda: torch.narrow_copy(x, 1, 1, 2)),
        "mode": r(lambda: torch.mode(torch.tensor([[1.0, 2.0, 2.0, 3.0], [4.0, 4.0, 1.0, 1.0]]), 1)),
        "unique_consecutive": r(lambda: torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1, 1]), return_inverse=True, return_counts=True)),
        "logspace": r(lambda: torch.logspace(0, 2, 5)), "logspace_base": r(lambda: torch.logspace(0, 3, 4, base=2, dtype=torch.float64)),
        "can_cast": lambda: [torch.can_cast(torch.float32, torch.int32), torch.can_cast(torch.int32, torch.float32), torch.can_cast(torch.bool, torch.int8),
                             torch.can_cast(torch.int8, torch.bool), torch.can_cast(torch.complex64, torch.float64), torch.can_cast(torch.float64, torch.float16)],
        "asarray": lambda: [torch.asarray(x) is x, _res(torch, torch.asarray([1, 2])), _res(torch, torch.asarray(x, dtype=torch.float64))],
        "empty_strided": lambda: [list(torch.empty_strided((2, 3), (1, 2)).shape), list(torch.empty_strided((2, 3), (1, 2)).stride())],
        # ---- torch.<nn op>
        "torch_dropout_eval": r(lambda: torch.dropout(x, 0.5, False)), "torch_selu": r(lambda: torch.selu(x)), "torch_celu": r(lambda: torch.celu(x, 0.5)),
        "torch_threshold": r(lambda: torch.threshold(x, 0.5, -1.0)), "torch_hardshrink": r(lambda: torch.hardshrink(x, 1.0)),
        "torch_layer_norm": r(lambda: torch.layer_norm(x, [4])), "torch_group_norm": r(lambda: torch.group_norm(x.reshape(3, 4, 1), 2)),
        "torch_batch_norm": r(lambda: torch.batch_norm(x, None, None, None, None, True, 0.1, 1e-5, False)),
        "torch_embedding": r(lambda: torch.embedding(y, torch.tensor([2, 0, 2])), y), "torch_conv1d": r(lambda: torch.conv1d(x.reshape(1, 3, 4), y[:2, :3].reshape(2, 3, 1) + 0)),
        "torch_max_pool1d": r(lambda: torch.max_pool1d(x.reshape(1, 3, 4), 2)), "torch_avg_pool1d": r(lambda: torch.avg_pool1d(x.reshape(1, 3, 4), 2)),
        "torch_adaptive_max_pool1d": r(lambda: torch.adaptive_max_pool1d(x.reshape(1, 3, 4), 2)), "torch_pixel_shuffle": r(lambda: torch.pixel_shuffle(x.reshape(1, 4, 3, 1), 2)),
        "torch_prelu": r(lambda: torch.prelu(x, torch.tensor([0.25]))), "torch_cosine_similarity": r(lambda: torch.cosine_similarity(x, y)),
        "torch_pairwise_distance": r(lambda: torch.pairwise_distance(x, y)), "torch_pdist": r(lambda: torch.pdist(x)),
        "torch_cosine_embedding_loss": r(lambda: torch.cosine_embedding_loss(x, y, torch.tensor([1.0, -1.0, 1.0]), 0.0, 2)),
        # ---- statistics, integer and float utilities
        "cov": r(lambda: torch.cov(x[:2, :3])), "cov_corr0": r(lambda: torch.cov(x, correction=0)), "cov_1d": r(lambda: torch.cov(x[0])),
        "cov_weights": r(lambda: torch.cov(x, fweights=torch.tensor([1, 2, 1, 3]), aweights=torch.tensor([0.5, 1.0, 2.0, 1.0]))),
        "cov_3d": r(lambda: torch.cov(torch.ones(2, 2, 2))), "corrcoef": r(lambda: torch.corrcoef(x)),
        "gcd": r(lambda: torch.gcd(torch.tensor([12, -18, 0]), torch.tensor([8, 4, 5]))), "lcm": r(lambda: torch.lcm(torch.tensor([4, 6, 3]), torch.tensor([6, 0, -4]))),
        "gcd_float": r(lambda: torch.gcd(torch.tensor([1.5]), torch.tensor([2.0]))),
        "shifts": lambda: [_res(torch, torch.bitwise_left_shift(torch.tensor([1, 2, -3]), 2)), _res(torch, torch.bitwise_right_shift(torch.tensor([16, -16, 7]), torch.tensor([2, 2, 1])))],
        "signbit": r(lambda: torch.signbit(torch.tensor([-0.0, 0.0, 1.0, -2.0, float("-inf")]))), "signbit_int": r(lambda: torch.signbit(torch.tensor([-1, 0, 3]))),
        "frexp": r(lambda: torch.frexp(torch.tensor([8.0, 0.3, -5.0, 0.0]))), "frexp_int": r(lambda: torch.frexp(torch.tensor([1, 2]))),
        # (non-negative exponents: PyTorch's gradient is 0 for negative ones, an integer pow)
        "ldexp": r(lambda: torch.ldexp(x, torch.tensor([1, 2, 0, 3]))), "isreal": r(lambda: torch.isreal(torch.tensor([1.0, 2.0]))),
        "vander": r(lambda: torch.vander(torch.tensor([1, 2, 3]))), "vander_n": r(lambda: torch.vander(y[0].detach(), N=3, increasing=True)),
        "histogram": r(lambda: torch.histogram(torch.tensor([1.0, 2.0, 1.0, 4.0]), bins=4, range=(0.0, 4.0))),
        "histogram_edges": r(lambda: torch.histogram(torch.tensor([1.0, 2.0, 1.0, 4.0]), bins=torch.tensor([0.0, 1.0, 3.0, 5.0]))),
        "typename": lambda: [torch.typename(x), torch.typename(torch.zeros(2, dtype=torch.int64)), torch.typename(1), torch.typename(torch.nn.Linear(1, 1))],
        "matmul_precision": lambda: [torch.get_float32_matmul_precision(), torch.set_float32_matmul_precision("high"), torch.get_float32_matmul_precision(),
                                     torch.set_float32_matmul_precision("highest")],
        "jit": lambda: [torch.jit.script(_double)(torch.tensor([1.5])).tolist(), torch.jit.is_scripting(), torch.jit.annotate(int, 3)],
        "grad_scaler": lambda: _scaler(torch),
        # ---- NumPy-style keywords and small fixes found by running real programs
        "axis_aliases": lambda: [_res(torch, x.sum(axis=1)), _res(torch, x.sum(1, keepdims=True)),
                                 _res(torch, torch.cumprod(y[0], axis=0)), list(torch.cat([x, y], axis=1).shape),
                                 _res(torch, torch.max(x, axis=1).values), _res(torch, x.argmax(axis=1)),
                                 _res(torch, torch.mean(x, axis=0, keepdims=True)), _res(torch, x.std(axis=0)),
                                 list(torch.stack([x, y], axis=2).shape), _res(torch, x.softmax(axis=-1))],
        "axis_and_dim": r(lambda: x.sum(dim=1, axis=1)),
        "fill_diagonal": lambda: [_res(torch, torch.zeros(5, 3).fill_diagonal_(2.0, wrap=True)), _res(torch, torch.zeros(5, 3).fill_diagonal_(2.0)),
                                  _res(torch, torch.zeros(2, 2, 2).fill_diagonal_(3)), _res(torch, torch.ones(4, 4).t().fill_diagonal_(0)),
                                  _res(torch, x.clone().fill_diagonal_(-1.0))],
        "fill_diagonal_3d": r(lambda: torch.zeros(2, 3, 4).fill_diagonal_(1)), "fill_diagonal_1d": r(lambda: torch.zeros(3).fill_diagonal_(1)),
        "tensor_of_ndarrays": lambda: [_res(torch, torch.tensor([np.zeros(2), np.ones(2)], dtype=torch.float)),
                                       _res(torch, torch.tensor([np.zeros(2), np.arange(2.0)])),
                                       _res(torch, torch.tensor([np.arange(3, dtype=np.int32), np.arange(3, dtype=np.int32)])),
                                       str(torch.tensor([np.int32(1), np.int32(2)]).dtype), str(torch.tensor([np.int32(1), 2]).dtype),
                                       str(torch.tensor([np.int8(1), np.int32(2)]).dtype), str(torch.tensor(np.int32(3)).dtype),
                                       str(torch.tensor([np.uint8(1), np.int8(2)]).dtype), str(torch.tensor([np.int32(1), True]).dtype),
                                       str(torch.tensor([np.int32(1), 1.5]).dtype), str(torch.tensor([np.float32(1), np.int64(2)]).dtype)],
        "type_tensor": r(lambda: torch.arange(3).type(torch.Tensor)),
        "complex_parameter": lambda: _res(torch, torch.nn.Parameter(torch.zeros(2, dtype=torch.cfloat)).detach().real),
        "complex_optimizers": lambda: _complex_optim(torch),
        "like_strides": lambda: _like_strides(torch),
        "setitem_shape_errors": lambda: [_caught(lambda: torch.zeros(2, 16, 16).__setitem__((slice(None), slice(None), slice(0, 14)), torch.ones(2, 14, 14))),
                                         _caught(lambda: torch.zeros(2, 16, 16).__setitem__(0, torch.ones(3))),
                                         _caught(lambda: torch.zeros(2, 16, 16).__setitem__(0, torch.ones(2, 16, 16))),
                                         _caught(lambda: torch.ones(2, 3).expand(4, 2))],
        "conv_wide_kernel": r(lambda: torch.nn.functional.conv2d(x[:2, :2].reshape(1, 2, 2, 1), y[:2].reshape(2, 2, 1, 2).repeat(1, 1, 5, 3)[:, :, :5, :5], padding=2)),
    }
    out = {}
    for name, f in cases.items():
        out[name] = _caught(f)
    # in-place forms of the new elementwise ops (installed from the out-of-place ones)
    out["inplace"] = _caught(lambda: [_v(x.detach().clone().erfc_()), _v(x.detach().clone().sinc_()), _v(x.detach().clone().frac_()),
                                       _v(x.detach().clone().hypot_(y.detach())), _v(x.detach().clone().copysign_(y.detach())),
                                       _v(x.detach().clone().deg2rad_()), _v(torch.erfc_(x.detach().clone())), _v(x.detach().clone().fix_())])
    return out
