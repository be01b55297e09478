"""Record PyTorch's results for the optimizer and scheduler cases into
``tests/python/fixtures/optim.json``.

Run with the PyTorch environment::

    .venv-bench/bin/python tools/record_optim_goldens.py

Every case is a function ``fn(torch)`` returning plain values (lists, numbers, strings);
``tests/python/test_optim.py`` imports this module (it never imports torch itself: torch is
imported only by ``main``), runs each case with ``ferrograd`` and compares with the fixture.
"""

import copy
import json
import math
import os
import sys
import warnings

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "tests", "python", "fixtures", "optim.json")

STEPS = 20


# ----------------------------------------------------------------------------- helpers

def V(t):
    """Flat list of a tensor's values."""
    return [float(v) for v in t.detach().reshape(-1).tolist()]


def raises(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the type is the result
        return {"type": type(e).__name__, "msg": str(e).split("\n")[0]}
    return {"type": None}


def warns(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        fn()
    return [[x.category.__name__, str(x.message).split("\n")[0]] for x in w]


def plain(x):
    """Group values as JSON: tuples become lists, tensors their values."""
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    if isinstance(x, dict):
        return {str(k): plain(v) for k, v in x.items()}
    if hasattr(x, "detach"):
        return {"tensor": V(x), "dtype": str(x.dtype).split(".")[-1]}
    if isinstance(x, float) and math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def _mod(torch, name):
    """A submodule of ``<lib>.optim`` (``torch.optim.optimizer`` is not a package attribute)."""
    from importlib import import_module

    return import_module(f"{torch.__name__}.optim.{name}")


def _build(torch, value):
    """Config values: ``{"tensor": x}`` is ``torch.tensor(x)``; tuples stay tuples."""
    if isinstance(value, dict) and "tensor" in value:
        return torch.tensor(value["tensor"])
    if isinstance(value, tuple):
        return tuple(_build(torch, v) for v in value)
    return value


def _problem(torch):
    """A small least-squares problem with a tanh layer (fixed data, non-quadratic)."""
    w = torch.nn.Parameter(torch.tensor([[0.5, -0.2, 0.1], [0.1, 0.8, -0.4]]))
    b = torch.nn.Parameter(torch.tensor([0.0, 0.3]))
    x = torch.tensor([[1.0, 2.0, -0.5], [-1.0, 0.5, 0.3], [0.5, -1.5, 1.0], [0.2, 0.1, -2.0]])
    y = torch.tensor([[1.0, 0.0], [0.0, 1.0], [2.0, -1.0], [-0.5, 0.5]])

    def loss_fn():
        h = torch.tanh(x @ w.t() + b)
        return ((h * 2.0 - y) ** 2).mean()

    return [w, b], loss_fn


def _noise(step, n):
    """Deterministic per-step gradient noise (a small LCG, three decimals)."""
    out = []
    x = (step * 7919 + 17) % 10007
    for _ in range(n):
        x = (x * 1103 + 12345) % 10007
        out.append(round((x / 10007.0 - 0.5) * 0.4, 3))
    return out


def _quad_problem(torch):
    """Parameters and a gradient rule made of single correctly rounded elementwise ops
    (``(p - target) * curvature + noise_k``), so any difference between libraries comes from
    the optimizer's arithmetic alone."""
    w = torch.nn.Parameter(torch.tensor([[0.5, -0.2, 0.1], [0.1, 0.8, -0.4]]))
    b = torch.nn.Parameter(torch.tensor([0.0, 0.3]))
    targets = [torch.tensor([[1.0, 0.5, -1.0], [0.25, -0.75, 2.0]]), torch.tensor([-0.5, 1.5])]
    curv = [torch.tensor([[0.5, 2.0, 5.0], [1.0, 0.1, 3.0]]), torch.tensor([4.0, 0.25])]

    def set_grads(step):
        noise = _noise(step, 8)
        with torch.no_grad():
            w.grad = (w - targets[0]) * curv[0] + torch.tensor([noise[:3], noise[3:6]])
            b.grad = (b - targets[1]) * curv[1] + torch.tensor(noise[6:])
        return (w - targets[0]).abs().sum() + (b - targets[1]).abs().sum()

    return [w, b], set_grads


def _train(torch, make, steps=STEPS, closure=False):
    params, set_grads = _quad_problem(torch)
    opt = make(params)
    trace = []
    losses = []
    for k in range(steps):
        if closure:
            def closure_fn():
                opt.zero_grad()
                return set_grads(k)

            loss = opt.step(closure_fn)
        else:
            opt.zero_grad()
            loss = set_grads(k)
            opt.step()
        losses.append(loss.item())
        trace.append(V(params[0]) + V(params[1]))
    sd = opt.state_dict()
    state = {
        str(k): {key: (V(v) if hasattr(v, "detach") else v) for key, v in sorted(s.items())}
        for k, s in sd["state"].items()
    }
    step_types = sorted(
        {
            f"{type(s['step']).__name__}:{str(s['step'].dtype).split('.')[-1]}:{tuple(s['step'].shape)}"
            for s in sd["state"].values()
            if "step" in s
        }
    )
    groups = [
        {k: plain(v) for k, v in g.items()} for g in sd["param_groups"]
    ]
    return {"params": trace, "losses": losses, "state": state, "step_types": step_types,
            "param_groups": groups, "repr": repr(opt)}


OPTIMIZERS = {
    "sgd_plain": ("SGD", {"lr": 0.1}),
    "sgd_momentum": ("SGD", {"lr": 0.05, "momentum": 0.9}),
    "sgd_nesterov": ("SGD", {"lr": 0.05, "momentum": 0.9, "nesterov": True}),
    "sgd_nesterov_wd": ("SGD", {"lr": 0.05, "momentum": 0.8, "nesterov": True, "weight_decay": 0.1}),
    "sgd_dampening": ("SGD", {"lr": 0.1, "momentum": 0.5, "dampening": 0.3}),
    "sgd_weight_decay": ("SGD", {"lr": 0.1, "weight_decay": 0.5}),
    "sgd_maximize": ("SGD", {"lr": 0.01, "momentum": 0.2, "maximize": True}),
    "sgd_maximize_wd": ("SGD", {"lr": 0.02, "momentum": 0.7, "weight_decay": 0.2, "maximize": True}),
    "sgd_foreach": ("SGD", {"lr": 0.05, "momentum": 0.9, "foreach": True}),
    "sgd_fused": ("SGD", {"lr": 0.05, "momentum": 0.9, "fused": True}),
    "sgd_tensor_lr": ("SGD", {"lr": {"tensor": 0.05}, "momentum": 0.5}),
    "sgd_default_lr": ("SGD", {}),
    "adam_default": ("Adam", {"lr": 0.05}),
    "adam_betas_eps": ("Adam", {"lr": 0.1, "betas": (0.8, 0.9), "eps": 1e-6}),
    "adam_small_betas": ("Adam", {"lr": 0.05, "betas": (0.3, 0.5)}),
    "adam_weight_decay": ("Adam", {"lr": 0.05, "weight_decay": 0.1}),
    "adam_amsgrad": ("Adam", {"lr": 0.2, "amsgrad": True}),
    "adam_maximize": ("Adam", {"lr": 0.01, "maximize": True}),
    "adam_amsgrad_wd_maximize": ("Adam", {"lr": 0.03, "amsgrad": True, "weight_decay": 0.2,
                                          "maximize": True}),
    "adam_decoupled": ("Adam", {"lr": 0.05, "weight_decay": 0.3, "decoupled_weight_decay": True}),
    "adam_tensor_lr": ("Adam", {"lr": {"tensor": 0.05}}),
    "adam_tensor_betas": ("Adam", {"lr": 0.05, "betas": ({"tensor": 0.85}, {"tensor": 0.99})}),
    "adam_foreach": ("Adam", {"lr": 0.05, "foreach": True}),
    "adam_fused": ("Adam", {"lr": 0.05, "fused": True}),
    "adam_fused_amsgrad": ("Adam", {"lr": 0.05, "fused": True, "amsgrad": True, "weight_decay": 0.1}),
    "adam_defaults": ("Adam", {}),
    "adamw_default": ("AdamW", {"lr": 0.05}),
    "adamw_strong_decay": ("AdamW", {"lr": 0.1, "weight_decay": 0.5}),
    "adamw_amsgrad": ("AdamW", {"lr": 0.2, "weight_decay": 0.05, "amsgrad": True}),
    "adamw_maximize": ("AdamW", {"lr": 0.02, "maximize": True, "betas": (0.7, 0.95)}),
    "adamw_foreach": ("AdamW", {"lr": 0.05, "foreach": True, "weight_decay": 0.2}),
    "rmsprop_default": ("RMSprop", {"lr": 0.01}),
    "rmsprop_momentum": ("RMSprop", {"lr": 0.01, "momentum": 0.5, "alpha": 0.9}),
    "rmsprop_centered": ("RMSprop", {"lr": 0.01, "centered": True, "weight_decay": 0.1}),
    "rmsprop_centered_momentum": ("RMSprop", {"lr": 0.005, "centered": True, "momentum": 0.7,
                                              "eps": 1e-4}),
    "rmsprop_small_alpha": ("RMSprop", {"lr": 0.01, "alpha": 0.3, "centered": True}),
    "rmsprop_maximize": ("RMSprop", {"lr": 0.003, "maximize": True, "momentum": 0.2}),
    "rmsprop_foreach": ("RMSprop", {"lr": 0.01, "momentum": 0.5, "foreach": True}),
    "rmsprop_tensor_lr": ("RMSprop", {"lr": {"tensor": 0.01}, "momentum": 0.3}),
    "adagrad_default": ("Adagrad", {"lr": 0.3}),
    "adagrad_decay": ("Adagrad", {"lr": 0.3, "lr_decay": 0.1, "initial_accumulator_value": 0.5}),
    "adagrad_weight_decay": ("Adagrad", {"lr": 0.2, "weight_decay": 0.3, "eps": 1e-3}),
    "adagrad_maximize": ("Adagrad", {"lr": 0.05, "maximize": True}),
    "adagrad_foreach": ("Adagrad", {"lr": 0.3, "lr_decay": 0.05, "foreach": True}),
    "adagrad_fused": ("Adagrad", {"lr": 0.3, "fused": True}),
    "adamax_default": ("Adamax", {"lr": 0.05}),
    "adamax_wd_maximize": ("Adamax", {"lr": 0.02, "betas": (0.8, 0.99), "weight_decay": 0.1,
                                      "maximize": True}),
    "adamax_foreach": ("Adamax", {"lr": 0.05, "eps": 1e-3, "foreach": True}),
    "adadelta_default": ("Adadelta", {}),
    "adadelta_options": ("Adadelta", {"lr": 0.5, "rho": 0.8, "eps": 1e-4, "weight_decay": 0.1}),
    "adadelta_maximize": ("Adadelta", {"lr": 0.1, "maximize": True, "foreach": True}),
    "nadam_default": ("NAdam", {"lr": 0.05}),
    "nadam_wd": ("NAdam", {"lr": 0.05, "weight_decay": 0.1, "momentum_decay": 0.01}),
    "nadam_decoupled": ("NAdam", {"lr": 0.05, "weight_decay": 0.3, "decoupled_weight_decay": True,
                                  "maximize": True}),
    "nadam_foreach": ("NAdam", {"lr": 0.05, "betas": (0.8, 0.9), "foreach": True}),
    "radam_default": ("RAdam", {"lr": 0.05}),
    "radam_wd": ("RAdam", {"lr": 0.05, "weight_decay": 0.1, "betas": (0.8, 0.9)}),
    "radam_decoupled": ("RAdam", {"lr": 0.05, "weight_decay": 0.3, "decoupled_weight_decay": True,
                                  "betas": (0.5, 0.7), "maximize": True}),
    "radam_foreach": ("RAdam", {"lr": 0.05, "betas": (0.7, 0.8), "foreach": True}),
    "rprop_default": ("Rprop", {}),
    "rprop_options": ("Rprop", {"lr": 0.05, "etas": (0.3, 1.5), "step_sizes": (1e-3, 0.2)}),
    "rprop_maximize": ("Rprop", {"lr": 0.02, "maximize": True, "foreach": True}),
    "asgd_default": ("ASGD", {"lr": 0.05}),
    "asgd_averaging": ("ASGD", {"lr": 0.05, "lambd": 0.01, "alpha": 0.5, "t0": 5, "weight_decay": 0.1}),
    "asgd_maximize": ("ASGD", {"lr": 0.01, "t0": 3, "maximize": True, "foreach": True}),
}


def _optimizer_case(name):
    cls_name, kwargs = OPTIMIZERS[name]

    def case(torch):
        cls = getattr(torch.optim, cls_name)
        return _train(torch, lambda p: cls(p, **{k: _build(torch, v) for k, v in kwargs.items()}))

    return case


def _lbfgs_run(torch, steps=4, **kwargs):
    """L-BFGS on a quadratic with a hand-written gradient (closure sets ``.grad``)."""
    w = torch.nn.Parameter(torch.tensor([[0.5, -0.2, 0.1], [0.1, 0.8, -0.4]]))
    b = torch.nn.Parameter(torch.tensor([0.0, 0.3]))
    targets = [torch.tensor([[1.0, 0.5, -1.0], [0.25, -0.75, 2.0]]), torch.tensor([-0.5, 1.5])]
    curv = [torch.tensor([[0.5, 2.0, 5.0], [1.0, 0.1, 3.0]]), torch.tensor([4.0, 0.25])]
    opt = torch.optim.LBFGS([w, b], **kwargs)
    evals = []

    def closure():
        opt.zero_grad()
        loss = 0.0
        for p, t, c in zip((w, b), targets, curv):
            with torch.no_grad():
                diff = p - t
                p.grad = diff * c
                loss = loss + float((diff * diff * c).sum()) * 0.5
        evals.append(loss)
        return torch.tensor(loss)

    trace = []
    for _ in range(steps):
        loss = opt.step(closure)
        trace.append({"loss": loss.item(), "w": V(w), "b": V(b)})
    st = opt.state[w]
    return {"trace": trace, "evals": len(evals), "func_evals": st["func_evals"], "n_iter": st["n_iter"],
            "history": len(st["old_dirs"]), "state_keys": sorted(st.keys()),
            "other_state": len(opt.state[b])}


def case_lbfgs(torch):
    return {
        "default": _lbfgs_run(torch, lr=0.5, max_iter=5),
        "strong_wolfe": _lbfgs_run(torch, lr=1, max_iter=6, line_search_fn="strong_wolfe"),
        "history": _lbfgs_run(torch, lr=0.3, max_iter=4, history_size=2),
        "tolerances": _lbfgs_run(torch, steps=3, lr=1, tolerance_grad=1e-3, tolerance_change=1e-4,
                                 line_search_fn="strong_wolfe", max_eval=30),
        "groups": raises(lambda: torch.optim.LBFGS([{"params": [torch.nn.Parameter(torch.ones(1))]},
                                                    {"params": [torch.nn.Parameter(torch.ones(1))]}])),
        "bad_line_search": raises(lambda: _lbfgs_run(torch, steps=1, line_search_fn="armijo")),
        "repr": repr(torch.optim.LBFGS([torch.nn.Parameter(torch.ones(1))])),
    }


def case_closure(torch):
    return _train(torch, lambda p: torch.optim.Adam(p, lr=0.05), steps=5, closure=True)


def case_closure_grad_mode(torch):
    """The closure runs with grad enabled, the update without."""
    params, loss_fn = _problem(torch)
    opt = torch.optim.SGD(params, lr=0.1)
    seen = []

    def closure():
        seen.append(torch.is_grad_enabled())
        opt.zero_grad()
        loss = loss_fn()
        loss.backward()
        return loss

    with torch.no_grad():
        loss = opt.step(closure)
    return {"seen": seen, "loss": loss.item(), "after": torch.is_grad_enabled(),
            "requires_grad": params[0].requires_grad, "is_leaf": params[0].is_leaf}


def case_param_groups(torch):
    params, loss_fn = _problem(torch)
    opt = torch.optim.SGD([{"params": [params[0]]}, {"params": params[1], "lr": 0.5, "nesterov": True}],
                          lr=0.1, momentum=0.5)
    for _ in range(5):
        opt.zero_grad()
        loss_fn().backward()
        opt.step()
    extra = torch.nn.Parameter(torch.ones(2))
    opt.add_param_group({"params": extra, "lr": 0.01})
    sd = opt.state_dict()
    return {
        "w": V(params[0]), "b": V(params[1]),
        "groups": [{k: plain(v) for k, v in g.items()} for g in sd["param_groups"]],
        "state_ids": sorted(sd["state"].keys()),
        "repr": repr(opt),
        "defaults": plain(opt.defaults),
        "duplicate": raises(lambda: opt.add_param_group({"params": [params[0]]})),
        "not_dict": raises(lambda: opt.add_param_group([extra])),
        "set": raises(lambda: opt.add_param_group({"params": {torch.nn.Parameter(torch.ones(1))}})),
    }


def case_param_groups_adam(torch):
    params, loss_fn = _problem(torch)
    opt = torch.optim.Adam([{"params": [params[0]], "betas": (0.5, 0.6)},
                            {"params": [params[1]], "amsgrad": True, "lr": 0.2}], lr=0.05)
    trace = []
    for _ in range(8):
        opt.zero_grad()
        loss_fn().backward()
        opt.step()
        trace.append(V(params[0]) + V(params[1]))
    return {"trace": trace, "state_keys": [sorted(opt.state[p].keys()) for p in params],
            "repr": repr(opt)}


def case_named_params(torch):
    params, loss_fn = _problem(torch)
    opt = torch.optim.SGD([("w", params[0]), ("b", params[1])], lr=0.1, momentum=0.9)
    opt.zero_grad()
    loss_fn().backward()
    opt.step()
    sd = opt.state_dict()
    return {"param_names": sd["param_groups"][0]["param_names"], "params": sd["param_groups"][0]["params"],
            "mixed": raises(lambda: torch.optim.SGD([("w", params[0]), params[1]], lr=0.1)),
            "add_unnamed": raises(lambda: opt.add_param_group(
                {"params": [torch.nn.Parameter(torch.ones(1))]}))}


def case_no_grad_param_skipped(torch):
    """Parameters without a gradient are skipped and get no state."""
    params, loss_fn = _problem(torch)
    frozen = torch.nn.Parameter(torch.ones(2))
    opt = torch.optim.Adam(params + [frozen], lr=0.1)
    opt.zero_grad()
    loss_fn().backward()
    opt.step()
    return {"frozen": V(frozen), "state_len": len(opt.state),
            "state_ids": sorted(opt.state_dict()["state"].keys())}


def case_zero_grad(torch):
    params, loss_fn = _problem(torch)
    opt = torch.optim.SGD(params, lr=0.1)
    loss_fn().backward()
    opt.zero_grad()
    none_after = [p.grad is None for p in params]
    loss_fn().backward()
    g = params[0].grad
    opt.zero_grad(set_to_none=False)
    return {"none_after": none_after, "zeros_after": [V(p.grad) for p in params],
            "same_tensor": params[0].grad is g}


def case_state_dict_round_trip(torch):
    out = {}
    for name, make in (
        ("sgd", lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9)),
        ("adam", lambda p: torch.optim.Adam(p, lr=0.05, amsgrad=True)),
        ("adamw", lambda p: torch.optim.AdamW(p, lr=0.05)),
        ("rmsprop", lambda p: torch.optim.RMSprop(p, lr=0.01, centered=True, momentum=0.3)),
        ("adagrad", lambda p: torch.optim.Adagrad(p, lr=0.3, lr_decay=0.1)),
    ):
        params, loss_fn = _problem(torch)
        opt = make(params)
        for _ in range(3):
            opt.zero_grad()
            loss_fn().backward()
            opt.step()
        sd = copy.deepcopy(opt.state_dict())
        params2, loss_fn2 = _problem(torch)
        with torch.no_grad():
            for p, q in zip(params2, params):
                p.copy_(q)
        opt2 = make(params2)
        opt2.load_state_dict(sd)
        for _ in range(3):
            for o, f in ((opt, loss_fn), (opt2, loss_fn2)):
                o.zero_grad()
                f().backward()
                o.step()
        out[name] = {
            "keys": list(sd.keys()),
            "state_keys": {str(k): sorted(v.keys()) for k, v in sd["state"].items()},
            "group_keys": sorted(sd["param_groups"][0].keys()),
            "resumed": V(params2[0]) + V(params2[1]),
            "reference": V(params[0]) + V(params[1]),
            "loaded_state_is_copy": opt2.state[params2[0]] is not sd["state"][0],
        }
    return out


def case_state_dict_live(torch):
    params, loss_fn = _problem(torch)
    opt = torch.optim.Adam(params, lr=0.05)
    opt.zero_grad()
    loss_fn().backward()
    opt.step()
    sd = opt.state_dict()
    return {"shares": sd["state"][0]["exp_avg"] is opt.state[params[0]]["exp_avg"],
            "group_is_copy": sd["param_groups"][0] is not opt.param_groups[0],
            "step": V(sd["state"][0]["step"]),
            "step_dtype": str(sd["state"][0]["step"].dtype).split(".")[-1]}


def case_load_state_dict_errors(torch):
    params, _ = _problem(torch)
    opt = torch.optim.SGD(params, lr=0.1)
    sd = opt.state_dict()
    opt_one = torch.optim.SGD([params[0]], lr=0.1)
    opt_two_groups = torch.optim.SGD([{"params": [params[0]]}, {"params": [params[1]]}], lr=0.1)
    return {
        "group_size": raises(lambda: opt_one.load_state_dict(sd)),
        "group_count": raises(lambda: opt_two_groups.load_state_dict(sd)),
    }


def case_load_casts_state(torch):
    """Loaded state tensors take the parameter's floating dtype; ``step`` keeps its own."""
    p = torch.nn.Parameter(torch.tensor([1.0, -2.0], dtype=torch.float64))
    opt = torch.optim.Adam([p], lr=0.1)
    p.grad = torch.tensor([0.5, 0.25], dtype=torch.float64)
    opt.step()
    sd = copy.deepcopy(opt.state_dict())
    sd["state"][0]["exp_avg"] = sd["state"][0]["exp_avg"].float()
    opt.load_state_dict(sd)
    st = opt.state[p]
    return {"exp_avg": str(st["exp_avg"].dtype).split(".")[-1],
            "step": str(st["step"].dtype).split(".")[-1]}


def case_hooks(torch):
    params, loss_fn = _problem(torch)
    opt = torch.optim.SGD(params, lr=0.1)
    log = []
    h1 = opt.register_step_pre_hook(lambda o, a, k: log.append(("pre", len(a), sorted(k))))
    h2 = opt.register_step_post_hook(lambda o, a, k: log.append(("post", len(a), sorted(k))))
    g = _mod(torch, "optimizer").register_optimizer_step_pre_hook(lambda o, a, k: log.append(("gpre",)))
    opt.zero_grad()
    loss_fn().backward()
    opt.step()
    g.remove()
    opt.step(closure=None)
    h1.remove()
    h2.remove()
    opt.step()
    sd_log = []
    opt.register_state_dict_pre_hook(lambda o: sd_log.append("pre"))
    opt.register_state_dict_post_hook(lambda o, sd: sd_log.append(sorted(sd.keys())))
    opt.register_load_state_dict_pre_hook(lambda o, sd: sd_log.append("load_pre"))
    opt.register_load_state_dict_post_hook(lambda o: sd_log.append("load_post"))
    opt.load_state_dict(opt.state_dict())
    bad = opt.register_step_pre_hook(lambda o, a, k: 5)
    err = raises(lambda: opt.step())
    bad.remove()
    return {"log": plain(log), "sd_log": sd_log, "bad_hook": err["type"]}


def case_repr(torch):
    params, _ = _problem(torch)
    return {
        "sgd": repr(torch.optim.SGD(params, lr=0.1, momentum=0.9)),
        "adam": repr(torch.optim.Adam(params)),
        "adamw": repr(torch.optim.AdamW(params, lr=0.01)),
        "rmsprop": repr(torch.optim.RMSprop(params)),
        "adagrad": repr(torch.optim.Adagrad(params)),
    }


def case_defaults(torch):
    params, _ = _problem(torch)
    return {
        name: plain(getattr(torch.optim, name)(params).defaults)
        for name in ("Adam", "AdamW", "RMSprop", "Adagrad", "SGD", "Adamax", "Adadelta", "NAdam",
                     "RAdam", "Rprop", "ASGD")
    }


def case_errors(torch):
    params, _ = _problem(torch)
    O = torch.optim
    nonleaf = params[0] * 2
    return {
        "sgd_negative_lr": raises(lambda: O.SGD(params, lr=-0.1)),
        "sgd_negative_momentum": raises(lambda: O.SGD(params, lr=0.1, momentum=-0.5)),
        "sgd_negative_wd": raises(lambda: O.SGD(params, lr=0.1, weight_decay=-1)),
        "sgd_nesterov": raises(lambda: O.SGD(params, lr=0.1, nesterov=True)),
        "sgd_nesterov_dampening": raises(lambda: O.SGD(params, lr=0.1, momentum=0.9, dampening=0.1,
                                                       nesterov=True)),
        "sgd_tensor_lr_2": raises(lambda: O.SGD(params, lr=torch.tensor([0.1, 0.2]))),
        "sgd_fused_foreach": raises(lambda: O.SGD(params, lr=0.1, fused=True, foreach=True)),
        "sgd_fused_differentiable": raises(lambda: O.SGD(params, lr=0.1, fused=True, differentiable=True)),
        "adam_bad_beta0": raises(lambda: O.Adam(params, betas=(1.0, 0.999))),
        "adam_bad_beta1": raises(lambda: O.Adam(params, betas=(0.9, -0.1))),
        "adam_int_beta": raises(lambda: O.Adam(params, betas=(0, 0.9))),
        "adam_mixed_betas": raises(lambda: O.Adam(params, betas=(torch.tensor(0.9), 0.9))),
        "adam_bad_eps": raises(lambda: O.Adam(params, eps=-1.0)),
        "adam_bad_lr": raises(lambda: O.Adam(params, lr=-1e-3)),
        "adam_bad_wd": raises(lambda: O.Adam(params, weight_decay=-1e-3)),
        "adam_tensor_lr_foreach": raises(lambda: O.Adam(params, lr=torch.tensor(0.1), foreach=True)),
        "adam_tensor_beta_foreach": raises(lambda: O.Adam(
            params, betas=(torch.tensor(0.9), torch.tensor(0.99)), foreach=True)),
        "adam_fused_foreach": raises(lambda: O.Adam(params, fused=True, foreach=True)),
        "adam_fused_differentiable": raises(lambda: O.Adam(params, fused=True, differentiable=True)),
        "adamw_bad_lr": raises(lambda: O.AdamW(params, lr=-0.5)),
        "rmsprop_bad_alpha": raises(lambda: O.RMSprop(params, alpha=-0.5)),
        "rmsprop_bad_momentum": raises(lambda: O.RMSprop(params, momentum=-0.5)),
        "rmsprop_bad_eps": raises(lambda: O.RMSprop(params, eps=-0.5)),
        "adagrad_bad_lr_decay": raises(lambda: O.Adagrad(params, lr_decay=-0.5)),
        "adagrad_bad_init": raises(lambda: O.Adagrad(params, initial_accumulator_value=-0.5)),
        "adagrad_bad_eps": raises(lambda: O.Adagrad(params, eps=-0.5)),
        "empty": raises(lambda: O.SGD([], lr=0.1)),
        "tensor_not_iterable": raises(lambda: O.SGD(params[0], lr=0.1)),
        "not_tensor": raises(lambda: O.SGD([1.0], lr=0.1)),
        "non_leaf": raises(lambda: O.SGD([nonleaf], lr=0.1)),
        "duplicate_warning": warns(lambda: O.SGD([params[0], params[0]], lr=0.1)),
        "required_lr": raises(lambda: O.Optimizer(
            params, {"lr": _mod(torch, "optimizer").required})),
        "base_step": raises(lambda: O.Optimizer(params, {"lr": 0.1}).step()),
        "capturable_cpu": raises(lambda: _step_once(torch, lambda p: O.Adam(p, capturable=True))),
        "rmsprop_capturable_cpu": raises(lambda: _step_once(
            torch, lambda p: O.RMSprop(p, capturable=True))),
        "adam_capturable_foreach_cpu": raises(lambda: _step_once(
            torch, lambda p: O.Adam(p, capturable=True, foreach=True))),
        "fused_int_param": raises(lambda: _step_int(torch)),
    }


def case_differentiable(torch):
    """``differentiable=True``: the step runs under grad mode and is recorded, so the updated
    (non-leaf) parameters backpropagate to what they were computed from."""
    out = {}
    for name, make in (
        ("sgd", lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, differentiable=True)),
        ("adam", lambda p: torch.optim.Adam(p, lr=0.1, differentiable=True)),
        ("adamw", lambda p: torch.optim.AdamW(p, lr=0.1, differentiable=True)),
        ("rmsprop", lambda p: torch.optim.RMSprop(p, lr=0.1, centered=True, momentum=0.5,
                                                  differentiable=True)),
        ("adagrad", lambda p: torch.optim.Adagrad(p, lr=0.1, differentiable=True)),
    ):
        leaf = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
        p = leaf.clone()
        opt = make([p])
        for k in range(2):
            p.grad = p.detach() * 0.5 + 0.1 * k
            opt.step()
        (p * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
        out[name] = {"p": V(p), "leaf_grad": V(leaf.grad), "requires_grad": p.requires_grad}
    return out


def _step_once(torch, make):
    params, loss_fn = _problem(torch)
    opt = make(params)
    loss_fn().backward()
    opt.step()


def _step_int(torch):
    p = torch.tensor([1, 2])
    opt = torch.optim.Adagrad([p], fused=True)
    p.grad = torch.tensor([1, 1])
    opt.step()


def case_functional(torch):
    """The functional updates over lists of tensors."""
    F = _mod(torch, "_functional")
    p = [torch.tensor([1.0, -2.0, 0.5]), torch.tensor([0.3])]
    g = [torch.tensor([0.1, 0.2, -0.3]), torch.tensor([1.0])]
    bufs = [None, None]
    for _ in range(3):
        F.sgd(p, g, bufs, weight_decay=0.1, momentum=0.9, lr=0.1, dampening=0.0, nesterov=True,
              maximize=False)
    q = [torch.tensor([1.0, -2.0, 0.5]), torch.tensor([0.3])]
    m = [torch.zeros(3), torch.zeros(1)]
    v = [torch.zeros(3), torch.zeros(1)]
    steps = [torch.tensor(0.0), torch.tensor(0.0)]
    for _ in range(3):
        F.adam(q, g, m, v, [], steps, amsgrad=False, beta1=0.9, beta2=0.999, lr=0.1,
               weight_decay=0.0, eps=1e-8, maximize=False)
    return {"sgd": [V(t) for t in p], "bufs": [V(t) for t in bufs], "adam": [V(t) for t in q],
            "steps": [V(t) for t in steps],
            "bad_steps": raises(lambda: F.adam(q, g, m, v, [], [1, 1], amsgrad=False, beta1=0.9,
                                               beta2=0.999, lr=0.1, weight_decay=0.0, eps=1e-8,
                                               maximize=False))}


# ----------------------------------------------------------------------------- schedulers

def _lrs(torch, make_sched, epochs=25, lr=0.1, groups=1, opt="SGD", metric=None, extra=None):
    ps = [torch.nn.Parameter(torch.zeros(1)) for _ in range(groups)]
    if opt == "SGD":
        o = torch.optim.SGD([{"params": [p], "lr": lr * (i + 1)} for i, p in enumerate(ps)],
                            lr=lr, momentum=0.9)
    else:
        o = torch.optim.Adam([{"params": [p], "lr": lr * (i + 1)} for i, p in enumerate(ps)], lr=lr)
    sched = make_sched(o)
    seq = [[g["lr"] for g in o.param_groups]]
    moms = [[plain(g.get("momentum", g.get("betas"))) for g in o.param_groups]]
    last = [plain(sched.get_last_lr())]
    for e in range(epochs):
        o.step()
        if metric is None:
            sched.step()
        else:
            sched.step(metric(e))
        seq.append([g["lr"] for g in o.param_groups])
        moms.append([plain(g.get("momentum", g.get("betas"))) for g in o.param_groups])
        last.append(plain(sched.get_last_lr()))
    out = {"lrs": seq, "last_lr": last, "last_epoch": getattr(sched, "last_epoch", None)}
    if extra == "momentum":
        out["momentum"] = moms
    return out


def _sched_cases():
    S = "lr_scheduler"

    def mk(name, build, **kw):
        def case(torch):
            sched_mod = getattr(torch.optim, S)
            return _lrs(torch, lambda o: build(sched_mod, o), **kw)

        return case

    metrics = [1.0, 0.9, 0.9, 0.95, 0.91, 0.92, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.4, 0.4, 0.41,
               0.42, 0.43, 0.44, 0.45, 0.2, 0.3, 0.3, 0.3, 0.3, 0.3]

    class Halver:
        """A callable object (its __dict__ goes into the state dict)."""

        def __init__(self):
            self.factor = 0.5

        def __call__(self, epoch):
            return self.factor ** epoch

    return {
        "step": mk("step", lambda S, o: S.StepLR(o, step_size=3, gamma=0.5), groups=2),
        "multistep": mk("multistep", lambda S, o: S.MultiStepLR(o, milestones=[2, 5, 5, 9], gamma=0.3)),
        "exponential": mk("exponential", lambda S, o: S.ExponentialLR(o, gamma=0.9), groups=2),
        "cosine": mk("cosine", lambda S, o: S.CosineAnnealingLR(o, T_max=7, eta_min=0.001), groups=2),
        "cosine_plain": mk("cosine", lambda S, o: S.CosineAnnealingLR(o, T_max=5)),
        "lambda": mk("lambda", lambda S, o: S.LambdaLR(o, lambda e: 1.0 / (e + 1))),
        "lambda_list": mk("lambda", lambda S, o: S.LambdaLR(o, [lambda e: 0.95 ** e, Halver()]),
                          groups=2),
        "multiplicative": mk("mult", lambda S, o: S.MultiplicativeLR(o, lambda e: 0.9), groups=2),
        "linear": mk("linear", lambda S, o: S.LinearLR(o, start_factor=0.25, total_iters=4)),
        "linear_down": mk("linear", lambda S, o: S.LinearLR(o, start_factor=1.0, end_factor=0.1,
                                                           total_iters=10), groups=2),
        "constant": mk("constant", lambda S, o: S.ConstantLR(o, factor=0.5, total_iters=4)),
        "polynomial": mk("poly", lambda S, o: S.PolynomialLR(o, total_iters=10, power=2.0)),
        "one_cycle": mk("oc", lambda S, o: S.OneCycleLR(o, max_lr=1.0, total_steps=25), extra="momentum"),
        "one_cycle_linear": mk("oc", lambda S, o: S.OneCycleLR(
            o, max_lr=[0.5, 0.8], total_steps=26, pct_start=0.25, anneal_strategy="linear"),
            groups=2, extra="momentum"),
        "one_cycle_three_phase": mk("oc", lambda S, o: S.OneCycleLR(
            o, max_lr=0.3, epochs=5, steps_per_epoch=5, three_phase=True, div_factor=10.0,
            final_div_factor=100.0), extra="momentum"),
        "one_cycle_adam": mk("oc", lambda S, o: S.OneCycleLR(
            o, max_lr=0.01, total_steps=30, base_momentum=0.8, max_momentum=0.9), opt="Adam",
            extra="momentum"),
        "one_cycle_no_momentum": mk("oc", lambda S, o: S.OneCycleLR(
            o, max_lr=0.01, total_steps=30, cycle_momentum=False), extra="momentum"),
        "plateau_min": mk("plateau", lambda S, o: S.ReduceLROnPlateau(o, factor=0.5, patience=1),
                          metric=lambda e: metrics[e]),
        "plateau_max_cooldown": mk("plateau", lambda S, o: S.ReduceLROnPlateau(
            o, mode="max", factor=0.1, patience=2, cooldown=1, min_lr=0.0005),
            metric=lambda e: -metrics[e]),
        "plateau_abs": mk("plateau", lambda S, o: S.ReduceLROnPlateau(
            o, threshold=0.05, threshold_mode="abs", patience=0, min_lr=[0.01, 0.05], factor=0.5),
            metric=lambda e: metrics[e], groups=2),
        "plateau_max_abs_eps": mk("plateau", lambda S, o: S.ReduceLROnPlateau(
            o, mode="max", threshold_mode="abs", patience=0, factor=0.9, eps=0.005),
            metric=lambda e: -metrics[e]),
        "sequential": mk("seq", lambda S, o: S.SequentialLR(
            o, [S.LinearLR(o, start_factor=0.1, total_iters=4), S.ExponentialLR(o, gamma=0.9)],
            milestones=[5])),
        "sequential_three": mk("seq", lambda S, o: S.SequentialLR(
            o, [S.ConstantLR(o, factor=0.5, total_iters=3), S.CosineAnnealingLR(o, T_max=6),
                S.StepLR(o, step_size=2, gamma=0.5)], milestones=[4, 12]), groups=2),
        "chained": mk("chain", lambda S, o: S.ChainedScheduler(
            [S.ConstantLR(o, factor=0.1, total_iters=2), S.ExponentialLR(o, gamma=0.9)])),
        "chained_optimizer_arg": mk("chain", lambda S, o: S.ChainedScheduler(
            [S.StepLR(o, step_size=4, gamma=0.5), S.MultiplicativeLR(o, lambda e: 0.99)], optimizer=o)),
        "warm_restarts": mk("wr", lambda S, o: S.CosineAnnealingWarmRestarts(o, T_0=5)),
        "warm_restarts_mult": mk("wr", lambda S, o: S.CosineAnnealingWarmRestarts(
            o, T_0=3, T_mult=2, eta_min=0.01), groups=2),
        "cyclic_triangular": mk("cyc", lambda S, o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1,
                                                                step_size_up=4), extra="momentum"),
        "cyclic_triangular2": mk("cyc", lambda S, o: S.CyclicLR(
            o, base_lr=0.01, max_lr=0.1, step_size_up=3, step_size_down=2, mode="triangular2"),
            extra="momentum"),
        "cyclic_exp_range": mk("cyc", lambda S, o: S.CyclicLR(
            o, base_lr=[0.01, 0.02], max_lr=[0.1, 0.2], step_size_up=5, mode="exp_range",
            gamma=0.9, cycle_momentum=False), groups=2),
    }


