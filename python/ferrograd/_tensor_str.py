"""Tensor printing, following PyTorch's ``torch/_tensor_str.py`` rule for rule: precision,
whole floats printed as ``1.``, scientific notation, column alignment, summarisation and the
``dtype=``/``grad_fn=``/``requires_grad=`` suffixes."""

import math
from dataclasses import dataclass


@dataclass
class _PrintOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: object = None


PRINT_OPTS = _PrintOptions()


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None):
    """Same options as ``torch.set_printoptions``."""
    if profile == "default":
        PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 4, 1000, 3, 80
    elif profile == "short":
        PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 2, 1000, 2, 80
    elif profile == "full":
        PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 4, math.inf, 3, 80
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


def _flat(v):
    if isinstance(v, list):
        out = []
        for e in v:
            out.extend(_flat(e))
        return out
    return [v]


class _Formatter:
    def __init__(self, values, floating):
        self.floating_dtype = floating
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        if not floating:
            for value in values:
                self.max_width = max(self.max_width, len(f"{value}"))
        else:
            nz = [v for v in values if math.isfinite(v) and v != 0]
            if not nz:
                # nothing to measure: fixed notation whatever the options say (as PyTorch)
                return
            absvals = [abs(v) for v in nz]
            lo, hi = min(absvals), max(absvals)
            for value in nz:
                if value != math.ceil(value):
                    self.int_mode = False
                    break
            p = PRINT_OPTS.precision
            # the user's sci_mode is applied before the widths are measured
            if PRINT_OPTS.sci_mode is None:
                self.sci_mode = hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4
            else:
                self.sci_mode = bool(PRINT_OPTS.sci_mode)
            for value in nz:
                if self.sci_mode:
                    w = len(f"{value:.{p}e}")
                elif self.int_mode:
                    w = len(f"{value:.0f}") + 1
                else:
                    w = len(f"{value:.{p}f}")
                self.max_width = max(self.max_width, w)

    def width(self):
        return self.max_width

    def format(self, value):
        p = PRINT_OPTS.precision
        if self.floating_dtype:
            if self.sci_mode:
                ret = f"{value:{self.max_width}.{p}e}"
            elif self.int_mode:
                ret = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    ret += "."
            else:
                ret = f"{value:.{p}f}"
        else:
            ret = f"{value}"
        return (self.max_width - len(ret)) * " " + ret


class _ComplexFormatter:
    """PyTorch's pair of formatters for complex tensors: one measured on the real parts, one
    on the imaginary parts; an element prints as ``real`` then the signed ``imag`` and ``j``."""

    def __init__(self, real, imag):
        self.real, self.imag = real, imag

    def width(self):
        # the imaginary part's width and its `j`; `_vector_str` adds the separator
        return self.real.width() + self.imag.width() + 1

    def format(self, value):
        real_str = self.real.format(value.real)
        imag_str = (self.imag.format(value.imag) + "j").lstrip()
        # handles negative numbers, +0.0, -0.0
        if imag_str[0] in "+-":
            return real_str + imag_str
        return real_str + "+" + imag_str


def _summarized(t):
    """The edge items of every dim (what the formatter measures when summarising)."""
    e = PRINT_OPTS.edgeitems
    if t.dim() == 0:
        return t.tolist()
    if t.dim() == 1:
        vals = t.tolist()
        return vals[:e] + vals[-e:] if len(vals) > 2 * e else vals
    n = t.shape[0]
    idx = list(range(e)) + list(range(n - e, n)) if n > 2 * e else range(n)
    return [_summarized(t[i]) for i in idx]


