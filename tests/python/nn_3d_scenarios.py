"""The remaining torch.nn surface: 3-d convolution / transposed convolution / pooling /
unpooling (functional and layers), fractional max pooling, CTC loss, triplet loss with a
distance function, AdaptiveLogSoftmaxWithLoss, the lazy conv / norm layers, SyncBatchNorm,
DataParallel, the in-place activation functionals, the deprecated upsample functionals, pdist
and ``torch.nn.attention``: values, shapes, gradients, reprs, warnings and errors (type,
message). Parameters are set from ``linspace`` so both libraries start from the same values;
the random pieces are seeded with ``manual_seed`` (ferrograd draws PyTorch's CPU random
stream). Run with ``torch`` bound to PyTorch (tools/record_nn_3d_goldens.py records
fixtures/nn_3d.json) or to ferrograd (test_nn_3d.py compares)."""

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
    return sum((o * torch.linspace(-1.0, 1.0, o.numel()).reshape(o.shape).to(o.dtype) + 0.1 * o * o).sum()
               for o in out if o.is_floating_point())


def _grads(torch, module, inputs, out):
    params = [p for p in module.parameters() if p.requires_grad] + [i for i in inputs if i.requires_grad]
    gs = torch.autograd.grad(_loss(torch, out), params)
    return [_v(g) for g in gs]


def _fres(torch, f, *inputs):
    """Value of ``f(*inputs)`` and the gradients for its floating inputs."""
    xs = [i.clone().requires_grad_() if hasattr(i, "is_floating_point") and i.is_floating_point() else i
          for i in inputs]
    y = f(*xs)
    ys = list(y) if isinstance(y, (tuple, list)) else [y]
    diff = [x for x in xs if hasattr(x, "requires_grad") and x.requires_grad]
    gs = torch.autograd.grad(_loss(torch, ys), diff) if diff and ys[0].requires_grad else []
    return {"y": _res(y), "grads": [_v(g) for g in gs]}


def _mres(torch, m, *inputs):
    """A module's output, its gradients (parameters then inputs) and repr."""
    xs = [i.clone().requires_grad_() if i.is_floating_point() else i for i in inputs]
    y = m(*xs)
    ys = list(y) if isinstance(y, (tuple, list)) else [y]
    return {"y": _res(y), "grads": _grads(torch, m, xs, ys), "repr": repr(m)}


def _x(torch, *shape, scale=1.0):
    n = 1
    for s in shape:
        n *= s
    # distinct values (no ties for the max pools), not monotone along any axis
    return (torch.linspace(-2.0, 2.0, n) * scale).reshape(shape).sin() * 1.5 + torch.linspace(0, 0.1, n).reshape(shape)


