"""Layers and helpers real programs use: nn.utils.rnn (pad_sequence, pack_padded_sequence,
pad_packed_sequence, pack_sequence, unpack/unpad) and RNN/LSTM/GRU over PackedSequence, the
padding layers, PixelShuffle/Unshuffle, Upsample, InstanceNorm, RMSNorm, CosineSimilarity,
PairwiseDistance, Softmax2d. Parameters are set from ``linspace`` so both libraries start
from the same values. Run with ``torch`` bound to PyTorch (tools/record_nn_extra_goldens.py
records fixtures/nn_extra.json) or to ferrograd (test_nn_extra.py compares)."""


def _v(t):
    return [v if v == v else "nan" for v in t.detach().double().flatten().tolist()]


def _caught(f):
    try:
        return f()
    except Exception as e:  # noqa: BLE001 - PyTorch's error is the result
        return {"error": [type(e).__name__, str(e)]}


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


def _grads(torch, module, inputs, out):
    # a weighted sum (plus a square): no cancellation, so both libraries' rounding agrees
    loss = sum((o * torch.linspace(-1.0, 1.0, o.numel()).reshape(o.shape) + 0.1 * o * o).sum() for o in out)
    params = [p for p in module.parameters()] + [i for i in inputs if i.requires_grad]
    gs = torch.autograd.grad(loss, params)
    return [_v(g) for g in gs]


