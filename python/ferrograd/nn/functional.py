"""Functional forms of the nn ops."""


def relu(x, inplace=False):
    return x.relu_() if inplace else x.relu()


def sigmoid(x):
    return x.sigmoid()


def tanh(x):
    return x.tanh()


def _get_softmax_dim(name, ndim, stacklevel):
    # torch's legacy implicit dim (deprecated, with its warning): 0 for 0-, 1- and 3-d inputs
    from .. import _warn as warnings

    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. "
                  "Change the call to include dim=X as an argument.", stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("softmax", input.dim(), _stacklevel)
    return input.softmax(dim) if dtype is None else input.softmax(dim, dtype=dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("log_softmax", input.dim(), _stacklevel)
    return input.log_softmax(dim) if dtype is None else input.log_softmax(dim, dtype=dtype)


# ---------------------------------------------------------------------------------------------
# Attention (scaled_dot_product_attention, multi_head_attention_forward) and the private
# compositions the recurrent/attention layers use.
# ---------------------------------------------------------------------------------------------

def _none_or_dtype(input):
    from .. import Tensor

    if input is None:
        return None
    if isinstance(input, Tensor):
        return input.dtype
    raise RuntimeError("input to _none_or_dtype() must be None or torch.Tensor")


def _canonical_mask(mask, mask_name, other_type, other_name, target_type, check_other=True):
    """A bool mask becomes a float mask (-inf where True) of ``target_type``; a float mask is
    returned as is; any other dtype is an error. Mismatched mask dtypes warn (deprecated)."""
    from .. import _warn as warnings

    from .. import bool as _bool, zeros_like

    if mask is None:
        return None
    mask_is_float = mask.is_floating_point()
    if mask.dtype != _bool and not mask_is_float:
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype != other_type:
        warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. "
                      "Use same type for both instead.", stacklevel=2)
    if not mask_is_float:
        mask = zeros_like(mask, dtype=target_type).masked_fill_(mask, float("-inf"))
    return mask


def _pad_last(t, value=0.0):
    """``F.pad(t, (0, 1), value=value)``: one more column on the last dim."""
    from .. import cat, full

    col = full(tuple(t.shape[:-1]) + (1,), value, dtype=t.dtype, device=t.device)
    return cat([t, col], -1)


def _safe_softmax(x, dim):
    """softmax that gives 0 (not NaN) on rows that are entirely -inf (torch's _safe_softmax)."""
    from .. import where, zeros_like

    masked_rows = x.eq(float("-inf")).all(dim, keepdim=True)
    # fully masked rows are replaced before the softmax, so that neither the value nor the
    # gradient of those rows is NaN (both are 0, as torch's)
    x = where(masked_rows, zeros_like(x), x)
    out = x.softmax(dim)
    return where(masked_rows, zeros_like(out), out)


