"""Flatten and Unflatten."""

from .module import Module

__all__ = ["Flatten", "Unflatten"]


class Flatten(Module):
    __constants__ = ["start_dim", "end_dim"]

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    __constants__ = ["dim", "unflattened_size"]

    def __init__(self, dim, unflattened_size):
        super().__init__()
        if isinstance(dim, int):
            if not isinstance(unflattened_size, (tuple, list)):
                raise TypeError("unflattened_size must be tuple of ints, but found type {}".format(type(unflattened_size).__name__))
        elif isinstance(dim, str):
            raise TypeError("named tensors (str dim) are not supported by ferrograd")
        else:
            raise TypeError("invalid argument type for dim parameter")
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input):
        if hasattr(input, "unflatten"):
            return input.unflatten(self.dim, self.unflattened_size)
        shape = list(input.shape)
        d = self.dim + len(shape) if self.dim < 0 else self.dim
        sizes = list(self.unflattened_size)
        known = 1
        for s in sizes:
            if s != -1:
                known *= s
        if -1 in sizes:
            sizes[sizes.index(-1)] = shape[d] // known if known else 0
        prod = 1
        for s in sizes:
            prod *= s
        if prod != shape[d]:
            raise RuntimeError(f"unflatten: Provided sizes {list(self.unflattened_size)} don't multiply up to the size of dim {self.dim} ({shape[d]}) in the input tensor")
        return input.view(*(shape[:d] + sizes + shape[d + 1:]))

    def extra_repr(self):
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