def _conv(torch, out):
    F = torch.nn.functional
    nn = torch.nn
    x = _x(torch, 2, 4, 5, 6, 7)
    w = torch.linspace(-0.5, 0.6, 3 * 4 * 2 * 3 * 2).reshape(3, 4, 2, 3, 2)
    b = torch.tensor([0.1, -0.2, 0.3])
    out["conv3d_basic"] = _caught(lambda: _fres(torch, lambda x, w, b: F.conv3d(x, w, b), x, w, b))
    out["conv3d_stride_pad_dil"] = _caught(lambda: _fres(
        torch, lambda x, w, b: F.conv3d(x, w, b, stride=(2, 1, 2), padding=(1, 2, 0), dilation=(2, 1, 2)), x, w, b))
    wg = torch.linspace(-0.5, 0.6, 4 * 2 * 2 * 2 * 3).reshape(4, 2, 2, 2, 3)
    out["conv3d_groups"] = _caught(lambda: _fres(torch, lambda x, w: F.conv3d(x, w, None, 1, 1, 1, 2), x, wg))
    out["conv3d_unbatched"] = _caught(lambda: _fres(torch, lambda x, w, b: F.conv3d(x, w, b, padding=1), x[0], w, b))
    out["conv3d_same"] = _warned(lambda: _fres(torch, lambda x, w: F.conv3d(x, w, padding="same"), x, w))
    out["conv3d_valid"] = _caught(lambda: _fres(torch, lambda x, w: F.conv3d(x, w, padding="valid"), x, w))
    out["conv3d_double"] = _caught(lambda: _fres(torch, lambda x, w: F.conv3d(x, w, stride=2), x.double(), w.double()))
    out["conv3d_err_channels"] = _caught(lambda: F.conv3d(x, w[:, :2]))
    out["conv3d_err_dim"] = _caught(lambda: F.conv3d(x[0, 0], w))
    out["conv3d_err_kernel"] = _caught(lambda: F.conv3d(x[:, :, :1], w))
    out["conv3d_err_bias"] = _caught(lambda: F.conv3d(x, w, b[:2]))
    out["conv3d_err_stride"] = _caught(lambda: F.conv3d(x, w, stride=0))
    out["conv3d_err_pad"] = _caught(lambda: F.conv3d(x, w, padding=-1))
    out["conv3d_err_groups"] = _caught(lambda: F.conv3d(x, w, groups=2))
    out["conv3d_err_samestride"] = _caught(lambda: F.conv3d(x, w, stride=2, padding="same"))
    wt = torch.linspace(-0.5, 0.6, 4 * 3 * 2 * 3 * 2).reshape(4, 3, 2, 3, 2)
    out["convt3d_basic"] = _caught(lambda: _fres(torch, lambda x, w, b: F.conv_transpose3d(x, w, b), x, wt, b))
    out["convt3d_stride"] = _caught(lambda: _fres(
        torch, lambda x, w, b: F.conv_transpose3d(x, w, b, stride=(2, 3, 1), padding=(1, 1, 0),
                                                  output_padding=(1, 2, 0)), x, wt, b))
    out["convt3d_dil"] = _caught(lambda: _fres(
        torch, lambda x, w: F.conv_transpose3d(x, w, None, stride=2, padding=(0, 1, 1), dilation=(2, 1, 3)), x, wt))
    wtg = torch.linspace(-0.5, 0.6, 4 * 2 * 2 * 2 * 2).reshape(4, 2, 2, 2, 2)
    out["convt3d_groups"] = _caught(lambda: _fres(
        torch, lambda x, w: F.conv_transpose3d(x, w, None, stride=(1, 2, 2), groups=2), x, wtg))
    out["convt3d_unbatched"] = _caught(lambda: _fres(torch, lambda x, w: F.conv_transpose3d(x, w, stride=2), x[1], wt))
    out["convt3d_err_channels"] = _caught(lambda: F.conv_transpose3d(x, wt[:3]))
    out["convt3d_err_outpad"] = _caught(lambda: F.conv_transpose3d(x, wt, output_padding=1))
    out["convt3d_err_dim"] = _caught(lambda: F.conv_transpose3d(x[0, 0], wt))

    def conv_module(**kw):
        m = _fill(torch, nn.Conv3d(4, 6, (2, 3, 2), **kw))
        return _mres(torch, m, x)

    out["Conv3d"] = _caught(lambda: conv_module())
    out["Conv3d_opts"] = _caught(lambda: conv_module(stride=2, padding=1, dilation=(1, 2, 1), groups=2, bias=False))
    out["Conv3d_reflect"] = _caught(lambda: conv_module(padding=(1, 1, 2), padding_mode="reflect"))
    out["Conv3d_circular"] = _caught(lambda: conv_module(padding=1, padding_mode="circular"))
    out["Conv3d_same"] = _warned(lambda: conv_module(padding="same"))
    out["Conv3d_init_shapes"] = _caught(lambda: [list(p.shape) for p in nn.Conv3d(4, 6, 3, groups=2).parameters()])
    out["Conv3d_err_groups"] = _caught(lambda: nn.Conv3d(4, 6, 3, groups=4))

    def convt_module(**kw):
        # double: the weight gradients sum terms of both signs (float32 rounding would dominate)
        m = _fill(torch, nn.ConvTranspose3d(4, 6, (2, 3, 2), **kw).double())
        return _mres(torch, m, x.double())

    out["ConvTranspose3d"] = _caught(lambda: convt_module())
    out["ConvTranspose3d_opts"] = _caught(lambda: convt_module(stride=(2, 1, 2), padding=1, output_padding=(1, 0, 1),
                                                               groups=2, bias=False, dilation=(1, 1, 2)))

    def convt_output_size():
        m = _fill(torch, nn.ConvTranspose3d(4, 2, 3, stride=2))
        y = m(x, output_size=[12, 12, 14])
        return {"shape": list(y.shape), "y": _v(y)}

    out["ConvTranspose3d_output_size"] = _caught(convt_output_size)

    def convt_output_size_ok():
        m = _fill(torch, nn.ConvTranspose3d(4, 2, 3, stride=2))
        y = m(x[0], output_size=(2, 11, 13, 16))
        return {"shape": list(y.shape), "y": _v(y)}

    out["ConvTranspose3d_output_size_ok"] = _caught(convt_output_size_ok)
    out["ConvTranspose3d_err_mode"] = _caught(lambda: nn.ConvTranspose3d(4, 2, 3, padding_mode="reflect"))