def _dtype_name(dt):
    return {"float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
            "int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
            "uint8": "unsigned char", "bool": "bool"}.get(str(dt).split(".")[-1], str(dt))


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False,
                                 scale=None, enable_gqa=False):
    """``softmax(q kᵀ · scale + mask) v`` over the last two dims (torch's math backend: q and k
    are each scaled by ``sqrt(scale)``, a bool mask keeps the True positions, a float mask is
    added, rows with every position masked give zeros, dropout on the attention weights)."""
    import math

    from .. import bool as _bool, float32 as _float32

    if query.dim() < 2 or key.dim() < 2 or value.dim() < 2:
        raise RuntimeError("Expected query, key, and value to all be  at least 2 dimensional, but got "
                           f"query.dim: {query.dim()} key.dim: {key.dim()} and value.dim: {value.dim()} instead.")
    if not (query.dtype == key.dtype == value.dtype):
        raise RuntimeError("Expected query, key, and value to have the same dtype, but got query.dtype: "
                           f"{_dtype_name(query.dtype)} key.dtype: {_dtype_name(key.dtype)} and value.dtype: "
                           f"{_dtype_name(value.dtype)} instead.")
    if attn_mask is not None and attn_mask.dtype not in (_bool, _float32, query.dtype):
        raise RuntimeError("Expected attn_mask dtype to be bool or float or to match query dtype, but got "
                           f"attn_mask.dtype: {_dtype_name(attn_mask.dtype)} and  query.dtype: "
                           f"{_dtype_name(query.dtype)} instead.")
    if not 0.0 <= dropout_p <= 1.0:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {dropout_p}")
    flash = _flash_attention_applies(query, key, value, attn_mask, dropout_p, enable_gqa)
    if is_causal and attn_mask is not None and not flash:
        # (the math backend's check; the CPU flash kernel applies both masks)
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")
    if flash:
        # PyTorch's CPU flash kernel (one ScaledDotProductFlashAttentionForCpuBackward0 node)
        if attn_mask is not None and attn_mask.dtype == _bool:
            from .. import zeros

            attn_mask = zeros(tuple(attn_mask.shape), dtype=query.dtype, device=query.device) \
                .masked_fill_(attn_mask.logical_not(), float("-inf"))
        return _C._nn_sdpa_flash(query, key, value, attn_mask, bool(is_causal), None if scale is None else float(scale))
    L, S = query.size(-2), key.size(-2)
    if scale is None:
        scale = 1.0 / math.sqrt(query.size(-1))
    negative = scale < 0.0
    factor = math.sqrt(abs(scale))
    q = query * (-factor if negative else factor)
    if is_causal:
        rows = _arange_like(L, query).unsqueeze(1)
        cols = _arange_like(S, query).unsqueeze(0)
        attn_mask = cols.le(rows)
    if attn_mask is not None and attn_mask.dtype == _bool:
        from .. import zeros

        attn_mask = zeros(tuple(attn_mask.shape), dtype=query.dtype, device=query.device) \
            .masked_fill_(attn_mask.logical_not(), float("-inf"))
    if enable_gqa:
        hq, hk, hv = query.size(-3), key.size(-3), value.size(-3)
        if hq % hk != 0 or hq % hv != 0:
            raise RuntimeError("Number of heads in key and value must divide the number of heads in query")
        if hq != hk:
            key = _repeat_heads(key, hq // hk)
        if hq != hv:
            value = _repeat_heads(value, hq // hv)
    attn = q.matmul(key.transpose(-2, -1) * factor)
    if attn_mask is not None:
        attn = attn + attn_mask
    attn = _safe_softmax(attn, -1)
    if dropout_p > 0.0:
        attn = dropout(attn, dropout_p, True)
    return attn.matmul(value)


def _flash_attention_applies(q, k, v, mask, dropout_p, gqa):
    """Where PyTorch's CPU dispatch picks the flash kernel: 4-D float32/float64 inputs of one
    batch size, one head dim, key and value of one length and head count (dividing the
    query's with ``enable_gqa``), no dropout, a mask that does not require grad."""
    from .. import float32, float64
    from .attention import _flash_first

    if q.dim() != 4 or k.dim() != 4 or v.dim() != 4 or dropout_p > 0.0 or q.dtype not in (float32, float64):
        return False
    if not _flash_first():
        return False
    # in the order of PyTorch's checks: batch sizes and heads, the mask, then head dims, key
    # and value lengths and strides (so a 1-d mask raises before those are looked at)
    if q.device.type != "cpu" or not (q.size(0) == k.size(0) == v.size(0)) or k.size(-3) != v.size(-3):
        return False
    if 0 in (q.numel(), k.numel(), v.numel()):
        return False
    hq, hk = q.size(-3), k.size(-3)
    if hq != hk and not (gqa and hq % hk == 0):
        return False
    if mask is not None:
        # PyTorch's check_attn_mask_shape: (L or 1, S or 1) last, 2-D or 4-D with (1 or B,
        # 1 or H) in front (it reads size(-2) first: a 0-d or 1-d mask is an IndexError)
        if mask.requires_grad:
            return False
        if mask.dim() < 2:
            raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got -2)")
        if mask.size(-2) not in (1, q.size(-2)) or mask.size(-1) not in (1, k.size(-2)):
            return False
        if mask.dim() != 2 and not (mask.dim() == 4 and mask.size(0) in (1, q.size(0)) and mask.size(1) in (1, hq)):
            return False
    if not (q.size(-1) == k.size(-1) == v.size(-1)) or k.size(-2) != v.size(-2):
        return False
    # the fused kernel wants unit strides along the head dim (else the math path runs)
    return all(t.stride(-1) == 1 or t.size(-1) == 1 for t in (q, k, v))


def _repeat_heads(t, n):
    """``t.repeat_interleave(n, dim=-3)``."""
    shape = tuple(t.shape)
    expanded = t.unsqueeze(-3).expand(*shape[:-3], shape[-3], n, shape[-2], shape[-1])
    return expanded.reshape(*shape[:-3], shape[-3] * n, shape[-2], shape[-1])


def _arange_like(n, ref):
    from .. import arange

    return arange(n, device=ref.device)


def _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads):
    if query.dim() == 3:
        is_batched = True
        if key.dim() != 3 or value.dim() != 3:
            raise AssertionError("For batched (3-D) `query`, expected `key` and `value` to be 3-D but found "
                                 f"{key.dim()}-D and {value.dim()}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 2:
            raise AssertionError("For batched (3-D) `query`, expected `key_padding_mask` to be `None` or 2-D "
                                 f"but found {key_padding_mask.dim()}-D tensor instead")
        if attn_mask is not None and attn_mask.dim() not in (2, 3):
            raise AssertionError("For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D "
                                 f"but found {attn_mask.dim()}-D tensor instead")
    elif query.dim() == 2:
        is_batched = False
        if key.dim() != 2 or value.dim() != 2:
            raise AssertionError("For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but found "
                                 f"{key.dim()}-D and {value.dim()}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 1:
            raise AssertionError("For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` or 1-D "
                                 f"but found {key_padding_mask.dim()}-D tensor instead")
        if attn_mask is not None:
            if attn_mask.dim() not in (2, 3):
                raise AssertionError("For unbatched (2-D) `query`, expected `attn_mask` to be `None`, 2-D or "
                                     f"3-D but found {attn_mask.dim()}-D tensor instead")
            if attn_mask.dim() == 3:
                expected_shape = (num_heads, query.shape[0], key.shape[0])
                if attn_mask.shape != expected_shape:
                    raise AssertionError(f"Expected `attn_mask` shape to be {expected_shape} but got {attn_mask.shape}")
    else:
        raise AssertionError("query should be unbatched 2D or batched 3D tensor but received "
                             f"{query.dim()}-D query tensor")
    return is_batched


def _in_projection_packed(q, k, v, w, b=None):
    E = q.size(-1)
    if k is v:
        if q is k:
            # one projection, then split into q, k, v
            proj = linear(q, w, b)
            return proj.narrow(-1, 0, E), proj.narrow(-1, E, E), proj.narrow(-1, 2 * E, E)
        w_q, w_kv = w.narrow(0, 0, E), w.narrow(0, E, 2 * E)
        b_q, b_kv = (None, None) if b is None else (b.narrow(0, 0, E), b.narrow(0, E, 2 * E))
        q_proj = linear(q, w_q, b_q)
        kv_proj = linear(k, w_kv, b_kv)
        return q_proj, kv_proj.narrow(-1, 0, E), kv_proj.narrow(-1, E, E)
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _in_projection(q, k, v, w_q, w_k, w_v, b_q=None, b_k=None, b_v=None):
    Eq, Ek, Ev = q.size(-1), k.size(-1), v.size(-1)
    if w_q.shape != (Eq, Eq):
        raise AssertionError(f"expecting query weights shape of {(Eq, Eq)}, but got {w_q.shape}")
    if w_k.shape != (Eq, Ek):
        raise AssertionError(f"expecting key weights shape of {(Eq, Ek)}, but got {w_k.shape}")
    if w_v.shape != (Eq, Ev):
        raise AssertionError(f"expecting value weights shape of {(Eq, Ev)}, but got {w_v.shape}")
    if b_q is not None and b_q.shape != (Eq,):
        raise AssertionError(f"expecting query bias shape of {(Eq,)}, but got {b_q.shape}")
    if b_k is not None and b_k.shape != (Eq,):
        raise AssertionError(f"expecting key bias shape of {(Eq,)}, but got {b_k.shape}")
    if b_v is not None and b_v.shape != (Eq,):
        raise AssertionError(f"expecting value bias shape of {(Eq,)}, but got {b_v.shape}")
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _check_key_padding_mask(key_padding_mask, src_len, bsz):
    if key_padding_mask.shape[0] != bsz:
        raise AssertionError(f"Expected key_padded_mask.shape[0] to be {bsz}, but got {key_padding_mask.shape[0]}")
    if key_padding_mask.shape[1] != src_len:
        raise AssertionError(f"Expected key_padded_mask.shape[1] to be {src_len}, but got {key_padding_mask.shape[1]}")


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
                                 bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
                                 training=True, key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None,
                                 v_proj_weight=None, static_k=None, static_v=None, average_attn_weights=True,
                                 is_causal=False):
    """torch's multi-head attention over (L, N, E) inputs (or unbatched (L, E)); returns
    ``(attn_output, attn_weights or None)``."""
    import math

    from .. import cat, zeros

    is_batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not is_batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask", _none_or_dtype(attn_mask),
                                       "attn_mask", query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
                           "method `generate_square_subsequent_mask` to create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        # the mask is only a hint here: scaled_dot_product_attention builds the causal mask itself
        attn_mask = None
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        if key_padding_mask is not None:
            is_causal = False
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match value's {value.shape[:2]}")
    elif key.shape != value.shape:
        raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")

    if not use_separate_proj_weight:
        if in_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    else:
        if q_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is True but q_proj_weight is None")
        if k_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is True but k_proj_weight is None")
        if v_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is True but v_proj_weight is None")
        b_q, b_k, b_v = (None, None, None) if in_proj_bias is None else in_proj_bias.chunk(3)
        q, k, v = _in_projection(query, key, value, q_proj_weight, k_proj_weight, v_proj_weight, b_q, b_k, b_v)

    if attn_mask is not None:
        if attn_mask.dim() == 2:
            correct_2d_size = (tgt_len, src_len)
            if attn_mask.shape != correct_2d_size:
                raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be {correct_2d_size}.")
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() == 3:
            correct_3d_size = (bsz * num_heads, tgt_len, src_len)
            if attn_mask.shape != correct_3d_size:
                raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be {correct_3d_size}.")
        else:
            raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")

    if bias_k is not None and bias_v is not None:
        if static_k is not None:
            raise AssertionError("bias cannot be added to static key.")
        if static_v is not None:
            raise AssertionError("bias cannot be added to static value.")
        k = cat([k, bias_k.repeat(1, bsz, 1)])
        v = cat([v, bias_v.repeat(1, bsz, 1)])
        if attn_mask is not None:
            attn_mask = _pad_last(attn_mask)
        if key_padding_mask is not None:
            key_padding_mask = _pad_last(key_padding_mask)
    else:
        if bias_k is not None:
            raise AssertionError("bias_k is set but bias_v is None")
        if bias_v is not None:
            raise AssertionError("bias_v is set but bias_k is None")

    q = q.reshape(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    if static_k is None:
        k = k.reshape(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    else:
        if static_k.size(0) != bsz * num_heads:
            raise AssertionError(f"expecting static_k.size(0) of {bsz * num_heads}, but got {static_k.size(0)}")
        if static_k.size(2) != head_dim:
            raise AssertionError(f"expecting static_k.size(2) of {head_dim}, but got {static_k.size(2)}")
        k = static_k
    if static_v is None:
        v = v.reshape(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    else:
        if static_v.size(0) != bsz * num_heads:
            raise AssertionError(f"expecting static_v.size(0) of {bsz * num_heads}, but got {static_v.size(0)}")
        if static_v.size(2) != head_dim:
            raise AssertionError(f"expecting static_v.size(2) of {head_dim}, but got {static_v.size(2)}")
        v = static_v

    if add_zero_attn:
        zero_attn_shape = (bsz * num_heads, 1, head_dim)
        k = cat([k, zeros(zero_attn_shape, dtype=k.dtype, device=k.device)], dim=1)
        v = cat([v, zeros(zero_attn_shape, dtype=v.dtype, device=v.device)], dim=1)
        if attn_mask is not None:
            attn_mask = _pad_last(attn_mask)
        if key_padding_mask is not None:
            key_padding_mask = _pad_last(key_padding_mask)

    src_len = k.size(1)
    if key_padding_mask is not None:
        _check_key_padding_mask(key_padding_mask, src_len, bsz)
        key_padding_mask = key_padding_mask.reshape(bsz, 1, 1, src_len).expand(-1, num_heads, -1, -1) \
            .reshape(bsz * num_heads, 1, src_len)
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask

    if not training:
        dropout_p = 0.0

    if need_weights:
        E = q.shape[-1]
        q_scaled = q * math.sqrt(1.0 / float(E))
        if is_causal and attn_mask is None:
            raise AssertionError("FIXME: is_causal not implemented for need_weights")
        weights = q_scaled.bmm(k.transpose(-2, -1))
        if attn_mask is not None:
            weights = attn_mask + weights  # torch.baddbmm(attn_mask, q_scaled, kᵀ)
        weights = weights.softmax(-1)
        if dropout_p > 0.0:
            weights = dropout(weights, dropout_p, True)
        attn_output = weights.bmm(v)
        attn_output = attn_output.transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        attn_output = linear(attn_output, out_proj_weight, out_proj_bias)
        attn_output = attn_output.reshape(tgt_len, bsz, attn_output.size(1))
        weights = weights.reshape(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not is_batched:
            attn_output = attn_output.squeeze(1)
            weights = weights.squeeze(0)
        return attn_output, weights

    if attn_mask is not None:
        if attn_mask.size(0) == 1 and attn_mask.dim() == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.reshape(bsz, num_heads, -1, src_len)
    q = q.reshape(bsz, num_heads, tgt_len, head_dim)
    k = k.reshape(bsz, num_heads, src_len, head_dim)
    v = v.reshape(bsz, num_heads, src_len, head_dim)
    attn_output = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    attn_output = attn_output.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    attn_output = linear(attn_output, out_proj_weight, out_proj_bias)
    attn_output = attn_output.reshape(tgt_len, bsz, attn_output.size(1))
    if not is_batched:
        attn_output = attn_output.squeeze(1)
    return attn_output, None


# ---------------------------------------------------------------------------------------
# layers and losses: the ops with their own nodes are native (ferrograd._C._nn_*); the
# compositions below follow torch.nn.functional / ATen's own compositions step by step.
# ---------------------------------------------------------------------------------------

import math as _math
from .. import _C
from .. import _warn as _warnings


def _pair(v, n=2, name="value"):
    if isinstance(v, (list, tuple)):
        if len(v) == 1:
            return tuple(int(v[0]) for _ in range(n))
        if len(v) != n:
            raise RuntimeError(f"expected {name} to be a single integer value or a list of {n} values to match the convolution dimensions, but got {name}={list(v)}")
        return tuple(int(x) for x in v)
    return tuple(int(v) for _ in range(n))


def _reduction_enum(reduction):
    # torch.nn._reduction.get_enum
    if reduction == "none":
        return 0
    if reduction == "mean":
        return 1
    if reduction == "elementwise_mean":
        _warnings.warn("reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead.", stacklevel=3)
        return 1
    if reduction == "sum":
        return 2
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _legacy_reduction(size_average, reduce, emit_warning=True):
    if size_average is None:
        size_average = True
    if reduce is None:
        reduce = True
    if size_average and reduce:
        ret = "mean"
    elif reduce:
        ret = "sum"
    else:
        ret = "none"
    if emit_warning:
        _warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{ret}' instead.", stacklevel=3)
    return ret


def _apply_reduction(loss, reduction):
    r = _reduction_enum(reduction)
    if r == 1:
        return loss.mean()
    if r == 2:
        return loss.sum()
    return loss


def _broadcast_pair(a, b):
    """torch.broadcast_tensors for two tensors (the tensors themselves when shapes agree),
    with infer_size's error text."""
    sa, sb = list(a.shape), list(b.shape)
    if sa == sb:
        return a, b
    n = max(len(sa), len(sb))
    out = [0] * n
    for i in range(n - 1, -1, -1):
        off = n - 1 - i
        da = sa[len(sa) - 1 - off] if len(sa) - 1 - off >= 0 else 1
        db = sb[len(sb) - 1 - off] if len(sb) - 1 - off >= 0 else 1
        if da != db and da != 1 and db != 1:
            raise RuntimeError(f"The size of tensor a ({da}) must match the size of tensor b ({db}) at non-singleton dimension {i}")
        out[i] = db if da == 1 else da
    return a.expand(*out), b.expand(*out)


def _size_str(t):
    return f"torch.Size({list(t.shape)})"


# ---- linear ---------------------------------------------------------------------------

def linear(input, weight, bias=None):
    """``input @ weight.T + bias``: AddmmBackward0 for 2-d input with bias, MmBackward0
    without; N-d contiguous input with bias is flattened to 2-d (ViewBackward0), as torch."""
    if input.dim() == 2 and bias is not None:
        return _C._nn_addmm(bias, input, weight.t())
    if bias is not None and input.dim() >= 3 and input.is_contiguous():
        lead = tuple(input.shape[:-1])
        out = _C._nn_addmm(bias, input.reshape(-1, input.shape[-1]), weight.t())
        return out.view(*lead, out.shape[-1])
    if input.dim() == 1 and bias is not None:
        out = _C._nn_addmm(bias, input.view(1, -1), weight.t())
        return out.view(out.shape[-1])
    y = input.matmul(weight.t())
    return y + bias if bias is not None else y


def bilinear(input1, input2, weight, bias=None):
    y = ((input1.unsqueeze(-2).unsqueeze(-2) @ weight.unsqueeze(0)).squeeze(-2) * input2.unsqueeze(-2)).sum(-1)
    return y + bias if bias is not None else y


# ---- convolution ----------------------------------------------------------------------

def _conv(input, weight, bias, stride, padding, dilation, groups, nd, name):
    if input.dim() not in (nd + 1, nd + 2):
        raise RuntimeError(f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to {name}, but got input of size: {list(input.shape)}")
    batched = input.dim() == nd + 2
    x = input if batched else input.unsqueeze(0)
    stride = _pair(stride, nd, "stride")
    dilation = _pair(dilation, nd, "dilation")
    ks = tuple(weight.shape[2:])
    if isinstance(padding, str):
        if padding == "valid":
            pads = [(0, 0)] * nd
        elif padding == "same":
            if any(s != 1 for s in stride):
                raise RuntimeError("padding='same' is not supported for strided convolutions")
            pads = []
            for d, k in zip(dilation, ks):
                total = d * (k - 1)
                lo = total // 2
                pads.append((lo, total - lo))
            if any(lo != hi for lo, hi in pads):
                _warnings.warn("Using padding='same' with even kernel lengths and odd dilation may require a zero-padded copy of the input be created", stacklevel=3)
        else:
            raise RuntimeError(f"Invalid padding string: '{padding}'")
    else:
        pads = [(p, p) for p in _pair(padding, nd, "padding")]
    out = _C._nn_convolution(x, weight, bias, list(stride), pads, list(dilation), int(groups), False, [0] * nd)
    return out if batched else out.squeeze(0)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _conv(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d")


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _conv(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d")


def _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, nd, name):
    if input.dim() not in (nd + 1, nd + 2):
        raise RuntimeError(f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to {name}, but got input of size: {list(input.shape)}")
    if isinstance(padding, str):
        raise RuntimeError(f"{name}(): argument 'padding' (position 5) must be tuple of ints, not str")
    batched = input.dim() == nd + 2
    x = input if batched else input.unsqueeze(0)
    pads = [(p, p) for p in _pair(padding, nd, "padding")]
    out = _C._nn_convolution(x, weight, bias, list(_pair(stride, nd, "stride")), pads, list(_pair(dilation, nd, "dilation")),
                             int(groups), True, list(_pair(output_padding, nd, "output_padding")))
    return out if batched else out.squeeze(0)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 1, "conv_transpose1d")


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 2, "conv_transpose2d")


def _window_check(kernel, dilation, padding, stride):
    """ATen's im2col / col2im argument checks, in its order."""
    if kernel[0] <= 0 or kernel[1] <= 0:
        raise RuntimeError(f"kernel size should be greater than zero, but got kernel_height: {kernel[0]} kernel_width: {kernel[1]}")
    if dilation[0] <= 0 or dilation[1] <= 0:
        raise RuntimeError(f"dilation should be greater than zero, but got dilation_height: {dilation[0]} dilation_width: {dilation[1]}")
    if padding[0] < 0 or padding[1] < 0:
        raise RuntimeError(f"padding should be non-negative, but got pad_height: {padding[0]} pad_width: {padding[1]}")
    if stride[0] <= 0 or stride[1] <= 0:
        raise RuntimeError(f"stride should be greater than zero, but got stride_height: {stride[0]} stride_width: {stride[1]}")


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    if input.dim() not in (3, 4):
        raise NotImplementedError(f"Input Error: Only 3D or 4D input Tensors are supported (got {input.dim()}D)")
    batched = input.dim() == 4
    x = input if batched else input.unsqueeze(0)
    k, d, p, s = _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride)
    _window_check(k, d, p, s)
    h, w = x.shape[-2:]
    blocks = [int((n + 2 * p[i] - (d[i] * (k[i] - 1) + 1)) / s[i]) + 1 for i, n in enumerate((h, w))]
    if blocks[0] < 1 or blocks[1] < 1:
        raise RuntimeError(f"Given input with spatial size ({h}, {w}), kernel_size=({k[0]}, {k[1]}), dilation=({d[0]}, {d[1]}), "
                           f"padding=({p[0]}, {p[1]}), calculated shape of the array of sliding blocks as ({blocks[0]}, "
                           f"{blocks[1]}), but its components must be at least one.")
    out = _C._nn_im2col(x, list(k), list(d), list(p), list(s))
    return out if batched else out.squeeze(0)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    if input.dim() not in (2, 3):
        raise NotImplementedError(f"Input Error: Only unbatched (2D) or batched (3D) input Tensors are supported (got {input.dim()}D)")
    batched = input.dim() == 3
    x = input if batched else input.unsqueeze(0)
    _window_check(_pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride))
    out = _C._nn_col2im(x, list(_pair(output_size)), list(_pair(kernel_size)), list(_pair(dilation)), list(_pair(padding)), list(_pair(stride)))
    return out if batched else out.squeeze(0)


# ---- pooling --------------------------------------------------------------------------

def _pool_args(kernel_size, stride, padding, dilation, n):
    k = _pair(kernel_size, n, "kernel_size")
    s = k if stride is None or (isinstance(stride, (list, tuple)) and len(stride) == 0) else _pair(stride, n, "stride")
    return k, s, _pair(padding, n, "padding"), _pair(dilation, n, "dilation")


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=True):
    k, s, p, d = _pool_args(kernel_size, stride, padding, dilation, 2)
    given = not (stride is None or (isinstance(stride, (list, tuple)) and len(stride) == 0))
    return _C._nn_max_pool2d(input, list(k), list(s) if given else [], list(p), list(d), bool(ceil_mode))


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    out, idx = max_pool2d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return (out, idx) if return_indices else out


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    if input.dim() not in (2, 3):
        raise RuntimeError(f"max_pool1d() Expected 2D or 3D input tensor, but got {list(input.shape)}")
    k, s, p, d = _pool_args(kernel_size, stride, padding, dilation, 1)
    out, idx = _C._nn_max_pool2d(input.unsqueeze(-2), [1, k[0]], [1, s[0]], [0, p[0]], [1, d[0]], bool(ceil_mode))
    out, idx = out.squeeze(-2), idx.squeeze(-2)
    return (out, idx) if return_indices else out


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None):
    k, s, p, _ = _pool_args(kernel_size, stride, padding, 1, 2)
    given = not (stride is None or (isinstance(stride, (list, tuple)) and len(stride) == 0))
    return _C._nn_avg_pool2d(input, list(k), list(s) if given else [], list(p), bool(ceil_mode), bool(count_include_pad), divisor_override)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    if input.dim() not in (2, 3):
        raise RuntimeError(f"avg_pool1d() Expected 2D or 3D input tensor, but got {list(input.shape)}")
    k, s, p, _ = _pool_args(kernel_size, stride, padding, 1, 1)
    out = _C._nn_avg_pool2d(input.unsqueeze(-2), [1, k[0]], [1, s[0]], [0, p[0]], bool(ceil_mode), bool(count_include_pad), None)
    return out.squeeze(-2)


def _adaptive_size(output_size, input, n):
    sizes = list(output_size) if isinstance(output_size, (list, tuple)) else [output_size] * n
    if len(sizes) != n:
        raise RuntimeError(f"adaptive_avg_pool{n}d: output_size must be {n}")
    return [input.shape[input.dim() - n + i] if v is None else int(v) for i, v in enumerate(sizes)]


def adaptive_avg_pool2d(input, output_size):
    size = _adaptive_size(output_size, input, 2)
    if size == [1, 1] and input.dim() in (3, 4) and input.numel() > 0:
        # ATen computes the 1x1 case as a mean over the last two dims (MeanBackward1)
        return input.mean((-1, -2), keepdim=True)
    return _C._nn_adaptive_avg_pool2d(input, size)


def adaptive_avg_pool1d(input, output_size):
    if input.dim() not in (2, 3):
        raise RuntimeError(f"adaptive_avg_pool1d() argument 'input' must have 2 or 3 dims, got {input.dim()}")
    o = _adaptive_size(output_size, input, 1)[0]
    return adaptive_avg_pool2d(input.unsqueeze(-2), [1, o]).squeeze(-2)


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    return _C._nn_adaptive_max_pool2d(input, _adaptive_size(output_size, input, 2))


def adaptive_max_pool2d(input, output_size, return_indices=False):
    out, idx = adaptive_max_pool2d_with_indices(input, output_size)
    return (out, idx) if return_indices else out


def adaptive_max_pool1d(input, output_size, return_indices=False):
    if input.dim() not in (2, 3):
        raise RuntimeError(f"adaptive_max_pool1d() argument 'input' must have 2 or 3 dims, got {input.dim()}")
    o = _adaptive_size(output_size, input, 1)[0]
    out, idx = _C._nn_adaptive_max_pool2d(input.unsqueeze(-2), [1, o])
    out, idx = out.squeeze(-2), idx.squeeze(-2)
    return (out, idx) if return_indices else out


# ---- normalisation --------------------------------------------------------------------

def _verify_batch_size(size):
    n = size[0]
    for s in size[2:]:
        n *= s
    if n == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size torch.Size({list(size)})")


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5):
    if training:
        _verify_batch_size(list(input.shape))
    return _C._nn_batch_norm(input, weight, bias, running_mean, running_var, bool(training),
                             0.0 if momentum is None else float(momentum), float(eps))


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    ns = [int(normalized_shape)] if isinstance(normalized_shape, int) else [int(v) for v in normalized_shape]
    return _C._nn_layer_norm(input, ns, weight, bias, float(eps))


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.dim()}")
    _verify_batch_size([input.shape[0] * input.shape[1] // num_groups, num_groups] + list(input.shape[2:]))
    return _C._nn_group_norm(input, int(num_groups), weight, bias, float(eps))


# ---- embedding ------------------------------------------------------------------------

def _embedding_renorm_(weight, input, max_norm, norm_type):
    from .. import no_grad

    with no_grad():
        rows = sorted(set(int(i) for i in input.reshape(-1).tolist()))
        for r in rows:
            row = weight[r]
            norm = float(row.norm(norm_type))
            if norm > max_norm:
                row.mul_(max_norm / (norm + 1e-7))


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False):
    if padding_idx is not None:
        if padding_idx > 0:
            assert padding_idx < weight.size(0), "Padding_idx must be within num_embeddings"
        elif padding_idx < 0:
            assert padding_idx >= -weight.size(0), "Padding_idx must be within num_embeddings"
            padding_idx = weight.size(0) + padding_idx
    else:
        padding_idx = -1
    if sparse:
        raise NotImplementedError("embedding(sparse=True): sparse gradients are not supported by ferrograd")
    if max_norm is not None:
        input = input.contiguous()
        _embedding_renorm_(weight, input, max_norm, norm_type)
    return _C._nn_embedding(weight, input, None if padding_idx == -1 else padding_idx, bool(scale_grad_by_freq))


def one_hot(tensor, num_classes=-1):
    from .. import int64, zeros

    if tensor.dtype != int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    n = num_classes
    if tensor.numel() > 0:
        lo, hi = (int(v) for v in tensor.aminmax())
        if lo < 0:
            raise RuntimeError("Class values must be non-negative.")
        if num_classes == -1:
            n = hi + 1
        elif hi >= num_classes:
            raise RuntimeError("Class values must be smaller than num_classes.")
    elif num_classes == -1:
        raise RuntimeError("Can not infer total number of classes from empty tensor.")
    # ATen's one_hot: zeros with a 1 scattered at each class along a new last dim
    out = zeros(tuple(tensor.shape) + (n,), dtype=int64, device=tensor.device)
    return out.scatter_(-1, tensor.unsqueeze(-1), 1)


# ---- dropout --------------------------------------------------------------------------

def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _dropout_impl(input, p, train, inplace, noise_shape=None):
    # ATen's _dropout_impl: input * (bernoulli(1 - p) / (1 - p)) (MulBackward0)
    from .. import empty_like, zeros

    if p == 0 or not train or input.numel() == 0:
        return input
    if p == 1:
        z = zeros((), dtype=input.dtype, device=input.device)
        return input.mul_(z) if inplace else input * z
    # (new_empty, as ATen's make_feature_noise: inside vmap the noise is batched like the input)
    noise = empty_like(input) if noise_shape is None else input.new_empty(noise_shape)
    noise.bernoulli_(1 - p)
    noise.div_(1 - p)
    return input.mul_(noise) if inplace else input * noise


def dropout(input, p=0.5, training=True, inplace=False):
    _check_p(p)
    return _dropout_impl(input, p, training, inplace)


def _feature_dropout(input, p, training, inplace):
    if input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    shape = (input.shape[0], input.shape[1]) + (1,) * (input.dim() - 2)
    return _dropout_impl(input, p, training, inplace, shape)


def dropout1d(input, p=0.5, training=True, inplace=False):
    _check_p(p)
    if input.dim() not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {input.dim()}D input. Note that dropout1d exists to provide channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, and an optional batch dimension (i.e. 2D or 3D inputs).")
    batched = input.dim() == 3
    if not batched:
        input = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    out = _feature_dropout(input, p, training, inplace)
    if not batched:
        out = out.squeeze_(0) if inplace else out.squeeze(0)
    return out


def dropout2d(input, p=0.5, training=True, inplace=False):
    _check_p(p)
    d = input.dim()
    if d not in (3, 4):
        _warnings.warn(f"dropout2d: Received a {d}-D input to dropout2d, which is deprecated and will result in an error in a future release. To retain the behavior and silence this warning, please use dropout instead. Note that dropout2d exists to provide channel-wise dropout on inputs with 2 spatial dimensions, a channel dimension, and an optional batch dimension (i.e. 3D or 4D inputs).", stacklevel=2)
    if d == 3:
        _warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior is desired - input is interpreted as shape (N, C, L), where C is the channel dim. This behavior will change in a future release to interpret the input as one without a batch dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise dropout behavior, please switch to using dropout1d instead.", stacklevel=2)
    return _feature_dropout(input, p, training, inplace)


# ---- activations ----------------------------------------------------------------------

def _act(input, kind, a=0.0, b=0.0, inplace=False):
    if inplace:
        _C._nn_activation_(input, kind, float(a), float(b))
        return input
    return _C._nn_activation(input, kind, float(a), float(b))


def leaky_relu(input, negative_slope=0.01, inplace=False):
    return _act(input, "leaky_relu", negative_slope, 0.0, inplace)


def elu(input, alpha=1.0, inplace=False):
    return _act(input, "elu", alpha, 1.0, inplace)


def selu(input, inplace=False):
    return _act(input, "elu", 1.6732632423543772848170429916717, 1.0507009873554804934193349852946, inplace)


def celu(input, alpha=1.0, inplace=False):
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError")
    return _act(input, "celu", alpha, 0.0, inplace)


def gelu(input, approximate="none"):
    if approximate == "none":
        return _act(input, "gelu")
    if approximate == "tanh":
        return _act(input, "gelu_tanh")
    raise RuntimeError(f"approximate argument must be either none or tanh.")


def silu(input, inplace=False):
    return _act(input, "silu", inplace=inplace)


def mish(input, inplace=False):
    return _act(input, "mish", inplace=inplace)


def softplus(input, beta=1.0, threshold=20.0):
    return _act(input, "softplus", beta, threshold)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return _act(input, "hardtanh", min_val, max_val, inplace)


def relu6(input, inplace=False):
    return _act(input, "hardtanh", 0.0, 6.0, inplace)


def hardsigmoid(input, inplace=False):
    return _act(input, "hardsigmoid", inplace=inplace)


def hardswish(input, inplace=False):
    return _act(input, "hardswish", inplace=inplace)


def logsigmoid(input):
    return _act(input, "logsigmoid")


def softsign(input):
    return input / (input.abs() + 1)


def tanhshrink(input):
    return input - input.tanh()


def softshrink(input, lambd=0.5):
    if lambd < 0:
        raise RuntimeError(f"lambda must be greater or equal to 0, but found to be {lambd}.")
    return _act(input, "softshrink", lambd)


def hardshrink(input, lambd=0.5):
    return _act(input, "hardshrink", lambd)


def threshold(input, threshold, value, inplace=False):
    if isinstance(input, _C.Tensor) and not input.is_floating_point() and not input.is_complex():
        return _threshold_integer(input, threshold, value, inplace)
    return _act(input, "threshold", threshold, value, inplace)


_threshold = threshold


def _threshold_integer(input, threshold, value, inplace):
    """``threshold`` of an integer tensor, as ATen's kernel: ``x <= threshold ? value : x`` with
    both numbers converted to the element type first (0.5 is 0 for int64, -1 is 255 for uint8)."""
    from .. import bool as _bool, tensor, where
    if input.dtype == _bool:
        raise NotImplementedError('"threshold_cpu" not implemented for \'Bool\'')
    th = tensor(threshold).to(input.dtype)
    val = tensor(value).to(input.dtype)
    out = where(input <= th, val, input)
    if inplace:
        input.copy_(out)
        return input
    return out


def prelu(input, weight):
    return _C._nn_prelu(input, weight)


def glu(input, dim=-1):
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    return _C._nn_glu(input, dim)


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("softmin", input.dim(), _stacklevel)
    return softmax(-input, dim, dtype=dtype)


# ---- losses ---------------------------------------------------------------------------

def _warn_size(input, target):
    if tuple(target.shape) != tuple(input.shape):
        _warnings.warn(f"Using a target size ({_size_str(target)}) that is different to the input size ({_size_str(input)}). "
                       "This will likely lead to incorrect results due to broadcasting. "
                       "Please ensure they have the same size.", stacklevel=3)


def _weighted(loss, weight, input, reduction):
    if tuple(weight.shape) != tuple(input.shape):
        raise ValueError("Weights and input must have the same size.")
    loss = loss * weight
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":
        return loss.sum() / weight.sum()
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    _warn_size(input, target)
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    x, y = _broadcast_pair(input, target)
    if weight is not None:
        return _weighted((x - y) ** 2, weight, input, reduction)
    return _C._nn_pointwise_loss("mse", x, y, _reduction_enum(reduction), 0.0)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    _warn_size(input, target)
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    x, y = _broadcast_pair(input, target)
    if weight is not None:
        return _weighted((x - y).abs(), weight, input, reduction)
    r = _reduction_enum(reduction)
    return _apply_reduction((x - y).abs(), reduction) if r else (x - y).abs()


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    _warn_size(input, target)
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    x, y = _broadcast_pair(input, target)
    if beta == 0.0:
        return l1_loss(x, y, reduction=reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    return _C._nn_pointwise_loss("smooth_l1", x, y, _reduction_enum(reduction), float(beta))


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    _warn_size(input, target)
    x, y = _broadcast_pair(input, target)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    if weight is None:
        return _C._nn_pointwise_loss("huber", x, y, _reduction_enum(reduction), float(delta))
    loss = _C._nn_pointwise_loss("huber", x, y, 0, float(delta))
    return _weighted(loss, weight, input, reduction)


def _scalar_name(dt):
    return {"float32": "Float", "float64": "Double", "float16": "Half", "int32": "Int", "int64": "Long",
            "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool"}.get(str(dt).split(".")[-1], str(dt))


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    r = _reduction_enum(reduction)
    d = input.dim()
    if d < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {d})")
    if d != 1 and input.shape[0] != target.shape[0]:
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target batch_size ({target.shape[0]}).")
    if d <= 2 or d == 4:
        return _C._nn_nll_loss(input, target, weight, r, int(ignore_index))
    # 3-d and 5+-d: through the 2-d spatial kernel on (N, C, 1, -1), as ATen's nll_loss_nd
    n, c = input.shape[0], input.shape[1]
    out_size = (n,) + tuple(input.shape[2:])
    if tuple(target.shape[1:]) != tuple(input.shape[2:]):
        raise ValueError(f"Expected target size {list(out_size)}, got {list(target.shape)}")
    x = input.contiguous().view(n, c, 1, -1)
    t = target.contiguous().view(n, 1, -1)
    out = _C._nn_nll_loss(x, t, weight, r, int(ignore_index))
    return out.view(out_size) if r == 0 else out


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                  label_smoothing=0.0):
    """log_softmax + nll_loss for class indices; the probability-target and
    label-smoothing forms composed as ATen composes them."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    r = _reduction_enum(reduction)
    if label_smoothing < 0.0 or label_smoothing > 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    class_dim = 0 if input.dim() == 1 else 1
    n_classes = input.shape[class_dim]
    if tuple(input.shape) == tuple(target.shape):
        # probability targets
        if not target.is_floating_point():
            raise RuntimeError(f"Expected floating point type for target with class probabilities, got {_scalar_name(target.dtype)}")
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        if weight is not None and (weight.dim() != 1 or weight.numel() != n_classes):
            raise RuntimeError(f"cross_entropy: weight tensor should be defined either for all {n_classes} classes or no classes but got weight tensor of shape: {list(weight.shape)}")
        logp = input.log_softmax(class_dim)
        t = target * (1 - label_smoothing) + (label_smoothing / n_classes) if label_smoothing > 0.0 else target
        if weight is not None:
            shape = [1] * input.dim()
            shape[class_dim] = n_classes
            prod = logp * t * weight.view(shape)
        else:
            prod = logp * t
        if r == 1:
            return _C._nn_div_scalar(-prod.sum(), input.numel() / n_classes)
        if r == 2:
            return -prod.sum()
        return -prod.sum(class_dim)
    if target.is_floating_point():
        if input.dim() == 2 and target.dim() > 1:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {_scalar_name(target.dtype)}")
    logp = input.log_softmax(class_dim)
    if label_smoothing <= 0.0:
        return nll_loss(logp, target, weight, ignore_index=ignore_index, reduction=reduction)
    nll = nll_loss(logp, target, weight, ignore_index=ignore_index, reduction=reduction)
    ignore_mask = target == ignore_index
    if weight is not None:
        shape = [1] * input.dim()
        shape[class_dim] = n_classes
        smooth = -(logp * weight.view(shape)).sum(class_dim)
    else:
        smooth = -logp.sum(class_dim)
    smooth = smooth.masked_fill(ignore_mask, 0.0)
    if r == 1:
        if weight is not None:
            keep = target[~ignore_mask].reshape(-1)
            ret = smooth.sum() / weight.gather(0, keep).sum()
        else:
            ret = smooth.sum() / (~ignore_mask).sum()
    elif r == 2:
        ret = smooth.sum()
    else:
        ret = smooth
    return (1 - label_smoothing) * nll + ret * (label_smoothing / n_classes)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    r = _reduction_enum(reduction)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Using a target size ({_size_str(target)}) that is different to the input size ({_size_str(input)}) is deprecated. Please ensure they have the same size.")
    if weight is not None:
        from .. import broadcast_tensors

        weight = broadcast_tensors(weight, input)[0] if tuple(weight.shape) != tuple(input.shape) else weight
    return _C._nn_binary_cross_entropy(input, target, weight, r)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None, reduction="mean",
                                     pos_weight=None):
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    r = _reduction_enum(reduction)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Target size ({_size_str(target)}) must be the same as input size ({_size_str(input)})")
    return _C._nn_binary_cross_entropy_with_logits(input, target, weight, pos_weight, r)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    if size_average is not None or reduce is not None:
        reduction_enum = _reduction_enum(_legacy_reduction(size_average, reduce))
    else:
        if reduction == "mean":
            _warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                           "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                           "'mean' will be changed to behave the same as 'batchmean' in the next major release.", stacklevel=2)
        reduction_enum = 2 if reduction == "batchmean" else _reduction_enum(reduction)
    if input.is_complex() or target.is_complex():
        raise RuntimeError("kl_div: Complex inputs not supported.")
    if not input.is_floating_point() or not target.is_floating_point():
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if log_target:
        loss = target.exp() * (target - input)
    else:
        from .. import where, zeros_like

        loss = where(target == 0, zeros_like(target), target * target.log()) - target * input
    if reduction_enum == 1:
        loss = loss.mean()
    elif reduction_enum == 2:
        loss = loss.sum()
    if reduction == "batchmean" and input.dim() != 0:
        loss = loss / input.shape[0]
    return loss


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _reduction_enum(reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                           f"input1: {_size_str(input1)}, input2: {_size_str(input2)}, target: {_size_str(target)} ")
    loss = (-target * (input1 - input2) + margin).clamp_min(0.0)
    return _apply_reduction(loss, reduction)


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _reduction_enum(reduction)
    from .. import where, zeros_like

    d = input1.dim() - 1
    eps = 1e-12
    prod_sum = (input1 * input2).sum(d)
    mag1 = (input1 * input1).sum(d) + eps
    mag2 = (input2 * input2).sum(d) + eps
    cos = prod_sum / (mag1 * mag2).sqrt()
    zeros = zeros_like(cos)
    pos = 1 - cos
    neg = (cos - margin).clamp_min(0.0)
    out = where(target == 1, pos, zeros) + where(target == -1, neg, zeros)
    return _apply_reduction(out, reduction)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _reduction_enum(reduction)
    from .. import where, zeros_like

    zeros = zeros_like(input)
    margin_clamp = (margin - input).clamp_min(0.0)
    out_margin = where(target != 1, margin_clamp, zeros)
    out_self = where(target != -1, input, zeros)
    return _apply_reduction(out_margin + out_self, reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    return _C._nn_pointwise_loss("soft_margin", input, target, _reduction_enum(reduction), 0.0)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    return (x1 - x2 + eps).norm(p, dim=-1, keepdim=keepdim)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
                        reduce=None, reduction="mean"):
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _reduction_enum(reduction)
    if margin <= 0:
        raise ValueError(f"TripletMarginLoss: expected margin to be greater than 0, got {margin} instead")
    d_pos = pairwise_distance(anchor, positive, p, eps)
    d_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_swap = pairwise_distance(positive, negative, p, eps)
        from .. import minimum

        d_neg = minimum(d_neg, d_swap)
    loss = (margin + d_pos - d_neg).clamp_min(0.0)
    return _apply_reduction(loss, reduction)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction="mean"):
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _reduction_enum(reduction)
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * (input + eps).log()
    if full:
        from .. import where, zeros_like

        approx = target * target.log() - target + 0.5 * (2 * _math.pi * target).log()
        loss = loss + where(target > 1, approx, zeros_like(approx))
    return _apply_reduction(loss, reduction)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    from .. import full_like, no_grad

    if isinstance(var, (int, float)):
        var = full_like(input, float(var))
    if tuple(var.shape) != tuple(input.shape):
        if tuple(input.shape[:-1]) == tuple(var.shape):
            var = var.unsqueeze(-1)
        elif tuple(input.shape[:-1]) == tuple(var.shape[:-1]) and var.shape[-1] == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    if bool((var < 0).any()):
        raise ValueError("var has negative entry/entries")
    var = var.clone()
    with no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * _math.log(2 * _math.pi)
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def flatten(input, start_dim=0, end_dim=-1):
    return input.flatten(start_dim, end_dim)


# ---- padding, normalize, interpolate --------------------------------------------------

_NONCONST_PAD_MSG = ("Padding size {} is not supported for {}D input tensor.\n"
                     "Supported combinations for non-constant padding:\n"
                     "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
                     "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
                     "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")


def _pad_circular(input, pairs):
    from .. import empty

    nd = input.dim()
    k = len(pairs)
    in_shape = list(input.shape)
    out_shape = list(in_shape)
    for i, (lo, hi) in enumerate(pairs):
        d = nd - k + i
        if lo > in_shape[d] or hi > in_shape[d]:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        out_shape[d] = in_shape[d] + lo + hi
    out = empty(out_shape, dtype=input.dtype, device=input.device)
    out_slice, in_slice = out, input
    for i, (lo, hi) in enumerate(pairs):
        d = nd - k + i
        out_slice = out_slice.narrow(d, max(lo, 0), out_shape[d] - max(hi, 0) - max(lo, 0))
        in_slice = in_slice.narrow(d, max(-lo, 0), in_shape[d] - max(-hi, 0) - max(-lo, 0))
    out_slice.copy_(in_slice)
    for i in reversed(range(k)):
        lo, hi = pairs[i]
        d = nd - k + i
        if lo > 0:
            out.narrow(d, 0, lo).copy_(out.narrow(d, out_shape[d] - lo - max(hi, 0), lo))
        if hi > 0:
            out.narrow(d, out_shape[d] - hi, hi).copy_(out.narrow(d, max(lo, 0), hi))
    return out


def pad(input, pad, mode="constant", value=None):
    """``F.pad``: constant (ConstantPadNdBackward0), reflect / replicate over the last one
    or two dims (ReflectionPad/ReplicationPad nodes), circular (CopySlices, as ATen)."""
    pad = [int(p) for p in pad]
    if len(pad) % 2 != 0:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.dim():
        raise RuntimeError(f"Padding length should be less than or equal to two times the input dimension but got "
                           f"padding length {len(pad)} and input of dimension {input.dim()}")
    k = len(pad) // 2
    pairs = [(pad[2 * (k - 1 - i)], pad[2 * (k - 1 - i) + 1]) for i in range(k)]  # outermost first
    if mode == "constant":
        return _C._nn_constant_pad(input, pairs, 0.0 if value is None else float(value))
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    nd = input.dim()
    if not ((len(pad) == 2 and nd in (2, 3)) or (len(pad) == 4 and nd in (3, 4)) or (len(pad) == 6 and nd in (4, 5))):
        raise NotImplementedError(_NONCONST_PAD_MSG.format(len(pad), nd))
    if mode == "circular":
        return _pad_circular(input, pairs)
    return _C._nn_index_pad(input, pairs, mode == "reflect")


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    if out is not None:
        raise RuntimeError("normalize(out=...) is not supported by ferrograd")
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    return input / denom


def _cubic_weights(t, a=-0.75):
    """Keys' cubic convolution weights of the taps at -1, 0, 1, 2 for a point ``t`` past 0."""
    def near(x):
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x):
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a

    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def _interp_matrix(n_in, n_out, mode, align_corners, scale_factor, antialias=False):
    """The (n_out, n_in) weights of one axis of ``interpolate`` (ATen's source-index rules:
    ``area_pixel_compute_source_index``, ``nearest(_exact)_..._compute_source_index``, the
    antialiasing filters' supports)."""
    w = [[0.0] * n_in for _ in range(n_out)]
    if mode in ("nearest", "nearest-exact"):
        scale = 1.0 / scale_factor if scale_factor else n_in / n_out
        shift = 0.5 if mode == "nearest-exact" else 0.0
        for o in range(n_out):
            w[o][min(int(_math.floor((o + shift) * scale)), n_in - 1)] = 1.0
        return w
    if align_corners:
        scale = (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
    else:
        scale = 1.0 / scale_factor if scale_factor else n_in / n_out
    if antialias:
        # PIL's resampling: the filter (triangle, or cubic with a = -0.5) stretched by the
        # downscale factor, each output's weights normalised to sum to one
        cubic = mode == "bicubic"
        interp = {"bicubic": 4, "lanczos": 6}.get(mode, 2)

        def filt(x):
            x = abs(x)
            if mode == "lanczos":
                # Lanczos-3: sinc(x) sinc(x / 3) inside |x| < 3
                if x == 0.0:
                    return 1.0
                if x >= 3.0:
                    return 0.0
                px = _math.pi * x
                return 3.0 * _math.sin(px) * _math.sin(px / 3.0) / (px * px)
            if cubic:
                a = -0.5
                if x < 1.0:
                    return ((a + 2) * x - (a + 3)) * x * x + 1
                return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a if x < 2.0 else 0.0
            return 1.0 - x if x < 1.0 else 0.0

        support = interp * 0.5 * scale if scale >= 1.0 else interp * 0.5
        invscale = 1.0 / scale if scale >= 1.0 else 1.0
        for o in range(n_out):
            center = scale * (o + 0.5)
            lo = max(int(center - support + 0.5), 0)
            size = min(int(center + support + 0.5), n_in) - lo
            ws = [filt((j + lo - center + 0.5) * invscale) for j in range(size)]
            total = sum(ws)
            for j, v in enumerate(ws):
                w[o][lo + j] += v / total if total != 0.0 else v
        return w
    for o in range(n_out):
        if mode == "bicubic":
            # no clamping of the source index; the taps are clamped into the input
            src = scale * o if align_corners else scale * (o + 0.5) - 0.5
            i0 = int(_math.floor(src))
            for k, c in enumerate(_cubic_weights(src - i0)):
                w[o][max(min(i0 - 1 + k, n_in - 1), 0)] += c
            continue
        if align_corners:
            src = scale * o
        else:
            src = max(scale * (o + 0.5) - 0.5, 0.0)
        i0 = int(src)
        i1 = i0 + (1 if i0 < n_in - 1 else 0)
        l1 = src - i0
        w[o][i0] += 1.0 - l1
        w[o][i1] += l1
    return w


_RESAMPLE_NODES = {
    ("nearest", 1): "UpsampleNearest1DBackward0", ("nearest", 2): "UpsampleNearest2DBackward0",
    ("nearest", 3): "UpsampleNearest3DBackward0", ("nearest-exact", 1): "UpsampleNearestExact1DBackward0",
    ("nearest-exact", 2): "UpsampleNearestExact2DBackward0", ("nearest-exact", 3): "UpsampleNearestExact3DBackward0",
    ("linear", 1): "UpsampleLinear1DBackward0", ("bilinear", 2): "UpsampleBilinear2DBackward0",
    ("trilinear", 3): "UpsampleTrilinear3DBackward0", ("bicubic", 2): "UpsampleBicubic2DBackward0",
    ("lanczos", 2): "UpsampleLanczos2DAaBackward0",
}


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None, recompute_scale_factor=None,
                antialias=False):
    """Every mode of ``torch.nn.functional.interpolate``: nearest, nearest-exact, linear,
    bilinear, bicubic, trilinear and (antialiased) lanczos resampling as separable weight
    matrices (ATen's source-index rules, antialiased for bilinear / bicubic on request),
    recorded as torch's Upsample* nodes; ``area`` is adaptive average pooling, as in PyTorch."""
    from .. import tensor

    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    dim = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError("Input and output must have the same number of spatial dimensions, but got input with "
                                 f"spatial dimensions of {list(input.shape[2:])} and output size of {size}. Please provide "
                                 "input tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.")
            output_size = [int(s) for s in size]
        else:
            output_size = [int(size)] * dim
        scale_factors = None
    elif scale_factor is not None:
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError("Input and scale_factor must have the same number of spatial dimensions, but got input "
                                 f"with spatial dimensions of {list(input.shape[2:])} and scale_factor of shape "
                                 f"{scale_factor}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                                 "scale_factor in (s1, s2, ...,sK) format.")
            scale_factors = [float(s) for s in scale_factor]
        else:
            scale_factors = [float(scale_factor)] * dim
        output_size = None
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor is not None and recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if output_size is None:
        output_size = [int(_math.floor(float(input.shape[i + 2]) * scale_factors[i])) for i in range(dim)]
        if recompute_scale_factor:
            scale_factors = None
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.dim() == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a 4-D tensor as input")
    sf = scale_factors or [None] * dim
    if mode == "area" and dim in (1, 2, 3):
        pool = {1: adaptive_avg_pool1d, 2: adaptive_avg_pool2d, 3: adaptive_avg_pool3d}[dim]
        return pool(input, output_size)
    if mode == "lanczos" and dim == 2:
        if align_corners:
            raise ValueError("Lanczos mode does not support align_corners=True")
        if not antialias:
            raise ValueError("Lanczos mode requires antialias=True")
    name = _RESAMPLE_NODES.get((mode, dim))
    if name is None:
        for d, m, need in ((1, "bilinear", 4), (1, "trilinear", 5), (2, "linear", 3), (2, "trilinear", 5), (3, "linear", 3),
                           (3, "bilinear", 4)):
            if dim == d and mode == m:
                raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs {need}D input")
        raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) for the modes: "
                                  f"nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact (got {mode})")
    if antialias:
        name = {"bilinear": "UpsampleBilinear2DAaBackward0", "bicubic": "UpsampleBicubic2DAaBackward0",
                "lanczos": "UpsampleLanczos2DAaBackward0"}[mode]
    spatial = list(input.shape[2:])
    mats = [tensor(_interp_matrix(spatial[i], output_size[i], mode, align_corners, sf[i], antialias), dtype=input.dtype,
                   device=input.device) for i in range(dim)]
    ac = None if mode in ("nearest", "nearest-exact") else bool(align_corners)
    if dim == 1:
        return _C._nn_resample(input, None, mats[0], name, output_size, sf, ac)
    if dim == 2:
        return _C._nn_resample(input, mats[0], mats[1], name, output_size, sf, ac)
    return _C._nn_resample(input, mats[1], mats[2], name, output_size, sf, ac, mats[0])