SCHEDULERS = _sched_cases()


def case_scheduler_epoch_arg(torch):
    """``step(epoch)`` uses the closed form (and warns)."""
    S = torch.optim.lr_scheduler
    out = {}
    for name, build in (
        ("step", lambda o: S.StepLR(o, step_size=3, gamma=0.5)),
        ("multistep", lambda o: S.MultiStepLR(o, milestones=[2, 4], gamma=0.5)),
        ("exp", lambda o: S.ExponentialLR(o, gamma=0.5)),
        ("cos", lambda o: S.CosineAnnealingLR(o, T_max=10)),
        ("linear", lambda o: S.LinearLR(o, total_iters=4)),
        ("constant", lambda o: S.ConstantLR(o, total_iters=4)),
        ("poly", lambda o: S.PolynomialLR(o, total_iters=4)),
        ("lambda", lambda o: S.LambdaLR(o, lambda e: 0.5 ** e)),
    ):
        p = torch.nn.Parameter(torch.zeros(1))
        o = torch.optim.SGD([p], lr=1.0)
        sched = build(o)
        lrs = []
        w = []
        for e in (3, 1, 7, 2):
            o.step()
            w += warns(lambda: sched.step(e))
            lrs.append(o.param_groups[0]["lr"])
        out[name] = {"lrs": lrs, "warnings": w}
    p = torch.nn.Parameter(torch.zeros(1))
    o = torch.optim.SGD([p], lr=1.0)
    wr = S.CosineAnnealingWarmRestarts(o, T_0=4, T_mult=2)
    seq = []
    for e in (0.5, 1.5, 4.0, 5.25, 11.0, 13.5, 2.0):
        wr.step(e)
        seq.append([o.param_groups[0]["lr"], wr.T_cur, wr.T_i, wr.last_epoch])
    out["warm_restarts"] = seq
    out["warm_restarts_negative"] = raises(lambda: wr.step(-1))
    return out


