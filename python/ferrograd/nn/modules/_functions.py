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


def _lrn_windows(channels, size):
    """The channel windows of torch's legacy CrossMapLRN2d Function, as 0/1 matrices: ``fwd[c]``
    the channels summed into channel ``c``'s scale (a running window that, as torch's loop,
    never drops channel 0), ``bwd[c]`` the channels whose ratios torch's backward accumulates."""
    pre_pad = int((size - 1) / 2 + 1)
    fwd = [[0.0] * channels for _ in range(channels)]
    cur = [0.0] * channels
    for c in range(min(pre_pad, channels)):
        cur[c] += 1.0
    fwd[0] = list(cur)
    for c in range(1, channels):
        if c < channels - pre_pad + 1:
            cur[c + pre_pad - 1] += 1.0
        if c > pre_pad:
            cur[c - pre_pad] -= 1.0
        fwd[c] = list(cur)
    inverse_pre_pad = int(size - (size - 1) / 2)
    bwd = [[1.0 if 0 <= j + inverse_pre_pad - c <= size - 1 else 0.0 for j in range(channels)]
           for c in range(channels)]
    return fwd, bwd


class CrossMapLRN2d(Function):
    """torch's legacy cross-channel LRN over 4-D input, forward and (hand-written) backward as
    torch computes them: ``scale = k + alpha / size · (sum of x² over the channel window)``,
    ``y = x · scale^-beta``."""

    @staticmethod
    def forward(ctx, input, size, alpha=1e-4, beta=0.75, k=1):
        from ... import tensor

        if input.dim() != 4:
            raise ValueError(f"CrossMapLRN2d: Expected input to be 4D, got {input.dim()}D instead.")
        n, c, h, w = input.shape
        fwd, bwd = _lrn_windows(c, size)
        fwd = tensor(fwd, dtype=input.dtype, device=input.device)
        sq = input.pow(2).reshape(n, c, h * w)
        scale = (fwd @ sq).reshape(n, c, h, w).mul_(alpha / size).add_(k)
        output = scale.pow(-beta).mul_(input)
        ctx.size, ctx.alpha, ctx.beta, ctx.k = size, alpha, beta, k
        ctx.bwd = tensor(bwd, dtype=input.dtype, device=input.device)
        ctx.save_for_backward(input, output, scale)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        input, output, scale = ctx.saved_tensors
        n, c, h, w = input.shape
        inverse_pre_pad = int(ctx.size - (ctx.size - 1) / 2)
        if inverse_pre_pad + c > c + ctx.size - 1:
            # torch narrows its padded ratio buffer here (size 1 has no room)
            raise RuntimeError(f"start ({inverse_pre_pad}) + length ({c}) exceeds dimension size ({c + ctx.size - 1}).")
        ratio = (grad_output * output / scale).reshape(n, c, h * w)
        accum = (ctx.bwd @ ratio).reshape(n, c, h, w)
        grad_input = scale.pow(-ctx.beta) * grad_output - (2 * ctx.alpha * ctx.beta / ctx.size) * input * accum
        return grad_input, None, None, None, None