def pixel_shuffle(input, upscale_factor):
    """``(*, C·r², H, W) -> (*, C, H·r, W·r)``: channel blocks spread over space."""
    r = int(upscale_factor)
    if input.dim() < 3:
        raise RuntimeError(f"pixel_shuffle expects input to have at least 3 dimensions, but got input with {input.dim()} dimension(s)")
    if r <= 0:
        raise RuntimeError(f"pixel_shuffle expects a positive upscale_factor, but got {r}")
    c, h, w = input.shape[-3:]
    if c % (r * r) != 0:
        raise RuntimeError(f"pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                           f"upscale_factor, but input.size(-3)={c} is not divisible by {r * r}")
    return _C._nn_pixel_shuffle(input, r, False)


def pixel_unshuffle(input, downscale_factor):
    """``(*, C, H·r, W·r) -> (*, C·r², H, W)``: space folded into channel blocks."""
    r = int(downscale_factor)
    if input.dim() < 3:
        raise RuntimeError(f"pixel_unshuffle expects input to have at least 3 dimensions, but got input with {input.dim()} dimension(s)")
    if r <= 0:
        raise RuntimeError(f"pixel_unshuffle expects a positive downscale_factor, but got {r}")
    c, h, w = input.shape[-3:]
    if h % r != 0:
        raise RuntimeError(f"pixel_unshuffle expects height to be divisible by downscale_factor, but input.size(-2)={h} is not divisible by {r}")
    if w % r != 0:
        raise RuntimeError(f"pixel_unshuffle expects width to be divisible by downscale_factor, but input.size(-1)={w} is not divisible by {r}")
    return _C._nn_pixel_shuffle(input, r, True)


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-5):
    """Each sample's channels normalised over their spatial positions: batch norm of the
    ``(1, N·C, *)`` view (as ATen composes it), the running statistics averaged over the batch."""
    from .. import no_grad

    if use_input_stats:
        spatial = 1
        for d in input.shape[2:]:
            spatial *= d
        if spatial == 1:
            raise ValueError(f"Expected more than 1 spatial element when training, got input size {list(input.shape)}")
    b, c = input.shape[0], input.shape[1]
    x = input.reshape((1, b * c) + tuple(input.shape[2:]))
    w = weight.repeat(b) if weight is not None else None
    bi = bias.repeat(b) if bias is not None else None
    rm = running_mean.repeat(b) if running_mean is not None else None
    rv = running_var.repeat(b) if running_var is not None else None
    out = batch_norm(x, rm, rv, w, bi, use_input_stats, momentum, eps)
    with no_grad():
        if running_mean is not None:
            running_mean.copy_(rm.view(b, c).mean(0))
        if running_var is not None:
            running_var.copy_(rv.view(b, c).mean(0))
    return out.view_as(input)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """``Σ (x1 / max(‖x1‖, eps)) · (x2 / max(‖x2‖, eps))`` along ``dim`` (broadcasting), as
    ATen composes it: each input divided by its clamped norm first (the result stays in
    [-1, 1]), then the product summed (SumBackward1)."""
    from .. import broadcast_shapes, linalg, no_grad, result_type

    dt = result_type(x1, x2)
    if not dt.is_floating_point:
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is {_scalar_name(dt)}")
    if not (x1.is_floating_point() or x1.is_complex()):
        x1 = x1.to(dt)
    if not (x2.is_floating_point() or x2.is_complex()):
        x2 = x2.to(dt)
    if x1.shape != x2.shape:
        shape = broadcast_shapes(x1.shape, x2.shape)
        x1, x2 = x1.expand(shape), x2.expand(shape)
    n1 = linalg.vector_norm(x1, 2, dim=dim, keepdim=True).clone()
    n2 = linalg.vector_norm(x2, 2, dim=dim, keepdim=True).clone()
    with no_grad():
        n1.clamp_min_(eps)
        n2.clamp_min_(eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """``input / sqrt(mean(input², last dims) + eps) · weight`` (``eps`` defaults to the
    dtype's machine epsilon)."""
    from .. import finfo

    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    normalized_shape = tuple(normalized_shape)
    if tuple(input.shape[input.dim() - len(normalized_shape):]) != normalized_shape:
        raise RuntimeError(f"Given normalized_shape={list(normalized_shape)}, expected input with shape "
                           f"[*{', '.join(str(d) for d in normalized_shape)}], but got input of size{list(input.shape)}")
    # as ATen's composite: float16/bfloat16 upcast to float32 (ToCopyBackward0), the whole
    # formula in float32, one rounding back; eps defaults to float32's machine epsilon there
    from .. import bfloat16, float16, float32

    half = input.dtype in (float16, bfloat16)
    x = input.to(float32) if half else input
    if eps is None:
        eps = finfo(x.dtype).eps
    dims = tuple(range(-len(normalized_shape), 0))
    out = x * (x.pow(2).mean(dims, keepdim=True) + eps).rsqrt()
    if weight is not None:
        out = out * weight
    return out.to(input.dtype) if half else out


# ---- more layers: embedding bags, local response norm, channel shuffle, alpha dropout,
# randomized leaky ReLU, multi-class margin losses, Gumbel-softmax, power-average pooling,
# max unpooling, affine grids and grid sampling. Compositions of ferrograd ops (so autograd
# differentiates them; their grad_fn names are those of the ops they are made of).
# ---------------------------------------------------------------------------------------

def _tensor_type_name(t):
    return f"torch.{_scalar_name(t.dtype)}Tensor"


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode="mean",
                  sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    """Compute sums, means or maxes of bags of embeddings (rows of ``weight``) without
    instantiating the intermediate embeddings.

    ``input`` is 1-D with ``offsets`` (the start of each bag; with ``include_last_offset``
    also the end of the last), or 2-D (each row a bag, ``offsets`` None). ``mode`` is
    ``'sum'``, ``'mean'`` or ``'max'``; ``per_sample_weights`` (``'sum'`` only) scales each
    looked-up row; entries equal to ``padding_idx`` are left out of their bag (an empty bag
    gives zeros). ``max_norm`` renormalises the looked-up rows of ``weight`` in place first;
    ``scale_grad_by_freq`` divides each row's gradient by its frequency in ``input``.
    ``sparse=True`` is not supported (NotImplementedError): gradients are dense."""
    from .. import arange, cat, full, int32, int64, tensor, where, zeros

    if weight.dtype == int64 and input.is_floating_point():
        _warnings.warn("Argument order of nn.functional.embedding_bag was changed. "
                       "Usage `embedding_bag(weight, input, ...)` is deprecated, "
                       "and should now be `embedding_bag(input, weight, ...)`.", stacklevel=2)
        weight, input = input, weight
    if per_sample_weights is not None and tuple(input.shape) != tuple(per_sample_weights.shape):
        raise ValueError(f"embedding_bag: If per_sample_weights ({_size_str(per_sample_weights)}) is not None, "
                         f"then it must have the same shape as the input ({_size_str(input)})")
    if weight.dim() != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}")
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             f"fixed length sequences. However, found offsets of type {type(offsets)}")
        offsets = arange(0, input.numel(), input.shape[1], dtype=input.dtype, device=input.device)
        include_last_offset = False
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}")
    if mode not in ("sum", "mean", "max"):
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max":
        if scale_grad_by_freq:
            raise ValueError("max mode does not support scaling the gradient by the frequency")
        if sparse:
            raise ValueError("max mode does not support sparse weights")
    if max_norm is not None:
        _embedding_renorm_(weight, input, max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError("embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on GitHub.")
    if sparse:
        raise NotImplementedError("embedding_bag(sparse=True): sparse gradients are not supported by ferrograd")
    # ATen's checks (torch.embedding_bag)
    for t in (input, offsets):
        if t.dtype not in (int64, int32):
            raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                               f"Long, Int; but got {_tensor_type_name(t)} instead (while checking arguments for embedding_bag)")
    if per_sample_weights is not None and per_sample_weights.dtype != weight.dtype:
        raise RuntimeError("Expected tensor for argument #1 'weight' to have the same type as tensor for argument #1 "
                           f"'per_sample_weights'; but type {_tensor_type_name(weight)} does not equal "
                           f"{_tensor_type_name(per_sample_weights)} (while checking arguments for embedding_bag)")
    num = weight.shape[0]
    if padding_idx is not None:
        if not -num <= padding_idx < num:
            raise RuntimeError(f"padding_idx must be within the number of embeddings, {-num} through {num - 1}, "
                               f"but got {padding_idx}")
        if padding_idx < 0:
            padding_idx += num
    idx = [int(v) for v in input.tolist()]
    offs = [int(v) for v in offsets.tolist()]
    n = len(idx)
    common = "Long" if int64 in (input.dtype, offsets.dtype) else "Int"  # ATen promotes the two
    if offs and offs[0] != 0:
        raise RuntimeError("offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from "
                           f"position 0. However, got {offs[0]}\n[ torch.{common}Tensor{{}} ]")
    if offs and offs[-1] > n:
        raise RuntimeError(f"offsets[-1] can not be greater than input's length {n} but got offsets[-1] of {offs[-1]}")
    if any(b < a for a, b in zip(offs, offs[1:])):
        raise RuntimeError("Expected i < index_size to be true, but got false.  (Could this error message be improved?  "
                           "If so, please report an enhancement request to PyTorch.)")
    for i, v in enumerate(idx):
        if not 0 <= v < num:
            raise RuntimeError(f"Index {i} of input takes value {v} which is not in the valid range [0, {num})")
    if include_last_offset:
        bags = [(offs[b], offs[b + 1]) for b in range(max(len(offs) - 1, 0))]
    else:
        bags = [(offs[b], offs[b + 1] if b + 1 < len(offs) else n) for b in range(len(offs))]
    members = [[i for i in range(s, e) if idx[i] != padding_idx] for s, e in bags]
    longest = max((len(m) for m in members), default=0)
    # (bags, longest) positions into the looked-up rows; position n is a filler row
    pos = tensor([m + [n] * (longest - len(m)) for m in members] if members else [], dtype=int64,
                 device=weight.device).reshape(len(members), longest)
    indices = input.to(int64)

    def bag(weight, per_sample_weights):
        rows = _C._nn_embedding(weight, indices, padding_idx, bool(scale_grad_by_freq))
        if per_sample_weights is not None:
            rows = rows * per_sample_weights.unsqueeze(1)
        fill = float("-inf") if mode == "max" and longest > 0 else 0.0
        table = cat([rows, full((1, weight.shape[1]), fill, dtype=rows.dtype, device=rows.device)])
        bagged = table.index_select(0, pos.reshape(-1)).view(len(members), longest, weight.shape[1])
        if mode == "max" and longest > 0:
            nonempty = tensor([len(m) > 0 for m in members], device=weight.device).unsqueeze(1)
            return where(nonempty, bagged.max(1)[0], zeros((), dtype=rows.dtype, device=rows.device))
        out = bagged.sum(1)
        if mode == "mean":
            counts = tensor([max(len(m), 1) for m in members], dtype=rows.dtype, device=rows.device)
            out = out / counts.unsqueeze(1)
        return out

    from .._one_node import one_node
    # one EmbeddingBagBackward0 node, as PyTorch's
    return one_node("EmbeddingBagBackward0", bag, weight, per_sample_weights,
                    fields={"weight": weight, "indices": indices, "offsets": offsets, "mode": {"sum": 0, "mean": 1, "max": 2}[mode],
                            "scale_grad_by_freq": bool(scale_grad_by_freq), "sparse": bool(sparse),
                            "per_sample_weights": per_sample_weights, "padding_idx": -1 if padding_idx is None else padding_idx})


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """Local response normalisation across channels: ``x / (k + alpha * mean(x², window of
    size channels))^beta`` (the window runs from ``size // 2`` channels before to
    ``(size - 1) // 2`` after, zero-padded)."""
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    div = input.mul(input)
    if dim == 3:
        div = div.unsqueeze(1)
        div = pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        # torch pools (size, 1, 1) in 3-D over the (N, 1, C, H, rest) view: the same as pooling
        # (size, 1) in 2-D over (N, 1, C, H·rest)
        sizes = tuple(input.shape)
        div = div.reshape(sizes[0], 1, sizes[1], -1)
        div = pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
        div = div.view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div


