"""``torch.ops``: operator objects named as PyTorch's ATen operators.

ferrograd has no operator registry or dispatcher; these objects name its ops the way PyTorch
does (``torch.ops.aten.mm.default``), so that code comparing ops — selective activation
checkpointing policies, ``op in ops_to_save`` — runs unchanged.  An op recorded by the
autograd core is known by its backward node's name (``MmBackward0``), which ferrograd keeps
identical to PyTorch's; ``op_of_node`` maps that name to the ATen overload whose autograd
kernel creates such a node (the op PyTorch's dispatch modes see below autograd).  Calling an
overload runs the ferrograd function or Tensor method of the same name.

Objects are interned: ``torch.ops.aten.mm.default is torch.ops.aten.mm.default``.
"""

import re

__all__ = ["OpOverload", "OpOverloadPacket", "ops", "op_of_node", "overload"]

# backward node -> (op, overload) where it is not snake_case(node without "BackwardN") + default
_NODE_OPS = {
    "AddBackward0": ("add", "Tensor"), "AddBackward1": ("add", "Scalar"),
    "SubBackward0": ("sub", "Tensor"), "SubBackward1": ("sub", "Scalar"),
    "RsubBackward0": ("rsub", "Tensor"), "RsubBackward1": ("rsub", "Scalar"),
    "MulBackward0": ("mul", "Tensor"), "MulBackward1": ("mul", "Scalar"),
    "DivBackward0": ("div", "Tensor"), "DivBackward1": ("div", "Scalar"),
    "DivBackward2": ("div", "Tensor_mode"), "DivBackward3": ("div", "Scalar_mode"),
    "PowBackward0": ("pow", "Tensor_Scalar"), "PowBackward1": ("pow", "Tensor_Tensor"),
    "PowBackward2": ("pow", "Scalar"),
    "SumBackward0": ("sum", "default"), "SumBackward1": ("sum", "dim_IntList"),
    "MeanBackward0": ("mean", "default"), "MeanBackward1": ("mean", "dim"),
    "ProdBackward0": ("prod", "default"), "ProdBackward1": ("prod", "dim_int"),
    "MaxBackward0": ("max", "dim"), "MaxBackward1": ("max", "default"),
    "MinBackward0": ("min", "dim"), "MinBackward1": ("min", "default"),
    "AmaxBackward0": ("amax", "default"), "AminBackward0": ("amin", "default"),
    "StdBackward0": ("std", "correction"), "VarBackward0": ("var", "correction"),
    "TransposeBackward0": ("transpose", "int"), "SelectBackward0": ("select", "int"),
    "SliceBackward0": ("slice", "Tensor"), "SqueezeBackward0": ("squeeze", "default"),
    "SqueezeBackward1": ("squeeze", "dim"), "SqueezeBackward2": ("squeeze", "dims"),
    "UnbindBackward0": ("unbind", "int"), "SplitBackward0": ("split", "Tensor"),
    "SplitWithSizesBackward0": ("split_with_sizes", "default"),
    "UnsafeViewBackward0": ("_unsafe_view", "default"), "ToCopyBackward0": ("_to_copy", "default"),
    "SoftmaxBackward0": ("_softmax", "default"), "LogSoftmaxBackward0": ("_log_softmax", "default"),
    "NllLossBackward0": ("nll_loss_forward", "default"),
    "NllLoss2DBackward0": ("nll_loss2d_forward", "default"),
    "IndexBackward0": ("index", "Tensor"), "IndexPutBackward0": ("index_put", "default"),
    "WhereBackward0": ("where", "self"), "ClampBackward0": ("clamp", "Tensor"),
    "ClampBackward1": ("clamp", "default"), "ClampMinBackward0": ("clamp_min", "default"),
    "ClampMaxBackward0": ("clamp_max", "default"),
    "MaskedFillBackward0": ("masked_fill", "Scalar"), "MaskedFillBackward1": ("masked_fill", "Tensor"),
    "MaxPool2DWithIndicesBackward0": ("max_pool2d_with_indices", "default"),
    "MaxPool3DWithIndicesBackward0": ("max_pool3d_with_indices", "default"),
    "AvgPool2DBackward0": ("avg_pool2d", "default"), "AvgPool3DBackward0": ("avg_pool3d", "default"),
    "AdaptiveAvgPool2DBackward0": ("_adaptive_avg_pool2d", "default"),
    "NormBackward1": ("norm", "ScalarOpt_dim"), "LinalgVectorNormBackward0": ("linalg_vector_norm", "default"),
    "CumsumBackward0": ("cumsum", "default"), "CumprodBackward0": ("cumprod", "default"),
    "TopkBackward0": ("topk", "default"), "SortBackward0": ("sort", "default"),
    "KthvalueBackward0": ("kthvalue", "default"), "ScatterBackward0": ("scatter", "src"),
    "ScatterBackward1": ("scatter", "value"), "ScatterAddBackward0": ("scatter_add", "default"),
    "IndexSelectBackward0": ("index_select", "default"), "FlipBackward0": ("flip", "default"),
    "RollBackward0": ("roll", "default"), "LerpBackward0": ("lerp", "Scalar"),
    "LerpBackward1": ("lerp", "Tensor"), "Atan2Backward0": ("atan2", "default"),
    "RemainderBackward0": ("remainder", "Scalar"), "RemainderBackward1": ("remainder", "Tensor"),
    "FmodBackward0": ("fmod", "Scalar"), "FmodBackward1": ("fmod", "Tensor"),
    "LeakyReluBackward0": ("leaky_relu", "default"), "LogSigmoidBackward0": ("log_sigmoid_forward", "default"),
    "Log1PBackward0": ("log1p", "default"), "Expm1Backward0": ("expm1", "default"), "NativeDropoutBackward0": ("native_dropout", "default"),
    "ConvolutionBackward0": ("convolution", "default"),
    "NativeLayerNormBackward0": ("native_layer_norm", "default"),
    "NativeBatchNormBackward0": ("native_batch_norm", "default"),
    "NativeGroupNormBackward0": ("native_group_norm", "default"),
    "EmbeddingBackward0": ("embedding", "default"),
    "BinaryCrossEntropyBackward0": ("binary_cross_entropy", "default"),
    "BinaryCrossEntropyWithLogitsBackward0": ("binary_cross_entropy_with_logits", "default"),
    "UpsampleNearest2DBackward0": ("upsample_nearest2d", "default"),
    "UpsampleBilinear2DBackward0": ("upsample_bilinear2d", "default"),
    "ConstantPadNdBackward0": ("constant_pad_nd", "default"),
    "ReflectionPad2DBackward0": ("reflection_pad2d", "default"),
    "ReplicationPad2DBackward0": ("replication_pad2d", "default"),
}

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_BUILTIN_NODE = re.compile(r"^([A-Za-z0-9]+?)Backward(\d+)$")


