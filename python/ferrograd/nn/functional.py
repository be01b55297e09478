"""Functional forms of the nn ops."""


def linear(x, weight, bias=None):
    y = x.matmul(weight.t())
    return y + bias if bias is not None else y


def relu(x, inplace=False):
    return x.relu_() if inplace else x.relu()


def sigmoid(x):
    return x.sigmoid()


def tanh(x):
    return x.tanh()


def _get_softmax_dim(name, ndim, stacklevel):
    # torch's legacy implicit dim (deprecated, with its warning): 0 for 0-, 1- and 3-d inputs
    import warnings

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


def _reduce(loss, reduction):
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    if reduction == "none":
        return loss
    raise ValueError(f"{reduction} is not a valid value for reduction")


def nll_loss(logp, target, reduction="mean"):
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if target.dim() > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if target.is_floating_point():
        raise RuntimeError(f"expected scalar type Long but found {_scalar_name(target.dtype)}")
    picked = logp.gather(1, target.unsqueeze(1)).squeeze(1)
    return _reduce(-picked, reduction)


def _scalar_name(dt):
    return {"float32": "Float", "float64": "Double", "float16": "Half"}.get(str(dt).split(".")[-1], str(dt))


def cross_entropy(input, target, reduction="mean"):
    """Class indices (int64) or class probabilities (a float target of the input's shape)."""
    if target.is_floating_point() and tuple(target.shape) == tuple(input.shape):
        loss = -(target * input.log_softmax(1)).sum(1)
        return _reduce(loss, reduction)
    return nll_loss(input.log_softmax(1), target, reduction)


def mse_loss(input, target, reduction="mean"):
    d = (input - target) ** 2
    if reduction == "mean":
        return d.mean()
    if reduction == "sum":
        return d.sum()
    return d
