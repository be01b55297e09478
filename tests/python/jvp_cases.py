"""Per-op forward-mode AD cases, run with a torch-like module.

tools/record_jvp_goldens.py runs every case with PyTorch's ``forward_ad`` and stores the primal
outputs and their tangents in fixtures/jvp.json; tests/python/test_jvp.py runs them with
ferrograd and compares, and checks each tangent against central finite differences.

A case is ``(name, fn, specs)``: ``fn(torch, *inputs)`` returns a tensor or a tuple of tensors;
``specs`` gives each input as ``(shape, kind)`` where kind is ``"any"`` (values in [-2, 2]),
``"pos"`` ([0.5, 2.5]), ``"unit"`` ((-0.9, 0.9)), ``"prob"`` ((0.05, 0.95)), or ``"long:N"``
(integers in [0, N), no tangent). Inputs and tangents are float64, drawn from a fixed-seed
generator that needs no library (the same numbers under both libraries).
"""

import math


def _lcg(seed):
    state = seed & 0xFFFFFFFF
    while True:
        state = (1103515245 * state + 12345) & 0x7FFFFFFF
        yield state / 0x7FFFFFFF


def seed_of(name):
    """A case's seed, from its name (stable when cases are added or removed)."""
    h = 7
    for ch in name:
        h = (h * 31 + ord(ch)) & 0x7FFFFFFF
    return h + 1


def make_values(specs, seed):
    """Deterministic input and tangent values (nested lists) for ``specs``."""
    rnd = _lcg(seed)
    inputs, tangents = [], []
    for shape, kind in specs:
        n = math.prod(shape)
        if kind.startswith("long:"):
            hi = int(kind.split(":")[1])
            inputs.append(("long", shape, [int(next(rnd) * hi) % hi for _ in range(n)]))
            tangents.append(None)
            continue
        lo, hi = {"any": (-2.0, 2.0), "pos": (0.5, 2.5), "unit": (-0.9, 0.9), "prob": (0.05, 0.95)}[kind]
        inputs.append(("double", shape, [lo + (hi - lo) * next(rnd) for _ in range(n)]))
        tangents.append([2.0 * next(rnd) - 1.0 for _ in range(n)])
    return inputs, tangents


def build(torch, spec):
    kind, shape, flat = spec
    dtype = torch.float64 if kind == "double" else torch.int64
    return torch.tensor(flat, dtype=dtype).reshape(shape)


F = "torch.nn.functional"

