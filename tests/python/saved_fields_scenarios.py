"""The ``_saved_*`` attributes of common ops' grad_fn nodes (what ``dir(grad_fn)`` lists and
what each holds: numbers, tuples, None, or tensors by shape, dtype and values). Run with
``torch`` bound to PyTorch (tools/record_saved_fields_goldens.py records
fixtures/saved_fields.json) or to ferrograd (test_saved_fields.py compares)."""

import warnings


def _value(v):
    if hasattr(v, "shape"):
        return {"shape": list(v.shape), "dtype": str(v.dtype).split(".")[-1],
                "value": [e if e == e else "nan" for e in v.detach().double().flatten().tolist()]}
    if isinstance(v, (list, tuple)):
        return [_value(e) for e in v]
    if isinstance(v, (bool, int, float, str)) or v is None:
        return v
    return str(v)


# decompositions whose vectors are defined up to sign (LAPACK's and ferrograd's choices may
# differ): their saved tensors are compared in absolute value
SIGN_FREE = {"qr", "qr_complete", "svd", "svd_reduced", "svdvals", "eigh", "eigvalsh"}


def run(torch):
    warnings.simplefilter("ignore")
    F = torch.nn.functional
    torch.manual_seed(0)
    x = torch.rand(3, 4, requires_grad=True); y = torch.rand(3, 4, requires_grad=True)
    m = torch.rand(4, 5, requires_grad=True); v = torch.rand(4, requires_grad=True)
    b3 = torch.rand(2, 3, 4, requires_grad=True); b3b = torch.rand(2, 4, 5, requires_grad=True)
    img = torch.rand(2, 3, 6, 6, requires_grad=True); w = torch.rand(4, 3, 3, 3, requires_grad=True)
    idx = torch.tensor([0, 2]); tgt = torch.tensor([1, 0, 3])
    q4 = torch.rand(2, 2, 3, 4, requires_grad=True); k4 = torch.rand(2, 2, 5, 4, requires_grad=True)
    v4 = torch.rand(2, 2, 5, 4, requires_grad=True)
    mask4 = torch.tensor([[True, True, False, True, False], [False, False, False, False, False], [True] * 5])
    ops = {
     "add": lambda: x + y, "add_alpha": lambda: torch.add(x, y, alpha=2), "sub": lambda: x - y, "mul": lambda: x * y, "mul_s": lambda: x * 2,
     "div": lambda: x / y, "div_s": lambda: x / 2, "pow_s": lambda: x ** 2, "pow_t": lambda: x ** y, "rpow": lambda: 2 ** x,
     "exp": lambda: x.exp(), "log": lambda: x.log(), "sqrt": lambda: x.sqrt(), "rsqrt": lambda: x.rsqrt(), "sin": lambda: x.sin(), "cos": lambda: x.cos(),
     "tanh": lambda: x.tanh(), "sigmoid": lambda: x.sigmoid(), "relu": lambda: x.relu(), "abs": lambda: x.abs(), "neg": lambda: -x,
     "reciprocal": lambda: x.reciprocal(), "log1p": lambda: x.log1p(), "expm1": lambda: x.expm1(), "erf": lambda: x.erf(), "atan2": lambda: torch.atan2(x, y),
     "clamp": lambda: x.clamp(0.2, 0.8), "clamp_min": lambda: x.clamp(min=0.2), "maximum": lambda: torch.maximum(x, y), "where": lambda: torch.where(x > 0.5, x, y),
     "sum": lambda: x.sum(), "sum_dim": lambda: x.sum(1), "mean": lambda: x.mean(), "mean_dim": lambda: x.mean(0, keepdim=True), "prod": lambda: x.prod(),
     "prod_dim": lambda: x.prod(1), "max": lambda: x.max(), "max_dim": lambda: x.max(1)[0], "amax": lambda: x.amax(1), "var": lambda: x.var(1), "std": lambda: x.std(),
     "norm": lambda: x.norm(), "norm_dim": lambda: x.norm(dim=1), "logsumexp": lambda: x.logsumexp(1), "cumsum": lambda: x.cumsum(1), "cumprod": lambda: x.cumprod(1),
     "softmax": lambda: x.softmax(1), "log_softmax": lambda: x.log_softmax(1), "mm": lambda: x @ m, "mv": lambda: x @ v, "bmm": lambda: b3 @ b3b, "matmul3": lambda: b3 @ m,
     "addmm": lambda: torch.addmm(y[:, :1].expand(3, 5).contiguous(), x, m), "linear": lambda: F.linear(x, m.t()), "linear_b": lambda: F.linear(x, m.t(), torch.rand(5, requires_grad=True)),
     "dot": lambda: v.dot(v), "outer": lambda: torch.outer(v, v),
     "view": lambda: x.view(4, 3), "reshape": lambda: x.reshape(12), "t": lambda: x.t(), "transpose": lambda: x.transpose(0, 1), "permute": lambda: b3.permute(2, 0, 1),
     "expand": lambda: v.expand(3, 4), "squeeze": lambda: x.unsqueeze(0).squeeze(0), "unsqueeze": lambda: x.unsqueeze(1), "select": lambda: x[1], "slice": lambda: x[:, 1:3],
     "index": lambda: x[idx], "index_bool": lambda: x[x > 0.5], "cat": lambda: torch.cat([x, y]), "stack": lambda: torch.stack([x, y]), "split": lambda: x.split(2)[0],
     "chunk": lambda: x.chunk(2, 1)[1], "gather": lambda: x.gather(1, torch.tensor([[0], [1], [2]])), "scatter_add": lambda: x.scatter_add(1, torch.tensor([[0], [1], [2]]), y[:, :1]),
     "index_select": lambda: x.index_select(1, idx), "masked_fill": lambda: x.masked_fill(x > 0.5, 0.0), "flip": lambda: x.flip(0), "roll": lambda: x.roll(1, 0),
     "repeat": lambda: x.repeat(2, 1), "narrow": lambda: x.narrow(1, 1, 2), "diagonal": lambda: x.diagonal(), "tril": lambda: x.tril(), "clone": lambda: x.clone(),
     "to_double": lambda: x.double(), "contiguous_t": lambda: x.t().contiguous(), "sort": lambda: x.sort(1)[0], "topk": lambda: x.topk(2)[0], "kthvalue": lambda: x.kthvalue(2)[0],
     "median": lambda: x.median(), "lerp": lambda: torch.lerp(x, y, 0.3), "addcmul": lambda: torch.addcmul(x, x, y, value=0.5), "addcdiv": lambda: torch.addcdiv(x, x, y + 1, value=0.5),
     "F.relu": lambda: F.relu(x), "gelu": lambda: F.gelu(x), "gelu_tanh": lambda: F.gelu(x, approximate="tanh"), "silu": lambda: F.silu(x), "elu": lambda: F.elu(x),
     "leaky_relu": lambda: F.leaky_relu(x, 0.1), "softplus": lambda: F.softplus(x), "hardtanh": lambda: F.hardtanh(x), "mish": lambda: F.mish(x), "hardswish": lambda: F.hardswish(x),
     "logsigmoid": lambda: F.logsigmoid(x), "glu": lambda: F.glu(x), "dropout": lambda: F.dropout(x, 0.5), "layer_norm": lambda: F.layer_norm(x, (4,)),
     "layer_norm_wb": lambda: F.layer_norm(x, (4,), v, v), "batch_norm": lambda: F.batch_norm(x, None, None, training=True),
     "group_norm": lambda: F.group_norm(img, 3), "conv2d": lambda: F.conv2d(img, w), "conv2d_pad": lambda: F.conv2d(img, w, padding=1, stride=2),
     "max_pool2d": lambda: F.max_pool2d(img, 2), "avg_pool2d": lambda: F.avg_pool2d(img, 2), "adaptive_avg_pool2d": lambda: F.adaptive_avg_pool2d(img, 1),
     "embedding": lambda: F.embedding(torch.tensor([1, 2]), m), "mse": lambda: F.mse_loss(x, y), "l1": lambda: F.l1_loss(x, y), "smooth_l1": lambda: F.smooth_l1_loss(x, y),
     "cross_entropy": lambda: F.cross_entropy(x, tgt), "nll": lambda: F.nll_loss(x.log_softmax(1), tgt), "bce": lambda: F.binary_cross_entropy(x.sigmoid(), y),
     "bce_logits": lambda: F.binary_cross_entropy_with_logits(x, y), "kl_div": lambda: F.kl_div(x.log_softmax(1), y.softmax(1), reduction="batchmean"),
     "huber": lambda: F.huber_loss(x, y), "pad": lambda: F.pad(x, (1, 1)), "interpolate": lambda: F.interpolate(img, scale_factor=2),
     "normalize": lambda: F.normalize(x), "cosine_similarity": lambda: F.cosine_similarity(x, y), "sdpa": lambda: F.scaled_dot_product_attention(b3, b3, b3),
     "unfold": lambda: F.unfold(img, 2), "one_hot_mul": lambda: F.one_hot(tgt, 4) * x, "trace": lambda: m[:4, :4].trace(), "det": lambda: torch.linalg.det(m[:4, :4]),
     "inverse": lambda: torch.linalg.inv(m[:4, :4] + torch.eye(4)), "cholesky": lambda: torch.linalg.cholesky(m[:4, :4] @ m[:4, :4].t() + torch.eye(4)),
     "erfc": lambda: x.erfc(), "hypot": lambda: torch.hypot(x, y), "logaddexp": lambda: torch.logaddexp(x, y), "nansum": lambda: x.nansum(1), "var_mean": lambda: torch.var_mean(x, 1)[0],
     "index_copy": lambda: x.index_copy(0, idx, y[:2]), "index_fill": lambda: x.index_fill(1, idx, 2.0), "masked_scatter": lambda: x.masked_scatter(x > 0.5, y),
     "take": lambda: x.take(idx), "put": lambda: x.put(idx, y[0, :2]), "select_scatter": lambda: torch.select_scatter(x, y[0], 0, 0),
     # layers' nodes with their numbers and saved statistics
     "batch_norm_eval": lambda: F.batch_norm(img, torch.zeros(3), torch.ones(3), v[:3], v[:3], training=False),
     "batch_norm_running": lambda: F.batch_norm(img, torch.zeros(3), torch.ones(3), v[:3], None, training=True, eps=1e-3),
     "group_norm_affine": lambda: F.group_norm(img, 3, v[:3], v[:3], eps=1e-4),
     "layer_norm_2d": lambda: F.layer_norm(img, (6, 6)),
     "max_pool2d_stride": lambda: F.max_pool2d(img, 3, stride=2, padding=1, ceil_mode=True),
     "max_pool2d_module": lambda: torch.nn.MaxPool2d(2)(img), "max_pool1d": lambda: F.max_pool1d(b3, 2),
     "avg_pool2d_opts": lambda: F.avg_pool2d(img, 3, 2, 1, count_include_pad=False, divisor_override=2),
     "adaptive_max_pool2d": lambda: F.adaptive_max_pool2d(img, 2), "adaptive_avg_pool2d_3": lambda: F.adaptive_avg_pool2d(img, 3),
     "interp_bilinear": lambda: F.interpolate(img, size=(7, 5), mode="bilinear"),
     "interp_bilinear_ac": lambda: F.interpolate(img, scale_factor=1.5, mode="bilinear", align_corners=True),
     "interp_linear": lambda: F.interpolate(b3, size=7, mode="linear"), "interp_nearest_size": lambda: F.interpolate(img, size=4),
     "embedding_pad": lambda: F.embedding(torch.tensor([[1, 2], [0, 1]]), m, padding_idx=-3),
     "prelu": lambda: F.prelu(img, v[:3]), "prelu_1": lambda: F.prelu(x, v[:1]),
     "pad_reflect": lambda: F.pad(b3, (1, 2), mode="reflect"), "pad_replicate2d": lambda: F.pad(img, (1, 0, 2, 1), mode="replicate"),
     "pad_2d": lambda: F.pad(img, (1, 0, 2, 1), value=0.5),
     "fold": lambda: F.fold(y[:, :1].expand(3, 4).reshape(1, 4, 3).contiguous(), (2, 4), (2, 2)),
     "unfold_opts": lambda: F.unfold(img, (2, 3), dilation=(1, 2), padding=1, stride=(2, 1)),
     "bce_logits_w": lambda: F.binary_cross_entropy_with_logits(x, y, weight=v.detach(), pos_weight=v.detach() + 1, reduction="sum"),
     "pixel_shuffle": lambda: F.pixel_shuffle(torch.rand(1, 8, 2, 3, requires_grad=True), 2),
     "pixel_unshuffle": lambda: F.pixel_unshuffle(img, 2),
     "roll_dims": lambda: x.roll((1, -1), (0, 1)), "roll_flat": lambda: x.roll(2), "diag": lambda: torch.diag(v, 1),
     "diag_embed": lambda: torch.diag_embed(x, -1, 0, 2), "gather_neg": lambda: x.gather(-1, torch.tensor([[0], [1], [2]])),
     # linear algebra (the decompositions' vectors compared up to sign: see SIGN_FREE)
     "cdist": lambda: torch.cdist(x, y), "cdist_p1": lambda: torch.cdist(x, y, p=1),
     "qr": lambda: torch.linalg.qr(m)[0], "qr_complete": lambda: torch.linalg.qr(m, mode="complete")[1],
     "svd": lambda: torch.linalg.svd(m[:, :4] + torch.eye(4))[1], "svd_reduced": lambda: torch.linalg.svd(m, full_matrices=False)[0],
     "svdvals": lambda: torch.linalg.svdvals(m),
     "eigh": lambda: torch.linalg.eigh(m[:, :4] + m[:, :4].t())[0], "eigvalsh": lambda: torch.linalg.eigvalsh(m[:, :4] + m[:, :4].t()),
     "solve": lambda: torch.linalg.solve(m[:, :4] + torch.eye(4), x.t()), "solve_right": lambda: torch.linalg.solve(m[:, :4] + torch.eye(4), x, left=False),
     "slogdet": lambda: torch.linalg.slogdet(m[:, :4] + torch.eye(4))[1], "cholesky_upper": lambda: torch.linalg.cholesky(m[:, :4] @ m[:, :4].t() + torch.eye(4), upper=True),
     "matrix_exp": lambda: torch.linalg.matrix_exp(m[:, :4] * 0.3), "pdist": lambda: F.pdist(x),
     "clamp_inplace": lambda: (x * 1).clamp_(0.2, 0.8),
     # 4-D attention takes PyTorch's CPU flash kernel (one node saving its logsumexp)
     "sdpa_4d": lambda: F.scaled_dot_product_attention(q4, k4, v4),
     "sdpa_4d_causal": lambda: F.scaled_dot_product_attention(q4, k4, v4, is_causal=True),
     "sdpa_4d_bool_mask": lambda: F.scaled_dot_product_attention(q4, k4, v4, attn_mask=mask4),
     "sdpa_4d_scale": lambda: F.scaled_dot_product_attention(q4, k4, v4, scale=0.3),
     "sdpa_gqa": lambda: F.scaled_dot_product_attention(q4, k4[:, :1], v4[:, :1], enable_gqa=True),
     "sdpa_math": lambda: F.scaled_dot_product_attention(q4, k4, v4[..., :3]),
     "median_dim": lambda: x.median(1)[0], "nanmedian_dim": lambda: x.nanmedian(0, keepdim=True)[0],
     "kthvalue_neg": lambda: x.kthvalue(2, -1)[0],
    }
    res = {}
    for k, f in ops.items():
        try:
            fn = f().grad_fn
            names = sorted(a for a in dir(fn) if a.startswith("_saved_"))
            saved = {}
            for a in names:
                try:
                    got = getattr(fn, a)
                    if k in SIGN_FREE and hasattr(got, "abs"):
                        got = got.abs()
                    saved[a] = _value(got)
                except Exception as e:  # noqa: BLE001 - PyTorch's error is the result
                    saved[a] = {"error": type(e).__name__}
            res[k] = {"fn": type(fn).__name__, "saved": saved}
        except Exception as e:  # noqa: BLE001
            res[k] = {"error": f"{type(e).__name__}: {e}"}
    return res
