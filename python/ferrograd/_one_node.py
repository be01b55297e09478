"""A composition recorded as the one node PyTorch's kernel records.

Some ops are compositions here (3-D convolution over 2-D ones, ``dist`` over ``norm``,
``embedding_bag`` over gathers and reductions), so autograd would show the composition's last
node (``CloneBackward0``, ``LinalgVectorNormBackward0``, ...) where PyTorch shows one
(``ConvolutionBackward0``, ``DistBackward0``, ``EmbeddingBagBackward0``). ``one_node`` runs the
composition once, keeps its graph inside a custom Function named as PyTorch's node, and answers
first-order gradients through that inner graph (no recomputation); under ``create_graph`` it
re-runs the composition from the saved inputs, so higher derivatives reach them."""

_CLASSES = {}


def _node_class(name):
    from . import Tensor, enable_grad, is_grad_enabled
    from .autograd import Function, grad as _grad

    class OneNode(Function):
        @staticmethod
        def forward(ctx, fn, fields, *inputs):
            ctx.fn = fn
            leaves = [t.detach().requires_grad_(t.requires_grad) if isinstance(t, Tensor) and t.is_floating_point() or
                      isinstance(t, Tensor) and t.is_complex() else t for t in inputs]
            with enable_grad():
                out = fn(*leaves)
            ctx.inner = (out, leaves)
            ctx.save_for_backward(*[t if isinstance(t, Tensor) else None for t in inputs])
            res = out.detach()
            for k, v in fields.items():
                # "result": the output itself (a formula that saves it)
                setattr(ctx, "_saved_" + k, res if k == "result" else v)
            return res

        @staticmethod
        def backward(ctx, grad):
            saved = ctx.saved_tensors  # raises after a backward that freed them, as PyTorch's node
            out, leaves = ctx.inner
            want = [i for i, t in enumerate(leaves) if ctx.needs_input_grad[i + 2]]
            result = [None] * len(leaves)
            if not want:
                return (None, None, *result)
            if is_grad_enabled():
                # create_graph: the composition again, from the inputs themselves
                args = [saved[i] if isinstance(t, Tensor) else t for i, t in enumerate(leaves)]
                with enable_grad():
                    again = ctx.fn(*args)
                grads = _grad(again, [args[i] for i in want], grad, create_graph=True, allow_unused=True)
            else:
                grads = _grad(out, [leaves[i] for i in want], grad, retain_graph=True, allow_unused=True)
            for i, g in zip(want, grads):
                result[i] = g
            return (None, None, *result)

    OneNode._backward_cls.__name__ = OneNode._backward_cls.__qualname__ = name
    # printed as PyTorch's built-in nodes are: <ConvolutionBackward0 object at 0x...>
    OneNode._backward_cls.__module__ = "builtins"
    return OneNode


def one_node(name, fn, *inputs, fields=None):
    """``fn(*inputs)``, recorded as one node called ``name`` with ``fields`` as its
    ``_saved_*`` attributes when a floating input requires grad (else just ``fn(*inputs)``)."""
    from . import Tensor, is_grad_enabled

    if not (is_grad_enabled() and any(isinstance(t, Tensor) and t.requires_grad for t in inputs)):
        return fn(*inputs)
    cls = _CLASSES.get(name)
    if cls is None:
        cls = _CLASSES[name] = _node_class(name)
    return cls.apply(fn, fields or {}, *inputs)
