"""The one interpreter of fuzz programs, shared by the recorder (run on PyTorch) and the
replay tests (run on ferrograd). It never imports either library: callers pass the module.

A program is small JSON::

    {"id": "binary-000042",
     "inputs": [{"shape": [2, 3], "dtype": "float32", "data": [...], "rg": true,
                 "layout": "contig"}],
     "steps": [{"k": "call", "f": "add", "a": [{"r": 0}, 2.5], "kw": {"alpha": 2}}, ...]}

Registers: the inputs are registers ``0..n-1``; every step appends its result. A step is

* ``{"k": "call", "f": "nn.functional.softmax", "a": [...], "kw": {...}}`` -- ``lib.<f>(...)``
* ``{"k": "meth", "s": ARG, "m": "add_", "a": [...], "kw": {...}}`` -- ``s.<m>(...)``
* ``{"k": "op", "f": "getitem", "a": [...]}`` -- ``operator.<f>(...)`` (``x[i]``, ``x @ y``,
  ``x += y``, ``x[i] = v`` ...)
* ``{"k": "attr", "s": ARG, "m": "mT"}`` -- ``s.<m>``

Arguments are JSON values with these tagged objects: ``{"r": i}`` register ``i`` (``"i": k``
picks element ``k`` of a tuple result), ``{"dt": "int64"}`` a dtype, ``{"sl": [a, b, c]}`` a
slice, ``{"E": 1}`` Ellipsis, ``{"tup": [...]}`` a tuple, ``{"t": SPEC}`` an inline constant
tensor (same SPEC as an input, never requiring grad).

Input layouts make non-contiguous leaves: ``contig``; ``t`` (stored with the last two dims
swapped, then transposed back); ``step`` (stored with the last dim doubled, then ``[..., ::2]``);
``expand:D`` (stored with size 1 at dim D, then expanded). A leaf that requires grad is
``detach().requires_grad_()`` of that view, so it keeps the strides.

``run(prog, lib)`` executes a program and returns its record: every step's result (values,
dtype, shape, grad_fn name, requires_grad), or the exception of the step that raised; then the
gradients of the inputs of a fixed weighted sum of every floating step result that requires
grad (weights from :func:`weights`), or the exception backward raised.
"""

import math
import operator

import numpy as np

FLOAT_DTYPES = ("float16", "float32", "float64")
ROUND_DIGITS = {"float64": 15}


def stored_shape(shape, layout):
    shape = list(shape)
    if layout == "t":
        shape[-1], shape[-2] = shape[-2], shape[-1]
    elif layout == "step":
        shape[-1] = shape[-1] * 2
    elif layout.startswith("expand:"):
        shape[int(layout.split(":")[1])] = 1
    return shape


def make_tensor(spec, lib, inline=False):
    """The tensor an input SPEC describes (a leaf when it requires grad)."""
    dt = getattr(lib, spec["dtype"])
    layout = spec.get("layout", "contig")
    shape = tuple(spec["shape"])
    base = lib.tensor(spec["data"], dtype=dt).reshape(tuple(stored_shape(shape, layout)))
    if layout == "contig":
        t = base
    elif layout == "t":
        t = base.transpose(-1, -2)
    elif layout == "step":
        t = base[..., ::2]
    elif layout.startswith("expand:"):
        t = base.expand(*shape)
    else:
        raise ValueError(f"unknown layout {layout!r}")
    if spec.get("rg") and not inline:
        t = t.detach().requires_grad_(True)
    return t


def resolve(lib, dotted):
    obj = lib
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return obj


class Interp:
    """Executes steps one by one against ``lib``; ``regs`` holds the registers."""

    def __init__(self, lib, inputs):
        self.lib = lib
        self.regs = [make_tensor(spec, lib) for spec in inputs]
        self.n_inputs = len(self.regs)

    def arg(self, a):
        if isinstance(a, list):
            return [self.arg(x) for x in a]
        if isinstance(a, dict):
            if "r" in a:
                v = self.regs[a["r"]]
                return v[a["i"]] if "i" in a else v
            if "dt" in a:
                return getattr(self.lib, a["dt"])
            if "sl" in a:
                return slice(*a["sl"])
            if "E" in a:
                return Ellipsis
            if "tup" in a:
                return tuple(self.arg(x) for x in a["tup"])
            if "t" in a:
                return make_tensor(a["t"], self.lib, inline=True)
            raise ValueError(f"unknown argument tag {a!r}")
        return a

    def step(self, st):
        args = [self.arg(x) for x in st.get("a", [])]
        kw = {k: self.arg(v) for k, v in st.get("kw", {}).items()}
        kind = st["k"]
        if kind == "call":
            out = resolve(self.lib, st["f"])(*args, **kw)
        elif kind == "meth":
            out = getattr(self.arg(st["s"]), st["m"])(*args, **kw)
        elif kind == "op":
            out = getattr(operator, st["f"])(*args, **kw)
        elif kind == "attr":
            out = getattr(self.arg(st["s"]), st["m"])
        else:
            raise ValueError(f"unknown step kind {kind!r}")
        self.regs.append(out)
        return out


def is_tensor(lib, v):
    return isinstance(v, lib.Tensor)


def dtype_name(dt):
    return str(dt).split(".")[-1]