CASES = [
    # unary elementwise
    ("exp", lambda torch, x: x.exp(), [((3, 4), "any")]),
    ("log", lambda torch, x: x.log(), [((3, 4), "pos")]),
    ("sqrt", lambda torch, x: x.sqrt(), [((3, 4), "pos")]),
    ("rsqrt", lambda torch, x: x.rsqrt(), [((5,), "pos")]),
    ("sin", lambda torch, x: torch.sin(x), [((3, 4), "any")]),
    ("cos", lambda torch, x: torch.cos(x), [((3, 4), "any")]),
    ("tan", lambda torch, x: torch.tan(x), [((6,), "unit")]),
    ("tanh", lambda torch, x: torch.tanh(x), [((3, 4), "any")]),
    ("sigmoid", lambda torch, x: torch.sigmoid(x), [((3, 4), "any")]),
    ("relu", lambda torch, x: torch.relu(x), [((3, 4), "any")]),
    ("abs", lambda torch, x: x.abs(), [((3, 4), "any")]),
    ("neg", lambda torch, x: -x, [((3, 4), "any")]),
    ("reciprocal", lambda torch, x: x.reciprocal(), [((3, 4), "pos")]),
    ("pow_scalar", lambda torch, x: x ** 3, [((3, 4), "any")]),
    ("pow_frac", lambda torch, x: x.pow(1.5), [((3, 4), "pos")]),
    ("log1p", lambda torch, x: torch.log1p(x), [((4,), "pos")]),
    ("expm1", lambda torch, x: torch.expm1(x), [((4,), "any")]),
    ("log2", lambda torch, x: torch.log2(x), [((4,), "pos")]),
    ("atan", lambda torch, x: torch.atan(x), [((4,), "any")]),
    ("asin", lambda torch, x: torch.asin(x), [((4,), "unit")]),
    ("acos", lambda torch, x: torch.acos(x), [((4,), "unit")]),
    ("sinh", lambda torch, x: torch.sinh(x), [((4,), "any")]),
    ("cosh", lambda torch, x: torch.cosh(x), [((4,), "any")]),
    ("erf", lambda torch, x: torch.erf(x), [((4,), "any")]),
    ("clamp", lambda torch, x: x.clamp(-0.5, 0.7), [((3, 4), "any")]),
    ("gelu", lambda torch, x: torch.nn.functional.gelu(x), [((3, 4), "any")]),
    ("gelu_tanh", lambda torch, x: torch.nn.functional.gelu(x, approximate="tanh"), [((3, 4), "any")]),
    ("elu", lambda torch, x: torch.nn.functional.elu(x), [((3, 4), "any")]),
    ("silu", lambda torch, x: torch.nn.functional.silu(x), [((3, 4), "any")]),
    ("softplus", lambda torch, x: torch.nn.functional.softplus(x), [((3, 4), "any")]),
    ("leaky_relu", lambda torch, x: torch.nn.functional.leaky_relu(x, 0.1), [((3, 4), "any")]),
    ("hardtanh", lambda torch, x: torch.nn.functional.hardtanh(x), [((3, 4), "any")]),
    # binary
    ("add", lambda torch, x, y: x + y, [((3, 4), "any"), ((3, 4), "any")]),
    ("add_broadcast", lambda torch, x, y: x + y, [((3, 4), "any"), ((4,), "any")]),
    ("add_alpha", lambda torch, x, y: torch.add(x, y, alpha=2.5), [((3, 4), "any"), ((3, 4), "any")]),
    ("sub", lambda torch, x, y: x - y, [((3, 1), "any"), ((1, 4), "any")]),
    ("rsub_scalar", lambda torch, x: 2 - x, [((3, 4), "any")]),
    ("mul", lambda torch, x, y: x * y, [((3, 4), "any"), ((3, 4), "any")]),
    ("mul_broadcast", lambda torch, x, y: x * y, [((2, 3, 4), "any"), ((3, 1), "any")]),
    ("mul_scalar", lambda torch, x: x * 3.0, [((3, 4), "any")]),
    ("div", lambda torch, x, y: x / y, [((3, 4), "any"), ((3, 4), "pos")]),
    ("div_scalar", lambda torch, x: x / 4.0, [((3, 4), "any")]),
    ("pow_tensor", lambda torch, x, y: x ** y, [((3, 4), "pos"), ((3, 4), "any")]),
    ("atan2", lambda torch, x, y: torch.atan2(x, y), [((3, 4), "any"), ((3, 4), "pos")]),
    ("maximum", lambda torch, x, y: torch.maximum(x, y), [((3, 4), "any"), ((3, 4), "any")]),
    ("minimum", lambda torch, x, y: torch.minimum(x, y), [((3, 4), "any"), ((3, 4), "any")]),
    ("where", lambda torch, x, y: torch.where(x > 0, x, y), [((3, 4), "any"), ((3, 4), "any")]),
    # ternary pointwise
    ("lerp", lambda torch, x, y: torch.lerp(x, y, 0.3), [((3, 4), "any"), ((3, 4), "any")]),
    ("lerp_tensor", lambda torch, x, y, w: torch.lerp(x, y, w), [((3, 4), "any"), ((4,), "any"), ((3, 1), "any")]),
    ("addcmul", lambda torch, x, y, z: torch.addcmul(x, y, z, value=0.5), [((3, 4), "any"), ((3, 4), "any"), ((3, 4), "any")]),
    ("addcdiv", lambda torch, x, y, z: torch.addcdiv(x, y, z, value=-1.5), [((3, 4), "any"), ((3, 4), "any"), ((3, 4), "pos")]),
    # reductions
    ("sum", lambda torch, x: x.sum(), [((3, 4), "any")]),
    ("sum_dim", lambda torch, x: x.sum(1), [((3, 4), "any")]),
    ("sum_keepdim", lambda torch, x: x.sum(0, keepdim=True), [((3, 4), "any")]),
    ("mean", lambda torch, x: x.mean(), [((3, 4), "any")]),
    ("mean_dim", lambda torch, x: x.mean(-1), [((3, 4), "any")]),
    ("var", lambda torch, x: x.var(1), [((3, 4), "any")]),
    ("std", lambda torch, x: x.std(), [((3, 4), "any")]),
    ("prod", lambda torch, x: x.prod(1), [((3, 4), "pos")]),
    ("amax", lambda torch, x: x.amax(1), [((3, 4), "any")]),
    ("max_dim", lambda torch, x: x.max(1)[0], [((3, 4), "any")]),
    ("min", lambda torch, x: x.min(), [((3, 4), "any")]),
    ("norm", lambda torch, x: x.norm(), [((3, 4), "any")]),
    ("norm_p1_dim", lambda torch, x: x.norm(p=1, dim=1), [((3, 4), "any")]),
    ("logsumexp", lambda torch, x: torch.logsumexp(x, 1), [((3, 4), "any")]),
    ("cumsum", lambda torch, x: x.cumsum(1), [((3, 4), "any")]),
    ("cumprod", lambda torch, x: x.cumprod(1), [((3, 4), "pos")]),
    # shape and indexing
    ("view", lambda torch, x: x.view(4, 3), [((3, 4), "any")]),
    ("reshape_t", lambda torch, x: x.t().reshape(12), [((3, 4), "any")]),
    ("transpose", lambda torch, x: x.transpose(0, 1), [((3, 4), "any")]),
    ("permute", lambda torch, x: x.permute(2, 0, 1), [((2, 3, 4), "any")]),
    ("expand", lambda torch, x: x.expand(3, 4), [((1, 4), "any")]),
    ("squeeze_unsqueeze", lambda torch, x: x.unsqueeze(1).squeeze(0), [((1, 4), "any")]),
    ("select_slice", lambda torch, x: x[1, 1:3], [((3, 4), "any")]),
    ("index_tensor", lambda torch, x, i: x[i], [((5, 3), "any"), ((4,), "long:5")]),
    ("gather", lambda torch, x, i: x.gather(1, i), [((3, 4), "any"), ((3, 2), "long:4")]),
    ("index_select", lambda torch, x, i: x.index_select(0, i), [((5, 3), "any"), ((2,), "long:5")]),
    ("cat", lambda torch, x, y: torch.cat([x, y], 0), [((2, 3), "any"), ((1, 3), "any")]),
    ("stack", lambda torch, x, y: torch.stack([x, y], 1), [((2, 3), "any"), ((2, 3), "any")]),
    ("split", lambda torch, x: x.split(2, 1), [((3, 4), "any")]),
    ("flip", lambda torch, x: x.flip(0), [((3, 4), "any")]),
    ("clone_contig", lambda torch, x: x.t().contiguous(), [((3, 4), "any")]),
    ("sort", lambda torch, x: x.sort(1)[0], [((3, 4), "any")]),
    ("topk", lambda torch, x: x.topk(2)[0], [((3, 4), "any")]),
    ("masked_fill", lambda torch, x: x.masked_fill(x > 0.5, 0.0), [((3, 4), "any")]),
    ("to_float32", lambda torch, x: x.to(torch.float32).to(torch.float64), [((3, 4), "any")]),
    # matmul family
    ("mm", lambda torch, x, y: x @ y, [((3, 4), "any"), ((4, 2), "any")]),
    ("mv", lambda torch, x, y: torch.mv(x, y), [((3, 4), "any"), ((4,), "any")]),
    ("dot", lambda torch, x, y: torch.dot(x, y), [((4,), "any"), ((4,), "any")]),
    ("bmm", lambda torch, x, y: torch.bmm(x, y), [((2, 3, 4), "any"), ((2, 4, 2), "any")]),
    ("addmm", lambda torch, b, x, y: torch.addmm(b, x, y), [((2,), "any"), ((3, 4), "any"), ((4, 2), "any")]),
    ("addmm_scaled", lambda torch, b, x, y: torch.addmm(b, x, y, beta=0.5, alpha=-2), [((3, 2), "any"), ((3, 4), "any"), ((4, 2), "any")]),
    ("addmv", lambda torch, b, x, y: torch.addmv(b, x, y, beta=2, alpha=0.5), [((3,), "any"), ((3, 4), "any"), ((4,), "any")]),
    ("baddbmm", lambda torch, b, x, y: torch.baddbmm(b, x, y, alpha=1.5), [((3, 2), "any"), ((2, 3, 4), "any"), ((2, 4, 2), "any")]),
    ("matmul_batched", lambda torch, x, y: torch.matmul(x, y), [((2, 3, 4), "any"), ((4, 5), "any")]),
    ("linear", lambda torch, x, w, b: torch.nn.functional.linear(x, w, b), [((3, 4), "any"), ((2, 4), "any"), ((2,), "any")]),
    # nn
    ("softmax", lambda torch, x: torch.softmax(x, 1), [((3, 4), "any")]),
    ("log_softmax", lambda torch, x: torch.log_softmax(x, 1), [((3, 4), "any")]),
    ("layer_norm", lambda torch, x, w, b: torch.nn.functional.layer_norm(x, (4,), w, b), [((3, 4), "any"), ((4,), "any"), ((4,), "any")]),
    ("mse_loss", lambda torch, x, y: torch.nn.functional.mse_loss(x, y), [((3, 4), "any"), ((3, 4), "any")]),
    ("cross_entropy", lambda torch, x, i: torch.nn.functional.cross_entropy(x, i), [((3, 4), "any"), ((3,), "long:4")]),
    ("nll_loss", lambda torch, x, i: torch.nn.functional.nll_loss(x, i), [((3, 4), "any"), ((3,), "long:4")]),
    ("bce", lambda torch, x, y: torch.nn.functional.binary_cross_entropy(x, y), [((3, 4), "prob"), ((3, 4), "prob")]),
    ("bce_logits", lambda torch, x, y: torch.nn.functional.binary_cross_entropy_with_logits(x, y), [((3, 4), "any"), ((3, 4), "prob")]),
    ("conv2d", lambda torch, x, w, b: torch.nn.functional.conv2d(x, w, b, padding=1), [((1, 2, 4, 4), "any"), ((3, 2, 3, 3), "any"), ((3,), "any")]),
    ("max_pool2d", lambda torch, x: torch.nn.functional.max_pool2d(x, 2), [((1, 2, 4, 4), "any")]),
    ("avg_pool2d", lambda torch, x: torch.nn.functional.avg_pool2d(x, 2), [((1, 2, 4, 4), "any")]),
    ("embedding", lambda torch, i, w: torch.nn.functional.embedding(i, w), [((3,), "long:5"), ((5, 2), "any")]),
    ("dropout_eval", lambda torch, x: torch.nn.functional.dropout(x, 0.5, training=False), [((3, 4), "any")]),
    # in-place and views
    ("inplace_add", lambda torch, x, y: x.clone().add_(y), [((3, 4), "any"), ((3, 4), "any")]),
    ("inplace_mul_view", lambda torch, x, y: _inplace_view(x, y), [((3, 4), "any"), ((4,), "any")]),
    ("inplace_exp", lambda torch, x: x.clone().exp_(), [((3, 4), "any")]),
    # compositions
    ("mlp", lambda torch, x, w1, w2: torch.tanh(x @ w1).matmul(w2).sum(1), [((3, 4), "any"), ((4, 5), "any"), ((5, 2), "any")]),
]


def _inplace_view(x, y):
    z = x.clone()
    z[1].mul_(y)
    return z
