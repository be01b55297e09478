"""``torch.nn.utils.spectral_norm``: spectral normalization by a forward pre-hook
(https://arxiv.org/abs/1802.05957). The parameter ``weight`` becomes ``weight_orig``, the
buffers ``weight_u`` / ``weight_v`` hold the power-iteration estimates of the first singular
vectors, and ``module.weight = weight_orig / sigma`` is recomputed before every forward."""

import ferrograd as torch

from ...autograd.grad_mode import no_grad
from .. import functional as F
from ..parameter import Parameter
from .weight_norm import _is_uninitialized

__all__ = [
    "SpectralNorm",
    "SpectralNormLoadStateDictPreHook",
    "SpectralNormStateDictHook",
    "spectral_norm",
    "remove_spectral_norm",
]


def _normalize_into(x, out, eps):
    # F.normalize(x, dim=0, eps=eps, out=out)
    out.copy_(F.normalize(x, dim=0, eps=eps))
    return out


class SpectralNorm:
    """The forward pre-hook of :func:`spectral_norm`: power iteration on ``<name>_u`` /
    ``<name>_v`` (in training mode) and ``module.<name> = <name>_orig / sigma``."""

    # version 1: weight_orig, weight_u and weight_v in the state_dict (weight is not)
    _version = 1

    def __init__(self, name="weight", n_power_iterations=1, dim=0, eps=1e-12):
        self.name = name
        self.dim = dim
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but "
                             f"got n_power_iterations={n_power_iterations}")
        self.n_power_iterations = n_power_iterations
        self.eps = eps

    def reshape_weight_to_matrix(self, weight):
        """The weight as a matrix with ``dim`` first and the other dims flattened."""
        weight_mat = weight
        if self.dim != 0:
            # permute dim to front
            weight_mat = weight_mat.permute(self.dim, *[d for d in range(weight_mat.dim()) if d != self.dim])
        height = weight_mat.size(0)
        return weight_mat.reshape(height, -1)

    def compute_weight(self, module, do_power_iteration):
        """``<name>_orig / sigma`` with ``sigma = u^T W v``; ``do_power_iteration`` first
        updates ``u`` and ``v`` in place (``n_power_iterations`` steps)."""
        weight = getattr(module, self.name + "_orig")
        u = getattr(module, self.name + "_u")
        v = getattr(module, self.name + "_v")
        weight_mat = self.reshape_weight_to_matrix(weight)

        if do_power_iteration:
            with no_grad():
                for _ in range(self.n_power_iterations):
                    # the buffers are updated in place (shared with DataParallel replicas in torch)
                    v = _normalize_into(torch.mv(weight_mat.t(), u), v, self.eps)
                    u = _normalize_into(torch.mv(weight_mat, v), u, self.eps)
                if self.n_power_iterations > 0:
                    # clones: backward must see the values used here, not later updates
                    u = u.clone()
                    v = v.clone()

        sigma = torch.dot(u, torch.mv(weight_mat, v))
        weight = weight / sigma
        return weight

    def remove(self, module):
        """Put back ``module.<name>`` as a Parameter holding the current normalized weight."""
        with no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        delattr(module, self.name)
        delattr(module, self.name + "_u")
        delattr(module, self.name + "_v")
        delattr(module, self.name + "_orig")
        module.register_parameter(self.name, Parameter(weight.detach()))

    def __call__(self, module, inputs):
        """The hook: recompute ``module.<name>`` (power iteration in training mode)."""
        setattr(module, self.name, self.compute_weight(module, do_power_iteration=module.training))

    def _solve_v_and_rescale(self, weight_mat, u, target_sigma):
        # v such that u = normalize(W @ v) and u^T W v = target_sigma
        v = torch.linalg.multi_dot([weight_mat.t().mm(weight_mat).pinverse(), weight_mat.t(),
                                    u.unsqueeze(1)]).squeeze(1)
        return v.mul_(target_sigma / torch.dot(u, torch.mv(weight_mat, v)))

    @staticmethod
    def apply(module, name, n_power_iterations, dim, eps):
        """Move the parameter ``name`` of ``module`` to ``<name>_orig``, add the buffers
        ``<name>_u`` / ``<name>_v`` (normalized ``normal_(0, 1)`` draws) and the hooks."""
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two spectral_norm hooks on the same parameter {name}")

        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters[name]
        if weight is None:
            raise ValueError(f"`SpectralNorm` cannot be applied as parameter `{name}` is None")
        if _is_uninitialized(weight):
            raise ValueError("The module passed to `SpectralNorm` can't have uninitialized parameters. "
                             "Make sure to run the dummy forward before applying spectral normalization")

        with no_grad():
            weight_mat = fn.reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            # randomly initialize u and v (they are refined by the first power iterations)
            u = F.normalize(weight.new_empty(h).normal_(0, 1), dim=0, eps=fn.eps)
            v = F.normalize(weight.new_empty(w).normal_(0, 1), dim=0, eps=fn.eps)

        delattr(module, fn.name)
        module.register_parameter(fn.name + "_orig", weight)
        # a plain attribute until the first forward: module.weight is not a parameter anymore
        setattr(module, fn.name, weight.data)
        module.register_buffer(fn.name + "_u", u)
        module.register_buffer(fn.name + "_v", v)

        module.register_forward_pre_hook(fn)
        module._register_state_dict_hook(SpectralNormStateDictHook(fn))
        module._register_load_state_dict_pre_hook(SpectralNormLoadStateDictPreHook(fn))
        return fn


