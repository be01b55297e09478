"""Base optimizer: parameter groups, per-parameter state, state dicts, step hooks.

Follows ``torch.optim.optimizer`` (PyTorch 2.13): the same defaults handling, validation
messages, state-dict layout (parameters as integer ids, state per id) and hook order.
"""

import functools
import struct
import warnings
from collections import OrderedDict, defaultdict
from collections.abc import Iterable
from copy import deepcopy
from itertools import chain

import ferrograd as torch
from ferrograd.utils.hooks import RemovableHandle

__all__ = [
    "Optimizer",
    "register_optimizer_step_pre_hook",
    "register_optimizer_step_post_hook",
]


_global_optimizer_pre_hooks = OrderedDict()
_global_optimizer_post_hooks = OrderedDict()


class _RequiredParameter:
    """Singleton class representing a required parameter for an Optimizer."""

    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


from .._helpers import _typename  # noqa: E402,F401


def _use_grad_for_differentiable(func):
    """Run ``step`` with grad mode set to the optimizer's ``differentiable`` default."""

    @functools.wraps(func)
    def _use_grad(self, *args, **kwargs):
        prev = torch.is_grad_enabled()
        try:
            torch.set_grad_enabled(self.defaults["differentiable"])
            return func(self, *args, **kwargs)
        finally:
            torch.set_grad_enabled(prev)

    return _use_grad


def _get_value(x):
    return x.item() if isinstance(x, torch.Tensor) else x


def _to_scalar(x):
    """A 1-element hyperparameter tensor of any rank becomes a 0-dim tensor; numbers stay."""
    if isinstance(x, torch.Tensor) and x.dim() != 0:
        return x.squeeze()
    return x


def _get_scalar_dtype(is_fused=None):
    if is_fused:
        return torch.float32
    return torch.float64 if torch.get_default_dtype() == torch.float64 else torch.float32


def _get_capturable_supported_devices(supports_xla=True):
    devices = ["cuda", "xpu", "hpu", "privateuseone"]
    if supports_xla:
        devices.append("xla")
    return devices


def _get_fused_kernels_supported_devices():
    return ["mps", "cuda", "xpu", "hpu", "cpu", "mtia", "privateuseone"]


def _default_to_fused_or_foreach(params, differentiable, use_fused=False):
    """PyTorch's default implementation choice: foreach when every param is on an
    accelerator with foreach kernels, never for differentiable steps."""
    if differentiable:
        return False, False
    supported_types = (torch.Tensor, torch.nn.Parameter)
    fused = use_fused and all(
        p is None
        or (
            type(p) in supported_types
            and p.device.type in _get_fused_kernels_supported_devices()
            and p.is_floating_point()
        )
        for p in params
    )
    foreach = not fused and all(
        p is None
        or (type(p) in supported_types and p.device.type in ["cuda", "xpu", "mtia", "privateuseone"])
        for p in params
    )
    return fused, foreach


def _device_dtype_check_for_fused(p, cuda_unsupported=False):
    supported = _get_fused_kernels_supported_devices()
    if cuda_unsupported:
        supported.remove("cuda")
    if not (p.device.type in supported and p.is_floating_point()):
        raise RuntimeError(
            "`fused=True` requires all the params to be floating point Tensors of "
            f"supported devices: {supported} but {p.dtype} and {p.device.type}"
        )


def _check_capturable(params, state_steps, supports_xla=True, others=(),
                      what="params and state_steps"):
    """capturable=True needs every param and its state scalars on a capturable device."""
    devices = _get_capturable_supported_devices(supports_xla)
    for i, (p, step) in enumerate(zip(params, state_steps)):
        types = {p.device.type, step.device.type} | {o[i].device.type for o in others}
        if not (len(types) == 1 and p.device.type in devices):
            raise AssertionError(
                f"If capturable=True, {what} must be on supported devices: {devices}."
            )


def _check_state_steps(state_steps, name="state_steps"):
    if not all(isinstance(t, torch.Tensor) for t in state_steps):
        raise RuntimeError(
            f"API has changed, `{name}` argument must contain a list of singleton tensors"
        )