def case_scheduler_warnings(torch):
    S = torch.optim.lr_scheduler
    p = torch.nn.Parameter(torch.zeros(1))
    o = torch.optim.SGD([p], lr=1.0)
    sched = S.StepLR(o, step_size=2)
    before = warns(lambda: sched.step())
    o2 = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
    s2 = S.ExponentialLR(o2, gamma=0.5)
    o2.step()
    ordered = warns(lambda: s2.step())
    get_lr = warns(lambda: s2.get_lr())
    o3 = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
    s3 = S.ExponentialLR(o3, gamma=0.5)
    o3.step = lambda *a, **k: None
    overridden = warns(lambda: s3.step())
    return {"before": before, "ordered": ordered, "get_lr": get_lr, "overridden": overridden,
            "wrapped": hasattr(o2.step, "_wrapped_by_lr_sched"), "opt_called": o2._opt_called}


def case_scheduler_tensor_lr(torch):
    """A tensor lr is updated in place; get_last_lr gives copies."""
    S = torch.optim.lr_scheduler
    p = torch.nn.Parameter(torch.zeros(1))
    lr = torch.tensor(0.5)
    opt = torch.optim.Adam([p], lr=lr)
    sched = S.CosineAnnealingLR(opt, T_max=4)
    seq = []
    for _ in range(6):
        p.grad = torch.ones(1)
        opt.step()
        sched.step()
        seq.append(V(opt.param_groups[0]["lr"]))
    last = sched.get_last_lr()[0]
    return {"seq": seq, "same_object": opt.param_groups[0]["lr"] is lr,
            "last_is_copy": last is not lr, "last": V(last), "initial": V(opt.param_groups[0]["initial_lr"]),
            "p": V(p)}


