"""More torch.nn layers and functionals: EmbeddingBag / F.embedding_bag, Bilinear, Fold /
Unfold, LazyLinear (UninitializedParameter), LocalResponseNorm / CrossMapLRN2d, ChannelShuffle,
AlphaDropout / FeatureAlphaDropout / Dropout3d, RReLU, the multi-class margin losses,
gumbel_softmax, LPPool / MaxUnpool, affine_grid and grid_sample: values, shapes, gradients,
reprs, warnings and errors (type, message). Parameters are set from ``linspace`` so both
libraries start from the same values; the random layers are seeded with ``manual_seed`` and
compared exactly (ferrograd draws PyTorch's CPU random stream). Run with ``torch`` bound to
PyTorch (tools/record_nn_more_goldens.py records fixtures/nn_more.json) or to ferrograd
(test_nn_more.py compares)."""

import warnings


def _v(t):
    return [v if v == v else "nan" for v in t.detach().double().flatten().tolist()]


def _caught(f):
    try:
        return f()
    except Exception as e:  # noqa: BLE001 - PyTorch's error is the result
        return {"error": [type(e).__name__, str(e)]}


def _warned(f):
    """``[result, [warning messages]]``."""
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        r = _caught(f)
    return [r, [str(w.message) for w in ws]]


def _res(r):
    if isinstance(r, (tuple, list)):
        return [_res(e) for e in r]
    if not hasattr(r, "grad_fn"):
        return r
    return {"value": _v(r), "shape": list(r.shape), "dtype": str(r.dtype).split(".")[-1]}


def _fill(torch, module):
    with torch.no_grad():
        for k, p in enumerate(module.parameters()):
            p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (1 + 0.1 * k))
    return module


def _loss(torch, out):
    # a weighted sum (plus a square): no cancellation, so both libraries' rounding agrees
    return sum((o * torch.linspace(-1.0, 1.0, o.numel()).reshape(o.shape).to(o.dtype) + 0.1 * o * o).sum() for o in out)


def _grads(torch, module, inputs, out):
    params = [p for p in module.parameters() if p.requires_grad] + [i for i in inputs if i.requires_grad]
    gs = torch.autograd.grad(_loss(torch, out), params)
    return [_v(g) for g in gs]


def _fres(torch, f, *inputs):
    """Value of ``f(*inputs)`` and the gradients for its floating inputs."""
    xs = [i.clone().requires_grad_() if i.is_floating_point() else i for i in inputs]
    y = f(*xs)
    diff = [x for x in xs if x.requires_grad]
    gs = torch.autograd.grad(_loss(torch, [y]), diff) if diff and y.requires_grad else []
    return {"y": _res(y), "grads": [_v(g) for g in gs]}