def run(torch):
    nn = torch.nn
    F = torch.nn.functional
    rnn = torch.nn.utils.rnn
    out = {}
    seqs = [torch.linspace(-1, 1, 4 * 3).reshape(4, 3), torch.linspace(0, 2, 2 * 3).reshape(2, 3),
            torch.linspace(1, -1, 3 * 3).reshape(3, 3)]
    out["pad_sequence"] = _caught(lambda: _res(rnn.pad_sequence(seqs)))
    out["pad_sequence_bf"] = _caught(lambda: _res(rnn.pad_sequence(seqs, batch_first=True, padding_value=-1.0)))
    out["pad_sequence_left"] = _caught(lambda: _res(rnn.pad_sequence(seqs, batch_first=True, padding_side="left")))
    padded = rnn.pad_sequence(seqs, batch_first=True)
    lengths = [4, 2, 3]

    def packed_parts(p):
        return [_v(p.data), p.batch_sizes.tolist(), None if p.sorted_indices is None else p.sorted_indices.tolist(),
                None if p.unsorted_indices is None else p.unsorted_indices.tolist()]
    out["pack_unsorted"] = _caught(lambda: packed_parts(rnn.pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)))
    out["pack_sorted_err"] = _caught(lambda: packed_parts(rnn.pack_padded_sequence(padded, lengths, batch_first=True)))
    out["pack_zero_len"] = _caught(lambda: packed_parts(rnn.pack_padded_sequence(padded, [4, 0, 3], batch_first=True, enforce_sorted=False)))
    out["pack_sequence"] = _caught(lambda: packed_parts(rnn.pack_sequence(seqs, enforce_sorted=False)))
    out["pack_sequence_sorted"] = _caught(lambda: packed_parts(rnn.pack_sequence([seqs[0], seqs[2], seqs[1]])))
    packed = rnn.pack_padded_sequence(padded, torch.tensor(lengths), batch_first=True, enforce_sorted=False)
    out["pad_packed"] = _caught(lambda: _res(rnn.pad_packed_sequence(packed, batch_first=True)))
    out["pad_packed_total"] = _caught(lambda: _res(rnn.pad_packed_sequence(packed, total_length=6, padding_value=9.0)))
    out["pad_packed_short"] = _caught(lambda: _res(rnn.pad_packed_sequence(packed, total_length=2)))
    out["unpack"] = _caught(lambda: _res(rnn.unpack_sequence(packed)))
    out["unpad"] = _caught(lambda: _res(rnn.unpad_sequence(padded, torch.tensor(lengths), batch_first=True)))
    out["invert_permutation"] = _caught(lambda: rnn.invert_permutation(torch.tensor([2, 0, 1])).tolist())
    for kind in ("RNN", "LSTM", "GRU"):
        for bidir in (False, True):
            def run_rnn(kind=kind, bidir=bidir):
                m = _fill(torch, getattr(nn, kind)(3, 4, num_layers=2, batch_first=True, bidirectional=bidir))
                x = padded.clone().requires_grad_()
                p = rnn.pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
                o, h = m(p)
                hs = list(h) if isinstance(h, tuple) else [h]
                unp, ln = rnn.pad_packed_sequence(o, batch_first=True)
                return {"out": _v(unp), "lengths": ln.tolist(), "h": [_v(t) for t in hs], "batch_sizes": o.batch_sizes.tolist(),
                        "grads": _grads(torch, m, [x], [o.data] + hs)}
            out[f"packed_{kind}_{bidir}"] = _caught(run_rnn)
    # layers
    img = torch.linspace(-1, 1, 2 * 4 * 3 * 4).reshape(2, 4, 3, 4)
    layers = {
        "ReflectionPad2d": lambda: nn.ReflectionPad2d(1), "ReflectionPad2d_t": lambda: nn.ReflectionPad2d((1, 0, 2, 1)),
        "ReplicationPad2d": lambda: nn.ReplicationPad2d((2, 1, 0, 1)), "ZeroPad2d": lambda: nn.ZeroPad2d(1),
        "ConstantPad2d": lambda: nn.ConstantPad2d((1, 2), 3.5), "ConstantPad1d": lambda: nn.ConstantPad1d(2, -1.0),
        "ReflectionPad1d": lambda: nn.ReflectionPad1d(2), "ReplicationPad1d": lambda: nn.ReplicationPad1d((0, 2)),
        "CircularPad2d": lambda: nn.CircularPad2d(1), "ZeroPad1d": lambda: nn.ZeroPad1d((1, 0)),
        "PixelShuffle": lambda: nn.PixelShuffle(2), "PixelUnshuffle": lambda: nn.PixelUnshuffle(1),
        "Upsample": lambda: nn.Upsample(scale_factor=2), "Upsample_bilinear": lambda: nn.Upsample(size=(5, 7), mode="bilinear", align_corners=False),
        "UpsamplingNearest2d": lambda: nn.UpsamplingNearest2d(scale_factor=2), "UpsamplingBilinear2d": lambda: nn.UpsamplingBilinear2d(scale_factor=2),
        "InstanceNorm2d": lambda: nn.InstanceNorm2d(4), "InstanceNorm2d_affine": lambda: nn.InstanceNorm2d(4, affine=True),
        "InstanceNorm2d_track": lambda: nn.InstanceNorm2d(4, track_running_stats=True),
        "RMSNorm": lambda: nn.RMSNorm(4), "RMSNorm_2d": lambda: nn.RMSNorm([3, 4], eps=1e-3),
        "Softmax2d": lambda: nn.Softmax2d(),
    }
    for name, mk in layers.items():
        def run_layer(mk=mk):
            m = _fill(torch, mk())
            x = img.clone().requires_grad_()
            y = m(x)
            r = {"repr": repr(m), "y": _res(y), "grads": _grads(torch, m, [x], [y])}
            if name.endswith("track"):
                r["running"] = [_v(m.running_mean), _v(m.running_var)]
                m.eval()
                r["eval"] = _v(m(img))
            return r
        out[name] = _caught(run_layer)
    x1 = torch.linspace(-1, 1, 12).reshape(3, 4)
    x2 = torch.linspace(2, -1, 12).reshape(3, 4)
    out["cosine"] = _caught(lambda: _res(nn.CosineSimilarity()(x1, x2)))
    out["cosine_dim0"] = _caught(lambda: _res(F.cosine_similarity(x1, x2, dim=0)))
    out["cosine_bcast"] = _caught(lambda: _res(F.cosine_similarity(x1, x2[:1], dim=-1)))
    out["cosine_zero"] = _caught(lambda: _res(F.cosine_similarity(torch.zeros(2, 3), x1[:2, :3])))
    out["pairwise"] = _caught(lambda: _res(nn.PairwiseDistance(p=1.0, keepdim=True)(x1, x2)))
    out["pixel_shuffle_err"] = _caught(lambda: F.pixel_shuffle(img, 3))
    out["pixel_shuffle_dims"] = _caught(lambda: F.pixel_shuffle(torch.ones(4, 4), 2))
    out["pixel_unshuffle_err"] = _caught(lambda: F.pixel_unshuffle(img, 2))
    out["instance_norm_1d"] = _caught(lambda: _res(nn.InstanceNorm1d(3)(torch.linspace(-1, 1, 2 * 3 * 5).reshape(2, 3, 5))))
    out["instance_norm_unbatched"] = _caught(lambda: _res(nn.InstanceNorm1d(3)(torch.linspace(-1, 1, 3 * 5).reshape(3, 5))))
    out["instance_norm_dim"] = _caught(lambda: nn.InstanceNorm2d(4)(torch.ones(4, 4)))
    out["instance_norm_affine_mismatch"] = _caught(lambda: nn.InstanceNorm1d(5, affine=True)(torch.ones(2, 3, 4)))
    out["rms_norm_fn"] = _caught(lambda: _res(F.rms_norm(x1, (4,))))
    out["rms_norm_bad"] = _caught(lambda: F.rms_norm(x1, (3,)))
    out["softmax2d_bad"] = _caught(lambda: nn.Softmax2d()(torch.ones(2, 3)))
    return out