def _pool(torch, out):
    F = torch.nn.functional
    nn = torch.nn
    x = _x(torch, 2, 3, 5, 6, 7, scale=3.0)
    out["maxpool3d_basic"] = _caught(lambda: _fres(torch, lambda x: F.max_pool3d(x, 2, return_indices=True), x))
    out["maxpool3d_opts"] = _caught(lambda: _fres(
        torch, lambda x: F.max_pool3d(x, (3, 2, 3), (2, 1, 2), (1, 1, 0), (1, 2, 2), True, True), x))
    out["maxpool3d_ceil"] = _caught(lambda: _fres(torch, lambda x: F.max_pool3d(x, 2, 2, 1, ceil_mode=True), x))
    out["maxpool3d_unbatched"] = _caught(lambda: _fres(torch, lambda x: F.max_pool3d_with_indices(x, 3, 2), x[0]))
    out["maxpool3d_err_pad"] = _caught(lambda: F.max_pool3d(x, 2, padding=2))
    out["maxpool3d_err_dim"] = _caught(lambda: F.max_pool3d(x[0, 0], 2))
    out["maxpool3d_err_small"] = _caught(lambda: F.max_pool3d(x, 8))
    out["maxpool1d_with_indices"] = _caught(lambda: _fres(torch, lambda x: F.max_pool1d_with_indices(x, 3, 2), x[0, 0, 0]))
    out["avgpool3d_basic"] = _caught(lambda: _fres(torch, lambda x: F.avg_pool3d(x, 2), x))
    out["avgpool3d_opts"] = _caught(lambda: _fres(
        torch, lambda x: F.avg_pool3d(x, (3, 2, 3), (2, 1, 2), (1, 1, 1), True, False), x))
    out["avgpool3d_incl"] = _caught(lambda: _fres(torch, lambda x: F.avg_pool3d(x, 3, 2, 1, True, True), x))
    out["avgpool3d_divisor"] = _caught(lambda: _fres(torch, lambda x: F.avg_pool3d(x, 2, 1, 1, divisor_override=3), x))
    out["avgpool3d_unbatched"] = _caught(lambda: _fres(torch, lambda x: F.avg_pool3d(x, 2), x[1]))
    out["avgpool3d_err_div"] = _caught(lambda: F.avg_pool3d(x, 2, divisor_override=0))
    out["avgpool3d_err_pad"] = _caught(lambda: F.avg_pool3d(x, 2, padding=2))
    out["avgpool3d_err_dim"] = _caught(lambda: F.avg_pool3d(x[0, 0], 2))
    for size in (1, 2, (3, 4, 5), (None, 2, 3), (7, 8, 9)):
        key = str(size).replace(" ", "")
        out[f"adaptive_avg3d_{key}"] = _caught(lambda size=size: _fres(torch, lambda x: F.adaptive_avg_pool3d(x, size), x))
        out[f"adaptive_max3d_{key}"] = _caught(lambda size=size: _fres(
            torch, lambda x: F.adaptive_max_pool3d(x, size, return_indices=True), x))
    out["adaptive_max3d_unbatched"] = _caught(lambda: _fres(torch, lambda x: F.adaptive_max_pool3d_with_indices(x, 2), x[0]))
    out["adaptive_avg3d_err_dim"] = _caught(lambda: F.adaptive_avg_pool3d(x[0, 0], 2))
    out["adaptive_max3d_err_dim"] = _caught(lambda: F.adaptive_max_pool3d(x[0, 0], 2))
    out["adaptive_avg3d_err_size"] = _caught(lambda: F.adaptive_avg_pool3d(x, (2, 2)))
    out["adaptive_max3d_err_size"] = _caught(lambda: F.adaptive_max_pool3d(x, (2, 2)))
    out["adaptive_max1d_with_indices"] = _caught(lambda: _fres(
        torch, lambda x: F.adaptive_max_pool1d_with_indices(x, 3), x[0, 0, 0]))

    def unpool(**kw):
        y, idx = F.max_pool3d(x[..., :4, :6, :6], 2, stride=2, return_indices=True)
        return _fres(torch, lambda y: F.max_unpool3d(y, idx, 2, stride=2, **kw), y)

    out["max_unpool3d"] = _caught(lambda: unpool())
    out["max_unpool3d_size"] = _caught(lambda: unpool(output_size=(5, 7, 6)))
    out["max_unpool3d_err_size"] = _caught(lambda: unpool(output_size=(9, 7, 6)))
    out["max_unpool3d_err_idx1"] = _caught(lambda: _res(F.max_unpool3d(
        x[:1, :1, :2, :2, :2], torch.tensor([0, 1, 2, 3, 4, 5, 6, 500]).reshape(1, 1, 2, 2, 2), 2)))
    out["max_unpool3d_err_idx"] = _caught(lambda: _res(F.max_unpool3d(x, (x * 0).long() + 100000, 2)))
    out["max_unpool3d_err_dtype"] = _caught(lambda: F.max_unpool3d(x, (x * 0).int(), 2))
    out["max_unpool3d_err_dim"] = _caught(lambda: F.max_unpool3d(x[0, 0], (x[0, 0] * 0).long(), 2))
    xp = x.abs() + 0.1
    out["lp_pool3d_2"] = _caught(lambda: _fres(torch, lambda x: F.lp_pool3d(x, 2, 2), xp))
    out["lp_pool3d_3_stride"] = _caught(lambda: _fres(torch, lambda x: F.lp_pool3d(x, 3, (2, 3, 2), 1, True), xp))
    out["lp_pool3d_inf"] = _caught(lambda: _fres(torch, lambda x: F.lp_pool3d(x, float("inf"), 2), x))

    def mod(m, *inp):
        return _mres(torch, m, *inp)

    out["MaxPool3d"] = _caught(lambda: mod(nn.MaxPool3d(2, 1, 1, 1, True, True), x))
    out["MaxPool3d_plain"] = _caught(lambda: mod(nn.MaxPool3d((2, 3, 2)), x))
    out["AvgPool3d"] = _caught(lambda: mod(nn.AvgPool3d(3, 2, 1, True, False, 2), x))
    out["AvgPool3d_plain"] = _caught(lambda: mod(nn.AvgPool3d((2, 3, 2)), x))
    out["AdaptiveAvgPool3d"] = _caught(lambda: mod(nn.AdaptiveAvgPool3d((2, None, 3)), x))
    out["AdaptiveMaxPool3d"] = _caught(lambda: mod(nn.AdaptiveMaxPool3d(3, return_indices=True), x))
    out["LPPool3d"] = _caught(lambda: mod(nn.LPPool3d(2, 2, 1), xp))

    def unpool_module():
        pool = nn.MaxPool3d(2, return_indices=True)
        y, idx = pool(x[..., :4, :6, :6])
        m = nn.MaxUnpool3d(2)
        z = m(y, idx)
        z2 = m(y, idx, output_size=(5, 7, 7))
        return {"z": _v(z), "shape": list(z.shape), "z2shape": list(z2.shape), "repr": repr(m)}

    out["MaxUnpool3d"] = _caught(unpool_module)