def channel_shuffle(input, groups):
    """Divide the channels (dim 1) of ``input`` into ``groups`` groups and interleave them:
    ``(N, g·c, *) -> (N, c·g, *)`` with channel ``i·c + j`` moved to ``j·g + i``."""
    if input.dim() <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with sizes {list(input.shape)}")
    groups = int(groups)
    c = input.shape[1]
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of groups:{groups}")
    if c % groups != 0:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {c} channels and {groups} groups.")
    sizes = tuple(input.shape)
    x = input.reshape(sizes[0], groups, c // groups, -1)
    return x.permute(0, 2, 1, 3).contiguous().view(sizes)


native_channel_shuffle = channel_shuffle


def _alpha_dropout_impl(input, p, train, inplace, feature):
    # ATen's _dropout_impl with alpha_dropout: x·a·mask + (mask - 1)·alpha·a + alpha·a·p
    from .. import empty_like, zeros

    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not train or input.numel() == 0:
        return input
    if p == 1:
        z = zeros((), dtype=input.dtype, device=input.device)
        return input.mul_(z) if inplace else input * z
    if feature:
        if input.dim() < 2:
            raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
        noise = input.new_empty((input.shape[0], input.shape[1]) + (1,) * (input.dim() - 2))
    else:
        noise = empty_like(input)
    noise.bernoulli_(1 - p)
    alpha = 1.7580993408473766
    a = 1.0 / _math.sqrt((alpha * alpha * p + 1) * (1 - p))
    b = noise.add(-1).mul_(alpha * a).add_(alpha * a * p)
    noise.mul_(a)
    return input.mul_(noise).add_(b) if inplace else (input * noise).add_(b)


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Alpha dropout (for SELU networks): during training, each element is set to SELU's
    negative saturation value with probability ``p`` and the result affinely rescaled so the
    mean and variance stay as they were; the identity otherwise (PyTorch's CPU random stream)."""
    return _alpha_dropout_impl(input, p, training, inplace, False)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Alpha dropout of whole channels (dim 1 of a ``(N, C, *)`` input): each channel is set to
    SELU's negative saturation value with probability ``p``, then the result rescaled to keep
    the mean and variance (PyTorch's CPU random stream)."""
    return _alpha_dropout_impl(input, p, training, inplace, True)


def dropout3d(input, p=0.5, training=True, inplace=False):
    """Randomly zero out entire channels (a channel is a 3D feature map) with probability
    ``p``, scaling the rest by ``1 / (1 - p)``; 4-D (unbatched) or 5-D input."""
    _check_p(p)
    d = input.dim()
    if d not in (4, 5):
        _warnings.warn(f"dropout3d: Received a {d}-D input to dropout3d, which is deprecated and will result in an error "
                       "in a future release. To retain the behavior and silence this warning, please use dropout instead. "
                       "Note that dropout3d exists to provide channel-wise dropout on inputs with 3 spatial dimensions, "
                       "a channel dimension, and an optional batch dimension (i.e. 4D or 5D inputs).", stacklevel=2)
    batched = d == 5
    if not batched:
        input = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    out = _feature_dropout(input, p, training, inplace)
    if not batched:
        out = out.squeeze_(0) if inplace else out.squeeze(0)
    return out


def _rrelu_noise(input, lower, upper):
    """ATen's CPU kernel: each element <= 0, in order, gets a slope drawn from
    uniform_real_distribution<double>(lower, upper) (bounds in the input's opmath type)."""
    import struct

    from .. import empty, float64, ones_like

    lo, hi = float(lower), float(upper)
    if input.dtype != float64:
        lo = struct.unpack("f", struct.pack("f", lo))[0]
        hi = struct.unpack("f", struct.pack("f", hi))[0]
    neg = input.detach() <= 0
    noise = ones_like(input)
    count = int(neg.sum())
    if count:
        noise[neg] = empty(count, dtype=float64, device=input.device).uniform_(lo, hi).to(input.dtype)
    return noise


def _rrelu_function(inplace):
    """PyTorch's ``rrelu_with_noise`` as one node (RreluWithNoiseBackward0, ...Backward1 in
    place) with its saved fields: the input, the noise (the slopes drawn in training), the
    bounds and the mode. Its backward: ``grad * noise`` in training, leaky ReLU's backward with
    slope ``(lower + upper) / 2`` in evaluation."""
    from ..autograd import Function

    class RreluWithNoise(Function):
        @staticmethod
        def forward(ctx, x, lower, upper, training, noise):
            ctx._saved_lower, ctx._saved_upper, ctx._saved_training = float(lower), float(upper), bool(training)
            if inplace:
                ctx.mark_dirty(x)
            if training:
                out = x.mul_(noise) if inplace else x * noise
                ctx.save_for_backward(None if inplace else x, noise)
            else:
                out = leaky_relu(x, (lower + upper) / 2, inplace)
                ctx.save_for_backward(out if inplace else x, noise)
            # derivatives.yaml's saved fields, as the node shows them
            ctx._saved_noise = noise
            ctx._saved_self = out if inplace else x
            return out

        @staticmethod
        def backward(ctx, grad):
            x, noise = ctx.saved_tensors
            if ctx._saved_training:
                return grad * noise, None, None, None, None
            slope = (ctx._saved_lower + ctx._saved_upper) / 2
            return grad.where(x > 0, grad * slope), None, None, None, None

    RreluWithNoise._backward_cls.__name__ = RreluWithNoise._backward_cls.__qualname__ = \
        "RreluWithNoiseBackward1" if inplace else "RreluWithNoiseBackward0"
    RreluWithNoise._backward_cls.__module__ = "builtins"  # printed as PyTorch's built-in nodes
    return RreluWithNoise


_RRELU = {}


def _rrelu_impl(input, lower, upper, training, inplace):
    from .. import empty_like, is_grad_enabled

    if not float(lower) <= float(upper):
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    noise = _rrelu_noise(input, lower, upper) if training else empty_like(input)
    if not (is_grad_enabled() and input.requires_grad):
        if not training:
            return leaky_relu(input, (lower + upper) / 2, inplace)
        return input.mul_(noise) if inplace else input * noise
    fn = _RRELU.get(inplace)
    if fn is None:
        fn = _RRELU[inplace] = _rrelu_function(inplace)
    return fn.apply(input, lower, upper, training, noise)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """Randomized leaky ReLU: in training, each non-positive element is multiplied by a slope
    drawn uniformly from ``[lower, upper]`` (PyTorch's CPU random stream); in evaluation, by the
    fixed slope ``(lower + upper) / 2``."""
    return _rrelu_impl(input, lower, upper, training, inplace)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    """In-place :func:`rrelu`."""
    return _rrelu_impl(input, lower, upper, training, True)


def _margin_reduce(loss, r, keep_shape):
    if r == 1:
        return loss.mean()
    if r == 2:
        return loss.sum()
    return loss.reshape(keep_shape)


def _margin_input_check(input):
    nd = input.dim()
    if not ((nd == 2 and input.shape[1] != 0) or (nd == 1 and input.shape[0] != 0) or nd == 0):
        raise RuntimeError(f"Expected non-empty vector or matrix with optional 0-dim batch size, but got: {list(input.shape)}")
    nframe = 1 if nd <= 1 else input.shape[0]
    dim = input.numel() if nd <= 1 else input.shape[1]
    return nframe, dim


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None, reduction="mean"):
    """Multi-class hinge loss: for each sample with class ``y``,
    ``sum_{j != y} w[y] · max(0, margin - x[y] + x[j])^p / C`` (``p`` 1 or 2)."""
    from .. import arange, int64, is_grad_enabled

    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    r = _reduction_enum(reduction)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.requires_grad and is_grad_enabled():
        raise RuntimeError("The function 'multi_margin_loss' is not differentiable with respect to argument 'weight'. "
                           "This input cannot have requires_grad True.")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    nframe, dim = _margin_input_check(input)
    if not (target.dim() <= 1 and target.numel() == nframe):
        raise RuntimeError("multi_margin_loss: target tensor should be 1-D with size equal to the number of input "
                           f"samples (batch size). Expected target size [{nframe}], but got {list(target.shape)}. "
                           f"Input has shape {list(input.shape)}.")
    if weight is not None and not (weight.dim() <= 1 and weight.numel() == dim):
        raise RuntimeError(f"inconsistent weight size, expected {dim} but got {list(weight.shape)}")
    if target.dtype != int64:
        raise RuntimeError(f"expected scalar type Long but found {_scalar_name(target.dtype)}")
    t = target.reshape(nframe)
    if nframe and (int(t.min()) < 0 or int(t.max()) >= dim):
        raise RuntimeError("target out of range")
    x = input.reshape(nframe, dim)
    z = margin - x.gather(1, t.unsqueeze(1)) + x
    active = (z.detach() > 0) & (arange(dim, device=input.device).unsqueeze(0) != t.unsqueeze(1))
    h = z if p == 1 else z * z
    h = h * active.to(h.dtype)
    if weight is not None:
        h = h * weight.gather(0, t).unsqueeze(1)
    loss = h.sum(1) / dim
    return _margin_reduce(loss, r, (nframe,) if target.dim() > 0 else ())


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """Multi-label hinge loss: ``target`` holds each sample's class indices, ended by the
    first ``-1``; the loss is ``sum_{k in targets} sum_{j not in targets} max(0, 1 - (x[k] - x[j])) / C``."""
    from .. import int64, tensor

    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    r = _reduction_enum(reduction)
    nd = input.dim()
    nframe, dim = _margin_input_check(input)
    if nd <= 1:
        ok = target.dim() <= 1 and target.numel() == dim
    else:
        ok = target.dim() == 2 and target.shape[0] == nframe and target.shape[1] == dim
    if not ok:
        raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of size: {list(input.shape)}")
    if target.dtype != int64:
        raise RuntimeError(f"expected scalar type Long but found {_scalar_name(target.dtype)}")
    rows = [[int(v) for v in target.reshape(nframe, dim)[i].tolist()] for i in range(nframe)]
    if any(v < -1 or v >= dim for row in rows for v in row):
        raise RuntimeError("argument #2 'target' is out of range")
    counts = [[0.0] * dim for _ in range(nframe)]  # times each class is named a target
    others = [[1.0] * dim for _ in range(nframe)]  # 1 where the class is not a target
    for i, row in enumerate(rows):
        for v in row:
            if v < 0:
                break
            counts[i][v] += 1.0
            others[i][v] = 0.0
    cnt = tensor(counts, dtype=input.dtype, device=input.device).reshape(nframe, dim, 1)
    oth = tensor(others, dtype=input.dtype, device=input.device).reshape(nframe, 1, dim)
    x = input.reshape(nframe, dim)
    z = 1 - x.unsqueeze(2) + x.unsqueeze(1)  # [i, k, j] = 1 - (x[k] - x[j])
    h = z * ((z.detach() > 0).to(z.dtype) * cnt * oth)
    loss = h.sum((1, 2)) / dim
    return _margin_reduce(loss, r, (nframe,) if target.dim() > 1 else ())


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """Multi-label one-versus-all loss based on max-entropy: the mean over classes of
    ``-(y · log σ(x) + (1 - y) · log σ(-x))`` (optionally weighted per class)."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    c = input.shape[class_dim]
    loss = loss.sum(dim=class_dim) / c
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(reduction + " is not valid")


def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    """Sample from the Gumbel-softmax distribution: ``softmax((logits + g) / tau)`` with
    ``g = -log(Exp(1))`` noise (PyTorch's CPU random stream); with ``hard=True`` the one-hot
    of its argmax, differentiated as the soft sample (straight-through)."""
    from .. import empty_like, zeros_like

    if eps != 1e-10:
        _warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    gumbels = -empty_like(logits).exponential_().log()
    gumbels = (logits + gumbels) / tau
    y_soft = gumbels.softmax(dim)
    if hard:
        index = y_soft.max(dim, keepdim=True)[1]
        y_hard = zeros_like(logits).scatter_(dim, index, 1.0)
        return y_hard - y_soft.detach() + y_soft
    return y_soft


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """1D power-average pooling: ``(sum over each window of x^p)^(1/p)`` (max of ``|x|`` for
    ``p = inf``)."""
    from .. import sign

    if isinstance(norm_type, (int, float)):
        if norm_type == float("inf"):
            return max_pool1d(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
        if norm_type == -float("inf"):
            return -max_pool1d(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if stride is not None:
        out = avg_pool1d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool1d(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (sign(out) * relu(out.abs())).mul(kernel_size).pow(1.0 / norm_type)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """2D power-average pooling: ``(sum over each window of x^p)^(1/p)`` (max of ``|x|`` for
    ``p = inf``)."""
    from .. import sign

    kw, kh = kernel_size if isinstance(kernel_size, (list, tuple)) else (kernel_size, kernel_size)
    if isinstance(norm_type, (int, float)):
        if norm_type == float("inf"):
            return max_pool2d(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
        if norm_type == -float("inf"):
            return -max_pool2d(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if stride is not None:
        out = avg_pool2d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool2d(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (sign(out) * relu(out.abs())).mul(kw * kh).pow(1.0 / norm_type)


def _single_or_tuple(v, n):
    if isinstance(v, (list, tuple)):
        return tuple(v)
    return tuple(v for _ in range(n))


def _unpool_output_size(input, kernel_size, stride, padding, output_size):
    input_size = tuple(input.shape)
    default_size = []
    for d in range(len(kernel_size)):
        default_size.append((input_size[-len(kernel_size) + d] - 1) * stride[d] + kernel_size[d] - 2 * padding[d])
    if output_size is None:
        ret = default_size
    else:
        if len(output_size) == len(kernel_size) + 2:
            output_size = output_size[2:]
        if len(output_size) != len(kernel_size):
            raise ValueError(f"output_size should be a sequence containing {len(kernel_size)} or {len(kernel_size) + 2} "
                             f"elements, but it has a length of '{len(output_size)}'")
        for d in range(len(kernel_size)):
            min_size = default_size[d] - stride[d]
            max_size = default_size[d] + stride[d]
            if not min_size < output_size[d] < max_size:
                raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between {min_size} and {max_size})')
        ret = output_size
    for d in range(len(kernel_size)):
        if ret[d] < 0:
            raise ValueError(f"max_unpooling: output_size must contain non-negative spatial dimensions, but got "
                             f"output_size[{d}]={ret[d]}")
    return ret


def _max_unpool2d(input, indices, output_size):
    # ATen's max_unpooling2d_forward: each value written at its index in its (oH·oW) plane
    from .. import int64, zeros

    if indices.dtype != int64:
        raise RuntimeError(f"elements in indices should be type int64 but got: {_scalar_name(indices.dtype)}")
    if len(output_size) != 2:
        raise RuntimeError(f"There should be exactly two elements (height, width) in output_size, but got "
                           f"{len(output_size)} elements.")
    if input.dim() not in (3, 4):
        raise RuntimeError(f"Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with {input.dim()} dimensions.")
    if tuple(input.shape) != tuple(indices.shape):
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor ({list(input.shape)}) "
                           f"but got indices tensor with shape: {list(indices.shape)}")
    for i in range(1, input.dim()):
        if input.shape[i] <= 0:
            raise RuntimeError(f"max_unpooling2d_forward_out_cpu(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but got {list(input.shape)} with dimension {i} being empty.")
    oh, ow = int(output_size[0]), int(output_size[1])
    flat_idx = indices.flatten(-2)
    if flat_idx.numel():
        bad = (flat_idx < 0) | (flat_idx >= oh * ow)
        if bool(bad.any()):
            v = int(flat_idx[bad][0])
            raise RuntimeError(f"Found an invalid max index: {v} (output volumes are of size {oh}x{ow})")
    lead = tuple(input.shape[:-2])
    out = zeros(lead + (oh * ow,), dtype=input.dtype, device=input.device)
    return out.scatter(-1, flat_idx, input.flatten(-2)).view(lead + (oh, ow))


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Partial inverse of ``max_pool1d``: each value is put back at the position its index
    names (from ``return_indices=True``), zeros elsewhere."""
    kernel_size = _single_or_tuple(kernel_size, 1)
    _stride = _single_or_tuple(stride, 1) if stride is not None else kernel_size
    padding = _single_or_tuple(padding, 1)
    output_size = _unpool_output_size(input, kernel_size, _stride, padding, output_size)
    output_size = list(output_size) + [1] if isinstance(output_size, list) else tuple(output_size) + (1,)
    return _max_unpool2d(input.unsqueeze(-1), indices.unsqueeze(-1), output_size).squeeze(-1)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Partial inverse of ``max_pool2d``: each value is put back at the position its index
    names (from ``return_indices=True``), zeros elsewhere."""
    kernel_size = _single_or_tuple(kernel_size, 2)
    _stride = _single_or_tuple(stride, 2) if stride is not None else kernel_size
    padding = _single_or_tuple(padding, 2)
    output_size = _unpool_output_size(input, kernel_size, _stride, padding, output_size)
    return _max_unpool2d(input, indices, output_size)


def _linspace_from_neg_one(n, align_corners, ref):
    from .. import linspace, zeros

    if n <= 1:
        return zeros((), dtype=ref.dtype, device=ref.device)
    r = linspace(-1, 1, n, dtype=ref.dtype, device=ref.device)
    if not align_corners:
        r = r * (n - 1) / n
    return r


def affine_grid(theta, size, align_corners=None):
    """The sampling grid (for :func:`grid_sample`) of a batch of affine maps ``theta``
    (``N×2×3`` for a 4-D ``size``, ``N×3×4`` for 5-D): output pixel centres (or corners, with
    ``align_corners=True``) in ``[-1, 1]`` coordinates, mapped through ``theta``."""
    from .. import ones, stack

    if align_corners is None:
        _warnings.warn("Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. "
                       "Please specify align_corners=True if the old behavior is desired. See the documentation of "
                       "grid_sample for details.", stacklevel=2)
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    given, size = size, list(size)
    if len(size) == 4:
        if theta.dim() != 3 or theta.shape[-2] != 2 or theta.shape[-1] != 3:
            raise ValueError(f"Expected a batch of 2D affine matrices of shape Nx2x3 for size {given}. Got {theta.shape}.")
        spatial_size = size[-2:]
    elif len(size) == 5:
        if theta.dim() != 3 or theta.shape[-2] != 3 or theta.shape[-1] != 4:
            raise ValueError(f"Expected a batch of 3D affine matrices of shape Nx3x4 for size {given}. Got {theta.shape}.")
        spatial_size = size[-3:]
    else:
        raise NotImplementedError("affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
                                  f"respectively. Got size {size}.")
    if align_corners and min(spatial_size) == 1:
        _warnings.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size grids when align_corners=True. "
                       "This is not an intended use case of affine_grid. See the documentation of affine_grid for details.",
                       stacklevel=2)
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    n = size[0]
    spatial = [int(s) for s in spatial_size]
    k = len(spatial)
    axes = []  # x (last spatial dim), y, z: each broadcast over the spatial grid
    for a in range(k):
        d = k - 1 - a
        lin = _linspace_from_neg_one(spatial[d], align_corners, theta)
        shape = [1] * k
        shape[d] = lin.numel()
        axes.append(lin.reshape(shape).expand(spatial))
    axes.append(ones(spatial, dtype=theta.dtype, device=theta.device))
    base = stack(axes, -1).unsqueeze(0).expand([n] + spatial + [k + 1])
    total = 1
    for s in spatial:
        total *= s
    grid = base.reshape(n, total, k + 1).bmm(theta.transpose(1, 2))
    return grid.view([n] + spatial + [k])


def _gs_clip(c, size):
    # clip_coordinates with ATen's gradient: 1 strictly inside (0, size - 1), 0 at and beyond
    from .. import where

    hi = float(size - 1)
    return where(c <= 0, c.new_zeros(()), where(c >= hi, c.new_full((), hi), c))


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """Sample ``input`` (``N×C×H×W`` or ``N×C×D×H×W``) at the ``[-1, 1]`` locations ``grid``
    (``N×Ho×Wo×2`` / ``N×Do×Ho×Wo×3``, x first): bilinear, nearest or (4-D only) bicubic
    interpolation; out-of-range locations read as zeros, the border value, or reflected.
    One GridSampler2DBackward0 / GridSampler3DBackward0 node, twice differentiable in
    ``input`` and ``grid`` (nearest: zero gradient for ``grid``)."""
    if mode != "bilinear" and mode != "nearest" and mode != "bicubic":
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but got: '{mode}'")
    if padding_mode != "zeros" and padding_mode != "border" and padding_mode != "reflection":
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or 'reflection', "
                         f"but got: '{padding_mode}'")
    if align_corners is None:
        _warnings.warn("Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. "
                       "Please specify align_corners=True if the old behavior is desired. See the documentation of "
                       "grid_sample for details.", stacklevel=2)
        align_corners = False
    mode_enum = {"bilinear": 0, "nearest": 1, "bicubic": 2}[mode]
    padding_enum = {"zeros": 0, "border": 1, "reflection": 2}[padding_mode]
    return _C._nn_grid_sample(input, grid, mode_enum, padding_enum, bool(align_corners))


# ---- 3-d convolution and pooling (compositions of the 2-d kernels) --------------------

def _triple(v, name="value"):
    return _pair(v, 3, name)


def _shape_str(t):
    return str(list(t.shape))


def _check_conv3d(x, weight, bias, stride, pads, dilation, groups, transposed, output_padding=None):
    """ATen's check_shape_forward for 5-d input ``x``, with its messages."""
    if weight.dim() != 5:
        raise RuntimeError(f"Expected 5-dimensional input for 5-dimensional weight {_shape_str(weight)}, but got "
                           f"{x.dim()}-dimensional input of size {_shape_str(x)} instead")
    if any(lo < 0 or hi < 0 for lo, hi in pads):
        raise RuntimeError("negative padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError("dilation should be greater than zero")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if transposed:
        for op, s, d in zip(output_padding, stride, dilation):
            if op < 0:
                raise RuntimeError("negative output_padding is not supported")
            if op >= s and op >= d:
                raise RuntimeError(f"output padding must be smaller than either stride or dilation, but got "
                                   f"output_padding_depth: {output_padding[0]} output_padding_height: {output_padding[1]} "
                                   f"output_padding_width: {output_padding[2]} stride_depth: {stride[0]} stride_height: "
                                   f"{stride[1]} stride_width: {stride[2]} dilation_depth: {dilation[0]} dilation_height: "
                                   f"{dilation[1]} dilation_width: {dilation[2]}")
        if weight.shape[0] != x.shape[1]:
            raise RuntimeError(f"Given transposed=1, weight of size {_shape_str(weight)}, expected input{_shape_str(x)} to "
                               f"have {weight.shape[0]} channels, but got {x.shape[1]} channels instead")
        if weight.shape[0] % groups != 0:
            raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but got "
                               f"weight of size {_shape_str(weight)} instead")
        out_ch = weight.shape[1] * groups
        if bias is not None and (bias.dim() != 1 or bias.shape[0] != out_ch):
            raise RuntimeError(f"Given transposed=1, weight of size {_shape_str(weight)}, expected bias to be 1-dimensional "
                               f"with {out_ch} elements, but got bias of size {_shape_str(bias)} instead")
        return
    if weight.shape[0] < groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, but got weight "
                           f"of size {_shape_str(weight)} instead")
    if weight.shape[0] % groups != 0:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but got "
                           f"weight of size [{_shape_str(weight)}] instead")
    if x.shape[1] != weight.shape[1] * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {_shape_str(weight)}, expected input{_shape_str(x)} to "
                           f"have {weight.shape[1] * groups} channels, but got {x.shape[1]} channels instead")
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != weight.shape[0]):
        raise RuntimeError(f"Given weight of size {_shape_str(weight)}, expected bias to be 1-dimensional with "
                           f"{weight.shape[0]} elements, but got bias of size {_shape_str(bias)} instead")
    padded = [x.shape[2 + i] + pads[i][0] + pads[i][1] for i in range(3)]
    kern = [dilation[i] * (weight.shape[2 + i] - 1) + 1 for i in range(3)]
    if any(p < k for p, k in zip(padded, kern)):
        raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(str(p) for p in padded)}). "
                           f"Kernel size: ({' x '.join(str(k) for k in kern)}). Kernel size can't be greater than actual "
                           "input size")