def _embedding_bag(torch, out):
    nn = torch.nn
    F = torch.nn.functional
    w = torch.linspace(-1, 1, 7 * 4).reshape(7, 4)
    idx = torch.tensor([0, 2, 1, 3, 6, 2, 5, 4])
    offs = torch.tensor([0, 3, 3, 6])
    for mode in ("sum", "mean", "max"):
        out[f"eb_{mode}"] = _caught(lambda mode=mode: _fres(torch, lambda w: F.embedding_bag(idx, w, offs, mode=mode), w))
        out[f"eb_{mode}_pad"] = _caught(lambda mode=mode: _fres(
            torch, lambda w: F.embedding_bag(idx, w, offs, mode=mode, padding_idx=2), w))
        out[f"eb_{mode}_padneg"] = _caught(lambda mode=mode: _fres(
            torch, lambda w: F.embedding_bag(idx, w, offs, mode=mode, padding_idx=-1), w))
        out[f"eb_{mode}_last"] = _caught(lambda mode=mode: _fres(
            torch, lambda w: F.embedding_bag(idx, w, torch.tensor([0, 3, 5, 8]), mode=mode, include_last_offset=True), w))
        # (not with indices after the last offset: PyTorch 2.13 counts them in the last bag's
        # size for 'mean' and reads uninitialised memory in the 'sum' backward)
        out[f"eb_{mode}_last_empty"] = _caught(lambda mode=mode: _fres(
            torch, lambda w: F.embedding_bag(idx, w, torch.tensor([0, 3, 3, 8]), mode=mode, include_last_offset=True), w))
        out[f"eb_{mode}_2d"] = _caught(lambda mode=mode: _fres(
            torch, lambda w: F.embedding_bag(idx.reshape(4, 2), w, mode=mode), w))
        out[f"eb_{mode}_2d_pad"] = _caught(lambda mode=mode: _fres(
            torch, lambda w: F.embedding_bag(torch.tensor([[2, 2], [1, 2]]), w, mode=mode, padding_idx=2), w))
        out[f"eb_{mode}_int32"] = _caught(lambda mode=mode: _fres(
            torch, lambda w: F.embedding_bag(idx.int(), w, offs.int(), mode=mode), w))
        if mode != "max":  # (PyTorch 2.13 crashes on max with no bags)
            out[f"eb_{mode}_empty_offsets"] = _caught(lambda mode=mode: _res(
                F.embedding_bag(idx, w, torch.tensor([0]), mode=mode, include_last_offset=True)))
    psw = torch.linspace(0.5, 2.0, 8)
    out["eb_psw"] = _caught(lambda: _fres(torch, lambda w, p: F.embedding_bag(idx, w, offs, mode="sum", per_sample_weights=p),
                                          w, psw))
    out["eb_psw_pad"] = _caught(lambda: _fres(
        torch, lambda w, p: F.embedding_bag(idx, w, offs, mode="sum", per_sample_weights=p, padding_idx=2), w, psw))
    out["eb_psw_2d"] = _caught(lambda: _fres(
        torch, lambda w, p: F.embedding_bag(idx.reshape(2, 4), w, mode="sum", per_sample_weights=p), w, psw.reshape(2, 4)))
    out["eb_psw_mean"] = _caught(lambda: F.embedding_bag(idx, w, offs, mode="mean", per_sample_weights=psw))
    out["eb_psw_max"] = _caught(lambda: F.embedding_bag(idx, w, offs, mode="max", per_sample_weights=psw))
    out["eb_psw_shape"] = _caught(lambda: F.embedding_bag(idx, w, offs, mode="sum", per_sample_weights=psw[:5]))
    out["eb_psw_dtype"] = _caught(lambda: F.embedding_bag(idx, w, offs, mode="sum", per_sample_weights=psw.double()))
    # (PyTorch 2.13 divides some rows' gradients by another index's count when the indices
    # are not sorted; these inputs avoid that bug)
    for mode in ("sum", "mean"):
        out[f"eb_freq_{mode}"] = _caught(lambda mode=mode: _fres(
            torch, lambda w: F.embedding_bag(torch.tensor([1, 5, 5, 5]), w, torch.tensor([0, 2]), mode=mode,
                                             scale_grad_by_freq=True), w))

    def renorm(mode):
        w2 = w.clone() * 3
        y = F.embedding_bag(idx, w2, offs, mode=mode, max_norm=1.5, norm_type=1.0)
        return {"y": _res(y), "w": _v(w2)}
    out["eb_max_norm"] = _caught(lambda: renorm("mean"))
    out["eb_max_norm_max"] = _caught(lambda: renorm("max"))
    # errors
    out["eb_err_offset0"] = _caught(lambda: F.embedding_bag(idx, w, torch.tensor([1, 3])))
    out["eb_err_offset0_int"] = _caught(lambda: F.embedding_bag(idx, w, torch.tensor([2, 3], dtype=torch.int32)))
    out["eb_err_offset_last"] = _caught(lambda: F.embedding_bag(idx, w, torch.tensor([0, 3, 9])))
    out["eb_err_offset_dec"] = _caught(lambda: F.embedding_bag(idx, w, torch.tensor([0, 3, 2])))
    out["eb_err_index"] = _caught(lambda: F.embedding_bag(torch.tensor([0, 7]), w, torch.tensor([0])))
    out["eb_err_index_neg"] = _caught(lambda: F.embedding_bag(torch.tensor([0, 1, -1]), w, torch.tensor([0])))
    out["eb_err_float_input"] = _caught(lambda: F.embedding_bag(idx.float(), w, offs))
    out["eb_err_float_offsets"] = _caught(lambda: F.embedding_bag(idx, w, offs.float()))
    out["eb_err_mode"] = _caught(lambda: F.embedding_bag(idx, w, offs, mode="median"))
    out["eb_err_2d_offsets"] = _caught(lambda: F.embedding_bag(idx.reshape(2, 4), w, offs))
    out["eb_err_3d"] = _caught(lambda: F.embedding_bag(idx.reshape(2, 2, 2), w))
    out["eb_err_no_offsets"] = _caught(lambda: F.embedding_bag(idx, w))
    out["eb_err_offsets_2d"] = _caught(lambda: F.embedding_bag(idx, w, offs.reshape(2, 2)))
    out["eb_err_weight_1d"] = _caught(lambda: F.embedding_bag(idx, w.reshape(-1), offs))
    out["eb_err_padding_idx"] = _caught(lambda: F.embedding_bag(idx, w, offs, padding_idx=7))
    out["eb_err_padding_idx_neg"] = _caught(lambda: F.embedding_bag(idx, w, offs, padding_idx=-8))
    out["eb_err_max_freq"] = _caught(lambda: F.embedding_bag(idx, w, offs, mode="max", scale_grad_by_freq=True))
    out["eb_err_max_sparse"] = _caught(lambda: F.embedding_bag(idx, w, offs, mode="max", sparse=True))
    # the module
    out["EmbeddingBag_reprs"] = _caught(lambda: [
        repr(nn.EmbeddingBag(10, 3)), repr(nn.EmbeddingBag(10, 3, mode="sum", include_last_offset=True)),
        repr(nn.EmbeddingBag(10, 3, max_norm=1.0, norm_type=3.0, scale_grad_by_freq=True, mode="max", padding_idx=-2)),
        repr(nn.EmbeddingBag(10, 3, mode="bogus")), nn.EmbeddingBag(10, 3, padding_idx=-2).padding_idx])
    out["EmbeddingBag_bad_pad"] = _caught(lambda: nn.EmbeddingBag(5, 4, padding_idx=5))
    out["EmbeddingBag_bad_pad_neg"] = _caught(lambda: nn.EmbeddingBag(5, 4, padding_idx=-6))
    out["EmbeddingBag_bad_weight"] = _caught(lambda: nn.EmbeddingBag(5, 4, _weight=torch.ones(3, 3)))

    def init_values():
        torch.manual_seed(0)
        m = nn.EmbeddingBag(6, 3, padding_idx=1)
        return _v(m.weight)
    out["EmbeddingBag_init"] = _caught(init_values)

    def module_forward(mode, **kw):
        m = _fill(torch, nn.EmbeddingBag(7, 4, mode=mode, **kw))
        p = psw.clone().requires_grad_() if mode == "sum" else None
        y = m(idx, offs, p) if p is not None else m(idx, offs)
        return {"repr": repr(m), "y": _res(y), "grads": _grads(torch, m, [p] if p is not None else [], [y])}
    for mode in ("sum", "mean", "max"):
        out[f"EmbeddingBag_{mode}"] = _caught(lambda mode=mode: module_forward(mode))
    out["EmbeddingBag_pad_last"] = _caught(lambda: module_forward("mean", padding_idx=3))

    def pretrained(**kw):
        m = nn.EmbeddingBag.from_pretrained(w.clone(), **kw)
        y = m(idx.reshape(2, 4))
        return {"repr": repr(m), "requires_grad": m.weight.requires_grad, "y": _res(y), "mode": m.mode,
                "padding_idx": m.padding_idx}
    out["EmbeddingBag_pretrained"] = _caught(pretrained)
    out["EmbeddingBag_pretrained_kw"] = _caught(lambda: pretrained(freeze=False, mode="max", padding_idx=-1))
    out["EmbeddingBag_pretrained_bad"] = _caught(lambda: nn.EmbeddingBag.from_pretrained(w.reshape(-1)))


def _linear_family(torch, out):
    nn = torch.nn

    def bilinear_init():
        torch.manual_seed(0)
        m = nn.Bilinear(3, 4, 5)
        return {"repr": repr(m), "weight": _v(m.weight), "bias": _v(m.bias), "shapes": [list(m.weight.shape)]}
    out["Bilinear_init"] = _caught(bilinear_init)
    out["Bilinear_nobias_repr"] = _caught(lambda: [repr(nn.Bilinear(2, 3, 4, bias=False)),
                                                   nn.Bilinear(2, 3, 4, bias=False).bias is None])

    def bilinear_fwd(bias):
        m = _fill(torch, nn.Bilinear(3, 4, 5, bias=bias))
        x1 = torch.linspace(-1, 1, 2 * 3).reshape(2, 3).requires_grad_()
        x2 = torch.linspace(0.5, -0.5, 2 * 4).reshape(2, 4).requires_grad_()
        y = m(x1, x2)
        return {"y": _res(y), "grads": _grads(torch, m, [x1, x2], [y])}
    out["Bilinear_fwd"] = _caught(lambda: bilinear_fwd(True))
    out["Bilinear_fwd_nobias"] = _caught(lambda: bilinear_fwd(False))

    def fold_unfold():
        u = nn.Unfold(kernel_size=(2, 3), padding=1, stride=(1, 2))
        f = nn.Fold(output_size=(4, 5), kernel_size=(2, 3), padding=1, stride=(1, 2))
        x = torch.linspace(-1, 1, 2 * 3 * 4 * 5).reshape(2, 3, 4, 5).requires_grad_()
        cols = u(x)
        back = f(cols)
        return {"reprs": [repr(u), repr(f), repr(nn.Fold((4, 5), 2)), repr(nn.Unfold(2, dilation=2, padding=1, stride=2))],
                "cols": _res(cols), "back": _res(back), "grads": _grads(torch, u, [x], [back])}
    out["Fold_Unfold"] = _caught(fold_unfold)

    def lazy():
        torch.manual_seed(0)
        m = nn.LazyLinear(5)
        before = [repr(m), str(m.weight), repr(m.bias), type(m.weight).__name__, m.has_uninitialized_params(),
                  _caught(lambda: m.weight.shape)]
        x = torch.linspace(-1, 1, 2 * 3).reshape(2, 3)
        y = m(x)
        after = [repr(m), type(m).__name__, type(m.weight).__name__, list(m.weight.shape), _v(m.weight), _v(m.bias),
                 m.in_features]
        m2 = nn.LazyLinear(5, bias=False)
        y2 = m2(torch.ones(4, 2, 6))
        m3 = nn.LazyLinear(5)
        m3.load_state_dict(m.state_dict())
        loaded = [type(m3).__name__, type(m3.weight).__name__, list(m3.weight.shape), _v(m3(x))]
        return {"before": before, "after": after, "y": _res(y), "nobias": [repr(m2), list(y2.shape)], "loaded": loaded,
                "param": [repr(nn.parameter.UninitializedParameter()), nn.parameter.is_lazy(nn.Linear(2, 2).weight)]}
    out["LazyLinear"] = _caught(lazy)