class SpectralNormLoadStateDictPreHook:
    """Load pre-hook of :func:`spectral_norm`: converts a version-0 state_dict (``weight``,
    ``weight_orig``, ``weight_u``) to version 1 by solving for ``weight_v``."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                 error_msgs):
        """Rewrite ``state_dict`` in place when its spectral_norm version is older than 1."""
        fn = self.fn
        version = local_metadata.get("spectral_norm", {}).get(fn.name + ".version", None)
        if version is None or version < 1:
            weight_key = prefix + fn.name
            if (version is None and all(weight_key + s in state_dict for s in ("_orig", "_u", "_v"))
                    and weight_key not in state_dict):
                # a state_dict without metadata but with the version-1 keys
                return
            has_missing_keys = False
            for suffix in ("_orig", "", "_u"):
                key = weight_key + suffix
                if key not in state_dict:
                    has_missing_keys = True
                    if strict:
                        missing_keys.append(key)
            if has_missing_keys:
                return
            with no_grad():
                weight_orig = state_dict[weight_key + "_orig"]
                weight = state_dict.pop(weight_key)
                sigma = (weight_orig / weight).mean()
                weight_mat = fn.reshape_weight_to_matrix(weight_orig)
                u = state_dict[weight_key + "_u"]
                v = fn._solve_v_and_rescale(weight_mat, u, sigma)
                state_dict[weight_key + "_v"] = v


class SpectralNormStateDictHook:
    """State-dict hook of :func:`spectral_norm`: records its version in the metadata
    (``local_metadata["spectral_norm"]["<name>.version"]``)."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, module, state_dict, prefix, local_metadata):
        """Write the version into ``local_metadata``."""
        if "spectral_norm" not in local_metadata:
            local_metadata["spectral_norm"] = {}
        key = self.fn.name + ".version"
        if key in local_metadata["spectral_norm"]:
            raise RuntimeError(f"Unexpected key in metadata['spectral_norm']: {key}")
        local_metadata["spectral_norm"][key] = self.fn._version


def _conv_transpose_types():
    # ConvTranspose3d may be missing from ferrograd.nn
    return tuple(getattr(torch.nn, n) for n in ("ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d")
                 if hasattr(torch.nn, n))


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """Apply spectral normalization to the parameter ``name`` of ``module``:
    ``W_SN = W / sigma(W)``, ``sigma`` estimated by power iteration (``n_power_iterations``
    steps before every forward in training mode). ``name`` becomes the parameter
    ``<name>_orig`` and the buffers ``<name>_u`` / ``<name>_v``; a forward pre-hook sets
    ``module.<name>``. ``dim`` is the output dim (default ``0``, ``1`` for ConvTranspose).

    Returns:
        ``module``.
    """
    if dim is None:
        if isinstance(module, _conv_transpose_types()):
            dim = 1
        else:
            dim = 0
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def remove_spectral_norm(module, name="weight"):
    """Remove the spectral normalization of ``name`` from ``module`` (the parameter ``name``
    comes back with the current normalized value, without a further power iteration).

    Raises:
        ValueError: if ``name`` is not spectrally normalized.
    """
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, SpectralNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            break
    else:
        raise ValueError(f"spectral_norm of '{name}' not found in {module}")

    for k, hook in module._state_dict_hooks.items():
        if isinstance(hook, SpectralNormStateDictHook) and hook.fn.name == name:
            del module._state_dict_hooks[k]
            break

    # as in PyTorch, the load pre-hook is registered wrapped (_WrappedHook), so this test
    # never matches and the hook stays: loading a state_dict then reports weight_orig and
    # weight_u missing, as PyTorch does
    for k, hook in module._load_state_dict_pre_hooks.items():
        if isinstance(hook, SpectralNormLoadStateDictPreHook) and hook.fn.name == name:
            del module._load_state_dict_pre_hooks[k]
            break

    return module