class OpOverload:
    """One overload of an operator (``torch.ops.aten.mm.default``)."""

    __slots__ = ("_overloadpacket", "_overloadname", "__name__", "__weakref__")

    def __init__(self, packet, overload):
        self._overloadpacket = packet
        self._overloadname = overload
        self.__name__ = f"{packet.__name__}.{overload}"

    @property
    def overloadpacket(self):
        return self._overloadpacket

    def name(self):
        """The qualified name (``aten::mm``; ``aten::add.Tensor`` for a named overload)."""
        base = self._overloadpacket._qualified_op_name
        return base if self._overloadname == "default" else f"{base}.{self._overloadname}"

    @property
    def namespace(self):
        return self._overloadpacket._ns

    def __repr__(self):
        p = self._overloadpacket
        return f"<OpOverload(op='{p._ns}.{p.__name__}', overload='{self._overloadname}')>"

    def __str__(self):
        return f"{self._overloadpacket}.{self._overloadname}"

    def __call__(self, *args, **kwargs):
        return self._overloadpacket(*args, **kwargs)


class OpOverloadPacket:
    """An operator with all its overloads (``torch.ops.aten.mm``)."""

    __slots__ = ("_ns", "__name__", "_qualified_op_name", "_overloads", "_known", "__weakref__")

    def __init__(self, ns, name, known):
        self._ns = ns
        self.__name__ = name
        self._qualified_op_name = f"{ns}::{name}"
        self._overloads = {}
        self._known = known

    def __getattr__(self, overload):
        if overload.startswith("__"):
            raise AttributeError(overload)
        o = self._overloads.get(overload)
        if o is None:
            if overload not in self._known:
                raise AttributeError(f"The underlying op of '{self}' has no overload name '{overload}'")
            o = self._overloads[overload] = OpOverload(self, overload)
        return o

    def overloads(self):
        return sorted(self._known)

    def __repr__(self):
        return f"<OpOverloadPacket(op='{self._ns}.{self.__name__}')>"

    def __str__(self):
        return f"{self._ns}.{self.__name__}"

    def __call__(self, *args, **kwargs):
        import ferrograd

        name = self.__name__.lstrip("_")
        fn = getattr(ferrograd, name, None)
        if fn is None and args and isinstance(args[0], ferrograd.Tensor):
            fn = getattr(type(args[0]), name, None)
        if fn is None:
            raise NotImplementedError(f"{self}: ferrograd has no function to run this operator")
        return fn(*args, **kwargs)


