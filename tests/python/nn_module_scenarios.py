"""Scenarios for nn.Module, the containers, nn.init and nn.utils, written against the PyTorch
API. Each ``sc_*`` function takes the library (``torch`` or ``ferrograd``) and returns plain
values (numbers, strings, lists, dicts). ``tools/record_nn_module_goldens.py`` runs them with
PyTorch into ``fixtures/nn_module.json``; ``test_nn_module.py`` runs them with ferrograd and
compares. Random values are never recorded: random initialisers are checked through bounds,
shapes and relations computed inside the scenario."""

import copy
import math
import pickle
import re
import warnings
from collections import OrderedDict

_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


class Ctx:
    """The library under test plus the helpers that turn its objects into plain values."""

    def __init__(self, lib):
        self.lib = lib
        self.name = lib.__name__

    def s(self, text):
        """A string with addresses masked and the library spelled ``torch``."""
        text = _ADDRESS.sub("0x?", text)
        if self.name != "torch":
            text = re.sub(r"\b" + re.escape(self.name) + r"\.", "torch.", text)
        return text

    def t(self, x):
        """A tensor as [dtype, shape, values]."""
        x = x.detach()
        return [self.s(str(x.dtype)), list(x.shape), x.tolist()]

    def err(self, fn):
        """[exception type, full message] of what ``fn()`` raises, or None."""
        try:
            fn()
        except Exception as e:  # noqa: BLE001
            return [type(e).__name__, self.s(str(e))]
        return None

    def warns(self, fn):
        """[[category, message], ...] of the warnings ``fn()`` issues (and its result)."""
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            fn()
        return [[x.category.__name__, self.s(str(x.message))] for x in w]