def _norm_shuffle(torch, out):
    nn = torch.nn
    F = torch.nn.functional
    shapes = {"3d": (2, 5, 4), "4d": (2, 5, 3, 2), "5d": (1, 4, 2, 2, 3)}
    for tag, shape in shapes.items():
        n = 1
        for s in shape:
            n *= s
        x = torch.linspace(-2, 2, n).reshape(shape)
        for size in (2, 3, 4):
            out[f"lrn_{tag}_{size}"] = _caught(lambda x=x, size=size: _fres(
                torch, lambda x: F.local_response_norm(x, size, alpha=0.1, beta=0.6, k=1.5), x))
    out["lrn_default"] = _caught(lambda: _fres(torch, lambda x: nn.LocalResponseNorm(2)(x),
                                               torch.linspace(-2, 2, 2 * 3 * 2 * 2).reshape(2, 3, 2, 2)))
    out["lrn_reprs"] = _caught(lambda: [repr(nn.LocalResponseNorm(3)), repr(nn.LocalResponseNorm(2, alpha=1e-3, beta=0.5, k=2.0)),
                                        repr(nn.CrossMapLRN2d(3)), repr(nn.CrossMapLRN2d(4, alpha=1e-3, beta=0.5, k=2))])
    out["lrn_err"] = _caught(lambda: F.local_response_norm(torch.ones(2, 3), 2))
    out["lrn_empty"] = _caught(lambda: _res(F.local_response_norm(torch.ones(0, 3, 2), 2)))
    x = torch.linspace(-2, 2, 2 * 6 * 3 * 2).reshape(2, 6, 3, 2)
    for size in (1, 2, 3, 4, 5):
        out[f"cross_map_lrn_{size}"] = _caught(lambda size=size: _fres(
            torch, lambda x: nn.CrossMapLRN2d(size, alpha=0.3, beta=0.7, k=1.2)(x), x))
    out["cross_map_lrn_3d"] = _caught(lambda: nn.CrossMapLRN2d(3)(torch.ones(2, 3, 4)))
    # channel shuffle
    out["channel_shuffle"] = _caught(lambda: _fres(torch, lambda x: F.channel_shuffle(x, 3), x))
    out["channel_shuffle_3d"] = _caught(lambda: _fres(torch, lambda x: F.channel_shuffle(x, 2),
                                                      torch.linspace(-1, 1, 2 * 6 * 3).reshape(2, 6, 3)))
    out["ChannelShuffle"] = _caught(lambda: [repr(nn.ChannelShuffle(2)), _fres(torch, lambda x: nn.ChannelShuffle(2)(x), x)])
    out["channel_shuffle_err_div"] = _caught(lambda: F.channel_shuffle(x, 4))
    out["channel_shuffle_err_zero"] = _caught(lambda: F.channel_shuffle(x, 0))
    out["channel_shuffle_err_neg"] = _caught(lambda: F.channel_shuffle(x, -1))
    out["channel_shuffle_err_2d"] = _caught(lambda: F.channel_shuffle(torch.ones(2, 6), 2))


