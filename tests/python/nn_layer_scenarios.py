"""Scenarios for the nn layers and losses, written against the PyTorch API. Each ``sc_*``
function takes the library (``torch`` or ``ferrograd``) and returns plain values.
``tools/record_nn_layer_goldens.py`` runs them with PyTorch into ``fixtures/nn_layers.json``;
``test_nn_layers.py`` runs them with ferrograd and compares (floats within a tolerance,
everything else exactly). Inputs are computed in Python (never drawn from a generator),
except in the scenarios about the random streams, which seed first."""

import math
import warnings


def _vals(n, step=0.7, phase=0.3, scale=1.0):
    return [scale * math.sin(step * i + phase) for i in range(n)]


def _t(lib, *shape, step=0.7, phase=0.3, scale=1.0, grad=True, dtype=None):
    n = 1
    for s in shape:
        n *= s
    t = lib.tensor(_vals(n, step, phase, scale), dtype=dtype or lib.float32).reshape(shape)
    return t.requires_grad_() if grad else t


def _fill(lib, module, scale=0.5, phase=0.0):
    with lib.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(lib.tensor(_vals(p.numel(), 0.9, phase + 0.5 * i, scale)).reshape(p.shape))
    return module


def _weights(lib, out):
    n = out.numel()
    return lib.tensor([1.0 + 0.5 * math.cos(0.6 * i) for i in range(n)]).reshape(out.shape)


def _back(lib, out):
    (out * _weights(lib, out)).sum().backward()


def V(t):
    return None if t is None else t.detach().tolist()


def name(t):
    return None if t.grad_fn is None else type(t.grad_fn).__name__


def err(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the type and text are the result
        return [type(e).__name__, str(e)]
    return None


def _layer(lib, module, x, fill=True):
    """forward value, grad_fn name, input gradient, parameter gradients."""
    if fill:
        _fill(lib, module)
    y = module(x)
    _back(lib, y)
    return {"y": V(y), "shape": list(y.shape), "grad_fn": name(y), "x_grad": V(x.grad),
            "param_grads": [V(p.grad) for p in module.parameters()]}


# ---- linear ---------------------------------------------------------------------------

def sc_linear(lib):
    nn = lib.nn
    out = {}
    lin = nn.Linear(4, 3)
    out["2d"] = _layer(lib, lin, _t(lib, 2, 4))
    lin.zero_grad()
    out["3d"] = _layer(lib, lin, _t(lib, 2, 3, 4), fill=False)
    y = lin(_t(lib, 2, 4, grad=False))
    out["next"] = [None if f is None else type(f).__name__ for f, _ in y.grad_fn.next_functions]
    nb = nn.Linear(4, 2, bias=False)
    out["nobias"] = _layer(lib, nb, _t(lib, 3, 4))
    out["repr"] = [repr(lin), repr(nb)]
    out["bad"] = err(lambda: lin(lib.ones(2, 5)))
    return out


# ---- convolution ----------------------------------------------------------------------

def sc_conv2d(lib):
    nn = lib.nn
    return {
        "plain": _layer(lib, nn.Conv2d(2, 3, 3), _t(lib, 2, 2, 5, 6)),
        "stride_pad_dil": _layer(lib, nn.Conv2d(2, 2, (3, 2), stride=(2, 1), padding=(1, 2), dilation=(1, 2)),
                                 _t(lib, 1, 2, 6, 5)),
        "groups": _layer(lib, nn.Conv2d(4, 6, 2, groups=2, bias=False), _t(lib, 2, 4, 4, 4)),
        "same": _layer(lib, nn.Conv2d(2, 2, (3, 4), padding="same"), _t(lib, 1, 2, 5, 5)),
        "valid": _layer(lib, nn.Conv2d(1, 1, 2, padding="valid"), _t(lib, 1, 1, 3, 3)),
        "unbatched": _layer(lib, nn.Conv2d(2, 1, 2), _t(lib, 2, 3, 3)),
        "repr": [repr(nn.Conv2d(2, 4, 3)), repr(nn.Conv2d(2, 4, (3, 5), stride=2, padding=(1, 2), dilation=2,
                                                          groups=2, bias=False)),
                 repr(nn.Conv2d(2, 2, 3, padding="same"))],
        "errors": [err(lambda: lib.nn.functional.conv2d(lib.ones(1, 3, 5, 5), lib.ones(2, 4, 3, 3))),
                   err(lambda: lib.nn.functional.conv2d(lib.ones(1, 3, 5, 5), lib.ones(2, 3, 9, 9))),
                   err(lambda: lib.nn.functional.conv2d(lib.ones(1, 3, 5, 5), lib.ones(2, 3, 3, 3), stride=2,
                                                        padding="same")),
                   err(lambda: nn.Conv2d(3, 4, 2, groups=2))],
    }


def sc_conv1d(lib):
    nn = lib.nn
    return {
        "plain": _layer(lib, nn.Conv1d(2, 3, 3, stride=2, padding=1, dilation=2), _t(lib, 2, 2, 9)),
        "same_even": _layer(lib, nn.Conv1d(2, 2, 4, padding="same", bias=False), _t(lib, 1, 2, 7)),
        "groups": _layer(lib, nn.Conv1d(4, 4, 3, groups=4), _t(lib, 1, 4, 6)),
        "repr": repr(nn.Conv1d(2, 4, 3, stride=2, dilation=2)),
    }


def sc_conv_transpose(lib):
    nn = lib.nn
    return {
        "2d": _layer(lib, nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1, output_padding=1), _t(lib, 1, 2, 3, 2)),
        "2d_groups": _layer(lib, nn.ConvTranspose2d(4, 2, 2, stride=2, groups=2), _t(lib, 2, 4, 2, 2)),
        "2d_dil": _layer(lib, nn.ConvTranspose2d(1, 2, (2, 3), stride=(1, 2), dilation=(2, 1), padding=(1, 0)),
                         _t(lib, 1, 1, 3, 3)),
        "1d": _layer(lib, nn.ConvTranspose1d(2, 2, 3, stride=3, padding=1, output_padding=2), _t(lib, 1, 2, 4)),
        "repr": repr(nn.ConvTranspose2d(4, 2, 2, stride=2, output_padding=1)),
    }


