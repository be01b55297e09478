"""Helpers of ``torch.distributions``: broadcasting parameters, probabilities to logits and
back, clamping probabilities away from 0 and 1."""

import numbers

__all__ = ["broadcast_all", "logits_to_probs", "clamp_probs", "probs_to_logits", "lazy_property", "tril_matrix_to_vec",
           "vec_to_tril_matrix"]

euler_constant = 0.57721566490153286060  # Euler Mascheroni Constant


def _torch():
    import ferrograd

    return ferrograd


def broadcast_all(*values):
    """Numbers and tensors broadcast to one shape (numbers become tensors of the default dtype,
    or of the tensors' dtype)."""
    t = _torch()
    if not all(isinstance(v, (t.Tensor, numbers.Number)) for v in values):
        raise ValueError("Input arguments must all be instances of Number, torch.Tensor or objects "
                         "implementing __torch_function__.")
    if not all(isinstance(v, t.Tensor) for v in values):
        like = next((v for v in values if isinstance(v, t.Tensor)), None)
        opts = {"dtype": like.dtype, "device": like.device} if like is not None else {"dtype": t.get_default_dtype()}
        values = [v if isinstance(v, t.Tensor) else t.tensor(v, **opts) for v in values]
    return t.broadcast_tensors(*values)


def _standard_normal(shape, dtype, device):
    """Standard normal draws of ``shape`` (``empty(...).normal_()``, PyTorch's stream)."""
    return _torch().empty(shape, dtype=dtype, device=device).normal_()


def _sum_rightmost(value, dim):
    """``value`` summed over its ``dim`` rightmost dimensions."""
    if dim == 0:
        return value
    required_shape = tuple(value.shape[:value.dim() - dim]) + (-1,)
    return value.reshape(required_shape).sum(-1)


def clamp_probs(probs):
    """``probs`` clamped to ``[eps, 1 - eps]`` (eps of its dtype)."""
    eps = _torch().finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs, is_binary=False):
    """Log-odds (binary) or log-probabilities of clamped ``probs``."""
    ps_clamped = clamp_probs(probs)
    if is_binary:
        return ps_clamped.log() - (-ps_clamped).log1p()
    return ps_clamped.log()


def logits_to_probs(logits, is_binary=False):
    """Sigmoid (binary) or softmax over the last dimension."""
    if is_binary:
        return logits.sigmoid()
    return logits.softmax(-1)


class lazy_property:
    """A property computed on first access and then stored on the instance."""

    def __init__(self, wrapped):
        self.wrapped = wrapped
        self.__doc__ = wrapped.__doc__

    def __get__(self, instance, obj_type=None):
        if instance is None:
            return self
        from .. import enable_grad

        with enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


def tril_matrix_to_vec(mat, diag=0):
    """The lower triangle (below diagonal ``diag``) of the last two dimensions, row by row."""
    t = _torch()
    n = mat.shape[-1]
    if diag < -n or diag >= n:
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    arange = t.arange(n, device=mat.device)
    tril_mask = arange < arange.view(-1, 1) + (diag + 1)
    return mat[..., tril_mask]


def vec_to_tril_matrix(vec, diag=0):
    """The square lower-triangular matrices whose triangle (below diagonal ``diag``) is ``vec``."""
    t = _torch()
    n = (-(1 + 2 * diag) + ((1 + 2 * diag) ** 2 + 8 * vec.shape[-1] + 4 * abs(diag) * (diag + 1)) ** 0.5) / 2
    eps = t.finfo(vec.dtype).eps
    if round(n) - n > eps:
        raise ValueError(f"The size of last dimension is {vec.shape[-1]} which cannot be expressed as "
                         "the lower triangular part of a square D x D matrix.")
    n = round(n)
    mat = vec.new_zeros(tuple(vec.shape[:-1]) + (n, n))
    arange = t.arange(n, device=vec.device)
    tril_mask = arange < arange.view(-1, 1) + (diag + 1)
    mat[..., tril_mask] = vec
    return mat


def _xlogy_function():
    from ..autograd import Function

    class _XLogY(Function):
        """``xlogy(x, y)`` with PyTorch's gradients: ``grad * log y`` for ``x`` (0 where
        ``x == 0`` and ``y <= 0``) and ``grad * x / y`` for ``y``."""

        @staticmethod
        def forward(ctx, x, y):
            """``x * log(y)``, 0 where ``x == 0``."""
            ctx.save_for_backward(x, y)
            return _torch().xlogy(x, y)

        @staticmethod
        def backward(ctx, grad_output):
            """The gradients PyTorch's ``xlogy`` backward gives."""
            t = _torch()
            x, y = ctx.saved_tensors
            gx = gy = None
            if ctx.needs_input_grad[0]:
                gx = t.xlogy(grad_output, y).masked_fill((x == 0) & (y <= 0), 0.0)
                gx = _reduce_to(gx, x.shape)
            if ctx.needs_input_grad[1]:
                gy = _reduce_to(grad_output * x / y, y.shape)
            return gx, gy

    return _XLogY


def _reduce_to(grad, shape):
    """``grad`` summed down to ``shape`` (undoing broadcasting)."""
    shape = tuple(shape)
    while grad.dim() > len(shape):
        grad = grad.sum(0)
    for i, n in enumerate(shape):
        if n == 1 and grad.shape[i] != 1:
            grad = grad.sum(i, keepdim=True)
    return grad


_XLOGY = None


def _xlogy(x, y):
    """``torch.xlogy`` whose gradient in ``x`` is ``log y`` also where ``x == 0`` (0 only where
    also ``y <= 0``), as PyTorch's; ferrograd's core op gives 0 wherever ``x == 0``."""
    global _XLOGY
    t = _torch()
    if not isinstance(x, t.Tensor) or not isinstance(y, t.Tensor):
        return t.xlogy(x, y)
    if _XLOGY is None:
        _XLOGY = _xlogy_function()
    return _XLOGY.apply(x, y)


class _CountAndProbs:
    """The ``total_count`` plus ``probs`` or ``logits`` parameters Binomial and
    NegativeBinomial share: set them (broadcast, the count in the probabilities' dtype) and
    expand them."""

    def _init_count_params(self, total_count, probs, logits):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            self.total_count, self.probs = broadcast_all(total_count, probs)
            self.total_count = self.total_count.type_as(self.probs)
        else:
            self.total_count, self.logits = broadcast_all(total_count, logits)
            self.total_count = self.total_count.type_as(self.logits)
        self._param = self.probs if probs is not None else self.logits
        return self._param.size()

    def _expand_count_params(self, new, batch_shape):
        new.total_count = self.total_count.expand(batch_shape)
        _expand_probs_or_logits(self, new, batch_shape)

    def _new(self, *args, **kwargs):
        return self._param.new(*args, **kwargs)


def _expand_probs_or_logits(dist, new, shape):
    """``new``'s ``probs`` / ``logits`` (whichever ``dist`` has computed) expanded to ``shape``,
    and ``_param`` the last of them (as PyTorch's ``expand`` of the probs/logits families)."""
    if "probs" in dist.__dict__:
        new.probs = dist.probs.expand(shape)
        new._param = new.probs
    if "logits" in dist.__dict__:
        new.logits = dist.logits.expand(shape)
        new._param = new.logits