def _random_layers(torch, out):
    nn = torch.nn
    F = torch.nn.functional
    x = torch.linspace(-2, 2, 2 * 4 * 3).reshape(2, 4, 3)

    def seeded(f, *inputs, seed=0):
        torch.manual_seed(seed)
        return _fres(torch, f, *inputs)
    out["alpha_dropout"] = _caught(lambda: seeded(lambda x: F.alpha_dropout(x, 0.3, True), x))
    out["alpha_dropout_eval"] = _caught(lambda: seeded(lambda x: F.alpha_dropout(x, 0.3), x))
    out["alpha_dropout_p1"] = _caught(lambda: seeded(lambda x: F.alpha_dropout(x, 1.0, True), x))
    out["alpha_dropout_p0"] = _caught(lambda: seeded(lambda x: F.alpha_dropout(x, 0.0, True), x))
    out["alpha_dropout_bad_p"] = _caught(lambda: F.alpha_dropout(x, 1.5, True))

    def inplace(f):
        torch.manual_seed(1)
        y = x.clone()
        r = f(y)
        return [_v(y), r is y]
    out["alpha_dropout_inplace"] = _caught(lambda: inplace(lambda y: F.alpha_dropout(y, 0.4, True, inplace=True)))
    out["feature_alpha_dropout"] = _caught(lambda: seeded(lambda x: F.feature_alpha_dropout(x, 0.5, True), x, seed=3))
    out["feature_alpha_dropout_4d"] = _caught(lambda: seeded(lambda x: F.feature_alpha_dropout(x, 0.5, True),
                                                             x.reshape(2, 4, 3, 1), seed=4))
    out["feature_alpha_dropout_inplace"] = _caught(lambda: inplace(lambda y: F.feature_alpha_dropout(y, 0.4, True, True)))
    out["feature_alpha_dropout_1d"] = _caught(lambda: F.feature_alpha_dropout(torch.ones(3), 0.5, True))
    out["feature_alpha_dropout_1d_eval"] = _caught(lambda: _res(F.feature_alpha_dropout(torch.ones(3), 0.5, False)))
    x5 = torch.linspace(-1, 1, 2 * 3 * 2 * 2 * 2).reshape(2, 3, 2, 2, 2)
    out["dropout3d"] = _caught(lambda: seeded(lambda x: F.dropout3d(x, 0.5, True), x5, seed=5))
    out["dropout3d_unbatched"] = _caught(lambda: seeded(lambda x: F.dropout3d(x, 0.5, True), x5[0], seed=5))
    out["dropout3d_warn"] = _warned(lambda: seeded(lambda x: F.dropout3d(x, 0.5, True), x, seed=5))
    out["dropout3d_inplace"] = _caught(lambda: inplace(lambda y: F.dropout3d(y.reshape(2, 4, 3, 1, 1), 0.4, True, True)))
    out["dropout_reprs"] = _caught(lambda: [repr(nn.AlphaDropout()), repr(nn.AlphaDropout(0.2, True)),
                                            repr(nn.FeatureAlphaDropout(0.3)), repr(nn.Dropout3d(0.3))])
    out["dropout_bad_p"] = _caught(lambda: nn.AlphaDropout(1.2))

    def dropout_modules():
        r = {}
        for name, m, inp in (("AlphaDropout", nn.AlphaDropout(0.3), x), ("FeatureAlphaDropout", nn.FeatureAlphaDropout(0.3), x),
                             ("Dropout3d", nn.Dropout3d(0.3), x5)):
            torch.manual_seed(7)
            r[name] = [_v(m(inp)), _v(m.eval()(inp))]
        return r
    out["dropout_modules"] = _caught(dropout_modules)
    # rrelu: the input has exact zeros (they draw a slope too)
    xr = torch.cat([torch.linspace(-2, 2, 21), torch.zeros(3)]).reshape(4, 6)
    out["rrelu_train"] = _caught(lambda: seeded(lambda x: F.rrelu(x, training=True), xr))
    out["rrelu_train_bounds"] = _caught(lambda: seeded(lambda x: F.rrelu(x, 0.05, 0.6, True), xr, seed=2))
    out["rrelu_train_double"] = _caught(lambda: seeded(lambda x: F.rrelu(x, 0.1, 0.3, True), xr.double(), seed=2))
    out["rrelu_train_equal"] = _caught(lambda: seeded(lambda x: F.rrelu(x, 0.2, 0.2, True), xr))
    out["rrelu_eval"] = _caught(lambda: seeded(lambda x: F.rrelu(x), xr))
    out["rrelu_eval_bounds"] = _caught(lambda: seeded(lambda x: F.rrelu(x, 0.1, 0.5), xr))
    out["rrelu_inplace"] = _caught(lambda: inplace(lambda y: F.rrelu(y, training=True, inplace=True)))
    out["rrelu__"] = _caught(lambda: inplace(lambda y: F.rrelu_(y, 0.2, 0.4, True)))
    out["rrelu__eval"] = _caught(lambda: inplace(lambda y: F.rrelu_(y)))
    out["rrelu_bad"] = _caught(lambda: F.rrelu(xr, 0.5, 0.2, training=True))
    out["rrelu_bad_eval"] = _caught(lambda: F.rrelu(xr, 0.5, 0.2))

    def rrelu_module():
        m = nn.RReLU(0.1, 0.3)
        torch.manual_seed(11)
        train = _fres(torch, m, xr)
        m.eval()
        return {"reprs": [repr(nn.RReLU()), repr(m), repr(nn.RReLU(0.1, 0.3, inplace=True))], "train": train,
                "eval": _fres(torch, m, xr)}
    out["RReLU"] = _caught(rrelu_module)
    # gumbel softmax
    logits = torch.linspace(-1, 2, 3 * 5).reshape(3, 5)
    out["gumbel"] = _caught(lambda: seeded(lambda x: F.gumbel_softmax(x), logits))
    out["gumbel_tau"] = _caught(lambda: seeded(lambda x: F.gumbel_softmax(x, tau=0.5, dim=0), logits, seed=1))
    out["gumbel_hard"] = _caught(lambda: seeded(lambda x: F.gumbel_softmax(x, tau=2.0, hard=True), logits, seed=2))
    out["gumbel_hard_dim0"] = _caught(lambda: seeded(lambda x: F.gumbel_softmax(x, hard=True, dim=0), logits, seed=3))
    out["gumbel_eps"] = _warned(lambda: seeded(lambda x: F.gumbel_softmax(x, eps=1e-3), logits, seed=4))


def _losses(torch, out):
    nn = torch.nn
    F = torch.nn.functional
    x = torch.linspace(-1.3, 1.7, 4 * 5).reshape(4, 5)
    y = torch.tensor([1, 0, 4, 2])
    wt = torch.tensor([0.5, 1.0, 1.5, 2.0, 2.5])
    for p in (1, 2):
        for red in ("none", "mean", "sum"):
            out[f"mm_{p}_{red}"] = _caught(lambda p=p, red=red: _fres(
                torch, lambda x: F.multi_margin_loss(x, y, p=p, margin=0.8, reduction=red), x))
            out[f"mm_{p}_{red}_w"] = _caught(lambda p=p, red=red: _fres(
                torch, lambda x: F.multi_margin_loss(x, y, p=p, weight=wt, reduction=red), x))
    out["mm_1d"] = _caught(lambda: _fres(torch, lambda x: F.multi_margin_loss(x, torch.tensor([2]), reduction="none"), x[0]))
    out["mm_1d_0dtarget"] = _caught(lambda: _fres(torch, lambda x: F.multi_margin_loss(x, torch.tensor(2), reduction="none"), x[0]))
    out["mm_0d"] = _caught(lambda: _fres(torch, lambda x: F.multi_margin_loss(x, torch.tensor(0)), torch.tensor(0.3)))
    out["mm_big_margin"] = _caught(lambda: _fres(torch, lambda x: F.multi_margin_loss(x, y, margin=5.0), x))
    out["mm_legacy"] = _warned(lambda: _res(F.multi_margin_loss(x, y, size_average=False)))
    out["mm_err_range"] = _caught(lambda: F.multi_margin_loss(x, torch.tensor([0, 5, 1, 1])))
    out["mm_err_neg"] = _caught(lambda: F.multi_margin_loss(x, torch.tensor([0, -1, 1, 1])))
    out["mm_err_target_dim"] = _caught(lambda: F.multi_margin_loss(x, y.reshape(4, 1)))
    out["mm_err_target_size"] = _caught(lambda: F.multi_margin_loss(x, y[:3]))
    out["mm_err_3d"] = _caught(lambda: F.multi_margin_loss(x.reshape(2, 2, 5), y))
    out["mm_err_p"] = _caught(lambda: F.multi_margin_loss(x, y, p=3))
    out["mm_err_w2d"] = _caught(lambda: F.multi_margin_loss(x, y, weight=torch.ones(5, 1)))
    out["mm_err_wsize"] = _caught(lambda: F.multi_margin_loss(x, y, weight=torch.ones(3)))
    out["mm_err_float_target"] = _caught(lambda: F.multi_margin_loss(x, y.float()))
    out["mm_err_reduction"] = _caught(lambda: F.multi_margin_loss(x, y, reduction="foo"))
    out["mm_err_empty_cols"] = _caught(lambda: F.multi_margin_loss(torch.ones(2, 0), torch.zeros(2).long()))
    t = torch.tensor([[3, 0, -1, 1, 2], [1, 1, -1, -1, -1], [-1, 2, 3, 0, 0], [4, 3, 2, 1, 0]])
    for red in ("none", "mean", "sum"):
        out[f"mlm_{red}"] = _caught(lambda red=red: _fres(torch, lambda x: F.multilabel_margin_loss(x, t, reduction=red), x))
    out["mlm_1d"] = _caught(lambda: _fres(torch, lambda x: F.multilabel_margin_loss(x, t[0], reduction="none"), x[0]))
    out["mlm_0d"] = _caught(lambda: _fres(torch, lambda x: F.multilabel_margin_loss(x, torch.tensor(0)), torch.tensor(0.3)))
    out["mlm_legacy"] = _warned(lambda: _res(F.multilabel_margin_loss(x, t, reduce=False)))
    out["mlm_err_range"] = _caught(lambda: F.multilabel_margin_loss(x[0], torch.tensor([0, 5, -1, 0, 0])))
    out["mlm_err_range_after"] = _caught(lambda: F.multilabel_margin_loss(x[0], torch.tensor([0, -1, 5, 0, 0])))
    out["mlm_err_neg"] = _caught(lambda: F.multilabel_margin_loss(x[0], torch.tensor([0, -2, -1, 0, 0])))
    out["mlm_err_size"] = _caught(lambda: F.multilabel_margin_loss(x, t[:, :3]))
    out["mlm_err_size_1d"] = _caught(lambda: F.multilabel_margin_loss(x[0], t[0, :3]))
    out["mlm_err_3d"] = _caught(lambda: F.multilabel_margin_loss(x.reshape(2, 2, 5), t))
    out["mlm_err_float"] = _caught(lambda: F.multilabel_margin_loss(x, t.float()))
    tgt = (torch.linspace(0, 1, 20).reshape(4, 5) > 0.45).float()
    for red in ("none", "mean", "sum"):
        out[f"mlsm_{red}"] = _caught(lambda red=red: _fres(
            torch, lambda x, t: F.multilabel_soft_margin_loss(x, t, reduction=red), x, tgt))
        out[f"mlsm_{red}_w"] = _caught(lambda red=red: _fres(
            torch, lambda x: F.multilabel_soft_margin_loss(x, tgt, weight=wt, reduction=red), x))
    out["mlsm_err_reduction"] = _caught(lambda: F.multilabel_soft_margin_loss(x, tgt, reduction="foo"))
    out["mlsm_legacy"] = _warned(lambda: _res(F.multilabel_soft_margin_loss(x, tgt, size_average=False)))

    def modules():
        ms = [nn.MultiMarginLoss(), nn.MultiMarginLoss(p=2, margin=0.5, weight=wt, reduction="sum"),
              nn.MultiLabelMarginLoss(reduction="none"), nn.MultiLabelSoftMarginLoss(weight=wt)]
        return {"reprs": [repr(m) for m in ms],
                "values": [_v(ms[0](x, y)), _v(ms[1](x, y)), _v(ms[2](x, t)), _v(ms[3](x, tgt))],
                "attrs": [ms[1].p, ms[1].margin, ms[1].reduction, _v(ms[1].weight), ms[2].reduction]}
    out["loss_modules"] = _caught(modules)
    out["MultiMarginLoss_p3"] = _caught(lambda: nn.MultiMarginLoss(p=3))
    out["MultiMarginLoss_w2d"] = _caught(lambda: nn.MultiMarginLoss(weight=torch.ones(2, 2)))
    out["MultiLabelSoftMarginLoss_legacy"] = _warned(lambda: nn.MultiLabelSoftMarginLoss(size_average=False).reduction)