def _vector_str(t, indent, summarize, fmt):
    element_length = fmt.width() + 2
    per_line = max(1, int(math.floor((PRINT_OPTS.linewidth - indent) / element_length)))
    e = PRINT_OPTS.edgeitems
    if summarize and not e:
        data = ["..."]
    elif summarize and t.shape[0] > 2 * e:
        vals = t.tolist()
        data = [fmt.format(v) for v in vals[:e]] + [" ..."] + [fmt.format(v) for v in vals[-e:]]
    else:
        data = [fmt.format(v) for v in t.tolist()]
    lines = [", ".join(data[i:i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _tensor_str_with_formatter(t, indent, summarize, fmt):
    dim = t.dim()
    if dim == 0:
        return fmt.format(t.item())
    if dim == 1:
        return _vector_str(t, indent, summarize, fmt)
    e = PRINT_OPTS.edgeitems
    n = t.shape[0]
    if summarize and n > 2 * e:
        slices = ([_tensor_str_with_formatter(t[i], indent + 1, summarize, fmt) for i in range(e)] + ["..."]
                  + [_tensor_str_with_formatter(t[i], indent + 1, summarize, fmt) for i in range(n - e, n)])
    else:
        slices = [_tensor_str_with_formatter(t[i], indent + 1, summarize, fmt) for i in range(n)]
    return "[" + ("," + "\n" * (dim - 1) + " " * (indent + 1)).join(slices) + "]"


def _tensor_str(t, indent):
    if t.numel() == 0:
        return "[]"
    summarize = t.numel() > PRINT_OPTS.threshold
    if str(t.dtype).endswith("float16"):
        t = t.float()
    if t.dtype.is_complex:
        def measured(part):
            return _Formatter(_flat(_summarized(part)) if summarize else _flat(part.tolist()), True)
        return _tensor_str_with_formatter(t, indent, summarize, _ComplexFormatter(measured(t.real), measured(t.imag)))
    values = _flat(_summarized(t)) if summarize else _flat(t.tolist())
    fmt = _Formatter(values, t.dtype.is_floating_point)
    return _tensor_str_with_formatter(t, indent, summarize, fmt)


def _add_suffixes(tensor_str, suffixes, indent, force_newline):
    strs = [tensor_str]
    last_line_len = len(tensor_str) - tensor_str.rfind("\n") + 1
    for suffix in suffixes:
        if force_newline or last_line_len + len(suffix) + 2 > PRINT_OPTS.linewidth:
            strs.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
            force_newline = False
        else:
            strs.append(", " + suffix)
            last_line_len += len(suffix) + 2
    strs.append(")")
    return "".join(strs)


def tensor_repr(inp):
    """``repr(tensor)`` exactly as PyTorch writes it."""
    import ferrograd
    from ferrograd.nn.parameter import Parameter, _MaterializedBuffer

    # a subclass prints under its own name (a Parameter as a plain tensor, below its header;
    # a materialized lazy buffer is a plain tensor in PyTorch)
    plain = type(inp) in (ferrograd.Tensor, Parameter, _MaterializedBuffer)
    prefix = "tensor(" if plain else type(inp).__name__ + "("
    indent = len(prefix)
    suffixes = []
    t = inp.detach()
    if t.device.type != "cpu":
        suffixes.append("device='" + str(t.device) + "'")
    default = ferrograd.get_default_dtype()
    if t.numel() == 0:
        if t.dim() != 1:
            suffixes.append("size=" + str(tuple(t.shape)))
        if t.dtype != default:
            suffixes.append("dtype=" + str(t.dtype))
        tensor_str = "[]"
    else:
        default_complex = ferrograd.complex128 if default == ferrograd.float64 else ferrograd.complex64
        if t.dtype not in (default, default_complex, ferrograd.int64, ferrograd.bool):
            suffixes.append("dtype=" + str(t.dtype))
        tensor_str = _tensor_str(t, indent)
    grad_fn = inp.grad_fn
    if grad_fn is not None:
        suffixes.append(f"grad_fn=<{type(grad_fn).__name__}>")
    elif inp.requires_grad:
        suffixes.append("requires_grad=True")
    tangent = ferrograd._C._fw_tangent(inp)
    if tangent is not None:
        # a dual tensor (forward-mode AD): its tangent, as PyTorch prints it (a 0-dim one as
        # its number)
        suffixes.append(f"tangent={tangent.item() if tangent.dim() == 0 else tangent}")
    return _add_suffixes(prefix + tensor_str, suffixes, indent, force_newline=False)