def case_custom_optimizer(torch):
    """A user-defined optimizer on the base class (defaults, groups, state, step hooks)."""
    Optimizer = torch.optim.Optimizer

    class SignSGD(Optimizer):
        def __init__(self, params, lr=0.01, scale=1.0):
            super().__init__(params, {"lr": lr, "scale": scale})

        @torch.no_grad()
        def step(self, closure=None):
            loss = None
            if closure is not None:
                with torch.enable_grad():
                    loss = closure()
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    st = self.state[p]
                    st["n"] = st.get("n", 0) + 1
                    p.sub_(torch.sign(p.grad) * group["lr"] * group["scale"])
            return loss

    params, set_grads = _quad_problem(torch)
    opt = SignSGD([{"params": [params[0]], "scale": 2.0}, {"params": [params[1]]}], lr=0.1)
    calls = []
    opt.register_step_post_hook(lambda o, a, k: calls.append(len(o.state)))
    for k in range(3):
        opt.zero_grad()
        set_grads(k)
        opt.step()
    sd = opt.state_dict()
    return {"w": V(params[0]), "b": V(params[1]), "calls": calls, "repr": repr(opt),
            "state": {str(k): v for k, v in sd["state"].items()},
            "groups": [{k: plain(v) for k, v in g.items()} for g in sd["param_groups"]],
            "hooked": getattr(SignSGD.step, "hooked", False)}


