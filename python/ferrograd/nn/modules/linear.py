"""Identity and Linear."""

import math

from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["Identity", "Linear"]


class Identity(Module):
    """Returns its input; accepts (and ignores, as torch's does by design) any arguments, so it
    can stand in for another layer."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    """``y = x Wᵀ + b`` with PyTorch's default (Kaiming-uniform) initialisation."""

    __constants__ = ["in_features", "out_features"]

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        from ... import empty

        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(empty((out_features, in_features), **factory_kwargs))
        if bias:
            self.bias = Parameter(empty(out_features, **factory_kwargs))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        """Weight from kaiming_uniform_(a=sqrt(5)) (U(-1/sqrt(in), 1/sqrt(in))), bias from
        U(-1/sqrt(in), 1/sqrt(in)); drawn in that order."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class NonDynamicallyQuantizableLinear(Linear):
    """The Linear that MultiheadAttention uses for ``out_proj`` (torch names it so that dynamic
    quantization leaves it alone); otherwise a plain Linear."""

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__(in_features, out_features, bias=bias, device=device, dtype=dtype)