def sc_unfold_fold(lib):
    F = lib.nn.functional
    x = _t(lib, 2, 2, 4, 5)
    u = F.unfold(x, (2, 3), dilation=(1, 1), padding=1, stride=(2, 1))
    _back(lib, u)
    c = _t(lib, 1, 2 * 4, 4)
    f = F.fold(c, (4, 5), 2, padding=0, stride=(2, 2))
    _back(lib, f)
    return {"unfold": V(u), "unfold_name": name(u), "x_grad": V(x.grad), "fold": V(f), "fold_name": name(f),
            "c_grad": V(c.grad)}


# ---- pooling --------------------------------------------------------------------------

def sc_max_pool(lib):
    nn, F = lib.nn, lib.nn.functional
    x = _t(lib, 2, 2, 5, 6, step=1.9)
    out = {}
    for i, kw in enumerate([dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1),
                            dict(kernel_size=(2, 3), stride=(2, 1), dilation=(1, 2)),
                            dict(kernel_size=2, ceil_mode=True), dict(kernel_size=3, stride=2, ceil_mode=True, padding=1)]):
        xx = x.detach().clone().requires_grad_()
        y, idx = F.max_pool2d(xx, return_indices=True, **kw)
        _back(lib, y)
        out[str(i)] = {"y": V(y), "idx": V(idx), "name": name(y), "x_grad": V(xx.grad)}
    x1 = _t(lib, 2, 3, 8, step=1.3)
    y1 = F.max_pool1d(x1, 3, stride=2, padding=1)
    _back(lib, y1)
    out["1d"] = {"y": V(y1), "name": name(y1), "x_grad": V(x1.grad)}
    out["repr"] = [repr(nn.MaxPool2d(2)), repr(nn.MaxPool2d(3, stride=1, padding=1)), repr(nn.MaxPool1d(2))]
    out["err"] = err(lambda: F.max_pool2d(lib.ones(1, 1, 4, 4), 3, padding=2))
    return out


