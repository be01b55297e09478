"""``torch.functional``: the functions PyTorch defines in Python at the top level
(``einsum``, ``meshgrid``, ``split``, ``norm``, ``unique``, ...), the same objects as
``torch.<name>``."""

from . import (atleast_1d, atleast_2d, atleast_3d, broadcast_shapes, broadcast_tensors,  # noqa: F401
               cartesian_prod, cdist, einsum, meshgrid, norm, split, tensordot, unique)

__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "broadcast_shapes", "broadcast_tensors",
           "cartesian_prod", "cdist", "einsum", "meshgrid", "norm", "split", "tensordot", "unique"]