def _ctc(torch, out):
    F = torch.nn.functional
    nn = torch.nn
    t_len, n, c = 7, 3, 5
    logits = (torch.linspace(-3.0, 3.0, t_len * n * c).reshape(t_len, n, c) * 2.3).sin() * 2.0
    lp = logits.log_softmax(2)
    tg = torch.tensor([[1, 2, 2, 4], [3, 1, 0, 0], [2, 2, 2, 0]])
    il, tl = [7, 6, 7], [4, 2, 3]
    cat = torch.tensor([1, 2, 2, 4, 3, 1, 2, 2, 2])
    for red in ("mean", "sum", "none"):
        out[f"ctc_{red}"] = _caught(lambda red=red: _fres(
            torch, lambda lp: F.ctc_loss(lp, tg, il, tl, reduction=red), lp))
        out[f"ctc_{red}_concat"] = _caught(lambda red=red: _fres(
            torch, lambda lp: F.ctc_loss(lp, cat, tuple(il), tuple(tl), reduction=red), lp))
        out[f"ctc_{red}_tensors"] = _caught(lambda red=red: _fres(
            torch, lambda lp: F.ctc_loss(lp, tg, torch.tensor(il), torch.tensor(tl), reduction=red), lp))
    # through log_softmax: the gradient for the logits
    out["ctc_logits"] = _caught(lambda: _fres(torch, lambda x: F.ctc_loss(x.log_softmax(2), tg, il, tl), logits))
    out["ctc_blank"] = _caught(lambda: _fres(
        torch, lambda lp: F.ctc_loss(lp, tg % 4 + 1, il, tl, blank=0, reduction="sum"), lp))
    out["ctc_blank4"] = _caught(lambda: _fres(
        torch, lambda lp: F.ctc_loss(lp, torch.tensor([[1, 2, 2, 0], [3, 1, 0, 0], [2, 2, 2, 0]]), il, tl, blank=4,
                                     reduction="none"), lp))
    out["ctc_empty_target"] = _caught(lambda: _fres(
        torch, lambda lp: F.ctc_loss(lp, tg, il, [4, 0, 3], reduction="none"), lp))
    # impossible alignment (too short): inf, or zero with zero_infinity
    out["ctc_inf"] = _caught(lambda: _res(F.ctc_loss(lp, tg, [2, 6, 7], tl, reduction="none")))
    out["ctc_zero_inf"] = _caught(lambda: _fres(
        torch, lambda lp: F.ctc_loss(lp, tg, [2, 6, 7], tl, reduction="sum", zero_infinity=True), lp))
    out["ctc_zero_inf_mean"] = _caught(lambda: _fres(
        torch, lambda lp: F.ctc_loss(lp, tg, [2, 6, 7], tl, zero_infinity=True), lp))
    out["ctc_unbatched"] = _caught(lambda: _fres(torch, lambda lp: F.ctc_loss(lp, tg[0], [7], [4]), lp[:, 0]))
    out["ctc_unbatched_none"] = _caught(lambda: _fres(
        torch, lambda lp: F.ctc_loss(lp, tg[0, :3], torch.tensor(6), torch.tensor(3), reduction="none"), lp[:, 1]))
    out["ctc_double"] = _caught(lambda: _fres(torch, lambda lp: F.ctc_loss(lp, tg, il, tl), lp.double()))
    out["ctc_float_targets"] = _caught(lambda: _fres(torch, lambda lp: F.ctc_loss(lp, tg.float(), il, tl), lp))
    out["ctc_int32"] = _caught(lambda: _fres(torch, lambda lp: F.ctc_loss(
        lp, tg.int(), torch.tensor(il, dtype=torch.int32), torch.tensor(tl, dtype=torch.int32)), lp))
    out["ctc_err_target_width"] = _caught(lambda: F.ctc_loss(lp, tg[:, :3], il, tl))
    out["ctc_err_input_len"] = _caught(lambda: F.ctc_loss(lp, tg, [8, 6, 7], tl))
    out["ctc_err_neg_input_len"] = _caught(lambda: F.ctc_loss(lp, tg, [-1, 6, 7], tl))
    out["ctc_err_neg_target_len"] = _caught(lambda: F.ctc_loss(lp, tg, il, [-1, 2, 3]))
    out["ctc_err_batch"] = _caught(lambda: F.ctc_loss(lp, tg, [7, 6], tl))
    out["ctc_err_batch_t"] = _caught(lambda: F.ctc_loss(lp, tg, il, [4, 2]))
    out["ctc_err_blank"] = _caught(lambda: F.ctc_loss(lp, tg, il, tl, blank=5))
    out["ctc_err_blank_neg"] = _caught(lambda: F.ctc_loss(lp, tg, il, tl, blank=-1))
    out["ctc_err_concat_size"] = _caught(lambda: F.ctc_loss(lp, cat[:8], il, tl))
    out["ctc_err_rows"] = _caught(lambda: F.ctc_loss(lp, tg[:2], il, tl))
    out["ctc_err_reduction"] = _caught(lambda: F.ctc_loss(lp, tg, il, tl, reduction="bad"))
    out["ctc_err_mixed"] = _caught(lambda: F.ctc_loss(lp, tg, torch.tensor(il), tl))
    out["ctc_err_int"] = _caught(lambda: F.ctc_loss(lp[:, 0], tg[0], 7, 4))
    out["ctc_err_float_lengths"] = _caught(lambda: F.ctc_loss(lp, tg, torch.tensor([7.0, 6.0, 7.0]), torch.tensor(tl)))

    def module(targets=tg, **kw):
        m = nn.CTCLoss(**kw)
        r = _fres(torch, lambda lp: m(lp, targets, torch.tensor(il), torch.tensor(tl)), lp)
        r["repr"] = repr(m)
        return r

    out["CTCLoss"] = _caught(lambda: module())
    out["CTCLoss_opts"] = _caught(lambda: module(tg % 4, blank=4, reduction="sum", zero_infinity=True))


