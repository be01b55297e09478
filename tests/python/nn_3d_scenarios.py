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

    def module(**kw):
        m = nn.CTCLoss(**kw)
        r = _fres(torch, lambda lp: m(lp, tg, torch.tensor(il), torch.tensor(tl)), lp)
        r["repr"] = repr(m)
        return r

    out["CTCLoss"] = _caught(lambda: module())
    out["CTCLoss_opts"] = _caught(lambda: module(blank=4, reduction="sum", zero_infinity=True))


def run(torch):
    out = {}
    torch.manual_seed(0)
    _conv(torch, out)
    _pool(torch, out)
    _ctc(torch, out)
    return out