def _pools(torch, out):
    nn = torch.nn
    F = torch.nn.functional
    x1 = torch.linspace(-1, 1, 2 * 3 * 7).reshape(2, 3, 7)
    xp1 = torch.linspace(0.1, 2, 2 * 3 * 7).reshape(2, 3, 7)
    x2 = torch.linspace(-1, 1, 2 * 3 * 5 * 6).reshape(2, 3, 5, 6)
    xp2 = torch.linspace(0.1, 2, 2 * 3 * 5 * 6).reshape(2, 3, 5, 6)
    out["lp1_2"] = _caught(lambda: _fres(torch, lambda x: F.lp_pool1d(x, 2, 3), x1))
    out["lp1_2_stride"] = _caught(lambda: _fres(torch, lambda x: F.lp_pool1d(x, 2, 3, stride=2, ceil_mode=True), x1))
    out["lp1_15"] = _caught(lambda: _fres(torch, lambda x: F.lp_pool1d(x, 1.5, 2), xp1))
    out["lp1_15_neg"] = _caught(lambda: _res(F.lp_pool1d(x1, 1.5, 2)))
    out["lp1_inf"] = _caught(lambda: _fres(torch, lambda x: F.lp_pool1d(x, float("inf"), 3, 2), x1))
    out["lp1_ninf"] = _caught(lambda: _fres(torch, lambda x: F.lp_pool1d(x, -float("inf"), 3, 2), x1))
    out["lp1_unbatched"] = _caught(lambda: _fres(torch, lambda x: F.lp_pool1d(x, 3, 2), x1[0]))
    out["lp2_2"] = _caught(lambda: _fres(torch, lambda x: F.lp_pool2d(x, 2, 2), x2))
    out["lp2_rect"] = _caught(lambda: _fres(torch, lambda x: F.lp_pool2d(x, 2, (2, 3), stride=(1, 2)), x2))
    out["lp2_ceil"] = _caught(lambda: _fres(torch, lambda x: F.lp_pool2d(x, 3, 2, ceil_mode=True), xp2))
    out["lp2_15"] = _caught(lambda: _fres(torch, lambda x: F.lp_pool2d(x, 1.5, 2), xp2))
    out["lp2_inf"] = _caught(lambda: _fres(torch, lambda x: F.lp_pool2d(x, float("inf"), 2), x2))
    out["lp2_unbatched"] = _caught(lambda: _fres(torch, lambda x: F.lp_pool2d(x, 2, 2), x2[0]))
    out["LPPool"] = _caught(lambda: {
        "reprs": [repr(nn.LPPool1d(2, 3)), repr(nn.LPPool2d(1.5, (2, 3), stride=2, ceil_mode=True))],
        "lp1": _fres(torch, nn.LPPool1d(2, 3, stride=2), x1), "lp2": _fres(torch, nn.LPPool2d(1, 2), xp2)})
    # unpooling: indices from max_pool
    a2 = torch.linspace(-1, 1, 2 * 2 * 5 * 6).reshape(2, 2, 5, 6).sin()
    out2, idx2 = F.max_pool2d(a2, 2, return_indices=True)
    out["unpool2"] = _caught(lambda: _fres(torch, lambda v: F.max_unpool2d(v, idx2, 2), out2))
    out["unpool2_size"] = _caught(lambda: _fres(torch, lambda v: F.max_unpool2d(v, idx2, 2, output_size=(5, 6)), out2))
    out["unpool2_size4"] = _caught(lambda: _fres(torch, lambda v: F.max_unpool2d(v, idx2, 2, output_size=[2, 2, 5, 7]), out2))
    out3, idx3 = F.max_pool2d(a2, 3, stride=2, padding=1, return_indices=True)
    out["unpool2_stride_pad"] = _caught(lambda: _fres(torch, lambda v: F.max_unpool2d(v, idx3, 3, 2, 1, (5, 6)), out3))
    out["unpool2_unbatched"] = _caught(lambda: _fres(torch, lambda v: F.max_unpool2d(v, idx2[0], 2), out2[0]))
    a1 = torch.linspace(-1, 1, 2 * 3 * 8).reshape(2, 3, 8).cos()
    out1, idx1 = F.max_pool1d(a1, 2, return_indices=True)
    out["unpool1"] = _caught(lambda: _fres(torch, lambda v: F.max_unpool1d(v, idx1, 2), out1))
    out["unpool1_size"] = _caught(lambda: _fres(torch, lambda v: F.max_unpool1d(v, idx1, 2, output_size=[9]), out1))
    out["unpool1_unbatched"] = _caught(lambda: _fres(torch, lambda v: F.max_unpool1d(v, idx1[0], 2), out1[0]))
    out["MaxUnpool"] = _caught(lambda: {
        "reprs": [repr(nn.MaxUnpool1d(2)), repr(nn.MaxUnpool2d((2, 3), stride=1, padding=(0, 1))), repr(nn.MaxUnpool2d(2))],
        "u2": _fres(torch, lambda v: nn.MaxUnpool2d(2)(v, idx2), out2),
        "u1": _fres(torch, lambda v: nn.MaxUnpool1d(2)(v, idx1, output_size=(2, 3, 9)), out1)})
    one = torch.ones(1, 1, 2, 2)
    out["unpool_err_index"] = _caught(lambda: F.max_unpool2d(one, torch.tensor([[[[0, 1], [2, 20]]]]), 2))
    out["unpool_err_neg"] = _caught(lambda: F.max_unpool2d(one, torch.tensor([[[[0, 1], [2, -1]]]]), 2))
    out["unpool_err_shape"] = _caught(lambda: F.max_unpool2d(one, torch.tensor([[[[0, 1, 2, 3]]]]), 2))
    out["unpool_err_float"] = _caught(lambda: F.max_unpool2d(one, torch.ones(1, 1, 2, 2), 2))
    out["unpool_err_size"] = _caught(lambda: F.max_unpool2d(one, torch.zeros(1, 1, 2, 2).long(), 2, output_size=(9, 9)))
    out["unpool_err_size_list"] = _caught(lambda: F.max_unpool2d(one, torch.zeros(1, 1, 2, 2).long(), 2, output_size=[1, 4]))
    out["unpool_err_size_len"] = _caught(lambda: F.max_unpool2d(one, torch.zeros(1, 1, 2, 2).long(), 2, output_size=(4,)))
    out["unpool_err_2d"] = _caught(lambda: F.max_unpool2d(torch.ones(2, 2), torch.zeros(2, 2).long(), 2))
    out["unpool_err_5d"] = _caught(lambda: F.max_unpool2d(torch.ones(1, 1, 1, 2, 2), torch.zeros(1, 1, 1, 2, 2).long(), 2))
    out["unpool1_err_1d"] = _caught(lambda: F.max_unpool1d(torch.ones(2), torch.zeros(2).long(), 2))
    out["unpool_err_negsize"] = _caught(lambda: F.max_unpool2d(torch.ones(1, 1, 1, 1), torch.zeros(1, 1, 1, 1).long(), 1, padding=1))
    out["unpool_err_empty"] = _caught(lambda: F.max_unpool2d(torch.ones(1, 0, 2, 2), torch.zeros(1, 0, 2, 2).long(), 2))