_SAME3D_WARNED = False


def _zeros_like_shape(ref, shape):
    from .. import zeros

    return zeros(shape, dtype=ref.dtype, device=ref.device)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """Applies a 3D convolution over an input image composed of several input planes (``padding``
    may be ``'same'`` or ``'valid'``). Computed as a sum over the kernel depth of ``conv2d`` on
    the depth slices, recorded as one ConvolutionBackward0 (its gradients are the composition's)."""
    from .._one_node import one_node

    fields = {"stride": _triple(stride, "stride"), "padding": padding if isinstance(padding, str) else _triple(padding, "padding"),
              "dilation": _triple(dilation, "dilation"), "groups": int(groups), "transposed": False,
              "output_padding": (0, 0, 0), "bias_sym_sizes_opt": None if bias is None else tuple(bias.shape),
              "input": input, "weight": weight}
    return one_node("ConvolutionBackward0", lambda i, w, b: _conv3d_composite(i, w, b, stride, padding, dilation, groups),
                    input, weight, bias, fields=fields)


def _conv3d_composite(input, weight, bias, stride, padding, dilation, groups):
    if input.dim() not in (4, 5):
        raise RuntimeError(f"Expected 4D (unbatched) or 5D (batched) input to conv3d, but got input of size: {list(input.shape)}")
    batched = input.dim() == 5
    x = input if batched else input.unsqueeze(0)
    stride = _triple(stride, "stride")
    dilation = _triple(dilation, "dilation")
    ks = tuple(weight.shape[2:])
    if isinstance(padding, str):
        if padding == "valid":
            pads = [(0, 0)] * 3
        elif padding == "same":
            if any(s != 1 for s in stride):
                raise RuntimeError("padding='same' is not supported for strided convolutions")
            pads = []
            for d, k in zip(dilation, ks):
                total = d * (k - 1)
                lo = total // 2
                pads.append((lo, total - lo))
            global _SAME3D_WARNED
            if any(lo != hi for lo, hi in pads) and not _SAME3D_WARNED:
                # TORCH_WARN_ONCE: once per process
                _SAME3D_WARNED = True
                _warnings.warn("Using padding='same' with even kernel lengths and odd dilation may require a zero-padded "
                               "copy of the input be created (Triggered internally at "
                               "/__w/pytorch/pytorch/aten/src/ATen/native/Convolution.cpp:1101.)", stacklevel=2)
        else:
            raise RuntimeError(f"Invalid padding string: '{padding}'")
    else:
        pads = [(p, p) for p in _triple(padding, "padding")]
    _check_conv3d(x, weight, bias, stride, pads, dilation, int(groups), False)
    if any(lo or hi for lo, hi in pads):
        x = pad(x, [pads[2][0], pads[2][1], pads[1][0], pads[1][1], pads[0][0], pads[0][1]])
    n, c, d, h, w = x.shape
    kd = ks[0]
    od = (d - dilation[0] * (kd - 1) - 1) // stride[0] + 1
    acc = None
    for k in range(kd):
        start = k * dilation[0]
        sl = x[:, :, start:start + (od - 1) * stride[0] + 1:stride[0]]
        sl = sl.transpose(1, 2).reshape(n * od, c, h, w)
        y = conv2d(sl, weight[:, :, k], None, stride[1:], 0, dilation[1:], groups)
        acc = y if acc is None else acc + y
    out = acc.reshape(n, od, acc.shape[1], acc.shape[2], acc.shape[3]).transpose(1, 2)
    if bias is not None:
        out = out + bias.reshape(1, -1, 1, 1, 1)
    out = out.contiguous()
    return out if batched else out.squeeze(0)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """Applies a 3D transposed convolution operator over an input image composed of several input
    planes. Computed from ``conv_transpose2d`` over each kernel depth, placed at its output depths,
    recorded as one ConvolutionBackward0 (its gradients are the composition's)."""
    from .._one_node import one_node

    if isinstance(padding, str):
        raise RuntimeError("conv_transpose3d(): argument 'padding' (position 5) must be tuple of ints, not str")
    fields = {"stride": _triple(stride, "stride"), "padding": _triple(padding, "padding"),
              "dilation": _triple(dilation, "dilation"), "groups": int(groups), "transposed": True,
              "output_padding": _triple(output_padding, "output_padding"),
              "bias_sym_sizes_opt": None if bias is None else tuple(bias.shape), "input": input, "weight": weight}
    return one_node("ConvolutionBackward0",
                    lambda i, w, b: _conv_transpose3d_composite(i, w, b, stride, padding, output_padding, groups, dilation),
                    input, weight, bias, fields=fields)