def sc_avg_pool(lib):
    nn, F = lib.nn, lib.nn.functional
    x = _t(lib, 1, 2, 5, 6, step=1.1)
    out = {}
    for i, kw in enumerate([dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1),
                            dict(kernel_size=3, stride=2, padding=1, count_include_pad=False),
                            dict(kernel_size=2, ceil_mode=True), dict(kernel_size=3, stride=2, ceil_mode=True, padding=1,
                                                                   count_include_pad=False),
                            dict(kernel_size=2, stride=1, divisor_override=3)]):
        xx = x.detach().clone().requires_grad_()
        y = F.avg_pool2d(xx, **kw)
        _back(lib, y)
        out[str(i)] = {"y": V(y), "name": name(y), "x_grad": V(xx.grad)}
    x1 = _t(lib, 1, 2, 7)
    y1 = nn.AvgPool1d(3, stride=2)(x1)
    _back(lib, y1)
    out["1d"] = {"y": V(y1), "name": name(y1), "x_grad": V(x1.grad)}
    out["repr"] = [repr(nn.AvgPool2d(2)), repr(nn.AvgPool1d(3, stride=2))]
    return out


def sc_adaptive_avg_pool(lib):
    nn = lib.nn
    x = _t(lib, 2, 2, 5, 7)
    y = nn.AdaptiveAvgPool2d((2, 3))(x)
    _back(lib, y)
    x1 = _t(lib, 1, 3, 5)
    y1 = nn.AdaptiveAvgPool1d(3)(x1)
    _back(lib, y1)
    return {"y": V(y), "name": name(y), "x_grad": V(x.grad), "y1": V(y1), "name1": name(y1), "x1_grad": V(x1.grad),
            "global": V(nn.AdaptiveAvgPool2d(1)(x)), "none": list(nn.AdaptiveAvgPool2d((None, 2))(x).shape),
            "repr": repr(nn.AdaptiveAvgPool2d((1, 1)))}


# ---- normalisation --------------------------------------------------------------------

def sc_batch_norm(lib):
    nn = lib.nn
    out = {}
    bn = nn.BatchNorm2d(3)
    _fill(lib, bn)
    x = _t(lib, 2, 3, 2, 3)
    y = bn(x)
    _back(lib, y)
    out["train"] = {"y": V(y), "name": name(y), "x_grad": V(x.grad), "w_grad": V(bn.weight.grad),
                    "b_grad": V(bn.bias.grad), "rm": V(bn.running_mean), "rv": V(bn.running_var),
                    "n": bn.num_batches_tracked.item()}
    bn.eval()
    x2 = _t(lib, 2, 3, 2, 3, phase=1.0)
    y2 = bn(x2)
    _back(lib, y2)
    out["eval"] = {"y": V(y2), "name": name(y2), "x_grad": V(x2.grad)}
    na = nn.BatchNorm1d(4, affine=False, momentum=None)
    for k in range(3):
        na(_t(lib, 5, 4, phase=float(k), grad=False))
    out["cumulative"] = {"rm": V(na.running_mean), "rv": V(na.running_var), "n": na.num_batches_tracked.item()}
    nt = nn.BatchNorm1d(2, track_running_stats=False)
    x3 = _t(lib, 3, 2, 4)
    y3 = nt(x3)
    _back(lib, y3)
    out["no_stats"] = {"y": V(y3), "x_grad": V(x3.grad), "buffers": [n for n, _ in nt.named_buffers()]}
    out["buffers"] = [n for n, _ in bn.named_buffers()]
    out["repr"] = [repr(nn.BatchNorm2d(8)), repr(nn.BatchNorm1d(4, momentum=None, affine=False)),
                   repr(nn.BatchNorm1d(2, eps=1e-3, track_running_stats=False))]
    out["errors"] = [err(lambda: nn.BatchNorm1d(3)(lib.ones(1, 3))), err(lambda: nn.BatchNorm2d(3)(lib.ones(2, 3)))]
    return out