def _fractional(torch, out):
    F = torch.nn.functional
    nn = torch.nn
    x = _x(torch, 2, 3, 9, 10, scale=3.0)
    x3 = _x(torch, 2, 2, 7, 8, 9, scale=3.0)
    samples = torch.linspace(0.05, 0.95, 12).reshape(2, 3, 2)
    samples3 = torch.linspace(0.05, 0.95, 12).reshape(2, 2, 3)
    out["frac2d_samples"] = _caught(lambda: _fres(torch, lambda x: F.fractional_max_pool2d(
        x, 3, output_size=(4, 5), return_indices=True, _random_samples=samples), x))
    out["frac2d_samples_double"] = _caught(lambda: _fres(torch, lambda x: F.fractional_max_pool2d(
        x, (2, 3), output_size=5, return_indices=True, _random_samples=samples.double()), x.double()))
    out["frac3d_samples"] = _caught(lambda: _fres(torch, lambda x: F.fractional_max_pool3d_with_indices(
        x, 2, output_size=(3, 4, 5), _random_samples=samples3), x3))

    def seeded(f, inp, seed=3):
        torch.manual_seed(seed)
        return _fres(torch, f, inp)

    out["frac2d_random"] = _caught(lambda: seeded(lambda x: F.fractional_max_pool2d(x, 2, output_ratio=(0.5, 0.6),
                                                                                    return_indices=True), x))
    out["frac2d_random_unbatched"] = _caught(lambda: seeded(lambda x: F.fractional_max_pool2d(x, 3, output_size=4), x[0]))
    out["frac3d_random"] = _caught(lambda: seeded(lambda x: F.fractional_max_pool3d(x, 2, output_ratio=0.5,
                                                                                    return_indices=True), x3))
    out["frac2d_err_none"] = _caught(lambda: F.fractional_max_pool2d(x, 2))
    out["frac2d_err_big"] = _caught(lambda: F.fractional_max_pool2d(x, 4, output_size=8))
    out["frac2d_err_dim"] = _caught(lambda: F.fractional_max_pool2d(x[0, 0], 2, output_size=3))
    out["frac3d_err_none"] = _caught(lambda: F.fractional_max_pool3d(x3, 2))

    def module(m, inp):
        torch.manual_seed(5)
        r = _mres(torch, m, inp)
        return r

    out["FractionalMaxPool2d"] = _caught(lambda: module(nn.FractionalMaxPool2d(3, output_ratio=0.5), x))
    out["FractionalMaxPool2d_idx"] = _caught(lambda: module(nn.FractionalMaxPool2d(2, output_size=(4, 4),
                                                                                   return_indices=True), x))
    out["FractionalMaxPool3d"] = _caught(lambda: module(nn.FractionalMaxPool3d(2, output_size=(3, 3, 4)), x3))
    out["FractionalMaxPool2d_err"] = _caught(lambda: nn.FractionalMaxPool2d(2))
    out["FractionalMaxPool2d_err_both"] = _caught(lambda: nn.FractionalMaxPool2d(2, 3, 0.5))
    out["FractionalMaxPool2d_err_ratio"] = _caught(lambda: nn.FractionalMaxPool2d(2, output_ratio=1.5))
    out["FractionalMaxPool3d_err_ratio"] = _caught(lambda: nn.FractionalMaxPool3d(2, output_ratio=(0.5, 0.5, 1.0)))