def _conv_transpose3d_composite(input, weight, bias, stride, padding, output_padding, groups, dilation):
    from .. import cat

    if input.dim() not in (4, 5):
        raise RuntimeError(f"Expected 4D (unbatched) or 5D (batched) input to conv_transpose3d, but got input of size: {list(input.shape)}")
    if isinstance(padding, str):
        raise RuntimeError("conv_transpose3d(): argument 'padding' (position 5) must be tuple of ints, not str")
    batched = input.dim() == 5
    x = input if batched else input.unsqueeze(0)
    stride = _triple(stride, "stride")
    dilation = _triple(dilation, "dilation")
    padding = _triple(padding, "padding")
    output_padding = _triple(output_padding, "output_padding")
    _check_conv3d(x, weight, bias, stride, [(p, p) for p in padding], dilation, int(groups), True, output_padding)
    n, cin, d, h, w = x.shape
    kd = weight.shape[2]
    sd, pd, dd, opd = stride[0], padding[0], dilation[0], output_padding[0]
    full = (d - 1) * sd + dd * (kd - 1) + 1 + opd
    od = full - 2 * pd
    if od <= 0:
        raise RuntimeError(f"Given input size per channel: ({d} x {h} x {w}). Calculated output size per channel: "
                           f"({od} x ...). Output size is too small")
    xs = x.transpose(1, 2).reshape(n * d, cin, h, w)
    span = (d - 1) * sd + 1
    acc = None
    for k in range(kd):
        y = conv_transpose2d(xs, weight[:, :, k], None, stride[1:], padding[1:], output_padding[1:], groups, dilation[1:])
        cout, oh, ow = y.shape[1], y.shape[2], y.shape[3]
        y = y.reshape(n, d, cout, oh, ow)
        if sd > 1:
            z = _zeros_like_shape(y, (n, d, sd - 1, cout, oh, ow))
            y = cat([y.unsqueeze(2), z], 2).reshape(n, d * sd, cout, oh, ow)[:, :span]
        left = k * dd
        right = full - left - span
        parts = []
        if left:
            parts.append(_zeros_like_shape(y, (n, left, cout, oh, ow)))
        parts.append(y)
        if right:
            parts.append(_zeros_like_shape(y, (n, right, cout, oh, ow)))
        y = cat(parts, 1) if len(parts) > 1 else y
        acc = y if acc is None else acc + y
    out = acc[:, pd:pd + od].transpose(1, 2)
    if bias is not None:
        out = out + bias.reshape(1, -1, 1, 1, 1)
    out = out.contiguous()
    return out if batched else out.squeeze(0)