def _known_overloads():
    table = {}
    for op, overload in _NODE_OPS.values():
        table.setdefault(op, set()).add(overload)
    return table


class _OpNamespace:
    """``torch.ops.<namespace>``: its operators by name."""

    def __init__(self, name, known):
        self.name = name
        self._packets = {}
        self._known = known

    def __getattr__(self, op):
        if op.startswith("__"):
            raise AttributeError(op)
        p = self._packets.get(op)
        if p is None:
            if not self._knows(op):
                raise AttributeError(f"'_OpNamespace' '{self.name}' object has no attribute '{op}'")
            p = self._packets[op] = OpOverloadPacket(self.name, op, self._known.get(op, {"default"}))
        return p

    def _knows(self, op):
        if op in self._known:
            return True
        import ferrograd

        # the ops ferrograd has as functions or Tensor methods, and the backward kernels of
        # its double-backward nodes (``tanh_backward``)
        return (self.name == "aten" and (hasattr(ferrograd, op.lstrip("_")) or hasattr(ferrograd.Tensor, op)
                                          or op.endswith("_backward")))

    def __repr__(self):
        return f"<module 'torch.ops.{self.name}'>"


class _Ops:
    """``torch.ops``: ``aten`` and ``prim`` operator namespaces."""

    def __init__(self):
        known = _known_overloads()
        self.aten = _OpNamespace("aten", known)
        self.prim = _OpNamespace("prim", {"device": {"default"}})

    def __getattr__(self, ns):
        if ns.startswith("__"):
            raise AttributeError(ns)
        raise AttributeError(f"'_Ops' object has no attribute '{ns}'")


ops = _Ops()

_node_cache = {}


def overload(ns, name, overload_name):
    """The interned ``torch.ops.<ns>.<name>.<overload_name>``, registered if unknown."""
    space = getattr(ops, ns)
    packet = space._packets.get(name)
    if packet is None:
        packet = space._packets[name] = OpOverloadPacket(ns, name, set(space._known.get(name, {"default"})))
    packet._known.add(overload_name)
    return getattr(packet, overload_name)


def op_of_node(name, in_place=False):
    """The ATen overload whose autograd kernel records a node named ``name`` (``MmBackward0``
    -> ``aten.mm.default``; ``in_place``: the in-place form, ``aten.mul_.Tensor``); None for
    nodes that are not an operator's (custom Functions, ``CopySlices``, ``AccumulateGrad``)."""
    key = (name, in_place)
    op = _node_cache.get(key)
    if op is None and key not in _node_cache:
        pair = _NODE_OPS.get(name)
        if pair is None:
            m = _BUILTIN_NODE.match(name)
            if m is not None:
                pair = (_CAMEL.sub("_", m.group(1)).lower(), "default")
        if pair is not None:
            op = overload("aten", pair[0] + "_" if in_place else pair[0], pair[1])
        _node_cache[key] = op
    return op