def _losses_misc(torch, out):
    F = torch.nn.functional
    nn = torch.nn
    a = _x(torch, 4, 5)
    p = _x(torch, 4, 5, scale=1.7)
    n = _x(torch, 4, 5, scale=-0.8)
    for red in ("mean", "sum", "none"):
        out[f"tmwd_{red}"] = _caught(lambda red=red: _fres(
            torch, lambda a, p, n: F.triplet_margin_with_distance_loss(a, p, n, reduction=red), a, p, n))
    cos = lambda u, v: 1.0 - F.cosine_similarity(u, v)  # noqa: E731
    out["tmwd_fn_swap"] = _caught(lambda: _fres(torch, lambda a, p, n: F.triplet_margin_with_distance_loss(
        a, p, n, distance_function=cos, margin=0.5, swap=True), a, p, n))
    out["tmwd_err_margin"] = _caught(lambda: F.triplet_margin_with_distance_loss(a, p, n, margin=0))
    out["tmwd_err_red"] = _caught(lambda: F.triplet_margin_with_distance_loss(a, p, n, reduction="x"))
    out["tmwd_err_dim"] = _caught(lambda: F.triplet_margin_with_distance_loss(a, p, n[0]))

    def tmwd_module(**kw):
        m = nn.TripletMarginWithDistanceLoss(**kw)
        r = _fres(torch, lambda a, p, n: m(a, p, n), a, p, n)
        r["repr"] = repr(m)
        return r

    out["TripletMarginWithDistanceLoss"] = _caught(lambda: tmwd_module())
    out["TripletMarginWithDistanceLoss_opts"] = _caught(lambda: tmwd_module(
        distance_function=nn.PairwiseDistance(p=1.0), margin=2.0, swap=True, reduction="sum"))
    out["TripletMarginWithDistanceLoss_err"] = _caught(lambda: nn.TripletMarginWithDistanceLoss(margin=-1))
    lp = _x(torch, 3, 4, 5).log_softmax(1)
    tg = torch.tensor([[0, 1, 3, 2, 1], [3, 3, 0, 1, 2], [2, 0, 1, 3, 0]])

    def nll2d():
        m = nn.NLLLoss2d(weight=torch.tensor([1.0, 2.0, 0.5, 1.5]), ignore_index=2)
        r = _fres(torch, lambda lp: m(lp, tg), lp)
        r["repr"] = repr(m)
        return r

    out["NLLLoss2d"] = _warned(nll2d)

    def asm(head_bias):
        m = _fill(torch, nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6], div_value=2.0, head_bias=head_bias))
        x = _x(torch, 6, 8)
        t = torch.tensor([0, 4, 9, 2, 7, 5])
        xs = x.clone().requires_grad_()
        o = m(xs, t)
        gs = torch.autograd.grad(o.loss + (o.output * torch.linspace(0, 1, 6)).sum(), list(m.parameters()) + [xs])
        return {"output": _v(o.output), "loss": _v(o.loss), "grads": [_v(g) for g in gs], "repr": repr(m),
                "log_prob": _v(m.log_prob(x)), "predict": m.predict(x).tolist(), "fields": list(o._fields),
                "unbatched": _v(m(x[1], t[1]).output)}

    out["AdaptiveLogSoftmaxWithLoss"] = _caught(lambda: asm(False))
    out["AdaptiveLogSoftmaxWithLoss_bias"] = _caught(lambda: asm(True))
    out["AdaptiveLogSoftmaxWithLoss_err_cutoffs"] = _caught(lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 10, [6, 3]))
    out["AdaptiveLogSoftmaxWithLoss_err_empty"] = _caught(lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 10, []))
    out["AdaptiveLogSoftmaxWithLoss_err_target"] = _caught(lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3])(
        _x(torch, 2, 8), torch.tensor([1, 12])))
    out["AdaptiveLogSoftmaxWithLoss_err_dims"] = _caught(lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3])(
        _x(torch, 2, 8), torch.tensor([[1, 2]])))
    # pdist
    xs = _x(torch, 5, 3)
    for pp in (2, 1, 0.5, 3, float("inf"), 0):
        out[f"pdist_{pp}"] = _caught(lambda pp=pp: _fres(torch, lambda x: F.pdist(x, pp), xs))
    out["pdist_err_dim"] = _caught(lambda: F.pdist(xs[0]))
    out["pdist_err_p"] = _caught(lambda: F.pdist(xs, -1))
    out["pdist_one_row"] = _caught(lambda: _res(F.pdist(xs[:1])))