def sc_layer_group_norm(lib):
    nn = lib.nn
    return {
        "ln": _layer(lib, nn.LayerNorm(4), _t(lib, 2, 3, 4)),
        "ln2": _layer(lib, nn.LayerNorm([3, 4]), _t(lib, 2, 3, 4)),
        "ln_noaffine": _layer(lib, nn.LayerNorm(4, elementwise_affine=False), _t(lib, 3, 4)),
        "ln_nobias": _layer(lib, nn.LayerNorm(4, bias=False), _t(lib, 3, 4)),
        "gn": _layer(lib, nn.GroupNorm(2, 4), _t(lib, 2, 4, 3)),
        "gn_4d": _layer(lib, nn.GroupNorm(3, 6, affine=False), _t(lib, 2, 6, 2, 2)),
        "repr": [repr(nn.LayerNorm(8)), repr(nn.LayerNorm([2, 3], eps=1e-6, elementwise_affine=False)),
                 repr(nn.GroupNorm(2, 4))],
        "errors": [err(lambda: nn.LayerNorm(4)(lib.ones(2, 3))), err(lambda: nn.GroupNorm(2, 3)),
                   err(lambda: lib.nn.functional.group_norm(lib.ones(2, 3, 4), 2))],
    }


# ---- embedding, dropout ---------------------------------------------------------------

def sc_embedding(lib):
    nn = lib.nn
    out = {}
    for key, kw in [("plain", {}), ("padding", {"padding_idx": 1}), ("freq", {"scale_grad_by_freq": True}),
                    ("neg_padding", {"padding_idx": -1})]:
        emb = nn.Embedding(5, 3, **kw)
        with lib.no_grad():
            emb.weight.copy_(lib.arange(15.0).reshape(5, 3))
        idx = lib.tensor([[0, 1, 3], [1, 3, 4], [1, 1, 2]])
        e = emb(idx)
        _back(lib, e)
        out[key] = {"y": V(e), "name": name(e), "w_grad": V(emb.weight.grad), "repr": repr(emb)}
    emb = nn.Embedding(4, 2, max_norm=1.0)
    with lib.no_grad():
        emb.weight.copy_(lib.tensor([[3.0, 4.0], [0.3, 0.4], [1.0, 1.0], [0.0, 2.0]]))
    out["max_norm"] = {"y": V(emb(lib.tensor([0, 2, 2]))), "w": V(emb.weight)}
    out["errors"] = [err(lambda: nn.Embedding(3, 2)(lib.tensor([3])))[0],
                     err(lambda: nn.Embedding(3, 2)(lib.tensor([1.0])))[0]]
    return out


def sc_random_layers(lib):
    F = lib.nn.functional
    lib.manual_seed(3)
    lin = lib.nn.Linear(3, 2)
    conv = lib.nn.Conv2d(2, 3, 2)
    convt = lib.nn.ConvTranspose2d(2, 1, 3)
    emb = lib.nn.Embedding(4, 2, padding_idx=0)
    prelu = lib.nn.PReLU(3)
    x = lib.ones(4, 5, requires_grad=True)
    d = F.dropout(x, 0.3)
    d.sum().backward()
    d2 = F.dropout2d(lib.ones(2, 3, 2, 2), 0.5)
    mod = lib.nn.Dropout(0.6)
    m = mod(lib.ones(10))
    mod.eval()
    xe = lib.ones(3)
    return {"linear": [V(lin.weight), V(lin.bias)], "conv": [V(conv.weight), V(conv.bias)],
            "convt": [V(convt.weight), V(convt.bias)], "emb": V(emb.weight), "prelu": V(prelu.weight),
            "dropout": V(d), "dropout_name": name(d), "x_grad": V(x.grad), "dropout2d": V(d2), "module": V(m),
            "eval_same": mod(xe) is xe, "p1": V(F.dropout(lib.ones(3), 1.0)),
            "repr": [repr(lib.nn.Dropout(0.25)), repr(lib.nn.Dropout2d(inplace=True))],
            "err": err(lambda: F.dropout(lib.ones(2), 1.5))}