def _scalar(value):
    """A Python number for a scalar argument (a 0-dim tensor converts as torch's Scalar does)."""
    return value.item() if isinstance(value, torch.Tensor) else value


def _round_to(value, dtype):
    """``value`` as the kernel sees it: cast to the tensor's computation type (float32 for
    every floating type but float64)."""
    if dtype != torch.float64:
        return struct.unpack("f", struct.pack("f", value))[0]
    return value


# Pointwise updates used by the optimizers, computed as torch's CPU kernels compute them.
# torch's vectorized kernels evaluate ``a + alpha * b`` (add/sub with alpha), lerp and addcmul
# as one fused multiply-add (a single rounding). For float32 tensors that is reproduced
# exactly by forming the product in float64 (exact for float32 operands) and rounding the sum
# once; for other dtypes the product and the sum are rounded separately (one ulp apart at
# most). Once the core has fused kernels these become single calls.


def _fma(a, b, c):
    """``a * b + c`` with one rounding; ``a`` and ``c`` tensors, ``b`` a tensor or a number."""
    if (
        a.dtype == torch.float32
        and c.dtype == torch.float32
        and (not isinstance(b, torch.Tensor) or b.dtype == torch.float32)
    ):
        b64 = b.double() if isinstance(b, torch.Tensor) else _round_to(b, torch.float32)
        return (a.double() * b64 + c.double()).float()
    return c + a * b


def _add(self, other, alpha=1):
    """``self.add(other, alpha=alpha)``."""
    alpha = _scalar(alpha)
    if alpha == 1:
        return self + other
    return _fma(other, alpha, self)


def _add_(self, other, alpha=1):
    """``self.add_(other, alpha=alpha)``."""
    alpha = _scalar(alpha)
    if alpha == 1:
        return self.add_(other)
    return self.copy_(_fma(other, alpha, self))


def _lerp_(start, end, weight):
    """``start.lerp_(end, weight)``: ``start + weight * (end - start)`` for ``|weight| < 0.5``,
    else ``end + (weight - 1) * (end - start)``."""
    diff = end - start
    if isinstance(weight, torch.Tensor):
        if weight.requires_grad:  # differentiable step: keep the weight in the graph
            if abs(weight.item()) < 0.5:
                return start.add_(diff.mul(weight))
            return start.copy_(end + diff.mul(weight - 1))
        weight = weight.item()
    w = _round_to(weight, start.dtype)
    if abs(w) < 0.5:
        return start.copy_(_fma(diff, w, start))
    return start.copy_(_fma(diff, w - 1.0, end))


def _addcmul_(self, tensor1, tensor2, value=1):
    """``self.addcmul_(tensor1, tensor2, value=value)``: ``(value * tensor1) * tensor2 + self``."""
    value = _scalar(value)
    scaled = tensor1.mul(value) if value != 1 else tensor1
    return self.copy_(_fma(scaled, tensor2, self))


def _addcdiv_(self, tensor1, tensor2, value=1):
    """``self.addcdiv_(tensor1, tensor2, value=value)``: ``self + (value * tensor1) / tensor2``."""
    value = _scalar(value)
    quot = tensor1.mul(value) if value != 1 else tensor1.clone()
    return self.add_(quot.div_(tensor2))


# --- helpers shared by the optimizer implementations -------------------------------------