def _misc(torch, out):
    F = torch.nn.functional
    nn = torch.nn
    x = _x(torch, 2, 3, 4)
    for name, args in (("relu_", ()), ("elu_", (0.7,)), ("selu_", ()), ("celu_", (1.3,)), ("leaky_relu_", (0.2,)),
                       ("hardtanh_", (-0.5, 0.8)), ("threshold_", (0.1, -2.0))):
        def run_inplace(name=name, args=args):
            y = x.clone()
            r = getattr(F, name)(y, *args)
            return {"same": r is y, "y": _v(y)}

        out[f"inplace_{name}"] = _caught(run_inplace)
    img = _x(torch, 1, 2, 3, 4)
    out["upsample"] = _warned(lambda: _fres(torch, lambda x: F.upsample(x, scale_factor=2), img))
    out["upsample_bilinear_mode"] = _warned(lambda: _fres(
        torch, lambda x: F.upsample(x, size=(5, 7), mode="bilinear", align_corners=False), img))
    out["upsample_nearest"] = _warned(lambda: _fres(torch, lambda x: F.upsample_nearest(x, size=(6, 5)), img))
    out["upsample_bilinear"] = _warned(lambda: _fres(torch, lambda x: F.upsample_bilinear(x, scale_factor=2), img))

    def lazy(cls, args, inp, seed=0):
        torch.manual_seed(seed)
        m = cls(*args)
        before = repr(m)
        n_uninit = sum(1 for p in m.parameters() if isinstance(p, nn.UninitializedParameter))
        y = m(inp)
        return {"before": before, "after": repr(m), "cls": type(m).__name__, "n_uninit": n_uninit,
                "params": [_v(p) for p in m.parameters()], "y": _v(y), "shape": list(y.shape)}

    out["LazyConv1d"] = _caught(lambda: lazy(nn.LazyConv1d, (4, 3), _x(torch, 2, 3, 8)))
    out["LazyConv2d"] = _caught(lambda: lazy(nn.LazyConv2d, (4, 2, 1, 1, 1, 2), _x(torch, 2, 6, 5, 5)))
    out["LazyConv3d"] = _caught(lambda: lazy(nn.LazyConv3d, (2, 2), _x(torch, 3, 4, 4, 4)))
    out["LazyConvTranspose1d"] = _caught(lambda: lazy(nn.LazyConvTranspose1d, (4, 3, 2), _x(torch, 2, 3, 5)))
    out["LazyConvTranspose2d"] = _caught(lambda: lazy(nn.LazyConvTranspose2d, (4, 2), _x(torch, 2, 3, 4, 4)))
    out["LazyConvTranspose3d"] = _caught(lambda: lazy(nn.LazyConvTranspose3d, (2, 2, 2), _x(torch, 1, 3, 3, 3, 3)))
    out["LazyConv2d_err_groups"] = _caught(lambda: nn.LazyConv2d(4, 2, groups=2)(_x(torch, 1, 3, 4, 4)))
    out["LazyConv2d_err_dim"] = _caught(lambda: nn.LazyConv2d(4, 2)(_x(torch, 4, 4)))
    out["LazyBatchNorm1d"] = _caught(lambda: lazy(nn.LazyBatchNorm1d, (), _x(torch, 4, 3)))
    out["LazyBatchNorm2d"] = _caught(lambda: lazy(nn.LazyBatchNorm2d, (1e-3, 0.2), _x(torch, 2, 3, 4, 4)))
    out["LazyBatchNorm3d"] = _caught(lambda: lazy(nn.LazyBatchNorm3d, (1e-5, 0.1, False), _x(torch, 2, 3, 2, 2, 2)))
    out["LazyInstanceNorm1d"] = _caught(lambda: lazy(nn.LazyInstanceNorm1d, (), _x(torch, 2, 3, 5)))
    out["LazyInstanceNorm2d"] = _caught(lambda: lazy(nn.LazyInstanceNorm2d, (1e-5, 0.1, False, False), _x(torch, 2, 3, 4, 4)))
    out["LazyInstanceNorm3d"] = _caught(lambda: lazy(nn.LazyInstanceNorm3d, (), _x(torch, 2, 3, 2, 3, 2)))

    def lazy_state():
        m = nn.LazyBatchNorm1d()
        sd = m.state_dict()
        return {"keys": sorted(sd), "reprs": [repr(v) for k, v in sorted(sd.items()) if k != "num_batches_tracked"],
                "buf": repr(nn.UninitializedBuffer()), "lazy": nn.parameter.is_lazy(m.running_mean)}

    out["lazy_state"] = _caught(lazy_state)

    def sync_bn():
        m = _fill(torch, nn.SyncBatchNorm(3))
        inp = _x(torch, 4, 3, 5)
        r = _mres(torch, m, inp)
        r["running"] = [_v(m.running_mean), _v(m.running_var), int(m.num_batches_tracked)]
        m.eval()
        r["eval"] = _v(m(inp))
        r["err_dim"] = _caught(lambda: m(inp[0, 0]))
        r["err_channels"] = _caught(lambda: m(inp[:, :0]))
        return r

    out["SyncBatchNorm"] = _caught(sync_bn)

    def convert():
        net = nn.Sequential(nn.Conv2d(2, 3, 1), nn.BatchNorm2d(3), nn.Sequential(nn.BatchNorm1d(3, affine=False)))
        net[1].running_mean.fill_(0.5)
        s = nn.SyncBatchNorm.convert_sync_batchnorm(net)
        return {"repr": repr(s), "shared": s[1].running_mean is net[1].running_mean, "mean": _v(s[1].running_mean),
                "single": repr(nn.SyncBatchNorm.convert_sync_batchnorm(nn.BatchNorm3d(2, momentum=None)))}

    out["convert_sync_batchnorm"] = _caught(convert)

    def data_parallel():
        inner = _fill(torch, nn.Linear(3, 2))
        dp = nn.DataParallel(inner)
        inp = _x(torch, 4, 3)
        r = _mres(torch, dp, inp)
        r["device_ids"] = dp.device_ids
        r["module_is"] = dp.module is inner
        r["keys"] = sorted(dp.state_dict())
        return r

    out["DataParallel"] = _caught(data_parallel)

    def attention():
        SDPBackend, sdpa_kernel = nn.attention.SDPBackend, nn.attention.sdpa_kernel

        q = _x(torch, 1, 2, 3, 4)
        k = _x(torch, 1, 2, 5, 4, scale=1.3)
        v = _x(torch, 1, 2, 5, 4, scale=0.7)
        with sdpa_kernel(SDPBackend.MATH):
            a = F.scaled_dot_product_attention(q, k, v)
        with sdpa_kernel([SDPBackend.MATH, SDPBackend.FLASH_ATTENTION, SDPBackend.MATH], set_priority=True) as ctx:
            b = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return {"a": _v(a), "b": _v(b), "ctx": ctx, "members": [[n, int(m)] for n, m in SDPBackend.__members__.items()],
                "repr": repr(SDPBackend.MATH), "str": str(SDPBackend.EFFICIENT_ATTENTION),
                "err": _caught(lambda: sdpa_kernel("math").__enter__())}

    out["attention"] = _caught(attention)


