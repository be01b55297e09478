"""``torch.amp.GradScaler``: dynamic loss scaling with PyTorch's state machine (scale,
unscale_ once per step, skip the step on inf/NaN gradients, grow after ``growth_interval``
clean steps, back off on overflow) and its ``state_dict``."""

import warnings

__all__ = ["GradScaler", "OptState"]


class OptState:
    """Per-optimizer stage within a step (PyTorch's enum values)."""

    READY = 0
    UNSCALED = 1
    STEPPED = 2


class GradScaler:
    """Scales the loss so small float16 gradients do not underflow, and unscales the
    gradients before the optimizer's step."""

    def __init__(self, device="cuda", init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):
        self._device = device
        self._enabled = enabled
        if self._device == "cuda" and enabled:
            from .. import cuda

            if not cuda.is_available():
                warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.", stacklevel=2)
                self._enabled = False
        if self._enabled:
            if growth_factor <= 1.0:
                raise AssertionError("The growth factor must be > 1.0.")
            if backoff_factor >= 1.0:
                raise AssertionError("The backoff factor must be < 1.0.")
        self._init_scale = init_scale
        self._scale = None
        self._growth_factor = growth_factor
        self._backoff_factor = backoff_factor
        self._growth_interval = growth_interval
        self._init_growth_tracker = 0
        self._growth_tracker = None
        self._per_optimizer_states = {}

    def _lazy_init(self):
        if self._scale is None:
            self._scale = float(self._init_scale)
            self._growth_tracker = self._init_growth_tracker

    def _state(self, optimizer):
        return self._per_optimizer_states.setdefault(id(optimizer), {"stage": OptState.READY, "found_inf": None})

    def scale(self, outputs):
        """``outputs`` multiplied by the current scale (a tensor or nested sequences of them)."""
        if not self._enabled:
            return outputs
        self._lazy_init()
        from .. import Tensor

        def apply(v):
            if isinstance(v, Tensor):
                return v * self._scale
            if isinstance(v, (list, tuple)):
                r = [apply(x) for x in v]
                return type(v)(r) if isinstance(v, tuple) else r
            raise ValueError("outputs must be a Tensor or an iterable of Tensors")

        return apply(outputs)

    def unscale_(self, optimizer):
        """Divide the optimizer's gradients by the scale (once per step) and note whether any
        is inf or NaN."""
        if not self._enabled:
            return
        self._lazy_init()
        st = self._state(optimizer)
        if st["stage"] is OptState.UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the last update().")
        if st["stage"] is OptState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        inv = 1.0 / self._scale
        found = False
        from .. import no_grad

        with no_grad():
            for group in optimizer.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    p.grad.mul_(inv)
                    if not bool(p.grad.isfinite().all()):
                        found = True
        st["found_inf"] = found
        st["stage"] = OptState.UNSCALED

    def step(self, optimizer, *args, **kwargs):
        """``optimizer.step()`` unless the (unscaled) gradients hold inf or NaN; returns its
        result (None when skipped)."""
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is enabled.")
        self._lazy_init()
        st = self._state(optimizer)
        if st["stage"] is OptState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if st["stage"] is OptState.READY:
            self.unscale_(optimizer)
        if st["found_inf"] is None:
            raise AssertionError("No inf checks were recorded for this optimizer.")
        result = None
        if not st["found_inf"]:
            result = optimizer.step(*args, **kwargs)
        st["stage"] = OptState.STEPPED
        return result

    def update(self, new_scale=None):
        """Grow the scale after ``growth_interval`` clean steps, back it off after a step with
        inf/NaN gradients (or set it to ``new_scale``)."""
        if not self._enabled:
            return
        self._lazy_init()
        if new_scale is not None:
            self._scale = float(new_scale.item() if hasattr(new_scale, "item") else new_scale)
        else:
            found = [s["found_inf"] for s in self._per_optimizer_states.values() if s["found_inf"] is not None]
            if not found:
                raise AssertionError("No inf checks were recorded prior to update.")
            if any(found):
                self._scale *= self._backoff_factor
                self._growth_tracker = 0
            else:
                self._growth_tracker += 1
                if self._growth_tracker == self._growth_interval:
                    self._scale *= self._growth_factor
                    self._growth_tracker = 0
        self._per_optimizer_states = {}

    def get_scale(self):
        """The current scale as a float (1.0 when disabled)."""
        if not self._enabled:
            return 1.0
        return self._init_scale if self._scale is None else self._scale

    def get_growth_factor(self):
        """The factor the scale grows by."""
        return self._growth_factor

    def set_growth_factor(self, new_factor):
        """Set the growth factor."""
        self._growth_factor = new_factor

    def get_backoff_factor(self):
        """The factor the scale backs off by."""
        return self._backoff_factor

    def set_backoff_factor(self, new_factor):
        """Set the backoff factor."""
        self._backoff_factor = new_factor

    def get_growth_interval(self):
        """Clean steps between growths."""
        return self._growth_interval

    def set_growth_interval(self, new_interval):
        """Set the growth interval."""
        self._growth_interval = new_interval

    def is_enabled(self):
        """Whether scaling is active."""
        return self._enabled

    def state_dict(self):
        """The scaler's state (empty when disabled), as PyTorch's keys."""
        if not self._enabled:
            return {}
        return {"scale": self.get_scale(), "growth_factor": self._growth_factor, "backoff_factor": self._backoff_factor,
                "growth_interval": self._growth_interval,
                "_growth_tracker": self._init_growth_tracker if self._growth_tracker is None else self._growth_tracker}

    def load_state_dict(self, state_dict):
        """Restore a ``state_dict``."""
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The source state dict is empty, possibly because it was saved from a disabled instance of GradScaler.")
        self._init_scale = state_dict["scale"]
        self._scale = float(state_dict["scale"])
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._init_growth_tracker = state_dict["_growth_tracker"]
        self._growth_tracker = state_dict["_growth_tracker"]