def _check_lr(lr):
    """The learning-rate checks every optimizer starts with (same order and messages)."""
    if isinstance(lr, torch.Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")


def _check_nonnegative(value, what):
    """``ValueError("Invalid <what>: <value>")`` unless ``0 <= value`` (NaN fails too)."""
    if not 0.0 <= value:
        raise ValueError(f"Invalid {what}: {value}")


def _check_betas(betas):
    for i in (0, 1):
        if not 0.0 <= betas[i] < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {betas[i]}")


def _check_adam_family(lr, betas, eps, weight_decay):
    """lr, eps, betas, weight_decay: the checks Adamax/NAdam/RAdam share, in PyTorch's order."""
    _check_lr(lr)
    _check_nonnegative(eps, "epsilon value")
    _check_betas(betas)
    _check_nonnegative(weight_decay, "weight_decay value")


def _new_step(group, p):
    """A fresh ``step`` state scalar: on the param's device when capturable, else on the CPU."""
    if group["capturable"]:
        return torch.zeros((), dtype=_get_scalar_dtype(), device=p.device)
    return torch.tensor(0.0, dtype=_get_scalar_dtype())


def _resolve_foreach(params, foreach, differentiable, capturable, check_capturable,
                     empty_first=True):
    """The prologue of the functional optimizer APIs.

    Picks the default ``foreach``, then, for the foreach path, returns early on an empty
    parameter list and refuses ``differentiable`` (in the order PyTorch's multi-tensor
    implementation of that optimizer does: ``empty_first``), and runs ``check_capturable()``
    for capturable steps. Returns ``(run, check_per_param)``: ``run`` is False when there is
    nothing to do; ``check_per_param`` is True when the single-tensor path has to check each
    parameter's devices itself.
    """
    if foreach is None:
        _, foreach = _default_to_fused_or_foreach(params, differentiable, use_fused=False)
    if not foreach:
        return True, capturable
    if empty_first and len(params) == 0:
        return False, False
    if differentiable:
        raise AssertionError("_foreach ops don't support autograd")
    if len(params) == 0:
        return False, False
    if capturable:
        check_capturable()
    return True, False


def register_optimizer_step_pre_hook(hook):
    """Register a pre hook common to all optimizers: ``hook(optimizer, args, kwargs)``."""
    handle = RemovableHandle(_global_optimizer_pre_hooks)
    _global_optimizer_pre_hooks[handle.id] = hook
    return handle


def register_optimizer_step_post_hook(hook):
    """Register a post hook common to all optimizers: ``hook(optimizer, args, kwargs)``."""
    handle = RemovableHandle(_global_optimizer_post_hooks)
    _global_optimizer_post_hooks[handle.id] = hook
    return handle


class Optimizer:
    r"""Base class for all optimizers.

    Args:
        params (iterable): an iterable of :class:`Tensor` s or :class:`dict` s (parameter
            groups), or of ``(name, Tensor)`` pairs.
        defaults (dict): default values of optimization options (used when a parameter
            group doesn't specify them).
    """

    def __init__(self, params, defaults):
        self.defaults = defaults
        self._optimizer_step_pre_hooks = OrderedDict()
        self._optimizer_step_post_hooks = OrderedDict()
        self._optimizer_state_dict_pre_hooks = OrderedDict()
        self._optimizer_state_dict_post_hooks = OrderedDict()
        self._optimizer_load_state_dict_pre_hooks = OrderedDict()
        self._optimizer_load_state_dict_post_hooks = OrderedDict()
        self._patch_step_function()

        if isinstance(params, torch.Tensor):
            raise TypeError(
                "params argument given to the optimizer should be "
                "an iterable of Tensors or dicts, but got " + _typename(params)
            )

        self.state = defaultdict(dict)
        self.param_groups = []

        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]

        for param_group in param_groups:
            self.add_param_group(param_group)

        self._warned_capturable_if_run_uncaptured = True

    def __getstate__(self):
        return {
            "defaults": self.defaults,
            "state": self.state,
            "param_groups": self.param_groups,
        }

    def __setstate__(self, state):
        self.__dict__.update(state)
        for name in (
            "_optimizer_step_pre_hooks",
            "_optimizer_step_post_hooks",
            "_optimizer_state_dict_pre_hooks",
            "_optimizer_state_dict_post_hooks",
            "_optimizer_load_state_dict_pre_hooks",
            "_optimizer_load_state_dict_post_hooks",
        ):
            if name not in self.__dict__:
                setattr(self, name, OrderedDict())
        self._patch_step_function()
        self.defaults.setdefault("differentiable", False)

    def __repr__(self):
        format_string = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            format_string += "\n"
            format_string += f"Parameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    format_string += f"    {key}: {group[key]}\n"
        format_string += ")"
        return format_string

    def _accelerator_graph_capture_health_check(self):
        # ferrograd has no graph capture, so a step can never be running under one.
        pass

    def _closure_loss(self, closure):
        """The start of ``step``: the capture health check, then the closure under grad mode."""
        self._accelerator_graph_capture_health_check()
        if closure is None:
            return None
        with torch.enable_grad():
            return closure()

    def _upgrade_unpickled_groups(self, group_defaults, keys=("step",), always_on_device=False):
        """The rest of ``__setstate__`` for optimizers with scalar per-parameter state.

        Fills the group entries older pickles lack (``group_defaults``, in order) and turns
        number-valued scalar state (``keys``) into tensors, on the param's device when
        capturable, fused or ``always_on_device``, else on the CPU.
        """
        for group in self.param_groups:
            for name, value in group_defaults:
                group.setdefault(name, value)
            fused = group.get("fused")
            on_device = always_on_device or group.get("capturable") or fused
            for p in group["params"]:
                p_state = self.state.get(p, [])
                if len(p_state) == 0:
                    continue
                for key in keys:
                    if not torch.is_tensor(p_state[key]):
                        value = float(p_state[key])
                        p_state[key] = (
                            torch.tensor(value, dtype=_get_scalar_dtype(is_fused=fused),
                                         device=p.device)
                            if on_device
                            else torch.tensor(value, dtype=_get_scalar_dtype())
                        )

    def _params_with_grads(self, group, params_with_grad, grads, sparse_msg):
        """Yield ``(p, state)`` for the group's params that have a gradient, appending them and
        their gradients to the lists; a sparse gradient raises ``RuntimeError(sparse_msg)``."""
        for p in group["params"]:
            if p.grad is None:
                continue
            params_with_grad.append(p)
            if p.grad.is_sparse:
                raise RuntimeError(sparse_msg)
            grads.append(p.grad)
            yield p, self.state[p]

    def _optimizer_step_code(self):
        """Entry point for profilers (called after ``step()``)."""

    @staticmethod
    def profile_hook_step(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            self, *_ = args
            for pre_hook in chain(
                _global_optimizer_pre_hooks.values(), self._optimizer_step_pre_hooks.values()
            ):
                result = pre_hook(self, args, kwargs)
                if result is not None:
                    if isinstance(result, tuple) and len(result) == 2:
                        args, kwargs = result
                    else:
                        raise RuntimeError(
                            f"{func} must return None or a tuple of (new_args, new_kwargs), but got {result}."
                        )
            out = func(*args, **kwargs)
            self._optimizer_step_code()
            for post_hook in chain(
                self._optimizer_step_post_hooks.values(), _global_optimizer_post_hooks.values()
            ):
                post_hook(self, args, kwargs)
            return out

        return wrapper

    def _patch_step_function(self):
        self._zero_grad_profile_name = f"Optimizer.zero_grad#{self.__class__.__name__}.zero_grad"
        hooked = getattr(self.__class__.step, "hooked", None)
        if not hooked:
            self.__class__.step = self.profile_hook_step(self.__class__.step)
            self.__class__.step.hooked = True

    def register_step_pre_hook(self, hook):
        """Register ``hook(optimizer, args, kwargs) -> None or (new_args, new_kwargs)``,
        called before each ``step``."""
        handle = RemovableHandle(self._optimizer_step_pre_hooks)
        self._optimizer_step_pre_hooks[handle.id] = hook
        return handle

    def register_step_post_hook(self, hook):
        """Register ``hook(optimizer, args, kwargs) -> None``, called after each ``step``."""
        handle = RemovableHandle(self._optimizer_step_post_hooks)
        self._optimizer_step_post_hooks[handle.id] = hook
        return handle

    def register_state_dict_pre_hook(self, hook, prepend=False):
        handle = RemovableHandle(self._optimizer_state_dict_pre_hooks)
        self._optimizer_state_dict_pre_hooks[handle.id] = hook
        if prepend:
            self._optimizer_state_dict_pre_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_state_dict_post_hook(self, hook, prepend=False):
        handle = RemovableHandle(self._optimizer_state_dict_post_hooks)
        self._optimizer_state_dict_post_hooks[handle.id] = hook
        if prepend:
            self._optimizer_state_dict_post_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_load_state_dict_pre_hook(self, hook, prepend=False):
        handle = RemovableHandle(self._optimizer_load_state_dict_pre_hooks)
        self._optimizer_load_state_dict_pre_hooks[handle.id] = hook
        if prepend:
            self._optimizer_load_state_dict_pre_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_load_state_dict_post_hook(self, hook, prepend=False):
        handle = RemovableHandle(self._optimizer_load_state_dict_post_hooks)
        self._optimizer_load_state_dict_post_hooks[handle.id] = hook
        if prepend:
            self._optimizer_load_state_dict_post_hooks.move_to_end(handle.id, last=False)
        return handle

    def state_dict(self):
        """The optimizer state as a dict with ``state`` (per parameter id) and
        ``param_groups`` (hyperparameters, with parameters replaced by integer ids)."""
        for pre_hook in self._optimizer_state_dict_pre_hooks.values():
            pre_hook(self)

        param_mappings = {}
        start_index = 0

        def pack_group(group):
            nonlocal start_index
            packed = {k: v for k, v in group.items() if k != "params"}
            param_mappings.update(
                {
                    id(p): i
                    for i, p in enumerate(group["params"], start_index)
                    if id(p) not in param_mappings
                }
            )
            packed["params"] = [param_mappings[id(p)] for p in group["params"]]
            start_index += len(packed["params"])
            return packed

        param_groups = [pack_group(g) for g in self.param_groups]
        packed_state = {
            (param_mappings[id(k)] if isinstance(k, torch.Tensor) else k): v
            for k, v in self.state.items()
        }
        state_dict = {"state": packed_state, "param_groups": param_groups}

        for post_hook in self._optimizer_state_dict_post_hooks.values():
            hook_result = post_hook(self, state_dict)
            if hook_result is not None:
                state_dict = hook_result
        return state_dict

    @staticmethod
    def _process_value_according_to_param_policy(param, value, param_id, param_groups, key=None):
        fused = False
        capturable = False
        if param_groups is None:
            raise AssertionError("Expected param_groups to be set")
        for pg in param_groups:
            if param_id in pg["params"]:
                fused = pg.get("fused", False)
                capturable = pg.get("capturable", False)
                break
        if key == "step":
            if capturable or fused:
                return value.to(dtype=torch.float32, device=param.device)
            return value
        if param.is_floating_point():
            return value.to(dtype=param.dtype, device=param.device)
        return value.to(device=param.device)

    def load_state_dict(self, state_dict):
        """Load the optimizer state (a dict returned by :meth:`state_dict`)."""
        state_dict = state_dict.copy()

        for pre_hook in self._optimizer_load_state_dict_pre_hooks.values():
            hook_result = pre_hook(self, state_dict)
            if hook_result is not None:
                state_dict = hook_result

        groups = self.param_groups
        saved_groups = deepcopy(state_dict["param_groups"])

        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        param_lens = (len(g["params"]) for g in groups)
        saved_lens = (len(g["params"]) for g in saved_groups)
        if any(p_len != s_len for p_len, s_len in zip(param_lens, saved_lens)):
            raise ValueError(
                "loaded state dict contains a parameter group "
                "that doesn't match the size of optimizer's group"
            )

        id_map = dict(
            zip(
                chain.from_iterable(g["params"] for g in saved_groups),
                chain.from_iterable(g["params"] for g in groups),
            )
        )

        def _cast(param, value, param_id=None, param_groups=None, key=None):
            if isinstance(value, torch.Tensor):
                return Optimizer._process_value_according_to_param_policy(
                    param, value, param_id, param_groups, key
                )
            if isinstance(value, dict):
                return {
                    k: _cast(param, v, param_id=param_id, param_groups=param_groups, key=k)
                    for k, v in value.items()
                }
            if isinstance(value, Iterable):
                return type(value)(
                    _cast(param, v, param_id=param_id, param_groups=param_groups) for v in value
                )
            return value

        state = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                state[param] = _cast(param, v, param_id=k, param_groups=state_dict["param_groups"])
            else:
                state[k] = v

        def update_group(group, new_group):
            new_group["params"] = group["params"]
            if "param_names" in group and "param_names" not in new_group:
                new_group["param_names"] = group["param_names"]
            return new_group

        param_groups = [update_group(g, ng) for g, ng in zip(groups, saved_groups)]
        self.__setstate__({"state": state, "param_groups": param_groups})

        for post_hook in self._optimizer_load_state_dict_post_hooks.values():
            post_hook(self)

    def zero_grad(self, set_to_none=True):
        """Reset the gradients of all optimized tensors (to ``None`` by default)."""
        if not hasattr(self, "_zero_grad_profile_name"):
            self._patch_step_function()
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        if p.grad.grad_fn is not None:
                            p.grad.detach_()
                        else:
                            p.grad.requires_grad_(False)
                        p.grad.zero_()

    def step(self, closure=None):
        """Perform a single optimization step."""
        raise NotImplementedError

    def add_param_group(self, param_group):
        """Add a param group to the optimizer's ``param_groups``."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")

        params = param_group["params"]
        if isinstance(params, torch.Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError(
                "optimizer parameters need to be organized in ordered collections, but "
                "the ordering of tensors in sets will change between runs. Please use a list instead."
            )
        else:
            param_group["params"] = list(params)

        extracted_param_tensors = []
        extracted_param_names = []
        for param in param_group["params"]:
            if isinstance(param, tuple):
                extracted_param_names.append(param[0])
                extracted_param_tensors.append(param[1])
            else:
                extracted_param_tensors.append(param)

        param_group["params"] = extracted_param_tensors
        if len(extracted_param_names) != 0:
            if len(extracted_param_names) == len(extracted_param_tensors):
                param_group["param_names"] = extracted_param_names
            else:
                raise ValueError(
                    "all optimizer params should be with/without names. Some param names are missing"
                )

        for param in param_group["params"]:
            if not isinstance(param, torch.Tensor):
                raise TypeError(
                    "optimizer can only optimize Tensors, "
                    "but one of the params is " + _typename(param)
                )
            if not self.defaults.get("differentiable", None) and not (
                param.is_leaf or param.retains_grad
            ):
                raise ValueError("can't optimize a non-leaf Tensor")

        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(
                    f"parameter group didn't specify a value of required optimization parameter {name}"
                )
            param_group.setdefault(name, default)

        params = param_group["params"]
        if len(params) != len(set(params)):
            warnings.warn(
                "optimizer contains a parameter group with duplicate parameters; "
                "in future, this will cause an error; "
                "see github.com/pytorch/pytorch/issues/40967 for more information",
                stacklevel=3,
            )

        param_set = set()
        for group in self.param_groups:
            param_set.update(set(group["params"]))
            if ("param_names" in param_group) != ("param_names" in group):
                current_group_txt = "with names" if "param_names" in param_group else "without names"
                raise ValueError(
                    "all optimizer param groups should be with/without names. "
                    f"cannot add param group {current_group_txt} to the optimizer"
                )

        if not param_set.isdisjoint(set(param_group["params"])):
            raise ValueError("some parameters appear in more than one parameter group")

        self.param_groups.append(param_group)


def _view_as_real(*tensorlists):
    """The lists with each complex tensor replaced by its real view (``view_as_real``): as in
    PyTorch's optimizers, a complex parameter is updated as pairs of real numbers (so Adam's
    second moment is per real component, not ``|g|²``). The views write through."""
    return tuple([torch.view_as_real(t) if t is not None and t.is_complex() else t for t in tl] for tl in tensorlists)