def _grids(torch, out):
    F = torch.nn.functional
    theta = torch.tensor([[[0.9, -0.35, 0.1], [0.3, 1.1, -0.05]], [[1.2, 0.15, -0.2], [-0.25, 0.8, 0.13]]])
    for ac in (True, False):
        out[f"affine_grid_{ac}"] = _caught(lambda ac=ac: _fres(torch, lambda t: F.affine_grid(t, [2, 3, 4, 5], align_corners=ac), theta))
        out[f"affine_grid_unit_{ac}"] = _warned(lambda ac=ac: _fres(
            torch, lambda t: F.affine_grid(t, [2, 3, 1, 3], align_corners=ac), theta))
    theta3 = torch.linspace(-0.5, 1.2, 2 * 12).reshape(2, 3, 4)
    out["affine_grid_3d"] = _caught(lambda: _fres(torch, lambda t: F.affine_grid(t, (2, 1, 2, 3, 4), align_corners=False), theta3))
    out["affine_grid_default"] = _warned(lambda: _res(F.affine_grid(theta, [2, 1, 2, 2])))
    out["affine_grid_err_shape"] = _caught(lambda: F.affine_grid(torch.ones(1, 3, 3), [1, 1, 2, 2], align_corners=False))
    out["affine_grid_err_shape3"] = _caught(lambda: F.affine_grid(torch.ones(1, 2, 3), [1, 1, 2, 2, 2], align_corners=False))
    out["affine_grid_err_size"] = _caught(lambda: F.affine_grid(torch.ones(1, 2, 3), [1, 2, 2], align_corners=False))
    out["affine_grid_err_int"] = _caught(lambda: F.affine_grid(torch.ones(1, 2, 3).long(), [1, 1, 2, 2], align_corners=False))
    out["affine_grid_err_zero"] = _caught(lambda: F.affine_grid(torch.ones(1, 2, 3), [1, 1, 0, 2], align_corners=False))
    out["affine_grid_err_batch"] = _caught(lambda: F.affine_grid(torch.ones(2, 2, 3), [1, 1, 2, 2], align_corners=False))
    img = torch.linspace(-1, 1, 2 * 3 * 4 * 5).reshape(2, 3, 4, 5).sin() + torch.linspace(0, 1, 5)
    grids = {"in": torch.linspace(-1.23, 1.19, 2 * 3 * 4 * 2).reshape(2, 3, 4, 2),
             "out": torch.linspace(-3.17, 2.91, 2 * 3 * 4 * 2).reshape(2, 3, 4, 2).flip(-1)}
    for gname, g in grids.items():
        for mode in ("bilinear", "nearest"):
            for pm in ("zeros", "border", "reflection"):
                for ac in (True, False):
                    out[f"grid_sample_{gname}_{mode}_{pm}_{ac}"] = _caught(lambda g=g, mode=mode, pm=pm, ac=ac: _fres(
                        torch, lambda i, g: F.grid_sample(i, g, mode=mode, padding_mode=pm, align_corners=ac), img, g))
    for ac in (True, False):
        out[f"grid_sample_affine_{ac}"] = _caught(lambda ac=ac: _fres(
            torch, lambda i, t: F.grid_sample(i, F.affine_grid(t, [2, 3, 3, 4], align_corners=ac), align_corners=ac), img, theta))
    out["grid_sample_single_pixel"] = _caught(lambda: _fres(
        torch, lambda i, g: F.grid_sample(i, g, padding_mode="reflection", align_corners=True), img[:, :, :1, :1], grids["in"]))
    out["grid_sample_double"] = _caught(lambda: _fres(
        torch, lambda i, g: F.grid_sample(i, g, align_corners=False), img.double(), grids["out"].double()))
    out["grid_sample_default"] = _warned(lambda: _res(F.grid_sample(img, grids["in"])))
    out["grid_sample_err_mode"] = _caught(lambda: F.grid_sample(img, grids["in"], mode="foo"))
    out["grid_sample_err_pad"] = _caught(lambda: F.grid_sample(img, grids["in"], padding_mode="foo"))
    out["grid_sample_err_batch"] = _caught(lambda: F.grid_sample(img[:1], grids["in"], align_corners=False))
    out["grid_sample_err_last"] = _caught(lambda: F.grid_sample(img, torch.zeros(2, 2, 2, 3), align_corners=False))
    out["grid_sample_err_3d"] = _caught(lambda: F.grid_sample(torch.ones(1, 3, 3), torch.zeros(1, 2, 2), align_corners=False))
    out["grid_sample_err_3d_grid1"] = _caught(lambda: F.grid_sample(torch.ones(1, 3, 3), torch.zeros(1, 2, 1), align_corners=False))
    out["grid_sample_err_dims"] = _caught(lambda: F.grid_sample(img, torch.zeros(2, 3, 2), align_corners=False))
    out["grid_sample_err_dtype"] = _caught(lambda: F.grid_sample(img, grids["in"].double(), align_corners=False))
    out["grid_sample_err_empty"] = _caught(lambda: F.grid_sample(torch.ones(1, 1, 0, 3), torch.zeros(1, 2, 2, 2), align_corners=False))
    # bicubic (2-D only), every padding, in float64 (in float32 the grid's gradient sums 16
    # taps per channel whose cancellation leaves ~1e-5 of rounding that depends on the order);
    # 3-D bilinear / nearest
    for gname, g in grids.items():
        for pm in ("zeros", "border", "reflection"):
            for ac in (True, False):
                out[f"grid_sample_{gname}_bicubic_{pm}_{ac}"] = _caught(lambda g=g, pm=pm, ac=ac: _fres(
                    torch, lambda i, g: F.grid_sample(i, g, mode="bicubic", padding_mode=pm, align_corners=ac), img.double(), g.double()))
    out["grid_sample_bicubic_float32"] = _caught(lambda: _fres(
        torch, lambda i, g: F.grid_sample(i, g, mode="bicubic", padding_mode="zeros", align_corners=False), img, grids["in"]))
    vol = torch.linspace(-1, 1, 2 * 2 * 3 * 4 * 5).reshape(2, 2, 3, 4, 5).cos() + torch.linspace(0, 0.5, 5)
    grid3 = torch.linspace(-1.31, 1.27, 2 * 2 * 3 * 2 * 3).reshape(2, 2, 3, 2, 3).flip(-1)
    for mode in ("bilinear", "nearest"):
        for pm in ("zeros", "border", "reflection"):
            for ac in (True, False):
                out[f"grid_sample_3d_{mode}_{pm}_{ac}"] = _caught(lambda mode=mode, pm=pm, ac=ac: _fres(
                    torch, lambda i, g: F.grid_sample(i, g, mode=mode, padding_mode=pm, align_corners=ac), vol, grid3))

    def node(mode, v, g):
        y = F.grid_sample(v.clone().requires_grad_(), g.clone().requires_grad_(), mode=mode, align_corners=False)
        f = y.grad_fn
        return [f.name(), f._saved_interpolation_mode, f._saved_padding_mode, f._saved_align_corners,
                list(f._saved_input.shape), list(f._saved_grid.shape)]
    out["grid_sample_node_2d"] = _caught(lambda: node("bicubic", img, grids["in"]))
    out["grid_sample_node_3d"] = _caught(lambda: node("nearest", vol, grid3))

    def second(mode, pm, v, g):
        # gradients of a function of the first gradients (create_graph): the double backward
        v, g = v.double().requires_grad_(), g.double().requires_grad_()
        y = F.grid_sample(v, g, mode=mode, padding_mode=pm, align_corners=False)
        gv, gg = torch.autograd.grad(_loss(torch, [y]), (v, g), create_graph=True)
        names = [gv.grad_fn.name(), gg.grad_fn.name()]
        h = (gv * gv).sum() + (gg * torch.linspace(-1, 1, gg.numel(), dtype=gg.dtype).reshape(gg.shape)).sum() + (gg * gg).sum()
        return [names] + [_v(t) for t in torch.autograd.grad(h, (v, g))]
    for mode in ("bilinear", "bicubic", "nearest"):
        for pm in ("zeros", "reflection"):
            out[f"grid_sample_second_{mode}_{pm}"] = _caught(lambda mode=mode, pm=pm: second(mode, pm, img, grids["in"]))
    out["grid_sample_second_3d"] = _caught(lambda: second("bilinear", "border", vol, grid3))
    def low(dt, v, g, **kw):
        # half precision: the dtype, and the values within a few of its ulps of float32's
        # (PyTorch rounds each step to the type; ferrograd computes in float32)
        y = F.grid_sample(v.to(dt), g.to(dt), **kw)
        ref = F.grid_sample(v.to(dt).float(), g.to(dt).float(), **kw)
        return [str(y.dtype), list(y.shape), bool(((y.float() - ref).abs() <= 0.02 * (1 + ref.abs())).all())]
    out["grid_sample_half"] = _caught(lambda: low(torch.float16, img, grids["in"], mode="bicubic", align_corners=False))
    out["grid_sample_bf16_3d"] = _caught(lambda: low(torch.bfloat16, vol, grid3, align_corners=True))
    nan = torch.full((1, 1, 2, 2), float("nan"))
    for mode in ("bilinear", "nearest", "bicubic"):
        for pm in ("zeros", "border", "reflection"):
            out[f"grid_sample_nan_{mode}_{pm}"] = _caught(lambda mode=mode, pm=pm: _res(
                F.grid_sample(img[:1], nan, mode=mode, padding_mode=pm, align_corners=False)))
    out["grid_sample_inf_reflection"] = _caught(lambda: _res(
        F.grid_sample(img[:1], torch.tensor([[[[float("inf"), -float("inf")]]]]), padding_mode="reflection", align_corners=True)))
    out["grid_sample_empty_batch"] = _caught(lambda: _res(F.grid_sample(torch.ones(0, 2, 3, 4), torch.zeros(0, 2, 3, 2), align_corners=False)))
    out["grid_sample_empty_grid"] = _caught(lambda: _res(F.grid_sample(img, torch.zeros(2, 0, 3, 2), align_corners=False)))
    out["grid_sample_strided"] = _caught(lambda: _fres(
        torch, lambda i, g: F.grid_sample(i.transpose(2, 3), g, align_corners=True), img, grids["in"][:, :, :, :]))
    out["grid_sampler_torch"] = _caught(lambda: _res(torch.grid_sampler(img, grids["out"], 2, 1, False)))
    out["grid_sampler_2d_torch"] = _caught(lambda: _res(torch.grid_sampler_2d(img, grids["out"], 1, 2, True)))
    out["grid_sampler_3d_torch"] = _caught(lambda: _res(torch.grid_sampler_3d(vol, grid3, 0, 0, False)))
    out["grid_sample_err_bicubic_3d"] = _caught(lambda: F.grid_sample(vol, grid3, mode="bicubic", align_corners=False))
    out["grid_sample_err_long"] = _caught(lambda: F.grid_sample(img.long(), grids["in"], align_corners=False))
    out["grid_sample_err_long_3d"] = _caught(lambda: F.grid_sample(vol.long(), grid3.long(), align_corners=False))
    out["grid_sample_err_long_grid"] = _caught(lambda: F.grid_sample(img, grids["in"].long(), align_corners=False))
    out["grid_sample_err_5d_grid4"] = _caught(lambda: F.grid_sample(vol, grids["in"], align_corners=False))