def case_scheduler_state(torch):
    S = torch.optim.lr_scheduler
    p = torch.nn.Parameter(torch.zeros(1))
    opt = torch.optim.SGD([p], lr=1.0)
    sched = S.StepLR(opt, step_size=2, gamma=0.1)
    for _ in range(3):
        opt.step()
        sched.step()
    sd = sched.state_dict()
    return {"last_lr": sched.get_last_lr(), "last_epoch": sched.last_epoch,
            "keys": sorted(sd.keys()), "base_lrs": sd["base_lrs"], "step_count": sd["_step_count"],
            "initial_lr": opt.param_groups[0]["initial_lr"],
            "group_keys": sorted(opt.param_groups[0].keys())}


def case_scheduler_round_trip(torch):
    S = torch.optim.lr_scheduler
    out = {}
    builds = {
        "cosine": lambda o: S.CosineAnnealingLR(o, T_max=6, eta_min=0.01),
        "one_cycle": lambda o: S.OneCycleLR(o, max_lr=1.0, total_steps=20),
        "plateau": lambda o: S.ReduceLROnPlateau(o, patience=0, factor=0.5),
        "sequential": lambda o: S.SequentialLR(o, [S.LinearLR(o, total_iters=3),
                                                   S.ExponentialLR(o, gamma=0.8)], milestones=[3]),
        "chained": lambda o: S.ChainedScheduler([S.ConstantLR(o, total_iters=2),
                                                 S.ExponentialLR(o, gamma=0.8)]),
        "warm_restarts": lambda o: S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2),
        "cyclic": lambda o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3),
    }
    for name, build in builds.items():
        def run(sd=None, steps=5):
            p = torch.nn.Parameter(torch.zeros(1))
            o = torch.optim.SGD([p], lr=0.1, momentum=0.9)
            s = build(o)
            if sd is not None:
                o.load_state_dict(sd[0])
                s.load_state_dict(sd[1])
            lrs = []
            for i in range(steps):
                o.step()
                if name == "plateau":
                    s.step(1.0)
                else:
                    s.step()
                lrs.append(o.param_groups[0]["lr"])
            return o, s, lrs

        o, s, first = run()
        sd = (copy.deepcopy(o.state_dict()), copy.deepcopy(s.state_dict()))
        _, s2, resumed = run(sd)
        _, _, reference = run(None, 10)
        out[name] = {"first": first, "resumed": resumed, "reference": reference[5:],
                     "keys": sorted(k for k in sd[1].keys())}
    return out


