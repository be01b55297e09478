"""A small ``nn``: Parameter, Module, Linear, activations, Sequential, losses."""

import math

from .. import Tensor, _C
from . import functional  # noqa: F401
from . import init  # noqa: F401


class Parameter(Tensor):
    """A tensor that is a module parameter (requires grad by default)."""

    def __new__(cls, data=None, requires_grad=True):
        from .. import empty

        if data is None:
            data = empty(0)
        t = Tensor.__new__(cls, _alias=data)
        t._register()
        if requires_grad:
            t.requires_grad_(True)
        return t

    def __init__(self, data=None, requires_grad=True):
        pass

    def __repr__(self):
        return "Parameter containing:\n" + Tensor.__repr__(self)

    def __reduce_ex__(self, proto):
        rebuild, args = Tensor.__reduce_ex__(self, proto)
        return (_rebuild_parameter, (rebuild(*args[:3], False), self.requires_grad))

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        from .. import no_grad

        with no_grad():
            new = Parameter(self.clone(), self.requires_grad)
        memo[id(self)] = new
        return new


def _rebuild_parameter(data, requires_grad):
    return Parameter(data, requires_grad)


class Module:
    """Base class: parameters and submodules are found by attribute."""

    def __init__(self):
        object.__setattr__(self, "_modules", {})
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "training", True)

    def __setattr__(self, name, value):
        if isinstance(value, Parameter):
            self._parameters[name] = value
        elif isinstance(value, Module):
            self._modules[name] = value
        object.__setattr__(self, name, value)

    def forward(self, *args, **kwargs):
        raise NotImplementedError

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def named_parameters(self, prefix=""):
        for n, p in self._parameters.items():
            yield prefix + n, p
        for mn, m in self._modules.items():
            yield from m.named_parameters(prefix + mn + ".")

    def parameters(self):
        for _, p in self.named_parameters():
            yield p

    def children(self):
        return iter(self._modules.values())

    def train(self, mode=True):
        self.training = mode
        for m in self._modules.values():
            m.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def zero_grad(self, set_to_none=True):
        for p in self.parameters():
            p.grad = None

    def _apply(self, fn):
        """Replace every parameter's data (and gradient) by ``fn`` of it, keeping the
        Parameter objects (as PyTorch's ``Module._apply``)."""
        from .. import no_grad

        for m in self._modules.values():
            m._apply(fn)
        for p in self._parameters.values():
            if p is None:
                continue
            with no_grad():
                p.data = fn(p)
                if p.grad is not None:
                    g = fn(p.grad)
                    p.grad = None
                    p.grad = g
        return self

    def to(self, *args, **kwargs):
        """``module.to(device)``, ``module.to(dtype)``, ``module.to(device, dtype)``,
        ``module.to(tensor)``: floating parameters take the dtype, all take the device."""
        from .. import _to_args

        dev, dt = _to_args(args, kwargs)
        if dt is not None and not dt.is_floating_point:
            raise TypeError(f"nn.Module.to only accepts floating point or complex dtypes, but got desired dtype={dt}")

        def convert(t):
            if dev is not None:
                t = t.to(dev)
            if dt is not None and t.is_floating_point():
                t = t.to(dt)
            return t

        return self._apply(convert)

    def cuda(self, device=None):
        return self._apply(lambda t: t.cuda(device))

    def cpu(self):
        return self._apply(lambda t: t.cpu())

    def float(self):
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self):
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self):
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def state_dict(self):
        return {n: p.detach().clone() for n, p in self.named_parameters()}


class Linear(Module):
    """``y = x Wᵀ + b`` with PyTorch's default (Kaiming-uniform) initialisation."""

    def __init__(self, in_features, out_features, bias=True):
        super().__init__()
        from .. import rand

        self.in_features, self.out_features = in_features, out_features
        bound = 1.0 / math.sqrt(in_features) if in_features > 0 else 0.0
        self.weight = Parameter(rand(out_features, in_features) * (2 * bound) - bound)
        self.bias = Parameter(rand(out_features) * (2 * bound) - bound) if bias else None

    def forward(self, x):
        return functional.linear(x, self.weight, self.bias)

    def __repr__(self):
        return f"Linear(in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None})"


class ReLU(Module):
    def forward(self, x):
        return x.relu()


class Tanh(Module):
    def forward(self, x):
        return x.tanh()


class Sigmoid(Module):
    def forward(self, x):
        return x.sigmoid()


class Sequential(Module):
    def __init__(self, *mods):
        super().__init__()
        for i, m in enumerate(mods):
            setattr(self, str(i), m)

    def forward(self, x):
        for m in self._modules.values():
            x = m(x)
        return x


class CrossEntropyLoss(Module):
    def forward(self, input, target):
        return functional.cross_entropy(input, target)


class MSELoss(Module):
    def forward(self, input, target):
        return functional.mse_loss(input, target)