def _pool_out_size(size, k, s, p, d, ceil_mode):
    # ATen's pooling_output_shape (with its pad check)
    if p > ((k - 1) * d + 1) // 2:
        raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={p}, kernel_size={k} and dilation={d}")
    num = size + 2 * p - d * (k - 1) - 1 + ((s - 1) if ceil_mode else 0)
    out = num // s + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out


def _planes(input):
    """``input`` (4-d or 5-d) as ``(planes, D, H, W)`` and the leading shape to restore."""
    lead = tuple(input.shape[:-3])
    return input.reshape(-1, *input.shape[-3:]), lead


def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=True):
    """3D max pooling that returns ``(output, indices)`` (indices flat over ``D*H*W``)."""
    k, s, p, d = _pool_args(kernel_size, stride, padding, dilation, 3)
    given = not (stride is None or (isinstance(stride, (list, tuple)) and len(stride) == 0))
    return _C._nn_max_pool3d(input, list(k), list(s) if given else [], list(p), list(d), bool(ceil_mode))


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """Applies a 3D max pooling over an input signal composed of several input planes; with
    ``return_indices=True`` also the argmax indices."""
    out, idx = max_pool3d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return (out, idx) if return_indices else out


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """1D max pooling that returns ``(output, indices)``."""
    return max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None):
    """Applies 3D average-pooling operation in ``kT x kH x kW`` regions by step size
    ``sT x sH x sW`` steps."""
    k, s, p, _ = _pool_args(kernel_size, stride, padding, 1, 3)
    given = not (stride is None or (isinstance(stride, (list, tuple)) and len(stride) == 0))
    return _C._nn_avg_pool3d(input, list(k), list(s) if given else [], list(p), bool(ceil_mode), bool(count_include_pad),
                             divisor_override)


def _adaptive3d_size(output_size, input, name):
    sizes = list(output_size) if isinstance(output_size, (list, tuple)) else [output_size] * 3
    if len(sizes) != 3:
        if name == "adaptive_avg_pool3d":
            raise RuntimeError("adaptive_avg_pool3d: output_size must be 3")
        raise RuntimeError("adaptive_max_pool3d(): internal error: output_size.size() must be 3")
    return [input.shape[input.dim() - 3 + i] if v is None else int(v) for i, v in enumerate(sizes)]


def _adaptive3d_check(input, name):
    if input.dim() not in (4, 5):
        sep = ": " if name == "adaptive_max_pool3d" else " "
        raise RuntimeError(f"{name}(): Expected 4D or 5D tensor, but got{sep}{list(input.shape)}")
    for i in range(1, input.dim()):
        if input.shape[i] == 0:
            raise RuntimeError(f"{name}(): Expected input to have non-zero size for non-batch dimensions, but input has "
                               f"sizes {list(input.shape)} with dimension {i} being empty")


def adaptive_avg_pool3d(input, output_size):
    """Applies a 3D adaptive average pooling over an input signal composed of several input planes
    (output size ``output_size``)."""
    _adaptive3d_check(input, "adaptive_avg_pool3d")
    size = _adaptive3d_size(output_size, input, "adaptive_avg_pool3d")
    if size == [1, 1, 1]:
        # ATen computes the 1x1x1 case as a mean over the last three dims (MeanBackward1)
        return input.mean((-1, -2, -3), keepdim=True)
    x, lead = _planes(input)
    nc, dd = x.shape[0], x.shape[1]
    o2 = _C._nn_adaptive_avg_pool2d(x, size[1:])
    t = o2.reshape(nc, dd, size[1] * size[2]).transpose(1, 2).unsqueeze(-2)
    o1 = _C._nn_adaptive_avg_pool2d(t, [1, size[0]]).squeeze(-2)
    return o1.transpose(1, 2).reshape(*lead, *size)


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    """3D adaptive max pooling that returns ``(output, indices)`` (indices flat over ``D*H*W``)."""
    _adaptive3d_check(input, "adaptive_max_pool3d")
    size = _adaptive3d_size(output_size, input, "adaptive_max_pool3d")
    x, lead = _planes(input)
    nc, dd, hh, ww = x.shape
    o2, i2 = _C._nn_adaptive_max_pool2d(x, size[1:])
    hw_n = size[1] * size[2]
    t = o2.reshape(nc, dd, hw_n).transpose(1, 2).unsqueeze(-2)
    o1, i1 = _C._nn_adaptive_max_pool2d(t, [1, size[0]])
    o1, i1 = o1.squeeze(-2), i1.squeeze(-2)
    hw = i2.reshape(nc, dd, hw_n).transpose(1, 2).gather(2, i1)
    idx = i1 * (hh * ww) + hw
    return o1.transpose(1, 2).reshape(*lead, *size), idx.transpose(1, 2).reshape(*lead, *size)