# ---- activations ----------------------------------------------------------------------

def sc_activations(lib):
    nn, F = lib.nn, lib.nn.functional
    acts = {
        "leaky": nn.LeakyReLU(0.2), "elu": nn.ELU(alpha=0.5), "selu": nn.SELU(), "celu": nn.CELU(1.5),
        "gelu": nn.GELU(), "gelu_tanh": nn.GELU(approximate="tanh"), "silu": nn.SiLU(), "mish": nn.Mish(),
        "softplus": nn.Softplus(), "softplus_beta": nn.Softplus(beta=2.0, threshold=3.0),
        "hardtanh": nn.Hardtanh(-0.5, 1.0), "relu6": nn.ReLU6(), "hardsigmoid": nn.Hardsigmoid(),
        "hardswish": nn.Hardswish(), "logsigmoid": nn.LogSigmoid(), "softsign": nn.Softsign(),
        "tanhshrink": nn.Tanhshrink(), "softshrink": nn.Softshrink(0.6), "hardshrink": nn.Hardshrink(0.6),
        "threshold": nn.Threshold(0.25, -2.0), "softmax": nn.Softmax(dim=0), "logsoftmax": nn.LogSoftmax(dim=0),
    }
    out = {}
    for key, act in acts.items():
        x = lib.tensor([-7.0, -3.0, -1.0, -0.25, 0.0, 0.5, 2.0, 3.5, 7.0], requires_grad=True)
        y = act(x)
        _back(lib, y)
        out[key] = {"y": V(y), "name": name(y), "x_grad": V(x.grad), "repr": repr(act)}
    pr = nn.PReLU(3)
    out["prelu"] = _layer(lib, pr, _t(lib, 2, 3, 2))
    out["prelu_repr"] = repr(pr)
    out["glu"] = _layer(lib, nn.GLU(1), _t(lib, 2, 4, 3))
    out["glu_err"] = err(lambda: F.glu(lib.ones(3, 5)))
    return out


def sc_flatten(lib):
    nn = lib.nn
    x = _t(lib, 2, 3, 2, 2)
    f = nn.Flatten()(x)
    u = nn.Unflatten(1, (2, 6))(f)
    _back(lib, u)
    return {"f": list(f.shape), "f01": list(nn.Flatten(0, 1)(x).shape), "u": V(u), "x_grad": V(x.grad),
            "repr": [repr(nn.Flatten()), repr(nn.Unflatten(1, (2, 3)))]}


# ---- losses ---------------------------------------------------------------------------

def _each(lib, fn, xv, *rest, **kw):
    out = {}
    for red in ("none", "mean", "sum"):
        x = lib.tensor(xv, requires_grad=True)
        loss = fn(x, *rest, reduction=red, **kw)
        loss.backward(lib.ones_like(loss) if red == "none" else None)
        out[red] = {"v": V(loss), "g": V(x.grad), "name": name(loss)}
    return out


def sc_losses_pointwise(lib):
    F = lib.nn.functional
    x = [[0.2, -1.5, 3.0, 0.9], [-0.1, 0.0, 2.2, -4.0]]
    y = lib.tensor([[0.0, 0.0, 0.5, 0.0], [0.3, 0.0, 2.0, -1.0]])
    yg = y.clone().requires_grad_()
    m = F.mse_loss(lib.tensor(x), yg)
    m.backward()
    return {"mse": _each(lib, F.mse_loss, x, y), "l1": _each(lib, F.l1_loss, x, y),
            "smooth_l1": _each(lib, F.smooth_l1_loss, x, y), "smooth_l1_beta": _each(lib, F.smooth_l1_loss, x, y, beta=0.5),
            "huber": _each(lib, F.huber_loss, x, y), "huber_delta": _each(lib, F.huber_loss, x, y, delta=2.0),
            "soft_margin": _each(lib, F.soft_margin_loss, x, lib.tensor([[1.0, -1.0, 1.0, 1.0], [-1.0, 1.0, -1.0, 1.0]])),
            "target_grad": V(yg.grad),
            "bad_reduction": err(lambda: F.mse_loss(y, y, reduction="avg")),
            "modules": [repr(lib.nn.MSELoss()), repr(lib.nn.SmoothL1Loss(beta=0.5)), repr(lib.nn.HuberLoss())]}


