"""SparseAdam, as ``torch.optim.SparseAdam``: the masked Adam for sparse gradients.

ferrograd has no sparse tensors, so no gradient is ever sparse: the constructor validates its
arguments as PyTorch does, and ``step`` raises PyTorch's error for the dense gradients it meets
("SparseAdam does not support dense gradients, please consider Adam instead").
"""

import ferrograd as torch

from .optimizer import Optimizer

__all__ = ["SparseAdam"]


class SparseAdam(Optimizer):
    r"""Implements a masked version of Adam for sparse gradients (``torch.optim.SparseAdam``).

    ferrograd has no sparse gradients (``nn.Embedding(sparse=True)`` is not available), so a
    ``step`` with any gradient raises PyTorch's ``RuntimeError`` for dense gradients; use
    :class:`~ferrograd.optim.Adam` instead.

    Args:
        params (iterable): parameters or named parameters to optimize, or parameter groups
        lr (float, Tensor, optional): learning rate (default: 1e-3)
        betas (Tuple[float, float], optional): running-average coefficients (default: (0.9, 0.999))
        eps (float, optional): term added to the denominator (default: 1e-8)
        maximize (bool, optional): maximize the objective instead of minimizing (default: False)
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, maximize=False):
        if isinstance(lr, torch.Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 < lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        defaults = {"lr": lr, "betas": betas, "eps": eps, "maximize": maximize}
        super().__init__(params, defaults)

        sparse_params = []
        complex_params = []
        for index, param_group in enumerate(self.param_groups):
            if not isinstance(param_group, dict):
                raise AssertionError(
                    f"param_groups must be a list of dicts, but got {type(param_group)}"
                )
            for d_index, d_param in enumerate(param_group["params"]):
                if d_param.is_sparse:
                    sparse_params.append([index, d_index])
                if d_param.is_complex():
                    complex_params.append([index, d_index])
        if sparse_params:
            raise ValueError(
                f"Sparse params at indices {sparse_params}: SparseAdam requires dense parameter tensors"
            )
        if complex_params:
            raise ValueError(
                f"Complex params at indices {complex_params}: SparseAdam does not support complex parameters"
            )

    def step(self, closure=None):
        """Perform a single optimization step (always an error in ferrograd, whose gradients
        are dense).

        Args:
            closure (Callable, optional): A closure that reevaluates the model and returns the loss.
        """
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                if not p.grad.is_sparse:
                    raise RuntimeError(
                        "SparseAdam does not support dense gradients, please consider Adam instead"
                    )
                raise NotImplementedError("ferrograd has no sparse gradients for SparseAdam")
        return loss