def _pool_kernels(torch, out):
    """The native 3-d / fractional pooling kernels: grad_fn names and saved fields, integer
    and half dtypes, NaN windows, double backward, the samples' checks, strided inputs."""
    F = torch.nn.functional
    x = _x(torch, 2, 3, 4, 5, 6, scale=3.0)

    def node(y):
        fn = y.grad_fn
        return [type(fn).__name__] + [[a, repr(getattr(fn, a))] for a in sorted(dir(fn))
                                      if a.startswith("_saved_") and a not in ("_saved_self", "_saved_result1")]

    xr = x.clone().requires_grad_()
    out["kern_max3d_node"] = _caught(lambda: node(F.max_pool3d(xr, 2)))
    out["kern_max3d_node_opts"] = _caught(lambda: node(F.max_pool3d(xr, (3, 2, 2), (1, 2, 1), 1, (1, 1, 2), True)))
    out["kern_avg3d_node"] = _caught(lambda: node(F.avg_pool3d(xr, 2)))
    out["kern_avg3d_node_opts"] = _caught(lambda: node(F.avg_pool3d(xr, 3, 2, 1, True, False, 5)))
    samples3 = torch.linspace(0.1, 0.9, 18).reshape(2, 3, 3)
    samples2 = torch.linspace(0.1, 0.9, 12).reshape(2, 3, 2)
    out["kern_frac3d_node"] = _caught(lambda: node(F.fractional_max_pool3d(xr, 2, output_size=(2, 3, 4), _random_samples=samples3)))
    out["kern_frac2d_node"] = _caught(lambda: node(F.fractional_max_pool2d(xr[:, :, 0], 2, output_size=(4, 5), _random_samples=samples2)))
    xi = (x * 10).long()
    out["kern_max3d_int"] = _caught(lambda: _fres(torch, lambda x: F.max_pool3d(x, 2, return_indices=True), xi))
    out["kern_max3d_int8"] = _caught(lambda: _fres(torch, lambda x: F.max_pool3d(x, 3, 2, 1), xi.to(torch.int8)))
    out["kern_avg3d_int"] = _caught(lambda: _fres(torch, lambda x: F.avg_pool3d(x, 2, 1, 1), xi))
    out["kern_avg3d_int_div"] = _caught(lambda: _fres(torch, lambda x: F.avg_pool3d(x, 2, divisor_override=3), xi))
    out["kern_avg3d_err_half"] = _caught(lambda: F.avg_pool3d(x.half(), 2))
    out["kern_avg3d_err_int32"] = _caught(lambda: F.avg_pool3d(xi.int(), 2))
    out["kern_max3d_err_bool"] = _caught(lambda: F.max_pool3d(x > 0, 2))
    out["kern_max3d_half"] = _caught(lambda: _fres(torch, lambda x: F.max_pool3d(x, 2, return_indices=True), x.half()))
    out["kern_max3d_bf16"] = _caught(lambda: _fres(torch, lambda x: F.max_pool3d(x, 2), x.bfloat16()))
    out["kern_frac3d_half"] = _caught(lambda: _fres(torch, lambda x: F.fractional_max_pool3d(
        x, 2, output_size=(2, 3, 4), return_indices=True, _random_samples=samples3.half()), x.half()))
    xn = x.clone()
    xn[0, 0, 0, 0, 0] = float("nan")
    xn[0, 0, 1, 1, 1] = float("nan")
    xn[1, 2, 3, 3, 3] = float("-inf")
    out["kern_max3d_nan"] = _caught(lambda: _fres(torch, lambda x: F.max_pool3d(x, 2, return_indices=True), xn))
    out["kern_frac3d_nan"] = _caught(lambda: _fres(torch, lambda x: F.fractional_max_pool3d(
        x, 2, output_size=(2, 3, 4), return_indices=True, _random_samples=samples3), xn))
    xt = x.transpose(2, 4)
    out["kern_max3d_strided"] = _caught(lambda: _fres(torch, lambda x: F.max_pool3d(x, 2, 1, return_indices=True), xt))
    out["kern_avg3d_strided"] = _caught(lambda: _fres(torch, lambda x: F.avg_pool3d(x, 2, 1, 1, False, False), xt))
    out["kern_avg3d_double"] = _caught(lambda: _fres(torch, lambda x: F.avg_pool3d(x, (1, 3, 2), (2, 2, 1), (0, 1, 1)), x.double()))

    def double_backward(f, inp):
        xx = inp.clone().requires_grad_()
        y = f(xx)
        w = torch.linspace(-1.0, 1.0, y.numel()).reshape(y.shape).to(y.dtype)
        (g,) = torch.autograd.grad((y * w).sum(), xx, create_graph=True)
        (gg,) = torch.autograd.grad((g * g).sum() + (g * xx).sum(), xx)
        return [_v(g), _v(gg)]

    out["kern_max3d_double_backward"] = _caught(lambda: double_backward(lambda x: F.max_pool3d(x, 2, 1, 1), x.double()))
    out["kern_avg3d_double_backward"] = _caught(lambda: double_backward(lambda x: F.avg_pool3d(x, 3, 2, 1, False, False), x.double()))
    out["kern_frac3d_double_backward"] = _caught(lambda: double_backward(lambda x: F.fractional_max_pool3d(
        x, 2, output_size=(2, 3, 4), _random_samples=samples3.double()), x.double()))
    out["kern_frac_more_rows"] = _caught(lambda: _fres(torch, lambda x: F.fractional_max_pool3d(
        x, 2, output_size=(2, 3, 4), _random_samples=torch.linspace(0.1, 0.9, 27).reshape(3, 3, 3)), x))
    for key, smp in [("rows", samples3[:1]), ("chans", samples3[:, :2]), ("dims", samples3[..., :2]),
                     ("rank", samples3[0]), ("dtype", samples3.double())]:
        out[f"kern_frac_err_{key}"] = _caught(lambda smp=smp: F.fractional_max_pool3d(x, 2, output_size=(2, 3, 4), _random_samples=smp))
    out["kern_frac3d_err_strict"] = _caught(lambda: F.fractional_max_pool3d(x, 2, output_size=(3, 3, 3), _random_samples=samples3))
    out["kern_frac2d_edge"] = _caught(lambda: _fres(torch, lambda x: F.fractional_max_pool2d(x, 2, output_size=(4, 5), _random_samples=samples2), x[:, :, 0]))
    out["kern_frac_empty"] = _caught(lambda: _fres(torch, lambda x: F.fractional_max_pool3d(x, 2, output_size=(0, 2, 2), _random_samples=samples3), x))
    out["kern_frac2d_err_dims"] = _caught(lambda: F.fractional_max_pool2d(x[:, :, 0], 2, output_size=3, _random_samples=samples3))


def run(torch):
    out = {}
    torch.manual_seed(0)
    _conv(torch, out)
    _pool(torch, out)
    _ctc(torch, out)
    _fractional(torch, out)
    _pool_kernels(torch, out)
    _losses_misc(torch, out)
    _misc(torch, out)
    return out