def sc_losses_classification(lib):
    F = lib.nn.functional
    logits = [[1.0, 2.0, 0.5], [0.1, -1.0, 3.0], [2.0, 1.0, 0.0], [-0.5, 0.0, 1.5]]
    t = lib.tensor([1, 2, -100, 0])
    w = lib.tensor([0.2, 1.0, 3.0])
    logp = [[-1.2, -0.5, -2.0], [-0.3, -1.5, -2.5], [-2.0, -0.2, -3.0], [-1.0, -1.0, -1.1]]
    x4 = [[[[0.5, -0.5], [1.0, 0.0]], [[0.0, 2.0], [-1.0, 0.5]], [[1.5, 0.5], [0.0, 0.0]]]]
    t4 = lib.tensor([[[0, 1], [2, 1]]])
    x3 = [[[0.5, -0.5, 1.0], [0.0, 2.0, -1.0]], [[1.5, 0.5, 0.2], [0.0, 0.3, 0.1]]]
    t3 = lib.tensor([[0, 1, 1], [1, 0, 0]])
    probs = lib.tensor([[0.2, 0.7, 0.1], [0.0, 0.5, 0.5], [0.3, 0.3, 0.4], [1.0, 0.0, 0.0]])
    return {
        "nll": _each(lib, F.nll_loss, logp, lib.tensor([2, 0, 1, 1])),
        "nll_w_ignore": _each(lib, F.nll_loss, logp, t, weight=w),
        "nll_4d": _each(lib, F.nll_loss, x4, t4),
        "nll_3d": _each(lib, F.nll_loss, x3, t3),
        "ce": _each(lib, F.cross_entropy, logits, t),
        "ce_w": _each(lib, F.cross_entropy, logits, t, weight=w),
        "ce_smooth": _each(lib, F.cross_entropy, logits, t, label_smoothing=0.1),
        "ce_smooth_w": _each(lib, F.cross_entropy, logits, t, weight=w, label_smoothing=0.2),
        "ce_probs": _each(lib, F.cross_entropy, logits, probs),
        "ce_probs_w_smooth": _each(lib, F.cross_entropy, logits, probs, weight=w, label_smoothing=0.3),
        "ce_4d": _each(lib, F.cross_entropy, x4, t4),
        "ce_unbatched": V(F.cross_entropy(lib.tensor([0.5, 1.5, -1.0]), lib.tensor(1))),
        "errors": [err(lambda: F.cross_entropy(lib.tensor(logits), lib.tensor([1, 3, 0, 0]))),
                   err(lambda: F.nll_loss(lib.tensor(logp), lib.tensor([0]))),
                   err(lambda: F.cross_entropy(lib.tensor(logits), lib.tensor([1, 0, 0, 0]), weight=lib.ones(2))),
                   err(lambda: F.cross_entropy(lib.tensor(logits), t, label_smoothing=1.5)),
                   err(lambda: F.cross_entropy(lib.tensor(logits), t, reduction="avg"))],
        "modules": [repr(lib.nn.CrossEntropyLoss()), repr(lib.nn.NLLLoss())],
    }