def case_scheduler_errors(torch):
    S = torch.optim.lr_scheduler
    p = torch.nn.Parameter(torch.zeros(1))
    o = torch.optim.SGD([p], lr=0.1)
    o_nomom = torch.optim.Adagrad([torch.nn.Parameter(torch.zeros(1))])
    plateau = S.ReduceLROnPlateau(o)
    oc = S.OneCycleLR(torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.1), max_lr=0.1,
                      total_steps=2)

    def overstep():
        for _ in range(3):
            oc.step()

    return {
        "not_optimizer": raises(lambda: S.StepLR(object(), step_size=2)),
        "resume_without_initial": raises(lambda: S.StepLR(
            torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.1), step_size=2, last_epoch=3)),
        "lambda_count": raises(lambda: S.LambdaLR(o, [lambda e: 1.0, lambda e: 1.0])),
        "mult_not_callable": raises(lambda: S.MultiplicativeLR(o, 0.5)),
        "constant_factor": raises(lambda: S.ConstantLR(o, factor=1.5)),
        "linear_start": raises(lambda: S.LinearLR(o, start_factor=0)),
        "linear_end": raises(lambda: S.LinearLR(o, end_factor=1.5)),
        "plateau_factor": raises(lambda: S.ReduceLROnPlateau(o, factor=1.0)),
        "plateau_mode": raises(lambda: S.ReduceLROnPlateau(o, mode="avg")),
        "plateau_threshold_mode": raises(lambda: S.ReduceLROnPlateau(o, threshold_mode="pct")),
        "plateau_min_lrs": raises(lambda: S.ReduceLROnPlateau(o, min_lr=[0.1, 0.2])),
        "plateau_not_optimizer": raises(lambda: S.ReduceLROnPlateau(None)),
        "sequential_empty": raises(lambda: S.SequentialLR(o, [], milestones=[])),
        "sequential_milestones": raises(lambda: S.SequentialLR(o, [S.StepLR(o, 2)], milestones=[3])),
        "sequential_plateau": raises(lambda: S.SequentialLR(o, [plateau], milestones=[])),
        "sequential_no_opt": raises(lambda: S.SequentialLR(o, [object()], milestones=[])),
        "chained_empty": raises(lambda: S.ChainedScheduler([])),
        "chained_plateau": raises(lambda: S.ChainedScheduler([plateau])),
        "one_cycle_no_steps": raises(lambda: S.OneCycleLR(o, max_lr=0.1)),
        "one_cycle_bad_total": raises(lambda: S.OneCycleLR(o, max_lr=0.1, total_steps=0)),
        "one_cycle_bad_epochs": raises(lambda: S.OneCycleLR(o, max_lr=0.1, epochs=-1, steps_per_epoch=2)),
        "one_cycle_bad_spe": raises(lambda: S.OneCycleLR(o, max_lr=0.1, epochs=2, steps_per_epoch=0)),
        "one_cycle_pct": raises(lambda: S.OneCycleLR(o, max_lr=0.1, total_steps=5, pct_start=1.5)),
        "one_cycle_anneal": raises(lambda: S.OneCycleLR(o, max_lr=0.1, total_steps=5,
                                                        anneal_strategy="exp")),
        "one_cycle_no_momentum": raises(lambda: S.OneCycleLR(o_nomom, max_lr=0.1, total_steps=5)),
        "one_cycle_max_lr_len": raises(lambda: S.OneCycleLR(o, max_lr=[0.1, 0.2], total_steps=5)),
        "one_cycle_overstep": raises(overstep),
        "warm_t0": raises(lambda: S.CosineAnnealingWarmRestarts(o, T_0=0)),
        "warm_tmult": raises(lambda: S.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=0)),
        "warm_eta": raises(lambda: S.CosineAnnealingWarmRestarts(o, T_0=2, eta_min="x")),
        "cyclic_mode": raises(lambda: S.CyclicLR(o, 0.01, 0.1, mode="sine")),
    }


CASES = {}
for _name in OPTIMIZERS:
    CASES["optim_" + _name] = _optimizer_case(_name)
for _name, _fn in SCHEDULERS.items():
    CASES["sched_" + _name] = _fn
for _name, _fn in sorted(globals().items()):
    if _name.startswith("case_") and callable(_fn):
        CASES[_name[len("case_"):]] = _fn


def run_case(torch, name):
    return plain(CASES[name](torch))


def main():
    import torch

    torch.manual_seed(0)
    out = {"torch_version": torch.__version__, "cases": {}}
    for name in CASES:
        out["cases"][name] = run_case(torch, name)
    os.makedirs(os.path.dirname(FIXTURE), exist_ok=True)
    with open(FIXTURE, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(out['cases'])} cases to {os.path.relpath(FIXTURE)}", file=sys.stderr)


if __name__ == "__main__":
    main()