def round_value(v, dtype):
    """Compact, exact-enough text of one element (shortest float32/float16 repr)."""
    if dtype in ("float32", "float16"):
        if math.isnan(v) or math.isinf(v):
            return v
        return float(str(np.float32(v) if dtype == "float32" else np.float16(v)))
    if dtype == "float64":
        if math.isnan(v) or math.isinf(v):
            return v
        return float("%.15g" % v)
    if dtype == "bool":
        return int(v)
    return v


def tensor_values(t):
    """The flat element list of a tensor (plain Python numbers)."""
    flat = t.detach().cpu().reshape(-1).tolist()
    dt = dtype_name(t.dtype)
    return [round_value(v, dt) for v in flat]


def encode(lib, v):
    """A JSON description of a step result."""
    if is_tensor(lib, v):
        gf = v.grad_fn
        return {"T": {"dtype": dtype_name(v.dtype), "shape": list(v.shape),
                      "st": list(v.stride()), "v": tensor_values(v),
                      "gf": type(gf).__name__ if gf is not None else None,
                      "rg": bool(v.requires_grad)}}
    if isinstance(v, (tuple, list)):
        return {"L": [encode(lib, x) for x in v]}
    if v is None:
        return {"N": 1}
    if isinstance(v, bool):
        return {"S": v, "ty": "bool"}
    if isinstance(v, int):
        return {"S": v, "ty": "int"}
    if isinstance(v, float):
        return {"S": round_value(v, "float64"), "ty": "float"}
    if isinstance(v, lib.dtype):
        return {"dt": dtype_name(v)}
    return {"O": type(v).__name__}


# Steps whose result is a view of their input: their strides are part of the contract.
VIEW_METHODS = {
    "view", "view_as", "reshape", "reshape_as", "transpose", "t", "permute", "narrow", "select",
    "expand", "expand_as", "squeeze", "unsqueeze", "unbind", "split", "chunk", "swapaxes",
    "flatten", "T", "mT", "getitem", "detach", "diagonal", "movedim",
}


def step_name(st):
    return st.get("f") or st.get("m")


def encode_exc(e, step):
    """Exception type, its nearest builtin ancestor and message."""
    base = next(c.__name__ for c in type(e).__mro__ if c.__module__ == "builtins")
    return {"step": step, "type": type(e).__name__, "base": base, "msg": str(e)}


def weights(n, k):
    """The fixed weights of output ``k`` (``n`` elements) in the weighted sum."""
    return [((j * 37 + 11 * k + 5) % 13 - 6) / 4.0 for j in range(n)]


def flat_tensors(lib, v, out):
    if is_tensor(lib, v):
        out.append(v)
    elif isinstance(v, (tuple, list)):
        for x in v:
            flat_tensors(lib, x, out)
    return out


def loss_of(lib, interp):
    """The weighted sum of every floating step result that requires grad (None if none)."""
    outs = []
    for v in interp.regs[interp.n_inputs:]:
        flat_tensors(lib, v, outs)
    loss = None
    k = 0
    for t in outs:
        if not (t.requires_grad and dtype_name(t.dtype) in FLOAT_DTYPES):
            continue
        w = lib.tensor(weights(t.numel(), k), dtype=t.dtype).reshape(tuple(t.shape))
        term = (t * w).sum()
        loss = term if loss is None else loss + term
        k += 1
    return loss


def run(prog, lib, grads=True):
    """Execute ``prog`` on ``lib``; returns its record (see module doc)."""
    rec = {"out": [], "err": None, "grads": None, "gerr": None}
    interp = Interp(lib, prog["inputs"])
    for i, st in enumerate(prog["steps"]):
        try:
            out = interp.step(st)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as e:  # the contract: which exception, at which step (a Rust
            rec["err"] = encode_exc(e, i)  # panic is a BaseException: recorded, then compared
            return rec
        rec["out"].append(encode(lib, out))
    if not grads:
        return rec
    try:
        loss = loss_of(lib, interp)
        if loss is not None and loss.requires_grad:
            loss.backward()
            rec["grads"] = [encode(lib, t.grad) if spec.get("rg") else None
                            for t, spec in zip(interp.regs, prog["inputs"])]
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:
        rec["gerr"] = encode_exc(e, -1)
    return rec


def forward_loss(prog, lib, inputs_data):
    """The weighted-sum loss (a Python float) of ``prog`` with the inputs' data replaced by
    ``inputs_data`` (finite differences); no autograd."""
    specs = [dict(s, data=d) for s, d in zip(prog["inputs"], inputs_data)]
    interp = Interp(lib, specs)
    for st in prog["steps"]:
        interp.step(st)
    loss = loss_of(lib, interp)
    return float(loss.detach().item()) if loss is not None else None


def grads_at(prog, lib, inputs_data):
    """Autograd gradients (flat float lists; None for inputs without grad) of the same loss."""
    specs = [dict(s, data=d) for s, d in zip(prog["inputs"], inputs_data)]
    interp = Interp(lib, specs)
    for st in prog["steps"]:
        interp.step(st)
    loss = loss_of(lib, interp)
    loss.backward()
    out = []
    for t, spec in zip(interp.regs, specs):
        if not spec.get("rg"):
            out.append(None)
        elif t.grad is None:
            out.append([0.0] * t.numel())
        else:
            out.append(t.grad.detach().reshape(-1).tolist())
    return out