def sc_losses_binary(lib):
    F = lib.nn.functional
    p = [[0.9, 0.2, 0.5], [0.01, 0.7, 0.99]]
    y = lib.tensor([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0]])
    z = [[2.0, -1.0, 0.0], [-3.0, 0.5, 40.0]]
    w = lib.tensor([1.0, 2.0, 0.5])
    pw = lib.tensor([3.0, 1.0, 0.5])
    return {
        "bce": _each(lib, F.binary_cross_entropy, p, y),
        "bce_w": _each(lib, F.binary_cross_entropy, p, y, weight=w),
        "bce_sat": V(F.binary_cross_entropy(lib.tensor([0.0, 1.0]), lib.tensor([1.0, 0.0]), reduction="none")),
        "bcel": _each(lib, F.binary_cross_entropy_with_logits, z, y),
        "bcel_pw": _each(lib, F.binary_cross_entropy_with_logits, z, y, pos_weight=pw),
        "bcel_w_pw": _each(lib, F.binary_cross_entropy_with_logits, z, y, weight=lib.tensor([[1.0], [2.0]]), pos_weight=pw),
        "bcel_extreme": V(F.binary_cross_entropy_with_logits(lib.tensor([-200.0, 200.0]), lib.tensor([1.0, 0.0]),
                                                             reduction="none")),
        "errors": [err(lambda: F.binary_cross_entropy(lib.tensor([1.5, 0.5]), lib.tensor([1.0, 0.0]))),
                   err(lambda: F.binary_cross_entropy(lib.tensor([0.5, 0.5]), lib.tensor([1.0, 0.0, 1.0]))),
                   err(lambda: F.binary_cross_entropy_with_logits(lib.zeros(2, 3), lib.zeros(3, 2)))],
    }