def adaptive_max_pool3d(input, output_size, return_indices=False):
    """Applies a 3D adaptive max pooling over an input signal composed of several input planes;
    with ``return_indices=True`` also the argmax indices."""
    out, idx = adaptive_max_pool3d_with_indices(input, output_size)
    return (out, idx) if return_indices else out


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    """1D adaptive max pooling that returns ``(output, indices)``."""
    return adaptive_max_pool1d(input, output_size, True)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Partial inverse of ``max_pool3d``: each value is put back at the position its index names
    (from ``return_indices=True``), zeros elsewhere."""
    from .. import int64, zeros

    kernel_size = _single_or_tuple(kernel_size, 3)
    _stride = _single_or_tuple(stride, 3) if stride is not None else kernel_size
    padding = _single_or_tuple(padding, 3)
    output_size = _unpool_output_size(input, kernel_size, _stride, padding, output_size)
    if indices.dtype != int64:
        raise RuntimeError("elements in indices should be type int64")
    if input.dim() not in (4, 5):
        raise RuntimeError(f"Input to max_unpooling3d should be a 4d or 5d Tensor, but got a tensor with {input.dim()} dimensions.")
    if len(output_size) != 3:
        raise RuntimeError(f"There should be exactly three elements (depth, height, width) in output_size, but got "
                           f"{len(output_size)} elements.")
    if tuple(input.shape) != tuple(indices.shape):
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor ({list(input.shape)}) "
                           f"but got indices tensor with shape: {list(indices.shape)}")
    for i in range(1, input.dim()):
        if input.shape[i] <= 0:
            raise RuntimeError(f"max_unpooling3d_forward_out_cpu(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but got {list(input.shape)} with dimension {i} being empty.")
    od, oh, ow = (int(v) for v in output_size)
    flat_idx = indices.flatten(-3)
    if flat_idx.numel():
        bad = (flat_idx < 0) | (flat_idx >= od * oh * ow)
        if bool(bad.any()):
            v = int(flat_idx[bad][0])
            raise RuntimeError(f"Found an invalid max index: {v} (output volumes are of size {od}x{oh}x{ow})")
    lead = tuple(input.shape[:-3])
    out = zeros(lead + (od * oh * ow,), dtype=input.dtype, device=input.device)
    return out.scatter(-1, flat_idx, input.flatten(-3)).view(lead + (od, oh, ow))


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """3D power-average pooling: ``(sum over each window of x^p)^(1/p)`` (max of ``|x|`` for
    ``p = inf``)."""
    from .. import sign

    kd, kw, kh = _single_or_tuple(kernel_size, 3)
    if isinstance(norm_type, (int, float)):
        if norm_type == float("inf"):
            return max_pool3d(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
        if norm_type == -float("inf"):
            return -max_pool3d(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if stride is not None:
        out = avg_pool3d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool3d(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (sign(out) * relu(out.abs())).mul(kd * kw * kh).pow(1.0 / norm_type)


# ---- CTC loss -------------------------------------------------------------------------

def _ctc_arg_type(v):
    if hasattr(v, "grad_fn"):
        return "Tensor"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, (list, tuple)):
        inner = ", ".join(_ctc_arg_type(e) for e in v)
        return f"list of [{inner}]" if isinstance(v, list) else f"tuple of ({inner})"
    return type(v).__name__


def _ctc_lengths(input_lengths, target_lengths, args):
    def is_int_seq(v):
        return isinstance(v, (list, tuple)) and all(isinstance(e, int) and not isinstance(e, bool) for e in v)

    tensors = hasattr(input_lengths, "grad_fn") and hasattr(target_lengths, "grad_fn")
    if not tensors and not (is_int_seq(input_lengths) and is_int_seq(target_lengths)):
        got = [_ctc_arg_type(a) for a in args]

        def marked(ok):
            out, bad = [], False
            for g, good in zip(got, ok):
                bad = bad or not good
                out.append(f"!{g}!" if bad else g)
            return "(" + ", ".join(out) + ")"

        ok1 = [True, True, is_int_seq(input_lengths), is_int_seq(target_lengths), True, True, True]
        ok2 = [True, True, hasattr(input_lengths, "grad_fn"), hasattr(target_lengths, "grad_fn"), True, True, True]
        raise TypeError(
            f"ctc_loss() received an invalid combination of arguments - got ({', '.join(g.split(' of ')[0] for g in got)}), "
            "but expected one of:\n"
            " * (Tensor log_probs, Tensor targets, tuple of ints input_lengths, tuple of ints target_lengths, int blank = 0, "
            "int reduction = at::Reduction::Mean, bool zero_infinity = False)\n"
            f"      didn't match because some of the arguments have invalid types: {marked(ok1)}\n"
            " * (Tensor log_probs, Tensor targets, Tensor input_lengths, Tensor target_lengths, int blank = 0, "
            "int reduction = at::Reduction::Mean, bool zero_infinity = False)\n"
            f"      didn't match because some of the arguments have invalid types: {marked(ok2)}\n")
    if tensors:
        if input_lengths.is_floating_point() or input_lengths.is_complex():
            raise RuntimeError("input_lengths must be integral")
        if target_lengths.is_floating_point() or target_lengths.is_complex():
            raise RuntimeError("target_lengths must be integral")
        il = [int(v) for v in input_lengths.reshape(-1).tolist()]
        tl = [int(v) for v in target_lengths.reshape(-1).tolist()]
    else:
        il, tl = [int(v) for v in input_lengths], [int(v) for v in target_lengths]
    return il, tl


def _ctc_lse3(a1, a2, a3):
    # ATen's CPU recursion: the max (0 when it is -inf) taken out, then log of the sum of exps
    from .. import maximum, where

    m = maximum(maximum(a1, a2), a3)
    m = where(m == float("-inf"), 0.0, m)
    return ((a1 - m).exp() + (a2 - m).exp() + (a3 - m).exp()).log() + m


def _ctc_shift(t, k, fill):
    """``t`` (N, S) shifted right (k > 0) or left (k < 0) along dim 1, ``fill`` coming in."""
    from .. import cat, full

    n, s = t.shape
    pad = full((n, abs(k)), fill, dtype=t.dtype, device=t.device)
    if k > 0:
        return cat([pad, t[:, :s - k]], 1)
    return cat([t[:, -k:], pad], 1)


from ..autograd import Function as _Function  # noqa: E402


class _CtcLoss(_Function):
    """The CTC negative log likelihood per batch element (ATen's CPU alpha / beta recursions in
    log space); its backward is ATen's ``_ctc_loss_backward`` (the gradient with respect to the
    log-probabilities as ATen writes it: ``exp(lp) - exp(log(alpha·beta) + nll - lp)``)."""

    @staticmethod
    def forward(ctx, log_probs, lprime, skip, il, tl, blank, zero_infinity):
        from .. import full, stack, tensor

        t_max, n, _ = log_probs.shape
        s_len = lprime.shape[1]
        ninf = float("-inf")
        lp_ext = log_probs.gather(2, lprime.unsqueeze(0).expand(t_max, n, s_len))  # (T, N, S')
        pos = tensor(list(range(s_len)), device=log_probs.device).unsqueeze(0)
        valid = pos <= (tensor(tl, device=log_probs.device).unsqueeze(1) * 2)
        init = full((n, s_len), ninf, dtype=log_probs.dtype, device=log_probs.device)
        first = pos < tensor([2 if v > 0 else 1 for v in tl], device=log_probs.device).unsqueeze(1)
        la = lp_ext[0].where(first, init) if t_max > 0 else init
        alphas = [la]
        for t in range(1, t_max):
            a2 = _ctc_shift(la, 1, ninf)
            a3 = _ctc_shift(la, 2, ninf).where(skip, init)
            la = (_ctc_lse3(la, a2, a3) + lp_ext[t]).where(valid, init)
            alphas.append(la)
        log_alpha = stack(alphas, 0) if alphas else init.unsqueeze(0)
        nll = []
        for b in range(n):
            if il[b] == 0:
                nll.append(float("inf") if tl[b] > 0 else 0.0)
                continue
            last = log_alpha[il[b] - 1, b]
            l1 = float(last[2 * tl[b]])
            l2 = float(last[2 * tl[b] - 1]) if tl[b] > 0 else ninf
            m = max(l1, l2)
            if m == ninf:
                m = 0.0
            tot = _math.exp(l1 - m) + _math.exp(l2 - m)
            nll.append(-(_math.log(tot) + m) if tot > 0 else float("inf"))
        out = tensor(nll, dtype=log_probs.dtype, device=log_probs.device)
        ctx.save_for_backward(log_probs, lprime, skip, log_alpha, out)
        ctx.il, ctx.tl, ctx.zero_infinity = il, tl, zero_infinity
        return out

    @staticmethod
    def backward(ctx, grad_out):
        from .. import full, tensor, zeros

        log_probs, lprime, skip, log_alpha, nll = ctx.saved_tensors
        il, tl = ctx.il, ctx.tl
        t_max, n, c = log_probs.shape
        s_len = lprime.shape[1]
        ninf = float("-inf")
        dev = log_probs.device
        lp_ext = log_probs.gather(2, lprime.unsqueeze(0).expand(t_max, n, s_len))
        pos = tensor(list(range(s_len)), device=dev).unsqueeze(0)
        tl_t = tensor(tl, device=dev).unsqueeze(1)
        valid = pos <= tl_t * 2
        last_pos = (pos >= tl_t * 2 - 1) & valid
        init = full((n, s_len), ninf, dtype=log_probs.dtype, device=dev)
        skip_back = _ctc_shift(skip.to(log_probs.dtype), -2, 0.0) > 0.5  # s + 2 may be skipped to from s
        il_t = tensor(il, device=dev).unsqueeze(1)
        lb = init
        grads = [None] * t_max
        for t in range(t_max - 1, -1, -1):
            b2 = _ctc_shift(lb, -1, ninf)
            b3 = _ctc_shift(lb, -2, ninf).where(skip_back, init)
            rec = (_ctc_lse3(lb, b2, b3) + lp_ext[t]).where(valid, init)
            start = lp_ext[t].where(last_pos, init)
            lb = rec.where(il_t - 1 > t, start.where(il_t - 1 == t, init))
            lab = (log_alpha[t] + lb).where(valid, init)
            m = lab.max(1, keepdim=True)[0]
            m = m.where(m != ninf, zeros((), dtype=m.dtype, device=dev))
            sums = zeros((n, c), dtype=log_probs.dtype, device=dev).scatter_add(1, lprime, (lab - m).exp())
            grads[t] = sums.log() + m
        from .. import stack

        lcab = stack(grads, 0)  # (T, N, C)
        lp = log_probs
        res = (lp.exp() - (lcab + nll.view(1, n, 1) - lp).exp()) * grad_out.view(1, n, 1)
        t_idx = tensor(list(range(t_max)), device=dev).view(t_max, 1, 1)
        keep = t_idx < tensor(il, device=dev).view(1, n, 1)
        if ctx.zero_infinity:
            keep = keep & (nll != float("inf")).view(1, n, 1)
        res = res.where(keep, zeros((), dtype=res.dtype, device=dev))
        return res, None, None, None, None, None, None


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False):
    """The Connectionist Temporal Classification loss: ``-log p(target | log_probs)`` summed over
    the alignments (log-space alpha recursion), for ``log_probs`` ``(T, N, C)`` or ``(T, C)``,
    targets padded ``(N, S)`` or concatenated ``(sum(target_lengths),)``, lengths as tensors or
    tuples. Its gradient is ATen's (with respect to log-probabilities from a log_softmax)."""
    from .. import int64, tensor, zeros

    r = _reduction_enum(reduction)
    il, tl = _ctc_lengths(input_lengths, target_lengths,
                          (log_probs, targets, input_lengths, target_lengths, blank, r, zero_infinity))
    batched = log_probs.dim() == 3
    lp = log_probs if batched else log_probs.unsqueeze(1)
    where_ = "(while checking arguments for ctc_loss_allocate_outputs)"
    if lp.dim() != 3:
        raise RuntimeError(f"Expected {lp.dim()}-dimensional tensor, but got 3-dimensional tensor for argument #1 "
                           f"'log_probs' {where_}")
    t_max, n, num_labels = lp.shape
    if not (0 <= blank < num_labels):
        raise RuntimeError("blank must be in label range")
    if len(il) != n:
        raise RuntimeError("input_lengths must be of size batch_size")
    if len(tl) != n:
        raise RuntimeError("target_lengths must be of size batch_size")
    tg = targets.to(int64)
    for v in tl:
        if v < 0:
            raise RuntimeError(f"Expected target_lengths to have value at least 0, but got value {v} {where_}")
    s_max = max(tl) if tl else 0
    if tg.dim() == 1:
        total = sum(tl)
        if tg.shape[0] != total:
            raise RuntimeError(f"Expected tensor to have size {total} at dimension 0, but got size {tg.shape[0]} for "
                               f"argument #2 'targets' {where_}")
        offs = [sum(tl[:b]) for b in range(n)]
        rows = [tg[offs[b]:offs[b] + tl[b]].tolist() for b in range(n)]
    else:
        if tg.shape[0] != n:
            raise RuntimeError(f"Expected tensor to have size {n} at dimension 0, but got size {tg.shape[0]} for "
                               f"argument #2 'targets' {where_}")
        if tg.shape[1] < s_max:
            raise RuntimeError(f"Expected tensor to have size at least {s_max} at dimension 1, but got size "
                               f"{tg.shape[1]} for argument #2 'targets' {where_}")
        rows = [tg[b, :tl[b]].tolist() for b in range(n)]
    for v in il:
        if v < 0:
            raise RuntimeError(f"Expected input_lengths to have value at least 0, but got value {v} {where_}")
        if v > t_max:
            raise RuntimeError(f"Expected input_lengths to have value at most {t_max}, but got value {v} {where_}")
    s_len = 2 * s_max + 1
    lprime_rows, skip_rows = [], []
    for b in range(n):
        ext = [blank] * s_len
        for i, lab in enumerate(rows[b]):
            ext[2 * i + 1] = int(lab)
        lprime_rows.append(ext)
        skip_rows.append([s >= 2 and s % 2 == 1 and ext[s] != ext[s - 2] for s in range(s_len)])
    lprime = tensor(lprime_rows, dtype=int64, device=lp.device)
    skip = tensor(skip_rows, device=lp.device)
    res = _CtcLoss.apply(lp, lprime, skip, il, tl, int(blank), bool(zero_infinity))
    if zero_infinity:
        res = res.where(res != float("inf"), zeros((), dtype=res.dtype, device=res.device))
    if r == 1:
        tlt = tensor(tl, dtype=res.dtype, device=res.device).clamp_min(1)
        return (res / tlt).mean()
    if r == 2:
        return res.sum()
    return res if batched else res.squeeze(0)


# ---- deprecated / in-place aliases, pdist, triplet loss with a distance function ---------

def relu_(input):
    """In-place version of :func:`relu`."""
    return relu(input, inplace=True)


def elu_(input, alpha=1.0):
    """In-place version of :func:`elu`."""
    return elu(input, alpha, inplace=True)


def selu_(input):
    """In-place version of :func:`selu`."""
    return selu(input, inplace=True)


def celu_(input, alpha=1.0):
    """In-place version of :func:`celu`."""
    return celu(input, alpha, inplace=True)


def leaky_relu_(input, negative_slope=0.01):
    """In-place version of :func:`leaky_relu`."""
    return leaky_relu(input, negative_slope, inplace=True)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    """In-place version of :func:`hardtanh`."""
    return hardtanh(input, min_val, max_val, inplace=True)


def threshold_(input, threshold, value):
    """In-place version of :func:`threshold`."""
    return _threshold(input, threshold, value, True)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """Deprecated alias of :func:`interpolate` (warns as PyTorch does)."""
    _warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    """Deprecated: ``interpolate(..., mode='nearest')`` (warns as PyTorch does)."""
    _warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
                   stacklevel=2)
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    """Deprecated: ``interpolate(..., mode='bilinear', align_corners=True)`` (warns as PyTorch does)."""
    _warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
                   stacklevel=2)
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


def pdist(input, p=2):
    """The p-norm distance between every pair of rows of ``input`` ``(N, M)``: the upper triangle
    (row-major, without the diagonal) of ``cdist(input, input)``, shape ``(N*(N-1)/2,)``
    (PdistBackward0)."""
    return _C._pdist(input, float(p))


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0, swap=False,
                                      reduction="mean"):
    """Triplet margin loss with a custom distance function (``pairwise_distance`` by default):
    ``max(d(a, p) - d(a, n) + margin, 0)``, with the distance swap when ``swap``."""
    from .. import clamp_min, minimum

    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    a_dim, p_dim, n_dim = anchor.ndim, positive.ndim, negative.ndim
    if not (a_dim == p_dim and p_dim == n_dim):
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {a_dim}D, positive {p_dim}D, and negative {n_dim}D inputs")
    if distance_function is None:
        distance_function = pairwise_distance
    dist_pos = distance_function(anchor, positive)
    dist_neg = distance_function(anchor, negative)
    if swap:
        dist_swap = distance_function(positive, negative)
        dist_neg = minimum(dist_neg, dist_swap)
    loss = clamp_min(margin + dist_pos - dist_neg, 0)
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":
        return loss.mean()
    return loss


# ---- fractional max pooling -----------------------------------------------------------

def _fractional_max_pool(input, kernel_size, output_size, samples, nd):
    name = f"fractional_max_pool{nd}d"
    pool = list(_single_or_tuple(kernel_size, nd))
    outs = list(_single_or_tuple(output_size, nd))
    if len(pool) != nd:
        raise RuntimeError(f"{name}: kernel_size must either be a single Int or tuple of {'Ints' if nd == 2 else 'three Ints'}")
    if len(outs) != nd:
        raise RuntimeError(f"{name}: output_size must either be a single Int or tuple of {'Ints' if nd == 2 else 'three Ints'}")
    # the rest of the checks (PyTorch's messages) and the pooling: ops::fractional_max_pool
    return _C._nn_fractional_max_pool(input, pool, outs, samples)


def fractional_max_pool2d_with_indices(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                                       _random_samples=None):
    """2D fractional max pooling (Graham): ``kH x kW`` windows at pseudo-random steps that reach
    ``output_size``; returns ``(output, indices)``. The steps come from ``_random_samples`` or,
    as in PyTorch, from ``rand(N, C, 2)`` on the global generator."""
    from .. import rand

    if output_size is None and output_ratio is None:
        raise ValueError("fractional_max_pool2d requires specifying either an output_size or an output_ratio")
    if output_size is None:
        if len(output_ratio) > 2:
            raise ValueError("fractional_max_pool2d requires output_ratio to either be a single Int or tuple of Ints.")
        _output_ratio = _single_or_tuple(output_ratio, 2)
        output_size = [int(input.size(-2) * _output_ratio[0]), int(input.size(-1) * _output_ratio[1])]
    if _random_samples is None:
        n_batch = 1 if input.dim() == 3 else input.size(0)
        _random_samples = rand(n_batch, input.size(-3), 2, dtype=input.dtype, device=input.device)
    return _fractional_max_pool(input, kernel_size, output_size, _random_samples, 2)


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    """Applies 2D fractional max pooling over an input signal composed of several input planes;
    with ``return_indices=True`` also the argmax indices."""
    out, idx = fractional_max_pool2d_with_indices(input, kernel_size, output_size, output_ratio, True, _random_samples)
    return (out, idx) if return_indices else out


def fractional_max_pool3d_with_indices(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                                       _random_samples=None):
    """3D fractional max pooling; returns ``(output, indices)``. The steps come from
    ``_random_samples`` or, as in PyTorch, from ``rand(N, C, 3)`` on the global generator."""
    from .. import rand

    if output_size is None and output_ratio is None:
        raise ValueError("fractional_max_pool3d requires specifying either an output_size or an output_ratio")
    if output_size is None:
        _output_ratio = _single_or_tuple(output_ratio, 3)
        output_size = [int(input.size(-3) * _output_ratio[0]), int(input.size(-2) * _output_ratio[1]),
                       int(input.size(-1) * _output_ratio[2])]
    if _random_samples is None:
        n_batch = 1 if input.dim() == 4 else input.size(0)
        _random_samples = rand(n_batch, input.size(-4), 3, dtype=input.dtype, device=input.device)
    return _fractional_max_pool(input, kernel_size, output_size, _random_samples, 3)


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    """Applies 3D fractional max pooling over an input signal composed of several input planes;
    with ``return_indices=True`` also the argmax indices."""
    out, idx = fractional_max_pool3d_with_indices(input, kernel_size, output_size, output_ratio, True, _random_samples)
    return (out, idx) if return_indices else out


# PyTorch's autocast lists (CPU and CUDA) for the functions defined here: operands cast to
# the autocast dtype (lower precision) or to float32 while autocast is on
_AUTOCAST_LOWER = {"scaled_dot_product_attention", "prelu", "linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
                   "conv_transpose2d", "conv_transpose3d"}
_AUTOCAST_FULL = {
    "cross_entropy", "nll_loss", "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "binary_cross_entropy",
    "binary_cross_entropy_with_logits", "kl_div", "soft_margin_loss", "margin_ranking_loss", "hinge_embedding_loss",
    "poisson_nll_loss", "gaussian_nll_loss", "cosine_embedding_loss", "triplet_margin_loss", "multi_margin_loss",
    "multilabel_margin_loss", "multilabel_soft_margin_loss", "ctc_loss", "grid_sample",
}


def _autocast_hook(f, full):
    """``f`` with its tensor operands cast by autocast's policy while an autocast region is
    open (a zero test otherwise)."""
    from .. import _warn
    from ..amp import autocast_mode as _am

    cast = _am._full if full else _am._lower
    is_t = _C.Tensor

    def autocast_wrapper(*args, **kwargs):
        if _am._open[0]:
            args = cast(*args) if full else tuple(cast(a)[0] if isinstance(a, is_t) else a for a in args)
            kwargs = {k: (cast(v)[0] if isinstance(v, is_t) else v) for k, v in kwargs.items()}
        return f(*args, **kwargs)

    autocast_wrapper.__name__ = autocast_wrapper.__qualname__ = f.__name__
    autocast_wrapper.__doc__ = f.__doc__
    autocast_wrapper.__wrapped__ = f
    return _warn.register_wrapper(autocast_wrapper)


def _install_vmap_hooks():
    """Every public function here hands BatchedTensor arguments (inside ``func.vmap``) to the
    batching rules (``func/_batched.py``); those on autocast's lists cast their operands
    while autocast is on."""
    from .. import _vmappable

    g = globals()
    for name in _AUTOCAST_LOWER | _AUTOCAST_FULL:
        g[name] = _autocast_hook(g[name], name in _AUTOCAST_FULL)
    for name, f in list(g.items()):
        if (name.startswith("_") or isinstance(f, type) or not callable(f)
                or getattr(f, "__module__", None) != __name__):
            continue
        g[name] = _vmappable(f, name, random=name in ("dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout",
                                                    "feature_alpha_dropout", "rrelu", "rrelu_", "gumbel_softmax",
                                                    "fractional_max_pool2d", "fractional_max_pool3d",
                                                    "fractional_max_pool2d_with_indices",
                                                    "fractional_max_pool3d_with_indices"))


_install_vmap_hooks()