def _interpolate(torch, out):
    """Every interpolate mode (values, gradients, node names and saved fields, errors)."""
    F = torch.nn.functional
    x1 = torch.linspace(-1, 1, 2 * 3 * 7).reshape(2, 3, 7).sin()
    x2 = torch.linspace(-1, 1, 2 * 2 * 5 * 6).reshape(2, 2, 5, 6).sin() * 2
    x3 = torch.linspace(-1, 1, 1 * 2 * 3 * 4 * 5).reshape(1, 2, 3, 4, 5).cos()
    cases = []
    for mode in ("nearest", "nearest-exact", "area"):
        cases += [(f"{mode}_1d_size", x1, dict(size=11, mode=mode)), (f"{mode}_1d_down", x1, dict(size=3, mode=mode)),
                  (f"{mode}_2d_scale", x2, dict(scale_factor=(1.7, 0.6), mode=mode)), (f"{mode}_2d_size", x2, dict(size=(9, 4), mode=mode)),
                  (f"{mode}_3d_size", x3, dict(size=(5, 3, 7), mode=mode)), (f"{mode}_3d_scale", x3, dict(scale_factor=2, mode=mode))]
    for ac in (False, True):
        cases += [(f"trilinear_{ac}_size", x3, dict(size=(4, 6, 3), mode="trilinear", align_corners=ac)),
                  (f"trilinear_{ac}_scale", x3, dict(scale_factor=(1.5, 0.5, 2.0), mode="trilinear", align_corners=ac)),
                  (f"bicubic_{ac}_up", x2, dict(size=(11, 13), mode="bicubic", align_corners=ac)),
                  (f"bicubic_{ac}_down", x2, dict(size=(3, 4), mode="bicubic", align_corners=ac)),
                  (f"bicubic_{ac}_scale", x2, dict(scale_factor=(1.3, 2.1), mode="bicubic", align_corners=ac)),
                  (f"bicubic_{ac}_recompute", x2, dict(scale_factor=1.3, mode="bicubic", align_corners=ac, recompute_scale_factor=True))]
        for mode in ("bilinear", "bicubic") + (("lanczos",) if not ac else ()):
            cases += [(f"{mode}_aa_{ac}_down", x2, dict(size=(2, 4), mode=mode, align_corners=ac, antialias=True)),
                      (f"{mode}_aa_{ac}_up", x2, dict(size=(8, 9), mode=mode, align_corners=ac, antialias=True)),
                      (f"{mode}_aa_{ac}_scale", x2, dict(scale_factor=(0.4, 0.7), mode=mode, align_corners=ac, antialias=True))]
    for name, x, kw in cases:
        out[f"interp_{name}"] = _caught(lambda x=x, kw=kw: _fres(torch, lambda i: F.interpolate(i, **kw), x))

    def node(x, **kw):
        y = F.interpolate(x.clone().requires_grad_(), **kw)
        f = y.grad_fn
        return [f.name()] + [[a, repr(getattr(f, a))] for a in sorted(dir(f)) if a.startswith("_saved_")]
    out["interp_node_nearest3d"] = _caught(lambda: node(x3, scale_factor=2))
    out["interp_node_exact2d"] = _caught(lambda: node(x2, scale_factor=(1.5, 2.0), mode="nearest-exact"))
    out["interp_node_exact1d"] = _caught(lambda: node(x1, size=4, mode="nearest-exact"))
    out["interp_node_trilinear"] = _caught(lambda: node(x3, scale_factor=(1.5, 0.5, 2.0), mode="trilinear"))
    out["interp_node_bicubic"] = _caught(lambda: node(x2, size=(3, 8), mode="bicubic", align_corners=True))
    out["interp_node_bilinear_aa"] = _caught(lambda: node(x2, size=(3, 8), mode="bilinear", antialias=True))
    out["interp_node_bicubic_aa"] = _caught(lambda: node(x2, scale_factor=0.5, mode="bicubic", antialias=True))
    out["interp_node_area"] = _caught(lambda: node(x2, size=(3, 4), mode="area"))
    out["interp_double_bicubic"] = _caught(lambda: _fres(torch, lambda i: F.interpolate(i, size=(7, 3), mode="bicubic"), x2.double()))
    out["interp_module_trilinear"] = _caught(lambda: _res(torch.nn.Upsample(scale_factor=2, mode="trilinear")(x3)))
    out["interp_err_aa_nearest"] = _caught(lambda: F.interpolate(x2, size=3, antialias=True))
    out["interp_err_aa_3d"] = _caught(lambda: F.interpolate(x1, size=3, mode="linear", antialias=True))
    out["interp_err_trilinear_4d"] = _caught(lambda: F.interpolate(x2, size=(3, 3), mode="trilinear"))
    out["interp_err_bicubic_5d"] = _caught(lambda: F.interpolate(x3, size=(3, 3, 3), mode="bicubic"))
    out["interp_err_area_ac"] = _caught(lambda: F.interpolate(x2, size=3, mode="area", align_corners=True))
    out["interp_err_exact_ac"] = _caught(lambda: F.interpolate(x2, size=3, mode="nearest-exact", align_corners=False))
    out["interp_err_6d"] = _caught(lambda: F.interpolate(torch.ones(1, 1, 2, 2, 2, 2), size=(3, 3, 3, 3)))
    out["interp_err_mode"] = _caught(lambda: F.interpolate(x2, size=3, mode="foo"))
    out["interp_node_lanczos"] = _caught(lambda: node(x2, size=(3, 9), mode="lanczos", antialias=True))
    out["interp_err_lanczos_ac"] = _caught(lambda: F.interpolate(x2, size=3, mode="lanczos", align_corners=True, antialias=True))
    out["interp_err_lanczos_aa"] = _caught(lambda: F.interpolate(x2, size=3, mode="lanczos"))
    out["interp_err_lanczos_3d"] = _caught(lambda: F.interpolate(x1, size=3, mode="lanczos"))
    out["interp_err_linear_5d"] = _caught(lambda: F.interpolate(x3, size=3, mode="linear"))


def run(torch):
    out = {}
    _embedding_bag(torch, out)
    _linear_family(torch, out)
    _norm_shuffle(torch, out)
    _random_layers(torch, out)
    _losses(torch, out)
    _pools(torch, out)
    _grids(torch, out)
    _interpolate(torch, out)
    return out