def sc_losses_other(lib):
    F = lib.nn.functional
    logq = [[-1.0, -0.7, -1.9], [-0.4, -1.6, -1.6]]
    p = lib.tensor([[0.3, 0.5, 0.2], [0.6, 0.0, 0.4]])
    a = [[1.0, 0.5, 2.0], [0.5, -1.0, 1.0], [2.0, 1.0, -1.0]]
    b = lib.tensor([[0.5, 1.0, 1.0], [1.0, -0.5, 0.5], [1.0, 1.5, 0.5]])
    yy = lib.tensor([1.0, -1.0, -1.0])
    x1 = [0.3, -0.5, 1.2, 0.0]
    x2 = lib.tensor([0.1, 0.4, 1.0, 0.0])
    t = lib.tensor([1.0, -1.0, -1.0, 1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kl = _each(lib, F.kl_div, logq, p)
    x = lib.tensor(logq, requires_grad=True)
    bm = F.kl_div(x, p, reduction="batchmean")
    bm.backward()
    return {
        "kl": kl, "kl_batchmean": [V(bm), V(x.grad), name(bm)],
        "kl_log_target": _each(lib, F.kl_div, logq, p.clamp(min=0.05).log(), log_target=True),
        "cosine": _each(lib, F.cosine_embedding_loss, a, b, yy, margin=0.2),
        "ranking": _each(lib, F.margin_ranking_loss, x1, x2, t, margin=0.1),
        "hinge": _each(lib, F.hinge_embedding_loss, x1, t, margin=0.5),
        "triplet": _each(lib, F.triplet_margin_loss, a, b, b.flip(0), margin=1.5),
        "poisson": _each(lib, F.poisson_nll_loss, x1, lib.tensor([1.0, 0.0, 2.0, 3.0])),
        "poisson_full": _each(lib, F.poisson_nll_loss, [0.5, 1.5, 2.0, 3.0], lib.tensor([1.0, 0.0, 2.0, 3.0]),
                              log_input=False, full=True),
        "gaussian": _each(lib, F.gaussian_nll_loss, x1, x2, lib.tensor([0.5, 1.0, 2.0, 0.1])),
    }


def sc_pad_normalize_interpolate(lib):
    F = lib.nn.functional
    x = _t(lib, 1, 2, 3, 4)
    c = F.pad(x, (1, 2), value=-1.0)
    c2 = F.pad(x, (1, 0, -1, 2))
    r = F.pad(x, (2, 1, 1, 2), mode="reflect")
    rep = F.pad(x, (1, 3, 2, 0), mode="replicate")
    circ = F.pad(x, (1, 2, 2, 1), mode="circular")
    r1 = F.pad(x[0], (2, 2), mode="reflect")
    _back(lib, lib.cat([c.flatten(), c2.flatten(), r.flatten() * 2, rep.flatten() * 3, circ.flatten() * 4, r1.flatten()]))
    y = _t(lib, 3, 4)
    n = F.normalize(y)
    n1 = F.normalize(y, p=1, dim=0)
    _back(lib, n + n1)
    z = _t(lib, 1, 2, 3, 4)
    outs = [F.interpolate(z, scale_factor=2), F.interpolate(z, size=(5, 7), mode="bilinear"),
            F.interpolate(z, size=(2, 6), mode="bilinear", align_corners=True),
            F.interpolate(z, scale_factor=(1.5, 0.75), mode="bilinear"), F.interpolate(z, size=(4, 3))]
    z1 = _t(lib, 2, 2, 5)
    outs1 = [F.interpolate(z1, scale_factor=1.7, mode="linear"), F.interpolate(z1, size=3, mode="linear", align_corners=True),
             F.interpolate(z1, size=8)]
    _back(lib, lib.cat([o.flatten() for o in outs + outs1]))
    return {"pads": [V(c), V(c2), V(r), V(rep), V(circ), V(r1)],
            "pad_names": [name(c), name(r), name(rep), name(circ), name(r1)], "x_grad": V(x.grad),
            "normalize": [V(n), V(n1), name(n)], "y_grad": V(y.grad),
            "interp": [V(o) for o in outs + outs1], "interp_names": [name(o) for o in outs + outs1],
            "z_grad": V(z.grad), "z1_grad": V(z1.grad),
            "one_hot": V(F.one_hot(lib.tensor([0, 2, 1]))), "one_hot5": V(F.one_hot(lib.tensor([[1], [3]]), 5)),
            "errors": [err(lambda: F.pad(x, (3, 3), mode="reflect"))[0], err(lambda: F.pad(x, (1,), value=1.0)),
                       err(lambda: F.interpolate(z, scale_factor=2, mode="nearest", align_corners=True)),
                       err(lambda: F.mse_loss(lib.zeros(3), lib.zeros(2)))]}


def sc_padding_modes_and_inplace(lib):
    nn = lib.nn
    out = {}
    for mode in ("reflect", "replicate", "circular"):
        out[mode] = _layer(lib, nn.Conv2d(1, 2, 3, padding=1, padding_mode=mode), _t(lib, 1, 1, 4, 5))
    out["repr"] = repr(nn.Conv2d(1, 2, 3, padding=1, padding_mode="reflect"))
    # an in-place activation on a layer's output (the output is not a view of anything)
    net = nn.Sequential(nn.Conv2d(2, 3, 2), nn.ReLU(inplace=True), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(12, 2),
                        nn.LeakyReLU(0.1, inplace=True))
    out["inplace_net"] = _layer(lib, net, _t(lib, 2, 2, 5, 5))
    bn_net = nn.Sequential(nn.BatchNorm1d(3), nn.ReLU(inplace=True), nn.Dropout(0.0))
    out["bn_relu"] = _layer(lib, bn_net, _t(lib, 4, 3))
    return out


def sc_adaptive_max_pool(lib):
    nn = lib.nn
    x = _t(lib, 2, 2, 5, 7, step=1.9)
    y, idx = nn.AdaptiveMaxPool2d((2, 3), return_indices=True)(x)
    _back(lib, y)
    x1 = _t(lib, 1, 3, 7, step=2.3)
    y1 = nn.AdaptiveMaxPool1d(3)(x1)
    _back(lib, y1)
    return {"y": V(y), "idx": V(idx), "name": name(y), "x_grad": V(x.grad), "y1": V(y1), "name1": name(y1),
            "x1_grad": V(x1.grad), "global": V(nn.AdaptiveMaxPool2d(1)(x)), "repr": repr(nn.AdaptiveMaxPool2d((1, 2)))}


SCENARIOS = {k[3:]: v for k, v in sorted(globals().items()) if k.startswith("sc_")}


def run_all(lib):
    out = {}
    for key, fn in SCENARIOS.items():
        try:
            out[key] = fn(lib)
        except Exception as e:  # noqa: BLE001
            out[key] = ["crashed", type(e).__name__, str(e)]
    return out
