"""Autograd Functions used by the nn modules."""

from ...autograd.function import Function


class BackwardHookFunction(Function):
    """Identity on its tensor arguments; its node (``BackwardHookFunctionBackward``) is where a
    module's full backward hooks attach. Inputs that do not require grad come out
    non-differentiable."""

    @staticmethod
    def forward(ctx, *args):
        # torch returns the inputs themselves and its Function machinery turns them into
        # aliases; make the aliases explicit (same result: new tensor objects over the same data)
        outs = tuple(a.view_as(a) for a in args)
        ctx.mark_non_differentiable(*[o for a, o in zip(args, outs) if not a.requires_grad])
        return outs

    @staticmethod
    def backward(ctx, *args):
        return args
