"""Helpers of ``torch.distributions``: broadcasting parameters, probabilities to logits and
back, clamping probabilities away from 0 and 1."""

import numbers

__all__ = ["broadcast_all", "probs_to_logits", "logits_to_probs", "clamp_probs", "lazy_property"]


def _torch():
    import ferrograd

    return ferrograd


def broadcast_all(*values):
    """Numbers and tensors broadcast to one shape (numbers become tensors of the default dtype,
    or of the tensors' dtype)."""
    t = _torch()
    if not all(isinstance(v, (t.Tensor, numbers.Number)) for v in values):
        raise ValueError("Input arguments must all be instances of numbers.Number, torch.Tensor or objects "
                         "implementing __torch_function__.")
    if not all(isinstance(v, t.Tensor) for v in values):
        like = next((v for v in values if isinstance(v, t.Tensor)), None)
        opts = {"dtype": like.dtype, "device": like.device} if like is not None else {"dtype": t.get_default_dtype()}
        values = [v if isinstance(v, t.Tensor) else t.tensor(v, **opts) for v in values]
    return t.broadcast_tensors(*values)


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