def _quiet(fn):
    """``fn()`` with its warnings suppressed."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn()


def _deterministic(torch, module, start=0.1):
    """Fill every parameter of ``module`` with a fixed ramp (replaces random init)."""
    with torch.no_grad():
        k = start
        for p in module.parameters():
            n = p.numel()
            p.copy_(torch.arange(n, dtype=p.dtype).reshape(p.shape) * 0.1 + k)
            k += 0.05
    return module


# ---- registration and attributes ---------------------------------------------------------
def sc_registration_errors(c):
    torch = c.lib
    nn = torch.nn
    m = nn.Module()
    m.register_buffer("mean", torch.zeros(2))
    m.register_parameter("w", nn.Parameter(torch.ones(3)))
    m.sub = nn.Linear(1, 1)
    m.plain = 5

    class Bare(nn.Module):
        def __init__(self):
            pass

    def set_(name, value, obj=m):
        return lambda: setattr(obj, name, value)

    return {
        "buffer_dot": c.err(lambda: m.register_buffer("a.b", torch.zeros(1))),
        "buffer_empty": c.err(lambda: m.register_buffer("", torch.zeros(1))),
        "buffer_name_type": c.err(lambda: m.register_buffer(3, torch.zeros(1))),
        "buffer_exists": c.err(lambda: m.register_buffer("w", torch.zeros(1))),
        "buffer_plain_attr": c.err(lambda: m.register_buffer("plain", torch.zeros(1))),
        "buffer_not_tensor": c.err(lambda: m.register_buffer("x", 3)),
        "buffer_list": c.err(lambda: m.register_buffer("x", [1.0])),
        "param_dot": c.err(lambda: m.register_parameter("a.b", None)),
        "param_empty": c.err(lambda: m.register_parameter("", None)),
        "param_name_type": c.err(lambda: m.register_parameter(1, None)),
        "param_exists": c.err(lambda: m.register_parameter("mean", None)),
        "param_tensor": c.err(lambda: m.register_parameter("p", torch.zeros(1))),
        "param_nonleaf": c.err(lambda: m.register_parameter("p", nn.Parameter(torch.ones(1)) * 2)),
        "module_not_module": c.err(lambda: m.add_module("x", 3)),
        "module_name_type": c.err(lambda: m.add_module(2, nn.ReLU())),
        "module_dot": c.err(lambda: m.add_module("a.b", nn.ReLU())),
        "module_empty": c.err(lambda: m.add_module("", nn.ReLU())),
        "module_exists": c.err(lambda: m.add_module("mean", nn.ReLU())),
        "assign_tensor_to_param": c.err(set_("w", torch.zeros(3))),
        "assign_int_to_param": c.err(set_("w", 3)),
        "assign_tensor_to_module": c.err(set_("sub", torch.zeros(1))),
        "assign_int_to_buffer": c.err(set_("mean", 1)),
        "bare_param": c.err(lambda: setattr(Bare(), "p", nn.Parameter(torch.ones(1)))),
        "bare_module": c.err(lambda: setattr(Bare(), "p", nn.ReLU())),
        "bare_register_param": c.err(lambda: Bare().register_parameter("p", None)),
        "bare_register_buffer": c.err(lambda: Bare().register_buffer("p", None)),
        "missing_attr": c.err(lambda: nn.Linear(1, 1).foo),
        "missing_attr_subclass": c.err(lambda: m.sub.nope),
        "init_kwargs": c.err(lambda: nn.Module(foo=1)),
        "init_args": c.err(lambda: nn.Module(1, 2)),
        "forward_missing": c.err(lambda: nn.Module()(torch.ones(1))),
    }


def sc_attribute_semantics(c):
    torch = c.lib
    nn = torch.nn
    m = nn.Module()
    m.register_buffer("b", torch.zeros(2))
    m.register_buffer("nb", torch.zeros(1), persistent=False)
    m.register_parameter("none_param", None)
    m.p = nn.Parameter(torch.ones(2))
    m.b = torch.ones(2)  # a tensor assigned to a buffer name stays a buffer
    m.nb = torch.ones(3)  # and keeps its persistence
    m.p = None  # None to a parameter name keeps the slot
    m.child = nn.ReLU()
    m.child = None
    m.child2 = nn.Tanh()
    m.x = nn.Parameter(torch.ones(1))
    module_over_param = c.err(lambda: setattr(m, "x", nn.Tanh()))
    m.register_buffer("bx", torch.ones(1), persistent=False)
    m.bx = nn.Parameter(torch.ones(1))  # a parameter replaces a buffer
    m.register_buffer("by", torch.ones(1))
    m.by = nn.Tanh()  # a module replaces a buffer
    m.plain_attr = 1
    m.plain_attr = nn.Parameter(torch.ones(1))  # and a plain attribute
    m.y = torch.ones(1)  # a plain tensor is a plain attribute
    m.z = nn.Buffer(torch.ones(2), persistent=False)
    m.w = nn.Buffer(torch.ones(1))
    m.register_buffer("gone", torch.ones(1))
    del m.gone
    m.q = nn.Parameter(torch.ones(1))
    del m.q
    m.r = nn.Sigmoid()
    del m.r
    d = dir(m)
    return {
        "params": list(m._parameters.keys()),
        "param_values": [v is None for v in m._parameters.values()],
        "buffers": list(m._buffers.keys()),
        "non_persistent": sorted(m._non_persistent_buffers_set),
        "modules": list(m._modules.keys()),
        "child_is_none": m.child is None,
        "y_in_dict": "y" in m.__dict__,
        "b_value": c.t(m.b),
        "state_dict": list(m.state_dict().keys()),
        "named_buffers": [n for n, _ in m.named_buffers()],
        "named_children": [n for n, _ in m.named_children()],
        "dir_has": [k in d for k in ("b", "p", "child2", "y", "forward", "state_dict", "training")],
        "dir_sorted": d == sorted(d),
        "del_missing": c.err(lambda: delattr(m, "nothing_here")),
        "buffer_type": type(m.z).__name__,
        "is_buffer_instance": [isinstance(m.z, nn.Buffer), isinstance(torch.ones(1), nn.Buffer)],
        "training_default": m.training,
        "module_over_param": module_over_param,
        "version": m._version,
    }


def sc_get_set_submodule(c):
    torch = c.lib
    nn = torch.nn
    m = nn.Module()
    m.a = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
    m.a[0].register_buffer("stat", torch.zeros(1))
    m.v = torch.ones(1)
    m.set_submodule("a.1", nn.Tanh())
    m.set_submodule("new", nn.Sigmoid())
    return {
        "self": m.get_submodule("") is m,
        "deep": type(m.get_submodule("a.0")).__name__,
        "param": list(m.get_parameter("a.0.weight").shape),
        "buffer": c.t(m.get_buffer("a.0.stat")),
        "after_set": [n for n, _ in m.named_modules()],
        "types": [type(x).__name__ for x in m.modules()],
        "no_sub": c.err(lambda: m.get_submodule("a.7")),
        "not_module": c.err(lambda: m.get_submodule("v")),
        "no_param": c.err(lambda: m.get_parameter("a.0.nope")),
        "not_param": c.err(lambda: m.get_parameter("a.0.stat")),
        "not_buffer": c.err(lambda: m.get_buffer("a.0.weight")),
        "set_empty": c.err(lambda: m.set_submodule("", nn.ReLU())),
        "set_not_module": c.err(lambda: m.set_submodule("x", 3)),
        "set_strict_missing": c.err(lambda: m.set_submodule("a.zz", nn.ReLU(), strict=True)),
        "set_over_tensor": c.err(lambda: m.set_submodule("v", nn.ReLU())),
    }


def sc_parameter_and_buffer_objects(c):
    torch = c.lib
    nn = torch.nn
    t = torch.tensor([1.0, 2.0])
    p = nn.Parameter(t)
    q = nn.Parameter(p, requires_grad=False)
    with torch.no_grad():
        t.add_(1.0)
    e = nn.Parameter()
    b = nn.Buffer(t)
    bg = nn.Buffer(torch.ones(1, requires_grad=True), persistent=False)
    dp = copy.deepcopy(p)
    pk = pickle.loads(pickle.dumps(q))
    return {
        "shares_data": [c.t(p), p.data_ptr() == t.data_ptr(), p is not t],
        "flags": [p.requires_grad, p.is_leaf, p.grad_fn is None, q.requires_grad, type(q).__name__],
        "empty": [list(e.shape), c.s(str(e.dtype)), e.requires_grad],
        "int_param": c.err(lambda: nn.Parameter(torch.tensor([1, 2]))),
        "int_param_frozen": c.t(nn.Parameter(torch.tensor([1, 2]), requires_grad=False)),
        "not_tensor": c.err(lambda: nn.Parameter([1.0])),
        "buffer": [type(b).__name__, b is not t, b.data_ptr() == t.data_ptr(), b.persistent,
                   bg.requires_grad, bg.persistent, bg.is_leaf],
        "deepcopy": [type(dp).__name__, dp is not p, c.t(dp), dp.data_ptr() != p.data_ptr(), dp.requires_grad],
        "pickle": [type(pk).__name__, pk.requires_grad, c.t(pk)],
        "derived": [type(p * 2).__name__, type(p.data).__name__, type(p.detach()).__name__,
                    type(p[0]).__name__, isinstance(p, torch.Tensor)],
    }


def sc_zero_grad_graph_and_to_empty(c):
    torch = c.lib
    nn = torch.nn
    lin = nn.Linear(1, 1)
    _deterministic(torch, lin)
    x = torch.tensor([[2.0]])
    loss = (lin(x) ** 2).sum()
    (gw,) = torch.autograd.grad(loss, [lin.weight], create_graph=True)
    lin.weight.grad = gw * 1.0  # not a view (views cannot be detached in place)
    had_fn = lin.weight.grad.grad_fn is not None
    lin.zero_grad(set_to_none=False)
    after = [lin.weight.grad.grad_fn is None, lin.weight.grad.requires_grad, c.t(lin.weight.grad)]
    m = nn.Linear(2, 3)
    m.register_buffer("b", torch.ones(4, dtype=torch.float64))
    w = m.weight
    r = m.to_empty(device="cpu")
    return {"had_fn": had_fn, "after": after,
            "to_empty": [r is m, m.weight is w, list(m.weight.shape), c.s(str(m.b.dtype)), list(m.b.shape)]}


# ---- traversal ---------------------------------------------------------------------------
def sc_traversal_and_duplicates(c):
    torch = c.lib
    nn = torch.nn
    shared = nn.Linear(2, 2)
    m = nn.Module()
    m.a = shared
    m.b = nn.Sequential(shared, nn.ReLU())
    m.register_buffer("buf", torch.zeros(1))
    m.b.register_buffer("buf2", torch.zeros(2))
    m.tied = nn.Linear(2, 2, bias=False)
    m.tied.weight = shared.weight
    return {
        "named_parameters": [n for n, _ in m.named_parameters()],
        "named_parameters_dup": [n for n, _ in m.named_parameters(remove_duplicate=False)],
        "prefix": [n for n, _ in m.named_parameters(prefix="net")],
        "prefix_nonrecurse": [n for n, _ in m.named_parameters(prefix="net", recurse=False)],
        "parameters_nonrecurse": len(list(m.tied.parameters(recurse=False))),
        "named_modules": [n for n, _ in m.named_modules()],
        "named_modules_dup": [n for n, _ in m.named_modules(remove_duplicate=False)],
        "named_modules_prefix": [n for n, _ in m.named_modules(prefix="root")],
        "modules_dup": len(list(m.modules(remove_duplicate=False))),
        "named_children": [n for n, _ in m.named_children()],
        "children": [type(x).__name__ for x in m.children()],
        "named_buffers": [n for n, _ in m.named_buffers()],
        "buffers_prefix": [n for n, _ in m.named_buffers(prefix="p")],
        "buffers_nonrecurse": [n for n, _ in m.named_buffers(recurse=False)],
        "n_buffers": len(list(m.buffers())),
        "state_dict": list(m.state_dict().keys()),
    }


# ---- state_dict ---------------------------------------------------------------------------
def sc_state_dict(c):
    torch = c.lib
    nn = torch.nn

    class WithExtra(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(2, 1)
            self.k = 7

        def get_extra_state(self):
            return {"k": self.k}

        def set_extra_state(self, state):
            self.k = state["k"]

    net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), WithExtra())
    net[0].register_buffer("np", torch.zeros(1), persistent=False)
    net[0].register_buffer("none", None)
    sd = net.state_dict()
    kv = net.state_dict(keep_vars=True)
    other = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), WithExtra())
    other[2].k = 0
    res = other.load_state_dict(sd)
    no_extra = OrderedDict((k, v) for k, v in sd.items() if not k.endswith("_extra_state"))
    missing_extra = c.err(lambda: other.load_state_dict(no_extra))
    plain = nn.Linear(2, 1)
    unexpected_extra = c.err(lambda: plain.load_state_dict(
        {"weight": torch.zeros(1, 2), "bias": torch.zeros(1), "_extra_state": 1}))
    dest = OrderedDict()
    out = net.state_dict(destination=dest, prefix="x.")
    pos = c.warns(lambda: net.state_dict(OrderedDict(), "y."))
    return {
        "keys": list(sd.keys()),
        "type": type(sd).__name__,
        "metadata": {k: dict(v) for k, v in sd._metadata.items()},
        "extra": sd["2._extra_state"],
        "detached": [sd["0.weight"].requires_grad, sd["0.weight"].is_leaf, type(sd["0.weight"]).__name__],
        "keep_vars": [kv["0.weight"] is net[0].weight, type(kv["0.weight"]).__name__, kv["0.weight"].requires_grad],
        "loaded_extra": other[2].k,
        "missing_extra": missing_extra,
        "unexpected_extra": unexpected_extra,
        "load_result": [list(res.missing_keys), list(res.unexpected_keys), repr(res), str(res)],
        "destination": [out is dest, list(dest.keys()), hasattr(dest, "_metadata")],
        "positional_warning": pos,
        "nested_prefix": list(net[2].state_dict(prefix="a.b.").keys()),
    }


def sc_load_state_dict(c):
    torch = c.lib
    nn = torch.nn
    net = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
    _deterministic(torch, net)
    src = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
    _deterministic(torch, src, start=1.0)
    sd = src.state_dict()
    w_obj = net[0].weight
    net.load_state_dict(sd)
    copied = [c.t(net[0].weight), net[0].weight is w_obj, net[0].weight.requires_grad]

    bad = OrderedDict(sd)
    del bad["1.bias"]
    bad["1.extra"] = torch.zeros(1)
    bad["9.weight"] = torch.zeros(1)
    loose = net.load_state_dict(bad, strict=False)

    shape = OrderedDict(sd)
    shape["0.weight"] = torch.zeros(3, 2)
    shape["1.bias"] = torch.zeros(2)

    notensor = OrderedDict(sd)
    notensor["0.bias"] = [1.0, 2.0]

    class Scalar(nn.Module):
        def __init__(self):
            super().__init__()
            self.s = nn.Parameter(torch.tensor(1.0))

    sc = Scalar()
    sc.load_state_dict({"s": torch.tensor([5.0])})

    a = nn.Linear(2, 2)
    new_w = torch.ones(2, 2)
    a.load_state_dict({"weight": new_w, "bias": torch.zeros(2)}, assign=True)
    frozen = nn.Linear(1, 1)
    frozen.weight.requires_grad_(False)
    frozen.load_state_dict({"weight": nn.Parameter(torch.ones(1, 1)), "bias": torch.zeros(1)}, assign=True)

    post = []
    h = net.register_load_state_dict_post_hook(lambda mod, keys: post.append([list(keys.missing_keys), type(mod).__name__]))
    net.load_state_dict(sd)
    h.remove()
    net.load_state_dict(sd)
    pre = []
    net[0].register_load_state_dict_pre_hook(lambda mod, sdict, prefix, *rest: pre.append([type(mod).__name__, prefix]))
    net.load_state_dict(sd)

    return {
        "copied": copied,
        "loose": [list(loose.missing_keys), list(loose.unexpected_keys), repr(loose)],
        "strict": c.err(lambda: net.load_state_dict(bad)),
        "shape": c.err(lambda: net.load_state_dict(shape)),
        "not_tensor": c.err(lambda: net.load_state_dict(notensor)),
        "not_mapping": c.err(lambda: net.load_state_dict([("a", 1)])),
        "scalar_from_1elem": c.t(sc.s),
        "assign_same_object": [a.weight is new_w, type(a.weight).__name__, a.weight.requires_grad,
                               a.weight.data_ptr() == new_w.data_ptr()],
        "assign_frozen": [frozen.weight.requires_grad, type(frozen.weight).__name__],
        "post_hook": post,
        "pre_hook": pre,
        "incompatible_repr_ok": repr(net.load_state_dict(sd)),
    }


def sc_state_dict_hooks(c):
    torch = c.lib
    nn = torch.nn
    m = nn.Linear(1, 1)
    seen = []
    m.register_state_dict_pre_hook(lambda mod, prefix, keep_vars: seen.append(["pre", prefix, keep_vars]))

    def post(mod, sd, prefix, meta):
        seen.append(["post", prefix, list(sd.keys()), dict(meta)])

    m.register_state_dict_post_hook(post)
    m.state_dict(prefix="p.")

    def bad_post(mod, sd, prefix, meta):
        return {}

    m2 = nn.Linear(1, 1)
    m2.register_state_dict_post_hook(bad_post)
    return {"seen": seen, "bad_post": c.err(lambda: m2.state_dict())}


# ---- conversion, modes, gradients ----------------------------------------------------------
def sc_conversion(c):
    torch = c.lib
    nn = torch.nn
    m = nn.Linear(2, 2)
    m.register_buffer("count", torch.tensor(3))
    m.register_buffer("stat", torch.zeros(2))
    _deterministic(torch, m)
    m(torch.ones(1, 2)).sum().backward()
    w = m.weight
    g = m.weight.grad
    r = m.double()
    grad_kept = [m.weight.grad is g, c.s(str(g.dtype))]
    after_double = [c.s(str(m.weight.dtype)), c.s(str(m.weight.grad.dtype)), c.s(str(m.count.dtype)), c.s(str(m.stat.dtype)),
                    m.weight is w, r is m, type(m.weight).__name__, m.weight.requires_grad, m.weight.is_leaf]
    m.float()
    m.half()
    half = [c.s(str(m.weight.dtype)), c.s(str(m.stat.dtype)), c.s(str(m.count.dtype))]
    m.to(torch.float64)
    to64 = [c.s(str(m.weight.dtype)), c.s(str(m.stat.dtype)), c.t(m.weight.grad)]
    m.to(dtype=torch.float32)
    m.to("cpu")
    m.to(torch.ones(1, dtype=torch.float64))
    t_like = c.s(str(m.weight.dtype))
    m.cpu()
    m.type(torch.float32)
    typed = [c.s(str(m.weight.dtype)), c.s(str(m.count.dtype))]
    return {
        "after_double": after_double,
        "grad_kept": grad_kept,
        "half": half,
        "to64": to64,
        "to_tensor": t_like,
        "typed": typed,
        "int_dtype": c.err(lambda: m.to(torch.int64)),
        "values_kept": c.t(m.weight),
        "out_dtype": c.s(str(m(torch.ones(1, 2)).dtype)),
    }


def sc_modes_and_grads(c):
    torch = c.lib
    nn = torch.nn
    net = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.ReLU(), nn.Linear(2, 1)))
    _deterministic(torch, net)
    flags = [m.training for m in net.modules()]
    net.eval()
    ev = [m.training for m in net.modules()]
    net[1].train()
    partial = [m.training for m in net.modules()]
    bad_mode = c.err(lambda: net.train("yes"))
    net.train()
    net(torch.ones(3, 2)).sum().backward()
    g = net[0].weight.grad
    net.zero_grad(set_to_none=False)
    kept = [net[0].weight.grad is g, c.t(net[0].weight.grad)]
    net.zero_grad()
    cleared = [p.grad is None for p in net.parameters()]
    r = net[1].requires_grad_(False)
    frozen = [p.requires_grad for p in net.parameters()]
    net.requires_grad_()
    visited = []
    net.apply(lambda m: visited.append(type(m).__name__))
    return {"initial": flags, "eval": ev, "partial": partial, "bad_mode": bad_mode, "kept": kept,
            "cleared": cleared, "requires_grad_returns_self": r is net[1], "frozen": frozen,
            "after": [p.requires_grad for p in net.parameters()], "apply_order": visited}


# ---- hooks -------------------------------------------------------------------------------
def sc_forward_hooks(c):
    torch = c.lib
    nn = torch.nn
    events = []

    class Add(nn.Module):
        def forward(self, x, y=None, *, scale=1.0):
            out = x * scale
            return out + y if y is not None else out

    m = Add()
    h1 = m.register_forward_pre_hook(lambda mod, args: events.append(["pre1", len(args)]))
    h2 = m.register_forward_pre_hook(lambda mod, args: events.append(["pre0"]), prepend=True)
    h3 = m.register_forward_pre_hook(lambda mod, args, kwargs: (args, {**kwargs, "scale": 3.0}), with_kwargs=True)
    h4 = m.register_forward_hook(lambda mod, args, out: events.append(["post", c.t(out)]))
    h5 = m.register_forward_hook(lambda mod, args, kwargs, out: out * 10, with_kwargs=True, prepend=True)
    r1 = m(torch.ones(2), torch.ones(2), scale=2.0)
    for h in (h1, h2, h3, h4, h5):
        h.remove()
    h5.remove()  # removing twice is harmless
    r2 = m(torch.ones(2))
    single = m.register_forward_pre_hook(lambda mod, args: args[0] + 1)  # a non-tuple becomes (x,)
    r3 = m(torch.ones(2))
    single.remove()
    with m.register_forward_hook(lambda mod, args, out: out - 1):
        r4 = m(torch.ones(2))
    r5 = m(torch.ones(2))
    bad = m.register_forward_pre_hook(lambda mod, args, kwargs: 5, with_kwargs=True)
    bad_err = c.err(lambda: m(torch.ones(2)))
    bad.remove()

    class Boom(nn.Module):
        def forward(self, x):
            raise ValueError("boom")

    b = Boom()
    always = []
    b.register_forward_hook(lambda mod, args, out: always.append(["always", out is None]), always_call=True)
    b.register_forward_hook(lambda mod, args, out: always.append(["normal"]))
    boom = c.err(lambda: b(torch.ones(1)))
    return {"events": events, "r1": c.t(r1), "r2": c.t(r2), "r3": c.t(r3), "r4": c.t(r4), "r5": c.t(r5),
            "bad": bad_err, "boom": boom, "always": always}


def sc_global_hooks(c):
    torch = c.lib
    nn = torch.nn
    mm = nn.modules.module
    seen = []
    h1 = mm.register_module_forward_pre_hook(lambda mod, args: seen.append(["gpre", type(mod).__name__]))
    h2 = mm.register_module_forward_hook(lambda mod, args, out: seen.append(["gpost", type(mod).__name__]))
    h3 = mm.register_module_buffer_registration_hook(lambda mod, name, t: seen.append(["gbuf", name]))
    try:
        net = nn.Sequential(nn.ReLU(), nn.Tanh())
        net(torch.ones(1))
        net.register_buffer("zz", torch.zeros(1))
    finally:
        h1.remove()
        h2.remove()
        h3.remove()
    net(torch.ones(1))
    return {"seen": seen}


def sc_full_backward_hooks(c):
    torch = c.lib
    nn = torch.nn
    lin = nn.Linear(2, 2)
    with torch.no_grad():
        lin.weight.copy_(torch.tensor([[1., 2.], [3., 4.]]))
        lin.bias.zero_()
    events = []

    def bhook(mod, gin, gout):
        events.append(["hook", type(mod).__name__, [None if g is None else c.t(g) for g in gin],
                       [None if g is None else c.t(g) for g in gout]])

    def prehook(mod, gout):
        events.append(["pre", [c.t(g) for g in gout]])
        return (gout[0] * 2,)

    h = lin.register_full_backward_hook(bhook)
    hp = lin.register_full_backward_pre_hook(prehook)
    x = torch.tensor([[1., 1.]], requires_grad=True)
    out = lin(x)
    out_fn = out.grad_fn.name()
    out.sum().backward()
    x_grad = c.t(x.grad)
    h.remove()
    hp.remove()
    x2 = torch.tensor([[1., 1.]], requires_grad=True)
    lin(x2).sum().backward()

    # a hook replacing grad_input
    m = nn.Tanh()
    m.register_full_backward_hook(lambda mod, gin, gout: (gin[0] * 0 + 7,))
    y = torch.tensor([0.5, -0.5], requires_grad=True)
    m(y).sum().backward()

    # two inputs, one without grad, and a non-tensor argument
    class Two(nn.Module):
        def forward(self, a, b, k):
            return a * b * k

    two = Two()
    seen = []
    two.register_full_backward_hook(lambda mod, gin, gout: seen.append(
        [None if g is None else c.t(g) for g in gin]))
    a = torch.tensor([2.0], requires_grad=True)
    two(a, torch.tensor([3.0]), 4).sum().backward()

    # no input requires grad: the hook fires with grad_input all None, and warns
    lone = nn.Linear(1, 1)
    lone_seen = []
    lone.register_full_backward_hook(lambda mod, gin, gout: lone_seen.append([g is None for g in gin]))
    ws = c.warns(lambda: lone(torch.ones(1, 1)).sum().backward())

    wrong = nn.ReLU()
    wrong.register_full_backward_hook(lambda mod, gin, gout: (gin[0], gin[0]))
    z = torch.tensor([1.0], requires_grad=True)
    wrong_err = c.err(lambda: wrong(z).sum().backward())

    both = nn.ReLU()
    both.register_full_backward_hook(lambda *a: None)
    mix = c.err(lambda: both.register_backward_hook(lambda *a: None))
    return {"events": events, "out_fn": out_fn, "x_grad": x_grad, "after_remove": c.t(x2.grad),
            "replaced": c.t(y.grad), "two": seen, "a_grad": c.t(a.grad), "lone": lone_seen,
            "lone_warns": [w[0] for w in ws], "wrong": wrong_err, "mix": mix}


def sc_backward_hooks_nested_and_tuples(c):
    torch = c.lib
    nn = torch.nn
    order = []

    class Split(nn.Module):
        def forward(self, x):
            return x * 2, x * 3, "tag"

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.split = Split()
            self.act = nn.Tanh()

        def forward(self, x):
            a, b, _ = self.split(x)
            return self.act(a) + b

    net = Net()

    def hook(name):
        def h(mod, gin, gout):
            order.append([name, [None if g is None else c.t(g) for g in gin],
                          [None if g is None else c.t(g) for g in gout]])
        return h

    net.register_full_backward_hook(hook("net"))
    net.split.register_full_backward_hook(hook("split"))
    net.act.register_full_backward_hook(hook("act"))
    net.split.register_full_backward_pre_hook(lambda mod, gout: order.append(["split_pre", len(gout)]))
    x = torch.tensor([0.5, -1.0], requires_grad=True)
    y = net(x)
    y.sum().backward()

    twice = nn.Sigmoid()
    calls = []
    twice.register_full_backward_hook(lambda mod, gin, gout: calls.append(c.t(gout[0])))
    z = torch.tensor([0.0], requires_grad=True)
    (twice(z) + twice(z * 2)).sum().backward()

    no_grad_out = []
    m = nn.Linear(1, 1)
    m.register_full_backward_hook(lambda *a: no_grad_out.append(1))
    with torch.no_grad():
        r = m(torch.ones(1, 1, requires_grad=True))
    return {"order": order, "x_grad": c.t(x.grad), "twice": calls, "z_grad": c.t(z.grad),
            "no_grad": [no_grad_out, r.requires_grad, r.grad_fn is None]}


def sc_legacy_backward_hook(c):
    torch = c.lib
    nn = torch.nn
    m = nn.Sigmoid()
    seen = []
    m.register_backward_hook(lambda mod, gin, gout: seen.append([len(gin), len(gout), c.t(gout[0])]))
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    out = []
    ws = c.warns(lambda: out.append(m(x)))
    out[0].sum().backward()
    m2 = nn.Sigmoid()
    m2.register_backward_hook(lambda *a: None)
    return {"seen": seen, "warns": ws, "mix": c.err(lambda: m2.register_full_backward_hook(lambda *a: None))}


# ---- printing ----------------------------------------------------------------------------
def sc_reprs(c):
    torch = c.lib
    nn = torch.nn

    class Multi(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(2, 2)

        def extra_repr(self):
            return "first=1\nsecond=2"

    class Blank(nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = Multi()

        def extra_repr(self):
            return "a\n\nb"

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(nn.Linear(4, 4), nn.ReLU(inplace=True), nn.Linear(4, 4), nn.ReLU(inplace=True))
            self.blocks = nn.ModuleList([nn.Linear(3, 3) for _ in range(3)] + [nn.Tanh()])
            self.heads = nn.ModuleDict({"cls": nn.Linear(4, 2), "reg": nn.Linear(4, 1, bias=False)})
            self.none_child = None
            self.register_module("none2", None)

    pl = nn.ParameterList([nn.Parameter(torch.ones(2, 3)), torch.zeros(4), "text", 3])
    pd = nn.ParameterDict({"b": torch.ones(2), "a": nn.Parameter(torch.zeros(1, 2, dtype=torch.float64))})
    pd["obj"] = 1.5
    return {
        "net": c.s(repr(Net())),
        "multi": c.s(repr(Multi())),
        "blank": c.s(repr(Blank())),
        "identity": repr(nn.Identity(54, unused="x")),
        "empty_seq": repr(nn.Sequential()),
        "empty_list": repr(nn.ModuleList()),
        "empty_dict": repr(nn.ModuleDict()),
        "mixed_list": repr(nn.ModuleList([nn.ReLU(), nn.ReLU(), nn.Tanh(), nn.ReLU(), nn.ReLU(), nn.ReLU()])),
        "nested_list": repr(nn.ModuleList([nn.Sequential(nn.ReLU()), nn.Sequential(nn.ReLU())])),
        "seq_same": repr(nn.Sequential(nn.ReLU(), nn.ReLU())),
        "param_list": c.s(repr(pl)),
        "param_dict": c.s(repr(pd)),
        "losses": [repr(nn.MSELoss()), repr(nn.CrossEntropyLoss()), repr(nn.MSELoss(reduction="sum"))],
        "activations": [repr(nn.ReLU()), repr(nn.ReLU(True)), repr(nn.Tanh()), repr(nn.Sigmoid())],
        "linear": [repr(nn.Linear(3, 1)), repr(nn.Linear(3, 1, bias=False)), str(nn.Linear(1, 2))],
        "parameter": [c.s(repr(nn.Parameter(torch.tensor([1.0, 2.0])))),
                      c.s(str(nn.Parameter(torch.tensor([3.0]), requires_grad=False)))],
    }


# ---- containers --------------------------------------------------------------------------
def _names(seq):
    return [type(m).__name__ for m in seq]


def sc_sequential(c):
    torch = c.lib
    nn = torch.nn
    seq = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 3), nn.Tanh(), nn.Linear(3, 1))
    out = {
        "len": len(seq), "neg": type(seq[-2]).__name__,
        "slice": [type(seq[1:4]).__name__, _names(seq[1:4]), [n for n, _ in seq[1:4].named_children()]],
        "step": _names(seq[::2]), "rev": _names(seq[::-1]),
        "slice_shares": seq[1:3][0] is seq[1],
        "oob": c.err(lambda: seq[5]), "oob_neg": c.err(lambda: seq[-6]),
        "bad_index": c.err(lambda: seq["a"]),
    }
    seq[1] = nn.Sigmoid()
    out["setitem"] = _names(seq)
    del seq[1]
    out["del"] = [_names(seq), list(seq._modules.keys())]
    del seq[0:2]
    out["del_slice"] = [_names(seq), list(seq._modules.keys())]
    seq.append(nn.ReLU())
    seq.insert(0, nn.Identity())
    seq.insert(-1, nn.Sigmoid())
    out["insert"] = [_names(seq), list(seq._modules.keys())]
    out["insert_oob"] = c.err(lambda: seq.insert(10, nn.ReLU()))
    out["insert_not_module"] = c.err(lambda: seq.insert(0, 3))
    popped = seq.pop(1)
    out["pop"] = [type(popped).__name__, _names(seq)]
    seq.extend([nn.Tanh(), nn.Tanh()])
    out["extend"] = _names(seq)
    a = nn.Sequential(nn.ReLU())
    b = nn.Sequential(nn.Tanh(), nn.Sigmoid())
    s = a + b
    out["add"] = [_names(s), s is not a, s[0] is a[0]]
    out["add_bad"] = c.err(lambda: a + nn.ReLU())
    a += b
    out["iadd"] = _names(a)
    out["mul"] = [_names(b * 2), _names(2 * b), (b * 2)[0] is (b * 2)[2]]
    out["mul_bad"] = [c.err(lambda: b * 0), c.err(lambda: b * 1.5)]
    b *= 2
    out["imul"] = [_names(b), list(b._modules.keys())]
    od = nn.Sequential(OrderedDict([("conv", nn.Linear(1, 1)), ("act", nn.ReLU())]))
    out["ordered"] = [[n for n, _ in od.named_children()], type(od.act).__name__, type(od[1]).__name__,
                      list(od.state_dict().keys())]
    out["dir_no_digits"] = [k for k in dir(seq) if k.isdigit()]
    with torch.no_grad():
        lin = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
        _deterministic(torch, lin)
    out["forward"] = c.t(lin(torch.tensor([[1.0, -1.0]])))
    return out


def sc_module_list(c):
    torch = c.lib
    nn = torch.nn
    ml = nn.ModuleList([nn.Linear(1, 1), nn.ReLU()])
    ml.append(nn.Tanh())
    ml.extend([nn.Sigmoid(), nn.Identity()])
    ml.insert(1, nn.Sigmoid())
    out = {"after_build": [_names(ml), list(ml._modules.keys())],
           "slice": [type(ml[1:3]).__name__, _names(ml[1:3]), _names(ml[::-2])],
           "neg": type(ml[-1]).__name__, "oob": c.err(lambda: ml[9]), "oob_neg": c.err(lambda: ml[-9])}
    ml[0] = nn.Tanh()
    popped = ml.pop(-1)
    del ml[0:2]
    out["edit"] = [type(popped).__name__, _names(ml), list(ml._modules.keys())]
    comb = ml + nn.ModuleList([nn.ReLU()])
    ml += [nn.Identity()]
    out["add"] = [type(comb).__name__, _names(comb), _names(ml)]
    out["extend_bad"] = c.err(lambda: ml.extend(5))
    out["append_bad"] = c.err(lambda: ml.append(3))
    holder = nn.Module()
    holder.layers = nn.ModuleList([nn.Linear(2, 2, bias=False) for _ in range(2)])
    out["params"] = [n for n, _ in holder.named_parameters()]
    out["forward_missing"] = c.err(lambda: holder.layers(torch.ones(1)))
    return out


def sc_module_dict(c):
    torch = c.lib
    nn = torch.nn
    md = nn.ModuleDict({"b": nn.Linear(1, 2), "a": nn.ReLU()})
    md["c"] = nn.Tanh()
    md.update([("d", nn.Sigmoid()), ("b", nn.Identity())])
    md.update(nn.ModuleDict({"e": nn.ReLU()}))
    out = {"keys": list(md.keys()), "values": _names(md.values()),
           "items": [[k, type(v).__name__] for k, v in md.items()], "iter": list(md), "len": len(md),
           "contains": ["a" in md, "z" in md], "getitem": type(md["c"]).__name__,
           "missing": c.err(lambda: md["zz"])}
    popped = md.pop("a")
    del md["c"]
    out["after"] = [type(popped).__name__, list(md.keys()), [n for n, _ in md.named_children()]]
    out["update_bad"] = [c.err(lambda: md.update(5)), c.err(lambda: md.update([3])),
                         c.err(lambda: md.update([("a", nn.ReLU(), 1)]))]
    out["not_module"] = c.err(lambda: md.__setitem__("x", 3))
    md.clear()
    out["cleared"] = [len(md), list(md.keys())]
    return out


def sc_parameter_containers(c):
    torch = c.lib
    nn = torch.nn
    pl = nn.ParameterList([torch.ones(2), nn.Parameter(torch.zeros(1))])
    pl.append(torch.ones(3))
    pl.extend([nn.Parameter(torch.ones(1)), "str"])
    out = {"types": [type(p).__name__ for p in pl], "len": len(pl),
           "params": [n for n, _ in pl.named_parameters()],
           "slice": [type(pl[1:3]).__name__, len(pl[1:3])], "neg": type(pl[-1]).__name__,
           "oob": c.err(lambda: pl[10]), "extend_tensor": c.err(lambda: pl.extend(torch.ones(2))),
           "extend_int": c.err(lambda: pl.extend(3)), "call": c.err(lambda: pl(1)),
           "requires_grad": [p.requires_grad for p in pl if not isinstance(p, str)]}
    pl[0] = torch.zeros(5)
    out["setitem"] = [type(pl[0]).__name__, list(pl[0].shape)]
    pd = nn.ParameterDict({"b": torch.ones(1), "a": torch.zeros(2)})
    pd2 = nn.ParameterDict(OrderedDict([("z", torch.ones(1)), ("y", torch.ones(1))]))
    pd["c"] = nn.Parameter(torch.ones(3))
    pd.update([("d", torch.ones(1))])
    out["dict"] = [list(pd.keys()), [type(v).__name__ for v in pd.values()], list(pd2.keys()),
                   [n for n, _ in pd.named_parameters()], list(reversed(pd)), len(pd), "a" in pd]
    out["dict_ops"] = [list(pd.pop("a").shape), list(pd.keys()), pd.get("zz", "default"),
                       pd.popitem()[0], list(pd.keys())]
    out["setdefault"] = type(pd.setdefault("n", torch.ones(1))).__name__
    cp = pd.copy()
    merged = pd | pd2
    out["copy"] = [list(cp.keys()), cp["b"] is pd["b"], list(merged.keys())]
    pd |= pd2
    out["ior"] = list(pd.keys())
    fk = pd.fromkeys(["p", "q"])
    out["fromkeys"] = [list(fk.keys()), fk["p"] is None]
    out["bad_key"] = c.err(lambda: pd[1])
    out["update_bad"] = [c.err(lambda: pd.update(5)), c.err(lambda: pd.update([5])),
                         c.err(lambda: pd.update([("a",)]))]
    out["call"] = c.err(lambda: pd(1))
    pd.clear()
    out["cleared"] = [len(pd), list(pd.named_parameters())]
    return out


# ---- persistence -------------------------------------------------------------------------
def sc_pickle_and_deepcopy(c):
    torch = c.lib
    nn = torch.nn
    net = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
    _deterministic(torch, net)
    net[0].register_buffer("running", torch.tensor([1.0, 2.0]))
    net[0].register_buffer("np", torch.tensor([3.0]), persistent=False)
    net.register_forward_hook(_count_hook)
    net.eval()
    dc = copy.deepcopy(net)
    pk = pickle.loads(pickle.dumps(net))
    x = torch.tensor([[1.0, 2.0]])
    with torch.no_grad():
        dc[0].weight.add_(1.0)
    return {
        "deepcopy_independent": [dc[0].weight is not net[0].weight, c.t(net[0].weight)],
        "deepcopy_types": [type(dc).__name__, type(dc[0].weight).__name__, dc[0].weight.requires_grad],
        "deepcopy_training": dc.training,
        "deepcopy_buffers": [n for n, _ in dc.named_buffers()],
        "deepcopy_np": sorted(dc[0]._non_persistent_buffers_set),
        "pickle": [type(pk).__name__, c.t(pk(x)), [n for n, _ in pk.named_parameters()],
                   type(pk[0].weight).__name__, pk[0].weight.requires_grad, len(pk._forward_hooks)],
        "getstate_keys": sorted(k for k in net.__getstate__().keys() if not k.startswith("_compiled")),
    }


def _count_hook(mod, args, out):
    return None


# ---- Linear and losses -------------------------------------------------------------------
def sc_linear_and_losses(c):
    torch = c.lib
    nn = torch.nn
    torch.manual_seed(0)
    lin = nn.Linear(4, 3)
    bound = 1 / math.sqrt(4)
    nb = nn.Linear(4, 3, bias=False, dtype=torch.float64)
    zero_warn = c.warns(lambda: nn.Linear(0, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lin0 = nn.Linear(0, 2)
    in_bound = [float(lin.weight.abs().max()) <= bound, float(lin.bias.abs().max()) <= bound]
    _deterministic(torch, lin)
    x = torch.tensor([[1.0, 0.5, -1.0, 2.0]])
    mse = nn.MSELoss()
    ce = nn.CrossEntropyLoss()
    leg = c.warns(lambda: nn.MSELoss(size_average=False))
    return {
        "shapes": [list(lin.weight.shape), list(lin.bias.shape)],
        "in_bound": in_bound,
        "nb": [nb.bias is None, "bias" in nb._parameters, c.s(str(nb.weight.dtype)),
               list(nb.state_dict().keys())],
        "zero_warn": zero_warn,
        "lin0_bias": c.t(lin0.bias),
        "out": c.t(lin(x)), "out_fn": lin(x).grad_fn is not None,
        "mse": c.t(mse(torch.tensor([1.0, 2.0]), torch.tensor([0.0, 0.0]))),
        "mse_sum": c.t(nn.MSELoss(reduction="sum")(torch.tensor([1.0, 2.0]), torch.tensor([0.0, 0.0]))),
        "ce": c.t(ce(torch.tensor([[1.0, 2.0, 0.5]]), torch.tensor([1]))),
        "ce_state": [list(ce.state_dict().keys()), ce.weight is None, "weight" in ce._buffers, ce.reduction,
                     ce.ignore_index, ce.label_smoothing],
        "legacy": [leg, c.warns(lambda: nn.MSELoss(reduce=False)), c.warns(lambda: nn.MSELoss(False, False))],
        "legacy_reduction": [_quiet(lambda: nn.MSELoss(size_average=False)).reduction,
                             _quiet(lambda: nn.MSELoss(reduce=False)).reduction,
                             _quiet(lambda: nn.CrossEntropyLoss(size_average=True, reduce=True)).reduction],
        "identity": [nn.Identity()(x) is x, nn.Identity(3, k=1)(x) is x],
    }


def sc_linear_init_bounds(c):
    torch = c.lib
    nn = torch.nn
    torch.manual_seed(1)
    out = []
    for fin, fout in ((4, 3), (25, 10), (1, 1)):
        lin = nn.Linear(fin, fout)
        bound = 1 / math.sqrt(fin)
        out.append([float(lin.weight.abs().max()) <= bound, float(lin.bias.abs().max()) <= bound,
                    lin.weight.requires_grad, lin.weight.is_leaf, lin.weight.grad_fn is None])
    return {"bounds": out}


# ---- nn.init -----------------------------------------------------------------------------
def sc_init_gain_and_fan(c):
    torch = c.lib
    init = torch.nn.init
    names = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
             "conv_transpose3d", "sigmoid", "tanh", "relu", "leaky_relu", "selu"]
    gains = {n: init.calculate_gain(n) for n in names}
    fans = [list(init._calculate_fan_in_and_fan_out(torch.empty(*s)))
            for s in ((3, 4), (8, 3, 5), (16, 4, 3, 3), (2, 3, 2, 2, 2), (0, 4), (5, 0))]
    return {
        "gains": gains,
        "gain_types": [type(init.calculate_gain("linear")).__name__, type(init.calculate_gain("tanh")).__name__],
        "leaky": [init.calculate_gain("leaky_relu", 0.2), init.calculate_gain("leaky_relu", 1),
                  init.calculate_gain("leaky_relu", 0)],
        "leaky_bad": [c.err(lambda: init.calculate_gain("leaky_relu", True)),
                      c.err(lambda: init.calculate_gain("leaky_relu", "x"))],
        "unsupported": c.err(lambda: init.calculate_gain("gelu")),
        "fans": fans,
        "fan_1d": c.err(lambda: init._calculate_fan_in_and_fan_out(torch.empty(3))),
        "fan_mode": c.err(lambda: init.kaiming_uniform_(torch.empty(2, 2), mode="fan_avg")),
        "fan_mode_upper": init._calculate_correct_fan(torch.empty(2, 5), "FAN_OUT"),
    }


def sc_init_deterministic(c):
    torch = c.lib
    init = torch.nn.init
    p = torch.nn.Parameter(torch.zeros(2, 3))
    r = init.constant_(p, 0.25)
    d3 = init.dirac_(torch.empty(2, 2, 3))
    d4 = init.dirac_(torch.empty(4, 2, 3, 3), groups=2)
    d5 = init.dirac_(torch.empty(1, 1, 1, 3, 3))
    return {
        "constant": [c.t(p), r is p, p.requires_grad, p.grad_fn is None],
        "ones": c.t(init.ones_(torch.empty(2, 2))),
        "zeros": c.t(init.zeros_(torch.ones(3))),
        "eye": [c.t(init.eye_(torch.empty(2, 3))), c.t(init.eye_(torch.empty(3, 2, dtype=torch.float64)))],
        "eye_param": init.eye_(torch.nn.Parameter(torch.empty(2, 2))).requires_grad,
        "eye_bad": c.err(lambda: init.eye_(torch.empty(2, 2, 2))),
        "dirac3": c.t(d3), "dirac4": c.t(d4), "dirac5": c.t(d5),
        "dirac_bad": [c.err(lambda: init.dirac_(torch.empty(2, 2))),
                      c.err(lambda: init.dirac_(torch.empty(3, 2, 2), groups=2))],
        "orthogonal_bad": c.err(lambda: init.orthogonal_(torch.empty(3))),
        "sparse_bad": c.err(lambda: init.sparse_(torch.empty(3), 0.5)),
        "deprecated": c.warns(lambda: init.constant(torch.empty(1), 1.0)),
    }


def sc_init_random_bounds(c):
    torch = c.lib
    init = torch.nn.init
    torch.manual_seed(3)
    w = torch.empty(64, 32)
    res = {}

    def within(t, bound):
        return float(t.abs().max()) <= bound * (1 + 1e-6)

    init.uniform_(w, -0.3, 0.2)
    res["uniform"] = [float(w.min()) >= -0.3, float(w.max()) <= 0.2]
    init.normal_(w, 5.0, 0.01)
    res["normal"] = abs(float(w.mean()) - 5.0) < 0.01
    xb = math.sqrt(6.0 / (64 + 32))
    res["xavier_uniform"] = [init.xavier_uniform_(w) is w, within(w, xb), float(w.abs().max()) > 0.8 * xb]
    init.xavier_uniform_(w, gain=3.0)
    res["xavier_uniform_gain"] = within(w, 3 * xb)
    init.xavier_normal_(w, gain=2.0)
    res["xavier_normal_std"] = abs(float(w.std()) / (2.0 * math.sqrt(2.0 / 96)) - 1) < 0.1
    kb = math.sqrt(2.0 / (1 + 5)) * math.sqrt(3.0 / 32)
    init.kaiming_uniform_(w, a=math.sqrt(5))
    res["kaiming_uniform"] = [within(w, kb), float(w.abs().max()) > 0.8 * kb]
    init.kaiming_uniform_(w, mode="fan_out", nonlinearity="relu")
    res["kaiming_uniform_fan_out"] = within(w, math.sqrt(2.0) * math.sqrt(3.0 / 64))
    init.kaiming_normal_(w, nonlinearity="relu")
    res["kaiming_normal_std"] = abs(float(w.std()) / math.sqrt(2.0 / 32) - 1) < 0.1
    init.kaiming_normal_(w, a=0.5, mode="fan_out")
    res["kaiming_normal_fan_out"] = abs(float(w.std()) / (math.sqrt(2.0 / 1.25) / 8) - 1) < 0.1
    conv = torch.empty(8, 4, 3, 3)
    init.kaiming_uniform_(conv)
    res["kaiming_conv"] = within(conv, math.sqrt(2.0 / (1 + 0)) * math.sqrt(3.0 / 36))
    tn = init.trunc_normal_(torch.empty(1000), mean=1.0, std=2.0, a=-1.0, b=2.5)
    res["trunc_normal"] = [float(tn.min()) >= -1.0, float(tn.max()) <= 2.5]
    narrow = torch.empty(500)
    res["trunc_narrow_warn"] = c.warns(lambda: init.trunc_normal_(narrow, mean=0.0, std=1.0, a=3.0, b=3.5))
    res["trunc_narrow"] = [float(narrow.min()) >= 3.0, float(narrow.max()) <= 3.5]
    res["trunc_warn"] = c.warns(lambda: init.trunc_normal_(torch.empty(10), mean=10.0, std=1.0, a=-1.0, b=1.0))
    p = torch.nn.Parameter(torch.empty(3, 3))
    init.kaiming_normal_(p)
    res["param_stays_leaf"] = [p.is_leaf, p.requires_grad, p.grad_fn is None]
    res["zero_element"] = [c.warns(lambda: init.kaiming_uniform_(torch.empty(0, 3))),
                           c.warns(lambda: init.kaiming_normal_(torch.empty(3, 0)))]
    sp = init.sparse_(torch.empty(10, 4), sparsity=0.3)
    res["sparse_zeros_per_col"] = [int((sp[:, j] == 0).sum()) for j in range(4)]
    return res


# ---- nn.utils ----------------------------------------------------------------------------
def _params_with_grads(torch, grads):
    ps = []
    for g in grads:
        p = torch.nn.Parameter(torch.zeros(len(g)))
        p.grad = torch.tensor(g)
        ps.append(p)
    return ps


def sc_clip_grad(c):
    torch = c.lib
    U = torch.nn.utils
    grads = [[3.0, -4.0], [1.0, 2.0, -2.0]]
    out = {}
    for nt in (2.0, 1, float("inf"), 0.5, 3.0, 0):
        ps = _params_with_grads(torch, grads)
        total = U.clip_grad_norm_(ps, max_norm=1.0, norm_type=nt)
        out[f"norm_{nt}"] = [c.t(total), [c.t(p.grad) for p in ps]]
    ps = _params_with_grads(torch, grads)
    total = U.clip_grad_norm_(ps, 100.0)
    out["no_clip"] = [c.t(total), [c.t(p.grad) for p in ps]]
    single = _params_with_grads(torch, [[6.0, 8.0]])[0]
    out["single_tensor"] = [c.t(U.clip_grad_norm_(single, 5.0)), c.t(single.grad)]
    mixed = _params_with_grads(torch, [[1.0, 1.0]]) + [torch.nn.Parameter(torch.ones(2))]
    out["some_without_grad"] = [c.t(U.clip_grad_norm_(mixed, 1.0)), mixed[1].grad is None]
    out["empty"] = c.t(U.clip_grad_norm_([], 1.0))
    out["empty_gen_warns"] = c.warns(lambda: U.clip_grad_norm_((p for p in []), 1.0))
    nan = _params_with_grads(torch, [[float("nan"), 1.0]])
    out["nonfinite"] = c.err(lambda: U.clip_grad_norm_(nan, 1.0, error_if_nonfinite=True))
    inf = _params_with_grads(torch, [[float("inf"), 1.0]])
    out["inf_no_error"] = c.t(U.clip_grad_norm_(inf, 1.0))
    out["foreach_true_cpu"] = c.err(lambda: U.clip_grad_norm_(_params_with_grads(torch, grads), 1.0, foreach=True))
    ps = _params_with_grads(torch, grads)
    out["foreach_false"] = c.t(U.clip_grad_norm_(ps, 1.0, foreach=False))
    out["deprecated"] = c.warns(lambda: U.clip_grad_norm(_params_with_grads(torch, grads), 1.0))
    ps = _params_with_grads(torch, [[0.5, -3.0, 2.0]])
    r = U.clip_grad_value_(ps, 1.0)
    out["value"] = [r is None, c.t(ps[0].grad)]
    out["value_foreach"] = c.err(lambda: U.clip_grad_value_(_params_with_grads(torch, grads), 1.0, foreach=True))
    tn = U.get_total_norm([torch.tensor([3.0, 4.0]), torch.tensor([12.0])], norm_type=2)
    out["get_total_norm"] = c.t(tn)
    ps = _params_with_grads(torch, [[3.0, 4.0]])
    U.clip_grads_with_norm_(ps, 1.0, torch.tensor(10.0))
    out["clip_grads_with_norm"] = c.t(ps[0].grad)
    dt = [torch.nn.Parameter(torch.zeros(2, dtype=torch.float64))]
    dt[0].grad = torch.tensor([3.0, 4.0], dtype=torch.float64)
    out["float64"] = c.t(U.clip_grad_norm_(dt, 1.0))
    return out


def sc_param_vector(c):
    torch = c.lib
    U = torch.nn.utils
    lin = torch.nn.Linear(2, 2)
    _deterministic(torch, lin)
    vec = U.parameters_to_vector(lin.parameters())
    res = {"vec": c.t(vec), "vec_grad_fn": vec.grad_fn is not None, "vec_requires_grad": vec.requires_grad}
    w = lin.weight
    U.vector_to_parameters(torch.arange(6.0), lin.parameters())
    res["back"] = [c.t(lin.weight), c.t(lin.bias), lin.weight is w, type(lin.weight).__name__]
    res["not_tensor"] = c.err(lambda: U.vector_to_parameters([1.0], lin.parameters()))
    return res


SCENARIOS = {name[3:]: fn for name, fn in sorted(globals().items()) if name.startswith("sc_")}


def run_all(lib):
    """{scenario name: result or ["crashed", type, message]} for the library ``lib``."""
    out = {}
    for name, fn in SCENARIOS.items():
        out[name] = run_one(lib, name)
    return out


def run_one(lib, name):
    c = Ctx(lib)
    try:
        return SCENARIOS[name](c)
    except Exception as e:  # noqa: BLE001
        return ["crashed", type(e).__name__, c.s(str(e))]
